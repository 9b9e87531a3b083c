-- Arrays inside compiled code: indexing, views from slices, attributes,
-- methods, iteration, allocation, arrays returned to Lua, dtypes, layouts,
-- bounds checking and reference counting. Expected values are hand-computed
-- (NumPy's semantics) or read back through the Lua-side array API.
local lumba = require "lumba"
local H = require "helpers"
local njit = lumba.njit

local live = lumba._live_meminfos
local function live_now()
  collectgarbage()
  collectgarbage()
  return live()
end

-- 0, 1, ..., n-1 as float64 with the given shape (C order)
local function iota(shape, dtype)
  local n = 1
  for _, d in ipairs(shape) do n = n * d end
  return lumba.arange(n, dtype or "float64"):reshape(shape)
end

describe("indexing", function()
  it("1-d, with negative indices", function()
    local f = njit "def f(a, i):\n    return a[i]\n"
    local a = lumba.array({ 10.0, 20.0, 30.0 })
    assert.are.equal(10.0, f(a, 0))
    assert.are.equal(30.0, f(a, 2))
    assert.are.equal(30.0, f(a, -1))
    assert.are.equal(10.0, f(a, -3))
  end)

  it("2-d and 3-d, with negative indices", function()
    local f2 = njit "def f(a):\n    return a[1, 2], a[-1, -1], a[0, -4], a[-2, 0]\n"
    assert.are.same({ 6.0, 11.0, 0.0, 4.0 }, { f2(iota { 3, 4 }) })
    local f3 = njit "def f(a):\n    return a[1, 2, 3], a[-1, 0, -1], a[0, -3, 1]\n"
    -- element (i, j, k) of iota{2, 3, 4} is i*12 + j*4 + k
    assert.are.same({ 23, 15, 1 }, { f3(iota({ 2, 3, 4 }, "int64")) })
  end)

  it("stores through indices", function()
    local f = njit "def f(a):\n    a[0, 0] = 1.5\n    a[-1, -1] = 2\n    a[1, -3] = a[0, 0] * 2\n"
    local a = lumba.zeros { 2, 3 }
    f(a)
    assert.are.same({ { 1.5, 0, 0 }, { 3.0, 0, 2.0 } }, a:totable())   -- a[1, -3] is a[1, 0]
  end)

  it("tuple index variables", function()
    local f = njit "def f(a, i, j):\n    a[i, j] += 1\n    return a[i, j]\n"
    local a = lumba.zeros { 2, 2 }
    assert.are.equal(1.0, f(a, 1, 0))
    assert.are.equal(2.0, f(a, -1, 0))
    assert.are.equal(2.0, a:get(2, 1))
  end)
end)

describe("views", function()
  it("a[1:-1], a[::2], a[::-1], a[lo:hi:step] read like Python slices", function()
    local f = njit "def f(a):\n    return a[1:-1], a[::2], a[::-1], a[-100:100], a[7:2], a[-3:], a[:-7:-3]\n"
    local r = table.pack(f(lumba.arange(10, "float64")))
    assert.are.same({ 1, 2, 3, 4, 5, 6, 7, 8 }, r[1]:totable())
    assert.are.same({ 0, 2, 4, 6, 8 }, r[2]:totable())
    assert.are.same({ 9, 8, 7, 6, 5, 4, 3, 2, 1, 0 }, r[3]:totable())
    assert.are.same({ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 }, r[4]:totable())
    assert.are.equal(0, r[5].size)
    assert.are.same({ 7, 8, 9 }, r[6]:totable())
    assert.are.same({ 9, 6 }, r[7]:totable())
    local g = njit "def g(a, lo, hi, st):\n    return a[lo:hi:st]\n"
    assert.are.same({ 5, 3 }, g(lumba.arange(10, "float64"), 5, 1, -2):totable())
    assert.are.same({ 2, 5, 8 }, g(lumba.arange(10, "float64"), 2, 100, 3):totable())
  end)

  it("slice steps and bounds at the ends of int64 (Python's lengths)", function()
    local f = njit "def f(a, st):\n    v = a[::st]\n    return v.shape[0], v[0]\n"
    local a = lumba.arange(10, "float64")
    assert.are.same({ 1, 0.0 }, { f(a, math.maxinteger) })
    assert.are.same({ 1, 9.0 }, { f(a, math.mininteger) })
    assert.are.same({ 1, 9.0 }, { f(a, -math.maxinteger) })
    local g = njit "def g(a, lo, hi):\n    return a[lo:hi].shape[0]\n"
    assert.are.equal(10, g(a, math.mininteger, math.maxinteger))
    assert.are.equal(0, g(a, math.maxinteger, math.mininteger))
  end)

  it("a slice step of zero is a ValueError", function()
    local g = njit "def g(a, st):\n    return a[::st].size\n"
    assert.are.equal("ValueError: slice step cannot be zero", H.message_of(g, lumba.zeros(3), 0))
    assert.are.equal(2, g(lumba.zeros(3), 2))
  end)

  it("a[:, j] and a[i] of a 2-d array, a[1, :, 2] and a[:, 1] of a 3-d array", function()
    local f = njit "def f(a, j):\n    return a[:, j], a[1]\n"
    local col, row = f(iota { 3, 4 }, 1)
    assert.are.same({ 1, 5, 9 }, col:totable())
    assert.are.same({ 4, 5, 6, 7 }, row:totable())
    local g = njit "def g(a):\n    return a[1, :, 2], a[:, 1]\n"
    local x, y = g(iota({ 2, 3, 4 }, "int64"))
    assert.are.same({ 14, 18, 22 }, x:totable())
    assert.are.same({ { 4, 5, 6, 7 }, { 16, 17, 18, 19 } }, y:totable())
  end)

  it("2-d slices with negative steps", function()
    local f = njit "def f(a):\n    return a[::-1, ::-2]\n"
    assert.are.same({ { 11, 9 }, { 7, 5 }, { 3, 1 } }, f(iota { 3, 4 }):totable())
  end)

  it("writes through views reach the base array", function()
    local f = njit [[
def f(a):
    a[1:-1] = 5.0
    v = a[::2]
    v[0] = 9
    a[::-1][0] = -1
]]
    local a = lumba.arange(6, "float64")
    f(a)
    assert.are.same({ 9, 5, 5, 5, 5, -1 }, a:totable())
  end)

  it("assigning an array or a scalar to a column, a row and a strided row", function()
    local f = njit "def f(m, b):\n    m[:, 1] = b\n    m[2] = b\n    m[0, ::2] = 4\n"
    local m = lumba.zeros { 3, 3 }
    f(m, lumba.array { 1.0, 2.0, 3.0 })
    assert.are.same({ { 4, 1, 4 }, { 0, 2, 0 }, { 1, 2, 3 } }, m:totable())
  end)

  it("assigning overlapping views copies the source first (NumPy semantics)", function()
    local f = njit "def f(a):\n    a[1:] = a[:-1]\n"
    local a = lumba.array { 1.0, 2.0, 3.0, 4.0 }
    f(a)
    assert.are.same({ 1, 1, 2, 3 }, a:totable())
  end)

  it("a shape mismatch in slice assignment is an error", function()
    local f = njit "def f(a, b):\n    a[0:2] = b\n"
    assert.are.equal("ValueError: could not broadcast input array from shape (3,) into shape (2,)\n"
      .. "<string>:2:5: in f\n    a[0:2] = b",
      H.error_of(f, lumba.zeros(4), lumba.zeros(3)))
    local a = lumba.zeros(4)
    f(a, lumba.array { 1.0, 2.0 })
    assert.are.same({ 1, 2, 0, 0 }, a:totable())
  end)

  it("row views of a 2-d array are writable: a[i][j] and rows of for-loops", function()
    local f = njit [[
def f(m):
    for i in range(2):
        r = m[i]
        r[1] = i + 1
    m[1][2] = 9
    for row in m:
        row[0] = -1
]]
    local m = lumba.zeros { 2, 3 }
    f(m)
    assert.are.same({ { -1, 1, 0 }, { -1, 2, 9 } }, m:totable())
  end)
end)

describe("attributes and methods", function()
  it(".shape, .size, .ndim and len()", function()
    local f = njit "def f(a):\n    n, m = a.shape\n    return n, m, a.size, a.ndim, len(a), a.shape[-1]\n"
    assert.are.same({ 3, 4, 12, 2, 3, 4 }, { f(lumba.zeros { 3, 4 }) })
    local g = njit "def g(a):\n    return a.shape[0], a.size, a.ndim, len(a)\n"
    assert.are.same({ 0, 0, 1, 0 }, { g(lumba.zeros(0)) })
  end)

  it(".sum(), .min(), .max(), .mean() of float64", function()
    local f = njit "def f(a):\n    return a.sum(), a.min(), a.max(), a.mean()\n"
    local a = lumba.array { { 3.0, -1.5, 2.0 }, { 8.0, 0.5, -4.0 } }
    assert.are.same({ 8.0, -4.0, 8.0, 8.0 / 6 }, { f(a) })
  end)

  it("reductions of int32, bool and float32 arrays keep NumPy's result types", function()
    local f = njit "def f(a):\n    return a.sum(), a.mean()\n"
    local s, m = f(lumba.array({ 1, 2, 4 }, "int32"))
    assert.are.equal("integer", math.type(s))
    assert.are.equal(7, s)
    assert.are.equal(7 / 3, m)
    local g = njit "def g(a):\n    return a.sum(), a.min(), a.max()\n"
    assert.are.same({ 2, false, true }, { g(lumba.array({ true, false, true }, "bool")) })
    -- float32 sums in float32: np.float32(0.1) + np.float32(0.2) as a double
    local h = njit "def h(a):\n    return a.sum()\n"
    assert.are.equal(0.30000001192092896, h(lumba.array({ 0.1, 0.2 }, "float32")))
  end)

  it("min/max of an empty array are ValueErrors", function()
    local f = njit "def f(a):\n    return a.min()\n"
    assert.are.equal("ValueError: zero-size array to reduction operation minimum which has no identity",
      H.message_of(f, lumba.zeros(0)))
    assert.are.equal(0.0, njit "def f(a):\n    return a.sum()\n" (lumba.zeros(0)))
  end)

  it("min/max propagate NaN as NumPy", function()
    local f = njit "def f(a):\n    return a.min(), a.max()\n"
    local lo, hi = f(lumba.array { 1.0, 0 / 0, -1.0 })
    assert.is_true(lo ~= lo)
    assert.is_true(hi ~= hi)
  end)

  it(".copy() is a new C array; the original is unchanged", function()
    local f = njit "def f(a):\n    b = a.copy()\n    b[0, 0] = 100\n    return b\n"
    local a = iota { 2, 2 }
    local b = f(a)
    assert.are.same({ { 100, 1 }, { 2, 3 } }, b:totable())
    assert.are.same({ { 0, 1 }, { 2, 3 } }, a:totable())
    assert.is_true(b:is_c_contiguous())
  end)

  it(".copy() of a strided view", function()
    local f = njit "def f(a):\n    return a[::-2, 1:].copy()\n"
    local b = f(iota { 3, 3 })
    assert.are.same({ { 7, 8 }, { 1, 2 } }, b:totable())
    assert.is_true(b:is_c_contiguous())
  end)

  it(".fill() of an array and of a view", function()
    local f = njit "def f(a):\n    a.fill(2)\n    a[1].fill(7)\n    a[:, 0].fill(-1)\n"
    local a = lumba.zeros { 3, 2 }
    f(a)
    assert.are.same({ { -1, 2 }, { -1, 7 }, { -1, 2 } }, a:totable())
  end)

  it("a.T of 2-d and 3-d arrays", function()
    local f = njit "def f(a):\n    return a.T\n"
    assert.are.same({ { 0, 4, 8 }, { 1, 5, 9 }, { 2, 6, 10 }, { 3, 7, 11 } }, f(iota { 3, 4 }):totable())
    local g = njit "def g(a):\n    b = a.T\n    return b.shape[0], b.shape[2], b[3, 2, 1], b[0, 1, 1]\n"
    assert.are.same({ 4, 2, 23, 16 }, { g(iota({ 2, 3, 4 }, "int64")) })   -- b[i,j,k] = a[k,j,i]
  end)
end)

describe("iteration", function()
  it("for x in a 1-d array visits the elements in order", function()
    local f = njit "def f(a):\n    s = 0.0\n    k = 1\n    for x in a:\n        s += x * k\n        k += 1\n    return s\n"
    local a = lumba.array { 3.0, 5.0, 7.0 }
    assert.are.equal(3 * 1 + 5 * 2 + 7 * 3, f(a))
    assert.are.equal(7 * 1 + 5 * 2 + 3 * 3, njit "def g(a):\n    return f(a[::-1])\n\ndef f(a):\n    s = 0.0\n    k = 1\n    for x in a:\n        s += x * k\n        k += 1\n    return s\n" (a))
  end)

  it("for row in a 2-d array gives row views; nested loops sum every element", function()
    local f = njit "def f(a):\n    s = 0.0\n    for row in a:\n        for x in row:\n            s += x\n    return s\n"
    assert.are.equal(66.0, f(iota { 3, 4 }))
    assert.are.equal(0.0, f(lumba.zeros { 0, 4 }))
  end)
end)

describe("iteration over temporaries", function()
  it("for x in np.arange(n) iterates the new array's elements", function()
    local f = njit "import numpy as np\ndef f(n):\n    s = 0\n    for x in np.arange(1, n, 2):\n        s = s * 10 + x\n    return s\n"
    assert.are.equal(1357, f(9))
    local h = njit "import numpy as np\ndef h(n):\n    s = 0.0\n    for x in np.full(n, 2.0):\n        s = s * 10 + x\n    return s\n"
    assert.are.equal(22222.0, h(5))   -- not range(n)'s 0, 1, 2, 3, 4
    local g = njit "import numpy as np\ndef g(n):\n    s = 0.0\n    for r in np.ones((n, 2)):\n        s += r[0] + r.sum()\n    return s\n"
    assert.are.equal(15.0, g(5))
  end)

  it("returning from inside the loop releases the temporary", function()
    local f = njit "import numpy as np\ndef f(n):\n    for x in np.arange(n):\n        if x == 2:\n            return x\n    return -1\n"
    local g = njit "import numpy as np\ndef g(n):\n    for r in np.ones((n, 2)):\n        for x in r:\n            return x\n    return 0.0\n"
    f(5)
    g(5)
    local before = live_now()
    assert.are.equal(2, f(5))
    assert.are.equal(1.0, g(5))
    assert.are.equal(before, live_now())
  end)

  it("an error inside the loop releases the temporary", function()
    local f = njit "import numpy as np\ndef f(n):\n    for x in np.arange(n):\n        if x == 2:\n            raise ValueError('two')\n    return -1\n"
    local before = live_now()
    assert.are.equal("ValueError: two", H.message_of(f, 5))
    assert.are.equal(before, live_now())
  end)

  it("rebinding the iterated name inside the loop does not free the array being iterated", function()
    local f = njit [[
import numpy as np
def f(n):
    a = np.arange(n)
    s = 0
    for x in a:
        a = np.zeros(3, np.int64)
        s += x
    return s + a.sum()
]]
    assert.are.equal(4950, f(100))
  end)
end)

describe("allocation", function()
  it("np.empty/zeros/ones/full/arange with shapes and dtypes", function()
    local f = njit [[
import numpy as np
def f(n):
    return np.empty(n), np.zeros((2, n), np.int32), np.ones(n, dtype=np.uint8), np.full((2, 2), 3.5), np.arange(n), np.arange(1.0, 2.0, 0.25)
]]
    local e, z, o, fu, ar, arf = f(3)
    assert.are.same({ 3 }, e.shape)
    assert.are.equal("float64", e.dtype)
    assert.are.same({ { 0, 0, 0 }, { 0, 0, 0 } }, z:totable())
    assert.are.equal("int32", z.dtype)
    assert.are.same({ 1, 1, 1 }, o:totable())
    assert.are.equal("uint8", o.dtype)
    assert.are.same({ { 3.5, 3.5 }, { 3.5, 3.5 } }, fu:totable())
    assert.are.same({ 0, 1, 2 }, ar:totable())
    assert.are.equal("int64", ar.dtype)
    assert.are.same({ 1.0, 1.25, 1.5, 1.75 }, arf:totable())
    assert.are.equal("float64", arf.dtype)
  end)

  it("np.arange with negative steps and empty ranges", function()
    local f = njit "import numpy as np\ndef f(a, b, c):\n    return np.arange(a, b, c)\n"
    assert.are.same({ 10, 7, 4, 1 }, f(10, 0, -3):totable())
    assert.are.equal(0, f(0, 10, -1).size)
    assert.are.same({ 1.0, 0.5 }, f(1.0, 0.0, -0.5):totable())
    assert.are.equal("ValueError: arange: step must not be zero", H.message_of(f, 0, 10, 0))
    assert.are.same({ 0 }, f(0, math.maxinteger, math.maxinteger):totable())   -- NumPy's value
    assert.are.same({ 0 }, f(0, 10, math.maxinteger):totable())
  end)

  it("np.*_like take the dtype and shape of their argument", function()
    local f = njit "import numpy as np\ndef f(a):\n    return np.empty_like(a), np.zeros_like(a), np.ones_like(a)\n"
    local e, z, o = f(lumba.full({ 2, 3 }, 5, "int32"))
    assert.are.same({ 2, 3 }, e.shape)
    assert.are.equal("int32", e.dtype)
    assert.are.same({ { 0, 0, 0 }, { 0, 0, 0 } }, z:totable())
    assert.are.same({ { 1, 1, 1 }, { 1, 1, 1 } }, o:totable())
    assert.are.equal("int32", o.dtype)
  end)

  it("dtypes bool_, float32, int8 and full of a bool", function()
    local f = njit "import numpy as np\ndef f(n):\n    return np.zeros(n, dtype=np.bool_), np.ones(n, np.float32), np.full(n, True), np.zeros(n, np.int8)\n"
    local a, b, c, d = f(2)
    assert.are.same({ "bool", "float32", "bool", "int8" }, { a.dtype, b.dtype, c.dtype, d.dtype })
    assert.are.same({ false, false }, a:totable())
    assert.are.same({ true, true }, c:totable())
  end)

  it("a negative dimension is a ValueError", function()
    local f = njit "import numpy as np\ndef f(n):\n    return np.zeros(n)\n"
    assert.are.equal("ValueError: negative dimensions are not allowed", H.message_of(f, -1))
    assert.are.equal(0, f(0).size)
  end)

  it("zero-size arrays", function()
    local f = njit "import numpy as np\ndef f(n):\n    return np.zeros((n, 0))\n"
    local z = f(3)
    assert.are.same({ 3, 0 }, z.shape)
    assert.are.equal(0, z.size)
  end)
end)

describe("arrays returned to Lua", function()
  it("own their memory: still valid after collectgarbage()", function()
    local f = njit [[
import numpy as np
def f(n):
    a = np.arange(n)
    b = np.ones((n, 2))
    return a[2:], b
]]
    local v, b = f(6)
    collectgarbage()
    collectgarbage()
    local junk = {}
    for i = 1, 1000 do junk[i] = lumba.full(16, i) end   -- reuse freed memory, if any was freed
    assert.are.same({ 2, 3, 4, 5 }, v:totable())
    assert.are.equal(12.0, b:sum())
    b[1][1] = 5
    assert.are.equal(16.0, b:sum())
  end)

  it("a view of an argument keeps the argument's memory alive", function()
    local f = njit "def f(a):\n    return a[1:], a[::2].copy()\n"
    local base = lumba.arange(10, "float64")
    local v, c = f(base)
    base = nil   -- luacheck: ignore
    collectgarbage()
    collectgarbage()
    assert.are.same({ 1, 2, 3, 4, 5, 6, 7, 8, 9 }, v:totable())
    assert.are.same({ 0, 2, 4, 6, 8 }, c:totable())
    v[1] = 42   -- writes still land in the shared buffer
    assert.are.equal(42, v:get(1))
  end)

  it("release their buffers when collected", function()
    local f = njit "import numpy as np\ndef f(n):\n    return np.arange(n), np.ones((n, 2))\n"
    local before = live_now()
    local x, y = f(5)
    assert.are.equal(before + 2, live())
    x, y = nil, nil   -- luacheck: ignore
    assert.are.equal(before, live_now())
  end)

  it("arrays passed between defs, in tuples and conditional expressions are counted right", function()
    local f = njit [[
import numpy as np
def k(n, flag):
    a = np.zeros(n)
    b = np.ones(n)
    c = a if flag else b
    t = (a, b)
    d = helper(t[1])
    return c, d

def helper(x):
    return x[1:]
]]
    local before = live_now()
    local c, d = f(4, true)
    assert.are.same({ 0, 0, 0, 0 }, c:totable())
    assert.are.same({ 1, 1, 1 }, d:totable())
    c, d = f(4, false)
    assert.are.same({ 1, 1, 1, 1 }, c:totable())
    c, d = nil, nil   -- luacheck: ignore
    assert.are.equal(before, live_now())
  end)

  it("arrays allocated before an error are freed", function()
    local f = njit [[
import numpy as np
def f(n):
    a = np.zeros(n)
    b = np.ones(n)
    if n > 3:
        raise ValueError("big")
    return a
]]
    local before = live_now()
    assert.are.equal("ValueError: big", H.message_of(f, 5))
    assert.are.equal(before, live_now())
    local g = njit [[
import numpy as np
def g(n):
    s = 0.0
    for i in range(n):
        a = np.zeros(4)
        a[0] = 1.0 / (i - 5)
        s += a[0]
    return s
]]
    assert.are.equal("ZeroDivisionError: division by zero", H.message_of(g, 10))
    assert.are.equal(before, live_now())
  end)

  -- each case raises while an array it made is not in a variable yet: the
  -- subscript's array during its index or bounds check, a tuple's earlier
  -- element, an earlier call argument, a slice's array, the value of a slice
  -- assignment, np.full's array during its fill value, an augmented element
  it("temporary arrays (not yet in a variable) are freed when an error is raised", function()
    local before = live_now()
    local h = njit "def h(a, k):\n    return a[0] + k\n"
    local raising = njit "def raising(a, d):\n    return a[0] // d\n"
    local cases = {
      { "def f(n, d):\n    return np.ones(n)[n // d]\n", "ZeroDivisionError: integer division or modulo by zero" },
      { "def f(n, d):\n    t = (np.ones(n), n // d)\n    return t[1]\n",
        "ZeroDivisionError: integer division or modulo by zero" },
      { "def f(n, d):\n    return h(np.ones(n), n // d)\n", "ZeroDivisionError: integer division or modulo by zero" },
      { "def f(n, d):\n    return raising(np.ones(n), d)\n", "ZeroDivisionError: division by zero" },
      { "def f(n, d):\n    return np.ones(n)[1:n // d].size\n", "ZeroDivisionError: integer division or modulo by zero" },
      { "def f(n, d):\n    a = np.zeros(n)\n    a[0:n // d] = np.ones(2)\n    return a[0]\n",
        "ZeroDivisionError: integer division or modulo by zero" },
      { "def f(n, d):\n    return np.full(n, 1.0 / d)[0]\n", "ZeroDivisionError: division by zero" },
      { "def f(n, d):\n    t = (np.ones(n), np.zeros(n))\n    return t[(n // d) % 2][0]\n",
        "ZeroDivisionError: integer division or modulo by zero" },
      { "def f(n, d):\n    np.ones(n)[0] += n // d\n    return 1\n",
        "ZeroDivisionError: integer division or modulo by zero" },
    }
    for i, c in ipairs(cases) do
      local f = lumba.njit { env = { h = h, raising = raising } } ("import numpy as np\n" .. c[1])
      assert.are.equal(c[2], H.message_of(f, 4, 0), "case " .. i)
      assert.are.equal(before, live_now(), "case " .. i)
      assert.is_number(f(4, 2), "case " .. i)  -- the same function works afterwards
      assert.are.equal(before, live_now(), "case " .. i)
    end
    -- an index out of bounds (boundscheck) while the array is a temporary
    local g = lumba.njit { boundscheck = true } "import numpy as np\ndef g(n):\n    return np.ones(n)[n + 5]\n"
    assert.truthy(H.error_of(g, 3):find("IndexError", 1, true))
    assert.are.equal(before, live_now())
  end)

  local alloc_loop = [[
import numpy as np
def f(n):
    s = 0.0
    for i in range(n):
        a = np.zeros(128)
        a[0] = i
        b = a.copy()
        c = b[1:]
        s += b[0] + c.sum()
    return s
]]

  it("a loop allocating 1 KiB per step 10^5 times frees every array", function()
    local f = njit(alloc_loop)
    f(10)
    local before = live_now()
    assert.are.equal(100000 * 99999 / 2, f(100000))
    assert.are.equal(before, live_now())
  end)

  -- (not under ASan: its quarantine keeps freed memory resident)
  it("a loop allocating 1 KiB per step 10^5 times keeps the RSS flat #noasan", function()
    local f = njit(alloc_loop)
    f(10)
    local function rss_kib()
      local fh = assert(io.open("/proc/self/statm"))
      local _, res = fh:read("n", "n")
      fh:close()
      return res * 4
    end
    local rss0 = rss_kib()
    assert.are.equal(100000 * 99999 / 2, f(100000))
    -- 2 x 10^5 arrays of 1 KiB leaked would be 200 MiB
    assert.is_true(rss_kib() - rss0 < 20 * 1024, "RSS grew by more than 20 MiB")
  end)
end)

describe("dtypes of arguments", function()
  for _, c in ipairs {
    { "int32", 6, 1 }, { "uint8", 6, 1 }, { "int8", 6, 1 }, { "int16", 6, 1 }, { "uint16", 6, 1 },
    { "uint32", 6, 1 }, { "float32", 6.0, 1.0 }, { "bool", 4, true },
  } do
    it(c[1] .. " arrays are read and written in their own dtype", function()
      local f = njit "def f(a):\n    a[0] = 3\n    s = 0\n    for i in range(a.shape[0]):\n        s += a[i]\n    return s, a[1]\n"
      local a = lumba.ones(4, c[1])
      local s, a1 = f(a)
      assert.are.equal(c[2], s)
      assert.are.equal(c[3], a1)
      assert.are.equal(c[1] == "bool" and true or 3, a:get(1))
      assert.are.equal(c[1], a.dtype)
    end)
  end

  it("stores convert to the element type (truncation and wraparound as NumPy)", function()
    local f = njit "def f(a, x):\n    a[0] = x\n    return a[0]\n"
    assert.are.equal(44, f(lumba.zeros(1, "uint8"), 300))     -- 300 % 256
    assert.are.equal(-56, f(lumba.zeros(1, "int8"), 200))     -- 200 - 256
    assert.are.equal(-2, f(lumba.zeros(1, "int32"), -2.9))    -- truncated
    assert.are.equal(0.5, f(lumba.zeros(1, "float32"), 0.5))
  end)

  it("uint64 elements mixed with int64 give float64 (Numba's rule)", function()
    local f = njit "def f(a):\n    s = 0\n    for i in range(a.shape[0]):\n        s += a[i]\n    return s\n"
    local s = f(lumba.ones(4, "uint64"))
    assert.are.equal(4.0, s)
    assert.are.equal("float", math.type(s))
  end)
end)

describe("layouts", function()
  local fill = njit [[
def fill(m):
    k = 0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            m[i, j] = k
            k += 1
    return m.sum(), m[1, 0]
]]

  it("F-ordered arguments index by (row, column) like C ones", function()
    local F = lumba.zeros({ 2, 3 }, "float64", "F")
    assert.is_true(F:is_f_contiguous())
    assert.are.same({ 15.0, 3.0 }, { fill(F) })
    assert.are.same({ { 0, 1, 2 }, { 3, 4, 5 } }, F:totable())
    assert.matches("float64%[::1, :%]", fill.signatures[1])
  end)

  it("transposed and sliced arrays from Lua", function()
    local f = njit "def f(m):\n    return m[0, 1], m[2, 0], m.shape[0], m.sum()\n"
    local t = iota { 2, 3 }:transpose()   -- t[i, j] = 3*j + i
    assert.are.same({ 3.0, 2.0, 3, 15.0 }, { f(t) })
    local s = iota { 4, 6 }:slice({ nil, nil, 2 }, { 2, 5 })   -- rows 1 and 3 (1-based), columns 2..5
    assert.are.same({ 2, 4 }, s.shape)
    local h = njit "def h(m):\n    return m[0, 1], m[1, 0], m.shape[1], m.sum()\n"
    assert.are.same({ 2.0, 13.0, 4, 1 + 2 + 3 + 4 + 13 + 14 + 15 + 16 }, { h(s) })
    local v = lumba.arange(10, "float64"):slice({ nil, nil, 2 })
    local g = njit "def g(m):\n    s = 0.0\n    for i in range(m.shape[0]):\n        s += m[i] * (i + 1)\n    return s\n"
    assert.are.equal(0 * 1 + 2 * 2 + 4 * 3 + 6 * 4 + 8 * 5, g(v))
  end)

  it("writes into a transposed array land in the original", function()
    local base = lumba.zeros { 2, 3 }
    fill(base:transpose())
    -- the transpose is 3x2 and filled row-major: t[i, j] = 2*i + j = base[j, i]
    assert.are.same({ { 0, 2, 4 }, { 1, 3, 5 } }, base:totable())
  end)
end)

describe("boundscheck", function()
  local get = njit { boundscheck = true } "def f(a, i):\n    return a[i]\n"
  local get2 = njit { boundscheck = true } "def f(a, i, j):\n    return a[i, j]\n"
  local set = njit { boundscheck = true } "def f(a, i):\n    a[i] = 1\n"

  it("raises IndexError naming the index, the axis and its size", function()
    assert.are.equal("IndexError: index 7 out of bounds for axis 0 with size 5", H.message_of(get, lumba.zeros(5), 7))
    assert.are.equal("IndexError: index -6 out of bounds for axis 0 with size 5", H.message_of(get, lumba.zeros(5), -6))
    assert.are.equal("IndexError: index 3 out of bounds for axis 1 with size 3", H.message_of(get2, lumba.zeros { 2, 3 }, 1, 3))
    assert.are.equal("IndexError: index 5 out of bounds for axis 0 with size 5", H.message_of(set, lumba.zeros(5), 5))
    assert.are.equal("IndexError: index 3 out of bounds for axis 0 with size 3", H.message_of(get, lumba.zeros { 3, 3 }, 3))
    assert.are.equal(0.0, get(lumba.zeros(5), -5))
    assert.are.equal(0.0, get2(lumba.zeros { 2, 3 }, -2, 2))
  end)

  it("is on by LUMBA_BOUNDSCHECK=1 (checked in a child process)", function()
    local cmd = [[LUMBA_BOUNDSCHECK=1 lua5.4 -e 'package.path="lua/?.lua;lua/?/init.lua;"..package.path ]]
      .. [[package.cpath="]] .. (os.getenv("LUMBA_CPATH") or "build") .. [[/?.so;"..package.cpath ]]
      .. [[local l=require"lumba" local f=l.njit"def f(a):\n    return a[9]\n" ]]
      .. [[print(select(2, pcall(f, l.zeros(2))))' 2>&1]]
    local p = io.popen(cmd)
    local out = p:read("a")
    p:close()
    assert.are.equal("IndexError: index 9 out of bounds for axis 0 with size 2\n<string>:2:5: in f\n    return a[9]\n", out)
  end)
end)
