-- Soak test (make soak; not part of busted): one Lua state compiles and
-- calls many distinct small functions (every tenth calls the one before it,
-- compiled code calling compiled code), dropping each, then makes and drops
-- a million arrays, printing resident memory as it goes. It fails when
-- arrays or compiled code are left alive after a collection, or when memory
-- or the process's memory mappings keep growing while functions or arrays
-- come and go.
--
--   lua5.4 tests/soak.lua [functions [arrays]]     (defaults 100000 and 1000000)
--
-- The numbers it prints are recorded in tests/RELIABILITY.md. Under
-- valgrind (make soak runs a small round that way) lua_close must free all.
local build = os.getenv("LUMBA_CPATH") or "build"
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = build .. "/?.so;" .. package.cpath
local lumba = require "lumba"

local NFUNCS = tonumber(arg[1]) or 100000
local NARRAYS = tonumber(arg[2]) or 1000000

local function rss_kib()
  local f = io.open("/proc/self/status")
  if not f then return 0 end
  local s = f:read("a")
  f:close()
  return tonumber(s:match("VmRSS:%s*(%d+)")) or 0
end

local function collect()
  collectgarbage()
  collectgarbage()
end

local failures = 0
local function check(ok, fmt, ...)
  if not ok then
    failures = failures + 1
    io.write("FAIL: ", fmt:format(...), "\n")
  end
end

local t0 = os.clock()
io.write(("start: RSS %d KiB\n"):format(rss_kib()))

local function maps()
  local n = 0
  for _ in io.lines("/proc/self/maps") do n = n + 1 end
  return n
end

-- ---- 1. distinct functions: each source differs, so each compiles ----
local warm = lumba.njit("def w(x):\n    return x\n")
warm(1)
collect()
local rss_f0, maps_f0, jitted_f0 = rss_kib(), maps(), lumba.cache.info().jitted
local step = math.max(1, NFUNCS // 10)
local fsamples = {}
-- the previous function, which every tenth one calls: in a table, not in a
-- local (lumba.njit freezes the dispatchers in its caller's locals into
-- the new function's env, so a local would chain every function to the last)
local keep = {}
for i = 1, NFUNCS do
  local src = ("def f%d(x, a):\n    s = x * %d\n    for k in range(a.shape[0]):\n        s += a[k] %% %d\n    return s\n")
      :format(i, i, i % 97 + 1)
  local f = lumba.njit(src)
  local a = lumba.arange(4)
  local expect = 2 * i + (0 % (i % 97 + 1)) + (1 % (i % 97 + 1)) + (2 % (i % 97 + 1)) + (3 % (i % 97 + 1))
  local got = f(2, a)
  if got ~= expect then check(false, "f%d(2, arange(4)) = %s, expected %s", i, tostring(got), tostring(expect)) break end
  if i % 10 == 0 and keep.prev then
    -- a caller whose code links to prev's: prev's code must outlive it even
    -- when prev itself is dropped first
    local g = lumba.njit{ env = { p = keep.prev } }(("def g%d(x, a):\n    return p(x, a) + %d\n"):format(i, i))
    local prev_i = keep.i
    keep.prev = nil
    collect()
    local want = 2 * prev_i + (0 % (prev_i % 97 + 1)) + (1 % (prev_i % 97 + 1)) + (2 % (prev_i % 97 + 1))
        + (3 % (prev_i % 97 + 1)) + i
    got = g(2, a)
    if got ~= want then check(false, "g%d(2, arange(4)) = %s, expected %s", i, tostring(got), tostring(want)) break end
  end
  keep.prev, keep.i = f, i
  if i % step == 0 then
    collect()
    local r = rss_kib()
    fsamples[#fsamples + 1] = r
    io.write(("functions %7d: RSS %8d KiB, %d mappings, %d specializations in the JIT (%.0f s)\n")
      :format(i, r, maps(), lumba.cache.info().jitted, os.clock() - t0))
  end
end
keep.prev = nil
collect()
local rss_f1, maps_f1, jitted_f1 = rss_kib(), maps(), lumba.cache.info().jitted
io.write(("functions done: RSS %d KiB (%d before), %d mappings (%d before), %d specializations in the JIT (%d before)\n")
  :format(rss_f1, rss_f0, maps_f1, maps_f0, jitted_f1, jitted_f0))
-- the code of collected functions leaves the JIT and gives its memory
-- mappings back (before, every function kept ~23 KiB and two mappings)
check(jitted_f1 == jitted_f0, "%d specializations left in the JIT after a full collection (%d expected)",
      jitted_f1, jitted_f0)
check(maps_f1 <= maps_f0 + 64, "%d memory mappings after the functions, %d before", maps_f1, maps_f0)
-- levels off: the last 30% of the run stays within 10% of the peak before it
local function levels_off(samples, what)
  if #samples < 10 then return end
  local cut = math.floor(#samples * 0.7)
  local early, late = 0, 0
  for k = 1, cut do early = math.max(early, samples[k]) end
  for k = cut + 1, #samples do late = math.max(late, samples[k]) end
  io.write(("%s: peak RSS %d KiB in the first 70%% of the run, %d KiB after\n"):format(what, early, late))
  check(late <= early * 1.1, "RSS grew from %d to %d KiB while %s came and went", early, late, what)
end
if NFUNCS >= 1000 then levels_off(fsamples, "functions") end

-- ---- 2. a million arrays made and dropped ----
collect()
local live0 = lumba._live_meminfos()
local rss_a0 = rss_kib()
local double = lumba.njit("def d(a):\n    b = np.empty(a.shape[0])\n    for i in range(a.shape[0]):\n        b[i] = 2 * a[i]\n    return b\n")
local astep = math.max(1, NARRAYS // 10)
local samples = {}
for i = 1, NARRAYS do
  local n = i % 13 + 1
  local a = lumba.zeros(n)
  a[1] = i
  if i % 4 == 0 then
    local v = a:slice({ 1, n })        -- a view keeps the base
    check(v[1] == i, "view of array %d", i)
  end
  if i % 8 == 0 then
    local b = double(a)                -- an array made by compiled code
    check(b[1] == 2 * i, "compiled copy of array %d", i)
  end
  if i % 2 == 0 then a:close() end     -- half closed at once, half left to the collector
  if i % astep == 0 then
    local r = rss_kib()
    samples[#samples + 1] = r
    io.write(("arrays %9d: RSS %8d KiB, live %d (%.0f s)\n"):format(i, r, lumba._live_meminfos() - live0, os.clock() - t0))
  end
  if failures > 10 then break end
end
collect()
local live_end = lumba._live_meminfos() - live0
io.write(("arrays done: %d left alive, RSS %d KiB (%d at the start of the phase)\n"):format(live_end, rss_kib(), rss_a0))
check(live_end == 0, "%d arrays still alive after a full collection", live_end)
-- levels off (dead arrays wait for the next GC cycle, which comes later the
-- bigger the Lua heap is: the level depends on what the state holds, the
-- growth must stop)
if NARRAYS >= 100000 then levels_off(samples, "arrays") end

io.write(("soak: %d failures, %.0f s of CPU\n"):format(failures, os.clock()))
if rss_mid then io.write(("(RSS after half the functions: %d KiB)\n"):format(rss_mid)) end
os.exit(failures == 0 and 0 or 1, true)  -- close the state: under valgrind, everything must be freed
