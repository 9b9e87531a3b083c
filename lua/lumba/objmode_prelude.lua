-- lumba.objmode_prelude — the object mode's NumPy prelude: the defs of
-- src/prelude (lumba.core._prelude(), the text compiled code compiles),
-- translated by the object mode like user code and run by the Lua VM, so
-- that a PYFUNC/PYMETHOD row of the registry is one implementation for
-- both modes. What compiled code types at compile time the object mode
-- does when the call runs: the _lumba intrinsics (here, as helpers of the
-- translated code) and the string arguments builtin_prelude.c turns into
-- numbers (side, kind, mode, a norm's 'fro'/'nuc', svd's compute_uv).
local pyops = require "lumba.pyops"
local AR = require "lumba.objmode_arrays"

local mtype, sformat, unpack = math.type, string.format, table.unpack
local core, raise, is_tuple = AR.core, AR.raise, pyops.is_tuple

local P = {}  -- helpers of generated code (objmode.lua copies them into H)

---------------------------------------------------------------------------
-- the intrinsics (src/builtin_prelude.c, docs/internals.md "The NumPy prelude")
---------------------------------------------------------------------------
-- the 1-based indices of C-order element i (0-based) of a
local idx = {}
local function unravel(a, i)
  local shape, nd = a.shape, a.ndim
  for d = nd, 1, -1 do
    local n = shape[d]
    idx[d] = i % n + 1
    i = i // n
  end
  return nd
end

function P.LM_dim(a, k) return a.shape[k + 1] end
function P.LM_ndim(x)
  if AR.arrayish(x) then return x.ndim end
  return 0
end
function P.LM_flat(a, i)
  if a.ndim == 1 then return a:get(i + 1) end
  return a:get(unpack(idx, 1, unravel(a, i)))
end
-- stores v converted to a's dtype, as compiled code's cast (floats truncate, integers wrap)
local CAST
function P.LM_flat_set(a, i, v)
  local cast = CAST[a.dtype]
  if cast then v = cast(v) end
  if a.ndim == 1 then a:set(i + 1, v) return end
  local nd = unravel(a, i)
  idx[nd + 1] = v
  a:set(unpack(idx, 1, nd + 1))
end
function P.LM_shape_drop(a, k)
  local t = {}
  for d = 1, a.ndim do
    if d ~= k + 1 then t[#t + 1] = a.shape[d] end
  end
  return pyops.tuple(unpack(t))
end

-- the dtype of a number, as compiled code types it
local function number_dtype(x)
  if type(x) == "boolean" then return "bool" end
  if mtype(x) == "integer" then return "int64" end
  if mtype(x) == "float" then return "float64" end
  local ok, dt = pcall(function() return x.dtype end)  -- a complex number
  if ok and type(dt) == "string" then return dt end
  return "complex128"
end
-- NumPy's promotion of the dtypes of an array, a number or a tuple of them
local function like_dtype(x)
  if AR.arrayish(x) then return x.dtype end
  if not is_tuple(x) then return number_dtype(x) end
  local acc
  for k = 1, x.n do
    local v = x[k]
    local z = AR.arrayish(v) and core.zeros({ 0 }, v.dtype) or v
    acc = acc and AR.call(core.binop, "add", acc, z) or (AR.arrayish(v) and z or core.zeros({ 0 }, number_dtype(v)))
  end
  return acc.dtype
end
local RULE = {
  same = function(dt) return dt end,
  sum = function(dt)
    if dt:match("^float") or dt:match("^complex") then return dt end
    return dt:match("^uint") and "uint64" or "int64"
  end,
  mean = function(dt)
    if dt:match("^float") or dt:match("^complex") then return dt end
    return "float64"
  end,
  -- np.linalg's (builtin_prelude.c): a complex dtype's real type, and the
  -- widest of its kind
  real = function(dt)
    return dt == "complex64" and "float32" or dt == "complex128" and "float64" or dt
  end,
  wide = function(dt) return dt:match("^complex") and "complex128" or "float64" end,
}
function P.LM_empty(shape, like, rule)
  local dt = RULE[rule](like_dtype(like))
  local sh = {}
  if is_tuple(shape) then
    for k = 1, shape.n do sh[k] = shape[k] end
  else
    sh[1] = shape
  end
  return AR.call(core.zeros, sh, dt)
end

---------------------------------------------------------------------------
-- the defs
---------------------------------------------------------------------------
-- string parameters compiled code takes as literals: the string's index
local CHOICES = {
  side = { "left", "right" },
  kind = { "quicksort", "mergesort", "heapsort", "stable" },
  mode = { "full", "same", "valid" },
}
local FRO, NUC = 7.25e307, 7.5e307  -- builtin_prelude.c's norm_order

local ast, defs = nil, {}
local cache = {}

local function prelude_ast()
  if not ast then
    local text = "import numpy as np\nimport math\nimport _lumba\n" .. core._prelude()
    ast = core.parse(text, "=lumba.prelude")
    for _, d in ipairs(ast.body) do
      if d.tag == "FunctionDef" then defs[d.name] = d end
    end
  end
  return ast
end

-- an argument converter for each parameter that needs one, or nil
local function converter(def, pname, k)
  local ch = CHOICES[pname]
  if ch then
    return function(v, fname, default)
      if v == nil then v = default end
      if type(v) ~= "string" then raise(sformat("TypingError: %s(): %s must be a string literal", fname, pname)) end
      for j, s in ipairs(ch) do if s == v then return j - 1 end end
      raise(sformat("ValueError: %s(): %s must be one of '%s', not '%s'", fname, pname,
        table.concat(ch, "', '"), v))
    end
  end
  if pname == "ord" or (def == "np_linalg_cond" and k == 2) then
    return function(v, fname)
      if type(v) ~= "string" then return v end
      if v == "fro" then return FRO end
      if v == "nuc" then return NUC end
      raise(sformat("ValueError: %s(): invalid norm order '%s'", fname, v))
    end
  end
  if pname == "compute_uv" then
    return function(v)
      if v == nil or v == true or v == 1 then return nil end  -- True: the def's default
      return false
    end
  end
  return nil
end

-- the Lua function running prelude def `impl` for a call shown as fname
-- ("np.sort"): its errors raised at the caller's line, without the prelude's
function P.PRELUDE(impl, fname)
  local key = impl .. "\0" .. fname
  local f = cache[key]
  if f then return f end
  local m = prelude_ast()
  local d = defs[impl]
  if not d then error("lumba.objmode_prelude: the prelude has no def " .. impl, 2) end
  local fn = require("lumba.objmode").compile(m, impl, {}, { chunk = "=lumba.prelude", prelude = true })
  local conv = {}
  local params = d.args.args
  for k, a in ipairs(params) do conv[k] = converter(impl, a.arg, k) end
  local nparams = #params
  local defaults = {}  -- string defaults ("left"): converted as the arguments
  local dl = d.args.defaults or {}
  for j, dv in ipairs(dl) do
    if dv.tag == "Constant" and type(dv.value) == "string" then defaults[nparams - #dl + j] = dv.value end
  end
  -- an axis out of range, with NumPy's text (compiled code checks it when
  -- it compiles: builtin_prelude.c's check_axis)
  local axis_at
  for k, a in ipairs(params) do
    if k > 1 and a.arg == "axis" then axis_at = k end
  end
  local function finish(ok, ...)
    if ok then
      if select("#", ...) > 1 then return pyops.tuple(...) end  -- the entry unpacked a tuple result
      return ...
    end
    local msg = ...
    if type(msg) == "string" then raise((msg:gsub("^lumba%.prelude:%d+:%d+: ", "", 1))) end
    error(msg, 0)
  end
  f = function(...)
    local args = table.pack(...)
    local ax, a1 = args[axis_at or 0], args[1]
    if mtype(ax) == "integer" and AR.arrayish(a1) and (ax < -a1.ndim or ax >= a1.ndim) then
      raise(sformat("AxisError: %s(): axis %d is out of bounds for array of dimension %d", fname, ax, a1.ndim))
    end
    for k = 1, nparams do
      if conv[k] then args[k] = conv[k](args[k], fname, defaults[k]) end
    end
    return finish(pcall(fn, unpack(args, 1, math.max(args.n, nparams))))
  end
  cache[key] = f
  return f
end

function P.init(H)
  CAST = H.CAST
end

return P
