-- Matrix products on complex64/complex128 arrays in compiled code (a @ b,
-- np.dot, np.matmul, np.vdot, np.inner through cgemm/zgemm, cgemv/zgemv and
-- cdotu/cdotc or zdotu/zdotc; np.outer and np.kron as loops) against NumPy
-- itself: the same inputs go to NumPy through .npy files (lumba.npy.save),
-- every case in one python run; values, dtypes and shapes compared, over
-- C- and F-ordered, strided and reversed views, small (the plain loop) and
-- large (BLAS) sizes; np.linalg.inv and solve through LAPACK's complex
-- routines.
local lumba = require "lumba"
local H = require "helpers"

local PY = "/usr/bin/python3"

local function numpy_available()
  return os.execute(PY .. " -c 'import numpy' 2>/dev/null") == true
end

local function count(shape)
  local n = 1
  for _, s in ipairs(shape) do n = n * s end
  return n
end

-- halves and small integers: every product is exact in float32 and float64
local function make(dtype, shape, seed)
  local n = count(shape)
  local a = lumba.zeros({ n }, dtype)
  for i = 1, n do
    local x, y = (i * 37 + seed * 11) % 13, (i * 17 + seed * 5) % 11
    a:set(i, dtype:match("^complex") and lumba.complex((x - 6) / 2, (y - 5) / 2) or (x - 6) / 2)
  end
  return a:reshape(shape)
end

local cases = {}
local function case(expr, dt, sa, sb, db)
  cases[#cases + 1] = { expr = expr, da = dt, sa = sa, db = db or dt, sb = sb }
end

local PAIRS = {
  { {3}, {3} }, { {17}, {17} }, { {0}, {0} }, { {1}, {1} },
  { {2, 3}, {3} }, { {9, 12}, {12} }, { {3}, {3, 2} }, { {12}, {12, 9} },
  { {2, 3}, {3, 4} }, { {9, 7}, {7, 11} }, { {1, 1}, {1, 1} }, { {0, 3}, {3, 2} }, { {3, 0}, {0, 2} },
  { {33, 40}, {40, 31} },
}
for _, dt in ipairs { "complex128", "complex64" } do
  for _, p in ipairs(PAIRS) do
    case("a @ b", dt, p[1], p[2])
    case("np.dot(a, b)", dt, p[1], p[2])
    case("np.matmul(a, b)", dt, p[1], p[2])
  end
  for _, n in ipairs { 3, 10 } do
    case("a.T @ b", dt, { n + 1, n }, { n + 1, n + 2 })
    case("a @ b.T", dt, { n, n + 1 }, { n + 2, n + 1 })
    case("a[::2, 1:] @ b[1:, ::3]", dt, { 2 * n, n + 1 }, { n + 1, 3 * n })
    case("a[::-1, ::-1] @ b[::-1]", dt, { n, n + 1 }, { n + 1, n })
    case("a.T @ b[::-1]", dt, { n + 1, n }, { n + 1 })
    case("b[::-2] @ a", dt, { n, n + 2 }, { 2 * n })
    case("np.dot(a[0, ::2], b[::-1, 1])", dt, { 2, 2 * n }, { n, 2 })
    case("a.real.copy() @ b.imag.copy()", dt, { n, n }, { n, n })
  end
  for _, p in ipairs { { {3}, {3} }, { {2, 3}, {4, 3} }, { {9, 10}, {8, 10} } } do
    case("np.inner(a, b)", dt, p[1], p[2])
  end
  for _, n in ipairs { 0, 1, 5, 16, 17, 40 } do
    case("np.vdot(a, b)", dt, { n }, { n })
  end
  case("np.vdot(a[::-3], b[::3])", dt, { 30 }, { 30 })
  case("np.vdot(a[::2], b[1::2])", dt, { 8 }, { 8 })
  case("np.outer(a, b)", dt, { 3 }, { 4 })
  case("np.outer(a, b[::-1])", dt, { 2, 3 }, { 4 })
  case("np.kron(a, b)", dt, { 2, 3 }, { 3, 2 })
  case("1j * (a @ b) + np.conj(b)", dt, { 6, 6 }, { 6, 6 })
end
-- np.linalg.inv and solve (getrf/getri, gesv of the complex kits), on
-- matrices made regular by a large diagonal
for _, dt in ipairs { "complex128", "complex64" } do
  for _, n in ipairs { 1, 3, 8 } do
    case("np.linalg.inv(a + 9 * np.eye(" .. n .. ", dtype=a.dtype))", dt, { n, n }, { n })
    case("np.linalg.solve(a + 9 * np.eye(" .. n .. ", dtype=a.dtype), b)", dt, { n, n }, { n })
    case("np.linalg.solve((a + 9 * np.eye(" .. n .. ", dtype=a.dtype)).T, b)", dt, { n, n }, { n, 2 })
  end
end
-- outer and kron promote as a * b does
case("np.outer(a, b)", "complex64", { 3 }, { 2 }, "float64")
case("np.kron(a, b)", "float32", { 2 }, { 3 }, "complex128")

local function literal(x) return string.format("%.17g", x) end

describe("complex matrix products", function()
  it("a @ b, np.dot, np.matmul, np.inner, np.vdot, np.outer, np.kron on complex arrays equal NumPy's", function()
    if not numpy_available() then pending("python3 with NumPy is not installed") return end
    local dirs = {}
    local dir = H.tmpdir(dirs)
    local py = { "import numpy as np", "def show(r):",
      "    r = np.asarray(r)",
      "    v = ';'.join('%r,%r' % (complex(x).real, complex(x).imag) for x in r.reshape(-1))",
      "    print(r.dtype.name + '|' + 'x'.join(map(str, r.shape)) + '|' + v)" }
    for i, c in ipairs(cases) do
      c.a, c.b = make(c.da, c.sa, i), make(c.db, c.sb, i + 1)
      lumba.npy.save(("%s/a%d.npy"):format(dir, i), c.a)
      lumba.npy.save(("%s/b%d.npy"):format(dir, i), c.b)
      py[#py + 1] = ("a = np.load('%s/a%d.npy'); b = np.load('%s/b%d.npy'); show(%s)"):format(dir, i, dir, i, c.expr)
    end
    local script = dir .. "/oracle.py"
    local fh = assert(io.open(script, "w"))
    fh:write(table.concat(py, "\n"), "\n")
    fh:close()
    local p = assert(io.popen(PY .. " " .. script))
    local lines = {}
    for l in p:lines() do lines[#lines + 1] = l end
    p:close()
    os.execute("rm -rf " .. H.shell_quote(dir))
    assert.are.equal(#cases, #lines)
    local wrong = {}
    for i, c in ipairs(cases) do
      local wdt, wshape, wvals = lines[i]:match("^([^|]*)|([^|]*)|(.*)$")
      local label = ("%s with a %s%s, b %s%s"):format(c.expr, c.da, table.concat(c.sa, "x"), c.db, table.concat(c.sb, "x"))
      local f = lumba.njit("import numpy as np\ndef f(a, b):\n    return " .. c.expr .. "\n")
      local ok, got = pcall(f, c.a, c.b)
      if not ok then
        wrong[#wrong + 1] = label .. ": " .. tostring(got)
      else
        local scalar = lumba.typeof(got) == nil or not tostring(lumba.typeof(got)):find("%[")
        local dt = scalar and f.signatures[1]:match("%-> (%w+)$") or got.dtype
        local shape = scalar and "" or table.concat({ table.unpack(got.shape, 1, got.ndim) }, "x")
        local gv = {}
        if scalar then
          gv[1] = type(got) == "number" and { got, 0 } or { got.real, got.imag }
        else
          local flat = got:reshape(count({ table.unpack(got.shape, 1, got.ndim) }))
          for k = 1, flat.shape[1] do
            local z = flat:get(k)
            gv[k] = type(z) == "number" and { z, 0 } or { z.real, z.imag }
          end
        end
        local want = {}
        for re, im in wvals:gmatch("([^,;]+),([^;]+)") do want[#want + 1] = { tonumber(re), tonumber(im) } end
        local tol = wdt == "complex64" and 1e-5 or 1e-12
        local same = dt == wdt and shape == wshape and #gv == #want
        for k = 1, same and #gv or 0 do
          for j = 1, 2 do
            if math.abs(gv[k][j] - want[k][j]) > tol * (1 + math.abs(want[k][j])) then same = false end
          end
        end
        if not same then
          local text = {}
          for k = 1, math.min(#gv, 6) do text[k] = literal(gv[k][1]) .. "," .. literal(gv[k][2]) end
          wrong[#wrong + 1] = ("%s: NumPy %s %s {%s}, lumba %s %s {%s}"):format(label, wdt, wshape, wvals:sub(1, 160),
            dt, shape, table.concat(text, ";"))
        end
      end
    end
    assert(#wrong == 0, #wrong .. " of " .. #cases .. " cases differ from NumPy:\n" .. table.concat(wrong, "\n"))
    assert.is_true(#cases >= 100)
  end)

  it("types as Numba does: one complex dtype for both operands; singular matrices raise LinAlgError", function()
    local f = lumba.njit "import numpy as np\ndef f(a, b):\n    return np.dot(a, b)\n"
    assert.matches("<string>:3:12: TypingError: np.dot%(%) needs two arrays of one dtype, as in Numba, not complex64%[:%] and complex128%[:%]",
      H.error_of(f, lumba.zeros(2, "complex64"), lumba.zeros(2, "complex128")))
    local inv = lumba.njit "import numpy as np\ndef inv(a):\n    return np.linalg.inv(a)\n"
    for _ = 1, 3 do  -- the state stays usable
      assert.matches("^LinAlgError: Matrix is singular to machine precision", H.error_of(inv, lumba.zeros({ 2, 2 }, "complex128")))
    end
    local det = lumba.njit "import numpy as np\ndef det(a):\n    return np.linalg.det(a)\n"
    assert.matches("<string>:3:12: TypingError: np.linalg.det%(%): np.linalg on complex arrays supports only inv and solve so far, not complex64", H.error_of(det, lumba.zeros({ 2, 2 }, "complex64")))
    local g = lumba.njit "import numpy as np\ndef g(a):\n    return np.trace(a)\n"
    assert.matches("TypingError: np.trace%(%) needs a 2%-D float32 or float64 array", H.error_of(g, lumba.zeros({ 2, 2 }, "complex128")))
  end)
end)
