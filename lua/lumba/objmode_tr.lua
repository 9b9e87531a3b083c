-- lumba.objmode_tr — the object-mode translator: Lua-table AST (Python's
-- ast node and field names) to Lua source. lumba.objmode loads the result;
-- the runtime names it refers to (_ADD, _AGET1, ...) are objmode.helpers.
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
local T = {}

local sformat, concat = string.format, table.concat
local mtype = math.type

local KP, KM, KF, KB, KZ, KT, KU = 1, 2, 4, 8, 16, 32, 64
local KINT = KP | KM
local KNUM = KINT | KF
local KALL = 127
local KNB = KNUM | KZ | KT  -- parameters of a fast variant
T.kinds = { P = KP, M = KM, F = KF, B = KB, Z = KZ, T = KT, U = KU, ALL = KALL }

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

-- builtin function names (others are looked up in env, then undefined)
local BUILTIN_NAMES = {
  range = true, prange = true, enumerate = true, zip = true, len = true, abs = true, min = true,
  max = true, int = true, float = true, bool = true, round = true, print = true,
}

---------------------------------------------------------------------------
-- function context
---------------------------------------------------------------------------
local Fn = {}
Fn.__index = Fn

function Fn:use(name)
  self.M.used[name] = true
  return "_" .. name
end

function Fn:emit(line)
  self.out[#self.out + 1] = string.rep("  ", self.ind) .. line
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
  unsupported(self.M, node, "constant of Lua type %s", t)
end

---------------------------------------------------------------------------
-- names and modules
---------------------------------------------------------------------------
local DEFAULT_MODULES = { math = "math", np = "numpy", numpy = "numpy", numba = "numba", cuda = "cuda" }

-- the dotted module path a node names (np -> "numpy", np.random -> "numpy.random"), or nil
function Fn:module_of(n)
  if n.tag == "Name" then
    if self.locals[n.id] then return nil end
    local a = self.M.aliases[n.id]
    if a ~= nil then
      if a.module then return a.module end
      return nil
    end
    if self.M.defs[n.id] or self.M.consts[n.id] ~= nil then return nil end
    return DEFAULT_MODULES[n.id]
  elseif n.tag == "Attribute" then
    local m = self:module_of(n.value)
    if m == nil then return nil end
    local q = m .. "." .. n.attr
    if q == "numba.cuda" then return "cuda" end
    if q == "numpy.random" or q == "numpy.linalg" or q == "cuda.shared" or q == "cuda.local"
      or q == "cuda.atomic" or q == "cuda.threadIdx" or q == "cuda.blockIdx"
      or q == "cuda.blockDim" or q == "cuda.gridDim" then
      return q
    end
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
    if a or self.M.consts[id] ~= nil then return nil end
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

EXPR.Constant = function(F, n)
  local c, k = F:const(n.value, n)
  return c, k, true
end

local MODULE_CONSTS = {
  ["math.pi"] = math.pi, ["math.e"] = math.exp(1.0), ["math.tau"] = 2 * math.pi,
  ["math.inf"] = math.huge, ["math.nan"] = 0 / 0,
  ["numpy.pi"] = math.pi, ["numpy.e"] = math.exp(1.0), ["numpy.inf"] = math.huge,
  ["numpy.nan"] = 0 / 0, ["numpy.NaN"] = 0 / 0, ["numpy.Inf"] = math.huge,
  ["numpy.NINF"] = -math.huge, ["numpy.PINF"] = math.huge, ["numpy.euler_gamma"] = 0.5772156649015329,
}

-- a builtin used as a value (math.pi, np.float64 as a dtype)
function Fn:builtin_value(q, n)
  local v = MODULE_CONSTS[q]
  if v ~= nil then return self:lit_float(v), KF, true end
  local dt = q:match("^numpy%.(.+)$")
  if dt and DTYPES[dt] then return sformat("%q", DTYPES[dt]), KU, true end
  if q == "builtins.float" then return '"float64"', KU, true end
  if q == "builtins.int" then return '"int64"', KU, true end
  if q == "builtins.bool" then return '"bool"', KU, true end
  if q:match("^builtins%.") then
    if BUILTIN_NAMES[q:sub(10)] then
      unsupported(self.M, n, "'%s' used as a value is not supported in object mode", q:sub(10))
    end
    fail(self.M, n, "NameError", "name '%s' is not defined", q:sub(10))
  end
  unsupported(self.M, n, "'%s' is not supported in object mode", q)
end

EXPR.Name = function(F, n)
  local id = n.id
  if F.locals[id] then
    return mangle(id), F.vk[id] or 0, true
  end
  local M = F.M
  if M.defs[id] then
    unsupported(M, n, "functions as values ('%s') are not supported in object mode", id)
  end
  local a = M.aliases[id]
  if a and a.member then return F:builtin_value(a.member, n) end
  if a then unsupported(M, n, "module '%s' used as a value", a.module) end
  local cv = M.consts[id]
  if cv ~= nil then
    local c, k = F:const(cv, n)
    return c, k, true
  end
  local found, v = M.env_get(id)
  if found then
    if type(v) == "number" or type(v) == "boolean" or type(v) == "string" then
      local c, k = F:const(v, n)
      return c, k, true
    end
    return M:upvalue(id, v), M.value_kind(v), true
  end
  return F:builtin_value("builtins." .. id, n)
end

EXPR.Attribute = function(F, n)
  local q = F:qualname(n)
  if q then return F:builtin_value(q, n) end
  local attr = n.attr
  local c, k = F:expr(n.value)
  if attr == "shape" then return F:use("SHAPE_T") .. "(" .. c .. ")", KT, false end
  if attr == "size" then return F:use("SIZE") .. "(" .. c .. ")", KP, false end
  if attr == "ndim" then return F:use("NDIM") .. "(" .. c .. ")", KP, false end
  if attr == "dtype" then return "(" .. c .. ").dtype", KU, false end
  unsupported(F.M, n, "attribute '%s' is not supported in object mode", attr)
end

EXPR.Tuple = function(F, n)
  local codes, kinds = F:operands(list(n.elts))
  local k = KT
  for _, kd in ipairs(kinds) do
    if not within(kd, KNUM | KT) then k = KU end
  end
  return F:use("TUP") .. "(" .. concat(codes, ", ") .. ")", k, false
end
EXPR.List = EXPR.Tuple  -- lists only as literal shapes/arguments: tuples

---------------------------------------------------------------------------
-- arithmetic
---------------------------------------------------------------------------
-- kind of int op int for + - * // on the int parts
local function int_result(op, lk, rk)
  if op == "Add" or op == "Mult" or op == "FloorDiv" then
    if within(lk, KP) and within(rk, KP) then return KP end
    if op == "Mult" and within(lk, KM) and within(rk, KM) then return KP end
  end
  if op == "Mod" then
    if within(rk, KP) then return KP end
  end
  return KINT
end

local function arith_kind(op, lk, rk)
  local r = 0
  if has(lk, KINT) and has(rk, KINT) then r = r | int_result(op, lk & KINT, rk & KINT) end
  if (has(lk, KF) and has(rk, KNUM)) or (has(rk, KF) and has(lk, KNUM)) then r = r | KF end
  if (op == "Add" or op == "Mult") and (has(lk, KT) or has(rk, KT)) then r = r | KT end
  if r == 0 then r = KNUM end
  return r
end

local GENERIC = {
  Add = "ADD", Sub = "SUB", Mult = "MUL", Div = "DIV", FloorDiv = "FLOORDIV", Mod = "MOD",
  Pow = "POW", BitAnd = "BAND", BitOr = "BOR", BitXor = "BXOR", LShift = "SHL", RShift = "SHR",
}
local LUAOP = { Add = "+", Sub = "-", Mult = "*", BitAnd = "&", BitOr = "|", BitXor = "~" }

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

-- l op r, given translated operands; rnode for constant divisors/exponents
function Fn:binop(op, lc, lk, ls, rc, rk, rs, rnode, node)
  if op == "MatMult" then unsupported(self.M, node, "the @ operator is not supported in object mode") end
  local generic = GENERIC[op]
  local function call_generic(k)
    return self:use(generic) .. "(" .. lc .. ", " .. rc .. ")", k, false
  end
  if has(lk | rk, KU) then
    if op == "Div" then return call_generic(KF | KT | KU) end
    return call_generic(KALL & ~KZ)
  end
  local isbit = op == "BitAnd" or op == "BitOr" or op == "BitXor" or op == "LShift" or op == "RShift"
  if isbit then
    if within(lk, KB) and within(rk, KB) and (op == "BitAnd" or op == "BitOr" or op == "BitXor") then
      return call_generic(KB)
    end
    if not (within(lk, KINT) and within(rk, KINT)) then
      local k = KINT
      if has(lk, KB) and has(rk, KB) then k = k | KB end
      return call_generic(k)
    end
    local k = (within(lk, KP) and within(rk, KP)) and KP or KINT
    if LUAOP[op] then return "(" .. lc .. " " .. LUAOP[op] .. " " .. rc .. ")", k, false end
    local sh = rnode and const_int(rnode)
    if sh and sh >= 0 and sh < 63 then
      if op == "LShift" then return "(" .. lc .. " << " .. sh .. ")", KINT, false end
      if within(lk, KP) then return "(" .. lc .. " >> " .. sh .. ")", KP, false end
    end
    return call_generic(op == "RShift" and k or KINT)
  end
  lc, lk = self:numop(lc, lk)
  rc, rk = self:numop(rc, rk)
  if op == "Add" or op == "Sub" or op == "Mult" then
    return "(" .. lc .. " " .. LUAOP[op] .. " " .. rc .. ")", arith_kind(op, lk, rk), false
  end
  local rconst = rnode and const_num(rnode)
  if op == "Div" then
    local k = KF | (has(lk | rk, KT) and KT or 0)
    if rconst and rconst ~= 0 then return "(" .. lc .. " / " .. rc .. ")", k, false end
    if rs then
      return "(" .. rc .. " == 0 and " .. self:use("ZDIV") .. "() or " .. lc .. " / " .. rc .. ")", k, false
    end
    return call_generic(k)
  end
  if op == "FloorDiv" or op == "Mod" then
    local k = arith_kind(op, lk, rk)
    local sym = op == "FloorDiv" and "//" or "%"
    if within(lk, KINT | KT) and within(rk, KINT) then
      if rconst and rconst ~= 0 then return "(" .. lc .. " " .. sym .. " " .. rc .. ")", k, false end
      if rs then
        local z = self:use(op == "FloorDiv" and "ZINTDIV" or "ZINTMOD")
        return "(" .. rc .. " == 0 and " .. z .. "() or " .. lc .. " " .. sym .. " " .. rc .. ")", k, false
      end
      return call_generic(k)
    end
    if within(lk, KNUM) and within(rk, KNUM) and (within(lk, KF) or within(rk, KF)) then
      return self:use(op == "FloorDiv" and "FFLOORDIV" or "FMOD") .. "(" .. lc .. ", " .. rc .. ")", k, false
    end
    return call_generic(k)
  end
  if op == "Pow" then
    local e = rnode and const_int(rnode)
    if e and e >= 0 and within(lk, KINT) then
      local k = (within(lk, KP) or e % 2 == 0) and KP or KINT
      if e == 1 then return lc, lk, ls end
      if e == 2 and ls then return "(" .. lc .. " * " .. lc .. ")", k, false end
      return self:use("IPOW") .. "(" .. lc .. ", " .. e .. ")", k, false
    end
    if within(lk, KNUM) and within(rk, KNUM) and (within(lk, KF) or within(rk, KF)) then
      return "(" .. lc .. " ^ " .. rc .. ")", KF, false
    end
    local k = KF
    if has(lk, KINT) and has(rk, KINT) then k = k | KINT end
    return call_generic(k)
  end
  unsupported(self.M, node, "operator %s is not supported in object mode", op)
end

EXPR.BinOp = function(F, n)
  local codes, kinds, simples = F:operands({ n.left, n.right })
  return F:binop(n.op, codes[1], kinds[1], simples[1], codes[2], kinds[2], simples[2], n.right, n)
end

EXPR.UnaryOp = function(F, n)
  local op = n.op
  if op == "Not" then
    local c = F:cond(n.operand)
    return "(not " .. c .. ")", KB, false
  end
  local c, k = F:expr(n.operand)
  if has(k, KU) then
    local h = op == "USub" and "NEG" or op == "UAdd" and "POS" or "INVERT"
    return F:use(h) .. "(" .. c .. ")", KALL & ~(KZ | KB), false
  end
  if op == "Invert" then
    if within(k, KINT) then return "(~" .. c .. ")", KINT, false end
    return F:use("INVERT") .. "(" .. c .. ")", KINT, false
  end
  c, k = F:numop(c, k)
  if op == "UAdd" then return c, k, false end
  -- USub
  local nk = k & (KF | KT)
  if has(k, KP) then nk = nk | KINT end
  if has(k, KM) then nk = nk | KP end
  if n.operand.tag == "Constant" and type(n.operand.value) == "number" then
    local c, k = F:const(-n.operand.value, n)
    return c, k, true
  end
  return "(- " .. c .. ")", nk, false
end

---------------------------------------------------------------------------
-- comparisons, and/or, conditional expressions
---------------------------------------------------------------------------
local CMP = { Eq = "==", NotEq = "~=", Lt = "<", LtE = "<=", Gt = ">", GtE = ">=" }
local CMP_GENERIC = { Eq = "EQ", NotEq = "NE", Lt = "LT", LtE = "LE", Gt = "GT", GtE = "GE" }

function Fn:compare(op, lc, lk, rc, rk, node)
  if op == "Is" or op == "IsNot" then
    return "(" .. lc .. (op == "Is" and " == " or " ~= ") .. rc .. ")"
  end
  if op == "In" or op == "NotIn" then
    local c = self:use("IN") .. "(" .. rc .. ", " .. lc .. ")"
    return op == "In" and c or "(not " .. c .. ")"
  end
  local sym = CMP[op]
  if not sym then unsupported(self.M, node, "comparison %s is not supported in object mode", op) end
  if has(lk | rk, KU) then
    return self:use(CMP_GENERIC[op]) .. "(" .. lc .. ", " .. rc .. ")"
  end
  if has(lk | rk, KB) then
    local eqop = op == "Eq" or op == "NotEq"
    if not (eqop and within(lk, KB | KZ) and within(rk, KB | KZ)) then
      lc = self:numop(lc, lk)
      rc = self:numop(rc, rk)
    end
  end
  return "(" .. lc .. " " .. sym .. " " .. rc .. ")"
end

EXPR.Compare = function(F, n)
  local ops, comps = n.ops, n.comparators
  if #ops == 1 then
    local codes, kinds = F:operands({ n.left, comps[1] })
    return F:compare(ops[1], codes[1], kinds[1], codes[2], kinds[2], n), KB, false
  end
  -- a < b < c: each operand evaluated once, the later ones only while true
  local parts = { { F:isolated(F.expr, n.left) } }
  for i, c in ipairs(comps) do parts[i + 1] = { F:isolated(F.expr, c) } end
  local inline = true
  for i, p in ipairs(parts) do
    if #p[4] > 0 or (i > 1 and i < #parts and not p[3]) then inline = false end
  end
  if inline then
    local terms = {}
    for i, op in ipairs(ops) do
      terms[i] = F:compare(op, parts[i][1], parts[i][2], parts[i + 1][1], parts[i + 1][2], n)
    end
    return "(" .. concat(terms, " and ") .. ")", KB, false
  end
  local r = F:temp()
  F:push_pre("local " .. r)
  F:append_pre(parts[1][4])
  local prev_c, prev_k = parts[1][1], parts[1][2]
  if not parts[1][3] then prev_c = F:spill(prev_c) end
  local depth = 0
  for i, op in ipairs(ops) do
    local p = parts[i + 1]
    F:append_pre(p[4])
    local cur = p[1]
    if i < #ops and not p[3] then cur = F:spill(cur) end
    F:push_pre(r .. " = " .. F:compare(op, prev_c, prev_k, cur, p[2], n))
    if i < #ops then
      F:push_pre("if " .. r .. " then")
      depth = depth + 1
    end
    prev_c, prev_k = cur, p[2]
  end
  for _ = 1, depth do F:push_pre("end") end
  return r, KB, true
end

-- Python's `a and b` / `a or b`, returning an operand
EXPR.BoolOp = function(F, n)
  local vals = n.values
  local parts = {}
  for i, v in ipairs(vals) do parts[i] = { F:isolated(F.expr, v) } end
  local kind = 0
  local inline = true
  for i, p in ipairs(parts) do
    kind = kind | p[2]
    if i > 1 and #p[4] > 0 then inline = false end
    if i < #parts and not within(p[2], KB | KZ) then inline = false end
  end
  local lop = n.op == "And" and " and " or " or "
  if inline then
    F:append_pre(parts[1][4])
    local codes = {}
    for i, p in ipairs(parts) do codes[i] = p[1] end
    return "(" .. concat(codes, lop) .. ")", kind, false
  end
  local t = F:temp()
  F:append_pre(parts[1][4])
  F:push_pre("local " .. t .. " = " .. parts[1][1])
  local depth = 0
  for i = 2, #parts do
    local test = F:truthy(t, parts[i - 1][2], true)
    if n.op == "Or" then test = "not " .. test end
    F:push_pre("if " .. test .. " then")
    depth = depth + 1
    F:append_pre(parts[i][4])
    F:push_pre(t .. " = " .. parts[i][1])
  end
  for _ = 1, depth do F:push_pre("end") end
  return t, kind, true
end

EXPR.IfExp = function(F, n)
  local tc, _, _, tp = F:isolated(F.cond, n.test)
  local bc, bk, _, bp = F:isolated(F.expr, n.body)
  local ec, ek, _, ep = F:isolated(F.expr, n.orelse)
  F:append_pre(tp)
  if #bp == 0 and #ep == 0 and not has(bk, KB | KZ) then
    return "(" .. tc .. " and " .. bc .. " or " .. ec .. ")", bk | ek, false
  end
  local t = F:temp()
  F:push_pre("local " .. t)
  F:push_pre("if " .. tc .. " then")
  F:append_pre(bp)
  F:push_pre(t .. " = " .. bc)
  F:push_pre("else")
  F:append_pre(ep)
  F:push_pre(t .. " = " .. ec)
  F:push_pre("end")
  return t, bk | ek, true
end

-- condition context: a Lua expression whose Lua truth is the Python truth
function Fn:cond(n)
  if n.tag == "BoolOp" then
    local parts = {}
    local inline = true
    for i, v in ipairs(n.values) do
      parts[i] = { self:isolated(self.cond, v) }
      if i > 1 and #parts[i][4] > 0 then inline = false end
    end
    local lop = n.op == "And" and " and " or " or "
    self:append_pre(parts[1][4])
    if inline then
      local codes = {}
      for i, p in ipairs(parts) do codes[i] = p[1] end
      return "(" .. concat(codes, lop) .. ")", KB, false
    end
    local t = self:temp()
    self:push_pre("local " .. t .. " = " .. parts[1][1])
    local depth = 0
    for i = 2, #parts do
      self:push_pre((n.op == "And" and "if " or "if not ") .. t .. " then")
      depth = depth + 1
      self:append_pre(parts[i][4])
      self:push_pre(t .. " = " .. parts[i][1])
    end
    for _ = 1, depth do self:push_pre("end") end
    return t, KB, true
  end
  if n.tag == "UnaryOp" and n.op == "Not" then
    return "(not " .. self:cond(n.operand) .. ")", KB, false
  end
  local c, k, s = self:expr(n)
  return self:truthy(c, k, s), KB, false
end

---------------------------------------------------------------------------
-- subscripts
---------------------------------------------------------------------------
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

-- the translated pieces of a[...] (container and indices, in order)
function Fn:subscript_parts(n, extra_first)
  local nodes = index_nodes(n.slice)
  local all = {}
  if extra_first then all[1] = extra_first end
  all[#all + 1] = n.value
  for _, x in ipairs(nodes) do all[#all + 1] = x end
  return nodes, all
end

-- slice specs: each axis one SI(i) or SL(lo, hi, step) argument
function Fn:slice_args(nodes)
  local flat = {}
  local shape = {}
  for _, x in ipairs(nodes) do
    if x.tag == "Slice" then
      local parts = {}
      for _, f in ipairs({ "lower", "upper", "step" }) do
        if x[f] then flat[#flat + 1] = x[f]; parts[#parts + 1] = #flat else parts[#parts + 1] = false end
      end
      shape[#shape + 1] = { slice = true, parts = parts }
    else
      flat[#flat + 1] = x
      shape[#shape + 1] = { slice = false, idx = #flat }
    end
  end
  local codes = self:operands(flat)
  local args = {}
  for i, s in ipairs(shape) do
    if s.slice then
      local a = {}
      for j = 1, 3 do a[j] = s.parts[j] and codes[s.parts[j]] or "nil" end
      args[i] = self:use("SL") .. "(" .. concat(a, ", ") .. ")"
    else
      args[i] = self:use("SI") .. "(" .. codes[s.idx] .. ")"
    end
  end
  return args
end

EXPR.Subscript = function(F, n)
  local v, sl = n.value, n.slice
  -- x.shape[k]
  if v.tag == "Attribute" and v.attr == "shape" and not F:qualname(v) then
    local k = const_int(sl)
    if k then
      local c = F:expr(v.value)
      return F:use("SHAPE") .. "(" .. c .. ", " .. lit_int(k) .. ")", KP, false
    end
  end
  local nodes = index_nodes(sl)
  if has_slice(nodes) then
    local c, k, s = F:expr(v)
    if not s then c = F:spill(c) end
    local args = F:slice_args(nodes)
    F.M.used.RT = true
    local ck = has(k, KU) and KU or (k & (KT | KU))
    if ck == 0 then ck = KU end
    return F:use("SLICE") .. "(_RT, " .. c .. ", " .. sformat("%q", pos_of(F.M, n)) .. ", "
      .. concat(args, ", ") .. ")", ck, false
  end
  local all = { v }
  for _, x in ipairs(nodes) do all[#all + 1] = x end
  local codes, kinds, simples = F:operands(all)
  local ek = elem_kind(kinds[1])
  local nonneg = true
  for i = 2, #codes do
    if not within(kinds[i], KP) or kinds[i] == 0 then nonneg = false end
  end
  local idx = {}
  if nonneg then
    for i = 2, #codes do idx[i - 1] = plus1(codes[i]) end
    return recv(codes[1], simples[1]) .. ":get(" .. concat(idx, ", ") .. ")", ek, false
  end
  for i = 2, #codes do idx[i - 1] = codes[i] end
  local h = #idx == 1 and "AGET1" or #idx == 2 and "AGET2" or "AGETN"
  return F:use(h) .. "(" .. codes[1] .. ", " .. concat(idx, ", ") .. ")", ek, false
end

---------------------------------------------------------------------------
-- calls
---------------------------------------------------------------------------
local BUILTIN = {}  -- qualified name -> handler(F, n, args, kw) -> code, kind, simple

-- positional args plus keywords named in `names` (in that order)
local function bind_args(F, n, qual, names, nreq)
  local args = {}
  for i, a in ipairs(list(n.args)) do
    if a.tag == "Starred" then unsupported(F.M, a, "*args is not supported in object mode") end
    args[i] = a
  end
  for _, kw in ipairs(list(n.keywords)) do
    local pos
    for i, nm in ipairs(names) do if nm == kw.arg then pos = i end end
    if not pos then
      fail(F.M, n, "TypeError", "%s() got an unexpected keyword argument '%s'", qual, tostring(kw.arg))
    end
    if args[pos] then fail(F.M, n, "TypeError", "%s() got multiple values for argument '%s'", qual, kw.arg) end
    args[pos] = kw.value
  end
  local count = 0
  for i = 1, #names do if args[i] then count = i end end
  if #list(n.args) > #names then
    fail(F.M, n, "TypeError", "%s() takes at most %d arguments (%d given)", qual, #names, #list(n.args))
  end
  for i = 1, (nreq or 0) do
    if not args[i] then fail(F.M, n, "TypeError", "%s() missing required argument '%s'", qual, names[i]) end
  end
  return args, count
end

-- translate bound args (holes stay nil); returns codes, kinds, simples
function Fn:bound_operands(args, count)
  local nodes, where = {}, {}
  for i = 1, count do
    if args[i] then nodes[#nodes + 1] = args[i]; where[#nodes] = i end
  end
  local c, k, s = self:operands(nodes)
  local codes, kinds, simples = {}, {}, {}
  for j, i in pairs(where) do codes[i], kinds[i], simples[i] = c[j], k[j], s[j] end
  return codes, kinds, simples
end

-- math functions: name -> {nargs, result kind, lua binding for number args}
local MATH = {
  sqrt = { 1, KF, "L_sqrt" }, exp = { 1, KF, "L_exp" }, sin = { 1, KF, "L_sin" },
  cos = { 1, KF, "L_cos" }, tan = { 1, KF, "L_tan" }, asin = { 1, KF, "L_asin" },
  acos = { 1, KF, "L_acos" }, atan = { 1, KF, "L_atan" }, atan2 = { 2, KF, "L_atan" },
  log10 = { 1, KF }, log2 = { 1, KF }, log1p = { 1, KF }, expm1 = { 1, KF },
  sinh = { 1, KF }, cosh = { 1, KF }, tanh = { 1, KF }, asinh = { 1, KF },
  acosh = { 1, KF }, atanh = { 1, KF }, floor = { 1, KINT }, ceil = { 1, KINT },
  trunc = { 1, KINT }, fabs = { 1, KF }, hypot = { 2, KF }, copysign = { 2, KF },
  pow = { 2, KF }, erf = { 1, KF }, erfc = { 1, KF }, gamma = { 1, KF },
  lgamma = { 1, KF }, isnan = { 1, KB }, isinf = { 1, KB }, isfinite = { 1, KB },
  degrees = { 1, KF }, radians = { 1, KF }, fmod = { 2, KF },
}

local function math_handler(name, spec)
  return function(F, n)
    local names = spec[1] == 1 and { "x" } or { "x", "y" }
    local args, count = bind_args(F, n, "math." .. name, names, spec[1])
    local codes, kinds = F:bound_operands(args, count)
    local allnum = true
    for i = 1, count do
      codes[i], kinds[i] = F:numop(codes[i], kinds[i])
      if not within(kinds[i], KNUM) then allnum = false end
    end
    local fn = (allnum and spec[3]) and F:use(spec[3]) or F:use("M_" .. name)
    return fn .. "(" .. concat(codes, ", ") .. ")", spec[2], false
  end
end

for name, spec in pairs(MATH) do BUILTIN["math." .. name] = math_handler(name, spec) end

BUILTIN["math.log"] = function(F, n)
  local args, count = bind_args(F, n, "math.log", { "x", "base" }, 1)
  local codes, kinds = F:bound_operands(args, count)
  local allnum = true
  for i = 1, count do
    codes[i], kinds[i] = F:numop(codes[i], kinds[i])
    if not within(kinds[i], KNUM) then allnum = false end
  end
  if count == 1 and allnum then return F:use("L_log") .. "(" .. codes[1] .. ")", KF, false end
  return F:use("M_log") .. "(" .. concat(codes, ", ") .. ")", KF, false
end

-- numpy spellings of the math functions (scalars)
local NP_ALIAS = {
  sqrt = "sqrt", exp = "exp", log = "log", log10 = "log10", log2 = "log2", log1p = "log1p",
  expm1 = "expm1", sin = "sin", cos = "cos", tan = "tan", arcsin = "asin", arccos = "acos",
  arctan = "atan", arctan2 = "atan2", asin = "asin", acos = "acos", atan = "atan",
  atan2 = "atan2", sinh = "sinh", cosh = "cosh", tanh = "tanh", arcsinh = "asinh",
  arccosh = "acosh", arctanh = "atanh", asinh = "asinh", acosh = "acosh", atanh = "atanh",
  fabs = "fabs", hypot = "hypot", copysign = "copysign", isnan = "isnan", isinf = "isinf",
  isfinite = "isfinite", degrees = "degrees", radians = "radians", rad2deg = "degrees",
  deg2rad = "radians", fmod = "fmod",
}
for np, m in pairs(NP_ALIAS) do
  BUILTIN["numpy." .. np] = BUILTIN["math." .. m] or math_handler(m, MATH[m])
end

local function np_unary(helper, kindf)
  return function(F, n)
    local args, count = bind_args(F, n, "numpy", { "x" }, 1)
    local codes, kinds = F:bound_operands(args, count)
    return F:use(helper) .. "(" .. codes[1] .. ")", kindf(kinds[1]), false
  end
end
BUILTIN["numpy.floor"] = np_unary("NP_FLOOR", function() return KF end)
BUILTIN["numpy.ceil"] = np_unary("NP_CEIL", function() return KF end)
BUILTIN["numpy.trunc"] = np_unary("NP_TRUNC", function() return KF end)
BUILTIN["numpy.rint"] = np_unary("NP_RINT", function() return KF end)
BUILTIN["numpy.sign"] = np_unary("NP_SIGN", function(k) return has(k, KF) and (KF | KINT) or KINT end)

local function np_binary(helper)
  return function(F, n)
    local args, count = bind_args(F, n, "numpy", { "x1", "x2" }, 2)
    local codes, kinds = F:bound_operands(args, count)
    local k = (has(kinds[1] | kinds[2], KF) and KF or 0) | (has(kinds[1] | kinds[2], KINT | KB) and KINT or 0)
    return F:use(helper) .. "(" .. codes[1] .. ", " .. codes[2] .. ")", k, false
  end
end
BUILTIN["numpy.maximum"] = np_binary("NP_MAXIMUM")
BUILTIN["numpy.minimum"] = np_binary("NP_MINIMUM")
BUILTIN["numpy.power"] = function(F, n)
  local args, count = bind_args(F, n, "numpy.power", { "x1", "x2" }, 2)
  local codes, kinds, simples = F:bound_operands(args, count)
  return F:binop("Pow", codes[1], kinds[1], simples[1], codes[2], kinds[2], simples[2], args[2], n)
end
BUILTIN["numpy.square"] = function(F, n)
  local args, count = bind_args(F, n, "numpy.square", { "x" }, 1)
  local codes, kinds, simples = F:bound_operands(args, count)
  local c, k = F:numop(codes[1], kinds[1])
  if not simples[1] then c = F:spill(c) end
  return "(" .. c .. " * " .. c .. ")", arith_kind("Mult", k, k), false
end

-- abs, min, max, len, int, float, bool, round
local function abs_handler(F, n)
  local args, count = bind_args(F, n, "abs", { "x" }, 1)
  local codes, kinds = F:bound_operands(args, count)
  local c, k = F:numop(codes[1], kinds[1])
  if within(k, KNUM) then
    local rk = (has(k, KINT) and KP or 0) | (k & KF)
    return F:use("mabs") .. "(" .. c .. ")", rk, false
  end
  return F:use("ABS") .. "(" .. codes[1] .. ")", KNUM, false
end
BUILTIN["builtins.abs"] = abs_handler
BUILTIN["numpy.abs"] = abs_handler
BUILTIN["numpy.absolute"] = abs_handler

local function minmax(which)
  return function(F, n)
    if #list(n.keywords) > 0 then unsupported(F.M, n, "%s() keywords are not supported in object mode", which) end
    local nodes = list(n.args)
    if #nodes == 0 then fail(F.M, n, "TypeError", "%s expected at least 1 argument, got 0", which) end
    local codes, kinds = F:operands(nodes)
    local k = 0
    local allnum = #nodes > 1
    for i = 1, #codes do
      k = k | kinds[i]
      if not within(kinds[i], KNUM) then allnum = false end
    end
    if allnum then
      return F:use(which == "min" and "mmin" or "mmax") .. "(" .. concat(codes, ", ") .. ")", k, false
    end
    if #nodes == 1 then k = elem_kind(k) end
    return F:use(which == "min" and "MIN" or "MAX") .. "(" .. concat(codes, ", ") .. ")", k, false
  end
end
BUILTIN["builtins.min"] = minmax("min")
BUILTIN["builtins.max"] = minmax("max")

BUILTIN["builtins.len"] = function(F, n)
  local args, count = bind_args(F, n, "len", { "obj" }, 1)
  local codes = F:bound_operands(args, count)
  return F:use("LEN") .. "(" .. codes[1] .. ")", KP, false
end

local function int_handler(F, n)
  local args, count = bind_args(F, n, "int", { "x" }, 1)
  local codes, kinds = F:bound_operands(args, count)
  local c, k = F:numop(codes[1], kinds[1])
  if within(k, KINT) then return c, k, false end
  return F:use("INT") .. "(" .. codes[1] .. ")", within(k, KP | KF) and not has(k, KF) and KP or KINT, false
end
BUILTIN["builtins.int"] = int_handler

local function float_handler(F, n)
  local args, count = bind_args(F, n, "float", { "x" }, 1)
  local codes, kinds = F:bound_operands(args, count)
  local c, k = F:numop(codes[1], kinds[1])
  if within(k, KF) then return c, KF, false end
  if within(k, KNUM) then return "(" .. c .. " * 1.0)", KF, false end
  return F:use("FLOAT") .. "(" .. codes[1] .. ")", KF, false
end
BUILTIN["builtins.float"] = float_handler

BUILTIN["builtins.bool"] = function(F, n)
  local args, count = bind_args(F, n, "bool", { "x" }, 1)
  if count == 0 then return "false", KB, true end
  return "(not not " .. F:cond(args[1]) .. ")", KB, false
end

BUILTIN["builtins.round"] = function(F, n)
  local args, count = bind_args(F, n, "round", { "number", "ndigits" }, 1)
  local codes, kinds = F:bound_operands(args, count)
  if count == 1 then
    if within(kinds[1], KINT) then return codes[1], kinds[1], false end
    return F:use("ROUND") .. "(" .. codes[1] .. ")", KINT, false
  end
  local k = has(kinds[1], KF) and KF or KINT
  return F:use("ROUND") .. "(" .. codes[1] .. ", " .. codes[2] .. ")", k, false
end

-- numpy scalar types called as functions: casts
for name, dt in pairs(DTYPES) do
  BUILTIN["numpy." .. name] = function(F, n)
    local args, count = bind_args(F, n, "numpy." .. name, { "x" }, 1)
    local codes, kinds = F:bound_operands(args, count)
    if dt == "float64" then
      local c, k = F:numop(codes[1], kinds[1])
      if within(k, KNUM) then return "(" .. c .. " * 1.0)", KF, false end
    end
    if dt == "int64" then return int_handler(F, n) end
    local k = dt:match("^float") and KF or dt == "bool" and KB or dt:match("^u") and KP or KINT
    return F:use("CAST") .. "." .. dt .. "(" .. codes[1] .. ")", k, false
  end
end

BUILTIN["builtins.print"] = function(F, n)
  local codes = F:operands(list(n.args))
  return F:use("PRINT") .. "(" .. concat(codes, ", ") .. ")", KZ, false
end

-- a dtype argument: a literal name where the node is one, else its value
function Fn:dtype_arg(node)
  if node == nil then return nil end
  if node.tag == "Constant" and type(node.value) == "string" then
    local d = DTYPES[node.value] or (node.value == "float" and "float64") or (node.value == "int" and "int64")
    if not d then unsupported(self.M, node, "unknown dtype '%s'", node.value) end
    return sformat("%q", d)
  end
  local q = (node.tag == "Name" or node.tag == "Attribute") and self:qualname(node)
  if q then
    local c = self:builtin_value(q, node)
    return c
  end
  return (self:expr(node))
end

local function dtype_kind(code)
  if code == nil then return KT end
  if code == '"bool"' then return KU end
  if code:match('^"') then return KT end
  return KU
end

-- np.empty/zeros/ones(shape, dtype=float64)
local function ctor(name)
  return function(F, n)
    local args = bind_args(F, n, "numpy." .. name, { "shape", "dtype" }, 1)
    local sc = F:expr(args[1])
    if not args[2] then
      F.M.used.RT = true
      return "_RT." .. name .. "(" .. F:use("SHAPE_ARG") .. "(" .. sc .. "), \"float64\")", KT, false
    end
    local dc = F:dtype_arg(args[2])
    F.M.used.RT = true
    return "_RT." .. name .. "(" .. F:use("SHAPE_ARG") .. "(" .. sc .. "), " .. dc .. ")", dtype_kind(dc), false
  end
end
BUILTIN["numpy.empty"] = ctor("empty")
BUILTIN["numpy.zeros"] = ctor("zeros")
BUILTIN["numpy.ones"] = ctor("ones")

-- value kinds -> dtype code for np.full / arange
local function value_dtype(k)
  if within(k, KINT) then return '"int64"' end
  if within(k, KB) then return '"bool"' end
  return '"float64"'
end

BUILTIN["numpy.full"] = function(F, n)
  local args = bind_args(F, n, "numpy.full", { "shape", "fill_value", "dtype" }, 2)
  local codes, kinds = F:operands({ args[1], args[2] })
  local dc = args[3] and F:dtype_arg(args[3]) or nil
  F.M.used.RT = true
  if dc == nil then
    if not within(kinds[2], KNUM | KB) then
      unsupported(F.M, n, "np.full needs a dtype= unless the fill value is a number")
    end
    dc = value_dtype(kinds[2])
  end
  return "_RT.full(" .. F:use("SHAPE_ARG") .. "(" .. codes[1] .. "), " .. codes[2] .. ", " .. dc .. ")",
    dtype_kind(dc), false
end

-- np.empty_like/zeros_like/ones_like(a, dtype=a.dtype)
local function like(name)
  return function(F, n)
    local args = bind_args(F, n, "numpy." .. name .. "_like", { "a", "dtype" }, 1)
    local c, k, s = F:expr(args[1])
    if not s then c = F:spill(c) end
    local dc = args[2] and F:dtype_arg(args[2]) or (c .. ".dtype")
    F.M.used.RT = true
    local rk = args[2] and dtype_kind(dc) or (has(k, KU) and KU or KT)
    return "_RT." .. name .. "(" .. F:use("COPY_SHAPE") .. "(" .. c .. "), " .. dc .. ")", rk, false
  end
end
BUILTIN["numpy.empty_like"] = like("empty")
BUILTIN["numpy.zeros_like"] = like("zeros")
BUILTIN["numpy.ones_like"] = like("ones")
BUILTIN["numpy.full_like"] = function(F, n)
  local args = bind_args(F, n, "numpy.full_like", { "a", "fill_value", "dtype" }, 2)
  local codes, kinds, simples = F:operands({ args[1], args[2] })
  local c = codes[1]
  if not simples[1] then c = F:spill(c) end
  local dc = args[3] and F:dtype_arg(args[3]) or (c .. ".dtype")
  F.M.used.RT = true
  return "_RT.full(" .. F:use("COPY_SHAPE") .. "(" .. c .. "), " .. codes[2] .. ", " .. dc .. ")",
    args[3] and dtype_kind(dc) or (has(kinds[1], KU) and KU or KT), false
end

-- np.arange([start,] stop[, step], dtype=None)
BUILTIN["numpy.arange"] = function(F, n)
  local pos = list(n.args)
  local dnode
  for _, kw in ipairs(list(n.keywords)) do
    if kw.arg == "dtype" then dnode = kw.value
    else unsupported(F.M, n, "np.arange keyword '%s' is not supported in object mode", tostring(kw.arg)) end
  end
  if #pos == 0 or #pos > 3 then fail(F.M, n, "TypeError", "arange() takes 1 to 3 positional arguments") end
  local codes, kinds = F:operands(pos)
  local start, stop, step = "0", codes[1], "1"
  if #pos >= 2 then start, stop = codes[1], codes[2] end
  if #pos == 3 then step = codes[3] end
  local k = 0
  for _, kd in ipairs(kinds) do k = k | kd end
  local dc = dnode and F:dtype_arg(dnode) or value_dtype(k)
  F.M.used.RT = true
  return "_RT.arange(" .. start .. ", " .. stop .. ", " .. step .. ", " .. dc .. ")", dtype_kind(dc), false
end

-- methods of arrays: name -> result kind given the receiver's kind
local METHODS = {
  sum = function(k) return has(k, KU) and KALL or KNUM end,
  min = function(k) return has(k, KU) and KALL or KNUM end,
  max = function(k) return has(k, KU) and KALL or KNUM end,
  mean = function() return KF end,
  prod = function(k) return has(k, KU) and KALL or KNUM end,
  copy = function(k) return k & (KT | KU) end,
  fill = function() return KZ end,
  astype = function() return KU end,
  reshape = function(k) return k & (KT | KU) end,
  ravel = function(k) return k & (KT | KU) end,
  flatten = function(k) return k & (KT | KU) end,
}

function Fn:method_call(n)
  local f = n.func
  local name = f.attr
  local kf = METHODS[name]
  if not kf then unsupported(self.M, n, "method '%s' is not supported in object mode", name) end
  if #list(n.keywords) > 0 then unsupported(self.M, n, "keywords in method calls are not supported in object mode") end
  local nodes = { f.value }
  for _, a in ipairs(list(n.args)) do nodes[#nodes + 1] = a end
  local codes, kinds, simples = self:operands(nodes)
  local args = {}
  for i = 2, #codes do args[i - 1] = codes[i] end
  if name == "astype" and n.args[1] then
    args[1] = self:dtype_arg(n.args[1])
  elseif name == "reshape" then
    if #args == 1 then
      args = { self:use("SHAPE_ARG") .. "(" .. args[1] .. ")" }
    else
      args = { "{" .. concat(args, ", ") .. "}" }
    end
  end
  local k = kf(kinds[1])
  if k == 0 then k = KU end
  return recv(codes[1], simples[1]) .. ":" .. name .. "(" .. concat(args, ", ") .. ")", k, false
end

-- call of a def of the module: its fast variant when no argument can be a
-- bool (or hold bools), else its checking entry
function Fn:def_call(n, d)
  local M = self.M
  local info = M:get_info(d.name)
  local args = bind_args(self, n, d.name, info.params, 0)
  local codes, kinds = self:bound_operands(args, #info.params)
  local fast = true
  for i = 1, #info.params do
    local k
    if args[i] then
      k = kinds[i]
    else
      if info.defaults[i] == nil then
        fail(M, n, "TypeError", "%s() missing 1 required positional argument: '%s'", d.name, info.params[i])
      end
      codes[i] = "nil"
      k = 0
    end
    if not within(k, info.fastk[i]) then fast = false end
  end
  for i = 1, #info.params do codes[i] = codes[i] or "nil" end
  local last = #info.params
  while last > 0 and codes[last] == "nil" and not args[last] do last = last - 1 end
  local argl = concat(codes, ", ", 1, last)
  M:need_def(d.name)
  local rk = M.ret[d.name]
  if fast then
    return "_f_" .. d.name .. "(" .. argl .. ")", rk.f, false
  end
  return "_e_" .. d.name .. "(" .. argl .. ")", rk.f | rk.g, false
end

EXPR.Call = function(F, n)
  local f = n.func
  local M = F.M
  if f.tag == "Name" then
    local id = f.id
    if F.locals[id] then
      local codes = F:operands(list(n.args))
      if #list(n.keywords) > 0 then unsupported(M, n, "keyword arguments to a value are not supported in object mode") end
      return F:use("PACKRET") .. "(" .. mangle(id) .. "(" .. concat(codes, ", ") .. "))", KALL, false
    end
    if M.defs[id] then return F:def_call(n, M.defs[id]) end
    local found, v = M.env_get(id)
    if found and not M.aliases[id] and not BUILTIN_NAMES[id] then
      if type(v) ~= "function" and not (getmetatable(v) and getmetatable(v).__call) then
        fail(M, n, "TypeError", "'%s' object is not callable", type(v))
      end
      local codes = F:operands(list(n.args))
      if #list(n.keywords) > 0 then unsupported(M, n, "keyword arguments to a Lua function are not supported in object mode") end
      return F:use("PACKRET") .. "(" .. M:upvalue(id, v) .. "(" .. concat(codes, ", ") .. "))", KALL, false
    end
  end
  local q = F:qualname(f)
  if q then
    local h = BUILTIN[q]
    if h then return h(F, n) end
    if q:match("^builtins%.") and not BUILTIN_NAMES[q:sub(10)] then
      fail(M, f, "NameError", "name '%s' is not defined", q:sub(10))
    end
    unsupported(M, n, "%s() is not supported in object mode", q:gsub("^builtins%.", ""):gsub("^numpy%.", "np."))
  end
  if f.tag == "Attribute" then return F:method_call(n) end
  unsupported(M, n, "this call is not supported in object mode")
end


---------------------------------------------------------------------------
-- statements
---------------------------------------------------------------------------
local STMT = {}

-- run fn(); pre-statements it made go before its output, in a do-block
function Fn:with_pre(fn)
  local saved = self.pre
  self.pre = {}
  local mark = #self.out
  self.ind = self.ind + 1
  fn()
  self.ind = self.ind - 1
  local pre = self.pre
  self.pre = saved
  if #pre == 0 then
    -- undo the extra indentation
    for i = mark + 1, #self.out do self.out[i] = self.out[i]:sub(3) end
    return
  end
  local ins = { string.rep("  ", self.ind) .. "do" }
  for _, l in ipairs(pre) do ins[#ins + 1] = string.rep("  ", self.ind + 1) .. l end
  local body = table.move(self.out, mark + 1, #self.out, 1, {})
  for i = #self.out, mark + 1, -1 do self.out[i] = nil end
  for _, l in ipairs(ins) do self.out[#self.out + 1] = l end
  for _, l in ipairs(body) do self.out[#self.out + 1] = l end
  self:emit("end")
end

function Fn:block(stmts)
  for _, s in ipairs(list(stmts)) do self:stmt(s) end
end

function Fn:stmt(s)
  local f = STMT[s.tag]
  if not f then unsupported(self.M, s, "%s are not supported in object mode", NODE_WORDS[s.tag] or (s.tag .. " statements")) end
  f(self, s)
end

function Fn:set_kind(id, k)
  local old = self.vk[id] or 0
  local new = old | k
  if new ~= old then
    self.vk[id] = new
    self.changed = true
  end
end

-- store the value `code` (of kind k, evaluated once) into target t
function Fn:store(t, code, k, simple)
  if t.tag == "Name" then
    if not self.locals[t.id] then unsupported(self.M, t, "assignment to '%s'", t.id) end
    self:set_kind(t.id, k)
    self:emit(mangle(t.id) .. " = " .. code)
  elseif t.tag == "Subscript" then
    self:with_pre(function()
      local nodes = index_nodes(t.slice)
      if has_slice(nodes) then
        if not simple then code = self:spill(code) end
        local c, _, s = self:expr(t.value)
        if not s then c = self:spill(c) end
        local args = self:slice_args(nodes)
        self.M.used.RT = true
        self:emit(self:use("SETSLICE") .. "(_RT, " .. c .. ", " .. sformat("%q", pos_of(self.M, t)) .. ", "
          .. code .. ", " .. concat(args, ", ") .. ")")
        return
      end
      local all = { t.value }
      for _, x in ipairs(nodes) do all[#all + 1] = x end
      local codes, kinds, simples, p = self:isolated(self.operands, all)
      -- Python evaluates the value before the container and the indices:
      -- keep that order where the latter are more than names and constants
      local reorder = #p > 0
      for i = 1, #codes do if not simples[i] then reorder = true end end
      if reorder and not simple then code = self:spill(code) end
      self:append_pre(p)
      self:emit_aset(codes, kinds, simples, code)
    end)
  elseif t.tag == "Tuple" or t.tag == "List" then
    local elts = t.elts
    local temps = {}
    for i = 1, #elts do temps[i] = self:temp() end
    self:emit("do")
    self.ind = self.ind + 1
    self:emit("local " .. concat(temps, ", ") .. " = " .. self:use("UNPACK") .. "(" .. code .. ", " .. #elts .. ")")
    local ek = elem_kind(k)
    for i, e in ipairs(elts) do self:store(e, temps[i], ek, true) end
    self.ind = self.ind - 1
    self:emit("end")
  elseif t.tag == "Starred" then
    unsupported(self.M, t, "starred assignment is not supported in object mode")
  else
    unsupported(self.M, t, "assignment to %s is not supported in object mode", t.tag)
  end
end

-- a[i, ...] = v given the container and index codes
function Fn:emit_aset(codes, kinds, simples, vcode)
  local nonneg = true
  for i = 2, #codes do
    if not within(kinds[i], KP) or kinds[i] == 0 then nonneg = false end
  end
  local idx = {}
  if nonneg then
    local r = codes[1]
    if not (simples[1] and r:match("^[%a_][%w_]*$")) then r = self:spill(r) end
    for i = 2, #codes do idx[i - 1] = plus1(codes[i]) end
    self:emit(r .. ":set(" .. concat(idx, ", ") .. ", " .. vcode .. ")")
    return
  end
  for i = 2, #codes do idx[i - 1] = codes[i] end
  local h = #idx == 1 and "ASET1" or #idx == 2 and "ASET2" or "ASETN"
  self:emit(self:use(h) .. "(" .. codes[1] .. ", " .. concat(idx, ", ") .. ", " .. vcode .. ")")
end

STMT.Assign = function(F, s)
  F:with_pre(function()
    local targets, v = s.targets, s.value
    -- a, b = x, y with a literal tuple: no tuple built
    if #targets == 1 and (targets[1].tag == "Tuple" or targets[1].tag == "List")
      and (v.tag == "Tuple" or v.tag == "List") and #v.elts == #targets[1].elts then
      local elts = targets[1].elts
      local codes, kinds = F:operands(v.elts)
      -- Lua's a, b = x, y assigns in no set order: only for distinct names
      local allnames, seen = true, {}
      for _, e in ipairs(elts) do
        if e.tag ~= "Name" or seen[e.id] then allnames = false end
        if e.tag == "Name" then seen[e.id] = true end
      end
      if allnames then
        local names = {}
        for i, e in ipairs(elts) do
          if not F.locals[e.id] then unsupported(F.M, e, "assignment to '%s'", e.id) end
          F:set_kind(e.id, kinds[i])
          names[i] = mangle(e.id)
        end
        F:emit(concat(names, ", ") .. " = " .. concat(codes, ", "))
        return
      end
      local temps = {}
      for i = 1, #elts do temps[i] = F:temp() end
      F:emit("do")
      F.ind = F.ind + 1
      F:emit("local " .. concat(temps, ", ") .. " = " .. concat(codes, ", "))
      for i, e in ipairs(elts) do F:store(e, temps[i], kinds[i], true) end
      F.ind = F.ind - 1
      F:emit("end")
      return
    end
    local c, k, simple = F:expr(v)
    if #targets > 1 and not simple then c, simple = F:spill(c), true end
    for _, t in ipairs(targets) do F:store(t, c, k, simple) end
  end)
end

STMT.AnnAssign = function(F, s)
  if s.value == nil then return end
  STMT.Assign(F, { tag = "Assign", targets = { s.target }, value = s.value, lineno = s.lineno, col_offset = s.col_offset })
end

STMT.AugAssign = function(F, s)
  F:with_pre(function()
    local t = s.target
    if t.tag == "Name" then
      if not F.locals[t.id] then unsupported(F.M, t, "assignment to '%s'", t.id) end
      local lc, lk = mangle(t.id), F.vk[t.id] or 0
      local rc, rk, rs = F:expr(s.value)
      local c, k = F:binop(s.op, lc, lk, true, rc, rk, rs, s.value, s)
      F:set_kind(t.id, k)
      F:emit(lc .. " = " .. c)
      return
    end
    if t.tag ~= "Subscript" then unsupported(F.M, t, "augmented assignment to %s", t.tag) end
    local nodes = index_nodes(t.slice)
    if has_slice(nodes) then unsupported(F.M, t, "augmented assignment to a slice is not supported in object mode") end
    local all = { t.value }
    for _, x in ipairs(nodes) do all[#all + 1] = x end
    local codes, kinds, simples = F:operands(all)
    for i = 1, #codes do
      if not simples[i] then codes[i] = F:spill(codes[i]); simples[i] = true end
    end
    -- the current element, through the same path a load takes
    local ek = elem_kind(kinds[1])
    local nonneg = true
    for i = 2, #codes do
      if not within(kinds[i], KP) or kinds[i] == 0 then nonneg = false end
    end
    local idx = {}
    local cur
    if nonneg then
      for i = 2, #codes do idx[i - 1] = plus1(codes[i]) end
      cur = recv(codes[1], true) .. ":get(" .. concat(idx, ", ") .. ")"
    else
      for i = 2, #codes do idx[i - 1] = codes[i] end
      local h = #idx == 1 and "AGET1" or #idx == 2 and "AGET2" or "AGETN"
      cur = F:use(h) .. "(" .. codes[1] .. ", " .. concat(idx, ", ") .. ")"
    end
    local rc, rk, rs, rp = F:isolated(F.expr, s.value)
    if #rp > 0 then cur = F:spill(cur); F:append_pre(rp) end
    local c = F:binop(s.op, cur, ek, false, rc, rk, rs, s.value, s)
    F:emit_aset(codes, kinds, simples, c)
  end)
end

STMT.Expr = function(F, s)
  local v = s.value
  if v.tag == "Constant" then return end  -- docstrings
  F:with_pre(function()
    local c = F:expr(v)
    F:emit("local _ = " .. c)
  end)
end

STMT.Pass = function() end

STMT.Return = function(F, s)
  F:with_pre(function()
    if s.value == nil then
      F.retk = F.retk | KZ
      F:emit("do return nil end")
      return
    end
    local c, k = F:expr(s.value)
    F.retk = F.retk | k
    F:emit("do return " .. c .. " end")
  end)
end

-- the message of raise X(...) / raise X
STMT.Raise = function(F, s)
  local e = s.exc
  if e == nil then unsupported(F.M, s, "bare raise is not supported in object mode") end
  F:with_pre(function()
    local name, args
    if e.tag == "Name" then
      name, args = e.id, {}
    elseif e.tag == "Call" and e.func.tag == "Name" then
      name, args = e.func.id, list(e.args)
    else
      unsupported(F.M, s, "raise needs an exception class or call, as raise ValueError(\"msg\")")
    end
    local codes = F:operands(args)
    local parts = { sformat("%q", name) }
    for _, c in ipairs(codes) do parts[#parts + 1] = c end
    F:emit(F:use("RAISE") .. "(" .. F:use("EXC") .. "(" .. concat(parts, ", ") .. "))")
  end)
end

STMT.Assert = function(F, s)
  F:with_pre(function()
    local c = F:cond(s.test)
    F:emit("if not " .. c .. " then")
    F.ind = F.ind + 1
    if s.msg then
      F:with_pre(function()
        local m = F:expr(s.msg)
        F:emit(F:use("ASSERT_FAIL") .. "(" .. m .. ")")
      end)
    else
      F:emit(F:use("ASSERT_FAIL") .. "()")
    end
    F.ind = F.ind - 1
    F:emit("end")
  end)
end

STMT.If = function(F, s)
  F:with_pre(function()
    local c = F:cond(s.test)
    F:emit("if " .. c .. " then")
    F.ind = F.ind + 1
    F:block(s.body)
    F.ind = F.ind - 1
    local orelse = list(s.orelse)
    -- elif chains, as long as their tests need no pre-statements
    while #orelse == 1 and orelse[1].tag == "If" do
      local e = orelse[1]
      local ec, _, _, ep = F:isolated(F.cond, e.test)
      if #ep > 0 then break end
      F:emit("elseif " .. ec .. " then")
      F.ind = F.ind + 1
      F:block(e.body)
      F.ind = F.ind - 1
      orelse = list(e.orelse)
    end
    if #orelse > 0 then
      F:emit("else")
      F.ind = F.ind + 1
      F:block(orelse)
      F.ind = F.ind - 1
    end
    F:emit("end")
  end)
end

-- loop bookkeeping: Python's break/continue as Lua's break or goto
function Fn:loop_begin(has_else)
  local L = { brk = has_else and self:label("_b") or nil, cont = nil }
  self.loops[#self.loops + 1] = L
  return L
end

function Fn:loop_end() self.loops[#self.loops] = nil end

function Fn:loop_body(L, body)
  self:emit("do")
  self.ind = self.ind + 1
  self:block(body)
  self.ind = self.ind - 1
  self:emit("end")
  if L.cont then self:emit("::" .. L.cont .. "::") end
end

STMT.Break = function(F, s)
  local L = F.loops[#F.loops]
  if not L then fail(F.M, s, "SyntaxError", "'break' outside loop") end
  if L.brk then F:emit("goto " .. L.brk) else F:emit("break") end
end

STMT.Continue = function(F, s)
  local L = F.loops[#F.loops]
  if not L then fail(F.M, s, "SyntaxError", "'continue' not properly in loop") end
  L.cont = L.cont or F:label("_c")
  F:emit("goto " .. L.cont)
end

STMT.While = function(F, s)
  local orelse = list(s.orelse)
  local L = F:loop_begin(#orelse > 0)
  F:emit("do")
  F.ind = F.ind + 1
  local c, _, _, p = F:isolated(F.cond, s.test)
  if #p == 0 then
    F:emit("while " .. c .. " do")
  else
    F:emit("while true do")
    F.ind = F.ind + 1
    for _, l in ipairs(p) do F:emit(l) end
    F:emit("if not " .. c .. " then break end")
    F.ind = F.ind - 1
  end
  F.ind = F.ind + 1
  F:loop_body(L, s.body)
  F.ind = F.ind - 1
  F:emit("end")
  F:loop_end()
  F:block(orelse)
  F.ind = F.ind - 1
  F:emit("end")
  if L.brk then F:emit("::" .. L.brk .. "::") end
end

-- kind of a range loop's variable
local function range_var_kind(sk, ek, stk, step_const)
  if step_const then
    if step_const > 0 and within(sk, KP) then return KP end
    if step_const < 0 and within(ek, KP) then return KP end
  end
  if within(sk, KP) and within(ek, KP) then return KP end
  if within(stk, KP) and within(sk, KP) then return KP end
  return KINT
end

function Fn:for_range(s, args, L)
  local nargs = #args
  if nargs < 1 or nargs > 3 then fail(self.M, s.iter, "TypeError", "range expected 1 to 3 arguments, got %d", nargs) end
  local codes, kinds, simples = self:operands(args)
  local sc, sk, ec, ek, stc, stk, step_const
  if nargs == 1 then
    sc, sk, ec, ek, stc, stk, step_const = "0", KP, codes[1], kinds[1], "1", KP, 1
  else
    sc, sk, ec, ek = codes[1], kinds[1], codes[2], kinds[2]
    if nargs == 3 then
      stc, stk, step_const = codes[3], kinds[3], const_int(args[3])
      if step_const == 0 then fail(self.M, args[3], "ValueError", "range() arg 3 must not be zero") end
    else
      stc, stk, step_const = "1", KP, 1
    end
  end
  local i = self:label("_i")
  local fast = step_const and within(sk, KINT) and sk ~= 0 and within(ek, KINT) and ek ~= 0
  local limit
  if fast then
    local ev = const_int(args[nargs == 1 and 1 or 2])
    if step_const > 0 then
      if ev then limit = lit_int(ev - 1) elseif within(ek, KP) then limit = ec .. " - 1" end
    else
      if ev then limit = lit_int(ev + 1) elseif within(ek, KM) then limit = ec .. " + 1" end
    end
  end
  if limit then
    self:emit("for " .. i .. " = " .. sc .. ", " .. limit .. (step_const ~= 1 and (", " .. stc) or "") .. " do")
  else
    local a, b, c = self:label("_s"), self:label("_l"), self:label("_st")
    self:emit("local " .. a .. ", " .. b .. ", " .. c .. " = " .. self:use("RANGE") .. "(" .. sc .. ", " .. ec .. ", " .. stc .. ")")
    self:emit("for " .. i .. " = " .. a .. ", " .. b .. ", " .. c .. " do")
  end
  local _ = simples
  self.ind = self.ind + 1
  self:store(s.target, i, range_var_kind(sk, ek, stk, step_const), true)
  self:loop_body(L, s.body)
  self.ind = self.ind - 1
  self:emit("end")
end

STMT.For = function(F, s)
  local orelse = list(s.orelse)
  local L = F:loop_begin(#orelse > 0)
  F:with_pre(function()
    F:emit("do")
    F.ind = F.ind + 1
    local it = s.iter
    local q = it.tag == "Call" and F:qualname(it.func)
    if q == "builtins.range" or q == "builtins.prange" or q == "numba.prange" then
      if #list(it.keywords) > 0 then unsupported(F.M, it, "range() takes no keyword arguments") end
      F:for_range(s, list(it.args), L)
    elseif q == "builtins.enumerate" or q == "builtins.zip" then
      F:for_iter_call(s, q, it, L)
    else
      local c, k = F:expr(it)
      local itv = F:label("_it")
      local kk = F:label("_k")
      F:emit("local " .. itv .. " = " .. c)
      F:emit("for " .. kk .. " = 1, " .. F:use("LEN") .. "(" .. itv .. ") do")
      F.ind = F.ind + 1
      F:store(s.target, F:use("ITEM") .. "(" .. itv .. ", " .. kk .. ")", elem_kind(k), false)
      F:loop_body(L, s.body)
      F.ind = F.ind - 1
      F:emit("end")
    end
    F:loop_end()
    F:block(orelse)
    F.ind = F.ind - 1
    F:emit("end")
    if L.brk then F:emit("::" .. L.brk .. "::") end
  end)
end

-- for i, x in enumerate(a[, start]) / for x, y in zip(a, b, ...)
function Fn:for_iter_call(s, q, it, L)
  local args = list(it.args)
  local codes, kinds = self:operands(args)
  local t = s.target
  local kk = self:label("_k")
  if q == "builtins.enumerate" then
    if #args < 1 or #args > 2 then fail(self.M, it, "TypeError", "enumerate() takes 1 or 2 arguments") end
    local itv = self:label("_it")
    self:emit("local " .. itv .. " = " .. codes[1])
    self:emit("for " .. kk .. " = 1, " .. self:use("LEN") .. "(" .. itv .. ") do")
    self.ind = self.ind + 1
    local start = codes[2] or "0"
    local ik = within(kinds[2] or KP, KP) and KP or KINT
    local icode = start == "0" and ("(" .. kk .. " - 1)") or ("(" .. kk .. " - 1 + " .. start .. ")")
    local vcode = self:use("ITEM") .. "(" .. itv .. ", " .. kk .. ")"
    if (t.tag == "Tuple" or t.tag == "List") and #t.elts == 2 then
      self:store(t.elts[1], icode, ik, false)
      self:store(t.elts[2], vcode, elem_kind(kinds[1]), false)
    else
      self:store(t, self:use("TUP") .. "(" .. icode .. ", " .. vcode .. ")", KU, false)
    end
  else
    if #args < 1 then unsupported(self.M, it, "zip() needs arguments") end
    local its, lens = {}, {}
    for i, c in ipairs(codes) do
      its[i] = self:label("_it")
      self:emit("local " .. its[i] .. " = " .. c)
      lens[i] = self:use("LEN") .. "(" .. its[i] .. ")"
    end
    local n = #lens == 1 and lens[1] or (self:use("mmin") .. "(" .. concat(lens, ", ") .. ")")
    self:emit("for " .. kk .. " = 1, " .. n .. " do")
    self.ind = self.ind + 1
    local items = {}
    for i = 1, #its do items[i] = self:use("ITEM") .. "(" .. its[i] .. ", " .. kk .. ")" end
    if (t.tag == "Tuple" or t.tag == "List") and #t.elts == #its then
      for i, e in ipairs(t.elts) do self:store(e, items[i], elem_kind(kinds[i]), false) end
    else
      self:store(t, self:use("TUP") .. "(" .. concat(items, ", ") .. ")", KU, false)
    end
  end
  self:loop_body(L, s.body)
  self.ind = self.ind - 1
  self:emit("end")
end

STMT.Import = function() end      -- handled when the module is scanned
STMT.ImportFrom = function() end
STMT.Global = function(F, s) unsupported(F.M, s, "global statements are not supported in object mode") end
STMT.Nonlocal = function(F, s) unsupported(F.M, s, "nonlocal statements are not supported in object mode") end
STMT.FunctionDef = function(F, s) unsupported(F.M, s, "nested functions are not supported in object mode") end

---------------------------------------------------------------------------
-- defs
---------------------------------------------------------------------------
-- names a def assigns (its locals), params first
local function collect_locals(d)
  local names, order = {}, {}
  local function add(id)
    if not names[id] then names[id] = true; order[#order + 1] = id end
  end
  local function target(t)
    if t.tag == "Name" then add(t.id)
    elseif t.tag == "Tuple" or t.tag == "List" then
      for _, e in ipairs(t.elts) do target(e) end
    elseif t.tag == "Starred" then target(t.value)
    end
  end
  local function walk(stmts)
    for _, s in ipairs(list(stmts)) do
      local tag = s.tag
      if tag == "Assign" then
        for _, t in ipairs(s.targets) do target(t) end
      elseif tag == "AugAssign" or tag == "AnnAssign" then
        target(s.target)
      elseif tag == "For" then
        target(s.target); walk(s.body); walk(s.orelse)
      elseif tag == "While" or tag == "If" then
        walk(s.body); walk(s.orelse)
      end
    end
  end
  for _, a in ipairs(list(d.args.args)) do add(a.arg) end
  walk(d.body)
  return names, order
end

-- generate the body text of def d as variant "f" (fast) or "g" (generic)
local function gen_variant(M, d, variant)
  local info = M.info[d.name]
  local F = setmetatable({
    M = M, def = d, variant = variant, locals = info.locals, out = {}, ind = 1, pre = {},
    ntemp = 0, nlabel = 0, loops = {}, retk = 0, changed = false,
    vk = M.vkinds[d.name .. ":" .. variant],
  }, Fn)
  for i, p in ipairs(info.params) do
    F.vk[p] = (F.vk[p] or 0) | (variant == "f" and info.fastk[i] or KALL)
  end
  local others = {}
  for _, id in ipairs(info.order) do
    if not info.isparam[id] then others[#others + 1] = mangle(id) end
  end
  for i = 1, #others, 150 do
    F:emit("local " .. concat(others, ", ", i, math.min(i + 149, #others)))
  end
  for i, p in ipairs(info.params) do
    local dn = info.defaults[i]
    if dn then
      F:with_pre(function()
        local c, k = F:expr(dn)
        F:set_kind(p, k)
        F:emit("if " .. mangle(p) .. " == nil then " .. mangle(p) .. " = " .. c .. " end")
      end)
    end
  end
  F:block(d.body)
  local last = d.body[#d.body]
  if not last or (last.tag ~= "Return" and last.tag ~= "Raise") then F.retk = F.retk | KZ end
  return F
end

-- translate a def variant to a fixed point of its variables' kinds
local function translate_variant(M, d, variant)
  local F
  for _ = 1, 50 do
    F = gen_variant(M, d, variant)
    if not F.changed then break end
  end
  local key = d.name .. ":" .. variant
  local old = M.ret[d.name][variant]
  local new = old | F.retk
  if new ~= old then
    M.ret[d.name][variant] = new
    M.changed = true
  end
  M.text[key] = concat(F.out, "\n")
  return F
end

local function def_info(M, d)
  local a = d.args
  if a.vararg or a.kwarg or #list(a.kwonlyargs) > 0 or #list(a.posonlyargs) > 0 then
    unsupported(M, d, "only plain positional parameters are supported in object mode")
  end
  local locals, order = collect_locals(d)
  local params, isparam = {}, {}
  for i, p in ipairs(list(a.args)) do params[i] = p.arg; isparam[p.arg] = true end
  local defaults = {}
  local dl = list(a.defaults)
  for i, dn in ipairs(dl) do defaults[#params - #dl + i] = dn end
  local fastk = {}
  for i = 1, #params do
    fastk[i] = KNB
    local dn = defaults[i]
    if dn then
      local v = const_num(dn)
      if dn.tag == "Constant" and type(dn.value) == "boolean" then fastk[i] = KNB | KB
      elseif v == nil and not (dn.tag == "Constant" and dn.value == nil) then fastk[i] = KALL end
    end
  end
  return { params = params, isparam = isparam, defaults = defaults, locals = locals, order = order, fastk = fastk }
end

---------------------------------------------------------------------------
-- module
---------------------------------------------------------------------------
local Mod = {}
Mod.__index = Mod

function Mod:upvalue(id, v)
  local name = "_v_" .. id
  self.upvals[id] = v
  return name
end

function Mod:get_info(name)
  local info = self.info[name]
  if not info then
    info = self.def_info(self, self.defs[name])
    self.info[name] = info
  end
  return info
end

function Mod:need_def(name)
  if not self.reach[name] then
    self.reach[name] = true
    self.queue[#self.queue + 1] = name
  end
end

local function value_kind(v)
  local t = type(v)
  if t == "number" then return mtype(v) == "float" and KF or int_kind(v) end
  if t == "boolean" then return KB end
  if t == "nil" then return KZ end
  if t == "function" then return KU end
  if pyops.is_tuple(v) or t == "table" or t == "userdata" then
    local ok, dt = pcall(function() return v.dtype end)
    if pyops.is_tuple(v) then return KU end
    if ok and type(dt) == "string" and dt ~= "bool" then return KT end
    return KU
  end
  return KU
end

local function scan_module(M, body)
  for _, s in ipairs(body) do
    local tag = s.tag
    if tag == "FunctionDef" then
      M.defs[s.name] = s
      M.order[#M.order + 1] = s.name
    elseif tag == "Import" then
      for _, a in ipairs(s.names) do
        local name = a.name
        if a.asname then
          local mod = name == "numba.cuda" and "cuda" or DEFAULT_MODULES[name] and name or name
          M.aliases[a.asname] = { module = mod }
        else
          local top = name:match("^[^.]+")
          M.aliases[top] = { module = top }
        end
      end
    elseif tag == "ImportFrom" then
      local mod = s.module or ""
      if mod == "numba.cuda" then mod = "cuda" end
      for _, a in ipairs(s.names) do
        local bind = a.asname or a.name
        if mod == "numba" and a.name == "cuda" then
          M.aliases[bind] = { module = "cuda" }
        elseif mod == "numba" and a.name == "prange" then
          M.aliases[bind] = { member = "builtins.prange" }
        else
          M.aliases[bind] = { member = mod .. "." .. a.name }
        end
      end
    elseif tag == "Assign" and #s.targets == 1 and s.targets[1].tag == "Name" then
      local v = s.value
      if v.tag == "Constant" and v.value ~= nil then
        M.consts[s.targets[1].id] = v.value
      elseif const_num(v) then
        M.consts[s.targets[1].id] = const_num(v)
      end
    end
  end
end

-- Translate def `fname` of module_ast (and the defs it calls) to Lua
-- source. Returns the source and the table of values its upvalues read.
function T.translate(module_ast, fname, env, opts)
  opts = opts or {}
  env = env or {}
  local chunk = opts.chunk or "?"
  chunk = chunk:gsub("^[=@]", "")
  local body
  if module_ast.tag == "Module" then body = module_ast.body
  elseif module_ast.tag == "FunctionDef" then body = { module_ast }
  else error("objmode.compile: expected a Module or FunctionDef table, got tag " .. tostring(module_ast.tag), 2) end
  local M = setmetatable({
    chunk = chunk, defs = {}, order = {}, aliases = {}, consts = {}, used = {}, upvals = {},
    info = {}, ret = {}, vkinds = {}, text = {}, reach = {}, queue = {}, changed = false,
  }, Mod)
  M.env_get = function(id)
    local v = env[id]
    if v ~= nil then return true, v end
    return false
  end
  M.env_has = function(id) return env[id] ~= nil end
  M.value_kind = value_kind
  M.def_info = def_info
  scan_module(M, body)
  if fname == nil then fname = M.order[1] end
  if not M.defs[fname] then
    error(sformat("%s:0:1: NameError: no def named '%s' in the source", chunk, tostring(fname)), 0)
  end
  for name, d in pairs(M.defs) do
    M.ret[name] = { f = 0, g = 0 }
    M.vkinds[name .. ":f"] = {}
    M.vkinds[name .. ":g"] = {}
    local _ = d
  end
  M:need_def(fname)
  -- fixed point over the return kinds of the defs reached from fname
  for _ = 1, 50 do
    M.changed = false
    local i = 1
    while i <= #M.queue do
      local name = M.queue[i]
      local d = M.defs[name]
      M:get_info(name)
      translate_variant(M, d, "f")
      translate_variant(M, d, "g")
      i = i + 1
    end
    if not M.changed then break end
  end
  -- assemble
  local out = { "local H, RT, ENVV = ..." }
  local used = {}
  for name in pairs(M.used) do
    if name ~= "RT" then used[#used + 1] = name end
  end
  table.sort(used)
  for _, name in ipairs(used) do out[#out + 1] = "local _" .. name .. " = H." .. name end
  if M.used.RT then out[#out + 1] = "local _RT = RT" end
  local upnames = {}
  for id in pairs(M.upvals) do upnames[#upnames + 1] = id end
  table.sort(upnames)
  for _, id in ipairs(upnames) do out[#out + 1] = "local _v_" .. id .. " = ENVV[" .. sformat("%q", id) .. "]" end
  local fwd = {}
  for _, name in ipairs(M.queue) do
    fwd[#fwd + 1] = "_f_" .. name
    fwd[#fwd + 1] = "_g_" .. name
    fwd[#fwd + 1] = "_e_" .. name
  end
  out[#out + 1] = "local " .. concat(fwd, ", ")
  for _, name in ipairs(M.queue) do
    local info = M.info[name]
    local params = {}
    for i, p in ipairs(info.params) do params[i] = mangle(p) end
    local pl = concat(params, ", ")
    local tf, tg = M.text[name .. ":f"], M.text[name .. ":g"]
    out[#out + 1] = "_f_" .. name .. " = function(" .. pl .. ")"
    out[#out + 1] = tf
    out[#out + 1] = "end"
    if tf == tg then
      out[#out + 1] = "_g_" .. name .. " = _f_" .. name
      out[#out + 1] = "_e_" .. name .. " = _f_" .. name
    else
      out[#out + 1] = "_g_" .. name .. " = function(" .. pl .. ")"
      out[#out + 1] = tg
      out[#out + 1] = "end"
      local checks = {}
      for i, p in ipairs(info.params) do
        if info.fastk[i] ~= KALL then
          checks[#checks + 1] = "_H_" .. ((info.fastk[i] & KB) ~= 0 and "SLOWC" or "SLOW") .. "(" .. mangle(p) .. ")"
        end
      end
      out[#out + 1] = "_e_" .. name .. " = function(" .. pl .. ")"
      if #checks > 0 then
        out[#out + 1] = "  if " .. concat(checks, " or ") .. " then return _g_" .. name .. "(" .. pl .. ") end"
        out[#out + 1] = "  return _f_" .. name .. "(" .. pl .. ")"
      else
        out[#out + 1] = "  return _g_" .. name .. "(" .. pl .. ")"
      end
      out[#out + 1] = "end"
    end
  end
  -- the function handed to Lua
  local info = M.info[fname]
  local np = #info.params
  local nreq = 0
  for i = 1, np do if info.defaults[i] == nil then nreq = i end end
  local params = {}
  for i = 1, np do params[i] = "a" .. i end
  local args = {}
  for i = 1, np do args[i] = "_H_ARG(a" .. i .. ")" end
  out[#out + 1] = "return function(...)"
  out[#out + 1] = "  local n = select('#', ...)"
  out[#out + 1] = sformat("  if n > %d then _H_RAISE(%q .. n .. %q) end", np,
    sformat("TypeError: %s() takes %d positional argument%s but ", fname, np, np == 1 and "" or "s"), " were given")
  if nreq > 0 then
    out[#out + 1] = sformat("  if n < %d then _H_RAISE(%q) end", nreq,
      sformat("TypeError: %s() missing required positional arguments (%d needed)", fname, nreq))
  end
  if np > 0 then out[#out + 1] = "  local " .. concat(params, ", ") .. " = ..." end
  out[#out + 1] = "  return _H_UNWRAP(_e_" .. fname .. "(" .. concat(args, ", ") .. "))"
  out[#out + 1] = "end"
  -- the entry helpers are always present
  table.insert(out, 2, "local _H_ARG, _H_UNWRAP, _H_RAISE, _H_SLOW, _H_SLOWC = H.ARG, H.UNWRAP, H.RAISE, H.SLOW, H.SLOWC")
  return concat(out, "\n") .. "\n", M.upvals
end

return T
