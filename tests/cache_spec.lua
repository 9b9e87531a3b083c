-- cache=true: compiled object code kept on disk and loaded by later
-- processes. Every test runs fresh lua5.4 processes with LUMBA_CACHE_DIR
-- set to a temporary directory; each child prints key=value lines (its
-- results and lumba.cache.info()) that the test checks.
local lumba = require "lumba"
local H = require "helpers"
local q, slurp, spit = H.shell_quote, H.slurp, H.spit

local dirs = {}
local function tmpdir() return H.tmpdir(dirs) end

-- the paths of this busted run (also the ASan build's), for the children
local PRELUDE = string.format([[
package.path = %q
package.cpath = %q
lumba = require "lumba"
function report(t)
  local info = lumba.cache.info()
  io.write("hits=", info.hits, "\nmisses=", info.misses, "\nentries=", info.entries, "\n")
  for k, v in pairs(t or {}) do io.write(k, "=", tostring(v), "\n") end
end
]], package.path, package.cpath)

local function script_file(body)
  local path = os.tmpname()
  spit(path, PRELUDE .. body)
  return path
end

local parse = H.key_values

-- runs body in a new process: its key=value table, its stderr, its exit code
local function child(dir, body, envs)
  local out, err, code = H.run_cached(dir, PRELUDE .. body, envs)
  return parse(out), err, code
end

-- the files in dir (sorted), but for the fast path's index files (tests/cache_fast_spec.lua)
local function entries(dir)
  local t = {}
  local p = io.popen("ls -A " .. q(dir) .. " 2>/dev/null")
  for name in p:lines() do
    if not name:match("%.lindex$") then t[#t + 1] = name end
  end
  p:close()
  table.sort(t)
  return t
end

-- the index files in dir (sorted)
local function indexes(dir)
  local t = {}
  local p = io.popen("ls -A " .. q(dir) .. " 2>/dev/null")
  for name in p:lines() do
    if name:match("%.lindex$") then t[#t + 1] = name end
  end
  p:close()
  table.sort(t)
  return t
end

-- a script compiling `src` with options `opts` (Lua source) and reporting `call`
local function fn_script(src, opts, call)
  return ("local f = lumba.njit(%s)(%q)\nreport{result = %s}\n"):format(opts, src, call)
end

local ADD1 = [[
def f(x):
    return x + 1
]]

local function expect_counts(t, hits, misses, n_entries, result)
  assert.are.same({ hits = tostring(hits), misses = tostring(misses), entries = tostring(n_entries),
                    result = result },
                  { hits = t.hits, misses = t.misses, entries = t.entries, result = t.result })
end

describe("cache", function()
  teardown(function()
    for _, d in ipairs(dirs) do os.execute("chmod -R u+w " .. q(d) .. " 2>/dev/null; rm -rf " .. q(d)) end
  end)

  it("a second process loads the code from the cache instead of compiling", function()
    local dir = tmpdir()
    local body = [[
local f = lumba.njit{cache = true}(ARGSRC)
local r = f(10, 2.0)
report{result = r, ir = #f:inspect_llvm(), types = f:inspect_types():gsub("\n", "|")}
]]
    body = body:gsub("ARGSRC", ("%q"):format([[
def g(n, y):
    s = 0.0
    for i in range(n):
        s += i * y
    return s
]]))
    local first = child(dir, body)
    expect_counts(first, 0, 1, 1, "90.0")  -- 2 * (0 + 1 + ... + 9)
    local second = child(dir, body)
    expect_counts(second, 1, 0, 1, "90.0")
    assert.are.equal(first.ir, second.ir)          -- inspect_llvm: the same optimised IR
    assert.are.equal(first.types, second.types)    -- inspect_types: inference still runs
    assert.are.equal("g (int64, float64) -> float64|  n: int64 (argument)|  y: float64 (argument)|" ..
                     "  s: float64|  i: int64|", second.types)
    local files = entries(dir)
    assert.are.equal(1, #files)
    assert.truthy(files[1]:match("^g%-%x+%.lcache$"), files[1])
    assert.are.equal(64, #files[1]:match("^g%-(%x+)%.lcache$"))
  end)

  it("without cache=true nothing touches the disk", function()
    local dir = tmpdir() .. "/never"
    local t = child(dir, fn_script(ADD1, "{}", "f(41)"))
    expect_counts(t, 0, 0, 0, "42")
    assert.is_nil(io.open(dir, "r"))
  end)

  it("LUMBA_DEBUG_CACHE=1 says why a lookup missed", function()
    local dir = tmpdir()
    local _, err = child(dir, fn_script(ADD1, "{cache = true}", "f(1)"), "LUMBA_DEBUG_CACHE=1")
    local key = entries(dir)[1]:match("^f%-(%x+)%.lcache$")
    local pre = indexes(dir)[1]:match("^f%-(%x+)%.lindex$")
    assert.are.equal(("lumba cache: fast miss f(int64): no index (%s/f-%s.lindex)\n"):format(dir, pre) ..
                     ("lumba cache: miss f(int64) key %s: no file (%s/f-%s.lcache)\n"):format(key:sub(1, 16), dir, key),
                     err)
  end)

  describe("keys change with", function()
    -- base and changed scripts: the changed one must miss (and give its own
    -- result), then both must hit in later processes
    -- (n: how many cached functions the scripts compile, all changed)
    local function check(base, base_result, changed, changed_result, n)
      n = tostring(n or 1)
      local dir = tmpdir()
      local t = child(dir, base)
      assert.are.same({ "0", n, base_result }, { t.hits, t.misses, t.result })
      t = child(dir, changed)
      assert.are.same({ "0", n, changed_result }, { t.hits, t.misses, t.result })
      t = child(dir, changed)
      assert.are.same({ n, "0", changed_result }, { t.hits, t.misses, t.result })
      t = child(dir, base)
      assert.are.same({ n, "0", base_result }, { t.hits, t.misses, t.result })
    end

    it("an edited source", function()
      check(fn_script(ADD1, "{cache = true}", "f(3)"), "4",
            fn_script(ADD1:gsub("x %+ 1", "x + 2"), "{cache = true}", "f(3)"), "5")
    end)

    it("a comment edited in the source (the whole text is hashed)", function()
      check(fn_script(ADD1, "{cache = true}", "f(3)"), "4",
            fn_script("# v2\n" .. ADD1, "{cache = true}", "f(3)"), "4")
    end)

    it("the argument types", function()
      check(fn_script(ADD1, "{cache = true}", "f(3)"), "4",
            fn_script(ADD1, "{cache = true}", "f(3.5)"), "4.5")
    end)

    it("a declared signature's return type", function()
      check(fn_script(ADD1, "{cache = true, signatures = {'int64(int64)'}}", "f(3)"), "4",
            fn_script(ADD1, "{cache = true, signatures = {'float64(int64)'}}", "f(3)"), "4.0")
    end)

    it("boundscheck", function()
      local src = [[
def at(a, i):
    return a[i]
]]
      local call = [[(function()
  local ok, e = pcall(f, lumba.arange(3, "int64"), 5)
  return ok and "no error" or e
end)()]]
      check(fn_script(src, "{cache = true}", "f(lumba.arange(3, 'int64'), 2)"), "2",
            fn_script(src, "{cache = true, boundscheck = true}", call),
            "IndexError: index 5 out of bounds for axis 0 with size 3")
    end)

    it("error_model", function()
      local src = [[
def div(a, b):
    return a / b
]]
      local call = "select(2, pcall(f, 1.0, 0.0))"
      check(fn_script(src, "{cache = true}", call), "ZeroDivisionError: division by zero",
            fn_script(src, "{cache = true, error_model = 'numpy'}", "f(1.0, 0.0)"), "inf")
    end)

    it("fastmath and parallel (a prange loop loaded from the cache)", function()
      local src = [[
def total(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i]
    return s
]]
      local call = "f(lumba.arange(1000, 'float64'))"
      check(fn_script(src, "{cache = true}", call), "499500.0",
            fn_script(src, "{cache = true, fastmath = true}", call), "499500.0")
      check(fn_script(src, "{cache = true}", call), "499500.0",
            fn_script(src, "{cache = true, parallel = true}", call), "499500.0")
    end)

    it("a changed global number (value and type)", function()
      local src = [[
def scaled(x):
    return x * SCALE
]]
      check("SCALE = 2\n" .. fn_script(src, "{cache = true}", "f(3)"), "6",
            "SCALE = 5\n" .. fn_script(src, "{cache = true}", "f(3)"), "15")
      check("SCALE = 2\n" .. fn_script(src, "{cache = true}", "f(3)"), "6",
            "SCALE = 2.0\n" .. fn_script(src, "{cache = true}", "f(3)"), "6.0")
    end)

    it("a changed env number", function()
      local src = [[
def scaled(x):
    return x * K
]]
      check(fn_script(src, "{cache = true, env = {K = 3}}", "f(2)"), "6",
            fn_script(src, "{cache = true, env = {K = 4}}", "f(2)"), "8")
    end)

    it("an edited callee dispatcher in env (cached or not)", function()
      local body = [[
local g = lumba.njit{cache = CACHE_G}(%q)
local f = lumba.njit{cache = true, env = {g = g}}([=[
def f(x):
    return g(x) * 2
]=])
report{result = f(1)}
]]
      local v1 = "def g(x):\n    return x + 1\n"
      local v2 = "def g(x):\n    return x + 10\n"
      for _, cache_g in ipairs { "true", "false" } do
        local b = body:gsub("CACHE_G", cache_g)
        local dir = tmpdir()
        local t = child(dir, b:format(v1))
        assert.are.same({ "0", cache_g == "true" and "2" or "1", "4" }, { t.hits, t.misses, t.result })
        t = child(dir, b:format(v1))
        assert.are.same({ cache_g == "true" and "2" or "1", "0", "4" }, { t.hits, t.misses, t.result })
        t = child(dir, b:format(v2))
        assert.are.same({ "0", cache_g == "true" and "2" or "1", "22" }, { t.hits, t.misses, t.result })
      end
    end)

    it("an edited callee of a callee (transitively)", function()
      local body = [[
local k = lumba.njit{cache = true}(%q)
local g = lumba.njit{env = {k = k}}("def g(x):\n    return k(x) + 1\n")
local f = lumba.njit{cache = true, env = {g = g}}("def f(x):\n    return g(x) * 2\n")
report{result = f(1)}
]]
      check(body:format("def k(x):\n    return x + 1\n"), "6",
            body:format("def k(x):\n    return x + 100\n"), "204", 2)
    end)

    it("an edited Lua-table AST", function()
      local body = [[
local tree = lumba.parse(%q)
report{result = lumba.njit{cache = true}(tree)(3)}
]]
      check(body:format(ADD1), "4", body:format(ADD1:gsub("1", "7")), "10")
    end)
  end)

  describe("a damaged entry is ignored and rewritten", function()
    local function damage(how, why)
      local dir = tmpdir()
      local script = fn_script(ADD1, "{cache = true}", "f(20)")
      child(dir, script)
      local path = dir .. "/" .. entries(dir)[1]
      local bytes = slurp(path)
      spit(path, how(bytes))
      local t, err = child(dir, script, "LUMBA_DEBUG_CACHE=1")
      expect_counts(t, 0, 1, 1, "21")
      if type(why) == "function" then why = why(bytes) end
      assert.truthy(err:find(": " .. why .. " (" .. path .. ")", 1, true), err)
      assert.are.equal(bytes, slurp(path))  -- rewritten as the compiler makes it
      t = child(dir, script)
      expect_counts(t, 1, 0, 1, "21")
    end

    it("truncated", function()
      damage(function(b) return b:sub(1, #b // 2) end, function(b)
        return ("truncated or padded (%d bytes, the header says %d)"):format(#b // 2, #b)
      end)
    end)
    it("empty", function()
      damage(function() return "" end, "bad size (0 bytes)")
    end)
    it("with a flipped byte in the object code", function()
      damage(function(b)
        local i = #b - 200
        return b:sub(1, i - 1) .. string.char(b:byte(i) ~ 0x55) .. b:sub(i + 1)
      end, "checksum mismatch")
    end)
    it("written by another lumba version", function()
      damage(function(b) return b:sub(1, 12) .. "9.9.9" .. ("\0"):rep(11) .. b:sub(29) end,
             "written by lumba 9.9.9 (this is " .. lumba.version .. ")")
    end)
    it("of another format", function()
      damage(function(b) return b:sub(1, 8) .. "\7\0\0\0" .. b:sub(13) end,
             "format version 7 (this lumba reads 1)")
    end)
    it("replaced by something else", function()
      damage(function(b) return ("garbage "):rep(#b // 8 + 20) end, "bad header (not a lumba cache file)")
    end)
  end)

  it("an entry that passes every check but does not link is a miss, compiled and rewritten", function()
    -- fuzz_cache found it: the symbol's number changed and the checksum made
    -- right again; the object's own symbols were defined in the JIT before
    -- the entry symbol failed to link, and compiling then defined them twice
    local dir = tmpdir()
    local script = fn_script(ADD1, "{cache = true}", "f(20)")
    child(dir, script)
    local name = entries(dir)[1]
    local path = dir .. "/" .. name
    local good = slurp(path)
    local symlen = string.unpack("<I4", good, 93)
    local sym = good:sub(145, 144 + symlen)
    assert.are.equal("f__" .. name:sub(3, 18) .. "_1", sym)
    local payload = good:sub(145, 144 + symlen - 1) .. "7" .. good:sub(145 + symlen)
    local tmp = os.tmpname()
    spit(tmp, payload)
    local p = io.popen("sha256sum " .. q(tmp))
    local hex = p:read("a"):match("^(%x+)")
    p:close()
    os.remove(tmp)
    local sum = hex:gsub("%x%x", function(h) return string.char(tonumber(h, 16)) end)
    spit(path, good:sub(1, 112) .. sum .. payload)
    local t, err = child(dir, script, "LUMBA_DEBUG_CACHE=1")
    expect_counts(t, 0, 1, 1, "21")
    local bad = sym:sub(1, -2) .. "7_wrap"
    -- the fast path checks the entry's symbol against its index first; then the compiler's path
    assert.are.equal(("lumba cache: fast miss f(int64) key %s: the entry's symbol is not the index's (%s)\n" ..
                      "lumba cache: miss f(int64) key %s: the entry cannot be linked: jit: cannot look up '%s': " ..
                      "Symbols not found: [ %s ] (%s)\n"):format(name:sub(3, 18), path, name:sub(3, 18), bad, bad, path),
                     err)
    assert.are.equal(good, slurp(path))  -- rewritten as the compiler makes it
    t = child(dir, script)
    expect_counts(t, 1, 0, 1, "21")
  end)

  describe("the size cap (LUMBA_CACHE_MAX_BYTES)", function()
    local function info_max(env)
      local t = child(tmpdir(), "report{max = lumba.cache.info().max_bytes}", env)
      return tonumber(t.max)
    end

    it("lumba.cache.info() reports it: 256 MiB by default, bytes or k/m/g, 0 for none", function()
      assert.are.equal(256 * 1024 * 1024, info_max(""))
      assert.are.equal(12345, info_max("LUMBA_CACHE_MAX_BYTES=12345"))
      assert.are.equal(64 * 1024, info_max("LUMBA_CACHE_MAX_BYTES=64k"))
      assert.are.equal(3 * 1024 * 1024, info_max("LUMBA_CACHE_MAX_BYTES=3M"))
      assert.are.equal(2 * 1024 * 1024 * 1024, info_max("LUMBA_CACHE_MAX_BYTES=2g"))
      assert.are.equal(0, info_max("LUMBA_CACHE_MAX_BYTES=0"))
      assert.are.equal(256 * 1024 * 1024, info_max("LUMBA_CACHE_MAX_BYTES=lots"))
      assert.are.equal(256 * 1024 * 1024, info_max("LUMBA_CACHE_MAX_BYTES=-5"))
    end)

    local function src_of(name, k)
      return ("def %s(x):\n    return x * %d + 1\n"):format(name, k)
    end
    local function compile_script(names, k)
      local b = {}
      for i, n in ipairs(names) do
        b[#b + 1] = ("local %s = lumba.njit{cache = true}(%q)\nr%d = %s(%d)\n"):format(n, src_of(n, k), i, n, i)
      end
      return table.concat(b) .. "report{result = r1}\n"
    end
    local function file_of(dir, name)
      for _, f in ipairs(entries(dir)) do
        if f:match("^" .. name .. "%-") then return f end
      end
    end
    local function mtime(path)
      local p = io.popen("stat -c %Y " .. q(path))
      local v = tonumber(p:read("a"))
      p:close()
      return v
    end

    it("a hit makes its entry the most recently used; a write over the cap removes the least recently used", function()
      local dir = tmpdir()
      local t = child(dir, compile_script({ "fa", "fb", "fc" }, 3))
      expect_counts(t, 0, 3, 3, "4")
      local total = 0
      for _, n in ipairs({ "fa", "fb", "fc" }) do
        local path = dir .. "/" .. file_of(dir, n)
        total = total + #slurp(path)
      end
      -- used long ago, in the order a, b, c
      for i, n in ipairs({ "fa", "fb", "fc" }) do
        assert(os.execute(("touch -m -d @%d %s"):format(1000 * i, q(dir .. "/" .. file_of(dir, n)))))
      end
      -- room for about two and a half entries: b is hit (now the newest),
      -- then d is written: a (the oldest) and c (older than b now) go
      local cap = total * 5 // 6
      t = child(dir, compile_script({ "fb", "fd" }, 3), "LUMBA_CACHE_MAX_BYTES=" .. cap)
      expect_counts(t, 1, 1, 2, "4")
      assert.is_nil(file_of(dir, "fa"))
      assert.is_nil(file_of(dir, "fc"))
      assert.truthy(mtime(dir .. "/" .. file_of(dir, "fb")) > os.time() - 3600)
      assert.truthy(file_of(dir, "fd"))
      -- without a write nothing is removed, however small the cap
      t = child(dir, compile_script({ "fb" }, 3), "LUMBA_CACHE_MAX_BYTES=1")
      expect_counts(t, 1, 0, 2, "4")
      -- a write with a cap smaller than any entry keeps only the entry just written
      t = child(dir, compile_script({ "fe" }, 3), "LUMBA_CACHE_MAX_BYTES=1")
      expect_counts(t, 0, 1, 1, "4")
      assert.truthy(file_of(dir, "fe"))
      -- other files in the directory are neither counted nor removed
      spit(dir .. "/notes.txt", ("x"):rep(10000))
      t = child(dir, compile_script({ "fa" }, 3), "LUMBA_CACHE_MAX_BYTES=0")
      expect_counts(t, 0, 1, 2, "4")
      assert.are.equal(("x"):rep(10000), slurp(dir .. "/notes.txt"))
    end)

    it("processes evicting and reading the same directory at once never fail", function()
      -- a cap of about three entries, two processes at once, three times
      -- each, compiling or loading 12 functions: entries vanish under
      -- readers, which then miss and compile again
      local dir = tmpdir()
      local names = {}
      for i = 1, 12 do names[i] = "g" .. i end
      child(dir, compile_script({ "g1" }, 5))
      local one = #slurp(dir .. "/" .. file_of(dir, "g1"))
      local path = script_file(compile_script(names, 5))
      local cmd = ("LUMBA_CACHE_DIR=%s LUMBA_CACHE_MAX_BYTES=%d lua5.4 %s 2>&1; echo status=$?")
        :format(q(dir), one * 3, q(path))
      local loop = ("for i in 1 2 3; do %s; done"):format(cmd)
      local p = io.popen(("(%s > %s.1) & (%s > %s.2); wait"):format(loop, q(path), loop, q(path)))
      p:read("a")
      p:close()
      for k = 1, 2 do
        local out = slurp(path .. "." .. k)
        os.remove(path .. "." .. k)
        local runs = 0
        for hits, misses, result, status in out:gmatch("hits=(%d+)\nmisses=(%d+)\nentries=%d+\nresult=(%S+)\nstatus=(%d+)\n") do
          runs = runs + 1
          assert.are.same({ 12, "6", "0" }, { tonumber(hits) + tonumber(misses), result, status }, out)
        end
        assert.are.equal(3, runs, out)  -- and nothing else was printed (no warning, no error)
        assert.are.equal("", (out:gsub("hits=%d+\nmisses=%d+\nentries=%d+\nresult=%S+\nstatus=%d+\n", "")))
      end
      os.remove(path)
      local total = 0
      for _, f in ipairs(entries(dir)) do total = total + #slurp(dir .. "/" .. f) end
      assert.truthy(total <= one * 4, "entries take " .. total .. " bytes")
    end)
  end)

  it("two processes compiling the same function at once both succeed", function()
    local dir = tmpdir()
    local src = [[
def poly(x):
    s = 0
    for i in range(x):
        s += i * i - 3 * i
    return s
]]
    local body = ("local fs = {}\nfor i = 1, 6 do fs[i] = lumba.njit{cache = true}(((%q):gsub('3', tostring(i)))) end\n" ..
                  "local r = {}\nfor i = 1, 6 do r[i] = fs[i](10) end\nreport{result = table.concat(r, ',')}\n"):format(src)
    -- sum of i*i for i < 10 is 285, sum of i is 45
    local want = {}
    for k = 1, 6 do want[k] = tostring(285 - k * 45) end
    want = table.concat(want, ",")
    local path = script_file(body)
    local o1, o2 = os.tmpname(), os.tmpname()
    local cmd = ("export LUMBA_CACHE_DIR=%s; lua5.4 %s > %s 2>&1 & lua5.4 %s > %s 2>&1 & wait"):format(
      q(dir), q(path), q(o1), q(path), q(o2))
    assert(os.execute(cmd))
    local a, b = parse(slurp(o1)), parse(slurp(o2))
    os.remove(path); os.remove(o1); os.remove(o2)
    assert.are.same({ want, want }, { a.result, b.result })
    assert.are.equal(6, #entries(dir))  -- no temporary file left behind
    local t = child(dir, body)
    expect_counts(t, 6, 0, 6, want)
  end)

  describe("an unwritable cache directory", function()
    local function blocked_dir()
      local file = os.tmpname()  -- a file where a directory should be: mkdir fails, even for root
      dirs[#dirs + 1] = file
      return file .. "/sub"
    end

    local body = fn_script(ADD1, "{cache = true}", "f(1)") ..
                 "local g = lumba.njit{cache = true}('def g(x):\\n    return x * 3\\n')\nreport{result2 = g(5)}\n"

    it("warns once on stderr and still compiles", function()
      local dir = blocked_dir()
      local t, err, code = child(dir, body)
      assert.are.same({ "2", "2", "15" }, { t.result, t.misses, t.result2 })
      assert.are.equal(0, code)
      assert.are.equal(("lumba: warning: cache: cannot create the cache directory '%s' (Not a directory); " ..
                        "compiled code is not cached\n"):format(dir), err)
    end)

    it("warns through lumba.warnings when it is set", function()
      local dir = blocked_dir()
      local t, err = child(dir, "lumba.warnings = function(m) io.write('warned=', m, '\\n') end\n" .. body)
      assert.are.same({ "2", "15", "" }, { t.result, t.result2, err })
      assert.are.equal(("cache: cannot create the cache directory '%s' (Not a directory); " ..
                        "compiled code is not cached"):format(dir), t.warned)
    end)

    it("warns once when the directory is read-only (chmod 0500)", function()
      local dir = tmpdir()
      assert(os.execute("chmod 0500 " .. q(dir)))
      local probe = io.open(dir .. "/probe", "w")
      if probe then  -- root ignores the mode
        probe:close()
        os.remove(dir .. "/probe")
        pending("running as root: chmod does not block writes")
        return
      end
      local t, err = child(dir, body)
      assert.are.same({ "2", "15" }, { t.result, t.result2 })
      assert.are.equal(("lumba: warning: cache: cannot write to the cache directory '%s' (Permission denied); " ..
                        "compiled code is not cached\n"):format(dir), err)
    end)
  end)

  it("lumba.cache.clear removes the entries and nothing else", function()
    local dir = tmpdir()
    child(dir, fn_script(ADD1, "{cache = true}", "f(1)"))
    child(dir, fn_script(ADD1, "{cache = true}", "f(1.0)"))
    spit(dir .. "/notes.txt", "mine")
    spit(dir .. "/.lumba-tmp-abcdef", "a writer that died")
    local t = child(dir, "report{removed = lumba.cache.clear()}")
    assert.are.same({ "2", "0" }, { t.removed, t.entries })
    assert.are.same({ "notes.txt" }, entries(dir))
    assert.are.equal(0, lumba.cache.clear(dir))  -- the directory given explicitly
    assert.are.equal(0, lumba.cache.clear(dir .. "/missing"))
    t = child(dir, fn_script(ADD1, "{cache = true}", "f(1)"))
    expect_counts(t, 0, 1, 1, "2")
    assert.are.equal(1, lumba.cache.clear(dir))
  end)

  it("@njit(cache=True) in lumba.load caches, the other decorators do not", function()
    local dir = tmpdir()
    local body = ([[
local m = lumba.load(%q)
report{result = m.cached(2) + m.plain(2)}
]]):format([[
from numba import njit

@njit(cache=True)
def cached(x):
    return x * 10

@njit
def plain(x):
    return x + 1
]])
    local t = child(dir, body)
    expect_counts(t, 0, 1, 1, "23")
    t = child(dir, body)
    expect_counts(t, 1, 0, 1, "23")
  end)

  it("the same function compiled twice in one process reuses its code", function()
    local dir = tmpdir()
    local body = ([[
local a = lumba.njit{cache = true}(%q)
local b = lumba.njit{cache = true}(%q)
local c = lumba.njit(%q)
report{result = a(1) + b(2) + c(3)}
]]):format(ADD1, ADD1, ADD1)
    local t = child(dir, body)
    expect_counts(t, 0, 1, 1, "9")
  end)
end)
