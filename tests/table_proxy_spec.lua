-- issue 24 item 7: a Lua table with a metatable passed where an array is
-- expected is read as Lua code reads it (__index, __len) or refused with an
-- error naming the metatable; a table of records is refused; never a
-- silently empty array. Floats stored into a table of integers are refused,
-- never truncated silently on the way back.
local lumba = require "lumba"
local H = require "helpers"

local SUM = "def s(a):\n    t = 0.0\n    for x in a:\n        t += x\n    return t\n"

-- a read-only proxy of data, as Lua programs write them
local function proxy(data, with_len)
  return setmetatable({}, {
    __index = data,
    __len = with_len ~= false and function() return #data end or nil,
    __newindex = function() error("attempt to write a read-only table", 2) end,
  })
end

describe("a table with a metatable", function()
  it("is read through __index and __len, as an argument and by lumba.array", function()
    local s = lumba.njit(SUM)
    assert.are.equal(6.0, s(proxy({ 1.0, 2.0, 3.0 })))
    assert.are.equal(10.0, s(proxy({ 1, 2, 3, 4 })))
    local a = lumba.array(proxy({ 1.5, 2.5 }))
    assert.are.same({ 2 }, a.shape)
    assert.are.equal("float64", a.dtype)
    assert.are.equal(1.5, a[1])
    assert.are.equal(2.5, a[2])
    local ints = lumba.array(proxy({ 7, 8, 9 }))
    assert.are.equal("int64", ints.dtype)
    assert.are.equal(9, ints[3])
    -- nested: rows that are proxies too
    local m = lumba.array(proxy({ proxy({ 1, 2 }), { 3, 4 } }))
    assert.are.same({ 2, 2 }, m.shape)
    assert.are.equal(4, m:get(2, 2))
    -- __index as a function
    local squares = setmetatable({}, { __index = function(_, i) return i * i end, __len = function() return 4 end })
    assert.are.equal(30.0, s(squares))
  end)

  it("with __index and no __len is refused, naming the metatable", function()
    local s = lumba.njit(SUM)
    local msg = "the table has a metatable with __index but no __len: lumba cannot tell its length "
      .. "(give the metatable __len, or pass a plain table)"
    assert.are.equal("bad argument #1 to 's' (" .. msg .. ")", H.error_of(s, proxy({ 1.0, 2.0 }, false)))
    assert.truthy(H.error_of(lumba.array, proxy({ 1.0 }, false)):find(msg, 1, true))
    assert.truthy(H.error_of(lumba.array, { proxy({ 1.0 }, false) }):find(
      "element [1] has a metatable with __index but no __len", 1, true))
  end)

  it("is written back through __newindex: a read-only proxy raises its own error", function()
    local w = lumba.njit "def w(a):\n    a[0] = 5.0\n"
    local data = { 1.0, 2.0 }
    local err = H.error_of(w, proxy(data))
    assert.truthy(err:find("attempt to write a read-only table", 1, true), err)
    assert.are.equal(1.0, data[1])
    -- a proxy that forwards writes gets them
    local fwd = setmetatable({}, { __index = data, __len = function() return #data end,
      __newindex = function(_, k, v) data[k] = v end })
    w(fwd)
    assert.are.equal(5.0, data[1])
    assert.is_nil(rawget(fwd, 1))
  end)
end)

describe("a table of records", function()
  it("is refused with a clear error, not an empty array", function()
    local s = lumba.njit(SUM)
    local records = { { x = 1, y = 2 }, { x = 3, y = 4 } }
    local err = H.error_of(s, records)
    assert.truthy(err:find("^bad argument #1 to 's' %(element %[1%] has no elements 1%.%.n but the key '[xy]': "
      .. "a table of records %({x = 1, y = 2}, %.%.%.%) is not an array %(make one array per field%)%)$"), err)
    assert.truthy(H.error_of(lumba.array, records):find("table of records", 1, true))
    assert.truthy(H.error_of(lumba.array, { x = 1 }):find("the table has no elements 1..n but the key 'x'", 1, true))
    -- an empty table is still an empty array
    assert.are.same({ 0 }, lumba.array({}).shape)
    assert.are.equal(0.0, s({}))
  end)
end)

describe("a table of integers that compiled code stores floats into", function()
  local TRUNC = "a table of integers is copied into an int64 array, and %s() stores floats into it, "
    .. "which would come back truncated; write the table's numbers as floats (1.0) or pass "
    .. "lumba.array(t, \"float64\"))"

  it("is refused before the call and left as it was; floats in the table keep them", function()
    local half = lumba.njit "def half(a):\n    for i in range(len(a)):\n        a[i] = a[i] / 2\n"
    local t = { 1, 2, 3 }
    assert.are.equal("bad argument #1 to 'half' (" .. TRUNC:format("half"), H.error_of(half, t))
    assert.are.same({ 1, 2, 3 }, t)
    for k = 1, 3 do assert.are.equal("integer", math.type(t[k])) end
    -- what Lua itself would give: t[i] / 2 on floats
    local tf = { 1.0, 2, 3 }
    half(tf)
    assert.are.same({ 0.5, 1.0, 1.5 }, tf)
    -- a lumba int64 array truncates, as NumPy does
    local a = lumba.array({ 1, 3, 5 }, "int64")
    half(a)
    assert.are.same({ 0, 1, 2 }, a:totable())
  end)

  it("through a view or a row of it, and by an augmented assignment", function()
    local rows = lumba.njit "def rows(a):\n    for i in range(a.shape[0]):\n        row = a[i]\n        row[0] = row[0] * 0.5\n"
    assert.are.equal("bad argument #1 to 'rows' (" .. TRUNC:format("rows"), H.error_of(rows, { { 1, 2 }, { 3, 4 } }))
    local tail = lumba.njit "def tail(a):\n    a[1:][0] = 2.5\n"
    assert.are.equal("bad argument #1 to 'tail' (" .. TRUNC:format("tail"), H.error_of(tail, { 1, 2 }))
    local inc = lumba.njit "def inc(a, x):\n    a[0] += x\n"
    local t = { 1, 2 }
    assert.are.equal("bad argument #1 to 'inc' (" .. TRUNC:format("inc"), H.error_of(inc, t, 0.5))
    inc(t, 2)   -- an integer increment stays an integer
    assert.are.same({ 3, 2 }, t)
  end)

  it("only the argument written with floats is refused", function()
    local mix = lumba.njit "def mix(a, b):\n    b[0] = a[0] * 1.5\n"
    local a, b = { 2 }, { 0.0 }
    mix(a, b)   -- reads the integers of a, writes floats into a float table
    assert.are.same({ 3.0 }, b)
    assert.are.equal("bad argument #2 to 'mix' (" .. TRUNC:format("mix"), H.error_of(mix, a, { 0 }))
  end)
end)
