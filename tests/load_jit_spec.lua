-- lumba.load (pasted Numba modules) and lumba.jit (object-mode fallback).
local lumba = require "lumba"
local H = require "helpers"

describe("lumba.load", function()
  local m = lumba.load [[
import numpy as np
from numba import njit, jit
import numba

TPB = 16
EPS = 1e-9

@njit
def sq(x):
    return x * x

@numba.jit(nopython=True, cache=True)
def norm2(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += sq(a[i])
    return s + EPS * TPB

@njit("float64(float64)")
def half(x):
    return x / 2

@njit(boundscheck=True)
def at(a, i):
    return a[i]

def plain(x):
    return x + TPB
]]

  it("makes a table of dispatchers by function name", function()
    assert.are.equal(9, m.sq(3))
    assert.are.equal(4 + 1e-9 * 16, m.norm2(lumba.ones(4)))
    assert.are.equal(21, m.plain(5))
  end)

  it("honours eager signatures in decorators", function()
    assert.are.same({ "(float64) -> float64" }, m.half.signatures)
    assert.are.equal(1.5, m.half(3))
  end)

  it("honours decorator options", function()
    assert.are.equal("IndexError: index 9 out of bounds for axis 0 with size 3", H.message_of(m.at, lumba.zeros(3), 9))
    assert.is_true(m.at.options.boundscheck)
    assert.is_true(m.norm2.options.cache)
  end)

  it("names an unknown decorator with its position", function()
    assert.are.equal("<string>:2:2: unknown decorator '@functools.lru_cache' on 'f'",
      H.error_of(lumba.load, "import functools\n@functools.lru_cache\ndef f(x):\n    return x\n"))
  end)

  it("reports syntax errors of the module", function()
    local err = H.error_of(lumba.load, "def f(x)\n    return x\n")
    assert.truthy(err:find("<string>:1:9: SyntaxError", 1, true), err)
  end)
end)

describe("lumba.jit", function()
  it("compiles what it can, like njit", function()
    local warnings = {}
    local saved = lumba.warnings
    lumba.warnings = function(msg) warnings[#warnings + 1] = msg end
    local f = lumba.jit [[
from numba import jit

@jit
def sum_array_numba(arr):
    total = 0.0
    for i in range(arr.shape[0]):
        total += arr[i]
    return total
]]
    assert.are.equal(45.0, f(lumba.arange(10, "float64")))
    assert.is_false(f.objmode)
    assert.are.equal(0, #warnings)
    lumba.warnings = saved
  end)

  it("falls back to object mode with exactly one warning", function()
    local warnings = {}
    local saved = lumba.warnings
    lumba.warnings = function(msg) warnings[#warnings + 1] = msg end
    local line = debug.getinfo(1, "l").currentline + 3  -- the line of scale(a) below
    local g = lumba.jit { env = { scale = function(x) return x * 10 end } } [[
def g(a):
    return scale(a) + 1
]]
    assert.are.equal(21, g(2))
    assert.are.equal(31, g(3))
    assert.is_true(g.objmode)
    assert.are.equal(1, #warnings)
    assert.are.equal("g: compilation failed, falling back to object mode (slower): tests/load_jit_spec.lua:" .. line .. [[:12: TypingError: 'scale' refers to a Lua function, which compiled code cannot use (numbers and lumba functions can be used)
        return scale(a) + 1
               ^]], warnings[1])
    lumba.warnings = saved
  end)

  it("never falls back with nopython=true", function()
    local g = lumba.jit { nopython = true, env = { scale = function(x) return x end } } "def g(a):\n    return scale(a)\n"
    assert.truthy(H.error_of(g, 1):find("TypingError: 'scale' refers to a Lua function", 1, true))
  end)

  it(":interpret runs the object-mode path and agrees with the compiled one", function()
    local f = lumba.njit [[
def f(a, b):
    return a // b, a % b, a / b, -a // b
]]
    for _, p in ipairs { { 7, 2 }, { -7, 2 }, { 7, -2 }, { -7, -2 }, { 7.5, 2 }, { -7.5, 2.5 } } do
      local c = { f(p[1], p[2]) }
      local o = { f:interpret(p[1], p[2]) }
      for k = 1, 4 do assert.are.equal(c[k], o[k]) end
    end
  end)
end)
