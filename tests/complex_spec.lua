-- Complex numbers end to end (issue 19, item 3): complex64/complex128
-- arrays on the Lua side, the lumba.complex scalar, and complex arithmetic,
-- builtins, cmath and ufuncs in compiled code, against Python's complex and
-- cmath and NumPy (tests/numpy_batch.lua).
local lumba = require "lumba"
local H = require "helpers"
local NB = dofile("tests/numpy_batch.lua")
local C = lumba.complex

local check = NB.available() and it or pending

-- Python's spelling of a Lua value (numbers, lumba.complex)
local function py(x)
  if lumba.iscomplex(x) then
    local function f(v)
      if v ~= v then return "float('nan')" elseif v == math.huge then return "float('inf')"
      elseif v == -math.huge then return "-float('inf')" end
      return string.format("float('%.17g')", v)  -- -0.0 stays negative
    end
    return ("complex(%s, %s)"):format(f(x.real), f(x.imag))
  end
  if math.type(x) == "integer" then return tostring(x) end
  return string.format("float(%.17g)", x)
end

local function close(a, b, rtol)
  rtol = rtol or 1e-12
  if a ~= a then return b ~= b end
  if a == b then return true end
  return math.abs(a - b) <= rtol * math.max(math.abs(a), math.abs(b), 1e-300)
end

-- got (a lumba.complex or a number) against NumPy's {re =, im =} or number
local function same(want, got, rtol)
  if type(want) == "table" then
    if not lumba.iscomplex(got) then return false end
    return close(want.re, got.real, rtol) and close(want.im, got.imag, rtol)
  end
  if lumba.iscomplex(got) then return false end
  if type(want) == "number" and type(got) == "number" then return close(want, got, rtol) end
  return want == got
end

local function show(x)
  if type(x) == "table" then return ("(%.17g%+.17gj)"):format(x.re, x.im) end
  return tostring(x)
end

local VALUES = { C(1, 2), C(3, -4), C(-0.5, 0.25), C(0, 1), C(2.5, 0), C(1e10, -3), C(-7, 1e-8) }

describe("the lumba.complex scalar", function()
  it("has .real, .imag, conjugate and is immutable", function()
    local z = C(1.5, -2)
    assert.are.equal(1.5, z.real)
    assert.are.equal(-2.0, z.imag)
    assert.is_true(z:conjugate() == C(1.5, 2))
    assert.is_true(C(3) == C(3, 0))
    assert.is_true(C(C(1, 2), C(3, 4)) == C(1 - 4, 2 + 3))  -- complex(a, b) = a + b*1j
    assert.truthy(H.error_of(function() z.real = 3 end):find("immutable", 1, true))
    assert.truthy(H.error_of(function() return z < z end):find("not ordered", 1, true))
    assert.truthy(H.error_of(function() return z + "x" end):find("attempt to", 1, true))
    assert.is_true(lumba.iscomplex(z))
    assert.is_false(lumba.iscomplex(1.5))
  end)

  check("tostring is Python's repr", function()
    local zs = { C(1, 2), C(0, 1), C(0, -2.5), C(-0.0, 1), C(1e20, 1e-7), C(0 / 0, 1 / 0), C(-1 / 0, 0),
      C(1 / 3, 2 / 3), C(123456789012345678, 0.1), C(0, 0), C(-1, -0.0) }
    local cases = {}
    for i, z in ipairs(zs) do
      cases[i] = { inputs = {}, code = ("r = np.array([ord(ch) for ch in repr(%s)])"):format(py(z)) }
    end
    for i, r in ipairs(NB.run(cases)) do
      local s = {}
      for k, c in ipairs(r.values) do s[k] = string.char(c) end
      assert.are.equal(table.concat(s), tostring(zs[i]))
    end
  end)

  check("arithmetic is Python's complex (division by Smith's method, CPython's **)", function()
    local cases, want = {}, {}
    local ops = { "+", "-", "*", "/", "**" }
    for _, a in ipairs(VALUES) do
      for _, b in ipairs({ C(2, -1), C(0.5, 0.5), 3, -1.5, C(0, -2), 2 }) do
        for _, op in ipairs(ops) do
          cases[#cases + 1] = { inputs = {}, code = ("r = np.asarray(%s %s %s)"):format(py(a), op, py(b)) }
          local lop = op == "**" and "^" or op
          want[#want + 1] = { a, b, lop, op }
        end
      end
    end
    local res = NB.run(cases)
    for i, r in ipairs(res) do
      local a, b, lop = want[i][1], want[i][2], want[i][3]
      local got = lop == "+" and a + b or lop == "-" and a - b or lop == "*" and a * b or lop == "/" and a / b or a ^ b
      assert(same(r.values[1], got, lop == "^" and 1e-13 or 0),
        ("%s %s %s: Python %s, lumba %s"):format(tostring(a), want[i][4], tostring(b), show(r.values[1]), tostring(got)))
    end
    assert.truthy(H.error_of(function() return C(1, 1) / C(0, 0) end):find("ZeroDivisionError", 1, true))
    assert.truthy(H.error_of(function() return C(0, 0) ^ -1 end):find("ZeroDivisionError", 1, true))
  end)
end)

describe("complex arrays on the Lua side", function()
  check("print, index, totable and astype as NumPy", function()
    local tabs = {
      { { C(2.5, 0), C(1, -2), 0 }, "complex128" },
      { { C(1e10, 2), C(1, 1e-7) }, "complex128" },
      { { C(0 / 0, 1), C(1, 1 / 0), C(-1 / 0, -1 / 0) }, "complex128" },
      { { { C(1.5, 2), 3 }, { C(0.5, -1), C(-0.25, 0.125) } }, "complex64" },
      { { C(0.1, 0.2), 7 }, "complex64" },
      { { 1, 2, 3 }, "complex128" },
    }
    local cases = {}
    for i, t in ipairs(tabs) do
      local a = lumba.array(t[1], t[2])
      local vals = {}
      for k, v in ipairs(a:reshape(-1):totable()) do vals[k] = lumba.iscomplex(v) and v or C(v) end
      local shape = {}
      for k = 1, a.ndim do shape[k] = a.shape[k] end
      cases[i] = { inputs = { { name = "a", dtype = t[2], shape = shape, values = vals } },
        code = "r = np.array([ord(ch) for ch in repr(a)])" }
      tabs[i].arr = a
    end
    for i, r in ipairs(NB.run(cases)) do
      local s = {}
      for k, c in ipairs(r.values) do s[k] = string.char(c) end
      assert.are.equal(table.concat(s), tostring(tabs[i].arr))
    end
    local a = lumba.array({ C(1, 2), 3, C(-1, 0.5) })
    assert.are.equal("complex128", a.dtype)
    assert.is_true(a[1] == C(1, 2) and a[2] == C(3, 0))
    a[2] = lumba.complex(0, -1)
    a[3] = 4.5
    assert.is_true(a[2] == C(0, -1) and a[3] == C(4.5, 0))
    assert.are.same({ 1.0, 0.0, 4.5 }, a:astype("float64"):totable())
    assert.are.same({ true, true, true }, a:astype("bool"):totable())
    assert.is_true(lumba.array({ 1.5, 2 }):astype("complex64")[1] == C(1.5, 0))
    assert.are.equal("complex128", lumba.full(2, C(1, 1)).dtype)
    assert.are.equal("complex64", lumba.zeros(2, "c8").dtype)
    assert.truthy(H.error_of(function() lumba.zeros(2)[1] = C(1, 2) end):find("float64 needs a real number, got (1+2j)", 1, true))
  end)
end)

describe("Lua's operators on complex arrays", function()
  it("give the compiled results (NumPy's loops): + - * / ^, unary -, binop/unop, scalars on either side", function()
    local f = lumba.njit [[
import numpy as np
def f(a, b, z):
    return (a + b, a - b, a * b, a / b, a ** 2, -a, a + z, z * a, a / z, np.abs(a), np.sqrt(a), np.exp(b),
            np.equal(a, b), np.isfinite(a), np.square(b))
]]
    for _, dts in ipairs({ { "complex128", "complex128" }, { "complex64", "complex64" }, { "complex64", "float32" },
      { "complex128", "int32" }, { "float64", "complex64" } }) do
      local vals = { C(1, 2), C(3, -4), C(-0.5, 0.25), C(0, 0), C(2, 1e-3), C(-1, -1) }
      local av, bv = {}, {}
      for i, v in ipairs(vals) do
        av[i] = dts[1]:match("complex") and v or v.real
        bv[i] = dts[2]:match("complex") and vals[7 - i] or (dts[2]:match("int") and i - 3 or vals[7 - i].real)
      end
      local a, b, z = lumba.array(av, dts[1]):reshape(2, 3), lumba.array(bv, dts[2]):reshape(2, 3), C(0.5, -2)
      local lua = { a + b, a - b, a * b, a / b, a ^ 2, -a, a + z, z * a, a / z, lumba.unop("abs", a),
        lumba.unop("sqrt", a), lumba.unop("exp", b), lumba.binop("equal", a, b), lumba.unop("isfinite", a),
        lumba.unop("square", b) }
      local cc = { f(a, b, z) }
      for k = 1, #cc do
        local label = ("%s, %s: result %d"):format(dts[1], dts[2], k)
        assert.are.equal(cc[k].dtype, lua[k].dtype, label)
        local x, y = cc[k]:reshape(-1):totable(), lua[k]:reshape(-1):totable()
        local tol = (cc[k].dtype == "complex64" or cc[k].dtype == "float32") and 1e-6 or 1e-14
        for i = 1, #x do
          if lumba.iscomplex(x[i]) then
            assert(close(x[i].real, y[i].real, tol) and close(x[i].imag, y[i].imag, tol),
              ("%s [%d]: compiled %s, Lua %s"):format(label, i, tostring(x[i]), tostring(y[i])))
          elseif type(x[i]) == "number" then
            assert(close(x[i], y[i], tol), label)
          else
            assert.are.equal(x[i], y[i], label)
          end
        end
      end
    end
    assert.truthy(H.error_of(function() return lumba.zeros(2, "complex128") // 2 end):find("floor_divide", 1, true))
  end)
end)

describe("complex numbers in compiled code", function()
  check("literals, arithmetic, ==, abs, .real, .imag, conjugate against Python", function()
    local f = lumba.njit [[
def f(z, w, n):
    return (z + w, z - w, z * w, z / w, z ** w, z ** n, -z, z == w, z != w, z == z, 1j, 2.5j + 1, z * 2,
            3 / z, z + 1.5, abs(z), z.real, z.imag, z.conjugate(), complex(n, 2), complex(z, w), n.real, n.imag)
]]
    local exprs = "(z + w, z - w, z * w, z / w, z ** w, z ** n, -z, z == w, z != w, z == z, 1j, 2.5j + 1, z * 2, " ..
      "3 / z, z + 1.5, abs(z), z.real, z.imag, z.conjugate(), complex(n, 2), complex(z, w), n.real, n.imag)"
    local args = { { C(1, 2), C(3, -4), 3 }, { C(-0.5, 0.25), C(0, 1), -2 }, { C(2, 0), C(2, 0), 0 }, { C(1e10, -3), C(-7, 1e-8), 5 } }
    local cases = {}
    for i, a in ipairs(args) do
      cases[i] = { inputs = {}, code = ("z, w, n = %s, %s, %s\nr = [np.asarray(x) for x in %s]"):format(py(a[1]), py(a[2]), py(a[3]), exprs) }
    end
    for i, r in ipairs(NB.run(cases)) do
      local got = table.pack(f(table.unpack(args[i])))
      assert.are.equal(#r, got.n)
      for k = 1, got.n do
        local want = r[k].values[1]
        if r[k].dtype == "bool" then want = want == 1 end
        assert(same(want, got[k], 1e-13), ("case %d result %d: Python %s, lumba %s"):format(i, k, show(want), tostring(got[k])))
      end
    end
  end)

  it("typing as Numba: the parts' types decide", function()
    local f = lumba.njit [[
import numpy as np
def f(a, b, x, i):
    c64, c128, f32 = a[0], b[0], x[0]
    return (np.full(1, c64 + f32).dtype, np.full(1, c64 + i).dtype, np.full(1, c64 * c128).dtype,
            np.full(1, c64 / f32).dtype, np.full(1, c64 ** 2).dtype, np.full(1, -c64).dtype,
            np.full(1, c128 + f32).dtype, np.full(1, abs(c64)).dtype, np.full(1, c64.real).dtype,
            np.full(1, complex(f32, f32)).dtype, np.full(1, c64 * 1j).dtype)
]]
    assert.are.same({ "complex64", "complex128", "complex128", "complex64", "complex128", "complex64", "complex128",
      "float32", "float32", "complex128", "complex128" },
      { f(lumba.array({ C(1, 2) }, "complex64"), lumba.array({ C(3, 4) }), lumba.array({ 1.5 }, "float32"), 2) })
  end)

  it("eager signatures with complex types; a variable widened from float to complex", function()
    local f = lumba.njit("complex64(complex64, float32)", [[
def f(z, x):
    w = 0.0
    w = w + z * x
    return w
]])
    assert.is_true(f(C(1.5, 2), 2) == C(3, 4))
    assert.is_true(f(3, 1) == C(3, 0))  -- a number converts to the signature's complex64
    local g = lumba.njit "def g(z):\n    s = 0.0\n    for i in range(3):\n        s = s + z\n    return s, z.real + z.imag\n"
    local s, t = g(C(1, -1))
    assert.is_true(s == C(3, -3))
    assert.are.equal(0.0, t)
  end)

  check("cmath against Python's cmath", function()
    local names = { "sqrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
      "asinh", "acosh", "atanh", "phase", "isnan", "isinf", "isfinite" }
    local body = {}
    for i, nm in ipairs(names) do body[i] = "cmath." .. nm .. "(z)" end
    body[#body + 1] = "cmath.log(z, 2)"
    body[#body + 1] = "cmath.polar(z)[0]"
    body[#body + 1] = "cmath.polar(z)[1]"
    body[#body + 1] = "cmath.rect(2.0, 0.5)"
    body[#body + 1] = "cmath.sqrt(-4.0)"
    local expr = "(" .. table.concat(body, ", ") .. ")"
    local f = lumba.njit("import cmath\ndef f(z):\n    return " .. expr .. "\n")
    local zs = { C(3, 4), C(-0.5, 0.25), C(0.1, -2), C(-3, 0), C(20, -30), C(1e-3, 7) }  -- finite: CPython raises or uses its own special-value tables where C99 differs
    local cases = {}
    for i, z in ipairs(zs) do
      cases[i] = { inputs = {}, code = ("import cmath\nz = %s\nr = [np.asarray(x) for x in %s]"):format(py(z), expr) }
    end
    for i, r in ipairs(NB.run(cases)) do
      local got = table.pack(f(zs[i]))
      for k = 1, got.n do
        local want = r[k].values[1]
        if r[k].dtype == "bool" then want = want == 1 end
        assert(same(want, got[k], 1e-13), ("cmath %s of %s: Python %s, lumba %s"):format(body[k], tostring(zs[i]),
          show(want), tostring(got[k])))
      end
    end
  end)

  check("complex arrays in and out, .real/.imag views, creation with a complex dtype", function()
    local f = lumba.njit [[
import numpy as np
def f(a):
    r = a.real
    r[0] = 100.0
    a.imag[1] = -7.5
    s = 0j
    for i in range(a.shape[0]):
        s += a[i] * a[i]
    z = np.zeros((2, 2), dtype=np.complex128)
    z[0, 1] = s
    return s, z, np.ones(2, np.complex64), np.full(2, 1j), np.empty(3, dtype=np.complex64).dtype, np.real(a), np.imag(a)
]]
    local a = lumba.array({ C(1, 2), C(3, -4), 5 })
    local s, z, o, full, dt, re, im = f(a)
    assert.is_true(a[1] == C(100, 2) and a[2] == C(3, -7.5))
    assert.is_true(s == C(100, 2) * C(100, 2) + C(3, -7.5) * C(3, -7.5) + C(25, 0))
    assert.is_true(z[1][2] == s and z[2][1] == C(0, 0))
    assert.are.equal("complex64", o.dtype)
    assert.is_true(full[2] == C(0, 1))
    assert.are.equal("complex64", dt)
    assert.are.same({ 100.0, 3.0, 5.0 }, re:totable())
    assert.are.same({ 2.0, -7.5, 0.0 }, im:totable())
    assert.are.equal("float64", re.dtype)
  end)

  check("array expressions and ufuncs over complex arrays as NumPy (values and dtypes)", function()
    local vals = { C(1, 2), C(3, -4), C(-0.5, 0.25), C(0, 0), C(2, 1e-3), C(-1, -1) }
    local reals = { 1.5, -2, 0.25, 3, 0, -1 }
    local exprs = { "a + b", "a - b", "a * b", "a / b", "a ** 2", "-a", "a == b", "a != b", "a * 2.5", "a + 1j",
      "np.abs(a)", "np.sqrt(a)", "np.exp(a)", "np.log(a)", "np.sin(a)", "np.cos(a)", "np.tanh(a)",
      "np.add(a, b)", "np.multiply(a, b)", "np.divide(a, b)", "np.negative(a)", "np.square(a)", "np.isnan(a)",
      "np.isfinite(a)", "np.equal(a, b)", "np.power(a, b)" }
    local combos = { { "complex128", "complex128" }, { "complex64", "complex64" }, { "complex64", "float32" },
      { "complex64", "float64" }, { "complex128", "int32" }, { "complex64", "int8" }, { "float64", "complex64" } }
    local cases, runs = {}, {}
    for _, cb in ipairs(combos) do
      for _, ex in ipairs(exprs) do
        local av = {}
        for i, v in ipairs(vals) do av[i] = cb[1]:match("complex") and v or reals[i] end
        local bv = {}
        for i = 1, #vals do
          local v = vals[#vals + 1 - i]
          bv[i] = cb[2]:match("complex") and v or (cb[2]:match("int") and math.tointeger(i - 3) or reals[#vals + 1 - i])
        end
        cases[#cases + 1] = { inputs = { { name = "a", dtype = cb[1], shape = { 2, 3 }, values = av },
          { name = "b", dtype = cb[2], shape = { 2, 3 }, values = bv } }, expr = ex }
        runs[#runs + 1] = { ex = ex, a = lumba.array(av, cb[1]):reshape(2, 3), b = lumba.array(bv, cb[2]):reshape(2, 3) }
      end
    end
    local res = NB.run(cases)
    for i, r in ipairs(res) do
      local t = runs[i]
      local ok, got = pcall(lumba.njit("import numpy as np\ndef f(a, b):\n    return " .. t.ex .. "\n"), t.a, t.b)
      local label = ("%s with %s, %s"):format(t.ex, t.a.dtype, t.b.dtype)
      if r.error then
        assert(not ok, label .. ": NumPy raised " .. r.error .. ", lumba gave a result")
      else
        assert(ok, label .. ": " .. tostring(got))
        assert.are.equal(r.dtype, got.dtype, label)
        local flat = got:reshape(-1):totable()
        local f32 = got.dtype == "complex64" or got.dtype == "float32"
        for k, want in ipairs(r.values) do
          if got.dtype == "bool" then want = want == 1 end
          local g = flat[k]
          assert(same(want, g, f32 and 1e-5 or 1e-12), ("%s [%d]: NumPy %s, lumba %s"):format(label, k, show(want), tostring(g)))
        end
      end
    end
  end)

  it("reductions and conj of complex arrays, views included, without leaks", function()
    local f = lumba.njit [[
import numpy as np
def f(a):
    return a.sum(), np.sum(a), a.prod(), a.mean(), np.mean(a.T), a.conj(), np.conj(a.T), np.conjugate(a)[1, 0]
]]
    local g = lumba.njit "def g(a):\n    return a.max()\n"
    for _, dt in ipairs({ "complex128", "complex64" }) do
      local a = lumba.array({ { C(1, 2), C(3, -4), 5 }, { C(0.5, 0.5), C(-1, 0), C(2, 2) } }, dt)
      collectgarbage()
      collectgarbage()
      local live = lumba._live_meminfos()
      local s, s2, p, m, mt, cj, cjt, e = f(a)
      local tol = dt == "complex64" and 1e-6 or 1e-15
      local ws, wp = C(0, 0), C(1, 0)
      for i = 1, 2 do for j = 1, 3 do ws, wp = ws + a[i][j], wp * a[i][j] end end
      for _, v in ipairs({ s, s2 }) do assert(close(ws.real, v.real, tol) and close(ws.imag, v.imag, tol)) end
      assert(close(wp.real, p.real, tol) and close(wp.imag, p.imag, tol), tostring(p))
      assert(close(ws.real / 6, m.real, tol) and close(ws.imag / 6, m.imag, tol) and close(m.real, mt.real, tol))
      assert.are.equal(dt, cj.dtype)
      assert.is_true(cj[1][2] == a[1][2]:conjugate() and cjt[3][1] == a[1][3]:conjugate() and e == a[2][1]:conjugate())
      s, s2, p, m, mt, cj, cjt, e = nil, nil, nil, nil, nil, nil, nil, nil
      collectgarbage()
      collectgarbage()
      assert.are.equal(live, lumba._live_meminfos())
      assert.truthy(H.error_of(g, a):find("TypingError: max() of " .. dt, 1, true))
    end
  end)

  check("a realistic program: an iterative radix-2 FFT on complex arrays against np.fft.fft", function()
    local fft = lumba.njit [[
import cmath
import math
import numpy as np
def fft(x):
    n = x.shape[0]
    a = np.zeros(n, dtype=np.complex128)
    bits = 0
    while (1 << bits) < n:
        bits += 1
    for i in range(n):
        r = 0
        k = i
        for b in range(bits):
            r = (r << 1) | (k & 1)
            k >>= 1
        a[r] = x[i]
    m = 2
    while m <= n:
        w_m = cmath.exp(-2j * math.pi / m)
        for start in range(0, n, m):
            w = 1 + 0j
            for j in range(m // 2):
                t = w * a[start + j + m // 2]
                u = a[start + j]
                a[start + j] = u + t
                a[start + j + m // 2] = u - t
                w = w * w_m
        m *= 2
    return a
]]
    local n = 64
    local vals = {}
    for i = 1, n do vals[i] = C(math.sin(i * 0.37) + (i % 7) * 0.1, math.cos(i * 1.3)) end
    local r = NB.run({ { inputs = { { name = "x", dtype = "complex128", shape = { n }, values = vals } }, expr = "np.fft.fft(x)" } })[1]
    local got = fft(lumba.array(vals))
    for k = 1, n do
      local w, g = r.values[k], got[k]
      assert(math.abs(w.re - g.real) < 1e-12 and math.abs(w.im - g.imag) < 1e-12, ("[%d] NumPy %s, lumba %s"):format(k, show(w), tostring(g)))
    end
  end)

  it("errors as Numba: ordering, // and %, complex division by zero", function()
    local lt = lumba.njit("def f(a, b):\n    return a < b\n")
    assert.truthy(H.error_of(lt, C(1, 2), C(1, 2)):find("TypingError: '<' is not supported between complex128 and complex128", 1, true))
    local fd = lumba.njit("def f(a, b):\n    return a // b\n")
    assert.truthy(H.error_of(fd, C(1, 2), 2):find("TypingError", 1, true))
    local dz = lumba.njit("def f(a, b):\n    return a / b\n")
    assert.truthy(H.error_of(dz, C(1, 2), C(0, 0)):find("ZeroDivisionError", 1, true))
    assert.is_true(dz(C(1, 2), C(0, 1)) == C(2, -1))  -- the state stays usable
    local inv = lumba.njit("def f(a):\n    return ~a\n")
    assert.truthy(H.error_of(inv, C(1, 2)):find("TypingError", 1, true))
    local arr = lumba.njit("def f(a):\n    return a < a\n")
    assert.truthy(H.error_of(arr, lumba.zeros(2, "complex128")):find("TypingError", 1, true))
  end)
end)

describe("complex numbers in the object mode", function()
  it("literals, + - * / **, ==, abs and unary - give the compiled results", function()
    local f = lumba.njit [[
def f(z, w, n):
    return z + w, z - w, z * w, z / w, z ** n, z ** w, -z, z == w, z == z, 1j * 2, abs(z), z + 1.5, 2 / z, 1 + 0j == 1
]]
    local args = { C(1, 2), C(3, -4), 3 }
    local om = table.pack(f:interpret(table.unpack(args)))
    local cc = table.pack(f(table.unpack(args)))
    assert.are.equal(cc.n, om.n)
    for k = 1, cc.n do
      if lumba.iscomplex(cc[k]) then
        assert(lumba.iscomplex(om[k]) and close(cc[k].real, om[k].real, 1e-15) and close(cc[k].imag, om[k].imag, 1e-15),
          ("result %d: compiled %s, object mode %s"):format(k, tostring(cc[k]), tostring(om[k])))
      elseif type(cc[k]) == "number" then
        assert(close(cc[k], om[k], 1e-15), ("result %d: compiled %s, object mode %s"):format(k, tostring(cc[k]), tostring(om[k])))
      else
        assert.are.equal(cc[k], om[k])
      end
    end
    assert.truthy(H.error_of(f.interpret, f, C(1, 2), C(0, 0), 1):find("ZeroDivisionError", 1, true))
  end)
end)

describe("complex arithmetic in CUDA kernels #gpu", function()
  H.gpu_it("+ - * /, abs, .real/.imag, conjugate and complex() on complex arrays", function()
    local cuda = lumba.cuda
    local k = cuda.jit [[
from numba import cuda
def k(a, b, out, mag, parts):
    i = cuda.grid(1)
    if i < a.shape[0]:
        z = a[i] * b[i] + 1j
        w = z / (b[i] - 0.5j)
        out[i] = complex(w.real, -w.imag) + a[i].conjugate() * 2 - z
        mag[i] = abs(z)
        parts[i] = out[i].real * 10 + out[i].imag
]]
    local n = 37
    local av, bv = {}, {}
    for i = 1, n do
      av[i] = C(math.sin(i) * 3, math.cos(i * 0.7))
      bv[i] = C(i % 5 - 2, (i % 3) * 0.5 + 0.25)
    end
    for _, dt in ipairs({ "complex128", "complex64" }) do
      local a, b = lumba.array(av, dt), lumba.array(bv, dt)
      local out, mag, parts = lumba.zeros(n, dt), lumba.zeros(n), lumba.zeros(n)
      k[{ 2, 32 }](a, b, out, mag, parts)
      local tol = dt == "complex64" and 1e-5 or 1e-14
      for i = 1, n do
        local x, y = a[i], b[i]
        local z = x * y + C(0, 1)
        local w = z / (y - C(0, 0.5))
        local want = C(w.real, -w.imag) + x:conjugate() * 2 - z
        local got = out[i]
        assert(close(want.real, got.real, tol) and close(want.imag, got.imag, tol),
          ("%s [%d]: want %s, got %s"):format(dt, i, tostring(want), tostring(got)))
        local r, im = math.abs(z.real), math.abs(z.imag)
        assert(close(math.sqrt(r * r + im * im), mag[i], tol))
        assert(close(got.real * 10 + got.imag, parts[i], tol * 10))
      end
    end
  end)
end)
