-- Shared tools for the specs.
local lumba = require "lumba"
local H = {}

-- busted's it/pending live in the spec file's environment, not in _G:
-- find them through the calling function's _ENV
local function caller_env(level)
  local f = debug.getinfo(level + 1, "f").func
  for i = 1, math.huge do
    local name, val = debug.getupvalue(f, i)
    if name == nil then break end
    if name == "_ENV" then return val end
  end
  return _G
end

-- it() for GPU-only tests: pending with "[needs CUDA]" where no GPU is
function H.gpu_it(name, fn)
  local env = caller_env(2)
  if lumba.cuda.is_available() then env.it(name, fn) else env.pending("[needs CUDA] " .. name) end
end

function H.assert_close(expected, got, rtol, atol)
  rtol = rtol or 1e-12
  atol = atol or 0
  local diff = math.abs(expected - got)
  if not (diff <= atol + rtol * math.abs(expected)) then
    error(string.format("expected %.17g, got %.17g (rtol %g)", expected, got, rtol), 2)
  end
end

-- the error message of f(...), failing the test when f does not raise
function H.error_of(f, ...)
  local ok, err = pcall(f, ...)
  if ok then error("expected an error, got none", 2) end
  return tostring(err)
end

-- err without the traceback line a run-time error of compiled code ends
-- with ("\n<chunk>:<line>:<col>: in <function>\n    <source line>"), which
-- tests/traceback_spec.lua checks: the message as Python would print it
function H.message(err)
  return (tostring(err):gsub("\n[^\n]+:%d+:%d+: in [%w_.]+\n    [^\n]*$", ""))
end

-- the error message of f(...) without its traceback line
function H.message_of(f, ...)
  local ok, err = pcall(f, ...)
  if ok then error("expected an error, got none", 2) end
  return H.message(err)
end

-- runs a Lua chunk in a fresh lua5.4 with the given environment (a prefix of
-- VAR=value words for the shell), returns its output, stderr included
function H.run_lua(env, code)
  local build = os.getenv("LUMBA_CPATH") or "build"
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write(string.format("package.cpath = %q .. package.cpath\n", build .. "/?.so;"))
  f:write('package.path = "lua/?.lua;lua/?/init.lua;tests/?.lua;" .. package.path\n')
  f:write(code)
  f:close()
  local p = io.popen(env .. " lua5.4 " .. path .. " 2>&1")
  local out = p:read("a")
  p:close()
  os.remove(path)
  return out
end

-- s quoted for the shell
function H.shell_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- the bytes of a file, nil when it cannot be read
function H.slurp(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

-- writes s to a file
function H.spit(path, s)
  local f = assert(io.open(path, "wb"))
  f:write(s)
  f:close()
end

-- a fresh temporary directory, recorded in list (for a teardown to remove)
function H.tmpdir(list)
  local p = os.tmpname()
  os.remove(p)
  assert(os.execute("mkdir -p " .. H.shell_quote(p)))
  list[#list + 1] = p
  return p
end

-- runs the Lua text script in a fresh lua5.4 with LUMBA_CACHE_DIR=dir and
-- the VAR=value words of envs: its stdout, its stderr and its exit code
function H.run_cached(dir, script, envs)
  local q = H.shell_quote
  -- one script path per cache directory, as a user's script run again:
  -- a source string written in it is placed in that file (its name and line
  -- are part of the cache key, as Numba's cache is per file and line)
  local path, errf = dir .. ".script.lua", os.tmpname()
  local f = io.open(path, "wb")
  if f then f:close() else path = os.tmpname() end  -- dir under a file, on purpose
  H.spit(path, script)
  local p = io.popen(("LUMBA_CACHE_DIR=%s %s lua5.4 %s 2>%s"):format(q(dir), envs or "", q(path), q(errf)))
  local out = p:read("a")
  local _, _, code = p:close()
  local err = H.slurp(errf) or ""
  os.remove(path)
  os.remove(errf)
  return out, err, code
end

-- the key=value lines of a child's output, as a table
function H.key_values(out)
  local t = {}
  for k, v in out:gmatch("([%w_]+)=([^\n]*)") do t[k] = v end
  return t
end

-- An array (or a Lua number/boolean result) as a flat list of its values,
-- row-major, booleans as 1/0 (NumPy's JSON side compares them so). Lua gives
-- uint64 values above 2^63 as negative integers: with unsigned, as floats
-- (what an oracle printing them as floats gives).
function H.flat(a, unsigned)
  if type(a) ~= "userdata" then return { a == true and 1 or a == false and 0 or a } end
  local out = {}
  local function walk(t)
    if type(t) ~= "table" then out[#out + 1] = t == true and 1 or t == false and 0 or t; return end
    for _, v in ipairs(t) do walk(v) end
  end
  walk(a.ndim == 0 and a:get() or a:totable())
  if unsigned and a.dtype == "uint64" then
    for j, v in ipairs(out) do out[j] = v < 0 and v + 2.0^64 or v end
  end
  return out
end

-- An array's shape as a plain list ({} for a Lua scalar).
function H.shape_of(a)
  local s = {}
  if type(a) == "userdata" then for k = 1, a.ndim do s[k] = a.shape[k] end end
  return s
end

-- A result as { dtype, shape, values }, Lua scalars typed as Numba does.
function H.result_of(x)
  if type(x) == "number" then
    return { dtype = math.type(x) == "integer" and "int64" or "float64", shape = {}, values = { x } }
  elseif type(x) == "boolean" then
    return { dtype = "bool", shape = {}, values = { x and 1 or 0 } }
  end
  return { dtype = x.dtype, shape = H.shape_of(x), values = H.flat(x) }
end

-- Two flat lists equal element by element, NaN equal to NaN; with loose,
-- within a relative 1e-6.
function H.same_values(want, got, loose)
  if #want ~= #got then return false end
  for j = 1, #want do
    local w, g = want[j], got[j]
    if w ~= w then
      if g == g then return false end
    elseif w ~= g and not (loose and math.abs(w - g) <= 1e-6 * math.abs(w)) then
      return false
    end
  end
  return true
end

-- MemInfos alive once the garbage is collected (twice: a finalizer may free more)
function H.live_meminfos()
  collectgarbage()
  collectgarbage()
  return lumba._live_meminfos()
end

-- how many more MemInfos are alive after f() than before it
function H.live_after(f)
  local before = H.live_meminfos()
  f()
  return H.live_meminfos() - before
end

-- the elements of a record array as plain tables, a complex field as {re, im}
function H.record_values(a)
  local t = a:totable()
  for _, e in ipairs(t) do
    for k, v in pairs(e) do
      if type(v) == "userdata" then e[k] = { v.real, v.imag } end
    end
  end
  return t
end

-- libNVVM and ptxas both here, so PTX can be made and assembled without a GPU
function H.has_ptx_toolkit()
  local ptxas = io.open((os.getenv("CUDA_HOME") or "/usr/local/cuda") .. "/bin/ptxas")
  if ptxas then ptxas:close() end
  local tk = require("lumba").cuda._toolkit()
  return ptxas ~= nil and tk ~= nil and tk.nvvm ~= nil
end

-- ptxas -arch=sm_90 on the text ptx: true, or false and what it said; nil
-- and a reason where the toolkit has no ptxas
function H.ptxas(ptx)
  local ptxas = (os.getenv("CUDA_HOME") or "/usr/local/cuda") .. "/bin/ptxas"
  local f = io.open(ptxas)
  if not f then return nil, "no " .. ptxas end
  f:close()
  local path = os.tmpname()
  H.spit(path, ptx)
  local p = io.popen(ptxas .. " -arch=sm_90 -o /dev/null " .. path .. " 2>&1")
  local out = p:read("a")
  local ok = p:close()
  os.remove(path)
  return ok == true, out
end

-- a pasted @jitclass module run as plain Python (H.jitclass_python): numba's
-- names shimmed away, a class a class, spec types (deferred_type, optional,
-- UniTuple, Tuple) placeholders
H.JITCLASS_PY_SHIM = [[
import sys, types
numba = types.ModuleType("numba")
numba.njit = lambda f=None, **k: f if callable(f) else (lambda g: g)
for name in ("int32", "int64", "float32", "float64", "boolean"):
    setattr(numba, name, name)
numba.deferred_type = lambda: types.SimpleNamespace(define=lambda t: None)
numba.optional = lambda t: t
nbtypes = types.ModuleType("numba.types")
nbtypes.UniTuple = lambda t, n: t
nbtypes.Tuple = lambda ts: ts
numba.types = nbtypes
sys.modules["numba.types"] = nbtypes
def _jitclass(spec=None):
    def deco(c):
        c.class_type = types.SimpleNamespace(instance_type=c)
        return c
    return deco(spec) if isinstance(spec, type) else deco
exp = types.ModuleType("numba.experimental")
exp.jitclass = _jitclass
numba.experimental = exp
sys.modules["numba"] = numba
sys.modules["numba.experimental"] = exp
]]

-- what module then script print as plain Python, as a list of words
-- (numbers where they read as one), and the whole output
function H.jitclass_python(module, script)
  local out = require("numpy_oracle").run_python(H.JITCLASS_PY_SHIM .. module .. "\n" .. script)
  local vals = {}
  for x in out:gmatch("%S+") do vals[#vals + 1] = tonumber(x) or x end
  return vals, out
end

-- the error of loading header, then a class P with @jitclass(spec) on the
-- next line but one (chunk "p.py"), failing the test when it loads
function H.jitclass_error(header, spec)
  local src = header .. "\n@jitclass(" .. spec .. ")\nclass P:\n    def __init__(self):\n        pass\n"
  local ok, err = pcall(lumba.load, src, { chunkname = "=p.py" })
  if ok then error("expected an error, got none", 2) end
  return err
end

return H
