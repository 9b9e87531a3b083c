-- The array forms that a parallel=True function runs on the thread pool
-- (src/lower_parloop.c), each with its inputs, shared by
-- tests/parallel_arrays_spec.lua (thread counts 1 and 2 in the process, 7 in a
-- child with LUMBA_NUM_THREADS=7) and the NumPy oracle. The arrays are larger
-- than the size below which the loops stay serial (8192 elements), and the
-- overlap cases are NumPy's answers to statements that read their own target
-- at another index.
local M = {}

local BIG = {101, 103}     -- 10403 elements, 101 rows: 7 chunks of 14 or 15 rows
local WIDE = {3, 10007}    -- rows long enough for a parallel loop each

M.cases = {
  {name = "fused float expression with a broadcast row and ufuncs",
   inputs = {{"a", "float64", BIG}, {"b", "float64", {103}}},
   src = [[
def f(a, b):
    return a * 2.5 + np.sin(b) - np.sqrt(np.abs(a)) / (1.0 + b * b)
]]},
  {name = "integer expression (exact)",
   inputs = {{"a", "int64", BIG}, {"b", "int64", BIG}},
   src = [[
def f(a, b):
    return (a * 3 + b) // 7 - a % 5 + (a > b)
]]},
  {name = "float32 expression over a strided view",
   inputs = {{"a", "float32", {202, 103}}},
   src = [[
def f(a):
    return a[::2, ::-1] * np.float32(0.5) + a[1::2, :]
]]},
  {name = "ufunc call with out=",
   inputs = {{"a", "float64", BIG}, {"b", "float64", BIG}},
   src = [[
def f(a, b):
    c = np.empty_like(a)
    np.multiply(a, b, out=c)
    return c
]]},
  {name = "slice store of an expression",
   inputs = {{"a", "float64", {10007}}},
   src = [[
def f(a):
    c = np.zeros(a.shape[0])
    c[1:-1] = a[2:] - a[:-2]
    return c
]]},
  {name = "in-place slice operator",
   inputs = {{"a", "int64", BIG}, {"b", "int64", BIG}},
   src = [[
def f(a, b):
    a[:, 1:] += b[:, :-1] * 2
    a *= 3
    return a
]]},
  {name = "fills: zeros, ones, full, a scalar slice store",
   inputs = {{"a", "float64", BIG}},
   src = [[
def f(a):
    z = np.zeros((101, 103)) + np.ones((101, 103)) * 2.0 + np.full((101, 103), 0.25)
    a[:, 3:90] = 7.0
    return z + a
]]},
  {name = "arange and linspace",
   inputs = {{"a", "float64", {10007}}},
   src = [[
def f(a):
    return a + np.arange(10007) * 0.5 + np.linspace(0.0, 1.0, 10007)
]]},
  {name = "arange of integers with a step, linspace without its endpoint, logspace",
   inputs = {{"a", "float64", {10007}}},
   src = [[
def f(a):
    return a + np.arange(3, 30024, 3) + np.linspace(-2.0, 5.0, 10007, endpoint=False) + np.logspace(0.0, 1.0, 10007)
]]},
  {name = "reductions along an axis, 2-d (floats in the serial order: exact)",
   inputs = {{"a", "float64", {40, 3000}}},
   src = [=[
def f(a):
    out = np.empty((9, 3000))
    out[0] = a.sum(axis=0)
    out[1] = np.max(a, axis=0)
    out[2] = a.min(axis=0)
    out[3] = np.mean(a, axis=0)
    out[4] = np.prod(a * 0.01 + 1.0, axis=0)
    out[5] = np.argmax(a, axis=0)
    out[6] = np.argmin(a, axis=0)
    out[7] = np.any(a > 10.0, axis=0)
    out[8] = np.all(a > -10.0, axis=0)
    return out
]=]},
  {name = "reductions along the last axis and the middle one of a 3-d array",
   inputs = {{"a", "int64", {20, 30, 41}}},
   src = [=[
def f(a):
    out = np.zeros((5, 20, 41), dtype=np.int64)
    out[0] = a.sum(axis=1)
    out[1] = np.max(a, axis=1)
    out[2] = a.min(axis=-2)
    out[3, :, :30] = a.sum(axis=2)
    out[4, :, :30] = np.argmax(a, axis=2)
    return out
]=]},
  {name = "fused statements: expressions, an in-place operator, a whole-array store",
   inputs = {{"a", "float64", BIG}, {"b", "float64", BIG}},
   src = [[
def f(a, b):
    c = a * 2.0 + b
    d = np.sqrt(np.abs(c)) - a
    d *= c
    c[:] = d + b
    return c * 10.0 + d
]]},
  {name = "fused statements over views of one array (overlap at run time: one loop each)",
   inputs = {{"a", "int64", BIG}},
   src = [[
def f(a):
    x = a[1:, :]
    y = a[:-1, :]
    x += 1
    y *= 2
    return a
]]},
  {name = "fused statements whose shapes differ at run time (one loop each)",
   inputs = {{"a", "float64", BIG}, {"b", "float64", {103, 101}}},
   src = [[
def f(a, b):
    c = a * 2.0
    d = b * 3.0 + 1.0
    e = c[:100, :100] + d[:100, :100]
    return e
]]},
  {name = "statements rebinding a name another one of the run uses (not fused there)",
   inputs = {{"a", "float64", BIG}, {"b", "float64", BIG}},
   src = [[
def f(a, b):
    c = a + 0.0
    for k in range(3):
        c += 1.0
        c = a * 2.0 + c
        d = c + b
    return c + d
]]},
  {name = "reductions over every element: integers (exact)",
   inputs = {{"a", "int64", BIG}},
   src = [[
def f(a):
    out = np.empty(5, dtype=np.int64)
    out[0] = a.sum()
    out[1] = np.max(a)
    out[2] = a.min()
    out[3] = a[::2, ::-1].sum()
    out[4] = (a % 3 + 1).prod()
    return out
]]},
  {name = "reductions over every element: floats (within reordering), NaN propagating",
   inputs = {{"a", "float64", BIG}}, tol = 1e-12,
   src = [[
def f(a):
    out = np.empty(7)
    out[0] = a.sum()
    out[1] = np.max(a)
    out[2] = a.min()
    out[3] = a[1::2, :].mean()
    a[77, 5] = np.nan
    out[4] = a.max()
    out[5] = np.min(a)
    out[6] = a.sum()
    return out
]]},
  -- overlaps: the target read at another index of the same array
  {name = "overlap: shifted slice update A[1:] = A[:-1] + x",
   inputs = {{"a", "float64", {10007}}},
   src = [[
def f(a):
    a[1:] = a[:-1] + 1.0
    return a
]]},
  {name = "overlap: shifted in-place A[:-1] += A[1:]",
   inputs = {{"a", "int64", {10007}}},
   src = [[
def f(a):
    a[:-1] += a[1:]
    return a
]]},
  {name = "overlap: reversed view (a Levinson-Durbin step)",
   inputs = {{"a", "float64", {10007}}},
   src = [[
def f(a):
    k = 9000
    a[:k] = a[:k] + 0.5 * a[k - 1::-1]
    return a
]]},
  {name = "overlap: Gauss-Seidel-like row sweep",
   inputs = {{"a", "float64", WIDE}},
   src = [[
def f(a):
    for i in range(1, a.shape[0]):
        a[i, 1:-1] = (a[i - 1, 1:-1] + a[i, 2:] + a[i, :-2]) / 3.0
    return a
]]},
  {name = "overlap: in-place transpose A[:] = A.T and A += A.T",
   inputs = {{"a", "int64", {100, 100}}},
   src = [[
def f(a):
    b = a.copy()
    b += b.T
    a[:] = a.T
    return a * 1000 + b
]]},
  {name = "prange body with array expressions and slices",
   inputs = {{"a", "float64", BIG}, {"b", "float64", {103}}},
   src = [[
def f(a, b):
    out = np.empty_like(a)
    for i in prange(a.shape[0]):
        row = a[i, :] * 2.0 + b
        out[i, :] = row
        out[i, 1:] += row[:-1]
    return out
]]},
  {name = "array reduction variables in prange (+= and -=, integers: exact)",
   inputs = {{"a", "int64", BIG}},
   src = [[
def f(a):
    total = np.zeros(a.shape[1], dtype=np.int64)
    neg = np.ones(a.shape[1], dtype=np.int64)
    for i in prange(a.shape[0]):
        total += a[i, :]
        if i % 2 == 0:
            neg -= a[i, :] * 2
    return total * 100000 + neg
]]},
  {name = "array reduction variable broadcast into a 2-d total (floats: within reordering)",
   inputs = {{"a", "float64", BIG}}, tol = 1e-9,
   src = [[
def f(a):
    total = np.zeros((2, a.shape[1]))
    for i in prange(a.shape[0]):
        total += a[i, :] * 0.5
    return total
]]},
  {name = "parallel function called from a prange body (nested: serial)",
   inputs = {{"a", "float64", BIG}},
   helper = [[
def g(r):
    return r * 3.0 + 1.0
]],
   src = [[
def f(a):
    out = np.empty_like(a)
    for i in prange(a.shape[0]):
        out[i, :] = g(a[i, :])
    return out
]]},
}

-- deterministic values of every dtype, negative ones included
function M.values(dtype, n, seed)
  local v = {}
  for i = 1, n do
    local k = ((i + seed) * 7919) % 1009
    if dtype:match("^float") then v[i] = (k - 504) / 37
    else v[i] = k % 201 - 100 end
  end
  return v
end

function M.size(shape)
  local n = 1
  for _, d in ipairs(shape) do n = n * d end
  return n
end

function M.args(lumba, case)
  local args = {}
  for j, inp in ipairs(case.inputs) do
    local a = lumba.array(M.values(inp[2], M.size(inp[3]), j), inp[2])
    args[j] = #inp[3] > 1 and a:reshape(table.unpack(inp[3])):copy() or a
  end
  return args
end

function M.flat(a)
  local out = {}
  local function walk(t)
    if type(t) ~= "table" then out[#out + 1] = t == true and 1 or t == false and 0 or t; return end
    for _, v in ipairs(t) do walk(v) end
  end
  walk(a:totable())
  return out
end

local function source(case, deco)
  local function d(text) return deco and deco .. "\n" .. text or text end
  return "import numpy as np\nfrom numba import njit, prange\n" .. (case.helper and d(case.helper) or "") .. d(case.src)
end

-- the compiled functions of a case: parallel and serial (a helper is
-- compiled with the same options, through lumba.load's decorators)
function M.compile(lumba, case)
  if case.helper then
    return lumba.load(source(case, "@njit(parallel=True)")).f, lumba.load(source(case, "@njit")).f
  end
  return lumba.njit {parallel = true} (source(case)), lumba.njit(source(case))
end

-- runs every case at the current thread count: a list of mismatches between
-- the parallel and the serial result (exact: elementwise loops compute every
-- element the same way; a float reduction within case.tol), empty when all agree
function M.check(lumba)
  local bad = {}
  for _, case in ipairs(M.cases) do
    local fp, fs = M.compile(lumba, case)
    local rp = fp(table.unpack(M.args(lumba, case)))
    local rs = fs(table.unpack(M.args(lumba, case)))
    local a, b = M.flat(rp), M.flat(rs)
    if rp.dtype ~= rs.dtype or #a ~= #b then bad[#bad + 1] = case.name .. ": dtype or size differs"
    else
      for i = 1, #a do
        local tol = case.tol or 0
        if math.abs(a[i] - b[i]) > tol * (1 + math.abs(b[i])) and not (a[i] ~= a[i] and b[i] ~= b[i]) then
          bad[#bad + 1] = ("%s: element %d: parallel %s, serial %s"):format(case.name, i, a[i], b[i])
          break
        end
      end
    end
  end
  return bad
end

-- the NumPy batch case of a case: the same source run by NumPy, prange as range
function M.numpy_case(case)
  local inputs = {}
  local names = {}
  for j, inp in ipairs(case.inputs) do
    inputs[j] = {name = inp[1], dtype = inp[2], shape = inp[3], values = M.values(inp[2], M.size(inp[3]), j)}
    names[j] = inp[1]
  end
  local code = "globals()['prange'] = range\n" .. (case.helper and case.helper .. "globals()['g'] = g\n" or "") ..
    case.src .. "\nr = f(" .. table.concat(names, ", ") .. ")\n"
  return {inputs = inputs, code = code}
end

return M
