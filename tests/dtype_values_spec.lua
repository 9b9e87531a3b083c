-- dtypes as values in compiled code (Numba's DType/NumberClass): a.dtype,
-- np.dtype(...), dtype parameters and defaults, specialisation on them,
-- the folded comparisons and itemsize, and how Lua passes one (by name).
local lumba = require "lumba"
local H = require "helpers"

local NAMES = { "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64" }
-- NumPy's itemsizes, by hand
local SIZE = { bool = 1, int8 = 1, int16 = 2, int32 = 4, int64 = 8, uint8 = 1, uint16 = 2, uint32 = 4, uint64 = 8,
  float32 = 4, float64 = 8 }

describe("dtype values", function()
  it("a.dtype as a dtype: positional, dtype=, astype, *_like, full, and its itemsize", function()
    local f = lumba.njit [[
import numpy as np
def f(a):
    dt = a.dtype
    return (np.empty(2, a.dtype).dtype, np.zeros((2, 2), dtype=dt).dtype, np.ones(1).astype(a.dtype).dtype,
            np.full(3, 1, dt).dtype, np.arange(3, dtype=a.dtype).dtype, np.dtype(dt), dt.itemsize, a.dtype.itemsize)
]]
    for _, nm in ipairs(NAMES) do
      assert.are.same({ nm, nm, nm, nm, nm, nm, SIZE[nm], SIZE[nm] }, { f(lumba.zeros(2, nm)) })
    end
  end)

  it("np.dtype of a name, a type, a builtin, another dtype", function()
    local f = lumba.njit [[
import numpy as np
def f():
    return np.dtype('float32'), np.dtype(np.int16), np.dtype(float), np.dtype(int), np.dtype(bool), np.dtype(np.dtype('u1')), np.dtype('f8')
]]
    assert.are.same({ "float32", "int16", "float64", "int64", "bool", "uint8", "float64" }, { f() })
  end)

  it("a.dtype == np.float64 is a compile-time bool; != too", function()
    local f = lumba.njit [[
import numpy as np
def f(a):
    if a.dtype == np.float64:
        r = 1
    elif a.dtype == np.dtype('int32'):
        r = 2
    else:
        r = 3
    return r, a.dtype != np.float32, np.dtype(np.int8) == np.int8
]]
    assert.are.same({ 1, true, true }, { f(lumba.zeros(1)) })
    assert.are.same({ 2, true, true }, { f(lumba.zeros(1, "int32")) })
    assert.are.same({ 3, false, true }, { f(lumba.zeros(1, "float32")) })
    local g = lumba.njit "import numpy as np\ndef f(a):\n    return a.dtype < np.float64\n"
    assert.truthy(H.error_of(g, lumba.zeros(1)):find("<string>:3:12: TypingError: dtypes compare only with == and !=", 1, true))
  end)

  it("a compiled caller passes a dtype; the callee specialises on it and casts with it", function()
    local f = lumba.njit [[
import numpy as np
def f(n):
    a = make(n, np.float32)
    b = make(n, dtype=np.int8)
    c = make(n)
    return a.dtype, b.dtype, c.dtype, conv(2.75, np.int16), conv(2.75, np.float64)
def make(n, dtype=np.float64):
    return np.linspace(0, 1, n, dtype=dtype)
def conv(x, dt):
    return dt(x)
]]
    assert.are.same({ "float32", "int8", "float64", 2, 2.75 }, { f(4) })
  end)

  it("Lua passes a dtype by name and gets one back by name; each dtype is its own specialisation", function()
    local f = lumba.njit "import numpy as np\ndef f(n, dt=np.float64):\n    return np.zeros(n, dt), dt\n"
    local a, dt = f(2, "float32")
    assert.are.equal("float32", a.dtype)
    assert.are.equal("float32", dt)
    assert.are.equal("int8", (f(2, "i1")).dtype)
    assert.are.equal("float64", (f(2)).dtype)
    assert.are.equal("int64", select(2, f(1, "int")))
    assert.are.equal(4, #f.signatures)  -- float32, int8, float64, int64
    assert.are.equal("bad argument #2 to 'f' (a string argument must name a dtype such as \"float64\", got \"float99\")",
      H.error_of(f, 2, "float99"))
  end)

  it("a dtype where a number is wanted is a TypingError at the user's line", function()
    local f = lumba.njit "import numpy as np\ndef f(x):\n    return np.float32 + x\n"
    local err = H.error_of(f, 1)
    assert.truthy(err:find("<string>:3:", 1, true), err)
    assert.truthy(err:find("TypingError", 1, true), err)
  end)

  it("a float stored into an integer element wraps as NumPy's astype does (no saturation)", function()
    local batch = require "numpy_batch"
    -- within 32 bits: where x86's C casts (NumPy's, Numba's) are defined
    local vals = { -1.5, 300.7, 7e4, -3e3, 2.5, -7.9, 255.9, -128.5, 65535.2, -2147483000.5 }
    local ints = { "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64" }
    local cases = {}
    for i, t in ipairs(ints) do
      for j, ft in ipairs { "float64", "float32" } do
        cases[#cases + 1] = { inputs = { { name = "x", dtype = ft, shape = { #vals }, values = vals } },
                              expr = "x.astype(np." .. t .. ")" }
      end
    end
    local want = batch.run(cases)
    local store = lumba.njit("def f(x, out):\n    out[:] = x\n")
    local loop = lumba.njit("def f(x, out):\n    for i in range(x.shape[0]):\n        out[i] = x[i]\n")
    local astype = lumba.njit("import numpy as np\ndef f(x, out):\n    return x.astype(out.dtype)\n")
    local k = 0
    for _, t in ipairs(ints) do
      for _, ft in ipairs { "float64", "float32" } do
        k = k + 1
        local x = lumba.array(vals, ft)
        local a, b = lumba.zeros(#vals, t), lumba.zeros(#vals, t)
        store(x, a)
        loop(x, b)
        local c = astype(x, a)
        for i = 1, #vals do
          local w = want[k].values[i]
          assert.are.equal(w, a:get(i), ("store %s -> %s, element %d"):format(ft, t, i))
          assert.are.equal(w, b:get(i), ("loop %s -> %s, element %d"):format(ft, t, i))
          assert.are.equal(w, c:get(i), ("astype %s -> %s, element %d"):format(ft, t, i))
        end
      end
    end
  end)
end)

