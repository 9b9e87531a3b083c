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

-- halves and small integers: every product is exact in float32 and float64;
-- with lcg, values in [-1, 1) of a small LCG instead (no periodic rows, so
-- no accidental rank deficiency)
local function make(dtype, shape, seed, lcg)
  local n = count(shape)
  local a = lumba.zeros({ n }, dtype)
  local r = seed * 7919 + 17
  local function next()
    r = (r * 1103515245 + 12345) % 2147483648
    return r / 1073741824 - 1
  end
  for i = 1, n do
    local x, y = (i * 37 + seed * 11) % 13, (i * 17 + seed * 5) % 11
    x, y = lcg and next() or (x - 6) / 2, lcg and next() or (y - 5) / 2
    a:set(i, dtype:match("^complex") and lumba.complex(x, y) or x)
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

-- np.linalg on complex arrays: the same def runs in lumba and in NumPy (a
-- body setting r, or an expression); results that are not unique
-- (eigenvectors, singular vectors, Q) enter through residual checks that
-- both must pass. Dtypes are Numba's where they differ from NumPy's (want_dt:
-- det and slogdet's sign are complex128, every norm and cond float64, a
-- complex64 trace complex128, as Numba's int-started sums).
local la_cases = {}
local function la(t)
  t.lcg = true
  la_cases[#la_cases + 1] = t
end
for _, dt in ipairs { "complex128", "complex64" } do
  local tol = dt == "complex64" and "1e-3" or "1e-10"
  local function eye(n) return ("np.eye(%d, dtype=a.dtype)"):format(n) end
  for _, n in ipairs { 1, 3, 8 } do
    local A, H = ("A = a + 9 * %s\n"):format(eye(n)), ("H = a @ np.conj(a.T) + %d * %s\n"):format(n, eye(n))
    for _, view in ipairs(n == 1 and { "a" } or { "a", "a.T", "a[::-1, ::-1]" }) do
      local Av = ("A = %s + 9 * %s\n"):format(view, eye(n))
      local Hv = ("x = %s\nH = x @ np.conj(x.T) + %d * %s\n"):format(view, n, eye(n))
      la { dt = dt, sa = { n, n }, code = Av .. "r = np.linalg.det(A)", want_dt = "complex128" }
      la { dt = dt, sa = { n, n }, code = Av .. "r = np.linalg.slogdet(-A)[0]", want_dt = "complex128" }
      la { dt = dt, sa = { n, n }, code = Av .. "r = np.linalg.slogdet(A)[1]", want_dt = "float64" }
      la { dt = dt, sa = { n, n }, code = Hv .. "r = np.linalg.cholesky(H)" }
      la { dt = dt, sa = { n, n }, code = Hv .. "r = np.linalg.eigvalsh(H)" }
      la { dt = dt, sa = { n, n }, code = Hv .. "r = np.linalg.eigh(H)[0]" }
      la { dt = dt, sa = { n, n }, code = Hv .. ("w, v = np.linalg.eigh(H)\nr = np.abs(H @ v - v * w).max() < %s * %d and np.abs(np.conj(v.T) @ v - %s).max() < %s * %d"):format(tol, 10 * n * n, eye(n), tol, n) }
      la { dt = dt, sa = { n, n }, code = Av .. "r = np.sort(np.linalg.eigvals(A).real)" }
      la { dt = dt, sa = { n, n }, code = Av .. "r = np.sort(np.linalg.eigvals(A).imag)" }
      la { dt = dt, sa = { n, n }, code = Av .. ("w, v = np.linalg.eig(A)\nr = np.abs(A @ v - v * w).max() < %s * %d"):format(tol, 10 * n * n) }
      la { dt = dt, sa = { n, n }, code = Av .. "r = np.linalg.inv(A) @ A" }
    end
    la { dt = dt, sa = { n, n }, code = A .. "r = np.trace(A)", want_dt = "complex128" }
    la { dt = dt, sa = { n, n + 2 }, code = "r = np.trace(a, 1) + np.trace(a, -1)", want_dt = "complex128" }
    la { dt = dt, sa = { n, n }, code = A .. "r = np.linalg.matrix_power(A / 9, 0)" }
    for _, p in ipairs { 1, 2, 5, -1, -3 } do
      la { dt = dt, sa = { n, n }, code = A .. ("r = np.linalg.matrix_power(A / 9, %d)"):format(p) }
    end
    for _, p in ipairs { "", ", 2", ", -2", ", 1", ", -1", ", np.inf", ", -np.inf", ", 'fro'" } do
      la { dt = dt, sa = { n, n }, code = A .. ("r = np.linalg.cond(A%s)"):format(p), want_dt = "float64" }
    end
    -- singular: det 0 (Numba's slogdet (0, -inf))
    if n > 1 then
      la { dt = dt, sa = { n, n }, code = "x = a.copy()\nx[1] = 0\nr = np.linalg.det(x)", want_dt = "complex128" }
      la { dt = dt, sa = { n, n }, code = "x = a.copy()\nx[1] = 0\nr = np.linalg.slogdet(x)[1]", want_dt = "float64" }
    end
  end
  for _, s in ipairs { { 1, 1 }, { 3, 2 }, { 2, 3 }, { 7, 4 }, { 4, 7 }, { 20, 13 } } do
    local m, n = s[1], s[2]
    local k = math.min(m, n)
    for _, view in ipairs { "a", "a.T.copy().T", "a[::-1]" } do
      local plain = view == "a"
      local x = ("x = %s\n"):format(view)
      la { dt = dt, sa = { m, n }, code = x .. "r = np.linalg.svd(x, compute_uv=False)" }
      for _, full in ipairs(plain and { "True", "False" } or { "False" }) do
        la { dt = dt, sa = { m, n }, code = x .. ("u, s, vt = np.linalg.svd(x, %s)\nr = np.abs((u[:, :%d] * s) @ vt[:%d] - x).max() < %s * %d and np.abs(np.conj(u.T) @ u - np.eye(u.shape[1])).max() < %s * %d and np.abs(vt @ np.conj(vt.T) - np.eye(vt.shape[0])).max() < %s * %d and u.shape[1] == %d"):format(full, k, k, tol, 10 * m * n, tol, 10 * m, tol, 10 * n, full == "True" and m or k) }
      end
      la { dt = dt, sa = { m, n }, code = x .. ("q, t = np.linalg.qr(x)\nr = np.abs(q @ t - x).max() < %s * %d and np.abs(np.conj(q.T) @ q - np.eye(%d)).max() < %s * %d and np.abs(t - np.triu(t)).max() == 0"):format(tol, 10 * m * n, k, tol, 10 * m) }
      la { dt = dt, sa = { m, n }, code = x .. "q, t = np.linalg.qr(x)\nr = np.abs(np.diag(t))" }
      la { dt = dt, sa = { m, n }, code = x .. "r = np.linalg.pinv(x)" }
      for j = 0, plain and 3 or 0 do
        la { dt = dt, sa = { m, n }, sb = { m, 2 }, code = x .. ("r = np.linalg.lstsq(x, b)[%d]"):format(j), want_dt = j == 2 and "int32" or nil }
      end
      la { dt = dt, sa = { m, n }, sb = { m, 2 }, code = x .. "r = np.linalg.lstsq(x, b[:, 1])[0]" }
      la { dt = dt, sa = { m, n }, code = x .. "r = np.linalg.matrix_rank(x)" }
      for _, p in ipairs(plain and { "", ", None", ", 'fro'", ", 'nuc'", ", np.inf", ", -np.inf", ", 1", ", -1", ", 2", ", -2" } or { "", ", 1" }) do
        la { dt = dt, sa = { m, n }, code = x .. ("r = np.linalg.norm(x%s)"):format(p), want_dt = "float64" }
      end
    end
    la { dt = dt, sa = { m, n }, code = "r = np.linalg.matrix_rank(np.outer(a[:, 0], a[0]))" }
  end
  for _, n in ipairs { 1, 33 } do
    for _, p in ipairs { "", ", np.inf", ", -np.inf", ", 0", ", 1", ", 2", ", 3", ", 0.5" } do
      la { dt = dt, sa = { n }, code = ("r = np.linalg.norm(a[::-1]%s)"):format(p), want_dt = "float64" }
    end
  end
end

-- every case of list against NumPy fed the same inputs (one python run):
-- wrong lines, empty when all agree
local function against_numpy(list, default_tol)
  local dirs = {}
  local dir = H.tmpdir(dirs)
  local py = { "import numpy as np", "import warnings", "warnings.simplefilter('ignore')", "def show(r):",
    "    r = np.asarray(r)",
    "    v = ';'.join('%r,%r' % (complex(x).real, complex(x).imag) for x in r.reshape(-1))",
    "    print(r.dtype.name + '|' + 'x'.join(map(str, r.shape)) + '|' + v)" }
  local srcs = {}
  for i, c in ipairs(list) do
    c.db, c.sb = c.db or c.da or c.dt, c.sb or { 1 }
    c.da = c.da or c.dt
    c.a, c.b = make(c.da, c.sa, i, c.lcg), make(c.db, c.sb, i + 1, c.lcg)
    lumba.npy.save(("%s/a%d.npy"):format(dir, i), c.a)
    lumba.npy.save(("%s/b%d.npy"):format(dir, i), c.b)
    local body = c.code and ("    " .. c.code:gsub("\n", "\n    ") .. "\n    return r\n") or ("    return " .. c.expr .. "\n")
    srcs[i] = "import numpy as np\ndef f(a, b):\n" .. body
    py[#py + 1] = ("def g%d(a, b):\n%s"):format(i, body)
    py[#py + 1] = ("show(g%d(np.load('%s/a%d.npy'), np.load('%s/b%d.npy')))"):format(i, dir, i, dir, i)
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
  assert.are.equal(#list, #lines)
  local wrong = {}
  for i, c in ipairs(list) do
    local wdt, wshape, wvals = lines[i]:match("^([^|]*)|([^|]*)|(.*)$")
    local label = ("%s with a %s%s, b %s%s"):format(c.expr or c.code:gsub("\n", "; "), c.da, table.concat(c.sa, "x"), c.db,
      table.concat(c.sb, "x"))
    local f = lumba.njit(srcs[i])
    local ok, got = pcall(f, c.a, c.b)
    if not ok then
      wrong[#wrong + 1] = label .. ": " .. tostring(got)
    else
      local scalar = type(got) ~= "userdata" or not tostring(lumba.typeof(got)):find("%[")
      local dt = scalar and f.signatures[1]:match("%-> (%w+)$") or got.dtype
      local shape = scalar and "" or table.concat({ table.unpack(got.shape, 1, got.ndim) }, "x")
      local gv = {}
      local function pair(z)
        if type(z) == "boolean" then return { z and 1 or 0, 0 } end
        return type(z) == "number" and { z, 0 } or { z.real, z.imag }
      end
      if scalar then
        gv[1] = pair(got)
      else
        local flat = got:reshape(count({ table.unpack(got.shape, 1, got.ndim) }))
        for k = 1, flat.shape[1] do gv[k] = pair(flat:get(k)) end
      end
      local want = {}
      local special = { nan = 0 / 0, inf = math.huge, ["-inf"] = -math.huge }
      local function num(x) return tonumber(x) or special[x] end
      for re, im in wvals:gmatch("([^,;]+),([^;]+)") do want[#want + 1] = { num(re), num(im) } end
      local tol = c.tol or default_tol[wdt] or 1e-12
      local same = dt == (c.want_dt or wdt) and shape == wshape and #gv == #want
      for k = 1, same and #gv or 0 do
        for j = 1, 2 do
          local w, g = want[k][j], gv[k][j]
          if not (w == g or w ~= w and g ~= g or math.abs(g - w) <= tol * (1 + math.abs(w))) then same = false end
        end
      end
      if not same then
        local text = {}
        for k = 1, math.min(#gv, 6) do text[k] = literal(gv[k][1]) .. "," .. literal(gv[k][2]) end
        wrong[#wrong + 1] = ("%s: NumPy %s %s {%s}, lumba %s %s {%s}"):format(label, c.want_dt or wdt, wshape,
          wvals:sub(1, 160), dt, shape, table.concat(text, ";"))
      end
    end
  end
  return wrong
end

describe("complex matrix products", function()
  it("a @ b, np.dot, np.matmul, np.inner, np.vdot, np.outer, np.kron on complex arrays equal NumPy's", function()
    if not numpy_available() then pending("python3 with NumPy is not installed") return end
    local wrong = against_numpy(cases, { complex64 = 1e-5, float32 = 1e-5 })
    assert(#wrong == 0, #wrong .. " of " .. #cases .. " cases differ from NumPy:\n" .. table.concat(wrong, "\n"))
    assert.is_true(#cases >= 100)
  end)

  it("np.linalg on complex64 and complex128: values, residuals and Numba's dtypes against NumPy", function()
    if not numpy_available() then pending("python3 with NumPy is not installed") return end
    local wrong = against_numpy(la_cases, { complex64 = 2e-4, float32 = 2e-4, complex128 = 1e-9, float64 = 1e-9 })
    assert(#wrong == 0, #wrong .. " of " .. #la_cases .. " cases differ from NumPy:\n" .. table.concat(wrong, "\n"))
    assert.is_true(#la_cases >= 500)
  end)

  it("types as Numba does: one complex dtype for both operands; singular matrices raise LinAlgError at the user's line", function()
    local f = lumba.njit "import numpy as np\ndef f(a, b):\n    return np.dot(a, b)\n"
    assert.matches("<string>:3:12: TypingError: np.dot%(%) needs two arrays of one dtype, as in Numba, not complex64%[:%] and complex128%[:%]",
      H.error_of(f, lumba.zeros(2, "complex64"), lumba.zeros(2, "complex128")))
    local function at_line(src, what)
      local g = lumba.njit("import numpy as np\ndef g(a):\n    x = a * 2\n    return " .. src .. "\n")
      for _, dt in ipairs { "complex128", "complex64" } do
        for _ = 1, 3 do  -- the state stays usable
          local msg = H.error_of(g, what(dt))
          assert.are.equal("return " .. src, msg:match("\n    ([^\n]*)$"), msg)
          assert.matches("<string>:4:5: in g\n", msg, 1, true)
          coroutine.yield(msg)
        end
      end
    end
    local function each(src, what)
      local msgs = {}
      local co = coroutine.wrap(function() at_line(src, what) end)
      for m in co do msgs[#msgs + 1] = m end
      return msgs
    end
    local zeros = function(dt) return lumba.zeros({ 3, 3 }, dt) end
    local function neg(dt)  -- -I: Hermitian, not positive definite
      local a = lumba.zeros({ 2, 2 }, dt)
      a:set(1, 1, -1) a:set(2, 2, -1)
      return a
    end
    local function nan(dt)
      local a = lumba.zeros({ 2, 2 }, dt)
      a:set(1, 2, lumba.complex(0, 0 / 0))
      return a
    end
    for _, m in ipairs(each("np.linalg.inv(x)", zeros)) do assert.matches("^LinAlgError: Matrix is singular to machine precision%.", m) end
    for _, m in ipairs(each("np.linalg.solve(x, x)", zeros)) do assert.matches("^LinAlgError: Matrix is singular to machine precision%.", m) end
    for _, m in ipairs(each("np.linalg.cholesky(x)", neg)) do assert.matches("^LinAlgError: Matrix is not positive definite%.", m) end
    for _, src in ipairs { "np.linalg.eig(x)", "np.linalg.eigvalsh(x)", "np.linalg.svd(x)", "np.linalg.qr(x)", "np.linalg.lstsq(x, x)",
      "np.linalg.pinv(x)", "np.linalg.det(x)" } do
      for _, m in ipairs(each(src, nan)) do assert.matches("^LinAlgError: Array must not contain infs or NaNs%.", m) end
    end
    -- a singular matrix's determinant is 0 (Numba's slogdet gives (0, -inf)), and then the state works on
    local det = lumba.njit "import numpy as np\ndef det(a):\n    return np.linalg.det(a)\n"
    local z = det(lumba.zeros({ 3, 3 }, "complex64"))
    assert.are.same({ 0, 0 }, { z.real, z.imag })
    local e = lumba.zeros({ 2, 2 }, "complex64")
    e:set(1, 1, lumba.complex(0, 2)) e:set(2, 2, 3)
    z = det(e)
    assert.are.same({ 0, 6 }, { z.real, z.imag })
    local g = lumba.njit "import numpy as np\ndef g(a):\n    return np.trace(a)\n"
    assert.matches("TypingError: np.trace%(%) needs a 2%-D float or complex array", H.error_of(g, lumba.zeros({ 2, 2 }, "int64")))
  end)
end)
