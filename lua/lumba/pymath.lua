-- lumba.pymath — Python's math module (and NumPy's scalar spellings) for
-- the object-mode path. Domain errors follow C's libm as Numba does
-- (sqrt(-1) is nan, log(0) is -inf); floor/ceil/trunc return ints and
-- raise on nan/inf as Python does. Functions Lua lacks (expm1, log1p,
-- hyperbolics, hypot, erf, erfc, gamma, lgamma, exp2, cbrt) are computed here to within
-- a few ulps of libm (erf/erfc/gamma/lgamma: about 1e-14 relative).
local pyops = require "lumba.pyops"

local M = {}
local exp, log, sqrt, abs, sin, floor = math.exp, math.log, math.sqrt, math.abs, math.sin, math.floor
local huge, pi = math.huge, math.pi
local num, raise = pyops.num, pyops.raise
local LN2 = 0.6931471805599453

local function fl(x)
  x = num(x)
  if type(x) ~= "number" then
    raise("TypeError: must be real number, not " .. pyops.typename(x))
  end
  return x * 1.0  -- keeps -0.0
end

-- the functions Lua's math library already computes as libm does
local function wrap1(f) return function(x) return f(fl(x)) end end
M.sqrt = wrap1(math.sqrt)
M.exp = wrap1(math.exp)
M.sin = wrap1(math.sin)
M.cos = wrap1(math.cos)
M.tan = wrap1(math.tan)
M.asin = wrap1(math.asin)
M.acos = wrap1(math.acos)
M.atan = wrap1(math.atan)
function M.atan2(y, x) return math.atan(fl(y), fl(x)) end
function M.log10(x) return log(fl(x), 10) end
function M.log2(x) return log(fl(x), 2) end
-- math.log(x, base) is log(x) / log(base) in Python and Numba
function M.log(x, base)
  if base == nil then return log(fl(x)) end
  return log(fl(x)) / log(fl(base))
end
function M.exp2(x) return 2.0 ^ fl(x) end
function M.cbrt(x)
  x = fl(x)
  if x ~= x or x == 0 or x == huge or x == -huge then return x end
  local r = abs(x) ^ (1 / 3)
  r = r - (r * r * r - abs(x)) / (3 * r * r)  -- one Newton step: pow's 1/3 is not exact
  return x < 0 and -r or r
end
function M.fabs(x) return abs(fl(x)) end
function M.pow(x, y) return fl(x) ^ fl(y) end
function M.fmod(x, y) return math.fmod(fl(x), fl(y)) end
function M.copysign(x, y) return pyops.copysign(fl(x), fl(y)) end
function M.isnan(x) x = fl(x); return x ~= x end
function M.isinf(x) x = fl(x); return x == huge or x == -huge end
function M.isfinite(x) x = fl(x); return x == x and x ~= huge and x ~= -huge end
function M.degrees(x) return fl(x) * (180.0 / pi) end
function M.radians(x) return fl(x) * (pi / 180.0) end
M.floor = pyops.floor
M.ceil = pyops.ceil
M.trunc = pyops.trunc

-- expm1 and log1p by Kahan's correction of the rounding of exp / 1 + x
function M.expm1(x)
  x = fl(x)
  if x ~= x or x == huge then return x end
  if x == -huge then return -1.0 end
  local u = exp(x)
  if u == huge then return huge end
  if u == 1.0 then return x end
  local um1 = u - 1.0
  if um1 == -1.0 then return -1.0 end
  return um1 * x / log(u)
end
local expm1 = M.expm1

function M.log1p(x)
  x = fl(x)
  if x ~= x or x == huge then return x end
  local u = 1.0 + x
  if u == 1.0 then return x end
  return log(u) * x / (u - 1.0)
end
local log1p = M.log1p

local function withsign(r, x) if x < 0 then return -r end return r end

function M.sinh(x)
  x = fl(x)
  if x ~= x or x == 0 then return x end
  local a = abs(x)
  local r
  if a < 22 then
    local em = expm1(a)
    r = 0.5 * (em + em / (em + 1.0))
  else
    local w = exp(0.5 * a)
    r = (0.5 * w) * w
  end
  return withsign(r, x)
end

function M.cosh(x)
  x = fl(x)
  if x ~= x then return x end
  local a = abs(x)
  if a < 22 then
    local e = exp(a)
    return 0.5 * (e + 1.0 / e)
  end
  local w = exp(0.5 * a)
  return (0.5 * w) * w
end

function M.tanh(x)
  x = fl(x)
  if x ~= x or x == 0 then return x end
  local a = abs(x)
  if a > 22 then return withsign(1.0, x) end
  local em = expm1(2.0 * a)
  return withsign(em / (em + 2.0), x)
end

function M.asinh(x)
  x = fl(x)
  if x ~= x or x == 0 or x == huge or x == -huge then return x end
  local a = abs(x)
  local r
  if a > 268435456.0 then
    r = log(a) + LN2
  elseif a > 2.0 then
    r = log(2.0 * a + 1.0 / (sqrt(a * a + 1.0) + a))
  else
    local a2 = a * a
    r = log1p(a + a2 / (1.0 + sqrt(1.0 + a2)))
  end
  return withsign(r, x)
end

function M.acosh(x)
  x = fl(x)
  if x ~= x then return x end
  if x < 1.0 then return 0.0 / 0.0 end
  if x == huge then return x end
  if x > 268435456.0 then return log(x) + LN2 end
  if x > 2.0 then return log(2.0 * x - 1.0 / (x + sqrt(x * x - 1.0))) end
  local t = x - 1.0
  return log1p(t + sqrt(2.0 * t + t * t))
end

function M.atanh(x)
  x = fl(x)
  if x ~= x or x == 0 then return x end
  local a = abs(x)
  if a > 1.0 then return 0.0 / 0.0 end
  if a == 1.0 then return withsign(huge, x) end
  local r
  if a < 0.5 then
    local t = a + a
    r = 0.5 * log1p(t + t * a / (1.0 - a))
  else
    r = 0.5 * log1p((a + a) / (1.0 - a))
  end
  return withsign(r, x)
end

function M.hypot(x, y)
  x, y = abs(fl(x)), abs(fl(y))
  if x == huge or y == huge then return huge end
  if x ~= x or y ~= y then return 0.0 / 0.0 end
  if x < y then x, y = y, x end
  if x == 0 then return 0.0 end
  local r = y / x
  return x * sqrt(1.0 + r * r)
end

---------------------------------------------------------------------------
-- erf, erfc
---------------------------------------------------------------------------
local TWO_OVER_SQRTPI = 1.1283791670955126
local INV_SQRTPI = 0.5641895835477563

-- erf(x) = 2x/sqrt(pi) e^{-x^2} sum_n (2x^2)^n / (1*3*...*(2n+1)):
-- positive terms only, so no cancellation; used for |x| < 2.5
local function erf_series(x)
  local x2 = x * x
  local term, sum, n = 1.0, 1.0, 0
  repeat
    n = n + 1
    term = term * 2.0 * x2 / (2 * n + 1)
    sum = sum + term
  until term < sum * 1e-17 or n > 500
  return TWO_OVER_SQRTPI * x * exp(-x2) * sum
end

-- erfc(x) for x >= 1 by its continued fraction
-- e^{-x^2}/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))),
-- evaluated with the modified Lentz method
local function erfc_cf(x)
  local tiny = 1e-300
  local f = x
  local C, D = x, 0.0
  for n = 1, 5000 do
    local an = n * 0.5
    D = x + an * D
    if D == 0 then D = tiny end
    C = x + an / C
    if C == 0 then C = tiny end
    D = 1.0 / D
    local delta = C * D
    f = f * delta
    if abs(delta - 1.0) < 1e-16 then break end
  end
  return exp(-x * x) * INV_SQRTPI / f
end

function M.erf(x)
  x = fl(x)
  if x ~= x then return x end
  local a = abs(x)
  local r
  if a < 2.5 then
    r = erf_series(a)
  elseif a < 6.0 then
    r = 1.0 - erfc_cf(a)
  else
    r = 1.0
  end
  if x < 0 then return -r end
  return x == 0 and x or r
end

function M.erfc(x)
  x = fl(x)
  if x ~= x then return x end
  if x < 1.0 then return 1.0 - M.erf(x) end
  if x > 27.3 then return 0.0 end
  return erfc_cf(x)
end

---------------------------------------------------------------------------
-- gamma, lgamma: Stirling's series above 15, the recurrence below it,
-- the reflection formula below 0.5
---------------------------------------------------------------------------
local HALF_LN_2PI = 0.91893853320467274

-- ln Gamma(y) for y >= 15
local function lgamma_stirling(y)
  local z = 1.0 / y
  local z2 = z * z
  -- B_2k / (2k (2k-1) y^(2k-1)) for k = 1..7
  local s = z * (1.0 / 12 + z2 * (-1.0 / 360 + z2 * (1.0 / 1260 + z2 * (-1.0 / 1680
    + z2 * (1.0 / 1188 + z2 * (-691.0 / 360360 + z2 * (1.0 / 156)))))))
  return (y - 0.5) * log(y) - y + HALF_LN_2PI + s
end

-- sin(pi x), the argument reduced exactly first (fmod and the
-- subtractions below are exact), so sinpi(-1e-10) keeps its digits
local function sinpi(x)
  local r = math.fmod(x, 2.0)  -- (-2, 2)
  if r > 1.0 then r = r - 2.0 elseif r < -1.0 then r = r + 2.0 end
  local a = abs(r)
  if a > 0.5 then a = 1.0 - a end
  return withsign(sin(pi * a), r)
end

local function is_int(x) return x == floor(x) end

function M.gamma(x)
  x = fl(x)
  if x ~= x or x == huge then return x end
  if x == -huge then return 0.0 / 0.0 end
  if x == 0 then return pyops.copysign(huge, x) end
  if x < 0 and is_int(x) then return 0.0 / 0.0 end
  if is_int(x) and x <= 21 then
    local f = 1
    for k = 2, math.tointeger(x) - 1 do f = f * k end
    return f + 0.0
  end
  if x < 0.5 then
    local s = sinpi(x)
    return pi / (s * M.gamma(1.0 - x))
  end
  if x > 171.7 then return huge end
  local prod = 1.0
  local y = x
  while y < 15 do
    prod = prod * y
    y = y + 1.0
  end
  if y > 140 then
    -- exp would overflow before the division: split it
    local h = exp(0.5 * lgamma_stirling(y))
    return (h / prod) * h
  end
  return exp(lgamma_stirling(y)) / prod
end

function M.lgamma(x)
  x = fl(x)
  if x ~= x then return x end
  if x == huge or x == -huge then return huge end
  if x <= 0 and is_int(x) then return huge end
  if x == 1.0 or x == 2.0 then return 0.0 end
  if x < 0.5 then
    return log(pi / abs(sinpi(x))) - M.lgamma(1.0 - x)
  end
  local y, prod = x, 1.0
  local acc = 0.0
  while y < 15 do
    prod = prod * y
    if prod > 1e280 then acc = acc + log(prod); prod = 1.0 end
    y = y + 1.0
  end
  return lgamma_stirling(y) - (acc + log(prod))
end

M.pi = pi
M.e = exp(1.0)
M.tau = 2.0 * pi
M.inf = huge
M.nan = -(0.0 / 0.0)  -- 0/0 has the sign bit set on x86; Python's nan has not

return M
