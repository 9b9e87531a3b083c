-- Seed 2: exponential decay on the GPU with cuda.jit, the seed's kernel
-- verbatim, host side as in the seed; checked against the CPU.
-- Run: lua5.4 examples/exp_decay.lua   (needs an NVIDIA GPU; LUMBA_EXAMPLE_QUICK=1 for 10^5)
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local lumba = require "lumba"
local cuda = lumba.cuda

local ok, why = cuda.is_available()
if not ok then
  print("no GPU here, nothing to run: " .. tostring(why))
  return
end

local exponential_decay_kernel = cuda.jit [[
from numba import cuda
import math

@cuda.jit
def exponential_decay_kernel(x, out, tau, n):
    idx = cuda.grid(1)
    if idx < n:
        out[idx] = math.exp(-x[idx] / tau)
]]

-- the same computation on the CPU, as the reference
local exp_decay_cpu = lumba.njit [[
import math
def exp_decay_cpu(x, out, tau):
    for i in range(x.shape[0]):
        out[i] = math.exp(-x[i] / tau)
]]

local n = os.getenv("LUMBA_EXAMPLE_QUICK") == "1" and 100000 or 10000000
local tau = 0.5
lumba.random.seed(0)
local x = lumba.random.rand(n)

local t0 = os.clock()
local d_x = cuda.to_device(x)
cuda.synchronize()
local t_htod = os.clock() - t0
local d_out = cuda.device_array(n, "float64")
local threads_per_block = 256
local blocks_per_grid = (n + threads_per_block - 1) // threads_per_block

exponential_decay_kernel[{blocks_per_grid, threads_per_block}](d_x, d_out, tau, n)   -- compiles
cuda.synchronize()

local start, stop = cuda.event(), cuda.event()
start:record()
local reps = 20
for _ = 1, reps do
  exponential_decay_kernel[{blocks_per_grid, threads_per_block}](d_x, d_out, tau, n)
end
stop:record()
stop:synchronize()
local ms = start:elapsed_time(stop) / reps

t0 = os.clock()
local result_gpu = d_out:copy_to_host()
local t_dtoh = os.clock() - t0

local expected = lumba.empty(n)
exp_decay_cpu(x, expected, tau)
assert(lumba.allclose(result_gpu, expected), "GPU and CPU results differ")

-- pinned host memory makes the transfers faster
local px = cuda.pinned_array(n, "float64")
for i = 1, math.min(n, 10) do px[i] = x[i] end
t0 = os.clock()
local d_px = cuda.to_device(px)
cuda.synchronize()
local t_pinned = os.clock() - t0

local bytes = 2 * 8 * n
print(("n=%d: kernel %.3f ms, %.0f GB/s effective; host->device %.2f ms pageable, %.2f ms pinned; device->host %.2f ms")
  :format(n, ms, bytes / (ms * 1e-3) / 1e9, t_htod * 1e3, t_pinned * 1e3, t_dtoh * 1e3))
print("GPU result matches the CPU (allclose)")
d_px:free()
