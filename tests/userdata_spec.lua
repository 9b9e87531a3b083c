-- issue 24 item 9: lumba's userdata carry a type tag, so a metatable moved
-- with debug.setmetatable makes a Lua error, never a crash (at use, at
-- collection, at lua_close), and the metatables are protected.
local lumba = require "lumba"
local H = require "helpers"

local IMPOSTOR = "got another userdata given its metatable"

describe("lumba's userdata", function()
  it("have protected metatables", function()
    local a, f = lumba.zeros(2), lumba.njit "def f(x):\n    return x\n"
    assert.are.equal("lumba.ndarray", getmetatable(a))
    assert.are.equal("lumba.dispatcher", getmetatable(f))
    assert.is_false(pcall(setmetatable, a, {}))
    assert.are.equal(7, f(7))
  end)

  it("refuse an array's metatable on a dispatcher and a FILE*", function()
    local amt = debug.getmetatable(lumba.zeros(1))
    local f = lumba.njit "def f(x):\n    return x[0]\n"
    local g = lumba.njit "def g(x):\n    return x\n"
    local fh = io.tmpfile()
    debug.setmetatable(g, amt)
    debug.setmetatable(fh, amt)
    for _, u in ipairs({ g, fh }) do
      assert.truthy(H.error_of(function() return u[1] end):find(IMPOSTOR, 1, true))
      assert.truthy(H.error_of(function() u[1] = 2 end):find(IMPOSTOR, 1, true))
      assert.truthy(H.error_of(function() return #u end):find(IMPOSTOR, 1, true))
      assert.truthy(H.error_of(tostring, u):find(IMPOSTOR, 1, true))
      assert.truthy(H.error_of(function() return u:sum() end):find(IMPOSTOR, 1, true))
      assert.truthy(H.error_of(f, u):find("lumba.ndarray expected", 1, true))
      assert.truthy(H.error_of(lumba.array, u):find("bad argument #1", 1, true))
    end
    g, fh = nil, nil
    collectgarbage()
    collectgarbage()
    assert.are.equal(3.0, f(lumba.full(1, 3.0)))
  end)

  it("refuse a dispatcher's metatable on an array and a FILE*", function()
    local fmt = debug.getmetatable(lumba.njit "def f(x):\n    return x\n")
    local a, fh = lumba.ones(2), io.tmpfile()
    debug.setmetatable(a, fmt)
    debug.setmetatable(fh, fmt)
    for _, u in ipairs({ a, fh }) do
      assert.truthy(H.error_of(u, 1):find("lumba.dispatcher expected, " .. IMPOSTOR, 1, true))
      assert.truthy(H.error_of(function() return u.name end):find(IMPOSTOR, 1, true))
      assert.truthy(H.error_of(function() return u:compile("int64(int64)") end):find(IMPOSTOR, 1, true))
    end
    a, fh = nil, nil
    collectgarbage()
    collectgarbage()
  end)

  it("survive lua_close with impostors alive", function()
    local path = os.tmpname()
    H.spit(path, [[
      package.cpath = "build/?.so;" .. package.cpath
      package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
      local lumba = require "lumba"
      local amt = debug.getmetatable(lumba.zeros(1))
      local fmt = debug.getmetatable(lumba.njit "def f(x):\n    return x\n")
      keep1 = io.tmpfile(); debug.setmetatable(keep1, amt)
      keep2 = lumba.ones(3); debug.setmetatable(keep2, fmt)
      keep3 = lumba.njit "def g(x):\n    return x\n"; debug.setmetatable(keep3, amt)
      print("closing")
      os.exit(0, true)  -- closes the state: every __gc runs
    ]])
    local p = io.popen("lua5.4 " .. path .. " 2>&1; echo rc=$?")
    local out = p:read("a")
    p:close()
    os.remove(path)
    assert.are.equal("closing\nrc=0\n", out)
  end)
end)
