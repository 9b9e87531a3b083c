-- @stencil (lua/lumba/stencil.lua): kernels of Numba's documentation and
-- more (neighborhood=, cval=, standard_indexing=, several arrays, scalar
-- parameters) over dtypes and shapes, compared value by value and dtype by
-- dtype with Numba's own @stencil and with a NumPy reference written with
-- explicit loops (one python run, tests/numpy_batch.lua); compiled callers
-- with parallel=True; errors.
local lumba = require "lumba"
local batch = dofile("tests/numpy_batch.lua")

local KERNELS = [[
@stencil
def avg4(a):
    return 0.25 * (a[0, 1] + a[1, 0] + a[0, -1] + a[-1, 0])

@stencil(cval=5)
def diff1(a):
    return a[-1] - a[1]

@stencil(cval=-1.0, neighborhood=((-2, 0),))
def mean3(a):
    acc = 0.0
    for i in range(-2, 1):
        acc += a[i]
    return acc / 3

@stencil(standard_indexing=("w",))
def weighted(a, w):
    return a[-1] * w[0] + a[0] * w[1] + a[1] * w[2]

@stencil
def prod2(a, b):
    return a[0, 0] * b[1, 1] - a[0, 1]

@stencil
def scaled(a, k):
    return a[0, 1] * k
]]

local MODULE = "import numpy as np\nfrom numba import stencil, njit, prange\n" .. KERNELS .. [[

@njit(parallel=True)
def par_avg(a):
    return avg4(a)

@njit
def twice(a):
    return avg4(avg4(a))

@njit
def into(a, o):
    r = avg4(a, out=o)
    return r

@njit
def into_cval(a, o):
    return diff1(a, out=o)

@stencil('constant', cval=2.5)
def right(a):
    return a[0, 1]
]]

local PY = "if not hasattr(np, '_lumba_st'):\n    d = {}\n    exec(r'''from numba import stencil\n" .. KERNELS ..
  "''', d)\n    np._lumba_st = d\nS = np._lumba_st\n"

local PY_REF = [[
def ref_avg4(a):
    out = np.zeros(a.shape, dtype=np.result_type(a.dtype, np.float64))
    for i in range(1, a.shape[0] - 1):
        for j in range(1, a.shape[1] - 1):
            out[i, j] = 0.25 * (a[i, j + 1] + a[i + 1, j] + a[i, j - 1] + a[i - 1, j])
    return out
]]

local m = lumba.load(MODULE)

local H = require "helpers"
local flat = H.flat

local function close(want, got, dt)
  if want ~= want then return got ~= got end
  if not dt:match("^float") then return want == got end
  local tol = dt == "float32" and 1e-6 or 1e-14
  return math.abs(want - got) <= tol * math.max(1, math.abs(want), math.abs(got))
end

local function count(s)
  local n = 1
  for _, v in ipairs(s) do n = n * v end
  return n
end

local function vals(dt, n, rot)
  local t = {}
  for i = 1, n do
    local v = (i * 5 + rot) % 13 - 4
    t[i] = dt:match("^float") and v + 0.5 or dt:match("^u") and math.abs(v) or v
  end
  return t
end

local function arr(inp)
  return lumba.array(inp.values, inp.dtype):reshape(table.unpack(inp.shape))
end

describe("@stencil", function()
  it("matches Numba's stencils over dtypes and shapes, borders and dtypes included", function()
    if not batch.available then pending("no python3 with numpy") return end
    local cases, calls = {}, {}
    local function add(name, ins, py, extra)
      cases[#cases + 1] = { code = PY .. py, inputs = ins }
      calls[#calls + 1] = { name = name, ins = ins, extra = extra }
    end
    for d, dt in ipairs({ "float64", "int64", "uint8" }) do
      for k, sh in ipairs({ { 6, 7 }, { 1, 5 }, { 3, 3 }, { 2, 2 }, { 4, 1 } }) do
        local a = { name = "a", dtype = dt, shape = sh, values = vals(dt, count(sh), d + k) }
        local b = { name = "b", dtype = "float64", shape = sh, values = vals("float64", count(sh), k) }
        add("avg4", { a }, "r = S['avg4'](a)")
        add("prod2", { a, b }, "r = S['prod2'](a, b)")
        add("scaled", { a }, "r = S['scaled'](a, 3)", 3)
        if d == 1 then cases[#cases + 1] = { code = "import numpy as np\n" .. PY_REF .. "r = ref_avg4(a)", inputs = { a } }
          calls[#calls + 1] = { name = "avg4", ins = { a } } end
      end
      for k, n in ipairs({ 8, 3, 2, 1 }) do
        local a = { name = "a", dtype = dt, shape = { n }, values = vals(dt, n, d * k) }
        add("diff1", { a }, "r = S['diff1'](a)")
        add("mean3", { a }, "r = S['mean3'](a)")
        local w = { name = "w", dtype = "float64", shape = { 3 }, values = { 0.5, 2.0, -1.0 } }
        add("weighted", { a, w }, "r = S['weighted'](a, w)")
      end
    end
    local want = batch.run(cases)
    for i, c in ipairs(calls) do
      local w = want[i]
      local args = {}
      for j, inp in ipairs(c.ins) do args[j] = arr(inp) end
      if c.extra then args[#args + 1] = c.extra end
      local what = ("%s(%s %s)"):format(c.name, c.ins[1].dtype, table.concat(c.ins[1].shape, "x"))
      assert(not w.error, what .. ": " .. tostring(w.error))
      local ok, got = pcall(m[c.name], table.unpack(args))
      assert(ok, what .. ": " .. tostring(got))
      assert.equal(w.dtype, got.dtype, what)
      local gv = flat(got)
      assert.equal(#w.values, #gv, what)
      for j = 1, #gv do assert(close(w.values[j], gv[j], w.dtype), what .. " element " .. j) end
    end
  end)

  it("writes into out= from Lua and compiled code, cval only where given, as Numba", function()
    if not batch.available then pending("no python3 with numpy") return end
    local cases, runs = {}, {}
    local function add(code, ins, run)
      cases[#cases + 1] = { code = PY .. code, inputs = ins }
      runs[#runs + 1] = run
    end
    for _, dt in ipairs({ "float64", "int64" }) do
      for _, sh in ipairs({ { 5, 6 }, { 2, 3 }, { 1, 1 } }) do
        local a = { name = "a", dtype = dt, shape = sh, values = vals(dt, count(sh), 3) }
        local o = { name = "o", dtype = "float64", shape = sh, values = vals("float64", count(sh), 7) }
        add("S['avg4'](a, out=o)\nr = o", { a, o }, function(x, y) return m.avg4(x, { out = y }), y end)
        add("S['avg4'](a, out=o)\nr = o", { a, o }, function(x, y) return m.into(x, y), y end)
        local a1 = { name = "a", dtype = dt, shape = { sh[2] }, values = vals(dt, sh[2], 5) }
        local o1 = { name = "o", dtype = "float64", shape = { sh[2] }, values = vals("float64", sh[2], 1) }
        add("S['diff1'](a, out=o)\nr = o", { a1, o1 }, function(x, y) return m.diff1(x, { out = y }), y end)
        add("S['diff1'](a, out=o)\nr = o", { a1, o1 }, function(x, y) return m.into_cval(x, y), y end)
      end
    end
    local want = batch.run(cases)
    for i, run in ipairs(runs) do
      local ins = cases[i].inputs
      local x, y = arr(ins[1]), arr(ins[2])
      local ret, o = run(x, y)
      local w = want[i]
      assert(not w.error, tostring(w.error))
      local gv = flat(o)
      assert.same(gv, flat(ret))  -- out itself is returned: one buffer
      local first = o.ndim == 2 and o[1][1] or o[1]
      if o.ndim == 2 then ret[1][1] = first + 1 else ret[1] = first + 1 end
      assert.equal(first + 1, o.ndim == 2 and o[1][1] or o[1])
      for j = 1, #gv do assert(close(w.values[j], gv[j], w.dtype), ("case %d element %d"):format(i, j)) end
    end
    -- a bad out is an error naming the stencil; Lua's {out = } takes no other key
    local ok, err = pcall(m.avg4, lumba.zeros({ 3, 3 }), { out = lumba.zeros({ 3, 4 }) })
    assert.is_false(ok)
    assert.matches("stencil 'avg4': out must have the shape of the input array", err, 1, true)
    ok, err = pcall(m.avg4, lumba.zeros({ 3, 3 }), { out = lumba.zeros({ 3, 3 }), cval = 1 })
    assert.is_false(ok)
    assert.matches("stencil 'avg4': unknown option 'cval' (out)", err, 1, true)
  end)

  it("takes func_or_mode='constant' and has Numba's neighborhood attribute", function()
    assert.same({ { 2.0, 2.5 }, { 4.0, 2.5 } }, m.right(lumba.array({ { 1.0, 2.0 }, { 3.0, 4.0 } })):totable())
    -- Numba: ((-1, 1), (-1, 1)) inferred; ((-2, 0),) given; a[0, 1] alone: ((0, 0), (0, 1))
    assert.same({ { -1, 1 }, { -1, 1 } }, m.avg4.neighborhood)
    assert.same({ { -2, 0 } }, m.mean3.neighborhood)
    assert.same({ { 0, 0 }, { 0, 1 } }, m.right.neighborhood)
    local ok, err = pcall(lumba.load, "from numba import stencil\n@stencil('reflect')\ndef k(a):\n    return a[0]\n",
      { chunkname = "=mod.py" })
    assert.is_false(ok)
    assert.matches("mod.py:2:10: '@stencil' on 'k': unsupported mode style reflect", err, 1, true)
    ok, err = pcall(lumba.load, "from numba import stencil\n@stencil\ndef k(a, out):\n    return a[0]\n",
      { chunkname = "=mod.py" })
    assert.is_false(ok)
    assert.matches("stencil 'k': cannot use the reserved word 'out' in stencil kernels", err, 1, true)
  end)

  it("runs inside compiled callers, in parallel with parallel=True", function()
    local a = lumba.arange(64 * 64 * 1.0):reshape(64, 64)
    local want = flat(m.avg4(a))
    assert.same(want, flat(m.par_avg(a)))
    assert.matches("avg4%(%): prange loop at line %d+ runs in parallel on the thread pool", m.par_avg:parallel_diagnostics())
    local two = flat(m.twice(a))
    assert.same(flat(m.avg4(m.avg4(a))), two)
  end)

  it("works from Lua: lumba.stencil(opts)(src)", function()
    local s = lumba.stencil({ cval = 7 })([[
def s(a, b):
    return a[0] + a[1] * b
]])
    assert.same({ 2, 5, 8, 11, 7 }, s(lumba.arange(5), 2):totable())
    local plain = lumba.stencil([[
def lap(a):
    return a[-1] - 2 * a[0] + a[1]
]])
    assert.same({ 0, 2, 2, 0 }, plain(lumba.array({ 0, 0, 2, 6 })):totable())
  end)

  it("reports bad kernels and shapes with their source lines", function()
    local ok, err = pcall(lumba.load, [[
from numba import stencil
@stencil
def bad(a, k):
    return a[k]
]], { chunkname = "=mod.py" })
    assert.is_false(ok)
    assert.matches("mod.py:4:14: stencil 'bad': a relative index that is not a constant needs neighborhood=", err, 1, true)
    ok, err = pcall(lumba.load, [[
from numba import stencil
@stencil
def mixed(a):
    return a[0, 1] + a[1]
]], { chunkname = "=mod.py" })
    assert.is_false(ok)
    assert.matches("mod.py:4:22: stencil 'mixed': relative index with 1 dimensions, but another has 2", err, 1, true)
    ok, err = pcall(lumba.load, [[
from numba import stencil
@stencil(cval=1.0, shape=3)
def k(a):
    return a[0]
]], { chunkname = "=mod.py" })
    assert.is_false(ok)
    assert.matches("mod.py:2:20: unknown option 'shape' of '@stencil' on 'k'", err, 1, true)
    ok, err = pcall(m.avg4, lumba.zeros(5))
    assert.is_false(ok)
    assert.matches("stencil 'avg4': the array must have 2 dimensions", err, 1, true)
    ok, err = pcall(m.prod2, lumba.zeros({ 3, 3 }), lumba.zeros({ 3, 4 }))
    assert.is_false(ok)
    assert.matches("stencil 'prod2': the input arrays must have the same shape", err, 1, true)
  end)
end)
