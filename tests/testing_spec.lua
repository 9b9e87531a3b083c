-- lumba.testing: assert.array_equal and assert.allclose for busted specs
local lumba = require "lumba"
local testing = require "lumba.testing"

local function failure(f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "the assertion did not fail")
  return tostring(err)
end

describe("lumba.testing", function()
  it("passes on equal arrays, tables and numbers", function()
    local m = lumba.arange(6):reshape(2, 3)
    assert.array_equal(m, { { 0, 1, 2 }, { 3, 4, 5 } })
    assert.array_equal({ { 0, 1, 2 }, { 3, 4, 5 } }, m:astype("float32"))
    assert.array_equal(lumba.array({ true, false }), { true, false })
    assert.array_equal(lumba.array(2.5), 2.5)
    assert.array_equal(m.T, m:transpose())
    assert.allclose(m / 3, { { 0, 1 / 3, 2 / 3 }, { 1, 4 / 3, 5 / 3 + 1e-9 } })
    assert.allclose(lumba.full({ 2, 2 }, 1.0), 1)  -- broadcast, as NumPy's allclose
    assert.allclose(lumba.array({ 1, 2 }), { 1.1, 2.2 }, 0.2)
    assert.allclose(lumba.array({ 1, 2 }), { 1.5, 2.5 }, 0, 0.5)
    assert.is_not.array_equal(m, m + 1)
    assert.is_not.allclose(m, m + 1)
  end)

  it("fails naming the first differing element by its full 1-based index, and both values", function()
    local a = lumba.arange(24):reshape(2, 3, 4)
    local b = a:copy()
    b:set(2, 3, 1, 99)
    b:set(2, 3, 4, 98)
    assert.matches("arrays are not equal: 2 of 24 elements differ; the first at index [2, 3, 1]: 20 and 99",
      failure(assert.array_equal, a, b), 1, true)
    assert.matches("arrays are not equal: shapes differ: {2, 3, 4} and {24}",
      failure(assert.array_equal, a, a:reshape(24)), 1, true)
    assert.matches("arrays are not close (rtol=1e-05, atol=1e-08): 1 of 3 elements differ; the first at index [2]: 2.0 and 2.1",
      failure(assert.allclose, { 1.0, 2.0, 3.0 }, lumba.array({ 1, 2.1, 3 })), 1, true)
    assert.matches("arrays are not close (rtol=0.001, atol=0): 1 of 2 elements differ; the first at index [1]: nan and nan",
      failure(assert.allclose, { 0 / 0, 1 }, { 0 / 0, 1 }, 1e-3, 0), 1, true)
    assert.matches("my message\narrays are not equal",
      failure(assert.array_equal, { 1 }, { 2 }, "my message"), 1, true)
    -- the checks themselves, without luassert
    assert.are.same({ true }, { testing.array_equal({ 1, 2 }, lumba.array({ 1, 2 }, "int8")) })
    local ok, msg = testing.allclose({ 1 }, { 2 })
    assert.is_false(ok)
    assert.matches("index [1]: 1 and 2", msg, 1, true)
  end)

  it("are failures, not errors, to busted", function()
    local path = os.tmpname() .. "_spec.lua"
    local f = assert(io.open(path, "w"))
    f:write([[
local lumba = require "lumba"
require "lumba.testing"
describe("x", function()
  it("eq", function() assert.array_equal(lumba.arange(3), {0, 1, 3}) end)
  it("close", function() assert.allclose(lumba.arange(3), {0, 1, 3}) end)
  it("passes", function() assert.allclose(lumba.arange(3), {0, 1, 2}) end)
end)
]])
    f:close()
    local p = io.popen(("LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/?.so;;' busted --lua=lua5.4 -o TAP %s 2>&1"):format(path))
    local out = p:read("a")
    p:close()
    os.remove(path)
    assert.matches("not ok 1 %- x eq", out)
    assert.matches("not ok 2 %- x close", out)
    assert.matches("ok 3 %- x passes", out)
    assert.matches("index %[3%]: 2 and 3", out)
    assert.not_matches("# Error", out)
    assert.matches("# Failure", out)
  end)

  it("leaves assert.are.same comparing two arrays by identity (documented)", function()
    local a = lumba.arange(3)
    assert.are.same(a, a)
    assert.has_error(function() assert.are.same(a, a:copy()) end)
    assert.are.same(a:totable(), a:copy():totable())
  end)
end)
