-- lumba.ndarray: constructors, fields, indexing, views, methods, printing,
-- memory. Error cases are in array_errors_spec.lua, lumba.random in
-- random_spec.lua.
local lumba = require "lumba"

-- same as a plain-Lua deep comparison, with the failing path in the message
local function same(expected, got, path)
  path = path or "value"
  if type(expected) ~= "table" then
    if expected ~= got or math.type(expected) ~= math.type(got) then
      error(string.format("%s: expected %s (%s), got %s (%s)", path, tostring(expected),
        math.type(expected) or type(expected), tostring(got), math.type(got) or type(got)), 2)
    end
    return
  end
  assert(type(got) == "table", path .. ": expected a table, got " .. type(got))
  assert(#expected == #got, string.format("%s: expected length %d, got %d", path, #expected, #got))
  for i = 1, #expected do same(expected[i], got[i], path .. "[" .. i .. "]") end
end

describe("array constructors", function()
  it("zeros/ones/empty/full take a shape as an integer or a table", function()
    same({0.0, 0.0, 0.0}, lumba.zeros(3):totable())
    same({{1.0, 1.0, 1.0}, {1.0, 1.0, 1.0}}, lumba.ones({2, 3}):totable())
    same({0, 0}, lumba.empty(2, "int32"):totable())
    same({{7, 7}}, lumba.full({1, 2}, 7):totable())
    same({2.5, 2.5}, lumba.full(2, 2.5):totable())
    same({true, true}, lumba.full(2, true):totable())
    same({3.0}, lumba.full(1, 3, "float32"):totable())
    assert.are.equal("int64", lumba.full(1, 7).dtype)
    assert.are.equal("float64", lumba.zeros(1).dtype)
    assert.are.equal("bool", lumba.ones(1, "bool").dtype)
    same({true}, lumba.ones(1, "bool"):totable())
  end)

  it("accepts dtype aliases", function()
    assert.are.equal("float64", lumba.zeros(1, "f8").dtype)
    assert.are.equal("float32", lumba.zeros(1, "f4").dtype)
    assert.are.equal("int64", lumba.zeros(1, "int").dtype)
    assert.are.equal("float64", lumba.zeros(1, "float").dtype)
    assert.are.equal("uint16", lumba.zeros(1, "u2").dtype)
    assert.are.equal("int8", lumba.zeros(1, "i1").dtype)
  end)

  it("makes C and Fortran order", function()
    local c = lumba.zeros({2, 3}, "float64", "C")
    local f = lumba.zeros({2, 3}, "float64", "F")
    same({24, 8}, c.strides)
    same({8, 16}, f.strides)
    assert.is_true(c:is_c_contiguous())
    assert.is_false(c:is_f_contiguous())
    assert.is_true(f:is_f_contiguous())
    assert.is_false(f:is_c_contiguous())
    assert.are.equal("C", c.layout)
    assert.are.equal("F", f.layout)
    f:set(2, 3, 5)
    same({{0.0, 0.0, 0.0}, {0.0, 0.0, 5.0}}, f:totable())
  end)

  it("makes 0-d and empty arrays", function()
    local z = lumba.zeros({})
    assert.are.equal(0, z.ndim)
    assert.are.equal(1, z.size)
    same({}, z.shape)
    assert.are.equal(0.0, z:totable())
    z:set(4.5)
    assert.are.equal(4.5, z:get())
    local e = lumba.zeros({2, 0, 3})
    assert.are.equal(0, e.size)
    same({2, 0, 3}, e.shape)
    same({{}, {}}, e:totable())
    assert.are.equal(0, lumba.zeros(0).size)
  end)

  it("arange follows NumPy: stop excluded, ints give int64, floats float64", function()
    same({0, 1, 2, 3, 4}, lumba.arange(5):totable())
    assert.are.equal("int64", lumba.arange(5).dtype)
    same({2, 3, 4}, lumba.arange(2, 5):totable())
    same({1, 4, 7}, lumba.arange(1, 10, 3):totable())
    same({5, 3, 1}, lumba.arange(5, 0, -2):totable())
    same({}, lumba.arange(5, 0):totable())
    same({0.0, 1.0, 2.0}, lumba.arange(3, "float64"):totable())
    same({0.0, 0.5, 1.0, 1.5}, lumba.arange(0, 2, 0.5):totable())
    assert.are.equal("float64", lumba.arange(0, 2, 0.5).dtype)
    same({0.5, 1.5, 2.5}, lumba.arange(0.5, 3):totable())
    same({0, 1, 2}, lumba.arange(3, "uint8"):totable())
    assert.are.equal("uint8", lumba.arange(3, "uint8").dtype)
    -- the DESIGN example
    assert.are.equal(45.0, lumba.arange(10, "float64"):sum())
  end)

  it("linspace includes both ends", function()
    same({0.0, 0.25, 0.5, 0.75, 1.0}, lumba.linspace(0, 1, 5):totable())
    same({2.0}, lumba.linspace(2, 3, 1):totable())
    same({}, lumba.linspace(2, 3, 0):totable())
    same({10.0, 5.0, 0.0}, lumba.linspace(10, 0, 3):totable())
    same({0, 2, 5}, lumba.linspace(0, 5, 3, "int32"):totable())  -- 2.5 truncates as astype
    assert.are.equal("float32", lumba.linspace(0, 1, 2, "float32").dtype)
  end)

  it("array infers int64, float64 or bool from nested tables", function()
    local a = lumba.array({1, 2, 3})
    assert.are.equal("int64", a.dtype)
    same({1, 2, 3}, a:totable())
    assert.are.equal("float64", lumba.array({1, 2.5}).dtype)
    assert.are.equal("float64", lumba.array({1, 2.0}).dtype)
    assert.are.equal("bool", lumba.array({true, false}).dtype)
    assert.are.equal("int64", lumba.array({true, 2}).dtype)
    assert.are.equal("float64", lumba.array({}).dtype)
    local m = lumba.array({{1, 2, 3}, {4, 5, 6}})
    same({2, 3}, m.shape)
    same({{1, 2, 3}, {4, 5, 6}}, m:totable())
    local c = lumba.array({{{1}, {2}}, {{3}, {4}}})
    same({2, 2, 1}, c.shape)
    same({{}, {}}, lumba.array({{}, {}}):totable())
    same({2, 0}, lumba.array({{}, {}}).shape)
  end)

  it("array takes a dtype, a scalar, or an array to copy", function()
    same({1.0, 2.0}, lumba.array({1, 2}, "float32"):totable())
    assert.are.equal("float32", lumba.array({1, 2}, "float32").dtype)
    local s = lumba.array(7)
    assert.are.equal(0, s.ndim)
    assert.are.equal(7, s:totable())
    assert.are.equal("bool", lumba.array(true).dtype)
    local src = lumba.array({1, 2, 3})
    local cp = lumba.array(src)
    cp[1] = 10
    assert.are.equal(1, src[1])
    same({1.0, 2.0, 3.0}, lumba.array(src, "float64"):totable())
  end)
end)

describe("array fields", function()
  local m = lumba.zeros({2, 3}, "int32")
  it("shape, dtype, ndim, size, itemsize, strides, nbytes", function()
    same({2, 3}, m.shape)
    assert.are.equal("int32", m.dtype)
    assert.are.equal(2, m.ndim)
    assert.are.equal(6, m.size)
    assert.are.equal(4, m.itemsize)
    same({12, 4}, m.strides)
    assert.are.equal(24, m.nbytes)
    assert.are.equal(2, #m)
  end)

  it("shape and strides are fresh tables", function()
    local s = m.shape
    s[1] = 99
    same({2, 3}, m.shape)
  end)

  it("flags", function()
    local f = m.flags
    assert.is_true(f.c_contiguous)
    assert.is_false(f.f_contiguous)
    assert.is_true(f.writeable)
    assert.is_true(m.T.flags.f_contiguous)
  end)

  it("unknown string keys are nil, like a table's", function()
    assert.is_nil(m.nosuchfield)
  end)

  it("lists the dtypes", function()
    same({"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128", "float16"}, lumba.dtypes)
  end)
end)

describe("dtype round trips Lua -> array -> Lua", function()
  local cases = {
    {"bool", {true, false, true}},
    {"int8", {-128, 0, 127}},
    {"int16", {-32768, 1, 32767}},
    {"int32", {-2147483648, 2, 2147483647}},
    {"int64", {math.mininteger, -1, math.maxinteger}},
    {"uint8", {0, 200, 255}},
    {"uint16", {0, 65535}},
    {"uint32", {0, 4294967295}},
    {"uint64", {0, 1, math.maxinteger}},
    {"float32", {1.5, -0.25, 3.4028234663852886e38, 0.0}},
    {"float64", {math.pi, -1e308, 5e-324, -0.0}},
    {"float16", {1.5, -0.25, 65504.0, 2.0 ^ -24, -0.0}},
  }
  for _, c in ipairs(cases) do
    it(c[1], function()
      local a = lumba.array(c[2], c[1])
      assert.are.equal(c[1], a.dtype)
      same(c[2], a:totable())
      for i = 1, #c[2] do
        same(c[2][i], a[i])
        same(c[2][i], a:get(i))
      end
      -- and through set / a[i] = v
      local b = lumba.zeros(#c[2], c[1])
      for i = 1, #c[2] do
        if i % 2 == 0 then b[i] = c[2][i] else b:set(i, c[2][i]) end
      end
      same(c[2], b:totable())
    end)
  end

  it("float32 rounds to the nearest float32", function()
    local a = lumba.array({0.1}, "float32")
    assert.are.equal(string.unpack("f", string.pack("f", 0.1)), a[1])
    assert.are_not.equal(0.1, a[1])
  end)

  it("float32 takes any number: beyond its range is inf, as NumPy", function()
    same({math.huge, -math.huge}, lumba.array({1e300, -1e300}, "float32"):totable())
  end)

  it("integer arrays take integral floats and booleans", function()
    local a = lumba.zeros(3, "int16")
    a[1] = 3.0
    a[2] = true
    a[3] = -2.0
    same({3, 1, -2}, a:totable())
    local f = lumba.zeros(2)
    f[1] = true
    f[2] = 7
    same({1.0, 7.0}, f:totable())
    local b = lumba.zeros(3, "bool")
    b[1] = 1
    b[2] = 0
    b[3] = 1.0
    same({true, false, true}, b:totable())
  end)

  it("uint64 maps to Lua integers by bits: 2^64-1 is -1, 2^63 is math.mininteger", function()
    local a = lumba.zeros(3, "uint64")
    a[1] = -1
    a[2] = 2^63          -- a float in [2^63, 2^64) stores exactly
    a[3] = 0xffffffffffffffff
    same({-1, math.mininteger, -1}, a:totable())
    assert.are.equal("array([18446744073709551615,  9223372036854775808, 18446744073709551615],\n      dtype=uint64)", tostring(a))
    assert.are.equal(-1, a:max())         -- compared unsigned
    assert.are.equal(math.mininteger, a:min())
  end)
end)

describe("indexing", function()
  it("is 1-based with negative indices from the end", function()
    local a = lumba.array({10, 20, 30, 40})
    assert.are.equal(10, a[1])
    assert.are.equal(40, a[4])
    assert.are.equal(40, a[-1])
    assert.are.equal(10, a[-4])
    assert.are.equal(30, a:get(-2))
    a[-1] = 41
    assert.are.equal(41, a:get(4))
    a[2.0] = 21          -- integral float keys are integers
    assert.are.equal(21, a[2])
  end)

  it("get/set take one index per dimension", function()
    local m = lumba.arange(12):reshape(3, 4)
    assert.are.equal(6, m:get(2, 3))
    assert.are.equal(11, m:get(-1, -1))
    m:set(3, 1, 100)
    assert.are.equal(100, m:get(3, 1))
    local t = lumba.arange(24):reshape(2, 3, 4)
    assert.are.equal(23, t:get(2, 3, 4))
    assert.are.equal(4 * 3 + 2 * 4 + 1, t:get(2, 3, 2))
  end)

  it("a[i] of an N-d array is a row view, so a[i][j] reads and writes", function()
    local m = lumba.arange(6):reshape(2, 3)
    local row = m[2]
    same({3}, row.shape)
    same({3, 4, 5}, row:totable())
    assert.are.equal(5, m[2][3])
    m[1][2] = 50
    assert.are.equal(50, m:get(1, 2))
    row[1] = 30
    assert.are.equal(30, m:get(2, 1))
    local t = lumba.zeros({2, 2, 2})
    t[2][1][2] = 9
    assert.are.equal(9.0, t:get(2, 1, 2))
  end)

  it("a[i] = v on an N-d array fills or copies the row", function()
    local m = lumba.zeros({2, 3}, "int32")
    m[1] = 7
    m[2] = {1, 2, 3}
    same({{7, 7, 7}, {1, 2, 3}}, m:totable())
    m[1] = lumba.array({4.0, 5.0, 6.0})
    same({4, 5, 6}, m[1]:totable())
  end)

  it("__len is the first dimension, pairs walks it", function()
    assert.are.equal(4, #lumba.zeros({4, 2}))
    local seen = {}
    for i, v in pairs(lumba.array({5, 6, 7})) do seen[#seen + 1] = {i, v} end
    same({{1, 5}, {2, 6}, {3, 7}}, seen)
    local rows = {}
    for i, r in pairs(lumba.arange(4):reshape(2, 2)) do rows[i] = r:totable() end
    same({{0, 1}, {2, 3}}, rows)
  end)
end)

describe("views", function()
  it("slice uses 1-based inclusive ranges", function()
    local a = lumba.arange(1, 11)   -- 1 .. 10
    same({2, 3, 4, 5}, a:slice({2, 5}):totable())
    same({1, 2, 3}, a:slice({nil, 3}):totable())
    same({8, 9, 10}, a:slice({8}):totable())
    same({8, 9, 10}, a:slice({-3}):totable())
    same({8, 9}, a:slice({-3, -2}):totable())
    same({1, 4, 7, 10}, a:slice({1, 10, 3}):totable())
    same({2, 4}, a:slice({2, 5, 2}):totable())
    same({10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, a:slice({nil, nil, -1}):totable())
    same({10, 7, 4, 1}, a:slice({10, 1, -3}):totable())
    same({5, 4}, a:slice({5, 4, -1}):totable())
    same({}, a:slice({5, 2}):totable())
    same({2, 3, 4, 5, 6, 7, 8, 9, 10}, a:slice({2, 100}):totable())   -- clipped
    same({1, 2}, a:slice({-100, 2}):totable())
    same({}, a:slice({11, 20}):totable())
    same(a:totable(), a:slice({}):totable())
    same(a:totable(), a:slice(":"):totable())
    same(a:totable(), a:slice():totable())
  end)

  it("slice on N-d: integers drop the axis, missing selectors keep it", function()
    local m = lumba.arange(12):reshape(3, 4)
    same({4, 5, 6, 7}, m:slice(2):totable())
    same({1, 5, 9}, m:slice({}, 2):totable())
    same({1, 5, 9}, m:slice(nil, 2):totable())
    same({{5, 6}, {9, 10}}, m:slice({2, 3}, {2, 3}):totable())
    same({{3, 1}, {11, 9}}, m:slice({1, 3, 2}, {4, 1, -2}):totable())
    local e = m:slice(2, 3)
    assert.are.equal(0, e.ndim)
    assert.are.equal(6, e:get())
    same({-32, -16}, m:slice({3, 1, -1}, {4, 1, -2}).strides)
  end)

  it("views share memory with their base", function()
    local a = lumba.zeros(6)
    local v = a:slice({2, 4})
    v[1] = 5
    v:fill(1)
    same({0.0, 1.0, 1.0, 1.0, 0.0, 0.0}, a:totable())
    a[3] = 9
    assert.are.equal(9.0, v[2])
    local col = lumba.zeros({3, 2}):slice({}, 2)
    assert.is_false(col:is_c_contiguous())
    local m = lumba.zeros({2, 3})
    local t = m.T
    t:set(3, 2, 4)
    assert.are.equal(4.0, m:get(2, 3))
  end)

  it("a view keeps its base's buffer alive", function()
    collectgarbage()
    collectgarbage()
    local base_live = lumba._live_meminfos()
    local v
    do
      local a = lumba.arange(5.0)
      v = a:slice({2, 4})
    end
    collectgarbage()
    collectgarbage()
    assert.are.equal(base_live + 1, lumba._live_meminfos())
    same({1.0, 2.0, 3.0}, v:totable())
    v[1] = 7
    assert.are.equal(7.0, v[1])
    v = nil
    collectgarbage()
    collectgarbage()
    assert.are.equal(base_live, lumba._live_meminfos())
  end)

  it("transpose and T reverse or permute the axes", function()
    local m = lumba.arange(6):reshape(2, 3)
    same({{0, 3}, {1, 4}, {2, 5}}, m.T:totable())
    same({{0, 3}, {1, 4}, {2, 5}}, m:transpose():totable())
    local t = lumba.arange(24):reshape(2, 3, 4)
    local p = t:transpose(2, 1, 3)
    same({3, 2, 4}, p.shape)
    assert.are.equal(t:get(2, 3, 4), p:get(3, 2, 4))
    same({4, 3, 2}, t.T.shape)
    same({3, 2, 4}, t:transpose({2, 1, 3}).shape)
  end)

  it("reshape is a view when the layout allows, else a copy", function()
    local a = lumba.arange(6)
    local r = a:reshape(2, 3)
    same({{0, 1, 2}, {3, 4, 5}}, r:totable())
    r:set(2, 1, 30)
    assert.are.equal(30, a[4])                       -- a view
    same({3, 2}, a:reshape({3, 2}).shape)
    same({2, 3}, a:reshape(-1, 3).shape)
    same({6}, r:reshape(-1).shape)
    same({1, 6, 1}, a:reshape(1, -1, 1).shape)
    local t = r.T                                    -- not C-contiguous
    local c = t:reshape(6)
    same({0, 30, 1, 4, 2, 5}, c:totable())
    c[1] = 99
    assert.are.equal(0, a[1])                        -- a copy
    -- a non-contiguous view that can still be viewed
    local m = lumba.arange(24):reshape(4, 6):slice({1, 4, 2})
    local v = m:reshape(2, 2, 3)
    v:set(1, 1, 1, -1)
    assert.are.equal(-1, m:get(1, 1))
    same({{{-1, 1, 2}, {3, 4, 5}}, {{12, 13, 14}, {15, 16, 17}}}, v:totable())
    local s = lumba.array(5):reshape(1, 1)
    same({{5}}, s:totable())
  end)
end)

describe("array methods", function()
  it("copy makes an independent array in the asked order", function()
    local m = lumba.arange(6):reshape(2, 3)
    local c = m:copy()
    c:set(1, 1, 100)
    assert.are.equal(0, m:get(1, 1))
    local f = m:copy("F")
    same({8, 16}, f.strides)
    same(m:totable(), f:totable())
    assert.are.equal("F", m.T:copy("A").layout)
    assert.are.equal("C", m:copy("A").layout)
    same({16, 8}, m.T:copy().strides)
  end)

  it("astype casts as NumPy: truncation, wrap-around, nonzero is true", function()
    same({1, -1, 2}, lumba.array({1.7, -1.7, 2.0}):astype("int32"):totable())
    same({1, 255, 44}, lumba.array({1.7, -1.7, 300.9}):astype("uint8"):totable())
    same({true, true, false}, lumba.array({1.5, -2, 0}):astype("bool"):totable())
    same({1.0, 0.0}, lumba.array({true, false}):astype("float64"):totable())
    same({-128, 127}, lumba.array({128, 127}):astype("int8"):totable())
    local u = lumba.array({-1}, "int64"):astype("uint64")
    assert.are.equal(-1, u[1])
    assert.are.equal(1.8446744073709552e19, u:astype("float64")[1])
    assert.are.equal("int16", lumba.zeros(1):astype("int16").dtype)
  end)

  it("fill sets every element and returns the array", function()
    local m = lumba.zeros({2, 2}, "int8")
    assert.are.equal(m, m:fill(3))
    same({{3, 3}, {3, 3}}, m:totable())
    m.T:slice(1):fill(-1)
    same({{-1, 3}, {-1, 3}}, m:totable())
  end)

  it("sum, min and max", function()
    assert.are.equal(10.0, lumba.array({1.0, 2, 3, 4}):sum())
    assert.are.equal(10, lumba.array({1, 2, 3, 4}):sum())
    assert.are.equal("integer", math.type(lumba.array({1, 2}, "int8"):sum()))
    assert.are.equal(2, lumba.array({true, false, true}):sum())
    assert.are.equal(math.mininteger, lumba.array({math.maxinteger, 1}):sum())   -- wraps
    assert.are.equal(0.0, lumba.zeros(0):sum())
    assert.are.equal(-3, lumba.array({4, -3, 7}):min())
    assert.are.equal(7, lumba.array({4, -3, 7}):max())
    assert.are.equal(0.5, lumba.array({2.5, 0.5}, "float32"):min())
    assert.are.equal(false, lumba.array({true, false}):min())
    assert.are.equal(true, lumba.array({true, false}):max())
    local n = lumba.array({1.0, 0 / 0, 3.0}):max()
    assert.is_true(n ~= n)    -- NaN propagates, as in NumPy
    local m = lumba.arange(12):reshape(3, 4)
    assert.are.equal(1 + 5 + 9, m:slice({}, 2):sum())
    assert.are.equal(66, m.T:sum())
    assert.are.equal(11, m.T:max())
  end)

  it("totable nests by dimension", function()
    same({{{0, 1}, {2, 3}}, {{4, 5}, {6, 7}}}, lumba.arange(8):reshape(2, 2, 2):totable())
    same({{0, 2}, {1, 3}}, lumba.arange(4):reshape(2, 2).T:totable())
  end)

  it("data_ptr tells views of one buffer apart", function()
    local a = lumba.zeros(4)
    assert.are.equal(a:data_ptr(), a:reshape(2, 2):data_ptr())
    assert.are_not.equal(a:data_ptr(), a:slice({2}):data_ptr())
    assert.are.equal("userdata", type(a:data_ptr()))
  end)
end)

describe("allclose", function()
  it("compares with rtol and atol, NumPy's defaults", function()
    assert.is_true(lumba.allclose(lumba.array({1.0, 2.0}), lumba.array({1.0, 2.0 + 1e-6})))
    assert.is_false(lumba.allclose(lumba.array({1.0, 2.0}), lumba.array({1.0, 2.1})))
    assert.is_true(lumba.allclose({1.0, 2.0}, {1.0, 2.1}, 0.1))
    assert.is_true(lumba.allclose({0.0}, {0.05}, 0, 0.1))
    assert.is_false(lumba.allclose({0.0}, {0.05}, 0, 0.01))
    assert.is_true(lumba.allclose(lumba.arange(3), {0, 1, 2}))
  end)

  it("broadcasts scalars and shapes", function()
    assert.is_true(lumba.allclose(lumba.full({2, 2}, 3.0), 3))
    assert.is_true(lumba.allclose(lumba.array({{1, 2}, {1, 2}}), {1, 2}))
    assert.is_false(lumba.allclose(lumba.array({{1, 2}, {1, 3}}), {1, 2}))
  end)

  it("NaN is never close, equal infinities are", function()
    assert.is_false(lumba.allclose({0 / 0}, {0 / 0}))
    assert.is_true(lumba.allclose({1 / 0, -1 / 0}, {1 / 0, -1 / 0}))
    assert.is_false(lumba.allclose({1 / 0}, {-1 / 0}))
  end)
end)

describe("__tostring", function()
  it("prints 1-D arrays like NumPy", function()
    assert.are.equal("array([1., 2., 3.])", tostring(lumba.array({1.0, 2, 3})))
    assert.are.equal("array([1.5 , 2.  , 3.25])", tostring(lumba.array({1.5, 2, 3.25})))
    assert.are.equal("array([1, 2, 3])", tostring(lumba.array({1, 2, 3})))
    assert.are.equal("array([  1, -20, 300])", tostring(lumba.array({1, -20, 300})))
    assert.are.equal("array([1, 2, 3], dtype=int32)", tostring(lumba.array({1, 2, 3}, "int32")))
    assert.are.equal("array([1., 2.], dtype=float32)", tostring(lumba.array({1, 2}, "float32")))
    assert.are.equal("array([ True, False])", tostring(lumba.array({true, false})))
    assert.are.equal("array([0.3       , 0.33333333])", tostring(lumba.array({0.1 + 0.2, 1 / 3})))
    assert.are.equal("array([1.e-05, 1.e+00])", tostring(lumba.array({1e-5, 1.0})))
    assert.are.equal("array([1.000e+00, 1.001e+03])", tostring(lumba.array({1.0, 1001.0})))
    assert.are.equal("array([ nan,   1., -inf])", tostring(lumba.array({0 / 0, 1.0, -1 / 0})))
    assert.are.equal("array([-0.,  0.])", tostring(lumba.array({-0.0, 0.0})))
    assert.are.equal("array([], dtype=float64)", tostring(lumba.zeros(0)))
    assert.are.equal("array([], dtype=int32)", tostring(lumba.zeros(0, "int32")))
  end)

  it("prints 0-d arrays", function()
    assert.are.equal("array(5.)", tostring(lumba.array(5.0)))
    assert.are.equal("array(True)", tostring(lumba.array(true)))
    assert.are.equal("array(3, dtype=int8)", tostring(lumba.array(3, "int8")))
  end)

  it("prints 2-D and 3-D arrays with nested brackets", function()
    assert.are.equal("array([[0., 0., 0.],\n       [0., 0., 0.]])", tostring(lumba.zeros({2, 3})))
    assert.are.equal("array([[1.5, 2. ],\n       [3. , 4. ]])", tostring(lumba.array({{1.5, 2}, {3, 4}})))
    assert.are.equal(
      "array([[[ 0,  1,  2],\n" ..
      "        [ 3,  4,  5]],\n" ..
      "\n" ..
      "       [[ 6,  7,  8],\n" ..
      "        [ 9, 10, 11]]])", tostring(lumba.arange(12):reshape(2, 2, 3)))
    assert.are.equal(
      "array([[[1., 2.],\n" ..
      "        [3., 4.]],\n" ..
      "\n" ..
      "       [[5., 6.],\n" ..
      "        [7., 8.]]], dtype=float32)", tostring(lumba.arange(1, 9, "float32"):reshape(2, 2, 2)))
    assert.are.equal("array([], shape=(2, 0), dtype=float64)", tostring(lumba.zeros({2, 0})))
    assert.are.equal("array([[0, 2],\n       [1, 3]])", tostring(lumba.arange(4):reshape(2, 2).T))
  end)

  it("wraps long rows at 75 columns", function()
    assert.are.equal(
      "array([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16,\n" ..
      "       17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29], dtype=int32)",
      tostring(lumba.arange(30, "int32")))
    assert.are.equal(
      "array([0.        , 0.03448276, 0.06896552, 0.10344828, 0.13793103,\n" ..
      "       0.17241379, 0.20689655, 0.24137931, 0.27586207, 0.31034483,\n" ..
      "       0.34482759, 0.37931034, 0.4137931 , 0.44827586, 0.48275862,\n" ..
      "       0.51724138, 0.55172414, 0.5862069 , 0.62068966, 0.65517241,\n" ..
      "       0.68965517, 0.72413793, 0.75862069, 0.79310345, 0.82758621,\n" ..
      "       0.86206897, 0.89655172, 0.93103448, 0.96551724, 1.        ])",
      tostring(lumba.linspace(0, 1, 30)))
  end)

  it("elides arrays above 1000 elements with 3 items at each edge", function()
    assert.are.equal("array([   0,    1,    2, ..., 1997, 1998, 1999])", tostring(lumba.arange(2000)))
    assert.are.equal(
      "array([[   0,    1,    2, ...,   97,   98,   99],\n" ..
      "       [ 100,  101,  102, ...,  197,  198,  199],\n" ..
      "       [ 200,  201,  202, ...,  297,  298,  299],\n" ..
      "       ...,\n" ..
      "       [1700, 1701, 1702, ..., 1797, 1798, 1799],\n" ..
      "       [1800, 1801, 1802, ..., 1897, 1898, 1899],\n" ..
      "       [1900, 1901, 1902, ..., 1997, 1998, 1999]])", tostring(lumba.arange(2000):reshape(20, 100)))
    -- exactly 1000 elements are all shown
    assert.is_nil(tostring(lumba.arange(1000)):find("...", 1, true))
  end)
end)

describe("array memory", function()
  -- whether the mapping holding address addr was advised MADV_HUGEPAGE (the
  -- "hg" of its VmFlags in /proc/self/smaps): deterministic, whatever the
  -- kernel then gives it
  local huge_check = [[
    local function advised(addr)
      local inside = false
      for line in io.lines("/proc/self/smaps") do
        local lo, hi = line:match("^(%x+)%-(%x+) ")
        if lo then
          inside = tonumber(lo, 16) <= addr and addr < tonumber(hi, 16)
        elseif inside and line:match("^VmFlags:") then
          return line:match(" hg") ~= nil
        end
      end
      error("no mapping holds the address")
    end
    local lumba = require "lumba"
    local big, small = lumba.zeros(1250000, "float32"), lumba.zeros(2 ^ 18, "float32")
    local function address(a) return tonumber(tostring(a:data_ptr()):match("0x(%x+)"), 16) end
    -- the advice covers the buffer's whole 2 MiB pages: probe the first one
    local huge = 2 * 1024 * 1024
    local first_page = (address(big) + huge - 1) // huge * huge
    print(string.format("BIG %s SMALL %s", advised(first_page), advised(address(small))))
  ]]

  it("buffers of 4 MiB and more are advised to use huge pages, unless LUMBA_HUGEPAGES=0", function()
    local f = io.open("/proc/self/smaps")
    if f == nil then pending("no /proc/self/smaps") return end
    f:close()
    local h = require "helpers"
    assert.matches("BIG true SMALL false", h.run_lua("", huge_check), 1, true)
    assert.matches("BIG false SMALL false", h.run_lua("LUMBA_HUGEPAGES=0", huge_check), 1, true)
  end)

  it("__close releases the buffer at the end of the scope", function()
    local before = lumba._live_meminfos()
    local keep
    do
      local a <close> = lumba.zeros(100)
      keep = a
      assert.are.equal(before + 1, lumba._live_meminfos())
    end
    assert.are.equal(before, lumba._live_meminfos())
    assert.are.equal("array(<closed>)", tostring(keep))
    keep:close()  -- closing twice is harmless
    debug.getmetatable(keep).__close(keep)
  end)

  it("a view survives closing its base", function()
    local a = lumba.arange(4.0)
    local v = a:slice({3})
    a:close()
    same({2.0, 3.0}, v:totable())
  end)

  it("__gc frees buffers: live MemInfos return to the baseline", function()
    collectgarbage()
    local before = lumba._live_meminfos()
    for _ = 1, 1000 do
      local a = lumba.zeros({10, 10})
      local _ = a[2]:slice({2, 5}).T
    end
    collectgarbage()
    collectgarbage()
    assert.are.equal(before, lumba._live_meminfos())
  end)

  -- ASan's quarantine holds freed memory on purpose: RSS is only meaningful without it
  it("RSS stays flat over 10^5 allocations #noasan", function()
    local function rss_pages()
      local f = assert(io.open("/proc/self/statm"))
      local _, resident = f:read("n", "n")
      f:close()
      return resident
    end
    for _ = 1, 10000 do local _ = lumba.zeros(1000) end   -- warm up the allocator
    collectgarbage()
    local r0 = rss_pages()
    for _ = 1, 100000 do local _ = lumba.zeros(1000) end  -- 8 KB each: 800 MB if leaked
    collectgarbage()
    local p = io.popen("getconf PAGESIZE")
    local page = tonumber(p:read("a")) or 4096
    p:close()
    local grown_mb = (rss_pages() - r0) * page / 2 ^ 20
    assert.is_true(grown_mb < 32, string.format("RSS grew by %.1f MB", grown_mb))
  end)
end)
