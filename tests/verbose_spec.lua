-- LUMBA_VERBOSE=1 / lumba.config.verbose: each compilation reports its stages on stderr.
local function run(env, code)
  local f = os.tmpname()
  local fh = io.open(f, "w")
  fh:write('package.path = "lua/?.lua;lua/?/init.lua;" .. package.path\n',
           'package.cpath = "build/?.so;" .. package.cpath\n', code)
  fh:close()
  local p = io.popen(env .. " lua5.4 " .. f .. " 2>&1")
  local out = p:read("a")
  p:close()
  os.remove(f)
  return out
end

describe("verbose compilation reports", function()
  it("names the function, the signature and each stage with LUMBA_VERBOSE=1", function()
    local out = run("LUMBA_VERBOSE=1", 'local l = require "lumba"\nl.njit("def f(x):\\n    return x + 1\\n")(1)\n')
    assert.truthy(out:match("^lumba: compiled f%(int64%) %-> int64: parse [%d.]+ ms, infer [%d.]+ ms, lower [%d.]+ ms, " ..
      "optimise [%d.]+ ms, codegen and load [%d.]+ ms, total [%d.]+ ms\n$"), out)
  end)

  it("is silent by default and follows lumba.config.verbose", function()
    local out = run("LUMBA_VERBOSE=", [[
local l = require "lumba"
assert(l.config.verbose == false)
l.njit("def f(x):\n    return x + 1\n")(1)
l.config.verbose = true
l.njit("def g(x):\n    return x * 2.0\n")(1)
]])
    assert.truthy(out:match("^lumba: compiled g%(int64%) %-> float64: "), out)
    assert.falsy(out:find("compiled f", 1, true), out)
  end)
end)
