-- @vectorize and @guvectorize (lua/lumba/vectorize.lua, src/infer_vectorize.c,
-- src/lower_vectorize.c): Numba's documentation examples, and ufunc calls
-- over dtypes, shapes and broadcasts compared value by value and dtype by
-- dtype with the same ufuncs built by Numba itself (one python run,
-- tests/numpy_batch.lua); compiled callers, reduce, out, errors.
local lumba = require "lumba"
local batch = dofile("tests/numpy_batch.lua")

local MODULE = [[
import math
import numpy as np
from numba import vectorize, guvectorize, njit, int64, float64

@vectorize(["int64(int64, int64)", "float64(float64, float64)"])
def f(x, y):
    return x + y

@vectorize(["float32(float32, float32)", "float64(float64, float64)"])
def h(x, y):
    return x * y - 1

@vectorize
def g(x, y):
    return x * y + 1

@vectorize(["float64(float64, float64)"], identity=0)
def fi(x, y):
    return x + y

@vectorize(["float64(float64, float64)"], target="parallel")
def hyp(x, y):
    return math.sqrt(x * x + y * y)

@guvectorize([(int64[:], int64, int64[:]), (float64[:], float64, float64[:])], '(n),()->(n)')
def addg(x, y, res):
    for i in range(x.shape[0]):
        res[i] = x[i] + y

@guvectorize(["void(float64[:, :], float64[:, :], float64[:, :])"], '(m,n),(n,p)->(m,p)', target="parallel")
def matmulg(a, b, out):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            s = 0.0
            for k in range(a.shape[1]):
                s += a[i, k] * b[k, j]
            out[i, j] = s

@njit
def use(a, b):
    return f(a, b) * 2 + g(a, 1.5)

@njit
def scalar_use(x):
    return f(x, 1) + h(2.0, x)
]]

local PY_UFUNCS = [[
import numba, math
if not hasattr(np, '_lumba_uf'):
    from numba import vectorize, guvectorize, int64, float64
    f = vectorize(["int64(int64, int64)", "float64(float64, float64)"])(lambda x, y: x + y)
    h = vectorize(["float32(float32, float32)", "float64(float64, float64)"])(lambda x, y: x * y - 1)
    g = vectorize(lambda x, y: x * y + 1)
    fi = vectorize(["float64(float64, float64)"], identity=0)(lambda x, y: x + y)
    def addg(x, y, res):
        for i in range(x.shape[0]):
            res[i] = x[i] + y
    addg = guvectorize([(int64[:], int64, int64[:]), (float64[:], float64, float64[:])], '(n),()->(n)')(addg)
    np._lumba_uf = dict(f=f, h=h, g=g, fi=fi, addg=addg)
U = np._lumba_uf
]]

local m = lumba.load(MODULE)

local H = require "helpers"
local flat = H.flat

local function close(want, got, dt)
  if want ~= want then return got ~= got end
  if math.type(want) == "integer" or not dt:match("^float") then return want == got end
  local tol = dt == "float32" and 1e-6 or 1e-14
  return math.abs(want - got) <= tol * math.max(1, math.abs(want), math.abs(got))
end

local DTYPES = { "bool", "int8", "int32", "int64", "uint8", "uint32", "float32", "float64" }
local SHAPES = { { { 5 }, { 5 } }, { { 2, 3 }, { 3 } }, { { 3, 1 }, { 4 } }, { { 2, 2, 2 }, { 2, 1, 2 } }, { { 0 }, { 1 } } }

local function vals(dt, n, rot)
  local t = {}
  for i = 1, n do
    local v = (i * 7 + rot) % 11 - 3
    if dt == "bool" then t[i] = v % 2 == 0
    elseif dt:match("^u") then t[i] = math.abs(v)
    elseif dt:match("^float") then t[i] = v + 0.25
    else t[i] = v end
  end
  return t
end

local function count(s)
  local n = 1
  for _, v in ipairs(s) do n = n * v end
  return n
end

local function arr(inp)
  local a = lumba.array(inp.values, inp.dtype)
  return #inp.shape == 1 and a:reshape(inp.shape[1]) or a:reshape(table.unpack(inp.shape))
end

describe("@vectorize", function()
  it("computes Numba's ufuncs over dtypes, shapes and broadcasts, with their dtypes", function()
    if not batch.available then pending("no python3 with numpy") return end
    local cases, calls = {}, {}
    for d, da in ipairs(DTYPES) do
      for k, sh in ipairs(SHAPES) do
        local db = DTYPES[(d * 3 + k) % #DTYPES + 1]
        for _, u in ipairs({ "f", "h", "g" }) do
          local ins = {
            { name = "a", dtype = da, shape = sh[1], values = vals(da, count(sh[1]), d) },
            { name = "b", dtype = db, shape = sh[2], values = vals(db, count(sh[2]), k) },
          }
          cases[#cases + 1] = { code = PY_UFUNCS .. ("r = U['%s'](a, b)"):format(u), inputs = ins }
          calls[#calls + 1] = { u = u, ins = ins }
        end
      end
      -- a Python scalar beside an array: it takes the array's kind (NumPy's rule)
      local ins = { { name = "a", dtype = da, shape = { 4 }, values = vals(da, 4, d) } }
      cases[#cases + 1] = { code = PY_UFUNCS .. "r = U['h'](a, 2.5)", inputs = ins }
      calls[#calls + 1] = { u = "h", ins = ins, scalar = 2.5 }
    end
    local want = batch.run(cases)
    for i, c in ipairs(calls) do
      local w = want[i]
      local what = ("%s(%s%s, %s)"):format(c.u, c.ins[1].dtype, "", c.scalar and tostring(c.scalar) or c.ins[2].dtype)
      local ok, got = pcall(m[c.u], arr(c.ins[1]), c.scalar or arr(c.ins[2]))
      if w.error then
        assert.is_false(ok, what .. ": NumPy raised " .. w.error)
        assert.matches("no loop", got, 1, true)
      else
        assert(ok, what .. ": " .. tostring(got))
        assert.equal(w.dtype, got.dtype, what)
        local gv = flat(got)
        assert.equal(#w.values, #gv, what)
        for j = 1, #gv do assert(close(w.values[j], gv[j], w.dtype), what .. " element " .. j) end
      end
    end
  end)

  it("has the DUFunc methods accumulate, outer, at and reduce with identity, as Numba's", function()
    if not batch.available then pending("no python3 with numpy") return end
    local cases, runs = {}, {}
    local function add(code, ins, run)
      cases[#cases + 1] = { code = PY_UFUNCS .. code, inputs = ins }
      runs[#runs + 1] = run
    end
    for d, dt in ipairs({ "float64", "int64", "float32", "int32", "uint8" }) do
      for k, sh in ipairs({ { 5 }, { 3, 4 }, { 2, 3, 2 }, { 0, 3 } }) do
        local a = { name = "a", dtype = dt, shape = sh, values = vals(dt, count(sh), d + k) }
        for axis = 0, #sh - 1 do
          for _, u in ipairs({ "f", "h", "fi" }) do
            add(("r = U['%s'].accumulate(a, axis=%d)"):format(u, axis), { a },
              function(x) return m[u]:accumulate(x, axis) end)
            add(("r = U['%s'].reduce(a, axis=%d)"):format(u, axis), { a },
              function(x) return m[u]:reduce(x, axis) end)
          end
        end
        local b = { name = "b", dtype = "float64", shape = { 2 }, values = { 0.5, -2.0 } }
        add("r = U['f'].outer(a, b)", { a, b }, function(x, y) return m.f:outer(x, y) end)
        add("r = U['h'].outer(b, a)", { a, b }, function(x, y) return m.h:outer(y, x) end)
      end
      local a = { name = "a", dtype = dt, shape = { 6 }, values = vals(dt, 6, d) }
      local i = { name = "i", dtype = "int64", shape = { 5 }, values = { 0, 0, 3, -1, 5 } }
      local v = { name = "v", dtype = dt, shape = { 5 }, values = vals(dt, 5, d + 2) }
      add("U['f'].at(a, i, v)\nr = a", { a, i, v }, function(x, y, z) m.f:at(x, y, z) return x end)
      -- (uint8: a negative float result stored into unsigned elements gives 0 where NumPy wraps, a known
      -- difference of lumba's float-to-unsigned stores)
      if dt ~= "uint8" then add("U['h'].at(a, i, 2)\nr = a", { a, i }, function(x, y) m.h:at(x, y, 2) return x end) end
    end
    local want = batch.run(cases)
    for n, run in ipairs(runs) do
      local ins, w = cases[n].inputs, want[n]
      local args = {}
      for j, inp in ipairs(ins) do args[j] = arr(inp) end
      local what = cases[n].code:match("r = [^\n]*$") .. " on " .. ins[1].dtype .. " " .. table.concat(ins[1].shape, "x")
      what = cases[n].code:match("\n([^\n]*)\n?r = a$") or what
      local ok, got = pcall(run, table.unpack(args))
      if w.error then
        assert.is_false(ok, what .. ": Numba raised " .. w.error)
      else
        assert(ok, what .. ": " .. tostring(got))
        if type(got) == "number" then
          assert.same({}, w.shape, what)
          assert(close(w.values[1], got, w.dtype), what)
        else
          assert.equal(w.dtype, got.dtype, what)
          assert.same(w.shape, got.shape, what)
          local gv = flat(got)
          for j = 1, #gv do assert(close(w.values[j], gv[j], w.dtype), what .. " element " .. j) end
        end
      end
    end
    assert.equal(0, m.fi.identity)
    assert.is_nil(m.f.identity)
  end)

  it("runs the example of Numba's documentation", function()
    if not batch.available then pending("no python3 with numpy") return end
    local doc = lumba.load [[
from numba import vectorize, int32, int64, float32, float64
import numpy as np

@vectorize([int32(int32, int32),
            int64(int64, int64),
            float32(float32, float32),
            float64(float64, float64)])
def f(x, y):
    return x + y
]]
    local a6, l6, a12 = lumba.arange(6), lumba.linspace(0, 1, 6), lumba.arange(12):reshape(3, 4)
    local got = { doc.f(a6, a6), doc.f(l6, l6), doc.f:reduce(a12, 0), doc.f:reduce(a12, 1),
      doc.f(lumba.array({ 1, 2 }, "int32"), lumba.array({ 3, 4 }, "int16")),
      doc.f(lumba.array({ 1.5 }, "float32"), 2) }
    local want = batch.run({
      { expr = "np.add(np.arange(6), np.arange(6))", inputs = {} },
      { expr = "np.add(np.linspace(0, 1, 6), np.linspace(0, 1, 6))", inputs = {} },
      { expr = "np.add.reduce(np.arange(12).reshape(3, 4), axis=0)", inputs = {} },
      { expr = "np.add.reduce(np.arange(12).reshape(3, 4), axis=1)", inputs = {} },
      { expr = "np.add(np.array([1, 2], np.int32), np.array([3, 4], np.int16))", inputs = {} },
      { expr = "np.add(np.array([1.5], np.float32), 2)", inputs = {} },
    })
    for i, w in ipairs(want) do
      assert.equal(w.dtype, got[i].dtype, "case " .. i)
      local gv = flat(got[i])
      for j = 1, #gv do assert(close(w.values[j], gv[j], w.dtype), "case " .. i .. " element " .. j) end
    end
  end)

  it("returns numbers for numbers: a Lua integer for an integer loop", function()
    assert.equal(3, m.f(1, 2))
    assert.equal("integer", math.type(m.f(1, 2)))
    assert.equal(3.5, m.f(1.5, 2))
    assert.equal("float", math.type(m.f(1.5, 2)))
  end)

  it("takes Lua tables, writes into out, reduces", function()
    local r = m.f({ 1, 2, 3 }, { { 10 }, { 20 } })
    assert.same({ { 11, 12, 13 }, { 21, 22, 23 } }, r:totable())
    local out = lumba.zeros({ 2, 3 })
    local a = lumba.arange(6):reshape(2, 3)
    assert.equal(out, m.f(a, a, out))
    assert.same({ { 0.0, 2.0, 4.0 }, { 6.0, 8.0, 10.0 } }, out:totable())
    assert.equal(45, m.f:reduce(lumba.arange(10)))
    assert.equal(7, m.f:reduce({ 7 }))
    assert.same({ 3, 5, 7 }, m.f:reduce(a):totable())
    assert.same({ 3, 12 }, m.f:reduce(a, 1):totable())
    assert.same({ 3, 12 }, m.f:reduce(a, -1):totable())
    assert.has_error(function() m.f:reduce(lumba.zeros(0)) end,
      "zero-size array to reduction operation f which has no identity")
  end)

  it("is called by compiled functions of its module, on arrays and numbers", function()
    local a = lumba.arange(6):reshape(2, 3)
    local r = m.use(a, a)
    assert.equal("float64", r.dtype)
    for i, v in ipairs(flat(r)) do
      local x = i - 1
      assert.equal((x + x) * 2 + (x * 1.5 + 1), v)
    end
    assert.equal(3 + (2.0 * 2 - 1), m.scalar_use(2))
  end)

  it("runs the parallel target with NumPy's broadcasting", function()
    local a = lumba.linspace(0, 1, 1000):reshape(10, 100)
    local r = m.hyp(a, 2)
    assert.equal("float64", r.dtype)
    local ra, rr = flat(a), flat(r)
    for i = 1, #ra do assert(math.abs(rr[i] - math.sqrt(ra[i] ^ 2 + 4)) < 1e-12) end
    local row = m.hyp(lumba.array({ 3.0 }), lumba.array({ { 4.0 }, { 0.0 } }))
    assert.same({ { 5.0 }, { 3.0 } }, row:totable())
  end)

  it("works from Lua: lumba.vectorize(sigs)(src) and the lazy form", function()
    local u = lumba.vectorize({ "int32(int32, int32)", "float64(float64, float64)" })([[
def rel(x, y):
    return 2 * x - y
]])
    local r = u(lumba.array({ 1, 2 }, "int16"), lumba.array({ 1, 1 }, "int8"))
    assert.equal("int32", r.dtype)
    assert.same({ 1, 3 }, r:totable())
    assert.equal("float64", u(lumba.array({ 1.0 }), 1).dtype)
    local lazy = lumba.vectorize([[
def sq(x):
    return x * x
]])
    assert.equal("float32", lazy(lumba.array({ 1.5 }, "float32")).dtype)
    assert.equal(9, lazy(3))
    assert.equal("integer", math.type(lazy(3)))
    assert.equal("float32", lazy(lumba.array({ 2 }, "int8")).dtype)  -- the float32 loop fits int8 (Numba's DUFunc)
  end)

  it("reports no loop, bad signatures and the cuda target clearly", function()
    local i32 = lumba.vectorize({ "int32(int32, int32)" }, {})([[
def i32(x, y):
    return x - y
]])
    local ok, err = pcall(function() local r = i32(lumba.array({ 1.5 }), 1) return r end)
    assert.is_false(ok)
    assert.matches("^[^\n]*vectorize_spec.lua:%d+: ufunc 'i32' has no loop for the input types %(float64%[[:1]+%], int64%) under "
      .. "NumPy's safe casting %(its loops: int32%(int32, int32%)%)$", err)
    ok, err = pcall(lumba.load, [[
from numba import vectorize
@vectorize(["float64(float64)"])
def two(x, y):
    return x + y
]], { chunkname = "=mod.py" })
    assert.is_false(ok)
    assert.matches("mod.py:2:2: the signature 'float64(float64)' of ufunc 'two' has 1 arguments but 'two' takes 2", err, 1, true)
    ok, err = pcall(lumba.load, [[
from numba import vectorize
@vectorize(target="cuda")
def c(x):
    return x
]], { chunkname = "=mod.py" })
    assert.is_false(ok)
    assert.matches("mod.py:2:2: ufunc 'c': target 'cuda' needs a list of signatures, as numba-cuda's", err, 1, true)
    ok, err = pcall(lumba.load, [[
from numba import vectorize
@vectorize(["float64(float64)"], target="gpu")
def c(x):
    return x
]], { chunkname = "=mod.py" })
    assert.is_false(ok)
    assert.matches("mod.py:2:41: unknown target 'gpu'", err, 1, true)
    ok, err = pcall(lumba.load, [[
from numba import vectorize
@vectorize(["float64(flot64)"])
def c(x):
    return x
]], { chunkname = "=mod.py" })
    assert.is_false(ok)
    assert.equal("mod.py:2:2: ufunc 'c': bad signature: unknown type 'flot64'", err)
    ok, err = pcall(lumba.load, [[
from numba import vectorize
@vectorize(["float64(float64"])
def c(x):
    return x
]], { chunkname = "=mod.py" })
    assert.is_false(ok)
    assert.equal("mod.py:2:2: ufunc 'c': bad signature: expected ',' or ')' in 'float64(float64'", err)
    ok, err = pcall(lumba.load, [[
from numba import vectorize
@vectorize(["float64(float64)"])
def c(x):
    return x + nothing
]], { chunkname = "=mod.py" })
    assert.is_false(ok)
    assert.matches("^mod.py:4:16: NameError: name 'nothing' is not defined\n        return x %+ nothing", err)
    assert.has_error(function() m.f(1) end, "ufunc 'f' takes 2 arguments (and an optional output array), got 1")
  end)
end)

describe("@guvectorize", function()
  it("matches Numba's gufunc over layouts and broadcast loop dimensions", function()
    if not batch.available then pending("no python3 with numpy") return end
    local cases, calls = {}, {}
    for _, c in ipairs({
      { { 5 }, "int64", {}, "int64" }, { { 2, 3 }, "int64", {}, "int64" }, { { 2, 3 }, "int64", { 2 }, "int64" },
      { { 4, 2, 3 }, "float64", { 4, 1 }, "float64" }, { { 3 }, "int32", {}, "int64" }, { { 2, 3 }, "float32", { 1 }, "float64" },
    }) do
      local ins = {
        { name = "a", dtype = c[2], shape = c[1], values = vals(c[2], count(c[1]), 1) },
        { name = "w", dtype = c[4], shape = #c[3] > 0 and c[3] or { 1 }, values = vals(c[4], count(c[3]), 2) },
      }
      local wexpr = #c[3] > 0 and "w" or "w[0]"
      cases[#cases + 1] = { code = PY_UFUNCS .. ("r = U['addg'](a, %s)"):format(wexpr), inputs = ins }
      calls[#calls + 1] = { ins = ins, scalar = #c[3] == 0 }
    end
    local want = batch.run(cases)
    for i, c in ipairs(calls) do
      local w = want[i]
      local wv = c.scalar and c.ins[2].values[1] or arr(c.ins[2])
      local ok, got = pcall(m.addg, arr(c.ins[1]), wv)
      assert(not w.error, w.error)
      assert(ok, tostring(got))
      assert.equal(w.dtype, got.dtype)
      assert.same(w.values, flat(got))
    end
  end)

  it("has scalar outputs '(n)->()' as Numba's (a 1-element array in the signature)", function()
    local s = lumba.load [[
import numba as nb
@nb.guvectorize(["void(float64[:], float64[:])"], "(n)->()")
def total(x, out):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
    out[0] = s
]]
    assert.same({ 3.0, 12.0 }, s.total(lumba.arange(6.0):reshape(2, 3)):totable())
    assert.equal(6.0, s.total(lumba.arange(4.0)))
    local o = lumba.zeros(2)
    s.total(lumba.ones({ 2, 5 }), o)
    assert.same({ 5.0, 5.0 }, o:totable())
  end)

  it("writes into out, allocates with core dimensions, runs the parallel target", function()
    local a = lumba.arange(6):reshape(2, 3)
    local out = lumba.zeros({ 2, 3 }, "int64")
    m.addg(a, 5, out)
    assert.same({ { 5, 6, 7 }, { 8, 9, 10 } }, out:totable())
    local x = lumba.arange(2 * 2 * 3 * 1.0):reshape(2, 2, 3)
    local y = lumba.arange(3 * 2 * 1.0):reshape(3, 2)
    local r = m.matmulg(x, y)
    assert.same({ 2, 2, 2 }, { r.shape[1], r.shape[2], r.shape[3] })
    local xt, yt, rt = x:totable(), y:totable(), r:totable()
    for b = 1, 2 do
      for i = 1, 2 do
        for j = 1, 2 do
          local s = 0.0
          for k = 1, 3 do s = s + xt[b][i][k] * yt[k][j] end
          assert.equal(s, rt[b][i][j])
        end
      end
    end
  end)

  it("reports layouts and core dimensions clearly", function()
    local ok, err = pcall(m.addg, lumba.arange(6):reshape(2, 3), 2, lumba.zeros({ 2, 4 }, "int64"))
    assert.is_false(ok)
    assert.matches("gufunc 'addg': core dimension 'n' of argument 3 is 4, expected 3 (layout '(n),()->(n)')", err, 1, true)
    ok, err = pcall(m.addg, lumba.zeros({ 4, 2, 3 }), lumba.zeros({ 2, 1 }))
    assert.is_false(ok)
    assert.matches("gufunc 'addg': operands could not be broadcast together", err, 1, true)
    ok, err = pcall(lumba.load, [[
from numba import guvectorize
@guvectorize(["void(float64[:], float64[:])"], '(n)>(n)')
def bad(x, y):
    y[0] = x[0]
]], { chunkname = "=mod.py" })
    assert.is_false(ok)
    assert.matches("mod.py:2:2: bad layout '(n)>(n)' of gufunc 'bad'", err, 1, true)
    ok, err = pcall(lumba.load, [[
from numba import guvectorize
@guvectorize(["void(float64[:, :], float64[:])"], '(n),()->(n)')
def bad(x, w, y):
    y[0] = x[0]
]], { chunkname = "=mod.py" })
    assert.is_false(ok)
    assert.matches("must list 3 types", err, 1, true)
    ok, err = pcall(lumba.load, [[
from numba import guvectorize
@guvectorize(["void(float64[:, :], float64, float64[:])"], '(n),()->(n)')
def bad(x, w, y):
    y[0] = x[0]
]], { chunkname = "=mod.py" })
    assert.is_false(ok)
    assert.matches("argument 1 of the signature 'void(float64[:, :], float64, float64[:])' has 2 dimensions but the layout", err, 1, true)
  end)
end)
