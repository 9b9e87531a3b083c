-- Seed 1 again, the Ising energy, now written in Lua itself: lumba.njit takes
-- a plain Lua function. Indices are Lua's (1-based), spins[i][j] is element
-- (i, j) as it is on the Lua side, and the very same function also runs in
-- the interpreter: that is how its result is checked here, next to the
-- seed's Python-syntax version.
-- Run: lua5.4 examples/ising_lua.lua   (LUMBA_EXAMPLE_QUICK=1 for small sizes)
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local lumba = require "lumba"

local function ising_energy(spins, J)
  J = J or 1.0                      -- a default value for J, as `J: float = 1.0`
  local N = spins.shape[1]
  local energy = 0.0
  for i = 1, N do
    for j = 1, N do
      local s = spins[i][j]
      -- periodic boundary: the neighbour after N is 1
      local neighbor_right = spins[i][j % N + 1]
      local neighbor_down = spins[i % N + 1][j]
      energy = energy - J * s * (neighbor_right + neighbor_down)
    end
  end
  return energy
end

local ising_energy_lumba = lumba.njit(ising_energy)

-- the seed's Python-syntax version, for comparison
local ising_energy_numba = lumba.njit [[
import numpy as np
import numba

@numba.jit(nopython=True, cache=True)
def ising_energy_numba(spins: np.ndarray, J: float = 1.0) -> float:
    N = spins.shape[0]
    energy = 0.0
    for i in range(N):
        for j in range(N):
            s = spins[i, j]
            neighbor_right = spins[i, (j + 1) % N]
            neighbor_down = spins[(i + 1) % N, j]
            energy -= J * s * (neighbor_right + neighbor_down)
    return energy
]]

-- the best time of a few runs of f(spins)
local function best(f, spins, reps)
  local t = math.huge
  for _ = 1, reps do
    local t0 = os.clock()
    f(spins)
    t = math.min(t, os.clock() - t0)
  end
  return t
end

local quick = os.getenv("LUMBA_EXAMPLE_QUICK") == "1"
lumba.random.seed(42)
for _, N in ipairs(quick and { 50, 100 } or { 500, 2000 }) do
  local spins = lumba.random.choice({ -1, 1 }, { N, N }):astype("float64")
  local e_lua = ising_energy_lumba(spins)             -- compiles for float64[:, ::1]
  local e_py = ising_energy_numba(spins)
  local t0 = os.clock()
  local e_interp = ising_energy(spins)                 -- the same function, interpreted
  local t_interp = os.clock() - t0
  assert(e_lua == e_interp, ("Lua syntax %.17g, interpreter %.17g"):format(e_lua, e_interp))
  assert(e_lua == e_py, ("Lua syntax %.17g, Python syntax %.17g"):format(e_lua, e_py))
  assert(ising_energy_lumba(spins, 0.5) == ising_energy(spins, 0.5), "J = 0.5 disagrees")
  local reps = N <= 500 and 20 or 5
  local t_lua, t_py = best(ising_energy_lumba, spins, reps), best(ising_energy_numba, spins, reps)
  print(("N=%d  energy %.1f (Python syntax and the interpreter agree)"):format(N, e_lua))
  print(("  Lua syntax %.6f s, Python syntax %.6f s, interpreted %.4f s: %.0fx faster than the interpreter")
    :format(t_lua, t_py, t_interp, t_interp / t_lua))
end
print("signatures: " .. table.concat(ising_energy_lumba.signatures, "; "))
