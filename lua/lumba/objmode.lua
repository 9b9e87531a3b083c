-- lumba.objmode — the object-mode path: a Python-subset function, given as
-- the Lua-table AST that lumba.parse returns, translated to Lua source and
-- run by the Lua VM with Python's (and, where they differ, Numba's)
-- semantics. It is jit's fallback and the oracle the compiler is tested
-- against:
--
--   local objmode = require "lumba.objmode"
--   local fn, lua_src = objmode.compile(module_ast, "fname", env [, opts])
--
-- opts: chunk (name in messages), runtime (the array constructors, see
-- below; default: lumba's own).
--
-- Semantics. Python's, and Numba's where the compiled code cannot be
-- Python's: ints are int64 and wrap; int / int converts both to float;
-- math functions follow libm (sqrt(-1) is nan, log(0) is -inf, float ** is
-- C's pow); round(x, n) is Numba's scale-and-round-half-even. Python's own:
-- `//` and `%` floor (sign of the divisor), int ** negative int is a float,
-- ZeroDivisionError for any zero divisor ("integer division or modulo by
-- zero" for int //, "integer modulo by zero" for int %, "division by zero"
-- for / and float //, "modulo by zero" for float %), bool is an int in
-- arithmetic but stays a bool, 0/0.0/None/False are false.
--
-- Slices (a[1:-1], a[:, j]) are views made by runtime.view; a runtime
-- without it raises "chunk:line:col: UnsupportedError: slicing arrays in
-- object mode needs views from the ndarray runtime (runtime.view)". Tuples
-- slice without it. Constructs outside the subset raise
-- "chunk:line:col: UnsupportedError: ..." when compiled.
--
-- How the translation stays fast: every Python local is a Lua local; each
-- expression gets a "kind" (the set of value classes it may hold: int >= 0,
-- int < 0, float, bool, None, container of numbers, anything) by a flow-
-- insensitive fixed point, so `a + b` on numbers is Lua's `+`, bools are
-- converted only where they may occur, `range` loops are numeric `for`s, and
-- an index known to be >= 0 goes straight to the 1-based `get`. Each def is
-- translated twice: a fast variant assuming its parameters hold no bools
-- (nor arrays/tuples of bools), and a generic one; its entry picks one by
-- looking at the arguments.
local pyops = require "lumba.pyops"
local pymath = require "lumba.pymath"
local AR = require "lumba.objmode_arrays"

local objmode = {}

---------------------------------------------------------------------------
-- Array hooks: the generated code reaches arrays only through these
-- (and through `a:get(i1, ...)` / `a:set(i1, ..., v)` with 1-based indices
-- where every index is known to be >= 0). Arrays are any object with the
-- ndarray interface: fields shape (Lua table), ndim, size, dtype; methods
-- get, set, sum, min, max, copy, fill.
---------------------------------------------------------------------------
local mtype, type, select, error = math.type, type, select, error
local is_tuple, Tuple, raise, num = pyops.is_tuple, pyops.Tuple, pyops.raise, pyops.num
local sformat = string.format

local H = {}  -- everything generated code may reference, by name

-- 0-based Python index i on an axis of size n -> 1-based index
local function index1(i, n, axis)
  if mtype(i) ~= "integer" then
    i = num(i)
    if mtype(i) ~= "integer" then
      raise("IndexError: only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices")
    end
  end
  local j = i
  if j < 0 then j = j + n end
  if j < 0 or j >= n then
    raise(sformat("IndexError: index %d is out of bounds for axis %d with size %d", i, axis, n))
  end
  return j + 1
end

local function tuple_index1(t, i)
  i = num(i)
  if mtype(i) ~= "integer" then
    raise("TypeError: tuple indices must be integers or slices, not " .. pyops.typename(i))
  end
  local j = i < 0 and i + t.n or i
  if j < 0 or j >= t.n then raise("IndexError: tuple index out of range") end
  return j + 1
end

local arrayish = AR.arrayish
-- any index an array (or a tuple used as one)? then NumPy's advanced indexing
local function any_array(...)
  for k = 1, select("#", ...) do
    local v = (select(k, ...))
    if type(v) ~= "number" and type(v) ~= "boolean" and arrayish(v) then return true end
  end
  return false
end

-- a[i] with a 1-based i known to be >= 1: lumba arrays index by a[i]
-- (an element of a 1-D array, a row view of an N-d one); others by get
local ND = getmetatable(AR.core.zeros(0))
-- a float stored into an integer or bool element: converted as NumPy's
-- setitem and compiled code's cast do (truncated), where the Lua API refuses it
local function stored(a, v)
  if mtype(v) == "float" then
    local dt = a.dtype
    if not (dt:match("^float") or dt:match("^complex")) then return H.CAST[dt](v) end
  end
  return v
end
H.STORED = stored
function H.AGETP(a, i)
  if getmetatable(a) == ND then return a[i] end
  return a:get(i)
end
function H.ASETP(a, i, v)
  if getmetatable(a) == ND then
    if a.ndim ~= 1 then return H.SETSLICE(nil, a, nil, v, { index = i - 1 }) end
    a[i] = stored(a, v)
    return
  end
  a:set(i, stored(a, v))
end

-- a[i] (0-based, negative from the end)
function H.AGET1(a, i)
  if is_tuple(a) then return a[tuple_index1(a, i)] end
  if mtype(i) ~= "integer" and any_array(i) then return AR.advanced_get(a, i) end
  local shape = a.shape
  if a.ndim ~= 1 then
    if a.ndim == 0 then raise("IndexError: too many indices for array: array is 0-dimensional, but 1 were indexed") end
    return a[index1(i, shape[1], 0)]  -- a row view
  end
  return a:get(index1(i, shape[1], 0))
end

-- a[i, j]
function H.AGET2(a, i, j)
  if (mtype(i) ~= "integer" or mtype(j) ~= "integer") and any_array(i, j) then return AR.advanced_get(a, i, j) end
  local shape = a.shape
  if a.ndim ~= 2 then return H.AGETN(a, i, j) end
  return a:get(index1(i, shape[1], 0), index1(j, shape[2], 1))
end

-- a[i, j, ...]: as many indices as dimensions
function H.AGETN(a, ...)
  local n = select("#", ...)
  if is_tuple(a) then raise("TypeError: tuple indices must be integers or slices, not tuple") end
  if any_array(...) then return AR.advanced_get(a, ...) end
  local ndim = a.ndim
  if n ~= ndim then
    if n > ndim then
      raise(sformat("IndexError: too many indices for array: array is %d-dimensional, but %d were indexed", ndim, n))
    end
    -- fewer indices than dimensions: a view
    local specs = {}
    for k = 1, n do specs[k] = { index = (select(k, ...)) } end
    return H.SLICE(nil, a, nil, table.unpack(specs, 1, n))
  end
  local shape, idx = a.shape, { ... }
  for k = 1, n do idx[k] = index1(idx[k], shape[k], k - 1) end
  return a:get(table.unpack(idx, 1, n))
end

function H.ASET1(a, i, v)
  if is_tuple(a) then raise("TypeError: 'tuple' object does not support item assignment") end
  if mtype(i) ~= "integer" and any_array(i) then return AR.advanced_set(a, v, i) end
  if a.ndim ~= 1 or type(v) ~= "number" and type(v) ~= "boolean" then return H.ASETN(a, i, v) end
  a:set(index1(i, a.shape[1], 0), stored(a, v))
end

function H.ASET2(a, i, j, v)
  if is_tuple(a) then raise("TypeError: 'tuple' object does not support item assignment") end
  local shape = a.shape
  if a.ndim ~= 2 or type(v) ~= "number" and type(v) ~= "boolean" then return H.ASETN(a, i, j, v) end
  a:set(index1(i, shape[1], 0), index1(j, shape[2], 1), stored(a, v))
end

-- a[i, j, ...] = v (v last)
function H.ASETN(a, ...)
  if is_tuple(a) then raise("TypeError: 'tuple' object does not support item assignment") end
  local n = select("#", ...) - 1
  local args = { ... }
  if any_array(table.unpack(args, 1, n)) then return AR.advanced_set(a, args[n + 1], table.unpack(args, 1, n)) end
  local ndim = a.ndim
  local v = args[n + 1]
  if n ~= ndim or (type(v) ~= "number" and type(v) ~= "boolean") then
    if n > ndim then
      raise(sformat("IndexError: too many indices for array: array is %d-dimensional, but %d were indexed", ndim, n))
    end
    -- a row, or an element set from an array: a store with broadcasting
    local specs = {}
    for k = 1, n do specs[k] = { index = args[k] } end
    return H.SETSLICE(nil, a, nil, v, table.unpack(specs, 1, n))
  end
  local shape = a.shape
  for k = 1, n do args[k] = index1(args[k], shape[k], k - 1) end
  args[n + 1] = stored(a, v)
  a:set(table.unpack(args, 1, n + 1))
end

-- x.shape[k] (k 0-based, negative from the end)
function H.SHAPE(a, k)
  if is_tuple(a) then raise("AttributeError: 'tuple' object has no attribute 'shape'") end
  local shape = a.shape
  if k < 0 then k = k + a.ndim end
  local n = shape[k + 1]
  if n == nil or k < 0 then raise("IndexError: tuple index out of range") end
  return n
end

-- x.shape as a tuple
function H.SHAPE_T(a)
  local shape = a.shape
  return pyops.tuple_of(shape, a.ndim)
end

-- x.strides as a tuple
function H.STRIDES_T(a)
  return pyops.tuple_of(a.strides, a.ndim)
end

function H.SIZE(a) return a.size end
function H.NDIM(a) return a.ndim end

-- the elements of an array in C order (a 1-D view or copy)
local function flat(a)
  if a.ndim == 1 then return a end
  return a:copy():reshape(a.size)
end
-- a.ravel() (a view where it can be) and a.flatten() (a copy), which lumba.ndarray has not
function H.RAVEL(a) return a:reshape(a.size) end
function H.FLATTEN(a) return a:copy():reshape(a.size) end
-- a.prod() and a.mean(), which lumba.ndarray has not either: NumPy's results
function H.PROD(a, axis)
  if axis == nil and not AR.is_nd(a) then
    local p = a.dtype:match("^float") and 1.0 or 1
    local f = flat(a)
    for i = 1, a.size do p = p * num(f:get(i)) end
    return p
  end
  return AR.PROD(a, axis)
end
function H.MEAN(a, axis)
  if axis == nil and not AR.is_nd(a) then
    if a.size == 0 then return 0.0 / 0.0 end
    return num(a:sum()) / a.size
  end
  return AR.MEAN(a, axis)
end
-- a.sum/min/max(axis): the receiver's own method for the whole array
local function own_or(name, f)
  return function(a, axis)
    if axis == nil and not AR.is_nd(a) then return a[name](a) end
    if axis == nil and AR.is_nd(a) and a.ndim > 0 and a.size > 0 then  -- empty: the helper's ValueError
      if name ~= "sum" or a.dtype == "float64" or a.dtype == "int64" then
        return AR.call(a[name], a)
      end
    end
    return f(a, axis)
  end
end
H.RSUM = own_or("sum", AR.SUM)
H.RMIN = own_or("min", AR.MIN)
H.RMAX = own_or("max", AR.MAX)
H.RSTD, H.RVAR, H.RARGMIN, H.RARGMAX, H.RCUMSUM = AR.STD, AR.VAR, AR.ARGMIN, AR.ARGMAX, AR.CUMSUM
H.RCUMPROD = AR.CUMPROD
H.RESHAPE, H.ASTYPE, H.WHERE = AR.RESHAPE, AR.ASTYPE, AR.WHERE
H.LINSPACE, H.EYE, H.NPARRAY = AR.LINSPACE, AR.EYE, AR.ARRAY
function H.IDENTITY(n, dt) return AR.EYE(n, nil, nil, dt) end
function H.TRANSPOSE(a, ...)
  local n = select("#", ...)
  if n == 0 then return a:transpose() end
  local axes = { ... }
  if n == 1 and is_tuple(axes[1]) then axes = { table.unpack(axes[1], 1, axes[1].n) }; n = #axes end
  for k = 1, n do
    local ax = num(axes[k])
    axes[k] = (ax < 0 and ax + a.ndim or ax) + 1
  end
  return AR.call(a.transpose, a, axes)
end
function H.COPY(a)
  if AR.is_nd(a) or not arrayish(a) then return a:copy() end
  return AR.nd(a):copy()
end

-- the true elements of a in C order: their 0-based indices and linear
-- position (np.nonzero & co.; a 0-d array counts as 1-d, as NumPy 1.x)
local function true_places(a)
  local nd, shape, out, idx, lin = a.ndim, a.shape, {}, {}, 0
  local function truthy(v) return v ~= 0 and v ~= false end
  local function walk(d)
    if d > nd then
      if truthy(nd == 0 and a:get() or a:get(table.unpack(idx, 1, nd))) then
        local t = { lin = lin }
        for k = 1, nd do t[k] = idx[k] - 1 end
        if nd == 0 then t[1] = 0 end
        out[#out + 1] = t
      end
      lin = lin + 1
      return
    end
    for i = 1, shape[d] do idx[d] = i; walk(d + 1) end
  end
  walk(1)
  return out
end
local function int64s(shape) return require("lumba").zeros(shape, "int64") end
function H.NONZERO(a)
  local places, arrays = true_places(a), {}
  for k = 1, math.max(a.ndim, 1) do
    local r = int64s({ #places })
    for j, t in ipairs(places) do r:set(j, t[k]) end
    arrays[k] = r
  end
  return pyops.tuple_of(arrays, #arrays)
end
function H.ARGWHERE(a)
  local places = true_places(a)
  local r = int64s({ #places, a.ndim })
  for j, t in ipairs(places) do
    for k = 1, a.ndim do r:set(j, k, t[k]) end
  end
  return r
end
function H.FLATNONZERO(a)
  local places = true_places(a)
  local r = int64s({ #places })
  for j, t in ipairs(places) do r:set(j, t.lin) end
  return r
end
function H.COUNT_NONZERO(a) return #true_places(a) end

-- Python slice (lo, hi, step; nil = absent) on a length n, as a 1-based
-- start, a count and a step
local function slice_spec(lo, hi, step, n)
  step = step == nil and 1 or num(step)
  if step == 0 then raise("ValueError: slice step cannot be zero") end
  lo, hi = num(lo), num(hi)
  local count
  if step > 0 then
    if lo == nil then lo = 0 elseif lo < 0 then lo = lo + n; if lo < 0 then lo = 0 end end
    if lo > n then lo = n end
    if hi == nil then hi = n elseif hi < 0 then hi = hi + n; if hi < 0 then hi = 0 end end
    if hi > n then hi = n end
    count = hi > lo and (hi - lo + step - 1) // step or 0
  else
    if lo == nil then lo = n - 1 elseif lo < 0 then lo = lo + n; if lo < 0 then lo = -1 end end
    if lo > n - 1 then lo = n - 1 end
    if hi == nil then hi = -1 elseif hi < 0 then hi = hi + n; if hi < 0 then hi = -1 end end
    if hi > n - 1 then hi = n - 1 end
    count = lo > hi and (lo - hi - step - 1) // (-step) or 0
  end
  return { start = lo + 1, count = count, step = step }
end

local cached_rt
local function default_rt()
  cached_rt = cached_rt or objmode.lumba_runtime()
  return cached_rt
end

-- a[...] with slices: one spec per axis given, SI(i) for an integer index
-- or SL(lo, hi, step) for a slice (nil parts absent); `where` is the
-- source position for the error raised when the runtime has no views
function H.SLICE(rt, a, where, ...)
  local n = select("#", ...)
  local specs = { ... }
  rt = rt or default_rt()
  -- None / np.newaxis: the view without them, then axes of size 1
  local at
  for k = 1, n do
    if specs[k].newaxis then
      at = {}
      local plain, out_axis = {}, 0
      for j = 1, n do
        local sp = specs[j]
        if sp.newaxis then at[#at + 1] = out_axis; out_axis = out_axis + 1
        else
          plain[#plain + 1] = sp
          if sp.index == nil then out_axis = out_axis + 1 end
        end
      end
      local v = #plain > 0 and H.SLICE(rt, a, where, table.unpack(plain)) or a
      return AR.newaxes(v, at)
    end
    if specs[k].index ~= nil and mtype(specs[k].index) ~= "integer" and any_array(specs[k].index) then
      local only = n == 1
      if not only then raise("UnsupportedError: object mode mixes array indices with slices only as a[arr] or a[arr1, arr2]") end
      return AR.advanced_get(a, specs[k].index)
    end
  end
  if is_tuple(a) then
    if n ~= 1 or specs[1].index ~= nil then raise("TypeError: tuple indices must be integers or slices") end
    local s = slice_spec(specs[1][1], specs[1][2], specs[1][3], a.n)
    local r = { n = s.count }
    for k = 0, s.count - 1 do r[k + 1] = a[s.start + k * s.step] end
    return setmetatable(r, Tuple)
  end
  local shape = a.shape
  if n > a.ndim then
    raise(sformat("IndexError: too many indices for array: array is %d-dimensional, but %d were indexed", a.ndim, n))
  end
  local out = {}
  for k = 1, a.ndim do
    local sp = specs[k]
    if sp == nil then
      out[k] = { start = 1, count = shape[k], step = 1 }
    elseif sp.index ~= nil then
      out[k] = { index = index1(sp.index, shape[k], k - 1) }
    else
      out[k] = slice_spec(sp[1], sp[2], sp[3], shape[k])
    end
  end
  local view = rt.view and rt.view(a, out)
  if view ~= nil then return view end
  raise((where or "?") .. ": UnsupportedError: slicing arrays in object mode needs views from the ndarray runtime (runtime.view)")
end
function H.SL(lo, hi, step) return { lo, hi, step } end
local NEWAXIS = { newaxis = true }
function H.SN() return NEWAXIS end
function H.SI(i) return { index = i } end

-- a[slices] = v: a view, then every element set from v (a scalar or a
-- same-shape array)
function H.SETSLICE(rt, a, where, v, ...)
  local view = H.SLICE(rt, a, where, ...)
  if is_tuple(view) then raise("TypeError: 'tuple' object does not support item assignment") end
  if AR.is_nd(view) then
    -- NumPy's store: v broadcast to the view's shape, cast to its dtype
    local src = (type(v) == "number" or type(v) == "boolean") and v or AR.nd(v)
    local ok, err = pcall(AR.core.copyto, view, src)
    if not ok then
      if tostring(err):find("broadcast") then
        raise(sformat("ValueError: could not broadcast input array from shape %s into shape %s",
          AR.shape_str(src.shape, src.ndim), AR.shape_str(view.shape, view.ndim)))
      end
      AR.raise((tostring(err):gsub("^[^\n]-%.lua:%d+: ", "", 1)))
    end
    return
  end
  local ndim, shape = view.ndim, view.shape
  local idx = {}
  local scalar = type(v) == "number" or type(v) == "boolean"
  local function walk(d)
    if d > ndim then
      local val = scalar and v or v:get(table.unpack(idx, 1, ndim))
      idx[ndim + 1] = val
      view:set(table.unpack(idx, 1, ndim + 1))
      return
    end
    for i = 1, shape[d] do idx[d] = i; walk(d + 1) end
  end
  if ndim == 0 then return end
  walk(1)
end

-- shape argument of np.zeros & co: an int or a tuple of ints
local function shape_arg(s)
  s = num(s)
  if mtype(s) == "integer" then return { s } end
  if is_tuple(s) then
    local r = {}
    for i = 1, s.n do
      local v = num(s[i])
      if mtype(v) ~= "integer" then raise("TypeError: 'float' object cannot be interpreted as an integer") end
      r[i] = v
    end
    return r
  end
  raise("TypeError: expected a shape (an int or a tuple of ints), got " .. pyops.typename(s))
end
H.SHAPE_ARG = shape_arg

local function copy_shape(a)
  local r = {}
  for i = 1, a.ndim do r[i] = a.shape[i] end
  return r
end
H.COPY_SHAPE = copy_shape

-- The array constructors of the default runtime: lumba's own (looked up
-- when first used, so this module loads before the C core has them).
-- A runtime is a table: empty/zeros/ones(shape_table, dtype),
-- full(shape_table, value, dtype), arange(start, stop, step, dtype), and
-- optionally view(a, specs) where specs[k] is {index = i1} or
-- {start = i1, count = n, step = s} (1-based, already clamped to the
-- axis; an {index} axis is dropped from the view), returning a view or nil.
-- Lumba's view is ndarray:view(specs) when the arrays runtime has it.
local function lumba_runtime()
  local function need(name)
    return function(...)
      local ok, lumba = pcall(require, "lumba")
      local f = ok and lumba[name]
      if not f then
        raise("UnsupportedError: object mode needs lumba." .. name .. " (the ndarray runtime)")
      end
      return f(...)
    end
  end
  return {
    empty = need("empty"), zeros = need("zeros"), ones = need("ones"),
    full = need("full"), arange = need("arange"),
    -- nil (no view) makes the caller raise UnsupportedError with a position
    view = function(a, specs)
      local ok, f = pcall(function() return a.view end)
      if ok and f then return a:view(specs) end
      return nil
    end,
  }
end
objmode.lumba_runtime = lumba_runtime

-- Python-visible values of a plain Lua table passed as an argument: a 1-D
-- array over the table itself (writes land in the caller's table)
local TableArray = {}
TableArray.__index = TableArray
function TableArray.new(t)
  local n = #t
  -- any bool makes it a bool array (so the generic variant reads it: it
  -- never assumes numbers), else any float a float64 one
  local dtype = "int64"
  for i = 1, n do
    local v = t[i]
    if type(v) == "boolean" then dtype = "bool"; break end
    if mtype(v) == "float" then dtype = "float64" end
  end
  return setmetatable({ t = t, shape = { n }, ndim = 1, size = n, dtype = dtype }, TableArray)
end
function TableArray:get(i)
  if mtype(i) ~= "integer" or i < 1 or i > self.size then
    raise(sformat("IndexError: index %s is out of bounds for axis 0 with size %d", tostring(i and i - 1), self.size))
  end
  return self.t[i]
end
-- stores convert to the array's dtype, as NumPy's do (so a float table
-- never receives a bool, and an int one truncates floats)
function TableArray:set(i, v)
  if mtype(i) ~= "integer" or i < 1 or i > self.size then
    raise(sformat("IndexError: index %s is out of bounds for axis 0 with size %d", tostring(i and i - 1), self.size))
  end
  local dt = self.dtype
  if dt == "float64" then v = pyops.float(v)
  elseif dt == "int64" then v = pyops.int(v)
  else v = pyops.truth(v) end
  self.t[i] = v
end
function TableArray:sum()
  local s = self.dtype == "float64" and 0.0 or 0
  for i = 1, self.size do s = s + num(self.t[i]) end
  return s
end
function TableArray:min() return pyops.min(self) end
function TableArray:max() return pyops.max(self) end
-- arithmetic on a table argument: NumPy's, over a lumba array of its elements
for mm, name in pairs { __add = "ADD", __sub = "SUB", __mul = "MUL", __div = "DIV", __idiv = "FLOORDIV",
  __mod = "MOD", __pow = "POW", __band = "BAND", __bor = "BOR", __bxor = "BXOR", __shl = "SHL", __shr = "SHR" } do
  TableArray[mm] = function(x, y) return AR[name](x, y) end
end
TableArray.__unm = function(x) return AR.NEG(x) end
TableArray.__bnot = function(x) return AR.INVERT(x) end
objmode.TableArray = TableArray

---------------------------------------------------------------------------
-- The rest of the runtime: Python number semantics (lumba.pyops) and math
---------------------------------------------------------------------------
H.TUP = pyops.tuple
H.NUM = num
H.TRUTH = pyops.truth
-- the generic operators: pyops' on scalars, NumPy's when an operand is an array
H.ADD, H.SUB, H.MUL, H.DIV = AR.ADD, AR.SUB, AR.MUL, AR.DIV
H.FLOORDIV, H.MOD, H.POW = AR.FLOORDIV, AR.MOD, AR.POW
H.FFLOORDIV, H.FMOD, H.IPOW = pyops.ffloordiv, pyops.fmod, pyops.ipow
H.NEG, H.POS, H.INVERT, H.NPPOS = AR.NEG, AR.POS, AR.INVERT, AR.NPPOS
H.BAND, H.BOR, H.BXOR, H.SHL, H.SHR = AR.BAND, AR.BOR, AR.BXOR, AR.SHL, AR.SHR
H.EQ, H.NE, H.LT, H.LE, H.GT, H.GE = AR.EQ, AR.NE, AR.LT, AR.LE, AR.GT, AR.GE
-- a op= b: in place on arrays
H.IOP = {}
for pyop, name in pairs(AR.INPLACE_OPS) do
  local scalar = ({ Add = H.ADD, Sub = H.SUB, Mult = H.MUL, Div = H.DIV, FloorDiv = H.FLOORDIV,
    Mod = H.MOD, Pow = H.POW, BitAnd = H.BAND, BitOr = H.BOR, BitXor = H.BXOR, LShift = H.SHL,
    RShift = H.SHR })[pyop]
  H.IOP[pyop] = AR.IOP(name, scalar)
end
-- error positions: generated chunks register here; the entry maps messages
function H.FINISH(ok, v)
  if ok then return H.UNWRAP(v) end
  error(AR.map_message(v), 0)
end
H.IN = pyops.contains
H.LEN, H.ITEM, H.UNPACK = pyops.len, pyops.item, pyops.unpack
H.RANGE = pyops.range
H.INT, H.FLOAT, H.ROUND, H.ABS = pyops.int, pyops.float, pyops.round, AR.ABS
H.MIN, H.MAX = pyops.min, pyops.max
H.STR, H.EXC = pyops.str, pyops.exc_message
H.INF, H.NAN = math.huge, pymath.nan
function H.COMPLEX(re, im) return require("lumba").complex(re, im) end
H.mabs, H.mmin, H.mmax = math.abs, math.min, math.max
function H.ZDIV() raise(pyops.E_DIV) end
function H.ZINTDIV() raise(pyops.E_INTDIV) end
function H.ZINTMOD() raise(pyops.E_INTMOD) end
function H.RAISE(msg) error(msg, 0) end
function H.ASSERT_FAIL(msg)
  if msg == nil then error("AssertionError", 0) end
  error("AssertionError: " .. pyops.str(msg), 0)
end
function H.PRINT(...)
  local n = select("#", ...)
  local parts = {}
  for i = 1, n do parts[i] = pyops.str((select(i, ...))) end
  io.write(table.concat(parts, " "), "\n")
end
-- several Lua results of a Lua function seen from Python: a tuple
function H.PACKRET(...)
  if select("#", ...) > 1 then return pyops.tuple(...) end
  return (...)
end
-- a tuple result handed back to Lua: several values
function H.UNWRAP(v)
  if is_tuple(v) then return table.unpack(v, 1, v.n) end
  return v
end
-- a plain Lua table argument is a 1-D array over that table
function H.ARG(v)
  if type(v) == "table" and getmetatable(v) == nil then return TableArray.new(v) end
  return v
end

-- does a value force the generic variant? (bools, or containers that may
-- hold bools, None or other objects)
local function get_dtype(x) return x.dtype end
local function slow_container(x)
  if is_tuple(x) then
    for i = 1, x.n do
      local v = x[i]
      local t = type(v)
      if t ~= "number" and (t ~= "table" or slow_container(v)) then return true end
    end
    return false
  end
  local ok, dt = pcall(get_dtype, x)
  if not ok or type(dt) ~= "string" then return true end
  return dt == "bool" or dt == "b1" or dt == "bool_"
end
function H.SLOW(x)
  local t = type(x)
  if t == "number" or t == "nil" then return false end
  if t == "boolean" or t == "string" or t == "function" then return true end
  return slow_container(x)
end
function H.SLOWC(x)
  local t = type(x)
  if t == "number" or t == "nil" or t == "boolean" then return false end
  if t == "string" or t == "function" then return true end
  return slow_container(x)
end

-- numpy scalar casts
local function wrap_int(bits, signed)
  return function(x)
    x = pyops.int(x)
    if bits == 64 then return x end
    local m = 1 << bits
    x = x & (m - 1)
    if signed and x >= (m >> 1) then x = x - m end
    return x
  end
end
H.CAST = {
  int8 = wrap_int(8, true), int16 = wrap_int(16, true), int32 = wrap_int(32, true),
  int64 = wrap_int(64, true), uint8 = wrap_int(8, false), uint16 = wrap_int(16, false),
  uint32 = wrap_int(32, false), uint64 = wrap_int(64, false),
  float64 = pyops.float,
  float32 = function(x) return (string.unpack("f", string.pack("f", pyops.float(x)))) end,
  bool = pyops.truth,
}

-- numpy's scalar functions that differ from math's
local ffloor = pyops.ffloor
function H.NP_FLOOR(x) return ffloor(num(x) * 1.0) end
function H.NP_CEIL(x) return -ffloor(-(num(x) * 1.0)) end
function H.NP_TRUNC(x)
  x = num(x) * 1.0
  if x ~= x or x == math.huge or x == -math.huge then return x end
  if x >= 0 then return ffloor(x) end
  return -ffloor(-x)
end
function H.NP_RINT(x)
  x = num(x) * 1.0
  if x ~= x or x == math.huge or x == -math.huge then return x end
  local r = pyops.round(x) + 0.0
  if r == 0 then return pyops.copysign(0.0, x) end
  return r
end
-- np.round(x): half to even; an int stays an int, a float a float
function H.NP_ROUND(x)
  x = num(x)
  if mtype(x) == "integer" then return x end
  return H.NP_RINT(x)
end
-- the dtype NumPy gives np.arange/np.full of these values
function H.VALUE_DT(...)
  for i = 1, select("#", ...) do
    if mtype(num((select(i, ...)))) == "float" then return "float64" end
  end
  return "int64"
end
for name, f in pairs(require "lumba.objmode_create") do H[name] = f end  -- np.array, np.linspace, np.eye, ...
for name, f in pairs(require "lumba.objmode_random") do H[name] = f end  -- np.random
do  -- the prelude's defs (PRELUDE) and intrinsics (LM_*)
  local P = require "lumba.objmode_prelude"
  for name, f in pairs(P) do if name ~= "init" then H[name] = f end end
  P.init(H)
  for name, f in pairs(require "lumba.objmode_linalg") do H[name] = f end  -- products, LAPACK
  for name, f in pairs(require "lumba.objmode_ufunc") do H[name] = f end  -- ufuncs without core loops
  for name, f in pairs(require "lumba.objmode_complex") do H[name] = f end  -- cmath, parts, conj
  local J = require "lumba.objmode_joins"  -- joins, splits, views with axes
  for name, f in pairs(J) do if name ~= "init" then H[name] = f end end
  J.init(H)
end
function H.NP_SIGN(x)
  x = num(x)
  if x ~= x then return x end
  local r = x > 0 and 1 or x < 0 and -1 or 0
  if mtype(x) == "float" then return r + 0.0 end
  return r
end
-- np.maximum/minimum: nan propagates
function H.NP_MAXIMUM(a, b)
  a, b = num(a), num(b)
  if a ~= a then return a end
  if b ~= b then return b end
  local r = a >= b and a or b
  if mtype(a) == "float" or mtype(b) == "float" then return r + 0.0 end
  return r
end
function H.NP_MINIMUM(a, b)
  a, b = num(a), num(b)
  if a ~= a then return a end
  if b ~= b then return b end
  local r = a <= b and a or b
  if mtype(a) == "float" or mtype(b) == "float" then return r + 0.0 end
  return r
end
-- fmax/fmin: the other operand where one is nan; fmod: C's, 0 for an integer by 0
local function fpick(pick)
  return function(a, b)
    a, b = num(a), num(b)
    local float = mtype(a) == "float" or mtype(b) == "float"
    local r
    if a ~= a then r = b elseif b ~= b then r = a else r = pick(a, b) and a or b end
    return float and r + 0.0 or r
  end
end
H.NP_FMAX = fpick(function(a, b) return a >= b end)
H.NP_FMIN = fpick(function(a, b) return a <= b end)
function H.NP_FMOD(a, b)
  a, b = num(a), num(b)
  if mtype(a) == "integer" and mtype(b) == "integer" then
    if b == 0 then return 0 end
    return math.fmod(a, b)
  end
  return math.fmod(a + 0.0, b + 0.0)
end
local function truth(x) x = num(x); return x ~= 0 end
function H.NP_LOGICAL_AND(a, b) return truth(a) and truth(b) end
function H.NP_LOGICAL_OR(a, b) return truth(a) or truth(b) end
function H.NP_LOGICAL_XOR(a, b) return truth(a) ~= truth(b) end
function H.NP_LOGICAL_NOT(a) return not truth(a) end

for name, f in pairs(pymath) do
  if type(f) == "function" then H["M_" .. name] = f end
end
-- NumPy's functions, on arrays too (NP_<member>: the numpy names' helpers)
for name, f in pairs(pymath) do
  if type(f) == "function" then H["NP_" .. name] = AR.ufunc(name, f) end
end
H.NP_FLOOR, H.NP_CEIL = AR.ufunc("floor", H.NP_FLOOR), AR.ufunc("ceil", H.NP_CEIL)
H.NP_TRUNC, H.NP_RINT = AR.ufunc("trunc", H.NP_TRUNC), AR.ufunc("rint", H.NP_RINT)
H.NP_SIGN = AR.ufunc("sign", H.NP_SIGN)
H.NP_SQUARE = AR.ufunc("square", function(x) x = num(x); return x * x end)
H.NP_MAXIMUM, H.NP_MINIMUM = AR.ufunc("maximum", H.NP_MAXIMUM), AR.ufunc("minimum", H.NP_MINIMUM)
H.NP_FMAX, H.NP_FMIN, H.NP_FMOD = AR.ufunc("fmax", H.NP_FMAX), AR.ufunc("fmin", H.NP_FMIN), AR.ufunc("fmod", H.NP_FMOD)
H.NP_LOGICAL_AND, H.NP_LOGICAL_OR = AR.ufunc("logical_and", H.NP_LOGICAL_AND), AR.ufunc("logical_or", H.NP_LOGICAL_OR)
H.NP_LOGICAL_XOR, H.NP_LOGICAL_NOT = AR.ufunc("logical_xor", H.NP_LOGICAL_XOR), AR.ufunc("logical_not", H.NP_LOGICAL_NOT)
do
  local round = H.NP_ROUND
  H.NP_ROUND = function(x)
    if arrayish(x) then
      local a = AR.nd(x)
      if a.dtype:match("^float") or a.dtype == "bool" then return AR.call(AR.core.unop, "rint", a) end
      return a:copy()
    end
    return round(x)
  end
end
-- the math functions Lua computes exactly as libm and that need no argument
-- check once the argument is known to be a number
H.L_sqrt, H.L_exp, H.L_log = math.sqrt, math.exp, math.log
H.L_sin, H.L_cos, H.L_tan = math.sin, math.cos, math.tan
H.L_asin, H.L_acos, H.L_atan = math.asin, math.acos, math.atan

objmode.helpers = H

---------------------------------------------------------------------------
-- compile
---------------------------------------------------------------------------
local translate = require("lumba.objmode_tr").translate
local default_runtime
local nchunks = 0
local LIVE = setmetatable({}, { __mode = "k" })

-- objmode.compile(module_ast, fname, env [, opts]) -> function, lua_source
-- module_ast: the Module table lumba.parse returns (or one FunctionDef);
-- fname: the def to return (nil: the first); env: names -> numbers or
-- functions, visible as globals; opts.chunk: name shown in errors;
-- opts.runtime: array constructors (see lumba_runtime above).
function objmode.compile(module_ast, fname, env, opts)
  if type(module_ast) ~= "table" then
    error("bad argument #1 to 'compile' (AST table expected, got " .. type(module_ast) .. ")", 2)
  end
  opts = opts or {}
  local src, upvals = translate(module_ast, fname, env, opts)
  -- a name of its own per chunk: run-time errors map its lines to Python's
  nchunks = nchunks + 1
  local name = "objmode#" .. nchunks
  local info = { chunk = (opts.chunk or "?"):gsub("^[=@]", ""), src = src }
  AR.CHUNKS[name] = info
  local chunk, err = load(src, "=" .. name, "t")
  if not chunk then
    if err:find("too many") then
      error((opts.chunk or "?"):gsub("^[=@]", "") .. ":0:1: UnsupportedError: function too large for object mode (" .. err .. ")", 0)
    end
    error("lumba.objmode: internal error, generated Lua does not load: " .. err .. "\n" .. src, 0)
  end
  local rt = opts.runtime
  if rt == nil then
    default_runtime = default_runtime or lumba_runtime()
    rt = default_runtime
  end
  local fn = chunk(H, rt, upvals)
  LIVE[fn] = info  -- the chunk's line map lives as long as its function
  return fn, src
end

return objmode
