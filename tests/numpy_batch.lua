-- The NumPy oracle in batches: many Python expressions computed by one
-- /usr/bin/python3 run (starting Python per case is slow). Each case is
-- {expr, prelude}: prelude assigns the names expr uses. The result per
-- case: {dtype = "float64", shape = {...}, values = {...}} (values as
-- Lua values: booleans, integers, floats, NaN and infinities) or
-- {error = "ValueError: ..."}.
local oracle = require "numpy_oracle"
local M = {}

M.available = oracle.available

local PY = "/usr/bin/python3"

local function value_of(s)
  if s == "True" then return true end
  if s == "False" then return false end
  if s == "nan" then return 0 / 0 end
  if s == "inf" then return math.huge end
  if s == "-inf" then return -math.huge end
  return math.tointeger(tonumber(s)) or tonumber(s)
end

function M.eval(cases)
  local lines = { "import numpy as np, sys" }
  for i, c in ipairs(cases) do
    lines[#lines + 1] = "print('case %d')"
    lines[#lines] = lines[#lines]:format(i)
    lines[#lines + 1] = "try:"
    for pl in (c[2] or ""):gmatch("[^\n]+") do lines[#lines + 1] = "    " .. pl end
    lines[#lines + 1] = "    r = np.asarray(" .. c[1] .. ")"
    lines[#lines + 1] = "    print(r.dtype.name); print(' '.join(map(str, r.shape)) or '-')"
    lines[#lines + 1] = "    print(' '.join(repr(x.item()) if r.dtype.kind != 'f' else repr(float(x)) for x in r.ravel()) or '-')"
    lines[#lines + 1] = "except Exception as e:"
    lines[#lines + 1] = "    print('error'); print(type(e).__name__ + ': ' + str(e)); print('-')"
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
  for i, a, b, c in out:gmatch("case (%d+)\n([^\n]*)\n([^\n]*)\n([^\n]*)") do
    local r
    if a == "error" then
      r = { error = b }
    else
      r = { dtype = a, shape = {}, values = {} }
      for s in b:gmatch("%d+") do r.shape[#r.shape + 1] = tonumber(s) end
      if c ~= "-" then for s in c:gmatch("%S+") do r.values[#r.values + 1] = value_of(s) end end
    end
    results[tonumber(i)] = r
  end
  assert(#results == #cases, "numpy batch failed: " .. out:sub(1, 2000))
  return results
end

return M
