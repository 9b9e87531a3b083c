-- Index arrays, masks and None in subscripts, np.where and its family:
-- compiled code against NumPy itself (tests/numpy_batch.lua, one python
-- run per test), over every dtype, 1-D to 3-D, views and negative strides,
-- empty selections; errors at the user's line, the state usable after them.
local lumba = require "lumba"
local batch = dofile("tests/numpy_batch.lua")
local H = require "helpers"

local check = batch.available() and it or pending
local DTYPES = { "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64" }
local SHAPES = { { 7 }, { 3, 4 }, { 2, 3, 4 } }

-- a deterministic array of dtype dt: small values, zeros among them (and a NaN in float64)
local seed = 12345
local function rnd(n)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n
end
local function values_for(dt, n)
  local v = {}
  for k = 1, n do
    local x = rnd(9)
    if dt == "bool" then v[k] = x % 2 == 0
    elseif dt:match("^u") then v[k] = x
    elseif dt:match("^int") then v[k] = x - 4
    else v[k] = (x - 4) * 0.5 end
  end
  if dt == "float64" and n > 2 then v[2] = 0 / 0 end
  return v
end
local function count(shape)
  local n = 1
  for _, s in ipairs(shape) do n = n * s end
  return n
end

-- an input: the lumba array and what numpy_batch needs to make the same
local function make(name, dt, shape, vals)
  vals = vals or values_for(dt, count(shape))
  local a = #shape == 0 and lumba.array(vals[1], dt) or #vals == 0 and lumba.zeros(shape, dt) or lumba.array(vals, dt)
  if #shape > 1 then a = a:reshape(table.unpack(shape)) end
  return { name = name, dtype = dt, shape = shape, values = vals, arr = a }
end
local function mask(name, shape, fill)
  local v = {}
  for k = 1, count(shape) do
    if fill == nil then v[k] = rnd(3) == 0 else v[k] = fill end
  end
  return make(name, "bool", shape, v)
end
local function ints(name, dt, vals) return make(name, dt, { #vals }, vals) end

-- what compiled code returned, as numpy_batch reports NumPy's
local flat = H.flat
local result_of = H.result_of

local same_values = H.same_values

local function label(c)
  local t = {}
  for _, v in ipairs(c.inputs) do t[#t + 1] = v.name .. ":" .. v.dtype .. "[" .. table.concat(v.shape, ",") .. "]" end
  return (c.src or c.expr) .. " with " .. table.concat(t, " ")
end

local compiled = {}
local function dispatcher(src)
  compiled[src] = compiled[src] or lumba.njit(src)
  return compiled[src]
end

-- runs every case in compiled code and in NumPy; a case: inputs, expr (both
-- languages) or src (a lumba def f) with code (Python setting r), py (NumPy's
-- expression where it differs), error (the kind both must raise)
local function run(cases)
  local want = batch.run_lists((function()
    local t = {}
    for i, c in ipairs(cases) do t[i] = { inputs = c.inputs, expr = c.code == nil and (c.py or c.expr) or nil, code = c.code } end
    return t
  end)())
  local bad, n = {}, 0
  for i, c in ipairs(cases) do
    local params = {}
    for k, v in ipairs(c.inputs) do params[k] = v.name end
    local src = c.src or ("import numpy as np\ndef f(" .. table.concat(params, ", ") .. "):\n    return " .. c.expr .. "\n")
    local args = {}
    for k, v in ipairs(c.inputs) do args[k] = v.arr end
    local got = table.pack(pcall(dispatcher(src), table.unpack(args, 1, #args)))
    local w = want[i]
    if w.error then
      local kind = w.error:match("^(%w+):")
      if got[1] then
        bad[#bad + 1] = label(c) .. ": NumPy raised " .. w.error .. ", compiled code did not"
      elseif not tostring(got[2]):match("^" .. kind .. ":") then
        bad[#bad + 1] = label(c) .. ": NumPy raised " .. w.error .. ", compiled code " .. tostring(got[2])
      end
    elseif not got[1] then
      bad[#bad + 1] = label(c) .. ": " .. tostring(got[2])
    elseif got.n - 1 ~= #w then
      bad[#bad + 1] = label(c) .. (": %d results, NumPy %d"):format(got.n - 1, #w)
    else
      for k = 1, #w do
        local r = result_of(got[k + 1])
        if r.dtype ~= (c.dtype or w[k].dtype) or table.concat(r.shape, ",") ~= table.concat(w[k].shape, ",")
            or not same_values(r.values, w[k].values) then
          bad[#bad + 1] = ("%s: got %s[%s] {%s}, NumPy %s[%s] {%s}"):format(label(c), r.dtype, table.concat(r.shape, ","),
            table.concat(r.values, " "), w[k].dtype, table.concat(w[k].shape, ","), table.concat(w[k].values, " "))
        end
      end
    end
    n = n + 1
  end
  assert(#bad == 0, #bad .. " of " .. n .. " cases differ from NumPy:\n" .. table.concat(bad, "\n", 1, math.min(#bad, 30)))
  return n
end

-- fn(dtype, shape, another dtype, all): every dtype with every shape; all is
-- true for one pair in three (the rarer forms run there, to keep compilations few)
local function each_array(fn)
  local n = 0
  for di, dt in ipairs(DTYPES) do
    for _, shape in ipairs(SHAPES) do
      n = n + 1
      fn(dt, shape, DTYPES[di % #DTYPES + 1], n % 3 == 0)
    end
  end
end

local IDX = { "int64", "int32", "int8", "uint8", "int16", "uint64" }

describe("masks and index arrays", function()
  check("a[mask] selects in C order, for every dtype, 1-D to 3-D, views and empty masks", function()
    local cases = {}
    local function add(expr, ...) cases[#cases + 1] = { expr = expr, inputs = { ... } } end
    each_array(function(dt, shape, _, all)
      local a = make("a", dt, shape)
      add("a[m]", a, mask("m", shape))
      add("a[m]", a, mask("m", shape, false))
      add("a[m]", a, mask("m", { shape[1] }))
      add("a[::-1][m]", a, mask("m", shape))
      add("a[a > 1]", a)
      if not all then return end
      add("a[m]", a, mask("m", shape, true))
      if #shape >= 2 then
        add("a[:, m]", a, mask("m", { shape[2] }))
        add("a[1:, m]", a, mask("m", { shape[2] }))
        add("a[m, 0]", a, mask("m", { shape[1] }))
        add("a[::-1, ::-1][m]", a, mask("m", shape))
        add("a.T[m]", a, mask("m", { shape[#shape] }))
      end
      if #shape == 3 then
        add("a[0, m]", a, mask("m", { 3, 4 }))
        add("a[:, m]", a, mask("m", { 3, 4 }))
      end
    end)
    assert.is_true(run(cases) > 200)
  end)

  check("a[idx] takes any integer dtype, wraps negative indices, mixes with integers and slices", function()
    local cases, k = {}, 0
    local function add(expr, ...) cases[#cases + 1] = { expr = expr, inputs = { ... } } end
    each_array(function(dt, shape, _, all)
      local a = make("a", dt, shape)
      k = k + 1
      local it = IDX[k % #IDX + 1]
      local signed = not it:match("^u")
      local n0 = shape[1]
      add("a[i]", a, ints("i", it, signed and { 1, -1, 0, 1 - n0, 1 } or { 1, n0 - 1, 0, 0 }))
      add("a[::-1][i]", a, ints("i", it, { 0, 1, 1 }))
      if #shape >= 2 then add("a[:, i]", a, ints("i", it, signed and { 2, -1, 0, 0 } or { 2, 1, 0, 0 })) end
      if not all then return end
      add("a[i]", a, ints("i", it, {}))
      add("a[::-2][i]", a, ints("i", it, { 0, 0 }))
      add("a.T[i]", a, ints("i", it, { 2, 0, 1 }))
      if #shape >= 2 then
        add("a[i, 0]", a, ints("i", it, { 1, 0, 1 }))
        add("a[i, ::-1]", a, ints("i", it, { 1, 0 }))
        add("a[1:, i]", a, ints("i", it, { 2, 0 }))
        add("a[-1, i]", a, ints("i", it, { 2, 0 }))
        add("a[::-1, i]", a, ints("i", it, {}))
      end
      if #shape == 3 then
        add("a[:, i, 1]", a, ints("i", it, { 2, 1 }))
        add("a[0, :, i]", a, ints("i", it, { 3, 1, 0 }))
        add("a[i, 1:, ::2]", a, ints("i", it, { 1, 0 }))
        add("a[1, i, ::-2]", a, ints("i", it, { 2, 1 }))
      end
    end)
    assert.is_true(run(cases) > 150)
  end)

  check("stores into a selection: scalars, arrays of its shape, broadcast rows, overlapping values", function()
    local cases = {}
    local function add(key, val, ...)
      local params = {}
      for k, v in ipairs({ ... }) do params[k] = v.name end
      cases[#cases + 1] = {
        src = "import numpy as np\ndef f(" .. table.concat(params, ", ") .. "):\n    b = a.copy()\n    b[" .. key .. "] = " .. val .. "\n    return b\n",
        code = "b = a.copy()\nb[" .. key .. "] = " .. val .. "\nr = b", inputs = { ... } }
    end
    each_array(function(dt, shape, other, all)
      local a = make("a", dt, shape)
      local m = mask("m", shape)
      local c = 0
      for _, x in ipairs(m.values) do if x then c = c + 1 end end
      local vd = other:match("^float") and "int16" or other
      add("m", "7", a, m)
      add("m", "v", a, m, make("v", vd, { c }))
      add("i", "v", a, ints("i", "int32", { -1, 0 }), make("v", vd, { 2, table.unpack(shape, 2) }))
      if not all then return end
      add("m", "v", a, m, make("v", vd, { 1 }))
      add("b > 2", "1", a)
      add("m", "True", a, mask("m", shape, false))
      add("i", "b[::-1][:2]", a, ints("i", "int64", { -1, 0 }))
      add("i", "3", a, ints("i", "uint8", {}))
      if #shape >= 2 then
        add("m", "v", a, mask("m", { shape[1] }), make("v", vd, { table.unpack(shape, 2) }))
        add(":, i", "5", a, ints("i", "int64", { 1, -1 }))
        add("i, 0", "v", a, ints("i", "int8", { 1, 0 }), make("v", vd, { 2 }))
      end
      add("None", "4", a)
      add("m", "v * 2 + 1", a, m, make("v", vd, { c }))  -- an array expression: not fused into the copy
      add("b > 2", "b[b > 2] + 1", a)
      if dt ~= "bool" then  -- in place: getitem, the operation, setitem (a repeated index written once)
        local function inplace(key, op, val, ...)
          add(key, "b[" .. key .. "] " .. op .. " " .. val, ...)
          local c1 = cases[#cases]
          local stmt = "b[" .. key .. "] " .. op .. "= " .. val
          c1.src = c1.src:gsub("b%[[^\n]*%] = b%[[^\n]*\n", stmt .. "\n")
          c1.code = "b = a.copy()\n" .. stmt .. "\nr = b"
        end
        inplace("m", "+", "3", a, m)
        inplace("i", "-", "v", a, ints("i", "int64", { 0, 0, -1 }), make("v", dt, { 3, table.unpack(shape, 2) }))
        inplace("b > 1", "*", "2", a)
      end
    end)
    assert.is_true(run(cases) > 80)
  end)

  check("None and np.newaxis make views with a length-1 axis, so x[:, None] - x[None, :] broadcasts", function()
    local cases = {}
    local function add(expr, ...) cases[#cases + 1] = { expr = expr, inputs = { ... } } end
    each_array(function(dt, shape, _, all)
      local a = make("a", dt, shape)
      add("a[:, None]", a)
      add("a[:, None] * a[None, :]", a)
      if not all then return end
      add("a[None]", a)
      add("a[None, ::-1]", a)
      add("a[np.newaxis, :, np.newaxis]", a)
      add("a[None].strides", a)
      if #shape >= 2 then
        add("a[1, None]", a)
        add("a[:, None, 1:]", a)
        add("a[None, :, i]", a, ints("i", "int64", { 1, 0 }))
        add("a[i, None]", a, ints("i", "int64", { 1, 0 }))
      end
    end)
    -- a[None].strides: the new axis's stride is 0 in NumPy; bool's itemsize is 1 in both
    assert.is_true(run(cases) > 90)
  end)
end)

describe("np.where and its family", function()
  check("np.nonzero, a.nonzero(), np.where(c), np.argwhere, np.flatnonzero, np.count_nonzero", function()
    local cases = {}
    local function add(expr, ...) cases[#cases + 1] = { expr = expr, inputs = { ... } } end
    each_array(function(dt, shape, _, all)
      local a = make("a", dt, shape)
      for _, e in ipairs { "np.nonzero(a)", "np.argwhere(a)", "np.flatnonzero(a.T)", "np.count_nonzero(a)" } do add(e, a) end
      if not all then return end
      for _, e in ipairs { "a.nonzero()", "np.where(a)", "np.flatnonzero(a)", "np.nonzero(a[::-1])", "np.argwhere(a.T)" } do
        add(e, a)
      end
      add("np.argwhere(m)", mask("m", shape, false))
      add("np.nonzero(m)", mask("m", shape, false))
      add("np.count_nonzero(m)", mask("m", shape, true))
    end)
    add("np.flatnonzero(a)", make("a", "float64", { 0 }, {}))
    add("np.nonzero(a)", make("a", "int64", {}, { 3 }))
    add("np.argwhere(a)", make("a", "int64", {}, { 3 }))
    add("np.argwhere(a)", make("a", "int64", {}, { 0 }))
    assert.is_true(run(cases) > 150)
  end)

  check("np.where(c, x, y) broadcasts, with Numba's dtype: NumPy's promotion of x's and y's dtypes", function()
    local cases = {}
    local function add(expr, py, dtype, ...) cases[#cases + 1] = { expr = expr, py = py, dtype = dtype, inputs = { ... } } end
    each_array(function(dt, shape, other, all)
      local a, b = make("a", dt, shape), make("b", other, shape)
      local m = mask("m", shape)
      add("np.where(m, a, b)", nil, nil, m, a, b)
      add("np.where(m, a, 2)", "np.where(m, a, np.full(1, 2))", nil, m, a)
      if #shape >= 2 then add("np.where(m[0], a, b)", nil, nil, m, a, b) end
      if not all then return end
      add("np.where(a, a, b)", nil, nil, a, b)
      add("np.where(m, a, b[::-1])", nil, nil, m, a, b)
      if #shape >= 2 then
        add("np.where(m, a, b[0])", nil, nil, m, a, b)
        add("np.where(m[:, :1], a, b)", nil, nil, m, a, b)
      end
      -- scalars: typed as int64 / float64 (Numba), where NumPy 1.x would look at the value
      add("np.where(m, 1.5, a)", "np.where(m, np.full(1, 1.5), a)", nil, m, a)
    end)
    add("np.where(True, 1, 2)", "np.where(True, np.int64(1), np.int64(2))", nil)
    add("np.where(m, a, b)", nil, nil, mask("m", { 3 }), make("a", "int64", { 2, 3 }), make("b", "float32", { 2, 1 }))
    add("np.where(m, a, b)", nil, nil, mask("m", { 4 }), make("a", "int64", { 2, 3 }), make("b", "float32", { 2, 1 }))
    assert.is_true(run(cases) > 80)
  end)
end)

describe("errors of indexing", function()
  check("a wrong mask shape, an index out of range, a value of the wrong size raise NumPy's error kinds", function()
    local cases = {}
    local function add(expr, ...) cases[#cases + 1] = { expr = expr, inputs = { ... } } end
    for _, shape in ipairs(SHAPES) do
      local a = make("a", "float64", shape)
      local wrong = { table.unpack(shape) }
      wrong[1] = wrong[1] + 1
      add("a[m]", a, mask("m", wrong))
      add("a[m]", a, mask("m", { shape[1] - 1 }))
      add("a[i]", a, ints("i", "int64", { 0, shape[1] }))
      add("a[i]", a, ints("i", "int32", { -shape[1] - 1 }))
      add("a[i]", a, ints("i", "uint64", { shape[1] }))
      add("a[::-1][i]", a, ints("i", "int8", { 0, 100 }))
      add("np.where(m, a, b)", mask("m", { shape[1] + 1 }), a, make("b", "float64", shape))
      if #shape >= 2 then add("a[:, i]", a, ints("i", "int64", { shape[2] })) end
    end
    local src = "def f(a, m, v):\n    b = a.copy()\n    b[m] = v\n    return b\n"
    local m = mask("m", { 7 })
    cases[#cases + 1] = { src = src, code = "b = a.copy()\nb[m] = v\nr = b", inputs = { make("a", "int32", { 7 }), m, make("v", "int32", { 9 }) } }
    assert.is_true(run(cases) > 20)
  end)

  it("IndexError and ValueError leave the arguments unchanged and the dispatcher usable", function()
    local f = lumba.njit "def f(a, i):\n    a[i] = 5.0\n    return a.sum()\n"
    local a = lumba.array({ 1.0, 2.0, 3.0 })
    local err = H.message_of(f, a, lumba.array({ 0, 1, 3 }))
    assert.are.equal("IndexError: index 3 out of bounds for axis 0 with size 3", err)
    assert.are.same({ 1.0, 2.0, 3.0 }, a:totable())  -- every index is checked before the first store
    assert.are.equal(12.0, f(a, lumba.array({ 0, -1 })))
    local g = lumba.njit "def g(a, m):\n    return a[m]\n"
    assert.truthy(H.error_of(g, a, lumba.array({ true, false })):find("^IndexError: boolean index did not match indexed array along dimension 0"))
    assert.are.same({ 5.0 }, g(a, lumba.array({ true, false, false })):totable())
    local s = lumba.njit "def s(a, m, v):\n    a[m] = v\n"
    assert.truthy(H.error_of(s, a, lumba.array({ true, true, false }), lumba.array({ 1.0, 2.0, 3.0 })):find("^ValueError: shape mismatch"))
    assert.are.same({ 5.0, 2.0, 5.0 }, a:totable())
  end)

  it("frees every array it makes, on the raising paths too", function()
    local function live_now()
      collectgarbage()
      collectgarbage()
      return lumba._live_meminfos()
    end
    local fs = {
      { "def f(a, m):\n    return (a + 1)[m > 0][::-1]\n", true },
      { "def f(a, m):\n    return (a + 1)[m[1:] > 0]\n", false },
      { "def f(a, i):\n    return (a * 2)[i + 0]\n", true },
      { "def f(a, i):\n    return (a * 2)[i + 5]\n", false },
      { "def f(a, i):\n    b = a.copy()\n    b[i + 0] = a[::-1][:3]\n    return b\n", true },
      { "def f(a, i):\n    b = a.copy()\n    b[i + 0] = a[:2]\n    return b\n", false },
      { "def f(a, i):\n    b = a.copy()\n    b[i + 9] = 1.0\n    return b\n", false },
      { "import numpy as np\ndef f(a, m):\n    x = np.nonzero(a + 1)\n    return x[0], np.argwhere(m > 1), np.flatnonzero(m), np.count_nonzero(a > 1)\n", true },
      { "import numpy as np\ndef f(a, m):\n    return np.where(m > 1, a + 1, a[::-1])\n", true },
      { "import numpy as np\ndef f(a, m):\n    return np.where(m > 1, a + 1, a[1:])\n", false },
      { "def f(a, m):\n    return (a + 1)[:, None] - a[None, :]\n", true },
    }
    local a, m, i = lumba.arange(5.0), lumba.array({ 0, 2, 3, 0, 1 }), lumba.array({ 0, -1, 2 })
    local before = live_now()
    for _, c in ipairs(fs) do
      local f = lumba.njit(c[1])
      local arg = c[1]:find("%(a, i%)") and i or m
      for _ = 1, 5 do
        local ok, e = pcall(f, a, arg)
        assert(ok == c[2], c[1] .. ": " .. tostring(e))
      end
    end
    assert.are.equal(before, live_now())
  end)

  it("index arrays of floats, of 2 dimensions, or two in one subscript are TypingErrors at the user's line", function()
    local function err(src, ...) return H.error_of(lumba.njit(src), ...) end
    local x = lumba.arange(6.0)
    local e = err("def f(a, i):\n    y = 1\n    return a[i]\n", x, lumba.array({ 1.0 }))
    assert.truthy(e:find("<string>:3:14: TypingError: array indices must be integers or booleans, not float64[:]", 1, true), e)
    e = err("def f(a, i):\n    return a[i]\n", x, lumba.array({ { 1, 2 } }, "int64"))
    assert.truthy(e:find("<string>:2:14: TypingError: index arrays must be 1-dimensional (Numba's rule), not int64[:, :]", 1, true), e)
    e = err("def f(a, i):\n    return a[i, i]\n", x:reshape(2, 3), lumba.array({ 1 }))
    assert.truthy(e:find("<string>:2:17: TypingError: only one index array or mask is supported per subscript", 1, true), e)
    e = err("def f(a, m):\n    return a[m, 0, 0]\n", x:reshape(2, 3), lumba.array({ true, false }))
    assert.truthy(e:find("<string>:2:12: TypingError: too many indices for array: array is 2-dimensional, but 3 were indexed", 1, true), e)
    e = err("import numpy as np\ndef f(a):\n    return np.where(a, a)\n", x)
    assert.truthy(e:find("<string>:3:12: TypingError: where() takes 1 or 3 arguments (2 given)", 1, true), e)
    e = err("import numpy as np\ndef f(a):\n    return np.argwhere(3)\n", x)
    assert.truthy(e:find("TypingError: argwhere() needs an array, not int64", 1, true), e)
  end)
end)
