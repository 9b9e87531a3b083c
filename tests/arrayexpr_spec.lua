-- Whole-array arithmetic in compiled code: one fused loop nest over the
-- broadcast shape, NumPy's dtypes (as Numba applies them), in-place operators
-- and stores into views, checked by hand and against NumPy itself
-- (tests/numpy_oracle.lua, one python run for the whole grid).
local lumba = require "lumba"
local oracle = dofile("tests/numpy_oracle.lua")
local H = require "helpers"

local function flat(a) return H.flat(a, true) end  -- uint64 as the oracle's floats

local function shape_of(a)
  local s = {}
  for k = 1, a.ndim do s[k] = a.shape[k] end
  return s
end

describe("array expressions", function()
  it("fuse a tree of operations with broadcasting and NumPy's dtypes", function()
    local f = lumba.njit [[
def f(a, b):
    return a * 2.5 + b - (a > b)
]]
    local r = f(lumba.array({{1, 2, 3}, {4, 5, 6}}), lumba.array({10, 20, 30}))
    assert.are.equal("float64", r.dtype)
    assert.are.same({{12.5, 25, 37.5}, {20, 32.5, 45}}, r:totable())
  end)

  it("keep a small dtype with a Python scalar of no higher kind (Numba's rule)", function()
    local f = lumba.njit "def f(a):\n    return a + 1.5\n"
    assert.are.equal("float32", f(lumba.array({1, 2}, "float32")).dtype)
    local g = lumba.njit "def g(a):\n    return a * 3\n"
    assert.are.equal("int8", g(lumba.array({1, 2}, "int8")).dtype)
    local h = lumba.njit "def h(a):\n    return a * 1.5\n"
    assert.are.equal("float64", h(lumba.array({1, 2}, "int64")).dtype)
    local d = lumba.njit "def d(a, b):\n    return a / b\n"
    assert.are.equal("float64", d(lumba.array({1, 2}), lumba.array({2, 4})).dtype)
  end)

  it("read views through their strides, negative ones included", function()
    local f = lumba.njit "def f(a):\n    return -a[::-1] // 2\n"
    assert.are.same({-2, -2, -1, -1}, f(lumba.array({1, 2, 3, 4})):totable())
  end)

  it("raise NumPy's ValueError on a broadcasting mismatch, with both shapes and the line", function()
    local g = lumba.njit "def g(a, b):\n    c = a * 2\n    return c + b\n"
    local ok, e = pcall(g, lumba.zeros({2, 3}), lumba.array({1, 2, 3, 4}))
    assert.is_false(ok)
    assert.are.equal("ValueError: operands could not be broadcast together with shapes (2,3) (4,) \n"
      .. "<string>:3:12: in g\n    return c + b", e)
    -- the failing operation names its own operands: here an intermediate result
    local h = lumba.njit "def h(a, b, c):\n    return (a + b) * c\n"
    ok, e = pcall(h, lumba.zeros({2, 1}), lumba.zeros(3), lumba.zeros(4))
    assert.matches("shapes %(2,3%) %(4,%) \n<string>:2:12: in h", e)
    assert.are.same({2, 4, 6}, g(lumba.array({1, 2, 3}), lumba.zeros(3)):totable())
  end)

  it("free the arrays an expression made on every raise path", function()
    local f = lumba.njit "def f(a, b, e):\n    c = a + 1\n    return (c * a) ** e + b\n"
    collectgarbage(); collectgarbage()
    local before = lumba._live_meminfos()
    for _ = 1, 20 do
      assert.is_false(pcall(f, lumba.array({1, 2}), lumba.array({1, 2, 3}), 2))   -- broadcasting
      assert.is_false(pcall(f, lumba.array({1, 2}), lumba.array({1, 2}), -1))     -- ** in the loop
    end
    collectgarbage(); collectgarbage()
    assert.are.equal(before, lumba._live_meminfos())
  end)

  describe("operators NumPy defines", function()
    it("an array with a bool scalar", function()
      local f = lumba.njit "def f(a):\n    return a + True, a & True, a * False\n"
      local r1, r2, r3 = f(lumba.array({1, 2}, "int8"))
      assert.are.same({"int8", "int8", "int8"}, {r1.dtype, r2.dtype, r3.dtype})
      assert.are.same({{2, 3}, {1, 0}, {0, 0}}, {r1:totable(), r2:totable(), r3:totable()})
      local g = lumba.njit "def g(a):\n    return a + True\n"
      assert.are.same({3.5}, g(lumba.array({2.5})):totable())
    end)

    it("logical operators on bool arrays", function()
      local f = lumba.njit "def f(a, b):\n    return a & b, a | b, a ^ b, ~a\n"
      local r = {f(lumba.array({true, true, false, false}), lumba.array({true, false, true, false}))}
      assert.are.same({{true, false, false, false}, {true, true, true, false}, {false, true, true, false},
        {false, false, true, true}}, {r[1]:totable(), r[2]:totable(), r[3]:totable(), r[4]:totable()})
      assert.are.equal("bool", r[4].dtype)
    end)

    it("float // and % by zero give NumPy's inf and nan", function()
      local f = lumba.njit "def f(a, b):\n    return a // b, a % b\n"
      local q, m = f(lumba.array({1, -1, 0, 5, -5, 5, -5}, "float64"), lumba.array({0, 0, 0, 3, 3, -3, -3}, "float32"))
      local qv, mv = q:totable(), m:totable()
      assert.are.same({math.huge, -math.huge}, {qv[1], qv[2]})
      assert.is_true(qv[3] ~= qv[3] and mv[1] ~= mv[1] and mv[2] ~= mv[2] and mv[3] ~= mv[3])
      assert.are.same({1, -2, -2, 1}, {qv[4], qv[5], qv[6], qv[7]})  -- np.floor_divide(5., 3.) ...
      assert.are.same({2, 1, -1, -2}, {mv[4], mv[5], mv[6], mv[7]})  -- np.remainder: the divisor's sign
    end)

    it("integers to negative integer powers raise NumPy's ValueError", function()
      local f = lumba.njit "def f(a, b):\n    return a ** b\n"
      assert.are.equal("ValueError: Integers to negative integer powers are not allowed.",
        H.message_of(f, lumba.array({1, 2}), lumba.array({1, -1})))
      assert.are.same({1, 8}, f(lumba.array({1, 2}), lumba.array({0, 3})):totable())
      assert.are.same({0.5}, f(lumba.array({2.0}), lumba.array({-1})):totable())
    end)

    it("refuse what NumPy refuses, at the user's line", function()
      local cases = {
        {"def f(a):\n    return not a\n", lumba.zeros(2), "TypingError: The truth value of an array with more than one element is ambiguous"},
        {"def f(a):\n    return a and a\n", lumba.zeros(2), "TypingError: The truth value of an array with more than one element is ambiguous"},
        {"def f(a):\n    return 0 < a < 1\n", lumba.zeros(2), "<string>:2:12: TypingError: The truth value of an array"},
        {"def f(a):\n    return -a\n", lumba.array({true}), "TypingError: The numpy boolean negative, the `%-` operator, is not supported"},
        {"def f(a):\n    return a - a\n", lumba.array({true}), "TypingError: numpy boolean subtract"},
        {"def f(a):\n    return ~a\n", lumba.zeros(2), "TypingError: ufunc 'invert' is not supported for the input type float64"},
        {"def f(a):\n    return a | 1\n", lumba.zeros(2), "TypingError: ufunc 'bitwise_or' is not supported"},
      }
      for _, c in ipairs(cases) do
        local ok, e = pcall(lumba.njit(c[1]), c[2])
        assert.is_false(ok)
        assert.matches(c[3], e)
      end
    end)
  end)

  describe("in-place operators", function()
    it("write into the array the name points at: views see the change", function()
      local f = lumba.njit "def f(a, b):\n    v = a[1:]\n    a += b\n    a *= 2\n    return v\n"
      local a = lumba.array({1, 2, 3})
      assert.are.same({44, 66}, f(a, lumba.array({10, 20, 30})):totable())
      assert.are.same({22, 44, 66}, a:totable())
    end)

    it("on slices, with scalars and broadcast expressions", function()
      local f = lumba.njit [[
def f(C, A, beta):
    n = C.shape[0]
    for i in range(n):
        C[i, :i+1] *= beta
    A[1:-1, 1:-1] -= 0.5 * C[1:-1, 1:-1]
    A[0] += C[0] + 1
    return C
]]
      local C = lumba.array({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}, "float64")
      local A = lumba.zeros({3, 3})
      f(C, A, 2.0)
      assert.are.same({{2, 2, 3}, {8, 10, 6}, {14, 16, 18}}, C:totable())
      assert.are.same({{3, 3, 4}, {0, -5, 0}, {0, 0, 0}}, A:totable())
    end)

    it("cast back with NumPy's same_kind rule: int_array += 1.5 is a TypingError", function()
      local f = lumba.njit "def f(a):\n    x = 1\n    a += 1.5\n    return a\n"
      assert.are.equal("<string>:3:5: TypingError: Cannot cast ufunc 'add' output from dtype('float64') to "
        .. "dtype('int64') with casting rule 'same_kind'\n        a += 1.5\n        ^", H.error_of(f, lumba.array({1})))
      local g = lumba.njit "def g(a, b):\n    a += b\n    return a\n"
      assert.are.same({11, -56}, g(lumba.array({1, 100}, "int8"), lumba.array({10, 100}, "int64")):totable())
      assert.are.equal("int8", g(lumba.array({1}, "int8"), lumba.array({1}, "uint8")).dtype)
      assert.matches("Cannot cast ufunc 'add' output from dtype%('int16'%) to dtype%('uint8'%)",
        H.error_of(g, lumba.array({1}, "uint8"), lumba.array({1}, "int8")))
    end)

    it("raise NumPy's errors when the value does not broadcast into the target", function()
      local f = lumba.njit "def f(a, b):\n    a += b\n"
      assert.are.equal("ValueError: non-broadcastable output operand with shape (3,) doesn't match the broadcast "
        .. "shape (2,3)\n<string>:2:5: in f\n    a += b", H.error_of(f, lumba.zeros(3), lumba.zeros({2, 3})))
      assert.matches("^ValueError: operands could not be broadcast together with shapes %(2,3%) %(4,%) %(2,3%) ",
        H.error_of(f, lumba.zeros({2, 3}), lumba.zeros(4)))
    end)
  end)

  describe("stores into views", function()
    it("run a stencil as one loop into the target, no temporary", function()
      local f = lumba.njit [[
def f(A, B):
    B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1] + A[:-2, 1:-1])
]]
      local A, B = lumba.zeros({4, 5}), lumba.zeros({4, 5})
      for i = 1, 4 do for j = 1, 5 do A[i][j] = i * 10 + j end end
      f(A, B)   -- compiled
      local made = lumba._made_meminfos()
      f(A, B)
      assert.are.equal(made, lumba._made_meminfos())
      local want = {}
      for i = 1, 4 do
        want[i] = {}
        for j = 1, 5 do
          want[i][j] = (i > 1 and i < 4 and j > 1 and j < 5)
            and 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j]) or 0
        end
      end
      assert.are.same(want, B:totable())
    end)

    it("give NumPy's answer when the target overlaps an operand (the right side first)", function()
      local f = lumba.njit "def f(a):\n    a[1:] = a[:-1] + 1\n    return a\n"
      assert.are.same({1, 2, 3, 4}, f(lumba.array({1, 2, 3, 4})):totable())
      local g = lumba.njit "def g(a):\n    a[1:] += a[:-1]\n    return a\n"
      assert.are.same({1, 3, 5, 7}, g(lumba.array({1, 2, 3, 4})):totable())
      local h = lumba.njit "def h(a):\n    a[::-1] = a * 10\n    return a\n"
      assert.are.same({40, 30, 20, 10}, h(lumba.array({1, 2, 3, 4})):totable())
      local k = lumba.njit "def k(a):\n    a[:, :] = a[0] * 2\n    return a\n"
      assert.are.same({{2, 4}, {2, 4}}, k(lumba.array({{1, 2}, {3, 4}})):totable())
      -- an operand at the target's own elements needs no copy
      local s = lumba.njit "def s(a):\n    a[:] = a * 2 + a\n"
      local a = lumba.array({1, 2})
      s(a)
      local made = lumba._made_meminfos()
      s(a)
      assert.are.equal(made, lumba._made_meminfos())
      assert.are.same({9, 18}, a:totable())
    end)

    it("broadcast a row into a 2-D view; leading axes of 1 are dropped", function()
      local f = lumba.njit "def f(a, row):\n    a[:, :] = row\n    return a\n"
      assert.are.same({{1, 2, 3}, {1, 2, 3}}, f(lumba.zeros({2, 3}), lumba.array({1, 2, 3})):totable())
      local g = lumba.njit "def g(a, b):\n    a[:] = b\n    return a\n"
      assert.are.same({4, 5}, g(lumba.zeros(2), lumba.array({{4, 5}})):totable())
      assert.are.equal("ValueError: could not broadcast input array from shape (2,3) into shape (3,)\n"
        .. "<string>:2:5: in g\n    a[:] = b", H.error_of(g, lumba.zeros(3), lumba.zeros({2, 3})))
    end)
  end)
end)

-- ---- the oracle grid: every operator against NumPy, values and dtypes ----
local D = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"}
local BIN = {"+", "-", "*", "/", "//", "%", "&", "|", "^", "==", "!=", "<", "<=", ">", ">="}
local WITHC = {"**", "<<", ">>"}            -- c: small non-negative values (powers, shift counts past the width)
local INPLACE = {"+", "-", "*", "/", "//", "%", "&", "|", "^", "**", "<<", ">>"}
-- a and b (views: applied in both languages), b broadcasting into a unless noinplace
local SHAPES = {
  {a = {5}, b = {5}},
  {a = {2, 3}, b = {3}},
  {a = {2, 4, 3}, b = {4, 1}},
  {a = {2, 2, 1, 2}, b = {2}},
  {a = {}, b = {}},
  {a = {2, 0}, b = {0}},
  {a = {6}, va = "[::2]", b = {3}, vb = "[::-1]"},
  {a = {3, 4}, va = "[:, ::-2]", b = {2, 3}, vb = ".T"},
  {a = {3, 1}, b = {1, 4}, noinplace = true},
  {a = {4, 3}, va = "[::-1, 1:]", b = {1, 2}},
  {a = {2, 3}, b = {}},
}
local SCALARS = {"3", "2.5", "True"}

local function values(dt, n, k, small)
  local S, U, F = {-7, -3, -1, 0, 1, 2, 5, 7}, {0, 1, 2, 3, 5, 7, 9, 4}, {-2.5, -1, 0, 0.5, 1, 3, 7.25, -0.5}
  local C, CF = {0, 1, 2, 3, 9}, {0, 1, 2, 0.5, 3}
  local out = {}
  for j = 1, n do
    local i = (j * 5 + k * 3) % 8 + 1
    if dt == "bool" then out[j] = (j + k) % 3 ~= 0 and 1 or 0
    elseif small then out[j] = dt:match("float") and CF[(j + k) % 5 + 1] or C[(j + k) % 5 + 1]
    elseif dt:match("^int") then out[j] = S[i]
    elseif dt:match("^uint") then out[j] = U[i]
    else out[j] = F[i] end
  end
  return out
end

local function count(sh) local n = 1 for _, s in ipairs(sh) do n = n * s end return n end

local function to_lumba(v)
  local flatv = {}
  for j, x in ipairs(v.values) do flatv[j] = v.dtype == "bool" and x == 1 or x end
  if #v.shape == 0 then return lumba.array(flatv, v.dtype):reshape() end
  local a = lumba.array(flatv, v.dtype)
  return #v.shape == 1 and a or a:reshape(table.unpack(v.shape))
end

-- each case: inputs a0 b0 c0, views applied, then (python, compiled) pairs of expressions
local function grid_cases()
  local cases = {}
  local n = 0
  for i, da in ipairs(D) do
    for _, db in ipairs({da, D[(i * 4) % 11 + 1]}) do
      n = n + 1
      local sh = SHAPES[n % #SHAPES + 1]
      local va, vb = sh.va or "", sh.vb or ""
      local c = {name = ("%s%s%s with %s%s%s"):format(da, table.concat(sh.a, "x"), va, db, table.concat(sh.b, "x"), vb),
        inputs = {
          {name = "a0", dtype = da, shape = sh.a, values = values(da, count(sh.a), 1)},
          {name = "b0", dtype = db, shape = sh.b, values = values(db, count(sh.b), 2)},
          {name = "c0", dtype = db, shape = sh.b, values = values(db, count(sh.b), 3, true)}},
        setup = ("a = a0%s; b = b0%s; c = c0%s"):format(va, vb, vb),
        head = ("def f(a0, b0, c0):\n    a = a0%s\n    b = b0%s\n    c = c0%s\n"):format(va, vb, vb),
        exprs = {}, lum = {}}
      local function add(py, ret, body) c.exprs[#c.exprs + 1] = py; c.lum[#c.lum + 1] = {ret = ret, body = body} end
      for _, op in ipairs(BIN) do add("a " .. op .. " b", "a " .. op .. " b") end
      for _, op in ipairs(WITHC) do add("a " .. op .. " c", "a " .. op .. " c") end
      for _, op in ipairs({"-", "+", "~"}) do add(op .. "a", op .. "a") end
      if not sh.noinplace and i % 2 == (n % 2) then  -- in-place on a copy's view; the whole copy compared
        for _, op in ipairs(INPLACE) do
          local v = (op == "**" or op == "<<" or op == ">>") and "c" or "b"
          add(("!t = a0.copy(); r = t%s; r %s= %s; r = t"):format(va, op, v), "t#",
            ("t# = a0.copy()\n    r# = t#%s\n    r# %s= %s\n"):format(va, op, v))
        end
      end
      cases[#cases + 1] = c
    end
    -- with Python scalars, on both sides
    local c = {name = da .. " with Python scalars",
      inputs = {{name = "a0", dtype = da, shape = {2, 3}, values = values(da, 6, 4)}},
      setup = "a = a0", head = "def f(a0):\n    a = a0\n", exprs = {}, lum = {}}
    for _, s in ipairs(SCALARS) do
      for _, op in ipairs({"+", "-", "*", "/", "//", "%", "**", "&", "<<", "<"}) do
        c.exprs[#c.exprs + 1] = "a " .. op .. " " .. s; c.lum[#c.lum + 1] = {ret = "a " .. op .. " " .. s}
      end
      for _, op in ipairs({"-", "/", ">"}) do
        c.exprs[#c.exprs + 1] = s .. " " .. op .. " a"; c.lum[#c.lum + 1] = {ret = s .. " " .. op .. " a"}
      end
    end
    cases[#cases + 1] = c
  end
  return cases
end

local same_values = H.same_values

describe("array expressions against NumPy", function()
  it("every operator over every dtype, shapes 0-d to 4-D, empty, views, broadcasts, scalars", function()
    if not oracle.available() then pending("python3 with NumPy is not installed") return end
    local cases = grid_cases()
    local want = oracle.batch(cases)
    local problems, checked = {}, 0
    local function problem(fmt, ...) problems[#problems + 1] = fmt:format(...) end
    for ci, c in ipairs(cases) do
      local args = {}
      for k, v in ipairs(c.inputs) do args[k] = to_lumba(v) end
      local body, rets, idx = {}, {}, {}
      for j, l in ipairs(c.lum) do
        local w = want[ci][j]
        local b = l.body and l.body:gsub("#", tostring(j)) or ""
        local ret = l.ret:gsub("#", tostring(j))
        if w.error then  -- NumPy refuses: so must the compiled code, alone
          local ok = pcall(lumba.njit(c.head .. (b ~= "" and "    " .. b or "") .. "    return " .. ret .. "\n"), table.unpack(args))
          if ok then problem("%s: %s is accepted; NumPy: %s", c.name, c.exprs[j], w.error) end
        else
          body[#body + 1] = b ~= "" and "    " .. b or nil
          rets[#rets + 1] = ret
          idx[#idx + 1] = j
        end
      end
      local src = c.head .. table.concat(body) .. "    return (" .. table.concat(rets, ", ") .. ",)\n"
      local got = table.pack(pcall(lumba.njit(src), table.unpack(args)))
      if not got[1] then
        problem("%s: %s", c.name, got[2])
      else
        for r, j in ipairs(idx) do
          local w, g, what = want[ci][j], got[r + 1], c.name .. ": " .. c.exprs[j]
          checked = checked + 1
          if w.dtype ~= g.dtype then
            problem("%s: dtype %s, NumPy %s", what, g.dtype, w.dtype)
          elseif table.concat(w.shape, ",") ~= table.concat(shape_of(g), ",") then
            problem("%s: shape (%s), NumPy (%s)", what, table.concat(shape_of(g), ","), table.concat(w.shape, ","))
          elseif not same_values(w.values, flat(g), c.exprs[j]:match("%*%*")) then
            problem("%s: values %s, NumPy %s", what, table.concat(flat(g), " "), table.concat(w.values, " "))
          end
        end
      end
    end
    assert(#problems == 0, #problems .. " differences from NumPy:\n" .. table.concat(problems, "\n", 1, math.min(#problems, 40)))
    assert.is_true(checked > 500)
  end)
end)
