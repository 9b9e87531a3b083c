-- NumPy on many cases in ONE python run (starting python costs ~100 ms a
-- case): the batch form of tests/numpy_oracle.lua's M.eval, with the same
-- inputs and results.
local oracle = dofile("tests/numpy_oracle.lua")

local M = {available = oracle.available}

local PY = "/usr/bin/python3"

-- exact decimal text of a Lua number for Python
local function num(x)
  if x ~= x then return "float('nan')" end
  if x == math.huge then return "float('inf')" end
  if x == -math.huge then return "float('-inf')" end
  if math.type(x) == "integer" then return tostring(x) end
  return string.format("%.17g", x)
end

-- cases: a list of {inputs = {{name, dtype, shape, values (flat, row-major), view}}, expr = Python text}.
-- Returns a list of results, one per case, each as M.eval gives it:
-- {dtype, shape, values} or {error = "ValueError: ..."}.
function M.eval(cases)
  local lines = {"import numpy as np, sys", "def out(i, f):",
    "    try:\n        r = np.asarray(f())\n    except Exception as e:\n        print('E', i, type(e).__name__ + ': ' + str(e).replace('\\n', ' ')); return",
    "    print('R', i, r.dtype.name, 'x'.join(map(str, r.shape)) or '-', ' '.join(repr(float(x)) for x in r.ravel()) or '-')"}
  for i, c in ipairs(cases) do
    lines[#lines + 1] = ("def case%d():"):format(i)
    for _, v in ipairs(c.inputs) do
      local vals = {}
      for k, x in ipairs(v.values) do vals[k] = num(x) end
      lines[#lines + 1] = ("    %s = np.array([%s], dtype='%s').reshape(%s)"):format(v.name, table.concat(vals, ","),
        v.dtype, "(" .. table.concat(v.shape, ",") .. (#v.shape == 1 and ",)" or ")"))
      if v.view then lines[#lines + 1] = ("    %s = %s%s"):format(v.name, v.name, v.view) end
    end
    lines[#lines + 1] = "    return " .. c.expr
    lines[#lines + 1] = ("out(%d, case%d)"):format(i, i)
  end
  local tmp = os.tmpname()
  local f = assert(io.open(tmp, "w"))
  f:write(table.concat(lines, "\n"), "\n")
  f:close()
  local p = io.popen(PY .. " " .. tmp .. " 2>&1")
  local text = p:read("a")
  p:close()
  os.remove(tmp)
  local results = {}
  for line in text:gmatch("[^\n]+") do
    local i, e = line:match("^E (%d+) (.*)$")
    if i then
      results[tonumber(i)] = {error = e}
    else
      local j, dt, sh, vs = line:match("^R (%d+) (%S+) (%S+) (.*)$")
      assert(j, "numpy batch failed: " .. text)
      local r = {dtype = dt, shape = {}, values = {}}
      for d in sh:gmatch("%d+") do r.shape[#r.shape + 1] = tonumber(d) end
      for x in vs:gmatch("%S+") do
        r.values[#r.values + 1] = x == "nan" and (0 / 0) or x == "inf" and math.huge or x == "-inf" and -math.huge
          or tonumber(x)
      end
      if vs == "-" then r.values = {} end
      results[tonumber(j)] = r
    end
  end
  for i = 1, #cases do assert(results[i], "numpy batch gave no result for case " .. i .. ": " .. text) end
  return results
end

return M
