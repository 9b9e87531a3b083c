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
    if k ~= "env" and k ~= "signatures" and k ~= "chunkname" then o[k] = v end
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

lumba.prange = function(...) error("lumba.prange is only meaningful inside compiled code", 2) end

return lumba
