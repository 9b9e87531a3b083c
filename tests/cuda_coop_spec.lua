-- Cooperative groups and exceptions in kernels (issue 22): on the GPU (tag
-- gpu) and, through cuda_sim_spec.lua's run of every gpu-tagged spec under
-- LUMBA_CUDA_SIM=1, in the simulator. Expected values are computed on the
-- host by plain Lua loops.
local lumba = require "lumba"
local H = require "helpers"
local cuda = lumba.cuda

describe("cuda cooperative groups #gpu", function()
  if not cuda.is_available() then
    pending("[no CUDA device and no simulator]")
    return
  end

  it("runs numba-cuda's grid-sync example: each row from the previous one, mirrored", function()
    -- numba-cuda's documentation example (cooperative_groups.rst), verbatim
    local k = cuda.jit [[
from numba import cuda, int32
import numpy as np

sig = (int32[:,::1],)

@cuda.jit(sig)
def sequential_rows(M):
    col = cuda.grid(1)
    g = cuda.cg.this_grid()

    rows = M.shape[0]
    cols = M.shape[1]

    for row in range(1, rows):
        opposite = cols - col - 1
        # Each row's elements are computed from the previous row
        M[row, col] = M[row - 1, opposite] + 1
        # Wait until all threads have written their column element
        g.sync()
]]
    local rows, cols = 300, 256
    local A = lumba.zeros({ rows, cols }, "int32")
    local blocks = 2
    k[{ blocks, cols // blocks }](A)
    -- on the host: each row r is r - 1 everywhere, since row 1 is zeros
    local want = {}
    for r = 1, rows do
      want[r] = {}
      for c = 1, cols do want[r][c] = r == 1 and 0 or want[r - 1][cols - c + 1] + 1 end
    end
    assert.are.same(want, A:totable())
  end)

  it("steps a heat equation with one grid sync per step, as the host loop", function()
    local k = cuda.jit [[
from numba import cuda

@cuda.jit
def heat(u, v, steps, alpha):
    i = cuda.grid(1)
    n = u.shape[0]
    g = cuda.cg.this_grid()
    for s in range(steps):
        if s % 2 == 0:
            if i > 0 and i < n - 1:
                v[i] = u[i] + alpha * (u[i - 1] - 2.0 * u[i] + u[i + 1])
        else:
            if i > 0 and i < n - 1:
                u[i] = v[i] + alpha * (v[i - 1] - 2.0 * v[i] + v[i + 1])
        g.sync()
]]
    local n, steps, alpha = 512, 200, 0.25
    local u0 = {}
    for i = 1, n do u0[i] = (i == n // 2) and 100.0 or ((i - 1) % 7) * 1.0 end
    local du, dv = cuda.to_device(lumba.array(u0)), cuda.to_device(lumba.array(u0))
    k[{ 4, 128 }](du, dv, steps, alpha)
    local cur, nxt = {}, {}
    for i = 1, n do cur[i], nxt[i] = u0[i], u0[i] end
    for _ = 1, steps do
      for i = 2, n - 1 do nxt[i] = cur[i] + alpha * (cur[i - 1] - 2.0 * cur[i] + cur[i + 1]) end
      cur, nxt = nxt, cur
    end
    -- an even number of steps ends in u
    local got = du:copy_to_host()
    for i = 1, n do assert(math.abs(cur[i] - got[i]) <= 1e-12 * math.abs(cur[i]) + 1e-12, i) end
  end)

  it("refuses a cooperative launch larger than what can be resident, naming the limit", function()
    local k = cuda.jit [[
def count(out):
    g = cuda.cg.this_grid()
    cuda.atomic.add(out, 0, 1)
    g.sync()
]]
    local out = cuda.to_device(lumba.zeros(1, "int64"))
    k[{ 1, 64 }](out)
    local most = k:max_cooperative_grid_blocks(64)
    assert.is_true(math.type(most) == "integer" and most >= 1)
    assert.are.equal(most, k:max_cooperative_grid_blocks({ 64 }, 0))
    -- the largest grid runs, and every thread passed the barrier once
    out = cuda.to_device(lumba.zeros(1, "int64"))
    k[{ most, 64 }](out)
    assert.are.equal(most * 64, out:copy_to_host()[1])
    local err = H.error_of(function() k[{ most + 1, 64 }](out) end)
    assert.truthy(err:find("count syncs its grid (cuda.cg.this_grid().sync()), so its launch is cooperative", 1, true), err)
    assert.truthy(err:find("at most " .. most .. " blocks of 64 threads", 1, true), err)
    assert.truthy(err:find("not " .. (most + 1) .. "; see count:max_cooperative_grid_blocks(64)", 1, true), err)
    -- the state stays usable
    k[{ 1, 64 }](out)
    assert.are.equal(most * 64 + 64, out:copy_to_host()[1])
    local f = cuda.jit "def f(a):\n    a[0] = 1\n"
    assert.truthy(H.error_of(function() return f:max_cooperative_grid_blocks(32) end):find("no compiled specialization", 1, true))
  end)

  it("types GridGroup's methods: sync only", function()
    local k = cuda.jit "def k(a):\n    g = cuda.cg.this_grid()\n    g.wait()\n"
    assert.truthy(H.error_of(function() k[{ 1, 1 }](lumba.zeros(1)) end):find("GridGroup has no method 'wait'", 1, true))
    local f = lumba.njit "def f():\n    g = cuda.cg.this_grid()\n    return 1\n"
    assert.truthy(H.error_of(function() return f() end):find("cuda.cg.this_grid is only available inside cuda.jit kernels", 1, true))
  end)
end)

describe("cuda exceptions in kernels #gpu", function()
  if not cuda.is_available() then
    pending("[no CUDA device and no simulator]")
    return
  end

  local src = [[
from numba import cuda

@cuda.jit(debug=True, opt=False)
def check(a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        if a[i] < 0:
            raise ValueError("negative value")
        assert a[i] != 7.5, "no sevens and a half"
        a[i] = a[i] * 2
]]

  it("with debug=True, a raise reaches Lua naming the exception, block, thread, message and line", function()
    local k = cuda.jit(src)
    local a = lumba.arange(100.0)
    a[71] = -1  -- element 70: block 1, thread 6 of blocks of 64
    local err = H.error_of(function() k[{ 2, 64 }](a) end)
    assert.truthy(err:find("ValueError in block (1,0,0) thread (6,0,0): negative value", 1, true), err)
    assert.truthy(err:find('raise ValueError("negative value")', 1, true), err)
    local d = cuda.to_device(lumba.arange(100.0))
    d[10] = 7.5   -- element 9
    err = H.error_of(function() k[{ 2, 64 }](d) end)
    assert.truthy(err:find("AssertionError in block (0,0,0) thread (9,0,0): no sevens and a half", 1, true), err)
    -- the state stays usable; a launch that fails nowhere reports nothing
    local ok = cuda.to_device(lumba.arange(100.0))
    k[{ 2, 64 }](ok)
    assert.are.equal(2 * 99, ok:copy_to_host()[100])
  end)

  it("with debug=True and boundscheck, an index out of range names its block and thread", function()
    local k = cuda.jit({ debug = true, boundscheck = true }, [[
def shift(a, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = a[i + 1]
]])
    local a, out = cuda.to_device(lumba.arange(32.0)), cuda.device_array(32)
    local err = H.error_of(function() k[{ 1, 32 }](a, out) end)
    assert.truthy(err:find("IndexError in block (0,0,0) thread (31,0,0): index 32 out of bounds for axis 0 with size 32", 1, true), err)
  end)

  it("without debug, a GPU kernel's raise ends its thread silently (the simulator always reports)", function()
    local k = cuda.jit((src:gsub("debug=True, opt=False", "")))
    local d = cuda.to_device(lumba.arange(100.0))
    d[10] = 7.5
    if cuda.simulate() then
      assert.truthy(H.error_of(function() k[{ 2, 64 }](d) end):find("AssertionError in block (0,0,0) thread (9,0,0)", 1, true))
    else
      k[{ 2, 64 }](d)
      local h = d:copy_to_host()
      assert.are.equal(7.5, h[10])      -- its thread stopped at the assert
      assert.are.equal(2 * 99, h[100])  -- the others ran
    end
  end)
end)

describe("cuda kernels reading Lua arrays as globals #gpu", function()
  if not cuda.is_available() then
    pending("[no CUDA device and no simulator]")
    return
  end

  it("freezes an ndarray of the caller's locals into the kernel, as numba-cuda freezes global arrays", function()
    local W = lumba.array({ { 1.5, 2.0 }, { 3.0, 4.0 } })
    local perm = lumba.array({ 3, 1, 2 }, "int32")
    local k = cuda.jit [[
def k(out):
    i = cuda.grid(1)
    if i < 2:
        out[i] = W[i, 0] * 10 + W[i, 1] + perm[i]
]]
    local out = lumba.zeros(2)
    k[{ 1, 32 }](out)
    -- by hand: 1.5 * 10 + 2 + 3, 3 * 10 + 4 + 1
    assert.are.same({ 20.0, 35.0 }, out:totable())
    -- frozen: a later change of W does not reach the compiled kernel
    W:set(1, 1, 100.0)
    k[{ 1, 32 }](out)
    assert.are.same({ 20.0, 35.0 }, out:totable())
    -- env too, and the constant array is read-only
    local k2 = cuda.jit({ env = { T = lumba.arange(5, "int64") } }, "def k2(out):\n    out[0] = T[4] * 2\n")
    local o = lumba.zeros(1, "int64")
    k2[{ 1, 1 }](o)
    assert.are.equal(8, o[1])
  end)

  it("uses a device array named as a global through its pointer: reads and writes reach the array", function()
    local acc = cuda.to_device(lumba.zeros(4))
    local scale = cuda.to_device(lumba.array({ 1.0, 2.0, 3.0, 4.0 }))
    local k = cuda.jit [[
def k(x):
    i = cuda.grid(1)
    if i < acc.shape[0]:
        acc[i] += x[i] * scale[i]
]]
    k[{ 1, 32 }](cuda.to_device(lumba.array({ 10.0, 20.0, 30.0, 40.0 })))
    assert.are.same({ 10.0, 40.0, 90.0, 160.0 }, acc:copy_to_host():totable())
    -- not frozen: the kernel sees the array's new contents and adds to its own result
    scale:copy_to_device(lumba.array({ 0.0, 0.0, 0.0, 1.0 }))
    k[{ 1, 32 }](lumba.ones(4))
    assert.are.same({ 10.0, 40.0, 90.0, 161.0 }, acc:copy_to_host():totable())
    -- env too, 2-d; the kernel keeps the array alive after the caller drops it
    local k2 = cuda.jit({ env = { G = cuda.to_device(lumba.arange(6, "int64"):reshape({ 2, 3 })) } },
      "def k2(out):\n    out[0] = G[1, 2] * 10 + G.shape[1]\n    G[0, 0] = 7\n")
    collectgarbage()
    local o = lumba.zeros(1, "int64")
    k2[{ 1, 1 }](o)
    assert.are.equal(53, o[1])
    local k3 = cuda.jit({ env = { H = cuda.to_device(lumba.zeros(1)) } }, "def k3(out):\n    out[0] = H.size\n")
    k3[{ 1, 1 }](o)
    assert.are.equal(1, o[1])
  end)

  it("refuses a freed device array global and one in a cached kernel", function()
    local d = cuda.to_device(lumba.zeros(3))
    d:free()
    local k = cuda.jit "def k(out):\n    out[0] = d[0]\n"
    local err = H.error_of(function() k[{ 1, 1 }](lumba.zeros(1)) end)
    assert.truthy(err:find("'d' is a freed device array", 1, true), err)
    local e = cuda.to_device(lumba.zeros(3))
    local kc = cuda.jit({ cache = true }, "def kc(out):\n    out[0] = e[0]\n")
    err = H.error_of(function() kc[{ 1, 1 }](lumba.zeros(1)) end)
    assert.truthy(err:find("'e' is a device array: a kernel with cache=true cannot use it as a global", 1, true), err)
  end)

  it("refuses Lua arrays it cannot freeze, saying to pass them as arguments", function()
    local big = lumba.zeros(10000)
    local k = cuda.jit "def k(out):\n    out[0] = big[0]\n"
    local err = H.error_of(function() k[{ 1, 1 }](lumba.zeros(1)) end)
    assert.truthy(err:find("'big' is a Lua array of 80000 bytes: a kernel freezes the arrays it uses as globals into its 64 KiB of constant memory (pass it as an argument)", 1, true), err)
    -- complex arrays freeze (tests/cuda_globals_spec.lua); record arrays do not
    local z = lumba.zeros(2, lumba.dtype({ { "x", "float64" } }))
    local k2 = cuda.jit "def k2(out):\n    out[0] = z[0].x\n"
    assert.truthy(H.error_of(function() k2[{ 1, 1 }](lumba.zeros(1)) end):find("'z' is a Lua array of Record(", 1, true))
  end)
end)
