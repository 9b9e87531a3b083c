-- numba-cuda's documented host and kernel API (issue 22): on the GPU (tag
-- gpu) and, through cuda_sim_spec.lua's run of every gpu-tagged spec under
-- LUMBA_CUDA_SIM=1, in the simulator. Expected values come from the host
-- (lumba's own arrays, computed independently of the kernels).
local lumba = require "lumba"
local H = require "helpers"
local cuda = lumba.cuda

local function avail()
  return (cuda.is_available())
end

describe("cuda host API #gpu", function()
  if not avail() then
    pending("[no CUDA device and no simulator]")
    return
  end

  it("k:forall(n) covers n threads with a block size of the occupancy calculator", function()
    local k = cuda.jit "def k(out):\n    i = cuda.grid(1)\n    if i < out.size:\n        out[i] = i * 3 + 1\n"
    for _, n in ipairs { 1, 255, 1000, 100003 } do
      local o = cuda.device_array(n, "int64")
      k:forall(n)(o)
      local h = o:copy_to_host()
      for _, i in ipairs { 1, n // 2 + 1, n } do assert.are.equal((i - 1) * 3 + 1, h[i]) end
    end
    assert.are.equal("lumba.kernel_launch: forall 7 threads", tostring(k:forall(7)))
    local s = cuda.stream()
    local o = cuda.to_device(lumba.zeros(5, "int64"))
    k:forall(5, s)(o)
    s:synchronize()
    assert.are.same({ 1, 4, 7, 10, 13 }, o:copy_to_host():totable())
    k:forall(0)(o)  -- no threads: nothing runs
    local f = lumba.njit "def f(x):\n    return x\n"
    assert.truthy(H.error_of(function() return f:forall(3) end):find("f is not a CUDA kernel", 1, true))
  end)

  it("indexes device arrays from the host: d[i], d[i] = v, rows as views, get/set", function()
    local h = lumba.arange(12):reshape(3, 4):astype("float32")
    local d = cuda.to_device(h)
    assert.are.equal("lumba.devicearray(float32, (4,))", tostring(d[1]))
    assert.are.equal(h[2][3], d[2][3])
    assert.are.equal(h:get(3, 4), d[-1][-1])
    assert.are.equal(h:get(3, 4), d:get(3, 4))
    d[2] = 7            -- a row filled
    d[1][1] = 42        -- through a view: shares d's memory
    d:set(3, 2, -1.5)
    d[3][3] = lumba.array({ 1 }, "float32")[1]
    h[2] = 7
    h[1][1] = 42
    h:set(3, 2, -1.5)
    h[3][3] = 1
    assert.are.same(h:totable(), d:copy_to_host():totable())
    d[1] = lumba.array({ 9, 8, 7, 6 }, "float32")
    assert.are.same({ 9, 8, 7, 6 }, d[1]:copy_to_host():totable())
    assert.are.equal("index 4 out of bounds for axis 1 with size 3", H.error_of(function() return d[4] end):gsub("^.-:%d+: ", ""))
    assert.are.equal("index 0 out of bounds for axis 1 with size 4", H.error_of(function() return d[1][0] end):gsub("^.-:%d+: ", ""))
    assert.truthy(H.error_of(function() d[1][1] = "x" end))
    local i = cuda.to_device(lumba.arange(5, "int32"))
    i[5] = (1 << 31) - 1
    assert.are.equal((1 << 31) - 1, i[5])
    assert.truthy(H.error_of(function() i[1] = 1 << 31 end):find("value 2147483648 out of bounds for int32", 1, true))
    local s = d:slice(2, 3)
    assert.are.equal(h:get(3, 4), s[2][4])
  end)

  it("makes arrays like others: zeros_like, ones_like, empty_like, full_like, device_array_like", function()
    local h = lumba.arange(6):reshape(2, 3):astype("float32")
    local d = cuda.to_device(h)
    assert.are.same({ { 0, 0, 0 }, { 0, 0, 0 } }, lumba.zeros_like(d):copy_to_host():totable())
    assert.are.same({ { 1, 1, 1 }, { 1, 1, 1 } }, lumba.ones_like(d, "int8"):copy_to_host():totable())
    assert.are.equal("int8", lumba.ones_like(d, "int8").dtype)
    assert.are.equal("lumba.devicearray(float32, (2, 3))", tostring(lumba.empty_like(d)))
    assert.are.same({ { 2.5, 2.5, 2.5 }, { 2.5, 2.5, 2.5 } }, lumba.full_like(d, 2.5, "float64"):copy_to_host():totable())
    assert.are.equal("lumba.devicearray(float32, (2, 3))", tostring(cuda.device_array_like(h)))
    assert.are.equal("lumba.devicearray(float32, (2, 3))", tostring(cuda.device_array_like(d)))
    local z = lumba.zeros_like(h)
    assert.are.equal("float32", z.dtype)
    assert.are.same({ { 0, 0, 0 }, { 0, 0, 0 } }, z:totable())
    assert.are.equal("F", lumba.zeros_like(h:transpose()).layout)
    assert.are.same({ 1, 1 }, lumba.ones_like(lumba.array { 5, 6 }):totable())
    assert.are.same({ 7, 7 }, lumba.full_like(lumba.array { 5, 6 }, 7):totable())
    local into = lumba.zeros_like(h)
    assert.are.equal(into, d:copy_to_host(into))
    assert.are.same(h:totable(), into:totable())
  end)

  it("has pinned, managed and external arrays", function()
    local k = cuda.jit "def k(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] = a[i] * 2 + 1\n"
    local p = cuda.pinned_array(8, "int32")
    assert.are.equal("lumba.ndarray", getmetatable(p))
    for i = 1, 8 do p[i] = i end
    local dp = cuda.to_device(p)
    k[{ 1, 8 }](dp)
    dp:copy_to_host(p)
    assert.are.same({ 3, 5, 7, 9, 11, 13, 15, 17 }, p:totable())
    local m = cuda.managed_array(6, "float64")
    for i = 1, 6 do m[i] = i / 2 end
    k:forall(6)(m)
    cuda.synchronize()
    for i = 1, 6 do assert.are.equal(i + 1, m[i]) end
    -- someone else's memory, wrapped: kernels write it, lumba never frees it
    local owner = cuda.to_device(lumba.arange(10, "int64"))
    local e = cuda.external_array(owner:data_ptr(), { 2, 5 }, "int64")
    assert.are.equal("lumba.devicearray(int64, (2, 5))", tostring(e))
    k:forall(10)(cuda.external_array(owner:data_ptr(), 10, "int64"))
    assert.are.equal(2 * 7 + 1, e[2][3])
    e:free()
    e = nil
    collectgarbage()
    assert.are.same({ 1, 3, 5, 7, 9, 11, 13, 15, 17, 19 }, owner:copy_to_host():totable())
    assert.truthy(H.error_of(function() return cuda.external_array(0, 3) end):find("null device pointer", 1, true))
    assert.truthy(H.error_of(function() return cuda.external_array("x", 3) end):find("device pointer", 1, true))
  end)
end)

describe("cuda module-level names #gpu", function()
  if not avail() then
    pending("[no CUDA device and no simulator]")
    return
  end

  local src = [=[
from numba import cuda, njit
import numpy as np

sig = "void(float32[:], float32[:])"
W = np.array([[1.5, -2.0, 3.0], [4.0, 5.0, 6.25]])
IDX = np.array([3, 1, 2], dtype=np.int32)

@njit
def twice(x):
    return 2 * x

@cuda.jit(sig)
def k(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = twice(a[i]) + W[i % 2, IDX[i % 3] - 1] + W.shape[1]
]=]
  -- what the kernel computes, on the host
  local function expected(n)
    local W = { { 1.5, -2.0, 3.0 }, { 4.0, 5.0, 6.25 } }
    local IDX = { 3, 1, 2 }
    local e = {}
    for i = 0, n - 1 do e[i + 1] = 2 * i + W[i % 2 + 1][IDX[i % 3 + 1]] + 3 end
    return e
  end

  it("takes a signature that is a module variable, calls @njit helpers, freezes global arrays", function()
    for _, make in ipairs { function() return lumba.load(src).k end, function() return cuda.jit(src) end } do
      local k = make()
      assert.are.equal("(float32[:], float32[:]) -> none", k.signatures[1])
      local a = lumba.arange(10):astype("float32")
      local o = cuda.device_array(10, "float32")
      k[{ 2, 5 }](cuda.to_device(a), o)
      assert.are.same(expected(10), o:copy_to_host():totable())
    end
  end)

  it("has cuda.const.array_like over a module-level array, and cuda.random.* by its module", function()
    local k = cuda.jit [=[
import numpy as np
from numba import cuda
TABLE = np.array([10, 20, 30, 40], dtype=np.int32)

@cuda.jit
def k(states, out, u):
    c = cuda.const.array_like(TABLE)
    i = cuda.grid(1)
    if i < out.size:
        out[i] = c[i % 4] + c.size
        u[i] = cuda.random.xoroshiro128p_uniform_float64(states, i)
]=]
    local o, u = cuda.device_array(6, "int64"), cuda.device_array(6, "float64")
    k[{ 1, 6 }](cuda.random.create_xoroshiro128p_states(6, 3), o, u)
    assert.are.same({ 14, 24, 34, 44, 14, 24 }, o:copy_to_host():totable())
    for i = 1, 6 do assert.is_true(u[i] >= 0 and u[i] < 1) end
  end)

  it("puts frozen global arrays in constant memory on the GPU", function()
    if cuda.simulate() then return end
    local k = cuda.jit(src)
    assert.truthy(k:inspect_ptx():find(".const .align 16 .b8 cmem", 1, true))
  end)
end)

describe("cuda.random #gpu", function()
  if not avail() then
    pending("[no CUDA device and no simulator]")
    return
  end
  local KSRC = [[
from numba import cuda
from numba.cuda.random import (xoroshiro128p_uniform_float32, xoroshiro128p_uniform_float64,
                               xoroshiro128p_normal_float32, xoroshiro128p_normal_float64)

@cuda.jit
def draws(states, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        for j in range(out.shape[1] // 4):
            out[i, 4 * j] = xoroshiro128p_uniform_float32(states, i)
            out[i, 4 * j + 1] = xoroshiro128p_uniform_float64(states, i)
            out[i, 4 * j + 2] = xoroshiro128p_normal_float32(states, i)
            out[i, 4 * j + 3] = xoroshiro128p_normal_float64(states, i)
]]
  local function run(n, m, seed, sub)
    local k = cuda.jit(KSRC)
    local st = cuda.random.create_xoroshiro128p_states(n, seed, sub)
    local out = cuda.device_array({ n, 4 * m }, "float64")
    k:forall(n)(st, out)
    return out:copy_to_host(), st:copy_to_host()
  end
  -- numba's own CPU functions, where /usr/bin/python3 has numba
  local function oracle(n, m, seed, sub)
    local p = io.popen(("/usr/bin/python3 tests/xoroshiro_oracle.py %d %d %d %d 2>/dev/null"):format(n, m, seed, sub))
    local rows = {}
    for line in p:lines() do
      local row = {}
      for v in line:gmatch("%S+") do row[#row + 1] = tonumber(v) end
      rows[#rows + 1] = row
    end
    p:close()
    return #rows == n and rows or nil
  end
  local function close(a, b) return a == b or math.abs(a - b) <= 1e-6 * math.max(1, math.abs(b)) end

  it("makes numba-cuda's streams: uniform float32/64, normal float32/64, for a seed and subsequence", function()
    for _, c in ipairs { { 5, 3, 42, 0 }, { 3, 2, 12345, 3 } } do
      local got = run(table.unpack(c))
      local want = oracle(table.unpack(c))
      if want then
        for i = 1, c[1] do
          for j = 1, 4 * c[2] do
            local g, w = got:get(i, j), want[i][j]
            -- uniforms exact; normals through libm or libdevice, to the last bits
            if j % 4 == 1 or j % 4 == 2 then assert.are.equal(w, g) else assert.is_true(close(g, w), g .. " vs " .. w) end
          end
        end
      end
      for i = 1, c[1] do
        for j = 1, 4 * c[2] do
          local g = got:get(i, j)
          if j % 4 == 1 or j % 4 == 2 then assert.is_true(g >= 0 and g < 1) end
        end
      end
    end
  end)

  it("gives the same numbers on the GPU and in the simulator", function()
    if cuda.simulate() then return end  -- the GPU run compares itself with the simulator
    local gpu, gst = run(64, 4, 7, 1)
    cuda.simulate(true)
    local ok, sim, sst = pcall(run, 64, 4, 7, 1)
    cuda.simulate(false)
    assert(ok, sim)
    assert.are.same(sst:totable(), gst:totable())
    for i = 1, 64 do
      for j = 1, 16 do
        local g, s = gpu:get(i, j), sim:get(i, j)
        if j % 4 == 1 or j % 4 == 2 then assert.are.equal(s, g) else assert.is_true(close(g, s), g .. " vs " .. s) end
      end
    end
  end)

  it("makes states of numba-cuda's SplitMix64 seeding and jumps, and checks its arguments", function()
    local st = cuda.random.create_xoroshiro128p_states(3, 42):copy_to_host()
    assert.are.equal("uint64", st.dtype)
    assert.are.same({ 3, 2 }, st.shape)
    -- numba 0.56: init_xoroshiro128p_states_cpu(s, 42, 0)
    assert.are.equal(tostring(st:get(1, 1)), tostring(st:get(1, 2)))
    assert.are.equal("array([313611670190079035, 410834281257317300], dtype=uint64)", tostring(st[2]))
    local again = cuda.device_array({ 3, 2 }, "uint64")
    cuda.random.init_xoroshiro128p_states(again, 42)
    assert.are.same(st:totable(), again:copy_to_host():totable())
    assert.truthy(H.error_of(function() cuda.random.create_xoroshiro128p_states(3, 1.5) end):find("integer seed expected", 1, true))
    assert.truthy(H.error_of(function() cuda.random.create_xoroshiro128p_states(-1, 1) end):find("non-negative", 1, true))
    assert.are.same({ 0, 2 }, cuda.random.create_xoroshiro128p_states(0, 1).shape)
  end)
end)

describe("cuda atomics and fences #gpu", function()
  if not avail() then
    pending("[no CUDA device and no simulator]")
    return
  end

  it("has atomic.inc and atomic.dec (CUDA's wrapping counters) on uint32 and uint64", function()
    local k = cuda.jit [[
@cuda.jit
def k(c, olds, n):
    i = cuda.grid(1)
    if i < n:
        olds[i] = cuda.atomic.inc(c, 0, 9)
        cuda.atomic.dec(c, 1, 4)
        cuda.threadfence_system()
]]
    for _, dt in ipairs { "uint32", "uint64" } do
      local c = cuda.to_device(lumba.array({ 0, 0 }, dt))
      local olds = cuda.device_array(1000, dt)
      k:forall(1000)(c, olds, 1000)
      local h = c:copy_to_host()
      -- inc wraps at 10: 1000 increments from 0 leave 0; dec from 0 sets 4, then counts down: 1000 % 5 = 0 left 0
      assert.are.same({ 1000 % 10, (5 - 1000 % 5) % 5 }, h:totable())
      local seen = {}
      for i = 1, 1000 do
        local v = olds[i]
        seen[v] = (seen[v] or 0) + 1
      end
      for v = 0, 9 do assert.are.equal(100, seen[v]) end
    end
    assert.truthy(H.error_of(function()
      local bad = cuda.jit "def bad(a):\n    cuda.atomic.inc(a, 0, 1)\n"
      bad[{ 1, 1 }](cuda.device_array(1, "int32"))
    end):find("cuda.atomic.inc supports uint32 and uint64 arrays, not int32", 1, true))
  end)

  it("has atomic.nanmin and atomic.nanmax, which ignore NaNs", function()
    local k = cuda.jit [[
@cuda.jit
def k(a, r):
    i = cuda.grid(1)
    if i < a.size:
        cuda.atomic.nanmax(r, 0, a[i])
        cuda.atomic.nanmin(r, 1, a[i])
        cuda.atomic.max(r, 2, a[i])
]]
    for _, dt in ipairs { "float32", "float64" } do
      local vals = {}
      for i = 1, 500 do vals[i] = (i % 7 == 0) and 0 / 0 or math.sin(i) * i end
      local r = cuda.to_device(lumba.array({ 0 / 0, 0 / 0, -1e30 }, dt))
      k:forall(500)(cuda.to_device(lumba.array(vals, dt)), r)
      local a = lumba.array(vals, dt)
      local mx, mn = -math.huge, math.huge
      for i = 1, 500 do
        local v = a[i]
        if v == v then mx, mn = math.max(mx, v), math.min(mn, v) end
      end
      assert.are.same({ mx, mn }, { r[1], r[2] })
    end
    local ki = cuda.jit "def ki(a, r):\n    i = cuda.grid(1)\n    if i < a.size:\n        cuda.atomic.nanmax(r, 0, a[i])\n        cuda.atomic.nanmin(r, 1, a[i])\n"
    local r = cuda.to_device(lumba.array({ -100, 100 }, "int32"))
    ki:forall(7)(cuda.to_device(lumba.array({ 3, -9, 40, 2, 0, 11, -3 }, "int32")), r)
    assert.are.same({ 40, -9 }, r:copy_to_host():totable())
  end)
end)

describe("cuda dynamic shared memory #gpu", function()
  if not avail() then
    pending("[no CUDA device and no simulator]")
    return
  end

  it("sizes cuda.shared.array(0, dtype) by the launch's 4th parameter", function()
    local k = cuda.jit [[
@cuda.jit
def block_sums(a, out, sizes):
    s = cuda.shared.array(0, dtype=np.float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    s[t] = a[i] if i < a.size else 0
    cuda.syncthreads()
    step = cuda.blockDim.x // 2
    while step > 0:
        if t < step:
            s[t] += s[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        out[cuda.blockIdx.x] = s[0]
        sizes[cuda.blockIdx.x] = s.size
]]
    for _, tpb in ipairs { 32, 128, 256 } do
      local n = 1000
      local a = lumba.arange(n):astype("float32")
      local nb = (n + tpb - 1) // tpb
      local out, sizes = cuda.device_array(nb, "float32"), cuda.device_array(nb, "int64")
      k[{ nb, tpb, 0, tpb * 4 }](cuda.to_device(a), out, sizes)
      local h = out:copy_to_host()
      for b = 1, nb do
        local want = 0
        for i = (b - 1) * tpb, math.min(b * tpb, n) - 1 do want = want + i end
        assert.are.equal(want, h[b])
        assert.are.equal(tpb, sizes[b])
      end
    end
  end)

  it("makes every dynamic shared array of a kernel share the same memory, as CUDA does", function()
    local k = cuda.jit [[
@cuda.jit
def k(out):
    f = cuda.shared.array(0, dtype=np.int32)
    g = cuda.shared.array(0, dtype=np.int64)
    t = cuda.threadIdx.x
    if t == 0:
        g[0] = 5
    cuda.syncthreads()
    out[t] = f[0] + f.size + g.size
]]
    local out = cuda.device_array(4, "int64")
    k[{ 1, 4, nil, 16 }](out)
    assert.are.same({ 11, 11, 11, 11 }, out:copy_to_host():totable())
  end)
end)

describe("cuda warp intrinsics #gpu", function()
  if not avail() then
    pending("[no CUDA device and no simulator]")
    return
  end

  it("shuffles values within a warp: shfl_sync, shfl_up_sync, shfl_down_sync, shfl_xor_sync", function()
    local k = cuda.jit [[
@cuda.jit
def k(a, out_i, out_f, sums):
    i = cuda.grid(1)
    lane = cuda.laneid
    v = a[i]
    f = np.float32(v) * np.float32(0.5)
    full = 0xffffffff
    out_i[i, 0] = cuda.shfl_sync(full, v, 3)
    out_i[i, 1] = cuda.shfl_up_sync(full, v, 1)
    out_i[i, 2] = cuda.shfl_down_sync(full, v, 2)
    out_i[i, 3] = cuda.shfl_xor_sync(full, v, 1)
    out_f[i, 0] = cuda.shfl_sync(full, f, 31 - lane)
    out_f[i, 1] = cuda.shfl_down_sync(full, np.float64(v) + 0.25, 1)
    s = v
    off = 16
    while off > 0:
        s += cuda.shfl_down_sync(full, s, off)
        off //= 2
    if lane == 0:
        sums[i // 32] = s
]]
    local n = 64
    local vals = {}
    for i = 1, n do vals[i] = (i * 37) % 101 - 50 + (i % 3) * 1000000000000 end  -- some beyond 32 bits
    local a = lumba.array(vals, "int64")
    local oi, of, sums = cuda.device_array({ n, 4 }, "int64"), cuda.device_array({ n, 2 }, "float64"), cuda.device_array(2, "int64")
    k[{ 1, n }](cuda.to_device(a), oi, of, sums)
    local hi, hf, hs = oi:copy_to_host(), of:copy_to_host(), sums:copy_to_host()
    for i = 0, n - 1 do
      local lane, base = i % 32, i - i % 32
      local function at(l) return vals[base + l + 1] end
      assert.are.equal(at(3), hi:get(i + 1, 1))
      assert.are.equal(lane >= 1 and at(lane - 1) or at(lane), hi:get(i + 1, 2))
      assert.are.equal(lane + 2 <= 31 and at(lane + 2) or at(lane), hi:get(i + 1, 3))
      assert.are.equal(at(lane ~ 1), hi:get(i + 1, 4))
      assert.are.equal(lumba.array({ at(31 - lane) * 0.5 }, "float32")[1], hf:get(i + 1, 1))
      assert.are.equal((lane + 1 <= 31 and at(lane + 1) or at(lane)) + 0.25, hf:get(i + 1, 2))
    end
    for w = 0, 1 do
      local s = 0
      for l = 0, 31 do s = s + vals[32 * w + l + 1] end
      assert.are.equal(s, hs[w + 1])
    end
  end)

  it("votes: ballot_sync, all_sync, any_sync, eq_sync; activemask and lanemask_lt", function()
    local k = cuda.jit [[
@cuda.jit
def k(a, out):
    i = cuda.grid(1)
    full = 0xffffffff
    p = a[i] > 0
    out[i, 0] = cuda.ballot_sync(full, p)
    out[i, 1] = cuda.all_sync(full, p)
    out[i, 2] = cuda.any_sync(full, p)
    out[i, 3] = cuda.eq_sync(full, p)
    out[i, 4] = cuda.lanemask_lt()
    out[i, 5] = cuda.activemask()
    if cuda.laneid < 16:
        out[i, 6] = cuda.ballot_sync(0xffff, i % 2 == 0)
]]
    -- warp 0: mixed; warp 1: all positive; warp 2: all zero
    local vals = {}
    for i = 0, 95 do vals[i + 1] = i < 32 and (i % 3 == 0 and 1 or 0) or (i < 64 and 5 or 0) end
    local out = cuda.device_array({ 96, 7 }, "int64")
    k[{ 1, 96 }](cuda.to_device(lumba.array(vals, "int64")), out)
    local h = out:copy_to_host()
    for w = 0, 2 do
      local ballot, all = 0, true
      for l = 0, 31 do
        if vals[32 * w + l + 1] > 0 then ballot = ballot | (1 << l) else all = false end
      end
      for l = 0, 31 do
        local r = 32 * w + l + 1
        assert.are.equal(ballot, h:get(r, 1))
        assert.are.equal(all and 1 or 0, h:get(r, 2))
        assert.are.equal(ballot ~= 0 and 1 or 0, h:get(r, 3))
        assert.are.equal((ballot == 0 or all) and 1 or 0, h:get(r, 4))
        assert.are.equal((1 << l) - 1, h:get(r, 5))
        assert.are.equal(0xffffffff, h:get(r, 6))
        if l < 16 then assert.are.equal(0x5555, h:get(r, 7)) end
      end
    end
    assert.truthy(H.error_of(function()
      local bad = cuda.jit "def bad(o):\n    o[0] = cuda.shfl_sync(0xffffffff, True, 0)\n"
      bad[{ 1, 1 }](cuda.device_array(1, "int64"))
    end):find("cuda.shfl_sync: argument 2 must be a number, not bool", 1, true))
  end)
end)

describe("cuda.reduce #gpu", function()
  if not avail() then
    pending("[no CUDA device and no simulator]")
    return
  end

  it("reduces host and device arrays with a binary function, with init, in two passes", function()
    local sum = cuda.reduce "def sum_reduce(a, b):\n    return a + b\n"
    assert.are.equal("<cuda.reduce sum_reduce>", tostring(sum))
    for _, n in ipairs { 1, 7, 256, 257, 100003, 2000000 } do
      local a = lumba.arange(1, n + 1):astype("float64")
      local want = n * (n + 1) / 2
      assert.are.equal(want, sum(a))
      assert.are.equal(want, sum(cuda.to_device(a)))
      assert.are.equal(want + 10, sum(a, { init = 10 }))
    end
    local i32 = lumba.array({ 5, -3, 11, 2 }, "int32")
    assert.are.equal(15, sum(i32))
    assert.are.equal(0, sum(lumba.zeros(0)))
    assert.are.equal(4, sum(lumba.zeros(0), nil, nil, 4))
    assert.are.equal(7, sum(lumba.array { 3, 4, 100 }, 2))  -- size: the first 2 elements
    local res = cuda.device_array(1, "float64")
    assert.is_nil(sum(lumba.arange(10):astype("float64"), { res = res }))
    assert.are.equal(45, res[1])
    local m = lumba.load [[
from numba import cuda

@cuda.reduce
def max_reduce(a, b):
    return max(a, b)
]]
    local vals = {}
    for i = 1, 5000 do vals[i] = math.sin(i) * i end
    local mx = -math.huge
    for _, v in ipairs(vals) do mx = math.max(mx, v) end
    assert.are.equal(mx, m.max_reduce(lumba.array(vals), nil, nil, -math.huge))
  end)
end)
