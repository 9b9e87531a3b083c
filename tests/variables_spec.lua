-- A variable assigned again at the top level of a function may take another
-- type, as in Numba (its SSA form names them x, x.1, x.2): the values are
-- Python's, computed here by hand; nested assignments still unify.
local lumba = require "lumba"
local H = require "helpers"

describe("a variable assigned again at the top level", function()
  it("takes another type: arrays of other ndim, numbers of another kind", function()
    local f = lumba.njit [[
import numpy as np
def f(a, n):
    x = a * 2.0
    x = np.reshape(x, (n, -1))
    x = x.sum(axis=0)
    y = 0
    for i in range(4):
        y += i
    y = y / 4
    return x, y
]]
    local x, y = f(lumba.arange(6.0), 2)
    assert.are.same({ 6.0, 10.0, 14.0 }, x:totable())
    assert.are.equal(1.5, y)
    assert.are.equal("float", math.type(y))
  end)

  it("reads the older value on its right-hand side and before it", function()
    local f = lumba.njit [[
def f(n):
    s = 0
    for i in range(n):
        s = s + i
    t = s
    s = float(s) / 2
    u = (s, t)
    t = t * 10
    return u[0], u[1], t
]]
    local s, t0, t = f(4)
    assert.are.same({ 3.0, 6 }, { s, t0 })
    assert.are.equal(60, t)
    assert.are.equal("integer", math.type(t))
  end)

  it("renames parameters, tuple targets and chained assignments", function()
    local f = lumba.njit [[
import numpy as np
def f(x, k):
    x = np.asarray(x, dtype=np.float32)
    a, k = x.shape[0], k * 1.5
    b = c = a + 1
    c = np.zeros(c)
    return x.dtype == np.float32, k, b, c.shape[0]
]]
    local same, k, b, n = f(lumba.arange(3), 2)
    assert.are.same({ true, 3.0, 4, 4 }, { same, k, b, n })
  end)

  it("keeps one variable for assignments in branches and loops: their types unify", function()
    local f = lumba.njit [[
def f(x):
    x = x + 1
    if x > 2:
        x = 2.5
    return x
]]
    assert.are.equal(2.0, f(1))
    assert.are.equal(2.5, f(5))
    local g = lumba.njit [[
import numpy as np
def g(n):
    x = np.zeros(3)
    for i in range(n):
        x = np.zeros((2, 2))
    return x
]]
    local err = H.error_of(g, 1)
    assert.matches("TypingError: cannot unify float64%[:%] and float64%[:, :%] for variable 'x' ", err)
  end)

  it("names the variable as written in errors", function()
    local f = lumba.njit [[
def f(n):
    y = n
    y = 1.5
    if n > 0:
        y = (1, 2)
    return y
]]
    local err = H.error_of(f, 1)
    assert.matches("for variable 'y' ", err)
    assert.is_nil(err:find("y.1", 1, true))
  end)

  it("gives the same results in the object mode", function()
    local f = lumba.njit [[
import numpy as np
def f(a):
    a = a.reshape(2, 3)
    a = a.T.copy()
    return a[2, 1]
]]
    local a = lumba.arange(6.0)
    assert.are.equal(5.0, f(a))
    assert.are.equal(5.0, f:interpret(a))
  end)
end)
