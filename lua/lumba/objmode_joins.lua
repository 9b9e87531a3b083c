-- lumba.objmode_joins — the object mode's NumPy joins, splits and views
-- with axes (compiled code's builtin_join.c and builtin_view.c): views are
-- slices, transpositions and reshapes of the ndarray runtime; joins copy
-- each part into a slice of a new array, whose dtype is NumPy's promotion
-- of the parts' (the prelude's _lumba.empty rule).
local pyops = require "lumba.pyops"
local AR = require "lumba.objmode_arrays"

local mtype, sformat, unpack = math.type, string.format, table.unpack
local core, raise, call, nd, arrayish, is_tuple = AR.core, AR.raise, AR.call, AR.nd, AR.arrayish, pyops.is_tuple
local num = pyops.num

local J = {}
local H  -- objmode's helpers (SLICE, SETSLICE, TRANSPOSE), set by init

local function arr(x)
  if arrayish(x) then return nd(x) end
  return nd(AR.ARRAY(x))
end
local function shape_str(a) return AR.shape_str(a.shape, a.ndim) end

-- axis in -n..n-1 -> 0..n-1, NumPy's AxisError otherwise
local function norm_axis(axis, n, fname)
  axis = num(axis)
  if mtype(axis) ~= "integer" then raise(sformat("TypeError: %s(): axis must be an integer", fname)) end
  if axis < -n or axis >= n then
    raise(sformat("AxisError: axis %d is out of bounds for array of dimension %d", axis, n))
  end
  return axis < 0 and axis + n or axis
end

-- the slice specs selecting lo..hi-1 (step) on axis ax (0-based) of an n-d array
local function along(n, ax, lo, hi, step)
  local specs = {}
  for d = 0, n - 1 do specs[d + 1] = d == ax and { lo, hi, step } or { nil, nil, nil } end
  return unpack(specs, 1, n)
end
local function slice(a, ax, lo, hi, step) return H.SLICE(nil, a, nil, along(a.ndim, ax, lo, hi, step)) end
local function store(out, ax, lo, hi, v) H.SETSLICE(nil, out, nil, v, along(out.ndim, ax, lo, hi)) end

local function parts_of(seq, fname)
  if arrayish(seq) then  -- an array: its rows
    local a = nd(seq)
    local t = {}
    for i = 1, a.shape[1] do t[i] = a[i] end
    return t
  end
  if not is_tuple(seq) then raise(sformat("TypeError: %s() needs a tuple or list of arrays", fname)) end
  local t = {}
  for i = 1, seq.n do t[i] = arr(seq[i]) end
  if #t == 0 then raise("ValueError: need at least one array to concatenate") end
  return t
end

local function promoted(parts, dtype)
  if dtype ~= nil then return dtype end
  local acc
  for _, p in ipairs(parts) do
    local z = core.zeros({ 0 }, p.dtype)
    acc = acc and call(core.binop, "add", acc, z) or z
  end
  return acc.dtype
end

local function concat(parts, ax, dtype, fname)
  local first = parts[1]
  local n = first.ndim
  if n == 0 then raise("ValueError: zero-dimensional arrays cannot be concatenated") end
  ax = norm_axis(ax, n, fname)
  local shape, total = {}, 0
  for d = 1, n do shape[d] = first.shape[d] end
  for i, p in ipairs(parts) do
    if p.ndim ~= n then
      raise(sformat("ValueError: all the input array dimensions except for the concatenation axis must match exactly, "
        .. "but along dimension %d, the array at index 0 has %d dimension(s) and the array at index %d has %d dimension(s)",
        0, n, i - 1, p.ndim))
    end
    for d = 1, n do
      if d ~= ax + 1 and p.shape[d] ~= shape[d] then
        raise(sformat("ValueError: all the input array dimensions except for the concatenation axis must match exactly, "
          .. "but along dimension %d, the array at index 0 has size %d and the array at index %d has size %d",
          d - 1, shape[d], i - 1, p.shape[d]))
      end
    end
    total = total + p.shape[ax + 1]
  end
  shape[ax + 1] = total
  local out = call(core.zeros, shape, promoted(parts, dtype))
  local o = 0
  for _, p in ipairs(parts) do
    local k = p.shape[ax + 1]
    if k > 0 then store(out, ax, o, o + k, p) end
    o = o + k
  end
  return out
end

local function flat(a) return a:copy():reshape(a.size) end

function J.CONCATENATE(seq, axis, dtype)
  return concat(parts_of(seq, "np.concatenate"), axis or 0, dtype, "np.concatenate")
end
-- np.concatenate(seq, axis=None): the flattened parts
function J.CONCATENATE_FLAT(seq, dtype)
  local parts = parts_of(seq, "np.concatenate")
  for i, p in ipairs(parts) do parts[i] = flat(p) end
  return concat(parts, 0, dtype, "np.concatenate")
end

-- atleast_1d/2d/3d: NumPy's placement of the new axes
function J.ATLEAST(nd_, x)
  local a = arr(x)
  if a.ndim >= nd_ then return a end
  if nd_ == 1 then return a:reshape(1) end
  if nd_ == 2 then return a.ndim == 0 and a:reshape(1, 1) or AR.newaxes(a, { 0 }) end
  if a.ndim == 0 then return a:reshape(1, 1, 1) end
  if a.ndim == 1 then return AR.newaxes(a, { 0, 2 }) end
  return AR.newaxes(a, { 2 })
end

function J.STACK(seq, axis, dtype)
  local parts = parts_of(seq, "np.stack")
  local n = parts[1].ndim
  for _, p in ipairs(parts) do
    if shape_str(p) ~= shape_str(parts[1]) then raise("ValueError: all input arrays must have the same shape") end
  end
  local ax = norm_axis(axis or 0, n + 1, "np.stack")
  for i, p in ipairs(parts) do parts[i] = AR.newaxes(p, { ax }) end
  return concat(parts, ax, dtype, "np.stack")
end
function J.HSTACK(seq)
  local parts = parts_of(seq, "np.hstack")
  local all1 = true
  for i, p in ipairs(parts) do parts[i] = J.ATLEAST(1, p); if parts[i].ndim ~= 1 then all1 = false end end
  return concat(parts, all1 and 0 or 1, nil, "np.hstack")
end
function J.VSTACK(seq)
  local parts = parts_of(seq, "np.vstack")
  for i, p in ipairs(parts) do parts[i] = J.ATLEAST(2, p) end
  return concat(parts, 0, nil, "np.vstack")
end
function J.DSTACK(seq)
  local parts = parts_of(seq, "np.dstack")
  for i, p in ipairs(parts) do parts[i] = J.ATLEAST(3, p) end
  return concat(parts, 2, nil, "np.dstack")
end
function J.COLUMN_STACK(seq)
  local parts = parts_of(seq, "np.column_stack")
  for i, p in ipairs(parts) do
    parts[i] = p.ndim < 2 and J.ATLEAST(1, p):copy():reshape(p.size, 1) or p
  end
  return concat(parts, 1, nil, "np.column_stack")
end
function J.APPEND(a, v, axis)
  a, v = arr(a), arr(v)
  if axis == nil then return concat({ flat(a), flat(v) }, 0, nil, "np.append") end
  return concat({ a, v }, axis, nil, "np.append")
end

-- split points of ios (a number of sections or the indices) on an axis of n
local function split_points(ios, n, equal)
  local pts = {}
  if type(ios) == "number" then
    local s = num(ios)
    if s <= 0 then raise("ValueError: number sections must be larger than 0.") end
    if equal and n % s ~= 0 then raise("ValueError: array split does not result in an equal division") end
    local each, extra, o = n // s, n % s, 0
    for i = 1, s do
      pts[i] = { o, o + each + (i <= extra and 1 or 0) }
      o = pts[i][2]
    end
    return pts
  end
  local idx = arr(ios)
  local lo = 0
  for i = 1, idx.size do
    local hi = num(idx:reshape(idx.size):get(i))
    pts[#pts + 1] = { lo, hi }
    lo = hi
  end
  pts[#pts + 1] = { lo, nil }
  return pts
end
local function split(a, ios, axis, equal, fname)
  a = arr(a)
  local ax = norm_axis(axis or 0, a.ndim, fname)
  local n = a.shape[ax + 1]
  local out = {}
  for i, p in ipairs(split_points(ios, n, equal)) do
    local lo, hi = p[1], p[2]
    if lo < 0 then lo = math.max(lo + n, 0) end
    if hi and hi < 0 then hi = math.max(hi + n, 0) end
    if lo > n then lo = n end
    if hi and hi > n then hi = n end
    if hi and hi < lo then hi = lo end
    out[i] = slice(a, ax, lo, hi)
  end
  return pyops.tuple(unpack(out))
end
function J.SPLIT(a, ios, axis) return split(a, ios, axis, true, "np.split") end
function J.ARRAY_SPLIT(a, ios, axis) return split(a, ios, axis, false, "np.array_split") end

function J.DIFF(a, n, axis)
  a = arr(a)
  n = num(n or 1)
  if n < 0 then raise("ValueError: order must be non-negative but got " .. n) end
  if a.ndim == 0 then raise("ValueError: diff requires input that is at least one dimensional") end
  local ax = norm_axis(axis or -1, a.ndim, "np.diff")
  for _ = 1, n do
    local hi, lo = slice(a, ax, 1, nil), slice(a, ax, nil, -1)
    a = call(core.binop, a.dtype == "bool" and "not_equal" or "subtract", hi, lo)
  end
  return a
end

function J.REPEAT(a, repeats, axis)
  a = arr(a)
  if axis == nil then a = flat(a) end
  local ax = axis == nil and 0 or norm_axis(axis, a.ndim, "np.repeat")
  local n = a.shape[ax + 1]
  local reps = {}
  if type(repeats) == "number" then
    for i = 1, n do reps[i] = num(repeats) end
  else
    local r = flat(arr(repeats))
    if r.size == 1 then for i = 1, n do reps[i] = num(r:get(1)) end
    elseif r.size ~= n then
      raise(sformat("ValueError: operands could not be broadcast together with shape (%d,) (%d,)", n, r.size))
    else for i = 1, n do reps[i] = num(r:get(i)) end end
  end
  local parts = {}
  for i = 1, n do
    if reps[i] < 0 then raise("ValueError: negative dimensions are not allowed") end
    local piece = slice(a, ax, i - 1, i)
    for _ = 1, reps[i] do parts[#parts + 1] = piece end
  end
  if #parts == 0 then
    local shape = {}
    for d = 1, a.ndim do shape[d] = a.shape[d] end
    shape[ax + 1] = 0
    return core.zeros(shape, a.dtype)
  end
  return concat(parts, ax, nil, "np.repeat")
end

function J.ROLL(a, shift, axis)
  a = arr(a)
  if axis == nil then return J.ROLL(flat(a), shift, 0):reshape(a.shape) end
  local ax = norm_axis(axis, a.ndim, "np.roll")
  local n = a.shape[ax + 1]
  if n == 0 then return a:copy() end
  local s = num(shift) % n
  if s == 0 then return a:copy() end
  return concat({ slice(a, ax, n - s, nil), slice(a, ax, nil, n - s) }, ax, nil, "np.roll")
end

function J.TILE(a, reps)
  a = arr(a)
  local r = {}
  if is_tuple(reps) then for i = 1, reps.n do r[i] = num(reps[i]) end else r[1] = num(reps) end
  while #r < a.ndim do table.insert(r, 1, 1) end
  while a.ndim < #r do a = AR.newaxes(a, { 0 }) end
  for d = 1, #r do
    if r[d] ~= 1 then
      local parts = {}
      for k = 1, r[d] do parts[k] = a end
      if r[d] == 0 then
        local shape = {}
        for e = 1, a.ndim do shape[e] = a.shape[e] end
        shape[d] = 0
        a = core.zeros(shape, a.dtype)
      else
        a = concat(parts, d - 1, nil, "np.tile")
      end
    end
  end
  return a:copy()
end

-- views
function J.FLIP(a, axis)
  a = arr(a)
  local specs = {}
  local which = {}
  if axis == nil then for d = 0, a.ndim - 1 do which[d] = true end
  elseif is_tuple(axis) then for i = 1, axis.n do which[norm_axis(axis[i], a.ndim, "np.flip")] = true end
  else which[norm_axis(axis, a.ndim, "np.flip")] = true end
  if a.ndim == 0 then return a end
  for d = 0, a.ndim - 1 do specs[d + 1] = which[d] and { nil, nil, -1 } or { nil, nil, nil } end
  return H.SLICE(nil, a, nil, unpack(specs, 1, a.ndim))
end
function J.FLIPLR(a)
  a = arr(a)
  if a.ndim < 2 then raise("ValueError: Input must be >= 2-d.") end
  return J.FLIP(a, 1)
end
function J.FLIPUD(a)
  a = arr(a)
  if a.ndim < 1 then raise("ValueError: Input must be >= 1-d.") end
  return J.FLIP(a, 0)
end

function J.SWAPAXES(a, i, j)
  a = arr(a)
  i, j = norm_axis(i, a.ndim, "np.swapaxes"), norm_axis(j, a.ndim, "np.swapaxes")
  local perm = {}
  for d = 0, a.ndim - 1 do perm[d + 1] = d end
  perm[i + 1], perm[j + 1] = j, i
  return H.TRANSPOSE(a, unpack(perm, 1, a.ndim))
end
function J.MOVEAXIS(a, src, dst)
  a = arr(a)
  local n = a.ndim
  src, dst = norm_axis(src, n, "np.moveaxis"), norm_axis(dst, n, "np.moveaxis")
  local order = {}
  for d = 0, n - 1 do if d ~= src then order[#order + 1] = d end end
  table.insert(order, dst + 1, src)
  return H.TRANSPOSE(a, unpack(order, 1, n))
end
function J.EXPAND_DIMS(a, axis)
  a = arr(a)
  return AR.newaxes(a, { norm_axis(axis, a.ndim + 1, "np.expand_dims") })
end
function J.SQUEEZE(a, axis)
  a = arr(a)
  local specs = {}
  for d = 0, a.ndim - 1 do
    local drop
    if axis == nil then drop = a.shape[d + 1] == 1
    else drop = norm_axis(axis, a.ndim, "np.squeeze") == d end
    if drop and a.shape[d + 1] ~= 1 then
      raise("ValueError: cannot select an axis to squeeze out which has size not equal to one")
    end
    specs[d + 1] = drop and { index = 0 } or { nil, nil, nil }
  end
  if a.ndim == 0 then return a end
  return H.SLICE(nil, a, nil, unpack(specs, 1, a.ndim))
end
-- a copy of a's elements broadcast to shape (NumPy gives a read-only view)
function J.BROADCAST_TO(a, shape)
  local sh = {}
  if is_tuple(shape) then for i = 1, shape.n do sh[i] = num(shape[i]) end else sh[1] = num(shape) end
  local src = arrayish(a) and nd(a) or a
  local out = call(core.zeros, sh, arrayish(a) and src.dtype or (mtype(a) == "integer" and "int64" or type(a) == "boolean"
    and "bool" or "float64"))
  if not pcall(core.copyto, out, src) then
    raise(sformat("ValueError: cannot broadcast an array of shape %s to shape %s",
      arrayish(a) and shape_str(src) or "()", AR.shape_str(sh, #sh)))
  end
  return out
end

function J.init(h) H = h end

return J
