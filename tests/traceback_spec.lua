-- A run-time error raised by compiled code names the compiled function and
-- the statement that raised it, as the last line of a Numba traceback:
-- "<chunk>:<line>:<col>: in <function>" and the source line.
local lumba = require "lumba"
local H = require "tests.helpers"

-- sources through a variable: positions are the source's own (<string>)
local function compiled(src, opts) return lumba.njit(opts or {}, src) end

local function where_of(msg)
  local chunk, line, col, fn, text = msg:match("\n([^\n]-):(%d+):(%d+): in ([%w_]+)\n    ([^\n]*)$")
  return chunk and { chunk = chunk, line = tonumber(line), col = tonumber(col), fn = fn, text = text }
end

describe("run-time errors name where they were raised", function()
  local cases = {
    { "ZeroDivisionError: integer division or modulo by zero", 3, "y = a[0] // i",
      "def f(a, i):\n    x = 1\n    y = a[0] // i\n    return y + x\n", function(f) return f(lumba.ones(3, "int64"), 0) end },
    { "ZeroDivisionError: division by zero", 2, "return x / y",
      "def f(x, y):\n    return x / y\n", function(f) return f(1.0, 0.0) end },
    { "AssertionError: x must be positive", 2, 'assert x > 0, "x must be positive"',
      'def f(x):\n    assert x > 0, "x must be positive"\n    return x\n', function(f) return f(-1) end },
    { "ValueError: bad", 4, 'raise ValueError("bad")',
      'def f(x):\n    if x > 0:\n        return x\n    raise ValueError("bad")\n', function(f) return f(-1) end },
    { "ValueError: negative dimensions are not allowed", 3, "return np.empty(n)",
      "import numpy as np\ndef f(n):\n    return np.empty(n)\n", function(f) return f(-1) end },
    { "ValueError: cannot reshape array of size 6 into shape (4,)", 2, "return a.reshape(4)",
      "def f(a):\n    return a.reshape(4)\n", function(f) return f(lumba.ones(6)) end },
  }
  for _, c in ipairs(cases) do
    it(c[1], function()
      local err = H.error_of(c[5], compiled(c[4]))
      assert.are.equal(c[1], err:match("^[^\n]*"))
      local w = where_of(err)
      assert(w, err)
      assert.are.same({ "<string>", c[2], "f", c[3] }, { w.chunk, w.line, w.fn, w.text })
      assert.are.equal(5, w.col)  -- the statement's column (1-based), the body's indent
    end)
  end

  it("an IndexError with boundscheck names the loop body's statement", function()
    local g = compiled("def g(a):\n    s = 0.0\n    for i in range(10):\n        s += a[i]\n    return s\n",
                       { boundscheck = true })
    local err = H.error_of(g, lumba.ones(3))
    assert.truthy(err:find("^IndexError: index 3 out of bounds for axis 0 with size 3\n<string>:4:9: in g\n    s %+= a%[i%]$"), err)
  end)

  it("an error in a called function names that function, not its caller", function()
    local h = compiled('def helper(x):\n    if x < 0:\n        raise ValueError("x must be >= 0")\n    return x\n\n' ..
                       "def h(x):\n    return helper(x) + 1\n", { name = "h" })
    local w = where_of(H.error_of(h, -1))
    assert.are.same({ 3, "helper" }, { w.line, w.fn })
    assert.are.equal(2, h(1))  -- the dispatcher stays usable
  end)

  it("an error of the runtime (a singular product's shapes) names the caller's statement", function()
    local u = compiled("def u(a, b):\n    c = a @ b\n    return c\n")
    local err = H.error_of(u, lumba.ones({ 2, 3 }), lumba.ones({ 2, 3 }))
    assert.truthy(err:find("^ValueError: matmul:"), err)
    assert.are.same({ 2, "u", "c = a @ b" }, { where_of(err).line, where_of(err).fn, where_of(err).text })
  end)

  it("inside a prange loop: the statement of the failing iteration", function()
    local p = compiled("def p(a):\n    s = 0\n    for i in prange(a.shape[0]):\n        s += 10 // a[i]\n    return s\n",
                       { parallel = true })
    local w = where_of(H.error_of(p, lumba.zeros(100, "int64")))
    assert.are.same({ 4, "p", "s += 10 // a[i]" }, { w.line, w.fn, w.text })
  end)

  it("names the Lua file and its line when the source is written there", function()
    local f = lumba.njit [[
def f(a, i):
    return a[0] // i
]]
    local w = where_of(H.error_of(f, lumba.ones(2, "int64"), 0))
    assert.are.equal("tests/traceback_spec.lua", w.chunk)
    assert.are.equal(debug.getinfo(1, "l").currentline - 4, w.line)
  end)

  it("a function falling off its end names its last statement", function()
    local f = compiled("def f(x):\n    if x > 0:\n        return 1, 2\n    y = x\n")
    local err = H.error_of(f, -1)
    assert.truthy(err:find("^TypeError: function ended without returning a value\n<string>:4:5: in f"), err)
  end)

  it("array-expression shape errors keep their expression's own position", function()
    local r = compiled("def r(a, b):\n    return a + b\n")
    local err = H.error_of(r, lumba.ones(3), lumba.ones(4))
    assert.are.equal("ValueError: operands could not be broadcast together with shapes (3,) (4,) \n" ..
                     "<string>:2:12: in r\n    return a + b", err)
  end)
end)
