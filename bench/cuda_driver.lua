-- Figures of the CUDA driver layer on the GPU, with the hand-written NVVM IR
-- kernels of tests/cuda_kernels.lua (until cuda.jit compiles them):
-- device-to-device copy bandwidth, exp decay and vector add kernels, pinned
-- and pageable transfers, launch overhead, first-launch cost.
-- Run from the project root: lua5.4 bench/cuda_driver.lua
package.path = "lua/?.lua;lua/?/init.lua;tests/?.lua;" .. package.path
package.cpath = (os.getenv("LUMBA_CPATH") or "build") .. "/?.so;" .. package.cpath
local cuda = require("lumba").cuda
local K = require "cuda_kernels"

if not cuda.detect() then return end

local function now()  -- wall clock in seconds
  local p = io.popen("date +%s%N")
  local t = tonumber(p:read("l"))
  p:close()
  return t / 1e9
end

-- best time in ms of `reps` runs of f, measured with events on the default stream
local function gpu_ms(reps, f)
  local best = math.huge
  local a, b = cuda.event(), cuda.event()
  for _ = 1, reps do
    a:record()
    f()
    b:record()
    b:synchronize()
    best = math.min(best, a:elapsed_time(b))
  end
  return best
end

local function row(what, value, unit)
  print(("%-52s %10.2f %s"):format(what, value, unit))
end

-- first launch of a new kernel: libNVVM (+ libdevice) compile, driver load, launch
local t0 = now()
local ptx = cuda._compile_ptx(K.exp_decay)
local t1 = now()
local exp_decay = cuda._load_ptx(ptx, "exp_decay")
local t2 = now()
local one = cuda.device_array(1)
cuda._launch(exp_decay, { 1, 32 }, "aadl", one, one, 0.5, 1)
cuda.synchronize()
local t3 = now()
row("first compile (libNVVM + libdevice, incl. dlopen)", (t1 - t0) * 1e3, "ms")
row("first PTX load (cuModuleLoadDataEx)", (t2 - t1) * 1e3, "ms")
row("first launch + synchronize", (t3 - t2) * 1e3, "ms")
t0 = now()
cuda._compile_ptx(K.exp_decay)
t1 = now()
cuda._load_ptx(cuda._compile_ptx(K.vector_add), "vector_add")
t2 = now()
cuda._compile_ptx(K.exp_decay, { backend = "llvm" })
t3 = now()
row("next compile, exp decay (libNVVM + libdevice)", (t1 - t0) * 1e3, "ms")
row("compile + load, vector add (libNVVM)", (t2 - t1) * 1e3, "ms")
row("compile, exp decay (NVPTX backend + libdevice)", (t3 - t2) * 1e3, "ms")
local vector_add = cuda._load_ptx(cuda._compile_ptx(K.vector_add), "vector_add")

-- device-to-device copy, 2 GiB (read + write counted)
do
  local n = 1 << 28
  local a, b = cuda.device_array(n), cuda.device_array(n)
  local ms = gpu_ms(5, function() b:copy_to_device(a) end)
  row("device-to-device copy, 2 GiB", 2 * n * 8 / ms / 1e6, "GB/s")
end
collectgarbage()
cuda.synchronize()

-- kernels over 10^8 elements, device-resident
do
  local n = 100000000
  local x = cuda.to_device(cuda.pinned_array(n))
  local out = cuda.device_array(n)
  local threads = 256
  local cfg = { (n + threads - 1) // threads, threads }
  local ms = gpu_ms(5, function() cuda._launch(exp_decay, cfg, "aadl", x, out, 0.5, n) end)
  row("exp decay, 10^8 float64 (x = 0), kernel only", 2 * n * 8 / ms / 1e6, "GB/s")
  local variants = {
    { "exp decay, element-indexed (C layout)", K.exp_decay_contig, "exp_decay_contig" },
    { "exp decay, fastmath", K.exp_decay, "exp_decay", true },
    { "exp decay, element-indexed, fastmath", K.exp_decay_contig, "exp_decay_contig", true },
  }
  for _, v in ipairs(variants) do
    local f = cuda._load_ptx(cuda._compile_ptx(v[2], { fastmath = v[4] }), v[3])
    ms = gpu_ms(5, function() cuda._launch(f, cfg, "aadl", x, out, 0.5, n) end)
    row(v[1], 2 * n * 8 / ms / 1e6, "GB/s")
  end
  local f = cuda._load_ptx(cuda._compile_ptx(K.exp_decay_contig, { backend = "llvm" }), "exp_decay_contig")
  ms = gpu_ms(5, function() cuda._launch(f, cfg, "aadl", x, out, 0.5, n) end)
  row("exp decay, element-indexed, NVPTX backend", 2 * n * 8 / ms / 1e6, "GB/s")
  x, out = nil, nil
  collectgarbage()
  cuda.synchronize()
  local a, b, c = cuda.device_array(n, "float32"), cuda.device_array(n, "float32"), cuda.device_array(n, "float32")
  a:copy_to_device(cuda.pinned_array(n, "float32"))
  b:copy_to_device(a)
  ms = gpu_ms(5, function() cuda._launch(vector_add, cfg, "aaa", a, b, c) end)
  row("vector add, 10^8 float32, kernel only", 3 * n * 4 / ms / 1e6, "GB/s")
end
collectgarbage()
cuda.synchronize()

-- host <-> device, 1 GiB: pageable (malloc) and pinned
do
  local n = 1 << 27
  local d = cuda.device_array(n)
  local pageable = d:copy_to_host()
  local pinned = cuda.pinned_array(n)
  local gib = n * 8 / 1e6
  d:copy_to_device(pageable)  -- touch the pages once
  row("host to device, 1 GiB, pageable", gib / gpu_ms(3, function() d:copy_to_device(pageable) end), "GB/s")
  row("device to host, 1 GiB, pageable", gib / gpu_ms(3, function() d:copy_to_host(pageable) end), "GB/s")
  row("host to device, 1 GiB, pinned", gib / gpu_ms(3, function() d:copy_to_device(pinned) end), "GB/s")
  row("device to host, 1 GiB, pinned", gib / gpu_ms(3, function() d:copy_to_host(pinned) end), "GB/s")
end
collectgarbage()
cuda.synchronize()

-- launch overhead: three array arguments, asynchronous, 10^5 launches
do
  local a, b, c = cuda.device_array(1, "float32"), cuda.device_array(1, "float32"), cuda.device_array(1, "float32")
  local cfg = { 1, 32 }
  local n = 100000
  for _ = 1, 1000 do cuda._launch(vector_add, cfg, "aaa", a, b, c) end
  cuda.synchronize()
  t0 = now()
  for _ = 1, n do cuda._launch(vector_add, cfg, "aaa", a, b, c) end
  t1 = now()
  cuda.synchronize()
  t2 = now()
  row("launch from Lua (_launch, 3 arrays), 10^5 in a row", (t1 - t0) / n * 1e6, "us")
  row("launch from Lua, including the device's work", (t2 - t0) / n * 1e6, "us")
  -- batches shorter than the launch queue, timed in CPU time: the host's own cost
  local cpu = 0
  for _ = 1, 200 do
    cuda.synchronize()
    local c0 = os.clock()
    for _ = 1, 200 do cuda._launch(vector_add, cfg, "aaa", a, b, c) end
    cpu = cpu + os.clock() - c0
  end
  row("launch from Lua, host CPU time per launch (batches of 200)", cpu / 40000 * 1e6, "us")
end

-- deferred frees: 10^4 allocations of 1 MiB, dropped
do
  collectgarbage()
  cuda.synchronize()
  local free0 = cuda.mem_info()
  t0 = now()
  for _ = 1, 10000 do cuda.device_array(131072) end
  collectgarbage()
  cuda.synchronize()
  t1 = now()
  row("10^4 device_array(1 MiB) collected, per allocation", (t1 - t0) / 10000 * 1e6, "us")
  row("device memory not returned afterwards", (free0 - cuda.mem_info()) / 2 ^ 20, "MiB")
end
