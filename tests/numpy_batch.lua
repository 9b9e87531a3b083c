-- NumPy as an oracle for many cases in ONE python run (tests/numpy_oracle.lua
-- starts python per expression). A case: {inputs = {{name =, dtype =, shape =,
-- values = (flat, row-major; booleans as true/false)}}, expr = Python text over
-- those names} or code = Python statements setting r. M.run(cases) gives, in
-- order, {dtype =, shape =, values =} (integers as Lua integers, bools as 1
-- and 0, uint64 past 2^63 as their two's-complement int64, floats as floats)
-- (complex values as {re =, im =}; complex inputs as lumba.complex values)
-- or {error = "ValueError: ..."}; a tuple (or list) result is a list of those.
-- M.run_lists(cases) gives every result as a list (one entry unless a tuple).
-- Numba has no float16: a result NumPy computes in float16 (from bool, int8
-- or uint8 inputs) is computed again with those inputs as float32, the loop
-- Numba (and lumba) picks; a case with float16 inputs keeps NumPy's float16.
local oracle = dofile("tests/numpy_oracle.lua")

local M = {}
local PY = "/usr/bin/python3"

M.available = oracle.available

local HEAD = [[
import numpy as np, sys, warnings
warnings.simplefilter('ignore')
np.seterr(all='ignore')
for new, old in [('acos', 'arccos'), ('acosh', 'arccosh'), ('asin', 'arcsin'), ('asinh', 'arcsinh'), ('atan', 'arctan'),
                 ('atan2', 'arctan2'), ('atanh', 'arctanh'), ('pow', 'power')]:
    if not hasattr(np, new): setattr(np, new, getattr(np, old))  # NumPy 2's names of the same ufuncs
def arr(vals, dt, shape):
    return np.array(vals, dtype=dt).reshape(shape)
def show(x):
    if isinstance(x, complex): return 'c' + repr(x.real) + ',' + repr(x.imag)
    if isinstance(x, (bool, np.bool_)): return '1' if x else '0'
    if isinstance(x, (int, np.integer)):
        x = int(x)
        return str(x - 2**64 if x >= 2**63 else x)
    return repr(float(x))
def value(r):
    r = np.asarray(r)
    print('ok', r.dtype.name, ','.join(map(str, r.shape)), ' '.join(show(x) for x in r.ravel().tolist()))
def case(expr, code, env):
    try:
        if code is not None:
            exec(code, {'np': np}, env)
            r = env['r']
        else:
            r = eval(expr, {'np': np}, env)
            f16_in = any(getattr(v, 'dtype', None) == np.float16 for v in env.values())  # float16 inputs: NumPy's own float16 result
            if not f16_in and not isinstance(r, (tuple, list)) and np.asarray(r).dtype == np.float16:  # the float32 loop: asked for (a ufunc), else by float32 inputs
                try:
                    r = eval(expr[:-1] + ', dtype=np.float32)', {'np': np}, env)
                except TypeError:
                    env = {k: (v.astype(np.float32) if v.dtype.itemsize == 1 else v) for k, v in env.items()}
                    r = eval(expr, {'np': np}, env)
        if isinstance(r, (tuple, list)):  # np.split gives a list
            print('tuple', len(r))
            for x in r: value(x)
        else:
            value(r)
    except Exception as e:
        print('error', (type(e).__name__ + ': ' + str(e)).replace('\n', ' '))
]]

local function pyval(x)
  if x == true then return "True" elseif x == false then return "False" end
  if type(x) == "userdata" then return ("complex(%s, %s)"):format(pyval(x.real), pyval(x.imag)) end
  if math.type(x) == "integer" then return tostring(x) end
  if x ~= x then return "float('nan')" end
  if x == math.huge then return "float('inf')" elseif x == -math.huge then return "-float('inf')" end
  local s = string.format("%.17g", x)
  return s:find("[.e]") and s or s .. ".0"  -- a float literal: -0 would be the integer 0
end

-- a Python string literal (Lua's %q writes a newline as a backslash and a newline)
local function pystr(t)
  return '"' .. t:gsub('[\\"]', "\\%0"):gsub("\n", "\\n") .. '"'
end

local function pyinput(v)
  local vals = {}
  for i, x in ipairs(v.values) do
    if v.dtype == "uint64" and math.type(x) == "integer" and x < 0 then vals[i] = tostring(x) .. "+2**64"
    else vals[i] = pyval(x) end
  end
  local shape = "(" .. table.concat(v.shape, ",") .. (#v.shape == 1 and ",)" or ")")
  return ("%s: arr([%s], '%s', %s)"):format(("%q"):format(v.name), table.concat(vals, ","), v.dtype, shape)
end

local function parse(line)
  local e = line:match("^error (.*)$")
  if e then return {error = e} end
  local dt, sh, vs = line:match("^ok (%S+) (%S*) ?(.*)$")
  assert(dt, "numpy batch: unexpected output: " .. line)
  local r = {dtype = dt, shape = {}, values = {}}
  for s in sh:gmatch("%d+") do r.shape[#r.shape + 1] = tonumber(s) end
  local int = not dt:match("^float")
  local function num(s)
    if s == "nan" then return 0 / 0 elseif s == "inf" then return math.huge elseif s == "-inf" then return -math.huge end
    return tonumber(s)
  end
  for s in vs:gmatch("%S+") do
    local x
    local re, im = s:match("^c([^,]+),(.+)$")
    if re then x = {re = num(re), im = num(im)}  -- a complex value
    elseif s == "nan" then x = 0 / 0
    elseif s == "inf" then x = math.huge
    elseif s == "-inf" then x = -math.huge
    else x = int and math.tointeger(tonumber(s)) or tonumber(s) end
    r.values[#r.values + 1] = x
  end
  return r
end

-- starts python on the cases and returns at once; :wait() gives the results
-- (python runs while the caller compiles)
function M.start(cases)
  local lines = {HEAD}
  for _, c in ipairs(cases) do
    local env = {}
    for i, v in ipairs(c.inputs) do env[i] = pyinput(v) end
    local expr, code = c.expr and pystr(c.expr) or "None", c.code and pystr(c.code) or "None"
    lines[#lines + 1] = ("case(%s, %s, {%s})"):format(expr, code, table.concat(env, ", "))
  end
  local script, out = os.tmpname(), os.tmpname()
  local f = assert(io.open(script, "w"))
  f:write(table.concat(lines, "\n"), "\n")
  f:close()
  local p = io.popen(("%s %s > %s 2>&1; echo done"):format(PY, script, out))
  return {
    wait = function()
      p:read("a")
      p:close()
      local res, it = {}, io.lines(out)
      for line in it do
        local n = tonumber(line:match("^tuple (%d+)$"))
        if n then
          local list = {}
          for k = 1, n do list[k] = parse(it()) end
          res[#res + 1] = list
        else
          res[#res + 1] = parse(line)
        end
      end
      os.remove(script)
      os.remove(out)
      assert(#res == #cases, ("numpy batch: %d results for %d cases"):format(#res, #cases))
      return res
    end,
  }
end

function M.run(cases) return M.start(cases).wait() end

-- cases of {expr, prelude} (prelude: Python assigning the names expr uses);
-- results as M.run's, booleans as true and false
function M.eval(cases)
  local t = {}
  for i, c in ipairs(cases) do t[i] = {inputs = {}, code = (c[2] or "") .. "\nr = np.asarray(" .. c[1] .. ")"} end
  local res = M.run(t)
  for _, r in ipairs(res) do
    if r.dtype == "bool" then
      for k, x in ipairs(r.values) do r.values[k] = x == 1 end
    end
  end
  return res
end

function M.run_lists(cases)
  local res = M.run(cases)
  for i, r in ipairs(res) do
    if r.dtype then res[i] = {r} end
  end
  return res
end

return M
