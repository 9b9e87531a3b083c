-- lumba.objmode_tr — the object-mode translator's driver: a Lua-table AST
-- (Python's ast node and field names) to Lua source, which lumba.objmode
-- loads. Each def reached from the requested one is translated twice: a
-- fast variant assuming its parameters hold no bools (nor arrays/tuples of
-- them), and a generic one; its entry looks at the arguments to pick. The
-- runtime names the source refers to (_ADD, _AGET1, ...) are
-- objmode.helpers.
local sformat, concat = string.format, table.concat
local mtype = math.type
local C = require "lumba.objmode_core"
local pyops = require "lumba.pyops"
require "lumba.objmode_expr"
require "lumba.objmode_calls"
require "lumba.objmode_stmt"
local mangle, int_kind, unsupported, list, const_num, KF = C.mangle, C.int_kind, C.unsupported, C.list, C.const_num, C.KF
local KB, KZ, KT, KU, KALL, KNB = C.KB, C.KZ, C.KT, C.KU, C.KALL, C.KNB
local Fn, DEFAULT_MODULES = C.Fn, C.DEFAULT_MODULES
-- the NumPy calls whose module-level results compiled code freezes (resolve.c, frozen_form)
local FROZEN_CALLS = { array = true, asarray = true, zeros = true, ones = true, empty = true, full = true, arange = true,
  linspace = true, eye = true, identity = true }

local T = {}

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
        else  -- from numba import prange: "numba.prange", a name of the registry
          M.aliases[bind] = { member = mod .. "." .. a.name }
        end
      end
    elseif tag == "Assign" and #s.targets == 1 and s.targets[1].tag == "Name" then
      local v = s.value
      if v.tag == "Constant" and v.value ~= nil then
        M.consts[s.targets[1].id] = v.value
      elseif const_num(v) then
        M.consts[s.targets[1].id] = const_num(v)
      elseif v.tag == "Tuple" or (v.tag == "Call" and v.func.tag == "Attribute" and v.func.value.tag == "Name"
          and FROZEN_CALLS[v.func.attr]
          and ((M.aliases[v.func.value.id] or {}).module or DEFAULT_MODULES[v.func.value.id]) == "numpy") then
        -- a module constant compiled code freezes (resolve.c, frozen_form): computed where a function uses it
        M.frozen[s.targets[1].id] = v
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
    chunk = chunk, prelude = opts.prelude, defs = {}, order = {}, aliases = {}, consts = {}, frozen = {}, used = {}, upvals = {},
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
  -- errors at a generated line are reported at the Python line (H.FINISH)
  out[#out + 1] = "  return _H_FINISH(pcall(_e_" .. fname .. (np > 0 and ", " or "") .. concat(args, ", ") .. "))"
  out[#out + 1] = "end"
  -- the entry helpers are always present
  table.insert(out, 2, "local _H_ARG, _H_FINISH, _H_RAISE, _H_SLOW, _H_SLOWC = H.ARG, H.FINISH, H.RAISE, H.SLOW, H.SLOWC")
  return concat(out, "\n") .. "\n", M.upvals
end

return T
