-- The seed CPU functions of shared/seeds/EXAMPLES.md, verbatim (imports,
-- decorators, annotations, defaults and docstrings included), against the
-- same loops written in plain Lua.
local lumba = require "lumba"
local H = require "helpers"
local njit = lumba.njit

-- seed 1 (000): Ising energy, @numba.jit(nopython=True, cache=True)
local ISING = [[
import numpy as np
import numba

@numba.jit(nopython=True, cache=True)
def ising_energy_numba(spins: np.ndarray, J: float = 1.0) -> float:
    """Numba JIT accelerated Ising energy.

    nopython=True: compile fully or raise; cache=True: keep the result on disk.
    """
    N = spins.shape[0]
    energy = 0.0
    for i in range(N):
        for j in range(N):
            s = spins[i, j]
            # periodic boundary via modulo
            neighbor_right = spins[i, (j + 1) % N]
            neighbor_down = spins[(i + 1) % N, j]
            energy -= J * s * (neighbor_right + neighbor_down)
    return energy
]]

-- seed 3 (002): sum of an array, @jit
local SUM_ARRAY = [[
from numba import jit
import numpy as np

@jit
def sum_array_numba(arr):
    total = 0.0
    for i in range(arr.shape[0]):
        total += arr[i]
    return total
]]

-- seed 4 (002): parallel sum, @njit(parallel=True, cache=True) with prange
local PARALLEL_SUM = [[
from numba import njit, prange

@njit(parallel=True, cache=True)
def parallel_sum(arr):
    total = 0.0
    for i in prange(arr.shape[0]):
        total += arr[i]
    return total
]]

-- the Ising loop in plain Lua over a Lua table of rows (1-based)
local function lua_ising(spins, N, J)
  J = J or 1.0
  local energy = 0.0
  for i = 0, N - 1 do
    for j = 0, N - 1 do
      local s = spins[i + 1][j + 1]
      local neighbor_right = spins[i + 1][(j + 1) % N + 1]
      local neighbor_down = spins[(i + 1) % N + 1][j + 1]
      energy = energy - J * s * (neighbor_right + neighbor_down)
    end
  end
  return energy
end

local function lua_sum(t)
  local total = 0.0
  for i = 1, #t do total = total + t[i] end
  return total
end

describe("seed 1: ising_energy_numba", function()
  local ising = njit(ISING)

  it("compiles verbatim and is named after its def", function()
    assert.are.equal("ising_energy_numba", ising.name)
  end)

  it("matches the plain Lua loop on random spins (N = 64), with the default J and J = 0.5", function()
    lumba.random.seed(12345)
    local N = 64
    local spins = lumba.random.choice({ -1, 1 }, { N, N }):astype("float64")
    local t = spins:totable()
    assert.are.equal(lua_ising(t, N), ising(spins))
    assert.are.equal(lua_ising(t, N, 0.5), ising(spins, 0.5))
    assert.are.equal("float", math.type(ising(spins)))
  end)

  it("all-aligned spins give -2 J N^2", function()
    local N = 30
    assert.are.equal(-2.0 * N * N, ising(lumba.ones({ N, N })))
    assert.are.equal(-1.0 * N * N, ising(lumba.ones({ N, N }), 0.5))
  end)

  it("a checkerboard gives +2 J N^2 (every neighbour is opposite)", function()
    local N = 10
    local spins = lumba.empty({ N, N })
    local rows = {}
    for i = 1, N do
      rows[i] = {}
      for j = 1, N do
        local s = ((i + j) % 2 == 0) and 1.0 or -1.0
        spins:set(i, j, s)
        rows[i][j] = s
      end
    end
    assert.are.equal(2.0 * N * N, ising(spins))
    assert.are.equal(lua_ising(rows, N), ising(spins))
  end)

  it("takes the int64 spins lumba.random.choice makes, as Numba takes any dtype", function()
    lumba.random.seed(7)
    local N = 40
    local spins = lumba.random.choice({ -1, 1 }, { N, N })
    assert.are.equal("int64", spins.dtype)
    assert.are.equal(lua_ising(spins:totable(), N), ising(spins))
  end)

  it("runs through lumba.load with its decorator", function()
    local m = lumba.load(ISING)
    lumba.random.seed(99)
    local N = 50
    local spins = lumba.random.choice({ -1, 1 }, { N, N }):astype("float64")
    assert.are.equal(lua_ising(spins:totable(), N), m.ising_energy_numba(spins))
  end)
end)

describe("seed 3: sum_array_numba", function()
  local sum_array = njit(SUM_ARRAY)

  it("matches the plain Lua loop", function()
    lumba.random.seed(3)
    local a = lumba.random.rand(1000)
    assert.are.equal(lua_sum(a:totable()), sum_array(a))
    assert.are.equal(45.0, sum_array(lumba.arange(10, "float64")))
    assert.are.equal(0.0, sum_array(lumba.zeros(0)))
  end)

  it("sums integer arrays into a float, as total starts at 0.0", function()
    local s = sum_array(lumba.arange(101, "int64"))
    assert.are.equal(5050.0, s)
    assert.are.equal("float", math.type(s))
  end)

  it("runs through lumba.load with @jit", function()
    local m = lumba.load(SUM_ARRAY)
    local a = lumba.linspace(0, 1, 11)
    H.assert_close(lua_sum(a:totable()), m.sum_array_numba(a))
  end)
end)

describe("seed 4: parallel_sum", function()
  it("compiled with njit(src), prange runs as range and gives the plain Lua sum", function()
    local parallel_sum = njit(PARALLEL_SUM)
    lumba.random.seed(4)
    local a = lumba.random.rand(10000)
    H.assert_close(lua_sum(a:totable()), parallel_sum(a), 1e-12)
    assert.are.equal(4950.0, parallel_sum(lumba.arange(100, "float64")))
  end)
end)
