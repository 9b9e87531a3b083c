-- lumba.load: a call between two functions of the module calls the other
-- dispatcher's code, compiled once (resolve.c sibling_dispatcher), instead of
-- compiling the callee again into each caller; recursion and cycles stay in
-- one module. Results are checked against values computed here by hand.
local lumba = require "lumba"
local H = require "helpers"

-- n functions, f0(x) = x + 1 and fi(x) = f(i-1)(x) * 2 + i
local function chain_source(n, decorator)
  local parts = { "from numba import njit\n\n", decorator, "\ndef f0(x):\n    return x + 1\n" }
  for i = 1, n - 1 do
    parts[#parts + 1] = ("\n%s\ndef f%d(x):\n    return f%d(x) * 2 + %d\n"):format(decorator, i, i - 1, i)
  end
  return table.concat(parts)
end

local function chain_value(n, x)
  local v = x + 1
  for i = 1, n - 1 do v = v * 2 + i end
  return v
end

describe("lumba.load, calls between its functions", function()
  it("a call leaning on defaults or passing keywords binds as Python does", function()
    local m = lumba.load [[
from numba import njit

@njit
def scale(x, k=2.0, shift=0.5):
    return x * k + shift

@njit
def f(x):
    return scale(x) + scale(x, 3.0) + scale(x, shift=1.0) + scale(k=4.0, x=x)
]]
    -- (2x + 0.5) + (3x + 0.5) + (2x + 1) + (4x + 0.5) at x = 1.5
    assert.are.equal(3.5 + 5.0 + 4.0 + 6.5, m.f(1.5))
    assert.are.equal(3.5, m.scale(1.5))
  end)

  it("a chain of 20 functions gives the values of its recurrence", function()
    local m = lumba.load(chain_source(20, "@njit"))
    assert.are.equal(chain_value(20, 3), m.f19(3))
    assert.are.equal(chain_value(20, -7), m.f19(-7))
    -- every function of the chain was compiled once, as its own dispatcher
    for i = 0, 18 do assert.are.same({ "(int64) -> int64" }, m["f" .. i].signatures) end
    assert.are.equal(chain_value(11, 5), m.f10(5))
    assert.are.same({ "(int64) -> int64" }, m.f10.signatures)
  end)

  it("a chain deeper than the compilations nest gives the values of its recurrence", function()
    local m = lumba.load(chain_source(60, "@njit"))
    assert.are.equal(chain_value(60, 1), m.f59(1))
    for i = 0, 58, 7 do assert.are.equal(chain_value(i + 1, 2), m["f" .. i](2)) end
  end)

  it("a float callee called with another type compiles that type too", function()
    local m = lumba.load([[
from numba import njit

@njit
def half(x):
    return x / 2

@njit
def both(a, b):
    return half(a) + half(b)
]])
    assert.are.equal(1.5 + 0.25, m.both(3, 0.5))
    local sigs = m.half.signatures
    table.sort(sigs)
    assert.are.same({ "(float64) -> float64", "(int64) -> float64" }, sigs)
  end)

  it("a small callee is still inlined into its caller", function()
    local m = lumba.load([[
from numba import njit

@njit
def sq(x):
    return x * x

@njit
def norm2(x, y):
    return sq(x) + sq(y)
]])
    assert.are.equal(25, m.norm2(3, 4))
    local sym = assert(m.sq:inspect_llvm():match("define i32 @(sq__[%w_]-)%("))
    assert.is_nil(m.norm2:inspect_llvm():find("call i32 @" .. sym .. "(", 1, true))
  end)

  it("recursion and mutual recursion still compile and give the right values", function()
    local m = lumba.load([[
from numba import njit

@njit
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)

@njit
def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)

@njit
def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)

@njit
def parity_sum(n):
    s = 0
    for i in range(n):
        if is_even(i):
            s += fib(i)
    return s
]])
    assert.are.equal(6765, m.fib(20))
    assert.is_true(m.is_even(10))
    assert.is_false(m.is_odd(10))
    assert.is_true(m.is_odd(7))
    -- fib(0) + fib(2) + fib(4) + fib(6) + fib(8) = 0 + 1 + 3 + 8 + 21
    assert.are.equal(33, m.parity_sum(10))
  end)

  it("a typing error in a callee points at the callee's line", function()
    local m = lumba.load([[
from numba import njit

@njit
def inner(x):
    return x + undefined_name

@njit
def outer(x):
    return inner(x) * 2
]], { chunkname = "mod.py" })
    local ok, err = pcall(m.outer, 1)
    assert.is_false(ok)
    assert.matches("mod.py:5:%d+: NameError: name 'undefined_name' is not defined", tostring(err))
  end)

  it("a runtime error in a callee is raised through its caller", function()
    local m = lumba.load([[
from numba import njit

@njit
def inv(x):
    return 1 // x

@njit
def twice_inv(x):
    return inv(x) + inv(x)
]])
    assert.are.equal(2, m.twice_inv(1))
    assert.are.equal("ZeroDivisionError: integer division or modulo by zero", H.message_of(m.twice_inv, 0))
  end)

  it("cache = true: a chain is found in the cache by a new process", function()
    local dirs = {}
    local dir = H.tmpdir(dirs)
    local body = ([[
package.path = %q
package.cpath = %q
local lumba = require "lumba"
local m = lumba.load(%q)
local info = lumba.cache.info()
local r = m.f4(2)
info = lumba.cache.info()
io.write("result=", r, "\nhits=", info.hits, "\nmisses=", info.misses, "\n")
]]):format(package.path, package.cpath, chain_source(5, "@njit(cache=True)"))
    local t = H.key_values((H.run_cached(dir, body)))
    assert.are.same({ result = tostring(chain_value(5, 2)), hits = "0", misses = "5" }, t)
    t = H.key_values((H.run_cached(dir, body)))
    assert.are.same({ result = tostring(chain_value(5, 2)), hits = "5", misses = "0" }, t)
    for _, d in ipairs(dirs) do os.execute("rm -rf " .. H.shell_quote(d)) end
  end)
end)
