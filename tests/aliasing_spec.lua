-- Array arguments may alias each other, as in Numba: f(a, a) sees its own writes.
local lumba = require "lumba"

describe("aliasing arguments", function()
  it("reads values written through another argument naming the same array", function()
    local f = lumba.njit [[
def shift_add(a, b):
    for i in range(1, a.shape[0]):
        a[i] = b[i - 1] + 1.0
]]
    local x = lumba.zeros(64)
    f(x, x)
    assert.are.equal(63.0, x[64])       -- each step reads the value just written
    local y, z = lumba.zeros(64), lumba.zeros(64)
    f(y, z)
    assert.are.equal(1.0, y[64])        -- distinct arrays: every element is 0 + 1
  end)

  it("handles overlapping views of one buffer", function()
    local f = lumba.njit [[
def copy_into(dst, src):
    for i in range(src.shape[0]):
        dst[i] = src[i]
]]
    local a = lumba.arange(10, "float64")
    f(a:slice({ 2, 10 }), a:slice({ 1, 9 }))   -- dst = a[1:], src = a[:-1]: a forward smear
    for i = 1, 10 do assert.are.equal(0.0, a[i]) end
  end)
end)
