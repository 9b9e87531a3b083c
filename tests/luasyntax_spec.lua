-- Functions written in Lua itself: lumba.njit(function ... end). The
-- expected values come from plain Lua: the operators evaluated here, or the
-- very same function run by the interpreter (the perfect oracle).
local lumba = require "lumba"
local H = require "helpers"
local njit = lumba.njit

-- value and Lua subtype ("integer"/"float") of each result, for exact comparisons
local function typed(...)
  local t = table.pack(...)
  local out = {}
  for i = 1, t.n do
    local v = t[i]
    local s
    if v ~= v then s = "nan" else s = tostring(v) end
    out[i] = s .. ":" .. (math.type(v) or type(v))
  end
  return table.concat(out, " ")
end

-- f compiled and f run by plain Lua give the same values of the same subtypes
local function same(f, ...)
  local d = njit(f)
  assert.are.equal(typed(f(...)), typed(d(...)))
  return d
end

describe("njit(function)", function()
  it("compiles a Lua function and calls it like the original", function()
    local add = njit(function(a, b) return a + b end)
    assert.are.equal(3, add(1, 2))
    assert.are.equal(3.5, add(1.5, 2))
    assert.are.same({ "(float64, int64) -> float64", "(int64, int64) -> int64" }, add.signatures)
  end)

  it("names the dispatcher after the variable or the declaration", function()
    local energy = njit(function(a) return a end)
    assert.are.equal("energy", energy.name)
    local function decl(x) return x end
    assert.are.equal("decl", njit(decl).name)
    assert.are.equal("lua", energy.options.semantics)
  end)

  it("takes options, signatures and jit's forms", function()
    local f = njit { boundscheck = true } (function(a) return a[1] end)
    assert.is_true(f.options.boundscheck)
    local g = njit("float64(float64)", function(x) return x * 2 end)
    assert.are.same({ "(float64) -> float64" }, g.signatures)
    assert.are.equal(5.0, g(2.5))
    local j = lumba.jit(function(x) return x + 1 end)
    assert.are.equal(3, j(2))
  end)

  it("runs the original function for interpret()", function()
    local calls = 0
    local function count() calls = calls + 1 end
    local f = njit(function(x) return x end)
    assert.are.equal(7, f:interpret(7))
    -- jit falls back to the Lua function itself when typing fails
    local warnings = {}
    local saved = lumba.warnings
    lumba.warnings = function(msg) warnings[#warnings + 1] = msg end
    local j = lumba.jit(function(a) return type(a) end)
    local ok, dt = pcall(j, lumba.zeros(2))
    lumba.warnings = saved
    assert.is_true(ok)
    assert.are.equal("userdata", dt)
    assert.are.equal(1, #warnings)
    count()
    assert.are.equal(1, calls)
  end)

  it("uses p = p or <number> at the top as a default value", function()
    local f = njit(function(a, scale)
      scale = scale or 2.0
      return a * scale
    end)
    assert.are.equal(6.0, f(3))
    assert.are.equal(30, f(3, 10))
  end)
end)

describe("arithmetic with Lua 5.4 semantics", function()
  local ops = njit(function(a, b) return a + b, a - b, a * b, a / b, a // b, a % b, a ^ b end)
  local pairs_ = {
    { 7, 2 }, { -7, 2 }, { 7, -2 }, { -7, -2 }, { 0, 3 }, { 6, 3 }, { -6, 3 },
    { 7.5, 2 }, { -7.5, 2 }, { 7.5, -2 }, { -7.5, -2.0 }, { 1, 0.1 }, { -4.0, 2 }, { 4.0, -2 },
    { 5.0, 0.0 }, { -5.0, 0 }, { 0.0, 0.0 }, { 5, 0.0 }, { 1e308, 1e-308 }, { 3, math.huge }, { -3, math.huge },
    { math.maxinteger, 1 }, { math.mininteger, -1 }, { math.mininteger, 2 }, { 2, 63 }, { 2, 64 }, { 0, -1 },
  }
  it("+ - * / // % ^ give what the interpreter gives, subtypes included", function()
    for _, p in ipairs(pairs_) do
      local a, b = p[1], p[2]
      local expected = typed(a + b, a - b, a * b, a / b, a // b, a % b, a ^ b)
      assert.are.equal(expected, typed(ops(a, b)), ("%s op %s"):format(a, b))
    end
  end)

  it("raises for integer // and % by zero, as Lua does (with Python's message)", function()
    local line = debug.getinfo(1, "l").currentline
    local idiv = njit(function(a, b) return a // b end)
    local imod = njit(function(a, b) return a % b end)
    -- the position of the statement first, as Lua's own errors
    assert.are.equal(("tests/luasyntax_spec.lua:%d: ZeroDivisionError: integer division or modulo by zero"):format(line + 1),
                     H.error_of(idiv, 7, 0))
    assert.are.equal(("tests/luasyntax_spec.lua:%d: ZeroDivisionError: integer division or modulo by zero"):format(line + 2),
                     H.error_of(imod, -7, 0))
    assert.is_false(pcall(function() return 7 // (function() return 0 end)() end))
    assert.are.equal(3, idiv(7, 2))
  end)

  it("keeps integers as int64 with wraparound and unary minus", function()
    same(function(a, b) return a * b, -a, a + b end, math.maxinteger, 2)
    same(function(a) return -a, - -a end, math.mininteger)
  end)

  it("& | ~ << >> and unary ~ on integers, shifts logical and both ways", function()
    local f = njit(function(a, b) return a & b, a | b, a ~ b, a << b, a >> b, ~a end)
    for _, p in ipairs { { 1, 3 }, { -1, 1 }, { -1, 63 }, { -1, 64 }, { 1, -1 }, { 8, -2 }, { 5, math.mininteger },
                         { -1, 100 }, { 0x7f, -100 }, { math.mininteger, 1 }, { 12345, 0 } } do
      local a, b = p[1], p[2]
      assert.are.equal(typed(a & b, a | b, a ~ b, a << b, a >> b, ~a), typed(f(a, b)), ("%d, %d"):format(a, b))
    end
  end)

  it("refuses bitwise operators on floats and arithmetic on booleans at compile time", function()
    local f = njit(function(a, b) return a << b end)
    assert.are.equal(3, select("#", pcall(f, 1, 2)) + 1)
    local msg = H.error_of(f, 1.0, 2)
    assert.truthy(msg:find("TypingError: cannot shift float64 and int64 (bitwise operators need integers: " ..
      "convert with math.floor)", 1, true), msg)
    local g = njit(function(a, b) return a + b end)
    msg = H.error_of(g, true, 1)
    assert.truthy(msg:find("TypingError: cannot add bool and int64 (Lua has no arithmetic on booleans)", 1, true), msg)
    assert.are.equal(3, g(1, 2))
  end)

  it("compares numbers, integers with floats", function()
    local f = njit(function(a, b) return a < b, a <= b, a > b, a >= b, a == b, a ~= b end)
    for _, p in ipairs { { 1, 2 }, { 2, 2.0 }, { 3.5, 3 }, { -1, -1 }, { 0.0, -0.0 }, { 0 / 0, 0 / 0 } } do
      local a, b = p[1], p[2]
      assert.are.equal(typed(a < b, a <= b, a > b, a >= b, a == b, a ~= b), typed(f(a, b)))
    end
  end)

  it("math.* as Lua's math library", function()
    local f = njit(function(x, y)
      return math.floor(x), math.ceil(x), math.abs(x), math.max(x, y), math.min(x, y), math.sqrt(y),
        math.exp(0), math.log(8, 2), math.log(100, 10), math.atan(1, 1), math.pi, math.huge,
        math.maxinteger, math.mininteger, math.ult(1, -1), math.deg(math.pi), math.tan(0.5)
    end)
    local fl = njit(function(x) return math.floor(x) end)
    assert.truthy(H.error_of(fl, 0 / 0):find("^tests/luasyntax_spec.lua:%d+: ValueError: number has no integer representation$"))
    assert.truthy(H.error_of(fl, 2.0 ^ 63):find("^tests/luasyntax_spec.lua:%d+: ValueError: number has no integer representation$"))
    assert.are.equal(typed(math.mininteger, -3, 0), typed(fl(-2.0 ^ 63), fl(-2.5), fl(-0.0)))
    for _, p in ipairs { { -2.5, 4.0 }, { 7, 9 }, { 3.25, -1.0 } } do
      assert.are.equal(typed(f:interpret(p[1], p[2])), typed(f(p[1], p[2])))
    end
  end)
end)

describe("booleans and conditions", function()
  it("and/or return an operand; A and B or C is the conditional idiom", function()
    same(function(x, y) return x > y and x or y, x and y, x or y, x > 1 and y > 1, not (x > y) end, 3, 4)
    same(function(x, y) return x > y and x or y, x < y and true or false end, 5, 2)
    same(function(a, b) return (a > 0) == (b > 0), a > 0 ~= (b > 0) end, 1, -1)
  end)

  it("refuses a number as a condition: every number is true in Lua", function()
    local f = njit(function(n) while n do return 1 end return 2 end)
    local msg = H.error_of(f, 0)
    assert.truthy(msg:find("TypingError: int64 used as a condition: every number is true in Lua " ..
      "(compare it, e.g. x ~= 0)", 1, true), msg)
  end)

  it("refuses mixing a boolean with a number in 'and', 'or' and ==", function()
    local f = njit(function(x) return x > 0 and x end)
    local msg = H.error_of(f, 1)
    assert.truthy(msg:find("TypingError: 'and' of bool and int64 has no single type " ..
      "(in Lua it gives either a boolean or the number)", 1, true), msg)
    local g = njit(function(x) return (x > 0) == 1 end)
    msg = H.error_of(g, 1)
    assert.truthy(msg:find("TypingError: cannot compare bool and int64 (in Lua a boolean never equals a number)",
      1, true), msg)
  end)
end)

describe("numeric for", function()
  local loop = function(a, b, c)
    local n, s, last = 0, 0, 0
    for i = a, b, c do
      n = n + 1
      s = s + i
      last = i
    end
    return n, s, last
  end
  local d = njit(loop)
  local cases = {
    { 1, 10, 1 }, { 10, 1, 1 }, { 10, 1, -1 }, { 1, 10, 3 }, { 10, -10, -7 }, { 5, 5, 1 }, { 5, 5, -1 },
    { 1, 2.5, 1 }, { 1, -2.5, -1 }, { 3, 2.99, 1 }, { 1.0, 2, 0.5 }, { 0, 1, 0.1 }, { 1, 0, 0.25 },
    { 2, 1, -0.5 }, { 1, 0 / 0, 1 }, { 1, 0 / 0, -1.5 }, { 0 / 0, 5, 1 }, { 1.0, 0 / 0, 2 },
    { math.maxinteger - 2, math.maxinteger, 1 }, { math.mininteger + 2, math.mininteger, -1 },
    { math.mininteger, math.maxinteger, math.maxinteger }, { 1, 1e300, 1e299 }, { 3, -1e300, -1e299 },
    { 0, 2 ^ 63, 2 ^ 62 }, { -5, -2 ^ 63, -2 ^ 62 },
  }
  it("runs as the interpreter runs it: zero-trip, negative and float steps, float limits, extremes", function()
    for _, c in ipairs(cases) do
      local what = ("for i = %s, %s, %s"):format(c[1], c[2], c[3])
      local n, s, last = loop(c[1], c[2], c[3])
      if n > 0 then
        assert.are.equal(typed(n, s, last), typed(d(c[1], c[2], c[3])), what)
      else
        -- a zero-trip float loop leaves s and last integers in plain Lua; compiled,
        -- a variable has one type, and s = s + i makes s a float everywhere
        local cn, cs, clast = d(c[1], c[2], c[3])
        assert.are.same({ n, s, last }, { cn, cs, clast }, what)
      end
    end
  end)

  it("raises Lua's error for a zero step, naming the line", function()
    local line = debug.getinfo(loop, "S").linedefined + 2
    assert.are.equal(("%s:%d: 'for' step is zero"):format(debug.getinfo(loop, "S").short_src, line),
      H.error_of(d, 1, 5, 0))
    assert.are.equal(H.error_of(d, 1, 5, 0), H.error_of(d, 1.0, 5, 0.0))
    assert.are.equal(2, d(1, 2, 1))
  end)

  it("keeps the loop variable local to each loop, assignments to it do not steer it", function()
    same(function(n)
      local s = 0
      for i = 1, n do
        i = i * 10
        s = s + i
      end
      local i = 7
      return s, i
    end, 4)
  end)

  it("nests, breaks and continues with goto continue", function()
    same(function(n)
      local s = 0
      for i = 1, n do
        if i % 2 == 0 then goto continue end
        for j = i, 1, -1 do
          if j < i - 3 then break end
          s = s + j
        end
        ::continue::
      end
      return s
    end, 20)
  end)
end)

describe("while and repeat", function()
  it("repeat ... until sees the body's locals; continue evaluates the condition", function()
    same(function(n)
      local i, s = 0, 0
      repeat
        i = i + 1
        local sq = i * i
        if i % 3 == 0 then goto continue end
        s = s + sq
        ::continue::
      until sq > n
      return i, s
    end, 50)
  end)

  it("while with break and goto continue", function()
    same(function(n)
      local k, s = 0, 0
      while true do
        k = k + 1
        if k > n then break end
        if k % 4 == 0 then goto skip end
        s = s + k
        ::skip::
      end
      return k, s
    end, 30)
  end)
end)

describe("locals, assignment and returns", function()
  it("gives each local declaration its own variable (shadowing)", function()
    same(function(x)
      local y = 1
      do
        local y = 2.5
        x = x + y
      end
      local y = y + 1
      return x, y
    end, 10)
  end)

  it("assigns several values at once: swaps, calls with several results", function()
    local divmod = njit(function(a, b) return a // b, a % b end)
    local f = njit(function(a, b)
      a, b = b, a
      local q, r = divmod(a, b)
      local x, y, z = 1, divmod(b, 3)
      return a, b, q, r, x, y, z
    end)
    assert.are.equal(typed(20, 7, 2, 6, 1, 2, 1), typed(f(7, 20)))
  end)

  it("renames locals that are Python builtins", function()
    same(function(a)
      local max, len, range, math_ = a, 2, 3, 4
      return max + len + range + math_ + math.max(a, 1)
    end, 5)
  end)

  it("returns nothing, one value or several", function()
    local none = njit(function(a) a[1] = 5 end)
    local arr = lumba.zeros(3)
    assert.are.equal(0, select("#", none(arr)))
    assert.are.equal(5.0, arr[1])
    same(function(a) return a, a * 2, a * 3.0 end, 2)
  end)
end)

describe("arrays", function()
  it("indexes from 1, a[i][j] is element (i, j), -1 is the last", function()
    local f = njit(function(a)
      local n, m = a.shape[1], a.shape[2]
      return a[1][1], a[n][m], a[-1][-1], a[2][-2], #a, #a.shape, a.size, n, m
    end)
    local a = lumba.arange(12, "float64"):reshape { 3, 4 }
    assert.are.equal(typed(f:interpret(a)), typed(f(a)))
    assert.are.equal(typed(0.0, 11.0, 11.0, 6.0, 3, 2, 12, 3, 4), typed(f(a)))
  end)

  it("a[i] of a 2-D array is its row", function()
    local f = njit(function(a, i)
      local row = a[i]
      local s = 0.0
      for j = 1, #row do s = s + row[j] end
      return s
    end)
    local a = lumba.arange(12, "float64"):reshape { 3, 4 }
    assert.are.equal(4.0 + 5 + 6 + 7, f(a, 2))
  end)

  it("stores through a[i] and a[i][j]", function()
    local f = njit(function(a, v)
      for i = 1, #a do
        for j = 1, a.shape[2] do a[i][j] = i * 10 + j end
      end
      a[-1][1] = v
    end)
    local a, b = lumba.zeros { 2, 3 }, lumba.zeros { 2, 3 }
    f(a, 99)
    f:interpret(b, 99)
    assert.are.same(b:totable(), a:totable())
    assert.are.same({ { 11, 12, 13 }, { 99, 22, 23 } }, a:totable())
  end)

  it("reports out-of-bounds indices with Lua's numbering when boundscheck is on", function()
    local f = njit { boundscheck = true } (function(a, i) return a[i] end)
    local a = lumba.zeros(3)
    local at = ("tests/luasyntax_spec.lua:%d: "):format(debug.getinfo(1, "l").currentline - 2)
    assert.are.equal(at .. "IndexError: index 0 out of bounds for axis 1 with size 3", H.error_of(f, a, 0))
    assert.are.equal(at .. "IndexError: index 4 out of bounds for axis 1 with size 3", H.error_of(f, a, 4))
    assert.are.equal(at .. "IndexError: index -4 out of bounds for axis 1 with size 3", H.error_of(f, a, -4))
    -- the Lua side says the same
    assert.truthy(H.error_of(function() return a[0] end):find("index 0 out of bounds for axis 1 with size 3", 1, true))
    assert.are.equal(0.0, f(a, -3))
  end)

  it("allocates with lumba.zeros/empty/ones/full/arange inside compiled code", function()
    local f = njit(function(n, m)
      local a = lumba.zeros({ n, m }, "float64")
      local b = lumba.ones(n, "int32")
      local c = lumba.full({ n }, 2.5)
      local r = lumba.arange(1, n + 1, 1, "float64")
      for i = 1, n do
        for j = 1, m do a[i][j] = b[i] * c[i] * r[i] end
      end
      return a, lumba.empty(m).size
    end)
    local a, sz = f(2, 3)
    assert.are.same({ { 2.5, 2.5, 2.5 }, { 5.0, 5.0, 5.0 } }, a:totable())
    assert.are.equal(3, sz)
    local b = f:interpret(2, 3)
    assert.are.same(b:totable(), a:totable())
  end)

  it("calls array methods with ':'", function()
    same(function(a) return a:sum(), a:max(), a:min() end, lumba.arange(10, "float64"))
  end)
end)

describe("calls and upvalues", function()
  it("calls compiled functions held in upvalues, with several results", function()
    local sq = njit(function(x) return x * x, x end)
    local f = njit(function(x)
      local a, b = sq(x)
      return a + b
    end)
    assert.are.equal(12, f(3))
    assert.are.equal(8.75, f(2.5))
  end)

  it("calls itself by its own name", function()
    local function fib(n)
      if n < 2 then return n end
      return fib(n - 1) + fib(n - 2)
    end
    local d = njit(fib)
    assert.are.equal(fib(20), d(20))
  end)

  it("freezes numbers from upvalues and globals when a signature compiles", function()
    local K = 10
    lumba_test_global = 0.5
    local f = njit(function(a) return a * K + lumba_test_global end)
    assert.are.equal(20.5, f(2))
    K = 20
    assert.are.equal(30.5, f(3))       -- int64 already compiled with K = 10
    assert.are.equal(50.5, f(2.5))     -- float64 compiles now, with K = 20
    lumba_test_global = nil
  end)

  it("refuses upvalues that are not numbers or lumba functions", function()
    local t = { 1, 2 }
    local f = njit(function(a) return t[1] + a end)
    local msg = H.error_of(f, 1)
    assert.truthy(msg:find("TypingError: 't' refers to a Lua table, which compiled code cannot use " ..
      "(numbers and lumba functions can be used)", 1, true), msg)
  end)
end)

describe("prange", function()
  it("runs a parallel loop over a..b inclusive, with a reduction", function()
    local f = njit { parallel = true } (function(x)
      local s = 0.0
      for i in lumba.prange(1, #x) do s = s + x[i] end
      return s
    end)
    local x = lumba.random.rand(10001)
    local expected = 0.0
    for i = 1, #x do expected = expected + x[i] end
    H.assert_close(expected, f(x), 1e-12)
    H.assert_close(expected, f:interpret(x), 1e-12)
  end)

  it("counts down with a negative constant step", function()
    local f = njit { parallel = true } (function(x)
      local s = 0
      for i in lumba.prange(#x, 1, -2) do s = s + i end
      return s
    end)
    local x = lumba.zeros(10)
    assert.are.equal(10 + 8 + 6 + 4 + 2, f(x))
    assert.are.equal(10 + 8 + 6 + 4 + 2, f:interpret(x))
  end)

  it("is an iterator in plain Lua", function()
    local got = {}
    for i in lumba.prange(3, 7, 2) do got[#got + 1] = i end
    assert.are.same({ 3, 5, 7 }, got)
  end)
end)

describe("compiled results against the interpreter on generated inputs", function()
  it("an integer hash mixing every operator", function()
    local function mix(n, seed)
      local h = seed
      for i = 1, n do
        h = (h ~ (i << 13)) * 6364136223846793005 + 1442695040888963407
        h = h ~ (h >> 29)
        if h % 7 == 3 then h = h // 3 - i elseif h < 0 then h = -h % 1000003 end
      end
      return h
    end
    local d = njit(mix)
    math.randomseed(11)
    for _ = 1, 50 do
      local n, seed = math.random(0, 300), math.random(math.mininteger, math.maxinteger)
      assert.are.equal(mix(n, seed), d(n, seed))
    end
  end)

  it("a float kernel with while, repeat, // and % on floats", function()
    local function k(x, y, n)
      local acc, t = 0.0, x
      local i = 0
      while i < n do
        i = i + 1
        t = (t * 1.5 + y) % 7.25 - 3.0
        acc = acc + t // 0.75 + (t ^ 2) / (1 + i)
      end
      repeat
        acc = acc / 2
      until acc < 1 and acc > -1
      return acc, t
    end
    local d = njit(k)
    math.randomseed(12)
    for _ = 1, 50 do
      local x, y, n = math.random() * 20 - 10, math.random() * 4 - 2, math.random(0, 40)
      assert.are.equal(typed(k(x, y, n)), typed(d(x, y, n)))
    end
  end)

  it("random arithmetic expressions on integers, floats, zeros and extremes", function()
    -- expressions of a and b with every arithmetic operator, unary minus,
    -- math.floor and the conditional idiom (both branches float, so that the
    -- idiom has one type in plain Lua as well)
    local function gen(depth, r)
      local k = r(depth <= 0 and 3 or 12)
      if k == 1 then return "a" elseif k == 2 then return "b" elseif k == 3 then
        return "(" .. ({ "1", "2", "3", "0.5", "-2", "7", "2.0", "0", "-1.5", "1e10" })[r(10)] .. ")"
      end
      local x, y = gen(depth - 1, r), gen(depth - 1, r)
      if k <= 9 then return "(" .. x .. " " .. ({ "+", "-", "*", "/", "//", "%", "^" })[k - 3] .. " " .. y .. ")" end
      if k == 10 then return "(-" .. x .. ")" end
      if k == 11 then return "math.floor(" .. (r(2) == 1 and "a" or "b") .. ")" end
      local cmp = ({ "<", "<=", "==", "~=", ">", ">=" })[r(6)]
      return ("((%s %s %s) and %s + 0.0 or %s + 0.0)"):format(x, cmp, y, gen(depth - 1, r), gen(depth - 1, r))
    end
    local function show(ok, v)
      if not ok then return "error" end
      if v ~= v then return "nan" end
      return ("%.17g:%s"):format(v, math.type(v))
    end
    math.randomseed(7)
    for _ = 1, 40 do
      local src = "return function(a, b) return " .. gen(3, math.random) .. " end"
      local f = load(src)()
      local d = njit(f)
      for _, p in ipairs { { 3, 4 }, { -7, 2 }, { 5, 0 }, { 2.5, -1.25 }, { -3.0, 0.0 }, { 7, 2.5 },
                           { math.maxinteger, -1 }, { 0.0, -0.0 } } do
        assert.are.equal(show(pcall(f, p[1], p[2])), show(pcall(d, p[1], p[2])),
          ("%s with a = %s, b = %s"):format(src, p[1], p[2]))
      end
    end
  end)

  it("the Ising energy on random lattices", function()
    local function energy(spins, J)
      J = J or 1.0
      local N = spins.shape[1]
      local e = 0.0
      for i = 1, N do
        for j = 1, N do
          local s = spins[i][j]
          e = e - J * s * (spins[i][j % N + 1] + spins[i % N + 1][j])
        end
      end
      return e
    end
    local d = njit(energy)
    lumba.random.seed(5)
    for _, n in ipairs { 1, 2, 3, 17, 40 } do
      local spins = lumba.random.choice({ -1, 1 }, { n, n }):astype("float64")
      assert.are.equal(energy(spins), d(spins))
      assert.are.equal(energy(spins, -0.5), d(spins, -0.5))
    end
  end)
end)

describe("the parser", function()
  it("reads comments, long brackets, numerals and escapes as Lua does", function()
    local f = njit(function(a) --[[ a long
      comment ]] local x = 0x10 + 1e1 + .5 + 3. + 0x1p4 + 0xA -- a short one
      local z = lumba.zeros(2, [==[
float64]==])
      local w = lumba.zeros(2, "float\x36\52")
      local v = lumba.zeros(2, 'float\z
           64')
      return x + a[1] + z[1] + w[1] + v[1], 10 // 3, 0xffffffffffffffff, 9223372036854775808
    end)
    assert.are.equal(typed(55.5, 3, -1, 9223372036854775808), typed(f(lumba.zeros(4))))
  end)

  it("compiles methods (self is the first parameter) and table-call syntax", function()
    local M = {}
    function M:scale(a, k) return self * a * k end
    local d = njit(M.scale)
    assert.are.equal("scale", d.name)
    assert.are.equal(24, d(2, 3, 4))
    local g = njit(function(n) return lumba.zeros { n, 2 } end)
    assert.are.same({ 3, 2 }, g(3).shape)
  end)

  it("renames upvalues that are Python builtins: max here is a lumba function", function()
    local max = njit(function(a, b) return a * 100 + b end)
    local f = njit(function(x, y) return max(x, y) + math.max(x, y) end)
    assert.are.equal(1 * 100 + 2 + 2, f(1, 2))
  end)

  it("computes the keys of indexed targets before assigning (i, a[i] = i + 1, 20)", function()
    local function f(a, i)
      i, a[i] = i + 1, 20
      a[i], a[1] = a[1], a[i]
      return i
    end
    local a, b = lumba.arange(6, "float64"), lumba.arange(6, "float64")
    assert.are.equal(f(b, 3), njit(f)(a, 3))
    assert.are.same(b:totable(), a:totable())
  end)

  it("refuses two functions it cannot tell apart on one line", function()
    local f, g = (function(x) return x end), (function(x) return -x end)
    local line = debug.getinfo(f, "S").linedefined
    assert.are.equal(("lumba: several functions with the same parameters are defined on %s:%d; put each " ..
      "on its own line"):format(debug.getinfo(f, "S").short_src, line), H.error_of(njit, f))
    assert.are.equal(-2, g(2))
  end)
end)

describe("errors", function()
  local E = dofile("tests/luasyntax_errors.lua")

  it("point at the Lua file, line and column, with the line and a caret", function()
    local f = njit(E.add_bool)
    assert.are.equal([[
tests/luasyntax_errors.lua:7:13: TypingError: cannot add float64 and bool (Lua has no arithmetic on booleans)
      local x = a[1] + b
                ^]], H.error_of(f, lumba.zeros(2), true))
    assert.are.equal(1.5, f(lumba.full(2, 1.0), 0.5))
    assert.are.equal([[
tests/luasyntax_errors.lua:12:6: TypingError: int64 used as a condition: every number is true in Lua (compare it, e.g. x ~= 0)
      if n then return 1 end
         ^]], H.error_of(njit(E.number_condition), 3))
    assert.are.equal([[
tests/luasyntax_errors.lua:44:10: TypingError: 'and' of bool and int64 has no single type (in Lua it gives either a boolean or the number)
      return x > 0 and x
             ^]], H.error_of(njit(E.mixed_and), 3))
  end)

  it("refuse what compiled code cannot do when njit is called", function()
    assert.are.equal([[
tests/luasyntax_errors.lua:17:12: UnsupportedError: string concatenation '..' is not supported in compiled code
      return a .. "!"
               ^]], H.error_of(njit, E.concat))
    assert.are.equal([[
tests/luasyntax_errors.lua:21:3: UnsupportedError: cannot assign to 'M', which is not a local of this function (compiled code cannot change upvalues or globals: return the value instead)
      M = a
      ^]], H.error_of(njit, E.set_upvalue))
    assert.are.equal([[
tests/luasyntax_errors.lua:25:9: UnsupportedError: nested functions are not supported in compiled code (compile each one with lumba.njit)
      local function g() return a end
            ^]], H.error_of(njit, E.nested))
    assert.are.equal([[
tests/luasyntax_errors.lua:32:21: UnsupportedError: goto is only supported as a continue: 'goto next_i' needs '::next_i::' at the end of the innermost loop's body
          if j > i then goto next_i end
                        ^]], H.error_of(njit, E.goto_out))
    assert.are.equal(3, njit(function(a) return a end)(3))
  end)

  it("at run time carry Lua's position for error() and 'for' steps", function()
    assert.are.equal("RuntimeError: tests/luasyntax_errors.lua:39: negative input", H.error_of(njit(E.raise), -1))
    assert.are.equal("tests/luasyntax_errors.lua:49: 'for' step is zero", H.error_of(njit(E.step), 3, 0))
    assert.are.equal(4, njit(E.step)(3, 2))
  end)

  it("say when the source is not available", function()
    assert.are.equal("lumba: cannot compile a C function (it has no Lua source)", H.error_of(njit, print))
    local stripped = load(string.dump(function(a) return a end, true))
    assert.are.equal("lumba: the source of this function is not available (stripped bytecode?): compile " ..
      "functions loaded from files or from source strings, not stripped bytecode", H.error_of(njit, stripped))
    local named = load("return function(a) return a end", "=custom")()
    assert.are.equal("lumba: the source of this function is not available (chunk named 'custom'): compile " ..
      "functions loaded from files or from source strings, not stripped bytecode", H.error_of(njit, named))
  end)

  it("work for functions loaded from strings", function()
    local f = load("return function(a)\n  return a + true\nend")()
    assert.are.equal([=[
[string "return function(a)..."]:2:10: TypingError: cannot add int64 and bool (Lua has no arithmetic on booleans)
      return a + true
             ^]=], H.error_of(njit(f), 1))
    local g = load("return function(a)\n  return a * 2\nend")()
    assert.are.equal(8, njit(g)(4))
  end)
end)

describe("CUDA kernels written in Lua", function()
  -- NVVM IR needs the GPU target even under LUMBA_CUDA_SIM=1
  local was
  setup(function() was = lumba.cuda.simulate(false) end)
  teardown(function() lumba.cuda.simulate(was) end)

  it("compile to NVVM IR with 1-based thread indices", function()
    local cuda = lumba.cuda
    local k = njit { target = "cuda" } (function(x, y, out)
      local i = cuda.grid(1)
      if i <= #x then out[i] = x[i] + y[i] end
    end)
    k:compile("void(float32[::1], float32[::1], float32[::1])")
    local ir = k:inspect_llvm()
    assert.truthy(ir:find("target triple = \"nvptx64-nvidia-cuda\"", 1, true))
    assert.truthy(ir:find("llvm.nvvm.read.ptx.sreg.tid.x", 1, true))
  end)

  it("compile shared and local arrays, atomics and every index register", function()
    local cuda = lumba.cuda
    local k = njit { target = "cuda" } (function(a, out)
      local i, j = cuda.grid(2)
      local sh = cuda.shared.array({ 16, 16 }, "float32")
      local l = cuda["local"].array(4, "float64")
      local tx, bx = cuda.threadIdx.x, cuda.blockIdx.y
      l[1] = cuda.gridsize(1) + cuda.blockDim.x + cuda.gridDim.x + cuda.laneid + cuda.warpsize
      sh[tx][1] = a[i][j] + bx + l[1]
      cuda.syncthreads()
      cuda.atomic.add(out, 1, sh[tx][1])
      cuda.atomic.max(out, { 2 }, sh[1][1])
    end)
    k:compile("void(float32[:, ::1], float32[::1])")
    assert.truthy(k:inspect_llvm():find("addrspace(3)", 1, true))
  end)

  local core = require "lumba.core"
  local ok_tk, tk = pcall(function() return core.cuda._toolkit and core.cuda._toolkit() end)
  local test_ptx = ok_tk and tk and tk.nvvm and it or function(name) pending("[needs libNVVM] " .. name) end
  test_ptx("compile to PTX through libNVVM, float % through fmod (exact)", function()
    local k = lumba.cuda.jit(function(x, y, out)
      local i = lumba.cuda.grid(1)
      if i <= #x then out[i] = x[i] % y[i] + x[i] // y[i] end
    end)
    k:compile("void(float64[::1], float64[::1], float64[::1])")
    local ptx = k:inspect_ptx(nil, { cc = { 9, 0 } })
    assert.truthy(ptx:find(".entry", 1, true))
    assert.truthy(ptx:find("cvt.rmi.f64.f64", 1, true))  -- floor(a / b)
  end)

  it("take cuda.grid(2) into two names only", function()
    local cuda = lumba.cuda
    local msg = H.error_of(njit, function(a)
      local i = cuda.grid(2)
      a[i] = 1
    end)
    assert.truthy(msg:find("UnsupportedError: cuda.grid(2) gives 2 values, assigned to 1 names", 1, true), msg)
  end)
end)

describe("CUDA kernels written in Lua, on the GPU #gpu", function()
  local cuda = lumba.cuda

  H.gpu_it("add vectors with the 1-based cuda.grid(1), a partial last block included", function()
    local k = cuda.jit(function(x, y, out)
      local i = cuda.grid(1)
      if i <= #x then out[i] = x[i] + y[i] end
    end)
    local n = 100003
    local x, y, out = lumba.arange(n):astype("float32"), lumba.full(n, 2, "float32"), lumba.zeros(n, "float32")
    k[{ (n + 127) // 128, 128 }](x, y, out)
    for i = 1, n do
      if out[i] ~= x[i] + y[i] then error(("out[%d] = %s, expected %s"):format(i, out[i], x[i] + y[i])) end
    end
  end)

  H.gpu_it("thread and block indices start at 1, dimensions are counts", function()
    local k = cuda.jit(function(t, b, g, dims)
      local i = cuda.grid(1)
      if i <= #t then
        t[i] = cuda.threadIdx.x
        b[i] = cuda.blockIdx.x
        g[i] = (cuda.blockIdx.x - 1) * cuda.blockDim.x + cuda.threadIdx.x
        dims[i] = cuda.blockDim.x * 1000000 + cuda.gridDim.x * 1000 + cuda.gridsize(1) // 1024
      end
    end)
    local n = 1000
    local t, b, g, dims = lumba.zeros(n, "int64"), lumba.zeros(n, "int64"), lumba.zeros(n, "int64"),
      lumba.zeros(n, "int64")
    k[{ 8, 128 }](t, b, g, dims)
    for i = 1, n do
      assert.are.same({ (i - 1) % 128 + 1, (i - 1) // 128 + 1, i, 128008001 }, { t[i], b[i], g[i], dims[i] })
    end
  end)

  H.gpu_it("cuda.grid(2) gives (i, j) for a[i][j]", function()
    local k = cuda.jit(function(a)
      local i, j = cuda.grid(2)
      if i <= #a and j <= a.shape[2] then a[i][j] = i * 1000 + j end
    end)
    local a = lumba.zeros({ 70, 90 }, "int64")
    k[{ { 5, 6 }, { 16, 16 } }](a)
    for i = 1, 70 do
      for j = 1, 90 do assert.are.equal(i * 1000 + j, a[i][j]) end
    end
  end)

  H.gpu_it("shared memory, syncthreads and atomics with 1-based indices", function()
    local k = cuda.jit(function(a, out)
      local s = cuda.shared.array(128, "float64")
      local t, i = cuda.threadIdx.x, cuda.grid(1)
      s[t] = i <= #a and a[i] or 0.0
      cuda.syncthreads()
      local step = 64
      while step > 0 do
        if t <= step then s[t] = s[t] + s[t + step] end
        cuda.syncthreads()
        step = step // 2
      end
      if t == 1 then cuda.atomic.add(out, 1, s[1]) end
    end)
    local n = 100000
    local a, out = lumba.random.rand(n), lumba.zeros(1)
    k[{ (n + 127) // 128, 128 }](a, out)
    local sum = 0.0
    for i = 1, n do sum = sum + a[i] end
    H.assert_close(sum, out[1], 1e-9)
  end)

  H.gpu_it("Lua's arithmetic, shifts and for loops in device functions match the interpreter", function()
    local function felem(a, b, k)
      if k == 1 then return a // b
      elseif k == 2 then return a % b
      elseif k == 3 then return a / b
      elseif k == 4 then return math.abs(a) ^ 0.5
      end
      local s = 0.0
      for t = a, b, 0.25 do s = s + t end
      return s
    end
    local function ielem(p, q, k)
      if k == 1 then return p // q
      elseif k == 2 then return p % q
      elseif k == 3 then return p << (q % 140 - 70)
      elseif k == 4 then return p >> (q % 140 - 70)
      elseif k == 5 then return p * q + (p ~ q) - (p & q | 3)
      end
      local c = 0
      for t = p % 100, q % 100, -3 do c = c + t end
      return c
    end
    local fd, id = cuda.jit { device = true } (felem), cuda.jit { device = true } (ielem)
    local k = cuda.jit(function(a, b, p, q, fout, iout)
      local i = cuda.grid(1)
      if i <= #a then
        for j = 1, 5 do
          fout[i][j] = fd(a[i], b[i], j)
          iout[i][j] = id(p[i], q[i], j)
        end
        iout[i][6] = id(p[i], q[i], 6)
      end
    end)
    local n = 2000
    lumba.random.seed(3)
    local a, b = lumba.random.rand(n), lumba.random.rand(n)
    local p, q = lumba.zeros(n, "int64"), lumba.zeros(n, "int64")
    math.randomseed(3)
    for i = 1, n do
      a[i], b[i] = a[i] * 40 - 20, (b[i] - 0.5) * 6
      if i % 7 == 0 then b[i] = 0.0 end
      p[i] = math.random(math.mininteger, math.maxinteger)
      q[i] = math.random(1, 1000) * (i % 2 == 0 and -1 or 1)
    end
    local fout, iout = lumba.zeros({ n, 5 }), lumba.zeros({ n, 6 }, "int64")
    k[{ (n + 63) // 64, 64 }](a, b, p, q, fout, iout)
    local function same_float(x, y) return x == y or (x ~= x and y ~= y) end
    for i = 1, n do
      for j = 1, 5 do
        local e = felem(a[i], b[i], j)
        if j == 4 then H.assert_close(e, fout[i][j], 1e-15)
        elseif not same_float(e, fout[i][j]) then
          error(("felem(%.17g, %.17g, %d): GPU %.17g, Lua %.17g"):format(a[i], b[i], j, fout[i][j], e))
        end
      end
      for j = 1, 6 do
        assert.are.equal(ielem(p[i], q[i], j), iout[i][j], ("ielem(%d, %d, %d)"):format(p[i], q[i], j))
      end
    end
  end)
end)
