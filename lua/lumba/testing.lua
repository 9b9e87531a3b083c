-- lumba.testing: luassert (busted) assertions for arrays.
--   require "lumba.testing"
--   assert.array_equal(a, b [, message])
--   assert.allclose(a, b [, rtol [, atol]] [, message])
-- a and b are lumba arrays, (nested) Lua tables or numbers. A failing
-- assertion is a test failure whose message names the first differing
-- element by its full 1-based index and both values. The module also
-- returns the checks as functions giving (true) or (false, message).
local lumba = require "lumba"

local M = {}

-- {shape = {...}, values = flat C-order list} of an array, table or scalar
local function flatten(x, what)
  if type(x) == "userdata" then
    local ok, shape = pcall(function() return x.shape end)
    if not ok or type(shape) ~= "table" then error(what .. " is not a lumba array, table or number", 4) end
    x = x.ndim == 0 and x:get() or x:totable()
    if type(x) ~= "table" then return { shape = {}, values = { x } } end
    local r = flatten(x, what)
    r.shape = shape
    return r
  end
  if type(x) == "number" or type(x) == "boolean" then return { shape = {}, values = { x } } end
  if type(x) ~= "table" then error(what .. " is not a lumba array, table or number (got " .. type(x) .. ")", 4) end
  local shape, values = {}, {}
  local function walk(t, depth)
    if type(t) ~= "table" then
      if depth ~= #shape + 1 then error(what .. " is a ragged table", 5) end
      values[#values + 1] = t
      return
    end
    local n = #t
    if shape[depth] == nil then shape[depth] = n
    elseif shape[depth] ~= n then error(what .. " is a ragged table", 5) end
    for i = 1, n do walk(t[i], depth + 1) end
  end
  walk(x, 1)
  -- a table of only empty tables: its depth is the shape's length
  return { shape = shape, values = values }
end

local function shape_text(s) return "{" .. table.concat(s, ", ") .. "}" end

-- NumPy's broadcast shape of two shapes, or nil
local function broadcast(sa, sb)
  local n, out = math.max(#sa, #sb), {}
  for k = 1, n do
    local da, db = sa[#sa - n + k] or 1, sb[#sb - n + k] or 1
    if da ~= db and da ~= 1 and db ~= 1 then return nil end
    out[k] = da == 1 and db or da
  end
  return out
end

-- the flat position in an operand of shape s for index idx of shape out
local function position(idx, s, out)
  local p, n = 0, #out
  for k = 1, #s do
    local d = s[k]
    local i = d == 1 and 1 or idx[n - #s + k]
    p = p * d + (i - 1)
  end
  return p + 1
end

local function show(v)
  if v ~= v then return "nan" end
  if math.type(v) == "float" then  -- the shortest text that reads back as v
    for digits = 15, 17 do
      local t = ("%." .. digits .. "g"):format(v)
      if tonumber(t) == v then return (t:find("[.eni]") and t or t .. ".0") end
    end
  end
  return tostring(v)
end

-- compare a and b elementwise over their broadcast shape; same(x, y) says
-- whether two elements agree. Returns true, or false and a message.
local function compare(a, b, same, exact_shape, what)
  local A, B = flatten(a, "the first argument"), flatten(b, "the second argument")
  local out = exact_shape and A.shape or broadcast(A.shape, B.shape)
  if exact_shape and shape_text(A.shape) ~= shape_text(B.shape) then out = nil end
  if not out then
    return false, ("%s: shapes differ: %s and %s"):format(what, shape_text(A.shape), shape_text(B.shape))
  end
  local total = 1
  for _, d in ipairs(out) do total = total * d end
  local idx, first, bad = {}, nil, 0
  for k = 1, #out do idx[k] = 1 end
  for _ = 1, total do
    local x, y = A.values[position(idx, A.shape, out)], B.values[position(idx, B.shape, out)]
    if not same(x, y) then
      bad = bad + 1
      if not first then first = { table.concat(idx, ", "), x, y } end
    end
    for k = #out, 1, -1 do  -- next index, last axis fastest
      idx[k] = idx[k] + 1
      if idx[k] <= out[k] then break end
      idx[k] = 1
    end
  end
  if bad == 0 then return true end
  return false, ("%s: %d of %d elements differ; the first at index [%s]: %s and %s"):format(
    what, bad, total, first[1], show(first[2]), show(first[3]))
end

local function num(v) return v == true and 1 or v == false and 0 or v end

-- NumPy's array_equal: the same shape and equal elements (NaN is not NaN)
function M.array_equal(a, b)
  return compare(a, b, function(x, y) return num(x) == num(y) end, true, "arrays are not equal")
end

-- NumPy's allclose: |a - b| <= atol + rtol * |b| everywhere, broadcast
function M.allclose(a, b, rtol, atol)
  rtol, atol = rtol or 1e-5, atol or 1e-8
  return compare(a, b, function(x, y)
    x, y = num(x), num(y)
    if x == y then return true end  -- infinities of one sign
    return math.abs(x - y) <= atol + rtol * math.abs(y)
  end, false, ("arrays are not close (rtol=%g, atol=%g)"):format(rtol, atol))
end

-- ---- the luassert assertions ----

local ok_luassert, luassert = pcall(require, "luassert")
local ok_say, say = pcall(require, "say")
if ok_luassert and ok_say then
  -- the message a user gave: the first string after the compared values
  local function user_message(args, from)
    for i = from, args.n or #args do
      if type(args[i]) == "string" then return args[i] end
    end
  end

  local function register(name, check, nvalues)
    local function assertion(state, args)
      local ok, msg = check(table.unpack(args, 1, nvalues))
      local um = user_message(args, 3)
      if ok then
        state.failure_message = um or ("expected the arrays to differ (%s)"):format(name)
      else
        state.failure_message = um and (um .. "\n" .. msg) or msg
      end
      return ok
    end
    say:set("assertion." .. name .. ".positive", "Expected " .. name .. " to hold")
    say:set("assertion." .. name .. ".negative", "Expected " .. name .. " not to hold")
    luassert:register("assertion", name, assertion, "assertion." .. name .. ".positive",
      "assertion." .. name .. ".negative")
  end

  register("array_equal", M.array_equal, 2)
  register("allclose", function(a, b, rtol, atol)
    return M.allclose(a, b, type(rtol) == "number" and rtol or nil, type(atol) == "number" and atol or nil)
  end, 4)
end

M.lumba = lumba
return M
