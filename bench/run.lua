-- run.lua — `make bench`: lumba against the tools users would pick instead
-- (C with gcc and clang, LuaJIT with FFI arrays, plain Lua 5.4, Numba), side
-- by side in one run. Every runner prints its median/min/max time and its
-- result; each result is checked against C's before its time counts.
-- Writes a table to stdout; RESULTS.md, chart.svg and results.tsv only
-- where BENCH_OUT names a folder (`make bench` passes bench/).
--
-- env: BENCH_QUICK=1   small sizes, short timings (a smoke test, ~30 s)
--      BENCH_ROUNDS=n  runs of every tool per row (2; 1 in quick mode)
--      BENCH_OUT=dir   write RESULTS.md, chart.svg, results.tsv there (none
--                      without it: a check run leaves the tree as it was)
--      BENCH_BUILD=dir where the C references are built (bench/out, or
--                      BENCH_OUT/build when BENCH_OUT is set)
--      BENCH_ONLY=a,b  only rows whose id starts with a or b ("latency" for
--                      the latency figures)
--      BENCH_CORRUPT=tool  adds 1 to that tool's results, to prove that a
--                      mismatch is caught (used by tests/bench_spec.lua)
--      PYTHON          the Python with Numba (/usr/bin/python3)
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/lib/?.lua;" .. package.path
local sys = require "sys"
local catalog = require "catalog"
local build = require "build"
local check = require "check"
local report = require "report"
local targets = require "targets"
local chart = require "chart"

local root = sys.line("cd " .. sys.quote(here .. "/..") .. " && pwd")
local quick = os.getenv("BENCH_QUICK") == "1"
local out_dir = os.getenv("BENCH_OUT") ~= "" and os.getenv("BENCH_OUT") or nil
local build_dir = os.getenv("BENCH_BUILD") or
  (out_dir and (out_dir .. "/build") or (root .. "/bench/out"))
local python = os.getenv("PYTHON") or "/usr/bin/python3"
local corrupt = os.getenv("BENCH_CORRUPT")
local only
if os.getenv("BENCH_ONLY") and os.getenv("BENCH_ONLY") ~= "" then
  only = {}
  for w in os.getenv("BENCH_ONLY"):gmatch("[^,%s]+") do only[#only + 1] = w end
end
local function selected(id)
  if not only then return true end
  for _, p in ipairs(only) do
    if id:sub(1, #p) == p then return true end
  end
  return false
end

local S = catalog.settings(quick)
S.rounds = math.tointeger(tonumber(os.getenv("BENCH_ROUNDS") or "")) or S.rounds
if out_dir then sys.mkdir(out_dir) end
sys.mkdir(build_dir)
local machine = sys.machine(root)
local threads = tostring(machine.cores)

-- the environment of every runner
local function env(extra)
  local e = {
    BENCH_BUILD = build_dir,
    OMP_NUM_THREADS = threads,
    LUMBA_NUM_THREADS = threads,
    NUMBA_NUM_THREADS = threads,
    NUMBA_CACHE_DIR = build_dir .. "/numba-cache",
    LUMBA_CACHE_DIR = build_dir .. "/lumba-cache",
    PYTHONDONTWRITEBYTECODE = "1",
  }
  for k, v in pairs(S.env) do e[k] = v end
  for k, v in pairs(extra or {}) do e[k] = v end
  return e
end

report.set_noisy(S.noisy)
report.header(machine, quick)

-- 1. builds and which tools can run here
local rows = {}
for _, r in ipairs(S.rows) do
  if selected(r.id) then rows[#rows + 1] = r end
end
local kernels, seen = {}, {}
for _, r in ipairs(rows) do
  if not seen[r.c] then kernels[#kernels + 1] = r.c; seen[r.c] = true end
end
local avail = build.c_refs(root, build_dir, kernels, { "gcc", "clang", "gcc-omp", "clang-omp", "gcc-fm", "clang-fm" })
local clock_ok, clock_err = build.clock(root, build_dir)
if not clock_ok then report.say("benchclock module not built (" .. clock_err .. "); Lua runners use luasystem") end
avail.lua = sys.have("lua5.4") or "plain Lua: lua5.4 not found"
avail.luajit = sys.have("luajit") or "LuaJIT: luajit not found"
do
  local r = sys.run({ python, "-c", "import numba; print('NOTE', numba.__version__)" }, {}, 120)
  avail.numba = r.ok or ("Numba: not available (" .. (r.error or "?") .. ")")
  machine.numba = r.ok and r.notes[1] and ("Numba " .. r.notes[1]) or "absent"
  machine.python = sys.line(python .. " --version") or "absent"
end
do
  local r = sys.run({ "lua5.4", root .. "/bench/lumba/run.lua", "probe" }, env(), 120)
  if r.ok then
    avail.lumba = true
    machine.lumba = r.out:match("OK ([^\n]*)") or "?"
  else
    avail.lumba = "lumba: not available (" .. (r.error or "?") .. ")"
    machine.lumba = "not available"
  end
end
avail["numba-par"], avail["lumba-par"], avail["lumba-loop"] = avail.numba, avail.lumba, avail.lumba
avail["lumba-hand"] = avail.lumba
avail["numba-fm"], avail["lumba-fm"] = avail.numba, avail.lumba
report.tools(catalog.tools, avail)

-- 2. the kernel rows
local function argv_of(row, tool)
  local info = catalog.tools[tool]
  local argv
  if info.family == "c" then
    argv = { build.binary(build_dir, row.c, tool) }
  elseif info.family == "lua" or info.family == "luajit" then
    argv = { info.family == "lua" and "lua5.4" or "luajit", root .. "/bench/lib/runner.lua",
      info.family, row.kind }
  elseif info.family == "numba" then
    argv = { python, root .. "/bench/numba/run.py", "kernel", row.kind,
      root .. "/bench/kernels/" .. row.py, info.par and "1" or info.fm and "fm" or "0" }
  else
    argv = { "lua5.4", root .. "/bench/lumba/run.lua", "kernel", row.kind,
      root .. "/bench/kernels/" .. (info.loop and row.py_loop or row.py), info.par and "1" or info.fm and "fm" or "0" }
  end
  for _, a in ipairs(row.args) do argv[#argv + 1] = tostring(a) end
  return argv
end

local function run_tool(row, tool)
  if avail[tool] ~= true then return { status = "skip", reason = avail[tool] } end
  if tool == "lua" and not row.lua then
    return { status = "skip", reason = "not run at this size (too slow; see the smaller size)" }
  end
  if catalog.tools[tool].loop and not row.py_loop then
    return { status = "skip", reason = "no loop version at this size (too slow; see the smaller size)" }
  end
  local before = sys.cpu_sample()
  local r = sys.run(argv_of(row, tool), env(row.heavy and S.heavy_env), S.limit)
  local res = { notes = r.notes, time = r.time, check = r.check,
    foreign = sys.foreign(before, sys.cpu_sample()) }
  if r.skip then
    res.status, res.reason = "skip", r.skip
  elseif not r.ok or r.error then
    res.status, res.reason = "error", r.error or "failed"
  elseif not r.time then
    res.status, res.reason = "error", "printed no TIME line"
  else
    res.status = "ok"
    if corrupt == tool and res.check then res.check = res.check + 1 end
  end
  return res
end

-- Each row runs every tool S.rounds times, round by round, each in a fresh
-- process: a round that another process on the machine slowed down is
-- replaced by the faster one. A result that changes between rounds, or a
-- round that fails, decides the row.
local function merge_rounds(best, r)
  if not best then return r end
  if best.status ~= "ok" then return best end
  if r.status ~= "ok" then return r end
  if r.check ~= best.check then
    return { status = "error", notes = r.notes, reason = string.format(
      "result changed between rounds: %.17g, then %.17g", best.check or 0 / 0, r.check or 0 / 0) }
  end
  return r.time.median < best.time.median and r or best
end

local failed = 0
local done = {}
local retry_left = S.retry_s
for _, row in ipairs(rows) do
  local order = catalog.tools_of(row)
  local results = {}
  local before = sys.cpu_sample()
  local rounds = row.heavy and S.heavy_rounds and math.min(S.rounds, S.heavy_rounds) or S.rounds
  row.rounds = rounds
  for _ = 1, rounds do
    for _, tool in ipairs(order) do results[tool] = merge_rounds(results[tool], run_tool(row, tool)) end
  end
  -- a figure taken while other processes kept a core busy is taken again,
  -- while the retry budget lasts (the machine may be shared)
  for _, tool in ipairs(order) do
    local tries = 0
    while results[tool].status == "ok" and (results[tool].foreign or 0) > S.noisy and tries < 2 and
        retry_left > 0 do
      local t0 = sys.cpu_sample().up
      results[tool] = merge_rounds(results[tool], run_tool(row, tool))
      retry_left = retry_left - (sys.cpu_sample().up - t0)
      tries = tries + 1
    end
  end
  row.foreign = sys.foreign(before, sys.cpu_sample())
  local ev = check.evaluate(row, results, order, catalog.c_ref)
  failed = failed + ev.failed
  done[#done + 1] = { row = row, order = order, results = results, ev = ev }
  report.row(done[#done], catalog.tools)
end

-- 3. latency: require, first call, cache hit, dispatch
local latency = {}
-- accept(r) may reject a process's figure with a reason (a warm-cache run
-- that compiled after all)
local function fresh_processes(name, argv, extra_env, per_proc_env, warm, accept)
  local values = {}
  local before = sys.cpu_sample()
  if warm then sys.run(argv, env(extra_env), S.limit) end
  for i = 1, S.procs do
    local e = extra_env or {}
    if per_proc_env then e = per_proc_env(i) end
    local r = sys.run(argv, env(e), S.limit)
    if not r.ok or not r.values.SECONDS then
      latency[name] = { status = "error", reason = r.error or "printed no SECONDS line" }
      return
    end
    local why = accept and accept(r)
    if why then
      latency[name] = { status = "error", reason = why }
      return
    end
    values[#values + 1] = r.values.SECONDS
  end
  table.sort(values)
  latency[name] = { status = "ok", values = values, median = report.median(values),
    min = values[1], max = values[#values], foreign = sys.foreign(before, sys.cpu_sample()) }
end

if selected("latency") then
  local seed = root .. "/bench/kernels/ising.py"
  local lumba_run, numba_run = root .. "/bench/lumba/run.lua", root .. "/bench/numba/run.py"
  local n = tostring(S.firstcall_n)
  local tmp = sys.tmpdir(build_dir)
  local function fresh_cache(var)
    return function(i)
      local d = tmp .. "/" .. var .. "-" .. i
      sys.mkdir(d)
      return { [var] = d }
    end
  end
  -- a warm-cache figure only means something if the cache holds something
  local function cache_written(name, dir, who)
    local l = latency[name]
    if l.status == "ok" and sys.empty(dir) then
      latency[name] = { status = "skip", reason = string.format(
        "%s wrote nothing to its cache directory: no disk cache yet (every process compiled: %.3g ms)",
        who, l.median * 1e3) }
    end
  end
  -- require works without the compiler, so it is measured even then
  fresh_processes("lumba_require", { "lua5.4", lumba_run, "require" })
  -- the backend (and the LLVM it links): its load is part of every first call
  fresh_processes("llvm_load", { "lua5.4", lumba_run, "backendload", root .. "/build/lumba/backend.so" },
    { LUMBA_PRELOAD = "0" })
  if avail.lumba == true then
    fresh_processes("lumba_first", { "lua5.4", lumba_run, "firstcall", seed, n }, nil,
      fresh_cache("LUMBA_CACHE_DIR"))
    -- every warm process must load the entry the first one wrote (lumba.cache.info)
    fresh_processes("lumba_cache", { "lua5.4", lumba_run, "firstcall", seed, n, "cache" },
      { LUMBA_CACHE_DIR = tmp .. "/lumba-shared" }, nil, true, function(r)
        local h, m = r.values.HITS, r.values.MISSES
        if h and (h ~= 1 or m ~= 0) then
          return string.format("a process with a warm cache had %d hit(s) and %d miss(es), not 1 and 0", h, m)
        end
      end)
    cache_written("lumba_cache", tmp .. "/lumba-shared", "lumba njit{cache=true}")
    local before = sys.cpu_sample()
    local r = sys.run({ "lua5.4", lumba_run, "dispatch", root .. "/bench/kernels/dispatch.py",
      tostring(S.calls) }, env(), S.limit)
    latency.lumba_dispatch = r.ok and { status = "ok", values = r.values,
      foreign = sys.foreign(before, sys.cpu_sample()) } or { status = "error", reason = r.error }
  else
    for _, k in ipairs { "lumba_first", "lumba_cache", "lumba_dispatch" } do
      latency[k] = { status = "skip", reason = avail.lumba }
    end
  end
  -- issue 23: compile time of chains of calls, lumba.load of many
  -- functions, calls with 3 arrays; one process per tool
  local function scaling(tool, argv)
    local before = sys.cpu_sample()
    local r = sys.run(argv, env(), S.limit)
    latency[tool .. "_scaling"] = r.ok and { status = "ok", values = r.values,
      foreign = sys.foreign(before, sys.cpu_sample()) } or { status = "error", reason = r.error }
  end
  local sc = S.scaling
  if avail.lumba == true then
    scaling("lumba", { "lua5.4", lumba_run, "scaling", sc.chains, sc.loads, tostring(S.calls) })
  else
    latency.lumba_scaling = { status = "skip", reason = avail.lumba }
  end
  if avail.numba == true then
    scaling("numba", { python, numba_run, "scaling", sc.chains, sc.numba_loads, tostring(S.calls // 10) })
  else
    latency.numba_scaling = { status = "skip", reason = avail.numba }
  end
  -- object mode (the Lua translation jit falls back to) against the loop
  -- written by hand in plain Lua, one process, best of 3 each
  do
    local r = sys.run({ "lua5.4", root .. "/bench/objmode_ising.lua", quick and "50" or "500" }, env(), S.limit)
    latency.objmode = r.ok and r.values.OBJMODE and r.values.HANDLUA and
      { status = "ok", values = r.values } or { status = "error", reason = r.error or "printed no OBJMODE line" }
  end
  if avail.numba == true then
    fresh_processes("numba_import", { python, numba_run, "import" })
    fresh_processes("numba_first", { python, numba_run, "firstcall", seed, n }, nil,
      fresh_cache("NUMBA_CACHE_DIR"))
    fresh_processes("numba_cache", { python, numba_run, "firstcall", seed, n },
      { NUMBA_CACHE_DIR = tmp .. "/numba-shared" }, nil, true)
    cache_written("numba_cache", tmp .. "/numba-shared", "Numba cache=True")
    local before = sys.cpu_sample()
    local r = sys.run({ python, numba_run, "dispatch", root .. "/bench/kernels/dispatch.py",
      tostring(S.calls) }, env(), S.limit)
    latency.numba_dispatch = r.ok and { status = "ok", values = r.values,
      foreign = sys.foreign(before, sys.cpu_sample()) } or { status = "error", reason = r.error }
  else
    for _, k in ipairs { "numba_import", "numba_first", "numba_cache", "numba_dispatch" } do
      latency[k] = { status = "skip", reason = avail.numba }
    end
  end
  sys.rmtree(tmp)
  report.latency(latency, S)
end

-- 4. targets and the files
machine.load_end = sys.loadavg()
local tg = targets.evaluate(done, latency, machine, quick, report.is_noisy)
report.targets(tg, quick)
local ctx = { machine = machine, quick = quick, rows = done, latency = latency, targets = tg,
  tools = catalog.tools, avail = avail, settings = S, flags = build.flags, failed = failed,
  selected_latency = selected("latency") }
if out_dir then
  sys.write(out_dir .. "/RESULTS.md", report.markdown(ctx))
  sys.write(out_dir .. "/chart.svg", chart.svg(ctx))
  sys.write(out_dir .. "/results.tsv", report.tsv(ctx))
  report.say(string.format("wrote %s/RESULTS.md, chart.svg, results.tsv", out_dir))
else
  report.say("BENCH_OUT not given: no RESULTS.md, chart.svg, results.tsv written")
end
if failed > 0 then
  report.say(string.format("FAILED: %d result(s) disagree with C; see above", failed))
  os.exit(1)
end
