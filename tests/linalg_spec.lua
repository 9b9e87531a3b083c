-- Matrix products in compiled code (a @ b, np.dot, np.matmul, np.vdot,
-- np.inner through BLAS; np.outer, np.kron, np.trace as loops): values,
-- dtypes and shapes against NumPy itself, run once for every case
-- (tests/numpy_oracle.lua, one python run), over C- and F-ordered, strided and reversed
-- views; Numba's typing (float arrays of one dtype) and NumPy's messages.
local lumba = require "lumba"
local H = require "helpers"
local batch = dofile("tests/numpy_oracle.lua")

-- exact values (halves and small integers: every product is exact in
-- float64); integers for integer dtypes, non-negative for unsigned ones
local function values(n, seed, dtype)
  local v = {}
  for i = 1, n do
    local x = (i * 37 + seed * 11) % 13
    if dtype == "bool" then v[i] = x % 2
    elseif dtype:match("^uint") then v[i] = x
    elseif dtype:match("^int") then v[i] = x - 6
    else v[i] = (x - 6) / 2 end
  end
  return v
end

local function count(shape)
  local n = 1
  for _, s in ipairs(shape) do n = n * s end
  return n
end

local function make(dtype, shape, seed)
  local v = values(count(shape), seed, dtype)
  local a = lumba.array(#v > 0 and v or {}, dtype)
  return a:reshape(shape), v
end

local function flat(x)
  if type(x) == "number" then return { x } end
  local out = {}
  local function walk(t)
    if type(t) ~= "table" then out[#out + 1] = t == true and 1 or t == false and 0 or t; return end
    for _, v in ipairs(t) do walk(v) end
  end
  walk(x:totable())
  return out
end

-- Each case: an expression over a and b, Python text both lumba and NumPy
-- read, with a's and b's dtypes and shapes. All cases run through NumPy in
-- one python process, then each through lumba.
local cases = {}
local function case(expr, da, sa, db, sb)
  cases[#cases + 1] = { expr = expr, da = da, sa = sa, db = db or da, sb = sb }
end

-- the shapes of a product, small (the plain loop) and large (BLAS)
local PAIRS = {
  { {3}, {3} }, { {17}, {17} }, { {0}, {0} }, { {1}, {1} },
  { {2, 3}, {3} }, { {9, 12}, {12} }, { {3}, {3, 2} }, { {12}, {12, 9} },
  { {2, 3}, {3, 4} }, { {9, 7}, {7, 11} }, { {1, 1}, {1, 1} }, { {0, 3}, {3, 2} }, { {3, 0}, {0, 2} },
  { {4, 0}, {0} }, { {33, 40}, {40, 31} },
}
for _, dt in ipairs { "float64", "float32" } do
  for _, p in ipairs(PAIRS) do
    case("a @ b", dt, p[1], dt, p[2])
    case("np.dot(a, b)", dt, p[1], dt, p[2])
    case("np.matmul(a, b)", dt, p[1], dt, p[2])
  end
  -- views: F order (a transpose), strided, reversed, a column, through BLAS and the loop
  for _, n in ipairs { 3, 10 } do
    case("a.T @ b", dt, { n + 1, n }, dt, { n + 1, n + 2 })
    case("a @ b.T", dt, { n, n + 1 }, dt, { n + 2, n + 1 })
    case("a.T @ b.T", dt, { n + 1, n }, dt, { n + 2, n + 1 })
    case("a[::2, 1:] @ b[1:, ::3]", dt, { 2 * n, n + 1 }, dt, { n + 1, 3 * n })
    case("a[::-1, ::-1] @ b[::-1]", dt, { n, n + 1 }, dt, { n + 1, n })
    case("a[:, ::-2] @ b[::2, 0]", dt, { n, 2 * n }, dt, { 2 * n, 3 })
    case("a.T @ b[::-1]", dt, { n + 1, n }, dt, { n + 1 })
    case("b[::-2] @ a", dt, { n, n + 2 }, dt, { 2 * n })
    case("b[::2] @ a.T", dt, { n + 2, n }, dt, { 2 * n })
    case("np.dot(a[0, ::2], b[::-1, 1])", dt, { 2, 2 * n }, dt, { n, 2 })
    case("a[:, 1] @ b[:, 0]", dt, { n, 3 }, dt, { n, 2 })
    case("np.dot(a[:1], b[:, :1])", dt, { n, n }, dt, { n, n })
  end
  for _, p in ipairs { { {3}, {3} }, { {2, 3}, {3} }, { {3}, {2, 3} }, { {2, 3}, {4, 3} }, { {9, 10}, {8, 10} }, { {0, 2}, {3, 2} } } do
    case("np.inner(a, b)", dt, p[1], dt, p[2])
  end
  case("np.inner(a.T, b[::-1])", dt, { 9, 12 }, dt, { 12 })
  for _, n in ipairs { 0, 1, 5, 40 } do
    case("np.vdot(a, b)", dt, { n }, dt, { n })
  end
  case("np.vdot(a[::-3], b[::3])", dt, { 30 }, dt, { 30 })
  for _, s in ipairs { { 3, 3 }, { 2, 5 }, { 5, 2 }, { 0, 3 } } do
    case("np.trace(a)", dt, s, dt, { 1 })
    case("np.trace(a, 1)", dt, s, dt, { 1 })
    case("np.trace(a, offset=-1)", dt, s, dt, { 1 })
    case("np.trace(a.T, 7)", dt, s, dt, { 1 })
    case("np.trace(a[::-1], -2)", dt, s, dt, { 1 })
  end
end
-- outer and kron keep every dtype (NumPy's promotion, as a * b)
for _, d in ipairs { { "float64", "float64" }, { "float32", "float32" }, { "int64", "float32" }, { "int8", "int16" },
  { "uint64", "int64" }, { "bool", "bool" }, { "uint8", "int8" }, { "int32", "float64" } } do
  case("np.outer(a, b)", d[1], { 3 }, d[2], { 4 })
  case("np.kron(a, b)", d[1], { 3 }, d[2], { 2 })
  case("np.kron(a, b)", d[1], { 2, 3 }, d[2], { 3, 2 })
end
case("np.outer(a, b[::-1])", "float64", { 2, 3 }, "float64", { 4 })
case("np.outer(a.T, b)", "float64", { 2, 3 }, "float64", { 2, 2 })
case("np.outer(a, b)", "float64", { 0 }, "float64", { 3 })
case("np.kron(a, b)", "float64", { 2, 3 }, "float64", { 4 })
case("np.kron(a, b.T)", "float64", { 3 }, "float64", { 2, 3 })
case("np.kron(a[::-1], b[:, ::2])", "float64", { 2, 2 }, "float64", { 3, 4 })
case("np.kron(a, b)", "float64", { 0, 2 }, "float64", { 3, 2 })
-- products inside whole-array expressions (NPBench's gemm: alpha * A @ B + beta * C)
for _, dt in ipairs { "float64", "float32" } do
  case("1.5 * a @ b + 0.5 * b", dt, { 12, 12 }, dt, { 12, 12 })
  case("-(a @ b.T) - np.dot(a, b.T) * 2.0", dt, { 5, 9 }, dt, { 7, 9 })
  case("(a @ b) > 1.0", dt, { 3, 4 }, dt, { 4, 2 })
  case("a[0] @ b + a @ b[:, 0]", dt, { 6, 6 }, dt, { 6, 6 })
end
-- shape mismatches: NumPy's messages
case("a @ b", "float64", { 2, 3 }, "float64", { 2 })
case("a @ b", "float64", { 2, 3 }, "float64", { 2, 3 })
case("np.matmul(a, b)", "float64", { 2 }, "float64", { 3, 2 })
case("np.dot(a, b)", "float64", { 2, 3 }, "float64", { 2 })
case("np.dot(a, b)", "float64", { 3 }, "float64", { 2 })
case("np.dot(a, b)", "float32", { 2 }, "float32", { 3, 2 })
case("np.dot(a, b)", "float64", { 2, 3 }, "float64", { 2, 3 })
case("np.inner(a, b)", "float64", { 2, 3 }, "float64", { 2, 2 })
case("np.inner(a, b)", "float64", { 3 }, "float64", { 2 })
case("np.inner(a, b)", "float64", { 3 }, "float64", { 4, 2 })
case("np.inner(a, b)", "float32", { 2, 3 }, "float32", { 4, 2 })

describe("matrix products", function()
  describe("against NumPy", function()
    it("a @ b, np.dot, np.matmul, np.inner, np.vdot, np.outer, np.kron, np.trace: values, dtypes, shapes, errors", function()
      if not batch.available() then pending("python3 with NumPy is not installed") return end
      local inputs = {}
      for i, c in ipairs(cases) do
        local a, va = make(c.da, c.sa, i)
        local b, vb = make(c.db, c.sb, i + 1)
        inputs[i] = { a, b }
        c.inputs = { { name = "a", dtype = c.da, shape = c.sa, values = va }, { name = "b", dtype = c.db, shape = c.sb, values = vb } }
      end
      local want = batch.eval_batch(cases)
      local wrong, checked, errors = {}, 0, 0
      for i, c in ipairs(cases) do
        local label = ("%s with a %s%s, b %s%s"):format(c.expr, c.da, table.concat(c.sa, "x"), c.db, table.concat(c.sb, "x"))
        local f = lumba.njit("import numpy as np\ndef f(a, b):\n    return " .. c.expr .. "\n")
        local ok, got = pcall(f, inputs[i][1], inputs[i][2])
        local w = want[i]
        if w.error then
          errors = errors + 1
          if ok then wrong[#wrong + 1] = label .. ": NumPy raises " .. w.error .. ", lumba does not"
          elseif not tostring(got):find(w.error, 1, true) then
            wrong[#wrong + 1] = label .. ": NumPy raises " .. w.error .. ", lumba " .. tostring(got)
          end
        elseif not ok then
          wrong[#wrong + 1] = label .. ": " .. tostring(got)
        else
          local dt = type(got) == "number" and f.signatures[1]:match("%-> (%w+)$") or got.dtype
          local shape = type(got) == "number" and {} or { table.unpack(got.shape, 1, got.ndim) }
          local rtol = w.dtype == "float32" and 1e-5 or 1e-12
          local gv = flat(got)
          local same = dt == w.dtype and table.concat(shape, "x") == table.concat(w.shape, "x") and #gv == #w.values
          for k = 1, same and #gv or 0 do
            local e = w.values[k]
            if not (math.abs(gv[k] - e) <= rtol * math.abs(e) + (w.dtype == "float32" and 1e-4 or 1e-12)) then same = false end
          end
          if not same then
            wrong[#wrong + 1] = ("%s: NumPy %s %s {%s}, lumba %s %s {%s}"):format(label, w.dtype, table.concat(w.shape, "x"),
              table.concat(w.values, ", "):sub(1, 200), dt, table.concat(shape, "x"), table.concat(gv, ", "):sub(1, 200))
          end
        end
        checked = checked + 1
      end
      assert(#wrong == 0, #wrong .. " of " .. checked .. " cases differ from NumPy:\n" .. table.concat(wrong, "\n"))
      assert.is_true(checked >= 240)
      assert.is_true(errors >= 9)
    end)
  end)

  it("compute a 2x3 @ 3x2 product by hand", function()
    local f = lumba.njit "def f(a, b):\n    return a @ b\n"
    local a = lumba.array({ { 1, 2, 3 }, { 4, 5, 6 } }, "float64")
    local b = lumba.array({ { 7, 8 }, { 9, 10 }, { 11, 12 } }, "float64")
    local r = f(a, b)
    assert.are.same({ { 58, 64 }, { 139, 154 } }, r:totable())
    assert.are.equal("float64", r.dtype)
    assert.are.equal("(float64[:, ::1], float64[:, ::1]) -> float64[:, ::1]", f.signatures[1])
  end)

  it("write np.dot(a, b, out) into out and return it, as Numba does", function()
    local f = lumba.njit "import numpy as np\ndef f(a, b, out):\n    r = np.dot(a, b, out)\n    r[0, 0] += 100.0\n    return out\n"
    local a = lumba.array({ { 1, 2 }, { 3, 4 } }, "float64")
    local out = lumba.zeros({ 2, 2 })
    f(a, a, out)
    assert.are.same({ { 107, 10 }, { 15, 22 } }, out:totable())
    local v = lumba.njit "import numpy as np\ndef v(a, x, out):\n    np.dot(a, x, out=out)\n"
    local y = lumba.zeros(2)
    v(a, lumba.array({ 1, -1 }, "float64"), y)
    assert.are.same({ -1, -1 }, y:totable())
    assert.matches("ValueError: output array has wrong dimensions", H.error_of(f, a, a, lumba.zeros({ 2, 3 })))
    assert.matches("<string>:3:22: TypingError: np.dot%(%): out must be float64%[:, :%] %(C%-contiguous, the result's dtype and dimensions%), not float32", H.error_of(f, a, a, lumba.zeros({ 2, 2 }, "float32")))
  end)

  it("type as Numba does: float arrays of one dtype, 1-D and 2-D, errors at the user's line", function()
    local function err(src, ...)
      return H.error_of(lumba.njit("import numpy as np\ndef f(a, b):\n    return " .. src .. "\n"), ...)
    end
    local i2, f2, s2 = lumba.ones({ 2, 2 }, "int64"), lumba.ones({ 2, 2 }), lumba.ones({ 2, 2 }, "float32")
    assert.matches("<string>:3:12: TypingError: the @ operator needs float or complex arrays, as in Numba, not int64%[:, :%] %(convert with %.astype%(np%.float64%)%)",
      err("a @ b", i2, f2))
    assert.matches("TypingError: np.dot%(%) needs float or complex arrays, as in Numba, not bool", err("np.dot(a, b)", lumba.ones(2, "bool"), f2))
    assert.matches("<string>:3:12: TypingError: np.matmul%(%) needs two arrays of one dtype, as in Numba, not float32%[:, :%] and float64%[:, :%]",
      err("np.matmul(a, b)", s2, f2))
    assert.matches("TypingError: np.dot%(%) works on 1%-D and 2%-D arrays, not float64%[:, :, :%] %(stacks of matrices are not supported%)", err("np.dot(a, b)", lumba.ones({ 2, 2, 2 }), f2))
    assert.matches("<string>:3:16: TypingError: the @ operator works on 1%-D and 2%-D arrays", err("a @ b", f2, lumba.ones({ 2, 2, 2 })))
    assert.matches("TypingError: np.vdot%(%) works on 1%-D arrays, not float64%[:, :%]", err("np.vdot(a, b)", f2, f2))
    assert.matches("TypingError: the @ operator needs arrays, not float64", err("a @ b", 2.0, f2))
    assert.matches("TypingError: np.trace%(%) needs a 2%-D float or complex array, as in Numba, not int64", err("np.trace(a)", i2, 0))
    assert.matches("TypingError: np.kron%(%) works on 1%-D and 2%-D arrays", err("np.kron(a, b)", lumba.ones({ 2, 2, 2 }), f2))
    assert.matches("TypingError: the @ operator needs arrays", err("1.0 @ 2.0", 1, 1))
    assert.matches("TypingError: dot%(%) takes at most 3 arguments", err("np.dot(a, b, a, out=b)", f2, f2))
    assert.matches("TypingError: dot%(%) takes 2 to 3 arguments %(1 given%)", err("np.dot(a)", f2, f2))
    assert.matches("TypingError: trace%(%) takes at most 2 arguments", err("np.trace(a, 1, offset=b)", f2, 1))
  end)

  it("return float32 scalars for float32 vectors, summed in float32", function()
    local f = lumba.njit "import numpy as np\ndef f(a, b):\n    return np.dot(a, b)\n"
    local x = lumba.array({ 16777216, 1, 1, 1, 1 }, "float32")
    assert.are.equal("(float32[::1], float32[::1]) -> float32", (f(x, lumba.ones(5, "float32")) and f.signatures[1]))
  end)

  it("free the result and the operands' copies when a product raises, leaving the state usable", function()
    local f = lumba.njit "def f(a, b, c):\n    t = a[::2, ::2] @ b\n    return t @ c\n"
    local a, b = lumba.ones({ 20, 20 }), lumba.ones({ 10, 10 })
    for _ = 1, 50 do
      assert.matches("ValueError: matmul: Input operand 1", H.error_of(f, a, b, lumba.ones({ 9, 3 })))
    end
    assert.are.same({ 10, 3 }, { f(a, b, lumba.ones({ 10, 3 })).shape[1], f(a, b, lumba.ones({ 10, 3 })).shape[2] })
    assert.are.equal(100.0, f(a, b, lumba.ones({ 10, 3 })):get(1, 1))
  end)

  it("run inside prange loops: each iteration's product is its own, no deadlock with BLAS's threads", function()
    local f = lumba.njit { parallel = true } [[
import numpy as np
from numba import prange
def f(a, n):
    out = np.zeros(n)
    for i in prange(n):
        m = a * (i + 1.0)
        out[i] = (m @ a).sum() + np.dot(a[0], m[:, 0])
    return out
]]
    for _, m in ipairs { 3, 64, 200 } do
      local a = lumba.ones({ m, m })
      local r = f(a, 24)
      for i = 1, 24 do
        H.assert_close(i * m * m * m + i * m, r:get(i))
      end
    end
  end)

  it("run from the cache in a new process, without the compiler", function()
    local dirs = {}
    local dir = H.tmpdir(dirs)
    local script = string.format([[
package.path = %q
package.cpath = %q
local lumba = require "lumba"
local f = lumba.njit { cache = true } "import numpy as np\ndef f(a):\n    return a @ a.T, np.dot(a[0], a[1])\n"
local a = lumba.array({ { 1, 2, 3 }, { 4, 5, 6 } }, "float64")
local p, d = f(a)
io.write("r=", p:get(1, 2), " ", d, "\nfast=", lumba.cache.info().fast_hits, "\n")
]], package.path, package.cpath)
    local out1 = H.run_cached(dir, script)
    local out2 = H.run_cached(dir, script)
    os.execute("rm -rf " .. H.shell_quote(dir))
    assert.are.same({ r = "32 32", fast = "0" }, H.key_values(out1))
    assert.are.same({ r = "32 32", fast = "1" }, H.key_values(out2))
  end)

  it("say which package to install when no BLAS can be opened", function()
    local out = H.run_lua("LUMBA_BLAS=/nonexistent/libblas.so.3", [[
local lumba = require "lumba"
local f = lumba.njit "def f(a):\n    return a @ a\n"
print(select(2, pcall(f, lumba.ones({ 2, 2 }))))
local g = lumba.njit "import numpy as np\ndef g(a):\n    return np.outer(a, a).sum() + np.trace(a)\n"
print(g(lumba.ones({ 2, 2 })))
]])
    assert.matches("<string>:2:12: UnsupportedError: np.dot needs a BLAS library %(libopenblas0 or libblas3%)", out)
    assert.matches("\n18.0\n", out)  -- what needs no BLAS still runs
  end)
end)
