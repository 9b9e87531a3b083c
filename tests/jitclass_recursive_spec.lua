-- @jitclass classes that recurse (issue 21, item 5, where the issue is
-- silent: as Numba, or as Python where Numba 0.56.4 cannot): methods that
-- call themselves through optional(node_type) children (a binary search
-- tree: insert, size, depth, whose return types come from their
-- non-recursive returns), two deferred_type classes holding each other, and
-- `a is b` between instances. Numba 0.56.4 refuses recursive jitclass
-- methods ("compiler re-entrant") and has no `is` for instances, so the
-- oracle is the same module run as plain Python (numba's names shimmed).
local lumba = require "lumba"
local H = require "helpers"

local function py(b) return b and "True" or "False" end

describe("@jitclass methods recursing on their own class", function()
  local TREE = [[
from numba import int64, njit, deferred_type, optional
from numba.experimental import jitclass

tree_type = deferred_type()

@jitclass([('key', int64), ('left', optional(tree_type)), ('right', optional(tree_type))])
class Tree:
    def __init__(self, key):
        self.key = key
        self.left = None
        self.right = None

    def insert(self, k):
        if k < self.key:
            if self.left is None:
                self.left = Tree(k)
            else:
                self.left.insert(k)
        else:
            if self.right is None:
                self.right = Tree(k)
            else:
                self.right.insert(k)

    def size(self):
        n = 1
        if self.left is not None:
            n += self.left.size()
        if self.right is not None:
            n += self.right.size()
        return n

    def depth(self):
        dl = 0
        dr = 0
        if self.left is not None:
            dl = self.left.depth()
        if self.right is not None:
            dr = self.right.depth()
        return 1 + max(dl, dr)

    def total(self):
        if self.left is None and self.right is None:
            return self.key
        s = self.key
        if self.left is not None:
            s += self.left.total()
        if self.right is not None:
            s += self.right.total()
        return s

    def find(self, k):
        if k == self.key:
            return self
        nxt = self.left if k < self.key else self.right
        if nxt is None:
            return None
        return nxt.find(k)

tree_type.define(Tree.class_type.instance_type)

@njit
def build(keys):
    t = Tree(keys[0])
    for i in range(1, keys.size):
        t.insert(keys[i])
    return t

@njit
def stats(keys):
    t = build(keys)
    return t.size(), t.depth(), t.total()

@njit
def missing_child_depth(t):
    return t.left.depth()
]]
  local m = lumba.load(TREE, { chunkname = "=rtree.py" })

  it("inserts, sizes, measures and finds recursively, as Python does", function()
    local want, out = H.jitclass_python(TREE, [[
import numpy as np
t = build(np.array([5, 3, 8, 1, 4, 9, 7, 2, 6]))
print(t.size(), t.depth(), t.total(), *stats(np.array([10, 20, 30, 40, 5])))
t.insert(11)
print(t.size(), t.depth(), t.right.right.right.key, t.find(4).key, t.find(12) is None)
]])
    assert(#want == 11, out)
    local t = m.build(lumba.array({ 5, 3, 8, 1, 4, 9, 7, 2, 6 }, "int64"))
    local got = { t:size(), t:depth(), t:total() }
    for _, v in ipairs({ m.stats(lumba.array({ 10, 20, 30, 40, 5 }, "int64")) }) do got[#got + 1] = v end
    t:insert(11)
    got[#got + 1] = t:size()
    got[#got + 1] = t:depth()
    got[#got + 1] = t.right.right.right.key
    got[#got + 1] = t:find(4).key
    got[#got + 1] = py(t:find(12) == nil)
    assert.are.same(want, got)
    assert.are.equal("int64", math.type(t:depth()) == "integer" and "int64" or "?")
  end)

  it("raises a clear error, with its place, on a method of a None child", function()
    local ok, err = pcall(m.missing_child_depth, m.Tree(1))
    assert.is_false(ok)
    assert.matches("AttributeError: 'NoneType' object has no attribute 'depth'", err, 1, true)
    assert.matches("rtree%.py:76:%d+", err)
  end)

  it("frees every node of a tree built by recursive inserts", function()
    assert.are.equal(0, H.live_after(function()
      local keys = {}
      for i = 1, 300 do keys[i] = (i * 7919) % 1009 end
      local t = m.build(lumba.array(keys, "int64"))
      assert.are.equal(300, t:size())
      pcall(m.missing_child_depth, m.Tree(1))
    end))
  end)
end)

describe("@jitclass mutually recursive deferred_type classes", function()
  local PAIR = [[
from numba import int64, njit, deferred_type, optional
from numba.experimental import jitclass

owner_type = deferred_type()
pet_type = deferred_type()

@jitclass([('age', int64), ('pet', optional(pet_type))])
class Owner:
    def __init__(self, age):
        self.age = age
        self.pet = None

    def pet_legs(self):
        if self.pet is None:
            return 0
        return self.pet.legs

@jitclass([('legs', int64), ('owner', optional(owner_type))])
class Pet:
    def __init__(self, legs):
        self.legs = legs
        self.owner = None

    def owner_age(self):
        return self.owner.age

owner_type.define(Owner.class_type.instance_type)
pet_type.define(Pet.class_type.instance_type)

@njit
def adopt(age, legs):
    o = Owner(age)
    p = Pet(legs)
    o.pet = p
    p.owner = o
    return o

@njit
def round_trip(o):
    return o.pet.owner.age + o.pet.legs + o.pet.owner_age()

@njit
def unlink(o):
    p = o.pet
    o.pet = None
    p.owner = None
    return p

@njit
def same(a, b):
    return a is b, a is not b

@njit
def back_is_self(o):
    return o.pet.owner is o, o.pet.owner is not o

@njit
def pet_is_none(o):
    return o.pet is None, o.pet is not None
]]
  local m = lumba.load(PAIR, { chunkname = "=pair.py" })

  it("links two classes both ways, in compiled code and from Lua, as Python does", function()
    local want, out = H.jitclass_python(PAIR, [[
o = adopt(30, 4)
print(round_trip(o), o.pet.owner.age, o.pet.legs, o.pet_legs(), o.pet.owner_age())
p = Pet(3)
o2 = Owner(41)
o2.pet = p
p.owner = o2
print(round_trip(o2), o2.pet_legs())
q = unlink(o)
print(q.owner is None, o.pet is None, o.pet_legs(), q.legs)
p.owner = None
]])
    assert(#want == 11, out)
    local o = m.adopt(30, 4)
    local got = { m.round_trip(o), o.pet.owner.age, o.pet.legs, o:pet_legs(), o.pet:owner_age() }
    local p = m.Pet(3)
    local o2 = m.Owner(41)
    o2.pet = p
    p.owner = o2
    got[#got + 1] = m.round_trip(o2)
    got[#got + 1] = o2:pet_legs()
    local q = m.unlink(o)
    got[#got + 1] = py(q.owner == nil)
    got[#got + 1] = py(o.pet == nil)
    got[#got + 1] = o:pet_legs()
    got[#got + 1] = q.legs
    p.owner = nil  -- the cycle broken: both freed
    assert.are.same(want, got)
  end)

  it("refuses an instance of the other class for a field", function()
    local o = m.Owner(1)
    local ok, err = pcall(function() o.pet = m.Owner(2) end)
    assert.is_false(ok)
    assert.matches("cannot set field 'pet' of Owner (Pet)", err, 1, true)
  end)

  it("frees both once the cycle is broken", function()
    assert.are.equal(0, H.live_after(function()
      for _ = 1, 50 do
        local o = m.adopt(1, 2)
        assert.are.equal(1 + 2 + 1, m.round_trip(o))
        m.unlink(o)
      end
    end))
  end)

  it("compares instances by identity (`is`, `is not`), None included, as Python does", function()
    local want, out = H.jitclass_python(PAIR, [[
o = adopt(30, 4)
o2 = adopt(30, 4)
print(*same(o, o), *same(o, o2), *same(o.pet, o.pet), *back_is_self(o), *pet_is_none(o))
print(*same(o, None), *same(None, o), *same(None, None))
q = unlink(o)
print(*pet_is_none(o), *same(q, q), *same(q.owner, None))
unlink(o2)
]])
    assert(#want == 22, out)
    local o, o2 = m.adopt(30, 4), m.adopt(30, 4)
    local vals = {}
    local function add(...) for _, v in ipairs({ ... }) do vals[#vals + 1] = py(v) end end
    add(m.same(o, o))
    add(m.same(o, o2))
    add(m.same(o.pet, o.pet))
    add(m.back_is_self(o))
    add(m.pet_is_none(o))
    add(m.same(o, nil))
    add(m.same(nil, o))
    add(m.same(nil, nil))
    local q = m.unlink(o)
    add(m.pet_is_none(o))
    add(m.same(q, q))
    add(m.same(q.owner, nil))
    m.unlink(o2)
    assert.are.same(want, vals)
  end)
end)
