-- Every bad call on arrays raises a Lua error with a whole, exact message,
-- and the Lua state keeps working afterwards.
local lumba = require "lumba"

-- The error of f(): errors raised by a C function called from a Lua
-- function carry that caller's position ("tests/x_spec.lua:12: "); it is
-- checked and cut, the rest is compared whole.
local function raises(expected, f)
  local ok, e = pcall(f)
  assert(not ok, "expected an error: " .. expected)
  e = tostring(e)
  local msg = e:gsub("^[^\n]-_spec%.lua:%d+: ", "", 1)
  assert.are.equal(expected, msg)
  -- the state still works: allocate, write, read, print
  local a = lumba.arange(3.0)
  a[2] = 5
  assert.are.equal(7.0, a:sum())
  assert.are.equal("array([0., 5., 2.])", tostring(a))
end

describe("array errors", function()
  describe("dtypes", function()
    it("unknown dtype", function()
      raises("bad argument #2 to 'zeros' (unknown dtype 'flaot64')",
             function() return lumba.zeros(3, "flaot64") end)
      raises("bad argument #2 to 'array' (unknown dtype 'int128')",
             function() return lumba.array({1}, "int128") end)
      raises("bad argument #1 to 'astype' (unknown dtype 'str')",
             function() return lumba.zeros(1):astype("str") end)
      raises("bad argument #4 to 'linspace' (unknown dtype 'x')",
             function() return lumba.linspace(0, 1, 3, "x") end)
    end)

    it("a dtype that is not a string", function()
      raises("bad argument #2 to 'ones' (dtype name expected, got number)",
             function() return lumba.ones(3, 8) end)
    end)

    it("bad order", function()
      raises("bad argument #3 to 'zeros' (order must be 'C' or 'F', got 'X')",
             function() return lumba.zeros(3, nil, "X") end)
      raises("bad argument #1 to 'copy' (order must be 'C', 'F' or 'A', got 'K')",
             function() return lumba.zeros(3):copy("K") end)
    end)
  end)

  describe("shapes", function()
    it("negative dimensions", function()
      raises("bad argument #1 to 'zeros' (negative dimensions are not allowed)",
             function() return lumba.zeros(-1) end)
      raises("bad argument #1 to 'empty' (negative dimensions are not allowed)",
             function() return lumba.empty({2, -3}) end)
    end)

    it("non-integer dimensions", function()
      raises("bad argument #1 to 'zeros' (shape must contain integers, got 2.5)",
             function() return lumba.zeros(2.5) end)
      raises("bad argument #1 to 'ones' (shape must contain integers, got 2.5)",
             function() return lumba.ones({3, 2.5}) end)
      raises("bad argument #1 to 'zeros' (shape must contain integers, got string)",
             function() return lumba.zeros({3, "4"}) end)
      raises("bad argument #1 to 'zeros' (shape must be an integer or a table of integers, got string)",
             function() return lumba.zeros("3") end)
      raises("bad argument #1 to 'zeros' (shape must be an integer or a table of integers, got no value)",
             function() return lumba.zeros() end)
    end)

    it("sizes that overflow 64 bits", function()
      raises("bad argument #1 to 'zeros' (array is too big: {1099511627776, 1099511627776} " ..
             "float64 elements take more than 2^63 bytes)",
             function() return lumba.zeros({2 ^ 40, 2 ^ 40}) end)
      raises("bad argument #1 to 'zeros' (array is too big: {4611686018427387904} " ..
             "float64 elements take more than 2^63 bytes)",
             function() return lumba.zeros(2 ^ 62) end)
      raises("bad argument #1 to 'full' (array is too big: {4611686018427387904, 2} " ..
             "int8 elements take more than 2^63 bytes)",
             function() return lumba.full({1 << 62, 2}, 1, "int8") end)
    end)

    it("sizes beyond this machine's memory", function()
      raises("not enough memory for an array of 9007199254740992 bytes",
             function() return lumba.zeros(1 << 50) end)
      raises("not enough memory for an array of 4611686018427387904 bytes",
             function() return lumba.ones({1 << 31, 1 << 31}, "uint8") end)
    end)

    it("too many dimensions", function()
      raises("bad argument #1 to 'zeros' (too many dimensions: 9 (at most 8))",
             function() return lumba.zeros({1, 1, 1, 1, 1, 1, 1, 1, 1}) end)
      raises("too many dimensions: 9 (at most 8)",
             function() return lumba.zeros(1):reshape(1, 1, 1, 1, 1, 1, 1, 1, 1) end)
      raises("bad argument #1 to 'array' (too many dimensions: nested tables deeper than 8)",
             function() return lumba.array({{{{{{{{{1}}}}}}}}}) end)
    end)
  end)

  describe("tables", function()
    it("ragged nested tables", function()
      raises("bad argument #1 to 'array' (ragged nested tables: element [2] has length 1, expected 2)",
             function() return lumba.array({{1, 2}, {3}}) end)
      raises("bad argument #1 to 'array' (ragged nested tables: element [2] is a number, " ..
             "expected a table of length 2)",
             function() return lumba.array({{1, 2}, 3}) end)
      raises("bad argument #1 to 'array' (ragged nested tables: element [2] is a table, " ..
             "expected a number, complex or boolean)",
             function() return lumba.array({1, {2}}) end)
      raises("bad argument #1 to 'array' (ragged nested tables: element [2][1][3] is a table, " ..
             "expected a number, complex or boolean)",
             function() return lumba.array({{{1, 2, 3}}, {{4, 5, {6}}}}) end)
    end)

    it("non-numeric elements", function()
      raises("bad argument #1 to 'array' (element [2] is a string, expected a number, complex or boolean)",
             function() return lumba.array({1, "x"}) end)
      raises("bad argument #1 to 'array' (element [1][2] is a function, expected a number, complex or boolean)",
             function() return lumba.array({{1, print}}) end)
      raises("bad argument #1 to 'array' (table, number or array expected, got string)",
             function() return lumba.array("1, 2") end)
      raises("bad argument #1 to 'allclose' (element [1] is a string, expected a number, complex or boolean)",
             function() return lumba.allclose({"1"}, {1}) end)
    end)
  end)

  describe("indices", function()
    local a = lumba.arange(5)
    local m = lumba.zeros({2, 3})

    it("out-of-range get and set", function()
      raises("bad argument #1 to 'get' (index 6 out of bounds for axis 1 with size 5)",
             function() return a:get(6) end)
      raises("bad argument #1 to 'get' (index 0 out of bounds for axis 1 with size 5)",
             function() return a:get(0) end)
      raises("bad argument #1 to 'get' (index -6 out of bounds for axis 1 with size 5)",
             function() return a:get(-6) end)
      raises("bad argument #2 to 'get' (index 4 out of bounds for axis 2 with size 3)",
             function() return m:get(1, 4) end)
      raises("bad argument #1 to 'set' (index 6 out of bounds for axis 1 with size 5)",
             function() a:set(6, 1) end)
      raises("bad argument #2 to 'get' (number has no integer representation)",
             function() return m:get(1, 1.5) end)
    end)

    it("wrong number of indices", function()
      raises("wrong number of indices to 'get' (1 expected, got 2)",
             function() return a:get(1, 2) end)
      raises("wrong number of indices to 'get' (2 expected, got 1)",
             function() return m:get(1) end)
      raises("wrong number of indices to 'set' (2 expected, got 1)",
             function() m:set(1, 5) end)
      raises("wrong number of arguments to 'set' (indices and a value expected)",
             function() m:set() end)
    end)

    it("out-of-range a[i]", function()
      raises("index 6 out of bounds for axis 1 with size 5", function() return a[6] end)
      raises("index 0 out of bounds for axis 1 with size 5", function() return a[0] end)
      raises("index 3 out of bounds for axis 1 with size 2", function() return m[3] end)
      raises("index -4 out of bounds for axis 1 with size 3", function() return m[1][-4] end)
      raises("index 6 out of bounds for axis 1 with size 5", function() a[6] = 1 end)
      raises("array index must be an integer, got 1.5", function() return a[1.5] end)
      raises("array index must be an integer, got boolean", function() a[true] = 1 end)
      raises("cannot index a 0-d array", function() return lumba.array(1)[1] end)
      raises("cannot assign to field 'shape' of an array", function() a.shape = {5} end)
    end)

    it("bad slices", function()
      raises("bad argument #1 to 'slice' (slice bound 0 on axis 1: indices start at 1 and -1 is the last)",
             function() return a:slice({0, 2}) end)
      raises("bad argument #2 to 'slice' (slice step cannot be zero)",
             function() return m:slice({}, {1, 2, 0}) end)
      raises("bad argument #1 to 'slice' (slice bounds must be integers, got string)",
             function() return a:slice({"1", 2}) end)
      raises("bad argument #1 to 'slice' (index 6 out of bounds for axis 1 with size 5)",
             function() return a:slice(6) end)
      raises("bad argument #1 to 'slice' (integer, table or ':' expected, got boolean)",
             function() return a:slice(true) end)
      raises("too many indices for array: array is 1-dimensional, but 2 were indexed",
             function() return a:slice(1, 2) end)
    end)
  end)

  describe("values that do not fit the dtype", function()
    it("integers out of range", function()
      raises("bad argument #2 to 'set' (value 300 out of bounds for uint8)",
             function() lumba.zeros(1, "uint8"):set(1, 300) end)
      raises("bad argument #2 to 'set' (value -1 out of bounds for uint32)",
             function() lumba.zeros(1, "uint32"):set(1, -1) end)
      raises("bad argument #2 to 'set' (value 128 out of bounds for int8)",
             function() lumba.zeros(1, "int8"):set(1, 128) end)
      raises("bad argument #2 to 'set' (value -32769 out of bounds for int16)",
             function() lumba.zeros(1, "int16"):set(1, -32769) end)
      raises("bad argument #2 to 'set' (value 2147483648 out of bounds for int32)",
             function() lumba.zeros(1, "int32"):set(1, 1 << 31) end)
      raises("bad argument #2 to 'set' (value 1e+19 out of bounds for int64)",
             function() lumba.zeros(1, "int64"):set(1, 1e19) end)
      raises("bad argument #2 to 'set' (value -1.0 out of bounds for uint64)",
             function() lumba.zeros(1, "uint64"):set(1, -1.0) end)
      raises("bad argument #2 to 'set' (value inf out of bounds for int64)",
             function() lumba.zeros(1, "int64"):set(1, 1 / 0) end)
      raises("value 256 out of bounds for uint8", function() lumba.zeros(1, "uint8")[1] = 256 end)
      raises("bad argument #1 to 'array' (value 300 out of bounds for uint8)",
             function() return lumba.array({1, 300}, "uint8") end)
      raises("bad argument #2 to 'full' (value 1000 out of bounds for int8)",
             function() return lumba.full(3, 1000, "int8") end)
      raises("bad argument #1 to 'fill' (value 70000 out of bounds for uint16)",
             function() lumba.zeros(2, "uint16"):fill(70000) end)
    end)

    it("non-integral floats in integer arrays", function()
      raises("bad argument #2 to 'set' (int32 needs an integer, got 1.5)",
             function() lumba.zeros(1, "int32"):set(1, 1.5) end)
      raises("int64 needs an integer, got 0.1", function() lumba.zeros(1, "int64")[1] = 0.1 end)
      raises("bad argument #1 to 'array' (int8 needs an integer, got 2.5)",
             function() return lumba.array({2.5}, "int8") end)
    end)

    it("non-booleans in bool arrays", function()
      raises("bad argument #2 to 'set' (bool needs true, false, 0 or 1, got 2)",
             function() lumba.zeros(1, "bool"):set(1, 2) end)
      raises("bad argument #2 to 'set' (bool needs true, false, 0 or 1, got 0.5)",
             function() lumba.zeros(1, "bool"):set(1, 0.5) end)
    end)

    it("non-numbers", function()
      raises("bad argument #2 to 'set' (number, complex or boolean expected, got string)",
             function() lumba.zeros(1):set(1, "1") end)
      raises("number, complex or boolean expected, got nil", function() lumba.zeros(1)[1] = nil end)
      raises("bad argument #2 to 'full' (number, complex or boolean expected, got table)",
             function() return lumba.full(2, {}) end)
    end)

    it("casts that have no value", function()
      raises("cannot cast NaN to int8", function() return lumba.array({0 / 0}):astype("int8") end)
      raises("cannot cast 1e+20 to uint64", function() return lumba.array({1e20}):astype("uint64") end)
    end)
  end)

  describe("methods", function()
    it("reshape to a different size", function()
      raises("cannot reshape array of size 6 into shape {4, 2}",
             function() return lumba.zeros(6):reshape(4, 2) end)
      raises("cannot reshape array of size 6 into shape {4, -1}",
             function() return lumba.zeros(6):reshape({4, -1}) end)
      raises("can only specify one unknown dimension",
             function() return lumba.zeros(6):reshape(-1, -1) end)
      raises("negative dimensions are not allowed",
             function() return lumba.zeros(6):reshape(-2, -3) end)
      raises("cannot reshape array of size 0 into shape {0, -1}",
             function() return lumba.zeros(0):reshape(0, -1) end)
    end)

    it("bad transpose axes", function()
      raises("bad argument #1 to 'transpose' (axes must be a permutation of 1..2)",
             function() return lumba.zeros({2, 3}):transpose(1, 1) end)
      raises("bad argument #1 to 'transpose' (axes must be a permutation of 1..2)",
             function() return lumba.zeros({2, 3}):transpose({2}) end)
    end)

    it("reductions of empty arrays", function()
      raises("zero-size array to reduction operation minimum which has no identity",
             function() return lumba.zeros(0):min() end)
      raises("zero-size array to reduction operation maximum which has no identity",
             function() return lumba.zeros({3, 0}):max() end)
    end)

    it("row assignment of the wrong shape", function()
      raises("cannot assign an array of shape {2} to a row of shape {3}",
             function() lumba.zeros({2, 3})[1] = {1, 2} end)
      raises("cannot assign a string to an array row",
             function() lumba.zeros({2, 3})[1] = "x" end)
    end)

    it("len of a 0-d array", function()
      raises("len() of a 0-d array", function() return #lumba.array(1.0) end)
    end)

    it("methods on something that is not an array", function()
      raises("bad argument #1 to 'get' (lumba.ndarray expected, got table)",
             function() local a = lumba.zeros(1); return a.get({}, 1) end)
      raises("calling 'sum' on bad self (lumba.ndarray expected, got table)",
             function()
               local t = setmetatable({}, {__index = {sum = lumba.zeros(1).sum}})
               return t:sum()
             end)
    end)
  end)

  describe("allclose", function()
    it("shapes that do not broadcast", function()
      raises("bad argument #2 to 'allclose' (shapes {2} and {3} cannot be broadcast together)",
             function() return lumba.allclose({1, 2}, {1, 2, 3}) end)
      raises("bad argument #1 to 'allclose' (array, table or number expected, got string)",
             function() return lumba.allclose("a", 1) end)
    end)
  end)

  describe("closed arrays", function()
    it("raise on every use", function()
      local a = lumba.zeros(3)
      local v = a:slice({2})
      a:close()
      raises("attempt to use a closed array", function() return a[1] end)
      raises("attempt to use a closed array", function() return a:sum() end)
      raises("attempt to use a closed array", function() return a.shape end)
      raises("attempt to use a closed array", function() return #a end)
      raises("attempt to use a closed array", function() a[1] = 2 end)
      raises("attempt to use a closed array", function() return lumba.array(a) end)
      raises("attempt to use a closed array", function() return lumba.zeros(1).get(a, 1) end)
      assert.are.equal(0.0, v:sum())  -- the view still has the buffer
    end)
  end)

  describe("constructors", function()
    it("arange and linspace", function()
      raises("bad argument #3 to 'arange' (step must not be zero)",
             function() return lumba.arange(0, 1, 0) end)
      raises("bad argument #3 to 'arange' (step must not be zero)",
             function() return lumba.arange(0, 1, 0.0) end)
      raises("bad argument #1 to 'arange' (number expected, got no value)",
             function() return lumba.arange() end)
      raises("bad argument #2 to 'arange' (number or dtype name expected, got table)",
             function() return lumba.arange(1, {}) end)
      raises("bad argument #3 to 'linspace' (number of samples must be non-negative)",
             function() return lumba.linspace(0, 1, -1) end)
      raises("bad argument #3 to 'linspace' (number has no integer representation)",
             function() return lumba.linspace(0, 1, 2.5) end)
    end)
  end)
end)
