-- Seed 5: vector addition on the GPU, the seed's kernel verbatim.
-- Run: lua5.4 examples/vector_add.lua   (needs an NVIDIA GPU)
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local lumba = require "lumba"
local cuda = lumba.cuda

local ok, why = cuda.is_available()
if not ok then
  print("no GPU here, nothing to run: " .. tostring(why))
  return
end

local add_kernel = cuda.jit [[
from numba import cuda
import numpy as np

@cuda.jit
def add_kernel(x, y, out):
    idx = cuda.grid(1)
    if idx < x.shape[0]:
        out[idx] = x[idx] + y[idx]
]]

local n = 1000000
local x = lumba.arange(n):astype("float32")
local y = x:copy()
for i = 1, n do y[i] = 2 * x[i] end                -- y = 2 * x
local out = lumba.empty(n, "float32")              -- np.empty_like(x)

local x_device = cuda.to_device(x)
local y_device = cuda.to_device(y)
local out_device = cuda.to_device(out)
local threads_per_block = 128
local blocks_per_grid = (x.size + (threads_per_block - 1)) // threads_per_block
add_kernel[{blocks_per_grid, threads_per_block}](x_device, y_device, out_device)
out = out_device:copy_to_host()

for _, i in ipairs { 1, 2, 1000, n } do
  assert(out[i] == 3 * (i - 1), ("out[%d] = %s, expected %d"):format(i, tostring(out[i]), 3 * (i - 1)))
end
local expected = x:copy()
for i = 1, n do expected[i] = 3 * x[i] end
assert(lumba.allclose(out, expected))
print(("vector add of %d float32 on the GPU: correct (out[n] = %.1f)"):format(n, out[n]))
