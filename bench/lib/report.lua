-- report.lua — the table on stdout while the bench runs, and the text of
-- RESULTS.md and results.tsv afterwards.
local M = {}

local function out(s) io.stdout:write(s, "\n"); io.stdout:flush() end
M.say = out

function M.median(t)
  local n = #t
  if n == 0 then return nil end
  if n % 2 == 1 then return t[(n + 1) // 2] end
  return 0.5 * (t[n // 2] + t[n // 2 + 1])
end

-- seconds with a unit, 3 significant digits; micro is "us" on stdout
local function fmt_time(s, micro)
  if s == nil then return "-" end
  if s >= 1 then return string.format("%.3g s", s) end
  if s >= 1e-3 then return string.format("%.3g ms", s * 1e3) end
  if s >= 1e-6 then return string.format("%.3g %ss", s * 1e6, micro or "u") end
  return string.format("%.3g ns", s * 1e9)
end
M.fmt_time = fmt_time

local function fmt_check(v)
  if v == nil then return "-" end
  if math.type(v) == "float" and v == math.floor(v) and math.abs(v) < 2^53 then
    return string.format("%d", math.tointeger(v))
  end
  return string.format("%.15g", v)
end

-- the serial build each parallel tool is compared with (its speed-up)
M.serial_of = { ["gcc-omp"] = "gcc", ["clang-omp"] = "clang", ["numba-par"] = "numba",
  ["lumba-par"] = "lumba" }

function M.speedup(results, tool)
  local s, p = results[M.serial_of[tool] or ""], results[tool]
  if s and p and s.status == "ok" and p.status == "ok" then return s.time.median / p.time.median end
end

function M.header(m, quick)
  out(string.rep("=", 100))
  out("lumba benchmark" .. (quick and " (BENCH_QUICK: smoke-test sizes, timings not meaningful)" or ""))
  out(string.format("%s, %d cores | %s | %s", m.cpu, m.cores, m.os, m.date))
  out(string.format("%s | %s | LLVM %s | load %s", m.gcc, m.clang, m.llvm, m.load_start or "?"))
  out(string.rep("=", 100))
end

function M.tools(tools, avail)
  for _, t in ipairs { "gcc", "clang", "gcc-omp", "clang-omp", "luajit", "lua", "numba", "lumba" } do
    if avail[t] ~= true then out(avail[t]) end
  end
end

local function status_text(r)
  if r.status == "ok" then
    return fmt_check(r.check) .. (r.exact and "" or " (~)")
  elseif r.status == "failed" then
    return "FAILED: " .. r.reason
  elseif r.status == "error" then
    return "ERROR: " .. (r.reason or "?")
  end
  return r.reason or "skipped"
end

-- cores other processes used while a figure was taken, with a ! when that
-- is enough to disturb it
local noisy = 0.25
function M.set_noisy(v) noisy = v end
function M.is_noisy(r) return r and (r.foreign or 0) > noisy end
local function fmt_others(f)
  if not f then return "?" end
  return string.format("%.2f%s", f, f > noisy and "!" or "")
end

local printed_header = {}
function M.row(d, tools)
  local row, ev = d.row, d.ev
  if not printed_header[row.group] then
    printed_header[row.group] = true
    out("")
    out(row.group == "serial" and "SERIAL KERNELS (x C: median / median of the faster of gcc and clang)" or
      row.group == "array" and "ARRAY NOTATION (Numba and lumba run the kernel written in NumPy's array language; " ..
        "x C as for the serial kernels)" or
      row.group == "calls" and "CALLS AND POWERS (issue 23: a helper taking an array, x ** 6; lumba also runs " ..
        "the loop written out by hand; x C as for the serial kernels)" or
      row.group == "fastmath" and "FASTMATH (x C: median / median of the faster of gcc and clang with -ffast-math)" or
      "PARALLEL KERNELS (x C: median / median of the faster C+OpenMP; speed-up: serial build / parallel)")
    out(string.format("(others: cores other processes kept busy during that figure; ! above %.2f: disturbed)", noisy))
  end
  out("")
  out(string.format("%s, %s   [result checked against %s; other processes used %s cores meanwhile]", row.title,
    row.size, ev.ref_tool or "no C result", row.foreign and string.format("%.2f", row.foreign) or "?"))
  out(string.format("  %-34s %9s %9s %9s %5s %7s %7s %6s  %s", "tool", "median", "min", "max", "runs",
    "x C", row.group == "parallel" and "speedup" or "", "others", "result"))
  for _, t in ipairs(d.order) do
    local r = d.results[t]
    local label = tools[t].label
    if r.status == "ok" or r.status == "failed" then
      local su = M.speedup(d.results, t)
      out(string.format("  %-34s %9s %9s %9s %5d %7s %7s %6s  %s", label, fmt_time(r.time.median),
        fmt_time(r.time.min), fmt_time(r.time.max), r.time.reps,
        r.ratio and string.format("%.2fx", r.ratio) or (r.status == "failed" and "FAILED" or "-"),
        su and string.format("%.2fx", su) or "", fmt_others(r.foreign), status_text(r)))
    else
      out(string.format("  %-34s %s", label, status_text(r)))
    end
    for _, n in ipairs(r.notes or {}) do
      out("      note: " .. n)
    end
    if r.status == "failed" then out("  !!! " .. label .. " FAILED: " .. r.reason) end
  end
end

-- latency figures: {status, median, min, max} or {status, values}
local function lat(l, unit_ms)
  if not l then return "not run" end
  if l.status ~= "ok" then return (l.status == "skip" and "" or "ERROR: ") .. (l.reason or "?") end
  if unit_ms then
    return string.format("%.3g ms (min %.3g, max %.3g, %d processes; others %s)", l.median * 1e3, l.min * 1e3,
      l.max * 1e3, #l.values, fmt_others(l.foreign))
  end
  return fmt_time(l.median)
end
M.lat = lat

function M.latency(L)
  out("")
  out("LATENCY (each in fresh processes; median)")
  out("  require \"lumba\"                 " .. lat(L.lumba_require, true))
  out("  import numba                     " .. lat(L.numba_import, true))
  out("  load lumba's backend (LLVM)      " .. lat(L.llvm_load, true))
  out("  lumba first call (compile+run)   " .. lat(L.lumba_first, true))
  out("  Numba first call (compile+run)   " .. lat(L.numba_first, true))
  out("  lumba first call, warm cache     " .. lat(L.lumba_cache, true))
  out("  Numba first call, warm cache     " .. lat(L.numba_cache, true))
  local om = L.objmode
  out("  object mode / plain Lua, ising   " .. (om and om.status == "ok" and
    string.format("%.3f s / %.3f s", om.values.OBJMODE, om.values.HANDLUA) or lat(om)))
  local ld, nd = L.lumba_dispatch, L.numba_dispatch
  if ld and ld.status == "ok" then
    out(string.format("  lumba dispatch                   %.1f ns/call (Lua function %.1f, C function %s, empty loop %.1f; others %s)",
      ld.values.DISPATCH, ld.values.LUAFN, ld.values.CFN and string.format("%.1f", ld.values.CFN) or "-",
      ld.values.EMPTYLOOP, fmt_others(ld.foreign)))
  else
    out("  lumba dispatch                   " .. lat(ld))
  end
  if nd and nd.status == "ok" then
    out(string.format("  Numba dispatch                   %.1f ns/call (Python function %.1f; others %s)",
      nd.values.DISPATCH, nd.values.PYCALL, fmt_others(nd.foreign)))
  else
    out("  Numba dispatch                   " .. lat(nd))
  end
  out("  lumba scaling                    " .. M.scaling_text(L.lumba_scaling))
  out("  Numba scaling                    " .. M.scaling_text(L.numba_scaling))
end

-- issue 23's figures of one runner: "chain 10: 0.05 s, ..., load 200: ..., 3 arrays: 60 ns (Lua 20 ns)"
function M.scaling_text(r)
  if not (r and r.status == "ok") then return lat(r) end
  local parts = {}
  for _, key in ipairs { "CHAIN", "LOAD" } do
    local ns = {}
    for k in pairs(r.values) do
      local n = tonumber(k:match("^" .. key .. "(%d+)$"))
      if n then ns[#ns + 1] = n end
    end
    table.sort(ns)
    for _, n in ipairs(ns) do
      parts[#parts + 1] = string.format("%s %d: %.3g s", key == "CHAIN" and "chain" or "load", n, r.values[key .. n])
    end
  end
  if r.values.DISPATCH3 then
    parts[#parts + 1] = string.format("3 arrays: %.1f ns/call", r.values.DISPATCH3) ..
      (r.values.LUAFN3 and string.format(" (Lua function, 3 tables: %.1f)", r.values.LUAFN3) or "")
  end
  return table.concat(parts, ", ") .. "; others " .. fmt_others(r.foreign)
end

function M.targets(tg, quick)
  out("")
  out("TARGETS" .. (quick and " (quick mode: sizes too small, not a verdict)" or ""))
  for _, t in ipairs(tg) do
    local m = t.measured or ""
    if #m > 50 then m = m:sub(1, 47) .. "..." end
    out(string.format("  %-5s %-66s %s %s", t.status, t.what, m, t.detail or ""))
  end
end

-- RESULTS.md ---------------------------------------------------------------

local function md_escape(s) return (tostring(s):gsub("|", "\\|"):gsub("\n", " ")) end

local function md_status(r)
  if r.status == "ok" then
    return fmt_check(r.check) .. (r.exact and " (= C)" or " (≈ C)")
  elseif r.status == "failed" then
    return "**FAILED**: " .. md_escape(r.reason)
  elseif r.status == "error" then
    return "**ERROR**: " .. md_escape(r.reason or "?")
  end
  return md_escape(r.reason or "not run")
end

function M.markdown(ctx)
  local m, b = ctx.machine, {}
  local function w(s) b[#b + 1] = s or "" end
  w("# lumba benchmark results")
  w("")
  w("Written by `make bench` (bench/run.lua) on " .. m.date .. "; rewritten on every run, do not edit.")
  if ctx.quick then
    w("")
    w("**BENCH_QUICK run: smoke-test sizes and short timings. These figures are not the benchmark.**")
  end
  if ctx.failed > 0 then
    w("")
    w(string.format("**%d result(s) FAILED: they disagree with C (see the rows marked FAILED).**", ctx.failed))
  end
  w("")
  w("![speed relative to the fastest C](chart.svg)")
  w("")
  w("## Machine")
  w("")
  w("| | |")
  w("|---|---|")
  w("| CPU | " .. m.cpu .. " (" .. table.concat(m.flags, ", ") .. ") |")
  w(string.format("| cores | %d available to the bench (%d logical in /proc/cpuinfo); parallel runs use %d threads |",
    m.cores, m.logical, m.cores))
  if m.mem then w(string.format("| memory | %.1f GiB |", tonumber(m.mem) / 1048576)) end
  w("| OS | " .. m.os .. ", " .. m.kernel .. " |")
  w("| load average | " .. (m.load_start or "?") .. " at start, " .. (m.load_end or "?") .. " at end |")
  w("| C compilers | " .. md_escape(m.gcc) .. "; " .. md_escape(m.clang) .. " |")
  w("| C flags | `" .. ctx.flags .. "` (and `-fopenmp` for the C+OpenMP builds) |")
  w("| LLVM (lumba's backend) | " .. m.llvm .. " |")
  w("| Lua | " .. md_escape(m.lua) .. "; " .. md_escape(m.luajit) .. " |")
  w("| Python | " .. md_escape(m.python or "?") .. ", " .. md_escape(m.numba or "?") .. " |")
  w("| lumba | " .. md_escape(m.lumba or "?") .. (m.git and (", commit " .. m.git) or "") .. " |")
  w("")
  w("## Method")
  w("")
  local e = ctx.settings.env
  w("Every tool runs in its own process, one after the other, in this one run. Each builds the same")
  w("inputs (MINSTD stream, `bench/c/bench.h`), runs the kernel " .. e.BENCH_WARMUP .. " times untimed")
  w("(the JITs compile there), then times single calls with a monotonic clock until at least " .. e.BENCH_MINREPS)
  w("calls and " .. e.BENCH_BUDGET .. " s have passed (at most " .. e.BENCH_MAXREPS .. " calls): median, min and max.")
  local he = ctx.settings.heavy_env
  if he then
    w("The heavy rows (a call takes 50 ms to a second: the n-body step and the stencil) run " .. he.BENCH_WARMUP ..
      " untimed call(s)")
    w("and " .. he.BENCH_MINREPS .. " timed ones" .. (ctx.settings.heavy_rounds and
      string.format(", in %d round", ctx.settings.heavy_rounds) or "") .. ".")
  end
  w(string.format("Each row runs every tool %d time(s), round after round, each in a fresh process; the round", ctx.settings.rounds))
  w("with the lower median counts (the machine may be shared: this drops a round another process slowed).")
  w("Each tool's result (the returned value, or a checksum of the output array) is checked against C's")
  w("before its time counts; a mismatch is marked **FAILED**. Ratios are pair by pair within this run:")
  w("a tool's median over the median of the faster C build of the same row (< 1 is faster than C).")
  w("lumba and Numba compile the same file, `bench/kernels/<kernel>.py`. C is built without fused")
  w("multiply-add (`-ffp-contract=off`), the floating-point semantics of the other tools. Plain Lua runs")
  w("only on the sizes where it finishes quickly; larger sizes say \"not run\", never extrapolated.")
  w("\"others\" is how many cores other processes kept busy while a figure was taken (/proc/stat minus")
  w(string.format("the bench's own processes). Above %.2f (marked !) the figure competed for a core and is", noisy))
  w(string.format("taken again while a retry budget of %d s lasts; the parallel rows suffer first. Targets judged", ctx.settings.retry_s))
  w("on such figures say \"noisy\".")
  w("")
  for _, d in ipairs(ctx.rows) do
    local row, ev = d.row, d.ev
    w("### " .. row.title .. ", " .. row.size .. (row.group == "parallel" and " (parallel)" or ""))
    w("")
    w("`bench/kernels/" .. row.py .. "`" .. (row.py_loop and (" (as loops: `bench/kernels/" .. row.py_loop .. "`)") or "") ..
      ", `bench/c/" .. row.c .. ".c`; result checked against " ..
      (ev.ref_tool or "no C result") .. "; other processes used " ..
      (row.foreign and string.format("%.2f", row.foreign) or "?") .. " cores on average during this row.")
    w("")
    local par = row.group == "parallel"
    w("| tool | median | min | max | runs | × fastest C" .. (par and "+OpenMP" or "") ..
      (par and " | speed-up over serial" or "") .. " | others | result |")
    w("|---|--:|--:|--:|--:|--:|" .. (par and "--:|" or "") .. "--:|---|")
    for _, t in ipairs(d.order) do
      local r = d.results[t]
      local label = ctx.tools[t].label
      if r.status == "ok" or r.status == "failed" then
        local su = M.speedup(d.results, t)
        w(string.format("| %s | %s | %s | %s | %d | %s |%s %s | %s |", label, fmt_time(r.time.median, "µ"),
          fmt_time(r.time.min, "µ"), fmt_time(r.time.max, "µ"), r.time.reps,
          r.ratio and string.format("%.2f", r.ratio) or "–",
          par and (" " .. (su and string.format("%.2f", su) or "") .. " |") or "", fmt_others(r.foreign),
          md_status(r)))
      else
        w(string.format("| %s | | | | | |%s | %s |", label, par and " |" or "", md_status(r)))
      end
    end
    local notes = {}
    for _, t in ipairs(d.order) do
      for _, n in ipairs(d.results[t].notes or {}) do notes[#notes + 1] = ctx.tools[t].label .. ": " .. n end
    end
    if #notes > 0 then
      w("")
      for _, n in ipairs(notes) do w("- " .. md_escape(n)) end
    end
    w("")
  end
  if ctx.selected_latency then
    local L = ctx.latency
    w("## Latency")
    w("")
    w("Medians over fresh processes (`lua5.4`, `" .. "python3" .. "`), each timing inside the process.")
    w("First call: from `njit(src)` (Numba: executing the decorated `def`) to the end of the first call of")
    w("`ising_energy_numba` (seed 1, verbatim) on a " .. ctx.settings.firstcall_n .. "² lattice: parse, type")
    w("inference, optimisation, JIT and the call; each process gets an empty cache directory.")
    w("Warm cache: the same with `njit{cache=true}` (Numba: `cache=True`) and a cache directory a previous")
    w("process filled; every warm lumba process must report one cache hit and no miss (`lumba.cache.info()`),")
    w("or the figure is an error.")
    w("")
    w("| figure | lumba | Numba |")
    w("|---|---|---|")
    w("| `require \"lumba\"` / `import numba` | " .. md_escape(lat(L.lumba_require, true)) .. " | " ..
      md_escape(lat(L.numba_import, true)) .. " |")
    w("| loading the backend, backend.so with the parts of LLVM 14 it links (part of every first call) | " ..
      md_escape(lat(L.llvm_load, true)) .. " | |")
    w("| first call, compiling | " .. md_escape(lat(L.lumba_first, true)) .. " | " ..
      md_escape(lat(L.numba_first, true)) .. " |")
    w("| first call, warm cache | " .. md_escape(lat(L.lumba_cache, true)) .. " | " ..
      md_escape(lat(L.numba_cache, true)) .. " |")
    local ld, nd = L.lumba_dispatch, L.numba_dispatch
    local lds = ld and ld.status == "ok" and string.format(
      "%.1f ns/call (a Lua function: %.1f ns, an empty C function: %s ns, the empty loop: %.1f ns; others %s)",
      ld.values.DISPATCH, ld.values.LUAFN, ld.values.CFN and string.format("%.1f", ld.values.CFN) or "–",
      ld.values.EMPTYLOOP, fmt_others(ld.foreign)) or lat(ld)
    local nds = nd and nd.status == "ok" and string.format("%.1f ns/call (a Python function: %.1f ns; others %s)",
      nd.values.DISPATCH, nd.values.PYCALL, fmt_others(nd.foreign)) or lat(nd)
    w("| dispatch of `def f(x): return x + 1.0`, " .. ctx.settings.calls .. " calls from a loop | " ..
      md_escape(lds) .. " | " .. md_escape(nds) .. " |")
    w("| issue 23: a chain of n functions each calling the previous one, loaded and every one called " ..
      "(chain n); a module of n small functions loaded (load n: lumba.load, Numba's exec of the module); " ..
      "a call with 3 arrays | " .. md_escape(M.scaling_text(L.lumba_scaling)) .. " | " ..
      md_escape(M.scaling_text(L.numba_scaling)) .. " |")
    local om = L.objmode
    w("| object mode (jit's fallback: the function translated to Lua) on the seed's Ising energy, best of 3 | " ..
      md_escape(om and om.status == "ok" and string.format(
      "N = %d: %.3f s; the same loop written by hand in plain Lua: %.3f s (`bench/objmode_ising.lua`)",
      om.values.N, om.values.OBJMODE, om.values.HANDLUA) or lat(om)) .. " | |")
    w("")
  end
  w("## Targets")
  w("")
  if ctx.quick then
    w("Quick mode: the sizes are too small for these to mean anything; listed to exercise the checks.")
    w("")
  end
  w("| issue | target | measured | status |")
  w("|---|---|---|---|")
  for _, t in ipairs(ctx.targets) do
    w(string.format("| %s | %s | %s | **%s**%s |", t.issue, md_escape(t.what), md_escape(t.measured or ""),
      t.status, t.detail and (" " .. md_escape(t.detail)) or ""))
  end
  w("")
  return table.concat(b, "\n")
end

-- results.tsv: one line per row and tool, for tests and scripts
function M.tsv(ctx)
  local b = { "row\ttool\tstatus\tcheck\tmedian\tmin\tmax\treps\tratio\treason" }
  local function s(v) return v == nil and "" or (type(v) == "number" and string.format("%.17g", v) or
    tostring(v):gsub("[\t\n]", " ")) end
  for _, d in ipairs(ctx.rows) do
    for _, t in ipairs(d.order) do
      local r = d.results[t]
      local tm = r.time or {}
      b[#b + 1] = table.concat({ d.row.id, t, r.status, s(r.check), s(tm.median), s(tm.min), s(tm.max),
        s(tm.reps), s(r.ratio), s(r.reason) }, "\t")
    end
  end
  for k, l in pairs(ctx.latency) do
    b[#b + 1] = table.concat({ "latency", k, l.status, "", s(l.median), s(l.min), s(l.max), "", "",
      s(l.reason) }, "\t")
  end
  return table.concat(b, "\n") .. "\n"
end

return M
