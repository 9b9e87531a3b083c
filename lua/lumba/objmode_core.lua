-- lumba.objmode_core — what the object-mode translator's stages share:
-- kinds, literals, error positions, and the per-def translation context
-- (Fn) with its pre-statement buffer. objmode_expr, objmode_calls and
-- objmode_stmt add Fn's methods and the EXPR/STMT tables; objmode_tr drives.
--
-- Kinds. Each expression gets a kind, the set of value classes it may
-- hold, as bits: KP int >= 0, KM int < 0, KF float, KB bool, KZ None,
-- KT tuple/array of numbers (or of such), KU anything else (strings, arrays
-- of bools, Lua functions...). Variables get the union of what is stored
-- in them, iterated to a fixed point (the translation is simply rerun until
-- no kind grows), so the code of the last run is consistent with its kinds.
-- A kind without KB and KU lets `+ - * < ==` be Lua's own operators (tuples
-- and arrays bring their metamethods); KP on every index lets `a[i, j]`
-- become `a:get(i + 1, j + 1)`.

local sformat = string.format
local mtype = math.type

local KP, KM, KF, KB, KZ, KT, KU = 1, 2, 4, 8, 16, 32, 64
local KINT = KP | KM
local KNUM = KINT | KF
local KALL = 127
local KNB = KNUM | KZ | KT  -- parameters of a fast variant

local function has(k, bits) return k & bits ~= 0 end
local function within(k, bits) return k & ~bits == 0 end

-- kind of the elements of a container of kind k
local function elem_kind(k)
  if has(k, KU) or not has(k, KT) then return KALL end
  return KNUM | KT
end

local LUA_KEYWORDS = {}
for w in ([[and break do else elseif end false for function goto if in local
  nil not or repeat return then true until while]]):gmatch("%a+") do LUA_KEYWORDS[w] = true end

-- Python names never start with "_" in the output: internal names do
local function mangle(name)
  if LUA_KEYWORDS[name] or name:sub(1, 1) == "_" or name:sub(1, 2) == "P_" then
    return "P_" .. name
  end
  return name
end

local function lit_int(v)
  if v == math.mininteger then return "(-9223372036854775807 - 1)" end
  if v < 0 then return "(" .. sformat("%d", v) .. ")" end
  return sformat("%d", v)
end

local function int_kind(v) return v >= 0 and KP or KM end

local DTYPES = {
  float64 = "float64", float32 = "float32", int64 = "int64", int32 = "int32",
  int16 = "int16", int8 = "int8", uint64 = "uint64", uint32 = "uint32",
  uint16 = "uint16", uint8 = "uint8", bool_ = "bool", bool = "bool",
  double = "float64", single = "float32", intp = "int64", float_ = "float64",
  int_ = "int64", f8 = "float64", f4 = "float32", i8 = "int64", i4 = "int32",
  i2 = "int16", i1 = "int8", u8 = "uint64", u4 = "uint32", u2 = "uint16",
  u1 = "uint8", b1 = "bool",
}

---------------------------------------------------------------------------
-- errors with positions
---------------------------------------------------------------------------
local function pos_of(M, node)
  return sformat("%s:%d:%d", M.chunk, node and node.lineno or 0, (node and node.col_offset or 0) + 1)
end

local function fail(M, node, kind, fmt, ...)
  error(pos_of(M, node) .. ": " .. kind .. ": " .. sformat(fmt, ...), 0)
end

local function unsupported(M, node, fmt, ...)
  fail(M, node, "UnsupportedError", fmt, ...)
end

local function list(x) return x or {} end

---------------------------------------------------------------------------
-- the registry of builtins (src/builtins.def, through lumba.core): every
-- builtin's names, aliases and constants come from the rows the compiler
-- reads; the object mode's implementations are keyed by entry id
---------------------------------------------------------------------------
-- the object mode's qualified name of a registry name: Python's builtins
-- are "builtins.len", numba.cuda's members "cuda.grid"
local function objmode_qualname(nm)
  if nm.module == "" then return "builtins." .. nm.member end
  if nm.module == "numba.cuda" then return "cuda." .. nm.member end
  return nm.name
end

local REGISTRY = {}       -- qualified name -> {entry = registry entry, numpy = NumPy's semantics}
local MODULE_CONSTS = {}  -- qualified name -> value
-- builtin function names (others are looked up in env, then undefined):
-- the registry's Python builtins, and the object mode's loop forms
local BUILTIN_NAMES = { enumerate = true, zip = true }
for _, e in ipairs((require("lumba.core").builtins())) do
  for _, nm in ipairs(e.names) do
    local q = objmode_qualname(nm)
    REGISTRY[q] = { entry = e, numpy = nm.numpy }
    if nm.module == "" then BUILTIN_NAMES[nm.member] = true end
    if e.kind == "constant" then MODULE_CONSTS[q] = e.value end
  end
end

-- the registry entry id a qualified name denotes, or nil
local function builtin_id(q)
  local b = q and REGISTRY[q]
  return b and b.entry.id
end

---------------------------------------------------------------------------
-- function context
---------------------------------------------------------------------------
local Fn = {}
Fn.__index = Fn

function Fn:use(name)
  self.M.used[name] = true
  return "_" .. name
end

-- each line ends with the Python position it comes from ("--@line:col"),
-- which errors raised at run time are reported at
function Fn:emit(line)
  self.out[#self.out + 1] = string.rep("  ", self.ind) .. line .. (self.pos and ("  --@" .. self.pos) or "")
end

function Fn:push_pre(line) self.pre[#self.pre + 1] = line end

function Fn:temp()
  self.ntemp = self.ntemp + 1
  return "_t" .. self.ntemp
end

function Fn:label(prefix)
  self.nlabel = self.nlabel + 1
  return prefix .. self.nlabel
end

-- translate f(self, ...) with a fresh pre-statement buffer; returns its
-- results and the buffer
function Fn:isolated(f, ...)
  local saved = self.pre
  self.pre = {}
  local c, k, s = f(self, ...)
  local p = self.pre
  self.pre = saved
  return c, k, s, p
end

function Fn:append_pre(p)
  for _, l in ipairs(p) do self.pre[#self.pre + 1] = l end
end

-- value into a temporary (pre-statement); returns the temporary
function Fn:spill(code)
  local t = self:temp()
  self:push_pre("local " .. t .. " = " .. code)
  return t
end

-- Translate nodes left to right. When a later operand needs pre-statements,
-- the earlier non-trivial operands are evaluated into temporaries first, so
-- Python's evaluation order is kept.
function Fn:operands(nodes)
  local codes, kinds, simples = {}, {}, {}
  for k, n in ipairs(nodes) do
    local c, kd, s, p = self:isolated(self.expr, n)
    if #p > 0 then
      for j = 1, k - 1 do
        if not simples[j] then
          codes[j] = self:spill(codes[j])
          simples[j] = true
        end
      end
      self:append_pre(p)
    end
    codes[k], kinds[k], simples[k] = c, kd, s
  end
  return codes, kinds, simples
end

-- bool operands as ints: (code, kind) without KB
function Fn:numop(c, k)
  if not has(k, KB) then return c, k end
  if k == KB then return "(" .. c .. " and 1 or 0)", KP end
  return self:use("NUM") .. "(" .. c .. ")", (k & ~KB) | KP
end

-- a Lua expression whose Lua truth is the Python truth of (c, k)
function Fn:truthy(c, k, simple)
  if within(k, KB | KZ) then return c end
  if within(k, KNUM) then return "(" .. c .. " ~= 0)" end
  if within(k, KNUM | KB | KZ) and simple then return "(" .. c .. " ~= 0 and " .. c .. ")" end
  return self:use("TRUTH") .. "(" .. c .. ")"
end

function Fn:lit_float(v)
  if v ~= v then return self:use("NAN") end
  if v == math.huge then return self:use("INF") end
  if v == -math.huge then return "(-" .. self:use("INF") .. ")" end
  if v == 0 and 1 / v < 0 then return "(-0.0)" end
  local s = sformat("%.17g", v)
  if not s:find("[%.eEn]") then s = s .. ".0" end
  if v < 0 then s = "(" .. s .. ")" end
  return s
end

-- a constant Lua value as code and kind
function Fn:const(v, node)
  local t = type(v)
  if v == nil then return "nil", KZ end
  if t == "boolean" then return tostring(v), KB end
  if mtype(v) == "integer" then return lit_int(v), int_kind(v) end
  if mtype(v) == "float" then return self:lit_float(v), KF end
  if t == "string" then return sformat("%q", v):gsub("\\\n", "\\n"), KU end
  if t == "userdata" and getmetatable(v) == "lumba.complex" then  -- 1j
    return sformat("%s(%s, %s)", self:use("COMPLEX"), self:lit_float(v.real), self:lit_float(v.imag)), KU
  end
  unsupported(self.M, node, "constant of Lua type %s", t)
end

---------------------------------------------------------------------------
-- names and modules
---------------------------------------------------------------------------
local DEFAULT_MODULES = { math = "math", np = "numpy", numpy = "numpy", numba = "numba", cuda = "cuda" }

-- the dotted module path a node names (np -> "numpy", np.random -> "numpy.random"), or nil
-- modules inside modules (cuda's kernel-only ones: their names are refused
-- by name, never taken for a method of some value)
local SUBMODULES = {}
for _, q in ipairs { "numpy.random", "numpy.linalg", "cuda.shared", "cuda.local", "cuda.atomic", "cuda.threadIdx",
  "cuda.blockIdx", "cuda.blockDim", "cuda.gridDim", "cuda.libdevice", "cuda.cg", "cuda.random", "cuda.const",
  "cuda.fp16" } do
  SUBMODULES[q] = true
end

function Fn:module_of(n)
  if n.tag == "Name" then
    if self.locals[n.id] then return nil end
    local a = self.M.aliases[n.id]
    if a ~= nil then
      if a.module then return a.module end
      return nil
    end
    if self.M.defs[n.id] or self.M.consts[n.id] ~= nil or self.M.frozen[n.id] then return nil end
    return DEFAULT_MODULES[n.id]
  elseif n.tag == "Attribute" then
    local m = self:module_of(n.value)
    if m == nil then return nil end
    local q = m .. "." .. n.attr
    if q == "numba.cuda" then return "cuda" end
    if SUBMODULES[q] then return q end
  end
  return nil
end

-- qualified name of a builtin a Name or Attribute denotes ("math.sqrt",
-- "builtins.len"), or nil
function Fn:qualname(n)
  if n.tag == "Name" then
    local id = n.id
    if self.locals[id] or self.M.defs[id] then return nil end
    local a = self.M.aliases[id]
    if a and a.member then return a.member end
    if a or self.M.consts[id] ~= nil or self.M.frozen[id] then return nil end
    if BUILTIN_NAMES[id] or not self.M.env_has(id) then return "builtins." .. id end
    return nil
  elseif n.tag == "Attribute" then
    local m = self:module_of(n.value)
    if m then return m .. "." .. n.attr end
  end
  return nil
end

---------------------------------------------------------------------------
-- expressions: each returns code, kind, simple (a name or literal)
---------------------------------------------------------------------------
local EXPR = {}

-- what unsupported nodes are called in messages
local NODE_WORDS = {
  Lambda = "lambda expressions", JoinedStr = "f-strings", FormattedValue = "f-strings",
  ListComp = "list comprehensions", SetComp = "set comprehensions",
  DictComp = "dict comprehensions", GeneratorExp = "generator expressions",
  Dict = "dicts", Set = "sets", NamedExpr = "the := operator", Await = "await",
  Yield = "yield", YieldFrom = "yield", Starred = "starred expressions",
  With = "with statements", Try = "try statements", ClassDef = "classes",
  Delete = "del statements", AsyncFunctionDef = "async functions",
}

function Fn:expr(n)
  local f = EXPR[n.tag]
  if not f then unsupported(self.M, n, "%s %s not supported in object mode", NODE_WORDS[n.tag] or n.tag,
    NODE_WORDS[n.tag] and NODE_WORDS[n.tag]:match("s$") and "are" or "is") end
  return f(self, n)
end

-- a builtin used as a value (math.pi, np.float64 as a dtype)
function Fn:builtin_value(q, n)
  local v = MODULE_CONSTS[q]
  if v ~= nil then return self:lit_float(v), KF, true end
  local dt = q:match("^numpy%.(.+)$")
  if dt and DTYPES[dt] then return sformat("%q", DTYPES[dt]), KU, true end
  local id = builtin_id(q)
  if id == "float" then return '"float64"', KU, true end
  if id == "int" then return '"int64"', KU, true end
  if id == "bool" then return '"bool"', KU, true end
  if id == "numpy_newaxis" then return "nil", KZ, true end  -- None
  if q:match("^builtins%.") then
    if BUILTIN_NAMES[q:sub(10)] then
      unsupported(self.M, n, "'%s' used as a value is not supported in object mode", q:sub(10))
    end
    fail(self.M, n, "NameError", "name '%s' is not defined", q:sub(10))
  end
  unsupported(self.M, n, "'%s' is not supported in object mode", q)
end

-- the constant integer a node is, if it is one (7, -7)
local function const_int(n)
  if n.tag == "Constant" and mtype(n.value) == "integer" then return n.value end
  if n.tag == "UnaryOp" and n.op == "USub" and n.operand.tag == "Constant"
    and mtype(n.operand.value) == "integer" then
    return -n.operand.value
  end
  return nil
end

local function const_num(n)
  if n.tag == "Constant" and type(n.value) == "number" then return n.value end
  if n.tag == "UnaryOp" and n.op == "USub" and n.operand.tag == "Constant"
    and type(n.operand.value) == "number" then
    return -n.operand.value
  end
  return nil
end

local function index_nodes(sl)
  if sl.tag == "Tuple" then return sl.elts end
  return { sl }
end

local function has_slice(nodes)
  for _, x in ipairs(nodes) do
    if x.tag == "Slice" then return true end
  end
  return false
end

-- 1-based index code for a 0-based index known to be >= 0
local function plus1(c)
  local v = math.tointeger(tonumber(c))
  if v and tostring(v) == c then return tostring(v + 1) end
  return c .. " + 1"
end

-- receiver code usable before ':' (a name, or parenthesised)
local function recv(c, simple)
  if simple and c:match("^[%a_][%w_]*$") then return c end
  return "(" .. c .. ")"
end

return {
  has = has,
  within = within,
  elem_kind = elem_kind,
  mangle = mangle,
  lit_int = lit_int,
  int_kind = int_kind,
  pos_of = pos_of,
  fail = fail,
  unsupported = unsupported,
  list = list,
  const_int = const_int,
  const_num = const_num,
  index_nodes = index_nodes,
  has_slice = has_slice,
  plus1 = plus1,
  recv = recv,
  KP = KP,
  KM = KM,
  KF = KF,
  KB = KB,
  KZ = KZ,
  KT = KT,
  KU = KU,
  KINT = KINT,
  KNUM = KNUM,
  KALL = KALL,
  KNB = KNB,
  DTYPES = DTYPES,
  BUILTIN_NAMES = BUILTIN_NAMES,
  REGISTRY = REGISTRY,
  builtin_id = builtin_id,
  Fn = Fn,
  DEFAULT_MODULES = DEFAULT_MODULES,
  EXPR = EXPR,
  NODE_WORDS = NODE_WORDS,
  MODULE_CONSTS = MODULE_CONSTS,
}
