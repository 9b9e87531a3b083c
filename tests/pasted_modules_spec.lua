-- Pasted Numba modules as Numba reads them (issue 18, item 1): decorators
-- through import aliases, every option of @jit/@njit, signatures written
-- with type objects, try/except around imports, `if __name__ == "__main__":`.
local lumba = require "lumba"
local H = require "helpers"

describe("a pasted module", function()
  local m = lumba.load([[
try:
    import numba as nb
    from numba import jit as J, types
    from numba import njit
except ImportError:
    def njit(*args, **kwargs):
        return lambda f: f
    J = njit
else:
    import numpy as xp
finally:
    import math

import numba.np

SIG = "float64(float64[:])"
SCALE = 3

@nb.jit(nopython=True, parallel=False, fastmath=True, nogil=True, cache=False,
        locals={'s': nb.float64}, boundscheck=False, error_model="python",
        inline="never", looplift=True, no_cfunc_wrapper=True)
def total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += xp.sqrt(a[i])
    return s

@J(nb.int32(nb.int32, types.int32))
def add(x, y):
    return x + y

@nb.njit(SIG)
def mean(a):
    return a.sum() / a.shape[0]

@J([nb.float64(nb.float64[:, ::1]), "int64(int64[:, :])"], nopython=True)
def corner(a):
    return a[0, 0]

@numba.njit(fastmath={'nsz', 'arcp'})
def scaled(x):
    return SCALE * x + math.floor(1.5)

@njit
def twice(x):
    return 2 * x

@J(nb.float64[:](nb.float64[:]))
def doubled(x):
    return x * 2

@J("float64[:, :](float64[:, :])")
def transposed(x):
    return x.T.copy()

if __name__ == "__main__":
    a = xp.arange(4.0)
    print(f"{total(a)!r}", [x for x in range(3)])
    with open("log") as f:
        f.write(f"{mean(a)}")
]], { chunkname = "pasted.py" })

  it("reads decorators through any import alias", function()
    assert.are.equal(0 + 1 + math.sqrt(2) + math.sqrt(3) + 2, m.total(lumba.arange(5.0)))
    assert.is_false(m.total.options.parallel)
    assert.are.equal(16, m.twice(8))
  end)

  it("takes signatures written with type objects, in lists and in variables", function()
    assert.are.same({ "(int32, int32) -> int32" }, m.add.signatures)
    assert.are.equal(5, m.add(2, 3))
    assert.are.same({ "(float64[:]) -> float64" }, m.mean.signatures)
    assert.are.equal(1.5, m.mean(lumba.arange(4.0)))
    assert.are.equal(2, #m.corner.signatures)
    assert.are.equal(7.0, m.corner(lumba.array({ { 7.0, 1.0 }, { 2.0, 3.0 } })))
    -- an array result declared float64[:] (any layout) takes the C array the body makes
    assert.are.same({ 2.0, -4.0 }, m.doubled(lumba.array({ 1.0, -2.0 })):totable())
    assert.are.same({ "(float64[:]) -> float64[:]" }, m.doubled.signatures)
    assert.are.same({ { 1.0, 3.0 }, { 2.0, 4.0 } }, m.transposed(lumba.array({ { 1.0, 2.0 }, { 3.0, 4.0 } })):totable())
  end)

  it("honours a set of fast-math flags and keeps module constants", function()
    assert.are.equal(13.0, m.scaled(4.0))
    assert.are.equal(13, m.scaled(4))
  end)

  it("skips the except handlers and the __main__ block", function()
    local names = {}
    for k in pairs(m) do names[#names + 1] = k end
    table.sort(names)
    assert.are.same({ "add", "corner", "doubled", "mean", "scaled", "total", "transposed", "twice" }, names)
  end)

  it("accepts the same decorators through njit(src)", function()
    local f = lumba.njit [[
import numba as nb
from numba import njit as fast

@nb.njit("int64(int64)", nogil=True)
def inc(x):
    return x + 1
]]
    assert.are.same({ "(int64) -> int64" }, f.signatures)
    assert.are.equal(4, f(3))
    local g = lumba.njit "from numba import njit as fast\n@fast(cache=False)\ndef g(x):\n    return -x\n"
    assert.are.equal(-2, g(2))
  end)
end)

describe("errors in a pasted module", function()
  it("name an unknown decorator option and its line", function()
    assert.are.equal("pasted.py:3:10: unknown option 'paralel' of '@nb.njit' on 'f'",
      H.error_of(lumba.load, "import numba as nb\n\n@nb.njit(paralel=True)\ndef f(x):\n    return x\n",
        { chunkname = "pasted.py" }))
    assert.are.equal("<string>:2:24: unknown option 'bogus' of '@cuda.jit' on 'k'",
      H.error_of(lumba.load, "from numba import cuda\n@cuda.jit(device=True, bogus=1)\ndef k(x):\n    return x\n"))
    -- the state still works
    assert.are.equal(6, lumba.load("import numba as nb\n@nb.njit\ndef f(x):\n    return 2 * x\n").f(3))
  end)

  it("name an unknown decorator under an alias as written", function()
    assert.are.equal("<string>:2:2: unknown decorator '@nb.overload' on 'f'",
      H.error_of(lumba.load, "import numba as nb\n@nb.overload\ndef f(x):\n    return x\n"))
    assert.are.equal(3, lumba.load("import numba as nb\n@nb.jit(nopython=True)\ndef f(x):\n    return x + 1\n").f(2))
  end)

  it("still refuse a signature that is neither text nor type objects", function()
    assert.are.equal("<string>:2:10: the signature of '@nb.njit' on 'f' must be a string or a type expression "
      .. "such as float64(float64[:]), not this expression",
      H.error_of(lumba.load, "import numba as nb\n@nb.njit(nb.float64(x + 1))\ndef f(x):\n    return x\n"))
  end)

  -- issue 24 item 3: decorator mistakes name the decorator, the option and the line
  it("name extra positional arguments, a constant signature and a mistyped option", function()
    local src = "from numba import njit\n\n@njit(1, 2, 3)\ndef f(x):\n    return x\n"
    assert.are.equal("pasted.py:3:10: '@njit' on 'f' takes one positional argument, the signature or a list of "
      .. "them (got 3); write the options as keywords (cache=True)",
      H.error_of(lumba.load, src, { chunkname = "pasted.py" }))
    assert.are.equal("<string>:1:7: the signature of '@njit' on 'g' must be a string or a type expression "
      .. "such as float64(float64[:]), not the constant 1",
      H.error_of(lumba.njit, "@njit(1)\ndef g(x):\n    return x\n"))
    assert.are.equal("<string>:2:38: option 'boundscheck' of '@nb.njit' on 'h' must be a boolean, not a list",
      H.error_of(lumba.load, "import numba as nb\n@nb.njit('int64(int64)', boundscheck=[1])\ndef h(x):\n    return x\n"))
    assert.are.equal("<string>:2:17: option 'cache' of '@cuda.jit' on 'k' must be a boolean, not a number",
      H.error_of(lumba.load, "from numba import cuda\n@cuda.jit(cache=1)\ndef k(x):\n    x[0] = 1\n"))
    -- Numba's parallel may be a dict of options: accepted
    assert.are.equal(3, lumba.load("import numba as nb\n@nb.njit(parallel={'prange': True})\ndef p(x):\n    return x + 1\n").p(2))
  end)

  it("still refuse try inside a def, and parse the try body strictly", function()
    assert.are.equal("<string>:2:5: UnsupportedError: 'try' statements are not supported in compiled code",
      (H.error_of(lumba.njit, "def f(x):\n    try:\n        return x\n    except ValueError:\n        return 0\n")
        :match("^[^\n]*")))
    local err = H.error_of(lumba.load, "try:\n    import numba\nexcept ImportError:\n    pass\n@njit\ndef f(x):\n    return x +\n")
    assert.truthy(err:find("<string>:7:15: SyntaxError", 1, true), err)
    assert.are.equal(1, lumba.load("try:\n    import numba\nexcept:\n    pass\ndef f(x):\n    return x\n").f(1))
  end)
end)

describe("plain Python helpers in a pasted module", function()
  local m = lumba.load([[
import numba as nb
import numpy as np

def make_data(n):
    return np.array([float(i) for i in range(n)])

def report(x):
    with open("out.txt", "w") as f:
        f.write(f"{x}")

def plain_ok(x):
    return x * 10

@nb.njit
def step(x):
    return plain_ok(x) + 1

@nb.njit
def logs(x):
    report(x)
    return x
]], { chunkname = "helpers.py" })

  it("are skipped when lumba cannot compile them and nothing calls them", function()
    assert.is_nil(m.make_data)
    assert.is_nil(m.report)
    assert.are.equal(31, m.step(3))
    assert.are.equal(20, m.plain_ok(2))  -- one it can compile is still a function
  end)

  it("give their own error when a compiled function calls them", function()
    assert.are.equal("helpers.py:8:5: UnsupportedError: 'with' statements are not supported in compiled code",
      (H.error_of(m.logs, 1):match("^[^\n]*")))
    assert.are.equal(41, m.step(4))
  end)

  it("are parsed strictly by njit when it compiles them, and by lumba.parse", function()
    local err = H.error_of(lumba.njit, "def f(x):\n    return [x for x in y]\n")
    assert.truthy(err:find("<string>:2:12: UnsupportedError: list comprehensions", 1, true), err)
    err = H.error_of(lumba.parse, "def h(x):\n    return [x for x in y]\ndef f(x):\n    return x\n")
    assert.truthy(err:find("<string>:2:12: UnsupportedError: list comprehensions", 1, true), err)
    -- a syntax error is an error of the module, as in Python
    err = H.error_of(lumba.load, "def h(x)\n    return x\n")
    assert.truthy(err:find("<string>:1:9: SyntaxError", 1, true), err)
    -- njit compiling another def of such a source skips it too
    assert.are.equal(5, lumba.njit { name = "f" } ("def h(x):\n    return [x for x in y]\ndef f(x):\n    return x\n")(5))
  end)
end)


describe("module-level constants, frozen as Numba freezes them", function()
  local m = lumba.load([=[
import numba as nb
import numpy as np

W = np.array([1.0, 2.0, 3.0])
K = np.array([[0, 1], [1, 0]], dtype=np.int32)
SHAPE = (3, 4)
COEFFS = (0.5, 0.25)
GRID = np.linspace(0.0, 1.0, 5)
ID = np.eye(2, dtype=np.float32)
ODD = np.arange(1, 10, 2)
NOT_RUN = sorted([3, 1, 2])

@nb.njit
def weighted(x):
    s = 0.0
    for j in range(len(W)):
        s += W[j] * x[j]
    return s

@nb.njit
def coeff(i):
    a, b = COEFFS
    return COEFFS[i], a + b, len(COEFFS), SHAPE[0] * SHAPE[1]

@nb.njit
def shaped():
    return np.zeros(SHAPE).size, K.dtype, K[0, 1] + K[1, 0], ID.dtype, GRID[1], ODD.sum()

@nb.njit
def writes():
    W[0] = 5.0
    return W

@nb.njit
def uses_not_run():
    return NOT_RUN

@nb.njit
def whole():
    return W
]=])

  it("arrays, with their dtypes, read inside compiled functions", function()
    assert.are.equal(1 * 2 + 2 * 3 + 3 * 4, m.weighted(lumba.array { 2.0, 3.0, 4.0 }))
    assert.are.same({ 12, "int32", 2, "float32", 0.25, 1 + 3 + 5 + 7 + 9 }, { m.shaped() })
  end)

  it("tuples of numbers: constant and run-time indices, len, unpacking", function()
    assert.are.same({ 0.5, 0.75, 2, 12 }, { m.coeff(0) })
    assert.are.same({ 0.25, 0.75, 2, 12 }, { m.coeff(1) })
  end)

  it("the object mode computes them too, with the compiled results", function()
    assert.are.same({ m.coeff(1) }, { m.coeff:interpret(1) })
    local x = lumba.array { 2.0, 3.0, 4.0 }
    assert.are.equal(m.weighted(x), m.weighted:interpret(x))
    assert.are.same({ m.shaped() }, { m.shaped:interpret() })
  end)

  it("are read-only: a write is a TypingError, and what Lua gets back is its own copy", function()
    local err = H.error_of(m.writes)
    assert.truthy(err:find("TypingError: 'W' is a module-level constant, frozen read-only", 1, true), err)
    -- the module is a literal of this file: the position is the line in this file
    local line = 0
    for l in io.lines("tests/pasted_modules_spec.lua") do
      line = line + 1
      if l == "    W[0] = 5.0" then break end
    end
    assert.truthy(err:find("tests/pasted_modules_spec.lua:" .. line .. ":5:", 1, true), err)
    local a = m.whole()
    a:set(1, 9.0)
    assert.are.same({ 1.0, 2.0, 3.0 }, m.whole():totable())
  end)

  it("other module-level statements are not run: using their names is a NameError", function()
    local err = H.error_of(m.uses_not_run)
    assert.truthy(err:find("NameError: name 'NOT_RUN' is not defined", 1, true), err)
  end)
end)
