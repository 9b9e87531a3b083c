-- NumPy's ufuncs in compiled code (src/builtin_ufunc.c, src/lower_ufunc.c):
-- every ufunc of the registry over every dtype, on shapes from 0-d and empty
-- to 3-D, views with negative strides, broadcasts and Python scalars, with
-- special values (nan, inf, -0.0, zero divisors, the integer limits),
-- compared value by value and dtype by dtype with NumPy itself (one python
-- run, tests/numpy_batch.lua); fusion into array expressions and output
-- arrays checked by hand.
local lumba = require "lumba"
local batch = dofile("tests/numpy_batch.lua")

local entries = require("lumba.core").builtins()

local DTYPES = { "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64" }
local nan, inf = math.abs(0 / 0), math.huge  -- a NaN without its sign bit, as Python's
local VALUES = {
  bool = { true, false, true, true, false, false, true, false, true },
  int8 = { 0, 1, -1, 7, -128, 127, 3, -5, 2 },
  int16 = { 0, 1, -1, 7, -32768, 32767, 3, -5, 2 },
  int32 = { 0, 1, -1, 7, -2147483648, 2147483647, 3, -5, 2 },
  int64 = { 0, 1, -1, 7, math.mininteger, math.maxinteger, 3, -5, 2 },
  uint8 = { 0, 1, 2, 7, 255, 128, 3, 5, 9 },
  uint16 = { 0, 1, 2, 7, 65535, 32768, 3, 5, 9 },
  uint32 = { 0, 1, 2, 7, 4294967295, 2147483648, 3, 5, 9 },
  uint64 = { 0, 1, 2, 7, -1, math.mininteger, 3, 5, 9 },  -- -1: 2^64 - 1
  float32 = { 0.0, -0.0, 1.5, -2.5, nan, inf, -inf, 3.0, 0.25 },
  float64 = { 0.0, -0.0, 1.5, -2.5, nan, inf, -inf, 1e300, 0.25 },
}
-- the other shapes, one per dtype in turn: {shape, view applied in both languages}
local SHAPES = {
  { { 3, 4 }, ".T" }, { { 2, 3, 2 }, "" }, { {}, "" }, { { 0 }, "" }, { { 2, 0 }, "" }, { { 12 }, "[1::3]" },
  { { 3, 4 }, "[::-1, ::2]" },
}

-- the ufuncs: each registry entry called by a NumPy name that computes elementwise, once
local UFUNCS = {}
for _, e in ipairs(entries) do
  if e.family == "ufunc" or e.result or e.id == "abs" then
    for _, nm in ipairs(e.names) do
      if nm.module == "numpy" then
        UFUNCS[#UFUNCS + 1] = { name = nm.member, nin = e.lo }
        break
      end
    end
  end
end
table.sort(UFUNCS, function(a, b) return a.name < b.name end)

local function values(dt, n, rot)
  local v, src = {}, VALUES[dt]
  for i = 1, n do v[i] = src[(i + rot - 1) % #src + 1] end
  return v
end

local function count(shape)
  local n = 1
  for _, s in ipairs(shape) do n = n * s end
  return n
end

local function make(dt, shape, vals)
  return lumba.array(vals, dt):reshape(table.unpack(shape))
end

local H = require "helpers"
local flat = H.flat

local function shape_of(a)
  local s = {}
  for k = 1, a.ndim do s[k] = a.shape[k] end
  return s
end

-- equal elements: integers exactly, floats to a few ulps (NumPy's float
-- loops and libm may round differently), NaN to NaN, -0.0 to -0.0
local function close(want, got, dt)
  if want ~= want then return got ~= got end
  if math.type(want) == "integer" or not dt:match("^float") then return want == got end
  if want == got then return want ~= 0 or 1 / want == 1 / got end
  local tol = dt == "float32" and 4e-7 or 1e-15
  return math.abs(want - got) <= tol * math.max(math.abs(want), math.abs(got))
end

-- the cases: one expression each over inputs named apart ("x<case>_<input>");
-- `py` is the expression NumPy evaluates when it differs (a strong scalar as an array)
local cases = {}
local function case(expr, ins, py)
  local k = #cases + 1
  local inputs = {}
  for i, v in ipairs(ins) do
    local nm = ("x%d_%d"):format(k, i)
    expr = expr:gsub("%f[%w_]" .. v.name .. "%f[^%w_]", nm)
    if py then py = py:gsub("%f[%w_]" .. v.name .. "%f[^%w_]", nm) end
    inputs[i] = { name = nm, dtype = v.dtype, shape = v.shape, values = v.values }
  end
  cases[k] = { expr = expr, py = py or expr, inputs = inputs }
end

for _, u in ipairs(UFUNCS) do
  for d, dt in ipairs(DTYPES) do
    -- a 1-D array of the special values (reversed every other dtype), and for
    -- every other dtype another shape (they take turns over the ufuncs)
    local va = d % 2 == 0 and "[::-1]" or ""
    local sh = SHAPES[((d + #u.name) // 2) % #SHAPES + 1]
    local i1, i2, a1, a2 = {}, {}, {}, {}
    for i = 1, u.nin do
      local nm = string.char(96 + i)
      i1[i] = { name = nm, dtype = dt, shape = { 9 }, values = values(dt, 9, (i - 1) * 4) }
      i2[i] = { name = nm, dtype = dt, shape = sh[1], values = values(dt, count(sh[1]), (i - 1) * 5 + d) }
      a1[i], a2[i] = nm .. va, nm .. sh[2]
    end
    case(("np.%s(%s)"):format(u.name, table.concat(a1, ", ")), i1)
    if (d + #u.name) % 2 == 0 then case(("np.%s(%s)"):format(u.name, table.concat(a2, ", ")), i2) end
  end
  if u.nin == 2 then
    -- mixed dtypes, broadcast (3, 1) with (4,): a few pairs per ufunc, all pairs over the ufuncs
    for k = 1, 3 do
      local d = (#u.name * 3 + k * 5) % #DTYPES + 1
      local da, db = DTYPES[d], DTYPES[(d * 4 + k) % #DTYPES + 1]
      case(("np.%s(a, b)"):format(u.name), { { name = "a", dtype = da, shape = { 3, 1 }, values = values(da, 3, d) },
        { name = "b", dtype = db, shape = { 4 }, values = values(db, 4, d + 2) } })
    end
    -- Python scalars: of a kind no higher than the array's they take its dtype
    -- (Numba's rule; NumPy's too, for small values), else they are int64/float64
    for _, dt in ipairs({ #u.name % 2 == 0 and "bool" or "uint16", #u.name % 2 == 0 and "float32" or "int64" }) do
      local ins = { { name = "a", dtype = dt, shape = { 9 }, values = values(dt, 9, 1) } }
      case(("np.%s(a, 3)"):format(u.name), ins, ("np.%s(a, %s)"):format(u.name, dt ~= "bool" and "3" or "np.array([3])"))
      case(("np.%s(2.5, a)"):format(u.name), ins, ("np.%s(%s, a)"):format(u.name, dt == "float32" and "2.5" or "np.array([2.5])"))
    end
  end
end

-- compiled code for a list of cases: one function returning each expression
local function compiled(list)
  local params, args, exprs = {}, {}, {}
  for _, c in ipairs(list) do
    for _, v in ipairs(c.inputs) do
      params[#params + 1] = v.name
      args[#args + 1] = make(v.dtype, v.shape, v.values)
    end
    exprs[#exprs + 1] = c.expr
  end
  local src = ("import numpy as np\ndef f(%s):\n    return %s,\n"):format(table.concat(params, ", "), table.concat(exprs, ", "))
  return table.pack(pcall(lumba.njit(src), table.unpack(args, 1, #args)))
end

-- what differs between NumPy's answer w and the compiled one (ok, g); nil if nothing
local function mismatch(c, w, ok, g)
  if w.error then return ok and "NumPy: " .. w.error .. ", compiled: no error" or nil end
  if not ok then return "compiled: " .. tostring(g) end
  local gd = type(g) == "userdata" and g.dtype or math.type(g)
  if gd ~= w.dtype then return ("dtype: NumPy %s, compiled %s (inputs %s)"):format(w.dtype, tostring(gd), c.inputs[1].dtype) end
  local gs, gv = shape_of(g), flat(g)
  if table.concat(gs, ",") ~= table.concat(w.shape, ",") then
    return "shape: NumPy " .. table.concat(w.shape, ",") .. ", compiled " .. table.concat(gs, ",")
  end
  for j = 1, #w.values do
    if not close(w.values[j], gv[j], w.dtype) then
      return ("element %d: NumPy %s, compiled %s"):format(j, tostring(w.values[j]), tostring(gv[j]))
    end
  end
end

describe("NumPy's ufuncs", function()
  it("cover the registry's ufuncs", function()
    assert.is_true(#UFUNCS >= 75, #UFUNCS)
  end)

  it("compute NumPy's values and dtypes over dtypes, shapes, views, broadcasts and scalars", function()
    if not batch.available() then pending("python3 with NumPy is not installed") return end
    local py = {}
    for i, c in ipairs(cases) do py[i] = { inputs = c.inputs, expr = c.py } end
    local numpy = batch.start(py)
    -- compiled a dozen cases to a function while NumPy runs; a function that
    -- fails (a case NumPy may refuse too) is tried again in halves
    local got = {}
    local function run(idx)
      local list = {}
      for j, k in ipairs(idx) do list[j] = cases[k] end
      local r = compiled(list)
      if not r[1] and #idx > 1 then  -- halves, until the failing cases stand alone
        local h = #idx // 2
        run(table.move(idx, 1, h, 1, {}))
        run(table.move(idx, h + 1, #idx, 1, {}))
        return
      end
      for j, k in ipairs(idx) do got[k] = { r[1], r[1] and r[j + 1] or r[2] } end
    end
    for i = 1, #cases, 12 do
      local idx = {}
      for k = i, math.min(i + 11, #cases) do idx[#idx + 1] = k end
      run(idx)
    end
    local want, bad = numpy.wait(), {}
    for k, c in ipairs(cases) do
      local m = mismatch(c, want[k], got[k][1], got[k][2])
      if m then bad[#bad + 1] = c.expr .. " (" .. c.inputs[1].dtype .. "): " .. m end
    end
    assert(#bad == 0, #bad .. " mismatches:\n" .. table.concat(bad, "\n"))
    assert.is_true(#cases > 1500, #cases)
  end)
end)

describe("ufuncs in array expressions", function()
  it("fuse into the expression around them: one loop, only the result allocated", function()
    local f = lumba.njit "import numpy as np\ndef f(a, b):\n    return np.sqrt(a * a + b * b) + 1\n"
    local r = f(lumba.array({ 3, 5, 8 }), lumba.array({ 4, 12, 15 }))
    assert.are.equal("float64", r.dtype)
    assert.are.same({ 6.0, 14.0, 18.0 }, r:totable())
    local _, allocs = f:inspect_llvm():gsub("call [^\n]*@nrt_alloc[_%w]*%(", "")
    assert.are.equal(1, allocs)
  end)

  it("take NumPy's loop dtypes: sqrt of int64 is float64, of float32 float32; isnan is bool", function()
    local f = lumba.njit "import numpy as np\ndef f(i, s, b):\n    return np.sqrt(i), np.sqrt(s), np.maximum(b, s), np.isnan(s), np.floor(i)\n"
    local i, s, b = lumba.array({ 4, 9 }), lumba.array({ 4, 0 / 0 }, "float32"), lumba.array({ 1, 2 }, "int32")
    local r1, r2, r3, r4, r5 = f(i, s, b)
    assert.are.same({ "float64", "float32", "float64", "bool", "float64" }, { r1.dtype, r2.dtype, r3.dtype, r4.dtype, r5.dtype })
    assert.are.same({ 2.0, 3.0 }, r1:totable())
    assert.are.same({ false, true }, r4:totable())
  end)

  it("softmax and clipping kernels as Numba users write them", function()
    local f = lumba.load [[
import numpy as np
def softmax(x):
    e = np.exp(x - x.max())
    return e / e.sum()
def clip(a, lo, hi):
    return np.minimum(np.maximum(a, lo), hi)
]]
    local s = f.softmax(lumba.array({ 1.0, 2.0, 3.0 }))
    local e = { math.exp(-2), math.exp(-1), 1 }
    local t = e[1] + e[2] + e[3]
    for k, v in ipairs(s:totable()) do assert.is_true(math.abs(v - e[k] / t) < 1e-15) end
    assert.are.same({ 0, 0, 2, 3 }, f.clip(lumba.array({ -5, 0, 2, 9 }), 0, 3):totable())
  end)

  it("keep math's functions scalar-only, as Numba does", function()
    local f = lumba.njit "import math\ndef f(a):\n    return math.sqrt(a)\n"
    local err = select(2, pcall(f, lumba.array({ 1.0, 4.0 })))
    assert.matches("TypingError: sqrt%(%) needs a number, not float64%[:%]", err)
  end)

  it("refuse inputs NumPy has no loop for, with NumPy's words for booleans", function()
    local g = lumba.njit "import numpy as np\ndef g(a):\n    return np.gcd(a, 2)\n"
    assert.matches("TypingError: ufunc 'gcd' has no loop for the input types %(float64%[:%], int64%)",
      select(2, pcall(g, lumba.array({ 1.5 }))))
    local n = lumba.njit "import numpy as np\ndef n(a):\n    return np.negative(a)\n"
    assert.matches("TypingError: The numpy boolean negative, the `%-` operator, is not supported",
      select(2, pcall(n, lumba.array({ true }, "bool"))))
    local p = lumba.njit "import numpy as np\ndef p(a, b):\n    return np.power(a, b) + 1\n"
    assert.matches("ValueError: Integers to negative integer powers are not allowed%.",
      select(2, pcall(p, lumba.array({ 2, 3 }), lumba.array({ 1, -1 }))))
    assert.are.same({ 3, 10 }, p(lumba.array({ 2, 3 }), lumba.array({ 1, 2 })):totable())
  end)
end)

describe("ufuncs with an output array", function()
  it("write into it and return it: np.multiply(Z, Z, Z), out=, in place", function()
    local f = lumba.njit [[
import numpy as np
def f(z, a, b, c):
    r = np.multiply(z, z, z)
    np.add(a, b, out=c)
    s = np.sqrt(a, out=a)
    return r, s
]]
    local z, a, b, c = lumba.array({ 1, 2, 3 }), lumba.array({ 4.0, 9.0 }), lumba.array({ 1.0, 1.0 }), lumba.zeros(2)
    local r, s = f(z, a, b, c)
    assert.are.same({ 1, 4, 9 }, z:totable())
    assert.are.same({ 1, 4, 9 }, r:totable())
    assert.are.same({ 5.0, 10.0 }, c:totable())
    assert.are.same({ 2.0, 3.0 }, a:totable())
    assert.are.same({ 2.0, 3.0 }, s:totable())
    z:set(1, 7)
    assert.are.equal(7, r:get(1))  -- r is z
  end)

  it("broadcast the inputs to out's shape and cast into its dtype (same_kind)", function()
    local f = lumba.njit "import numpy as np\ndef f(a, o):\n    np.add(a, 1, o)\n    return o\n"
    assert.are.same({ { 2.0, 3.0 }, { 2.0, 3.0 } }, f(lumba.array({ 1, 2 }), lumba.zeros({ 2, 2 })):totable())
    local g = lumba.njit "import numpy as np\ndef g(a, o):\n    return np.sqrt(a, out=o)\n"
    assert.matches("TypingError: sqrt%(%): cannot cast the result from float64 to the output's int64 with casting rule 'same_kind'",
      select(2, pcall(g, lumba.array({ 4.0 }), lumba.array({ 0 }))))
    assert.matches("ValueError: operands could not be broadcast together with shapes %(3,%) %(2,%)",
      select(2, pcall(g, lumba.array({ 4.0, 9.0, 16.0 }), lumba.zeros(2))))
    assert.matches("ValueError: non%-broadcastable output operand",
      select(2, pcall(g, lumba.array({ 4.0, 9.0 }), lumba.zeros({ 1 }))))
    assert.matches("TypingError: sqrt%(%): the output has 1 dimensions, the inputs broadcast to 2",
      select(2, pcall(g, lumba.zeros({ 2, 2 }), lumba.zeros(4))))
    local h = lumba.njit "import numpy as np\ndef h(a, o):\n    return np.add(a, a, o, out=o)\n"
    assert.matches("TypingError: add%(%) got multiple values for argument 'out'", select(2, pcall(h, lumba.zeros(2), lumba.zeros(2))))
  end)

  it("give NumPy's answer when out overlaps an input shifted (a copy), in place without one", function()
    local f = lumba.load [[
import numpy as np
def f(a):
    np.add(a[:-1], a[1:], out=a[1:])
    return a
def g(a):
    np.negative(a[::-1], out=a)
    return a
def h(a):
    np.add(a, a, out=a)
    return a
]]
    if batch.available() then
      local ins = { { name = "a", dtype = "int64", shape = { 5 }, values = { 1, 2, 3, 4, 5 } } }
      local want = batch.run({ { inputs = ins, expr = "(np.add(a[:-1], a[1:], out=a[1:]), a)[1]" },
        { inputs = ins, expr = "(np.negative(a[::-1], out=a), a)[1]" } })
      assert.are.same(want[1].values, f.f(lumba.array({ 1, 2, 3, 4, 5 })):totable())
      assert.are.same(want[2].values, f.g(lumba.array({ 1, 2, 3, 4, 5 })):totable())
    end
    assert.are.same({ 1, 3, 5, 7, 9 }, f.f(lumba.array({ 1, 2, 3, 4, 5 })):totable())
    assert.are.same({ -5, -4, -3, -2, -1 }, f.g(lumba.array({ 1, 2, 3, 4, 5 })):totable())
    assert.are.same({ 2, 4, 6 }, f.h(lumba.array({ 1, 2, 3 })):totable())
  end)

  it("free every array they make, when they raise too", function()
    local function live() collectgarbage(); collectgarbage(); return lumba._live_meminfos() end
    local m = lumba.load [[
import numpy as np
def shifted(a):
    np.add(a[:-1], a[1:], out=a[1:])
    return a[1]
def into_temp(a, b):
    return np.power(a, b, out=np.empty(a.shape[0], np.int64))[0]
def fused(a, b):
    return (np.power(a * 1, b) + 1)[0]
def leaf(a):
    return np.sqrt(np.add(a, a, out=np.empty(2)) + 1.0)[1]
]]
    local a, b, neg = lumba.array({ 1, 2 }), lumba.array({ 2, 3 }), lumba.array({ 2, -3 })
    m.shifted(lumba.array({ 1, 2, 3 })); m.into_temp(a, b); m.fused(a, b); m.leaf(a)  -- compiled
    local before = live()
    assert.are.equal(3, m.shifted(lumba.array({ 1, 2, 3 })))
    assert.are.equal(1, m.into_temp(a, b))
    assert.are.equal(2, m.fused(a, b))
    assert.are.equal(math.sqrt(5), m.leaf(a))
    assert.matches("ValueError: Integers to negative", select(2, pcall(m.into_temp, a, neg)))
    assert.matches("ValueError: Integers to negative", select(2, pcall(m.fused, a, neg)))
    assert.are.equal(before, live())
  end)
end)
