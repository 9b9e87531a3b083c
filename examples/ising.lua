-- Seed 1: the Ising energy of a spin lattice, compiled by lumba from the
-- seed's Numba code verbatim, timed against the same loop in plain Lua.
-- Run: lua5.4 examples/ising.lua   (LUMBA_EXAMPLE_QUICK=1 for small sizes)
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local lumba = require "lumba"

local ising_energy_numba = lumba.njit [[
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

-- the same loop in plain Lua over a flat table (0-based indices, as above)
local function ising_energy_lua(spins, N, J)
  J = J or 1.0
  local energy = 0.0
  for i = 0, N - 1 do
    for j = 0, N - 1 do
      local s = spins[i * N + j + 1]
      local right = spins[i * N + (j + 1) % N + 1]
      local down = spins[((i + 1) % N) * N + j + 1]
      energy = energy - J * s * (right + down)
    end
  end
  return energy
end

local function clock() return os.clock() end

if os.getenv("ISING_EXAMPLE_CHILD") then
  -- the second process: only the first call, timed
  local spins = lumba.random.choice({ -1, 1 }, { 500, 500 }):astype("float64")
  local t0 = clock()
  ising_energy_numba(spins)
  local info = lumba.cache.info()
  print(string.format("second process: first call %.2f ms, %s", (clock() - t0) * 1e3,
    info.hits > 0 and "compiled code loaded from the cache" or "compiled (cache miss)"))
  return
end
local quick = os.getenv("LUMBA_EXAMPLE_QUICK") == "1"

lumba.random.seed(42)
for _, N in ipairs(quick and { 50, 100 } or { 500, 2000 }) do
  local spins = lumba.random.choice({ -1, 1 }, { N, N }):astype("float64")
  local flat = {}
  for i = 1, N do for j = 1, N do flat[#flat + 1] = spins:get(i, j) end end

  local t0 = clock()
  local e_first = ising_energy_numba(spins)          -- compiles for float64[:, ::1]
  local t_first = clock() - t0
  local reps = N <= 500 and 20 or 5
  t0 = clock()
  local e
  for _ = 1, reps do e = ising_energy_numba(spins) end
  local t_jit = (clock() - t0) / reps

  t0 = clock()
  local e_lua = ising_energy_lua(flat, N, 1.0)
  local t_lua = clock() - t0

  assert(e == e_first, "compiled results differ between calls")
  assert(math.abs(e - e_lua) <= 1e-9 * math.max(1, math.abs(e_lua)),
    string.format("energies disagree: lumba %.17g, plain Lua %.17g", e, e_lua))
  print(string.format("N=%d  energy %.1f (plain Lua agrees)", N, e))
  print(string.format("  plain Lua %.4f s, lumba %.6f s (first call %.4f s: compiles or loads from the cache): %.0fx faster",
    t_lua, t_jit, t_first, t_lua / t_jit))
end
print("signatures: " .. table.concat(ising_energy_numba.signatures, "; "))

-- cache=True (from the seed's decorator): a new process loads the compiled
-- code from the on-disk cache instead of compiling it again
if not os.getenv("ISING_EXAMPLE_CHILD") then
  local me = debug.getinfo(1, "S").source:sub(2)
  local p = io.popen("ISING_EXAMPLE_CHILD=1 lua5.4 -e 'ISING_CHILD = true' " .. me .. " 2>&1")
  local out = p:read("a")
  p:close()
  io.write(out)
  assert(out:find("from the cache", 1, true), "the second process did not hit the cache")
end
