-- lumba.objmode_stmt — object mode: statements. Python's locals are Lua
-- locals; range loops are numeric fors; break/continue become break or goto
-- (for/else and while/else need the goto); pre-statements that an
-- expression needs go before its statement, in a do-block.
local sformat, concat = string.format, table.concat
local C = require "lumba.objmode_core"
local within, elem_kind, mangle, lit_int, pos_of, fail = C.within, C.elem_kind, C.mangle, C.lit_int, C.pos_of, C.fail
local unsupported, list, const_int, index_nodes, has_slice, plus1 = C.unsupported, C.list, C.const_int, C.index_nodes, C.has_slice, C.plus1
local recv, KP, KM, KZ, KU, KINT = C.recv, C.KP, C.KM, C.KZ, C.KU, C.KINT
local Fn, NODE_WORDS, has, KT = C.Fn, C.NODE_WORDS, C.has, C.KT

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
  local tag = self.pos and ("  --@" .. self.pos) or ""
  local ins = { string.rep("  ", self.ind) .. "do" .. tag }
  for _, l in ipairs(pre) do ins[#ins + 1] = string.rep("  ", self.ind + 1) .. l .. tag end
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
  if s.lineno then self.pos = s.lineno .. ":" .. ((s.col_offset or 0) + 1) end
  local f = STMT[s.tag]
  if not f then unsupported(self.M, s, "%s are not supported in object mode", NODE_WORDS[s.tag] or (s.tag .. " statements")) end
  f(self, s)
end

function Fn:set_kind(id, k, aug)
  local old = self.vk[id] or 0
  local new = old | k
  if new ~= old then
    self.vk[id] = new
    self.changed = true
  end
  if not aug then
    -- what plain assignments store ("!id"): an augmented assignment
    -- updates an array in place only where one may have been stored
    local dkey = "!" .. id
    local dold = self.vk[dkey] or 0
    if dold | k ~= dold then
      self.vk[dkey] = dold | k
      self.changed = true
    end
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
    if #idx == 1 then
      self:emit(self:use("ASETP") .. "(" .. r .. ", " .. idx[1] .. ", " .. vcode .. ")")
      return
    end
    self:emit(r .. ":set(" .. concat(idx, ", ") .. ", " .. self:use("STORED") .. "(" .. r .. ", " .. vcode .. "))")
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
      local direct = F.M:get_info(F.def.name).isparam[t.id] and lk or (F.vk["!" .. t.id] or 0)
      if has(direct, KT | KU) and s.op ~= "MatMult" then
        -- an array is updated in place (other names of it see the change)
        c = F:use("IOP") .. "." .. s.op .. "(" .. lc .. ", " .. rc .. ")"
        k = k | lk
      end
      F:set_kind(t.id, k, true)
      F:emit(lc .. " = " .. c)
      return
    end
    if t.tag ~= "Subscript" then unsupported(F.M, t, "augmented assignment to %s", t.tag) end
    local nodes = index_nodes(t.slice)
    if has_slice(nodes) then
      -- a[1:] += v: the view, updated in place
      local c, _, simple = F:expr(t.value)
      if not simple then c = F:spill(c) end
      local args = F:slice_args(nodes)
      local rc = F:expr(s.value)
      F.M.used.RT = true
      F:emit("local _ = " .. F:use("IOP") .. "." .. s.op .. "(" .. F:use("SLICE") .. "(_RT, " .. c .. ", "
        .. sformat("%q", pos_of(F.M, t)) .. ", " .. concat(args, ", ") .. "), " .. rc .. ")")
      return
    end
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
      if #idx == 1 then cur = F:use("AGETP") .. "(" .. codes[1] .. ", " .. idx[1] .. ")"
      else cur = recv(codes[1], true) .. ":get(" .. concat(idx, ", ") .. ")" end
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
    elseif e.tag == "Attribute" then  -- raise np.linalg.LinAlgError: the class's own name
      name, args = e.attr, {}
    elseif e.tag == "Call" and e.func.tag == "Name" then
      name, args = e.func.id, list(e.args)
    elseif e.tag == "Call" and e.func.tag == "Attribute" then
      name, args = e.func.attr, list(e.args)
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
    local id = C.builtin_id(q)
    if id == "range" or id == "prange" then
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

return true
