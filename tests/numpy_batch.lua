-- The NumPy oracle in one run: many cases, one python process (starting
-- python per case is slow). Each case is {inputs = {{name, dtype, shape,
-- values (flat, row-major)}, ...}, expr = Python text over those names};
-- the result of each is {dtype = "float64", shape = {...}, values = {...}},
-- {list = {result, ...}} for a list or tuple of arrays (np.split), or
-- {error = "ValueError: ..."}.
local M = {}

local PY = "/usr/bin/python3"

local oracle = dofile("tests/numpy_oracle.lua")
function M.available() return oracle.available() end

local function py_array(v)
  local vals = {}
  for i, x in ipairs(v.values) do vals[i] = x == true and "1" or x == false and "0" or tostring(x) end
  local shape = "(" .. table.concat(v.shape, ",") .. (#v.shape == 1 and ",)" or ")")
  return ("np.array([%s], dtype='%s').reshape(%s)"):format(table.concat(vals, ","), v.dtype, shape)
end

local PRELUDE = [[
import numpy as np, sys
def emit_one(r):
    r = np.asarray(r)
    print('A', r.dtype.name, ' '.join(map(str, r.shape)) + ' |', ' '.join(repr(float(x)) for x in r.ravel()))
def emit(r):
    if isinstance(r, (list, tuple)):
        print('L', len(r))
        for x in r: emit_one(x)
    else:
        emit_one(r)
]]

local function parse_array(line)
  local dt, sh, vs = line:match("^A (%S+) ([^|]*)|(.*)$")
  assert(dt, "numpy batch: bad line " .. line)
  local r = {dtype = dt, shape = {}, values = {}}
  for s in sh:gmatch("%d+") do r.shape[#r.shape + 1] = tonumber(s) end
  for s in vs:gmatch("%S+") do
    r.values[#r.values + 1] = s == "nan" and (0 / 0) or (s == "inf" and math.huge) or (s == "-inf" and -math.huge) or tonumber(s)
  end
  return r
end

function M.run(cases)
  local lines = {PRELUDE}
  for i, c in ipairs(cases) do
    lines[#lines + 1] = ("print('C %d')\ntry:"):format(i)
    for _, v in ipairs(c.inputs) do lines[#lines + 1] = ("    %s = %s"):format(v.name, py_array(v)) end
    lines[#lines + 1] = "    emit(" .. c.expr .. ")"
    lines[#lines + 1] = "except Exception as e:\n    print('E', type(e).__name__ + ': ' + str(e).replace('\\n', ' '))"
  end
  local tmp = os.tmpname()
  local f = assert(io.open(tmp, "w"))
  f:write(table.concat(lines, "\n"), "\n")
  f:close()
  local p = io.popen(PY .. " " .. tmp .. " 2>&1")
  local out = p:read("a")
  p:close()
  os.remove(tmp)
  local results, cur, want = {}, nil, 0
  for line in out:gmatch("[^\n]+") do
    local i = line:match("^C (%d+)$")
    if i then
      cur = tonumber(i)
    elseif line:match("^E ") then
      results[cur] = {error = line:sub(3)}
    elseif line:match("^L ") then
      results[cur] = {list = {}}
      want = tonumber(line:sub(3))
    elseif line:match("^A ") then
      local r = parse_array(line)
      if results[cur] and results[cur].list and #results[cur].list < want then
        table.insert(results[cur].list, r)
      else
        results[cur] = r
      end
    end
  end
  for i = 1, #cases do assert(results[i], "numpy batch: no result for case " .. i .. ": " .. out:sub(1, 2000)) end
  return results
end

return M
