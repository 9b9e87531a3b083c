-- Whole-array arithmetic in compiled code: one fused loop nest over the
-- broadcast shape, NumPy's dtypes (as Numba applies them), checked by hand
-- and against NumPy itself (tests/numpy_oracle.lua) where python3-numpy is there.
local lumba = require "lumba"
local oracle = dofile("tests/numpy_oracle.lua")

local function flat(a)
  local out = {}
  local function walk(t)
    if type(t) ~= "table" then out[#out + 1] = t == true and 1 or t == false and 0 or t; return end
    for _, v in ipairs(t) do walk(v) end
  end
  walk(a.ndim == 0 and a:get() or a:totable())
  return out
end

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

  it("raise ValueError on a broadcasting mismatch, leaving the state usable", function()
    local g = lumba.njit "def g(a, b):\n    return a + b\n"
    local ok, e = pcall(g, lumba.array({1, 2, 3}), lumba.array({1, 2, 3, 4}))
    assert.is_false(ok)
    assert.matches("ValueError: operands could not be broadcast together", e)
    assert.are.same({2, 4, 6}, g(lumba.array({1, 2, 3}), lumba.array({1, 2, 3})):totable())
  end)

  it("refuse in-place operators on array names cleanly (not built yet)", function()
    local f = lumba.njit "def f(a, b):\n    a += b\n    return a\n"
    local ok, e = pcall(f, lumba.zeros(2), lumba.zeros(2))
    assert.is_false(ok)
    assert.matches("UnsupportedError: in%-place operators on arrays are not supported yet", e)
  end)

  describe("against NumPy", function()
    local dtypes = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"}
    local ops = {"+", "-", "<", "&"}
    local shapes = {{{3}, {3}}, {{2, 3}, {3}}, {{2, 1, 3}, {4, 1}}, {{2, 2, 1, 2}, {2}}}
    for _, op in ipairs(ops) do
      for _, sh in ipairs(shapes) do
        it(("%s over shapes %s and %s"):format(op, table.concat(sh[1], "x"), table.concat(sh[2], "x")), function()
          if not oracle.available() then pending("python3 with NumPy is not installed") return end
          local f = lumba.njit(("def f(a, b):\n    return a %s b\n"):format(op))
          for i, da in ipairs(dtypes) do
            local db = dtypes[(i * 3) % #dtypes + 1]
            local ins, args = {}, {}
            for k, dt in ipairs({da, db}) do
              local n = 1
              for _, s in ipairs(sh[k]) do n = n * s end
              local vals = {}
              for j = 1, n do vals[j] = dt == "bool" and (j % 2) or (j * 7 + k) % 5 end
              ins[k] = {name = k == 1 and "a" or "b", dtype = dt, shape = sh[k], values = vals}
              local flatv = {}
              for j, v in ipairs(vals) do flatv[j] = dt == "bool" and v == 1 or v end
              args[k] = lumba.array(flatv, dt):reshape(table.unpack(sh[k]))
            end
            local want = oracle.eval(ins, "a " .. op .. " b")
            local ok, got = pcall(f, args[1], args[2])
            if want.error then
              assert.is_false(ok, da .. " " .. op .. " " .. db)
            else
              assert(ok, da .. " " .. op .. " " .. db .. ": " .. tostring(got))
              assert.are.equal(want.dtype, got.dtype, da .. " " .. op .. " " .. db)
              assert.are.same(want.shape, shape_of(got))
              local g = flat(got)
              if got.dtype == "uint64" then  -- Lua integers are signed: as NumPy's floats
                for j, v in ipairs(g) do g[j] = v < 0 and v + 2.0^64 or v end
              end
              assert.are.same(want.values, g)
            end
          end
        end)
      end
    end
  end)
end)
