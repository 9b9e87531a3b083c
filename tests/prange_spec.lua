-- prange with parallel=true: reductions against serial loops in plain Lua.
local lumba = require "lumba"
local H = require "helpers"

local function serial_sum(a)
  local s = 0.0
  for i = 1, a.size do s = s + a[i] end
  return s
end

describe("prange", function()
  local a = lumba.random.rand(100001)   -- odd length: uneven chunks

  it("sums with a += reduction (seed 4 verbatim)", function()
    local parallel_sum = lumba.njit { parallel = true } [[
from numba import njit, prange

@njit(parallel=True, cache=True)
def parallel_sum(arr):
    total = 0.0
    for i in prange(arr.shape[0]):
        total += arr[i]
    return total
]]
    H.assert_close(serial_sum(a), parallel_sum(a), 1e-12)
  end)

  it("combines each reduction operator with the value before the loop", function()
    local f = lumba.njit { parallel = true } [[
def f(n):
    s = 100
    d = 50
    p = 2.0
    q = 1.0
    for i in prange(n):
        s += i
        d -= i
        p *= 1.0001
        q /= 1.0001
    return s, d, p, q
]]
    local s, d, p, q = f(1000)
    assert.are.equal(100 + 999 * 1000 // 2, s)
    assert.are.equal(50 - 999 * 1000 // 2, d)
    H.assert_close(2.0 * 1.0001 ^ 1000, p, 1e-9)
    H.assert_close(1.0001 ^ -1000, q, 1e-9)
    assert.is_true(math.type(s) == "integer")
  end)

  it("handles conditional updates and several reductions in one loop", function()
    local f = lumba.njit { parallel = true } [[
def f(a):
    pos = 0.0
    cnt = 0
    mx = -1.0
    mn = 2.0
    for i in prange(a.shape[0]):
        if a[i] > 0.5:
            pos += a[i]
            cnt += 1
        mx = max(mx, a[i])
        mn = min(mn, a[i])
    return pos, cnt, mx, mn
]]
    local pos, cnt, mx, mn = 0.0, 0, -1.0, 2.0
    for i = 1, a.size do
      local v = a[i]
      if v > 0.5 then pos = pos + v; cnt = cnt + 1 end
      mx = math.max(mx, v)
      mn = math.min(mn, v)
    end
    local p2, c2, mx2, mn2 = f(a)
    H.assert_close(pos, p2, 1e-12)
    assert.are.equal(cnt, c2)
    assert.are.equal(mx, mx2)
    assert.are.equal(mn, mn2)
  end)

  it("gives the same results with 1 thread and with all threads", function()
    local f = lumba.njit { parallel = true } [[
def f(n):
    s = 0
    for i in prange(n):
        s += i * i % 7
    return s
]]
    local expected = 0
    for i = 0, 99999 do expected = expected + i * i % 7 end
    local before = lumba.get_num_threads()
    lumba.set_num_threads(1)
    assert.are.equal(expected, f(100000))
    lumba.set_num_threads(lumba.max_threads())
    assert.are.equal(expected, f(100000))
    lumba.set_num_threads(before)
  end)

  it("runs a prange inside a long serial loop without growing the stack", function()
    -- each region's per-worker arrays are freed when it ends: 10,000 regions
    -- of 16 workers in a child with a 1 MB stack, which they overflowed before
    local out = H.run_lua("ulimit -s 1024; LUMBA_NUM_THREADS=16", [=[
local lumba = require "lumba"
local f = lumba.njit { parallel = true } [[
def f(steps, a):
    total = 0
    for _ in range(steps):
        for i in prange(a.shape[0]):
            a[i] += 1
        s = 0
        for i in prange(a.shape[0]):
            s += a[i]
        total += s
    return total
]]
print(lumba.get_num_threads(), f(5000, lumba.zeros(32, "int64")))
]=])
    assert.are.equal("16\t" .. 32 * 5000 * 5001 // 2 .. "\n", out)
  end)

  it("writes distinct array elements from the workers, with start and step", function()
    local f = lumba.njit { parallel = true } [[
def f(out):
    for i in prange(1, out.shape[0], 3):
        out[i] = i * 2.0
]]
    local out = lumba.zeros(20)
    f(out)
    for i = 0, 19 do
      local want = (i >= 1 and (i - 1) % 3 == 0) and i * 2.0 or 0.0
      assert.are.equal(want, out[i + 1])
    end
  end)

  it("runs an inner prange serially inside an outer one", function()
    local f = lumba.njit { parallel = true } [[
def f(a):
    for i in prange(a.shape[0]):
        for j in prange(a.shape[1]):
            a[i, j] = i * 10 + j
]]
    local a = lumba.zeros({ 4, 5 })
    f(a)
    for i = 1, 4 do for j = 1, 5 do assert.are.equal((i - 1) * 10 + (j - 1), a:get(i, j)) end end
  end)

  it("is a plain range without parallel=true", function()
    local f = lumba.njit [[
def f(n):
    x = 0
    for i in prange(n):
        x = i
    return x
]]
    assert.are.equal(9, f(10))
  end)

  it("raises an error from a worker after all workers stop, and the state still works", function()
    local f = lumba.njit { parallel = true } [[
def f(n, k):
    t = 0
    for i in prange(n):
        t += 10 // (i - k)
    return t
]]
    assert.are.equal("ZeroDivisionError: integer division or modulo by zero", H.message_of(f, 1000, 500))
    local expected = 0
    for i = 0, 99 do expected = expected + (10 // (i - 200)) end
    assert.are.equal(expected, f(100, 200))
  end)

  it("rejects reading a private variable after the loop", function()
    local src = [[
def f(n):
    x = 0
    for i in prange(n):
        x = i
    return x
]]  -- through a variable: positions within the string (<string>:line)
    local err = H.error_of(lumba.njit { parallel = true }(src), 10)
    assert.are.equal([[<string>:5:12: TypingError: 'x' is assigned inside a prange loop, where it is private to each iteration, and cannot be read after the loop (make it a reduction such as 'x += ...', or store into an array)
        return x
               ^]], err)
  end)

  it("rejects reading a reduction variable inside the loop", function()
    local err = H.error_of(lumba.njit { parallel = true } [[
def f(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i]
        a[i] = s
    return s
]], lumba.zeros(4))
    assert.truthy(err:find("TypingError: reduction variable 's' cannot be read inside the prange loop", 1, true), err)
  end)
end)

describe("parallel_diagnostics", function()
  it("lists parallel loops, reductions, private variables and serial inner loops", function()
    local src = [[
def f(a):
    s = 0.0
    m = -1.0
    for i in prange(a.shape[0]):
        t = a[i] * 2
        s += t
        m = max(m, t)
        for j in prange(3):
            a[i] += j
    return s, m
]]  -- lines counted within the string
    local f = lumba.njit { parallel = true }(src)
    f(lumba.zeros(10))
    assert.are.equal([[
f(): prange loop at line 4 runs in parallel on the thread pool
  reduction: s (+, float64)
  reduction: m (max, float64)
  private to each iteration: i
  private to each iteration: t
  private to each iteration: j
f(): prange loop at line 8 ran serially (nested inside another prange loop)
]], f:parallel_diagnostics())
  end)

  it("says when prange runs serially without parallel=true", function()
    local f = lumba.njit "def f(n):\n    s = 0\n    for i in prange(n):\n        s += i\n    return s\n"
    assert.are.equal(45, f(10))
    assert.are.equal("f(): prange loop at line 3 ran serially (the function is not compiled with parallel=true)\n",
      f:parallel_diagnostics())
  end)

  -- the parfor pass keeps its records per specialization: g is typed twice
  -- on one shared tree, and each of its loops is described with its own types
  it("describes each specialization's loops, a min reduction over prange(start, stop, step)", function()
    local src = [[
def g(a):
    s = 0
    for i in prange(a.shape[0]):
        s += a[i]
    return s

def f(a, b):
    lo = 10.0
    for i in prange(2, b.shape[0], 2):
        lo = min(lo, b[i])
        for k in range(3):
            for j in prange(k):
                b[i] += j
    return g(a) + g(b) + lo
]]  -- lines counted within the string
    local f = lumba.njit { parallel = true, name = "f" }(src)
    -- b[2], b[4], b[6] and b[8] gain 1 each (j = 0, 1 when k = 2) after lo has taken the smallest, 2
    assert.are.equal(45 + 49 + 2.0, f(lumba.arange(10, "int64"), lumba.arange(10, "float64")))
    assert.are.equal([[
g(): prange loop at line 3 runs in parallel on the thread pool
  reduction: s (+, float64)
  private to each iteration: i
g(): prange loop at line 3 runs in parallel on the thread pool
  reduction: s (+, int64)
  private to each iteration: i
f(): prange loop at line 9 runs in parallel on the thread pool
  reduction: lo (min, float64)
  private to each iteration: i
  private to each iteration: k
  private to each iteration: j
f(): prange loop at line 12 ran serially (nested inside another prange loop)
]], f:parallel_diagnostics())
  end)
end)
