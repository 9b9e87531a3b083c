-- Record dtypes named in the signatures of a pasted module (lumba.load):
-- `rec = np.dtype([...])` then `@cuda.jit("void(rec[:])")`, `@njit(void(rec[:]))`
-- or `rec_t = numba.from_dtype(rec)`, as Numba and numba-cuda take them. A
-- signature names a record by its Numba name, `Record(x[type=...];20;False)`
-- (types.c parses it); this turns a module variable holding a record dtype
-- into that name, making the dtype through lumba.dtype (NumPy's layout).
local M = {}

-- NumPy's scalar type attributes whose names are no lumba dtype name
local NP_NAMES = { bool_ = "bool", float_ = "float64", int_ = "int64", double = "float64", single = "float32",
  intc = "int32", uintc = "uint32", longlong = "int64", ulonglong = "uint64", byte = "int8", ubyte = "uint8",
  short = "int16", ushort = "uint16", complex_ = "complex128", cdouble = "complex128", csingle = "complex64" }

-- a name with the module's import aliases undone: "np.dtype" → "numpy.dtype",
-- "@nb.jit" → "numba.jit" (init.lua's decorators use it too)
function M.qualified(node, mod)
  if node.tag == "Name" then return mod.names[node.id] or node.id end
  if node.tag == "Attribute" then
    local base = M.qualified(node.value, mod)
    return base and (base .. "." .. node.attr)
  end
end
local qualified = M.qualified

local record

-- a field's dtype: 'f8', np.float64, or another record of the module
local function field_dtype(node, mod, lumba, depth)
  if node.tag == "Constant" and type(node.value) == "string" then return (node.value:gsub("^[<|=]", "")) end
  if node.tag == "Attribute" then return NP_NAMES[node.attr] or node.attr end
  if node.tag == "Name" then
    local r = record(node, mod, lumba, depth)
    if r then return r end
    return ({ float = "float64", int = "int64", bool = "bool", complex = "complex128" })[node.id] or node.id
  end
end

-- the lumba record dtype node stands for (np.dtype([...], align=...), a
-- variable holding one, numba.from_dtype(x)), or nil
function record(node, mod, lumba, depth)
  depth = (depth or 0) + 1
  if depth > 16 or node == nil then return nil end
  if node.tag == "Name" then
    local v = not mod.names[node.id] and mod.values[node.id]
    return v and record(v, mod, lumba, depth)
  end
  if node.tag ~= "Call" then return nil end
  local f = qualified(node.func, mod) or ""
  if f:match("from_dtype$") then return record(node.args[1], mod, lumba, depth) end
  if not (f == "numpy.dtype" or f == "np.dtype") then return nil end
  local list = node.args[1]
  if not list or (list.tag ~= "List" and list.tag ~= "Tuple") then return nil end
  local fields = {}
  for i, e in ipairs(list.elts) do
    if e.tag ~= "Tuple" or #e.elts ~= 2 or e.elts[1].tag ~= "Constant" then return nil end
    local dt = field_dtype(e.elts[2], mod, lumba, depth)
    if dt == nil then return nil end
    fields[i] = { e.elts[1].value, dt }
  end
  local align = false
  for _, kw in ipairs(node.keywords or {}) do
    if kw.arg == "align" and kw.value.tag == "Constant" then align = kw.value.value == true end
  end
  local ok, r = pcall(lumba.dtype, fields, { align = align })
  return ok and r or nil
end

-- the Numba name of the record node stands for, or nil
function M.name(node, mod, lumba)
  local r = record(node, mod, lumba)
  return r and r.name
end

-- a signature string with the module's record variables ("rec" in
-- "void(rec[:])") replaced by their Numba names
function M.substitute(sig, mod, lumba)
  return (sig:gsub("()([%a_][%w_]*)", function(at, id)
    if sig:sub(at - 1, at - 1) == "." then return nil end
    local v = not mod.names[id] and mod.values[id]
    local r = v and record(v, mod, lumba)
    return r and r.name or nil
  end))
end

return M
