-- Seed 4: a parallel sum with prange, the seed's code verbatim: its decorator
-- @njit(parallel=True, cache=True) is honoured (threads and the disk cache).
-- Checked against the serial sum; prints the speed-up.
-- Run: lua5.4 examples/parallel_sum.lua   (LUMBA_EXAMPLE_QUICK=1 for small sizes)
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local lumba = require "lumba"

local SEED = [[
from numba import njit, prange

@njit(parallel=True, cache=True)
def parallel_sum(arr):
    total = 0.0
    for i in prange(arr.shape[0]):
        total += arr[i]
    return total
]]
local parallel_sum = lumba.njit(SEED)
-- the same function compiled without parallel=True: prange is range
local serial_sum = lumba.njit { parallel = false } (SEED)
assert(parallel_sum.options.parallel and parallel_sum.options.cache and not serial_sum.options.parallel)

local n = os.getenv("LUMBA_EXAMPLE_QUICK") == "1" and 1000000 or 100000000
lumba.random.seed(4)
local arr = lumba.random.rand(n)
local p, s = parallel_sum(arr), serial_sum(arr)
assert(math.abs(p - s) <= 1e-9 * math.abs(s), ("parallel %.17g vs serial %.17g"):format(p, s))

local function best(f)
  local t = math.huge
  for _ = 1, 5 do
    local t0 = lumba.clock()
    f(arr)
    t = math.min(t, lumba.clock() - t0)
  end
  return t
end
local ts, tp = best(serial_sum), best(parallel_sum)
print(("sum of %d float64: %.6f (parallel and serial agree)"):format(n, p))
print(("serial %.2f ms, parallel on %d threads %.2f ms: %.2fx"):format(ts * 1e3, lumba.get_num_threads(), tp * 1e3, ts / tp))
io.write(parallel_sum:parallel_diagnostics())
