-- The object mode runs NumPy's array language: the same Python source run
-- by NumPy (tests/numpy_calls.lua, one python3 process per batch) and by
-- lumba's object mode (d:interpret) over dtypes, shapes, views and
-- broadcasts must give the same dtypes, shapes and values (or both fail).
local lumba = require "lumba"
local B = dofile("tests/numpy_calls.lua")
local H = require "tests.helpers"

local DTYPES = { "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64" }

-- six values of each dtype (for a (2, 3) array); `second` avoids what makes
-- results implementation-defined in C (shifts past the width stay defined:
-- NumPy and lumba both give 0)
local function values(dt, second)
  if dt == "bool" then return second and { true, false, true, true, false, false } or { true, false, true, false, true, true } end
  if dt:match("^float") then return second and { 2.0, -0.5, 1.5, 0.0, -3.0, 4.0 } or { -2.5, -1.0, 0.0, 0.5, 3.0, 7.25 } end
  if dt:match("^uint") then return second and { 2, 1, 3, 0, 4, 2 } or { 0, 1, 2, 3, 5, 7 } end
  return second and { 2, -3, 1, 0, 4, -2 } or { -3, -1, 0, 2, 5, 7 }
end

local function show(v)
  if type(v) == "table" then
    local t = {}
    for i, x in ipairs(v) do t[i] = tostring(x) end
    return "{" .. table.concat(t, ", ") .. "}"
  end
  return tostring(v)
end

-- lumba's result as the oracle writes one
local function norm(r)
  if type(r) == "boolean" then return { dtype = "bool", shape = {}, values = { r and 1 or 0 }, scalar = true } end
  if type(r) == "number" then
    return { dtype = math.type(r) == "integer" and "int" or "float", shape = {}, values = { r }, scalar = true }
  end
  if type(r) ~= "userdata" then return { dtype = type(r), shape = {}, values = {} } end
  local shape = {}
  for k = 1, r.ndim do shape[k] = r.shape[k] end
  local vals = {}
  local f = r.ndim == 0 and r or r:copy():reshape(r.size)
  if r.ndim == 0 then
    local v = r:get()
    vals[1] = v == true and 1 or v == false and 0 or v
  else
    for i = 1, r.size do
      local v = f:get(i)
      vals[i] = v == true and 1 or v == false and 0 or v
    end
  end
  return { dtype = r.dtype, shape = shape, values = vals }
end

local function close(a, b, dt)
  if a == b then return true end
  if a ~= a and b ~= b then return true end
  if type(a) ~= "number" or type(b) ~= "number" then return false end
  if not dt:match("^float") and dt ~= "float" then return false end
  -- float16 (NumPy's float functions of 1-byte ints) is float32 in lumba
  local tol = dt == "float16" and 1e-3 or dt == "float32" and 2e-6 or 1e-12
  return math.abs(a - b) <= tol * math.max(math.abs(a), math.abs(b), 1e-300)
end

-- a mismatch description, or nil when lumba's result r agrees with NumPy's e
local function compare(got, e)
  if e.error then
    if got.ok then return "NumPy raised " .. e.error .. ", lumba returned " .. show(norm(got[1]).values) end
    local cls = e.error:match("^([%w_]+)")
    if cls:match("^_UFunc") then cls = "UFuncTypeError" end
    if not tostring(got.err):find(cls, 1, true) then return "NumPy raised " .. e.error .. ", lumba " .. tostring(got.err) end
    return nil
  end
  if not got.ok then return "lumba raised " .. tostring(got.err) .. ", NumPy gave " .. e.dtype .. show(e.values) end
  local list, vals = e.tuple or { e }, {}
  if e.tuple then for i = 1, #list do vals[i] = got[i] end else vals[1] = got[1] end
  for i, ei in ipairs(list) do
    local g = norm(vals[i])
    local edt = ei.dtype == "float16" and "float32" or ei.dtype  -- lumba has no float16
    if g.scalar and #ei.shape == 0 then
      local kind = ei.dtype == "bool" and "bool" or ei.dtype:match("^float") and "float" or "int"
      if g.dtype ~= kind then return ("scalar of kind %s, NumPy %s"):format(g.dtype, ei.dtype) end
      edt = ei.dtype
    elseif g.dtype ~= edt then
      return ("dtype %s, NumPy %s"):format(g.dtype, ei.dtype)
    end
    if show(g.shape) ~= show(ei.shape) then return ("shape %s, NumPy %s"):format(show(g.shape), show(ei.shape)) end
    for k = 1, #ei.values do
      local tdt = ei.dtype == "float16" and "float16" or edt
      if not close(g.values[k], ei.values[k], tdt) then
        return ("values %s, NumPy %s"):format(show(g.values), show(ei.values))
      end
    end
  end
  return nil
end

local compiled = {}
local function objmode_fn(src)
  local d = compiled[src]
  if not d then d = lumba.njit(src); compiled[src] = d end
  return d
end

-- run every case by NumPy and by the object mode; assert they agree
-- (with_compiled: the compiled path too, each run on fresh arguments)
local function check_all(cases, with_compiled)
  local expected = B.run(cases)
  local bad = {}
  local function run(d, how, c)
    local args = {}
    for k, a in ipairs(c.args) do args[k] = B.lumba_arg(a) end
    local r
    if how == "object mode" then r = table.pack(pcall(d.interpret, d, table.unpack(args, 1, #c.args)))
    else r = table.pack(pcall(d, table.unpack(args, 1, #c.args))) end
    local got = { ok = r[1] }
    if r[1] then for k = 2, r.n do got[k - 1] = r[k] end else got.err = r[2] end
    return got
  end
  for i, c in ipairs(cases) do
    local d = objmode_fn(c.src)
    local why
    for _, how in ipairs(with_compiled and { "object mode", "compiled" } or { "object mode" }) do
      local got = run(d, how, c)
      if how == "compiled" and expected[i].error then  -- a TypingError at compile time: its class differs
        why = got.ok and ("NumPy raised " .. expected[i].error .. ", lumba returned") or nil
      else
        why = compare(got, expected[i])
      end
      if why then why = how .. ": " .. why; break end
    end
    if why then
      local a = {}
      for k, x in ipairs(c.args) do a[k] = type(x) == "table" and (x.dtype .. show(x.shape) .. (x.view or "")) or tostring(x) end
      bad[#bad + 1] = c.src .. "  args " .. table.concat(a, ", ") .. ": " .. why
      if #bad >= 15 then break end
    end
  end
  assert(#bad == 0, #bad .. " mismatches:\n" .. table.concat(bad, "\n"))
  return #cases
end

local function arr(dt, shape, second, view)
  local n = 1
  for _, d in ipairs(shape) do n = n * d end
  local v = values(dt, second)
  local vals = {}
  for i = 1, n do vals[i] = v[(i - 1) % #v + 1] end
  return B.arr(dt, shape, vals, view)
end

local function fn(body, params)
  return "def f(" .. (params or "a, b") .. "):\n    return " .. body .. "\n"
end

describe("the object mode on arrays", function()
  if not B.available() then
    pending("needs /usr/bin/python3 with NumPy")
    return
  end

  it("runs the five-minute guide's go_fast through @jit with NumPy's result", function()
    local mod = lumba.load([[
import numpy as np
from numba import jit

@jit
def go_fast(a):
    trace = 0.0
    for i in range(a.shape[0]):
        trace += np.tanh(a[i, i])
    return a + trace
]], { chunkname = "guide.py" })
    local x = B.arr("float64", { 10, 10 }, (function() local t = {} for i = 1, 100 do t[i] = i - 1 end return t end)())
    local src = "import numpy as np\ndef f(a):\n    trace = 0.0\n    for i in range(a.shape[0]):\n        trace += np.tanh(a[i, i])\n    return a + trace\n"
    local e = B.run({ { src = src, args = { x } } })[1]
    for _, run in ipairs { function(a) return mod.go_fast(a) end, function(a) return mod.go_fast:interpret(a) end } do
      local got = run(B.lumba_arg(x))
      assert.is_nil(compare({ ok = true, got }, e))
    end
  end)

  it("has NumPy's binary operators over every pair of dtypes, broadcasting a (2,3) with a (3,)", function()
    local ops = { "+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>", "==", "!=", "<", "<=", ">", ">=" }
    local cases = {}
    for _, op in ipairs(ops) do
      for _, da in ipairs(DTYPES) do
        for _, db in ipairs(DTYPES) do
          cases[#cases + 1] = { src = fn("a " .. op .. " b"), args = { arr(da, { 2, 3 }), arr(db, { 3 }, true) } }
        end
      end
    end
    assert.is_true(check_all(cases) > 2000)
  end)

  it("types Python scalars with arrays by NumPy 1.x's value-based rules", function()
    local cases = {}
    local scalars = { 3, -1, 200, 300, 40000, 100000, 2.5, 1e300, true, 0 }
    for _, op in ipairs { "+", "*", "-", "//", "<", "==", "&", "**" } do
      for _, dt in ipairs(DTYPES) do
        for _, s in ipairs(scalars) do
          cases[#cases + 1] = { src = fn("a " .. op .. " b"), args = { arr(dt, { 2, 3 }), s } }
          cases[#cases + 1] = { src = fn("b " .. op .. " a"), args = { arr(dt, { 3 }), s } }
        end
      end
    end
    check_all(cases)
  end)

  it("works on views: transposed, reversed (negative strides), sliced, 0-d and empty arrays", function()
    local cases = {}
    for _, dt in ipairs { "int16", "uint8", "float32", "float64", "bool" } do
      cases[#cases + 1] = { src = fn("a * 2 + b"), args = { arr(dt, { 3, 2 }, false, "T"), arr(dt, { 2, 3 }, true, "rev") } }
      cases[#cases + 1] = { src = fn("a[::-1, 1:] - b[:, None]", "a, b"), args = { arr(dt, { 2, 3 }), arr(dt, { 2 }, true) } }
      cases[#cases + 1] = { src = fn("a[None, :] * b[:, np.newaxis]", "a, b"), args = { arr(dt, { 3 }), arr(dt, { 2 }, true) } }
      cases[#cases + 1] = { src = fn("a + b"), args = { arr(dt, { 0, 3 }), arr(dt, { 3 }) } }
      cases[#cases + 1] = { src = fn("a + b"), args = { arr(dt, { 2, 3 }), arr(dt, { 4 }) } }
      cases[#cases + 1] = { src = fn("a.T > b"), args = { arr(dt, { 2, 3 }), arr(dt, { 2 }, true) } }
    end
    for _, c in ipairs(cases) do c.src = "import numpy as np\n" .. c.src end
    check_all(cases)
  end)

  it("has NumPy's unary operators and elementwise functions", function()
    local cases = {}
    local exprs = { "-a", "+a", "~a", "abs(a)", "np.sqrt(a)", "np.exp(a)", "np.log(a)", "np.sin(a)", "np.tanh(a)",
      "np.arctan(a)", "np.floor(a)", "np.ceil(a)", "np.trunc(a)", "np.rint(a)", "np.abs(a)", "np.sign(a)",
      "np.square(a)", "np.isnan(a)", "np.isinf(a)", "np.isfinite(a)", "np.log10(a)", "np.expm1(a)", "np.cbrt(a)",
      "np.maximum(a, 1)", "np.minimum(a, b)", "np.arctan2(a, b)", "np.hypot(a, b)", "np.power(a, 2)",
      "np.where(a > 1, a, b)", "np.where(a > 1, 0.5, a)", "np.round(a)" }
    for _, e in ipairs(exprs) do
      for _, dt in ipairs(DTYPES) do
        cases[#cases + 1] = { src = "import numpy as np\n" .. fn(e), args = { arr(dt, { 2, 3 }), arr(dt, { 3 }, true) } }
      end
    end
    -- nan propagation in maximum/minimum, and comparisons with nan
    local nan = B.arr("float64", { 4 }, { 0 / 0, 1.0, -2.0, 0 / 0 })
    local other = B.arr("float64", { 4 }, { 1.0, 0 / 0, 3.0, 0 / 0 })
    for _, e in ipairs { "np.maximum(a, b)", "np.minimum(a, b)", "a < b", "a != b", "a == b", "a // b", "a % b" } do
      cases[#cases + 1] = { src = "import numpy as np\n" .. fn(e), args = { nan, other } }
    end
    check_all(cases)
  end)

  it("reduces with and without an axis, as NumPy (dtypes of sums, means, arg*)", function()
    local cases = {}
    local methods = { "sum", "prod", "min", "max", "mean", "std", "var", "argmin", "argmax" }
    -- cumsum once the registry's row says the object mode has it
    for _, e in ipairs(require("lumba.core").builtins()) do
      if e.id == "ndarray_cumsum" and e.objmode == true then methods[#methods + 1] = "cumsum" end
    end
    for _, m in ipairs(methods) do
      for _, dt in ipairs(DTYPES) do
        for _, ax in ipairs { "", "axis=0", "axis=1", "-1" } do
          cases[#cases + 1] = { src = fn("a." .. m .. "(" .. ax .. ")", "a"), args = { arr(dt, { 2, 3 }) } }
        end
        cases[#cases + 1] = { src = "import numpy as np\n" .. fn("np." .. m .. "(a, 0)", "a"), args = { arr(dt, { 3, 2 }, false, "T") } }
      end
      cases[#cases + 1] = { src = fn("a." .. m .. "(axis=0)", "a"), args = { arr("float64", { 0, 3 }) } }
      cases[#cases + 1] = { src = fn("a." .. m .. "(axis=2)", "a"), args = { arr("float64", { 2, 3 }) } }
    end
    local nan = B.arr("float64", { 2, 3 }, { 1.0, 0 / 0, 3.0, -1.0, 5.0, 0 / 0 })
    for _, m in ipairs { "min", "max", "argmin", "argmax", "sum" } do
      cases[#cases + 1] = { src = fn("a." .. m .. "(axis=1)", "a"), args = { nan } }
    end
    check_all(cases)
  end)

  it("indexes with masks, integer arrays and None, and stores with broadcasting", function()
    local cases = {}
    local bodies = {
      "a[a > 2]", "a[b]", "a[a > 2].sum()", "a[:, None]", "a[None]", "a[1][None, :]",
      "a[idx]", "a[idx, idx]",
    }
    local stores = {
      "a[a > 2] = 0", "a[1:] = b", "a[:, 0] = 9", "a[idx] = 5", "a[0] = b[0]", "a[:] = 1.75",
      "a[a < 1] = b[a < 1]", "a += 1", "a -= b", "a[1:] *= 2", "a[0] //= 2", "a += 1.5",
      "a[:, ::-1] = a", "a[1:] = a[:-1]",
    }
    for _, dt in ipairs { "int8", "int64", "uint16", "float32", "float64" } do
      for _, body in ipairs(bodies) do
        local args = { arr(dt, { 2, 3 }), B.arr("bool", { 2, 3 }, { true, false, true, false, false, true }) }
        if body:find("idx") then args[2] = B.arr("int64", { 2 }, { 1, -1 }) end
        local src = "def f(a, " .. (body:find("idx") and "idx" or "b") .. "):\n    return " .. body .. "\n"
        cases[#cases + 1] = { src = src, args = args }
      end
      for _, st in ipairs(stores) do
        local src = "def f(a, b, idx):\n    c = a\n    " .. st .. "\n    return c\n"
        cases[#cases + 1] = { src = src, args = { arr(dt, { 2, 3 }), arr(dt, { 3 }, true), B.arr("int64", { 2 }, { 0, -1 }) } }
      end
    end
    -- a value that does not broadcast into the view
    cases[#cases + 1] = { src = "def f(a, b):\n    a[0] = b\n    return a\n", args = { arr("int64", { 2, 3 }), arr("int64", { 2 }) } }
    cases[#cases + 1] = { src = "def f(a, b):\n    return a[b]\n", args = { arr("int64", { 2, 3 }), B.arr("int64", { 1 }, { 5 }) } }
    check_all(cases)
  end)

  it("creates and reshapes arrays as NumPy (dtypes included)", function()
    local cases = {}
    local exprs = {
      "np.zeros((2, 3), np.int8)", "np.ones(4)", "np.full((2, 2), 7)", "np.full(3, 2.5, np.float32)",
      "np.empty((0, 2)).shape[0] + np.zeros(3, dtype=np.uint8)", "np.arange(5)", "np.arange(1, 2, 0.25)",
      "np.arange(6).reshape(2, 3)", "np.linspace(0, 1, 5)", "np.eye(3)", "np.eye(3, 4, 1)", "np.identity(2)",
      "np.array(a)", "np.array(a, np.float32)", "a.reshape(3, 2)", "a.reshape((6,))", "a.ravel()", "a.T.copy()",
      "a.transpose()", "a.astype(np.int16)", "np.transpose(a)", "np.copy(a)", "np.reshape(a, (3, 2))",
      "np.zeros_like(a)", "np.ones_like(a, np.float32)", "a.reshape(4, 2)",
    }
    for _, e in ipairs(exprs) do
      cases[#cases + 1] = { src = "import numpy as np\n" .. fn(e, "a"), args = { arr("float64", { 2, 3 }) } }
    end
    check_all(cases)
  end)

  it("updates arrays in place: the caller sees a += b and slice stores", function()
    local d = lumba.njit "def f(a, b):\n    a += b\n    a[0, 1:] = -1\n"
    local a = lumba.array({ { 1, 2, 3 }, { 4, 5, 6 } })
    d:interpret(a, lumba.array({ 10, 20, 30 }))
    assert.are.same({ { 11, -1, -1 }, { 14, 25, 36 } }, a:totable())
    -- Lua's operators on lumba arrays are NumPy's too
    local x = lumba.arange(3, "int8")
    assert.are.same({ 0, 2, 4 }, (x * 2):totable())
    assert.are.equal("int16", (x + 200).dtype)
    assert.are.same({ { 1, 2 }, { 2, 3 } }, (lumba.arange(2):reshape(2, 1) + lumba.arange(1, 3)):totable())
  end)

  it("takes the truth of an array comparison in a condition, as Python", function()
    local d = lumba.njit "def f(a):\n    if a > 2:\n        return 1\n    return 0\n"
    assert.are.equal(1, d:interpret(lumba.array({ 5 })))
    assert.are.equal(0, d:interpret(lumba.array({ 1.5 })))
    assert.are.equal(0, d:interpret(lumba.zeros(0)))
    local err = H.error_of(d.interpret, d, lumba.array({ 1, 5 }))
    assert.truthy(err:find(":2:%d+: ValueError: The truth value of an array with more than one element is ambiguous"), err)
    local e = lumba.njit "def f(a, b):\n    if a == b:\n        return 1\n    return 0\n"
    assert.are.equal(1, e:interpret(lumba.array({ 3 }), 3))
    assert.are.equal(0, e:interpret(lumba.array({ true }), false))
    assert.truthy(H.error_of(e.interpret, e, lumba.array({ 1, 5 }), 1):find("ValueError: The truth value", 1, true))
    local v = lumba.njit "def f(a):\n    m = a > 2\n    return m\n"
    assert.are.same({ false, true }, v:interpret(lumba.array({ 1, 5 })):totable())
  end)

  it("calls NumPy's arithmetic, comparison and logical ufuncs by name as compiled code and NumPy do", function()
    local cases = {}
    local binary = { "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "bitwise_and",
      "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "equal", "not_equal", "less", "less_equal",
      "greater", "greater_equal", "fmax", "fmin", "fmod", "logical_and", "logical_or", "logical_xor" }
    local unary = { "negative", "positive", "invert", "logical_not" }
    local src = {}
    for _, u in ipairs(binary) do src[#src + 1] = "np." .. u .. "(a, b)" end
    for _, u in ipairs(unary) do src[#src + 1] = "np." .. u .. "(a)" end
    for _, e in ipairs(src) do
      for _, dt in ipairs(DTYPES) do
        for _, shapes in ipairs { { { 2, 3 }, { 3 } }, { { 4 }, { 4 } } } do
          cases[#cases + 1] = { src = "import numpy as np\n" .. fn(e), args = { arr(dt, shapes[1]), arr(dt, shapes[2], true) } }
        end
        cases[#cases + 1] = { src = "import numpy as np\n" .. fn(e), args = { arr(dt, { 3, 2 }, false, "T"), arr(dt, { 2, 3 }, true, "rev") } }
      end
    end
    -- nan operands of fmax/fmin, a zero divisor of fmod, scalars
    local nan = B.arr("float64", { 4 }, { 0 / 0, 1.0, -2.0, 0 / 0 })
    local other = B.arr("float64", { 4 }, { 1.0, 0 / 0, 0.0, 0 / 0 })
    for _, e in ipairs { "np.fmax(a, b)", "np.fmin(a, b)", "np.fmod(a, b)", "np.logical_xor(a, b)" } do
      cases[#cases + 1] = { src = "import numpy as np\n" .. fn(e), args = { nan, other } }
      for _, p in ipairs { { 7, -3 }, { -7.5, 2 }, { 0 / 0, 2.0 }, { 3, 0 }, { 2.5, 0.0 } } do
        cases[#cases + 1] = { src = "import numpy as np\n" .. fn(e), args = p }
      end
    end
    assert.is_true(check_all(cases, true) > 600)
  end)

  it("has np.cumsum/cumprod and a.cumsum/cumprod as compiled code and NumPy (dtypes, axes, views)", function()
    local cases = {}
    for _, e in ipairs { "np.cumsum(a)", "a.cumsum()", "np.cumsum(a, 0)", "np.cumsum(a, axis=1)", "a.cumsum(axis=0)",
      "a.cumsum(-1)", "np.cumprod(a)", "a.cumprod()", "np.cumprod(a, axis=1)", "a.cumprod(0)" } do
      for _, dt in ipairs(DTYPES) do
        cases[#cases + 1] = { src = "import numpy as np\n" .. fn(e, "a"), args = { arr(dt, { 2, 3 }) } }
        cases[#cases + 1] = { src = "import numpy as np\n" .. fn(e, "a"), args = { arr(dt, { 3, 2 }, true, "T") } }
      end
    end
    assert.is_true(check_all(cases, true) > 100)
  end)

  -- the rows the object mode gained from the prelude, the runtime's BLAS/LAPACK, its
  -- own ufunc loops and joins: object mode, compiled code and NumPy on the same cases
  local FLOATS, INTS = { "float64", "float32" }, { "int64", "int32", "uint8" }
  local function cases_of(exprs, dtypes, shapes, params)
    local cases = {}
    for _, e in ipairs(exprs) do
      for _, dt in ipairs(dtypes) do
        for _, sh in ipairs(shapes) do
          local args = {}
          for k, p in ipairs(params or { "a" }) do args[k] = arr(dt, sh[1], k > 1, sh[2]) end
          cases[#cases + 1] = { src = "import numpy as np\n" .. fn(e, table.concat(params or { "a" }, ", ")), args = args }
        end
      end
    end
    return cases
  end
  local PLANE = { { { 2, 3 } }, { { 3, 2 }, "T" }, { { 2, 3 }, "rev" } }
  local LINE = { { { 6 } }, { { 6 }, "rev" } }

  it("runs the prelude's sorting, statistics and NaN reductions as compiled code and NumPy", function()
    local cases = cases_of({ "np.sort(a)", "np.sort(a, 0)", "a.argsort(kind='mergesort')", "np.unique(a)", "np.median(a)",
      "np.percentile(a, 30.0)", "np.quantile(a, 0.75)", "np.nansum(a)", "np.nanmax(a)", "np.nanmean(a)", "np.nanstd(a)",
      "np.ptp(a)", "np.clip(a, -1, 3)", "np.all(a, 0)", "np.any(a, axis=1)", "np.sum(a, axis=0)", "a.mean(axis=1)",
      "a.max(axis=0)", "np.round(a, 1)", "np.isclose(a, a * 1.0000001)", "np.allclose(a, a + 1e-9)",
      "np.array_equal(a, a.copy())" }, { "float64", "float32", "int64", "int16" }, PLANE)
    for _, c in ipairs(cases_of({ "np.searchsorted(np.sort(a), 2)", "np.searchsorted(np.sort(a), a, side='right')",
      "np.histogram(a)", "np.histogram(a, 3, (-2.0, 4.0))", "np.digitize(a, np.array([-1.0, 0.5, 3.0]))",
      "np.interp(a, np.array([-1.0, 2.0, 5.0]), np.array([0.0, 1.0, 4.0]))", "np.trapz(a)",
      "np.convolve(a, a[:3])", "np.correlate(a, a[:2], 'same')", "np.cross(a[:3], a[3:])" }, { "float64", "int64" }, LINE)) do
      cases[#cases + 1] = c
    end
    for _, c in ipairs(cases_of({ "np.bincount(a)", "np.bincount(a, minlength=9)" }, { "uint8", "int64" }, LINE)) do
      cases[#cases + 1] = c
    end
    assert.is_true(check_all(cases, true) > 250)
  end)

  it("has np.fix, gcd, logaddexp & co. (no core loops) as compiled code and NumPy", function()
    local cases = cases_of({ "np.fix(a)", "np.reciprocal(a)", "np.signbit(a)", "np.sinc(a)", "np.float_power(a, 2)",
      "np.heaviside(a, 0.5)", "np.ldexp(a, 3)", "np.logaddexp(a, b)", "np.logaddexp2(a, b)", "np.nextafter(a, b)" },
      FLOATS, PLANE, { "a", "b" })
    for _, c in ipairs(cases_of({ "np.gcd(a, b)", "np.lcm(a, b)", "np.gcd(a, 4)" }, { "int64", "int32" }, PLANE, { "a", "b" })) do
      cases[#cases + 1] = c
    end
    assert.is_true(check_all(cases, true) > 60)
  end)

  it("joins, splits and views with axes as compiled code and NumPy", function()
    local cases = cases_of({ "np.concatenate((a, b))", "np.concatenate((a, b), axis=1)", "np.stack((a, b))",
      "np.stack((a, b), 2)", "np.hstack((a, b))", "np.vstack((a, b))", "np.dstack((a, b))", "np.column_stack((a, b))",
      "np.append(a, b)", "np.append(a, b, axis=0)", "np.split(a, 3, axis=1)[1]", "np.array_split(a, 2, axis=1)[0]",
      "np.diff(a)", "np.diff(a, 2, axis=1)", "np.diff(a, axis=0)", "np.repeat(a, 2)", "np.roll(a, 2)", "np.roll(a, -1, axis=1)",
      "np.tile(a, 2)", "np.flip(a)", "np.flip(a, 1)", "np.fliplr(a)", "np.flipud(a)", "np.swapaxes(a, 0, 1)",
      "a.swapaxes(1, 0)", "np.moveaxis(a, 0, 1)", "np.expand_dims(a, 1)", "np.squeeze(np.expand_dims(a, 0), 0)",
      "np.atleast_3d(a)", "np.broadcast_to(a[0], (4, 3))" }, { "float64", "int32", "bool" }, { { { 2, 3 } }, { { 3, 2 }, "T" } },
      { "a", "b" })
    assert.is_true(check_all(cases, true) > 150)
  end)

  it("has @, np.dot and np.linalg (BLAS and LAPACK) as compiled code and NumPy", function()
    local m = B.arr("float64", { 3, 3 }, { 4.0, 1.0, 0.5, 1.0, 3.0, -1.0, 0.5, -1.0, 5.0 })
    local mt = B.arr("float64", { 3, 3 }, { 4.0, 1.0, 0.5, 1.0, 3.0, -1.0, 0.5, -1.0, 5.0 }, "T")
    local cases = {}
    for _, e in ipairs { "a @ a", "np.dot(a, a[0])", "np.dot(a[1], a[2])", "np.matmul(a[0], a)", "np.inner(a, a)",
      "np.vdot(a[0], a[1])", "np.outer(a[0], a[1])", "np.kron(a[:2, :2], a[1:, 1:])", "np.trace(a)",
      "np.linalg.inv(a)", "np.linalg.solve(a, a[0])", "np.linalg.det(a)", "np.linalg.slogdet(a)", "np.linalg.cholesky(a)",
      "np.linalg.eigvalsh(a)", "np.linalg.svd(a, compute_uv=False)", "np.linalg.norm(a)", "np.linalg.norm(a, 'nuc')",
      "np.linalg.norm(a[0], 1)", "np.linalg.cond(a)", "np.linalg.matrix_rank(a)", "np.linalg.matrix_power(a, 3)",
      "np.linalg.pinv(a)", "np.cov(a)", "np.corrcoef(a)", "np.linalg.lstsq(a, a[0])[0]" } do
      for _, x in ipairs { m, mt } do
        cases[#cases + 1] = { src = "import numpy as np\n" .. fn(e, "a"), args = { x } }
      end
    end
    assert.is_true(check_all(cases, true) > 50)
  end)

  it("reports errors at the user's line: broadcasting, unsupported NumPy functions", function()
    local mod = lumba.load([[
import numpy as np

def f(a, b):
    c = a * 2
    return c + b

def g(a):
    return np.fft(a)
]], { chunkname = "user.py" })
    local err = H.error_of(mod.f.interpret, mod.f, lumba.zeros({ 2, 3 }), lumba.zeros(4))
    assert.truthy(err:find("^user%.py:5:%d+: ValueError: operands could not be broadcast together with shapes %(2,3%) %(4,%)"), err)
    err = H.error_of(mod.g.interpret, mod.g, lumba.zeros(3))
    assert.truthy(err:find("^user%.py:8:%d+: UnsupportedError: np%.fft is not supported in object mode"), err)
    -- a bad index array in a store, at its line
    local m2 = lumba.load("def h(a):\n    x = 1\n    a[a > 0] = lumba_bad\n", { chunkname = "s.py", env = { lumba_bad = lumba.zeros(7) } })
    err = H.error_of(m2.h.interpret, m2.h, lumba.ones(3))
    assert.truthy(err:find("^s%.py:3:%d+: ValueError"), err)
  end)
end)
