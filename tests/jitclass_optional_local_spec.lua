-- Optional numbers in compiled code and None from Lua (issue 21, item 5,
-- where the issue is silent: as Numba does). `x = None` then `x = 5` types
-- x OptionalType(int64); `x is None` tests it at run time; used as a number
-- it raises TypeError when None (never a wrong value); returned to Lua it
-- is nil or the number; a local copied from an optional field is one too.
-- A Lua nil passed where a function takes an instance, or to a function of
-- its own, is None. The oracle: the same module run by Numba 0.56.4.
local lumba = require "lumba"
local oracle = require "numpy_oracle"

local MOD = [[
import numpy as np
from numba import njit, int64, float64, optional
from numba.experimental import jitclass

@jitclass([('val', optional(float64)), ('n', int64)])
class Box:
    def __init__(self, n):
        self.val = None
        self.n = n

    def get(self):
        v = self.val
        return v

    def doubled_or(self, d):
        v = self.val
        if v is None:
            return d
        return v * 2

@njit
def maybe(c):
    x = None
    if c:
        x = 5
    return x

@njit
def plus_one(c):
    x = None
    if c:
        x = 5
    if x is None:
        return -1
    return x + 1

@njit
def unchecked(c):
    x = None
    if c:
        x = 5
    return x + 1

@njit
def first_neg(a):
    found = None
    for i in range(a.size):
        if a[i] < 0 and found is None:
            found = i
    return found

@njit
def largest(a):
    best = None
    for x in a:
        if best is None or x > best:
            best = x
    return best

@njit
def widened(c):
    x = None
    if c:
        x = 1
    else:
        x = 2.5
    return x

@njit
def copied(c):
    x = None
    if c:
        x = 2
    y = x
    y += 1
    return y

@njit
def early(c):
    if c:
        return 7
    return None

@njit
def from_field(b):
    v = b.val
    if v is not None:
        return v + b.n
    return -1.0

@njit
def n_or_none(b):
    if b is None:
        return -1
    return b.n

@njit
def is_none(b):
    return b is None

@njit
def maybe_twice(c):
    return maybe(c) * 2 + 1, -maybe(c) < 0, 2.5 if c else None

@njit
def find_three(n):
    for i in range(n):
        if i == 3:
            return i
]]

-- what a Python value prints as, from a Lua one
local function py(v)
  if v == nil then return "None" end
  if type(v) == "boolean" then return v and "True" or "False" end
  return v
end

local function numba_values(script)
  local out = oracle.run_python(MOD .. "\n" .. script)
  local vals = {}
  for x in out:gmatch("%S+") do vals[#vals + 1] = tonumber(x) or x end
  return vals, out
end

describe("Optional numbers in compiled code", function()
  local m = lumba.load(MOD, { chunkname = "=opt.py" })

  it("types, tests and returns Optionals, locals and fields, as Numba does", function()
    local want, out = numba_values([[
b = Box(3)
print(maybe(True), maybe(False), plus_one(True), plus_one(False), unchecked(True))
print(first_neg(np.array([1, 2, -3, -4])), first_neg(np.array([1, 2])), largest(np.array([3.0, 9.0, 1.0])), largest(np.zeros(0)))
print(widened(True), widened(False), copied(True), early(True), early(False))
print(b.get(), b.doubled_or(-1.0), from_field(b))
b.val = 2.5
print(b.get(), b.doubled_or(-1.0), from_field(b))
print(n_or_none(b), n_or_none(None), is_none(b), is_none(None))
print(*maybe_twice(True))
print(find_three(5), find_three(2))
]])
    assert(#want == 29, out)
    local got = {}
    local function add(...)
      for i = 1, select("#", ...) do got[#got + 1] = py((select(i, ...))) end
    end
    local b = m.Box(3)
    add(m.maybe(true), m.maybe(false), m.plus_one(true), m.plus_one(false), m.unchecked(true))
    add(m.first_neg(lumba.array({ 1, 2, -3, -4 }, "int64")), m.first_neg(lumba.array({ 1, 2 }, "int64")),
      m.largest(lumba.array({ 3.0, 9.0, 1.0 })), m.largest(lumba.zeros(0)))
    add(m.widened(true), m.widened(false), m.copied(true), m.early(true), m.early(false))
    add(b:get(), b:doubled_or(-1.0), m.from_field(b))
    b.val = 2.5
    add(b:get(), b:doubled_or(-1.0), m.from_field(b))
    add(m.n_or_none(b), m.n_or_none(nil), m.is_none(b), m.is_none(nil))
    add(m.maybe_twice(true))
    add(m.find_three(5), m.find_three(2))  -- Numba's implicit return None
    assert.are.same(want, got)
    assert.are.equal("integer", math.type(m.maybe(true)))
    assert.are.equal("float", math.type(m.widened(true)))
  end)

  it("raises Numba's TypeError, with its place, on None used as a number", function()
    local want = numba_values([[
for f in (unchecked, copied):
    try:
        f(False)
    except TypeError as e:
        print(e)
]])
    local ok, err = pcall(m.unchecked, false)
    assert.is_false(ok)
    assert.matches(table.concat(want, " ", 1, 4), err, 1, true)  -- expected int64, got None
    assert.matches("opt%.py:42:%d+", err)
    ok, err = pcall(m.maybe_twice, false)  -- a call's Optional result used as a number
    assert.is_false(ok)
    assert.matches("TypeError: expected int64, got None", err, 1, true)
    assert.matches("opt%.py:103:%d+", err)
    ok, err = pcall(m.copied, false)
    assert.is_false(ok)
    assert.matches("TypeError: expected int64, got None", err, 1, true)
    assert.matches("opt%.py:75:%d+", err)
  end)

  it("refuses an Optional as a condition, as Numba does, naming the place", function()
    local t = lumba.load([[
from numba import njit
@njit
def truthy(c):
    x = None
    if c:
        x = 2.5
    if x:
        return 1
    return 0
]], { chunkname = "=truthy.py" })
    local ok, err = pcall(t.truthy, true)
    assert.is_false(ok)
    assert.matches("OptionalType(float64) cannot be used as a condition", err, 1, true)
    assert.matches("truthy%.py:7:%d+", err)
  end)

  it("still refuses None where neither a number nor an instance goes", function()
    local t = lumba.load([[
import numpy as np
from numba import njit
@njit
def arr(c):
    x = None
    if c:
        x = np.zeros(3)
    return x
]], { chunkname = "=arr.py" })
    local ok, err = pcall(t.arr, true)
    assert.is_false(ok)
    assert.matches("arr%.py:7:%d+", err)
    assert.matches("TypingError", err, 1, true)
  end)
end)

describe("nil passed from Lua", function()
  local m = lumba.load(MOD, { chunkname = "=opt.py" })

  it("is None for a function taking an instance, whichever call compiled first", function()
    assert.are.equal(-1, m.n_or_none(nil))
    assert.are.equal(3, m.n_or_none(m.Box(3)))
    assert.are.equal(-1, m.n_or_none(nil))
    assert.is_true(m.is_none(nil))
    assert.is_false(m.is_none(m.Box(1)))
    assert.is_true(m.is_none(nil))
  end)

  it("is refused, naming the argument, where the function cannot take None", function()
    local ok, err = pcall(m.from_field, nil)  -- b.val of None: a typing error, so nil is a bad argument
    assert.is_false(ok)
    assert.matches("bad argument #1 to 'from_field' (number, boolean, table or lumba.ndarray expected, got nil)", err,
      1, true)
    assert.are.equal(-1.0, m.from_field(m.Box(2)))
  end)
end)
