-- The first call of the Ising seed in a fresh process, with a cold cache
-- (compiles, then writes the cache entry) and with a warm one (loads the
-- object code: no lowering, no optimisation). Target: warm <= 3 ms.
-- Run from the repository root: lua5.4 bench/cache_latency.lua [runs]
-- Times are CPU time (os.clock) of njit(...) plus the first call, medians
-- over `runs` new processes (default 15).
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = (os.getenv("LUMBA_CPATH") or "build") .. "/?.so;" .. package.cpath

local ISING = [[
import numpy as np
import numba

@numba.jit(nopython=True, cache=True)
def ising_energy_numba(spins: np.ndarray, J: float = 1.0) -> float:
    """Numba JIT accelerated Ising energy."""
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

if arg[1] == "--child" then
  local lumba = require "lumba"
  lumba.random.seed(1)
  local spins = lumba.random.choice({ -1, 1 }, { 100, 100 }):astype("float64")
  local t0 = os.clock()
  local f = lumba.njit { cache = true } (ISING)
  local e = f(spins)
  local ms = (os.clock() - t0) * 1e3
  local info = lumba.cache.info()
  io.write(string.format("%.4f %d %d %.1f\n", ms, info.hits, info.misses, e))
  return
end

local runs = tonumber(arg[1]) or 15
local dir = os.tmpname()
os.remove(dir)
local function q(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function one(clear)
  if clear then os.execute("rm -rf " .. q(dir)) end
  local p = io.popen(("LUMBA_CACHE_DIR=%s lua5.4 bench/cache_latency.lua --child"):format(q(dir)))
  local out = p:read("a")
  p:close()
  local ms, hits, misses = out:match("^(%S+) (%d+) (%d+)")
  assert(ms, "child failed: " .. out)
  assert((clear and misses or hits) == "1", "unexpected cache state: " .. out)
  return tonumber(ms)
end

local function median(t)
  table.sort(t)
  local n = #t
  return n % 2 == 1 and t[(n + 1) // 2] or (t[n // 2] + t[n // 2 + 1]) / 2
end

local cold, warm = {}, {}
for i = 1, runs do
  cold[i] = one(true)
  warm[i] = one(false)
end
os.execute("rm -rf " .. q(dir))
print(string.format("cache_latency (ising_energy, %d fresh processes each)", runs))
print(string.format("  first call, cold cache: %7.2f ms (median)", median(cold)))
print(string.format("  first call, warm cache: %7.2f ms (median; target <= 3 ms)", median(warm)))
