-- The code of collected dispatchers leaves the JIT (src/jit_cpu.c,
-- JitCode): every specialization's code has its own ORC ResourceTracker,
-- removed when no dispatcher and no other compiled code uses it.
-- lumba.cache.info().jitted counts the specializations' code in this
-- state's JIT.
local lumba = require "lumba"

local function collect()
  collectgarbage()
  collectgarbage()
end

local function jitted()
  collect()
  return lumba.cache.info().jitted
end

-- the pages of the JIT's code: anonymous executable mappings (the
-- allocator's own mappings, which ASan's quarantine keeps growing, are not
-- executable; adjacent code mappings may show as one line, so pages count)
local function maps()
  local n = 0
  for l in io.lines("/proc/self/maps") do
    local lo, hi, perm, inode = l:match("^(%x+)-(%x+) (%S+) %S+ %S+ (%S+)")
    if perm:find("x", 1, true) and inode == "0" then n = n + (tonumber(hi, 16) - tonumber(lo, 16)) // 4096 end
  end
  return n
end

-- a new process running body (with this run's paths and the environment
-- assignments env): stdout and stderr, exit code
local function run(body, env)
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write(("package.path = %q\npackage.cpath = %q\n"):format(package.path, package.cpath), body)
  f:close()
  local p = io.popen((env or "") .. " lua5.4 " .. path .. " 2>&1")
  local out = p:read("a")
  local _, _, code = p:close()
  os.remove(path)
  return out, code
end

describe("compiled code", function()
  -- keep no dispatcher in a local of the test functions: lumba.njit freezes
  -- its caller's local dispatchers into the new function's env
  local keep

  before_each(function()
    keep = {}
    lumba.njit("def warm(x):\n    return x\n")(1)  -- the JIT exists, its first mappings are made
  end)

  it("of collected dispatchers leaves the JIT with its memory mappings", function()
    local base, base_maps = jitted(), maps()
    local a = lumba.arange(4)
    for i = 1, 40 do
      keep[i] = lumba.njit(("def f%d(x, a):\n    s = x * %d\n    for k in range(a.shape[0]):\n        s += a[k]\n    return s\n")
        :format(i, i))
      assert.are.equal(2 * i + 6, keep[i](2, a))
    end
    assert.are.equal(base + 40, jitted())
    assert.truthy(maps() >= base_maps + 40, ("%d code pages, %d before: functions with loops map their sections apart"):format(maps(), base_maps))
    keep = {}
    assert.are.equal(base, jitted())
    assert.truthy(maps() <= base_maps + 4, ("%d code pages, %d before"):format(maps(), base_maps))
  end)

  it("of a callee stays while a caller's code calls it, after the callee is collected", function()
    local base = jitted()
    keep.env = { h = lumba.njit("def h(x):\n    return x * 3\n") }
    keep.g = lumba.njit { env = keep.env } ("def g(x):\n    return h(x) + 1\n")
    assert.are.equal(7, keep.g(2))
    keep.env.h = nil
    assert.are.equal(base + 2, jitted())  -- h's dispatcher is gone, its code is not
    assert.are.equal(16, keep.g(5))
    keep.g = nil
    assert.are.equal(base, jitted())      -- g's code went, then h's
  end)

  it("is shared by dispatchers of the same source until the last one goes", function()
    local base = jitted()
    local src = "def same(x):\n    return x - 7\n"
    keep.a, keep.b = lumba.njit(src), lumba.njit(src)
    assert.are.equal(3, keep.a(10))
    assert.are.equal(4, keep.b(11))
    assert.are.equal(base + 1, jitted())
    keep.a = nil
    assert.are.equal(base + 1, jitted())
    assert.are.equal(5, keep.b(12))
    keep.b = nil
    assert.are.equal(base, jitted())
  end)

  it("compiles again after its code was removed (the same symbols are defined again)", function()
    local base = jitted()
    local src = "def again(x, y):\n    return x * y + 0.5\n"
    for round = 1, 3 do
      keep.f = lumba.njit(src)
      assert.are.equal(round * 2 + 0.5, keep.f(round, 2.0))
      assert.are.equal(base + 1, jitted())
      keep.f = nil
      assert.are.equal(base, jitted())
    end
  end)

  -- njit freezes only the caller's locals its source names: a loop keeping
  -- the previous function in a local does not chain every function to it
  it("of a function only held by a local the next function's source does not name is removed", function()
    local out, code = run([[
local lumba = require "lumba"
local prev
for i = 1, 20 do
  local f = lumba.njit(("def f%d(x):\n    return x + %d\n"):format(i, i))
  assert(f(1) == 1 + i)
  prev = f
end
local g = lumba.njit("def g(x):\n    return prev(x) * 2\n")
assert(g(1) == 42)
collectgarbage() collectgarbage()
io.write(lumba.cache.info().jitted, "\n")
]])
    -- prev (f20) and g, which names it; f1 .. f19 are gone
    assert.are.equal("2\n", out)
    assert.are.equal(0, code)
  end)

  it("loaded from the on-disk cache is removed and loaded again", function()
    local dir = os.tmpname()
    os.remove(dir)
    local out, code = run([[
local lumba = require "lumba"
local function jitted() collectgarbage() collectgarbage() return lumba.cache.info().jitted end
local keep = {}
local src = "def cached(x):\n    return x * 5\n"
-- without its index files the cache's fast path misses: the entry goes through the JIT
local function drop_index() os.execute("rm -f '" .. os.getenv("LUMBA_CACHE_DIR") .. "'/*.lindex") end
for round = 1, 3 do
  drop_index()
  keep.f = lumba.njit{cache = true}(src)
  io.write(keep.f(round), " ", jitted(), " ")
  keep.f = nil
  io.write(jitted(), "\n")
end
local info = lumba.cache.info()
io.write(info.hits, " ", info.misses, "\n")
]], "LUMBA_CACHE_DIR=" .. dir)
    os.execute("rm -rf " .. dir)
    -- compiled and written once, then loaded from the file twice
    assert.are.equal("5 1 0\n10 1 0\n15 1 0\n2 1\n", out)
    assert.are.equal(0, code)
  end)

  it("a finalizer during lua_close may call a function whose callee's dispatcher was finalized before", function()
    -- finalizers run in the reverse order of creation: f's, then x's, then g's
    local out, code = run([[
local lumba = require "lumba"
local env = {}
local g = lumba.njit{env = env}("def g(x):\n    return h(x) * 2\n")
local x = setmetatable({}, {__gc = function() io.write("in a finalizer: ", g(20), "\n") end})
env.h = lumba.njit("def h(x):\n    return x + 1\n")
io.write(g(1), "\n")
os.exit(0, true)
]])
    assert.are.equal("4\nin a finalizer: 42\n", out)
    assert.are.equal(0, code)
  end)
end)
