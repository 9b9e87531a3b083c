-- Renders a Lua-table AST the way Python's ast.dump renders the same tree
-- (fields in Python's order, None fields and empty keywords/orelse/
-- decorator_list/defaults left out), with "@line:col" positions when asked.
-- Expected strings in the specs were produced by CPython 3.11's ast module.
local FIELDS = {
  Module = {"body"}, FunctionDef = {"name", "args", "body", "decorator_list", "returns"},
  arguments = {"args", "defaults"}, arg = {"arg", "annotation"}, Import = {"names"},
  ImportFrom = {"module", "names"}, alias = {"name", "asname"},
  Assign = {"targets", "value"}, AugAssign = {"target", "op", "value"},
  AnnAssign = {"target", "annotation", "value"},
  For = {"target", "iter", "body", "orelse"}, While = {"test", "body", "orelse"},
  If = {"test", "body", "orelse"}, Return = {"value"}, Pass = {}, Break = {},
  Continue = {}, Expr = {"value"}, Assert = {"test", "msg"}, Raise = {"exc"},
  BoolOp = {"op", "values"}, BinOp = {"left", "op", "right"},
  UnaryOp = {"op", "operand"}, IfExp = {"test", "body", "orelse"},
  Compare = {"left", "ops", "comparators"}, Call = {"func", "args", "keywords"},
  keyword = {"arg", "value"}, Constant = {"value"}, Attribute = {"value", "attr"},
  Subscript = {"value", "slice"}, Slice = {"lower", "upper", "step"},
  Name = {"id"}, Tuple = {"elts"}, List = {"elts"},
}
local OMIT_EMPTY = {keywords = true, orelse = true, decorator_list = true, defaults = true}

local function pyrepr_string(s)
  local q = (s:find("'") and not s:find('"')) and '"' or "'"
  s = s:gsub("\\", "\\\\"):gsub("\n", "\\n"):gsub("\t", "\\t"):gsub("\r", "\\r")
  if q == "'" then s = s:gsub("'", "\\'") end
  return q .. s .. q
end

local function pyrepr_float(x)
  if x ~= x then return "nan" end
  if x == math.huge then return "inf" elseif x == -math.huge then return "-inf" end
  local s
  for p = 15, 17 do
    s = string.format("%." .. p .. "g", x)
    if tonumber(s) == x then break end
  end
  if not s:find("[%.e]") then s = s .. ".0" end
  return s
end

local render
local function value(v, pos, field)
  if type(v) == "table" then
    if v.tag then return render(v, pos) end
    local parts = {}
    for i, item in ipairs(v) do
      parts[i] = (field == "ops") and item or value(item, pos)
    end
    return "[" .. table.concat(parts, ", ") .. "]"
  elseif type(v) == "string" then
    return pyrepr_string(v)
  elseif type(v) == "boolean" then
    return v and "True" or "False"
  elseif math.type(v) == "float" then
    return pyrepr_float(v)
  end
  return tostring(v)
end

function render(n, pos)
  local fields = assert(FIELDS[n.tag], "unknown tag " .. tostring(n.tag))
  local parts = {}
  for _, f in ipairs(fields) do
    local v = n[f]
    if v ~= nil and not (OMIT_EMPTY[f] and type(v) == "table" and not v.tag and #v == 0) then
      if f == "op" then
        parts[#parts + 1] = f .. "=" .. v
      else
        parts[#parts + 1] = f .. "=" .. value(v, pos, f)
      end
    end
  end
  if pos and n.lineno then parts[#parts + 1] = "@" .. n.lineno .. ":" .. n.col_offset end
  return n.tag .. "(" .. table.concat(parts, ", ") .. ")"
end

-- shape(node_or_list [, with_positions])
return function(t, pos)
  return value(t, pos)
end
