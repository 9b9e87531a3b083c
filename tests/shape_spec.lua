-- Shapes, views, copies, joins and splits in compiled code (issue 18 item 6),
-- against NumPy itself (tests/numpy_batch.lua: every case in one python
-- run) over dtypes, 0-d to 4-D, views, negative strides and empty arrays;
-- and by hand: views share their base's memory, copies do not, Numba's
-- rule for reshape, errors with NumPy's texts.
local lumba = require "lumba"
local H = require "helpers"
local batch = dofile("tests/numpy_batch.lua")

local DTYPES = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"}

-- deterministic values of each kind: negatives for signed and floats, small for unsigned
local function value(dt, i)
  if dt == "bool" then return i % 3 == 0 end
  if dt:match("^uint") then return (i * 7) % 11 end
  if dt:match("^float") then return ((i * 7) % 11) - 3.5 end
  return ((i * 7) % 11) - 3
end

local function input(name, dt, shape, seed)
  local n = 1
  for _, d in ipairs(shape) do n = n * d end
  local vals = {}
  for i = 1, n do vals[i] = value(dt, i + seed) end
  local arr
  if #shape == 0 then arr = lumba.array(vals[1], dt)
  elseif n == 0 then arr = lumba.zeros(shape, dt)
  else arr = lumba.array(vals, dt):reshape(shape) end
  return {name = name, dtype = dt, shape = shape, values = vals}, arr
end

local flat = H.flat

local function shape_of(a)
  local s = {}
  for k = 1, a.ndim do s[k] = a.shape[k] end
  return s
end

-- the cases: a Python expression over a (and b), the inputs' shapes, and the
-- dtypes to run (all of them, or three chosen by the case's index)
local CASES = {
  -- reshape, ravel, flatten
  {"a.reshape(3, 4)", {{12}}},
  {"a.reshape((2, -1, 3))", {{2, 6}}},
  {"np.reshape(a, -1)", {{2, 3, 2}}},
  {"np.reshape(a, (2, 1, 3, 2))", {{3, 4}}},
  {"a.reshape(())", {{1, 1}}},
  {"a.reshape(0, 5)", {{0}}},
  {"a.reshape(4)", {{2, 3}}},
  {"a.reshape(4, -1)", {{2, 3}}},
  {"a.reshape(-1, -1)", {{2, 3}}},
  {"a[::2].reshape(2, 3)", {{2, 6}}},
  {"a.ravel()", {{2, 3, 2}}, all = true},
  {"a.T.ravel()", {{3, 4}}},
  {"a[::-1].flatten()", {{3, 2}}},
  {"np.ravel(a[:, ::2])", {{3, 4}}},
  {"a.flatten()", {{}}},
  -- permutations of the axes
  {"a.transpose(1, 0, 2)", {{2, 3, 4}}, all = true},
  {"np.transpose(a, axes=(2, 0, 1))", {{2, 3, 4}}},
  {"a.transpose((1, 0))", {{2, 3}}},
  {"np.transpose(a)", {{2, 3, 4}}},
  {"a.transpose(3, 1, -2, 0)", {{2, 1, 3, 2}}},
  {"np.swapaxes(a, 0, 2)", {{2, 3, 4}}},
  {"a.swapaxes(-1, 0)", {{2, 3}}},
  {"np.moveaxis(a, 0, -1)", {{2, 3, 4}}},
  {"np.moveaxis(a, 2, 0)", {{2, 3, 4}}},
  -- length-1 axes
  {"np.expand_dims(a, 0)", {{3}}},
  {"np.expand_dims(a, -1)", {{2, 3}}},
  {"np.expand_dims(a, 1)", {{2, 3}}},
  {"np.expand_dims(a, 0)", {{}}},
  {"np.squeeze(a, axis=1)", {{3, 1, 2}}},
  {"a.squeeze(0)", {{1, 4}}},
  {"np.squeeze(a, -1)", {{2, 1}}},
  {"np.squeeze(a, axis=0)", {{2, 3}}},
  {"np.atleast_1d(a)", {{}}},
  {"np.atleast_2d(a)", {{3}}},
  {"np.atleast_2d(a)", {{2, 3, 4}}},
  {"np.atleast_3d(a)", {{3}}},
  {"np.atleast_3d(a)", {{2, 3}}},
  {"np.atleast_3d(a)", {{}}},
  -- broadcast_to
  {"np.broadcast_to(a, (4, 2, 3))", {{2, 3}}},
  {"np.broadcast_to(a, (3, 4))", {{4}}},
  {"np.broadcast_to(a, (2, 3, 4))", {{3, 1}}},
  {"np.broadcast_to(a, 5)", {{1}}},
  {"np.broadcast_to(a, (4, 2, 2))", {{2, 3}}},
  -- flips: negative strides
  {"np.flip(a)", {{2, 3, 4}}, all = true},
  {"np.flip(a, axis=1)", {{2, 3}}},
  {"np.flip(a, 0)", {{0, 3}}},
  {"np.fliplr(a)", {{2, 3}}},
  {"np.flipud(a[::2])", {{4, 3}}},
  {"np.flipud(np.fliplr(a))[1:]", {{3, 2}}},
  -- copies
  {"np.copy(a.T)", {{2, 3}}},
  {"a[::-1].copy()", {{4}}},
  {"a.astype(np.float32)", {{2, 3}}, all = true},
  {"a.astype(np.int16)", {{2, 3}}, all = true},
  {"a.astype('uint8')", {{5}}, dts = {"int8", "int64", "bool"}},  -- NumPy leaves negative floats to the platform
  {"a.astype(float)", {{5}}},
  {"a.astype(bool)", {{5}}},
  -- concatenate: promotion between the dtypes of a and b
  {"np.concatenate((a, b))", {{2, 3}, {1, 3}}, all = true},
  {"np.concatenate([a, b], axis=1)", {{2, 3}, {2, 1}}, all = true},
  {"np.concatenate((a, b), axis=None)", {{2, 2}, {3}}},
  {"np.concatenate((a, b, a), axis=-1)", {{2, 2}, {2, 3}}},
  {"np.concatenate((a.T, b[::-1]))", {{2, 3}, {2, 2}}},
  {"np.concatenate((a, b))", {{0, 3}, {2, 3}}},
  {"np.concatenate((a, b), axis=2)", {{1, 2, 3}, {1, 2, 1}}},
  {"np.concatenate((a, b), axis=1)", {{2, 1, 2, 2}, {2, 3, 2, 2}}},
  {"np.concatenate((a, b))", {{2, 3}, {2, 2}}},
  {"np.concatenate((a, b), axis=1)", {{2, 3, 4}, {2, 1, 5}}},
  -- stacks and append
  {"np.stack((a, b))", {{2, 3}, {2, 3}}},
  {"np.stack((a, b), axis=-1)", {{2, 3}, {2, 3}}},
  {"np.stack([a, b, a], axis=1)", {{3}, {3}}},
  {"np.stack((a, b))", {{2, 3}, {3, 2}}},
  {"np.hstack((a, b))", {{3}, {2}}},
  {"np.hstack((a, b))", {{2, 3}, {2, 1}}},
  {"np.hstack((a, b))", {{}, {2}}},
  {"np.vstack((a, b))", {{3}, {3}}},
  {"np.vstack((a, b))", {{2, 3}, {1, 3}}},
  {"np.dstack((a, b))", {{2, 3}, {2, 3}}},
  {"np.dstack((a, b))", {{3}, {3}}},
  {"np.column_stack((a, b))", {{3}, {3}}},
  {"np.column_stack((a, b))", {{3}, {3, 2}}},
  {"np.append(a, b)", {{2, 3}, {2}}},
  {"np.append(a, b, axis=0)", {{2, 3}, {1, 3}}},
  -- splits: tuples of views
  {"np.split(a, 2)", {{4, 3}}},
  {"np.split(a, 3, axis=1)", {{2, 3}}},
  {"np.split(a, (1, 3))", {{5}}},
  {"np.split(a, [2, -2, 100])", {{7}}},
  {"np.split(a[::-1], [1], axis=-1)", {{2, 3}}},
  {"np.array_split(a, 3)", {{7}}},
  {"np.array_split(a, 4, axis=1)", {{2, 3}}},
  {"np.split(a, 3)", {{4}}},
  -- roll, repeat, tile, diff
  {"np.roll(a, 2)", {{5}}, all = true},
  {"np.roll(a, -7)", {{5}}},
  {"np.roll(a, 1)", {{2, 3}}},
  {"np.roll(a.T, 4)", {{2, 3}}},
  {"np.roll(a, 1, axis=0)", {{3, 2}}},
  {"np.roll(a, -1, axis=1)", {{2, 3}}},
  {"np.roll(a, 5, axis=-1)", {{2, 2, 3}}},
  {"np.roll(a, 3)", {{0}}},
  {"np.repeat(a, 3)", {{2, 2}}, all = true},
  {"np.repeat(a[::-1], 2, axis=1)", {{2, 3}}},
  {"np.repeat(a, 0)", {{3}}},
  {"np.tile(a, 3)", {{2}}},
  {"np.tile(a, 2)", {{2, 3}}},
  {"np.diff(a)", {{5}}, all = true},
  {"np.diff(a, 2)", {{6}}},
  {"np.diff(a, axis=0)", {{3, 2}}},
  {"np.diff(a, n=2, axis=1)", {{2, 4}}},
  {"np.diff(a)", {{1}}},
  {"np.diff(a[:, ::-1])", {{2, 3}}},
}

-- the function's source for a case: def f(a[, b]): return expr
local function source(c)
  local params = #c[2] == 2 and "a, b" or "a"
  return ("import numpy as np\ndef f(%s):\n    return %s\n"):format(params, c[1])
end

-- every run of every case, compiled and called; the oracle's answers in one batch
local runs
local function all_runs()
  if runs then return runs end
  runs = {}
  local cases = {}
  for ci, c in ipairs(CASES) do
    local dts = {}
    if c.all then dts = DTYPES
    elseif c.dts then dts = c.dts
    else for k = 0, 2 do dts[#dts + 1] = DTYPES[(ci * 5 + k * 4) % #DTYPES + 1] end end
    local f = lumba.njit(source(c))
    for di, dt in ipairs(dts) do
      local specs, args = {}, {}
      for k, sh in ipairs(c[2]) do
        local d = k == 1 and dt or DTYPES[(di * 3 + ci) % #DTYPES + 1]
        specs[k], args[k] = input(k == 1 and "a" or "b", d, sh, k * 5)
      end
      local got = table.pack(pcall(f, table.unpack(args)))
      runs[#runs + 1] = {case = ci, specs = specs, got = got}
      cases[#cases + 1] = {inputs = specs, expr = c[1]}
    end
  end
  local want = batch.run(cases)
  for i, r in ipairs(runs) do r.want = want[i] end
  return runs
end

local function same_array(label, got, want)
  assert(type(got) == "userdata", label .. ": expected an array, got " .. tostring(got))
  assert(got.dtype == want.dtype, ("%s: dtype %s, NumPy %s"):format(label, got.dtype, want.dtype))
  assert.are.same(want.shape, shape_of(got), label)
  local g = flat(got)
  for i = 1, #want.values do
    local x, y = g[i], want.values[i]
    if not (x == y or (x ~= x and y ~= y)) then
      error(("%s: element %d is %s, NumPy %s"):format(label, i, tostring(x), tostring(y)))
    end
  end
  assert.are.equal(#want.values, #g, label)
end

describe("shapes, views and joins against NumPy", function()
  for ci, c in ipairs(CASES) do
    it(("%s over %s"):format(c[1], table.concat((function()
      local t = {}
      for k, s in ipairs(c[2]) do t[k] = "(" .. table.concat(s, ",") .. ")" end
      return t
    end)(), " and ")), function()
      if not batch.available() then pending("python3 with NumPy is not installed") return end
      for _, r in ipairs(all_runs()) do
        if r.case == ci then
          local label = c[1] .. " with " .. r.specs[1].dtype .. (r.specs[2] and (" and " .. r.specs[2].dtype) or "")
          if r.want.error then
            assert(not r.got[1], label .. ": NumPy raises " .. r.want.error .. ", lumba returned")
            assert.are.equal(r.want.error, H.message(r.got[2]), label)
          else
            assert(r.got[1], label .. ": " .. tostring(r.got[2]))
            if not r.want.dtype then  -- a tuple or list of arrays
              assert.are.equal(#r.want, r.got.n - 1, label)
              for k, w in ipairs(r.want) do same_array(label .. " piece " .. k, r.got[k + 1], w) end
            else
              same_array(label, r.got[2], r.want)
            end
          end
        end
      end
    end)
  end
end)

describe("views share their base's memory", function()
  local function base() return lumba.arange(6):reshape(2, 3) end
  local writes = {
    {"v = a.reshape(3, 2)", "v[2, 1] = 99", 2, 3},
    {"v = a.ravel()", "v[5] = 99", 2, 3},
    {"v = a.transpose(1, 0)", "v[2, 1] = 99", 2, 3},
    {"v = np.swapaxes(a, 0, 1)", "v[0, 1] = 99", 2, 1},
    {"v = np.flip(a)", "v[0, 0] = 99", 2, 3},
    {"v = np.fliplr(a)", "v[1, 2] = 99", 2, 1},
    {"v = np.expand_dims(a, 1)", "v[1, 0, 2] = 99", 2, 3},
    {"v = np.atleast_3d(a)", "v[0, 1, 0] = 99", 1, 2},
    {"v = np.squeeze(np.expand_dims(a, 0), 0)", "v[1, 1] = 99", 2, 2},
    {"v = np.split(a, 3, axis=1)[2]", "v[0, 0] = 99", 1, 3},
    {"v = np.array_split(a, 2)[1]", "v[0, 0] = 99", 2, 1},
  }
  for _, w in ipairs(writes) do
    it(w[1] .. "; " .. w[2] .. " is seen in a", function()
      local f = lumba.njit(("import numpy as np\ndef f(a):\n    %s\n    %s\n    return a\n"):format(w[1], w[2]))
      local a = base()
      local r = f(a)
      assert.are.equal(99, r:get(w[3], w[4]))
      assert.are.equal(99, a:get(w[3], w[4]))  -- the caller's array itself
    end)
  end

  it("a view returned to Lua writes into the caller's array", function()
    local f = lumba.njit "import numpy as np\ndef f(a):\n    return np.flip(a.reshape(3, 2), axis=0)\n"
    local a = base()
    local v = f(a)
    assert.are.same({{4, 5}, {2, 3}, {0, 1}}, v:totable())
    v:set(1, 1, -7)
    assert.are.equal(-7, a:get(2, 2))
  end)

  local copies = {
    "v = a.flatten()", "v = a.T.ravel()", "v = a.copy()", "v = np.copy(a)", "v = a.astype(np.int64)",
    "v = np.concatenate((a, a))", "v = np.roll(a, 0)", "v = np.repeat(a, 1)", "v = np.diff(a, 0).copy()",
  }
  for _, c in ipairs(copies) do
    it(c .. " is a copy: a write to it leaves a alone", function()
      local f = lumba.njit(("import numpy as np\ndef f(a):\n    %s\n    v[0] = 99\n    return a\n"):format(c))
      local a = base()
      assert.are.same({{0, 1, 2}, {3, 4, 5}}, f(a):totable())
    end)
  end

  it("np.diff(a, 0) is a itself, as NumPy's", function()
    local f = lumba.njit "import numpy as np\ndef f(a):\n    v = np.diff(a, 0)\n    v[0] = 9\n    return a\n"
    assert.are.same({9, 1, 2}, f(lumba.arange(3)):totable())
  end)
end)

describe("Numba's rules and errors", function()
  it("reshape of a non-contiguous array raises NotImplementedError, as Numba", function()
    local f = lumba.njit "def f(a):\n    return a.T.reshape(6)\n"
    assert.are.equal("NotImplementedError: incompatible shape for array", H.message_of(f, lumba.arange(6):reshape(2, 3)))
    -- an 'A' array that is contiguous after all reshapes fine
    local g = lumba.njit "def g(a):\n    return a[1:].reshape(2, 2)\n"
    assert.are.same({{1, 2}, {3, 4}}, g(lumba.arange(5)):totable())
  end)

  it("reshape takes run-time dimensions and names them in its error", function()
    local f = lumba.njit "def f(a, n, m):\n    return a.reshape(n, m)\n"
    assert.are.same({{0, 1, 2}, {3, 4, 5}}, f(lumba.arange(6), 2, 3):totable())
    assert.are.same({{0, 1}, {2, 3}, {4, 5}}, f(lumba.arange(6), -1, 2):totable())
    assert.are.equal("ValueError: cannot reshape array of size 6 into shape (4,2)", H.message_of(f, lumba.arange(6), 4, 2))
    assert.are.equal("ValueError: cannot reshape array of size 6 into shape (newaxis,4)", H.message_of(f, lumba.arange(6), -1, 4))
  end)

  it("a constant axis out of range fails at compile time (AxisError, as the prelude's), at the user's line", function()
    local cases = {
      {"np.concatenate((a, a), axis=2)", "axis 2 is out of bounds for array of dimension 2"},
      {"np.flip(a, axis=-3)", "axis -3 is out of bounds for array of dimension 2"},
      {"np.expand_dims(a, 3)", "axis 3 is out of bounds for array of dimension 3"},
      {"a.transpose(0, 0)", "repeated axis in transpose"},
      {"a.transpose(1, 0, 2)", "axes don't match array"},
      {"np.stack((a, a), axis=3)", "axis 3 is out of bounds for array of dimension 3"},
      {"np.concatenate((a, a[0]))", "all the input arrays must have same number of dimensions, but the array at index 0 has 2 dimension(s) and the array at index 1 has 1 dimension(s)"},
      {"np.split(a, a.shape[0])", "the sections must be a constant integer or a tuple of indices"},
      {"np.squeeze(a)", "squeeze() needs axis= in compiled code"},
      {"np.fliplr(a[0])", "Input must be >= 2-d."},
      {"np.diff(a, -1)", "order must be non-negative but got -1"},
    }
    for _, c in ipairs(cases) do
      local f = lumba.njit("import numpy as np\ndef f(a):\n    x = 1\n    return " .. c[1] .. "\n")
      local e = H.error_of(f, lumba.zeros({2, 3}))
      local kind = c[2]:find("out of bounds", 1, true) and "AxisError: " or "TypingError: "
      assert(e:find(kind, 1, true) and e:find(c[2], 1, true), c[1] .. ": " .. e)
      assert(e:find(":4:", 1, true), c[1] .. ": no line in " .. e)
    end
  end)

  it("a join's mismatch is NumPy's ValueError, and frees what it made", function()
    local f = lumba.njit "import numpy as np\ndef f(a, b):\n    t = a * 2\n    return np.concatenate((t, b))\n"
    collectgarbage()
    collectgarbage()
    local before = lumba._live_meminfos()
    for _ = 1, 3 do
      local e = H.message_of(f, lumba.zeros({2, 2}), lumba.zeros({2, 3}))
      assert.are.equal("ValueError: all the input array dimensions except for the concatenation axis must match exactly, "
        .. "but along dimension 1, the array at index 0 has size 2 and the array at index 1 has size 3", e)
    end
    collectgarbage()
    collectgarbage()
    assert.are.equal(before, lumba._live_meminfos())
  end)

  it("a tuple held in a variable joins as a literal does", function()
    local f = lumba.njit "import numpy as np\ndef f(a, b):\n    t = (a, b)\n    return np.vstack(t), np.hstack(t)\n"
    local v, h = f(lumba.arange(2), lumba.arange(2, 4))
    assert.are.same({{0, 1}, {2, 3}}, v:totable())
    assert.are.same({0, 1, 2, 3}, h:totable())
  end)

  it("split's pieces unpack and loop like Numba's list", function()
    local f = lumba.njit [[
import numpy as np
def f(a):
    x, y, z = np.split(a, 3)
    s = 0
    for p in np.split(a, (2, 4)):
        s = s * 10 + p.size
    return x.sum() + 10 * y.sum() + 100 * z.sum(), s
]]
    local t, s = f(lumba.arange(6))
    assert.are.equal(1 + 10 * 5 + 100 * 9, t)
    assert.are.equal(222, s)
  end)
end)
