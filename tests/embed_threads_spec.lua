-- Embedding safety (tests/embed/threads.c): four OS threads, each opening
-- and closing three Lua states in turn, compile and call at once (distinct
-- functions, prange, arrays from Lua, from compiled code and over the
-- host's memory, pushed before require "lumba"); every state is closed with
-- all of that alive and each host buffer must be released exactly once;
-- then the process forks and the child compiles and runs a prange loop.
-- And a host that loads and unloads lumba (dlopen/dlclose) repeatedly.
-- make tsan-embed runs the same program under ThreadSanitizer.

-- make and the program must not inherit `make asan`'s preload or a parent make's flags
local CLEAN_ENV = "env -u LD_PRELOAD -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "

describe("embedding in threads", function()
  it("runs Lua states in four threads at once, closes them with live objects, forks", function()
    assert.is_true(os.execute(CLEAN_ENV .. "make -s embed-threads >/dev/null"), "make embed-threads failed")
    local p = assert(io.popen(CLEAN_ENV .. "build/threads 4 3 2>&1; echo \"exit $?\""))
    local out = p:read("a")
    p:close()
    -- the threads finish in any order
    local lines = {}
    for l in out:gmatch("[^\n]+") do lines[#lines + 1] = l end
    table.sort(lines)
    assert.are.same({
      "all ok",
      "exit 0",
      "ok - every host buffer released once (12)",
      "ok - lumba works in a child forked after use",
      "thread 0: 3 states",
      "thread 1: 3 states",
      "thread 2: 3 states",
      "thread 3: 3 states",
    }, lines)
  end)

  it("loads and unloads the module twenty times in one process", function()
    assert.is_true(os.execute(CLEAN_ENV .. "make -s embed-threads >/dev/null"), "make embed-threads failed")
    local p = assert(io.popen(CLEAN_ENV .. "build/embed/reload 20 2>&1; echo \"exit $?\""))
    local out = p:read("a")
    p:close()
    assert.are.equal("loaded and unloaded 20 times\nexit 0\n", out)
  end)
end)
