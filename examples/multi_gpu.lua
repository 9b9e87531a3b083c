-- Exponential decay split across every GPU of the machine, one stream per
-- device, checked against one GPU. Device-resident data; the time is the
-- kernels' (launch on all devices, then wait for all).
-- Run: lua5.4 examples/multi_gpu.lua   (LUMBA_EXAMPLE_QUICK=1 for small sizes)
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local lumba = require "lumba"
local cuda = lumba.cuda

local ok, why = cuda.is_available()
if not ok then
  print("no GPU here, nothing to run: " .. tostring(why))
  return
end

local kernel = cuda.jit [[
import math

@cuda.jit
def exp_decay(x, out, tau, n):
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < n:
        out[i] = math.exp(-x[i] / tau)
        i += stride
]]

local quick = os.getenv("LUMBA_EXAMPLE_QUICK") == "1"
local N = quick and 1000000 or 200000000
local tau, reps = 0.5, quick and 3 or 20
lumba.random.seed(7)
local x = lumba.random.rand(N)
local gpus = cuda.gpus

-- one chunk per device: its input, its output and its own stream
local parts = {}
for i, g in ipairs(gpus) do
  local lo = (i - 1) * N // #gpus + 1
  local hi = i * N // #gpus
  g:run(function()
    parts[i] = {
      gpu = g, lo = lo, hi = hi, n = hi - lo + 1,
      x = cuda.to_device(x:slice({ lo, hi }):copy()),
      out = cuda.device_array(hi - lo + 1, "float64"),
      stream = cuda.stream(),
    }
  end)
end

local function run_on(ps)
  for _, p in ipairs(ps) do
    p.gpu:run(function()
      local blocks = (p.n + 255) // 256
      kernel[{ blocks, 256, p.stream }](p.x, p.out, tau, p.n)
    end)
  end
  for _, p in ipairs(ps) do p.gpu:run(function() p.stream:synchronize() end) end
end

-- one GPU: the whole array on device 0
local single = gpus[1]:run(function()
  return { gpu = gpus[1], n = N, x = cuda.to_device(x), out = cuda.device_array(N, "float64"), stream = cuda.stream() }
end)
run_on({ single })                      -- compiles for device 0
run_on(parts)                           -- loads the kernel on every device
-- best of several rounds, alternating, so clocks and noise treat both alike
local function time(ps)
  local t0 = lumba.clock()
  for _ = 1, reps do run_on(ps) end
  return (lumba.clock() - t0) / reps
end
local t_one, t_all = math.huge, math.huge
for _ = 1, 4 do
  t_one = math.min(t_one, time({ single }))
  t_all = math.min(t_all, time(parts))
end

-- the split result equals the single-GPU one, element for element
local whole = gpus[1]:run(function() return single.out:copy_to_host() end)
for _, p in ipairs(parts) do
  local got = p.gpu:run(function() return p.out:copy_to_host() end)
  for _, k in ipairs { 1, 2, p.n // 2, p.n } do
    assert(got[k] == whole[p.lo + k - 1], ("device %d element %d differs"):format(p.gpu.id, k))
  end
end
print(("exp decay of %d float64 on %d GPU(s): one GPU %.3f ms (%.0f GB/s), all %.3f ms (%.0f GB/s): %.2fx"):format(
  N, #gpus, t_one * 1e3, 16 * N / t_one / 1e9, t_all * 1e3, 16 * N / t_all / 1e9, t_one / t_all))
