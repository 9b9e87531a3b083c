-- float ** integer (issue 23): lowered as Numba lowers it, square-and-multiply
-- for literal and run-time exponents, 1.0 / r for negative ones, pow past
-- |e| > 2^16. The oracle is Numba itself (/usr/bin/python3): every result must
-- be bit for bit Numba's, dtype included, and the errors Numba's.
local lumba = require "lumba"
local oracle = require "numpy_oracle"
local H = require "helpers"

local function numba_available()
  local out = oracle.run_python("import numba\nprint('yes')")
  return out:match("yes") ~= nil
end

local nan, inf = 0 / 0, math.huge
local bases = { 1.1, -1.3, 0.0, -0.0, 2.0, 0.5, 3.0, 1e-200, 1e200, 1.0000001, 0.999, inf, -inf, nan, -7.25 }
local literal = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 13, 31, 64, 1000, 65536, 65537, 100000, -1, -2, -3, -6, -13, -65536, -70000 }
local runtime = { 0, 1, 2, 3, 6, 7, 13, 64, 1000, 65536, 65537, 1 << 40, -1, -2, -3, -6, -65536, -65537 }

local function pyrepr(x)
  if x ~= x then return "float('nan')" end
  if x == inf then return "float('inf')" end
  if x == -inf then return "float('-inf')" end
  local s = string.format("%.17g", x)
  return s:find("[.e]") and s or s .. ".0"  -- a float in Python too ("-0" would be the int 0)
end

-- {name, src, args...}: each case is compiled by lumba and by numba.njit
local cases = {}
local function case(src, fname, ...)
  cases[#cases + 1] = { src = src, fname = fname, args = table.pack(...) }
end
for k, e in ipairs(literal) do
  local name = "lit" .. k
  local src = ("def %s(x):\n    return x ** %d\n"):format(name, e)
  local src32 = ("import numpy as np\ndef %s_f32(x):\n    return np.float32(x) ** %d\n"):format(name, e)
  for _, b in ipairs(bases) do
    case(src, name, b)
    case(src32, name .. "_f32", b)
  end
end
local var = "def var(x, n):\n    return x ** n\n"
local var32 = "import numpy as np\ndef var_f32(x, n):\n    return np.float32(x) ** n\n"
local vari32 = "import numpy as np\ndef var_i32(x, n):\n    return x ** np.int32(n)\n"
local varu64 = "import numpy as np\ndef var_u64(x, n):\n    return x ** np.uint64(n)\n"
local loop = "def loop(x, n):\n    s = 0.0\n    for k in range(-n, n + 1):\n        s += x ** k\n    return s\n"
for _, e in ipairs(runtime) do
  for _, b in ipairs(bases) do
    case(var, "var", b, e)
    case(var32, "var_f32", b, e)
    if e >= -(1 << 31) and e < (1 << 31) then case(vari32, "var_i32", b, e) end
    if e >= 0 then case(varu64, "var_u64", b, e) end
  end
end
for _, b in ipairs { 1.1, -0.7, 2.0, 3.5 } do case(loop, "loop", b, 9) end

local function pyq(s)
  return '"' .. s:gsub("\\", "\\\\"):gsub('"', '\\"'):gsub("\n", "\\n") .. '"'
end

-- Numba's results, one python run: "R dtype repr" or "E ExcType: message"
local function numba_results()
  local lines = { "import numba, numpy as np, math, sys", "fns = {}" }
  local seen = {}
  for _, c in ipairs(cases) do
    if not seen[c.fname] then
      seen[c.fname] = true
      lines[#lines + 1] = ("g = {'np': np}; exec(%s, g); fns[%q] = numba.njit(g[%q])"):format(pyq(c.src), c.fname, c.fname)
    end
  end
  lines[#lines + 1] = "def run(f, *a):"
  lines[#lines + 1] = "    try:"
  lines[#lines + 1] = "        r = fns[f](*a); print('R', np.asarray(r).dtype.name, repr(float(r)))"
  lines[#lines + 1] = "    except Exception as ex: print('E', type(ex).__name__ + ': ' + str(ex))"
  for _, c in ipairs(cases) do
    local a = {}
    for i = 1, c.args.n do
      local v = c.args[i]
      a[i] = math.type(v) == "integer" and tostring(v) or pyrepr(v)
    end
    lines[#lines + 1] = ("run(%q, %s)"):format(c.fname, table.concat(a, ", "))
  end
  local out = oracle.run_python(table.concat(lines, "\n"))
  local res = {}
  for l in out:gmatch("[^\n]+") do res[#res + 1] = l end
  assert(#res == #cases, "numba oracle: " .. out:sub(1, 2000))
  return res
end

local function pyfloat(s)
  if s == "nan" then return nan end
  if s == "inf" then return inf end
  if s == "-inf" then return -inf end
  return tonumber(s)
end

describe("float ** int", function()
  local it_numba = numba_available() and it or pending

  it_numba("equals Numba bit for bit: literal and run-time exponents, float64 and float32, int32/uint64 exponents", function()
    local want = numba_results()
    local fns = {}
    local n = 0
    for i, c in ipairs(cases) do
      fns[c.fname] = fns[c.fname] or lumba.njit(c.src)
      local ok, got = pcall(fns[c.fname], table.unpack(c.args, 1, c.args.n))
      local w = want[i]
      local what = ("%s(%s)"):format(c.fname, table.concat((function()
        local t = {}
        for k = 1, c.args.n do t[k] = tostring(c.args[k]) end
        return t
      end)(), ", "))
      if w:sub(1, 1) == "E" then
        assert.is_false(ok, what .. " should raise " .. w)
        assert.are.equal(w:sub(3), H.message(got), what)
      else
        assert.is_true(ok, what .. ": " .. tostring(got))
        local dtype, val = w:match("^R (%S+) (%S+)$")
        local wv = pyfloat(val)
        local same = (wv ~= wv and got ~= got) or (wv == got and (wv ~= 0 or 1 / wv == 1 / got))
        assert.is_true(same, ("%s: %.17g, Numba %s"):format(what, got, val))
        -- the result dtype as Numba types it (a float32 base stays float32)
        local typ = fns[c.fname]:inspect_types()
        if dtype == "float32" then assert.truthy(typ:find("float32"), what) end
        n = n + 1
      end
    end
    assert.is_true(n > 500)
  end)

  it("hand values: negative exponents, 0, large exponents, errors", function()
    local f = lumba.njit "def f(x, n):\n    return x ** n\n"
    assert.are.equal(0.125, f(2.0, -3))
    assert.are.equal(1.0, f(0.0, 0))
    assert.are.equal(1.0, f(nan, 0))
    assert.are.equal(-8.0, f(-2.0, 3))
    assert.are.equal(2.0 ^ 62, f(2.0, 62))
    assert.are.equal(inf, f(2.0, 100000))        -- past the cutoff: pow
    assert.are.equal(0.0, f(2.0, -100000))
    assert.are.equal("ZeroDivisionError: division by zero", H.message_of(f, 0.0, -2))
    local g = lumba.njit "def g(x):\n    return x ** -2\n"
    assert.are.equal(0.25, g(2.0))
    assert.are.equal("ZeroDivisionError: division by zero", H.message_of(g, 0.0))
    -- error_model numpy: 1 / 0.0 is inf
    local h = lumba.njit({ error_model = "numpy" }, "def h(x):\n    return x ** -2\n")
    assert.are.equal(inf, h(0.0))
  end)

  it("x ** 6 is multiplications, no pow call", function()
    local f = lumba.njit "def f(x):\n    return (1.0 / x) ** 6\n"
    assert.are.equal(1.0 / 64, f(2.0))
    local ir = f:inspect_llvm()
    assert.is_nil(ir:find("llvm.pow", 1, true))
    assert.is_nil(ir:find("@pow", 1, true))
  end)
end)
