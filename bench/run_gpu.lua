-- run_gpu.lua — `make bench-gpu`: lumba's cuda.jit kernels against the same
-- kernels in CUDA C (built here with nvcc) and in numba-cuda (where it is
-- installed), side by side in one run on one GPU: exp decay, vector add, the
-- 2-D stencil, a block reduction with atomics, a tiled matmul; issue 22's
-- Monte-Carlo integral with xoroshiro128p, cooperative heat equation (a grid
-- sync a step), warp-shuffle reduction and dynamic shared memory; launch
-- overhead with 0, 1 and 3 array arguments; the first launch of a new
-- kernel; the device-to-device copy roof; pinned and pageable transfers.
-- Every kernel's result is checked against CUDA C's before its time counts.
-- Writes RESULTS-gpu.md (keeping the "## Two GPUs" section of the one it
-- replaces) and results-gpu.tsv.
--
-- env: BENCH_QUICK=1  small sizes (a smoke test)
--      BENCH_OUT=dir  where RESULTS-gpu.md and results-gpu.tsv go (bench/)
--      BENCH_BUILD=dir where the CUDA C programs are built (bench/out/gpu)
--      GPU_N, GPU_MATMUL_N, ...  override one size (lib/gpu_catalog.lua)
--      NVCC, NVCC_ARCH  the compiler (CUDA_HOME/bin/nvcc, else nvcc) and
--                     its -arch (native)
--      BENCH_COMMIT   the commit recorded (else git rev-parse HEAD)
--      PYTHON         the Python with numba-cuda (python3); np_shim is
--                     imported first where PYTHONPATH finds it
--      GPU_ONLY=heatcoop,warpreduce  only these figures: the CUDA C programs
--                     that print them and the runners' figures (the runners
--                     read it too); the report then goes to bench/out/gpu-only
--                     unless BENCH_OUT says where
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/lib/?.lua;" .. package.path
local sys = require "sys"
local catalog = require "gpu_catalog"
local report = require "gpu_report"

local root = sys.line("cd " .. sys.quote(here .. "/..") .. " && pwd")
local quick = os.getenv("BENCH_QUICK") == "1"
local only
if (os.getenv("GPU_ONLY") or "") ~= "" then
  only = {}
  for id in os.getenv("GPU_ONLY"):gmatch("[^,%s]+") do only[id] = true end
end
-- a partial run does not replace bench/RESULTS-gpu.md
local out_dir = os.getenv("BENCH_OUT") or (root .. (only and "/bench/out/gpu-only" or "/bench"))
local build_dir = os.getenv("BENCH_BUILD") or (root .. "/bench/out/gpu")
local python = os.getenv("PYTHON") or "python3"
local cuda_home = os.getenv("CUDA_HOME") or "/usr/local/cuda"
local nvcc = os.getenv("NVCC") or (sys.have(cuda_home .. "/bin/nvcc") and (cuda_home .. "/bin/nvcc") or "nvcc")
local arch = os.getenv("NVCC_ARCH") or "native"
local limit = quick and 120 or 400
sys.mkdir(out_dir)
sys.mkdir(build_dir)

-- each size may be overridden by its variable (GPU_N=... and so on)
local sizes = catalog.sizes(quick)
for k in pairs(sizes) do sizes[k] = math.tointeger(tonumber(os.getenv(k) or "")) or sizes[k] end
local env = {}
for k, v in pairs(sizes) do env[k] = tostring(v) end
env.PYTHONDONTWRITEBYTECODE = "1"
-- the driver's JIT cache off: a first launch then includes turning PTX into
-- machine code, as in a user's first run (else a kernel whose PTX an earlier
-- process loaded, a test run say, starts from the cache)
env.CUDA_CACHE_DISABLE = "1"

local function say(s) io.stdout:write(s, "\n"); io.stdout:flush() end

-- the machine
local m = { date = os.date("!%Y-%m-%d %H:%M UTC") }
do
  local q = sys.line("nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader")
  if q then
    local f = {}
    for field in (q .. ","):gmatch("%s*([^,]*),") do f[#f + 1] = field end
    m.gpu, m.driver, m.gpu_mem, m.cc = f[1], f[2], f[3], f[4]
  end
  local smi = sys.shell("nvidia-smi")
  m.cuda_driver = smi:match("CUDA Version: ([%d%.]+)")
  m.gpus = select(2, (sys.shell("nvidia-smi -L")):gsub("GPU %d+:", ""))
  m.nvcc = (sys.shell(sys.quote(nvcc) .. " --version")):match("release ([^\n]+)")
  m.cpu = (sys.read("/proc/cpuinfo") or ""):match("model name%s*:%s*([^\n]+)") or "?"
  m.cores = sys.line("nproc") or "?"
  m.os = (sys.read("/etc/os-release") or ""):match('PRETTY_NAME="([^"]+)"') or "?"
  m.git = os.getenv("BENCH_COMMIT") or sys.line("git -C " .. sys.quote(root) .. " rev-parse --short HEAD")
end
say(string.rep("=", 100))
say("lumba GPU benchmark" .. (quick and " (BENCH_QUICK: smoke-test sizes)" or ""))
say(string.format("%s (%s GPU(s), cc %s, %s) | driver %s, CUDA %s | nvcc %s | %s", m.gpu or "no GPU found",
  tostring(m.gpus), m.cc or "?", m.gpu_mem or "?", m.driver or "?", m.cuda_driver or "?", m.nvcc or "absent",
  m.date))
say(string.rep("=", 100))

-- results[tool] = { [figure id] = {median=, min=, max=, reps=, check=} or
-- {error=} }, and skipped[tool] = why the whole tool did not run
local results, skipped, notes = {}, {}, {}
for _, t in ipairs(catalog.tools) do results[t.id], notes[t.id] = {}, {} end

local function parse(tool, out)
  local res = results[tool]
  for line in out:gmatch("[^\n]+") do
    local key, id, rest = line:match("^(%u+) (%S+) ?(.*)$")
    if key == "ROW" then
      local r = {}
      for k, v in rest:gmatch("(%w+)=(%S+)") do r[k] = tonumber(v) end
      res[id] = r
    elseif key == "ERROR" then
      res[id] = { error = rest }
    elseif key == "SKIP" and id == "all" then
      skipped[tool] = rest
    elseif key == "SKIP" then
      res[id] = { error = "skipped: " .. rest }
    elseif line:match("^NOTE ") then
      notes[tool][#notes[tool] + 1] = line:sub(6)
    end
  end
end

-- 1. CUDA C: build every program (in parallel), then run each
local t0 = sys.cpu_sample().up
if not m.nvcc then
  skipped.cuda = "nvcc not found (" .. nvcc .. ")"
else
  local jobs, programs = {}, {}
  for _, p in ipairs(catalog.programs(sizes)) do
    local keep = not only
    for _, id in ipairs(catalog.program_rows[p[1]] or { p[1] }) do keep = keep or only[id] end
    if keep then programs[#programs + 1] = p end
  end
  for _, p in ipairs(programs) do
    local bin = build_dir .. "/" .. p[1]
    jobs[#jobs + 1] = string.format("(%s -O3 -arch=%s -o %s %s > %s 2>&1 || echo FAILED %s) &", sys.quote(nvcc), arch,
      sys.quote(bin), sys.quote(root .. "/bench/cuda/" .. p[1] .. ".cu"), sys.quote(bin .. ".log"), p[1])
  end
  local out = sys.shell(table.concat(jobs, " ") .. " wait")
  m.nvcc_build_s, m.nvcc_programs = sys.cpu_sample().up - t0, #programs
  for _, p in ipairs(programs) do
    -- a program that fails gives its reason to each figure it did not print
    local function failed(why)
      for _, id in ipairs(catalog.program_rows[p[1]] or { p[1] }) do
        results.cuda[id] = results.cuda[id] or { error = why }
      end
    end
    if out:find("FAILED " .. p[1], 1, true) then
      failed("nvcc failed: " .. ((sys.read(build_dir .. "/" .. p[1] .. ".log") or "")
        :match("[^\n]*error[^\n]*") or "see " .. build_dir .. "/" .. p[1] .. ".log"))
    else
      local argv = { build_dir .. "/" .. p[1] }
      for i = 2, #p do argv[#argv + 1] = tostring(p[i]) end
      local r = sys.run(argv, { CUDA_CACHE_DISABLE = "1" }, limit)
      parse("cuda", r.out)
      if not r.ok then failed((r.error or "failed"):gsub("^[^:]*/bench/cuda/", "bench/cuda/")) end
    end
  end
end
say("CUDA C: built and ran")

-- 2. lumba and numba-cuda, one process each
do
  local r = sys.run({ "lua5.4", root .. "/bench/lumba/run_cuda.lua" }, env, limit)
  parse("lumba", r.out)
  if not r.ok and not skipped.lumba then notes.lumba[#notes.lumba + 1] = "runner failed: " .. (r.error or "?") end
  say("lumba: ran")
end
do
  local probe = sys.run({ python, "-c", "from numba import cuda" }, {}, 120)
  if not probe.ok then
    skipped.numba = "numba-cuda not available (" .. python .. ": " .. (probe.out:match("([^\n]+)\n?$") or "?") .. ")"
  else
    local r = sys.run({ python, root .. "/bench/numba/run_cuda.py" }, env, limit)
    parse("numba", r.out)
    if not r.ok and not skipped.numba then notes.numba[#notes.numba + 1] = "runner failed: " .. (r.error or "?") end
  end
  say("numba-cuda: " .. (skipped.numba or "ran"))
end

-- 3. agreement with CUDA C, then the report
local ctx = { machine = m, quick = quick, sizes = sizes, results = results, skipped = skipped, notes = notes,
  catalog = catalog, arch = arch }
local failed = report.check(ctx)
ctx.targets = report.targets(ctx)
say(report.text(ctx))
local previous = sys.read(root .. "/bench/RESULTS-gpu.md") or ""
sys.write(out_dir .. "/RESULTS-gpu.md", report.markdown(ctx, previous:match("\n(## Two GPUs.*)$")))
sys.write(out_dir .. "/results-gpu.tsv", report.tsv(ctx))
say("wrote " .. out_dir .. "/RESULTS-gpu.md, results-gpu.tsv")
if failed > 0 then
  say(string.format("FAILED: %d result(s) disagree with CUDA C", failed))
  os.exit(1)
end
