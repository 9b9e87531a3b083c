-- The NumPy prelude (src/prelude/*.py, src/builtin_prelude.c): NumPy
-- functions written in Python, checked against NumPy itself
-- (tests/numpy_oracle.lua, one python run for all cases); the errors they
-- give at the user's line; and the compile-time branch pruning they rely
-- on, from user code too.
local lumba = require "lumba"
local H = require "helpers"
local oracle = dofile("tests/numpy_oracle.lua")

local DTYPES = { "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64" }
local SHAPES = { { 5 }, { 2, 3 }, { 2, 3, 4 }, { 3, 0 } }

-- values of a dtype: small (prod stays in range), zeros, negatives where signed
local function values_of(dt, n, seed)
  local v = {}
  for i = 1, n do
    local k = (i * 7 + seed * 3) % 5
    if dt == "bool" then v[i] = (k % 2 == 0) and 1 or 0
    elseif dt:match("^uint") then v[i] = k
    elseif dt:match("^int") then v[i] = k - 2
    else v[i] = (k - 2) * 0.75 end
  end
  return v
end

local function count(shape)
  local n = 1
  for _, s in ipairs(shape) do n = n * s end
  return n
end

-- an array of lumba's from flat row-major values
local function make(dt, shape, vals)
  local a = lumba.zeros(#shape == 1 and shape[1] or shape, dt)
  if #vals == 0 then return a end
  local flat = a:reshape(#vals)
  for i, x in ipairs(vals) do flat:set(i, dt == "bool" and x ~= 0 or x) end
  return a
end

local function flat_of(r)
  if type(r) ~= "userdata" then return { r }, {} end  -- a Lua boolean stays one
  return H.flat(r), H.shape_of(r)
end

local function close(a, b, tol)
  if a ~= a or b ~= b then return a ~= a and b ~= b end
  return math.abs(a - b) <= tol * math.max(1, math.abs(b))
end

-- the cases: {expr (Python over a), dtype, shape, view}
local function cases()
  local out = {}
  local function add(expr, dt, shape, view) out[#out + 1] = { expr = expr, dt = dt, shape = shape, view = view } end
  local d = 0
  local function next_dtypes(k)  -- k dtypes, rotating through all of them
    local t = {}
    for i = 1, k do d = d % #DTYPES + 1; t[i] = DTYPES[d] end
    return t
  end
  for _, shape in ipairs(SHAPES) do
    local nd = #shape
    for _, fn in ipairs { "sum", "mean", "prod", "min", "max", "cumsum", "cumprod", "ptp" } do
      for ax = -nd, nd - 1 do
        for _, dt in ipairs(next_dtypes(2)) do
          local empty = count(shape) == 0 or (shape[ax % nd + 1] == 0)
          if not ((fn == "min" or fn == "max" or fn == "ptp") and empty) and not (fn == "ptp" and dt == "bool") then
            add(("np.%s(a, axis=%d)"):format(fn, ax), dt, shape)
          end
        end
      end
      if fn == "cumsum" or fn == "cumprod" then
        for _, dt in ipairs(next_dtypes(2)) do add(("np.%s(a)"):format(fn), dt, shape) end
      end
    end
    for _, dt in ipairs(next_dtypes(3)) do
      add("np.median(a)", dt, shape)
      add("a.cumsum(axis=0)", dt, shape)
      add("a.sum(axis=-1)", dt, shape)
    end
  end
  -- views: reversed, transposed, strided
  for _, dt in ipairs { "int32", "float64", "uint8", "bool" } do
    add("np.sum(a, axis=0)", dt, { 3, 4 }, "[::-1, ::2]")
    add("np.cumsum(a, axis=1)", dt, { 3, 4 }, ".T")
    add("np.max(a, axis=1)", dt, { 3, 4 }, "[:, ::-1]")
    add("np.median(a)", dt, { 3, 4 }, "[::2]")
    add("np.mean(a, 1)", dt, { 2, 3, 4 }, "[:, ::-1, 1:]")
  end
  return out
end

describe("the NumPy prelude", function()
  it("computes what NumPy computes: reductions with axis, cumsum, cumprod, ptp, median", function()
    if not oracle.available() then pending("python3 with NumPy is not installed") return end
    local cs = cases()
    local batch, compiled = {}, {}
    for i, c in ipairs(cs) do
      local vals = values_of(c.dt, count(c.shape), i)
      batch[i] = { inputs = { { name = "a", dtype = c.dt, shape = c.shape, values = vals, view = c.view } }, expr = c.expr }
      compiled[c.expr .. (c.view or "")] = compiled[c.expr .. (c.view or "")]
        or lumba.njit(("import numpy as np\ndef f(a):\n    return %s\n"):format(c.view and c.expr:gsub("%f[%w]a%f[^%w]", "a" .. c.view, 1) or c.expr))
      c.vals = vals
    end
    local want = oracle.eval_batch(batch)
    local bad = {}
    for i, c in ipairs(cs) do
      local w = want[i]
      local label = ("%s over %s %s%s"):format(c.expr, c.dt, table.concat(c.shape, "x"), c.view or "")
      local ok, got = pcall(compiled[c.expr .. (c.view or "")], make(c.dt, c.shape, c.vals))
      if w.error then
        if ok then bad[#bad + 1] = label .. ": NumPy raised " .. w.error .. ", lumba returned" end
      elseif not ok then
        bad[#bad + 1] = label .. ": " .. tostring(got)
      else
        local vals, shape = flat_of(got)
        if type(got) == "userdata" and got.dtype ~= w.dtype then
          bad[#bad + 1] = label .. ": dtype " .. got.dtype .. ", NumPy " .. w.dtype
        elseif type(got) ~= "userdata" and (math.type(got) == "float") ~= (w.dtype:match("float") ~= nil) then
          bad[#bad + 1] = label .. ": " .. math.type(got) .. " result, NumPy " .. w.dtype
        end
        if table.concat(shape, "x") ~= table.concat(w.shape, "x") then
          bad[#bad + 1] = label .. ": shape " .. table.concat(shape, "x") .. ", NumPy " .. table.concat(w.shape, "x")
        else
          local tol = (w.dtype == "float32") and 1e-5 or 1e-12
          for k = 1, #w.values do
            if not close(vals[k], w.values[k], tol) then
              bad[#bad + 1] = ("%s: [%d] = %s, NumPy %s"):format(label, k, tostring(vals[k]), tostring(w.values[k]))
              break
            end
          end
        end
      end
    end
    assert(#bad == 0, #bad .. " of " .. #cs .. " cases differ:\n" .. table.concat(bad, "\n"))
    assert.is_true(#cs >= 250)
  end)

  it("propagates NaN through max, min and median as NumPy does", function()
    local f = lumba.njit "import numpy as np\ndef f(a):\n    return np.max(a, axis=0), np.min(a, axis=1), np.median(a)\n"
    local nan = 0 / 0
    local mx, mn, med = f(lumba.array({ { 1.0, nan }, { 3.0, 2.0 } }))
    assert.are.equal(3.0, mx:get(1))
    assert.is_true(mx:get(2) ~= mx:get(2))
    assert.is_true(mn:get(1) ~= mn:get(1))
    assert.are.equal(2.0, mn:get(2))
    assert.is_true(med ~= med)
  end)

  it("reaches one def as a function and as a method, with keywords", function()
    local f = lumba.njit [[
import numpy as np
def f(a):
    return np.cumsum(a, axis=0), a.cumsum(0), np.cumsum(a=a, axis=1), a.sum(axis=1), np.sum(a, 1), a.sum()
]]
    local a = lumba.array({ { 1, 2 }, { 3, 4 } })
    local c1, c2, c3, s1, s2, s3 = f(a)
    assert.are.same({ { 1, 2 }, { 4, 6 } }, c1:totable())
    assert.are.same({ { 1, 2 }, { 4, 6 } }, c2:totable())
    assert.are.same({ { 1, 3 }, { 3, 7 } }, c3:totable())
    assert.are.same({ 3, 7 }, s1:totable())
    assert.are.same({ 3, 7 }, s2:totable())
    assert.are.equal(10, s3)
  end)

  it("rejects a constant axis out of range at compile time, at the user's axis", function()
    local f = lumba.njit({ chunkname = "user.py" }, "import numpy as np\ndef f(a):\n    return np.sum(a, axis=2)\n")
    local err = H.error_of(f, lumba.zeros({ 2, 2 }))
    assert.truthy(err:find("user.py:3:27: AxisError: np.sum(): axis 2 is out of bounds for array of dimension 2", 1, true), err)
    local g = lumba.njit({ chunkname = "user.py" }, "import numpy as np\ndef g(a):\n    return a.cumsum(axis=-3)\n")
    err = H.error_of(g, lumba.zeros({ 2, 2 }))
    assert.truthy(err:find("user.py:3:26: AxisError: ndarray.cumsum(): axis -3 is out of bounds for array of dimension 2", 1, true), err)
  end)

  it("raises AxisError at run time for a runtime axis out of range, and keeps working", function()
    local f = lumba.njit "import numpy as np\ndef f(a, k):\n    return np.cumsum(a, k), np.max(a, axis=k)\n"
    local a = lumba.array({ { 1, 2 }, { 3, 4 } })
    for _, k in ipairs { 2, -3, 100 } do
      local ok, e = pcall(f, a, k)
      assert.is_false(ok)
      assert.matches("AxisError: axis is out of bounds", e)
    end
    local c, m = f(a, -1)
    assert.are.same({ { 1, 3 }, { 3, 7 } }, c:totable())
    assert.are.same({ 2, 4 }, m:totable())
  end)

  it("reports a mistake inside the prelude at the user's call, naming the NumPy function", function()
    local f = lumba.njit({ chunkname = "user.py" }, "import numpy as np\ndef f(x):\n    y = 1\n    return np.cumsum(x)\n")
    local err = H.error_of(f, 2.5)
    assert.truthy(err:find("^user.py:4:12: TypingError: np.cumsum%(%): float64 has no attribute 'size' %(in lumba's prelude, line %d+%)"), err)
    assert.truthy(err:find("return np.cumsum(x)", 1, true), err)  -- the user's line is shown
    local g = lumba.njit({ chunkname = "user.py" }, "import numpy as np\ndef g(a):\n    return np.cumsum(a, axes=0)\n")
    err = H.error_of(g, lumba.zeros(3))
    assert.truthy(err:find("user.py:3:25: TypingError: np.cumsum() got an unexpected keyword argument 'axes'", 1, true), err)
    local h = lumba.njit "import numpy as np\ndef h(a):\n    return np.median(a, 0)\n"
    assert.truthy(H.error_of(h, lumba.zeros(3)):find("np.median() takes at most 1 positional argument (2 given)", 1, true))
  end)

  it("keeps _lumba and the prelude's helpers from user code", function()
    local f = lumba.njit "import _lumba\ndef f(a):\n    return _lumba.dim(a, 0)\n"
    assert.truthy(H.error_of(f, lumba.zeros(3)):find("NameError: name '_lumba' is not defined", 1, true))
    local g = lumba.njit "def g(a):\n    return _axis(0, 1)\n"
    assert.truthy(H.error_of(g, lumba.zeros(3)):find("NameError: name '_axis' is not defined", 1, true))
    -- and the user's names do not reach the prelude: a user's np or _axis changes nothing
    local h = lumba.njit "import numpy as np\ndef h(a):\n    return np.sum(a, axis=0)\ndef _axis(x, n):\n    return 99\n"
    assert.are.same({ 4, 6 }, h(lumba.array({ { 1, 2 }, { 3, 4 } })):totable())
  end)
end)

describe("compile-time branch pruning", function()
  it("types only the branch a compile-time test takes: ndim, is None, constants, not/and/or", function()
    local at = debug.getinfo(1, "l").currentline + 1  -- the string's line 1 is the line after its [[
    local f = lumba.njit [[
def f(a, k):
    return g(a), g(a, k)
N = 2
def g(a, k=None):
    if k is None:
        r = a.ndim * 10
    elif a.ndim == 1 and not (N < 1):
        r = k + a.shape[0]
    else:
        r = a.shape[5]
    if True or a.shape[7]:
        r += 1
    if False and a.shape[9] == 0:
        r = a.shape[8]
    return r
]]
    local x, y = f(lumba.zeros(3), 5)
    assert.are.equal(11, x)
    assert.are.equal(5 + 3 + 1, y)
    -- a 2-d array takes the else branch, which does not type: a.shape[5]
    local err = H.error_of(f, lumba.zeros({ 2, 2 }), 5)
    assert.truthy(err:find(("prelude_spec.lua:%d:21: IndexError: tuple index out of range"):format(at + 10), 1, true), err)
  end)

  it("lets a type differ between branches, one def serving every ndim", function()
    local f = lumba.njit [[
import numpy as np
def f(a):
    if a.ndim == 1:
        out = np.zeros(a.shape[0])
    else:
        out = np.zeros((a.shape[0], a.shape[1]))
    out.fill(1.0)
    return out.sum()
]]
    assert.are.equal(3.0, f(lumba.zeros(3)))
    assert.are.equal(6.0, f(lumba.zeros({ 2, 3 })))
  end)

  it("skips the code after a taken branch that returns", function()
    local f = lumba.njit [[
def f(x):
    return g(x), g(x, 4)
def g(x, y=None):
    if y is None:
        return x * 2
    return x + y
]]
    local a, b = f(3)
    assert.are.equal(6, a)
    assert.are.equal(7, b)
  end)

  it("leaves runtime tests alone, and refuses None where no default is None", function()
    local f = lumba.njit "def f(x):\n    if x > 1:\n        return 1\n    return 2\n"
    assert.are.equal(1, f(5))
    assert.are.equal(2, f(0))
    local g = lumba.njit "def g(x):\n    return k(x)\ndef k(x, y=None):\n    z = y is None\n    return x\n"
    assert.are.equal(1, g(1))  -- y is None of a None: True, as Numba
    local h = lumba.njit "def h(x):\n    return k(x, None)\ndef k(x, y):\n    return x\n"
    assert.truthy(H.error_of(h, 1):find("None cannot be passed to k()", 1, true))
  end)

  it("prunes inside prange loops in parallel code", function()
    local f = lumba.njit({ parallel = true }, [[
import numba
import numpy as np
def f(a, s):
    return g(a), g(a, s)
def g(a, scale=None):
    out = np.zeros(a.shape[0])
    for i in numba.prange(a.shape[0]):
        if scale is None:
            out[i] = a[i]
        else:
            out[i] = a[i] * scale
    return out
]])
    local x, y = f(lumba.array({ 1.0, 2.0, 3.0 }), 2.0)
    assert.are.same({ 1, 2, 3 }, x:totable())
    assert.are.same({ 2, 4, 6 }, y:totable())
  end)
end)

describe("the registry's prelude rows", function()
  it("name defs of the prelude, whose parameters take the rows' keywords", function()
    local parse = require("lumba.core").parse
    local defs = {}
    local files = {}
    for f in io.popen("ls src/prelude"):lines() do
      if f:match("%.py$") then files[#files + 1] = f end
    end
    for _, file in ipairs(files) do
      local m = parse(H.slurp("src/prelude/" .. file), file)
      for _, st in ipairs(m.body) do
        if st.tag == "FunctionDef" then
          local params = {}
          for i, a in ipairs(st.args.args) do params[i] = a.arg end
          defs[st.name] = params
        end
      end
    end
    local entries = require("lumba.core").builtins()
    local n = 0
    for _, e in ipairs(entries) do
      if e.impl then
        local params = assert(defs[e.impl], e.name .. ": no def " .. e.impl .. " in src/prelude")
        local set = {}
        for _, p in ipairs(params) do set[p] = true end
        for _, k in ipairs(e.keywords or {}) do assert.truthy(set[k], e.name .. ": keyword " .. k) end
        local self = e.kind == "method" and 1 or 0
        assert.is_true((e.hi or math.huge) + self <= #params, e.name)
        n = n + 1
      end
    end
    assert.is_true(n >= 17)
  end)
end)
