-- Seed 5, the vector add, written in Lua itself. The CUDA kernel uses
-- 1-based thread indices (cuda.grid(1) is 1 for the first thread, as in
-- Julia's CUDA.jl), so it indexes Lua arrays directly. With a GPU it runs
-- next to the seed's Python-syntax kernel and both are checked; without one
-- both are compiled to NVVM IR. The same addition also runs on the CPU as a
-- parallel loop, checked against the Python-syntax version and against the
-- interpreter running the same Lua function.
-- Run: lua5.4 examples/vector_add_lua.lua   (LUMBA_EXAMPLE_QUICK=1 for small sizes)
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local lumba = require "lumba"
local cuda = lumba.cuda

-- the GPU kernel: one thread per element
local function add_kernel(x, y, out)
  local idx = cuda.grid(1)
  if idx <= #x then
    out[idx] = x[idx] + y[idx]
  end
end

-- the seed's kernel in Python syntax
local add_kernel_py = [[
from numba import cuda

@cuda.jit
def add_kernel(x, y, out):
    idx = cuda.grid(1)
    if idx < x.shape[0]:
        out[idx] = x[idx] + y[idx]
]]

local k_lua, k_py = cuda.jit(add_kernel), cuda.jit(add_kernel_py)
local quick = os.getenv("LUMBA_EXAMPLE_QUICK") == "1"
local n = quick and 10000 or 1000000
local x = lumba.arange(n):astype("float32")
local y = lumba.empty(n, "float32")
for i = 1, n do y[i] = 2 * x[i] end

if cuda.is_available() then
  local threads_per_block = 128
  local blocks_per_grid = (n + (threads_per_block - 1)) // threads_per_block
  local dx, dy = cuda.to_device(x), cuda.to_device(y)
  local d_lua, d_py = cuda.device_array(n, "float32"), cuda.device_array(n, "float32")
  k_lua[{ blocks_per_grid, threads_per_block }](dx, dy, d_lua)
  k_py[{ blocks_per_grid, threads_per_block }](dx, dy, d_py)
  local out_lua, out_py = d_lua:copy_to_host(), d_py:copy_to_host()
  for i = 1, n do
    assert(out_lua[i] == 3 * (i - 1) and out_py[i] == out_lua[i],
      ("GPU out[%d]: Lua syntax %s, Python syntax %s, expected %d"):format(i, out_lua[i], out_py[i], 3 * (i - 1)))
  end
  print(("GPU: %d float32 added by the Lua-syntax kernel, identical to the Python-syntax kernel"):format(n))
else
  local sig = "void(float32[::1], float32[::1], float32[::1])"
  k_lua:compile(sig)
  k_py:compile(sig)
  local ir = k_lua:inspect_llvm()
  assert(ir:find("nvptx64-nvidia-cuda", 1, true) and ir:find("sreg.tid.x", 1, true), "no NVVM IR")
  print(("no GPU (%s): kernels compiled to NVVM IR, Lua syntax %d bytes, Python syntax %d bytes")
    :format(tostring(select(2, cuda.is_available())):match("[^\n]*"), #ir, #k_py:inspect_llvm()))
end

-- the CPU version: the same addition over every element, on every core
local function add_cpu(x, y, out)
  for i in lumba.prange(1, #x) do
    out[i] = x[i] + y[i]
  end
end
local add_cpu_lumba = lumba.njit { parallel = true } (add_cpu)
local add_cpu_py = lumba.njit { parallel = true } [[
def add_cpu(x, y, out):
    for i in prange(x.shape[0]):
        out[i] = x[i] + y[i]
]]

local out_lua, out_py = lumba.empty(n, "float32"), lumba.empty(n, "float32")
add_cpu_lumba(x, y, out_lua)                       -- compiles, then runs on the pool
add_cpu_py(x, y, out_py)
assert(lumba.allclose(out_lua, out_py), "Lua and Python syntax disagree")
for _, i in ipairs { 1, 2, n // 2, n } do
  assert(out_lua[i] == 3 * (i - 1), ("out[%d] = %s, expected %d"):format(i, out_lua[i], 3 * (i - 1)))
end
if quick then
  local out_interp = lumba.empty(n, "float32")
  add_cpu(x, y, out_interp)                        -- the interpreter, same function
  assert(lumba.allclose(out_lua, out_interp), "compiled and interpreted disagree")
end
local t0 = os.clock()
add_cpu_lumba(x, y, out_lua)
local t_lua = os.clock() - t0
t0 = os.clock()
add_cpu_py(x, y, out_py)
local t_py = os.clock() - t0
print(("n=%d: out[n] = %.1f (Python syntax agrees); CPU time Lua syntax %.5f s, Python syntax %.5f s")
  :format(n, out_lua[n], t_lua, t_py))
