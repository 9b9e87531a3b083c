-- The object mode's array creation helpers beside lumba's constructors:
-- np.array/asarray/ascontiguousarray, np.linspace/logspace, np.eye/
-- identity/tri, np.tril/triu, np.diag, with NumPy's values and dtypes
-- (compiled code: src/builtin_asarray.c, builtin_create.c, builtin_diag.c).
-- Helpers take 0-based Python values; lumba arrays index from 1.
local pyops = require "lumba.pyops"

local C = {}
local mtype, ffloor = math.type, math.floor

local function lumba() return require "lumba" end
local function raise(msg) error(msg, 0) end

local function is_array(x) return type(x) == "userdata" and pcall(function() return x.ndim end) end

-- the shape and items (row-major) of a nesting of tuples and numbers
local function nesting(obj)
  local shape, items, ndim = {}, {}, nil
  local function walk(x, depth)
    if pyops.is_tuple(x) then
      if shape[depth] and shape[depth] ~= x.n then raise("ValueError: np.array() needs a rectangular nesting") end
      shape[depth] = x.n
      for i = 1, x.n do walk(x[i], depth + 1) end
    else
      if ndim and ndim ~= depth - 1 then raise("ValueError: np.array() needs a rectangular nesting") end
      ndim = depth - 1
      items[#items + 1] = x
    end
  end
  walk(obj, 1)
  return shape, items, ndim or #shape
end

-- NumPy's dtype of Python numbers: bool, int64 or float64
local function items_dtype(items)
  local dt = nil
  for _, v in ipairs(items) do
    local d = type(v) == "boolean" and "bool" or mtype(v) == "integer" and "int64" or "float64"
    if dt == nil or d == "float64" or (d == "int64" and dt == "bool") then dt = d end
  end
  return dt or "float64"
end

-- mode: "array" copies, "asarray" keeps an array of its dtype, "contig" keeps a C-contiguous one
function C.NP_ARRAY(obj, dtype, mode)
  if is_array(obj) then
    if dtype == nil or dtype == obj.dtype then
      if mode == "asarray" or (mode == "contig" and obj:is_c_contiguous()) then return obj end
      return obj:copy()
    end
    return obj:astype(dtype)
  end
  local shape, items, ndim = nesting(obj)
  dtype = dtype or items_dtype(items)
  local dims = {}
  for k = 1, ndim do dims[k] = shape[k] end
  if #dims == 0 and mode == "contig" then dims[1] = 1 end
  local a = lumba().zeros(dims, dtype)
  local flat = #dims == 0 and a or a:reshape(#items)
  for i, v in ipairs(items) do
    if #dims == 0 then a:set(v) else flat:set(i, v) end
  end
  return a
end

local function to_dtype(v, dtype)
  if dtype:match("^u?int") then return ffloor(v) end
  return v
end

function C.NP_LINSPACE(start, stop, num, endpoint, dtype, log, base)
  num = num or 50
  if endpoint == nil then endpoint = true end
  base = base or 10.0
  if num < 0 then raise("ValueError: Number of samples must be non-negative.") end
  start, stop = start + 0.0, stop + 0.0
  local div = pyops.truth(endpoint) and num - 1 or num
  local delta = stop - start
  local step = div > 0 and delta / div or delta
  local a = lumba().zeros(num, dtype or "float64")
  for i = 0, num - 1 do
    local v
    if div > 0 and step == 0 then v = i / div * delta else v = i * step end
    v = v + start
    if pyops.truth(endpoint) and div > 0 and i == num - 1 then v = stop end
    if log then v = (base + 0.0) ^ v end
    a:set(i + 1, to_dtype(v, dtype or "float64"))
  end
  return a
end

function C.NP_EYE(n, m, k, dtype, tri)
  m = m or n
  k = k or 0
  if n < 0 or m < 0 then raise("ValueError: negative dimensions are not allowed") end
  local a = lumba().zeros({ n, m }, dtype or "float64")
  for i = 0, n - 1 do
    if tri then
      for j = 0, m - 1 do if j <= i + k then a:set(i + 1, j + 1, 1) end end
    elseif i + k >= 0 and i + k < m then
      a:set(i + 1, i + k + 1, 1)
    end
  end
  return a
end

function C.NP_TRIL(m, k, upper)
  k = k or 0
  if m.ndim < 2 then raise("TypeError: tril()/triu() need an array of 2 or more dimensions") end
  local r = m:copy()
  local rows, cols = m.shape[m.ndim - 1], m.shape[m.ndim]
  local outer = m.size // math.max(rows * cols, 1)
  local flat = r:reshape(m.size)
  for o = 0, outer - 1 do
    for i = 0, rows - 1 do
      for j = 0, cols - 1 do
        if (upper and j < i + k) or (not upper and j > i + k) then flat:set((o * rows + i) * cols + j + 1, 0) end
      end
    end
  end
  return r
end

function C.NP_DIAG(v, k)
  k = k or 0
  local roff, coff = math.max(-k, 0), math.max(k, 0)
  if v.ndim == 1 then
    local n = v.shape[1]
    local side = n + math.abs(k)
    local a = lumba().zeros({ side, side }, v.dtype)
    for i = 0, n - 1 do a:set(i + roff + 1, i + coff + 1, v:get(i + 1)) end
    return a
  end
  if v.ndim ~= 2 then raise("ValueError: Input must be 1- or 2-d.") end
  local len = math.max(math.min(v.shape[1] - roff, v.shape[2] - coff), 0)
  local a = lumba().zeros(len, v.dtype)
  for i = 0, len - 1 do a:set(i + 1, v:get(i + roff + 1, i + coff + 1)) end
  return a
end

return C
