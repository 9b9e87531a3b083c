-- @jitclass (issue 21, item 5): Numba's Bag example and others, used from
-- Lua and from the module's compiled functions; the values are checked
-- against the same classes run as plain Python (numba's decorators shimmed
-- away), instances are reference counted (no MemInfo left behind), and
-- mistakes are errors naming the line.
local lumba = require "lumba"
local oracle = require "numpy_oracle"
local H = require "helpers"

local BAG = [[
import numpy as np
from numba import int32, float32, njit
from numba.experimental import jitclass

spec = [
    ('value', int32),               # a simple scalar field
    ('array', float32[:]),          # an array field
]

@jitclass(spec)
class Bag(object):
    def __init__(self, value):
        self.value = value
        self.array = np.zeros(value, dtype=np.float32)

    @property
    def size(self):
        return self.array.size

    def increment(self, val):
        for i in range(self.size):
            self.array[i] += val
        return self.array

@njit
def make(n, v):
    b = Bag(n)
    b.increment(v)
    b.value = b.value * 10
    return b

@njit
def total(b):
    return b.array.sum() + b.value

@njit
def bump_all(b, k):
    for j in range(k):
        b.increment(1.0)
    return b.size

@njit
def swap(b, n):
    b.array = np.ones(n, dtype=np.float32)
    return Bag(n).array.sum() + b.size
]]

describe("@jitclass", function()
  local m = lumba.load(BAG)

  it("runs Numba's Bag example from Lua, as Python runs the class", function()
    local want, out = H.jitclass_python(BAG, [[
b = Bag(21)
print(b.value, b.size)
b.value = 3
a = b.increment(3)
print(b.value, float(a.sum()), float(b.array[20]), b.size)
c = make(4, 2.5)
print(c.value, float(total(c)), bump_all(c, 2), float(c.array[0]))
]])
    assert(#want == 10, out)
    local B = m.Bag
    local b = B(21)
    local got = { b.value, b.size }
    b.value = 3
    local a = b:increment(3)
    got[#got + 1] = b.value
    got[#got + 1] = a:sum()
    got[#got + 1] = b.array[21]
    got[#got + 1] = b.size
    local c = m.make(4, 2.5)
    got[#got + 1] = c.value
    got[#got + 1] = m.total(c)
    got[#got + 1] = m.bump_all(c, 2)
    got[#got + 1] = c.array[1]
    assert.are.same(want, got)
    assert.are.equal("int32", math.type(b.value) == "integer" and "int32" or "?")
    assert.are.equal("float32", b.array.dtype)
  end)

  it("shares an array field's memory with Lua", function()
    local b = m.Bag(3)
    local arr = b.array
    arr[2] = 7.5
    assert.are.equal(7.5 + 3, m.total(b))  -- compiled code reads what Lua wrote
    b:increment(1)
    assert.are.same({ 1, 8.5, 1 }, arr:totable())  -- and Lua sees what it wrote
    b.array = lumba.array({ 1, 2, 3, 4 }, "float32")
    assert.are.equal(4, b.size)
    assert.are.equal(10 + 3, m.total(b))
  end)

  it("passes instances to and from compiled functions", function()
    local c = m.make(5, 1.5)
    assert.are.equal("<Bag instance>", tostring(c))
    assert.are.equal(50, c.value)
    assert.are.equal(5 * 1.5 + 50, m.total(c))
    c.value = -1
    assert.are.equal(5 * 1.5 - 1, m.total(c))
    assert.are.equal(tostring(m.Bag), "<jitclass Bag>")
  end)

  it("takes field annotations, defaults and += on fields", function()
    local src = [[
from numba import int64, float64
from numba.experimental import jitclass

@jitclass
class Counter:
    count: int64
    scale: float64

    def __init__(self, scale=2.0):
        self.count = 0
        self.scale = scale

    def add(self, k):
        self.count += k
        return self.count * self.scale
]]
    local want = H.jitclass_python(src, "c = Counter()\nprint(c.add(3), c.add(4), c.count)\nd = Counter(0.5)\nprint(d.add(1))")
    local cm = lumba.load(src)
    local c = cm.Counter()
    local d = cm.Counter(0.5)
    assert.are.same(want, { c:add(3), c:add(4), c.count, d:add(1) })
  end)

  it("frees every instance and the arrays it holds (NRT)", function()
    local before = H.live_meminfos()
    for _ = 1, 50 do
      local b = m.Bag(8)
      b:increment(1)
      local c = m.make(3, 1)
      m.total(c)
      c.array = b.array
      assert.are.equal(3, m.swap(c, 3))  -- the old array released, a temporary instance too
    end
    local keep = m.make(2, 1)
    assert.are.equal(before + 2, H.live_meminfos())  -- the instance kept and its array
    keep = nil  -- luacheck: ignore
    assert.are.equal(before, H.live_meminfos())
  end)

  describe("instances held by fields of other jitclasses", function()
    local NEST = [[
import numpy as np
from numba import njit, prange, int64, float64
from numba.experimental import jitclass

@jitclass([('v', int64), ('xs', float64[:])])
class Cell:
    def __init__(self, v):
        self.v = v
        self.xs = np.arange(v) * 1.5

@jitclass([('cell', Cell.class_type.instance_type), ('w', float64)])
class Holder:
    def __init__(self, cell):
        self.cell = cell
        self.w = 0.5
    def total(self):
        return self.cell.xs.sum() + self.cell.v * self.w
    def grow(self):
        self.cell = Cell(self.cell.v + 1)
        return self.cell.v

@njit
def build(n):
    h = Holder(Cell(n))
    return h.cell.v, h.total(), h.grow(), h.total()

@njit
def weigh(c, k):
    return c.v * k + c.xs[-1]

@njit(parallel=True)
def spread(h, n):
    out = np.zeros(n)
    for i in prange(n):
        out[i] = weigh(h.cell, i) + h.w
    return out.sum()

@njit
def replace(h, n):
    h.cell = Cell(n)
    return h.cell
]]
    local nm = lumba.load(NEST)

    it("reads, writes and calls through them from Lua and compiled code, as Numba", function()
      local script = [[
print(*build(4))
h = Holder(Cell(3))
print(h.cell.v, h.total(), spread(h, 10))
c = replace(h, 6)
print(c.v, h.cell.v, h.total())
h.cell = Cell(2)
print(h.cell.v, weigh(h.cell, 3))
]]
      local out = oracle.run_python(NEST .. "\n" .. script)
      local want = {}
      for x in out:gmatch("%S+") do want[#want + 1] = tonumber(x) or x end
      assert(#want == 12, out)
      local got = { nm.build(4) }
      local h = nm.Holder(nm.Cell(3))
      got[#got + 1] = h.cell.v
      got[#got + 1] = h:total()
      got[#got + 1] = nm.spread(h, 10)
      local c = nm.replace(h, 6)
      got[#got + 1] = c.v
      got[#got + 1] = h.cell.v
      got[#got + 1] = h:total()
      h.cell = nm.Cell(2)
      got[#got + 1] = h.cell.v
      got[#got + 1] = nm.weigh(h.cell, 3)
      assert.are.same(want, got)
    end)

    it("counts references of nested instances: none left behind", function()
      local before = H.live_meminfos()
      for i = 1, 30 do
        local h = nm.Holder(nm.Cell(i % 5 + 1))
        nm.build(i % 4 + 1)
        nm.replace(h, 3)
        h.cell = nm.Cell(2)
        local c = h.cell
        h.cell = nm.replace(nm.Holder(c), 4)
        nm.spread(h, 4)
      end
      local keep = nm.Holder(nm.Cell(2))
      assert.are.equal(before + 3, H.live_meminfos())  -- the holder, its cell, the cell's array
      keep = nil  -- luacheck: ignore
      assert.are.equal(before, H.live_meminfos())
    end)

    it("names a field never assigned, a wrong instance and a class not defined above", function()
      local bad = lumba.load(NEST .. [[

@jitclass([('w', float64), ('cell', Cell.class_type.instance_type)])
class Lazy:
    def __init__(self):
        self.w = 1.0

@njit
def peek():
    return Lazy().cell.v
]], { chunkname = "=nest.py" })
      collectgarbage()
      local live = lumba._live_meminfos()
      local ok, err = pcall(bad.peek)
      assert.is_false(ok)
      assert.are.equal(live, lumba._live_meminfos())  -- the temporary Lazy() went with the error
      assert.matches("AttributeError: field 'cell' of Lazy was never assigned (it holds no Cell instance)", err, 1, true)
      assert.matches("return Lazy%(%)%.cell%.v", err)
      assert.is_nil(bad.Lazy().cell)  -- from Lua: None
      local h = bad.Holder(bad.Cell(1))
      ok, err = pcall(function() h.cell = bad.Lazy() end)
      assert.is_false(ok)
      assert.matches("cannot set field 'cell' of Holder (Cell) to an instance of Lazy", err, 1, true)
      ok, err = pcall(lumba.load, [[
from numba import int64
from numba.experimental import jitclass

@jitclass([('nxt', Later.class_type.instance_type)])
class First:
    def __init__(self):
        pass

@jitclass([('v', int64)])
class Later:
    def __init__(self):
        self.v = 1
]], { chunkname = "=fwd.py" })
      assert.is_false(ok)
      assert.matches("^fwd%.py:4:1: field 'nxt' of jitclass First: Later is not a jitclass defined above First", err)
    end)
  end)

  it("refuses cache= as Numba's jitclass does; cache=True callers run uncached", function()
    local ok, err = pcall(lumba.load, [[
from numba import int32
from numba.experimental import jitclass

@jitclass([('x', int32)], cache=True)
class P:
    def __init__(self):
        self.x = 1
]], { chunkname = "=c.py" })
    assert.is_false(ok)
    assert.matches("^c%.py:4:1: jitclass%(%) got an unexpected keyword argument 'cache'", err)
    -- @njit(cache=True) code constructing instances runs, uncached, with a warning (Numba caches it)
    local said, warn = {}, lumba.warnings
    lumba.warnings = function(msg) said[#said + 1] = msg end
    local ok2, m3 = pcall(lumba.load, [[
from numba import int32, njit
from numba.experimental import jitclass

@jitclass([('x', int32)])
class Q:
    def __init__(self, x):
        self.x = x

@njit(cache=True)
def make(x):
    return Q(x).x + 1
]])
    local r = ok2 and m3.make(41)
    lumba.warnings = warn
    assert(ok2, tostring(m3))
    assert.are.equal(42, r)
    assert.matches("cache: compiled code is not cached: it constructs jitclass Q instances", table.concat(said, "\n"),
      1, true)
    local m2 = lumba.load([[
from numba import int32
from numba.experimental import jitclass

@jitclass(spec=[('x', int32)])
class P:
    def __init__(self):
        self.x = 7
]])
    assert.are.equal(7, m2.P().x)
  end)

  describe("errors", function()
    it("names an unknown field, a wrong type and a method assigned, at the caller's line", function()
      local b = m.Bag(2)
      local ok, err = pcall(function() return b.nope end)
      assert.is_false(ok)
      assert.matches("jitclass_spec%.lua:%d+: Bag has no field, property or method 'nope'", err)
      ok, err = pcall(function() b.value = 1.5 end)
      assert.matches("jitclass_spec%.lua:%d+: cannot set field 'value' of Bag %(int32%) to the float 1.5", err)
      ok, err = pcall(function() b.array = lumba.zeros(3) end)
      assert.matches("cannot set field 'array' of Bag %(float32%[:%]%) to a float64 array of 1 dimensions", err)
      ok, err = pcall(function() b.size = 3 end)
      assert.matches("Bag has no field 'size' %(a property or method cannot be assigned%)", err)
      assert.are.equal(2, b.value)  -- nothing changed
    end)

    it("names the line of an unknown field or a wrong assignment in compiled code", function()
      local line = select(2, BAG:gsub("\n", "")) + 4  -- the appended def's body
      local bad = lumba.load(BAG .. "\n@njit\ndef peek(b):\n    return b.nothing\n", { chunkname = "=bag.py" })
      local ok, err = pcall(bad.peek, bad.Bag(1))
      assert.is_false(ok)
      assert.matches("^bag%.py:" .. line .. ":12: TypingError: Bag has no field, property or method 'nothing'", err)
      assert.matches("return b%.nothing", err)
      bad = lumba.load(BAG .. "\n@njit\ndef put(b):\n    b.array = 3.0\n", { chunkname = "=bag.py" })
      ok, err = pcall(bad.put, bad.Bag(1))
      assert.matches("^bag%.py:" .. line .. ":5: TypingError: cannot assign float64 to field 'array' of Bag %(float32%[:%]%)", err)
    end)

    it("rejects a bad spec, naming its line", function()
      local function load_err(spec)
        return H.jitclass_error("from numba import int32\nfrom numba.experimental import jitclass\n", spec)
      end
      assert.matches("^p%.py:4:1: the spec of jitclass P must be a list", load_err("42"))
      assert.matches("^p%.py:4:1: each entry of the spec of jitclass P must be a %('name', type%) pair",
        load_err("[('x',)]"))
      assert.matches("^p%.py:4:1: @jitclass P: the type of field 'x' of P: unknown type 'int33'",
        load_err("[('x', int33)]"))
      assert.matches("field 'x' appears twice", load_err("[('x', int32), ('x', int32)]"))
      local ok, err = pcall(lumba.load, "from numba.experimental import jitclass\n@jitclass\ndef f():\n    pass\n",
        { chunkname = "=q.py" })
      assert.is_false(ok)
      assert.are.equal("q.py:2:1: @jitclass must decorate a class", err)
    end)
  end)
end)
