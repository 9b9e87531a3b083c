-- Interrupting compiled code (issue 24, item 10): Ctrl-C in lua5.4 and
-- lumba_interrupt from a host's watchdog thread (tests/embed/interrupt.c)
local CLEAN_ENV = "env -u LD_PRELOAD -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "
local ENV = "LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='" .. (os.getenv("LUMBA_CPATH") or "build") .. "/?.so;;' "

describe("interrupting compiled code", function()
  -- lua5.4 running script, sent SIGINT once it is inside the endless call;
  -- its output and exit status. (lua.c's handler resets SIGINT to the
  -- default once it fires: only the first Ctrl-C of a script is an error.)
  local function interrupted_run(body)
    local script = os.tmpname()
    local f = assert(io.open(script, "w"))
    f:write("local lumba = require 'lumba'\n",
      "local spin = lumba.njit('def spin(n):\\n    i = 0\\n    while n > 0:\\n        i += 1\\n    return i\\n')\n",
      "spin(0)\nlocal function ready() io.stdout:write('ready\\n') io.stdout:flush() end\n", body)
    f:close()
    local cmd = ("%s lua5.4 %s > %s.out 2>&1 & pid=$!; "
      .. "for k in $(seq 100); do grep -q ready %s.out 2>/dev/null && break; sleep 0.1; done; sleep 0.5; "
      .. "kill -INT $pid; ( sleep 10; kill -9 $pid 2>/dev/null ) & wait $pid; echo \"exit $?\" >> %s.out")
      :format(ENV, script, script, script, script)
    os.execute(cmd)
    local out = assert(io.open(script .. ".out")):read("a")
    os.remove(script)
    os.remove(script .. ".out")
    return out
  end

  it("stops an endless compiled loop in lua5.4 on SIGINT with an error mentioning interrupt", function()
    local out = interrupted_run("ready()\nspin(1)\n")
    assert.matches("lua5.4: [^\n]*KeyboardInterrupt: interrupted", out)
    assert.matches("exit 1", out, 1, true)
    out = interrupted_run("ready()\nlocal ok, err = pcall(spin, 1)\nprint('caught: ' .. tostring(err))\n"
      .. "print('still running: ' .. spin(0))\n")
    assert.matches("caught: KeyboardInterrupt: interrupted", out, 1, true)
    assert.matches("still running: 0\nexit 0", out, 1, true)
  end)

  it("stops every thread of a prange loop", function()
    local out = interrupted_run([=[
local p = lumba.njit({parallel = true}, "import numba\ndef p(a):\n    for i in numba.prange(a.shape[0]):\n"
  .. "        while a[i] > 0:\n            a[i] += 1\n    return a[0]\n")
p(lumba.zeros(8))
ready()
local ok, err = pcall(p, lumba.ones(8))
print('caught: ' .. tostring(err))
print('still running: ' .. p(lumba.zeros(8)))
]=])
    assert.matches("caught: KeyboardInterrupt: interrupted", out, 1, true)
    assert.matches("still running: 0.0\nexit 0", out, 1, true)
  end)

  it("stops it when a host thread calls lumba_interrupt, the state usable after", function()
    assert.is_true(os.execute(CLEAN_ENV .. "make -s build/embed/interrupt >/dev/null"), "make failed")
    local p = assert(io.popen(CLEAN_ENV .. "build/embed/interrupt 2>&1; echo \"exit $?\""))
    local out = p:read("a")
    p:close()
    assert.matches("ok %- an endless while loop stopped: KeyboardInterrupt: interrupted", out)
    assert.matches("ok - the state works after it", out, 1, true)
    assert.matches("ok %- nested range loops stopped", out)
    assert.matches("all ok\nexit 0", out, 1, true)
  end)

  it("does not stop code that is not interrupted, nor a later call", function()
    local lumba = require "lumba"
    local f = lumba.njit("def f(n):\n    i = 0\n    while i < n:\n        i += 1\n    return i\n")
    assert.are.equal(5000000, f(5000000))
    assert.are.equal(3, f(3))
  end)
end)
