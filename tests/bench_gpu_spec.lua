-- bench_gpu_spec.lua — the judgement of `make bench-gpu` (bench/lib/
-- gpu_report.lua), without a GPU: runner figures made up here go through the
-- agreement check with CUDA C, the derived bandwidths and ratios, the targets
-- and RESULTS-gpu.md, and each is compared with values computed by hand.
package.path = "bench/lib/?.lua;" .. package.path
local catalog = require "gpu_catalog"
local report = require "gpu_report"

local function fig(median, check)
  return { median = median, min = median * 0.9, max = median * 1.2, reps = 20, check = check }
end

-- N = 10^8: a copy moves 16e8 bytes, exp decay 16e8, vector add 12e8
local function context()
  local ctx = {
    machine = { date = "2026-01-01 00:00 UTC", gpu = "Test GPU", cc = "9.0", gpu_mem = "1 MiB", gpus = 1,
      driver = "1.0", cuda_driver = "13.0", nvcc = "13.0", cpu = "cpu", cores = "1", os = "os" },
    quick = false, sizes = catalog.sizes(false), catalog = catalog, arch = "sm_90", skipped = {},
    notes = { cuda = {}, lumba = {}, numba = {} },
    results = {
      cuda = { copy = fig(4e-4), expdecay = fig(5e-4, 100.0), vadd = fig(4e-4, 50.0), matmul = fig(2e-3, 1000.0),
        launch3 = fig(4e-6) },
      lumba = { copy = fig(5e-4), expdecay = fig(4.5e-4, 100.001), vadd = fig(5e-4, 50.0),
        matmul = fig(2.2e-3, 1000.005), launch3 = fig(4e-6), newkernel = fig(0.02), firstlaunch = fig(0.06) },
      numba = { expdecay = fig(6e-4, 100.0 + 5e-8), launch3 = fig(2e-5) },
    },
  }
  return ctx
end

local function find(list, prefix)
  for _, t in ipairs(list) do
    if t.what:sub(1, #prefix) == prefix then return t end
  end
end

describe("make bench-gpu's judgement (no GPU needed) #bench", function()
  it("marks a kernel result that disagrees with CUDA C as FAILED, and its time then counts nowhere", function()
    local ctx = context()
    assert.are.equal(1, report.check(ctx))
    local k = catalog.kernels(ctx.sizes)[1]
    assert.are.equal("expdecay", k.id)
    assert.are.equal("FAILED: result 100.001 differs from CUDA C's 100 (rtol 1e-09)", ctx.results.lumba.expdecay.error)
    assert.is_nil(report.derive(ctx, k, "lumba"))
    local t = find(report.targets(ctx), "exp decay")
    assert.are.equal("n/a", t.status)
    assert.are.equal(ctx.results.lumba.expdecay.error, t.measured)
    -- within 1e-9 of CUDA C's: kept; float32 matmul within its 1e-5: kept
    assert.is_nil(ctx.results.numba.expdecay.error)
    assert.is_nil(ctx.results.lumba.matmul.error)
  end)

  it("takes the roof from the fastest copy and derives bandwidth, its share and the ratio to CUDA C", function()
    local ctx = context()
    report.check(ctx)
    local roof, who = report.roof(ctx)
    assert.are.equal(16e8 / 4e-4, roof)
    assert.are.equal("cuda", who)
    local vadd = catalog.kernels(ctx.sizes)[2]
    assert.are.equal("vadd", vadd.id)
    local d = report.derive(ctx, vadd, "lumba")
    assert.are.equal(12e8 / 5e-4 / 1e9, d.gbs)
    assert.is_true(math.abs(d.share - 0.6) < 1e-12)
    assert.is_true(math.abs(d.vs_c - 1.25) < 1e-12)
    local t = find(report.targets(ctx), "vector add")
    assert.are.equal("MISS", t.status)
    assert.are.equal("60%", t.measured)
    -- CUDA C's own share (12e8 / 4e-4 over the roof: 75%) explains the miss
    assert.are.equal("by 33% (CUDA C: 75%)", t.detail)
    -- the same work restructured (4 elements a thread) shows what reaches the roof
    ctx.results.cuda.vadd4 = fig(2.4e-4, 50.0)
    ctx.results.lumba.vadd4 = fig(2.5e-4, 50.0)
    report.check(ctx)
    t = find(report.targets(ctx), "vector add")
    assert.are.equal("by 33% (CUDA C: 75%) (vector add, 4 elements a thread (restructured): lumba 120%)", t.detail)
  end)

  it("judges launch overhead against 5 µs and against numba-cuda, and the first launch of a new kernel", function()
    local ctx = context()
    report.check(ctx)
    local list = report.targets(ctx)
    local t = find(list, "launch overhead, 3 array arguments: lumba ≤ 5 µs")
    assert.are.same({ "PASS", "4.00 µs", "(CUDA C <<<>>>: 4.00 µs)" }, { t.status, t.measured, t.detail })
    t = find(list, "launch overhead, 3 array arguments: lumba below numba-cuda")
    assert.are.same({ "PASS", "0.20×" }, { t.status, t.measured })
    -- numba-cuda's launch failed: no figure to judge, and the reason instead
    local saved = ctx.results.numba.launch3
    ctx.results.numba.launch3 = { error = "AttributeError: row_stack" }
    t = find(report.targets(ctx), "launch overhead, 3 array arguments: lumba below numba-cuda")
    assert.are.same({ "n/a", "AttributeError: row_stack" }, { t.status, t.measured })
    ctx.results.numba.launch3 = saved
    t = find(list, "first launch of a new kernel")
    assert.are.same({ "PASS", "20 ms", "(the process's first kernel: 60 ms)" }, { t.status, t.measured, t.detail })
    ctx.results.lumba.launch3 = fig(6e-6)
    t = find(report.targets(ctx), "launch overhead, 3 array arguments: lumba ≤ 5 µs")
    assert.are.same({ "MISS", "6.00 µs", "by 20% (CUDA C <<<>>>: 4.00 µs)" }, { t.status, t.measured, t.detail })
  end)

  it("says why a tool did not run, and keeps the two-GPU section at the end of RESULTS-gpu.md", function()
    local ctx = context()
    ctx.skipped.numba = "numba-cuda not available (python3: No module named 'numba')"
    ctx.results.numba = {}
    report.check(ctx)
    ctx.targets = report.targets(ctx)
    local t = find(ctx.targets, "launch overhead, 3 array arguments: lumba below numba-cuda")
    assert.are.same({ "n/a", ctx.skipped.numba }, { t.status, t.measured })
    local two = "## Two GPUs (examples/multi_gpu.lua)\n\nspeed-up 1.94×\n"
    local md = report.markdown(ctx, two)
    assert.are.equal("# GPU benchmark results\n", md:sub(1, 24))
    assert.are.equal(two, md:sub(-#two))
    local _, count = md:gsub("## Two GPUs", "")
    assert.are.equal(1, count)
    assert.truthy(md:find("| GPU | Test GPU (compute capability 9.0, 1 MiB), 1 on this host |", 1, true))
    assert.truthy(md:find("**1 result(s) FAILED: they disagree with CUDA C.**", 1, true))
  end)
end)
