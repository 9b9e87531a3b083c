-- run_cuda.lua — the lumba runner of `make bench-gpu`: the cuda.jit kernels
-- of bench/kernels/cuda_*.py (the very files the numba-cuda runner imports)
-- on the GPU, the launch overhead, the first launch of a new kernel, the
-- device-to-device copy roof and host <-> device transfers. One process; one
-- line per figure, in seconds (bench/run_gpu.lua reads them):
--   ROW <id> median=<s> min=<s> max=<s> reps=<n> [check=<v>]
--   SKIP <id> <reason> / ERROR <id> <message> / NOTE <text>
-- Sizes come from the environment (GPU_N, GPU_MATMUL_N, ... see run_gpu.lua);
-- GPU_ONLY=id,id,... runs only those figures.
-- usage: lua5.4 bench/lumba/run_cuda.lua
local here = arg[0]:match("^(.*)/[^/]*$") or "."
local root = here .. "/../.."
package.path = here .. "/../lib/?.lua;" .. root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;" .. package.path
package.cpath = (os.getenv("LUMBA_CPATH") or (root .. "/build")) .. "/?.so;" .. package.cpath
local kernels = here .. "/../kernels/"

local function env_int(name, dflt) return math.tointeger(tonumber(os.getenv(name) or "")) or dflt end
local N = env_int("GPU_N", 100000000)
local MATMUL_N = env_int("GPU_MATMUL_N", 2048)
local STENCIL_N = env_int("GPU_STENCIL_N", 8192)
local SWEEPS = env_int("GPU_STENCIL_SWEEPS", 10)
local REPS = env_int("GPU_REPS", 20)
local REDUCE_BLOCKS = env_int("GPU_REDUCE_BLOCKS", 1024)
local XFER = env_int("GPU_XFER_BYTES", 1 << 30)
local XFER_REPS = env_int("GPU_XFER_REPS", 5)
local BATCHES = env_int("GPU_LAUNCH_BATCHES", 50)
local BATCH = env_int("GPU_LAUNCH_BATCH", 100)
local MC_THREADS = env_int("GPU_MC_THREADS", 1 << 20)
local MC_SAMPLES = env_int("GPU_MC_SAMPLES", 1000)
local HEAT_N = env_int("GPU_HEAT_N", 1 << 20)
local HEAT_STEPS = env_int("GPU_HEAT_STEPS", 10000)
local HEAT_BLOCKS = env_int("GPU_HEAT_BLOCKS", 256)
local HEAT_REPS = env_int("GPU_HEAT_REPS", 5)

local function read(path)
  local f = assert(io.open(path, "r"))
  local s = f:read("a")
  f:close()
  return s
end

local function one_line(s) return (tostring(s):gsub("\n", " | ")) end

local function row(id, t, check)
  table.sort(t)
  local n = #t
  local med = n % 2 == 1 and t[(n + 1) // 2] or 0.5 * (t[n // 2] + t[n // 2 + 1])
  io.write(string.format("ROW %s median=%.9g min=%.9g max=%.9g reps=%d", id, med, t[1], t[n], n))
  if check then io.write(string.format(" check=%.17g", check)) end
  io.write("\n")
  io.stdout:flush()
end

-- GPU_ONLY=heatcoop,warpreduce: only these figures run (and the figures
-- they sit inside, which then print their own rows too)
local only
if (os.getenv("GPU_ONLY") or "") ~= "" then
  only = {}
  for id in os.getenv("GPU_ONLY"):gmatch("[^,%s]+") do only[id] = true end
end
local inside = { expdecay2 = "expdecay", reduce = "expdecay", vadd4 = "vadd", dynsmem = "warpreduce",
  launch0 = "launch", launch1 = "launch", launch3 = "launch" }
local function wanted(id)
  if not only or only[id] then return true end
  for child, outer in pairs(inside) do
    if outer == id and only[child] then return true end
  end
  return false
end

-- one figure: fn() prints its ROW; an error becomes that figure's ERROR line
local function figure(id, fn)
  if not wanted(id) then return end
  local ok, err = xpcall(fn, debug.traceback)
  if not ok then
    print("ERROR " .. id .. " " .. one_line(err))
    io.stdout:flush()
  end
end

local ok_lumba, lumba = pcall(require, "lumba")
if not ok_lumba then
  print("SKIP all lumba does not load: " .. one_line(lumba))
  return
end
local cuda = lumba.cuda
local available, why = cuda.is_available()
if not available then
  print("SKIP all no GPU for lumba: " .. one_line(why))
  return
end
local now = lumba.clock

-- seconds of each of reps calls of fn() between two events, after warmup
local function events(fn, warmup, reps, before)
  for _ = 1, warmup do
    if before then before() end
    fn()
  end
  cuda.synchronize()
  local a, b = cuda.event(), cuda.event()
  local t = {}
  for i = 1, reps do
    if before then before() end
    a:record()
    fn()
    b:record()
    b:synchronize()
    t[i] = a:elapsed_time(b) * 1e-3
  end
  return t
end

-- host inputs from the MINSTD stream (bench/c/bench.h), filled by lumba on
-- the CPU; sums of outputs in index order, also compiled by lumba
local fill_uniform, seq_sum
local function cpu_helpers()
  if not fill_uniform then
    fill_uniform = lumba.njit(read(kernels .. "fill_uniform.py"))
    seq_sum = lumba.njit(read(kernels .. "sum.py"))
  end
end

local function uniform(n, seed, dtype)
  cpu_helpers()
  local a = lumba.zeros(n, dtype or "float64")
  fill_uniform(a, seed)
  return a
end

local function kernel(file) return cuda.jit(read(kernels .. file)) end

-- the context first, so that the first launch below counts the kernel alone
cuda.device_array(1)
cuda.synchronize()
print("NOTE lumba " .. tostring(lumba.version))

-- 1. first launch of a new kernel: cuda.jit(source) to the end of its first
-- launch (type inference, lowering, libNVVM, module load), context ready
figure("firstlaunch", function()
  local x, out = cuda.device_array(1024), cuda.device_array(1024)
  local t0 = now()
  local k = kernel("cuda_expdecay.py")
  k[{ 4, 256 }](x, out, 0.5, 1024)
  cuda.synchronize()
  row("firstlaunch", { now() - t0 })
end)

-- and of a second new kernel, now that the process has compiled and loaded one
figure("newkernel", function()
  local x, out = cuda.device_array(1024, "float32"), cuda.device_array(1024, "float32")
  local t0 = now()
  local k = kernel("cuda_vadd.py")
  k[{ 4, 256 }](x, x, out)
  cuda.synchronize()
  row("newkernel", { now() - t0 })
end)

-- 2. the roof: device-to-device copy of N float64 (read + write count)
figure("copy", function()
  local a, b = cuda.device_array(N), cuda.device_array(N)
  row("copy", events(function() b:copy_to_device(a) end, 3, REPS))
end)
collectgarbage()

-- 3. exp decay and the block reduction over the same N float64
figure("expdecay", function()
  local x = uniform(N, 777)
  local dx, dout = cuda.to_device(x), cuda.device_array(N)
  x = nil
  local launch = kernel("cuda_expdecay.py")[{ (N + 255) // 256, 256 }]
  local t = events(function() launch(dx, dout, 0.5, N) end, 3, REPS)
  row("expdecay", t, seq_sum(dout:copy_to_host()))
  figure("expdecay2", function()
    local launch2 = kernel("cuda_expdecay2.py")[{ (N + 511) // 512, 256 }]
    dout:copy_to_device(lumba.zeros(N))
    local t2 = events(function() launch2(dx, dout, 0.5, N) end, 3, REPS)
    row("expdecay2", t2, seq_sum(dout:copy_to_host()))
  end)
  collectgarbage()
  figure("reduce", function()
    local out, zero = cuda.device_array(1), lumba.zeros(1)
    local reduce = kernel("cuda_reduce.py")[{ REDUCE_BLOCKS, 256 }]
    out:copy_to_device(zero)
    reduce(dx, out)
    local check = out:copy_to_host():get(1)
    local tr = events(function() reduce(dx, out) end, 3, REPS, function() out:copy_to_device(zero) end)
    row("reduce", tr, check)
  end)
end)
collectgarbage()
cuda.synchronize()

-- 4. vector add, N float32
figure("vadd", function()
  local dx, dy = cuda.to_device(uniform(N, 2718, "float32")), cuda.to_device(uniform(N, 3141, "float32"))
  collectgarbage()
  local dout = cuda.device_array(N, "float32")
  local launch = kernel("cuda_vadd.py")[{ (N + 255) // 256, 256 }]
  local t = events(function() launch(dx, dy, dout) end, 3, REPS)
  row("vadd", t, seq_sum(dout:copy_to_host()))
  figure("vadd4", function()
    local launch4 = kernel("cuda_vadd4.py")[{ (N + 1023) // 1024, 256 }]
    dout:copy_to_device(lumba.zeros(N, "float32"))
    local t4 = events(function() launch4(dx, dy, dout) end, 3, REPS)
    row("vadd4", t4, seq_sum(dout:copy_to_host()))
  end)
end)
collectgarbage()
cuda.synchronize()

-- 5. tiled matmul, MATMUL_N² float32, 16 x 16 threads a block
figure("matmul", function()
  local n = MATMUL_N
  local A = uniform(n * n, 31, "float32"):reshape({ n, n })
  local B = uniform(n * n, 32, "float32"):reshape({ n, n })
  local dA, dB, dC = cuda.to_device(A), cuda.to_device(B), cuda.device_array({ n, n }, "float32")
  local g = (n + 15) // 16
  local launch = kernel("cuda_matmul.py")[{ { g, g }, { 16, 16 } }]
  local t = events(function() launch(dA, dB, dC) end, 3, REPS)
  row("matmul", t, seq_sum(dC:copy_to_host():reshape(n * n)))
end)
collectgarbage()
cuda.synchronize()

-- 6. stencil sweeps, STENCIL_N² float64, 32 x 8 threads a block
figure("stencil", function()
  local n = STENCIL_N
  local u0 = uniform(n * n, 99):reshape({ n, n })
  local a, b = cuda.to_device(u0), cuda.to_device(u0)
  u0 = nil
  collectgarbage()
  local launch = kernel("cuda_stencil.py")[{ { (n + 31) // 32, (n + 7) // 8 }, { 32, 8 } }]
  for s = 0, SWEEPS - 1 do
    if s % 2 == 0 then launch(a, b) else launch(b, a) end
  end
  local last = SWEEPS % 2 == 1 and b or a
  local check = seq_sum(last:copy_to_host():reshape(n * n))
  row("stencil", events(function() launch(a, b) end, 3, REPS), check)
end)
collectgarbage()
cuda.synchronize()

-- 6b. issue 22's kernels: Monte-Carlo with xoroshiro128p, a heat equation
-- with a grid sync a step (one cooperative launch), a warp-shuffle block
-- reduction, a 3-point average through dynamic shared memory
figure("mc", function()
  local states = cuda.random.create_xoroshiro128p_states(MC_THREADS, 1)
  local out = cuda.device_array(MC_THREADS)
  local launch = kernel("cuda_mc.py")[{ (MC_THREADS + 255) // 256, 256 }]
  launch(states, out, MC_SAMPLES)
  local check = seq_sum(out:copy_to_host())
  row("mc", events(function() launch(states, out, MC_SAMPLES) end, 2, REPS), check)
end)
collectgarbage()
figure("heatcoop", function()
  local u0 = uniform(HEAT_N, 55)
  local u, v = cuda.to_device(u0), cuda.to_device(u0)
  local launch = kernel("cuda_heat_coop.py")[{ HEAT_BLOCKS, 256 }]
  launch(u, v, HEAT_STEPS, 0.25)
  local check = seq_sum(u:copy_to_host())
  row("heatcoop", events(function() launch(u, v, HEAT_STEPS, 0.25) end, 1, HEAT_REPS), check)
end)
collectgarbage()
figure("warpreduce", function()
  local dx = cuda.to_device(uniform(N, 777))
  collectgarbage()
  local out, zero = cuda.device_array(1), lumba.zeros(1)
  local launch = kernel("cuda_warp_reduce.py")[{ REDUCE_BLOCKS, 256 }]
  out:copy_to_device(zero)
  launch(dx, out)
  local check = out:copy_to_host():get(1)
  row("warpreduce", events(function() launch(dx, out) end, 3, REPS, function() out:copy_to_device(zero) end), check)
  figure("dynsmem", function()
    local dout = cuda.device_array(N)
    local launch2 = kernel("cuda_dynsmem.py")[{ (N + 255) // 256, 256, 0, (256 + 2) * 8 }]
    local t = events(function() launch2(dx, dout) end, 3, REPS)
    row("dynsmem", t, seq_sum(dout:copy_to_host()))
  end)
end)
collectgarbage()
cuda.synchronize()

-- 7. launch overhead: empty kernels with 0, 1 and 3 array arguments, <<<1, 32>>>,
-- asynchronous; host time of batches of BATCH launches, synchronized between
figure("launch", function()
  local m = lumba.load(read(kernels .. "cuda_empty.py"))
  local d = cuda.device_array(1)
  local calls = {
    launch0 = function(l) l() end,
    launch1 = function(l) l(d) end,
    launch3 = function(l) l(d, d, d) end,
  }
  for _, v in ipairs { { "launch0", m.empty0 }, { "launch1", m.empty1 }, { "launch3", m.empty3 } } do
    local id, k = v[1], v[2]
    figure(id, function()
      local l, call = k[{ 1, 32 }], calls[id]
      local t = {}
      for b = -4, BATCHES do
        cuda.synchronize()
        local t0 = now()
        for _ = 1, BATCH do call(l) end
        local t1 = now()
        if b >= 1 then t[b] = (t1 - t0) / BATCH end
      end
      cuda.synchronize()
      row(id, t)
    end)
  end
end)
collectgarbage()
cuda.synchronize()

-- 8. host <-> device, XFER bytes from pageable (a lumba ndarray) and pinned memory
figure("transfers", function()
  local n = XFER // 8
  local d = cuda.device_array(n)
  local pageable = lumba.ones(n)
  local pinned = cuda.pinned_array(n)
  pinned:fill(1.0)
  row("h2d-pageable", events(function() d:copy_to_device(pageable) end, 1, XFER_REPS))
  row("d2h-pageable", events(function() d:copy_to_host(pageable) end, 1, XFER_REPS))
  row("h2d-pinned", events(function() d:copy_to_device(pinned) end, 1, XFER_REPS))
  row("d2h-pinned", events(function() d:copy_to_host(pinned) end, 1, XFER_REPS))
end)
