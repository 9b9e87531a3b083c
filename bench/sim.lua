-- The CUDA simulator against njit: the exp-decay kernel of seed 2 over
-- 10^7 elements, simulated (blocks on every core, then on one), beside the
-- same loop compiled with njit. Issue 7's target: the simulator within 3x
-- of njit. Then the cost of barriers: a shared-memory block sum (fibers
-- switched at 8 cuda.syncthreads() per thread). Run: lua5.4 bench/sim.lua
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local lumba = require "lumba"
local cuda = lumba.cuda
cuda.simulate(true)

local N = 10000000
local tau = 0.5

local kernel = cuda.jit [[
import math
from numba import cuda

@cuda.jit
def exponential_decay_kernel(x, out, tau, n):
    idx = cuda.grid(1)
    if idx < n:
        out[idx] = math.exp(-x[idx] / tau)
]]

local loop = lumba.njit [[
import math

def exponential_decay(x, out, tau):
    for i in range(x.shape[0]):
        out[i] = math.exp(-x[i] / tau)
]]

local x = lumba.random.rand(N)
local out = lumba.empty(N)
local dx, dout = cuda.to_device(x), cuda.device_array(N, "float64")
local launch = kernel[{ (N + 255) // 256, 256 }]

-- best of 5 wall-clock runs, in ms (os.clock would add the workers' CPU time)
local function best(fn)
  fn()
  local t = math.huge
  for _ = 1, 5 do
    local ev0, ev1 = cuda.event(), cuda.event()
    ev0:record()
    fn()
    ev1:record()
    t = math.min(t, ev0:elapsed_time(ev1))
  end
  return t
end

local t_njit = best(function() loop(x, out, tau) end)
local t_sim = best(function() launch(dx, dout, tau, N) end)
local threads = lumba.config.num_threads
lumba.config.num_threads = 1
local t_sim1 = best(function() launch(dx, dout, tau, N) end)
lumba.config.num_threads = threads

local h = dout:copy_to_host()
for _, i in ipairs { 1, N // 2, N } do assert(h[i] == out[i], "simulated and njit results differ") end

local block_sum = cuda.jit [[
TPB = 128

@cuda.jit
def block_sum(a, out):
    s = cuda.shared.array(TPB, np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    s[t] = a[i] if i < a.shape[0] else 0.0
    cuda.syncthreads()
    step = TPB // 2
    while step > 0:
        if t < step:
            s[t] += s[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        cuda.atomic.add(out, 0, s[0])
]]
local M = 1 << 20
local da, dsum = cuda.to_device(lumba.random.rand(M)), cuda.device_array(1)
local t_sum = best(function() block_sum[{ M // 128, 128 }](da, dsum) end)

print(("exp decay, %d float64 elements"):format(N))
print(("  njit loop                      %8.2f ms"):format(t_njit))
print(("  simulated kernel, %2d thread(s) %8.2f ms  (%.2fx njit)"):format(threads, t_sim, t_sim / t_njit))
print(("  simulated kernel,  1 thread    %8.2f ms  (%.2fx njit)"):format(t_sim1, t_sim1 / t_njit))
print(("shared-memory block sum, %d elements in blocks of 128, %2d thread(s)"):format(M, threads))
print(("  %.2f ms: %.1f ns per thread and barrier"):format(t_sum, t_sum * 1e6 / (M * 8)))
