-- Reductions and statistics (issue 18, item 5): std, var, argmin, argmax,
-- all, any, amin, amax, percentile, quantile and the nan* functions, as
-- functions and methods, with axis= and ddof= where they take them,
-- checked against NumPy itself (tests/numpy_batch.lua: one python run for
-- every case) over dtypes, shapes (empty, 0-d, 1-D to 3-D), views, axes in
-- and out of range and NaN inputs; compiled, and in the object mode where
-- the registry says it has them.
local lumba = require "lumba"
local H = require "helpers"
local batch = dofile("tests/numpy_batch.lua")

local DTYPES = { "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64" }
local SHAPES = { {}, { 0 }, { 5 }, { 2, 3 }, { 3, 0 }, { 2, 3, 4 } }
local VIEWS = { { 3, 4 }, "[::-1, ::2]", { 3, 4 }, ".T", { 2, 3, 4 }, "[:, ::-1, 1:]", { 6 }, "[::-2]" }

local function count(shape)
  local n = 1
  for _, s in ipairs(shape) do n = n * s end
  return n
end

-- values of a dtype: small, with repeats (ties for argmin/argmax), negatives
-- where signed; nan: every third element of a float array is a NaN
local function values_of(dt, n, seed, nan)
  local v = {}
  for i = 1, n do
    local k = (i * 7 + seed * 3) % 5
    if dt == "bool" then v[i] = k % 2 == 0
    elseif dt:match("^uint") then v[i] = k
    elseif dt:match("^int") then v[i] = k - 2
    elseif nan and i % 3 == 2 then v[i] = 0 / 0
    else v[i] = (k - 2) * 0.75 + i * 0.125 end
  end
  return v
end

local function make(dt, shape, vals)
  local a = lumba.zeros(#shape == 0 and {} or shape, dt)
  if #vals == 0 then return a end
  if #shape == 0 then a:set(vals[1]) return a end
  local flat = a:reshape(#vals)
  for i, x in ipairs(vals) do flat:set(i, x) end
  return a
end

local function flat_of(r) return H.flat(r), H.shape_of(r) end

local function close(a, b, tol)
  if a ~= a or b ~= b then return a ~= a and b ~= b end
  if a == b then return true end
  return math.abs(a - b) <= tol * math.max(1, math.abs(b))
end

-- Numba's result dtype where it is not NumPy's: the order statistics and
-- the nan means compute in float64 (NumPy keeps float32)
local FLOAT64 = { percentile = true, quantile = true, nanpercentile = true, nanquantile = true,
  nanmedian = true, nanmean = true, nanstd = true, nanvar = true }

-- the cases: {src (lumba's Python over a), oracle (NumPy's, over a), dt, shape, nan}
local function cases()
  local out = {}
  local d = 0
  local function next_dtype()
    d = d % #DTYPES + 1
    return DTYPES[d]
  end
  local function add(fn, call, dt, shape, nan, view)
    local src = call:gsub("A", "a" .. (view or ""))
    local oracle = src
    if FLOAT64[fn] then oracle = call:gsub("A", "a" .. (view or "") .. ".astype(np.float64)") end
    out[#out + 1] = { src = src, oracle = oracle, dt = dt, shape = shape, nan = nan, fn = fn }
  end
  local AXIS_FNS = { "std", "var", "argmin", "argmax", "all", "any", "amin", "amax" }
  for _, shape in ipairs(SHAPES) do
    local nd = #shape
    for _, fn in ipairs(AXIS_FNS) do
      local empty = count(shape) == 0
      local needs_elems = fn == "argmin" or fn == "argmax" or fn == "amin" or fn == "amax"
      for _, dt in ipairs { next_dtype(), next_dtype() } do
        add(fn, ("np.%s(A)"):format(fn), dt, shape)
        if fn ~= "amin" and fn ~= "amax" then add(fn, ("A.%s()"):format(fn), dt, shape) end
        -- every axis, and one past each end (AxisError)
        for ax = -nd - 1, nd do
          -- (NumPy takes axis 0 and -1 of a 0-d array in these; Numba refuses them, as lumba does)
          local zero_d = nd == 0 and (ax == 0 or ax == -1) and fn ~= "std" and fn ~= "var"
          if not zero_d and (not (needs_elems and empty and ax >= -nd and ax < nd and shape[ax % nd + 1] == 0) or fn:match("^arg")) then
            add(fn, ("np.%s(A, axis=%d)"):format(fn, ax), dt, shape)
          end
        end
      end
      if fn == "std" or fn == "var" then
        for _, ddof in ipairs { 1, 2, 6 } do
          local dt = next_dtype()
          add(fn, ("np.%s(A, ddof=%d)"):format(fn, ddof), dt, shape)
          if nd >= 1 then add(fn, ("A.%s(axis=%d, ddof=%d)"):format(fn, nd - 1, ddof), dt, shape) end
        end
      end
    end
    for _, fn in ipairs { "nansum", "nanprod", "nanmean", "nanmin", "nanmax", "nanstd", "nanvar", "nanmedian" } do
      for _, dt in ipairs { next_dtype(), "float64", "float32" } do
        if not ((fn == "nanmin" or fn == "nanmax") and count(shape) == 0) or dt == "float64" then
          add(fn, ("np.%s(A)"):format(fn), dt, shape, true)
        end
      end
    end
    add("nanvar", "np.nanvar(A, ddof=1)", "float64", shape, true)
    add("nanstd", "np.nanstd(A, ddof=2)", "float32", shape, true)
    for _, fn in ipairs { "percentile", "quantile", "nanpercentile", "nanquantile" } do
      local qs = fn:match("percentile") and { "0", "30", "50.0", "100", "np.array([10.0, 75.0, 100.0])", "101", "-1" }
        or { "0.0", "0.3", "0.5", "1", "np.array([[0.25, 1.0], [0.0, 0.6]])", "1.5", "-0.1" }
      for _, q in ipairs(qs) do
        -- (NumPy's nan* of an empty array give one NaN for an array q; Numba, as lumba, one per q)
        if count(shape) > 0 or (fn:match("^nan") and not q:match("array")) or q == qs[6] then
          add(fn, ("np.%s(A, %s)"):format(fn, q), next_dtype(), shape)
          add(fn, ("np.%s(A, %s)"):format(fn, q), "float64", shape, true)
        end
      end
    end
  end
  for i = 1, #VIEWS, 2 do
    local shape, view = VIEWS[i], VIEWS[i + 1]
    for _, call in ipairs { "np.std(A, axis=0)", "A.var(axis=-1)", "np.argmax(A, axis=0)", "A.argmin(axis=1)",
      "np.argmin(A)", "np.all(A, axis=0)", "A.any(axis=-1)", "np.percentile(A, 40)", "np.nanmean(A)",
      "np.nanmin(A)", "np.nanmedian(A)", "np.quantile(A, np.array([0.1, 0.9]))" } do
      local fn = call:match("np%.(%w+)") or call:match("A%.(%w+)")
      if #shape == 1 then call = call:gsub("axis=1", "axis=0") end
      add(fn, call, next_dtype(), shape)
      if fn:match("^nan") then add(fn, call, "float64", shape, true) end
    end
  end
  -- all NaN, NaN first and last
  for _, fn in ipairs { "argmax", "argmin", "nanmax", "nanmin", "nanmean", "nansum", "nanmedian", "std" } do
    add(fn, ("np.%s(A)"):format(fn), "float64", { 3 }, "all")
  end
  return out
end

local function check(label, w, ok, got, tol)
  if w.error then
    if ok then return label .. ": NumPy raised " .. w.error .. ", lumba returned " .. tostring(got) end
    local msg = w.error:match("^%w+Error: (.*)$") or w.error
    local kind = w.error:match("^(%w+Error)")
    if not tostring(got):find(kind, 1, true) or not tostring(got):find(msg, 1, true) then
      return label .. ": NumPy raised " .. w.error .. ", lumba " .. tostring(got)
    end
    return nil
  end
  if not ok then return label .. ": " .. tostring(got) end
  local vals, shape = flat_of(got)
  if type(got) == "userdata" then
    if got.dtype ~= w.dtype then return label .. ": dtype " .. got.dtype .. ", want " .. w.dtype end
  elseif w.dtype == "bool" then
    if type(got) ~= "boolean" then return label .. ": " .. type(got) .. " result, want bool" end
  elseif (math.type(got) == "float") ~= (w.dtype:match("float") ~= nil) then
    return label .. ": " .. tostring(math.type(got)) .. " result, want " .. w.dtype
  end
  if table.concat(shape, "x") ~= table.concat(w.shape, "x") then
    return label .. ": shape " .. table.concat(shape, "x") .. ", NumPy " .. table.concat(w.shape, "x")
  end
  for k = 1, #w.values do
    if not close(vals[k], w.values[k], tol) then
      return ("%s: [%d] = %s, NumPy %s"):format(label, k, tostring(vals[k]), tostring(w.values[k]))
    end
  end
  return nil
end

local function run_cases(cs, want, call)
  local bad = {}
  for i, c in ipairs(cs) do
    local label = ("%s over %s %s%s"):format(c.src, c.dt, table.concat(c.shape, "x"), c.nan and " with NaN" or "")
    local tol = (c.dt == "float32" or c.dt == "bool" or c.dt:match("int")) and 2e-6 or 1e-12
    if c.dt == "float32" and not FLOAT64[c.fn] then tol = 1e-5 end
    local ok, got = call(c)
    local e = check(label, want[i], ok, got, tol)
    if e then bad[#bad + 1] = e end
  end
  return bad
end

local function input_of(c, i)
  local vals
  if c.nan == "all" then vals = { 0 / 0, 0 / 0, 0 / 0 }
  else vals = values_of(c.dt, count(c.shape), i, c.nan) end
  return vals
end

describe("reductions and statistics", function()
  local cs, want
  setup(function()
    if not batch.available() then return end
    cs = cases()
    local b = {}
    for i, c in ipairs(cs) do
      c.vals = input_of(c, i)
      local vals = {}
      for k, x in ipairs(c.vals) do vals[k] = x end
      b[i] = { inputs = { { name = "a", dtype = c.dt, shape = c.shape, values = vals } }, expr = c.oracle }
    end
    want = batch.run(b)
  end)

  it("compute what NumPy computes, with Numba's dtypes, compiled", function()
    if not batch.available() then pending("python3 with NumPy is not installed") return end
    local fns = {}
    local bad = run_cases(cs, want, function(c)
      local f = fns[c.src]
      if not f then
        f = lumba.njit(("import numpy as np\ndef f(a):\n    return %s\n"):format(c.src))
        fns[c.src] = f
      end
      return pcall(f, make(c.dt, c.shape, c.vals))
    end)
    assert(#bad == 0, #bad .. " of " .. #cs .. " cases differ:\n" .. table.concat(bad, "\n"))
    assert.is_true(#cs >= 600)
  end)

  it("compute the same in the object mode, where the registry says it has them", function()
    if not batch.available() then pending("python3 with NumPy is not installed") return end
    local rows = {}
    for _, e in ipairs(require("lumba.core").builtins()) do
      for _, nm in ipairs(e.names) do rows[nm.name] = e end
    end
    local sub, subwant = {}, {}
    for i, c in ipairs(cs) do
      local name = c.src:match("^np%.(%w+)") and "numpy." .. c.src:match("^np%.(%w+)")
        or "ndarray." .. c.src:match("^a[^.]*%.(%w+)")
      local e = rows[name]
      if e and e.objmode == true then
        sub[#sub + 1] = c
        subwant[#subwant + 1] = want[i]
      end
    end
    local fns = {}
    local bad = run_cases(sub, subwant, function(c)
      local d = fns[c.src] or lumba.njit(("import numpy as np\ndef f(a):\n    return %s\n"):format(c.src))
      fns[c.src] = d
      return pcall(d.interpret, d, make(c.dt, c.shape, c.vals))
    end)
    assert(#bad == 0, #bad .. " of " .. #sub .. " cases differ:\n" .. table.concat(bad, "\n"))
    assert.is_true(#sub >= 100)
  end)

  it("takes axis and ddof from variables at run time, and checks the axis there", function()
    local f = lumba.njit "import numpy as np\ndef f(a, k, d):\n    return np.std(a, axis=k, ddof=d), a.argmax(axis=k), np.any(a > 2, k)\n"
    local a = lumba.array({ { 1.0, 2.0, 3.0 }, { 3.0, 5.0, 7.0 } })
    local s, am, an = f(a, 1, 1)
    assert.are.same({ 1.0, 2.0 }, s:totable())                 -- sample standard deviations of rows
    assert.are.same({ 2, 2 }, am:totable())
    assert.are.same({ true, true }, an:totable())
    s, am, an = f(a, -2, 0)
    assert.are.same({ 1.0, 1.5, 2.0 }, s:totable())
    assert.are.same({ 1, 1, 1 }, am:totable())
    assert.are.same({ true, true, true }, an:totable())
    for _, k in ipairs { 2, -3 } do
      local ok, e = pcall(f, a, k, 0)
      assert.is_false(ok)
      assert.matches("AxisError: axis is out of bounds", e)
    end
  end)

  it("reports a constant axis out of range at the user's argument", function()
    local f = lumba.njit({ chunkname = "user.py" }, "import numpy as np\ndef f(a):\n    return a.std(axis=2)\n")
    local err = H.error_of(f, lumba.zeros({ 2, 2 }))
    assert.truthy(err:find("user.py:3:23: AxisError: ndarray.std(): axis 2 is out of bounds for array of dimension 2", 1, true), err)
    local g = lumba.njit({ chunkname = "user.py" }, "import numpy as np\ndef g(a):\n    return np.percentile(a, 50, axis=0)\n")
    err = H.error_of(g, lumba.zeros(3))
    assert.truthy(err:find("TypingError: np.percentile() got an unexpected keyword argument 'axis'", 1, true), err)
  end)

  it("gives the first NaN's index to argmin and argmax, and NaN to the plain reductions", function()
    local nan = 0 / 0
    local g = lumba.njit "import numpy as np\ndef g(a):\n    return np.argmax(a), a.argmin(), np.nanmax(a), np.max(a), np.percentile(a, 50), np.nanpercentile(a, 50)\n"
    local amax, amin, nmax, mx, p, np_ = g(lumba.array({ 1.0, nan, 9.0, nan, -4.0 }))
    assert.are.equal(1, amax)
    assert.are.equal(1, amin)
    assert.are.equal(9.0, nmax)
    assert.is_true(mx ~= mx)
    assert.is_true(p ~= p)
    assert.are.equal(1.0, np_)  -- the median of 1, 9, -4
    -- an empty array: NaN for each q, as Numba gives
    local h = lumba.njit "import numpy as np\ndef h(a):\n    return np.nanpercentile(a, np.array([10.0, 50.0])), np.nanquantile(a, 0.5)\n"
    local ps, q = h(lumba.zeros(0))
    assert.are.equal(2, ps.size)
    assert.is_true(ps:get(1) ~= ps:get(1) and ps:get(2) ~= ps:get(2))
    assert.is_true(q ~= q)
  end)
end)
