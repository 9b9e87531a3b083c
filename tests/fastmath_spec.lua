-- fastmath=true / a set of flags: LLVM may reassociate float arithmetic (so
-- float reductions vectorise); results agree within rounding.
local lumba = require "lumba"
local H = require "helpers"

local SRC = "def s(a):\n    t = 0.0\n    for i in range(a.shape[0]):\n        t += a[i]\n    return t\n"

describe("fastmath", function()
  local a = lumba.random.rand(100003)
  local exact = 0.0
  for i = 1, a.size do exact = exact + a[i] end

  it("vectorises a float reduction and agrees within rounding", function()
    local f = lumba.njit { fastmath = true } (SRC)
    H.assert_close(exact, f(a), 1e-12)
    local ir = f:inspect_llvm()
    assert.truthy(ir:find("fadd fast <", 1, true), "no vectorised fast fadd in the IR")
  end)

  it("is off by default: the sum is the sequential one, bit for bit", function()
    local f = lumba.njit(SRC)
    assert.are.equal(exact, f(a))
    assert.falsy(f:inspect_llvm():find("fast", 1, true))
  end)

  it("takes a set of LLVM flags", function()
    local f = lumba.njit { fastmath = { "nnan", "contract" } } (SRC)
    f(a)
    assert.truthy(f:inspect_llvm():find("fadd nnan contract double", 1, true))
    local g = lumba.njit { fastmath = { reassoc = true, nsz = true } } (SRC)
    H.assert_close(exact, g(a), 1e-12)
  end)

  it("rejects an unknown flag", function()
    assert.are.equal("unknown fast-math flag 'bogus' (nnan, ninf, nsz, arcp, contract, afn, reassoc or fast)",
      H.error_of(lumba.njit { fastmath = { "bogus" } }, SRC))
  end)

  it("combines with parallel reductions", function()
    local f = lumba.njit { fastmath = true, parallel = true } [[
def f(a):
    t = 0.0
    for i in prange(a.shape[0]):
        t += a[i] * a[i]
    return t
]]
    local want = 0.0
    for i = 1, a.size do want = want + a[i] * a[i] end
    H.assert_close(want, f(a), 1e-12)
  end)
end)
