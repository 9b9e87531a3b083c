-- The NumPy oracle: runs /usr/bin/python3 with NumPy to compute the expected
-- value and dtype of an expression over given arrays (passed as text).
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

-- inputs: list of {name, dtype, shape, values (flat, row-major)}; expr: Python
-- text over those names. Returns {dtype = "float64", shape = {...}, values = {...}}
-- or {error = "ValueError: ..."}.
function M.eval(inputs, expr)
  return M.batch({{inputs = inputs, exprs = {expr}}})[1][1]
end


-- Many cases in ONE python run (starting python per case is slow). cases:
-- list of {inputs = {as M.eval}, setup = "python statements" (optional),
-- exprs = {"a + b", "!r = a.copy(); r += b", ...}}; an expression starting
-- with "!" is run as statements that leave the result in r.
-- Returns, per case, a list of results per expression, each as M.eval's.
local function py_array(v)
  local vals = {}
  for i, x in ipairs(v.values) do
    vals[i] = x ~= x and "np.nan" or x == math.huge and "np.inf" or x == -math.huge and "-np.inf"
      or math.type(x) == "float" and ("%.17g"):format(x) or tostring(x)  -- tostring keeps 14 digits
  end
  local s = ("np.array([%s], dtype='%s').reshape(%s)"):format(table.concat(vals, ","), v.dtype,
    "(" .. table.concat(v.shape, ",") .. (#v.shape == 1 and ",)" or ")"))
  return s .. (v.view or "")
end

local function parse_result(line)
  local e = line:match("^E (.*)$")
  if e then return {error = e} end
  local dt, sh, vs = line:match("^R|([^|]*)|([^|]*)|(.*)$")
  assert(dt, "numpy oracle failed: " .. line)
  local r = {dtype = dt, shape = {}, values = {}}
  for x in sh:gmatch("%d+") do r.shape[#r.shape + 1] = tonumber(x) end
  for x in vs:gmatch("%S+") do
    r.values[#r.values + 1] = x == "nan" and (0/0) or x == "inf" and math.huge or x == "-inf" and -math.huge or tonumber(x)
  end
  return r
end

-- runs a Python program with NumPy, returns what it printed (stdout and stderr)
function M.run_python(text)
  local tmp = os.tmpname()
  local f = assert(io.open(tmp, "w"))
  f:write(text, "\n")
  f:close()
  local p = io.popen(PY .. " " .. tmp .. " 2>&1")
  local out = p:read("a")
  p:close()
  os.remove(tmp)
  return out
end

function M.batch(cases)
  local lines = {"import numpy as np, sys, warnings", "warnings.simplefilter('ignore')", "np.seterr(all='ignore')",
    "def run(env, e):",
    "    try:",
    "        if e.startswith('!'):",
    "            exec(e[1:], {'np': np}, env); r = np.asarray(env['r'])",
    "        else:",
    "            r = np.asarray(eval(e, {'np': np}, env))",
    "        print('R', r.dtype.name, ' '.join(map(str, r.shape)), ' '.join(repr(float(x)) for x in r.ravel()), sep='|')",
    "    except Exception as ex:",
    "        print('E', type(ex).__name__ + ': ' + str(ex).replace(chr(10), ' '))"}
  for _, c in ipairs(cases) do
    local env = {}
    for _, v in ipairs(c.inputs) do env[#env + 1] = ("'%s': %s"):format(v.name, py_array(v)) end
    lines[#lines + 1] = "env = {" .. table.concat(env, ", ") .. "}"
    if c.setup then lines[#lines + 1] = ("exec(%q, {'np': np}, env)"):format(c.setup) end
    for _, e in ipairs(c.exprs) do
      lines[#lines + 1] = ("run(dict(env), %q)"):format(e)
    end
  end
  local out = M.run_python(table.concat(lines, "\n"))
  local res, it = {}, out:gmatch("[^\n]+")
  for i, c in ipairs(cases) do
    res[i] = {}
    for j = 1, #c.exprs do res[i][j] = parse_result(assert(it(), "numpy oracle: output ended early: " .. out)) end
  end
  return res
end

-- Many evaluations in one python run: cases is a list of {inputs, expr} as
-- M.eval takes them; returns the list of M.eval's results, in order.
function M.eval_batch(cases)
  local res = M.batch((function()
    local t = {}
    for i, c in ipairs(cases) do t[i] = {inputs = c.inputs, exprs = {c.expr}} end
    return t
  end)())
  for i, r in ipairs(res) do res[i] = r[1] end
  return res
end

return M
