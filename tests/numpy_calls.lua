-- The NumPy oracle for whole functions (tests/numpy_batch.lua evaluates expressions): many Python functions run by NumPy in ONE
-- python3 process, each on its own arguments; and the same arguments built
-- as lumba arrays, so a test runs the very same source by lumba and
-- compares.
--
--   local B = dofile("tests/numpy_calls.lua")
--   local results = B.run({ {src = "def f(a):\n    return a + 1\n", args = {B.arr("int8", {2, 3}, {...})}}, ... })
--   results[i] = {dtype = "int8", shape = {2, 3}, values = {...}} or {error = "ValueError: ..."}
--
-- An argument is B.arr(dtype, shape, values [, view]) — values flat in C
-- order; view "T" (transposed) or "rev" (first axis reversed, negative
-- strides) — or a Lua number / boolean (a Python scalar). Results hold
-- bools as 1/0 and uint64 values as Lua integers of the same bits; a
-- scalar result has shape {} and dtype NumPy's (np.float64(1.0): "float64").
local M = {}

local PY = "/usr/bin/python3"

function M.available()
  if M._ok == nil then
    local p = io.popen(PY .. " -c 'import numpy' 2>/dev/null && echo yes")
    M._ok = p and p:read("a"):match("yes") ~= nil or false
    if p then p:close() end
  end
  return M._ok
end

function M.arr(dtype, shape, values, view)
  return { dtype = dtype, shape = shape, values = values, view = view }
end

local function pylit(v)
  if v == true then return "True" end
  if v == false then return "False" end
  if math.type(v) == "integer" then return string.format("%d", v) end
  if v ~= v then return "float('nan')" end
  if v == math.huge then return "float('inf')" end
  if v == -math.huge then return "float('-inf')" end
  return string.format("%.17g", v)
end

local function pyarg(a)
  if type(a) ~= "table" then return pylit(a) end
  local vals = {}
  for i, x in ipairs(a.values) do vals[i] = pylit(x) end
  local shape = "(" .. table.concat(a.shape, ",") .. (#a.shape == 1 and ",)" or ")")
  local s = ("np.array([%s], dtype='%s').reshape(%s)"):format(table.concat(vals, ","), a.dtype, shape)
  if a.view == "T" then s = s .. ".T" elseif a.view == "rev" then s = s .. "[::-1]" end
  return s
end

-- the lumba value of an argument
function M.lumba_arg(a)
  local lumba = require "lumba"
  if type(a) ~= "table" then return a end
  local x
  if #a.values == 0 then x = lumba.zeros(a.shape, a.dtype)
  else x = lumba.array(a.values, a.dtype):reshape(a.shape) end
  if a.view == "T" then x = x.T elseif a.view == "rev" then x = x:slice({ nil, nil, -1 }) end
  return x
end

local PRELUDE = [[
import numpy as np, sys, warnings
warnings.simplefilter('ignore')
def _show(r):
    a = np.asarray(r)
    if a.dtype.kind not in 'biuf':
        print('error TypeError: result of dtype ' + str(a.dtype)); return
    if a.dtype.kind == 'f':
        vals = [repr(float(x)) for x in a.ravel()]
    else:
        vals = []
        for x in a.ravel():
            x = int(x)
            if x >= 2**63: x -= 2**64
            vals.append(str(x))
    print(a.dtype.name + '|' + ' '.join(map(str, a.shape)) + '|' + ' '.join(vals))
def _run(src, args):
    env = {'np': np}
    try:
        exec(src, env)
        r = env['f'](*args)
        if isinstance(r, tuple):
            print('tuple ' + str(len(r)))
            for x in r: _show(x)
        else:
            _show(r)
    except Exception as e:
        print('error ' + type(e).__name__ + ': ' + str(e).replace('\n', ' '))
]]

local function parse_one(line)
  local e = line:match("^error (.*)$")
  if e then return { error = e } end
  local dt, sh, vs = line:match("^([^|]*)|([^|]*)|(.*)$")
  assert(dt, "numpy batch: bad line " .. line)
  local r = { dtype = dt, shape = {}, values = {} }
  for s in sh:gmatch("%d+") do r.shape[#r.shape + 1] = tonumber(s) end
  for s in vs:gmatch("%S+") do
    local v = s == "nan" and (0 / 0) or s == "inf" and math.huge or s == "-inf" and -math.huge or tonumber(s)
    r.values[#r.values + 1] = v
  end
  return r
end

-- cases: {src = Python source defining a function f, args = {...}}
function M.run(cases)
  local lines = { PRELUDE }
  for _, c in ipairs(cases) do
    local args = {}
    for i, a in ipairs(c.args) do args[i] = pyarg(a) end
    assert(not c.src:find("'''", 1, true))
    lines[#lines + 1] = ("_run('''%s''', [%s])"):format(c.src:gsub("\\", "\\\\"), table.concat(args, ", "))
  end
  local tmp = os.tmpname()
  local f = assert(io.open(tmp, "w"))
  f:write(table.concat(lines, "\n"), "\n")
  f:close()
  local p = io.popen(PY .. " " .. tmp .. " 2>&1")
  local out = p:read("a")
  p:close()
  os.remove(tmp)
  local results = {}
  local it = out:gmatch("([^\n]*)\n")
  for _ = 1, #cases do
    local line = assert(it(), "numpy batch: missing output\n" .. out)
    local n = line:match("^tuple (%d+)$")
    if n then
      local t = { tuple = {} }
      for k = 1, tonumber(n) do t.tuple[k] = parse_one(assert(it())) end
      results[#results + 1] = t
    else
      results[#results + 1] = parse_one(line)
    end
  end
  return results
end

return M
