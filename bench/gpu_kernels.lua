-- make bench-gpu: lumba's cuda.jit kernels against the device-to-device copy
-- roof, measured side by side in one run (events, kernel time only), plus
-- launch overhead and first-launch compile time. Needs an NVIDIA GPU.
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local lumba = require "lumba"
local cuda = lumba.cuda
local core = require "lumba.core"
assert(cuda.is_available())

local function now()
  local f = io.popen("date +%s.%N")
  local t = tonumber(f:read("a"))
  f:close()
  return t
end

local function timed(reps, fn)
  fn()
  cuda.synchronize()
  local a, b = cuda.event(), cuda.event()
  local best = math.huge
  for _ = 1, 5 do
    a:record()
    for _ = 1, reps do fn() end
    b:record()
    b:synchronize()
    best = math.min(best, a:elapsed_time(b) / reps)
  end
  return best  -- ms
end

local N = 100000000
local out = {}
local function row(name, ms, bytes)
  local gbs = bytes / (ms * 1e-3) / 1e9
  out[#out + 1] = { name, ms, gbs }
  print(("%-40s %9.3f ms %8.0f GB/s"):format(name, ms, gbs))
  return gbs
end

-- the roof: device-to-device copy of 2 GiB... of N float64 (read + write counted)
local src = cuda.device_array(N, "float64")
local dst = cuda.device_array(N, "float64")
local roof = row("device-to-device copy (float64)", timed(5, function() dst:copy_to_device(src) end), 2 * 8 * N)

local x = cuda.to_device(lumba.random.rand(N))
cuda.synchronize()
local t0 = now()
local exp_decay = cuda.jit [[
import math
from numba import cuda

@cuda.jit
def exponential_decay_kernel(x, out, tau, n):
    idx = cuda.grid(1)
    if idx < n:
        out[idx] = math.exp(-x[idx] / tau)
]]
local launch = exp_decay[{ (N + 255) // 256, 256 }]
launch(x, dst, 0.5, N)
cuda.synchronize()
local first = now() - t0
local g1 = row("exp decay float64 10^8", timed(10, function() launch(x, dst, 0.5, N) end), 2 * 8 * N)

local add = cuda.jit [[
@cuda.jit
def add_kernel(x, y, out):
    idx = cuda.grid(1)
    if idx < x.shape[0]:
        out[idx] = x[idx] + y[idx]
]]
local fx = cuda.device_array(N, "float32")
local fy = cuda.device_array(N, "float32")
local fo = cuda.device_array(N, "float32")
local la = add[{ (N + 255) // 256, 256 }]
local g2 = row("vector add float32 10^8", timed(10, function() la(fx, fy, fo) end), 3 * 4 * N)

-- launch overhead: an empty kernel with 3 array arguments, asynchronous launches
local empty = cuda.jit "def empty(a, b, c):\n    pass\n"
local small = cuda.device_array(1, "float64")
local le = empty[{ 1, 1 }]
le(small, small, small)
cuda.synchronize()
local reps = 20000
local c0 = os.clock()
for _ = 1, reps do le(small, small, small) end
local per = (os.clock() - c0) / reps * 1e6
cuda.synchronize()
print(("%-40s %9.2f us per launch (CPU time)"):format("launch, 3 array arguments", per))
print(("%-40s %9.1f ms"):format("first launch (type, lower, NVVM, load)", first * 1e3))
print(("exp decay: %.0f%% of the copy roof; vector add: %.0f%%"):format(100 * g1 / roof, 100 * g2 / roof))
