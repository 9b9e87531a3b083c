-- lumba: Numba for Lua 5.4. The C core (lumba.core) holds arrays, the
-- compiler and the CUDA binding; this file adds the decorator forms
-- (njit(src), njit{opts}(src), njit(sig, src)), lumba.load and jit's
-- object-mode fallback.
-- lumba.core is built against Lua 5.4's API: another Lua (LuaJIT, 5.1,
-- 5.3) could not even load it ("undefined symbol: lua_absindex")
if _VERSION ~= "Lua 5.4" then
  error(("lumba needs Lua 5.4 (this is %s): run it with lua5.4, or embed Lua 5.4 (docs/install.md)")
    :format(type(rawget(_G, "jit")) == "table" and jit.version or _VERSION), 2)
end
local core = require "lumba.core"

local lumba = {}
for k, v in pairs(core) do lumba[k] = v end
local vec = require "lumba.vectorize"
local stencil = require "lumba.stencil"

-- the globals of the code that called njit (level 3: caller of the decorator helper)
local function caller_globals(level)
  local info = debug.getinfo(level + 1, "f")
  if info and info.func then
    local i = 1
    while true do
      local name, val = debug.getupvalue(info.func, i)
      if name == nil then break end
      if name == "_ENV" then return val end
      i = i + 1
    end
  end
  return _G
end

-- The caller's local variables and upvalues when njit is called (Lua code
-- keeps its functions and constants in locals): numbers, booleans and lumba
-- functions are used as frozen values; a value of another type is kept
-- too, so that the compiler says what it is ("'cfg' refers to a Lua
-- table") rather than that the name does not exist. A local shadows an
-- upvalue of the same name, as in Lua. Called in tail position
-- (return lumba.njit(...)), njit has no caller's frame left: no locals
-- then (never those of another function), and a NameError says why.
local HINT = "lumba.hint"  -- not a Python name: the NameError's hint (resolve.c)
local TAIL_HINT = "lumba.njit was called in tail position (return lumba.njit(...)), where Lua keeps " ..
  "no record of the calling function's local variables: assign the result to a local first " ..
  "(local f = lumba.njit(...); return f) or name the value in env = {...}"

local function caller_locals(level)
  local t = {}
  local here = debug.getinfo(level, "t")
  if here and here.istailcall then
    t[HINT] = TAIL_HINT
    return t
  end
  local info = debug.getinfo(level + 1, "lf")
  if not info then return t end
  local i = 1
  while true do
    local name, val = debug.getlocal(level + 1, i)
    if name == nil then break end
    if name:sub(1, 1) ~= "(" and val ~= nil then t[name] = val end
    i = i + 1
  end
  i = 1
  while info.func do
    local name, val = debug.getupvalue(info.func, i)
    if name == nil then break end
    if name ~= "_ENV" and name ~= "" and t[name] == nil and val ~= nil then t[name] = val end
    i = i + 1
  end
  return t
end

-- ---- where a source string sits in the caller's file ----

-- A string written as a literal in a Lua file (lumba.njit [[ ... ]]) is
-- compiled as if it began on its own line of that file, so errors read
-- script.lua:12:16. The rule: the caller's chunk is a file ("@script.lua")
-- or a string given to load; from the start of the line of the call
-- (debug.getinfo's currentline: where the call's expression begins) the
-- first place the text occurs verbatim, right after a string's opening
-- ([[, [==[, " or '), is where it starts. A string built at run time, read
-- from a file, with escapes (\n, \") or passed on through a helper is not
-- found there: it keeps "<string>" and its own line numbers (give
-- chunkname to name it).
local chunk_texts = {}  -- file name → its text, "\n" line ends (the files that called njit)

local function chunk_text(source)
  local t = chunk_texts[source]
  if t == nil then
    t = false
    if source:sub(1, 1) == "@" then
      local f = io.open(source:sub(2), "rb")
      if f then
        t = f:read("a") or false
        f:close()
      end
    elseif source:sub(1, 1) ~= "=" then
      t = source  -- the text given to load
    end
    -- Lua reads "\r\n", "\n\r" and "\r" inside a long string as "\n"
    if t then t = t:gsub("\r\n", "\n"):gsub("\n\r", "\n"):gsub("\r", "\n") end
    chunk_texts[source] = t
  end
  return t
end

-- (chunkname, lines above the text) for a source string the code `level`
-- levels up passed, or nil where it is not found as written
local function origin_of(src, level)
  if type(src) ~= "string" or src == "" then return nil end
  -- njit called in tail position (return lumba.njit [[...]]): Lua keeps
  -- no record of the line that called it
  local entry = debug.getinfo(level, "t")
  if not entry or entry.istailcall then return nil end
  local info = debug.getinfo(level + 1, "Sl")
  if not info or not info.currentline or info.currentline < 1 then return nil end
  local text = chunk_text(info.source)
  if not text then return nil end
  local pos, line = 1, 1
  while line < info.currentline do
    pos = text:find("\n", pos, true)
    if not pos then return nil end
    pos, line = pos + 1, line + 1
  end
  local at = pos
  while true do
    at = text:find(src, at, true)
    if not at then return nil end
    local before = text:sub(math.max(1, at - 64), at - 1)
    if before:find("%[=*%[\n?$") or before:find("[\"']$") then break end
    at = at + 1
  end
  local _, above = text:sub(pos, at - 1):gsub("\n", "")
  local chunk = info.source:sub(1, 1) == "@" and info.source or "=" .. info.short_src
  return chunk, line - 1 + above
end

-- src as compiled: preceded by the lines above it in the caller's file,
-- and the name of that file, unless opts names the chunk
local function placed(src, opts, level)
  if opts and opts.chunkname ~= nil then return src, opts end
  local chunk, above = origin_of(src, level + 1)
  if not chunk then return src, opts end
  local o = {}
  for k, v in pairs(opts or {}) do o[k] = v end
  o.chunkname = chunk
  return ("\n"):rep(above) .. src, o
end

-- the types an option may have, for the options whose meaning a value of
-- another type would silently change (njit{boundscheck = {1}} is not "on")
local OPTION_TYPES = {
  boundscheck = "boolean", cache = "boolean", nopython = "boolean", forceobj = "boolean",
  nogil = "boolean", debug = "boolean", device = "boolean", lineinfo = "boolean", fallback = "boolean",
  parallel = "boolean or table", fastmath = "boolean or table", signatures = "string or table",
  name = "string", chunkname = "string", env = "table",
}

-- nil, or what option k should have been ("boolean") when v is not that
local function option_type_error(k, v)
  local want = OPTION_TYPES[k]
  if want == nil or v == nil then return nil end
  local tv = type(v)
  if want == tv or want:find("^" .. tv .. " or ") or want:find(" or " .. tv .. "$") then return nil end
  return want
end

-- the decorator a set of options came through, for messages
local function decorator_name(opts)
  return opts.target == "cuda" and "cuda.jit" or opts.fallback and "jit" or "njit"
end

local make  -- defined below, after the decorator helpers
local cfunc_object, cfunc_signature  -- the same
local jitclass_desugar, jitclass_register  -- the same

-- the object-mode function of a dispatcher, built on first use
local objmode_fns = setmetatable({}, { __mode = "k" })

local function is_source(x)
  return type(x) == "string" or (type(x) == "table" and x.tag ~= nil) or type(x) == "function"
end

-- njit(src) | njit{opts}(src) | njit(opts, src) | njit("sig", src) | njit({"sig", ...}, src)
function lumba.njit(a, b)
  local globals, locals = caller_globals(2), caller_locals(2)
  -- make reports the caller's mistakes 3 levels up: no tail calls to it
  if is_source(a) and b == nil then
    local src, o = placed(a, nil, 2)
    local d = make(src, o, globals, locals)
    return d
  end
  local opts
  if type(a) == "string" then
    opts = { signatures = { a } }
  elseif type(a) == "table" and a[1] ~= nil and a.tag == nil then
    opts = { signatures = a }
  elseif type(a) == "table" then
    opts = a
  else
    error("bad argument #1 to 'njit' (source string, function, AST table, options table or signature expected, got "
      .. type(a) .. ")", 2)
  end
  if b ~= nil then
    local src, o = placed(b, opts, 2)
    local d = make(src, o, globals, locals)
    return d
  end
  return function(src)
    local s, o = placed(src, opts, 2)
    local d = make(s, o, globals, caller_locals(2))
    return d
  end
end

-- ---- lumba.load: a pasted Numba module ----

-- the dotted name of a decorator expression: "numba.jit", "njit", "cuda.jit"
local function dotted(node)
  if node.tag == "Name" then return node.id end
  if node.tag == "Attribute" then
    local base = dotted(node.value)
    return base and (base .. "." .. node.attr)
  end
end

local function const_value(node, what)
  if node.tag == "Constant" then return node.value end
  if node.tag == "UnaryOp" and node.op == "USub" and node.operand.tag == "Constant"
      and type(node.operand.value) == "number" then
    return -node.operand.value
  end
  if node.tag == "List" or node.tag == "Tuple" or node.tag == "Set" then
    local t = {}
    for i, e in ipairs(node.elts) do t[i] = const_value(e, what) end
    return t
  end
  error(("lumba.load: %s must be a constant (line %d)"):format(what, node.lineno or 0), 0)
end

-- what a module's imports bind (`import numba as nb`: nb → "numba";
-- `from numba import jit as J`: J → "numba.jit"; `import numba.np`:
-- numba → "numba") and its `NAME = value` lines (a signature kept in a
-- variable), from the Import, ImportFrom and Assign statements given
local function module_names(stmts)
  local names, values = {}, {}
  for _, st in ipairs(stmts or {}) do
    if st.tag == "Import" then
      for _, al in ipairs(st.names) do
        local top = al.name:match("^[^.]+")
        names[al.asname or top] = al.asname and al.name or top
      end
    elseif st.tag == "ImportFrom" and st.module then
      for _, al in ipairs(st.names) do names[al.asname or al.name] = st.module .. "." .. al.name end
    elseif st.tag == "Assign" and #st.targets == 1 and st.targets[1].tag == "Name" then
      values[st.targets[1].id] = st.value
    end
  end
  return { names = names, values = values }
end

-- a decorator's name with the module's aliases undone: "@nb.jit" → "numba.jit"
local qualified = require("lumba.sigrecord").qualified

-- a signature written with Numba's type objects as the text lumba's
-- signatures are written in: int32(int32, int32), float64[:](nb.float64[:, ::1]),
-- types.float64, a variable holding either; nil for anything else
local function sig_text(node, mod, depth)
  depth = (depth or 0) + 1
  if depth > 32 then return nil end
  local tag = node.tag
  if tag == "Constant" then
    return type(node.value) == "string" and require("lumba.sigrecord").substitute(node.value, mod, lumba) or nil
  end
  if tag == "Name" or tag == "Call" then  -- a module's record dtype, numba.from_dtype(rec)
    local rn = require("lumba.sigrecord").name(node, mod, lumba)
    if rn then return rn end
  end
  if tag == "Name" then
    local v = not mod.names[node.id] and mod.values[node.id]
    if v then return sig_text(v, mod, depth) end
    return (mod.names[node.id] or node.id):match("[^.]+$")
  end
  if tag == "Attribute" then return node.attr end  -- nb.float64, types.float64, numba.types.float64
  if tag == "Call" and #node.keywords == 0 then
    local f, args = sig_text(node.func, mod, depth), {}
    for i, a in ipairs(node.args) do
      args[i] = sig_text(a, mod, depth)
      if not args[i] then return nil end
    end
    return f and (f .. "(" .. table.concat(args, ", ") .. ")")
  end
  if tag == "Subscript" then
    local base, dims = sig_text(node.value, mod, depth), {}
    local sl = node.slice
    for i, e in ipairs(sl.tag == "Tuple" and sl.elts or { sl }) do
      if e.tag ~= "Slice" or e.lower or e.upper then return nil end
      if e.step and not (e.step.tag == "Constant" and e.step.value == 1) then return nil end
      dims[i] = e.step and "::1" or ":"
    end
    return base and (base .. "[" .. table.concat(dims, ", ") .. "]")
  end
end

-- the signatures of a decorator's first argument: one or a list of them;
-- what (chunk, "'@njit' on 'f'") names the decorator in errors
local function signatures_of(node, mod, chunk, what)
  local v = node.tag == "Name" and not mod.names[node.id] and mod.values[node.id] or node
  -- a tuple of argument types, (int32[:, ::1],), is one signature without a return type, as in Numba
  if v.tag == "Tuple" then
    local args = {}
    for i, e in ipairs(v.elts) do
      args[i] = e.tag ~= "Call" and e.tag ~= "Constant" and sig_text(e, mod) or nil
      if not args[i] then args = nil break end
    end
    if args then return { "(" .. table.concat(args, ", ") .. ")" } end
  end
  local list = (v.tag == "List" or v.tag == "Tuple") and v.elts or { v }
  local sigs = {}
  for i, e in ipairs(list) do
    sigs[i] = sig_text(e, mod)
    if not sigs[i] then
      local at = e.lineno and e or node
      error(("%s:%d:%d: the signature of %s must be a string or a type expression such as "
        .. "float64(float64[:]), not %s"):format(chunk, at.lineno or 0, (at.col_offset or 0) + 1, what,
        e.tag == "Constant" and ("the constant " .. tostring(e.value)) or "this expression"), 0)
    end
  end
  return sigs
end

local JIT_DECORATORS = {
  njit = "njit", ["numba.njit"] = "njit", jit = "jit", ["numba.jit"] = "jit",
  ["cuda.jit"] = "cuda", ["numba.cuda.jit"] = "cuda",
  cfunc = "cfunc", ["numba.cfunc"] = "cfunc",
  ["cuda.reduce"] = "reduce", ["numba.cuda.reduce"] = "reduce",
}

-- the keywords of Numba's decorators: true where lumba honours the option,
-- false where it accepts it and changes nothing (what it controls,
-- Python's GIL, inlining at the IR level, object-mode loop lifting, the
-- C-callable wrapper, local types Numba's inference would find anyway, does
-- not change what the function computes: docs/api.md lists them)
local CPU_OPTIONS = {
  nopython = true, cache = true, parallel = true, fastmath = true, boundscheck = true,
  error_model = true, target = true, debug = true,
  nogil = false, inline = false, forceobj = false, looplift = false, locals = false,
  no_cfunc_wrapper = false, no_cpython_wrapper = false, no_rewrites = false,
  pipeline_class = false, _nrt = false, _dbg_extend_lifetimes = false, _dbg_optnone = false,
}
local CUDA_OPTIONS = {
  device = true, cache = true, fastmath = true, debug = true, lineinfo = true, opt = true,
  max_registers = true, inline = true, boundscheck = true,
  link = false, extensions = false, lto = false,
}

-- options of one def from its decorator list: kind ("njit"/"jit"/"cuda") and a table
local function decorator_options(def, chunk, mod)
  mod = mod or module_names()
  chunk = chunk:gsub("^[@=]", "")  -- as the compiler's messages show it
  local kind, opts = nil, {}
  for _, dec in ipairs(def.decorator_list or {}) do
    local call = dec.tag == "Call" and dec or nil
    local name = dotted(call and call.func or dec)
    local k = name and (JIT_DECORATORS[qualified(call and call.func or dec, mod)] or JIT_DECORATORS[name])
    if not k then
      error(("%s:%d:%d: unknown decorator '@%s' on '%s'"):format(chunk, dec.lineno, dec.col_offset + 1,
        name or "?", def.name), 0)
    end
    kind = k
    if call then
      local known = k == "cuda" and CUDA_OPTIONS or CPU_OPTIONS  -- @cfunc takes @njit's
      local what = ("'@%s' on '%s'"):format(name, def.name)
      local extra = call.args[2]
      if extra then
        error(("%s:%d:%d: %s takes one positional argument, the signature or a list of them "
          .. "(got %d); write the options as keywords (cache=True)"):format(chunk, extra.lineno,
          extra.col_offset + 1, what, #call.args), 0)
      end
      if call.args[1] then opts.signatures = signatures_of(call.args[1], mod, chunk, what) end
      for _, kw in ipairs(call.keywords) do
        local honour = kw.arg and known[kw.arg]
        if honour == nil then
          local at = kw.lineno and kw or kw.value
          error(("%s:%d:%d: unknown option '%s' of '@%s' on '%s'"):format(chunk, at.lineno, at.col_offset + 1,
            kw.arg or "**", name, def.name), 0)
        end
        if honour then
          local v = const_value(kw.value, "decorator option " .. kw.arg)
          local want = option_type_error(kw.arg, v)
          if want then
            local at = kw.value
            error(("%s:%d:%d: option '%s' of '@%s' on '%s' must be a %s, not %s"):format(chunk, at.lineno,
              at.col_offset + 1, kw.arg, name, def.name, want, type(v) == "table" and "a list" or "a " .. type(v)), 0)
          end
          opts[kw.arg] = v
        end
      end
    end
  end
  if kind == "jit" and opts.nopython then kind = "njit" end
  opts.nopython = nil
  return kind or "njit", opts
end

-- the options written in the decorators of the def a source string compiles
-- (@njit(parallel=True, cache=True) pasted verbatim means what it says);
-- options given to njit{...} win
local function with_decorators(src, opts)
  if type(src) ~= "string" or opts.decorators_read or not src:find("@", 1, true) then return opts end
  local chunk = opts.chunkname or "<string>"
  local ok, tree = pcall(core.parse, src, chunk, "decorators")
  if not ok then return opts end  -- the dispatcher reports the syntax error
  local want = opts.name
  if want == nil and opts.target == "cuda" then
    -- a pasted module: the kernel is its first @cuda.jit def, the others
    -- (@njit helpers, device functions) are what it calls
    local names = module_names(tree.imports)
    for _, st in ipairs(tree.body) do
      if st.tag == "FunctionDef" and want == nil then
        local kind, dopts = decorator_options(st, chunk, names)
        if kind == "cuda" and not dopts.device then want = st.name end
      end
    end
    if want then
      local o = {}
      for k, v in pairs(opts) do o[k] = v end
      o.name, opts = want, o
    end
  end
  for _, st in ipairs(tree.body) do
    if st.tag == "FunctionDef" and (opts.name == nil or st.name == opts.name) then
      local _, dopts = decorator_options(st, chunk, module_names(tree.imports))
      local o = {}
      for k, v in pairs(dopts) do o[k] = v end
      for k, v in pairs(opts) do o[k] = v end
      if opts.target == "cuda" then o.fallback = nil end
      return o
    end
  end
  return opts
end

-- the locals a source text names
local function named_locals(locals, src)
  local used = { [HINT] = locals[HINT] }
  for name, v in pairs(locals) do
    if src:find("%f[%w_]" .. name .. "%f[^%w_]", 1) then used[name] = v end
  end
  return used
end

function make(src, opts, globals, locals)
  for k, v in pairs(opts or {}) do  -- reported at the user's call, 3 levels up
    local want = option_type_error(k, v)
    if want then
      error(("bad option '%s' to '%s' (%s expected, got %s)"):format(k, decorator_name(opts), want, type(v)), 3)
    end
  end
  local fn  -- a function written in Lua (lumba.luafront): its AST, and it is its own object mode
  if type(src) == "function" then fn, src, opts, globals, locals = src, require("lumba.luafront").translate(src, opts, lumba) end
  opts = with_decorators(src, opts or {})
  -- only the locals a source text names: holding the others (an earlier
  -- function kept in a local, say) would keep them alive as long as this one
  if locals and type(src) == "string" and not opts.locals_named then locals = named_locals(locals, src) end
  if locals and next(locals) then
    local env = opts.env
    local proxy = setmetatable({}, { __index = function(_, k)
      if env then
        local v = env[k]
        if v ~= nil then return v end
      end
      return locals[k]
    end })
    local o = {}
    for k, v in pairs(opts) do o[k] = v end
    o.env = proxy
    opts = o
  end
  local o = {}
  for k, v in pairs(opts) do
    if k ~= "env" and k ~= "signatures" and k ~= "chunkname" and k ~= "decorators_read" and k ~= "parsed"
        and k ~= "locals_named" and k ~= "siblings" and k ~= "cfunc_sigs" then
      o[k] = v
    end
  end
  local ok, d = pcall(core.dispatcher, src, o, opts.env, globals, opts.chunkname, opts.parsed, opts.siblings)
  if not ok then
    -- an error about the call (bad option...) is reported at the user's call,
    -- not inside this file; errors about the source carry their own position
    local msg = tostring(d)
    local stripped, n = msg:gsub("^[^\n]-init%.lua:%d+: ", "")
    -- a message with no position of its own is about the call as well
    error(stripped, (n > 0 or not stripped:find("^[^\n]-:%d+:")) and 3 or 0)
  end
  local sigs = opts.signatures
  if type(sigs) == "string" then sigs = { sigs } end
  if sigs then
    for _, s in ipairs(sigs) do
      local cok, err = pcall(d.compile, d, s, true)
      if not cok then
        -- a bad signature is the caller's mistake, reported at its call;
        -- errors in the source carry their own position
        local msg = tostring(err)
        local sig_err = msg:match("^bad argument #%d+ to '[^']*' %((.*)%)$")
        if sig_err then error(sig_err, 3) end
        error(err, 0)
      end
    end
  end
  if fn then objmode_fns[d] = fn end
  return d
end

-- ---- cfunc: a C function pointer (.address) of one signature ----

-- the cfunc object over dispatcher d compiled for sig; errors `level` up
function cfunc_object(d, sig, level)
  local ok, c = pcall(core._cfunc, d, sig)
  if not ok then error(tostring(c):gsub("^[^\n]-init%.lua:%d+: ", ""), level + 1) end
  return c
end

-- a @cfunc decorator's one signature (Numba's cfunc takes exactly one)
function cfunc_signature(def, opts, chunk)
  local sigs = opts.signatures
  if sigs == nil or #sigs ~= 1 then
    local dec = def.decorator_list[1]
    error(("%s:%d:%d: '@cfunc' on '%s' takes one signature, as @cfunc(\"float64(float64, float64)\")")
      :format(chunk:gsub("^[@=]", ""), dec.lineno, dec.col_offset + 1, def.name), 0)
  end
  return sigs
end

-- cfunc(sig)(src) | cfunc(sig, src) | cfunc(sig, {opts})(src): as Numba's
-- @cfunc("float64(float64, float64)"); the object's .address is a C
-- function pointer of that signature, and it is callable from Lua
function lumba.cfunc(sig, b)
  local globals, locals = caller_globals(2), caller_locals(2)
  if type(sig) ~= "string" then
    error("bad argument #1 to 'cfunc' (a signature string such as \"float64(float64)\" expected, got " .. type(sig) .. ")", 2)
  end
  local function build(src, opts)
    local o = {}
    for k, v in pairs(opts or {}) do o[k] = v end
    o.signatures = { sig }
    local d = make(src, o, globals, locals)  -- not a tail call: make reports 3 levels up
    local c = cfunc_object(d, sig, 2)
    return c
  end
  if is_source(b) then return build(placed(b, nil, 2)) end
  if b ~= nil and type(b) ~= "table" then
    error("bad argument #2 to 'cfunc' (source or options table expected, got " .. type(b) .. ")", 2)
  end
  return function(src) return build(placed(src, b, 2)) end
end

-- ---- @jitclass (lumba/jitclass.lua) ----

function jitclass_desugar(src, chunk)
  if not src:find("jitclass", 1, true) then return src, {} end
  return require("lumba.jitclass").desugar(src, chunk)
end

-- each class made (core._jitclass) and put in siblings under its name;
-- returns the set of the method defs' names
function jitclass_register(classes, mod, chunk, siblings)
  local defs = {}
  if #classes == 0 then return defs end
  local jc = require "lumba.jitclass"
  local where = chunk:gsub("^[@=]", "")
  local function parse_expr(text, line)
    local tree = core.parse(("\n"):rep(line - 1) .. "__lumba_expr = " .. text .. "\n", chunk, "decorators")
    for _, st in ipairs(tree.imports) do
      if st.tag == "Assign" and st.targets[1].id == "__lumba_expr" then return st.value end
    end
    error(("%s:%d:1: cannot read '%s'"):format(where, line, text), 0)
  end
  local known = {}  -- the classes made so far: fields may hold their instances
  local all_names, forward = {}, {}  -- every class: a deferred_type may name a later one
  for _, c in ipairs(classes) do all_names[c.name] = true end
  for _, c in ipairs(classes) do
    local fields = jc.fields(c, mod, sig_text, parse_expr, where, known, classes.defines, all_names)
    for i, f in ipairs(fields) do
      if type(f[2]) == "table" then forward[#forward + 1] = { c, i, f[2][1] } end
    end
    local ok, ud = pcall(core._jitclass, c.name, fields, c.methods)
    if not ok then error(("%s:%d:1: @jitclass %s: %s"):format(where, c.line, c.name, tostring(ud)), 0) end
    c.ud = ud
    known[c.name] = ud
    siblings[c.name] = ud
    for _, m in ipairs(c.methods) do defs[m[2]] = true end
  end
  for _, f in ipairs(forward) do core._jitclass_link(f[1].ud, f[2], known[f[3]]) end
  jc.install(core)
  return defs
end

-- lumba.load(module_src [, {env=..., chunkname=...}]) → table of dispatchers by name
function lumba.load(src, options)
  if type(src) ~= "string" then
    error("bad argument #1 to 'load' (source string expected, got " .. type(src) .. ")", 2)
  end
  local globals, locals = caller_globals(2), caller_locals(2)
  for k, v in pairs(type(options) == "table" and options or {}) do
    local want = option_type_error(k, v)
    if want then error(("bad option '%s' to 'load' (%s expected, got %s)"):format(k, want, type(v)), 2) end
  end
  src, options = placed(src, options, 2)
  options = options or {}
  local chunk = options.chunkname or "<string>"
  -- @jitclass classes become defs of the same lines (lumba/jitclass.lua)
  local classes
  src, classes = jitclass_desugar(src, chunk)
  -- the defs' decorators and the imports: a plain Python helper lumba
  -- cannot compile is left out (it raises its error if something calls it)
  local tree = core.parse(src, chunk, "decorators")
  local names = module_names(tree.imports)
  local stencils = stencil.find(src, chunk, names, vec.decorator_kind)
  if stencils then  -- @stencil defs rewritten into plain defs (lua/lumba/stencil.lua)
    src = stencil.transform(src, chunk:gsub("^[@=]", ""), stencils, const_value)
    tree = core.parse(src, chunk, "decorators")
  end
  -- one parse and one scan of the locals for all the module's dispatchers
  local parsed = core._parsed(src, chunk)
  locals = named_locals(locals, src)
  local mod = {}
  local stencil_outs = {}  -- a stencil's dispatcher writing into out=, by the stencil's name
  local siblings = {}  -- the dispatchers by name (mod holds a @cfunc's object instead), and the jitclasses
  local methods = jitclass_register(classes, names, chunk, siblings)
  for _, st in ipairs(tree.body) do
    local vk, vdec = nil, nil
    if st.tag == "FunctionDef" then vk, vdec = vec.decorator_kind(st, names) end
    if st.tag == "FunctionDef" and st.name:find("^__lumba_stencil_out_") then  -- s(a, out=b) from Lua
      local _, opts = decorator_options(st, chunk, names)
      opts.name, opts.env, opts.chunkname, opts.decorators_read, opts.parsed = st.name, options.env, chunk, true, parsed
      opts.locals_named, opts.siblings = true, siblings
      stencil_outs[st.name:sub(#"__lumba_stencil_out_" + 1)] = make(src, opts, globals, locals)
    elseif st.tag == "FunctionDef" and st.name:find("^__lumba_") then  -- @stencil's kernels: not the module's
      vk = nil
    elseif vk then  -- @vectorize, @guvectorize (lua/lumba/vectorize.lua)
      mod[st.name] = vec.from_load(vk, st, vdec, src, names, chunk, options, globals, locals, mod)
    elseif st.tag == "FunctionDef" then
      local kind, opts = decorator_options(st, chunk, names)
      opts.name = st.name
      opts.env = options.env
      opts.chunkname = chunk
      opts.decorators_read = true
      opts.parsed = parsed
      if kind == "reduce" then
        mod[st.name] = lumba.cuda.reduce(src, st.name)
      elseif kind == "cuda" then
        if not lumba.cuda.jit then error("lumba.load: cuda.jit is not available in this build", 2) end
        mod[st.name] = lumba.cuda.jit(opts)(src)
        siblings[st.name] = mod[st.name]
      else
        if kind == "jit" then opts.fallback = true end
        opts.locals_named = true
        opts.siblings = siblings  -- calls between them link compiled code (resolve.c)
        if kind == "cfunc" then opts.cfunc_sigs = cfunc_signature(st, opts, chunk) end
        local d = make(src, opts, globals, locals)
        siblings[st.name] = d
        if not methods[st.name] then mod[st.name] = kind == "cfunc" and cfunc_object(d, opts.signatures[1], 3) or d end
      end
    end
  end
  for _, c in ipairs(classes) do mod[c.name] = require("lumba.jitclass").class_object(c.ud, c, siblings) end
  for _, s in ipairs(stencils or {}) do
    mod[s.def.name] = stencil.object(mod[s.def.name], stencil_outs[s.def.name], s)
  end
  return mod
end

-- ---- jit: compile, or fall back to object mode with one warning ----

-- warnings go through this hook (replace it to capture or silence them)
function lumba.warnings(msg)
  io.stderr:write("lumba: warning: ", msg, "\n")
end
core.dispatcher_methods.__warn = function(msg) lumba.warnings(msg) end

local function objmode_fn(d)
  local f = objmode_fns[d]
  if f then return f end
  local objmode = require "lumba.objmode"
  local src = d.source
  local tree = type(src) == "string" and core.parse(src) or src
  local env = setmetatable({}, {
    __index = function(_, k)
      local e = d.env
      if e and e[k] ~= nil then return e[k] end
      local g = d.globals
      if g then return g[k] end
    end,
  })
  f = objmode.compile(tree, d.name, env, { chunk = d.chunkname })
  objmode_fns[d] = f
  return f
end

-- d:interpret(...): run the function by the Lua VM with Python's semantics (the oracle)
core.dispatcher_methods.interpret = function(d, ...)
  return objmode_fn(d)(...)
end

-- jit(src) | jit{opts}(src): like njit, but falls back to object mode when
-- compilation fails; jit{nopython=true} is njit
function lumba.jit(a, b)
  local globals, locals = caller_globals(2), caller_locals(2)
  local function build(src, opts)
    opts = opts or {}
    local o = {}
    for k, v in pairs(opts) do o[k] = v end
    if not o.nopython then o.fallback = true end
    o.nopython = nil
    local d = make(src, o, globals, locals)  -- not a tail call: make reports 3 levels up
    return d
  end
  if is_source(a) and b == nil then return build(placed(a, nil, 2)) end
  if type(a) == "table" and a.tag == nil then
    if b ~= nil then return build(placed(b, a, 2)) end
    return function(src) return build(placed(src, a, 2)) end
  end
  error("bad argument #1 to 'jit' (source string, function, AST table or options table expected, got " .. type(a) .. ")", 2)
end

-- ---- CUDA: cuda.jit kernels and device functions ----

-- cuda.jit(src) | cuda.jit{device=true, fastmath=true}(src) | cuda.jit("sig", src)
function lumba.cuda.jit(a, b)
  local globals, locals = caller_globals(2), caller_locals(2)
  local function build(src, opts)
    local o = { target = "cuda" }
    for k, v in pairs(opts or {}) do o[k] = v end
    local d = make(src, o, globals, locals)  -- not a tail call: make reports 3 levels up
    return d
  end
  if is_source(a) and b == nil then return build(placed(a, nil, 2)) end
  local opts
  if type(a) == "string" then
    opts = { signatures = { a } }
  elseif type(a) == "table" and a[1] ~= nil and a.tag == nil then
    opts = { signatures = a }
  elseif type(a) == "table" then
    opts = a
  else
    error("bad argument #1 to 'cuda.jit' (source, options or signature expected, got " .. type(a) .. ")", 2)
  end
  if b ~= nil then return build(placed(b, opts, 2)) end
  return function(src) return build(placed(src, opts, 2)) end
end

-- lumba.empty_like/zeros_like/ones_like(a [, dtype]), full_like(a, v [, dtype]):
-- a new array of a's shape (and dtype unless given), on a's side: a host
-- ndarray (in a's order, C or F) for an ndarray, a device array for a device array
local function is_devarray(a) return getmetatable(a) == "lumba.devicearray" end
local function like(make)
  return function(a, v, dtype)
    if make ~= "full" then dtype, v = v, nil end
    if is_devarray(a) then
      local dt = dtype or a.dtype
      if make == "empty" then return lumba.cuda.device_array(a.shape, dt) end
      local h = make == "full" and lumba.full(a.shape, v, dt) or lumba[make](a.shape, dt)
      return lumba.cuda.to_device(h)
    end
    if getmetatable(a) ~= "lumba.ndarray" then a = lumba.array(a) end
    local order = a.layout == "F" and "F" or "C"
    if make == "full" then return lumba.full(a.shape, v, dtype or a.dtype, order) end
    return lumba[make](a.shape, dtype or a.dtype, order)
  end
end
lumba.empty_like, lumba.zeros_like, lumba.ones_like = like("empty"), like("zeros"), like("ones")
lumba.full_like = like("full")

-- cuda.random: numba-cuda's xoroshiro128+ states, made on the host as
-- numba-cuda makes them (SplitMix64 of the seed, then 2^64-step jumps: state
-- i is state i - 1 jumped once, state 0 jumped subsequence_start times). A
-- state array is a uint64 device array of shape (n, 2); the kernels' side is
-- the prelude's (src/prelude/cuda_random.py).
local xoro_jumps  -- compiled at the first use
local XORO_JUMP_SRC = [[
def xoro_jumps(states, jump, skip):
    for i in range(states.shape[0]):
        if i > 0:
            states[i, 0] = states[i - 1, 0]
            states[i, 1] = states[i - 1, 1]
        reps = skip if i == 0 else 1
        for _ in range(reps):
            s0 = np.uint64(0)
            s1 = np.uint64(0)
            for w in range(2):
                for b in range(64):
                    if (jump[w] >> np.uint64(b)) & np.uint64(1):
                        s0 ^= states[i, 0]
                        s1 ^= states[i, 1]
                    a0 = states[i, 0]
                    a1 = states[i, 1] ^ a0
                    states[i, 0] = ((a0 << np.uint64(55)) | (a0 >> np.uint64(9))) ^ a1 ^ (a1 << np.uint64(14))
                    states[i, 1] = (a1 << np.uint64(36)) | (a1 >> np.uint64(28))
            states[i, 0] = s0
            states[i, 1] = s1
]]
-- SplitMix64's mixing of a seed, from text: Lua 5.4's bitwise operators
-- would keep LuaJIT and Lua 5.1 from parsing this file, which must reach
-- its "lumba needs Lua 5.4" error
local splitmix64 = load([[
local z = ... + 0x9E3779B97F4A7C15
z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
z = (z ~ (z >> 27)) * 0x94D049BB133111EB
return z ~ (z >> 31)
]], "=splitmix64")
local function xoro_states_host(n, seed, subsequence_start)
  local states = lumba.zeros({ n, 2 }, "uint64")
  if n >= 1 then
    local z = splitmix64(seed)
    states:set(1, 1, z)
    states:set(1, 2, z)
    xoro_jumps = xoro_jumps or lumba.njit(XORO_JUMP_SRC)
    xoro_jumps(states, lumba.array({ 0xbeac0467eba5facb, 0xd86b048b86aa9922 }, "uint64"), subsequence_start)
  end
  return states
end
local function check_seed(seed, sub)
  if math.type(seed) ~= "integer" then error("bad argument #2 to 'create_xoroshiro128p_states' (integer seed expected)", 3) end
  if math.type(sub) ~= "integer" or sub < 0 then
    error("bad argument #3 to 'create_xoroshiro128p_states' (non-negative integer expected)", 3)
  end
end
lumba.cuda.random = {
  -- create_xoroshiro128p_states(n, seed [, subsequence_start [, stream]])
  create_xoroshiro128p_states = function(n, seed, subsequence_start, stream)
    subsequence_start = subsequence_start or 0
    if math.type(n) ~= "integer" or n < 0 then
      error("bad argument #1 to 'create_xoroshiro128p_states' (non-negative integer expected)", 2)
    end
    check_seed(seed, subsequence_start)
    local h = xoro_states_host(n, seed, subsequence_start)
    if stream == 0 then stream = nil end
    return lumba.cuda.to_device(h, stream)
  end,
  -- init_xoroshiro128p_states(states, seed [, subsequence_start [, stream]]): into an existing state array
  init_xoroshiro128p_states = function(states, seed, subsequence_start, stream)
    subsequence_start = subsequence_start or 0
    check_seed(seed, subsequence_start)
    local h = xoro_states_host(states.shape[1], seed, subsequence_start)
    if stream == 0 then stream = nil end
    states:copy_to_device(h, stream)
  end,
}

-- @cuda.reduce: cuda.reduce(src [, name]) makes a reduction object from a
-- binary function (Python source, a def of two arguments); r(arr [, size
-- [, res [, init [, stream]]]]) or r(arr, {size =, res =, init =, stream =})
-- reduces a device or host array with it: a grid-stride pass per thread and a
-- shared-memory tree per block into per-block partials, then one block over
-- those, combined with init (default 0) last, as numba-cuda's two passes
local REDUCE_TPB = 256
local REDUCE_KERNEL = [[
@cuda.jit
def reduce_pass(a, out, n, init, use_init):
    s = cuda.shared.array(256, DTYPE)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    if i < n:
        s[t] = a[i]
        j = i + stride
        while j < n:
            s[t] = reduce_op(s[t], a[j])
            j += stride
    cuda.syncthreads()
    step = 128
    while step > 0:
        if t < step and i + step < n:
            s[t] = reduce_op(s[t], s[t + step])
        cuda.syncthreads()
        step //= 2
    if t == 0 and i < n:
        if use_init:
            out[cuda.blockIdx.x] = reduce_op(init, s[0])
        else:
            out[cuda.blockIdx.x] = s[0]
]]
local reduce_mt = { __index = {}, __name = "lumba.cuda_reduce" }
reduce_mt.__tostring = function(r) return ("<cuda.reduce %s>"):format(r.name) end
reduce_mt.__call = function(r, arr, size, res, init, stream)
  local cuda = lumba.cuda
  if type(size) == "table" then size, res, init, stream = size.size, size.res, size.init, size.stream end
  if getmetatable(arr) ~= "lumba.devicearray" then arr = cuda.to_device(arr) end
  if arr.ndim ~= 1 then error("bad argument #1 to reduce (1-D array expected)", 2) end
  local n = size or arr.size
  init = init or 0
  local dt = arr.dtype
  if n == 0 then
    if res then res[1] = init return nil end
    return init
  end
  local k = r.kernels[dt]
  if not k then
    local npdt = "np." .. dt
    k = cuda.jit({ env = { reduce_op = r.device } })((REDUCE_KERNEL:gsub("DTYPE", npdt)))
    r.kernels[dt] = k
  end
  local blocks = math.min(math.ceil(n / REDUCE_TPB), 1024)  -- no //: Lua 5.1 must parse this file
  local partials = cuda.device_array(blocks, dt)
  k[{ blocks, REDUCE_TPB, stream }](arr, partials, n, init, false)
  local out = res or cuda.device_array(1, dt)
  k[{ 1, REDUCE_TPB, stream }](partials, out, blocks, init, true)
  if res then return nil end
  return out[1]
end
function lumba.cuda.reduce(src, name)
  if type(src) ~= "string" then error("bad argument #1 to 'cuda.reduce' (source string expected, got " .. type(src) .. ")", 2) end
  local dev = lumba.cuda.jit({ device = true, name = name })(src)
  return setmetatable({ device = dev, name = dev.name, kernels = {} }, reduce_mt)
end

-- cuda.gpus: the devices as a list (1-based in Lua; .id is the 0-based
-- device number select_device takes), each with :run(fn, ...) that runs fn
-- with that device current and restores the previous one
local gpu_methods = {}
function gpu_methods.run(self, fn, ...)
  local cuda = lumba.cuda
  local prev = cuda.get_current_device().id
  cuda.select_device(self.id)
  local res = table.pack(pcall(fn, ...))
  cuda.select_device(prev)
  if not res[1] then error(res[2], 0) end
  return table.unpack(res, 2, res.n)
end
local gpu_mt = { __index = gpu_methods, __tostring = function(g)
  return ("<CUDA device %d '%s'>"):format(g.id, g.name)
end }

-- cuda.simulate is both a function (cuda.simulate(true)) and, as DESIGN.md
-- spells it, a setting (cuda.simulate = true): keep it out of the raw table
local simulate_fn = rawget(lumba.cuda, "simulate")
rawset(lumba.cuda, "simulate", nil)

setmetatable(lumba.cuda, { __index = function(_, k)
  if k == "gpus" then
    local list = {}
    for i, d in ipairs(lumba.cuda.devices()) do
      d.total_memory = d.memory
      list[i] = setmetatable(d, gpu_mt)
    end
    return list
  end
  if k == "simulate" then return simulate_fn end
end, __newindex = function(t, k, v)
  if k == "simulate" and simulate_fn and type(v) == "boolean" then simulate_fn(v) else rawset(t, k, v) end
end })

-- k:inspect_ptx([sig [, {cc = {9, 0}}]]): the PTX of a compiled kernel signature
core.dispatcher_methods.inspect_ptx = function(d, sig, opts)
  local cc = opts and opts.cc
  if not cc then
    local ok, dev = pcall(function() return lumba.cuda.get_current_device and lumba.cuda.get_current_device() end)
    cc = ok and dev and dev.compute_capability or { 9, 0 }
  end
  local ok, ir = pcall(d._gpu_llvm, d, sig)
  if not ok then error(ir, 2) end  -- reported where inspect_ptx was called
  return core.cuda._compile_ptx(ir, { cc = cc, fastmath = d.options.fastmath })
end

-- lumba.config.warn_on_compile = true: from then on, a call that compiles
-- a new specialization warns through lumba.warnings (a function: it is
-- called instead, with the message, the dispatcher's name, the argument
-- types and the milliseconds spent; it may raise to make that an error)
local warn_on_compile = false
local function set_warn_on_compile(v)
  if v ~= nil and type(v) ~= "boolean" and type(v) ~= "function" then
    error("lumba.config.warn_on_compile must be a boolean or a function, not a " .. type(v), 3)
  end
  warn_on_compile = v or false
  if not v then core._set_on_compile(nil) return end
  core._set_on_compile(function(name, types, ms, where)
    local msg = ("%s'%s' compiled a new specialization %s in %.1f ms (lumba.config.warn_on_compile is on; "
      .. "compile it at load time: eager signatures or :compile, docs/dispatchers.md)"):format(where, name, types, ms)
    if type(warn_on_compile) == "function" then warn_on_compile(msg, name, types, ms)
    else lumba.warnings(msg) end
  end)
end

-- lumba.config.num_threads reads and sets the prange pool's size
lumba.config = setmetatable({}, {
  __index = function(_, k)
    if k == "num_threads" then return core.get_num_threads() end
    if k == "verbose" then return core._get_verbose() end
    if k == "warn_on_compile" then return warn_on_compile end
  end,
  __newindex = function(t, k, v)
    if k == "num_threads" then core.set_num_threads(v)
    elseif k == "verbose" then core._set_verbose(v)
    elseif k == "warn_on_compile" then set_warn_on_compile(v)
    else rawset(t, k, v) end
  end,
})

-- @vectorize, @guvectorize: ufunc objects (lua/lumba/vectorize.lua)
vec.install(lumba, { make = make, signatures_of = signatures_of, const_value = const_value, qualified = qualified,
  parse = core.parse, caller_globals = caller_globals })

-- lumba.stencil([opts])(src): a @stencil def of a one-def source as a dispatcher
function lumba.stencil(a, b)
  local function build(src, opts, level)
    if type(src) ~= "string" then error("bad argument to 'stencil' (source string expected)", level) end
    local chunk = opts.chunkname or "<string>"
    local deco = "@stencil("
    for k, v in pairs(opts) do
      if k ~= "chunkname" and k ~= "env" then
        local function py(x)
          if type(x) == "table" then
            local t = {}
            for i, e in ipairs(x) do t[i] = py(e) end
            return "(" .. table.concat(t, ", ") .. (#t == 1 and ",)" or ")")
          end
          if type(x) == "string" then return ("%q"):format(x) end
          if type(x) == "boolean" then return x and "True" or "False" end
          return tostring(x)
        end
        deco = deco .. k .. "=" .. py(v) .. ", "
      end
    end
    deco = deco:gsub(", $", "") .. ")"
    -- the decorator goes on the line above the def (lines above stay blank, so positions hold)
    local text = src:gsub("^(%s*)", "%1")
    local first_def = text:find("def ")
    if not first_def then error("bad argument to 'stencil' (no def in the source)", level) end
    local before = text:sub(1, first_def - 1)
    local nl = before:match("\n[^\n]*$") and "" or ""
    local _ = nl
    local full = "from numba import stencil\n" .. deco .. "\n" .. text
    local m = lumba.load(full, { chunkname = chunk, env = opts.env })
    for k, v in pairs(m) do if not k:find("^__lumba_") then return v end end
  end
  if type(a) == "string" then return build(a, b or {}, 3) end
  local opts = a or {}
  return function(src) return build(src, opts, 3) end
end

-- in plain Lua, an iterator over a..b (compiled Lua functions run it in parallel)
lumba.prange = function(...) return require("lumba.luafront").prange(...) end

return lumba
