-- lumba.objmode_expr — object mode: expressions (names, constants,
-- arithmetic, comparisons, and/or, conditional expressions, subscripts).
-- Each EXPR[tag](F, node) returns code, kind, simple (a name or literal).
local sformat, concat = string.format, table.concat
local C = require "lumba.objmode_core"
local has, within, elem_kind, mangle, lit_int, pos_of = C.has, C.within, C.elem_kind, C.mangle, C.lit_int, C.pos_of
local unsupported, list, const_int, const_num, index_nodes, has_slice = C.unsupported, C.list, C.const_int, C.const_num, C.index_nodes, C.has_slice
local plus1, recv, KP, KM, KF, KB = C.plus1, C.recv, C.KP, C.KM, C.KF, C.KB
local KZ, KT, KU, KINT, KNUM, KALL = C.KZ, C.KT, C.KU, C.KINT, C.KNUM, C.KALL
local Fn, EXPR = C.Fn, C.EXPR

EXPR.Constant = function(F, n)
  local c, k = F:const(n.value, n)
  return c, k, true
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
  if M.frozen[id] then return F:expr(M.frozen[id]) end  -- W = np.array([...]), SHAPE = (3, 4) at module level
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

-- the array attributes of the registry (builtins.def "ndarray." rows), by
-- entry id: code and kind of the attribute of (c, k)
local function helper(name, kind) return function(F, c) return F:use(name) .. "(" .. c .. ")", kind end end
local function field(kind) return function(_, c, k, attr) return "(" .. c .. ")." .. attr, kind or k & (KT | KU) end end
local ATTRS = {
  ndarray_shape = helper("SHAPE_T", KT), ndarray_strides = helper("STRIDES_T", KT),
  ndarray_size = helper("SIZE", KP), ndarray_ndim = helper("NDIM", KP),
  ndarray_itemsize = field(KP), ndarray_nbytes = field(KP), ndarray_dtype = field(KU), ndarray_T = field(),
  ndarray_real = helper("REAL", KALL), ndarray_imag = helper("IMAG", KALL),  -- numbers' too (lumba.objmode_complex)
}

EXPR.Attribute = function(F, n)
  local q = F:qualname(n)
  if q then return F:builtin_value(q, n) end
  local attr = n.attr
  local c, k = F:expr(n.value)
  local impl = ATTRS[C.builtin_id("ndarray." .. attr)]
  if impl then
    local code, kind = impl(F, c, k, attr)
    return code, kind, false
  end
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
  -- an array operand makes an array (tuples only concatenate: Add and Mult)
  if has(lk | rk, KT) then r = r | KT end
  if r == 0 then r = KNUM end
  return r
end

local GENERIC = {
  Add = "ADD", Sub = "SUB", Mult = "MUL", Div = "DIV", FloorDiv = "FLOORDIV", Mod = "MOD",
  Pow = "POW", BitAnd = "BAND", BitOr = "BOR", BitXor = "BXOR", LShift = "SHL", RShift = "SHR",
}
local LUAOP = { Add = "+", Sub = "-", Mult = "*", BitAnd = "&", BitOr = "|", BitXor = "~" }

-- l op r, given translated operands; rnode for constant divisors/exponents
function Fn:binop(op, lc, lk, ls, rc, rk, rs, rnode, node)
  if op == "MatMult" then return self:use("MATMUL") .. "(" .. lc .. ", " .. rc .. ")", KT | KU, false end
  local generic = GENERIC[op]
  local function call_generic(k)
    return self:use(generic) .. "(" .. lc .. ", " .. rc .. ")", k, false
  end
  if has(lk | rk, KU) then
    if op == "Div" then return call_generic(KF | KT | KU) end
    return call_generic(KALL & ~KZ)
  end
  local isbit = op == "BitAnd" or op == "BitOr" or op == "BitXor" or op == "LShift" or op == "RShift"
  -- arrays: Lua's + - * and constant divisors reach lumba.ndarray's
  -- metamethods; the zero checks and number paths of the rest do not apply
  if has(lk | rk, KT) and not isbit and op ~= "Add" and op ~= "Sub" and op ~= "Mult" then
    local rconst = rnode and const_num(rnode)
    local k = arith_kind(op, lk & ~KB | (has(lk, KB) and KP or 0), rk & ~KB | (has(rk, KB) and KP or 0))
    if op == "Div" then k = KF | KT end
    if not (rconst and rconst ~= 0 and (op == "Div" or (op == "FloorDiv" or op == "Mod") and within(rk, KINT))) then
      return call_generic(k | KU)
    end
  end
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
  if has(k, KU | KT) and not (op == "USub" and not has(k, KU)) then
    local h = op == "USub" and "NEG" or op == "UAdd" and "POS" or "INVERT"
    return F:use(h) .. "(" .. c .. ")", KALL & ~KZ, false
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

function Fn:compare(op, lc, lk, rc, rk, node, cond)
  if op == "Is" or op == "IsNot" then
    return "(" .. lc .. (op == "Is" and " == " or " ~= ") .. rc .. ")"
  end
  if op == "In" or op == "NotIn" then
    local c = self:use("IN") .. "(" .. rc .. ", " .. lc .. ")"
    return op == "In" and c or "(not " .. c .. ")"
  end
  local sym = CMP[op]
  if not sym then unsupported(self.M, node, "comparison %s is not supported in object mode", op) end
  -- arrays compare elementwise; as a condition, Lua's < and <= reach
  -- lumba.ndarray's __lt/__le, which give the truth of that (an error
  -- for more than one element, as Python's `if a < b`)
  local ordering = op ~= "Eq" and op ~= "NotEq"
  if has(lk | rk, KU) or (has(lk | rk, KT) and not (cond and ordering)) then
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
    -- arrays compare elementwise: a bool array
    local k = KB
    if has(kinds[1] | kinds[2], KT | KU) and ops[1] ~= "Is" and ops[1] ~= "IsNot" and ops[1] ~= "In" and ops[1] ~= "NotIn" then
      k = KB | KU
    end
    return F:compare(ops[1], codes[1], kinds[1], codes[2], kinds[2], n), k, false
  end
  -- a < b < c: each operand evaluated once, the later ones only while true
  -- (with arrays each link is the truth of a comparison, as in Python)
  local function link(op, lc, lk, rc, rk)
    local c = F:compare(op, lc, lk, rc, rk, n, true)
    local k = lk | rk
    if (has(k, KU) or (has(k, KT) and (op == "Eq" or op == "NotEq"))) and op ~= "Is" and op ~= "IsNot"
      and op ~= "In" and op ~= "NotIn" then
      c = F:use("TRUTH") .. "(" .. c .. ")"
    end
    return c
  end
  local parts = { { F:isolated(F.expr, n.left) } }
  for i, c in ipairs(comps) do parts[i + 1] = { F:isolated(F.expr, c) } end
  local inline = true
  for i, p in ipairs(parts) do
    if #p[4] > 0 or (i > 1 and i < #parts and not p[3]) then inline = false end
  end
  if inline then
    local terms = {}
    for i, op in ipairs(ops) do
      terms[i] = link(op, parts[i][1], parts[i][2], parts[i + 1][1], parts[i + 1][2])
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
    F:push_pre(r .. " = " .. link(op, prev_c, prev_k, cur, p[2]))
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
  if n.tag == "Compare" and #n.ops == 1 then
    local codes, kinds = self:operands({ n.left, n.comparators[1] })
    local op, k = n.ops[1], kinds[1] | kinds[2]
    local c = self:compare(op, codes[1], kinds[1], codes[2], kinds[2], n, true)
    -- a helper's result may be a bool array: its Python truth
    local elementwise = op ~= "Is" and op ~= "IsNot" and op ~= "In" and op ~= "NotIn"
    if elementwise and (has(k, KU) or (has(k, KT) and (op == "Eq" or op == "NotEq"))) then
      c = self:use("TRUTH") .. "(" .. c .. ")"
    end
    return c, KB, false
  end
  local c, k, s = self:expr(n)
  return self:truthy(c, k, s), KB, false
end

---------------------------------------------------------------------------
-- subscripts
---------------------------------------------------------------------------
-- the translated pieces of a[...] (container and indices, in order)
function Fn:subscript_parts(n, extra_first)
  local nodes = index_nodes(n.slice)
  local all = {}
  if extra_first then all[1] = extra_first end
  all[#all + 1] = n.value
  for _, x in ipairs(nodes) do all[#all + 1] = x end
  return nodes, all
end

-- is node None or np.newaxis?
function Fn:is_newaxis(x)
  if x.tag == "Constant" and x.value == nil then return true end
  return (x.tag == "Attribute" or x.tag == "Name") and self:qualname(x) == "numpy.newaxis"
end

-- slice specs: each axis one SI(i) or SL(lo, hi, step) argument (SN() for None)
function Fn:slice_args(nodes)
  local flat = {}
  local shape = {}
  for _, x in ipairs(nodes) do
    if self:is_newaxis(x) then
      shape[#shape + 1] = { newaxis = true }
    elseif x.tag == "Slice" then
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
    if s.newaxis then
      args[i] = self:use("SN") .. "()"
    elseif s.slice then
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
  local newaxis = false
  for _, x in ipairs(nodes) do if F:is_newaxis(x) then newaxis = true end end
  if has_slice(nodes) or newaxis then
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
    -- one index: an element of a 1-D array or a row of an N-d one
    if #idx == 1 then return F:use("AGETP") .. "(" .. codes[1] .. ", " .. idx[1] .. ")", ek, false end
    return recv(codes[1], simples[1]) .. ":get(" .. concat(idx, ", ") .. ")", ek, false
  end
  for i = 2, #codes do idx[i - 1] = codes[i] end
  local h = #idx == 1 and "AGET1" or #idx == 2 and "AGET2" or "AGETN"
  return F:use(h) .. "(" .. codes[1] .. ", " .. concat(idx, ", ") .. ")", ek, false
end

return { arith_kind = arith_kind }
