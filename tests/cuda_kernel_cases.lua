-- The cuda.jit kernels of the specs and the tests that launch them, shared
-- by the GPU (cuda_kernels_spec.lua, tag gpu) and the CPU simulator
-- (cuda_sim_spec.lua, run on every push): C.define(it) adds the tests
-- through the given it(). Each checks its kernel against results computed
-- on the CPU, so the same kernels must give the same results in both.
local assert = require "luassert"  -- busted's assert lives in the spec files' environment
local lumba = require "lumba"
local H = require "helpers"
local cuda = lumba.cuda

local C = {}

C.KERNELS = {
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
  -- grid-stride loops up and down: on the GPU unrolled 4 times (the step is
  -- add nsw), so every remainder of the trip count must still be right
  grid_stride = { [[
@cuda.jit
def grid_stride(x, up, down):
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < x.shape[0]:
        up[i] += x[i] + 1
        i += stride
    j = x.shape[0] - 1 - cuda.grid(1)
    while j >= 0:
        down[j] = down[j] + 2 * x[j]
        j = j - stride
]], "(int64[::1], int64[::1], int64[::1])" },
  reverse = { [[
@cuda.jit
def reverse(a, out):
    s = cuda.shared.array(64, np.int64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    s[t] = a[i]
    cuda.syncthreads()
    out[i] = s[cuda.blockDim.x - 1 - t]
]], "(int64[::1], int64[::1])" },
  lanes = { [[
@cuda.jit
def lanes(out):
    loc = cuda.local.array(4, np.int64)
    t = cuda.threadIdx.x
    for j in range(4):
        loc[j] = t * j
    out[t, 0] = loc[3]
    out[t, 1] = cuda.laneid
    out[t, 2] = cuda.warpsize
]], "(int64[:, ::1],)" },
  rotate = { [[
@cuda.jit
def rotate(out):
    s = cuda.shared.array(64, np.int64)
    t = cuda.threadIdx.x
    s[t] = 100 + t
    cuda.syncwarp()
    out[t] = s[t // 32 * 32 + (t + 1) % 32]
]], "(int64[::1],)" },
  atomics = { [[
@cuda.jit
def atomics(f, i, won):
    g = cuda.grid(1)
    cuda.atomic.add(f, 0, 0.5)
    cuda.atomic.max(f, 1, g * 0.25)
    cuda.atomic.max(i, 0, g)
    cuda.atomic.min(i, 1, g)
    if cuda.atomic.cas(i, 2, 0, g + 1) == 0:
        cuda.atomic.add(won, 0, 1)
]], "(float64[::1], int64[::1], int64[::1])" },
}

local KERNELS = C.KERNELS

function C.define(it)
  it("exp decay (seed 2) matches the CPU", function()
    local k = cuda.jit(KERNELS.exp_decay[1])
    local n = 1000003
    local x = lumba.random.rand(n)
    local dx, dout = cuda.to_device(x), cuda.device_array(n, "float64")
    k[{ (n + 255) // 256, 256 }](dx, dout, 0.5, n)
    cuda.synchronize()
    local out = dout:copy_to_host()
    for _, i in ipairs { 1, 2, 1000, n } do H.assert_close(math.exp(-x[i] / 0.5), out[i], 1e-14) end
  end)

  it("vector add (seed 5) with host arrays copied in and back", function()
    local k = cuda.jit(KERNELS.vector_add[1])
    local n = 100000
    local x = lumba.arange(n):astype("float32")
    local y = lumba.full(n, 2, "float32")
    local out = lumba.zeros(n, "float32")
    k[{ (n + 127) // 128, 128 }](x, y, out)      -- host ndarrays: copied in and back
    for _, i in ipairs { 1, 7, n } do assert.are.equal(i - 1 + 2, out[i]) end
  end)

  it("shared-memory block sum with atomics equals the CPU sum", function()
    local k = cuda.jit(KERNELS.block_sum[1])
    local n = 1 << 20
    local a = lumba.random.rand(n)
    local out = cuda.to_device(lumba.zeros(1))
    k[{ n // 128, 128 }](cuda.to_device(a), out)
    local s = 0.0
    for i = 1, n do s = s + a[i] end
    H.assert_close(s, out:copy_to_host()[1], 1e-9)
  end)

  it("tiled shared-memory matmul on a 2-D grid matches the CPU", function()
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

  it("atomics under contention: a histogram", function()
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

  it("device functions and 3-D grids", function()
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

  it("launch errors are Lua errors and the state keeps working", function()
    local k = cuda.jit(KERNELS.vector_add[1])
    local d = cuda.device_array(10, "float32")
    local err = H.error_of(function() k[{ 1, 2048 }](d, d, d) end)
    assert.truthy(err:find("1024", 1, true) or err:find("threads", 1, true), err)
    k[{ 1, 10 }](d, d, d)
    cuda.synchronize()
  end)

  -- a launch object remembers the previous call's specialization; other
  -- argument types must still pick (or compile) the right one
  it("one launch object called with changing argument types", function()
    local k = cuda.jit [[
@cuda.jit
def scale(a, f):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i] = a[i] * f
]]
    local l = k[{ 1, 32 }]
    local d64 = cuda.to_device(lumba.array({ 1, 2, 3 }, "float64"))
    local di = cuda.to_device(lumba.array({ 1, 2, 3 }, "int64"))
    local d32 = cuda.to_device(lumba.array({ 1, 2, 3 }, "float32"))
    l(d64, 2)
    l(d64, 2)         -- the same types again
    l(d64, 0.5)       -- a float factor: another specialization
    l(di, 3)          -- an int64 array
    l(d32, 1.5)       -- a float32 array
    local host = lumba.array({ 5, 6 }, "float64")
    l(host, 3)        -- a host ndarray: copied in and back
    cuda.synchronize()
    assert.are.same({ 2, 4, 6 }, d64:copy_to_host():totable())
    assert.are.same({ 3, 6, 9 }, di:copy_to_host():totable())
    assert.are.same({ 1.5, 3, 4.5 }, d32:copy_to_host():totable())
    assert.are.same({ 15, 18 }, host:totable())
    assert.are.equal(4, #k.signatures)
    local gone = cuda.to_device(lumba.array({ 1, 2, 3 }, "float64"))
    gone:free()
    local err = H.error_of(function() l(gone, 2) end)
    assert.truthy(err:find("attempt to use a freed device array", 1, true), err)
    l(d64, 2)
    cuda.synchronize()
    assert.are.same({ 4, 8, 12 }, d64:copy_to_host():totable())
  end)

  it("shared memory read after cuda.syncthreads() holds the other threads' writes", function()
    local k = cuda.jit(KERNELS.reverse[1])
    local a = lumba.arange(256)
    local out = cuda.device_array(256, "int64")
    k[{ 4, 64 }](cuda.to_device(a), out)
    local h = out:copy_to_host()
    for i = 0, 255 do
      local b, t = i // 64, i % 64
      assert.are.equal(64 * b + 63 - t, h[i + 1])
    end
  end)

  it("local arrays are per thread; laneid and warpsize", function()
    local k = cuda.jit(KERNELS.lanes[1])
    local out = cuda.device_array({ 40, 3 }, "int64")
    k[{ 1, 40 }](out)
    local h = out:copy_to_host()
    for t = 0, 39 do
      assert.are.same({ 3 * t, t % 32, 32 }, { h:get(t + 1, 1), h:get(t + 1, 2), h:get(t + 1, 3) })
    end
  end)

  it("cuda.syncwarp() orders the lanes of each warp", function()
    local k = cuda.jit(KERNELS.rotate[1])
    local out = cuda.device_array(64, "int64")
    k[{ 1, 64 }](out)
    local h = out:copy_to_host()
    for t = 0, 63 do assert.are.equal(100 + t // 32 * 32 + (t + 1) % 32, h[t + 1]) end
  end)

  it("grid-stride loops visit each element once, whatever the remainder of the trip count", function()
    local k = cuda.jit(KERNELS.grid_stride[1])
    -- 3 blocks of 32: n below, at and around multiples of 96 and 4 * 96 (the unrolled loop)
    for _, n in ipairs { 1, 50, 96, 97, 383, 384, 385, 1000, 1153 } do
      local x = lumba.arange(n) * 3
      local up, down = cuda.to_device(lumba.zeros(n, "int64")), cuda.to_device(lumba.ones(n, "int64"))
      k[{ 3, 32 }](cuda.to_device(x), up, down)
      local u, d = up:copy_to_host(), down:copy_to_host()
      for i = 1, n do
        if u[i] ~= x[i] + 1 or d[i] ~= 1 + 2 * x[i] then
          error(("n = %d, element %d: up %d (want %d), down %d (want %d)"):format(n, i, u[i], x[i] + 1, d[i], 1 + 2 * x[i]))
        end
      end
    end
  end)

  it("a Lua grid-stride loop (i = i + step) visits each element once", function()
    local k = cuda.jit(function(x, out)
      local i = cuda.grid(1)
      while i <= #x do
        out[i] = out[i] + x[i]
        i = i + cuda.gridsize(1)
      end
    end)
    for _, n in ipairs { 5, 64, 257, 1001 } do
      local x = lumba.arange(n) + 1
      local out = cuda.to_device(lumba.zeros(n, "int64"))
      k[{ 2, 32 }](cuda.to_device(x), out)
      assert.are.same(x:totable(), out:copy_to_host():totable())
    end
  end)

  it("float and integer atomics under contention: add, max, min and compare-and-swap", function()
    local k = cuda.jit(KERNELS.atomics[1])
    local f = cuda.to_device(lumba.zeros(2))
    local i = cuda.to_device { 0, 1 << 40, 0 }
    local won = cuda.to_device { 0 }
    k[{ 64, 128 }](f, i, won)
    local fh, ih = f:copy_to_host(), i:copy_to_host()
    assert.are.same({ 4096.0, 8191 * 0.25 }, fh:totable())
    assert.are.equal(8191, ih[1])
    assert.are.equal(0, ih[2])
    assert.is_true(ih[3] >= 1 and ih[3] <= 8192)
    assert.are.same({ 1 }, won:copy_to_host():totable())
  end)
end

return C
