-- Free names of a source that are Lua locals or upvalues of the function
-- calling njit (docs/api.md, issue 24 item 4).
local lumba = require "lumba"
local H = require "tests.helpers"

local SRC = "def h(x):\n    return x + OFFSET\n"

describe("free names from the caller's Lua variables", function()
  it("a local of the caller is a frozen constant", function()
    local OFFSET = 1
    local h = lumba.njit(SRC)
    assert.are.equal(6, h(5))
  end)

  it("an upvalue of the caller is seen as a local is, a local shadowing it", function()
    local OFFSET = 7
    local function make()
      local f = lumba.njit(SRC)
      return f, OFFSET
    end
    assert.are.equal(12, (make())(5))
    local function shadowed()
      local OFFSET = 100  -- luacheck: ignore
      local f = lumba.njit(SRC)
      return f, OFFSET
    end
    assert.are.equal(105, (shadowed())(5))
  end)

  it("in tail position no local is seen, never another function's, and the NameError says why", function()
    local function make_tail()
      local OFFSET = 1  -- luacheck: ignore (gone when njit runs)
      return lumba.njit(SRC)
    end
    local function caller()
      local OFFSET = 100  -- luacheck: ignore (must not be taken)
      return make_tail()
    end
    local err = H.error_of(caller(), 5)
    assert.truthy(err:find("NameError: name 'OFFSET' is not defined (lumba.njit was called in tail position", 1, true), err)
    assert.truthy(err:find("local f = lumba.njit(...); return f", 1, true), err)
    -- written the other way, it resolves
    local function make_local()
      local OFFSET = 1
      local f = lumba.njit(SRC)
      return f
    end
    assert.are.equal(6, make_local()(5))
  end)

  it("a local holding a value compiled code cannot use is named with its type", function()
    local cfg = { scale = 2 }
    local k = lumba.njit "def k(x):\n    return x * cfg\n"
    local err = H.error_of(k, 1)
    assert.truthy(err:find("TypingError: 'cfg' refers to a Lua table, which compiled code cannot use", 1, true), err)
    assert.are.equal("table", type(cfg))
  end)

  it("env and the source's own names come before the caller's locals", function()
    local OFFSET = 1  -- luacheck: ignore
    assert.are.equal(25, lumba.njit { env = { OFFSET = 20 } } (SRC)(5))
    assert.are.equal(8, lumba.njit "OFFSET = 3\ndef h(x):\n    return x + OFFSET\n" (5))
  end)
end)
