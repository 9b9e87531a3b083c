-- @vectorize and @guvectorize with target='cuda' (issue 21): the ufunc runs
-- as a kernel over the broadcast elements (one thread per element, or per
-- loop index of a gufunc), as numba-cuda's CUDA ufuncs: host arrays in, a
-- host array out; a device array in, a device array out. On the GPU (tag
-- gpu) and in the simulator. Expected values from the same functions run
-- with target='cpu' (tests/vectorize_spec.lua checks those against NumPy)
-- and from Lua's math.
local lumba = require "lumba"
local H = require "helpers"
local cuda = lumba.cuda

local SRC = [[
from numba import vectorize, guvectorize
import math
@vectorize(['float32(float32, float32)', 'float64(float64, float64)', 'int64(int64, int64)'], target='%s')
def rel(a, b):
    return a * b + 1 if a > b else math.hypot(a, b) - a

@guvectorize(['void(float32[:], float32, float32[:])', 'void(float64[:], float64, float64[:])'], '(n),()->(n)', target='%s')
def shift(x, c, out):
    acc = 0.0
    for i in range(x.shape[0]):
        acc += x[i]
        out[i] = acc + c

@guvectorize(['void(float64[:, :], float64[:], float64[:])'], '(m,n),(n)->(m)', target='%s')
def matvec(a, v, out):
    for i in range(a.shape[0]):
        s = 0.0
        for j in range(a.shape[1]):
            s += a[i, j] * v[j]
        out[i] = s
]]

-- the GPU's libdevice (hypot here) may differ from the C library in the last
-- bit, as numba-cuda's: equal shapes and integers, floats within 4 ulps
local function same_values(want, got)
  assert.are.equal(#want, #got)
  for i = 1, #want do
    local w, v = want[i], got[i]
    if type(w) == "table" then same_values(w, v)
    elseif math.type(w) == "integer" then assert.are.equal(w, v)
    else H.assert_close(w, v, 1e-15) end
  end
end

describe("@vectorize and @guvectorize with target='cuda' #gpu", function()
  if not cuda.is_available() then
    pending("[no CUDA device and no simulator]")
    return
  end
  local g = lumba.load(SRC:format("cuda", "cuda", "cuda"))
  local c = lumba.load(SRC:format("cpu", "cpu", "cpu"))

  it("broadcasts host arrays and numbers, returning a host array of the loop's dtype", function()
    local a = lumba.arange(12):reshape(3, 4):astype("float64") - 4
    local b = lumba.array({ 1.5, -2, 0, 3 })
    local r = g.rel(a, b)
    assert.are.equal("lumba.ndarray", getmetatable(r))
    same_values(c.rel(a, b):totable(), r:totable())
    same_values(c.rel(a, 2):totable(), g.rel(a, 2):totable())
    assert.are.equal("float32", g.rel(a:astype("float32"), b:astype("float32")).dtype)
    -- int64 casts safely to float64: NumPy's loop choice takes the float64 loop, listed first
    assert.are.equal("float64", g.rel(lumba.arange(5), 2).dtype)
    assert.are.same({ 7, 9 }, { g.rel(lumba.arange(5), 2)[4], g.rel(lumba.arange(5), 2)[5] })  -- a > b: a*b + 1
    -- numbers in: a number out (float64 numbers: the float64 loop), as the CPU ufunc
    H.assert_close(c.rel(2.0, 3.0), g.rel(2.0, 3.0), 1e-15)
    H.assert_close(math.sqrt(13) - 2, g.rel(2.0, 3.0), 1e-15)
    assert.are.equal(7, g.rel(3, 2))
  end)

  it("keeps device arrays on the device and writes into an output array", function()
    local a = lumba.linspace(0, 2, 10)
    local d = cuda.to_device(a)
    local r = g.rel(d, 1.0)
    assert.are.equal("lumba.devicearray", getmetatable(r))
    same_values(c.rel(a, 1.0):totable(), r:copy_to_host():totable())
    local out = cuda.device_array(10, "float64")
    assert.are.equal(out, g.rel(d, d, out))
    same_values(c.rel(a, a):totable(), out:copy_to_host():totable())
    local hout = lumba.zeros(10)
    assert.are.equal(hout, g.rel(a, 0.5, hout))
    same_values(c.rel(a, 0.5):totable(), hout:totable())
    local err = H.error_of(function() g.rel(a, lumba.zeros(3)) end)
    assert.truthy(err:find("operands could not be broadcast together with shapes (10,) (3,)", 1, true), err)
    err = H.error_of(function() g.rel(a, 1.0, lumba.zeros(4)) end)
    assert.truthy(err:find("ufunc 'rel': the output array has shape (4,); the inputs broadcast to (10,)", 1, true), err)
  end)

  it("runs a gufunc per loop index, with core dimensions, scalars and device arrays", function()
    local x = lumba.arange(12):reshape(3, 4):astype("float64")
    same_values(c.shift(x, 10):totable(), g.shift(x, 10):totable())
    assert.are.same({ 0.5, 1.5, 3.5, 6.5 }, g.shift(lumba.arange(4):astype("float64"), 0.5):totable())
    local dx = cuda.to_device(x:astype("float32"))
    local r = g.shift(dx, 1)
    assert.are.equal("lumba.devicearray", getmetatable(r))
    assert.are.equal("float32", r.dtype)
    same_values(c.shift(x, 1):totable(), r:copy_to_host():totable())
    local a = lumba.arange(24):reshape(2, 3, 4):astype("float64")
    local v = lumba.array({ 1, -1, 2, 0.5 })
    same_values(c.matvec(a, v):totable(), g.matvec(a, v):totable())
    local out = lumba.zeros({ 2, 3 })
    g.matvec(a, v, out)
    same_values(c.matvec(a, v):totable(), out:totable())
  end)
end)
