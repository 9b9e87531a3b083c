-- Arithmetic in compiled code: every operator on int64, float64 and bool,
-- against Python's values (computed with CPython 3.11 while writing these
-- tests and hard-coded), Numba's typing rules, int64 wraparound,
-- ZeroDivisionError, error_model="numpy", builtins and math/numpy functions.
local lumba = require "lumba"
local H = require "helpers"
local njit = lumba.njit

-- one dispatcher per source, so each operator compiles once per signature
local cache = {}
local function fn(src)
  local f = cache[src]
  if not f then
    f = njit(src)
    cache[src] = f
  end
  return f
end

local function binop(op) return fn("def f(a, b):\n    return a " .. op .. " b\n") end
local function unop(op) return fn("def f(a):\n    return " .. op .. "a\n") end

-- exact equality that also tells integer from float, -0.0 from 0.0, NaN
local function same(expected, got, what)
  local ok
  if expected ~= expected then
    ok = got ~= got
  elseif type(expected) == "number" and type(got) == "number" then
    ok = math.type(expected) == math.type(got) and expected == got
      and (expected ~= 0 or 1 / expected == 1 / got)
  else
    ok = expected == got
  end
  if not ok then
    error(string.format("%s: expected %s (%s), got %s (%s)", what or "",
      tostring(expected), math.type(expected) or type(expected),
      tostring(got), math.type(got) or type(got)), 2)
  end
end

local MININT, MAXINT = math.mininteger, math.maxinteger
local inf, nan = math.huge, 0 / 0

describe("int64 operators", function()
  -- operands (7, 2), (-7, 2), (7, -2), (-7, -2), (0, 3); Python's values
  local pairs_ = { { 7, 2 }, { -7, 2 }, { 7, -2 }, { -7, -2 }, { 0, 3 } }
  local expected = {
    ["+"] = { 9, -5, 5, -9, 3 },
    ["-"] = { 5, -9, 9, -5, -3 },
    ["*"] = { 14, -14, -14, 14, 0 },
    ["/"] = { 3.5, -3.5, -3.5, 3.5, 0.0 },
    ["//"] = { 3, -4, -4, 3, 0 },
    ["%"] = { 1, 1, -1, -1, 0 },
    ["&"] = { 2, 0, 6, -8, 0 },
    ["|"] = { 7, -5, -1, -1, 3 },
    ["^"] = { 5, -5, -7, 7, 3 },
  }
  for op, want in pairs(expected) do
    it("a " .. op .. " b matches Python", function()
      local f = binop(op)
      for i, p in ipairs(pairs_) do
        same(want[i], f(p[1], p[2]), string.format("%d %s %d", p[1], op, p[2]))
      end
    end)
  end

  it("** with non-negative exponents matches Python; negative ones give Numba's integer results", function()
    local f = binop("**")
    same(49, f(7, 2))               -- Python's value
    same(49, f(-7, 2))
    same(-343, f(-7, 3))
    same(1, f(3, 0))
    same(1024, f(2, 10))
    same(0, f(0, 3))
    -- Python gives floats here (0.0204...); Numba types int ** int as int64:
    -- 1 and -1 stay units, other bases truncate to 0
    same(0, f(7, -2))
    same(1, f(1, -5))
    same(-1, f(-1, -3))
    same(1, f(-1, -4))
  end)

  it("<< and >> match Python, also for shifts of 64 and more", function()
    local shl, shr = binop("<<"), binop(">>")
    same(28, shl(7, 2))     -- Python's value
    same(-28, shl(-7, 2))
    same(1, shr(7, 2))
    same(-2, shr(-7, 2))
    same(0, shr(5, 64))     -- Python's value
    same(-1, shr(-1, 70))   -- Python's value
    same(MININT, shl(1, 63)) -- 2**63 wrapped to int64
    same(0, shl(1, 64))     -- 2**64: its low 64 bits
  end)

  it("a negative shift count is a ValueError", function()
    assert.are.equal("ValueError: negative shift count", H.message_of(binop("<<"), 1, -1))
    assert.are.equal("ValueError: negative shift count", H.message_of(binop(">>"), 1, -1))
    same(4, binop("<<")(1, 2))
  end)

  it("unary -, +, ~ and not", function()
    same(-5, unop("-")(5))
    same(5, unop("-")(-5))
    same(-5, unop("+")(-5))
    same(-6, unop("~")(5))     -- Python's value
    same(4, unop("~")(-5))
    same(true, unop("not ")(0))
    same(false, unop("not ")(-3))
  end)

  it("comparisons give booleans", function()
    same(true, binop("<")(-7, 2))
    same(false, binop(">")(-7, 2))
    same(true, binop("<=")(2, 2))
    same(true, binop(">=")(2, 2))
    same(true, binop("==")(-3, -3))
    same(true, binop("!=")(-3, 3))
  end)
end)

describe("int64 wraparound (as Numba)", function()
  it("wraps on overflow of + - * and negation", function()
    same(MININT, binop("+")(MAXINT, 1))     -- 2**63-1 + 1
    same(MAXINT, binop("-")(MININT, 1))
    same(0, binop("*")(1 << 62, 4))         -- 2**64 wraps to 0
    same(-2, binop("*")(MAXINT, 2))         -- Python's value minus 2**64
    same(MININT, unop("-")(MININT))
  end)

  it("MININT // -1 and MININT % -1 do not trap", function()
    same(MININT, binop("//")(MININT, -1))   -- 2**63 wrapped
    same(0, binop("%")(MININT, -1))         -- Python's value
    same(7, binop("//")(-7, -1))
  end)

  it("** wraps", function()
    same(0, binop("**")(2, 64))             -- 2**64 wraps to 0
    same(MININT, binop("**")(2, 63))
  end)
end)

describe("float64 operators", function()
  -- operands (7.5, 2.0), (-7.5, 2.0), (7.5, -2.0), (-7.5, -2.0), (0.0, 3.0), (-0.0, 3.0), (3.0, -0.5)
  local pairs_ = { { 7.5, 2.0 }, { -7.5, 2.0 }, { 7.5, -2.0 }, { -7.5, -2.0 }, { 0.0, 3.0 }, { -0.0, 3.0 }, { 3.0, -0.5 } }
  local expected = {   -- Python's values
    ["+"] = { 9.5, -5.5, 5.5, -9.5, 3.0, 3.0, 2.5 },
    ["-"] = { 5.5, -9.5, 9.5, -5.5, -3.0, -3.0, 3.5 },
    ["*"] = { 15.0, -15.0, -15.0, 15.0, 0.0, -0.0, -1.5 },
    ["/"] = { 3.75, -3.75, -3.75, 3.75, 0.0, -0.0, -6.0 },
    ["//"] = { 3.0, -4.0, -4.0, 3.0, 0.0, -0.0, -6.0 },
    ["%"] = { 1.5, 0.5, -0.5, -1.5, 0.0, 0.0, -0.0 },
    ["**"] = { 56.25, 56.25, 0.017777777777777778, 0.017777777777777778, 0.0, -0.0, 0.5773502691896257 },
  }
  for op, want in pairs(expected) do
    it("a " .. op .. " b matches Python", function()
      local f = binop(op)
      for i, p in ipairs(pairs_) do
        local got = f(p[1], p[2])
        if op == "**" then
          H.assert_close(want[i], got, 1e-15)
          assert.are.equal("float", math.type(got))
        else
          same(want[i], got, string.format("%g %s %g", p[1], op, p[2]))
        end
      end
    end)
  end

  it("floor division and modulo: signs of zero results as in Python", function()
    local fd, md = binop("//"), binop("%")
    same(2.0, md(-1.0, 3.0))     -- Python's values
    same(-2.0, md(1.0, -3.0))
    same(0.0, md(-3.0, 3.0))
    same(-0.0, md(3.0, -3.0))
    same(-0.0, fd(-0.0, 1.0))
    same(-0.0, fd(0.0, -1.0))
    same(-1.0, fd(-1e-300, 1e300))
    same(-1.0, md(1e-300, -1.0))
    same(15.0, fd(7.5, 0.5))
  end)

  it("unary minus keeps the sign of zero; not of floats", function()
    same(-0.0, unop("-")(0.0))
    same(0.0, unop("-")(-0.0))
    same(-2.5, unop("+")(-2.5))
    same(true, unop("not ")(0.0))
    same(false, unop("not ")(0.5))
  end)

  it("comparisons with NaN are false, != is true", function()
    same(false, binop("<")(nan, 1.0))
    same(false, binop("==")(nan, nan))
    same(true, binop("!=")(nan, nan))
    same(true, binop("<")(-inf, inf))
  end)

  it("float ** special cases", function()
    local f = binop("**")
    same(1.0, f(0.0, 0.0))       -- Python's value
    same(-8.0, f(-2.0, 3.0))
    same(0.5, f(2.0, -1.0))
  end)
end)

describe("mixed int and float", function()
  it("int op float is float64", function()
    same(3.5, binop("+")(3, 0.5))
    same(-2.5, binop("-")(1, 3.5))
    same(7.5, binop("*")(3, 2.5))
    same(-4.0, binop("//")(-7, 2.0))
    same(1.0, binop("%")(-7, 2.0))
    same(0.5, binop("**")(2, -1.0))
    same(1.4142135623730951, binop("**")(2, 0.5))  -- Python's value
  end)

  it("int / int is float64", function()
    same(3.5, binop("/")(7, 2))
    same(-2.0, binop("/")(-4, 2))
  end)

  it("int == float compares values", function()
    same(true, binop("==")(7, 7.0))
    same(false, binop("<")(3, 2.5))
  end)
end)

describe("bool operands", function()
  it("arithmetic on bools gives ints, true division a float (Python's values)", function()
    same(2, binop("+")(true, true))
    same(1, binop("-")(true, false))
    same(3, binop("*")(true, 3))
    same(0.5, binop("/")(true, 2))
    same(1, binop("//")(true, true))
    same(0, binop("-")(1, true))
  end)

  it("bitwise operators on two bools stay bool", function()
    same(false, binop("&")(true, false))
    same(true, binop("|")(true, false))
    same(false, binop("^")(true, true))
    same(true, binop("^")(true, false))
  end)

  it("unary operators on bools", function()
    same(-1, unop("-")(true))
    same(1, unop("+")(true))
    same(-2, unop("~")(true))   -- Python's value (an int)
    same(false, unop("not ")(true))
  end)

  it("comparisons of bools", function()
    same(true, binop("<")(false, true))
    same(true, binop("==")(true, 1))
  end)
end)

describe("division by zero", function()
  it("raises ZeroDivisionError for int // and %", function()
    assert.are.equal("ZeroDivisionError: integer division or modulo by zero", H.message_of(binop("//"), 7, 0))
    assert.are.equal("ZeroDivisionError: integer division or modulo by zero", H.message_of(binop("%"), -7, 0))
    same(3, binop("//")(7, 2))
  end)

  it("raises ZeroDivisionError for / and float // and %", function()
    assert.are.equal("ZeroDivisionError: division by zero", H.message_of(binop("/"), 7, 0))
    assert.are.equal("ZeroDivisionError: division by zero", H.message_of(binop("/"), 7.0, 0.0))
    assert.are.equal("ZeroDivisionError: division by zero", H.message_of(binop("/"), 7.0, -0.0))
    assert.are.equal("ZeroDivisionError: division by zero", H.message_of(binop("//"), 7.0, 0.0))
    assert.are.equal("ZeroDivisionError: division by zero", H.message_of(binop("%"), 7.0, 0.0))
    assert.are.equal("ZeroDivisionError: division by zero", H.message_of(binop("/"), 7, 0.0))
    same(3.5, binop("/")(7.0, 2.0))
  end)

  it("0 ** negative raises ZeroDivisionError", function()
    assert.are.equal("ZeroDivisionError: 0 cannot be raised to a negative power", H.message_of(binop("**"), 0, -1))
    assert.are.equal("ZeroDivisionError: 0.0 cannot be raised to a negative power",
      H.message_of(binop("**"), 0.0, -1.0))
    same(8, binop("**")(2, 3))
  end)

  it("inside a loop, the error stops the call and the next call works", function()
    local f = fn([[
def f(n, d):
    s = 0
    for i in range(n):
        s += i // d
    return s
]])
    assert.are.equal("ZeroDivisionError: integer division or modulo by zero", H.message_of(f, 10, 0))
    same(20, f(10, 2))   -- 0+0+1+1+2+2+3+3+4+4
  end)
end)

describe('error_model="numpy"', function()
  local np = {}
  local function nbin(op)
    np[op] = np[op] or njit { error_model = "numpy" } ("def f(a, b):\n    return a " .. op .. " b\n")
    return np[op]
  end

  it("float division by zero gives inf and nan", function()
    same(inf, nbin("/")(1.0, 0.0))
    same(-inf, nbin("/")(-1.0, 0.0))
    same(-inf, nbin("/")(1.0, -0.0))
    same(nan, nbin("/")(0.0, 0.0))
    same(inf, nbin("/")(1, 0))       -- int / int is float division
  end)

  it("float // and % by zero give NumPy's values", function()
    same(inf, nbin("//")(1.0, 0.0))    -- np.floor_divide(1.0, 0.0)
    same(-inf, nbin("//")(-1.0, 0.0))
    same(nan, nbin("%")(1.0, 0.0))     -- np.remainder(1.0, 0.0)
  end)

  it("integer // and % by zero give 0 (NumPy's and Numba's value)", function()
    same(0, nbin("//")(7, 0))
    same(0, nbin("%")(7, 0))
    same(-4, nbin("//")(-7, 2))
  end)

  it("rejects an unknown error model", function()
    local ok, err = pcall(njit { error_model = "c" }, "def f(a):\n    return a\n")
    assert.is_false(ok)
    assert.are.equal("error_model must be 'python' or 'numpy'", err:gsub("^[^:]*:%d+: ", ""))
  end)
end)

describe("float32", function()
  it("float32 arrays mixed with float32 stay float32", function()
    local f = njit [[
def f(a, b, out):
    for i in range(a.shape[0]):
        out[i] = a[i] * b[i] + a[i]
    return a[0] * b[0]
]]
    local a = lumba.array({ 0.1, 1.5 }, "float32")
    local b = lumba.array({ 3.0, 2.0 }, "float32")
    local out = lumba.zeros(2, "float32")
    local r = f(a, b, out)
    -- 0.1f * 3.0f rounded to float32 is 0.30000001192092896 (NumPy's value)
    same(0.30000001192092896, r)
    assert.matches("%(float32%[::1%], float32%[::1%], float32%[::1%]%) %-> float32", f.signatures[1])
  end)

  it("float32 with an int or a float64 goes to float64", function()
    local f = njit [[
def f(a):
    x = a[0] + 1
    y = a[0] + 0.1
    return x, y
]]
    f(lumba.array({ 0.5 }, "float32"))
    assert.matches("x: float64", f:inspect_types())
    assert.matches("y: float64", f:inspect_types())
  end)

  it("np.float32() casts round to single precision", function()
    local f = njit [[
import numpy as np
def f(x):
    return np.float32(x)
]]
    same(0.10000000149011612, f(0.1))   -- np.float32(0.1) as a double
  end)
end)

describe("builtins", function()
  it("int() truncates toward zero", function()
    local f = fn("def f(x):\n    return int(x)\n")
    same(3, f(3.9))     -- Python's values
    same(-3, f(-3.9))
    same(0, f(-0.5))
    same(1, f(true))
    same(7, f(7))
  end)

  it("float() and bool()", function()
    same(7.0, fn("def f(x):\n    return float(x)\n")(7))
    same(3.5, fn("def f(x):\n    return float(x) / 2\n")(7))
    same(false, fn("def f(x):\n    return bool(x)\n")(0.0))
    same(true, fn("def f(x):\n    return bool(x)\n")(-2))
  end)

  it("round() rounds half to even and returns an int", function()
    local f = fn("def f(x):\n    return round(x)\n")
    same(2, f(2.5))     -- Python's values
    same(0, f(-0.5))
    same(0, f(0.5))
    same(2, f(1.5))
    same(-2, f(-1.5))
    same(-2, f(-2.5))
    same(4, f(3.5))
    same(4, f(3.7))
    same(-4, f(-3.7))
    same(0, f(0.49999999999999994))
    same(5, f(5))
  end)

  it("round(x, ndigits)", function()
    local f = fn("def f(x, n):\n    return round(x, n)\n")
    same(1200.0, f(1234.5, -2))   -- Python's value
    same(2.0, f(2.5, 0))     -- Python: half to even
    same(0.12, f(0.125, 2))
    H.assert_close(3.14, f(3.14159, 2), 1e-15)
    -- an integer x: Numba converts it to float64 (Python keeps an int of the same value)
    same(1200.0, f(1234, -2))
    same(1200.0, f(1250, -2))   -- half to even
    same(1234.0, f(1234, 1))
  end)

  it("abs() of ints and floats", function()
    local f = fn("def f(x):\n    return abs(x)\n")
    same(3, f(-3))
    same(2.5, f(-2.5))
    same(0.0, f(-0.0))
    same(MININT, f(MININT))   -- wraps, as Numba
  end)

  it("min() and max() of several arguments", function()
    local mn3 = fn("def f(a, b, c):\n    return min(a, b, c)\n")
    local mx3 = fn("def f(a, b, c):\n    return max(a, b, c)\n")
    same(1, mn3(3, 1, 2))
    same(-7, mn3(-7, 1, 2))
    same(3.0, mx3(3, 1.5, 2))    -- an int and a float: the result is float64
    same(1.0, mn3(3, 1, 2.0))
    same(-1.5, fn("def f(a, b):\n    return min(a, b)\n")(-1, -1.5))
    same(9, fn("def f(a, b, c, d, e):\n    return max(a, b, c, d, e)\n")(4, 9, -2, 8, 0))
  end)

  it("min() and max() of a tuple", function()
    same(-2, fn("def f(a, b):\n    return min((a, b, 4))\n")(3, -2))
    same(4, fn("def f(a, b):\n    return max((a, b, 4))\n")(3, -2))
  end)
end)

describe("math and numpy functions", function()
  local function m1(call) return fn("import math\nimport numpy as np\ndef f(x):\n    return " .. call .. "\n") end
  local function m2(call) return fn("import math\nimport numpy as np\ndef f(x, y):\n    return " .. call .. "\n") end

  it("exp, log, sqrt and friends match Python's math (to the last bits)", function()
    local cases = {   -- Python's values
      { "math.exp(x)", 1.5, 4.4816890703380645 },
      { "math.log(x)", 10.0, 2.302585092994046 },
      { "math.sqrt(x)", 2.0, 1.4142135623730951 },
      { "math.erf(x)", 0.5, 0.5204998778130465 },
      { "math.erfc(x)", 0.5, 0.4795001221869535 },
      { "math.gamma(x)", 4.5, 11.631728396567446 },
      { "math.lgamma(x)", 4.5, 2.453736570842443 },
      { "math.sin(x)", 1.0, 0.8414709848078965 },
      { "math.cos(x)", 1.0, 0.5403023058681398 },
      { "math.tan(x)", 1.0, 1.5574077246549023 },
      { "math.asin(x)", 0.5, 0.5235987755982989 },
      { "math.acos(x)", 0.5, 1.0471975511965979 },
      { "math.atan(x)", 1.0, 0.7853981633974483 },
      { "math.sinh(x)", 1.0, 1.1752011936438014 },
      { "math.cosh(x)", 1.0, 1.5430806348152437 },
      { "math.tanh(x)", 0.5, 0.46211715726000974 },
      { "math.asinh(x)", 1.0, 0.881373587019543 },
      { "math.acosh(x)", 2.0, 1.3169578969248166 },
      { "math.atanh(x)", 0.5, 0.5493061443340548 },
      { "math.log10(x)", 1000.0, 3.0 },
      { "math.log2(x)", 8.0, 3.0 },
      { "math.expm1(x)", 1e-10, 1.00000000005e-10 },
      { "math.log1p(x)", 1e-10, 9.999999999500001e-11 },
      { "math.degrees(x)", 1.0, 57.29577951308232 },
      { "math.radians(x)", 180.0, 3.141592653589793 },
      { "math.fabs(x)", -3, 3.0 },
      { "np.exp(x)", 1.5, 4.4816890703380645 },
      { "np.sqrt(x)", 2, 1.4142135623730951 },
      { "np.arctan(x)", 1.0, 0.7853981633974483 },
    }
    for _, c in ipairs(cases) do
      local got = m1(c[1])(c[2])
      assert.are.equal("float", math.type(got), c[1])
      H.assert_close(c[3], got, 4e-16)
    end
  end)

  it("two-argument functions", function()
    same(5.0, m2("math.hypot(x, y)")(3, 4))
    H.assert_close(2.356194490192345, m2("math.atan2(x, y)")(1, -1), 4e-16)   -- Python's value
    H.assert_close(2.356194490192345, m2("np.arctan2(x, y)")(1.0, -1.0), 4e-16)
    same(-3.0, m2("math.copysign(x, y)")(3, -0.0))
    same(-1.5, m2("math.fmod(x, y)")(-7.5, 2.0))
    same(1024.0, m2("math.pow(x, y)")(2.0, 10))
    same(3.0, m2("math.log(x, y)")(8, 2))
  end)

  it("math.floor/ceil/trunc return ints, numpy's return floats", function()
    same(-3, m1("math.floor(x)")(-2.5))     -- Python's values
    same(-2, m1("math.ceil(x)")(-2.5))
    same(2, m1("math.floor(x)")(2.5))
    same(-1, m1("math.floor(x)")(-0.5))
    same(0, m1("math.ceil(x)")(-0.5))
    same(-2, m1("math.trunc(x)")(-2.7))
    same(5, m1("math.floor(x)")(5))
    same(-3.0, m1("np.floor(x)")(-2.5))     -- NumPy's values
    same(-2.0, m1("np.ceil(x)")(-2.5))
    same(-0.0, m1("np.ceil(x)")(-0.5))
    same(-2.0, m1("np.trunc(x)")(-2.7))
  end)

  it("np.round keeps floats floating, half to even (NumPy's values)", function()
    same(2.0, m1("np.round(x)")(2.5))
    same(-0.0, m1("np.round(x)")(-0.5))
    same(4.0, m1("np.around(x)")(3.5))
    same(3, m1("np.round(x)")(3))
    same(1.25, m2("np.round(x, y)")(1.255, 2))   -- NumPy's value: 1.255 * 100 is 125.49999999999999
  end)

  it("np.power is ** (integers stay integers), np.minimum/np.maximum are min/max", function()
    same(8, m2("np.power(x, y)")(2, 3))
    same(0.125, m2("np.power(x, y)")(2, -3.0))
    same(2, m2("np.minimum(x, y)")(2, 3))
    same(3.5, m2("np.maximum(x, y)")(2, 3.5))
  end)

  it("isnan, isinf, isfinite", function()
    same(true, m1("math.isnan(x)")(nan))
    same(false, m1("math.isnan(x)")(1.0))
    same(false, m1("math.isnan(x)")(3))
    same(true, m1("math.isinf(x)")(-inf))
    same(false, m1("math.isinf(x)")(1e308))
    same(true, m1("math.isfinite(x)")(1.0))
    same(false, m1("math.isfinite(x)")(nan))
    same(true, m1("np.isnan(x)")(nan))
  end)

  it("constants pi, e, inf, nan", function()
    same(3.141592653589793, fn("import math\ndef f():\n    return math.pi\n")())
    same(2.718281828459045, fn("import math\ndef f():\n    return math.e\n")())
    same(inf, fn("import math\ndef f():\n    return math.inf\n")())
    same(-inf, fn("import numpy as np\ndef f():\n    return -np.inf\n")())
    same(nan, fn("import math\ndef f():\n    return math.nan\n")())
    same(3.141592653589793, fn("import numpy as np\ndef f():\n    return np.pi\n")())
    same(6.283185307179586, fn("from math import pi\ndef f():\n    return 2 * pi\n")())
  end)

  it("from math import sqrt", function()
    same(3.0, fn("from math import sqrt\ndef f(x):\n    return sqrt(x)\n")(9))
  end)

  it("sqrt of a negative number is nan (Numba's value; Python raises)", function()
    same(nan, m1("math.sqrt(x)")(-1.0))
  end)

  it("float32 arguments keep math in float32", function()
    local f = njit [[
import math
def f(a):
    return math.sqrt(a[0])
]]
    same(1.4142135381698608, f(lumba.array({ 2.0 }, "float32")))  -- np.sqrt(np.float32(2))
  end)
end)
