-- issue 23 item 6: a call with the previous call's types takes a short path
-- (src/dispatch.c: call_last). Whatever changes between two calls (a type,
-- an array's dtype, layout or state, a foreign value, a hook) must still
-- reach the right specialization or the same error as a first call.
local lumba = require "lumba"
local H = require "helpers"
local njit = lumba.njit

describe("a call with the previous call's types", function()
  it("numbers: a float, an integer, a boolean and a string after one another", function()
    local f = njit "def f(x):\n    return x * 2\n"
    assert.are.equal(3.0, f(1.5))
    local r = f(2)
    assert.are.equal(4, r)
    assert.are.equal("integer", math.type(r))
    assert.are.equal(5.0, f(2.5))
    assert.are.equal("float", math.type(f(2.0)))
    assert.are.equal(2, f(true))   -- True * 2 in Python
    assert.are.equal(0, f(false))
    assert.are.equal(7.0, f(3.5))
    -- a numeric string is not a number here: the same error as a first call
    assert.are.equal("bad argument #1 to 'f' (a string argument must name a dtype such as \"float64\", got \"1.5\")",
      H.error_of(f, "1.5"))
    assert.are.equal("bad argument #1 to 'f' (number, boolean, table or lumba.ndarray expected, got nil)",
      H.error_of(f, nil))
    assert.are.equal(9.0, f(4.5))
    assert.are.equal(3, #f.signatures)   -- float64, int64, bool: the string and nil compiled nothing
  end)

  it("arrays: another dtype, rank or layout picks or compiles its own specialization", function()
    local s = njit "def s(a):\n    return a.sum()\n"
    local a = lumba.array({ { 1.5, 2.5, 3.0 }, { 4.0, 5.0, 6.0 } })
    assert.are.equal(22.0, s(a))
    assert.are.equal(22.0, s(a.T))                                  -- Fortran order: another layout
    local i = lumba.array({ 1, 2, 3 }, "int64")
    local r = s(i)
    assert.are.equal(6, r)
    assert.are.equal("integer", math.type(r))
    assert.are.equal(22.0, s(a))
    assert.are.equal(6.0, s(lumba.array({ 1, 2, 3 }, "float64")))     -- rank 1 float64
    assert.are.equal(3, s(lumba.array({ 1, 2 }, "int32")))            -- int32: its own
    assert.are.equal(5, #s.signatures)
  end)

  it("three arrays, then a table in one place: copied in and written back", function()
    local g = njit "def g(a, b, c):\n    c[0] = a[0] + b[0]\n    return c[0]\n"
    local a, b, c = lumba.full(2, 1.5), lumba.full(2, 2.0), lumba.zeros(2)
    assert.are.equal(3.5, g(a, b, c))
    assert.are.equal(3.5, c:get(1))
    local t = { 0.0, 0.0 }
    assert.are.equal(3.5, g(a, b, t))
    assert.are.same({ 3.5, 0.0 }, t)
    assert.are.equal(3.5, g(a, b, c))
  end)

  it("a closed array after an open one raises, as on a first call", function()
    local s = njit "def s(a):\n    return a[0]\n"
    local a, b = lumba.full(3, 2.0), lumba.full(3, 5.0)
    assert.are.equal(2.0, s(a))
    b:close()
    assert.matches("attempt to use a closed array", H.error_of(s, b))
    assert.are.equal(2.0, s(a))
  end)

  it("a userdata that is not an array, or an array whose metatable was replaced, is refused", function()
    local s = njit "def s(a):\n    return a[0]\n"
    local a = lumba.full(3, 2.0)
    assert.are.equal(2.0, s(a))
    assert.are.equal("bad argument #1 to 's' (number, boolean, table or lumba.ndarray expected, got userdata)",
      H.error_of(s, io.stdout))
    local b = lumba.full(3, 4.0)
    debug.setmetatable(b, {})
    assert.are.equal("bad argument #1 to 's' (number, boolean, table or lumba.ndarray expected, got userdata)",
      H.error_of(s, b))
    assert.are.equal(2.0, s(a))
  end)

  it("__call given something else than a dispatcher raises", function()
    local f = njit "def f(x):\n    return x\n"
    assert.are.equal(1.5, f(1.5))
    local call = debug.getmetatable(f).__call
    for _, v in ipairs({ {}, "abc", io.stdout, lumba.zeros(2), 1 }) do
      assert.matches("lumba.dispatcher expected", H.error_of(call, v, 1.5))
    end
    -- a table whose length is a dispatcher's size is still a table
    local t = {}
    for k = 1, 200 do t[k] = k end
    assert.matches("lumba.dispatcher expected", H.error_of(call, t, 1.5))
    assert.are.equal(1.5, call(f, 1.5))
  end)

  it("results of every kind come back on the short path too", function()
    local p = njit "def p(x, y):\n    return x + y, x > y, x * y\n"
    for _ = 1, 2 do
      local s, gt, m = p(3, 4)
      assert.are.equal(7, s)
      assert.is_false(gt)
      assert.are.equal(12, m)
    end
    local z = njit "def z(n):\n    return np.arange(n)\n"
    for _ = 1, 2 do assert.are.same({ 0, 1, 2 }, H.flat(z(3))) end
    local v = njit "def v(a):\n    a[0] = 1.0\n"
    local a = lumba.zeros(1)
    for _ = 1, 2 do assert.are.equal(0, select("#", v(a))) end
  end)

  it("a hook set before the calls stays, and calls run under it", function()
    local f = njit "def f(x):\n    return x + 1.0\n"
    local n = 0
    local function hook() n = n + 1 end
    debug.sethook(hook, "", 1000)
    local acc = 0.0
    for _ = 1, 2000 do acc = acc + f(1.0) end
    local h, mask, count = debug.gethook()
    debug.sethook()
    assert.are.equal(4000.0, acc)
    assert.are.equal(hook, h)
    assert.are.equal("", mask)
    assert.are.equal(1000, count)
    assert.is_true(n > 0)
  end)
end)
