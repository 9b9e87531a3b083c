-- gpu_catalog.lua — what `make bench-gpu` measures: the sizes (full and
-- BENCH_QUICK), the figures each runner prints, the CUDA C programs and their
-- arguments, and the targets of issues 6 and 8.
local M = {}

M.tools = {
  { id = "cuda", label = "CUDA C (nvcc -O3)" },
  { id = "lumba", label = "lumba cuda.jit" },
  { id = "numba", label = "numba-cuda" },
}

-- sizes: the environment of every runner (bench/lumba/run_cuda.lua and
-- bench/numba/run_cuda.py read the same names)
function M.sizes(quick)
  if quick then
    return { GPU_N = 1000000, GPU_MATMUL_N = 256, GPU_STENCIL_N = 512, GPU_STENCIL_SWEEPS = 10, GPU_REPS = 5,
      GPU_REDUCE_BLOCKS = 64, GPU_XFER_BYTES = 1 << 24, GPU_XFER_REPS = 2, GPU_LAUNCH_BATCHES = 5,
      GPU_LAUNCH_BATCH = 20, GPU_MC_THREADS = 1 << 14, GPU_MC_SAMPLES = 100, GPU_HEAT_N = 1 << 14,
      GPU_HEAT_STEPS = 100, GPU_HEAT_BLOCKS = 16, GPU_HEAT_REPS = 2 }
  end
  return { GPU_N = 100000000, GPU_MATMUL_N = 2048, GPU_STENCIL_N = 8192, GPU_STENCIL_SWEEPS = 10, GPU_REPS = 20,
    GPU_REDUCE_BLOCKS = 1024, GPU_XFER_BYTES = 1 << 30, GPU_XFER_REPS = 5, GPU_LAUNCH_BATCHES = 50,
    GPU_LAUNCH_BATCH = 100, GPU_MC_THREADS = 1 << 20, GPU_MC_SAMPLES = 1000, GPU_HEAT_N = 1 << 20,
    GPU_HEAT_STEPS = 10000, GPU_HEAT_BLOCKS = 256, GPU_HEAT_REPS = 5 }
end

-- The figures of a CUDA C program (its name, when absent here)
M.program_rows = {
  copy = { "copy", "h2d-pageable", "d2h-pageable", "h2d-pinned", "d2h-pinned" },
  launch = { "firstlaunch", "launch0", "launch1", "launch3" },
  expdecay = { "expdecay", "expdecay2" },
  heat_coop = { "heatcoop" },
  vadd = { "vadd", "vadd4" },
}

-- The CUDA C programs (bench/cuda/<name>.cu) and their arguments
function M.programs(z)
  return {
    { "copy", z.GPU_N, z.GPU_REPS, z.GPU_XFER_BYTES, z.GPU_XFER_REPS },
    { "expdecay", z.GPU_N, 777, z.GPU_REPS },
    { "reduce", z.GPU_N, 777, z.GPU_REDUCE_BLOCKS, z.GPU_REPS },
    { "vadd", z.GPU_N, 2718, 3141, z.GPU_REPS },
    { "matmul", z.GPU_MATMUL_N, 31, z.GPU_REPS },
    { "stencil", z.GPU_STENCIL_N, 99, z.GPU_STENCIL_SWEEPS, z.GPU_REPS },
    { "launch", z.GPU_LAUNCH_BATCHES, z.GPU_LAUNCH_BATCH },
    { "mc", z.GPU_MC_THREADS, z.GPU_MC_SAMPLES, 1, z.GPU_REPS },
    { "heat_coop", z.GPU_HEAT_N, z.GPU_HEAT_STEPS, z.GPU_HEAT_BLOCKS, 55, z.GPU_HEAT_REPS },
    { "warpreduce", z.GPU_N, 777, z.GPU_REDUCE_BLOCKS, z.GPU_REPS },
    { "dynsmem", z.GPU_N, 777, z.GPU_REPS },
  }
end

local function pow10(n)
  local e = math.floor(math.log(n, 10) + 0.5)
  return 10 ^ e == n and string.format("10^%d", e) or tostring(n)
end

-- The kernel rows. bytes: memory traffic of one launch (read + write, each
-- element once); flops: arithmetic of one launch; rtol: agreement of the
-- check with CUDA C's; bw: judged against the copy roof; vs_c: judged against
-- CUDA C's time.
function M.kernels(z)
  local n, m, s = z.GPU_N, z.GPU_MATMUL_N, z.GPU_STENCIL_N
  return {
    { id = "expdecay", title = "exp decay (seed 2 kernel)", size = pow10(n) .. " float64", bytes = 16 * n,
      rtol = 1e-9, bw = true, file = "cuda_expdecay.py", restructured = "expdecay2" },
    { id = "vadd", title = "vector add (seed 5 kernel)", size = pow10(n) .. " float32", bytes = 12 * n,
      rtol = 1e-9, bw = true, file = "cuda_vadd.py", restructured = "vadd4" },
    -- not the seeds' kernels: the same work with more elements a thread, to
    -- show what a kernel needs to reach the copy roof (no target)
    { id = "expdecay2", title = "exp decay, 2 elements a thread (restructured)", size = pow10(n) .. " float64",
      bytes = 16 * n, rtol = 1e-9, file = "cuda_expdecay2.py" },
    { id = "vadd4", title = "vector add, 4 elements a thread (restructured)", size = pow10(n) .. " float32",
      bytes = 12 * n, rtol = 1e-9, file = "cuda_vadd4.py" },
    { id = "stencil", title = "2-D 5-point stencil, one sweep", size = s .. "² float64", bytes = 16 * s * s,
      rtol = 1e-9, bw = true, file = "cuda_stencil.py" },
    { id = "reduce", title = "block reduction with atomics", size = pow10(n) .. " float64", bytes = 8 * n,
      rtol = 1e-9, vs_c = true, file = "cuda_reduce.py" },
    { id = "matmul", title = "matmul, 16×16 shared-memory tiles", size = m .. "² float32", flops = 2 * m * m * m,
      rtol = 1e-5, vs_c = true, file = "cuda_matmul.py" },
    -- issue 22: lumba ≤ 1.1× CUDA C and below numba-cuda (vs_c22)
    { id = "mc", title = "Monte-Carlo integral, xoroshiro128p uniforms",
      size = pow10(z.GPU_MC_THREADS) .. " threads × " .. z.GPU_MC_SAMPLES .. " draws",
      rtol = 1e-9, vs_c22 = true, file = "cuda_mc.py" },
    { id = "heatcoop", title = "1-D heat equation, a grid sync a step (cooperative launch)",
      size = pow10(z.GPU_HEAT_N) .. " float64 × " .. z.GPU_HEAT_STEPS .. " steps",
      rtol = 1e-9, vs_c22 = true, file = "cuda_heat_coop.py" },
    { id = "warpreduce", title = "warp-shuffle block reduction", size = pow10(n) .. " float64", bytes = 8 * n,
      rtol = 1e-9, vs_c22 = true, file = "cuda_warp_reduce.py" },
    { id = "dynsmem", title = "3-point average through dynamic shared memory", size = pow10(n) .. " float64",
      bytes = 16 * n, rtol = 1e-9, vs_c22 = true, file = "cuda_dynsmem.py" },
  }
end

M.launch_rows = {
  { id = "launch0", title = "launch, no argument" },
  { id = "launch1", title = "launch, 1 array argument" },
  { id = "launch3", title = "launch, 3 array arguments" },
}

M.transfer_rows = {
  { id = "h2d-pageable", title = "host → device, pageable" },
  { id = "d2h-pageable", title = "device → host, pageable" },
  { id = "h2d-pinned", title = "host → device, pinned" },
  { id = "d2h-pinned", title = "device → host, pinned" },
}

return M
