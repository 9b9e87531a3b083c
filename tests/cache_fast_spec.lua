-- The cache's fast path (docs/cache.md "The fast path"): a later process
-- loads cached CPU code in core.so, through the index file, without the
-- compiler. Every test runs fresh lua5.4 processes with LUMBA_CACHE_DIR set
-- to a temporary directory; each child prints key=value lines (results and
-- lumba.cache.info()) that the test checks.
local lumba = require "lumba"
local H = require "helpers"
local q, slurp, spit = H.shell_quote, H.slurp, H.spit

local dirs = {}
local function tmpdir() return H.tmpdir(dirs) end

local PRELUDE = string.format([[
package.path = %q
package.cpath = %q
lumba = require "lumba"
function report(t)
  local info = lumba.cache.info()
  io.write("hits=", info.hits, "\nfast=", info.fast_hits, "\nmisses=", info.misses, "\n")
  for k, v in pairs(t or {}) do io.write(k, "=", tostring(v), "\n") end
end
]], package.path, package.cpath)

-- runs body in a new process: its key=value table and its stderr
local function child(dir, body, envs)
  local out, err = H.run_cached(dir, PRELUDE .. body, envs)
  return H.key_values(out), err
end

-- the files of dir ending in suffix (sorted)
local function files(dir, suffix)
  local t = {}
  local p = io.popen("ls -A " .. q(dir) .. " 2>/dev/null")
  for name in p:lines() do
    if name:sub(-#suffix) == suffix then t[#t + 1] = dir .. "/" .. name end
  end
  p:close()
  table.sort(t)
  return t
end

-- {hits, fast hits, misses, result}
local function counts(t)
  return { t.hits, t.fast, t.misses, t.result }
end

local ADD1 = "def f(x):\n    return x + 1\n"

local function script(src, opts, call)
  return ("local f = lumba.njit(%s)(%q)\nreport{result = %s}\n"):format(opts, src, call)
end

describe("cache fast path", function()
  teardown(function()
    for _, d in ipairs(dirs) do os.execute("rm -rf " .. q(d)) end
  end)

  it("a second process loads the code without the compiler, with the same results and texts", function()
    local dir = tmpdir()
    local body = [[
local sums = lumba.njit{cache = true}(%q)
local a = lumba.array({1.5, -2.0, 4.25, 8.0})
local total, n, doubled = sums(a, 3)
local it, in_, id = sums:interpret(a, 3)
report{result = string.format("%%s|%%s|%%s|%%s", total, n, doubled[1], doubled[4]),
       interp = string.format("%%s|%%s|%%s|%%s", it, in_, id[1], id[4]),
       types = sums:inspect_types():gsub("\n", "/"), ir = #sums:inspect_llvm(),
       sig = sums.signatures[1]}
]]
    body = body:format([[
import numpy as np
def sums(a, k):
    out = np.empty(a.shape[0])
    s = 0.0
    for i in range(a.shape[0]):
        out[i] = a[i] * 2.0
        s += a[i] ** 2 + k
    return s, a.shape[0], out
]])
    -- 1.5^2 + 2^2 + 4.25^2 + 8^2 = 2.25 + 4 + 18.0625 + 64 = 88.3125, plus 4 * 3
    local want = "100.3125|4|3.0|16.0"
    local first = child(dir, body)
    assert.are.same({ "0", "0", "1", want }, counts(first))
    assert.are.equal(want, first.interp)
    assert.are.equal(1, #files(dir, ".lindex"))
    local second = child(dir, body)
    assert.are.same({ "1", "1", "0", want }, counts(second))
    assert.are.equal(want, second.interp)
    assert.are.same({ first.types, first.ir, first.sig }, { second.types, second.ir, second.sig })
    assert.are.equal("(float64[::1], int64) -> (float64, int64, float64[::1])", second.sig)
  end)

  describe("misses, and the compiler's path gives the new code, when", function()
    -- base and changed scripts: the changed one must not hit the fast path
    -- of the base one's index and gives its own result; then both hit fast
    -- (n: how many cached functions the scripts compile; 0: the changed
    -- script raises a compile error, the base one compiles one function)
    local function check(base, base_result, changed, changed_result, n)
      local dir = tmpdir()
      n = tostring(n or 1)
      local nb = n == "0" and "1" or n
      assert.are.same({ "0", "0", nb, base_result }, counts(child(dir, base)))
      assert.are.same({ nb, nb, "0", base_result }, counts(child(dir, base)))
      local t = child(dir, changed)
      assert.are.equal(changed_result, t.result)
      assert.are.equal("0", t.fast)
      if n == "0" then return end  -- the changed script does not compile: nothing more is cached
      assert.are.same({ n, n, "0", changed_result }, counts(child(dir, changed)))
      -- one index per pre-key: where only values differ, the changed
      -- script's index replaced the base one's, so going back is a hit of
      -- the compiler's path first (which writes the index again)
      local t = child(dir, base)
      assert.are.same({ n, "0", base_result }, { t.hits, t.misses, t.result })
      assert.are.same({ n, n, "0", base_result }, counts(child(dir, base)))
    end

    it("the source is edited", function()
      check(script(ADD1, "{cache = true}", "f(3)"), "4",
            script(ADD1:gsub("x %+ 1", "x + 2"), "{cache = true}", "f(3)"), "5")
    end)

    it("the arguments have other types", function()
      check(script(ADD1, "{cache = true}", "f(3)"), "4", script(ADD1, "{cache = true}", "f(3.5)"), "4.5")
    end)

    it("the options differ", function()
      local src = "def at(a, i):\n    return a[i]\n"
      local call = "select(2, pcall(f, lumba.arange(3, 'int64'), 5))"
      check(script(src, "{cache = true, boundscheck = true}", call),
            "IndexError: index 5 out of bounds for axis 0 with size 3",
            script(src, "{cache = true, boundscheck = true, error_model = 'numpy'}", "f(lumba.arange(3, 'int64'), 2)"),
            "2")
    end)

    it("a global the code froze has another value or type", function()
      local src = "def scaled(x):\n    return x * SCALE\n"
      check("SCALE = 2\n" .. script(src, "{cache = true}", "f(3)"), "6",
            "SCALE = 5\n" .. script(src, "{cache = true}", "f(3)"), "15")
      check("SCALE = 2\n" .. script(src, "{cache = true}", "f(3)"), "6",
            "SCALE = 2.0\n" .. script(src, "{cache = true}", "f(3)"), "6.0")
    end)

    it("an env value shadows the global the code froze", function()
      local src = "def scaled(x):\n    return x * SCALE\n"
      check("SCALE = 2\n" .. script(src, "{cache = true}", "f(3)"), "6",
            "SCALE = 2\n" .. script(src, "{cache = true, env = {SCALE = 7}}", "f(3)"), "21")
    end)

    it("a name that was in neither env nor the globals is defined", function()
      -- float32 was numpy's type; a global of that name is what the compiler sees now
      local src = "def f(x):\n    return float32(x) * 2\n"
      check(script(src, "{cache = true}", "f(3)"), "6.0",
            "float32 = 2\n" .. script(src, "{cache = true}", "(select(2, pcall(f, 3)):match('TypingError: [^\\n]*'))"),
            "TypingError: a number is not callable", 0)
    end)

    it("a called dispatcher is edited", function()
      local body = [[
local g = lumba.njit{cache = true}(%q)
local f = lumba.njit{cache = true, env = {g = g}}("def f(x):\n    return g(x) * 2\n")
report{result = f(1)}
]]
      check(body:format("def g(x):\n    return x + 1\n"), "4", body:format("def g(x):\n    return x + 10\n"), "22", 2)
    end)

    it("the host is another CPU (LUMBA_CACHE_HOST_SALT)", function()
      local dir = tmpdir()
      local s = script(ADD1, "{cache = true}", "f(3)")
      assert.are.same({ "0", "0", "1", "4" }, counts(child(dir, s)))
      -- the JIT's own key does not use the salt: the compiler's path hits
      local t, err = child(dir, s, "LUMBA_CACHE_HOST_SALT=other LUMBA_DEBUG_CACHE=1")
      assert.are.same({ "1", "0", "0", "4" }, counts(t))
      assert.truthy(err:find("lumba cache: fast miss f(int64): no index (", 1, true), err)
      assert.are.same({ "1", "1", "0", "4" }, counts(child(dir, s, "LUMBA_CACHE_HOST_SALT=other")))
      assert.are.equal(2, #files(dir, ".lindex"))
    end)
  end)

  it("a callee and its caller both load fast; code compiled afterwards calls the loaded callee", function()
    local dir = tmpdir()
    local body = [[
local g = lumba.njit{cache = true}("def g(x, y):\n    return x * y - 1\n")
local f = lumba.njit{cache = true, env = {g = g}}("def f(n):\n    s = 0\n    for i in range(n):\n        s += g(i, 3)\n    return s\n")
local r = f(5)
local after = lumba.cache.info().fast_hits
local h = lumba.njit{env = {g = g}}("def h(a):\n    return g(a, a) + 100\n")
report{result = r, after = after, h = h(6), g = g(2, 5)}
]]
    -- f(5) = sum of 3i - 1 for i < 5 = 30 - 5; h(6) = 36 - 1 + 100
    local t = child(dir, body)
    assert.are.same({ "0", "0", "2", "25", "135", "9" }, { t.hits, t.fast, t.misses, t.result, t.h, t.g })
    t = child(dir, body)
    assert.are.same({ "2", "2", "0", "25", "2", "135", "9" }, { t.hits, t.fast, t.misses, t.result, t.after, t.h, t.g })
  end)

  -- 40 functions, each calling the one before: the loader finds every
  -- callee among the symbols loaded before it (well past the first sizes of
  -- its symbol index)
  it("a chain of 40 cached functions loads fast and links each to its callee", function()
    local dir = tmpdir()
    local body = [[
local prev = lumba.njit{cache = true}("def f0(x):\n    return x + 1\n")
local fs = { prev }
for k = 1, 39 do
  prev = lumba.njit{cache = true, env = {g = prev}}(("def f%d(x):\n    return g(x) * 2 + %d\n"):format(k, k))
  fs[#fs + 1] = prev
end
local r = {}
for k = 1, #fs, 13 do r[#r + 1] = fs[k](k % 7) end
report{result = table.concat(r, ","), last = prev(3)}
]]
    -- the oracle: the same recurrence in Lua
    local function want(k, x)
      local v = x + 1
      for j = 1, k do v = v * 2 + j end
      return v
    end
    local r = {}
    for k = 1, 40, 13 do r[#r + 1] = tostring(want(k - 1, k % 7)) end
    local expect = table.concat(r, ",")
    local t = child(dir, body)
    assert.are.same({ "0", "0", "40", expect, tostring(want(39, 3)) }, { t.hits, t.fast, t.misses, t.result, t.last })
    t = child(dir, body)
    assert.are.same({ "40", "40", "0", expect, tostring(want(39, 3)) }, { t.hits, t.fast, t.misses, t.result, t.last })
  end)

  -- the index written by the first compilation must not load a second copy
  -- of code the JIT already holds (its symbols would be defined twice)
  it("a second dispatcher of code the JIT compiled in this process shares the JIT's code", function()
    local dir = tmpdir()
    local t, err = child(dir, ([[
local f1 = lumba.njit{cache = true}(%q)
local a = f1(1)
local f2 = lumba.njit{cache = true}(%q)
local b = f2(2)
local g = lumba.njit{cache = true, env = {f2 = f2}}("def g(x):\n    return f2(x) * 10\n")
report{result = a .. " " .. b .. " " .. g(3), jitted = lumba.cache.info().jitted}
]]):format(ADD1, ADD1))
    assert.are.equal("", err)
    assert.are.same({ "0", "0", "2", "2 3 40" }, counts(t))
    assert.are.equal("2", t.jitted)
  end)

  it("a callee compiled by the JIT in this process sends its caller to the compiler", function()
    local dir = tmpdir()
    local body = [[
local g = lumba.njit{cache = true}("def g(x):\n    return x + 1\n")
WARM
local f = lumba.njit{cache = true, env = {g = g}}("def f(x):\n    return g(x) * 3\n")
report{result = f(4)}
]]
    child(dir, (body:gsub("WARM", "")))
    -- g(1.5) compiles g for float64 only: the int64 code still comes fast with f
    assert.are.same({ "2", "2", "1", "15" }, counts(child(dir, (body:gsub("WARM", "local _ = g(1.5)")))))
    -- g(1) first: g loads fast, then f finds it loaded
    assert.are.same({ "2", "2", "0", "15" }, counts(child(dir, (body:gsub("WARM", "local _ = g(1)")))))
    -- without g's index, g(1) goes into the JIT, and so does f
    for _, p in ipairs(files(dir, ".lindex")) do
      if p:match("/g%-%x+%.lindex$") then os.remove(p) end
    end
    assert.are.same({ "2", "0", "0", "15" }, counts(child(dir, (body:gsub("WARM", "local _ = g(1)")))))
    assert.are.same({ "2", "2", "0", "15" }, counts(child(dir, (body:gsub("WARM", "local _ = g(1)")))))
  end)

  describe("a damaged file is a silent miss and is rewritten", function()
    -- code with relocations (a call of libm's exp)
    local src = script("import math\ndef f(x):\n    return x + 1 + int(math.exp(0.0 * x))\n", "{cache = true}", "f(20)")

    local function damage(suffix, how, why)
      local dir = tmpdir()
      child(dir, src)
      local path = files(dir, suffix)[1]
      local bytes = slurp(path)
      spit(path, how(bytes))
      local t, err = child(dir, src, "LUMBA_DEBUG_CACHE=1")
      assert.are.same({ "22", "0" }, { t.result, t.fast })
      if type(why) == "function" then why = why(bytes) end
      assert.truthy(err:find("lumba cache: fast miss f(int64)", 1, true), err)
      assert.truthy(err:find(": " .. why .. " (" .. path .. ")", 1, true), err)
      assert.are.equal(bytes, slurp(path))
      assert.are.same({ "1", "1", "0", "22" }, counts(child(dir, src)))
      local _, quiet = child(dir, src)
      assert.are.equal("", quiet)
    end

    it("an index cut short", function()
      damage(".lindex", function(b) return b:sub(1, #b - 7) end, "index: truncated or padded")
    end)
    it("an index with a flipped byte", function()
      damage(".lindex", function(b)
        local i = #b - 10
        return b:sub(1, i - 1) .. string.char(b:byte(i) ~ 0x40) .. b:sub(i + 1)
      end, "index: checksum mismatch")
    end)
    it("an index that is something else", function()
      damage(".lindex", function(b) return ("x"):rep(#b) end, "index: bad header (not a lumba index of this format)")
    end)

    -- the ELF object inside an entry: the offset and size of its first section of a type
    local function section(b, sh_type)
      local obj = 144 + string.unpack("<I4", b, 93)
      local shoff = string.unpack("<I8", b, obj + 0x28 + 1)
      local shnum = string.unpack("<I2", b, obj + 0x3c + 1)
      for i = 0, shnum - 1 do
        local h = obj + shoff + i * 64
        if string.unpack("<I4", b, h + 4 + 1) == sh_type then
          return obj + string.unpack("<I8", b, h + 0x18 + 1), string.unpack("<I8", b, h + 0x20 + 1)
        end
      end
    end

    local function flip_in(sh_type)
      return function(b)
        local off, size = section(b, sh_type)
        local i = off + size // 2 + 1
        return b:sub(1, i - 1) .. string.char(b:byte(i) ~ 0x21) .. b:sub(i + 1)
      end
    end

    it("an object with a flipped byte in its relocations", function()
      damage(".lcache", flip_in(4), "checksum mismatch")  -- SHT_RELA
    end)
    it("an object with a flipped byte in its symbol table", function()
      damage(".lcache", flip_in(2), "checksum mismatch")  -- SHT_SYMTAB
    end)
    it("an entry cut short", function()
      damage(".lcache", function(b) return b:sub(1, 200) end,
             function(b) return ("truncated or padded (200 bytes, the header says %d)"):format(#b) end)
    end)
  end)

  it("parallel=true code with prange loops takes the compiler's path and still works", function()
    local dir = tmpdir()
    local s = script("def total(a):\n    s = 0.0\n    for i in prange(a.shape[0]):\n        s += a[i]\n    return s\n",
                     "{cache = true, parallel = true}", "f(lumba.arange(1000, 'float64'))")
    assert.are.same({ "0", "0", "1", "499500.0" }, counts(child(dir, s)))
    local t, err = child(dir, s, "LUMBA_DEBUG_CACHE=1")
    assert.are.same({ "1", "0", "0", "499500.0" }, counts(t))
    assert.truthy(err:find("unknown external symbol 'par_max_workers'", 1, true), err)
  end)

  it("with few memory mappings left it misses, and the compiler's path says why", function()
    local dir = tmpdir()
    local s = script(ADD1, "{cache = true}", "select(2, pcall(f, 1))")
    child(dir, s)
    local t = child(dir, s, "LUMBA_MAX_MAPS=100")
    assert.are.equal("0", t.fast)
    assert.truthy(t.result:match("^lumba: cannot add the object code to the JIT: jit: the process has %d+ memory " ..
                                 "mappings of the 100 it may have %(vm%.max_map_count, LUMBA_MAX_MAPS%); compiled code " ..
                                 "stays mapped while its dispatcher is alive, so no more can be loaded$"), t.result)
  end)

  it("LUMBA_VERBOSE=1 reports a load without compilation", function()
    local dir = tmpdir()
    child(dir, script(ADD1, "{cache = true}", "f(1)"))
    local t, err = child(dir, script(ADD1, "{cache = true}", "f(1)"), "LUMBA_VERBOSE=1")
    assert.are.same({ "1", "1", "0", "2" }, counts(t))
    assert.truthy(err:match("^lumba: loaded f%(int64%) %-> int64 from the cache in [%d.]+ ms %(no compilation%)\n$"), err)
  end)

  it("a loaded specialization still refuses a table of integers it stores floats into", function()
    local dir = tmpdir()
    local body = [[
local half = lumba.njit{cache = true}("def half(a):\n    a[0] = a[0] / 2\n")
local ok, err = pcall(half, {1, 2})
local tf = {1.0, 2}
half(tf)
report{result = tostring(ok) .. "|" .. tostring(err):match("stores floats") .. "|" .. tf[1]}
]]
    assert.are.same({ "0", "0", "2", "false|stores floats|0.5" }, counts(child(dir, body)))  -- int64, float64
    assert.are.same({ "2", "2", "0", "false|stores floats|0.5" }, counts(child(dir, body)))
  end)

  it("two dispatchers of the same source load the code once", function()
    local dir = tmpdir()
    local body = ("local a = lumba.njit{cache = true}(%q)\nlocal b = lumba.njit{cache = true}(%q)\n" ..
                  "report{result = a(1) + b(2)}\n"):format(ADD1, ADD1)
    child(dir, body)
    assert.are.same({ "2", "2", "0", "5" }, counts(child(dir, body)))
  end)

  it("without cache=true a callee's index is not used", function()
    local dir = tmpdir()
    local body = [[
local g = lumba.njit{cache = CACHE_G}("def g(x):\n    return x + 1\n")
local f = lumba.njit{cache = true, env = {g = g}}("def f(x):\n    return g(x) * 2\n")
report{result = f(1)}
]]
    child(dir, (body:gsub("CACHE_G", "true")))
    local t = child(dir, (body:gsub("CACHE_G", "false")))
    assert.are.same({ "0", "4" }, { t.fast, t.result })
  end)
end)
