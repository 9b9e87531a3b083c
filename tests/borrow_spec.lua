-- Array arguments between compiled functions are borrowed (issue 23): the
-- caller holds the reference for the call, a parameter never assigned takes
-- none. A callee that keeps its argument (returns it, stores it in a tuple,
-- assigns it to another local, or assigns the parameter itself) takes its
-- own reference; nothing leaks, on raises too. Values are hand-computed.
local lumba = require "lumba"
local H = require "helpers"
local njit = lumba.njit

local live_now = H.live_meminfos

-- runs f(...) and returns its results, checking that every MemInfo made
-- meanwhile is gone once the results are dropped
local function no_leak(f, ...)
  local args = table.pack(...)
  local before = live_now()
  local res = table.pack(pcall(f, table.unpack(args, 1, args.n)))
  local out = { table.unpack(res, 1, res.n) }
  res = nil
  local check = function() assert.are.equal(before, live_now(), "MemInfos leaked") end
  return out, check
end

describe("borrowed array arguments", function()
  it("a helper taking row views in a hot loop: the Lennard-Jones energy", function()
    local src = [[
import math
def lj(c):
    e = 0.0
    for i in range(c.shape[0] - 1):
        for j in range(i + 1, c.shape[0]):
            e += pair(dist(c[i], c[j]))
    return e

def dist(a, b):
    s = 0.0
    for k in range(a.shape[0]):
        d = a[k] - b[k]
        s += d * d
    return math.sqrt(s)

def pair(r):
    s6 = (1.0 / r) ** 6
    return 4.0 * (s6 * s6 - s6)
]]
    local f = njit(src)
    local c = lumba.array({ { 0.0, 0.0, 0.0 }, { 1.0, 0.0, 0.0 }, { 0.0, 2.0, 0.0 } })
    -- r = 1, 2, sqrt(5): 4 (r^-12 - r^-6)
    local function v(r) return 4.0 * (r ^ -12 - r ^ -6) end
    local want = v(1.0) + v(2.0) + v(math.sqrt(5.0))
    local made = lumba._made_meminfos()
    local out, check = no_leak(f, c)
    assert.is_true(out[1], tostring(out[2]))
    H.assert_close(want, out[2], 1e-14)
    out = nil
    check()
    -- the row views made for the callees allocate nothing
    assert.are.equal(made, lumba._made_meminfos())
    -- and the parallel version agrees
    local pf = njit({ parallel = true }, (src:gsub("for i in range", "for i in prange"):gsub("import math",
      "import math\nfrom numba import prange")))
    local pout, pcheck = no_leak(pf, c)
    assert.is_true(pout[1], tostring(pout[2]))
    H.assert_close(want, pout[2], 1e-14)
    pout = nil
    pcheck()
  end)

  it("a callee that only reads its argument takes no reference (no refcount calls in its code)", function()
    local f = njit "def f(a):\n    s = 0.0\n    for k in range(a.shape[0]):\n        s += a[k]\n    return s\n"
    assert.are.equal(6.0, f(lumba.array({ 1.0, 2.0, 3.0 })))
    local ir = f:inspect_llvm()
    assert.is_nil(ir:find("nrt_incref", 1, true))
    assert.is_nil(ir:find("nrt_decref", 1, true))
  end)

  it("a callee returning its argument, or a view of it, keeps the buffer alive", function()
    local f = njit [[
def f(n):
    x = np.arange(n) * 1.0
    y = ident(x)
    z = tail(x[1:])
    return y, z

def ident(a):
    return a

def tail(a):
    return a[1:]
]]
    local out, check = no_leak(function(n)
      local y, z = f(n)
      return y:get(4) + z:get(1) + z.size
    end, 5)
    assert.is_true(out[1], tostring(out[2]))
    assert.are.equal(3.0 + 2.0 + 3, out[2])
    check()
  end)

  it("a callee storing its argument into a returned tuple, and aliasing (f(a, a))", function()
    local f = njit [[
def f(x):
    t = pack(x, x[1:])
    add_into(x, x)
    return t[0][0] + t[1][0]

def pack(a, b):
    return (a, b)

def add_into(a, b):
    for i in range(a.shape[0]):
        a[i] += b[i]
]]
    local x = lumba.array({ 1.0, 2.0, 3.0 })
    local out, check = no_leak(f, x)
    assert.is_true(out[1], tostring(out[2]))
    assert.are.equal(2.0 + 4.0, out[2])  -- x doubled in place, seen through both tuple elements
    check()
    assert.are.equal(6.0, x:get(3))
  end)

  it("a callee that assigns its parameter keeps its own reference", function()
    local f = njit [[
def f(n):
    return shrink(np.arange(n) * 2.0)

def shrink(a):
    while a.shape[0] > 1:
        a = a[1:]
    b = a
    return b
]]
    local out, check = no_leak(function(n) return f(n):get(1) end, 6)
    assert.is_true(out[1], tostring(out[2]))
    assert.are.equal(10.0, out[2])
    check()
  end)

  it("a callee raising midway: the error reaches Lua, nothing leaks", function()
    local f = njit [[
def f(x, i):
    t = x * 1.0
    return pick(t[1:], i) + pick(x, i)

def pick(a, i):
    b = a * 2.0
    if i >= a.shape[0]:
        raise IndexError("past the end")
    return b[i] + a[i]
]]
    local x = lumba.array({ 1.0, 2.0, 3.0 })
    assert.are.equal((3.0 * 2.0 + 3.0) + (2.0 * 2.0 + 2.0), f(x, 1))
    local out, check = no_leak(f, x, 2)  -- t[1:] has 2 elements: the first pick raises
    assert.is_false(out[1])
    assert.truthy(tostring(out[2]):find("IndexError"), tostring(out[2]))
    out = nil
    check()
  end)

  it("an element of a temporary tuple ((a, b)[0], np.nonzero(x)[0]) leaves the rest released", function()
    local f = njit "import numpy as np\ndef f(a, i):\n    return (a + 1, a * 2)[0], np.nonzero(a)[0], (a, a - 1)[i], np.where(a > 1)[0]\n"
    local a = lumba.array({ 0, 1, 2, 3 })
    local out, check = no_leak(f, a, 1)
    assert.is_true(out[1])
    assert.are.same({ 1, 2, 3, 4 }, out[2]:totable())
    assert.are.same({ 1, 2, 3 }, out[3]:totable())
    assert.are.same({ -1, 0, 1, 2 }, out[4]:totable())
    assert.are.same({ 2, 3 }, out[5]:totable())
    out = nil
    check()
  end)

  it("a record of a temporary record array (np.zeros(k, rec)[i]) keeps the array while it lives", function()
    -- the record is the element's address: the array freed under it let the
    -- next allocation of its size (w, 40 kB: from the MemInfo cache) take its bytes
    local m = lumba.load [[
import numpy as np
rec = np.dtype([('x', np.float64), ('y', np.float64), ('n', np.int32)])

def f(k):
    s = 0.0
    for i in range(3):
        r = np.zeros(k, rec)[i]
        w = np.zeros(k * 5, np.float32)
        r.x = 2.5 + i
        r.n += 7
        s += r.x + r.n + w.sum()
    return s + np.zeros(k, rec)[1].x + copy_of(k)

def copy_of(k):
    a = np.zeros(1, rec)
    a[0] = made(k)[k - 1]
    return a[0].n

def made(k):
    b = np.zeros(k, rec)
    b[k - 1].n = 1
    return b
]]
    -- r.x + r.n over i = 0, 1, 2: (2.5 + 7) + (3.5 + 7) + (4.5 + 7); w stays zeros
    local out, check = no_leak(m.f, 2000)
    assert.is_true(out[1], tostring(out[2]))
    assert.are.equal(31.5 + 0.0 + 1, out[2])
    out = nil
    check()
  end)

  it("from Lua, an element of a temporary record array is a view that holds the array", function()
    local rec = lumba.dtype { { "x", "float64" }, { "n", "int32" } }
    local r = lumba.zeros(3000, rec)[2]
    collectgarbage()
    collectgarbage()
    local w = lumba.zeros(3000 * 3, "float32")  -- 36 kB, the size the array had
    r.x = 4.5
    r.n = r.n + 2
    assert.are.equal(4.5, r.x)
    assert.are.equal(2, r.n)
    assert.are.equal(0.0, w:sum())
  end)
end)
