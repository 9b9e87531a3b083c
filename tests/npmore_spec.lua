-- NumPy's sorting, binning and small numerics written in the prelude
-- (src/prelude/numpy_sort.py, numpy_hist.py, numpy_misc.py), each checked
-- against NumPy itself: the same function source run by NumPy (one python
-- run for all cases, tests/numpy_calls.lua) and by lumba, over dtypes,
-- shapes (empty, 0-d, 1-D, 2-D), views and keyword arguments. Where Numba's
-- result dtype differs from NumPy's, the oracle's source casts to Numba's
-- (noted at the case). Then the errors bad arguments get, at the user's line.
local lumba = require "lumba"
local H = require "helpers"
local B = dofile("tests/numpy_calls.lua")

local INTS = { "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64" }
local FLOATS = { "float32", "float64" }
local NUMS = { table.unpack(INTS) }
for _, d in ipairs(FLOATS) do NUMS[#NUMS + 1] = d end
local ALL = { "bool", table.unpack(NUMS) }

local function count(shape)
  local n = 1
  for _, s in ipairs(shape) do n = n * s end
  return n
end

-- n values of dtype dt from seed: ties, negatives where signed, NaN and
-- infinities in floats when opts.nan; opts.distinct: no ties
local function values(dt, n, seed, opts)
  opts = opts or {}
  local v = {}
  for i = 1, n do
    local k = (i * 37 + seed * 11) % 23
    if opts.distinct then k = (i * 7 + seed) % n + (i - 1) // 23 * 0 end
    if dt == "bool" then v[i] = k % 3 == 0
    elseif dt:match("^uint") then v[i] = k % 13
    elseif dt:match("^int") then v[i] = k % 13 - 6
    else
      v[i] = (k % 13 - 6) * 0.75 + (opts.distinct and 0 or 0.125)
      if opts.nan and k % 7 == 3 then v[i] = 0 / 0 end
      if opts.nan and k == 5 then v[i] = math.huge end
      if opts.nan and k == 20 then v[i] = -math.huge end
    end
  end
  if opts.distinct and dt ~= "bool" then  -- a permutation of 0..n-1, shifted into range
    for i = 1, n do
      local k = (i * 7 + seed) % n
      v[i] = dt:match("^float") and (k - n // 2) * 0.5 or dt:match("^uint") and k or k - math.min(n // 2, 6)
    end
  end
  return v
end

local function arr(dt, shape, seed, opts, view)
  return B.arr(dt, shape, values(dt, count(shape), seed, opts), view)
end

local function sorted_arr(dt, n, seed, opts)
  local v = values(dt, n, seed, opts)
  table.sort(v, function(x, y)
    if dt == "bool" then return (not x) and y end
    if y ~= y then return x == x end
    return x < y
  end)
  return B.arr(dt, { n }, v)
end

local cases = {}
-- body: the function's body after "return " (or several lines); args: B.arr
-- values or numbers; oracle: NumPy's body where it differs (Numba's dtype)
local function add(label, body, args, oracle, tol)
  local params = {}
  for i = 1, #args do params[i] = ("abcdef"):sub(i, i) end
  local function src(b)
    if not b:find("\n") then b = "return " .. b end
    return ("import numpy as np\ndef f(%s):\n    %s\n"):format(table.concat(params, ", "), b:gsub("\n", "\n    "))
  end
  cases[#cases + 1] = { label = label, src = src(body), osrc = src(oracle or body), args = args, tol = tol }
end

-- sort, argsort, unique, searchsorted
for s, dt in ipairs(ALL) do
  for _, shape in ipairs { { 0 }, { 9 }, { 40 }, { 3, 5 } } do
    local nan = { nan = true }
    add("sort", "np.sort(a)", { arr(dt, shape, s, nan) })
    add("unique", "np.unique(a)", { arr(dt, shape, s, nan) })
    add("argsort stable", "np.argsort(a, kind='stable')", { arr(dt, shape, s, nan) })
    add("argsort mergesort axis 0", "np.argsort(a, axis=0, kind='mergesort')", { arr(dt, shape, s, nan) })
    if dt ~= "bool" then
      add("argsort", "np.argsort(a)", { arr(dt, shape, s, { distinct = true }) })
      add("a.argsort", "a.argsort()", { arr(dt, shape, s, { distinct = true }) })
    end
    add("sort axis 0", "np.sort(a, axis=0)", { arr(dt, shape, s + 1, nan) })
    add("a.sort", "a.sort()\nreturn a", { arr(dt, shape, s + 2, nan) })
  end
  add("sort of a transposed view", "np.sort(a)", { arr(dt, { 4, 3 }, s, { nan = true }, "T") })
  add("sort of a reversed view", "np.sort(a, axis=0)", { arr(dt, { 5, 2 }, s, { nan = true }, "rev") })
  add("sort of a strided slice", "np.sort(a[::2])", { arr(dt, { 30 }, s, { nan = true }) })
  add("sort of a negative-stride slice, in place", "b = a[::-3]\nb.sort()\nreturn a", { arr(dt, { 20 }, s, { nan = true }) })
  add("unique of a view", "np.unique(a[:, ::-1])", { arr(dt, { 3, 6 }, s, { nan = true }) })
  add("argsort of a transposed view", "np.argsort(a, kind='stable')", { arr(dt, { 4, 6 }, s, { nan = true }, "T") })
  for _, side in ipairs { "left", "right" } do
    local sa = sorted_arr(dt, 12, s, { nan = true })
    add("searchsorted " .. side, ("np.searchsorted(a, b, side='%s')"):format(side), { sa, arr(dt, { 3, 4 }, s + 5, { nan = true }) })
    add("searchsorted scalar " .. side, ("np.searchsorted(a, a[3], side='%s')"):format(side), { sa })
    add("searchsorted empty", ("np.searchsorted(a, b, '%s')"):format(side), { sorted_arr(dt, 0, s), arr(dt, { 4 }, s) })
    add("searchsorted of a reversed view", ("np.searchsorted(a[::-1], b, side='%s')"):format(side),
      { sorted_arr(dt, 9, s, {}), arr(dt, { 5 }, s + 1) })
  end
end

-- histogram (Numba: edges from a bin count are float64), bincount, digitize
for s, dt in ipairs(NUMS) do
  local fl = dt:match("^float")
  for _, shape in ipairs { { 1 }, { 4, 5 }, { 200 } } do
    for _, bins in ipairs { 1, 10 } do
      add("histogram bins=" .. bins, ("np.histogram(a, bins=%d)"):format(bins), { arr(dt, shape, s) },
        ("c, e = np.histogram(a, bins=%d)\nreturn c, e.astype(np.float64)"):format(bins), 1e-6)
      add("histogram range", ("np.histogram(a, %d, range=(-2, 5))"):format(bins), { arr(dt, shape, s) },
        ("c, e = np.histogram(a, %d, range=(-2, 5))\nreturn c, e.astype(np.float64)"):format(bins), 1e-6)
    end
    add("histogram edges", "np.histogram(a, b)", { arr(dt, shape, s), B.arr(dt, { 4 }, fl and { -3.5, -1, 0.5, 2.25 } or { 0, 2, 3, 7 }) })
    add("histogram edges float", "np.histogram(a, b)", { arr(dt, shape, s), B.arr("float64", { 3 }, { -1.5, 0.5, 3.0 }) })
  end
  add("histogram empty", "np.histogram(a)", { arr(dt, { 0 }, s) }, "c, e = np.histogram(a)\nreturn c, e.astype(np.float64)", 1e-6)
  add("histogram one value", "np.histogram(a, 4)", { B.arr(dt, { 3 }, { 2, 2, 2 }) }, "c, e = np.histogram(a, 4)\nreturn c, e.astype(np.float64)")
  add("histogram of a view", "np.histogram(a.T[::-1], 5)", { arr(dt, { 6, 7 }, s) },
    "c, e = np.histogram(a.T[::-1], 5)\nreturn c, e.astype(np.float64)", 1e-6)
  if fl then
    add("histogram with NaN, range given", "np.histogram(a, 4, (-3, 3))", { arr(dt, { 30 }, s, { nan = true }) },
      "c, e = np.histogram(a, 4, (-3, 3))\nreturn c, e.astype(np.float64)", 1e-6)
  end
  local xs = B.arr(dt, { 6 }, dt:match("^uint") and { 0, 1, 2, 3, 4, 6 } or { -2, 0, 1, 2, 3, 6 })
  for _, bins in ipairs { { 0, 1, 3 }, { 3, 1, 0 }, { 1, 1, 2 }, { 5 } } do
    for _, right in ipairs { "False", "True" } do
      add("digitize right=" .. right, ("np.digitize(a, b, right=%s)"):format(right), { xs, B.arr("float64", { #bins }, bins) })
    end
  end
  add("digitize of a scalar", "np.digitize(a[2], b)", { xs, B.arr(dt, { 3 }, { 0, 1, 3 }) })
  add("digitize 2-D", "np.digitize(a, b, True)", { arr(dt, { 3, 4 }, s), B.arr(dt, { 3 }, { 0, 1, 3 }) })
end
for s, dt in ipairs(INTS) do
  local x = B.arr(dt, { 8 }, { 0, 3, 1, 3, 3, 7, 0, 2 })
  add("bincount", "np.bincount(a)", { x })
  add("bincount minlength", "np.bincount(a, minlength=12)", { x })
  add("bincount minlength smaller", "np.bincount(a, minlength=3)", { x })
  add("bincount empty", "np.bincount(a)", { B.arr(dt, { 0 }, {}) })
  add("bincount of a view", "np.bincount(a[::-2])", { x })
  for _, wdt in ipairs { "float64", "float32", "int32", "bool" } do
    add("bincount weights " .. wdt, "np.bincount(a, weights=b)", { x, arr(wdt, { 8 }, s) })
  end
  add("bincount weights and minlength", "np.bincount(a, b, 10)", { x, arr("float64", { 8 }, s) })
end

-- interp
for s, dt in ipairs(NUMS) do
  local xp = B.arr(dt, { 5 }, { 0, 1, 2, 4, 7 })
  local fp = arr("float64", { 5 }, s)
  add("interp", "np.interp(a, b, c)", { arr(dt, { 10 }, s), xp, fp })
  add("interp 2-D x", "np.interp(a, b, c)", { arr(dt, { 2, 3 }, s), xp, fp })
  add("interp scalar", "np.interp(2.5, b, c)", { arr(dt, { 1 }, s), xp, fp })
  add("interp outside", "np.interp(a, b, c)", { B.arr("float64", { 4 }, { -5, 0, 7, 100 }), xp, fp })
  add("interp int fp", "np.interp(a, b, c)", { B.arr("float64", { 4 }, { 0.5, 1.5, 3, 6 }), xp, B.arr(dt, { 5 }, { 1, 2, 3, 2, 1 }) })
end
add("interp NaN", "np.interp(a, b, c)", { B.arr("float64", { 3 }, { 0 / 0, 1.5, math.huge }), B.arr("float64", { 2 }, { 1, 2 }),
  B.arr("float64", { 2 }, { 10, 20 }) })
add("interp one point", "np.interp(a, b, c)", { B.arr("float64", { 3 }, { 0, 1, 2 }), B.arr("float64", { 1 }, { 1 }),
  B.arr("float64", { 1 }, { 5 }) })
add("interp of views", "np.interp(a[::-1], b[::2], c[::2])", { arr("float64", { 6 }, 1), B.arr("float64", { 6 }, { -3, 0, -1, 1, 2, 9 }),
  arr("float64", { 6 }, 2) })

-- clip (Numba: scalar bounds keep a's dtype), round
for s, dt in ipairs(NUMS) do
  local fl = dt:match("^float")
  for _, shape in ipairs { { 0 }, { 7 }, { 3, 4 } } do
    add("clip", "np.clip(a, 1, 4)", { arr(dt, shape, s) })
    add("clip float bounds", "np.clip(a, -1.5, 2.5)", { arr(dt, shape, s) }, "np.clip(a, -1.5, 2.5).astype(a.dtype)")
    add("clip None", "np.clip(a, None, 3)", { arr(dt, shape, s) })
    add("clip None min", "np.clip(a, 2, None)", { arr(dt, shape, s) })
    add("a.clip", "a.clip(1, 3)", { arr(dt, shape, s) })
    add("a.clip max=", "a.clip(max=2)", { arr(dt, shape, s) })
  end
  add("clip array bounds", "np.clip(a, b, c)", { arr(dt, { 3, 4 }, s), arr(dt, { 4 }, s + 1), arr(dt, { 3, 1 }, s + 2) })
  add("clip of a view", "np.clip(a.T, 0, 3)", { arr(dt, { 3, 4 }, s) })
  add("clip out=", "np.clip(a, 0, 3, out=a)\nreturn a", { arr(dt, { 5 }, s) })
  if fl then
    add("clip NaN", "np.clip(a, -1, 1)", { arr(dt, { 30 }, s, { nan = true }) })
  end
  for _, d in ipairs { 0, 1, 2, -1 } do
    if fl or d >= 0 then
      add("round decimals=" .. d, ("np.round(a, decimals=%d)"):format(d), { arr(dt, { 9 }, s) })
    end
  end
  add("around", "np.around(a)", { arr(dt, { 2, 3 }, s) })
  add("a.round", "a.round(1)", { arr(dt, { 3, 2 }, s, nil, "T") })
end
add("round halves to even", "np.round(a)", { B.arr("float64", { 6 }, { 0.5, 1.5, 2.5, -0.5, -1.5, 2.675 }) })
add("round halves, decimals=2", "np.round(a, 2)", { B.arr("float64", { 4 }, { 2.675, 1.005, -0.125, 0.0 / 0.0 }) })
add("round of ints, negative decimals", "np.round(a, -1)", { B.arr("int64", { 5 }, { 15, 25, -15, 4, 123 }) })
add("round 0-d", "np.round(a[0], 1)", { B.arr("float64", { 2 }, { 2.25, 1 }) })

-- isclose, allclose, array_equal
for s, dt in ipairs(ALL) do
  local a1 = arr(dt, { 3, 4 }, s, { nan = true })
  add("isclose self", "np.isclose(a, a)", { a1 })
  add("isclose equal_nan", "np.isclose(a, a, equal_nan=True)", { a1 })
  add("allclose self", "np.allclose(a, a)", { a1 })
  add("allclose equal_nan", "np.allclose(a, b, equal_nan=True)", { a1, a1 })
  add("array_equal", "np.array_equal(a, b)", { a1, a1 })
  add("array_equal other", "np.array_equal(a, b)", { a1, arr(dt, { 3, 4 }, s + 1) })
  add("array_equal shape", "np.array_equal(a, b)", { a1, arr(dt, { 4, 3 }, s) })
  add("array_equal empty", "np.array_equal(a, b)", { arr(dt, { 0 }, s), arr(dt, { 0 }, s) })
  if dt ~= "bool" then
    add("isclose broadcast", "np.isclose(a, b)", { arr(dt, { 3, 4 }, s), arr(dt, { 4 }, s + 1) })
    add("isclose broadcast b wider", "np.isclose(a, b)", { arr(dt, { 4 }, s), arr(dt, { 3, 4 }, s + 1) })
    add("isclose scalar", "np.isclose(a, 1)", { arr(dt, { 5 }, s) })
    add("isclose of a view", "np.isclose(a.T, b[::-1])", { arr(dt, { 3, 3 }, s), arr(dt, { 3, 3 }, s + 2) })
  end
end
for _, tol in ipairs { "rtol=0.1", "atol=0.5", "rtol=0, atol=0", "1e-3, 1e-3" } do
  local x, y = B.arr("float64", { 5 }, { 1, 100, 0, 1e-9, math.huge }), B.arr("float64", { 5 }, { 1.05, 101, 0.3, 0, math.huge })
  add("isclose " .. tol, ("np.isclose(a, b, %s)"):format(tol), { x, y })
  add("allclose " .. tol, ("np.allclose(a, b, %s)"):format(tol), { x, y })
end
add("isclose infinities", "np.isclose(a, b)", { B.arr("float64", { 4 }, { math.huge, -math.huge, math.huge, 1 }),
  B.arr("float64", { 4 }, { math.huge, math.huge, 1, math.huge }) })
add("isclose scalars", "np.isclose(1.0, 1.0 + 1e-9)", {})
add("allclose scalars", "np.allclose(1.0, 1.1)", {})

-- trapz, convolve, correlate, cross
for s, dt in ipairs(NUMS) do
  add("trapz", "np.trapz(a)", { arr(dt, { 9 }, s) })
  add("trapz dx", "np.trapz(a, dx=0.5)", { arr(dt, { 9 }, s) })
  add("trapz x", "np.trapz(a, b)", { arr(dt, { 6 }, s), B.arr(dt, { 6 }, { 0, 1, 3, 4, 7, 9 }) })
  add("trapz x=", "np.trapz(a, x=b[::-1])", { arr(dt, { 6 }, s), B.arr("float64", { 6 }, { 0, 1, 3, 4, 7, 9 }) })
  add("trapz empty", "np.trapz(a)", { arr(dt, { 0 }, s) })
  for _, n in ipairs { { 1, 1 }, { 5, 3 }, { 3, 5 }, { 7, 7 } } do
    add("convolve", "np.convolve(a, b)", { arr(dt, { n[1] }, s), arr(dt, { n[2] }, s + 1) })
    add("correlate", "np.correlate(a, b)", { arr(dt, { n[1] }, s), arr(dt, { n[2] }, s + 1) })
    for _, mode in ipairs { "full", "same", "valid" } do
      add("convolve mode=" .. mode, ("np.convolve(a, b, mode='%s')"):format(mode), { arr(dt, { n[1] }, s), arr(dt, { n[2] }, s + 1) })
      add("correlate mode=" .. mode, ("np.correlate(a, b, '%s')"):format(mode), { arr(dt, { n[1] }, s), arr(dt, { n[2] }, s + 1) })
    end
  end
  add("convolve of views", "np.convolve(a[::-1], b[::2])", { arr(dt, { 6 }, s), arr(dt, { 6 }, s + 1) })
  add("convolve mixed dtypes", "np.convolve(a, b)", { arr(dt, { 4 }, s), arr("float64", { 3 }, s + 1) })
  add("cross", "np.cross(a, b)", { arr(dt, { 3 }, s), arr(dt, { 3 }, s + 1) })
  add("cross 2-D", "np.cross(a, b)", { arr(dt, { 4, 3 }, s), arr(dt, { 4, 3 }, s + 1) })
  add("cross broadcast", "np.cross(a, b)", { arr(dt, { 4, 3 }, s), arr(dt, { 3 }, s + 1) })
  add("cross of a view", "np.cross(a.T, b[::-1])", { arr(dt, { 3, 2 }, s), arr(dt, { 2, 3 }, s + 1) })
end

local function close(x, y, tol)
  if x ~= x or y ~= y then return x ~= x and y ~= y end
  if x == y then return true end
  return math.abs(x - y) <= tol * math.max(1, math.abs(y))
end

local function got_of(v)
  if type(v) == "boolean" then return { dtype = "bool", shape = {}, values = { v and 1 or 0 } } end
  if type(v) == "number" then
    return { dtype = math.type(v) == "integer" and "int" or "float", shape = {}, values = { v } }
  end
  if type(v) ~= "userdata" then return { dtype = type(v), shape = {}, values = {} } end
  local r = { dtype = v.dtype, shape = {}, values = {} }
  for k = 1, v.ndim do r.shape[k] = v.shape[k] end
  local function walk(t)
    if type(t) ~= "table" then r.values[#r.values + 1] = t == true and 1 or t == false and 0 or t; return end
    for _, x in ipairs(t) do walk(x) end
  end
  walk(v.ndim == 0 and v:get() or v:totable())
  return r
end

local function differs(g, w, tol)
  local scalar = #w.shape == 0 and #g.shape == 0 and (g.dtype == "int" or g.dtype == "float" or g.dtype == "bool")
  if scalar then
    local wk = w.dtype == "bool" and "bool" or w.dtype:match("^float") and "float" or "int"
    if wk ~= g.dtype then return "a " .. g.dtype .. ", NumPy " .. w.dtype end
  elseif g.dtype ~= w.dtype then
    return "dtype " .. g.dtype .. ", NumPy " .. w.dtype
  end
  if table.concat(g.shape, "x") ~= table.concat(w.shape, "x") then
    return "shape " .. table.concat(g.shape, "x") .. ", NumPy " .. table.concat(w.shape, "x")
  end
  local t = tol or (w.dtype == "float32" and 1e-6 or 1e-12)
  for k = 1, #w.values do
    local x = g.values[k]
    if g.dtype == "uint64" and math.type(x) == "integer" then x = x end  -- both as int64 bits
    if not close(x, w.values[k], t) then return ("[%d] = %s, NumPy %s"):format(k, tostring(x), tostring(w.values[k])) end
  end
end

describe("NumPy's sort, histogram and small numerics in compiled code", function()
  it("compute what NumPy computes, dtype by dtype, on empty, 1-D, 2-D and views", function()
    if not B.available() then pending("python3 with NumPy is not installed") return end
    local ocases = {}
    for i, c in ipairs(cases) do ocases[i] = { src = c.osrc, args = c.args } end
    local want = B.run(ocases)
    local bad, compiled = {}, {}
    for i, c in ipairs(cases) do
      local w = want[i]
      local label = ("%s: %s (%s)"):format(c.label, c.src:match("def f[^\n]*\n    (.-)\n$"):gsub("\n%s*", "; "),
        table.concat((function() local t = {} for k, a in ipairs(c.args) do t[k] = type(a) == "table" and
          (a.dtype .. "[" .. table.concat(a.shape, "x") .. "]" .. (a.view or "")) or tostring(a) end return t end)(), ", "))
      compiled[c.src] = compiled[c.src] or lumba.njit(c.src)
      local args = {}
      for k, a in ipairs(c.args) do args[k] = B.lumba_arg(a) end
      local res = table.pack(pcall(compiled[c.src], table.unpack(args)))
      if w.error then
        if res[1] then bad[#bad + 1] = label .. ": NumPy raised " .. w.error .. ", lumba returned" end
      elseif not res[1] then
        bad[#bad + 1] = label .. ": " .. tostring(res[2]):gsub("\n.*", "")
      else
        local ws = w.tuple or { w }
        if res.n - 1 ~= #ws then
          bad[#bad + 1] = ("%s: %d results, NumPy %d"):format(label, res.n - 1, #ws)
        else
          for k, wk in ipairs(ws) do
            local d = differs(got_of(res[k + 1]), wk, c.tol)
            if d then bad[#bad + 1] = label .. (#ws > 1 and (" result " .. k) or "") .. ": " .. d; break end
          end
        end
      end
    end
    assert(#bad == 0, #bad .. " of " .. #cases .. " cases differ:\n" .. table.concat(bad, "\n", 1, math.min(#bad, 60)))
    assert.is_true(#cases >= 1000)
  end)

  it("sorts NaNs last and keeps one NaN in unique, as NumPy", function()
    local f = lumba.njit "import numpy as np\ndef f(a):\n    return np.sort(a), np.argsort(a, kind='stable'), np.unique(a)\n"
    local nan = 0 / 0
    local s, i, u = f(lumba.array({ nan, 2.0, -1.0, nan, 2.0 }))
    local sv = s:totable()
    assert.are.same({ -1.0, 2.0, 2.0 }, { sv[1], sv[2], sv[3] })
    assert.is_true(sv[4] ~= sv[4] and sv[5] ~= sv[5])
    assert.are.same({ 2, 1, 4, 0, 3 }, i:totable())
    local uv = u:totable()
    assert.are.equal(3, #uv)
    assert.are.same({ -1.0, 2.0 }, { uv[1], uv[2] })
    assert.is_true(uv[3] ~= uv[3])
  end)

  local function err_of(src, ...)
    local f = lumba.njit({ chunkname = "user.py" }, "import numpy as np\ndef f(a, b):\n    return " .. src .. "\n")
    return H.error_of(f, ...)
  end
  local a = function() return lumba.array({ 1.0, 2.0, 3.0 }) end
  local ia = function() return lumba.array({ 1, 2, 3 }) end

  -- checks of values happen at run time, where compiled code (as Numba's)
  -- raises the message alone; then the function still works
  it("rejects bad argument values with NumPy's error at run time, and keeps working", function()
    local cases_ = {
      { "np.histogram(a, b)", { a(), -1 }, "ValueError: `bins` must be positive, when an integer" },
      { "np.histogram(a, 3, (b, 0))", { a(), 5 }, "ValueError: max must be larger than min in range parameter." },
      { "np.histogram(a, b)", { a(), lumba.array({ 3.0, 1.0 }) }, "ValueError: `bins` must increase monotonically, when an array" },
      { "np.bincount(a, minlength=b)", { ia(), -1 }, "ValueError: 'minlength' must not be negative" },
      { "np.bincount(a - b)", { ia(), 2 }, "ValueError: 'list' argument must have no negative elements" },
      { "np.bincount(a, b)", { ia(), lumba.array({ 1.0 }) }, "ValueError: The weights and list don't have the same length." },
      { "np.digitize(a, b)", { a(), lumba.array({ 1.0, 3.0, 2.0 }) }, "ValueError: bins must be monotonically increasing or decreasing" },
      { "np.interp(a, b, a)", { a(), lumba.array({ 1.0 }) }, "ValueError: fp and xp are not of the same length." },
      { "np.convolve(a, b)", { a(), lumba.zeros(0) }, "ValueError: v cannot be empty" },
      { "np.cross(a, b)", { a(), lumba.zeros(2) }, "ValueError: incompatible dimensions for cross product" },
      { "np.isclose(a, b)", { a(), lumba.zeros(2) }, "ValueError: operands could not be broadcast together" },
    }
    for _, c in ipairs(cases_) do
      local err = err_of(c[1], table.unpack(c[2]))
      assert.truthy(err:find(c[3], 1, true), c[1] .. ": " .. err)
    end
    local f = lumba.njit "import numpy as np\ndef f(a, b):\n    return np.histogram(a, b)\n"
    assert.is_false(pcall(f, a(), 0))
    local c = f(a(), 2)
    assert.are.same({ 1, 2 }, c:totable())
  end)

  it("rejects an unknown side=, kind= or mode= at compile time, at the user's argument", function()
    local err = err_of("np.searchsorted(a, b, side='middle')", a(), 1.0)
    assert.truthy(err:find("user.py:3:", 1, true) and err:find("side", 1, true) and err:find("middle", 1, true), err)
    err = err_of("np.sort(a, kind='bogo')", a(), 1.0)
    assert.truthy(err:find("user.py:3:", 1, true) and err:find("bogo", 1, true), err)
    err = err_of("np.convolve(a, a, mode=b)", a(), 1.0)
    assert.truthy(err:find("user.py:3:", 1, true) and err:find("mode", 1, true), err)
  end)
end)
