-- lumba: Numba for Lua 5.4. The C core (lumba.core) holds arrays, the
-- compiler and the CUDA binding; this file adds the decorator forms
-- (njit(src), njit{opts}(src), njit(sig, src)), lumba.load and jit's
-- object-mode fallback.
local core = require "lumba.core"

local lumba = {}
for k, v in pairs(core) do lumba[k] = v end

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

local function is_source(x)
  return type(x) == "string" or (type(x) == "table" and x.tag ~= nil)
end

local function make(src, opts, globals)
  opts = opts or {}
  local o = {}
  for k, v in pairs(opts) do
    if k ~= "env" and k ~= "signatures" and k ~= "chunkname" and k ~= "fallback" then o[k] = v end
  end
  local d = core.dispatcher(src, o, opts.env, globals, opts.chunkname)
  local sigs = opts.signatures
  if type(sigs) == "string" then sigs = { sigs } end
  if sigs then
    for _, s in ipairs(sigs) do d:compile(s, true) end
  end
  return d
end

-- njit(src) | njit{opts}(src) | njit(opts, src) | njit("sig", src) | njit({"sig", ...}, src)
function lumba.njit(a, b)
  local globals = caller_globals(2)
  if is_source(a) and b == nil then return make(a, nil, globals) end
  local opts
  if type(a) == "string" then
    opts = { signatures = { a } }
  elseif type(a) == "table" and a[1] ~= nil and a.tag == nil then
    opts = { signatures = a }
  elseif type(a) == "table" then
    opts = a
  else
    error("bad argument #1 to 'njit' (source string, AST table, options table or signature expected, got "
      .. type(a) .. ")", 2)
  end
  if b ~= nil then return make(b, opts, globals) end
  return function(src) return make(src, opts, globals) end
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
  if node.tag == "List" or node.tag == "Tuple" then
    local t = {}
    for i, e in ipairs(node.elts) do t[i] = const_value(e, what) end
    return t
  end
  error(("lumba.load: %s must be a constant (line %d)"):format(what, node.lineno or 0), 0)
end

local JIT_DECORATORS = {
  njit = "njit", ["numba.njit"] = "njit", jit = "jit", ["numba.jit"] = "jit",
  ["cuda.jit"] = "cuda", ["numba.cuda.jit"] = "cuda",
}

-- options of one def from its decorator list: kind ("njit"/"jit"/"cuda") and a table
local function decorator_options(def, chunk)
  local kind, opts = nil, {}
  for _, dec in ipairs(def.decorator_list or {}) do
    local call = dec.tag == "Call" and dec or nil
    local name = dotted(call and call.func or dec)
    local k = name and JIT_DECORATORS[name]
    if not k then
      error(("%s:%d:%d: lumba.load: unknown decorator '@%s' on '%s'"):format(chunk, dec.lineno, dec.col_offset + 1,
        name or "?", def.name), 0)
    end
    kind = k
    if call then
      for i, a in ipairs(call.args) do
        if i == 1 then opts.signatures = const_value(a, "a signature") end
      end
      for _, kw in ipairs(call.keywords) do opts[kw.arg] = const_value(kw.value, "decorator option " .. kw.arg) end
    end
  end
  if kind == "jit" and opts.nopython then kind = "njit" end
  opts.nopython = nil
  opts.nogil = nil
  if type(opts.signatures) == "string" then opts.signatures = { opts.signatures } end
  return kind or "njit", opts
end

-- lumba.load(module_src [, {env=..., chunkname=...}]) → table of dispatchers by name
function lumba.load(src, options)
  if type(src) ~= "string" then
    error("bad argument #1 to 'load' (source string expected, got " .. type(src) .. ")", 2)
  end
  options = options or {}
  local globals = caller_globals(2)
  local chunk = options.chunkname or "<string>"
  local tree = core.parse(src, chunk)
  local mod = {}
  for _, st in ipairs(tree.body) do
    if st.tag == "FunctionDef" then
      local kind, opts = decorator_options(st, chunk)
      opts.name = st.name
      opts.env = options.env
      opts.chunkname = chunk
      if kind == "cuda" then
        if not lumba.cuda.jit then error("lumba.load: cuda.jit is not available in this build", 2) end
        mod[st.name] = lumba.cuda.jit(opts)(src)
      else
        if kind == "jit" and lumba.jit then opts.fallback = true end
        mod[st.name] = make(src, opts, globals)
      end
    end
  end
  return mod
end

lumba.prange = function(...) error("lumba.prange is only meaningful inside compiled code", 2) end

return lumba
