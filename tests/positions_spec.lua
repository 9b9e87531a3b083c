-- Positions that know their source (issue 17): an error inside a function
-- that another one uses is shown in that function's own text, with its own
-- chunk name, line, column and caret: a cuda.jit device function imported
-- into a kernel, a callee compiled by another dispatcher from another
-- source, a function written in Lua. Whole messages are matched, and each
-- test then compiles and runs something else on the same Lua state.
local lumba = require "lumba"
local H = require "helpers"
local njit, cuda = lumba.njit, lumba.cuda

-- the state still compiles and runs new code
local function state_works()
  local g = njit "def g(a, b):\n    return a * b + 1\n"
  assert.are.equal(7, g(2, 3))
end

-- this file's name and the line n lines below the call, as Lua-syntax messages name them
local function here(n)
  return "tests/positions_spec.lua:" .. (debug.getinfo(2, "l").currentline + n)
end

local HELPER = "def helper(x, y):\n    z = x * 2.0\n    return z + None\n"
local KERNEL = [[
def k(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = helper(a[i], 1.0)
]]

-- helper(a[i], 1.0) with helper's types wrong: the message of the first launch
local function launch_error(helper, opts)
  local o = { env = { helper = helper } }
  for k, v in pairs(opts or {}) do o[k] = v end
  local k = cuda.jit(o)(KERNEL)
  return H.error_of(function() k[{ 1, 4 }](lumba.zeros(4), lumba.zeros(4)) end)
end

describe("a device function's error", function()
  local was
  setup(function() was = cuda.simulate(true) end)
  teardown(function() cuda.simulate(was) end)

  it("shows the device function's line, not the kernel's (the issue's example)", function()
    local helper = cuda.jit { device = true } (HELPER)
    assert.are.equal("<string>:3:12: TypingError: cannot add float64 and none\n"
      .. "        return z + None\n"
      .. "               ^", launch_error(helper))
    state_works()
  end)

  it("names the device function's chunk, not the kernel's", function()
    local helper = cuda.jit { device = true, chunkname = "helper.py" } (HELPER)
    assert.are.equal("helper.py:3:12: TypingError: cannot add float64 and none\n"
      .. "        return z + None\n"
      .. "               ^", launch_error(helper, { chunkname = "kernel.py" }))
    -- the kernel's own mistakes are still shown in the kernel
    local good = cuda.jit { device = true, chunkname = "helper.py" } "def helper(x, y):\n    return x * y\n"
    local k = cuda.jit { env = { helper = good }, chunkname = "kernel.py" } [[
def k(a, out):
    i = cuda.grid(1)
    out[i] = helper(a[i], None)
]]
    assert.are.equal("kernel.py:3:27: TypingError: None cannot be passed to helper()\n"
      .. "        out[i] = helper(a[i], None)\n"
      .. "                              ^", H.error_of(function() k[{ 1, 4 }](lumba.zeros(4), lumba.zeros(4)) end))
    local k2 = cuda.jit { env = { helper = good }, chunkname = "kernel.py" } [[
def k2(a, out):
    i = cuda.grid(1)
    out[i] = helper(a[i])
]]
    assert.are.equal("kernel.py:3:14: TypingError: helper() missing required argument 'y'\n"
      .. "        out[i] = helper(a[i])\n"
      .. "                 ^", H.error_of(function() k2[{ 1, 4 }](lumba.zeros(4), lumba.zeros(4)) end))
    state_works()
  end)

  it("shows a name error in the device function", function()
    local helper = cuda.jit { device = true, chunkname = "helper.py" } "def helper(x, y):\n    return x + undefined_name\n"
    assert.are.equal("helper.py:2:16: NameError: name 'undefined_name' is not defined\n"
      .. "        return x + undefined_name\n"
      .. "                   ^", launch_error(helper, { chunkname = "kernel.py" }))
    state_works()
  end)

  it("is the same when the kernel is compiled for the GPU target (NVVM IR)", function()
    cuda.simulate(false)
    local helper = cuda.jit { device = true, chunkname = "helper.py" } (HELPER)
    local k = cuda.jit { env = { helper = helper }, chunkname = "kernel.py" } (KERNEL)
    local err = H.error_of(k.compile, k, "void(float64[::1], float64[::1])")
    cuda.simulate(true)
    assert.are.equal("helper.py:3:12: TypingError: cannot add float64 and none\n"
      .. "        return z + None\n"
      .. "               ^", err)
    state_works()
  end)

  it("shows the text a Lua-table AST carries in Module.source, or no text", function()
    local tree = lumba.parse(HELPER, "helper.py")
    local bare = cuda.jit { device = true, chunkname = "helper.py" } (tree)
    assert.are.equal("helper.py:3:12: TypingError: cannot add float64 and none",
      launch_error(bare, { chunkname = "kernel.py" }))
    tree.source = HELPER
    local with_text = cuda.jit { device = true, chunkname = "helper.py" } (tree)
    assert.are.equal("helper.py:3:12: TypingError: cannot add float64 and none\n"
      .. "        return z + None\n"
      .. "               ^", launch_error(with_text, { chunkname = "kernel.py" }))
    state_works()
  end)

  it("written in Lua, is shown in its own chunk", function()
    local helper = load("local cuda = ...\nreturn cuda.jit { device = true } (function(x, y)\n"
      .. "  local z = x * 2.0\n  return z + (y > 1)\nend)")(cuda)
    local k = cuda.jit(function(a, out)
      local i = cuda.grid(1)  -- 1-based in Lua
      if i <= #a then out[i] = helper(a[i], 1.0) end
    end)
    assert.are.equal('[string "local cuda = ......"]:4:10: TypingError: cannot add float64 and bool '
      .. "(Lua has no arithmetic on booleans)\n"
      .. "      return z + (y > 1)\n"
      .. "             ^", H.error_of(function() k[{ 1, 4 }](lumba.zeros(4), lumba.zeros(4)) end))
    local twice = cuda.jit { device = true } (function(x) return x * 2.0 end)
    local k2 = cuda.jit(function(a, out)
      local i = cuda.grid(1)
      if i <= #a then out[i] = twice(a[i]) end
    end)
    local out = cuda.device_array(4)
    k2[{ 1, 4 }](cuda.to_device(lumba.arange(4):astype("float64")), out)
    assert.are.same({ 0, 2, 4, 6 }, out:copy_to_host():totable())
    state_works()
  end)
end)

describe("a callee's error", function()
  it("shows the callee's own source when it is compiled for the caller's types", function()
    local g = njit { chunkname = "callee.py" } "def g(x):\n    y = x + 1\n    return y + None\n"
    local f = njit { env = { g = g }, chunkname = "caller.py" } "def f(x):\n    return g(x) * 2\n"
    assert.are.equal("callee.py:3:12: TypingError: cannot add int64 and none\n"
      .. "        return y + None\n"
      .. "               ^", H.error_of(f, 3))
    -- the call's own mistakes are shown at the call
    local h = njit { chunkname = "callee.py" } "def h(x):\n    return x + 1\n"
    local f2 = njit { env = { h = h }, chunkname = "caller.py" } "def f2(x):\n\n    return h(x, 1.0)\n"
    assert.are.equal("caller.py:3:12: TypingError: h() takes 1 arguments but 2 were given\n"
      .. "        return h(x, 1.0)\n"
      .. "               ^", H.error_of(f2, 3))
    assert.are.equal(4, h(3))
    state_works()
  end)

  it("shows a callee two dispatchers away in its own source", function()
    local c = njit { chunkname = "c.py" } "def c(x):\n    return x[0]\n"
    local b = njit { env = { c = c }, chunkname = "b.py" } "def b(x):\n    return c(x) + 1\n"
    local a = njit { env = { b = b }, chunkname = "a.py" } "def a(x):\n    return b(x)\n"
    assert.are.equal("c.py:2:12: TypingError: int64 cannot be indexed\n"
      .. "        return x[0]\n"
      .. "               ^", H.error_of(a, 3))
    assert.are.equal(6, a(lumba.array({ 5, 1 })))
    state_works()
  end)

  it("written in Lua, called from Python source, is shown in its Lua file", function()
    local at = here(3)
    local g = njit(function(x)
      local y = x + 1
      return y + true
    end)
    local f = njit { env = { g = g }, chunkname = "caller.py" } "def f(x):\n    return g(x) * 2\n"
    assert.are.equal(at .. ":14: TypingError: cannot add int64 and bool (Lua has no arithmetic on booleans)\n"
      .. "          return y + true\n"
      .. "                 ^", H.error_of(f, 3))
    state_works()
  end)

  it("in Python source, called from a Lua function, is shown in its source", function()
    local g = njit { chunkname = "callee.py" } "def g(x):\n    y = x + 1\n    return y + None\n"
    local f = njit(function(x) return g(x) * 2 end)
    assert.are.equal("callee.py:3:12: TypingError: cannot add int64 and none\n"
      .. "        return y + None\n"
      .. "               ^", H.error_of(f, 3))
    state_works()
  end)
end)

describe("a Lua-syntax function's error", function()
  it("shows its line in the Lua file", function()
    local at = here(3)
    local f = njit(function(a, n)
      local s = 0.0
      for i = 1, n do s = s + a[i] + (i > 1) end
      return s
    end)
    assert.are.equal(at .. ":27: TypingError: cannot add float64 and bool (Lua has no arithmetic on booleans)\n"
      .. "          for i = 1, n do s = s + a[i] + (i > 1) end\n"
      .. "                              ^", H.error_of(f, lumba.zeros(3), 3))
    state_works()
  end)

  it("shows the line of a callee loaded from a string, in that string", function()
    local g = load("local njit = ...\nreturn njit(function(x)\n  local y = x + 1\n  return y + true\nend)")(njit)
    local f = njit(function(x) return g(x) * 2 end)
    assert.are.equal('[string "local njit = ......"]:4:10: TypingError: cannot add int64 and bool '
      .. "(Lua has no arithmetic on booleans)\n"
      .. "      return y + true\n"
      .. "             ^", H.error_of(f, 3))
    state_works()
  end)

  it("says the source is not available when the string was loaded under a name", function()
    local named = load("local njit = ...\nreturn function(x)\n  return x\nend", "kernels", "t")()
    assert.are.equal("lumba: the source of this function is not available (chunk named 'kernels'): compile "
      .. "functions loaded from files or from source strings, not stripped bytecode", H.error_of(njit, named))
    local one_line = load("return function(a) return a end", "kernels")()
    assert.are.equal("lumba: the source of this function is not available (chunk named 'kernels'): compile "
      .. "functions loaded from files or from source strings, not stripped bytecode", H.error_of(njit, one_line))
    state_works()
  end)
end)

-- issue 24 item 1: a Python source string written in a Lua file is
-- compiled where it stands, so its errors name the file and the line in it
describe("a source string written in a Lua file", function()
  local function typing(at, line, col)
    return at .. ":" .. col .. ": TypingError: cannot shift int64 and float64\n" .. line
  end

  it("names the file and the line: njit [[...]]", function()
    local at = here(3)
    local f = njit [[
def f(x):
    return x << 1.5
]]
    assert.are.equal(typing(at, "        return x << 1.5\n               ^", 12), H.error_of(f, 1))
    state_works()
  end)

  it("names the file and the line: njit{opts}(src), an eager signature, jit's warning", function()
    -- escapes (\n) keep a string from being found as written: its own lines
    local f = njit { boundscheck = true } ("def f(x):\n    return x << 1.5\n")
    assert.are.equal(typing("<string>:2", "        return x << 1.5\n               ^", 12), H.error_of(f, 1))
    local g = njit { boundscheck = true } [[def g(x): return x << 1.5]]
    assert.are.equal(typing(here(-1), "    def g(x): return x << 1.5\n                     ^", 18), H.error_of(g, 1))
    local at = here(1)
    local ok, err = pcall(function() local h = njit("int64(int64)", 'def h(x): return x << 1.5'); return h end)
    assert.is_false(ok)
    assert.are.equal(typing(at, "    def h(x): return x << 1.5\n                     ^", 18), err)
    -- in tail position Lua keeps no record of the calling line: the string's own lines
    local ok3, err3 = pcall(function() return njit("int64(int64)", 'def h(x): return x << 1.5') end)
    assert.is_false(ok3)
    assert.are.equal(typing("<string>:1", "    def h(x): return x << 1.5\n                     ^", 18), err3)
    local warned
    local saved = lumba.warnings
    lumba.warnings = function(m) warned = m end
    local j = lumba.jit [[def j(x): return x << 1.5]]
    at = here(-1)
    local ok2 = pcall(j, 1)  -- object mode raises Python's TypeError
    lumba.warnings = saved
    assert.is_false(ok2)
    assert.truthy(warned:find(at .. ":18: TypingError: cannot shift", 1, true), warned)
    state_works()
  end)

  it("names the file and the line: lumba.load, decorators, an indented long string", function()
    local at = here(6)
    local m = lumba.load [[
        from numba import njit

        @njit
        def g(x):
            return x << 1.5
    ]]
    assert.are.equal(typing(at, "    " .. (" "):rep(12) .. "return x << 1.5\n    " .. (" "):rep(19) .. "^", 20),
      H.error_of(m.g, 2))
    local bad_at = here(5)
    local ok, err = pcall(lumba.load, "from numba import njit\n@njit(parallel=True, paralel=True)\ndef h(x):\n    return x\n")
    assert.is_false(ok)  -- built at run time: its own line numbers
    assert.are.equal("<string>:2:22: unknown option 'paralel' of '@njit' on 'h'", err)
    local ok2, err2 = pcall(function() local m2 = lumba.load [[
@overload
def v(x):
    return x
]] return m2 end)
    assert.is_false(ok2)
    assert.are.equal(bad_at .. ":2: unknown decorator '@overload' on 'v'", err2)
    state_works()
  end)

  it("names the file and the line: cuda.jit (simulator)", function()
    local was = cuda.simulate(true)
    local at = here(5)
    local k = cuda.jit [[
def k(a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i] = a[i] << 1.5
]]
    local msg = H.error_of(function() k[{ 1, 4 }](lumba.zeros(4)) end)
    cuda.simulate(was)
    assert.truthy(msg:find("^" .. at:gsub("%p", "%%%0") .. ":16: TypingError: "), msg)
    state_works()
  end)

  it("names the file for \\r\\n and \\r line ends, the chunk for a string given to load", function()
    local dirs = {}
    local dir = H.tmpdir(dirs)
    for _, eol in ipairs({ "\r\n", "\r" }) do
      local path = dir .. "/crlf.lua"
      local lines = { "local lumba = ...", "local f = lumba.njit [[", "def f(x):", "    y = x + 1",
        "    return y << 1.5", "]]", "return f(1)" }
      H.spit(path, table.concat(lines, eol) .. eol)
      local ok, err = pcall(assert(loadfile(path)), lumba)
      assert.is_false(ok)
      assert.are.equal(path .. ":5:12: TypingError: cannot shift int64 and float64\n"
        .. "        return y << 1.5\n               ^", err)
    end
    local chunk = "local lumba = ...\nlocal f = lumba.njit [[\ndef f(x):\n    return x << 1.5\n]]\nreturn f(1)"
    local ok, err = pcall(load(chunk), lumba)
    assert.is_false(ok)
    assert.are.equal('[string "local lumba = ......"]:4:12: TypingError: cannot shift int64 and float64\n'
      .. "        return x << 1.5\n               ^", err)
    os.execute("rm -rf " .. H.shell_quote(dir))
    state_works()
  end)
end)
