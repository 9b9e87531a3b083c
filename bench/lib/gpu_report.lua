-- gpu_report.lua — the figures of `make bench-gpu` derived from the runners'
-- times (bandwidth, share of the copy roof, ratios to CUDA C), its targets,
-- and the text of stdout, RESULTS-gpu.md and results-gpu.tsv.
local M = {}

local function ok(r) return r and not r.error and r.median and r.median > 0 end

local function fmt_time(s)
  if s == nil then return "–" end
  if s >= 1 then return string.format("%.3g s", s) end
  if s >= 1e-3 then return string.format("%.3g ms", s * 1e3) end
  if s >= 1e-6 then return string.format("%.3g µs", s * 1e6) end
  return string.format("%.3g ns", s * 1e9)
end
M.fmt_time = fmt_time

local function md_escape(s) return (tostring(s):gsub("|", "\\|"):gsub("\n", " ")) end

-- why a figure is missing: the tool's reason, the figure's error, or not run
local function why(ctx, tool, id)
  if ctx.skipped[tool] then return ctx.skipped[tool] end
  local r = ctx.results[tool][id]
  if r and r.error then return r.error end
  if r then return "no time measured" end
  return "not run"
end

-- Marks every kernel result of lumba and numba-cuda that disagrees with CUDA
-- C's (beyond the kernel's rtol) as FAILED: its time then counts nowhere.
-- Without a CUDA C result a figure stays, marked unchecked. Returns (and
-- sets ctx.failed to) the number that failed.
function M.check(ctx)
  local failed = 0
  for _, k in ipairs(ctx.catalog.kernels(ctx.sizes)) do
    local ref = ctx.results.cuda[k.id]
    for _, t in ipairs { "lumba", "numba" } do
      local r = ctx.results[t][k.id]
      if r and not r.error then
        if not (ref and not ref.error and ref.check) then
          r.unchecked = true
        elseif not (r.check and math.abs(r.check - ref.check) <= k.rtol * math.max(math.abs(r.check),
            math.abs(ref.check))) then
          r.error = string.format("FAILED: result %.17g differs from CUDA C's %.17g (rtol %g)", r.check or 0 / 0,
            ref.check, k.rtol)
          r.failed = true
          failed = failed + 1
        end
      end
    end
  end
  ctx.failed = failed
  return failed
end

-- the roof: the best device-to-device copy of the run (bytes read + written)
function M.roof(ctx)
  local best, who
  for _, t in ipairs(ctx.catalog.tools) do
    local r = ctx.results[t.id].copy
    if ok(r) then
      local bw = 16 * ctx.sizes.GPU_N / r.median
      if not best or bw > best then best, who = bw, t.id end
    end
  end
  return best, who
end

-- per kernel and tool: {median, min, max, reps, gbs, roof_share, gflops, vs_c}
function M.derive(ctx, k, tool)
  local r = ctx.results[tool][k.id]
  if not ok(r) then return nil end
  local d = { median = r.median, min = r.min, max = r.max, reps = r.reps, check = r.check }
  if k.bytes then
    d.gbs = k.bytes / r.median / 1e9
    local roof = M.roof(ctx)
    if roof then d.share = k.bytes / r.median / roof end
  end
  if k.flops then d.gflops = k.flops / r.median / 1e9 end
  local c = ctx.results.cuda[k.id]
  if ok(c) and tool ~= "cuda" then d.vs_c = r.median / c.median end
  return d
end

local function target(list, issue, what, value, limit, fmt, missing, at_least)
  local t = { issue = issue, what = what }
  if not value then  -- nil or false: a figure it needs is missing
    t.status, t.measured = "n/a", missing
  else
    t.measured = string.format(fmt, value)
    local pass = at_least and value >= limit or (not at_least and value <= limit)
    t.status = pass and "PASS" or "MISS"
    if not pass then
      t.detail = string.format("by %.0f%%", at_least and (1 - value / limit) * 100 or (value / limit - 1) * 100)
    end
  end
  list[#list + 1] = t
end

function M.targets(ctx)
  local list = {}
  local roof = M.roof(ctx)
  local by_id = {}
  for _, k in ipairs(ctx.catalog.kernels(ctx.sizes)) do by_id[k.id] = k end
  for _, k in ipairs(ctx.catalog.kernels(ctx.sizes)) do
    local d = M.derive(ctx, k, "lumba")
    local c = M.derive(ctx, k, "cuda")
    if k.bw then
      target(list, 8, k.title .. ": lumba ≥ 90% of the copy roof", d and d.share and d.share * 100, 90, "%.0f%%",
        d and "no copy roof" or why(ctx, "lumba", k.id), true)
      -- the same kernel in CUDA C, and the same work restructured, for the reason of a miss
      local t = list[#list]
      if c and c.share then
        t.detail = (t.detail and (t.detail .. " ") or "") .. string.format("(CUDA C: %.0f%%)", c.share * 100)
      end
      local rk = k.restructured and by_id[k.restructured]
      local rd = rk and M.derive(ctx, rk, "lumba")
      if t.status == "MISS" and rd and rd.share then
        t.detail = t.detail .. string.format(" (%s: lumba %.0f%%)", rk.title, rd.share * 100)
      end
    end
    if k.vs_c then
      target(list, 8, k.title .. ": lumba ≤ 1.2× CUDA C", d and d.vs_c, 1.2, "%.2f×",
        d and why(ctx, "cuda", k.id) or why(ctx, "lumba", k.id))
    end
    if k.vs_c22 then
      target(list, 22, k.title .. ": lumba ≤ 1.1× CUDA C", d and d.vs_c, 1.1, "%.2f×",
        d and why(ctx, "cuda", k.id) or why(ctx, "lumba", k.id))
      local nd = M.derive(ctx, k, "numba")
      target(list, 22, k.title .. ": lumba below numba-cuda (lumba / numba-cuda < 1)",
        d and nd and d.median / nd.median, 0.9999, "%.2f×", d and why(ctx, "numba", k.id) or why(ctx, "lumba", k.id))
    end
  end
  local l3, n3 = ctx.results.lumba.launch3, ctx.results.numba.launch3
  target(list, 6, "launch overhead, 3 array arguments: lumba ≤ 5 µs", ok(l3) and l3.median * 1e6, 5, "%.2f µs",
    why(ctx, "lumba", "launch3"))
  local c3 = ctx.results.cuda.launch3
  if ok(l3) and ok(c3) then
    local t = list[#list]
    t.detail = (t.detail and (t.detail .. " ") or "") .. string.format("(CUDA C <<<>>>: %.2f µs)", c3.median * 1e6)
  end
  target(list, 8, "launch overhead, 3 array arguments: lumba below numba-cuda (lumba / numba-cuda < 1)",
    ok(l3) and ok(n3) and l3.median / n3.median, 0.9999, "%.2f×",
    ok(l3) and why(ctx, "numba", "launch3") or why(ctx, "lumba", "launch3"))
  -- judged on a new kernel in a process that has loaded one: the first of a
  -- process also pays one-time costs (LLVM, libNVVM and libdevice loaded, the
  -- driver's first module load), shown beside it
  local f, f1 = ctx.results.lumba.newkernel, ctx.results.lumba.firstlaunch
  target(list, 6, "first launch of a new kernel (type, lower, NVVM, load) ≤ 100 ms", ok(f) and f.median * 1e3, 100,
    "%.3g ms", why(ctx, "lumba", "newkernel"))
  if ok(f1) then
    local t = list[#list]
    t.detail = (t.detail and (t.detail .. " ") or "") ..
      string.format("(the process's first kernel: %.3g ms)", f1.median * 1e3)
  end
  if roof == nil then
    list[#list + 1] = { issue = 8, what = "copy roof", status = "n/a", measured = "no device-to-device copy ran" }
  end
  if ctx.quick then
    for _, t in ipairs(list) do
      if t.status ~= "n/a" then t.detail = (t.detail and (t.detail .. " ") or "") .. "(quick sizes)" end
    end
  end
  return list
end

-- one cell: time, and the derived figure
local function cell(ctx, k, tool)
  local d = M.derive(ctx, k, tool)
  if not d then return nil, why(ctx, tool, k.id) end
  local s = fmt_time(d.median)
  if d.gbs then s = s .. string.format(", %.0f GB/s", d.gbs) end
  if d.share then s = s .. string.format(" (%.0f%% of roof)", d.share * 100) end
  if d.gflops then s = s .. string.format(", %.0f GFLOP/s", d.gflops) end
  if ctx.results[tool][k.id].unchecked then s = s .. " (unchecked: no CUDA C result)" end
  return s, d
end

function M.text(ctx)
  local b = {}
  local function w(s) b[#b + 1] = s end
  local roof, who = M.roof(ctx)
  w("")
  w(string.format("copy roof: %s", roof and string.format("%.0f GB/s (device-to-device, %s)", roof / 1e9, who) or
    "not measured"))
  for _, k in ipairs(ctx.catalog.kernels(ctx.sizes)) do
    w("")
    w(k.title .. ", " .. k.size)
    for _, t in ipairs(ctx.catalog.tools) do
      local s, d = cell(ctx, k, t.id)
      w(string.format("  %-20s %s%s", t.label, s or d,
        s and d.vs_c and string.format("   %.2f× CUDA C", d.vs_c) or ""))
    end
  end
  w("")
  w("launch overhead (host time per asynchronous launch) and first launch")
  local rows = {}
  for _, r in ipairs(ctx.catalog.launch_rows) do rows[#rows + 1] = r end
  rows[#rows + 1] = { id = "firstlaunch", title = "first launch, first kernel" }
  rows[#rows + 1] = { id = "newkernel", title = "first launch, a new kernel" }
  rows[#rows + 1] = { id = "import", title = "import numba.cuda" }
  for _, r in ipairs(rows) do
    local cells = {}
    for _, t in ipairs(ctx.catalog.tools) do
      local x = ctx.results[t.id][r.id]
      cells[#cells + 1] = string.format("%s %s", t.id, ok(x) and fmt_time(x.median) or "–")
    end
    w(string.format("  %-32s %s", r.title, table.concat(cells, "   ")))
  end
  w("")
  w("transfers")
  for _, r in ipairs(ctx.catalog.transfer_rows) do
    local cells = {}
    for _, t in ipairs(ctx.catalog.tools) do
      local x = ctx.results[t.id][r.id]
      cells[#cells + 1] = string.format("%s %s", t.id,
        ok(x) and string.format("%.1f GB/s", ctx.sizes.GPU_XFER_BYTES / x.median / 1e9) or "–")
    end
    w(string.format("  %-32s %s", r.title, table.concat(cells, "   ")))
  end
  w("")
  w("TARGETS")
  for _, t in ipairs(ctx.targets) do
    w(string.format("  %-5s %-80s %s %s", t.status, t.what, t.measured or "", t.detail or ""))
  end
  for _, t in ipairs(ctx.catalog.tools) do
    if ctx.skipped[t.id] then w("  " .. t.label .. ": " .. ctx.skipped[t.id]) end
    for _, n in ipairs(ctx.notes[t.id]) do w("  " .. t.label .. ": " .. n) end
  end
  return table.concat(b, "\n")
end

function M.markdown(ctx, two_gpus)
  local m, b = ctx.machine, {}
  local function w(s) b[#b + 1] = s or "" end
  local roof, who = M.roof(ctx)
  local z = ctx.sizes
  w("# GPU benchmark results")
  w("")
  w("Written by `make bench-gpu` (bench/run_gpu.lua) on " .. m.date .. "; rewritten on every run.")
  if ctx.quick then
    w("")
    w("**BENCH_QUICK run: smoke-test sizes. These figures are not the benchmark.**")
  end
  if ctx.failed > 0 then
    w("")
    w(string.format("**%d result(s) FAILED: they disagree with CUDA C.**", ctx.failed))
  end
  w("")
  w("## Machine")
  w("")
  w("| | |")
  w("|---|---|")
  w(string.format("| GPU | %s (compute capability %s, %s), %s on this host |", md_escape(m.gpu or "?"),
    m.cc or "?", md_escape(m.gpu_mem or "?"), tostring(m.gpus)))
  w(string.format("| driver | %s (CUDA %s) |", m.driver or "?", m.cuda_driver or "?"))
  w(string.format("| nvcc | %s, `-O3 -arch=%s` |", md_escape(m.nvcc or "absent"), ctx.arch))
  w(string.format("| host | %s, %s cores, %s |", md_escape(m.cpu), m.cores, md_escape(m.os)))
  for _, t in ipairs(ctx.catalog.tools) do
    local ns = ctx.notes[t.id]
    if #ns > 0 then w(string.format("| %s | %s |", t.label, md_escape(table.concat(ns, "; ")))) end
  end
  w(string.format("| lumba commit | %s |", m.git or "?"))
  w("")
  w("## Method")
  w("")
  w("Three processes, one after the other, on the same GPU in one run: the CUDA C programs of `bench/cuda/`")
  w("(one per kernel, built by this run with nvcc), `bench/lumba/run_cuda.lua` and `bench/numba/run_cuda.py`.")
  w("lumba and numba-cuda compile the same files, `bench/kernels/cuda_*.py`; the CUDA C kernels are the same")
  w("algorithms line for line (same block sizes and grids). Inputs come from the MINSTD stream of")
  w("`bench/c/bench.h`, the same in every tool; each kernel's result (the sum of its output, or the")
  w("reduction's value) is checked against CUDA C's before its time counts. Kernel times are CUDA events")
  w(string.format("around single launches of device-resident data, %d launches after 3 untimed ones: median,", z.GPU_REPS))
  w("min and max. Bandwidth counts each element read and written once. The roof is the fastest")
  w("device-to-device copy of the run (`cudaMemcpyAsync`, `copy_to_device` of a device array), read and")
  w(string.format("write both counted. Launch overhead: host time of batches of %d asynchronous launches of an",
    z.GPU_LAUNCH_BATCH))
  w(string.format("empty kernel `<<<1, 32>>>` (synchronized between batches), per launch; median over %d batches.",
    z.GPU_LAUNCH_BATCHES))
  w("First launch: from `cuda.jit(source)` (numba-cuda: executing the decorated module) to the end of the")
  w("first launch and a synchronize, in a process whose context already exists: the process's first kernel")
  w("(which also pays the one-time loads: lumba's LLVM backend, libNVVM and libdevice, the driver's first")
  w("module), then a second new kernel. The driver's JIT cache is off (`CUDA_CACHE_DISABLE=1`), so both")
  w("include the driver turning PTX into machine code, as a user's first run does; later processes may")
  w(string.format("find that step in the cache. CUDA C compiles ahead of time (nvcc built the %d programs in %.1f s,",
    m.nvcc_programs or #ctx.catalog.programs(z), m.nvcc_build_s or 0))
  w("in parallel); its first launch is the driver loading the module.")
  w(string.format("Transfers: %d MiB between one device array and a pageable (malloc'd, touched) or pinned host",
    z.GPU_XFER_BYTES // (1 << 20)))
  w("buffer, events around each copy.")
  w("")
  w("## Kernels")
  w("")
  w(string.format("Copy roof: **%s**.", roof and string.format("%.0f GB/s", roof / 1e9) .. " (" .. who .. ")" or
    "not measured"))
  w("")
  w("| kernel | size | CUDA C | lumba | numba-cuda | lumba / CUDA C | numba-cuda / CUDA C |")
  w("|---|---|---|---|---|--:|--:|")
  local copyrow = {}
  for _, t in ipairs(ctx.catalog.tools) do
    local r = ctx.results[t.id].copy
    copyrow[#copyrow + 1] = ok(r) and string.format("%s, %.0f GB/s", fmt_time(r.median),
      16 * z.GPU_N / r.median / 1e9) or md_escape(why(ctx, t.id, "copy"))
  end
  w(string.format("| device-to-device copy (roof) | %s float64 | %s | | |", ctx.catalog.kernels(z)[1].size:match("^%S+"),
    table.concat(copyrow, " | ")))
  for _, k in ipairs(ctx.catalog.kernels(z)) do
    local cells, ratios = {}, {}
    for _, t in ipairs(ctx.catalog.tools) do
      local s, d = cell(ctx, k, t.id)
      if s then
        s = string.format("%s (min %s, max %s)", s, fmt_time(d.min), fmt_time(d.max))
      end
      cells[#cells + 1] = s or md_escape(d)
      if t.id ~= "cuda" then ratios[#ratios + 1] = s and d.vs_c and string.format("%.2f", d.vs_c) or "–" end
    end
    w(string.format("| %s | %s | %s | %s |", k.title, k.size, table.concat(cells, " | "), table.concat(ratios, " | ")))
  end
  w("")
  w("## Launch overhead and first launch")
  w("")
  w("| figure | CUDA C | lumba | numba-cuda |")
  w("|---|---|---|---|")
  local rows = {}
  for _, r in ipairs(ctx.catalog.launch_rows) do rows[#rows + 1] = r end
  rows[#rows + 1] = { id = "firstlaunch",
    title = "first launch of the process's first kernel (exp decay; CUDA C: the module's load)" }
  rows[#rows + 1] = { id = "newkernel", title = "first launch of a new kernel after it (vector add)" }
  rows[#rows + 1] = { id = "import", title = "`import numba.cuda`" }
  for _, r in ipairs(rows) do
    local cells = {}
    for _, t in ipairs(ctx.catalog.tools) do
      local x = ctx.results[t.id][r.id]
      if ok(x) then
        cells[#cells + 1] = x.reps > 1 and string.format("%s (min %s, max %s)", fmt_time(x.median), fmt_time(x.min),
          fmt_time(x.max)) or fmt_time(x.median)
      elseif t.id == "cuda" and r.id == "newkernel" then
        cells[#cells + 1] = "compiled ahead of time"
      elseif r.id == "import" and t.id ~= "numba" then
        cells[#cells + 1] = ""
      else
        cells[#cells + 1] = md_escape(why(ctx, t.id, r.id))
      end
    end
    w(string.format("| %s | %s |", r.title, table.concat(cells, " | ")))
  end
  w("")
  w(string.format("## Transfers, %d MiB", z.GPU_XFER_BYTES // (1 << 20)))
  w("")
  w("| direction | CUDA C | lumba | numba-cuda |")
  w("|---|---|---|---|")
  for _, r in ipairs(ctx.catalog.transfer_rows) do
    local cells = {}
    for _, t in ipairs(ctx.catalog.tools) do
      local x = ctx.results[t.id][r.id]
      cells[#cells + 1] = ok(x) and string.format("%.1f GB/s (%s)", z.GPU_XFER_BYTES / x.median / 1e9,
        fmt_time(x.median)) or md_escape(why(ctx, t.id, r.id))
    end
    w(string.format("| %s | %s |", r.title, table.concat(cells, " | ")))
  end
  w("")
  w("## Targets")
  w("")
  w("| issue | target | measured | status |")
  w("|---|---|---|---|")
  for _, t in ipairs(ctx.targets) do
    w(string.format("| %s | %s | %s | **%s**%s |", t.issue, md_escape(t.what), md_escape(t.measured or ""), t.status,
      t.detail and (" " .. md_escape(t.detail)) or ""))
  end
  w("")
  if two_gpus then
    w(two_gpus)
  end
  return (table.concat(b, "\n"):gsub("\n*$", "\n"))
end

function M.tsv(ctx)
  local b = { "figure\ttool\tmedian\tmin\tmax\treps\tcheck\terror" }
  local ids = { "copy", "firstlaunch", "newkernel", "import" }
  for _, k in ipairs(ctx.catalog.kernels(ctx.sizes)) do ids[#ids + 1] = k.id end
  for _, r in ipairs(ctx.catalog.launch_rows) do ids[#ids + 1] = r.id end
  for _, r in ipairs(ctx.catalog.transfer_rows) do ids[#ids + 1] = r.id end
  local function s(v) return v == nil and "" or (type(v) == "number" and string.format("%.17g", v) or
    tostring(v):gsub("[\t\n]", " ")) end
  for _, id in ipairs(ids) do
    for _, t in ipairs(ctx.catalog.tools) do
      local r = ctx.results[t.id][id]
      if r or ctx.skipped[t.id] then
        r = r or { error = ctx.skipped[t.id] }
        b[#b + 1] = table.concat({ id, t.id, s(r.median), s(r.min), s(r.max), s(r.reps), s(r.check), s(r.error) }, "\t")
      end
    end
  end
  return table.concat(b, "\n") .. "\n"
end

return M
