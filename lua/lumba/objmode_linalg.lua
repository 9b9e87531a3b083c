-- lumba.objmode_linalg — the object mode's matrix products and np.linalg's
-- LAPACK calls: the runtime compiled code calls (linalg_rt.h, lapack_rt.h
-- through lumba.core._prod and _lapack), with compiled code's checks and
-- messages (builtin_linalg.c, builtin_lapack.c), so both modes give the same
-- numbers. np.outer, np.kron and np.trace are NumPy's definitions on the
-- core's elementwise loops.
local AR = require "lumba.objmode_arrays"

local sformat = string.format
local core, raise, call, nd, arrayish = AR.core, AR.raise, AR.call, AR.nd, AR.arrayish

local L = {}  -- helpers of generated code (objmode.lua copies them into H)

local function floating(dt) return dt == "float32" or dt == "float64" or dt == "complex64" or dt == "complex128" end
local function describe(a) return sformat("%s %d-D array", a.dtype, a.ndim) end

-- LmProd: np.dot, a @ b / np.matmul, np.inner, np.vdot
local PROD = { dot = 0, matmul = 1, inner = 2, vdot = 3 }
function L.LPROD(name, a, b, out)
  local what = name == "matmul@" and "the @ operator" or "np." .. name .. "()"
  name = name == "matmul@" and "matmul" or name
  for _, x in ipairs { a, b } do
    if not arrayish(x) then raise(sformat("TypingError: %s needs arrays, not %s", what, type(x))) end
  end
  a, b = nd(a), nd(b)
  local hi = name == "vdot" and 1 or 2
  for _, x in ipairs { a, b } do
    if x.ndim < 1 or x.ndim > hi then
      raise(sformat("TypingError: %s works on %s arrays, not a %s", what, hi == 1 and "1-D" or "1-D and 2-D", describe(x)))
    end
    if not floating(x.dtype) then
      raise(sformat("TypingError: %s needs float or complex arrays, as in Numba, not a %s (convert with .astype(np.float64))",
        what, describe(x)))
    end
  end
  if a.dtype ~= b.dtype then
    raise(sformat("TypingError: %s needs two arrays of one dtype, as in Numba, not %s and %s", what, a.dtype, b.dtype))
  end
  local r = call(core._prod, PROD[name], a, b)
  if out ~= nil then
    if not arrayish(r) then raise("TypingError: np.dot(): out is for array results, and a . b of two vectors is a number") end
    call(core.copyto, out, r)
    return out
  end
  return r
end
function L.MATMUL(a, b) return L.LPROD("matmul@", a, b) end

local function flat(x) return x:copy():reshape(x.size) end

-- np.outer(a, b): a's elements (flattened) down, b's across
function L.OUTER(a, b)
  a, b = nd(AR.ARRAY(a)), nd(AR.ARRAY(b))
  return call(core.binop, "multiply", flat(a):reshape(a.size, 1), flat(b):reshape(1, b.size))
end

-- np.kron(a, b) of 1-D and 2-D arrays: blocks a[i, j] * b
function L.KRON(a, b)
  a, b = nd(AR.ARRAY(a)), nd(AR.ARRAY(b))
  for _, x in ipairs { a, b } do
    if x.ndim < 1 or x.ndim > 2 then raise("TypingError: np.kron() works on 1-D and 2-D arrays, not a " .. describe(x)) end
  end
  local function dims(x) if x.ndim == 1 then return 1, x.shape[1] end return x.shape[1], x.shape[2] end
  local m, n = dims(a)
  local p, q = dims(b)
  local r = call(core.binop, "multiply", a:copy():reshape(m, 1, n, 1), b:copy():reshape(1, p, 1, q))
  if a.ndim == 1 and b.ndim == 1 then return r:reshape(m * p * n * q) end
  return r:reshape(m * p, n * q)
end

-- np.trace(a, offset=0) of a 2-D float array: the sum of its offset diagonal
function L.TRACE(a, offset)
  offset = offset or 0
  if not arrayish(a) or nd(a).ndim ~= 2 or not (nd(a).dtype == "float32" or nd(a).dtype == "float64") then
    raise("TypingError: np.trace() needs a 2-D float32 or float64 array, as in Numba, not "
      .. (arrayish(a) and ("a " .. describe(nd(a))) or type(a)))
  end
  if math.type(offset) ~= "integer" then raise("TypingError: np.trace(): offset must be an integer") end
  a = nd(a)
  local rows, cols = a.shape[1], a.shape[2]
  local s = 0.0
  for i = math.max(0, -offset), rows - 1 do
    local j = i + offset
    if j >= cols then break end
    s = s + a:get(i + 1, j + 1)
  end
  if a.dtype == "float32" then s = (string.unpack("f", string.pack("f", s))) end
  return s
end

-- the prelude's _lumba.lapack(op, ...): ops 100-102 are compiled code's
-- typing checks (builtin_lapack.c), the others LAPACK through the runtime
local function check_float(x)
  if not arrayish(x) then raise("TypingError: only supported for array types, not " .. type(x)) end
  x = nd(x)
  if not floating(x.dtype) then
    raise(sformat("TypingError: only supported on float and complex arrays, not a %s (convert with .astype(np.float64))",
      describe(x)))
  end
  return x
end
function L.LM_lapack(op, a, ...)
  if op == 100 then
    if arrayish(a) and nd(a).ndim ~= 2 then raise("TypingError: only supported on 2-D arrays, not a " .. describe(nd(a))) end
    check_float(a)
    return 0.0
  elseif op == 101 then
    if arrayish(a) and (nd(a).ndim < 1 or nd(a).ndim > 2) then
      raise("TypingError: only supported on 1 and 2-D arrays, not a " .. describe(nd(a)))
    end
    check_float(a)
    return 0.0
  elseif op == 102 then
    local b = ...
    if arrayish(a) and arrayish(b) and nd(a).dtype ~= nd(b).dtype then
      raise(sformat("TypingError: only supports inputs that have homogeneous dtypes, not %s and %s", nd(a).dtype, nd(b).dtype))
    end
    return 0.0
  end
  return call(core._lapack, op, a, ...)
end

return L
