-- Runs a pasted Numba module's function under plain NumPy, as the oracle of
-- lumba running the same text: /usr/bin/python3 executes the module with a
-- stand-in `numba` whose decorators return the function unchanged (and
-- prange is range), calls the function on the given arguments (lumba arrays
-- sent as text, numbers), and reports the result and the arguments after
-- the call (kernels write into them).
local M = {}

local oracle = dofile("tests/numpy_oracle.lua")
M.available = oracle.available

local STUB = [[
import sys, types, numpy as np
nb = types.ModuleType("numba")
def _deco(*a, **k):
    if len(a) == 1 and callable(a[0]) and not k:
        return a[0]
    return lambda f: f
for _n in ("jit", "njit", "vectorize", "generated_jit"):
    setattr(nb, _n, _deco)
nb.prange = range
for _t in ("float64", "float32", "int64", "int32", "boolean", "int8", "uint8"):
    setattr(nb, _t, getattr(np, _t if _t != "boolean" else "bool_"))
sys.modules["numba"] = nb
]]

local function flat(a)
  local out = {}
  local f = a.ndim == 0 and nil or a:copy():reshape(a.size)
  if a.ndim == 0 then out[1] = a:get() else for i = 1, a.size do out[i] = f:get(i) end end
  for i, v in ipairs(out) do
    out[i] = v == true and "True" or v == false and "False" or
      (v ~= v and "np.nan" or v == math.huge and "np.inf" or v == -math.huge and "-np.inf" or string.format("%.17g", v))
  end
  return out
end

local function py_arg(v)
  if type(v) == "number" then
    return math.type(v) == "integer" and tostring(v) or string.format("%.17g", v)
  elseif type(v) == "boolean" then
    return v and "True" or "False"
  end
  local shape = {}
  for k = 1, v.ndim do shape[k] = tostring(v.shape[k]) end
  return ("np.array([%s], dtype='%s').reshape((%s))"):format(table.concat(flat(v), ","), v.dtype,
    table.concat(shape, ",") .. (#shape == 1 and "," or ""))
end

local REPORT = [[
def _show(tag, r):
    r = np.asarray(r)
    print(tag, r.dtype.name, ','.join(map(str, r.shape)) or '-', ' '.join(repr(float(x)) for x in r.ravel()) or '-')
]]

local function parse(line)
  local tag, dt, sh, vs = line:match("^(%S+) (%S+) (%S+) (.*)$")
  local r = { dtype = dt, shape = {}, values = {} }
  if sh ~= "-" then for s in sh:gmatch("%d+") do r.shape[#r.shape + 1] = tonumber(s) end end
  if vs ~= "-" then
    for s in vs:gmatch("%S+") do
      r.values[#r.values + 1] = s == "nan" and (0 / 0) or s == "inf" and math.huge or s == "-inf" and -math.huge or tonumber(s)
    end
  end
  return tag, r
end

-- src: the module's text; fname: the function; args: lumba arrays and numbers.
-- Returns {result = {dtype, shape, values} or a list of them for a tuple,
-- args = {[i] = {...}} for the array arguments after the call}, or {error = "..."}.
function M.call(src, fname, args)
  local srcfile = os.tmpname()
  local sf = assert(io.open(srcfile, "w"))
  sf:write(src)
  sf:close()
  local lines = { STUB, REPORT, ("exec(compile(open(%q).read(), 'module', 'exec'))"):format(srcfile) }
  local pyargs = {}
  for i, a in ipairs(args) do
    lines[#lines + 1] = ("_a%d = %s"):format(i, py_arg(a))
    pyargs[i] = "_a" .. i
  end
  lines[#lines + 1] = "try:\n    _r = " .. fname .. "(" .. table.concat(pyargs, ", ") ..
    ")\nexcept Exception as e:\n    print('error', type(e).__name__ + ': ' + str(e)); sys.exit(0)"
  lines[#lines + 1] = "if isinstance(_r, tuple):\n    [_show('r%d' % i, x) for i, x in enumerate(_r)]\nelse:\n    _show('r', _r)"
  for i, a in ipairs(args) do
    if type(a) == "userdata" then lines[#lines + 1] = ("_show('a%d', _a%d)"):format(i, i) end
  end
  local out = oracle.run_python(table.concat(lines, "\n"))
  os.remove(srcfile)
  local e = out:match("^error (.-)\n")
  if e then return { error = e } end
  local res = { args = {} }
  local tuple = {}
  for line in out:gmatch("[^\n]+") do
    local tag, r = parse(line)
    assert(tag, "numpy run failed: " .. out)
    if tag == "r" then res.result = r
    elseif tag:match("^r%d") then tuple[tonumber(tag:sub(2)) + 1] = r
    else res.args[tonumber(tag:sub(2))] = r end
  end
  if #tuple > 0 then res.result = tuple end
  return res
end

return M
