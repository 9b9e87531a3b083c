-- lumba.objmode_complex — the object mode's complex numbers beyond
-- arithmetic: cmath (the C99 functions compiled code calls, through
-- lumba.core._cmath), complex(), .real/.imag, conj, np.angle, on numbers
-- and elementwise on arrays.
local pyops = require "lumba.pyops"
local AR = require "lumba.objmode_arrays"

local mtype = math.type
local core, raise, nd, arrayish = AR.core, AR.raise, AR.nd, AR.arrayish
local num = pyops.num

local X = {}

local complex, iscomplex = core.complex, core.iscomplex
local function parts(z)
  if iscomplex(z) then return z.real, z.imag end
  z = num(z)
  if type(z) ~= "number" then raise("TypeError: must be real number or complex, not " .. pyops.typename(z)) end
  return z * 1.0, 0.0
end

-- cmath's functions by name: a CmathOp of cplx.h, or a Lua function of (re, im)
local OPS = { sqrt = 0, exp = 1, log = 2, log10 = 3, sin = 4, cos = 5, tan = 6, asin = 7, acos = 8, atan = 9,
  sinh = 10, cosh = 11, tanh = 12, asinh = 13, acosh = 14, atanh = 15 }
local function finite(x) return x == x and x ~= math.huge and x ~= -math.huge end
function X.CMATH(name, z, base)
  local re, im = parts(z)
  local op = OPS[name]
  if op then
    local r = complex(core._cmath(op, re, im))
    if name == "log" and base ~= nil then r = r / complex(core._cmath(2, parts(base))) end
    return r
  end
  if name == "isfinite" then return finite(re) and finite(im) end
  if name == "isinf" then return (re == math.huge or re == -math.huge or im == math.huge or im == -math.huge) end
  if name == "isnan" then return re ~= re or im ~= im end
  if name == "phase" then return math.atan(im, re) end
  if name == "polar" then
    return pyops.tuple(require("lumba.pymath").hypot(re, im), math.atan(im, re))
  end
  raise("UnsupportedError: cmath." .. name .. " is not supported in object mode")
end
-- cmath.rect(r, phi)
function X.RECT(r, phi)
  r, phi = num(r) * 1.0, num(phi) * 1.0
  if r == 0 and finite(phi) then return complex(r, r * math.sin(phi)) end
  return complex(r * math.cos(phi), r * math.sin(phi))
end

-- complex(), complex(x), complex(re, im)
function X.CPLX_NEW(re, im)
  if re == nil then return complex(0.0, 0.0) end
  local ar, ai = parts(re)
  if im == nil then return complex(ar, ai) end
  local br, bi = parts(im)
  return complex(ar - bi, ai + br)
end

-- f over the elements of a into a new array of dtype dt (a's shape)
local function each(a, dt, f)
  local src = a:copy()
  local flat = src:reshape(src.size)
  local out = core.zeros(a.shape, dt)
  local of = out:reshape(out.size)
  for i = 1, flat.size do of:set(i, f(flat:get(i))) end
  return out
end
local function part_dtype(dt) return dt == "complex64" and "float32" or "float64" end

-- x.real, x.imag, np.real(x), np.imag(x): the parts of a complex array are
-- new float arrays (compiled code's are views: a store into them does not
-- reach x here)
function X.REAL(x)
  if arrayish(x) then
    local a = nd(x)
    if not a.dtype:match("^complex") then return a end
    return each(a, part_dtype(a.dtype), function(z) return z.real end)
  end
  if iscomplex(x) then return x.real end
  return num(x)
end
function X.IMAG(x)
  if arrayish(x) then
    local a = nd(x)
    if not a.dtype:match("^complex") then return core.zeros(a.shape, a.dtype) end
    return each(a, part_dtype(a.dtype), function(z) return z.imag end)
  end
  if iscomplex(x) then return x.imag end
  local v = num(x)
  return mtype(v) == "integer" and 0 or 0.0
end
function X.CONJ(x)
  if arrayish(x) then
    local a = nd(x)
    if not a.dtype:match("^complex") then return a:copy() end
    return each(a, a.dtype, function(z) return complex(z.real, -z.imag) end)
  end
  if iscomplex(x) then return complex(x.real, -x.imag) end
  return num(x)
end
-- np.angle(z): the phase, a float
function X.ANGLE(x)
  if arrayish(x) then
    local a = nd(x)
    local dt = a.dtype == "complex64" and "float32" or a.dtype == "float32" and "float32" or "float64"
    return each(a, dt, function(z) local re, im = parts(z); return math.atan(im, re) end)
  end
  local re, im = parts(x)
  return math.atan(im, re)
end

return X
