-- measure.lua — what every Lua-side runner shares (plain Lua 5.4, LuaJIT and
-- the lumba runner): the deterministic inputs, a wall clock, the timing loop
-- and the TIME/CHECK/NOTE/SKIP/ERROR lines the harness reads. Written in the
-- subset of Lua that LuaJIT (5.1) and Lua 5.4 share.
local M = {}

M.MINSTD_M = 2147483647

-- MINSTD: s' = s * 48271 mod (2^31 - 1). The product stays below 2^53, so
-- Lua 5.4 integers and LuaJIT doubles give exactly C's sequence.
local function minstd_next(s) return s * 48271 % 2147483647 end
M.minstd_next = minstd_next

-- set(k, v) for k = 0 .. n-1 with the uniform inputs of bench.h
function M.fill_uniform(set, n, seed)
  local s = seed
  for k = 0, n - 1 do
    s = minstd_next(s)
    set(k, s / 2147483647.0)
  end
end

-- set(k, v) for k = 0 .. n-1 with the +1.0 / -1.0 spins of bench.h
function M.fill_spins(set, n, seed)
  local s = seed
  for k = 0, n - 1 do
    s = minstd_next(s)
    set(k, s >= 1073741824 and 1.0 or -1.0)
  end
end

-- Element k (0-based) of the MINSTD stream from seed, by jumping ahead
-- (Lua 5.4 integers only): s_{k+1} = seed * 48271^(k+1) mod M.
function M.minstd_at(seed, k)
  local m, base, e, r = 2147483647, 48271, k + 1, 1
  while e > 0 do
    if e % 2 == 1 then r = r * base % m end
    base = base * base % m
    e = (e - e % 2) / 2
  end
  return seed * r % m
end

local function num_env(name, dflt)
  local v = tonumber(os.getenv(name) or "")
  return v or dflt
end

-- the measurement policy, the same env variables bench.h reads
function M.cfg()
  local c = {
    warmup = num_env("BENCH_WARMUP", 2),
    minreps = num_env("BENCH_MINREPS", 5),
    maxreps = num_env("BENCH_MAXREPS", 100),
    budget = num_env("BENCH_BUDGET", 1.0),
  }
  if c.minreps < 1 then c.minreps = 1 end
  if c.maxreps < c.minreps then c.maxreps = c.minreps end
  return c
end

-- A monotonic wall clock in seconds: LuaJIT's FFI, else the benchclock module
-- the bench builds, else luasystem; os.clock (CPU time) only as a last resort,
-- and then it says so.
function M.clock()
  local ok, ffi = pcall(require, "ffi")
  if ok then
    ffi.cdef [[
      typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
      int clock_gettime(int clk, bench_timespec *ts);
    ]]
    local ts = ffi.new("bench_timespec")
    return function()
      ffi.C.clock_gettime(1, ts) -- CLOCK_MONOTONIC
      return tonumber(ts.tv_sec) + 1e-9 * tonumber(ts.tv_nsec)
    end
  end
  local build = os.getenv("BENCH_BUILD")
  if build then package.cpath = build .. "/?.so;" .. package.cpath end
  local okc, bc = pcall(require, "benchclock")
  if okc then return bc.now end
  local oks, system = pcall(require, "system")
  if oks and system.monotime then return system.monotime end
  print("NOTE no wall clock found: times are CPU time (os.clock)")
  return os.clock
end

-- Runs run() cfg.warmup times untimed, then times it until cfg.minreps runs
-- and cfg.budget seconds have passed (at most cfg.maxreps runs).
-- Returns the last result and the sorted list of times.
function M.measure(run, now, cfg)
  cfg = cfg or M.cfg()
  local result
  for _ = 1, cfg.warmup do result = run() end
  local times = {}
  local start = now()
  while true do
    local t0 = now()
    result = run()
    local t1 = now()
    times[#times + 1] = t1 - t0
    local n = #times
    if n >= cfg.maxreps or (n >= cfg.minreps and t1 - start >= cfg.budget) then break end
  end
  table.sort(times)
  return result, times
end

function M.median(t)
  local n = #t
  if n % 2 == 1 then return t[(n + 1) / 2] end
  return 0.5 * (t[n / 2] + t[n / 2 + 1])
end

function M.report(times)
  print(string.format("TIME median=%.9g min=%.9g max=%.9g reps=%d",
    M.median(times), times[1], times[#times], #times))
end

function M.check(v) print(string.format("CHECK %.17g", v)) end
function M.note(msg) print("NOTE " .. (tostring(msg):gsub("\n", " "))) end
function M.skip(msg) print("SKIP " .. (tostring(msg):gsub("\n", " "))) end

-- Runs main(); an error becomes an ERROR line with the message (the harness
-- shows it) and a TRACE line with the traceback, and exit status 1.
function M.main(main)
  local trace
  local ok, err = xpcall(main, function(e)
    trace = debug.traceback()
    return e
  end)
  if not ok then
    print("ERROR " .. (tostring(err):gsub("\n", " | ")))
    print("TRACE " .. (tostring(trace):gsub("\n", " | ")))
    io.stdout:flush()
    os.exit(1)
  end
end

return M
