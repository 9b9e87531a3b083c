-- @cfunc (issue 21, item 4): a compiled function with a C entry point of
-- exactly the signature written, whose .address a C host calls with no
-- Lua state involved; CPointer/voidptr arguments viewed with carray and
-- farray, as Numba does. NumPy is the oracle of the array views.
local lumba = require "lumba"
local H = require "helpers"
local oracle = require "numpy_oracle"

-- make and the host must not inherit `make asan`'s preload or a parent make's flags
local CLEAN_ENV = "env -u LD_PRELOAD -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "

describe("@cfunc", function()
  it("is callable from Lua and has an integer .address", function()
    local c = lumba.cfunc("float64(float64, float64)")[[
def add(a, b):
    return a + 2 * b
]]
    assert.are.equal(5.5, c(1.5, 2))
    assert.is_true(math.type(c.address) == "integer" and c.address ~= 0)
    assert.are.equal("float64(float64, float64)", c.signature)
    assert.are.equal("lumba.cfunc: add float64(float64, float64)", tostring(c))
    assert.is_true(tostring(c.dispatcher):find("^lumba%.dispatcher") ~= nil)
    local same = lumba.cfunc("float64(float64, float64)", "def add(a, b):\n    return a + 2 * b\n")
    assert.are.equal(5.5, same(1.5, 2))
  end)

  it("keeps its code while the object lives and removes it after", function()
    collectgarbage()
    collectgarbage()
    local before = lumba.cache.info().jitted
    local c = lumba.cfunc("float64(float64)")("def f(x):\n    return x * 3.25\n")
    local addr = c.address
    assert.are.equal(before + 2, lumba.cache.info().jitted)  -- the function and its C entry
    collectgarbage()
    assert.are.equal(addr, c.address)
    assert.are.equal(6.5, c(2.0))
    c = nil  -- luacheck: ignore
    collectgarbage()
    collectgarbage()
    assert.are.equal(before, lumba.cache.info().jitted)
  end)

  it("runs Numba's integrand example with NumPy's values", function()
    local m = lumba.load[[
import numpy as np
from numba import cfunc

@cfunc("float64(float64)")
def integrand(t):
    return np.exp(-t) / t**2
]]
    local ts = { 0.5, 1.0, 2.5, 7.0 }
    local want = oracle.eval({ { name = "t", dtype = "float64", shape = { #ts }, values = ts } }, "np.exp(-t) / t**2")
    for i, t in ipairs(ts) do H.assert_close(want.values[i], m.integrand(t), 1e-15) end
  end)

  it("views CPointer arguments with carray (Numba's my_callback, signature as type objects)", function()
    local m = lumba.load[[
from numba import cfunc, carray, types

c_sig = types.void(types.CPointer(types.double), types.CPointer(types.double), types.intc, types.intc)

@cfunc(c_sig)
def my_callback(in_, out, m, n):
    in_array = carray(in_, (m, n))
    out_array = carray(out, (m, n))
    for i in range(m):
        for j in range(n):
            out_array[i, j] = 2 * in_array[i, j]
]]
    assert.are.equal("void(CPointer(double), CPointer(double), intc, intc)", m.my_callback.signature)
    local a = lumba.arange(12.0):reshape({ 3, 4 })
    local out = lumba.zeros({ 3, 4 })
    assert.is_nil(m.my_callback(a, out, 3, 4))  -- an array passes its data pointer
    for i = 1, 3 do
      for j = 1, 4 do assert.are.equal(2 * a[i][j], out[i][j]) end
    end
  end)

  it("views memory in Fortran order with farray, as NumPy's order='F'", function()
    local m = lumba.load[[
from numba import cfunc, carray, farray

@cfunc("void(CPointer(float64), CPointer(float64), int64, int64)")
def copy_f(src, dst, m, n):
    f = farray(src, (m, n))
    c = carray(dst, (m, n))
    for i in range(m):
        for j in range(n):
            c[i, j] = f[i, j]
]]
    local vals = {}
    for i = 1, 12 do vals[i] = i * 1.5 end
    local want = oracle.eval({ { name = "a", dtype = "float64", shape = { 12 }, values = vals } },
      "np.ndarray((3, 4), dtype=np.float64, buffer=a, order='F')")
    local src, dst = lumba.array(vals), lumba.zeros({ 3, 4 })
    m.copy_f(src, dst, 3, 4)
    assert.are.same(want.values, dst:reshape({ 12 }):totable())
  end)

  it("takes a voidptr with a dtype, integer addresses, and returns through them", function()
    local m = lumba.load[[
import numpy as np
from numba import cfunc, carray

@cfunc("int64(voidptr, intc)")
def isum(p, n):
    a = carray(p, n, dtype=np.int32)
    s = 0
    for i in range(n):
        s += a[i]
        a[i] = -a[i]
    return s

@cfunc("CPointer(float64)(CPointer(float64), int64)")
def advance(p, k):
    return p
]]
    local a = lumba.array({ 1, 2, 3, 40 }, "int32")
    assert.are.equal(46, m.isum(a, 4))
    assert.are.same({ -1, -2, -3, -40 }, a:totable())
    assert.are.equal(m.advance(12345, 1), 12345)
  end)

  it("works with the module's @njit functions both ways", function()
    local m = lumba.load[[
from numba import cfunc, njit

@njit
def square(x):
    return x * x

@cfunc("float64(float64)")
def f(x):
    return square(x) + 1.0

@njit
def g(x):
    return f(x) * 2.0
]]
    assert.are.equal(10.0, m.f(3.0))
    assert.are.equal(20.0, m.g(3.0))
  end)

  it("is called by a C host through its pointer, from two threads at once", function()
    assert.is_true(os.execute(CLEAN_ENV .. "make -s embed-cfunc >/dev/null"), "make embed-cfunc failed")
    local p = assert(io.popen(CLEAN_ENV .. "build/embed/cfunc_host 2>&1; echo \"exit $?\""))
    local out = p:read("a")
    p:close()
    local lines = {}
    for l in out:gmatch("[^\n]+") do lines[#lines + 1] = l end
    table.sort(lines)  -- stderr and stdout interleave in any order
    assert.are.same({
      "    return a // b",  -- the report's traceback line (the cfunc's source is in the host's chunk)
      "[string \"local lumba = require 'lumba'...\"]:20:5: in idiv",
      "all ok",
      "exit 0",
      "lumba: cfunc idiv raised an error (it returns 0): ZeroDivisionError: integer division or modulo by zero",
      "ok - Lorenz RK4 through carray matches C",
      "ok - a cfunc that raises returns 0",
      "ok - int64 floor division as Python",
      "ok - lumba_tocfunc is .address",
      "ok - lumba_tocfunc of a non-cfunc is NULL",
      "ok - scalar RK4 through the cfunc matches C",
      "ok - two threads at once give the single-thread results",
    }, lines)
  end)

  describe("errors", function()
    it("rejects an array in a C signature", function()
      local ok, err = pcall(function()
        local c = lumba.cfunc("float64(float64[:])")("def f(a):\n    return a[0]\n")
        return c
      end)
      assert.is_false(ok)
      assert.matches("cfunc f: a C signature takes numbers and C pointers %(CPointer%(float64%), voidptr%), not float64%[:%]",
        err)
      assert.matches("^[^\n]*cfunc_spec%.lua:%d+:", err)  -- at the caller's line
    end)

    it("wants one signature in @cfunc, naming its line", function()
      local err = H.error_of(lumba.load, "from numba import cfunc\n\n@cfunc\ndef f(x):\n    return x\n",
        { chunkname = "=mod.py" })
      assert.are.equal("mod.py:3:2: '@cfunc' on 'f' takes one signature, as @cfunc(\"float64(float64, float64)\")", err)
    end)

    it("wants a return type and a known type", function()
      assert.matches("needs a return type", H.error_of(lumba.cfunc("(float64)"), "def f(x):\n    return x\n"))
      assert.matches("bad argument #1 to 'cfunc'", H.error_of(lumba.cfunc, 42))
      assert.matches("CPointer takes one scalar type",
        H.error_of(lumba.cfunc("float64(CPointer(float64[:]))"), "def f(p):\n    return 1.0\n"))
    end)

    it("names the line of a carray without a dtype, or with the wrong one", function()
      local err = H.error_of(lumba.load, [[
from numba import cfunc, carray
import numpy as np

@cfunc("float64(voidptr)")
def f(p):
    a = carray(p, 3)
    return a[0]
]], { chunkname = "=v.py" })
      assert.matches("^v%.py:6:%d+: TypingError: carray%(%) of voidptr needs a dtype", err)
      assert.matches("a = carray%(p, 3%)", err)
      err = H.error_of(lumba.load, [[
from numba import cfunc, carray
import numpy as np

@cfunc("float64(CPointer(float32))")
def f(p):
    a = carray(p, 3, np.float64)
    return a[0]
]], { chunkname = "=w.py" })
      assert.matches("^w%.py:6:%d+: TypingError: carray%(%): the dtype float64 does not match the pointer's CPointer%(float32%)",
        err)
    end)

    it("leaves the state usable after an error", function()
      pcall(lumba.cfunc("float64(float64[:])"), "def f(a):\n    return a[0]\n")
      local c = lumba.cfunc("int32(int32)")("def f(x):\n    return x + 1\n")
      assert.are.equal(8, c(7))
    end)
  end)
end)
