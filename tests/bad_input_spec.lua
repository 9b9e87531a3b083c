-- Bad input of every kind (tests/BAD_INPUT.md): each row raises a clear Lua
-- error, whole message compared, and leaves a state that still compiles,
-- calls and allocates. Every row runs first in a child process
-- (tests/bad_input_child.lua), so a row that crashes the process fails its
-- test with the exit status instead of killing the runner; then in this one.
local B = require "bad_input"

-- make's and asan's environment reaches the child as it is: LUMBA_CPATH
-- picks the build, LD_PRELOAD the sanitizer runtime
local function run_child()
  local errfile = os.tmpname()
  local p = assert(io.popen("lua5.4 tests/bad_input_child.lua 2>" .. errfile))
  local out = p:read("a")
  local _, how, code = p:close()
  local ef = io.open(errfile)
  local err = ef and ef:read("a") or ""
  if ef then ef:close() end
  os.remove(errfile)
  local env = { S = {}, R = {} }
  assert(load(out, "=child", "t", env))()
  env.status = how .. " " .. tostring(code)
  env.stderr = err
  return env
end

-- Runs a Lua script in a child process (same build, paths and preload);
-- returns its output (stdout and stderr) and how it ended.
local function run_script(code, env_prefix)
  local file = os.tmpname()
  local f = assert(io.open(file, "w"))
  f:write('local build = os.getenv("LUMBA_CPATH") or "build"\n',
          'package.path = "lua/?.lua;lua/?/init.lua;" .. package.path\n',
          'package.cpath = build .. "/?.so;" .. package.cpath\n',
          ("assert(load(%q, '=script'))()\n"):format(code))
  f:close()
  local p = assert(io.popen((env_prefix or "") .. "lua5.4 " .. file .. " 2>&1"))
  local out = p:read("a")
  local _, how, status = p:close()
  os.remove(file)
  return out, how .. " " .. tostring(status)
end

local child
describe("bad input", function()
  for i, row in ipairs(B.rows) do
    it(row[1], function()
      child = child or run_child()
      local r = child.R[i]
      if r == nil then
        error(("the child process died in this row (%s)%s\n%s"):format(child.status,
          child.S[i] and "" or " or before it", child.stderr:sub(-3000)))
      end
      assert.are.equal(B.expected(row), r[1])
      assert.are.equal(true, r[2])
      -- and in this process
      assert.are.equal(B.expected(row), B.run(row))
      assert.is_true(B.still_works())
    end)
  end

  describe("in a process of its own", function()
    it("finalizers that run during lua_close after lumba's own", function()
      -- keep is marked for finalization before lumba's objects, so Lua
      -- finalizes it after them: it then finds them collected
      local out, how = run_script([[
local keep = setmetatable({}, { __gc = function(k)
  print("call", pcall(k.f, 2))
  print("index", pcall(function() return k.a[1] end))
  print("compile", pcall(k.lumba.njit, "def g(a):\n    return a\n"))
end })
keep.lumba = require "lumba"
keep.f = keep.lumba.njit("def f(a):\n    return a + 1\n")
keep.a = keep.lumba.arange(3.0)
print(keep.f(1), keep.a[3])
]])
      assert.are.equal("2\t2.0\n" ..
        "call\tfalse\tattempt to use a collected dispatcher\n" ..
        "index\tfalse\tscript:3: attempt to use a closed array\n" ..
        "compile\tfalse\tlumba: the compiler of this Lua state has been closed\n", out)
      assert.are.equal("exit 0", how)
    end)

    it("running out of memory mappings is an error, not LLVM's abort", function()
      -- LLVM 14 maps each compiled function's sections apart and aborts the
      -- process when mmap fails at vm.max_map_count (~30,000 functions);
      -- lumba refuses first. LUMBA_MAX_MAPS lowers the limit so that the
      -- check at the 256th module trips. The functions are kept alive (the
      -- code of collected ones leaves the JIT with its mappings).
      local out, how = run_script([[
local lumba = require "lumba"
local old = lumba.njit("def old(x):\n    return x * 2\n")
old(1)
local n, ok, e, keep = 0, nil, nil, {}
repeat
  n = n + 1
  ok, e = pcall(function()
    -- a = a[:] takes a reference (calls into the runtime, whose stubs map
    -- pages too): the limit below is counted for such a module
    local src = ("def f%d(x, a):\n    a = a[:]\n    s = x * %d\n    for k in range(a.shape[0]):\n        s += a[k]\n    return s\n")
    keep[n] = lumba.njit(src:format(n, n))
    return keep[n](1, lumba.arange(3))
  end)
until not ok or n > 600
print(n - 1, (tostring(e):gsub("%d+ memory mappings of the %d+", "N memory mappings of the M")))
print(old(21))
]], "LUMBA_MAX_MAPS=8592 ")
      assert.are.equal("255\tlumba: cannot add the module to the JIT: jit: the process has N memory mappings of the M " ..
        "it may have (vm.max_map_count, LUMBA_MAX_MAPS); compiled code stays mapped while its dispatcher is alive, " ..
        "so no more can be loaded\n42\n", out)
      assert.are.equal("exit 0", how)
    end)

    it("LUMBA_BOUNDSCHECK=1 turns on bounds checks", function()
      local out, how = run_script([[
local lumba = require "lumba"
local f = lumba.njit("def f(a, i):\n    return a[i]\n")
print(pcall(f, lumba.zeros(3), 3))
]], "LUMBA_BOUNDSCHECK=1 ")
      assert.are.equal("false\tIndexError: index 3 out of bounds for axis 0 with size 3\n<string>:2:5: in f\n    return a[i]\n", out)
      assert.are.equal("exit 0", how)
    end)
  end)

  it("the child process ran every row and exited normally", function()
    child = child or run_child()
    assert.is_true(child.DONE, child.stderr)
    assert.are.equal("exit 0", child.status)
  end)
end)
