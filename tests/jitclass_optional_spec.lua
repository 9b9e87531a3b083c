-- @jitclass spec types beyond numbers and arrays (issue 21, item 5):
-- deferred_type() with optional(node_type) (Numba's linked-list pattern, a
-- nullable reference), optional(float64)/optional(int64) numbers, and
-- UniTuple/Tuple fields of numbers. Values are checked against the same
-- module run as plain Python (numba's names shimmed away); instances are
-- reference counted (no MemInfo left behind, however long the list).
local lumba = require "lumba"
local H = require "helpers"

local LIST = [[
from numba import int64, njit, deferred_type, optional
from numba.experimental import jitclass

node_type = deferred_type()

spec = [('data', int64), ('next', optional(node_type))]

@jitclass(spec)
class LinkedNode:
    def __init__(self, data, next):
        self.data = data
        self.next = next

    def prepend(self, data):
        return LinkedNode(data, self)

node_type.define(LinkedNode.class_type.instance_type)

@njit
def make_list(n):
    head = LinkedNode(0, None)
    for i in range(1, n):
        head = LinkedNode(i * i, head)
    return head

@njit
def total(head):
    s = 0
    cur = head
    while cur is not None:
        s += cur.data
        cur = cur.next
    return s

@njit
def length(head):
    n = 0
    while head is not None:
        n += 1
        head = head.next
    return n

@njit
def cut_after(head, k):
    cur = head
    for i in range(k - 1):
        cur = cur.next
    cur.next = None
    return head

@njit
def second_data(head):
    return head.next.data

@njit
def last_or_none(head):
    found = None
    cur = head
    while cur is not None:
        if cur.next is None:
            found = cur
        cur = cur.next
    return found

@njit
def prepend_to_next(head, v):
    return head.next.prepend(v)
]]

describe("@jitclass deferred_type and optional(node_type)", function()
  local m = lumba.load(LIST, { chunkname = "=list.py" })

  it("builds a linked list in compiled code and walks it from Lua, as Python does", function()
    local want, out = H.jitclass_python(LIST, [[
h = make_list(6)
print(total(h), length(h), second_data(h), last_or_none(h).data)
vals = []
while h is not None:
    vals.append(h.data)
    h = h.next
print(*vals)
h = cut_after(make_list(6), 2)
print(length(h), total(h), last_or_none(None) is None)
]])
    assert(#want == 13, out)
    local h = m.make_list(6)
    local got = { m.total(h), m.length(h), m.second_data(h), m.last_or_none(h).data }
    local cur = h
    while cur ~= nil do
      got[#got + 1] = cur.data
      cur = cur.next
    end
    h = m.cut_after(m.make_list(6), 2)
    got[#got + 1] = m.length(h)
    got[#got + 1] = m.total(h)
    got[#got + 1] = "True"
    assert.are.same(want, got)
    assert.is_nil(m.make_list(1).next)  -- None reads as nil
  end)

  it("builds a list from Lua and walks it in compiled code", function()
    local tail = m.LinkedNode(5, m.make_list(1))
    tail.next = nil  -- nil writes None
    assert.is_nil(tail.next)
    local mid = m.LinkedNode(7, tail)
    local head = mid:prepend(11)
    assert.are.equal(3, m.length(head))
    assert.are.equal(11 + 7 + 5, m.total(head))
    assert.are.equal(tail.data, m.last_or_none(head).data)
    head.next.next = m.make_list(3)  -- an instance written from Lua: 11, 7, 4, 1, 0
    assert.are.equal(11 + 7 + 4 + 1 + 0, m.total(head))
    assert.are.equal(5, m.length(head))
  end)

  it("raises a clear error, with its place, on a field read through None", function()
    local ok, err = pcall(m.second_data, m.make_list(1))
    assert.is_false(ok)
    assert.matches("AttributeError: 'NoneType' object has no attribute 'data' (a LinkedNode instance was expected)",
      err, 1, true)
    assert.matches("list%.py:53:%d+", err)
    ok, err = pcall(m.cut_after, m.make_list(2), 4)  -- cur.next = None with cur None
    assert.is_false(ok)
    assert.matches("'NoneType' object has no attribute 'next'", err, 1, true)
    assert.matches("list%.py:47:%d+", err)
    ok, err = pcall(m.prepend_to_next, m.make_list(1), 5)  -- a method of None
    assert.is_false(ok)
    assert.matches("AttributeError: 'NoneType' object has no attribute 'prepend' (a LinkedNode instance was expected)",
      err, 1, true)
    assert.matches("list%.py:67:%d+", err)
    assert.are.equal(7, m.prepend_to_next(m.make_list(2), 7).data)
  end)

  it("frees every node, a long list without deep recursion, errors included", function()
    assert.are.equal(0, H.live_after(function()
      local h = m.make_list(200000)
      assert.are.equal(200000, m.length(h))
      h = m.cut_after(h, 10)
      assert.are.equal(10, m.length(h))
      local a = m.LinkedNode(1, h)
      a.next = nil
      a.next = m.make_list(100000)
      pcall(m.second_data, m.make_list(1))
    end))
  end)

  it("refuses the wrong values for an optional instance field", function()
    local n = m.LinkedNode(1, m.make_list(1))
    local ok, err = pcall(function() n.next = 3 end)
    assert.is_false(ok)
    assert.matches("cannot set field 'next' of LinkedNode (LinkedNode) to number", err, 1, true)
  end)
end)

describe("@jitclass a tree of optional(node_type) children", function()
  local TREE = [[
from numba import int64, float64, deferred_type, optional, njit
from numba.experimental import jitclass

tree_type = deferred_type()

@jitclass([('key', int64), ('left', optional(tree_type)), ('right', optional(tree_type))])
class Tree:
    def __init__(self, key):
        self.key = key
        self.left = None
        self.right = None

    def insert(self, k):
        t = self
        while True:
            if k < t.key:
                if t.left is None:
                    t.left = Tree(k)
                    return
                t = t.left
            else:
                if t.right is None:
                    t.right = Tree(k)
                    return
                t = t.right

tree_type.define(Tree.class_type.instance_type)

@njit
def find(t, k):
    while t is not None:
        if t.key == k:
            return t
        t = t.left if k < t.key else t.right
    return None

@njit
def depth(t):
    if t is None:
        return 0
    return 1 + max(depth(t.left), depth(t.right))

@njit
def build(keys):
    t = Tree(keys[0])
    for i in range(1, keys.size):
        t.insert(keys[i])
    return t
]]
  local m = lumba.load(TREE, { chunkname = "=tree.py" })

  it("inserts, finds (None when absent) and recurses, as Python does", function()
    local want, out = H.jitclass_python(TREE, [[
import numpy as np
t = build(np.array([5, 3, 8, 1, 4, 9, 7, 2]))
print(find(t, 4).key, find(t, 6) is None, depth(t), t.left.right.key, t.right.left.key)
t.insert(6)
print(depth(t), find(t, 6).key)
]])
    assert(#want == 7, out)
    local t = m.build(lumba.array({ 5, 3, 8, 1, 4, 9, 7, 2 }, "int64"))
    local got = { m.find(t, 4).key, m.find(t, 6) == nil and "True" or "False", m.depth(t), t.left.right.key,
      t.right.left.key }
    t:insert(6)
    got[#got + 1] = m.depth(t)
    got[#got + 1] = m.find(t, 6).key
    assert.are.same(want, got)
  end)
end)

describe("@jitclass optional numbers", function()
  local MAYBE = [[
from numba import int64, float64, njit, optional
from numba.experimental import jitclass

@jitclass([('value', optional(float64)), ('count', optional(int64)), ('w', float64)])
class Maybe:
    def __init__(self, w):
        self.value = None
        self.count = 3
        self.w = w

    def get_or(self, d):
        if self.value is None:
            return d
        return self.value * self.w

    def clear(self):
        self.value = None
        self.count = None

    def has_count(self):
        return self.count is not None

@njit
def use(x):
    m = Maybe(2.0)
    a = m.get_or(x)
    m.value = x + 1
    b = m.get_or(0.0)
    c = m.count + 1
    m.clear()
    return a + b + c + m.get_or(-1.0)

@njit
def bump(m):
    return m.count + 1
]]
  local m = lumba.load(MAYBE, { chunkname = "=maybe.py" })

  it("holds None or a number, in compiled code and from Lua, as Python does", function()
    local want, out = H.jitclass_python(MAYBE, [[
x = Maybe(0.5)
print(x.value is None, x.count, x.get_or(9.0), x.has_count())
x.value = 4.0
print(x.get_or(9.0), use(1.5))
x.clear()
print(x.value is None, x.count is None, x.has_count())
]])
    assert(#want == 9, out)
    local x = m.Maybe(0.5)
    local got = { x.value == nil and "True" or "False", x.count, x:get_or(9.0), x:has_count() and "True" or "False" }
    x.value = 4.0
    got[#got + 1] = x:get_or(9.0)
    got[#got + 1] = m.use(1.5)
    x:clear()
    got[#got + 1] = x.value == nil and "True" or "False"
    got[#got + 1] = x.count == nil and "True" or "False"
    got[#got + 1] = x:has_count() and "True" or "False"
    assert.are.same(want, got)
    x.count = 41  -- nil and numbers both ways
    assert.are.equal(42, m.bump(x))
    x.count = nil
    assert.is_nil(x.count)
  end)

  it("raises a clear error on an optional number used while None", function()
    local x = m.Maybe(1.0)
    x.count = nil
    local ok, err = pcall(m.bump, x)
    assert.is_false(ok)
    assert.matches("TypeError: field 'count' of Maybe is None", err, 1, true)
    assert.matches("maybe%.py:35:%d+", err)
    ok, err = pcall(function() x.count = 1.5 end)
    assert.is_false(ok)
    assert.matches("cannot set field 'count' of Maybe (int64) to the float 1.5", err, 1, true)
  end)
end)

describe("@jitclass tuple fields", function()
  local PART = [[
from numba import int64, float64, njit
from numba.types import UniTuple, Tuple
from numba.experimental import jitclass

@jitclass([('pos', UniTuple(float64, 3)), ('pair', Tuple((int64, float64))), ('id', int64)])
class Particle:
    def __init__(self, x, y, z):
        self.pos = (x, y, z)
        self.pair = (1, 2.5)
        self.id = 7

    def norm2(self):
        p = self.pos
        return p[0] * p[0] + p[1] * p[1] + p[2] * p[2]

    def shift(self, d):
        x, y, z = self.pos
        self.pos = (x + d, y + d, z + d)
        a, b = self.pair
        self.pair = (a + 1, b * 2)

@njit
def moved(d):
    p = Particle(1.0, 2.0, 3.0)
    p.shift(d)
    return p.pos
]]
  local m = lumba.load(PART, { chunkname = "=part.py" })

  it("reads and writes tuples in compiled code and tables from Lua, as Python does", function()
    local want, out = H.jitclass_python(PART, [[
p = Particle(1.0, -2.0, 0.5)
print(*p.pos, *p.pair, p.norm2())
p.shift(1.5)
print(*p.pos, *p.pair, *moved(0.25))
p.pos = (3.0, 4.0, 0.0)
print(p.norm2(), p.id)
]])
    assert(#want == 16, out)
    local p = m.Particle(1.0, -2.0, 0.5)
    local got = {}
    local function add(t) for _, v in ipairs(t) do got[#got + 1] = v end end
    add(p.pos)
    add(p.pair)
    got[#got + 1] = p:norm2()
    p:shift(1.5)
    add(p.pos)
    add(p.pair)
    add({ m.moved(0.25) })  -- a tuple comes back as several values
    p.pos = { 3, 4.0, 0 }
    got[#got + 1] = p:norm2()
    got[#got + 1] = p.id
    assert.are.same(want, got)
    assert.are.equal("integer", math.type(p.pair[1]))
  end)

  it("refuses tables of the wrong length or types, changing nothing", function()
    local p = m.Particle(1.0, 2.0, 3.0)
    local ok, err = pcall(function() p.pos = { 1, 2 } end)
    assert.is_false(ok)
    assert.matches("cannot set field 'pos' of Particle ((float64, float64, float64)) to a table of 2 values "
      .. "(a table of 3 numbers expected)", err, 1, true)
    ok, err = pcall(function() p.pair = { 1.5, 2 } end)
    assert.is_false(ok)
    assert.matches("cannot set field 'pair' of Particle", err, 1, true)
    assert.matches("to the float 1.5 at [1]", err, 1, true)
    assert.are.same({ 1, 2.5 }, p.pair)
    ok, err = pcall(function() p.pos = 3 end)
    assert.is_false(ok)
    assert.matches("to number (a table of 3 numbers expected)", err, 1, true)
  end)
end)

describe("@jitclass spec type errors", function()
  local function load_err(spec, extra)
    return H.jitclass_error("from numba import int64, float64, deferred_type, optional\n"
      .. "from numba.types import UniTuple, Tuple\nfrom numba.experimental import jitclass\n" .. (extra or ""), spec)
  end

  it("names the field and what is wrong", function()
    assert.matches("^p%.py:5:1: field 'n' of jitclass P: nt = deferred_type%(%) is never defined",
      load_err("[('n', optional(nt))]", "nt = deferred_type()"))
    assert.matches("^p%.py:5:1: field 'n' of jitclass P: a class refers to itself through a deferred_type",
      load_err("[('n', optional(P.class_type.instance_type))]"))
    assert.matches("field 'n' of P: optional%(%) takes a number type or a jitclass instance type, not float64%[:%]",
      load_err("[('n', optional(float64[:]))]"))
    assert.matches("field 't' of jitclass P: UniTuple takes an element type and a count",
      load_err("[('t', UniTuple(float64))]"))
    assert.matches("field 't' of jitclass P: Tuple takes a tuple of element types",
      load_err("[('t', Tuple(int64, float64))]"))
    assert.matches("field 't' of jitclass P: optional takes one type",
      load_err("[('t', optional())]"))
  end)
end)
