-- lumba.objmode_calls — object mode: calls of builtins (len, abs, min, max,
-- int, float, round...), of math/numpy functions, of array methods, of the
-- module's other defs, and of env functions.
local sformat, concat = string.format, table.concat
local C = require "lumba.objmode_core"
local arith_kind = require("lumba.objmode_expr").arith_kind
local has, within, elem_kind, mangle, fail, unsupported = C.has, C.within, C.elem_kind, C.mangle, C.fail, C.unsupported
local list, recv, KP, KF, KB, KZ = C.list, C.recv, C.KP, C.KF, C.KB, C.KZ
local KT, KU, KINT, KNUM, KALL, DTYPES = C.KT, C.KU, C.KINT, C.KNUM, C.KALL, C.DTYPES
local BUILTIN_NAMES, Fn, EXPR, REGISTRY = C.BUILTIN_NAMES, C.Fn, C.EXPR, C.REGISTRY

---------------------------------------------------------------------------
-- calls
---------------------------------------------------------------------------
-- The object mode's implementation of each entry of the registry
-- (src/builtins.def), by entry id: handler(F, n, via) -> code, kind,
-- simple, where via is the name it was called by ({entry, numpy}). The
-- names (aliases included) come from the registry; BUILTIN maps each
-- qualified name to its handler.
local IMPL = {}
local BUILTIN = {}  -- qualified name -> handler(F, n) -> code, kind, simple
local METHOD_JOINS = {}  -- a.squeeze(), a.swapaxes(): the np functions' handlers (below)

-- positional args plus keywords named in `names` (in that order)
local function bind_args(F, n, qual, names, nreq)
  local args = {}
  for i, a in ipairs(list(n.args)) do
    if a.tag == "Starred" then unsupported(F.M, a, "*args is not supported in object mode") end
    args[i] = a
  end
  for _, kw in ipairs(list(n.keywords)) do
    local pos
    for i, nm in ipairs(names) do if nm == kw.arg then pos = i end end
    if not pos then
      fail(F.M, n, "TypeError", "%s() got an unexpected keyword argument '%s'", qual, tostring(kw.arg))
    end
    if args[pos] then fail(F.M, n, "TypeError", "%s() got multiple values for argument '%s'", qual, kw.arg) end
    args[pos] = kw.value
  end
  local count = 0
  for i = 1, #names do if args[i] then count = i end end
  if #list(n.args) > #names then
    fail(F.M, n, "TypeError", "%s() takes at most %d arguments (%d given)", qual, #names, #list(n.args))
  end
  for i = 1, (nreq or 0) do
    if not args[i] then fail(F.M, n, "TypeError", "%s() missing required argument '%s'", qual, names[i]) end
  end
  return args, count
end

-- translate bound args (holes stay nil); returns codes, kinds, simples
function Fn:bound_operands(args, count)
  local nodes, where = {}, {}
  for i = 1, count do
    if args[i] then nodes[#nodes + 1] = args[i]; where[#nodes] = i end
  end
  local c, k, s = self:operands(nodes)
  local codes, kinds, simples = {}, {}, {}
  for j, i in pairs(where) do codes[i], kinds[i], simples[i] = c[j], k[j], s[j] end
  return codes, kinds, simples
end

-- the math functions Lua computes as libm does (no argument check needed
-- once the arguments are known to be numbers)
local FAST = {
  math_sqrt = "L_sqrt", math_exp = "L_exp", math_sin = "L_sin", math_cos = "L_cos", math_tan = "L_tan",
  math_asin = "L_asin", math_acos = "L_acos", math_atan = "L_atan", math_atan2 = "L_atan",
}
-- a MATH row's result: 'F' float, 'I' int (math.floor), 'B' bool, 'X' float
local RESULT_KIND = { F = KF, I = KINT, B = KB, X = KF }

-- may the operands hold arrays? (NumPy's functions then run elementwise)
local function any_array(kinds, count)
  for i = 1, count do
    if kinds[i] and has(kinds[i], KT | KU) then return true end
  end
  return false
end

local function math_handler(e)
  local name, nargs, rk, fast = e.names[1].member, e.lo, RESULT_KIND[e.result], FAST[e.id]
  return function(F, n, via)
    local names = nargs == 1 and { "x" } or { "x", "y" }
    local args, count = bind_args(F, n, "math." .. name, names, nargs)
    local codes, kinds = F:bound_operands(args, count)
    if via and via.numpy and any_array(kinds, count) then
      return F:use("NP_" .. name) .. "(" .. concat(codes, ", ") .. ")", rk | KT | KU, false
    end
    local allnum = true
    for i = 1, count do
      codes[i], kinds[i] = F:numop(codes[i], kinds[i])
      if not within(kinds[i], KNUM) then allnum = false end
    end
    local fn = (allnum and fast) and F:use(fast) or F:use("M_" .. name)
    return fn .. "(" .. concat(codes, ", ") .. ")", rk, false
  end
end

local function math_log(F, n, via)
  local args, count = bind_args(F, n, via.numpy and "numpy.log" or "math.log", via.numpy and { "x" } or { "x", "base" }, 1)
  local codes, kinds = F:bound_operands(args, count)
  if via.numpy and any_array(kinds, count) then
    return F:use("NP_log") .. "(" .. codes[1] .. ")", KF | KT | KU, false
  end
  local allnum = true
  for i = 1, count do
    codes[i], kinds[i] = F:numop(codes[i], kinds[i])
    if not within(kinds[i], KNUM) then allnum = false end
  end
  if count == 1 and allnum then return F:use("L_log") .. "(" .. codes[1] .. ")", KF, false end
  return F:use("M_log") .. "(" .. concat(codes, ", ") .. ")", KF, false
end

local function np_unary(helper, kindf)
  return function(F, n)
    local args, count = bind_args(F, n, "numpy", { "x" }, 1)
    local codes, kinds = F:bound_operands(args, count)
    local k = kindf(kinds[1])
    if has(kinds[1], KT | KU) then k = k | KT | KU end
    return F:use(helper) .. "(" .. codes[1] .. ")", k, false
  end
end
local function float_kind() return KF end
-- NumPy's floor/ceil/trunc keep floats; rint is round half to even (math.rint too)
local NP_MATH = {
  math_floor = np_unary("NP_FLOOR", float_kind), math_ceil = np_unary("NP_CEIL", float_kind),
  math_trunc = np_unary("NP_TRUNC", float_kind), math_rint = np_unary("NP_RINT", float_kind),
}
for _, via in pairs(REGISTRY) do
  local e = via.entry
  if e.result and not IMPL[e.id] then
    local m, np = math_handler(e), NP_MATH[e.id]
    IMPL[e.id] = function(F, n, v)
      if np and (v.numpy or e.id == "math_rint") then return np(F, n) end
      return m(F, n, v)
    end
  end
end
IMPL.math_log = math_log
IMPL.numpy_sign = np_unary("NP_SIGN", function(k) return has(k, KF) and (KF | KINT) or KINT end)

local function np_binary(helper)
  return function(F, n)
    local args, count = bind_args(F, n, "numpy", { "x1", "x2" }, 2)
    local codes, kinds = F:bound_operands(args, count)
    local k = (has(kinds[1] | kinds[2], KF) and KF or 0) | (has(kinds[1] | kinds[2], KINT | KB) and KINT or 0)
    if any_array(kinds, 2) then k = k | KT | KU end
    return F:use(helper) .. "(" .. codes[1] .. ", " .. codes[2] .. ")", k, false
  end
end
IMPL.numpy_maximum = np_binary("NP_MAXIMUM")
IMPL.numpy_minimum = np_binary("NP_MINIMUM")
IMPL.numpy_fmax = np_binary("NP_FMAX")
IMPL.numpy_fmin = np_binary("NP_FMIN")
IMPL.numpy_fmod = np_binary("NP_FMOD")
-- logical_*: booleans (arrays of them)
local function np_logical(helper, nargs)
  local names = nargs == 1 and { "x" } or { "x1", "x2" }
  return function(F, n)
    local args, count = bind_args(F, n, helper:sub(4):lower(), names, nargs)
    local codes, kinds = F:bound_operands(args, count)
    local k = any_array(kinds, nargs) and (KB | KT | KU) or KB
    return F:use(helper) .. "(" .. concat(codes, ", ", 1, nargs) .. ")", k, false
  end
end
IMPL.numpy_logical_and = np_logical("NP_LOGICAL_AND", 2)
IMPL.numpy_logical_or = np_logical("NP_LOGICAL_OR", 2)
IMPL.numpy_logical_xor = np_logical("NP_LOGICAL_XOR", 2)
IMPL.numpy_logical_not = np_logical("NP_LOGICAL_NOT", 1)
IMPL.numpy_power = function(F, n)
  local args, count = bind_args(F, n, "numpy.power", { "x1", "x2" }, 2)
  local codes, kinds, simples = F:bound_operands(args, count)
  return F:binop("Pow", codes[1], kinds[1], simples[1], codes[2], kinds[2], simples[2], args[2], n)
end
IMPL.numpy_square = function(F, n)
  local args, count = bind_args(F, n, "numpy.square", { "x" }, 1)
  local codes, kinds, simples = F:bound_operands(args, count)
  if has(kinds[1], KT | KU) then return F:use("NP_SQUARE") .. "(" .. codes[1] .. ")", KALL & ~KZ, false end
  local c, k = F:numop(codes[1], kinds[1])
  if not simples[1] then c = F:spill(c) end
  return "(" .. c .. " * " .. c .. ")", arith_kind("Mult", k, k), false
end

-- abs, min, max, len, int, float, bool, round
local function abs_handler(F, n)
  local args, count = bind_args(F, n, "abs", { "x" }, 1)
  local codes, kinds = F:bound_operands(args, count)
  local c, k = F:numop(codes[1], kinds[1])
  if within(k, KNUM) then
    local rk = (has(k, KINT) and KP or 0) | (k & KF)
    return F:use("mabs") .. "(" .. c .. ")", rk, false
  end
  return F:use("ABS") .. "(" .. codes[1] .. ")", KNUM | (has(kinds[1], KT | KU) and (KT | KU) or 0), false
end
IMPL.abs = abs_handler

local function minmax(which)
  return function(F, n, via)
    local nodes = list(n.args)
    if via.numpy and #list(n.keywords) > 0 then
      local args = bind_args(F, n, "numpy." .. which, { "a", "axis" }, 1)
      return F:method_code("ndarray_" .. which, which, args[1], { args[2] })
    end
    if #list(n.keywords) > 0 then unsupported(F.M, n, "%s() keywords are not supported in object mode", which) end
    if #nodes == 0 then fail(F.M, n, "TypeError", "%s expected at least 1 argument, got 0", which) end
    if via.numpy and #nodes == 1 then return F:method_code("ndarray_" .. which, which, nodes[1], {}) end  -- np.min(a): all of a
    if via.numpy and #nodes == 2 then return F:method_code("ndarray_" .. which, which, nodes[1], { nodes[2] }) end  -- np.min(a, axis)
    local codes, kinds = F:operands(nodes)
    local k = 0
    local allnum = #nodes > 1
    for i = 1, #codes do
      k = k | kinds[i]
      if not within(kinds[i], KNUM) then allnum = false end
    end
    if allnum then
      return F:use(which == "min" and "mmin" or "mmax") .. "(" .. concat(codes, ", ") .. ")", k, false
    end
    if #nodes == 1 then k = elem_kind(k) end
    return F:use(which == "min" and "MIN" or "MAX") .. "(" .. concat(codes, ", ") .. ")", k, false
  end
end
IMPL.min = minmax("min")
IMPL.max = minmax("max")

IMPL.len = function(F, n)
  local args, count = bind_args(F, n, "len", { "obj" }, 1)
  local codes = F:bound_operands(args, count)
  return F:use("LEN") .. "(" .. codes[1] .. ")", KP, false
end

local function int_handler(F, n)
  local args, count = bind_args(F, n, "int", { "x" }, 1)
  local codes, kinds = F:bound_operands(args, count)
  local c, k = F:numop(codes[1], kinds[1])
  if within(k, KINT) then return c, k, false end
  return F:use("INT") .. "(" .. codes[1] .. ")", KINT, false
end
IMPL.int = int_handler

local function float_handler(F, n)
  local args, count = bind_args(F, n, "float", { "x" }, 1)
  local codes, kinds = F:bound_operands(args, count)
  local c, k = F:numop(codes[1], kinds[1])
  if within(k, KF) then return c, KF, false end
  if within(k, KNUM) then return "(" .. c .. " * 1.0)", KF, false end
  return F:use("FLOAT") .. "(" .. codes[1] .. ")", KF, false
end
IMPL.float = float_handler

IMPL.bool = function(F, n)
  local args, count = bind_args(F, n, "bool", { "x" }, 1)
  if count == 0 then return "false", KB, true end
  return "(not not " .. F:cond(args[1]) .. ")", KB, false
end

IMPL.round = function(F, n, via)
  if via.numpy and (#list(n.args) > 1 or #list(n.keywords) > 0) then  -- np.round(a, decimals): the prelude's
    return F:prelude_call(n, REGISTRY["numpy.round.prelude"].entry, nil, "np.round")
  end
  local args, count = bind_args(F, n, "round", { "number", "ndigits" }, 1)
  local codes, kinds = F:bound_operands(args, count)
  if count == 1 then
    if within(kinds[1], KINT) then return codes[1], kinds[1], false end
    if via.numpy then return F:use("NP_ROUND") .. "(" .. codes[1] .. ")", KNUM, false end  -- a float stays a float
    return F:use("ROUND") .. "(" .. codes[1] .. ")", KINT, false
  end
  local k = has(kinds[1], KF) and KF or KINT
  return F:use("ROUND") .. "(" .. codes[1] .. ", " .. codes[2] .. ")", k, false
end

-- numpy scalar types called as functions: casts
for name, dt in pairs(DTYPES) do
  BUILTIN["numpy." .. name] = function(F, n)
    local args, count = bind_args(F, n, "numpy." .. name, { "x" }, 1)
    local codes, kinds = F:bound_operands(args, count)
    if dt == "float64" then
      local c, k = F:numop(codes[1], kinds[1])
      if within(k, KNUM) then return "(" .. c .. " * 1.0)", KF, false end
    end
    if dt == "int64" then return int_handler(F, n) end
    local k = dt:match("^float") and KF or dt == "bool" and KB or dt:match("^u") and KP or KINT
    return F:use("CAST") .. "." .. dt .. "(" .. codes[1] .. ")", k, false
  end
end

IMPL.print = function(F, n)
  if #list(n.keywords) > 0 then unsupported(F.M, n, "print() keywords are not supported in object mode") end
  local codes = F:operands(list(n.args))
  return F:use("PRINT") .. "(" .. concat(codes, ", ") .. ")", KZ, false
end

-- a dtype argument: a literal name where the node is one, else its value
function Fn:dtype_arg(node)
  if node == nil then return nil end
  if node.tag == "Constant" and type(node.value) == "string" then
    local d = DTYPES[node.value] or (node.value == "float" and "float64") or (node.value == "int" and "int64")
    if not d then unsupported(self.M, node, "unknown dtype '%s'", node.value) end
    return sformat("%q", d)
  end
  local q = (node.tag == "Name" or node.tag == "Attribute") and self:qualname(node)
  if q then
    local c = self:builtin_value(q, node)
    return c
  end
  return (self:expr(node))
end

local function dtype_kind(code)
  if code == nil then return KT end
  if code == '"bool"' then return KU end
  if code:match('^"') then return KT end
  return KU
end

-- np.empty/zeros/ones(shape, dtype=float64)
local function ctor(name)
  return function(F, n)
    local args = bind_args(F, n, "numpy." .. name, { "shape", "dtype" }, 1)
    local sc = F:expr(args[1])
    if not args[2] then
      F.M.used.RT = true
      return "_RT." .. name .. "(" .. F:use("SHAPE_ARG") .. "(" .. sc .. "), \"float64\")", KT, false
    end
    local dc = F:dtype_arg(args[2])
    F.M.used.RT = true
    return "_RT." .. name .. "(" .. F:use("SHAPE_ARG") .. "(" .. sc .. "), " .. dc .. ")", dtype_kind(dc), false
  end
end
-- np.array/asarray/ascontiguousarray, linspace/logspace, eye/identity/tri,
-- tril/triu, diag: helpers of lumba.objmode_create, arguments in the
-- registry row's order (nil where absent)
local function create_call(F, n, qual, names, nreq, helper, dtype_at, extra)
  local args, count = bind_args(F, n, qual, names, nreq)
  local nodes = {}
  for i = 1, #names do if i ~= dtype_at then nodes[i] = args[i] end end
  local codes = F:bound_operands(nodes, count)
  local out = {}
  for i = 1, #names do
    if i == dtype_at then out[i] = args[i] and F:dtype_arg(args[i]) or "nil"
    else out[i] = codes[i] or "nil" end
  end
  if extra then out[#out + 1] = extra end
  return F:use(helper) .. "(" .. concat(out, ", ") .. ")", KT, false
end
local function array_like(mode, first)
  return function(F, n) return create_call(F, n, "numpy.array", { first, "dtype" }, 1, "NP_ARRAY", 2, mode) end
end
IMPL.numpy_array = array_like('"array"', "object")
IMPL.numpy_asarray = array_like('"asarray"', "a")
IMPL.numpy_ascontiguousarray = array_like('"contig"', "a")
IMPL.numpy_linspace = function(F, n)
  return create_call(F, n, "numpy.linspace", { "start", "stop", "num", "endpoint", "dtype" }, 2, "NP_LINSPACE", 5)
end
IMPL.numpy_logspace = function(F, n)
  local args = bind_args(F, n, "numpy.logspace", { "start", "stop", "num", "endpoint", "base", "dtype" }, 2)
  local codes = F:bound_operands({ args[1], args[2], args[3], args[4], args[5] }, 5)
  local dc = args[6] and F:dtype_arg(args[6]) or "nil"
  return F:use("NP_LINSPACE") .. "(" .. concat({ codes[1], codes[2], codes[3] or "nil", codes[4] or "nil", dc, "true",
    codes[5] or "nil" }, ", ") .. ")", KT, false
end
IMPL.numpy_eye = function(F, n) return create_call(F, n, "numpy.eye", { "N", "M", "k", "dtype" }, 1, "NP_EYE", 4) end
IMPL.numpy_tri = function(F, n) return create_call(F, n, "numpy.tri", { "N", "M", "k", "dtype" }, 1, "NP_EYE", 4, "true") end
IMPL.numpy_identity = function(F, n)
  local args = bind_args(F, n, "numpy.identity", { "n", "dtype" }, 1)
  local codes = F:operands({ args[1] })
  local dc = args[2] and F:dtype_arg(args[2]) or "nil"
  return F:use("NP_EYE") .. "(" .. codes[1] .. ", nil, nil, " .. dc .. ")", KT, false
end
IMPL.numpy_tril = function(F, n) return create_call(F, n, "numpy.tril", { "m", "k" }, 1, "NP_TRIL", nil, "false") end
IMPL.numpy_triu = function(F, n) return create_call(F, n, "numpy.triu", { "m", "k" }, 1, "NP_TRIL", nil, "true") end
IMPL.numpy_diag = function(F, n) return create_call(F, n, "numpy.diag", { "v", "k" }, 1, "NP_DIAG") end

-- np.dtype('float32'), np.dtype(np.int8), np.dtype(a.dtype): a dtype is its name
IMPL.numpy_dtype = function(F, n)
  local args = bind_args(F, n, "numpy.dtype", { "dtype" }, 1)
  return F:dtype_arg(args[1]), KU, false
end

IMPL.numpy_empty = ctor("empty")
IMPL.numpy_zeros = ctor("zeros")
IMPL.numpy_ones = ctor("ones")

-- value kinds -> dtype code for np.full / arange; where the kinds do not
-- tell (a parameter may hold an int or a float), the values do when the
-- code runs (codes: simple codes of the values)
local function value_dtype(F, k, codes)
  if within(k, KINT) then return '"int64"' end
  if within(k, KB) then return '"bool"' end
  if within(k, KF | KB) or not codes then return '"float64"' end
  return F:use("VALUE_DT") .. "(" .. concat(codes, ", ") .. ")"
end

IMPL.numpy_full = function(F, n)
  local args = bind_args(F, n, "numpy.full", { "shape", "fill_value", "dtype" }, 2)
  local codes, kinds = F:operands({ args[1], args[2] })
  local dc = args[3] and F:dtype_arg(args[3]) or nil
  F.M.used.RT = true
  if dc == nil then
    if not within(kinds[2], KNUM | KB) then
      unsupported(F.M, n, "np.full needs a dtype= unless the fill value is a number")
    end
    dc = value_dtype(F, kinds[2])
  end
  return "_RT.full(" .. F:use("SHAPE_ARG") .. "(" .. codes[1] .. "), " .. codes[2] .. ", " .. dc .. ")",
    dtype_kind(dc), false
end

-- np.empty_like/zeros_like/ones_like(a, dtype=a.dtype)
local function like(name)
  return function(F, n)
    local args = bind_args(F, n, "numpy." .. name .. "_like", { "a", "dtype" }, 1)
    local c, k, s = F:expr(args[1])
    if not s then c = F:spill(c) end
    local dc = args[2] and F:dtype_arg(args[2]) or (c .. ".dtype")
    F.M.used.RT = true
    local rk = args[2] and dtype_kind(dc) or (has(k, KU) and KU or KT)
    return "_RT." .. name .. "(" .. F:use("COPY_SHAPE") .. "(" .. c .. "), " .. dc .. ")", rk, false
  end
end
IMPL.numpy_empty_like = like("empty")
IMPL.numpy_zeros_like = like("zeros")
IMPL.numpy_ones_like = like("ones")
IMPL.numpy_full_like = function(F, n)
  local args = bind_args(F, n, "numpy.full_like", { "a", "fill_value", "dtype" }, 2)
  local codes, kinds, simples = F:operands({ args[1], args[2] })
  local c = codes[1]
  if not simples[1] then c = F:spill(c) end
  local dc = args[3] and F:dtype_arg(args[3]) or (c .. ".dtype")
  F.M.used.RT = true
  return "_RT.full(" .. F:use("COPY_SHAPE") .. "(" .. c .. "), " .. codes[2] .. ", " .. dc .. ")",
    args[3] and dtype_kind(dc) or (has(kinds[1], KU) and KU or KT), false
end

-- np.arange([start,] stop[, step], dtype=None)
IMPL.numpy_arange = function(F, n)
  local pos = list(n.args)
  local dnode
  for _, kw in ipairs(list(n.keywords)) do
    if kw.arg == "dtype" then dnode = kw.value
    else unsupported(F.M, n, "np.arange keyword '%s' is not supported in object mode", tostring(kw.arg)) end
  end
  if #pos == 4 and not dnode then dnode = pos[4]; pos = { pos[1], pos[2], pos[3] } end  -- a positional dtype
  if #pos == 0 or #pos > 3 then fail(F.M, n, "TypeError", "arange() takes 1 to 3 positional arguments") end
  local codes, kinds, simples = F:operands(pos)
  for i = 1, #codes do
    if not simples[i] then codes[i] = F:spill(codes[i]) end
  end
  local start, stop, step = "0", codes[1], "1"
  if #pos >= 2 then start, stop = codes[1], codes[2] end
  if #pos == 3 then step = codes[3] end
  local k = 0
  for _, kd in ipairs(kinds) do k = k | kd end
  local dc = dnode and F:dtype_arg(dnode) or value_dtype(F, k, codes)
  F.M.used.RT = true
  return "_RT.arange(" .. start .. ", " .. stop .. ", " .. step .. ", " .. dc .. ")",
    dnode and dtype_kind(dc) or KT, false
end

-- np.argwhere / np.flatnonzero / np.count_nonzero(a): the runtime's helpers
-- (np.where is the object mode's own, below)
local function find(helper, kind)
  return function(F, n)
    local args = bind_args(F, n, "numpy." .. helper:lower(), { "a" }, 1)
    return F:use(helper) .. "(" .. F:expr(args[1]) .. ")", kind, false
  end
end
IMPL.numpy_argwhere = find("ARGWHERE", KT)
IMPL.numpy_flatnonzero = find("FLATNONZERO", KT)
IMPL.numpy_count_nonzero = find("COUNT_NONZERO", KINT)

-- methods of arrays (the registry's "ndarray." rows, and the object
-- mode's own: std, var, argmin, argmax, cumsum), by entry id: the result
-- kind given the receiver's kind
local function arr_or_num(k) return has(k, KU) and KALL or (KNUM | KT | KU) end
local function same_array(k) return k & (KT | KU) end
local METHODS = {
  ndarray_sum = arr_or_num, ndarray_min = arr_or_num, ndarray_max = arr_or_num,
  ndarray_mean = function() return KF | KT end,
  ndarray_prod = arr_or_num,
  ndarray_std = function() return KF | KT end, ndarray_var = function() return KF | KT end,
  ndarray_argmin = function() return KP | KT end, ndarray_argmax = function() return KP | KT end,
  ndarray_cumsum = function(k) return KT | (k & KU) end,
  ndarray_cumprod = function(k) return KT | (k & KU) end,
  ndarray_copy = same_array, ndarray_transpose = same_array,
  ndarray_fill = function() return KZ end,
  ndarray_astype = function() return KU end,
  ndarray_reshape = same_array, ndarray_ravel = same_array, ndarray_flatten = same_array,
  ndarray_nonzero = function() return KT end,
}
-- a method's helper (receiver first) and the keywords it takes, in order
local METHOD_HELPERS = {
  ndarray_sum = { "RSUM", { "axis" } }, ndarray_min = { "RMIN", { "axis" } }, ndarray_max = { "RMAX", { "axis" } },
  ndarray_mean = { "MEAN", { "axis" } }, ndarray_prod = { "PROD", { "axis" } },
  ndarray_std = { "RSTD", { "axis", "ddof" } }, ndarray_var = { "RVAR", { "axis", "ddof" } },
  ndarray_argmin = { "RARGMIN", { "axis" } }, ndarray_argmax = { "RARGMAX", { "axis" } },
  ndarray_cumsum = { "RCUMSUM", { "axis" } }, ndarray_cumprod = { "RCUMPROD", { "axis" } },
  ndarray_ravel = { "RAVEL", {} }, ndarray_flatten = { "FLATTEN", {} },
  ndarray_transpose = { "TRANSPOSE", {} }, ndarray_copy = { "COPY", {} },
  ndarray_reshape = { "RESHAPE", {} }, ndarray_astype = { "ASTYPE", { "dtype" } },
  ndarray_nonzero = { "NONZERO", {} },
}

-- recv.name(args) for registry method id; recv and args are nodes (nil holes allowed)
function Fn:method_code(id, name, recv_node, arg_nodes, nargs)
  nargs = nargs or #arg_nodes
  local nodes = { recv_node }
  local where = {}
  for i = 1, nargs do
    if arg_nodes[i] then nodes[#nodes + 1] = arg_nodes[i]; where[#nodes] = i end
  end
  local codes, kinds, simples = self:operands(nodes)
  local args = {}
  for i = 1, nargs do args[i] = "nil" end
  for j, i in pairs(where) do args[i] = codes[j] end
  if id == "ndarray_astype" and arg_nodes[1] then
    args[1] = self:dtype_arg(arg_nodes[1])
  elseif id == "ndarray_reshape" then
    if nargs == 1 then
      args = { self:use("SHAPE_ARG") .. "(" .. args[1] .. ")" }
    else
      args = { "{" .. concat(args, ", ") .. "}" }
    end
  end
  while #args > 0 and args[#args] == "nil" do args[#args] = nil end
  local k = METHODS[id](kinds[1])
  if k == 0 then k = KU end
  local h = METHOD_HELPERS[id]
  if h then
    table.insert(args, 1, codes[1])
    return self:use(h[1]) .. "(" .. concat(args, ", ") .. ")", k, false
  end
  return recv(codes[1], simples[1]) .. ":" .. name .. "(" .. concat(args, ", ") .. ")", k, false
end

-- the method id of a.name: the registry's, or the object mode's own
local function method_id(name)
  local id = C.builtin_id("ndarray." .. name)
  if id then return id end
  if METHODS["ndarray_" .. name] then return "ndarray_" .. name end
  return nil
end

function Fn:method_call(n)
  local f = n.func
  local name = f.attr
  local id = method_id(name)
  local via = REGISTRY["ndarray." .. name]
  if METHOD_JOINS[name] and via and via.entry.objmode == true then
    local call = { tag = n.tag, func = n.func, args = { f.value, table.unpack(list(n.args)) }, keywords = n.keywords,
      lineno = n.lineno, col_offset = n.col_offset }
    return METHOD_JOINS[name](self, call)
  end
  if via and via.entry.impl and via.entry.objmode == true and not METHODS[id] then
    return self:prelude_call(n, via.entry, f.value, "ndarray." .. name)
  end
  if not METHODS[id] or (via and via.entry.objmode ~= true) then
    unsupported(self.M, n, "method '%s' is not supported in object mode", name)
  end
  local kws = METHOD_HELPERS[id] and METHOD_HELPERS[id][2] or {}
  if #list(n.keywords) > 0 and #kws == 0 then
    unsupported(self.M, n, "keywords in method calls are not supported in object mode")
  end
  if #list(n.keywords) == 0 then return self:method_code(id, name, f.value, list(n.args)) end
  local args, count = bind_args(self, n, name, kws, 0)
  return self:method_code(id, name, f.value, args, count)
end

-- np.sum(a) & co.: a registry method called by a function name
local function method_as_function(e, id, member)
  id = id or e.id
  member = member or e.names[1].member
  return function(F, n)
    local kws = METHOD_HELPERS[id] and METHOD_HELPERS[id][2] or {}
    local names = { "a" }
    for _, kw in ipairs(kws) do names[#names + 1] = kw end
    if id == "ndarray_reshape" then names = { "a", "newshape" } end
    if id == "ndarray_transpose" then names = { "a", "axes" } end
    local args, count = bind_args(F, n, member, names, 1)
    local rest = {}
    for i = 2, count do rest[i - 1] = args[i] end
    return F:method_code(id, member, args[1], rest, count - 1)
  end
end

-- np.transpose(a), np.ravel(a), np.reshape(a, shape): the methods (axes: compiled code only, for now)
IMPL.numpy_transpose = function(F, n)
  local args = bind_args(F, n, "transpose", { "a", "axes" }, 1)
  if args[2] then unsupported(F.M, n, "np.transpose with axes is not supported in object mode") end
  return F:method_code("ndarray_transpose", "transpose", args[1], {})
end
IMPL.numpy_ravel = function(F, n)
  local args = bind_args(F, n, "ravel", { "a" }, 1)
  return F:method_code("ndarray_ravel", "ravel", args[1], {})
end
IMPL.numpy_reshape = function(F, n)
  local args = bind_args(F, n, "reshape", { "a", "newshape" }, 2)
  return F:method_code("ndarray_reshape", "reshape", args[1], { args[2] })
end

-- np.random (lumba.objmode_random): the arguments in the registry row's
-- order, nil where absent, for the same C runtime compiled code calls
local function is_none_node(a) return a == nil or (a.tag == "Constant" and a.value == nil) end
for member in pairs(require("lumba.objmode_random").NPRAND_SPEC) do
  IMPL["numpy_random_" .. member] = function(F, n, via)
    local e = via.entry
    local args, count = bind_args(F, n, e.name, e.keywords, e.lo)
    local nk = #e.keywords
    local codes = F:bound_operands(args, count)
    for i = 1, nk do codes[i] = codes[i] or "nil" end
    local discrete = member == "randint" or member == "binomial" or member == "poisson" or member == "geometric"
      or member == "negative_binomial" or member == "zipf" or member == "logseries" or member == "hypergeometric"
    local k = is_none_node(args[nk]) and (discrete and KINT or KF) or KT
    F.M.used.NPRANDOM = true
    return F:use("NPRANDOM") .. "(" .. sformat("%q", member) .. ", " .. concat(codes, ", ", 1, nk) .. ")", k, false
  end
end
local function dims_call(normal)
  return function(F, n)
    local args = list(n.args)
    local codes = F:operands(args)
    return F:use("NPRAND_DIMS") .. "(" .. tostring(normal) .. (#codes > 0 and ", " .. concat(codes, ", ") or "") .. ")",
      #codes > 0 and KT or KF, false
  end
end
IMPL.numpy_random_rand, IMPL.numpy_random_randn = dims_call(false), dims_call(true)
local function fixed_call(helper, names, nreq, k)
  return function(F, n, via)
    local args, count = bind_args(F, n, via.entry.name, names, nreq)
    local codes = F:bound_operands(args, count)
    for i = 1, #names do codes[i] = codes[i] or "nil" end
    return F:use(helper) .. "(" .. concat(codes, ", ", 1, #names) .. ")", k, false
  end
end
IMPL.numpy_random_seed = fixed_call("NPRAND_SEED", { "seed" }, 1, KZ)
IMPL.numpy_random_shuffle = fixed_call("NPRAND_SHUFFLE", { "x" }, 1, KZ)
IMPL.numpy_random_permutation = fixed_call("NPRAND_PERMUTATION", { "x" }, 1, KT)
IMPL.numpy_random_choice = fixed_call("NPRAND_CHOICE", { "a", "size", "replace", "p" }, 1, KALL)
IMPL.numpy_random_multinomial = fixed_call("NPRAND_MULTINOMIAL", { "n", "pvals", "size" }, 2, KT)
IMPL.numpy_random_dirichlet = fixed_call("NPRAND_DIRICHLET", { "alpha", "size" }, 1, KT)

-- the prelude's intrinsics (_lumba.*), seen in the prelude's own translation only
local INTRINSIC_KIND = { dim = KP, ndim = KP, flat = KALL, flat_set = KZ, shape_drop = KT, empty = KT | KU, lapack = KF }
for m, k in pairs(INTRINSIC_KIND) do
  IMPL["_lumba_" .. m] = function(F, n)
    if not F.M.prelude then unsupported(F.M, n, "_lumba.%s() is not supported in object mode", m) end
    local codes = F:operands(list(n.args))
    return F:use("LM_" .. m) .. "(" .. concat(codes, ", ") .. ")", k, false
  end
end

-- a PYFUNC/PYMETHOD row: a call of its def of the prelude (lumba.objmode_prelude),
-- bound by the row's keywords (a method's receiver first)
local function prelude_call(F, n, e, recv_node, qual)
  local names = e.keywords or {}
  local args, count = bind_args(F, n, qual, names, recv_node and 0 or e.lo)
  if recv_node then  -- shifted by hand: args may have holes
    local shifted = { recv_node }
    for i = 1, count do shifted[i + 1] = args[i] end
    args, count = shifted, count + 1
  end
  local codes = F:bound_operands(args, count)
  for i = 1, count do codes[i] = codes[i] or "nil" end
  local f = F:use("PRELUDE") .. "(" .. sformat("%q, %q", e.impl, qual) .. ")"
  return f .. "(" .. concat(codes, ", ", 1, count) .. ")", KALL, false
end
local function user_name(nm)
  local member = nm.member:gsub("%.prelude$", "")
  if nm.module == "numpy" then return "np." .. member end
  if nm.module == "numpy.linalg" then return "np.linalg." .. member end
  return (nm.module == "" and "" or nm.module .. ".") .. member
end
Fn.prelude_call = prelude_call

-- ufuncs the core's loops lack (lumba.objmode_ufunc): x [, y] [, out]
for name, nargs in pairs { fix = 1, reciprocal = 1, signbit = 1, sinc = 1, float_power = 2, gcd = 2, lcm = 2,
    heaviside = 2, ldexp = 2, logaddexp = 2, logaddexp2 = 2, nextafter = 2 } do
  IMPL["numpy_" .. name] = function(F, n)
    local names = nargs == 1 and { "x", "out" } or { "x1", "x2", "out" }
    if name == "sinc" then names = { "x" } end
    local args, count = bind_args(F, n, "numpy." .. name, names, nargs)
    local codes, kinds = F:bound_operands(args, count)
    for i = 1, count do codes[i] = codes[i] or "nil" end
    local k = name == "signbit" and KB or (name == "gcd" or name == "lcm" or name == "reciprocal") and KNUM or KF
    if any_array(kinds, count) then k = k | KT | KU end
    return F:use("UF") .. "(" .. sformat("%q", name) .. ", " .. concat(codes, ", ", 1, count) .. ")", k, false
  end
end

-- joins, splits and views with axes (lumba.objmode_joins): helper, parameter names, required
local JOINS = {
  append = { "APPEND", { "arr", "values", "axis" }, 2 },
  array_split = { "ARRAY_SPLIT", { "ary", "indices_or_sections", "axis" }, 2 },
  broadcast_to = { "BROADCAST_TO", { "array", "shape" }, 2 },
  column_stack = { "COLUMN_STACK", { "tup" }, 1 },
  diff = { "DIFF", { "a", "n", "axis" }, 1 },
  dstack = { "DSTACK", { "tup" }, 1 },
  expand_dims = { "EXPAND_DIMS", { "a", "axis" }, 2 },
  flip = { "FLIP", { "m", "axis" }, 1 },
  fliplr = { "FLIPLR", { "m" }, 1 },
  flipud = { "FLIPUD", { "m" }, 1 },
  hstack = { "HSTACK", { "tup" }, 1 },
  moveaxis = { "MOVEAXIS", { "a", "source", "destination" }, 3 },
  repeat_ = { "REPEAT", { "a", "repeats", "axis" }, 2 },
  roll = { "ROLL", { "a", "shift", "axis" }, 2 },
  split = { "SPLIT", { "ary", "indices_or_sections", "axis" }, 2 },
  squeeze = { "SQUEEZE", { "a", "axis" }, 1 },
  stack = { "STACK", { "arrays", "axis", "dtype" }, 1, 3 },
  swapaxes = { "SWAPAXES", { "a", "axis1", "axis2" }, 3 },
  tile = { "TILE", { "A", "reps" }, 2 },
  vstack = { "VSTACK", { "tup" }, 1 },
  concatenate = { "CONCATENATE", { "arrays", "axis", "dtype" }, 1, 3 },
}
for name, j in pairs(JOINS) do
  local member = name == "repeat_" and "repeat" or name
  IMPL["numpy_" .. member] = function(F, n)
    local names = j[2]
    local args, count = bind_args(F, n, "numpy." .. member, names, j[3])
    local dpos = j[4]
    local dnode = dpos and args[dpos]
    if dpos then args[dpos] = nil end
    local helper = j[1]
    if name == "concatenate" and args[2] and args[2].tag == "Constant" and args[2].value == nil then
      helper, args[2] = "CONCATENATE_FLAT", nil  -- axis=None: the parts flattened
    end
    local codes = F:bound_operands(args, count)
    for i = 1, count do codes[i] = codes[i] or "nil" end
    if dnode then codes[dpos] = F:dtype_arg(dnode) end
    if helper == "CONCATENATE_FLAT" then codes = { codes[1], codes[3] or "nil" }; count = 2 end
    local k = (name == "split" or name == "array_split") and KALL or (KT | KU)
    return F:use(helper) .. "(" .. concat(codes, ", ", 1, count) .. ")", k, false
  end
end
IMPL.numpy_atleast_1d = function(F, n) return F:use("ATLEAST") .. "(1, " .. F:operands(list(n.args))[1] .. ")", KT | KU, false end
IMPL.numpy_atleast_2d = function(F, n) return F:use("ATLEAST") .. "(2, " .. F:operands(list(n.args))[1] .. ")", KT | KU, false end
IMPL.numpy_atleast_3d = function(F, n) return F:use("ATLEAST") .. "(3, " .. F:operands(list(n.args))[1] .. ")", KT | KU, false end
-- a.squeeze(axis), a.swapaxes(i, j): the functions with the receiver first
METHOD_JOINS.squeeze, METHOD_JOINS.swapaxes = IMPL.numpy_squeeze, IMPL.numpy_swapaxes

-- complex numbers (lumba.objmode_complex): cmath, complex(), conj, parts, np.angle
for _, via in pairs(REGISTRY) do
  local e = via.entry
  local m = e.name:match("^cmath%.(.+)$")
  if m and not IMPL[e.id] then
    IMPL[e.id] = function(F, n)
      if m == "rect" then
        local args, count = bind_args(F, n, "cmath.rect", { "r", "phi" }, 2)
        local codes = F:bound_operands(args, count)
        return F:use("RECT") .. "(" .. codes[1] .. ", " .. codes[2] .. ")", KALL, false
      end
      local args, count = bind_args(F, n, "cmath." .. m, m == "log" and { "z", "base" } or { "z" }, 1)
      local codes = F:bound_operands(args, count)
      local k = (m == "isfinite" or m == "isinf" or m == "isnan") and KB or (m == "phase") and KF or KALL
      return F:use("CMATH") .. "(" .. sformat("%q", m) .. ", " .. concat(codes, ", ", 1, count) .. ")", k, false
    end
  end
end
IMPL.complex = function(F, n)
  local args, count = bind_args(F, n, "complex", { "real", "imag" }, 0)
  local codes = F:bound_operands(args, count)
  for i = 1, count do codes[i] = codes[i] or "nil" end
  return F:use("CPLX_NEW") .. "(" .. concat(codes, ", ", 1, count) .. ")", KALL, false
end
local function one_arg(helper, qual)
  return function(F, n)
    local args, count = bind_args(F, n, qual, { "x" }, 1)
    local codes = F:bound_operands(args, count)
    return F:use(helper) .. "(" .. codes[1] .. ")", KALL, false
  end
end
IMPL.ndarray_conj = one_arg("CONJ", "conj")
IMPL.ndarray_conjugate = one_arg("CONJ", "conjugate")
IMPL.numpy_real, IMPL.numpy_imag = one_arg("REAL", "numpy.real"), one_arg("IMAG", "numpy.imag")
IMPL.numpy_angle = one_arg("ANGLE", "numpy.angle")
METHOD_JOINS.conj, METHOD_JOINS.conjugate = IMPL.ndarray_conj, IMPL.ndarray_conjugate

-- matrix products (lumba.objmode_linalg: the BLAS compiled code calls)
local function prod(name)
  return function(F, n)
    local names = name == "dot" and { "a", "b", "out" } or { "a", "b" }
    local args, count = bind_args(F, n, "numpy." .. name, names, 2)
    local codes = F:bound_operands(args, count)
    for i = 1, count do codes[i] = codes[i] or "nil" end
    return F:use("LPROD") .. "(" .. sformat("%q", name) .. ", " .. concat(codes, ", ", 1, count) .. ")", KALL, false
  end
end
IMPL.numpy_dot, IMPL.numpy_matmul, IMPL.numpy_inner, IMPL.numpy_vdot = prod("dot"), prod("matmul"), prod("inner"), prod("vdot")
IMPL.numpy_outer = function(F, n)
  local args, count = bind_args(F, n, "numpy.outer", { "a", "b" }, 2)
  local codes = F:bound_operands(args, count)
  return F:use("OUTER") .. "(" .. codes[1] .. ", " .. codes[2] .. ")", KT | KU, false
end
IMPL.numpy_kron = function(F, n)
  local args, count = bind_args(F, n, "numpy.kron", { "a", "b" }, 2)
  local codes = F:bound_operands(args, count)
  return F:use("KRON") .. "(" .. codes[1] .. ", " .. codes[2] .. ")", KT | KU, false
end
IMPL.numpy_trace = function(F, n)
  local args, count = bind_args(F, n, "numpy.trace", { "a", "offset" }, 1)
  local codes = F:bound_operands(args, count)
  return F:use("TRACE") .. "(" .. codes[1] .. ", " .. (codes[2] or "nil") .. ")", KF, false
end

-- every name of every entry the object mode implements
for q, via in pairs(REGISTRY) do
  local e = via.entry
  local h = IMPL[e.id]
  if h then
    BUILTIN[q] = function(F, n) return h(F, n, via) end
  elseif e.kind == "method" and METHODS[e.id] and not q:match("^ndarray%.") then
    BUILTIN[q] = method_as_function(e)
  end
end

---------------------------------------------------------------------------
-- NumPy functions the registry does not list (yet): the object mode's own
---------------------------------------------------------------------------
-- (a registry row that says the object mode lacks the name wins: the
-- row changes to OBJMODE when this implementation is to be used)
local function own(q, h)
  local via = REGISTRY[q]
  if via and via.entry.objmode ~= true then return end
  if not BUILTIN[q] then BUILTIN[q] = h end
end
for _, m in ipairs { "std", "var", "argmin", "argmax", "cumsum", "cumprod", "ravel", "reshape", "copy", "transpose" } do
  own("numpy." .. m, method_as_function(nil, "ndarray_" .. m, m))
end

-- helper(args...) with the given parameter names; result kind k
local function simple_call(helper, names, nreq, k, qual)
  return function(F, n)
    local args, count = bind_args(F, n, qual or "numpy", names, nreq)
    local codes = F:bound_operands(args, count)
    for i = 1, count do codes[i] = codes[i] or "nil" end
    return F:use(helper) .. "(" .. concat(codes, ", ", 1, count) .. ")", k, false
  end
end
own("numpy.where", simple_call("WHERE", { "condition", "x", "y" }, 1, KT | KU))

-- elementwise binary ufuncs by name: the operators' helpers
local UFUNC2 = { add = "ADD", subtract = "SUB", multiply = "MUL", divide = "DIV", true_divide = "DIV",
  floor_divide = "FLOORDIV", remainder = "MOD", mod = "MOD", bitwise_and = "BAND", bitwise_or = "BOR",
  bitwise_xor = "BXOR", left_shift = "SHL", right_shift = "SHR", equal = "EQ", not_equal = "NE",
  less = "LT", less_equal = "LE", greater = "GT", greater_equal = "GE", negative = "NEG",
  positive = "NPPOS", invert = "INVERT", bitwise_not = "INVERT" }
for name, helper in pairs(UFUNC2) do
  local unary = helper == "NEG" or helper == "NPPOS" or helper == "INVERT"
  own("numpy." .. name, simple_call(helper, unary and { "x" } or { "x1", "x2" }, unary and 1 or 2, KALL & ~KZ, name))
end

-- creation functions with a dtype
local function dtype_call(helper, names, nreq, dpos)
  return function(F, n)
    local args, count = bind_args(F, n, "numpy", names, nreq)
    local dn = args[dpos]
    args[dpos] = nil
    local codes = F:bound_operands(args, math.max(count, dpos))
    for i = 1, math.max(count, dpos) do codes[i] = codes[i] or "nil" end
    if dn then codes[dpos] = F:dtype_arg(dn) end
    local k = dn and dtype_kind(codes[dpos]) or KT
    return F:use(helper) .. "(" .. concat(codes, ", ", 1, math.max(count, dpos)) .. ")", k, false
  end
end
own("numpy.linspace", dtype_call("LINSPACE", { "start", "stop", "num", "dtype" }, 2, 4))
own("numpy.eye", dtype_call("EYE", { "N", "M", "k", "dtype" }, 1, 4))
own("numpy.identity", dtype_call("IDENTITY", { "n", "dtype" }, 1, 2))
own("numpy.array", function(F, n)
  local args = bind_args(F, n, "numpy.array", { "object", "dtype" }, 1)
  local c = F:expr(args[1])
  local dc = args[2] and F:dtype_arg(args[2]) or "nil"
  return F:use("NPARRAY") .. "(" .. c .. ", " .. dc .. ")", args[2] and dtype_kind(dc) or (KT | KU), false
end)
BUILTIN["numpy.asarray"] = BUILTIN["numpy.asarray"] or BUILTIN["numpy.array"]

-- the prelude's functions the object mode has no handler of its own for
for q, via in pairs(REGISTRY) do
  local e = via.entry
  if e.impl and e.objmode == true and not IMPL[e.id] and not BUILTIN[q] then
    local nm = e.names[1]
    for _, a in ipairs(e.names) do if q == a.name then nm = a end end
    if e.kind == "method" and not q:match("^ndarray%.") then  -- np.f(a, ...): the method's receiver first
      local qual = user_name(nm)
      BUILTIN[q] = function(F, n)
        local args = list(n.args)
        if #args == 0 then fail(F.M, n, "TypeError", "%s() missing required argument 'a'", qual) end
        local rest = { tag = n.tag, func = n.func, args = { table.unpack(args, 2) }, keywords = n.keywords,
          lineno = n.lineno, col_offset = n.col_offset }
        return prelude_call(F, rest, e, args[1], qual)
      end
    elseif e.kind ~= "method" then
      local qual = user_name(nm)
      BUILTIN[q] = function(F, n) return prelude_call(F, n, e, nil, qual) end
    end
  end
end

-- call of a def of the module: its fast variant when no argument can be a
-- bool (or hold bools), else its checking entry
function Fn:def_call(n, d)
  local M = self.M
  local info = M:get_info(d.name)
  local args = bind_args(self, n, d.name, info.params, 0)
  local codes, kinds = self:bound_operands(args, #info.params)
  local fast = true
  for i = 1, #info.params do
    local k
    if args[i] then
      k = kinds[i]
    else
      if info.defaults[i] == nil then
        fail(M, n, "TypeError", "%s() missing 1 required positional argument: '%s'", d.name, info.params[i])
      end
      codes[i] = "nil"
      k = 0
    end
    if not within(k, info.fastk[i]) then fast = false end
  end
  for i = 1, #info.params do codes[i] = codes[i] or "nil" end
  local last = #info.params
  while last > 0 and codes[last] == "nil" and not args[last] do last = last - 1 end
  local argl = concat(codes, ", ", 1, last)
  M:need_def(d.name)
  local rk = M.ret[d.name]
  if fast then
    return "_f_" .. d.name .. "(" .. argl .. ")", rk.f, false
  end
  return "_e_" .. d.name .. "(" .. argl .. ")", rk.f | rk.g, false
end

EXPR.Call = function(F, n)
  local f = n.func
  local M = F.M
  if f.tag == "Name" then
    local id = f.id
    if F.locals[id] then
      local codes = F:operands(list(n.args))
      if #list(n.keywords) > 0 then unsupported(M, n, "keyword arguments to a value are not supported in object mode") end
      return F:use("PACKRET") .. "(" .. mangle(id) .. "(" .. concat(codes, ", ") .. "))", KALL, false
    end
    if M.defs[id] then return F:def_call(n, M.defs[id]) end
    local found, v = M.env_get(id)
    if found and not M.aliases[id] and not BUILTIN_NAMES[id] then
      local mt = debug.getmetatable(v)  -- lumba's metatables are protected (__metatable)
      if type(v) ~= "function" and not (type(mt) == "table" and mt.__call) then
        fail(M, n, "TypeError", "'%s' object is not callable", type(v))
      end
      local codes = F:operands(list(n.args))
      if #list(n.keywords) > 0 then unsupported(M, n, "keyword arguments to a Lua function are not supported in object mode") end
      return F:use("PACKRET") .. "(" .. M:upvalue(id, v) .. "(" .. concat(codes, ", ") .. "))", KALL, false
    end
  end
  local q = F:qualname(f)
  if q then
    local h = BUILTIN[q]
    if h then return h(F, n) end
    if q:match("^builtins%.") and not BUILTIN_NAMES[q:sub(10)] then
      fail(M, f, "NameError", "name '%s' is not defined", q:sub(10))
    end
    if q:match("^numpy%.") then
      unsupported(M, n, "np.%s is not supported in object mode", q:sub(7))
    end
    unsupported(M, n, "%s() is not supported in object mode", q:gsub("^builtins%.", ""))
  end
  if f.tag == "Attribute" then return F:method_call(n) end
  unsupported(M, n, "this call is not supported in object mode")
end

return true
