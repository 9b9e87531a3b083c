-- Array code of parallel=True functions on the thread pool (issue 20,
-- src/lower_parloop.c): every form of tests/parallel_arrays_cases.lua gives
-- the serial result at 1, 2 and 7 threads (exactly: each element is computed
-- the same way) and NumPy's, the overlapping stores included; the report of
-- :parallel_diagnostics(); errors raised in workers.
local lumba = require "lumba"
local H = require "helpers"
local batch = dofile("tests/numpy_batch.lua")
local C = dofile("tests/parallel_arrays_cases.lua")

local function close(a, b, tol)
  if a == b or (a ~= a and b ~= b) then return true end
  return math.abs(a - b) <= tol * (1 + math.abs(b))
end

describe("parallel array code", function()
  it("gives the serial result at 1 and 2 threads", function()
    local before = lumba.get_num_threads()
    for _, n in ipairs {1, 2} do
      if n <= lumba.max_threads() then
        lumba.set_num_threads(n)
        assert.are.same({}, C.check(lumba))
      end
    end
    lumba.set_num_threads(before)
  end)

  it("gives the serial result at 7 threads", function()
    local out = H.run_lua("LUMBA_NUM_THREADS=7", [[
local lumba = require "lumba"
local C = dofile("tests/parallel_arrays_cases.lua")
local bad = C.check(lumba)
print(lumba.get_num_threads(), #bad, table.concat(bad, "; "))
]])
    assert.are.equal("7\t0\t\n", out)
  end)

  it("gives NumPy's result, the overlapping stores included", function()
    if not batch.available() then return pending("no python3 with numpy") end
    local cases = {}
    for i, case in ipairs(C.cases) do cases[i] = C.numpy_case(case) end
    local job = batch.start(cases)
    local got = {}
    for i, case in ipairs(C.cases) do
      local fp = C.compile(lumba, case)
      got[i] = fp(table.unpack(C.args(lumba, case)))
    end
    local want = job.wait()
    for i, case in ipairs(C.cases) do
      local w, r = want[i], got[i]
      assert.is_nil(w.error, case.name)
      assert.are.equal(w.dtype, r.dtype, case.name)
      local vals = C.flat(r)
      assert.are.equal(#w.values, #vals, case.name)
      local tol = r.dtype == "float32" and 1e-6 or r.dtype == "float64" and math.max(1e-12, case.tol or 0) or 0
      for k = 1, #vals do
        if not close(vals[k], w.values[k], tol) then
          error(("%s: element %d: lumba %s, NumPy %s"):format(case.name, k, vals[k], w.values[k]))
        end
      end
    end
  end)

  it("reports which array operations became parallel loops and what they fused", function()
    local f = lumba.njit { parallel = true } [[
def f(a, b):
    c = a * 2.0 + np.sin(b)
    c[1:] = c[:-1] + 1.0
    c += b
    d = np.ones(a.shape[0])
    return c + d
]]
    f(lumba.zeros(10), lumba.zeros(10))
    -- lines as the Lua file counts them: the statements are lines 2..6 of the source
    local text = f:parallel_diagnostics()
    local o = tonumber(text:match("array expression at line (%d+)")) - 2
    assert.are.equal((
      "f(): array statements at lines %d and %d are not fused: line %d reads c at another index than it writes it\n" ..
      "f(): array expression at line %d runs as a parallel loop over axis 0 of its 1-d shape (3 operations fused into one loop, 2 array operands)\n" ..
      "f(): store into an array at line %d runs as a parallel loop over axis 0 of its 1-d shape (1 operation fused into one loop, 1 array operand; through a temporary when an operand overlaps the target, checked at run time)\n" ..
      "f(): in-place operator at line %d runs as a parallel loop over axis 0 of its 1-d shape (1 operation fused into one loop, 2 array operands; through a temporary when an operand overlaps the target, checked at run time)\n" ..
      "f(): fill at line %d runs as a parallel loop over axis 0 of its 1-d shape (0 operations fused into one loop, 0 array operands)\n" ..
      "f(): array expression at line %d runs as a parallel loop over axis 0 of its 1-d shape (1 operation fused into one loop, 2 array operands)\n")
      :format(o + 2, o + 3, o + 3, o + 2, o + 3, o + 4, o + 5, o + 6),
      text)
    local r = lumba.njit { parallel = true } "def r(a):\n    return a.sum()\n"
    r(lumba.zeros(10))
    assert.truthy(r:parallel_diagnostics():find("r%(%): reduction at line %d+ runs as a parallel loop over axis 0 of its 1%-d operand"))
    local s = lumba.njit "def s(a):\n    return a * 2.0\n"
    s(lumba.zeros(3))
    assert.is_nil(s:parallel_diagnostics():find("parallel loop"))
  end)

  it("reports adjacent array statements fused into one loop, and why others are not", function()
    local f = lumba.njit { parallel = true } [[
def f(a, b):
    c = a * 2.0
    d = c + b
    d += c
    e = d * 2.0
    e[1:] = e[:-1] + c[1:]
    return e
]]
    f(lumba.zeros(10), lumba.zeros(10))
    -- lines as the Lua file counts them: c = a * 2.0 is line 2 of the source
    local text = f:parallel_diagnostics()
    local o = tonumber(text:match("array expression at line (%d+)")) - 2
    assert.truthy(text:find(("f(): array statements at lines %d, %d, %d and %d are fused into one parallel loop " ..
      "(when their shapes agree at run time and no operand overlaps another statement's target; else one loop each)")
      :format(o + 2, o + 3, o + 4, o + 5), 1, true), text)
    assert.truthy(text:find(("f(): array statements at lines %d and %d are not fused: line %d reads e at another " ..
      "index than it writes it"):format(o + 5, o + 6, o + 6), 1, true), text)
    -- the fused loop's answer is the serial one
    local g = lumba.njit { parallel = true } [[
def g(a):
    c = a * 2.0
    c += a
    d = c - a
    return d
]]
    local r = g(lumba.arange(20000) * 1.0)
    assert.are.equal(2 * (19999 * 20000 / 2), r:sum())
    assert.truthy(g:parallel_diagnostics():find("are fused into one parallel loop", 1, true))
  end)

  it("raises an error of a fused statement once, naming that statement, the state usable after it", function()
    local f = lumba.njit { parallel = true } [[
def f(a, b):
    c = a * 2
    d = c ** b
    d += c
    return d
]]
    local a, b = lumba.ones(20000, "int64"), lumba.ones(20000, "int64")
    b[15000] = -1
    local ok, e = pcall(f, a, b)
    assert.is_false(ok)
    assert.truthy(e:find("Integers to negative integer powers are not allowed.", 1, true))
    assert.truthy(e:find("    d = c ** b", 1, true), e)
    assert.truthy(f:parallel_diagnostics():find("are fused into one parallel loop", 1, true))
    b[15000] = 2
    assert.are.equal(80002, f(a, b):sum())
  end)

  it("reduces along an axis on the pool, and says so", function()
    local f = lumba.njit { parallel = true } "def f(a):\n    return a.sum(axis=0)\n"
    assert.are.same({3, 3}, f(lumba.ones({3, 2})):totable())
    assert.truthy(f:parallel_diagnostics():find("of the NumPy prelude: its loop over the outputs runs in parallel", 1, true))
  end)

  it("keeps array code inside a prange body serial, and says nothing of it", function()
    local f = lumba.njit { parallel = true } [[
def f(a):
    for i in prange(a.shape[0]):
        a[i, :] = a[i, :] * 2.0
    return a
]]
    f(lumba.ones({4, 3}))
    local d = f:parallel_diagnostics()
    assert.truthy(d:find("prange loop at line %d+ runs in parallel"))
    assert.is_nil(d:find("array expression", 1, true))
  end)

  it("raises an error in a prange loop with an array reduction, the state usable after it", function()
    local f = lumba.njit { parallel = true } [[
def f(a, k):
    total = np.zeros(a.shape[1])
    for i in prange(a.shape[0]):
        if i == k:
            raise ValueError("row k")
        total += a[i, :]
    return total
]]
    local a = lumba.ones({100, 5})
    local ok, e = pcall(f, a, 60)
    assert.is_false(ok)
    assert.truthy(e:find("row k", 1, true))
    assert.are.same({100, 100, 100, 100, 100}, f(a, -1):totable())
  end)

  it("raises an error of a worker once, the state usable after it", function()
    local f = lumba.njit { parallel = true } "def f(a, b):\n    return a ** b\n"
    local a, b = lumba.ones(20000, "int64"), lumba.ones(20000, "int64")
    b[15000] = -1
    local ok, e = pcall(f, a, b)
    assert.is_false(ok)
    assert.truthy(e:find("Integers to negative integer powers are not allowed.", 1, true))
    b[15000] = 2
    assert.are.equal(20000, f(a, b):sum())
  end)
end)
