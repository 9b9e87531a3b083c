-- lumba.objmode_arrays — the object mode's NumPy array language: the
-- generic operators when an operand is an array, advanced indexing, stores
-- with broadcasting, the NumPy functions on arrays (ufuncs, reductions with
-- axis, shape functions, creation). The elementwise work is lumba.core's
-- (src/array_ufunc.c: binop/unop/where/copyto); this file picks shapes and
-- dtypes as NumPy does and raises errors at the user's line.
local core = require "lumba.core"
local pyops = require "lumba.pyops"

local A = {}
A.core = core
local mtype, type, select, error, getmetatable = math.type, type, select, error, getmetatable
local sformat, concat, unpack = string.format, table.concat, table.unpack
local is_tuple, num = pyops.is_tuple, pyops.num
local binop, unop, where, copyto = core.binop, core.unop, core.where, core.copyto

local ND = getmetatable(core.zeros(0))

---------------------------------------------------------------------------
-- errors at the user's line: the innermost frame of a generated chunk,
-- mapped to the Python position its line records ("--@line:col")
---------------------------------------------------------------------------
local CHUNKS = setmetatable({}, { __mode = "v" })  -- "objmode#N" -> info
A.CHUNKS = CHUNKS

-- Python position of generated line `line` of chunk info
local function py_pos(info, line)
  local map = info.map
  if not map then
    map = {}
    local last = nil
    local i = 0
    for l in (info.src .. "\n"):gmatch("([^\n]*)\n") do
      i = i + 1
      local p = l:match("%-%-@(%d+:%d+)$")
      if p then last = p end
      map[i] = last
    end
    info.map = map
  end
  local p = map[line]
  return info.chunk .. ":" .. (p or "0:1")
end

-- "objmode#N:L: msg" -> "file.py:line:col: msg"
function A.map_message(msg)
  if type(msg) ~= "string" then return msg end
  local name, line, rest = msg:match("^(objmode#%d+):(%d+): (.*)$")
  if not name then return msg end
  local info = CHUNKS[name]
  if not info then return msg end
  return py_pos(info, tonumber(line)) .. ": " .. rest
end

-- the user's position of the running object-mode code, or nil
local function where_now()
  for level = 3, 60 do
    local d = debug.getinfo(level, "Sl")
    if not d then return nil end
    local name = d.source:match("^=(objmode#%d+)$")
    if name and CHUNKS[name] then return py_pos(CHUNKS[name], d.currentline) end
  end
  return nil
end

local function raise(msg)
  local p = where_now()
  error(p and (p .. ": " .. msg) or msg, 0)
end
A.raise = raise

-- call a core function; its errors (positioned at this file) move to the user's line
local function strip(msg)
  if type(msg) ~= "string" then return msg end
  return (msg:gsub("^[^\n]-%.lua:%d+: ", "", 1))
end
local function call(f, ...)
  local ok, r = pcall(f, ...)
  if ok then return r end
  raise(strip(r))
end
A.call = call

---------------------------------------------------------------------------
-- arrays: lumba.ndarray, or another object with the ndarray interface
-- (TableArray, test doubles), converted to an ndarray where one is needed
---------------------------------------------------------------------------
local function is_nd(x) return getmetatable(x) == ND end
A.is_nd = is_nd

local function arrayish(x)
  local t = type(x)
  if t == "userdata" then return getmetatable(x) == ND end
  if t == "table" and not is_tuple(x) then
    local ok, s = pcall(function() return x.shape end)
    return ok and s ~= nil
  end
  return false
end
A.arrayish = arrayish

-- an ndarray holding x's elements (x itself when it is one)
local function nd(x)
  if is_nd(x) then return x end
  if is_tuple(x) then
    local t = {}
    for i = 1, x.n do
      local v = x[i]
      t[i] = is_tuple(v) and nd(v):totable() or v
    end
    return call(core.array, t)
  end
  if type(x) == "table" and x.t and x.dtype then return call(core.array, x.t, x.dtype) end  -- TableArray
  if type(x) == "table" and x.shape and x.get then
    local shape, n = x.shape, x.ndim
    local out = core.zeros(shape, x.dtype)
    local idx = {}
    local function walk(d)
      if d > n then idx[n + 1] = x:get(unpack(idx, 1, n)); out:set(unpack(idx, 1, n + 1)); return end
      for i = 1, shape[d] do idx[d] = i; walk(d + 1) end
    end
    if n == 0 then return out end
    walk(1)
    return out
  end
  return x
end
A.nd = nd

-- operand of an elementwise op: arrays as ndarrays, tuples as arrays, scalars as they are
local function operand(x)
  if type(x) == "number" or type(x) == "boolean" then return x end
  if x == nil then raise("TypeError: unsupported operand type(s): 'NoneType' and array") end
  return nd(x)
end

---------------------------------------------------------------------------
-- operators: numbers go straight to pyops; an array operand to the core
---------------------------------------------------------------------------
local function bin(name, scalar)
  return function(a, b)
    if type(a) == "number" and type(b) == "number" then return scalar(a, b) end
    if arrayish(a) or arrayish(b) then return call(binop, name, operand(a), operand(b)) end
    return scalar(a, b)
  end
end
A.ADD = bin("add", pyops.add)
A.SUB = bin("subtract", pyops.sub)
A.MUL = bin("multiply", pyops.mul)
A.DIV = bin("true_divide", pyops.div)
A.FLOORDIV = bin("floor_divide", pyops.floordiv)
A.MOD = bin("remainder", pyops.mod)
A.POW = bin("power", pyops.pow)
A.BAND = bin("bitwise_and", pyops.band)
A.BOR = bin("bitwise_or", pyops.bor)
A.BXOR = bin("bitwise_xor", pyops.bxor)
A.SHL = bin("left_shift", pyops.shl)
A.SHR = bin("right_shift", pyops.shr)
A.EQ = bin("equal", pyops.eq)
A.NE = bin("not_equal", pyops.ne)
A.LT = bin("less", pyops.lt)
A.LE = bin("less_equal", pyops.le)
A.GT = bin("greater", pyops.gt)
A.GE = bin("greater_equal", pyops.ge)

local function un(name, scalar)
  return function(a)
    if arrayish(a) then return call(unop, name, nd(a)) end
    return scalar(a)
  end
end
A.NEG = un("negative", pyops.neg)
A.POS = un("positive", pyops.pos)
-- np.positive by name: NumPy has no bool loop (the operator +a has one)
function A.NPPOS(a)
  if arrayish(a) and nd(a).dtype == "bool" then
    raise("UFuncTypeError: ufunc 'positive' did not contain a loop with signature matching types bool -> None")
  end
  return A.POS(a)
end
A.INVERT = un("invert", pyops.invert)
A.ABS = un("absolute", pyops.abs)

-- a op= b: arrays in place (NumPy's same_kind casting into a), else a op b
local INPLACE = {
  Add = "add", Sub = "subtract", Mult = "multiply", Div = "true_divide", FloorDiv = "floor_divide",
  Mod = "remainder", Pow = "power", BitAnd = "bitwise_and", BitOr = "bitwise_or",
  BitXor = "bitwise_xor", LShift = "left_shift", RShift = "right_shift",
}
A.INPLACE_OPS = INPLACE
function A.IOP(name, scalar_op)
  return function(a, b)
    if is_nd(a) then
      call(binop, name, a, operand(b), a)
      return a
    end
    if arrayish(a) and not is_tuple(a) then
      -- a TableArray or test double: compute, then store back element by element
      local r = call(binop, name, nd(a), operand(b))
      A.store_all(a, r)
      return a
    end
    return scalar_op(a, b)
  end
end

-- every element of the (non-ndarray) array a from ndarray r of the same shape
function A.store_all(a, r)
  local n = a.ndim
  local shape = a.shape
  local idx = {}
  local function walk(d)
    if d > n then idx[n + 1] = r:get(unpack(idx, 1, n)); a:set(unpack(idx, 1, n + 1)); return end
    for i = 1, shape[d] do idx[d] = i; walk(d + 1) end
  end
  if n > 0 then walk(1) end
end

---------------------------------------------------------------------------
-- indexing: specs {index = i} (0-based), {lo, hi, step}, {newaxis = true},
-- {array = ndarray}
---------------------------------------------------------------------------
local function shape_str(shape, n)
  n = n or #shape
  local p = {}
  for i = 1, n do p[i] = tostring(shape[i]) end
  if n == 1 then return "(" .. p[1] .. ",)" end
  return "(" .. concat(p, ",") .. ")"
end
A.shape_str = shape_str

-- a[mask]: the elements where the bool array mask (a's leading shape) is true
local function mask_select(a, m)
  local ash, msh = a.shape, m.shape
  if m.ndim > a.ndim then
    raise(sformat("IndexError: too many indices for array: array is %d-dimensional, but %d were indexed", a.ndim, m.ndim))
  end
  for k = 1, m.ndim do
    if msh[k] ~= ash[k] then
      raise(sformat("IndexError: boolean index did not match indexed array along dimension %d; dimension is %d but corresponding boolean dimension is %d",
        k - 1, ash[k], msh[k]))
    end
  end
  -- the selected leading positions, in C order
  local mf = m:copy():reshape(m.size)
  local rest = {}
  local inner = 1
  for k = m.ndim + 1, a.ndim do rest[#rest + 1] = ash[k]; inner = inner * ash[k] end
  local count = 0
  for i = 1, m.size do if mf:get(i) then count = count + 1 end end
  local oshape = { count }
  for _, d in ipairs(rest) do oshape[#oshape + 1] = d end
  local out = core.empty(oshape, a.dtype)
  if count == 0 or inner == 0 then return out end
  local src = a:copy():reshape(m.size, inner)
  local dst = out:reshape(count, inner)
  local j = 0
  for i = 1, m.size do
    if mf:get(i) then
      j = j + 1
      copyto(dst[j], src[i])
    end
  end
  return out
end

-- positions of a bool mask's true elements along each of its axes (np.nonzero)
local function nonzero(m)
  local n = m.ndim
  local mf = m:copy():reshape(m.size)
  local shape = m.shape
  local cols = {}
  for k = 1, n do cols[k] = {} end
  local count = 0
  for i = 1, m.size do
    if mf:get(i) then
      count = count + 1
      local r = i - 1
      for k = n, 1, -1 do cols[k][count] = r % shape[k]; r = r // shape[k] end
    end
  end
  local out = {}
  for k = 1, n do out[k] = count > 0 and core.array(cols[k], "int64") or core.zeros(0, "int64") end
  return out
end
A.nonzero = nonzero

-- a[i1, i2, ...] with integer arrays (and ints) for the leading axes: the
-- index arrays broadcast together; the result has their shape then a's rest
local function take(a, idxs)
  local n = #idxs
  if n > a.ndim then
    raise(sformat("IndexError: too many indices for array: array is %d-dimensional, but %d were indexed", a.ndim, n))
  end
  local b = idxs[1]
  for k = 2, n do
    local ok, r = pcall(binop, "add", b, idxs[k])
    if not ok then
      local p = {}
      for i = 1, n do p[i] = shape_str(type(idxs[i]) == "number" and {} or idxs[i].shape, type(idxs[i]) == "number" and 0 or nil) end
      raise("IndexError: shape mismatch: indexing arrays could not be broadcast together with shapes " .. concat(p, " "))
    end
    b = r
  end
  local ishape = type(b) == "number" and {} or b.shape
  local ish = {}
  for k = 1, #ishape do ish[k] = ishape[k] end
  local cnt = 1
  for _, d in ipairs(ish) do cnt = cnt * d end
  -- each index array broadcast to ish, flat
  local flat = {}
  for k = 1, n do
    local full = core.zeros(#ish > 0 and ish or 1, "int64")
    call(copyto, full, idxs[k])
    flat[k] = full:reshape(cnt)
  end
  local ash = a.shape
  local rest, inner = {}, 1
  for k = n + 1, a.ndim do rest[#rest + 1] = ash[k]; inner = inner * ash[k] end
  local oshape = {}
  for _, d in ipairs(ish) do oshape[#oshape + 1] = d end
  for _, d in ipairs(rest) do oshape[#oshape + 1] = d end
  local out = core.empty(oshape, a.dtype)
  local dst = out:reshape(cnt, inner)
  for j = 1, cnt do
    local pos = {}
    for k = 1, n do
      local i = flat[k]:get(j)
      local d = ash[k]
      if i < -d or i >= d then
        raise(sformat("IndexError: index %d is out of bounds for axis %d with size %d", i, k - 1, d))
      end
      pos[k] = (i < 0 and i + d or i) + 1
    end
    if n == a.ndim then
      dst:set(j, 1, a:get(unpack(pos, 1, n)))
    else
      copyto(dst[j], a:slice(unpack(pos, 1, n)))
    end
  end
  return out
end

-- the array index an index value is, or nil (a bool or int array, or a tuple of ints)
local function index_array(v)
  if is_tuple(v) then return nd(v) end
  if arrayish(v) then
    local x = nd(v)
    local k = x.dtype
    if k ~= "bool" and not k:match("int") then
      raise("IndexError: arrays used as indices must be of integer (or boolean) type")
    end
    return x
  end
  return nil
end
A.index_array = index_array

-- a[arr...] (advanced), given the index values (arrays, ints)
function A.advanced_get(a, ...)
  a = nd(a)
  local n = select("#", ...)
  local idx = { ... }
  if n == 1 then
    local x = index_array(idx[1])
    if x.dtype == "bool" then return mask_select(a, x) end
    return take(a, { x })
  end
  local list = {}
  for k = 1, n do
    local v = idx[k]
    local x = index_array(v)
    if x and x.dtype == "bool" then
      for _, c in ipairs(nonzero(x)) do list[#list + 1] = c end
    elseif x then
      list[#list + 1] = x
    else
      v = num(v)
      if mtype(v) ~= "integer" then
        raise("IndexError: only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices")
      end
      list[#list + 1] = v
    end
  end
  return take(a, list)
end

-- a[arr...] = v
function A.advanced_set(a, v, ...)
  local target = nd(a)
  local n = select("#", ...)
  local idx = { ... }
  local list = {}
  for k = 1, n do
    local x = index_array(idx[k])
    if x and x.dtype == "bool" then
      if n == 1 and x.ndim > 1 then
        for _, c in ipairs(nonzero(x)) do list[#list + 1] = c end
      else
        list[#list + 1] = nonzero(x)[1]
      end
    elseif x then
      list[#list + 1] = x
    else
      list[#list + 1] = num(idx[k])
    end
  end
  -- the selected positions, then v broadcast over them
  local sel = take(core.arange(target.size):reshape(target.shape), list)
  local vals = core.empty(sel.shape, target.dtype)
  local vv = (type(v) == "number" or type(v) == "boolean") and v or nd(v)
  local ok, err = pcall(copyto, vals, vv)
  if not ok then
    raise(sformat("ValueError: shape mismatch: value array of shape %s could not be broadcast to indexing result of shape %s",
      shape_str(vv.shape or {}, vv.ndim or 0), shape_str(sel.shape)))
  end
  local fs, fv = sel:reshape(sel.size), vals:reshape(vals.size)
  local shape = target.shape
  local pos = {}
  for j = 1, fs.size do
    local r = fs:get(j)
    for k = target.ndim, 1, -1 do pos[k] = r % shape[k] + 1; r = r // shape[k] end
    pos[target.ndim + 1] = fv:get(j)
    a:set(unpack(pos, 1, target.ndim + 1))
  end
  local _ = err
end

-- a view with new axes of size 1 inserted before the given 0-based view axes
function A.newaxes(view, at)
  local shape = view.shape
  local out, k = {}, 1
  local total = #shape + #at
  local set = {}
  for _, p in ipairs(at) do set[p] = true end
  for d = 0, total - 1 do
    if set[d] then out[#out + 1] = 1 else out[#out + 1] = shape[k]; k = k + 1 end
  end
  if #out == 0 then return view end
  return view:reshape(out)
end

---------------------------------------------------------------------------
-- NumPy functions on arrays
---------------------------------------------------------------------------
-- the ufunc names of the registry's math members
local UFUNC = {
  asin = "arcsin", acos = "arccos", atan = "arctan", asinh = "arcsinh", acosh = "arccosh",
  atanh = "arctanh", atan2 = "arctan2", degrees = "rad2deg", radians = "deg2rad", pow = "power",
  abs = "absolute",
}
local BINARY = { arctan2 = true, hypot = true, copysign = true, fmod = true, power = true,
  maximum = true, minimum = true, fmax = true, fmin = true, logical_and = true, logical_or = true,
  logical_xor = true }

-- np.<name>(x [, y]) where an argument may be an array: the core's ufunc
function A.ufunc(name, scalar)
  local u = UFUNC[name] or name
  if BINARY[u] then
    return function(x, y)
      if arrayish(x) or arrayish(y) then return call(binop, u, operand(x), operand(y)) end
      return scalar(x, y)
    end
  end
  return function(x, ...)
    if arrayish(x) then
      local ok, r = pcall(unop, u, nd(x))
      if ok then return r end
      if tostring(r):find("unknown operation") then raise("UnsupportedError: np." .. name .. " of an array is not supported in the object mode") end
      raise(strip(r))
    end
    return scalar(x, ...)
  end
end

function A.WHERE(c, x, y)
  if x == nil and y == nil then
    local t = nonzero(nd(c))
    return pyops.tuple(unpack(t))
  end
  return call(where, operand(c), operand(x), operand(y))
end

-- axis argument: nil, or a 0-based int normalised to 1-based for ndim
local function norm_axis(axis, ndim)
  if axis == nil then return nil end
  axis = num(axis)
  if mtype(axis) ~= "integer" then raise("TypeError: 'float' object cannot be interpreted as an integer") end
  local k = axis < 0 and axis + ndim or axis
  if k < 0 or k >= ndim then
    raise(sformat("AxisError: axis %d is out of bounds for array of dimension %d", axis, ndim))
  end
  return k + 1
end

-- a with axis k (1-based) moved to the front (a view)
local function axis_first(a, k)
  local perm = { k }
  for d = 1, a.ndim do if d ~= k then perm[#perm + 1] = d end end
  return a:transpose(perm)
end

-- the dtype NumPy sums (and multiplies, accumulates) a dtype in
local function sum_dtype(dt)
  if dt == "bool" or dt == "int8" or dt == "int16" or dt == "int32" then return "int64" end
  if dt == "uint8" or dt == "uint16" or dt == "uint32" then return "uint64" end
  return dt
end
local function mean_dtype(dt)
  if dt == "float32" then return "float32" end
  return "float64"
end

local function rest_shape(a, k)
  local s = {}
  for d = 1, a.ndim do if d ~= k then s[#s + 1] = a.shape[d] end end
  return s
end

-- fold op over axis k: acc starts from the first slice (cast to dtype)
local function fold(a, k, op, dtype, empty_value, name)
  local v = axis_first(a, k)
  local n = a.shape[k]
  local rs = rest_shape(a, k)
  local acc = core.empty(#rs > 0 and rs or {}, dtype)
  if n == 0 then
    if empty_value == nil then
      raise("ValueError: zero-size array to reduction operation " .. name .. " which has no identity")
    end
    acc:fill(empty_value)
    return acc
  end
  copyto(acc, v.ndim == 1 and v:get(1) or v[1])
  for i = 2, n do call(binop, op, acc, v.ndim == 1 and v:get(i) or v[i], acc) end
  return acc
end

-- a 0-d result as a Lua scalar (NumPy gives numpy scalars there)
local function scalar_of(r)
  if is_nd(r) and r.ndim == 0 then return r:get() end
  return r
end

function A.SUM(a, axis)
  a = nd(a)
  local k = norm_axis(axis, a.ndim)
  local dt = sum_dtype(a.dtype)
  if k == nil then
    if a.ndim == 0 then return a:get() end
    return scalar_of(fold(a:reshape(a.size), 1, "add", dt, false, "add"))
  end
  return scalar_of(fold(a, k, "add", dt, false, "add"))
end

function A.PROD(a, axis)
  a = nd(a)
  local k = norm_axis(axis, a.ndim)
  local dt = sum_dtype(a.dtype)
  if k == nil then
    if a.ndim == 0 then return a:get() end
    return scalar_of(fold(a:reshape(a.size), 1, "multiply", dt, true, "multiply"))
  end
  return scalar_of(fold(a, k, "multiply", dt, true, "multiply"))
end

local function extreme(op, name)
  return function(a, axis)
    a = nd(a)
    local k = norm_axis(axis, a.ndim)
    if k == nil then
      if a.ndim == 0 then return a:get() end
      return scalar_of(fold(a:reshape(a.size), 1, op, a.dtype, nil, name))
    end
    return scalar_of(fold(a, k, op, a.dtype, nil, name))
  end
end
A.MIN = extreme("minimum", "minimum")
A.MAX = extreme("maximum", "maximum")

function A.MEAN(a, axis)
  a = nd(a)
  local k = norm_axis(axis, a.ndim)
  local n = k and a.shape[k] or a.size
  local dt = mean_dtype(a.dtype)
  local s
  if dt == "float32" then
    s = k and fold(a, k, "add", "float32", 0.0, "add") or fold(a:reshape(a.size), 1, "add", "float32", 0.0, "add")
  else
    local c = a.dtype == "float64" and a or a:astype("float64")
    s = k and fold(c, k, "add", "float64", 0.0, "add") or fold(c:reshape(c.size), 1, "add", "float64", 0.0, "add")
  end
  return scalar_of(call(binop, "true_divide", s, n + 0.0))
end

function A.VAR(a, axis, ddof)
  a = nd(a)
  ddof = ddof or 0
  local k = norm_axis(axis, a.ndim)
  local n = k and a.shape[k] or a.size
  local dt = mean_dtype(a.dtype)
  local c = a.dtype == dt and a or a:astype(dt)
  local m = A.MEAN(c, axis)
  if k and is_nd(m) then
    -- the mean with the reduced axis kept, to broadcast against c
    local ks = {}
    for d = 1, a.ndim do ks[d] = d == k and 1 or a.shape[d] end
    m = m:reshape(ks)
  end
  local d = call(binop, "subtract", c, m)
  local sq = call(binop, "multiply", d, d)
  local s = A.SUM(sq, axis)
  return scalar_of(call(binop, "true_divide", s, math.max(n - ddof, 0) + 0.0))
end

function A.STD(a, axis, ddof)
  local v = A.VAR(a, axis, ddof)
  if type(v) == "number" then return math.sqrt(v) end
  return call(unop, "sqrt", v)
end

-- argmin/argmax: first extreme; nan counts as the extreme (NumPy)
local function arg_extreme(better, name)
  return function(a, axis)
    a = nd(a)
    local k = norm_axis(axis, a.ndim)
    if k == nil then a = a:copy():reshape(a.size); k = 1 end
    local n = a.shape[k]
    if n == 0 then raise("ValueError: attempt to get " .. name .. " of an empty sequence") end
    local v = axis_first(a, k)
    local function slice(i) return v.ndim == 1 and v:get(i) or v[i] end
    local best = slice(1)
    if is_nd(best) then best = best:copy() end
    local rs = rest_shape(a, k)
    local idx = core.zeros(#rs > 0 and rs or {}, "int64")
    for i = 2, n do
      local x = slice(i)
      -- x beats best: strictly better, or nan where best is not
      local m = binop("logical_or", binop(better, x, best),
        binop("logical_and", unop("isnan", x), unop("logical_not", unop("isnan", best))))
      if is_nd(best) then
        copyto(best, where(m, x, best))
        copyto(idx, where(m, i - 1, idx))
      elseif m then
        best = x
        idx:fill(i - 1)
      end
    end
    return scalar_of(idx)
  end
end
A.ARGMIN = arg_extreme("less", "argmin")
A.ARGMAX = arg_extreme("greater", "argmax")

-- cumsum/cumprod: the running op along an axis (all of a, flattened, without one)
local function cumulate(op)
  return function(a, axis)
    a = nd(a)
    local k = norm_axis(axis, a.ndim)
    if k == nil then a = a:copy():reshape(a.size); k = 1 end
    local out = core.zeros(a.shape, sum_dtype(a.dtype))
    local v, o = axis_first(a, k), axis_first(out, k)
    local n = a.shape[k]
    for i = 1, n do
      if o.ndim == 1 then
        o:set(i, i == 1 and num(v:get(1)) or binop(op, o:get(i - 1), num(v:get(i))))
      else
        if i == 1 then copyto(o[1], v[1]) else binop(op, o[i - 1], v[i], o[i]) end
      end
    end
    return out
  end
end
A.CUMSUM, A.CUMPROD = cumulate("add"), cumulate("multiply")

---------------------------------------------------------------------------
-- shapes and creation
---------------------------------------------------------------------------
function A.RESHAPE(a, shape)
  a = nd(a)
  local ok, r = pcall(a.reshape, a, shape)
  if ok then return r end
  local n = 1
  for _, d in ipairs(shape) do n = n * d end
  raise(sformat("ValueError: cannot reshape array of size %d into shape %s", a.size, shape_str(shape)))
end

function A.ASTYPE(a, dt) return call(nd(a).astype, nd(a), dt) end

function A.LINSPACE(start, stop, n, dtype)
  n = n == nil and 50 or num(n)
  local out = core.empty(n, "float64")
  start, stop = num(start) + 0.0, num(stop) + 0.0
  if n == 1 then out:set(1, start) end
  if n > 1 then
    local step = (stop - start) / (n - 1)
    for i = 0, n - 1 do out:set(i + 1, start + i * step) end
    out:set(n, stop)
  end
  if dtype and dtype ~= "float64" then return out:astype(dtype) end
  return out
end

function A.EYE(n, m, k, dtype)
  n = num(n)
  m = m == nil and n or num(m)
  k = k == nil and 0 or num(k)
  local out = core.zeros({ n, m }, dtype or "float64")
  for i = 0, n - 1 do
    local j = i + k
    if j >= 0 and j < m then out:set(i + 1, j + 1, 1) end
  end
  return out
end

-- np.array(x [, dtype]): a copy; tuples (nested) and numbers too
function A.ARRAY(x, dtype)
  local r
  if type(x) == "number" or type(x) == "boolean" then
    r = call(core.array, x, dtype)
    return r
  end
  r = nd(x)
  if r == x then r = x:copy() end
  if dtype and r.dtype ~= dtype then r = r:astype(dtype) end
  return r
end

return A
