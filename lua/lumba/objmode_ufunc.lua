-- lumba.objmode_ufunc — the NumPy ufuncs the core's loops (array_ufunc.c)
-- do not have: np.fix, float_power, gcd, lcm, heaviside, ldexp, logaddexp,
-- logaddexp2, nextafter, reciprocal, signbit, sinc, each an element
-- function as builtin_ufunc.c lowers it and a loop over broadcast operands
-- with compiled code's result dtype (its loop table: FLOATS, INTS, ...).
local pyops = require "lumba.pyops"
local AR = require "lumba.objmode_arrays"

local mtype, sformat, spack, sunpack = math.type, string.format, string.pack, string.unpack
local core, raise, call, nd, arrayish = AR.core, AR.raise, AR.call, AR.nd, AR.arrayish
local num = pyops.num

local U = {}

local function isfloat(dt) return dt == "float32" or dt == "float64" end
local function dtype_of(x)
  if arrayish(x) then return nd(x).dtype end
  if type(x) == "boolean" then return "bool" end
  return mtype(x) == "integer" and "int64" or "float64"
end
local function f32(x) return (sunpack("f", spack("f", x))) end

-- the loop's dtype of compiled code for operand dtypes (its FLOATS: float32
-- stays, other inputs compute in the float the core's sqrt gives them)
local function operand_dtype(x, y)  -- NumPy's promotion, a number by its value
  local zx = arrayish(x) and core.zeros({ 0 }, nd(x).dtype) or x
  local zy = y == nil and zx or arrayish(y) and core.zeros({ 0 }, nd(y).dtype) or y
  if not arrayish(zx) and not arrayish(zy) then
    return (mtype(num(zx)) == "float" or mtype(num(zy)) == "float") and "float64" or "int64"
  end
  return call(core.binop, "add", zx, zy).dtype
end
local function float_loop(x, y)
  local dt = operand_dtype(x, y)
  if isfloat(dt) then return dt end
  return call(core.unop, "sqrt", core.zeros({ 0 }, dt)).dtype
end

-- elementwise f over x (and y) broadcast: a new array of dtype dt, or a
-- number where no operand is an array; out: where the result goes
local function map(name, f, dt, x, y, out, binary)
  if not arrayish(x) and not (binary and arrayish(y)) and out == nil then
    local r = f(num(x), binary and num(y) or nil)
    if dt == "float32" then return f32(r) end
    return r
  end
  local X = arrayish(x) and nd(x) or x
  local Y = binary and (arrayish(y) and nd(y) or y) or nil
  local shape_of = binary and call(core.binop, "add", arrayish(X) and core.zeros(X.shape, "bool") or false,
    arrayish(Y) and core.zeros(Y.shape, "bool") or false) or X
  local shape = {}
  for d = 1, shape_of.ndim do shape[d] = shape_of.shape[d] end
  local function spread(v)
    local t = core.zeros(shape, arrayish(v) and v.dtype or dtype_of(v))
    call(core.copyto, t, v)
    return t:reshape(t.size)
  end
  local xs = spread(X)
  local ys = binary and spread(Y) or nil
  local r = core.zeros(shape, dt)
  local rf = r:reshape(r.size)
  for i = 1, rf.size do
    local v = f(num(xs:get(i)), binary and num(ys:get(i)) or nil)
    rf:set(i, v)
  end
  if out ~= nil then
    call(core.copyto, out, r)
    return out
  end
  return r
end

local function floatify(x) return x * 1.0 end  -- keeps -0.0

-- unary and binary element functions (numbers in, a number out)
local function trunc(x)
  x = floatify(x)
  if x ~= x or x == math.huge or x == -math.huge then return x end
  local r = x >= 0 and math.floor(x) + 0.0 or -(math.floor(-x) + 0.0)
  if r == 0 then return x * 0.0 end  -- the sign of x
  return r
end
local function gcd(a, b)
  a, b = math.abs(a), math.abs(b)
  while b ~= 0 do a, b = b, a % b end
  return a
end
local function lcm(a, b)
  local g = gcd(a, b)
  if g == 0 then return 0 end
  return math.abs(a // g * b)
end
local function heaviside(x, h0)
  x, h0 = floatify(x), floatify(h0)
  if x ~= x then return x end
  if x < 0 then return 0.0 end
  if x > 0 then return 1.0 end
  return h0
end
local LOG2 = math.log(2.0)
local function log1p(x) return require("lumba.pymath").log1p(x) end
local function logaddexp(x, y)
  x, y = floatify(x), floatify(y)
  if x == y then return x + LOG2 end
  local d = x - y
  if d > 0 then return x + log1p(math.exp(-d)) end
  if d <= 0 then return y + log1p(math.exp(d)) end
  return d  -- nan
end
local function logaddexp2(x, y)
  x, y = floatify(x), floatify(y)
  if x == y then return x + 1.0 end
  local d = x - y
  if d > 0 then return x + log1p(2.0 ^ -d) / LOG2 end
  if d <= 0 then return y + log1p(2.0 ^ d) / LOG2 end
  return d
end
local function ldexp(x, e)
  x = floatify(x)
  e = math.tointeger(e) or raise("TypeError: np.ldexp(): the exponent must be an integer")
  while e > 1000 do x = x * 2.0 ^ 1000; e = e - 1000 end
  while e < -1000 do x = x * 2.0 ^ -1000; e = e + 1000 end
  return x * 2.0 ^ e
end
-- the next float after x toward y, of the width fmt ("d" or "f")
local function nextafter_of(fmt, ifmt)
  return function(x, y)
    x, y = floatify(x), floatify(y)
    if x ~= x or y ~= y then return x + y end
    if x == y then return y end
    if x == 0 then
      local tiny = sunpack(fmt, spack(ifmt, 1))
      return y > 0 and tiny or -tiny
    end
    local bits = sunpack(ifmt, spack(fmt, x))
    if (x < y) == (x > 0) then bits = bits + 1 else bits = bits - 1 end
    return (sunpack(fmt, spack(ifmt, bits)))
  end
end
local nextafter64, nextafter32 = nextafter_of("d", "i8"), nextafter_of("f", "i4")
local function signbit(x)
  x = floatify(x)
  return sunpack("i8", spack("d", x)) < 0
end
local function sinc(x)
  x = floatify(x)
  local y = 3.141592653589793 * (x == 0 and 1e-20 or x)
  return math.sin(y) / y
end
-- in float32 steps, as the float32 loop rounds (near the zeros it matters)
local PI32 = f32(3.141592653589793)
local function sinc32(x)
  x = floatify(x)
  local y = f32(PI32 * f32(x == 0 and 1e-20 or x))
  return f32(f32(math.sin(y)) / y)
end
local function reciprocal_of(dt)
  if isfloat(dt) then return function(x) return 1.0 / x end end
  local signed = dt:match("^int") ~= nil
  local wide = dt == "int32" or dt == "int64"
  return function(x)
    if x == 1 then return 1 end
    if signed and x == -1 then return -1 end
    if x == 0 and wide then return dt == "int64" and math.mininteger or -2147483648 end
    return 0
  end
end

local function refuse(name, ...)
  local t = {}
  for k = 1, select("#", ...) do t[k] = (select(k, ...)) end
  raise(sformat("UFuncTypeError: ufunc '%s' not supported for the input types (%s)", name, table.concat(t, ", ")))
end

-- the helpers generated code calls: U.UF(name, x [, y] [, out])
local UNARY = { fix = true, reciprocal = true, signbit = true, sinc = true }
function U.UF(name, x, y, out)
  if UNARY[name] then out = y end
  local dx = dtype_of(x)
  if name == "fix" then return map(name, trunc, float_loop(x), x, nil, out) end
  if name == "sinc" then
    local dt = float_loop(x)
    return map(name, dt == "float32" and sinc32 or sinc, dt, x, nil, out)
  end
  if name == "signbit" then return map(name, signbit, "bool", x, nil, out) end
  if name == "reciprocal" then
    if dx == "bool" then refuse(name, dx) end
    return map(name, reciprocal_of(dx), dx, x, nil, out)
  end
  local dy = dtype_of(y)
  if name == "gcd" or name == "lcm" then
    if isfloat(dx) or isfloat(dy) or dx == "bool" or dy == "bool" then refuse(name, dx, dy) end
    return map(name, name == "gcd" and gcd or lcm, operand_dtype(x, y), x, y, out, true)
  end
  if name == "ldexp" then
    if isfloat(dy) then refuse(name, dx, dy) end
    return map(name, ldexp, float_loop(x), x, y, out, true)
  end
  if name == "float_power" then
    return map(name, function(a, b) return floatify(a) ^ floatify(b) end, "float64", x, y, out, true)
  end
  local dt = float_loop(x, y)
  local f = name == "heaviside" and heaviside or name == "logaddexp" and logaddexp or name == "logaddexp2" and logaddexp2
    or (dt == "float32" and nextafter32 or nextafter64)
  return map(name, f, dt, x, y, out, true)
end

return U
