-- lumba.pyops — Python/Numba number semantics in plain Lua: the runtime of
-- the object-mode path (lumba.objmode) and a reference for the compiler's
-- tests. Values: int64 = Lua integer, float64 = Lua float, bool = Lua
-- boolean, None = nil, tuple = a table with metatable pyops.Tuple and field n.
--
-- Where Python and Numba differ, the rule followed is said beside the code:
-- math functions follow C's libm as Numba does (math.sqrt(-1) is nan, not a
-- ValueError); int ** negative int gives a float, as Python does.
local P = {}

local mtype, floor, fmod, huge = math.type, math.floor, math.fmod, math.huge
local MININT, MAXINT = math.mininteger, math.maxinteger
local spack, sbyte, sformat = string.pack, string.byte, string.format
local select, type, error, getmetatable, setmetatable = select, type, error, getmetatable, setmetatable

-- Error messages (Lua errors, raised at level 0: no position prefix).
P.E_INTDIV = "ZeroDivisionError: integer division or modulo by zero"  -- //, as Python
P.E_INTMOD = "ZeroDivisionError: integer modulo by zero"  -- %, as Python and Numba
P.E_DIV = "ZeroDivisionError: division by zero"
P.E_FMOD = "ZeroDivisionError: modulo by zero"
P.E_NEGPOW = "ZeroDivisionError: 0.0 cannot be raised to a negative power"
P.E_NAN2INT = "ValueError: cannot convert float NaN to integer"
P.E_INF2INT = "OverflowError: cannot convert float infinity to integer"
P.E_BIG2INT = "OverflowError: float too large to convert to int64"

local function raise(msg) error(msg, 0) end
P.raise = raise

---------------------------------------------------------------------------
-- tuples
---------------------------------------------------------------------------
local Tuple = {}
P.Tuple = Tuple
local tuple_methods = {}
Tuple.__index = tuple_methods

local function tuple(...)
  return setmetatable({ n = select("#", ...), ... }, Tuple)
end
P.tuple = tuple

-- tuple from a Lua sequence t[1..n]
local function tuple_of(t, n)
  local r = { n = n or #t }
  for i = 1, r.n do r[i] = t[i] end
  return setmetatable(r, Tuple)
end
P.tuple_of = tuple_of

local function is_tuple(x) return getmetatable(x) == Tuple end
P.is_tuple = is_tuple

-- t:get(k) with a 1-based k, as arrays have (the translator indexes both alike)
function tuple_methods.get(t, k)
  if mtype(k) ~= "integer" or k < 1 or k > t.n then
    raise("IndexError: tuple index out of range")
  end
  return t[k]
end
function tuple_methods.set()
  raise("TypeError: 'tuple' object does not support item assignment")
end

function Tuple.__len(t) return t.n end

function Tuple.__add(a, b)
  if not (is_tuple(a) and is_tuple(b)) then
    raise("TypeError: can only concatenate tuple (not \"" .. P.typename(is_tuple(a) and b or a) .. "\") to tuple")
  end
  local r = { n = a.n + b.n }
  for i = 1, a.n do r[i] = a[i] end
  for i = 1, b.n do r[a.n + i] = b[i] end
  return setmetatable(r, Tuple)
end

function Tuple.__mul(a, b)
  if not is_tuple(a) then a, b = b, a end
  if b == true then b = 1 elseif b == false then b = 0 end
  if mtype(b) ~= "integer" then
    raise("TypeError: can't multiply sequence by non-int of type '" .. P.typename(b) .. "'")
  end
  local r = { n = 0 }
  for _ = 1, b do
    for i = 1, a.n do r.n = r.n + 1; r[r.n] = a[i] end
  end
  return setmetatable(r, Tuple)
end

---------------------------------------------------------------------------
-- type names, truth, bool -> int
---------------------------------------------------------------------------
function P.typename(x)
  local t = type(x)
  if t == "number" then return mtype(x) == "integer" and "int" or "float"
  elseif t == "boolean" then return "bool"
  elseif t == "nil" then return "NoneType"
  elseif t == "string" then return "str"
  elseif is_tuple(x) then return "tuple"
  elseif t == "userdata" or t == "table" then return "array"
  end
  return t
end

-- bool -> int; anything else unchanged
local function num(x)
  if x == true then return 1 elseif x == false then return 0 end
  return x
end
P.num = num

-- Python's truth value as a Lua boolean
function P.truth(x)
  if x == nil or x == false then return false end
  if x == true then return true end
  local t = type(x)
  if t == "number" then return x ~= 0 end
  if t == "string" then return #x > 0 end
  if is_tuple(x) then return x.n > 0 end
  local size = x.size
  if size == 1 then return P.truth(P.first_elem(x)) end
  if size == 0 then return false end
  raise("ValueError: The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()")
end

function P.first_elem(a)
  local idx = {}
  for k = 1, a.ndim do idx[k] = 1 end
  return a:get(table.unpack(idx, 1, a.ndim))
end

local function isint(x) return mtype(x) == "integer" end
local function isnum(x) return type(x) == "number" end

-- a lumba.complex (its protected metatable answers its name)
local function iscx(x) return type(x) == "userdata" and getmetatable(x) == "lumba.complex" end
P.iscx = iscx

local function badop(sym, a, b)
  raise(sformat("TypeError: unsupported operand type(s) for %s: '%s' and '%s'",
    sym, P.typename(a), P.typename(b)))
end

---------------------------------------------------------------------------
-- float helpers: copysign, floor as float, Python's float divmod
---------------------------------------------------------------------------
local function signbit(x) return sbyte(spack(">d", x), 1) >= 128 end
P.signbit = signbit

local function copysign(x, y)
  x = x * 1.0  -- (x + 0.0 would turn -0.0 into 0.0)
  if signbit(x) ~= signbit(y * 1.0) then return -x end
  return x
end
P.copysign = copysign

-- floor keeping a float result (and the sign of a zero)
local function ffloor(x)
  if x == 0 then return x * 1.0 end
  local r = floor(x)
  return r + 0.0
end
P.ffloor = ffloor

-- CPython's float divmod (Objects/floatobject.c float_divmod), b ~= 0
local function float_divmod(a, b)
  local mod = fmod(a, b)
  local div = (a - mod) / b
  if mod ~= 0 then
    if (b < 0) ~= (mod < 0) then
      mod = mod + b
      div = div - 1.0
    end
  else
    mod = copysign(0.0, b)
  end
  local fl
  if div ~= 0 then
    fl = ffloor(div)
    if div - fl > 0.5 then fl = fl + 1.0 end
  else
    fl = copysign(0.0, a / b)
  end
  return fl, mod
end

---------------------------------------------------------------------------
-- arithmetic (generic: operands may be bools, ints, floats; tuples for +, *)
---------------------------------------------------------------------------
-- complex values pass for + - * / ** (their metamethods are Python's complex)
local function arith_args(sym, a, b)
  a, b = num(a), num(b)
  if (iscx(a) or iscx(b)) and (isnum(a) or iscx(a)) and (isnum(b) or iscx(b)) and sym ~= "//" and sym ~= "%" then
    return a, b
  end
  if not (isnum(a) and isnum(b)) then badop(sym, a, b) end
  return a, b
end

function P.add(a, b)
  if is_tuple(a) or is_tuple(b) then return Tuple.__add(a, b) end
  a, b = arith_args("+", a, b)
  return a + b
end

function P.sub(a, b)
  a, b = arith_args("-", a, b)
  return a - b
end

function P.mul(a, b)
  if is_tuple(a) or is_tuple(b) then return Tuple.__mul(a, b) end
  a, b = arith_args("*", a, b)
  return a * b
end

-- true division: always a float; zero divisor raises (Numba error_model='python')
function P.div(a, b)
  a, b = arith_args("/", a, b)
  if iscx(a) or iscx(b) then
    if b == 0 or (iscx(b) and b.real == 0 and b.imag == 0) then raise("ZeroDivisionError: complex division by zero") end
    return a / b
  end
  if b == 0 then raise(P.E_DIV) end
  return a / b
end

function P.floordiv(a, b)
  a, b = arith_args("//", a, b)
  if isint(a) and isint(b) then
    if b == 0 then raise(P.E_INTDIV) end
    return a // b  -- Lua's integer // floors, and wraps mininteger // -1
  end
  if b == 0 then raise(P.E_DIV) end
  return (float_divmod(a * 1.0, b * 1.0))
end

function P.mod(a, b)
  a, b = arith_args("%", a, b)
  if isint(a) and isint(b) then
    if b == 0 then raise(P.E_INTMOD) end
    return a % b  -- Lua's integer % has the divisor's sign, as Python's
  end
  if b == 0 then raise(P.E_FMOD) end
  local _, m = float_divmod(a * 1.0, b * 1.0)
  return m
end

-- float % float without the type dispatch (both known floats, or mixed)
function P.fmod(a, b)
  if b == 0 then raise(P.E_FMOD) end
  local _, m = float_divmod(a * 1.0, b * 1.0)
  return m
end

function P.ffloordiv(a, b)
  if b == 0 then raise(P.E_DIV) end
  return (float_divmod(a * 1.0, b * 1.0))
end

-- exact int64 power by squaring, wrapping as int64 arithmetic does
local function ipow(a, e)
  local r = 1
  while e > 0 do
    if e & 1 == 1 then r = r * a end
    e = e >> 1
    if e > 0 then a = a * a end
  end
  return r
end
P.ipow = ipow

-- a ** b: int ** nonnegative int is an exact (wrapping) int; int ** negative
-- int is a float as in Python (0 ** -n raises); floats go through C's pow.
function P.pow(a, b)
  a, b = arith_args("**", a, b)
  if iscx(a) or iscx(b) then return a ^ b end
  if isint(a) and isint(b) then
    if b >= 0 then return ipow(a, b) end
    if a == 0 then raise(P.E_NEGPOW) end
    return (a * 1.0) ^ (b * 1.0)
  end
  return (a * 1.0) ^ (b * 1.0)
end

function P.neg(a)
  a = num(a)
  if iscx(a) then return -a end
  if not isnum(a) then raise("TypeError: bad operand type for unary -: '" .. P.typename(a) .. "'") end
  return -a
end

function P.pos(a)
  a = num(a)
  if not isnum(a) then raise("TypeError: bad operand type for unary +: '" .. P.typename(a) .. "'") end
  return a
end

---------------------------------------------------------------------------
-- bitwise (ints and bools only)
---------------------------------------------------------------------------
local function bit_args(sym, a, b)
  local na, nb = num(a), num(b)
  if not (isint(na) and isint(nb)) then badop(sym, a, b) end
  return na, nb
end

function P.band(a, b)
  if type(a) == "boolean" and type(b) == "boolean" then return a and b end
  a, b = bit_args("&", a, b)
  return a & b
end

function P.bor(a, b)
  if type(a) == "boolean" and type(b) == "boolean" then return a or b end
  a, b = bit_args("|", a, b)
  return a | b
end

function P.bxor(a, b)
  if type(a) == "boolean" and type(b) == "boolean" then return a ~= b end
  a, b = bit_args("^", a, b)
  return a ~ b
end

function P.invert(a)
  local na = num(a)
  if not isint(na) then raise("TypeError: bad operand type for unary ~: '" .. P.typename(a) .. "'") end
  return ~na
end

-- a << n: bits shifted past 64 are lost (int64 wrap); a negative count raises
function P.shl(a, n)
  a, n = bit_args("<<", a, n)
  if n < 0 then raise("ValueError: negative shift count") end
  if n >= 64 then return 0 end
  return a << n
end

-- a >> n: arithmetic (floor) shift, as Python's on signed ints
function P.shr(a, n)
  a, n = bit_args(">>", a, n)
  if n < 0 then raise("ValueError: negative shift count") end
  if n >= 63 then return a < 0 and -1 or 0 end
  if a >= 0 then return a >> n end
  return ~((~a) >> n)
end

---------------------------------------------------------------------------
-- comparisons (generic: bools compare as ints; tuples lexicographically)
---------------------------------------------------------------------------
local function eq(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= "table" or tb ~= "table" then
    if a == b then return true end
  elseif rawequal(a, b) then
    return true
  end
  if ta == "boolean" or tb == "boolean" then
    a, b = num(a), num(b)
    return isnum(a) and isnum(b) and a == b
  end
  if iscx(a) or iscx(b) then  -- 1 == 1+0j in Python
    if isnum(a) then return b.imag == 0 and b.real == a end
    if isnum(b) then return a.imag == 0 and a.real == b end
    return iscx(a) and iscx(b) and a.real == b.real and a.imag == b.imag
  end
  if is_tuple(a) and is_tuple(b) then
    if a.n ~= b.n then return false end
    for i = 1, a.n do
      if not eq(a[i], b[i]) then return false end
    end
    return true
  end
  return false
end
P.eq = eq
function P.ne(a, b) return not eq(a, b) end

local function order_args(sym, a, b)
  local na, nb = num(a), num(b)
  if isnum(na) and isnum(nb) then return na, nb end
  if type(na) == "string" and type(nb) == "string" then return na, nb end
  raise(sformat("TypeError: '%s' not supported between instances of '%s' and '%s'",
    sym, P.typename(a), P.typename(b)))
end

-- lexicographic tuple comparison: returns the first differing pair, or
-- nil and the length comparison
local function tuple_cmp_pair(a, b)
  local n = a.n < b.n and a.n or b.n
  for i = 1, n do
    if not eq(a[i], b[i]) then return a[i], b[i] end
  end
  return a.n, b.n
end

function P.lt(a, b)
  if is_tuple(a) and is_tuple(b) then a, b = tuple_cmp_pair(a, b); return P.lt(a, b) end
  a, b = order_args("<", a, b)
  return a < b
end
function P.le(a, b)
  if is_tuple(a) and is_tuple(b) then a, b = tuple_cmp_pair(a, b); return P.le(a, b) end
  a, b = order_args("<=", a, b)
  return a <= b
end
function P.gt(a, b)
  if is_tuple(a) and is_tuple(b) then a, b = tuple_cmp_pair(a, b); return P.gt(a, b) end
  a, b = order_args(">", a, b)
  return a > b
end
function P.ge(a, b)
  if is_tuple(a) and is_tuple(b) then a, b = tuple_cmp_pair(a, b); return P.ge(a, b) end
  a, b = order_args(">=", a, b)
  return a >= b
end

Tuple.__eq = eq
Tuple.__lt = P.lt
Tuple.__le = P.le

-- x in container (tuple or array)
function P.contains(c, x)
  if is_tuple(c) then
    for i = 1, c.n do
      if eq(c[i], x) then return true end
    end
    return false
  end
  local n = P.len(c)
  for i = 1, n do
    if eq(P.item(c, i), x) then return true end
  end
  return false
end

---------------------------------------------------------------------------
-- containers: len, iteration item, unpacking
---------------------------------------------------------------------------
function P.len(x)
  if is_tuple(x) then return x.n end
  if type(x) == "string" then return #x end
  if type(x) ~= "table" and type(x) ~= "userdata" then
    raise("TypeError: object of type '" .. P.typename(x) .. "' has no len()")
  end
  local shape = x.shape
  if shape == nil or x.ndim == 0 then raise("TypeError: len() of unsized object") end
  return shape[1]
end

-- element k (1-based) of a tuple, or item k of an array's first axis
-- (an element of a 1-D array, a row view of an N-d one)
function P.item(x, k)
  if is_tuple(x) then return x[k] end
  if x.ndim == 1 then return x:get(k) end
  return x[k]
end

-- a, b, c = x
function P.unpack(x, n)
  local len = P.len(x)
  if len > n then raise(sformat("ValueError: too many values to unpack (expected %d)", n)) end
  if len < n then raise(sformat("ValueError: not enough values to unpack (expected %d, got %d)", n, len)) end
  if is_tuple(x) then return table.unpack(x, 1, n) end
  local r = {}
  for i = 1, n do r[i] = P.item(x, i) end
  return table.unpack(r, 1, n)
end

---------------------------------------------------------------------------
-- range: validated start, Lua limit and step for a numeric for
---------------------------------------------------------------------------
local function range_int(x, which)
  x = num(x)
  if not isint(x) then
    raise("TypeError: '" .. P.typename(x) .. "' object cannot be interpreted as an integer")
  end
  return x
end

-- range(start, stop, step) -> start, limit, step of the equivalent
-- `for i = start, limit, step` (zero-trip where Python's is empty)
function P.range(start, stop, step)
  start, stop = range_int(start), range_int(stop)
  step = step == nil and 1 or range_int(step)
  if step == 0 then raise("ValueError: range() arg 3 must not be zero") end
  if step > 0 then
    if stop == MININT then return 0, -1, 1 end
    return start, stop - 1, step
  end
  if stop == MAXINT then return 0, 1, -1 end
  return start, stop + 1, step
end

---------------------------------------------------------------------------
-- conversions and builtins
---------------------------------------------------------------------------
-- float -> int64 toward zero, raising where Python does (and beyond int64)
local function f2i(x)
  if x ~= x then raise(P.E_NAN2INT) end
  if x == huge or x == -huge then raise(P.E_INF2INT) end
  local r = math.tointeger(x)
  if r == nil then raise(P.E_BIG2INT) end
  return r
end

function P.int(x)
  x = num(x)
  if isint(x) then return x end
  if type(x) ~= "number" then
    raise("TypeError: int() argument must be a number, not '" .. P.typename(x) .. "'")
  end
  if x >= 0 then return f2i(floor(x) + 0.0) end
  return f2i(-floor(-x) + 0.0)
end

function P.float(x)
  x = num(x)
  if type(x) ~= "number" then
    raise("TypeError: float() argument must be a number, not '" .. P.typename(x) .. "'")
  end
  return x * 1.0
end

function P.floor(x)
  x = num(x)
  if isint(x) then return x end
  return f2i(ffloor(x))
end

function P.ceil(x)
  x = num(x)
  if isint(x) then return x end
  return f2i(-ffloor(-x))
end

function P.trunc(x) return P.int(x) end

-- round half to even, as C's rint in the default rounding mode
local function rint(x)
  local f = ffloor(x)
  local d = x - f
  if d > 0.5 then return f + 1.0 end
  if d < 0.5 then return f end
  if f % 2.0 == 0.0 then return f end
  return f + 1.0
end

-- C's round: half away from zero
local function cround(x)
  if x >= 0 then
    local f = ffloor(x)
    if x - f >= 0.5 then f = f + 1.0 end
    return f
  end
  return -cround(-x)
end

-- round(x): an int, half to even; round(x, n): Numba's (CPython's
-- pre-3.1) algorithm: scale by 10**n, round half to even, scale back
function P.round(x, nd)
  x = num(x)
  if nd == nil then
    if isint(x) then return x end
    if x ~= x then raise(P.E_NAN2INT) end
    if x == huge or x == -huge then raise(P.E_INF2INT) end
    return f2i(rint(x))
  end
  nd = range_int(nd)
  if isint(x) then
    if nd >= 0 then return x end
    if nd < -18 then return 0 end
    local p = ipow(10, -nd)
    local q, r = x // p, x % p
    local twice = 2 * r
    if twice > p or (twice == p and q % 2 == 1) then q = q + 1 end
    return q * p
  end
  if x ~= x or x == huge or x == -huge then return x end
  local pow1, pow2, y
  if nd >= 0 then
    if nd > 22 then
      pow1, pow2 = 10.0 ^ (nd - 22), 1e22
    else
      pow1, pow2 = 10.0 ^ nd, 1.0
    end
    y = (x * pow1) * pow2
    if y == huge or y == -huge then return x end
  else
    pow1 = 10.0 ^ (-nd)
    y = x / pow1
  end
  local z = cround(y)
  if math.abs(y - z) == 0.5 then z = 2.0 * cround(y / 2.0) end
  if nd >= 0 then
    z = (z / pow2) / pow1
  else
    z = z * pow1
  end
  return z
end

function P.abs(x)
  x = num(x)
  if iscx(x) then
    local r, i = math.abs(x.real), math.abs(x.imag)  -- hypot without overflow
    if r < i then r, i = i, r end
    if r == math.huge or i == math.huge then return math.huge end
    if r == 0 then return 0.0 end
    local q = i / r
    return r * math.sqrt(1 + q * q)
  end
  if type(x) ~= "number" then raise("TypeError: bad operand type for abs(): '" .. P.typename(x) .. "'") end
  return math.abs(x)
end

-- min/max of several values, or of one tuple/array: Python's algorithm
-- (the first extreme value wins; a later one replaces it only if strictly
-- beyond it, so nan behaves as in Python)
local function extreme(name, better, ...)
  local n = select("#", ...)
  local vals = { ... }
  if n == 1 then
    local c = vals[1]
    n = P.len(c)
    vals = {}
    for i = 1, n do vals[i] = P.item(c, i) end
    if n == 0 then raise("ValueError: " .. name .. "() arg is an empty sequence") end
  elseif n == 0 then
    raise("TypeError: " .. name .. " expected at least 1 argument, got 0")
  end
  local best = vals[1]
  for i = 2, n do
    if better(vals[i], best) then best = vals[i] end
  end
  return best
end
function P.max(...) return extreme("max", P.gt, ...) end
function P.min(...) return extreme("min", P.lt, ...) end

---------------------------------------------------------------------------
-- str() of values, for raise/assert messages and print
---------------------------------------------------------------------------
-- shortest repr of a float that reads back the same, in Python's layout
local function float_repr(x)
  if x ~= x then return "nan" end
  if x == huge then return "inf" end
  if x == -huge then return "-inf" end
  if x == 0 then return signbit(x) and "-0.0" or "0.0" end
  local s
  for p = 1, 17 do
    s = sformat("%." .. (p - 1) .. "e", x)
    if tonumber(s) == x then break end
  end
  local sign, d1, rest, ex = s:match("^(-?)(%d)%.?(%d*)e([-+]%d+)$")
  local digits = (d1 .. rest):gsub("0+$", "")
  if digits == "" then digits = "0" end
  local e = tonumber(ex)
  if e >= -5 + 1 and e < 16 then
    -- positional
    if e >= 0 then
      local ip = digits:sub(1, e + 1)
      ip = ip .. string.rep("0", e + 1 - #ip)
      local fp = digits:sub(e + 2)
      if fp == "" then fp = "0" end
      return sign .. ip .. "." .. fp
    end
    return sign .. "0." .. string.rep("0", -e - 1) .. digits
  end
  local mant = digits:sub(1, 1)
  if #digits > 1 then mant = mant .. "." .. digits:sub(2) end
  return sformat("%s%se%s%02d", sign, mant, e < 0 and "-" or "+", math.abs(e))
end
P.float_repr = float_repr

function P.str(x)
  local t = type(x)
  if x == nil then return "None" end
  if x == true then return "True" end
  if x == false then return "False" end
  if t == "number" then
    if isint(x) then return sformat("%d", x) end
    return float_repr(x)
  end
  if t == "string" then return x end
  if is_tuple(x) then
    local parts = {}
    for i = 1, x.n do
      local v = x[i]
      parts[i] = type(v) == "string" and sformat("'%s'", v) or P.str(v)
    end
    if x.n == 1 then return "(" .. parts[1] .. ",)" end
    return "(" .. table.concat(parts, ", ") .. ")"
  end
  return tostring(x)
end

-- the message of `raise Name(args...)`
function P.exc_message(name, ...)
  local n = select("#", ...)
  if n == 0 then return name end
  if n == 1 then
    local s = P.str((...))
    if s == "" then return name end
    return name .. ": " .. s
  end
  return name .. ": " .. P.str(tuple(...))
end

return P
