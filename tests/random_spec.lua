-- lumba.random: the documented generator (random.c), checked number for
-- number against a plain-Lua implementation of the same algorithms, which
-- is itself checked against the published test vectors of splitmix64 and
-- xoshiro256**.
local lumba = require "lumba"
local random = lumba.random

-- ---- the reference, in plain Lua (integers wrap at 64 bits, >> is logical) ----
local function splitmix64(x)
  x = x + 0x9e3779b97f4a7c15
  local z = x
  z = (z ~ (z >> 30)) * 0xbf58476d1ce4e5b9
  z = (z ~ (z >> 27)) * 0x94d049bb133111eb
  return x, z ~ (z >> 31)
end

local function rotl(v, k) return (v << k) | (v >> (64 - k)) end

local Ref = {}
Ref.__index = Ref

function Ref.from_state(s) return setmetatable({s = {s[1], s[2], s[3], s[4]}}, Ref) end

function Ref.seeded(n)
  local s, z = {}, nil
  for i = 1, 4 do n, z = splitmix64(n); s[i] = z end
  return Ref.from_state(s)
end

function Ref:next()
  local s = self.s
  local r = rotl(s[2] * 5, 7) * 9
  local t = s[2] << 17
  s[3] = s[3] ~ s[1]
  s[4] = s[4] ~ s[2]
  s[2] = s[2] ~ s[3]
  s[1] = s[1] ~ s[4]
  s[3] = s[3] ~ t
  s[4] = rotl(s[4], 45)
  return r
end

function Ref:uniform() return (self:next() >> 11) * 2.0 ^ -53 end

function Ref:bounded(n)
  local mask = n - 1
  for _, k in ipairs({1, 2, 4, 8, 16, 32}) do mask = mask | (mask >> k) end
  local x
  repeat x = self:next() & mask until math.ult(x, n)
  return x
end

function Ref:normal()
  if self.spare then
    local v = self.spare
    self.spare = nil
    return v
  end
  local u, v, s
  repeat
    u = 2 * self:uniform() - 1
    v = 2 * self:uniform() - 1
    s = u * u + v * v
  until s < 1 and s ~= 0
  local f = math.sqrt(-2 * math.log(s) / s)
  self.spare = v * f
  return u * f
end

local function collect(n, f)
  local t = {}
  for i = 1, n do t[i] = f() end
  return t
end

describe("lumba.random", function()
  it("the reference matches the published test vectors", function()
    local x, z, got = 1234567, nil, {}
    for i = 1, 5 do x, z = splitmix64(x); got[i] = z end
    assert.are.same({6457827717110365317, 3203168211198807973, 0x883ebce5a3f27c77,
                     4593380528125082431, 0xe3b8346708cb5ecd}, got)
    local r = Ref.from_state({1, 2, 3, 4})
    assert.are.same({11520, 0, 1509978240, 1215971899390074240},
                    collect(4, function() return r:next() end))
  end)

  it("rand gives the generator's uniforms in [0, 1)", function()
    random.seed(42)
    local a = random.rand(5)
    local ref = Ref.seeded(42)
    assert.are.same(collect(5, function() return ref:uniform() end), a:totable())
    assert.are.equal("float64", a.dtype)
  end)

  it("the same seed gives the same numbers, another seed others", function()
    random.seed(2024)
    local a = random.rand(4):totable()
    random.seed(2024)
    assert.are.same(a, random.rand(4):totable())
    random.seed(2025)
    assert.are_not.same(a, random.rand(4):totable())
  end)

  it("rand() is one number, rand(d1, d2) or rand({d1, d2}) a C-order array", function()
    random.seed(7)
    local ref = Ref.seeded(7)
    assert.are.equal(ref:uniform(), random.rand())
    local m = random.rand(2, 3)
    assert.are.same({2, 3}, m.shape)
    local want = collect(6, function() return ref:uniform() end)
    assert.are.same({{want[1], want[2], want[3]}, {want[4], want[5], want[6]}}, m:totable())
    assert.are.same({3, 1}, random.rand({3, 1}).shape)
  end)

  it("randn uses the polar method and keeps the second normal", function()
    random.seed(1)
    local ref = Ref.seeded(1)
    assert.are.same(collect(5, function() return ref:normal() end), random.randn(5):totable())
    -- the spare normal carries across calls: 3 + 2 draws equal 5
    random.seed(3)
    local parts = {}
    for _, v in ipairs(random.randn(3):totable()) do parts[#parts + 1] = v end
    for _, v in ipairs(random.randn(2):totable()) do parts[#parts + 1] = v end
    random.seed(3)
    assert.are.same(random.randn(5):totable(), parts)
    assert.are.same({2, 2}, random.randn(2, 2).shape)
    random.seed(9)
    assert.are.equal(Ref.seeded(9):normal(), random.randn())
  end)

  it("randint draws from [low, high) without bias", function()
    random.seed(5)
    local ref = Ref.seeded(5)
    local a = random.randint(-3, 4, 1000)
    assert.are.equal("int64", a.dtype)
    local want = collect(1000, function() return -3 + ref:bounded(7) end)
    assert.are.same(want, a:totable())
    local seen = {}
    for _, v in ipairs(want) do seen[v] = true end
    for v = -3, 3 do assert.is_true(seen[v], "value " .. v .. " drawn") end
    assert.is_nil(seen[4])
    -- one number without a shape; low defaults to 0
    random.seed(11)
    ref = Ref.seeded(11)
    assert.are.equal(ref:bounded(10), random.randint(10))
    assert.are.equal(5 + ref:bounded(3), random.randint(5, 8))
    local b = random.randint(0, 256, {2, 2}, "uint8")
    assert.are.equal("uint8", b.dtype)
    assert.are.same({2, 2}, b.shape)
    -- the whole int64 range: high - low is 2^64 - 1, which Lua writes -1
    random.seed(12)
    ref = Ref.seeded(12)
    assert.are.equal(math.mininteger + ref:bounded(-1), random.randint(math.mininteger, math.maxinteger))
  end)

  it("choice picks elements of a table or a 1-D array", function()
    random.seed(99)
    local ref = Ref.seeded(99)
    local spins = random.choice({-1, 1}, {4, 5})
    assert.are.same({4, 5}, spins.shape)
    assert.are.equal("int64", spins.dtype)
    local want = collect(20, function() return ({-1, 1})[ref:bounded(2) + 1] end)
    local got = {}
    for _, row in ipairs(spins:totable()) do
      for _, v in ipairs(row) do got[#got + 1] = v end
    end
    assert.are.same(want, got)
    -- the Ising seed's setup: spins as float64
    assert.are.equal("float64", random.choice({-1, 1}, {3, 3}):astype("float64").dtype)
    local src = lumba.array({0.5, 1.5, 2.5}, "float32")
    random.seed(4)
    ref = Ref.seeded(4)
    assert.are.equal(({0.5, 1.5, 2.5})[ref:bounded(3) + 1], random.choice(src))
    assert.are.equal("float32", random.choice(src, 2).dtype)
    -- a strided view is read through its strides
    random.seed(6)
    ref = Ref.seeded(6)
    local col = lumba.arange(6):reshape(3, 2):slice({}, 2)  -- 1, 3, 5
    assert.are.same(collect(4, function() return 2 * ref:bounded(3) + 1 end), random.choice(col, 4):totable())
  end)

  it("seeded uniforms and normals have the expected moments", function()
    random.seed(123)
    local u = random.rand(20000)
    assert.is_true(math.abs(u:sum() / 20000 - 0.5) < 0.01)
    assert.is_true(u:min() >= 0 and u:max() < 1)
    local n = random.randn(20000):totable()
    local s, s2 = 0, 0
    for _, v in ipairs(n) do s, s2 = s + v, s2 + v * v end
    assert.is_true(math.abs(s / 20000) < 0.03)
    assert.is_true(math.abs(s2 / 20000 - 1) < 0.05)
  end)

  describe("errors", function()
    local function raises(expected, f)
      local ok, e = pcall(f)
      assert.is_false(ok)
      assert.are.equal(expected, (tostring(e):gsub("^[^\n]-_spec%.lua:%d+: ", "", 1)))
      assert.are.equal(3, random.randint(3, 4))  -- the state still works
    end

    it("reports bad arguments", function()
      raises("bad argument #2 to 'randint' (empty range [5, 5): low must be less than high)",
             function() return random.randint(5, 5) end)
      raises("bad argument #1 to 'randint' (empty range [0, 0): low must be less than high)",
             function() return random.randint(0) end)
      raises("bad argument #2 to 'randint' (value 299 out of bounds for uint8)",
             function() return random.randint(0, 300, 3, "uint8") end)
      raises("bad argument #1 to 'choice' (cannot choose from an empty sequence)",
             function() return random.choice({}) end)
      raises("bad argument #1 to 'choice' (a 1-D array or table expected)",
             function() return random.choice(lumba.zeros({2, 2})) end)
      raises("bad argument #1 to 'choice' (table of numbers or booleans expected)",
             function() return random.choice({"a", "b"}) end)
      raises("bad argument #1 to 'choice' (table or array expected, got number)",
             function() return random.choice(3) end)
      raises("bad argument #1 to 'rand' (negative dimensions are not allowed)",
             function() return random.rand(-1) end)
      raises("bad argument #1 to 'seed' (number has no integer representation)",
             function() return random.seed(0.5) end)
    end)
  end)
end)
