-- One def specialized several ways in one compilation: the specializations
-- share the def's syntax tree, and each must be lowered with its own types,
-- local slots and call targets (the annotations live with the
-- specialization, not on the tree). Expected values are hand-computed.
local lumba = require "lumba"
local njit = lumba.njit

describe("specializations of one def in one compilation", function()
  it("each is lowered with its own types, locals and call targets", function()
    -- scale is specialized three ways from main: (int64, UniTuple(int64, 3)),
    -- (float64, UniTuple(float64, 2)) and (int64, float64[:]). Its local y is
    -- int64 in two and float64 in one; max(v) is a builtin over a tuple and
    -- an array reduction over the array; bump(y) calls bump(int64) or
    -- bump(float64), where // is an integer or a float floor division.
    local main = njit [[
def main(n, x, a):
    return scale(n, (1, 5, 3)), scale(x, (2.5, 0.5)), scale(n, a)

def scale(k, v):
    y = k * 2
    return max(v) * y + bump(y)

def bump(t):
    return t // 3
]]
    local a = lumba.array({ 4.0, -2.0, 9.0 })
    local r1, r2, r3 = main(7, 1.5, a)
    assert.are.equal(5 * 14 + 4, r1)            -- y = 14, 14 // 3 = 4
    assert.are.equal("integer", math.type(r1))
    assert.are.equal(2.5 * 3.0 + 1.0, r2)       -- y = 3.0, 3.0 // 3 = 1.0
    assert.are.equal(9.0 * 14 + 4, r3)          -- max(a) = 9.0
    assert.are.equal("float", math.type(r3))
    local r4, r5, r6 = main(-4, -0.75, lumba.array({ -1.0, -8.0 }))
    assert.are.equal(5 * -8 + -3, r4)           -- y = -8, -8 // 3 = -3 (floor)
    assert.are.equal(2.5 * -1.5 + -1.0, r5)     -- y = -1.5, -1.5 // 3 = -1.0
    assert.are.equal(-1.0 * -8 + -3, r6)
  end)

  it("a loop over a tuple or an array, by specialization", function()
    -- the for loop's hidden iterable and its element type differ per
    -- specialization: UniTuple(int64, 3), UniTuple(float64, 2), float64[:]
    local main = njit [[
def main(a):
    return total((1, 2, 3)), total((0.25, 0.5)), total(a)

def total(v):
    s = 0
    for e in v:
        s += e * e
    return s
]]
    local r1, r2, r3 = main(lumba.array({ 1.0, -2.0, 3.0 }))
    assert.are.equal(14, r1)
    assert.are.equal("integer", math.type(r1))
    assert.are.equal(0.3125, r2)
    assert.are.equal(14.0, r3)
    assert.are.equal("float", math.type(r3))
  end)

  it("a range loop in one specialization next to a prange in a parallel one's callee", function()
    local main = njit { parallel = true } [[
from numba import prange

def main(n, a):
    return part(n, 2), part(n, 0.5), fillsum(a)

def part(n, w):
    s = w * 0
    for i in range(n):
        s += i * w
    return s

def fillsum(a):
    for i in prange(a.shape[0]):
        a[i] = i * 2.0
    return part(a.shape[0], a[1])
]]
    local a = lumba.zeros(4)
    local r1, r2, r3 = main(5, a)
    assert.are.equal(20, r1)                    -- 2 * (0+1+2+3+4)
    assert.are.equal("integer", math.type(r1))
    assert.are.equal(5.0, r2)
    assert.are.equal(12.0, r3)                  -- a[1] = 2.0, 2.0 * (0+1+2+3)
    assert.are.same({ 0.0, 2.0, 4.0, 6.0 }, { a[1], a[2], a[3], a[4] })
  end)
end)

describe("recursion between specializations", function()
  it("a spec typed while its caller's return type was still widening sees the final type", function()
    -- f(int64) returns int64 on its first path; g(int64), inferred from
    -- inside f, sees that and types y as int64, then f's return widens to
    -- float64 through g: g is inferred again, y becomes float64
    local f = njit [[
def f(n):
    if n <= 0:
        return 0
    return g(n)

def g(n):
    y = f(n - 1)
    return y + 0.5
]]
    assert.are.equal(1.5, f(3))
    assert.are.equal(2.5, f(5))
  end)

  it("an eager signature's return type is what its recursive calls return", function()
    -- inferred as int64, the signature makes it float64: the recursive call
    -- gives a float64, so the product does not wrap around as an int64 would
    local f = njit("float64(int64)", "def f(n):\n    if n < 1:\n        return 3\n    return f(n - 1) * 4000000000\n")
    assert.are.equal(3 * 4e9 * 4e9 * 4e9, f(3))
  end)
end)
