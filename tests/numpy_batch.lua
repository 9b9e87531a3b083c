-- NumPy as an oracle for many cases in ONE python run (tests/numpy_oracle.lua
-- runs one per call). A case: inputs (a list of {name, dtype, shape, values
-- (flat, row-major)}, as numpy_oracle.eval takes them) and either expr (a
-- Python expression) or code (Python statements that set r). Returns, per
-- case, a list of results (one per array of a tuple result, else one), each
-- {dtype = "int64", shape = {...}, values = {...}} (bools as 1 and 0), or
-- {error = "IndexError: ..."}.
local M = {}

local PY = "/usr/bin/python3"

function M.available()
  return dofile("tests/numpy_oracle.lua").available()
end

local function num_text(x)
  if x == true then return "1" elseif x == false then return "0" end
  if math.type(x) == "integer" then return tostring(x) end
  if x ~= x then return "float('nan')" end
  if x == math.huge then return "float('inf')" elseif x == -math.huge then return "float('-inf')" end
  return string.format("%.17g", x)
end

local function input_lines(lines, inputs)
  for _, v in ipairs(inputs) do
    local vals = {}
    for i, x in ipairs(v.values) do vals[i] = num_text(x) end
    lines[#lines + 1] = ("    %s = np.array([%s], dtype='%s').reshape(%s)"):format(v.name, table.concat(vals, ","),
      v.dtype, "(" .. table.concat(v.shape, ",") .. (#v.shape == 1 and ",)" or ")"))
  end
end

function M.run(cases)
  local lines = { "import numpy as np, sys, warnings", "warnings.simplefilter('ignore')",
    "def out(i, r):",
    "    rs = r if isinstance(r, tuple) else (r,)",
    "    print('case', i, len(rs))",
    "    for x in rs:",
    "        x = np.asarray(x)",
    "        print(x.dtype.name); print(' '.join(map(str, x.shape))); print(' '.join(repr(float(v)) for v in x.ravel()))" }
  for i, c in ipairs(cases) do
    lines[#lines + 1] = "try:"
    input_lines(lines, c.inputs)
    if c.expr then
      lines[#lines + 1] = "    r = " .. c.expr
    else
      for l in c.code:gmatch("[^\n]+") do lines[#lines + 1] = "    " .. l end
    end
    lines[#lines + 1] = "    out(" .. i .. ", r)"
    lines[#lines + 1] = "except Exception as e:\n    print('case', " .. i .. ", 'error', type(e).__name__ + ': ' + str(e).replace('\\n', ' '))"
  end
  local tmp = os.tmpname()
  local f = assert(io.open(tmp, "w"))
  f:write(table.concat(lines, "\n"), "\n")
  f:close()
  local p = io.popen(PY .. " " .. tmp .. " 2>&1")
  local text = p:read("a")
  p:close()
  os.remove(tmp)
  local res, it = {}, text:gmatch("([^\n]*)\n")
  for line in it do
    local i, rest = line:match("^case (%d+) (.*)$")
    assert(i, "numpy batch failed: " .. text:sub(1, 2000))
    i = tonumber(i)
    local e = rest:match("^error (.*)$")
    if e then
      res[i] = { error = e }
    else
      local list = {}
      for _ = 1, tonumber(rest) do
        local dt, sh, vs = it(), it(), it()
        local r = { dtype = dt, shape = {}, values = {} }
        for s in sh:gmatch("%d+") do r.shape[#r.shape + 1] = tonumber(s) end
        for s in vs:gmatch("%S+") do
          r.values[#r.values + 1] = s == "nan" and (0 / 0) or tonumber(s) or (s == "inf" and math.huge) or (s == "-inf" and -math.huge)
        end
        list[#list + 1] = r
      end
      res[i] = list
    end
  end
  for i = 1, #cases do assert(res[i], "numpy batch: no answer for case " .. i .. ":\n" .. text:sub(1, 2000)) end
  return res
end

return M
