-- The C embedding example (examples/embed): a host program links
-- lumba/core.so, wraps its own particle buffer with lumba_pusharray, runs a
-- Lua script over it for 120 frames, checks the buffer against the same
-- physics in C, reads a Lua-made array with lumba_toarray, and sees its
-- release callback run once Lua drops the array.

-- make, the compiler and the host must not inherit `make asan`'s preload
-- or a parent make's flags
local CLEAN_ENV = "env -u LD_PRELOAD -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "

describe("C embedding API", function()
  it("builds and runs examples/embed/host", function()
    local built = os.execute(CLEAN_ENV .. "make -s embed >/dev/null")
    assert.is_true(built, "make embed failed")
    local p = assert(io.popen(CLEAN_ENV .. "build/embed/host . 2>&1; echo \"exit $?\""))
    local out = p:read("a")
    p:close()
    assert.are.equal(
      "one runtime: yes\n" ..
      "frames: 120\n" ..
      "buffer matches C physics: yes\n" ..
      "energies: float64[64], sum ok\n" ..
      "released before drop: 0\n" ..
      "released after drop: 1\n" ..
      "exit 0\n", out)
  end)
end)
