-- Realistic Numba programs, pasted verbatim (`import numba as nb`, the
-- decorators as Numba users write them), run by lumba and compared with the
-- same text run by plain NumPy (tests/numpy_run.lua): values and dtypes of
-- the result, and of the arrays the function wrote into.
local lumba = require "lumba"
local numpy = dofile("tests/numpy_run.lua")

local function flat(a)
  if type(a) ~= "userdata" then return { a == true and 1 or a == false and 0 or a } end
  local out = {}
  if a.ndim == 0 then return { a:get() } end
  local f = a:copy():reshape(a.size)
  for i = 1, a.size do
    local v = f:get(i)
    out[i] = v == true and 1 or v == false and 0 or v
  end
  return out
end

local function same(want, got, what, rtol)
  rtol = rtol or 1e-12
  if type(got) == "userdata" then
    assert.are.equal(want.dtype, got.dtype, what .. ": dtype")
    local shape = {}
    for k = 1, got.ndim do shape[k] = got.shape[k] end
    assert.are.same(want.shape, shape, what .. ": shape")
  end
  local g = flat(got)
  assert.are.equal(#want.values, #g, what .. ": size")
  for i, w in ipairs(want.values) do
    local v = g[i]
    local ok = (w ~= w and v ~= v) or w == v or math.abs(w - v) <= rtol * math.max(math.abs(w), math.abs(v))
    assert.is_true(ok, string.format("%s: element %d is %.17g, NumPy's %.17g", what, i, v, w))
  end
end

-- runs fname of src in lumba and in NumPy on copies of args and compares
-- the results and every array argument afterwards
local function check(src, fname, args, rtol)
  local mine, theirs = {}, {}
  for i, a in ipairs(args) do
    mine[i] = type(a) == "userdata" and a:copy() or a
    theirs[i] = a
  end
  local want = numpy.call(src, fname, theirs)
  assert.is_nil(want.error, want.error)
  local m = lumba.load(src)
  local got = table.pack(m[fname](table.unpack(mine, 1, #args)))
  if #want.result > 0 then
    for i, w in ipairs(want.result) do same(w, got[i], "result " .. i, rtol) end
  else
    same(want.result, got[1], "result", rtol)
  end
  for i, w in pairs(want.args) do same(w, mine[i], "argument " .. i .. " after the call", rtol) end
end

local function grid(n, m, seed)
  local a = lumba.zeros({ n, m })
  local s = seed
  for i = 1, n do
    for j = 1, m do
      s = s * 48271 % 2147483647
      a:set(i, j, s / 2147483647)
    end
  end
  return a
end

local describe_numpy = numpy.available() and describe or pending

-- programs that need what is still being built (issue 18): pending until then
local NEEDS = {
}
local busted_it = it
local function it(name, fn)
  if NEEDS[name] then return pending(name .. " (needs " .. NEEDS[name] .. ")") end
  return busted_it(name, fn)
end

describe_numpy("Numba programs pasted verbatim, against the same text run by NumPy", function()
  it("a Jacobi stencil sweep written in slices", function()
    check([[
import numpy as np
import numba as nb


@nb.jit(nopython=True, parallel=False, fastmath=False)
def sweep(A, B, steps):
    for t in range(steps):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] +
                               A[2:, 1:-1] + A[:-2, 1:-1])
        A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:] +
                               B[2:, 1:-1] + B[:-2, 1:-1])
    return A[1:-1, 1:-1].sum()
]], "sweep", { grid(12, 9, 7), grid(12, 9, 11), 5 })
  end)

  it("a row softmax with np.exp over each row", function()
    check([[
import numpy as np
import numba as nb


@nb.njit
def softmax(x):
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        row = x[i]
        e = np.exp(row - row.max())
        out[i] = e / e.sum()
    return out
]], "softmax", { grid(6, 10, 3) }, 1e-14)
  end)

  it("a clipping kernel with np.minimum and np.maximum, and a masked store", function()
    check([[
import numpy as np
import numba as nb


@nb.njit(cache=False)
def clip_both(x, lo, hi):
    y = np.minimum(np.maximum(x, lo), hi)
    z = x.copy()
    z[z > hi] = hi
    return y, z
]], "clip_both", { grid(5, 7, 13), 0.25, 0.75 })
  end)

  it("a dense layer with reshape, broadcasting and sum(axis=)", function()
    check([[
import numpy as np
import numba as nb


@nb.njit
def dense(x, w, b):
    n = x.shape[0]
    k = x.shape[1]
    prod = np.reshape(x, (n, k, 1)) * np.reshape(w, (1, k, w.shape[1]))
    out = np.sum(prod, axis=1) + b
    return np.maximum(out, 0.0)
]], "dense", { grid(4, 3, 5), grid(3, 6, 9), lumba.array({ 0.1, -0.2, 0.3, -0.4, 0.5, -0.6 }) }, 1e-14)
  end)

  it("a histogram of values in [0, 1)", function()
    check([[
import numpy as np
import numba as nb


@nb.njit
def hist(x):
    counts, edges = np.histogram(x, bins=8, range=(0.0, 1.0))
    return counts, edges
]], "hist", { grid(10, 10, 21):reshape(100) })
  end)
end)
