-- Soak test (make soak; not part of busted): one Lua state compiles and
-- calls many distinct small functions, then makes and drops a million
-- arrays, printing resident memory as it goes. It fails when arrays are
-- left alive, when memory keeps growing while arrays come and go, or when
-- a compiled function costs more memory than it should.
--
--   lua5.4 tests/soak.lua [functions [arrays]]     (defaults 10000 and 1000000)
--
-- The numbers it prints are recorded in tests/RELIABILITY.md. Under
-- valgrind (make soak runs a small round that way) lua_close must free all.
local build = os.getenv("LUMBA_CPATH") or "build"
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = build .. "/?.so;" .. package.cpath
local lumba = require "lumba"

local NFUNCS = tonumber(arg[1]) or 10000
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

-- ---- 1. distinct functions: each source differs, so each compiles ----
local warm = lumba.njit("def w(x):\n    return x\n")
warm(1)
collect()
local rss_f0 = rss_kib()
local step = math.max(1, NFUNCS // 10)
local rss_mid
for i = 1, NFUNCS do
  local src = ("def f%d(x, a):\n    s = x * %d\n    for k in range(a.shape[0]):\n        s += a[k] %% %d\n    return s\n")
      :format(i, i, i % 97 + 1)
  local f = lumba.njit(src)
  local a = lumba.arange(4)
  local expect = 2 * i + (0 % (i % 97 + 1)) + (1 % (i % 97 + 1)) + (2 % (i % 97 + 1)) + (3 % (i % 97 + 1))
  local got = f(2, a)
  if got ~= expect then check(false, "f%d(2, arange(4)) = %s, expected %s", i, tostring(got), tostring(expect)) break end
  if i % step == 0 then
    collect()
    local r = rss_kib()
    if i == NFUNCS // 2 then rss_mid = r end
    io.write(("functions %7d: RSS %8d KiB  (%.1f KiB per function so far, %.0f s)\n")
      :format(i, r, (r - rss_f0) / i, os.clock() - t0))
  end
end
collect()
local rss_f1 = rss_kib()
local per_func = (rss_f1 - rss_f0) / NFUNCS
io.write(("functions done: %.1f KiB of RSS per compiled function\n"):format(per_func))
-- the JIT keeps the machine code of every specialization for the life of
-- the Lua state (tests/RELIABILITY.md); a function must stay small
-- (small rounds, as under valgrind, only check that lua_close frees all)
if NFUNCS >= 1000 then
  check(per_func < 64, "a compiled function costs %.1f KiB (at most 64 expected)", per_func)
end

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
-- levels off: the last 30% of the run stays within 10% of the peak before it
-- (dead arrays wait for the next GC cycle, which comes later the bigger the
-- Lua heap is: the level depends on what the state holds, the growth must stop)
if #samples >= 10 and NARRAYS >= 100000 then
  local cut = math.floor(#samples * 0.7)
  local early, late = 0, 0
  for k = 1, cut do early = math.max(early, samples[k]) end
  for k = cut + 1, #samples do late = math.max(late, samples[k]) end
  io.write(("arrays: peak RSS %d KiB in the first 70%% of the run, %d KiB after\n"):format(early, late))
  check(late <= early * 1.1, "RSS grew from %d to %d KiB while arrays came and went", early, late)
end

io.write(("soak: %d failures, %.0f s of CPU\n"):format(failures, os.clock()))
if rss_mid then io.write(("(RSS after half the functions: %d KiB)\n"):format(rss_mid)) end
os.exit(failures == 0 and 0 or 1, true)  -- close the state: under valgrind, everything must be freed
