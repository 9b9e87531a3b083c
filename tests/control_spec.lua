-- Control flow in compiled code: branches, loops with else/break/continue,
-- range forms, chained comparisons, and/or, conditional expressions, calls
-- between defs, recursion, tuples, assert and raise. Expected values are
-- Python's (hand-checked) or the same loop run by plain Lua.
local lumba = require "lumba"
local H = require "helpers"
local njit = lumba.njit

describe("branches", function()
  local sign = njit [[
def sign(x):
    if x < 0:
        return -1
    elif x == 0:
        return 0
    else:
        return 1
]]

  it("if/elif/else picks the first true branch", function()
    assert.are.equal(-1, sign(-5))
    assert.are.equal(0, sign(0))
    assert.are.equal(1, sign(7))
    assert.are.equal(-1, sign(-0.5))
  end)

  it("nested ifs without else fall through", function()
    local f = njit [[
def f(a, b):
    r = 0
    if a > 0:
        if b > 0:
            r = 1
        r += 10
    return r
]]
    assert.are.equal(11, f(1, 1))
    assert.are.equal(10, f(1, -1))
    assert.are.equal(0, f(-1, 1))
  end)

  it("a condition may be an int or a float (Python truthiness)", function()
    local f = njit [[
def f(x):
    if x:
        return 1
    return 2
]]
    assert.are.equal(2, f(0))
    assert.are.equal(1, f(-3))
    assert.are.equal(2, f(0.0))
    assert.are.equal(1, f(0.1))
    assert.are.equal(2, f(false))
  end)

  it("conditional expressions", function()
    local f = njit "def f(x):\n    return x if x > 0 else -x\n"
    assert.are.equal(3, f(-3))
    assert.are.equal(4, f(4))
    local g = njit "def g(x):\n    return 1 if x > 0 else 0.5\n"
    assert.are.equal(1.0, g(1))
    assert.are.equal("float", math.type(g(1)))   -- the branches unify to float64
  end)
end)

describe("while loops", function()
  it("loop until the condition fails (Collatz steps)", function()
    local f = njit [[
def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps
]]
    local function lua_collatz(n)
      local steps = 0
      while n ~= 1 do
        if n % 2 == 0 then n = n // 2 else n = 3 * n + 1 end
        steps = steps + 1
      end
      return steps
    end
    for _, n in ipairs { 1, 6, 27, 97 } do assert.are.equal(lua_collatz(n), f(n)) end
  end)

  it("while/else runs the else block only when the loop ends without break", function()
    local f = njit [[
def find(n, target):
    i = 0
    r = -1
    while i < n:
        if i * i == target:
            r = i
            break
        i += 1
    else:
        r = -2
    return r
]]
    assert.are.equal(4, f(10, 16))
    assert.are.equal(-2, f(10, 15))
    assert.are.equal(-2, f(0, 0))   -- zero-trip: else runs
  end)

  it("continue skips to the next test", function()
    local f = njit [[
def f(n):
    i = 0
    s = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        s += i
    return s
]]
    local s = 0
    for i = 1, 20 do if i % 3 ~= 0 then s = s + i end end
    assert.are.equal(s, f(20))
  end)
end)

describe("for loops over range", function()
  local function lua_range(a, b, c)
    local out = {}
    if b == nil then a, b = 0, a end
    c = c or 1
    if c > 0 then
      local i = a
      while i < b do out[#out + 1] = i; i = i + c end
    else
      local i = a
      while i > b do out[#out + 1] = i; i = i + c end
    end
    return out
  end
  -- sum of i * (position + 1): order-sensitive, so every element and its order count
  local function weighted(t)
    local s = 0
    for k, v in ipairs(t) do s = s + v * k end
    return s, #t
  end
  local r1 = njit [[
def r1(n):
    s = 0
    k = 0
    for i in range(n):
        k += 1
        s += i * k
    return s, k
]]
  local r2 = njit [[
def r2(a, b):
    s = 0
    k = 0
    for i in range(a, b):
        k += 1
        s += i * k
    return s, k
]]
  local r3 = njit [[
def r3(a, b, c):
    s = 0
    k = 0
    for i in range(a, b, c):
        k += 1
        s += i * k
    return s, k
]]

  it("range(n)", function()
    for _, n in ipairs { 0, 1, 7, -3 } do
      local s, k = weighted(lua_range(n))
      local gs, gk = r1(n)
      assert.are.same({ s, k }, { gs, gk })
    end
  end)

  it("range(a, b)", function()
    for _, p in ipairs { { 2, 9 }, { -5, 3 }, { 5, 5 }, { 9, 2 } } do
      local s, k = weighted(lua_range(p[1], p[2]))
      assert.are.same({ s, k }, { r2(p[1], p[2]) })
    end
  end)

  it("range(a, b, step) with positive and negative steps, zero-trip included", function()
    for _, p in ipairs { { 0, 10, 3 }, { 10, 0, -3 }, { 10, -1, -1 }, { -2, -20, -5 }, { 0, 10, -1 }, { 5, 0, 2 }, { 0, 1, 100 } } do
      local s, k = weighted(lua_range(p[1], p[2], p[3]))
      assert.are.same({ s, k }, { r3(p[1], p[2], p[3]) }, table.concat(p, ","))
    end
  end)

  it("constant negative steps", function()
    local f = njit [[
def f(n):
    s = 0
    for i in range(n, 0, -2):
        s = s * 10 + i
    return s
]]
    assert.are.equal(7531, f(7))
    assert.are.equal(0, f(0))
  end)

  it("range step 0 raises ValueError", function()
    assert.are.equal("ValueError: range() arg 3 must not be zero", H.message_of(r3, 0, 10, 0))
    local f = njit "def f(n):\n    s = 0\n    for i in range(0, n, 0):\n        s += i\n    return s\n"
    assert.are.equal("ValueError: range() arg 3 must not be zero", H.message_of(f, 5))
    assert.are.same({ 0 + 3 * 2 + 6 * 3 + 9 * 4, 4 }, { r3(0, 10, 3) })
  end)

  it("ranges reaching the ends of int64 end (Python's range does not overflow)", function()
    local f = njit "def f(a, b, c):\n    k = 0\n    last = 0\n    for i in range(a, b, c):\n        k += 1\n        last = i\n        if k > 10:\n            break\n    return k, last\n"
    local MAX, MIN = math.maxinteger, math.mininteger
    assert.are.same({ 2, 1 << 62 }, { f(0, MAX, 1 << 62) })        -- Python: [0, 2**62]
    assert.are.same({ 3, MAX - 1 }, { f(MAX - 5, MAX, 2) })
    assert.are.same({ 3, MIN + 1 }, { f(MIN + 5, MIN, -2) })
    assert.are.same({ 2, -1 }, { f(MAX, MIN, MIN) })                -- Python: [2**63-1, -1]
    local g = njit "def g(a, b):\n    k = 0\n    for i in range(a, b):\n        k += 1\n    return k\n"
    assert.are.equal(3, g(MAX - 3, MAX))
  end)

  it("the loop variable keeps its last value after the loop (Python)", function()
    local f = njit [[
def f(n):
    i = -1
    for i in range(n):
        pass
    return i
]]
    assert.are.equal(4, f(5))
    assert.are.equal(-1, f(0))
  end)

  it("for/else with break", function()
    local f = njit [[
def first_divisor(n):
    for d in range(2, n):
        if n % d == 0:
            break
    else:
        return n
    return d
]]
    assert.are.equal(3, f(21))
    assert.are.equal(13, f(13))
    assert.are.equal(2, f(2))   -- zero-trip loop: the else block runs
  end)

  it("continue in a for loop", function()
    local f = njit [[
def f(n):
    s = 0
    for i in range(n):
        if i % 2:
            continue
        s += i
    return s
]]
    assert.are.equal(0 + 2 + 4 + 6 + 8, f(10))
  end)

  it("nested loops with break leaving only the inner one", function()
    local f = njit [[
def f(n):
    count = 0
    for i in range(n):
        for j in range(n):
            if j > i:
                break
            count += 1
    return count
]]
    local count = 0
    for i = 0, 9 do for j = 0, 9 do if j > i then break end count = count + 1 end end
    assert.are.equal(count, f(10))
  end)

  it("triple nested loops", function()
    local f = njit [[
def f(n):
    s = 0
    for i in range(n):
        for j in range(i):
            for k in range(j):
                s += i * 100 + j * 10 + k
    return s
]]
    local s = 0
    for i = 0, 5 do for j = 0, i - 1 do for k = 0, j - 1 do s = s + i * 100 + j * 10 + k end end end
    assert.are.equal(s, f(6))
  end)
end)

describe("comparisons and boolean operators", function()
  it("chained comparisons", function()
    local f = njit "def f(a, b, c):\n    return a < b < c\n"
    assert.is_true(f(1, 2, 3))
    assert.is_false(f(1, 3, 2))
    assert.is_false(f(3, 2, 1))
    assert.is_true(f(1, 2.5, 3))
    local g = njit "def g(a, b, c, d):\n    return a <= b == c != d\n"
    assert.is_true(g(1, 2, 2, 3))
    assert.is_false(g(1, 2, 2, 2))
  end)

  it("chained comparisons evaluate each operand once and stop at the first false", function()
    local f = njit [[
def f(a):
    r1 = 0 < bump(a, 0) < 5
    r2 = 5 < bump(a, 1) < bump(a, 2)
    return r1, r2

def bump(a, i):
    a[i] += 1
    return a[i]
]]
    local a = lumba.zeros(3, "int64")
    local r1, r2 = f(a)
    assert.is_true(r1)
    assert.is_false(r2)
    assert.are.same({ 1, 1, 0 }, a:totable())   -- the middle operand once; the last never
  end)

  it("and/or return one of their operands (Python)", function()
    local band = njit "def f(a, b):\n    return a and b\n"
    local bor = njit "def f(a, b):\n    return a or b\n"
    assert.are.equal(0, band(0, 5))
    assert.are.equal(5, band(3, 5))
    assert.are.equal(3, bor(3, 5))
    assert.are.equal(5, bor(0, 5))
    assert.are.equal(0.0, bor(0.0, 0.0))
    assert.are.equal(2.5, bor(0, 2.5))          -- int and float unify to float64
    assert.are.equal("float", math.type(bor(3, 2.5)))
    assert.is_false(band(false, true))
    assert.is_true(bor(false, true))
  end)

  it("and/or short-circuit", function()
    local f = njit [[
def f(a, x):
    if x > 0 and a[0] == 0:
        pass
    if x > 0 or a[1] == 0:
        pass
    return 1
]]
    -- with boundscheck the index 0 of an empty array would raise: the short circuit avoids it
    local g = njit { boundscheck = true } [[
def g(a, x):
    return x > 0 and a[0] == 1
]]
    assert.are.equal(1, f(lumba.zeros(2, "int64"), 1))
    assert.is_false(g(lumba.zeros(0, "int64"), 0))
    assert.are.equal("IndexError: index 0 out of bounds for axis 0 with size 0", H.message_of(g, lumba.zeros(0, "int64"), 1))
  end)

  it("not", function()
    local f = njit "def f(a, b):\n    return not (a < b)\n"
    assert.is_false(f(1, 2))
    assert.is_true(f(2, 1))
  end)
end)

describe("functions", function()
  it("early return from inside a loop", function()
    local f = njit [[
def index_of(a, x):
    for i in range(a.shape[0]):
        if a[i] == x:
            return i
    return -1
]]
    local a = lumba.array({ 5, 8, 13, 8 }, "int64")
    assert.are.equal(1, f(a, 8))
    assert.are.equal(-1, f(a, 4))
  end)

  it("recursion (fib)", function()
    local fib = njit [[
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)
]]
    local function lfib(n) if n < 2 then return n end return lfib(n - 1) + lfib(n - 2) end
    assert.are.equal(lfib(20), fib(20))
    assert.are.equal(0, fib(0))
  end)

  it("recursion typed by a return path that comes after the recursive one", function()
    local f = njit "def depth(n):\n    if n > 0:\n        return depth(n - 1) + 1\n    return 0\n"
    assert.are.equal(25, f(25))
  end)

  it("recursion with no non-recursive return path is a TypingError", function()
    local f = njit "def f(n):\n    return f(n)\n"
    assert.are.equal("<string>:2:12: TypingError: cannot infer the return type of f(): every return path calls it recursively\n"
      .. "        return f(n)\n"
      .. "               ^", H.error_of(f, 1))
  end)

  it("mutual recursion", function()
    local f = njit [[
def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)

def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)
]]
    assert.is_true(f(10))
    assert.is_false(f(7))
  end)

  it("calls between defs with keyword arguments and defaults", function()
    local f = njit [[
def main(x, y):
    return axpy(x, y), axpy(x, y, 3.0), axpy(x, y, b=10), axpy(y=x, x=y), axpy(x, y, b=1, a=-1.0)

def axpy(x, y, a=2.0, b=0):
    return a * x + y + b
]]
    assert.are.same({ 2 * 1.0 + 5, 3 * 1.0 + 5, 2 * 1.0 + 5 + 10, 2 * 5 + 1.0, -1 * 1.0 + 5 + 1 }, { f(1.0, 5) })
  end)

  it("a callee is specialized for each set of argument types", function()
    local f = njit [[
def main(i, x):
    return half(i), half(x)

def half(x):
    return x / 2 if x > 100 else x // 2
]]
    local a, b = f(7, 7.0)
    assert.are.equal(3.0, a)   -- half(int64): both branches unify to float64
    assert.are.equal(3.0, b)
  end)

  it("the def named by the `name` option is the entry", function()
    local f = njit { name = "second" } [[
def first(x):
    return x + 1

def second(x):
    return first(x) * 10
]]
    assert.are.equal(30, f(2))
  end)

  it("functions returning nothing return no Lua values", function()
    local f = njit [[
def fill(a, v):
    for i in range(a.shape[0]):
        a[i] = v
]]
    local a = lumba.zeros(3)
    assert.are.equal(0, select("#", f(a, 2.5)))
    assert.are.same({ 2.5, 2.5, 2.5 }, a:totable())
    local g = njit "def g(x):\n    if x > 0:\n        return\n    x = 1\n"
    assert.are.equal(0, select("#", g(1)))
    assert.are.equal(0, select("#", g(-1)))
    local h = njit "def h():\n    pass\n"
    assert.are.equal(0, select("#", h()))
  end)

  it("a variable assigned an int and a float is float64 (Numba's unification)", function()
    local f = njit "def f(n):\n    x = 0\n    for i in range(n):\n        x += 0.5\n    return x\n"
    assert.are.equal(1.5, f(3))
    assert.are.equal("float", math.type(f(0)))
    local g = njit "def g(n):\n    x = 0\n    if n > 0:\n        x = 1.5\n    return x\n"
    assert.are.equal(0.0, g(0))
    assert.are.equal("float", math.type(g(0)))
  end)

  it("falling off the end after returning a value elsewhere returns None (nil), as in Numba", function()
    local f = njit "def f(n):\n    for i in range(n):\n        if i == 3:\n            return i\n"
    assert.are.equal(3, f(5))
    assert.are.equal(1, select("#", f(2)))
    assert.is_nil(f(2))
  end)

  it("explicit return None is the same as no value", function()
    local f = njit "def f(x):\n    return None\n"
    assert.are.equal(0, select("#", f(1)))
  end)
end)

describe("tuples", function()
  it("tuple returns give several Lua values", function()
    local f = njit "def f(a, b):\n    return a // b, a % b, a / b\n"
    local q, r, d = f(-7, 2)
    assert.are.same({ -4, 1, -3.5 }, { q, r, d })
    assert.are.equal(3, select("#", f(-7, 2)))
  end)

  it("swap with a, b = b, a", function()
    local f = njit [[
def f(a, b):
    a, b = b, a
    return a, b
]]
    assert.are.same({ 2, 1 }, { f(1, 2) })
  end)

  it("fibonacci by tuple assignment", function()
    local f = njit [[
def f(n):
    a, b = 0, 1
    for i in range(n):
        a, b = b, a + b
    return a
]]
    local a, b = 0, 1
    for _ = 1, 50 do a, b = b, a + b end
    assert.are.equal(a, f(50))
  end)

  it("n, m = x.shape", function()
    local f = njit [[
def f(x):
    n, m = x.shape
    return n * 100 + m
]]
    assert.are.equal(304, f(lumba.zeros({ 3, 4 })))
  end)

  it("unpacking the tuple a def returns", function()
    local f = njit [[
def f(a, b):
    q, r = divmod_(a, b)
    return q * b + r

def divmod_(a, b):
    return a // b, a % b
]]
    assert.are.equal(-17, f(-17, 5))
  end)

  it("tuple indexing by constants and by a loop variable", function()
    local f = njit [[
def f(a, b, c):
    t = (a, b, c)
    s = 0
    for i in range(3):
        s += t[i] * (i + 1)
    return s + t[-1] * 100
]]
    assert.are.equal(1 + 2 * 2 + 3 * 3 + 300, f(1, 2, 3))
  end)

  it("iterating over a tuple", function()
    local f = njit "def f(a, b):\n    s = 0\n    for x in (a, b, 10):\n        s = s * 100 + x\n    return s\n"
    assert.are.equal(10210, f(1, 2))   -- ((0 * 100 + 1) * 100 + 2) * 100 + 10
  end)
end)

describe("assert and raise", function()
  it("a failing assert raises AssertionError with its message", function()
    local f = njit "def f(x):\n    assert x > 0, \"x must be positive\"\n    return x\n"
    assert.are.equal("AssertionError: x must be positive", H.message_of(f, -1))
    assert.are.equal(3, f(3))
  end)

  it("an assert without a message", function()
    local f = njit "def f(x):\n    assert x > 0\n    return x\n"
    assert.are.equal("AssertionError", H.message_of(f, 0))
    assert.are.equal(1, f(1))
  end)

  it("raise ValueError(\"msg\") is a Lua error \"ValueError: msg\"", function()
    local f = njit [[
def f(x):
    if x < 0:
        raise ValueError("negative input")
    return x * 2
]]
    assert.are.equal("ValueError: negative input", H.message_of(f, -1))
    assert.are.equal(4, f(2))
  end)

  it("raise with a class only, and other exception classes", function()
    local f = njit [[
def f(x):
    if x == 1:
        raise IndexError
    if x == 2:
        raise RuntimeError("two")
    if x == 3:
        raise ZeroDivisionError("three")
    return 0
]]
    assert.are.equal("IndexError", H.message_of(f, 1))
    assert.are.equal("RuntimeError: two", H.message_of(f, 2))
    assert.are.equal("ZeroDivisionError: three", H.message_of(f, 3))
    assert.are.equal(0, f(0))
  end)

  it("an error raised in a callee reaches Lua through the caller", function()
    local f = njit [[
def f(n):
    s = 0
    for i in range(n):
        s += check(i)
    return s

def check(x):
    if x > 10:
        raise ValueError("too big")
    return x
]]
    assert.are.equal("ValueError: too big", H.message_of(f, 20))
    assert.are.equal(45, f(10))
  end)
end)

describe("augmented assignment", function()
  it("every operator in place", function()
    local f = njit [[
def f(a, b):
    x = a
    x += b
    x -= 1
    x *= 3
    x //= 2
    x %= 1000
    x **= 2
    x <<= 1
    x >>= 1
    x |= 1
    x &= 255
    x ^= 3
    return x
]]
    local function py(a, b)   -- the same steps with Python's // and %
      local x = a + b
      x = x - 1; x = x * 3; x = x // 2; x = x % 1000; x = x ^ 2
      x = math.tointeger(x) << 1 >> 1
      x = x | 1; x = x & 255; x = x ~ 3
      return x
    end
    assert.are.equal(py(10, 5), f(10, 5))
    assert.are.equal(py(-10, 2), f(-10, 2))
  end)

  it("x /= 2 turns an int variable into float64", function()
    local f = njit "def f(a):\n    x = a\n    x /= 2\n    return x\n"
    assert.are.equal(3.5, f(7))
    assert.are.equal("float", math.type(f(8)))
  end)

  it("array elements in place", function()
    local f = njit "def f(a, i, v):\n    a[i] += v\n    a[i] *= 2\n    a[-1] -= 1\n"
    local a = lumba.array({ 1.0, 2.0, 3.0 })
    f(a, 0, 0.5)
    assert.are.same({ 3.0, 2.0, 2.0 }, a:totable())
  end)
end)
