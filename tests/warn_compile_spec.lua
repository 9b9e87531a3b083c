-- lumba.config.warn_on_compile (issue 24, item 14): a call compiling a new
-- specialization after it is set is reported, with the caller's line
local lumba = require "lumba"

describe("lumba.config.warn_on_compile", function()
  after_each(function() lumba.config.warn_on_compile = false end)

  it("reports each new specialization a call compiles, at the calling line, and nothing else", function()
    local f = lumba.njit("def f(x):\n    return x * 2\n")
    f(1)
    local got = {}
    lumba.config.warn_on_compile = function(msg, name, types, ms)
      got[#got + 1] = { msg = msg, name = name, types = types, ms = ms }
    end
    assert.are.equal("function", type(lumba.config.warn_on_compile))
    f(2)  -- compiled before: nothing
    local line = debug.getinfo(1, "l").currentline + 1
    f(2.0)
    f(3.0)
    f:compile("(int32)")  -- asked for: nothing
    assert.are.equal(1, #got)
    assert.are.equal("f", got[1].name)
    assert.are.equal("(float64)", got[1].types)
    assert.is_true(got[1].ms > 0)
    assert.matches("warn_compile_spec.lua:" .. line .. ": 'f' compiled a new specialization (float64) in ", got[1].msg, 1, true)
    lumba.config.warn_on_compile = false
    f(true)
    assert.are.equal(1, #got)
  end)

  it("goes through lumba.warnings when set to true; eager dispatchers never warn", function()
    local saved, warned = lumba.warnings, {}
    lumba.warnings = function(msg) warned[#warned + 1] = msg end
    local ok, err = pcall(function()
      local g = lumba.njit("float64(float64)", "def g(x):\n    return x + 1\n")
      lumba.config.warn_on_compile = true
      assert.are.equal(true, lumba.config.warn_on_compile)
      assert.are.equal(2.0, g(1))  -- converted to the signature, no compilation
      local h = lumba.njit("def h(x):\n    return x + 1\n")
      h(lumba.zeros(2, "float32"))
    end)
    lumba.warnings = saved
    assert(ok, err)
    assert.are.equal(1, #warned)
    assert.matches("'h' compiled a new specialization (float32[::1])", warned[1], 1, true)
  end)

  it("lets a handler make a surprise compilation an error, the dispatcher usable after", function()
    local f = lumba.njit("def f(x):\n    return x - 1\n")
    lumba.config.warn_on_compile = function(msg) error("no compiling mid-game: " .. msg, 0) end
    local ok, err = pcall(f, 5)
    assert.is_false(ok)
    assert.matches("no compiling mid%-game: .*'f' compiled a new specialization %(int64%)", err)
    lumba.config.warn_on_compile = false
    assert.are.equal(4, f(5))
  end)

  it("refuses other values", function()
    local ok, err = pcall(function() lumba.config.warn_on_compile = "yes" end)
    assert.is_false(ok)
    assert.matches("lumba.config.warn_on_compile must be a boolean or a function, not a string", err, 1, true)
  end)
end)
