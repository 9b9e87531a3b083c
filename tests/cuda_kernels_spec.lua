-- cuda.jit kernels: NVVM IR → PTX everywhere libNVVM is installed (checked
-- with ptxas for sm_90), and run on a GPU with checked results (tag gpu).
local lumba = require "lumba"
local H = require "helpers"
local cuda = lumba.cuda
local core = require "lumba.core"

local KERNELS = {
  exp_decay = { [[
import math
from numba import cuda

@cuda.jit
def exponential_decay_kernel(x, out, tau, n):
    idx = cuda.grid(1)
    if idx < n:
        out[idx] = math.exp(-x[idx] / tau)
]], "(float64[::1], float64[::1], float64, int64)" },
  vector_add = { [[
@cuda.jit
def add_kernel(x, y, out):
    idx = cuda.grid(1)
    if idx < x.shape[0]:
        out[idx] = x[idx] + y[idx]
]], "(float32[::1], float32[::1], float32[::1])" },
  block_sum = { [[
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
]], "(float64[::1], float64[::1])" },
  matmul = { [[
TILE = 16

@cuda.jit
def matmul(A, B, C):
    sA = cuda.shared.array((TILE, TILE), np.float32)
    sB = cuda.shared.array((TILE, TILE), np.float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    acc = np.float32(0.0)
    for t in range((A.shape[1] + TILE - 1) // TILE):
        k = t * TILE
        sA[ty, tx] = A[y, k + tx] if y < A.shape[0] and k + tx < A.shape[1] else np.float32(0.0)
        sB[ty, tx] = B[k + ty, x] if k + ty < B.shape[0] and x < B.shape[1] else np.float32(0.0)
        cuda.syncthreads()
        for j in range(TILE):
            acc += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = acc
]], "(float32[:, ::1], float32[:, ::1], float32[:, ::1])" },
  histogram = { [[
@cuda.jit
def histogram(values, bins):
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < values.shape[0]:
        cuda.atomic.add(bins, values[i] % bins.shape[0], 1)
        i += stride
]], "(int64[::1], int32[::1])" },
}

describe("cuda kernels compile to PTX", function()
  local have_nvvm = false
  if core.cuda._toolkit then
    local ok, info = pcall(core.cuda._toolkit)
    have_nvvm = ok and info and info.nvvm ~= nil
  end
  for name, k in pairs(KERNELS) do
    if have_nvvm then
      it(name .. " through libNVVM, assembled by ptxas for sm_90", function()
        local kern = cuda.jit(k[1])
        kern:compile(k[2])
        local ptx = kern:inspect_ptx(nil, { cc = { 9, 0 } })
        assert.truthy(ptx:find(".entry", 1, true))
        local f = os.tmpname()
        local fh = io.open(f, "w")
        fh:write(ptx)
        fh:close()
        local ptxas = "/usr/local/cuda/bin/ptxas"
        if io.open(ptxas) then
          local ok = os.execute(ptxas .. " -arch=sm_90 " .. f .. " -o /dev/null")
          assert.is_true(ok)
        end
        os.remove(f)
      end)
    else
      pending("[needs libNVVM] " .. name)
    end
  end

  if have_nvvm then
    -- a CAS loop would serialise every contending block through L2 round trips
    it("float atomic add and sub use the GPU's atomic add, not a compare-and-swap loop", function()
      local k = cuda.jit [[
@cuda.jit
def acc(x, out, out32):
    i = cuda.grid(1)
    if i < x.shape[0]:
        cuda.atomic.add(out, 0, x[i])
        cuda.atomic.sub(out32, 1, np.float32(x[i]))
]]
      k:compile("(float64[::1], float64[::1], float32[::1])")
      local ptx = k:inspect_ptx(nil, { cc = { 9, 0 } })
      assert.truthy(ptx:find("%.global%.add%.f64") and ptx:find("%.global%.add%.f32"), ptx)
      assert.is_nil(ptx:find("atom.global.cas", 1, true), ptx)
    end)
  else
    pending("[needs libNVVM] float atomics")
  end

  it("rejects a kernel that returns a value, with its position", function()
    local k = cuda.jit "def k(x):\n    return x\n"
    assert.are.equal([[<string>:1:1: TypingError: a CUDA kernel cannot return a value (it returns int64)
    def k(x):
    ^]], H.error_of(function() k:compile("(int64,)") end))
  end)

  it("rejects calling a kernel like a function", function()
    local k = cuda.jit "def k(x):\n    pass\n"
    assert.truthy(H.error_of(k, 1):find("k is a CUDA kernel: launch it with k[{blocks, threads}](...)", 1, true))
  end)

  it("rejects cuda.* outside kernels", function()
    local f = lumba.njit "def f(x):\n    return cuda.grid(1)\n"
    assert.truthy(H.error_of(f, 1):find("UnsupportedError: cuda.grid is only available inside cuda.jit kernels", 1, true))
  end)
end)

describe("cuda kernels on the GPU #gpu", function()
  H.gpu_it("exp decay (seed 2) matches the CPU", function()
    local k = cuda.jit(KERNELS.exp_decay[1])
    local n = 1000003
    local x = lumba.random.rand(n)
    local dx, dout = cuda.to_device(x), cuda.device_array(n, "float64")
    k[{ (n + 255) // 256, 256 }](dx, dout, 0.5, n)
    cuda.synchronize()
    local out = dout:copy_to_host()
    for _, i in ipairs { 1, 2, 1000, n } do H.assert_close(math.exp(-x[i] / 0.5), out[i], 1e-14) end
  end)

  H.gpu_it("vector add (seed 5) with host arrays copied in and back", function()
    local k = cuda.jit(KERNELS.vector_add[1])
    local n = 100000
    local x = lumba.arange(n):astype("float32")
    local y = lumba.full(n, 2, "float32")
    local out = lumba.zeros(n, "float32")
    k[{ (n + 127) // 128, 128 }](x, y, out)      -- host ndarrays: copied in and back
    for _, i in ipairs { 1, 7, n } do assert.are.equal(i - 1 + 2, out[i]) end
  end)

  H.gpu_it("shared-memory block sum with atomics equals the CPU sum", function()
    local k = cuda.jit(KERNELS.block_sum[1])
    local n = 1 << 20
    local a = lumba.random.rand(n)
    local out = cuda.to_device(lumba.zeros(1))
    k[{ n // 128, 128 }](cuda.to_device(a), out)
    local s = 0.0
    for i = 1, n do s = s + a[i] end
    H.assert_close(s, out:copy_to_host()[1], 1e-9)
  end)

  H.gpu_it("tiled shared-memory matmul on a 2-D grid matches the CPU", function()
    local k = cuda.jit(KERNELS.matmul[1])
    local M, K, N = 70, 50, 90
    local A = lumba.random.rand(M, K):astype("float32")
    local B = lumba.random.rand(K, N):astype("float32")
    local C = cuda.device_array({ M, N }, "float32")
    k[{ { (N + 15) // 16, (M + 15) // 16 }, { 16, 16 } }](cuda.to_device(A), cuda.to_device(B), C)
    local c = C:copy_to_host()
    local ref = lumba.njit [[
def ref(A, B):
    C = np.zeros((A.shape[0], B.shape[1]), np.float64)
    for i in range(A.shape[0]):
        for j in range(B.shape[1]):
            for k in range(A.shape[1]):
                C[i, j] += A[i, k] * B[k, j]
    return C
]](A, B)
    for i = 1, M, 7 do for j = 1, N, 11 do H.assert_close(ref:get(i, j), c:get(i, j), 1e-5) end end
  end)

  H.gpu_it("atomics under contention: a histogram", function()
    local k = cuda.jit(KERNELS.histogram[1])
    local n = 1 << 20
    local v = lumba.arange(n)
    local bins = cuda.to_device(lumba.zeros(10, "int32"))
    k[{ 64, 256 }](cuda.to_device(v), bins)
    local h = bins:copy_to_host()
    for b = 1, 10 do
      local want = 0
      for r = b - 1, n - 1, 10 do want = want + 1 end
      assert.are.equal(want, h[b])
    end
  end)

  H.gpu_it("device functions and 3-D grids", function()
    local cube = cuda.jit { device = true } "def cube(x):\n    return x * x * x\n"
    local k = cuda.jit [[
def k(out):
    x, y, z = cuda.grid(3)
    if x < out.shape[0] and y < out.shape[1] and z < out.shape[2]:
        out[x, y, z] = cube(x + 10 * y + 100 * z)
]]
    local out = cuda.device_array({ 5, 6, 7 }, "int64")
    k[{ { 1, 1, 1 }, { 5, 6, 7 } }](out)
    local h = out:copy_to_host()
    for x = 0, 4 do for y = 0, 5 do for z = 0, 6 do
      assert.are.equal((x + 10 * y + 100 * z) ^ 3 // 1, h:get(x + 1, y + 1, z + 1))
    end end end
  end)

  H.gpu_it("launch errors are Lua errors and the state keeps working", function()
    local k = cuda.jit(KERNELS.vector_add[1])
    local d = cuda.device_array(10, "float32")
    local err = H.error_of(function() k[{ 1, 2048 }](d, d, d) end)
    assert.truthy(err:find("1024", 1, true) or err:find("threads", 1, true), err)
    k[{ 1, 10 }](d, d, d)
    cuda.synchronize()
  end)
end)
