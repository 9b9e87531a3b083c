-- Results allocated without the zero fill (nrt_alloc_uninit) must still have
-- every element written. Each case runs compiled and in NumPy
-- (tests/numpy_batch.lua); before the compiled call the NRT's buffer cache is
-- filled with freed buffers of the result's size full of 0xAB bytes, so an
-- element the compiled code forgot to write shows as garbage, not as a lucky
-- zero. np.zeros must still come back zeroed from such a buffer.
local lumba = require "lumba"
local batch = require "numpy_batch"

local ITEM = { bool = 1, int8 = 1, uint8 = 1, int16 = 2, uint16 = 2, int32 = 4, uint32 = 4, float32 = 4,
  int64 = 8, uint64 = 8, float64 = 8 }

-- freed buffers of `bytes` bytes, all 0xAB, wait in the NRT cache
local function poison(bytes)
  if bytes == 0 then return end
  local keep = {}
  for i = 1, 4 do keep[i] = lumba.full(bytes, 0xAB, "uint8") end
  keep = nil
  collectgarbage()
  collectgarbage()
end

local function flat(a)
  if a.ndim == 0 then return { a:get() } end
  local f, out = a:copy():reshape(a.size), {}
  for i = 1, a.size do
    local v = f:get(i)
    if type(v) == "boolean" then v = v and 1 or 0 end
    out[i] = v
  end
  return out
end

local function same(p, q)
  if p ~= p then return q ~= q end
  if math.type(p) == "integer" and math.type(q) == "integer" then return p == q end
  return p == q or math.abs(p - q) <= 1e-6 * math.abs(q)  -- float32 results print as float64
end

local PRE = "import numpy as np\nfrom numba import prange\n"

-- src defines f(); python runs it with prange = range
local function check(cases, opts)
  local pc = {}
  for i, c in ipairs(cases) do pc[i] = { inputs = {}, code = "import builtins\nbuiltins.prange = range\n" .. c .. "\nr = f()" } end
  local want = batch.run(pc)
  local bad = {}
  for i, c in ipairs(cases) do
    local w = want[i]
    local why
    if w.error then why = "NumPy raised " .. w.error
    else
      local n = ITEM[w.dtype]
      for _, d in ipairs(w.shape) do n = n * d end
      local f = lumba.njit(opts or {}, PRE .. c)
      poison(n)
      local ok, got = pcall(f)
      if not ok then why = "lumba raised " .. tostring(got)
      elseif got.dtype ~= w.dtype then why = "dtype " .. got.dtype .. ", NumPy " .. w.dtype
      else
        local gv = flat(got)
        if #gv ~= #w.values then why = ("%d items, NumPy %d"):format(#gv, #w.values) end
        for j = 1, #w.values do
          if not why and not same(gv[j], w.values[j]) then
            why = ("item %d: %s, NumPy %s"):format(j, tostring(gv[j]), tostring(w.values[j]))
          end
        end
      end
    end
    if why then bad[#bad + 1] = c:gsub("\n", " | ") .. ": " .. why end
  end
  assert(#bad == 0, table.concat(bad, "\n"))
end

-- a 64 x 64 float64 input (32 KiB: the size the NRT cache keeps)
local A = "    a = np.arange(4096.0).reshape(64, 64)\n"

describe("results allocated without zeroing, every element written", function()
  if not batch.available() then
    pending("[needs /usr/bin/python3 with NumPy]")
    return
  end

  it("the poisoned cache reaches a new np.empty (so the checks below can see a missed write)", function()
    local f = lumba.njit(PRE .. "def f(n):\n    return np.empty(n, np.uint8)\n")
    poison(1 << 15)
    local e, hits = f(1 << 15), 0
    for i = 1, e.size do if e:get(i) == 0xAB then hits = hits + 1 end end
    assert.are.equal(e.size, hits)
  end)

  it("np.zeros stays zero and np.empty then filled holds what was written", function()
    check {
      "def f():\n    return np.zeros(4096)\n",
      "def f():\n    return np.zeros_like(np.ones((64, 64), np.int64))\n",
      "def f():\n    e = np.empty((64, 64))\n    for i in range(64):\n        for j in range(64):\n            e[i, j] = i * j\n    return e\n",
      "def f():\n    e = np.empty(4096)\n    e[:] = 3.5\n    return e\n",
      "def f():\n    e = np.empty_like(np.ones(4096))\n    e.fill(-2.0)\n    return e\n",
      "def f():\n    return np.ones((64, 64), np.float32)\n",
      "def f():\n    return np.full(4096, 2.5)\n",
      "def f():\n    return np.arange(4096)\n",
      "def f():\n    return np.linspace(0.0, 1.0, 4096)\n",
    }
  end)

  it("array expressions", function()
    check {
      "def f():\n" .. A .. "    return a * 2.0 + 1.0\n",
      "def f():\n    return np.arange(4096) % 7 - 3\n",
      "def f():\n" .. A .. "    return np.sqrt(a) - a.T\n",
      "def f():\n" .. A .. "    return a > 100.0\n",
      "def f():\n" .. A .. "    return a[::2, 1::2] * a[1::2, ::2]\n",
    }
  end)

  it("fancy indexing, np.where and np.nonzero", function()
    check {
      "def f():\n" .. A .. "    return a.ravel()[np.arange(4095, -1, -1)]\n",
      "def f():\n" .. A .. "    return a[:, np.arange(63, -1, -1)]\n",
      "def f():\n    b = np.arange(4096.0)\n    return b[b % 3 != 1]\n",
      "def f():\n" .. A .. "    return np.where(a > 2000.0, a, -a)\n",
      "def f():\n    return np.nonzero(np.arange(8192) % 2)[0]\n",
      "def f():\n    return np.argwhere(np.arange(8192).reshape(64, 128) % 2 == 0)\n",
    }
  end)

  it("concatenate, stack, roll, repeat, tile, diff", function()
    check {
      "def f():\n" .. A .. "    return np.concatenate((a, a + 1.0))\n",
      "def f():\n" .. A .. "    return np.concatenate((a, a * 2.0), axis=1)\n",
      "def f():\n" .. A .. "    return np.stack((a, -a))\n",
      "def f():\n" .. A .. "    return np.roll(a, 5)\n",
      "def f():\n" .. A .. "    return np.roll(a, -3, 1)\n",
      "def f():\n" .. A .. "    return np.repeat(a, 2)\n",
      "def f():\n" .. A .. "    return np.tile(a, 2)\n",
      "def f():\n    return np.diff(np.arange(4097.0) ** 2)\n",
    }
  end)

  it("copies, astype and reshape of a non-contiguous array", function()
    check {
      "def f():\n" .. A .. "    return a.T.copy()\n",
      "def f():\n" .. A .. "    return a.astype(np.float32)\n",
      "def f():\n" .. A .. "    return np.copy(a[:, ::-1])\n",
      "def f():\n    b = np.arange(8192.0).reshape(64, 128)\n    return b[:, ::2].ravel()\n",
      "def f():\n    b = np.arange(8192.0).reshape(64, 128)\n    return b[:, ::2].flatten()\n",
      "def f():\n" .. A .. "    return np.ascontiguousarray(a.T)\n",
    }
  end)

  it("stores through a temporary when source and target overlap", function()
    check {
      "def f():\n    b = np.arange(4096.0)\n    b[1:] = b[:-1] + 1.0\n    return b\n",
      "def f():\n    b = np.arange(4096.0)\n    b += b[::-1]\n    return b\n",
      "def f():\n" .. A .. "    a[:, :] = a.T * 2.0\n    return a\n",
    }
  end)

  it("parallel array expressions and prange array reductions", function()
    check({
      "def f():\n" .. A .. "    return a * 3.0 - 1.0\n",
      "def f():\n" .. A .. "    s = np.zeros(64)\n    for i in prange(64):\n        s += a[i]\n    return s\n",
      "def f():\n" .. A .. "    s = np.ones(64)\n    for i in prange(64):\n        s *= a[i] * 0.0 + 1.5\n    return s\n",
    }, { parallel = true })
  end)

  it("np.random fills every element", function()
    local f = lumba.njit(PRE .. [[
def f(n):
    np.random.seed(3)
    return (np.random.random(n), np.random.normal(0.0, 1.0, n), np.random.randint(0, 10, n),
            np.random.permutation(n), np.random.permutation(np.arange(n)), np.random.choice(n, n, False),
            np.random.multinomial(20, np.array([0.5, 0.25, 0.25]), n), np.random.uniform(2.0, 3.0, (64, 64)),
            np.random.choice(np.arange(n) + 0.5, n))
]])
    poison(4096 * 8)
    local u, g, ri, p, pa, ch, mn, un, ca = f(4096)
    local function each(a, ok)
      for _, v in ipairs(flat(a)) do
        if not ok(v) then return v end
      end
    end
    assert.is_nil(each(u, function(v) return v >= 0 and v < 1 end))
    assert.is_nil(each(g, function(v) return v == v and math.abs(v) < 10 end))
    assert.is_nil(each(ri, function(v) return v >= 0 and v < 10 end))
    assert.is_nil(each(un, function(v) return v >= 2 and v < 3 end))
    assert.is_nil(each(ca, function(v) return v >= 0.5 and v < 4096 and v % 1 == 0.5 end))
    for _, perm in ipairs { p, pa, ch } do
      local seen = {}
      for _, v in ipairs(flat(perm)) do
        assert(v >= 0 and v < 4096 and not seen[v], "not a permutation: " .. tostring(v))
        seen[v] = true
      end
    end
    local rows = flat(mn)
    for i = 1, #rows, 3 do assert.are.equal(20, rows[i] + rows[i + 1] + rows[i + 2]) end
  end)
end)
