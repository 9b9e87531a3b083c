-- The CUDA simulator (issue 7): lumba.cuda on the CPU, on every push. The
-- GPU's kernel and driver tests run here unchanged (cuda_kernel_cases.lua,
-- cuda_driver_cases.lua), every other gpu-tagged spec runs in a busted
-- under LUMBA_CUDA_SIM=1 (a test that measures the hardware opts out with
-- the tag hardware), then what only the simulator can do: barrier
-- semantics, atomics under contention on several cores, and failures
-- reported with their block and thread.
local lumba = require "lumba"
local H = require "helpers"
local cuda = lumba.cuda

-- "tests/cuda_sim_spec.lua:<line>: ", the position luaL_error gives an error
-- raised by a C function called from the line where where() is called
local function where()
  return "tests/cuda_sim_spec.lua:" .. debug.getinfo(2, "l").currentline .. ": "
end

-- no driver, no libNVVM: the simulator needs neither
local bare = "LUMBA_CUDA_DRIVER=/nonexistent/libcuda.so.1 LUMBA_CUDA_HOME=/nonexistent CUDA_HOME= CUDA_PATH="

describe("cuda simulator", function()
  local was
  setup(function() was = cuda.simulate(true) end)
  teardown(function() cuda.simulate(was) end)

  it("is what is_available reports, and simulate returns the setting it replaces", function()
    assert.are.same({ true, "the CUDA simulator: kernels run on the CPU" }, { cuda.is_available() })
    assert.is_true(cuda.simulate())
    assert.is_true(cuda.simulate(true))
    assert.are.equal("lumba CUDA simulator (CPU)", cuda.get_current_device().name)
    assert.are.equal(1, #cuda.devices())
  end)

  it("starts with LUMBA_CUDA_SIM=1 or cuda.simulate(true), where no GPU is", function()
    local kernel = [[
      local k = cuda.jit "def k(out):\n    out[cuda.grid(1)] = cuda.grid(1) * 2\n"
      local d = cuda.device_array(6, "int64")
      k[{ 2, 3 }](d)
      print(table.concat(d:copy_to_host():totable(), " "))
      print(cuda.is_available())]]
    assert.are.equal("0 2 4 6 8 10\ntrue\tthe CUDA simulator: kernels run on the CPU\n",
      H.run_lua(bare .. " LUMBA_CUDA_SIM=1", 'local cuda = require("lumba").cuda\n' .. kernel))
    assert.are.equal("false\n0 2 4 6 8 10\ntrue\tthe CUDA simulator: kernels run on the CPU\n",
      H.run_lua(bare .. " LUMBA_CUDA_SIM=", [[
      local cuda = require("lumba").cuda
      print((cuda.is_available()))
      cuda.simulate(true)
      ]] .. kernel))
  end)

  it("reports its compilations under LUMBA_VERBOSE=1", function()
    local out = H.run_lua(bare .. " LUMBA_CUDA_SIM=1 LUMBA_VERBOSE=1", [[
      local cuda = require("lumba").cuda
      local k = cuda.jit "def k(out):\n    out[cuda.grid(1)] = 1\n"
      k[{ 1, 2 }](cuda.device_array(2, "int64"))]])
    assert.truthy(out:match("^lumba: compiled kernel k%(int64%[::1%]%) for the simulator: parse [%d.]+ ms, infer [%d.]+ ms, "
      .. "lower [%d.]+ ms, optimise [%d.]+ ms, codegen and load [%d.]+ ms, total [%d.]+ ms\n$"), out)
  end)

  it("refuses a simulate setting that is not a boolean, and keeps it", function()
    assert.are.equal("bad argument #1 to 'simulate' (boolean expected, got number)",
      H.error_of(function() return cuda.simulate(1) end):gsub("^.-:%d+: ", ""))
    assert.is_true(cuda.simulate())
  end)

  it("lists its one device in cuda.gpus and copies within it with copy_to", function()
    local gpus = cuda.gpus
    assert.are.equal(1, #gpus)
    assert.are.equal("lumba CUDA simulator (CPU)", gpus[1].name)
    assert.are.same({ 5, 2 }, gpus[1].compute_capability)
    assert.are.equal(1024, gpus[1].max_threads_per_block)
    local a, b = cuda.to_device { 1, 2, 3 }, cuda.device_array(3, "int64")
    a:copy_to(b)
    assert.are.same({ 1, 2, 3 }, b:copy_to_host():totable())
  end)

  it("runs the other gpu-tagged specs under LUMBA_CUDA_SIM=1 (all but those tagged hardware)", function()
    -- cuda_kernels_spec and cuda_driver_spec run in this file, through their cases modules
    local here = { ["tests/cuda_kernels_spec.lua"] = true, ["tests/cuda_driver_spec.lua"] = true,
                   ["tests/cuda_sim_spec.lua"] = true }
    local files = {}
    local ls = io.popen("ls tests/*_spec.lua")
    for f in ls:lines() do
      local fh = io.open(f)
      if not here[f] and fh:read("a"):find("#gpu", 1, true) then files[#files + 1] = f end
      fh:close()
    end
    ls:close()
    assert.is_true(#files >= 2, "no gpu-tagged specs found: " .. table.concat(files, " "))
    local p = io.popen("LUMBA_CUDA_SIM=1 busted --lua=lua5.4 --tags=gpu --exclude-tags=hardware -o TAP "
      .. table.concat(files, " ") .. " 2>&1")
    local out = p:read("a")
    p:close()
    assert(out:find("\n1%.%.%d+\n?$") or out:find("^1%.%.%d+\n?$"), "busted did not finish:\n" .. out)
    local failed, passed = {}, 0
    for line in out:gmatch("[^\n]+") do
      if line:match("^not ok") then failed[#failed + 1] = line end
      if line:match("^ok ") and not line:match("# SKIP") then passed = passed + 1 end
    end
    assert(#failed == 0, "failed in the simulator:\n" .. out)
    assert.is_true(passed >= 5, out)
  end)

  describe("runs the GPU's kernel tests", function()
    require("cuda_kernel_cases").define(it)
  end)

  describe("runs the GPU's driver tests", function()
    require("cuda_driver_cases").define(it, false)
  end)

  it("gives the right answer with cuda.syncthreads() to a kernel that is wrong without it", function()
    -- each block sums its 64 values by halving; thread 0 stores the sum
    local src = [[
@cuda.jit
def block_sums(a, out):
    s = cuda.shared.array(64, np.float64)
    t = cuda.threadIdx.x
    s[t] = a[cuda.grid(1)]
    SYNC
    step = 32
    while step > 0:
        if t < step:
            s[t] += s[t + step]
        SYNC
        step //= 2
    if t == 0:
        out[cuda.blockIdx.x] = s[0]
]]
    local a = lumba.arange(512):astype("float64")
    local function sums(sync)
      local k = cuda.jit((src:gsub("SYNC", sync)))
      local out = cuda.device_array(8)
      k[{ 8, 64 }](cuda.to_device(a), out)
      return out:copy_to_host():totable()
    end
    local want = {}
    for b = 0, 7 do want[b + 1] = (64 * b + 64 * b + 63) * 64 / 2 end
    assert.are.same(want, sums("cuda.syncthreads()"))
    -- without barriers thread 0 runs alone to its end: its sum misses the
    -- values the other threads have not stored yet
    local wrong = sums("pass")
    for b = 1, 8 do assert.is_true(wrong[b] < want[b], ("block %d: %s"):format(b - 1, wrong[b])) end
  end)

  it("runs blocks on several cores with atomics that lose no update", function()
    local threads = lumba.config.num_threads
    lumba.config.num_threads = math.min(4, lumba.max_threads())
    local k = cuda.jit [[
@cuda.jit
def count(hits, total):
    i = cuda.grid(1)
    cuda.atomic.add(hits, i % 3, 1)
    cuda.atomic.add(total, 0, 0.25)
    for j in range(10):
        cuda.atomic.max(hits, 3, i * 10 + j)
]]
    local hits, total = cuda.to_device(lumba.zeros(4, "int64")), cuda.to_device(lumba.zeros(1))
    local ok, err = pcall(function() k[{ 4096, 64 }](hits, total) end)
    lumba.config.num_threads = threads
    assert(ok, err)
    local n = 4096 * 64
    assert.are.same({ (n + 2) // 3, (n + 1) // 3, n // 3, (n - 1) * 10 + 9 }, hits:copy_to_host():totable())
    assert.are.same({ n / 4 }, total:copy_to_host():totable())
  end)

  it("reports an index out of bounds with its block and thread, then keeps working", function()
    local k = cuda.jit [[
@cuda.jit
def scale(x, out, n):
    i = cuda.grid(1)
    if i < n:
        out[i] = 2 * x[i]
]]
    local x, out = cuda.to_device(lumba.ones(1000)), cuda.device_array(1000)
    assert.are.equal("IndexError in block (3,0,0) thread (16,0,0): index 1000 out of bounds for axis 0 with size 1000",
      H.message_of(function() k[{ 4, 328 }](x, out, 1312) end))
    -- threads run x fastest; negative indices count from the end, once
    assert.are.equal("IndexError in block (0,2,0) thread (0,1,0): index -4 out of bounds for axis 1 with size 3",
      H.message_of(function()
        local k2 = cuda.jit "def k2(a):\n    x, y = cuda.grid(2)\n    a[x, 1 - y] = 1.0\n"
        k2[{ { 1, 3 }, { 2, 2 } }](cuda.device_array { 2, 3 })
      end))
    k[{ 4, 250 }](x, out, 1000)
    assert.are.same({ 2, 2 }, { out:copy_to_host()[1], out:copy_to_host()[1000] })
  end)

  it("reports an atomic out of bounds and a raise with their block and thread", function()
    local k = cuda.jit [[
@cuda.jit
def k(bins, limit):
    i = cuda.grid(1)
    if i >= limit:
        raise ValueError("thread past the limit")
    cuda.atomic.add(bins, i, 1)
]]
    local bins = cuda.to_device(lumba.zeros(10, "int32"))
    assert.are.equal("IndexError in block (1,0,0) thread (2,0,0): index 10 out of bounds for axis 0 with size 10",
      H.message_of(function() k[{ 3, 8 }](bins, 100) end))
    assert.are.equal("ValueError in block (0,0,0) thread (5,0,0): thread past the limit",
      H.message_of(function() k[{ 3, 8 }](bins, 5) end))
  end)

  it("reports cuda.syncthreads() reached by only part of a block instead of hanging", function()
    local k = cuda.jit [[
@cuda.jit
def k(a):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    a[i] = 1.0
    cuda.syncthreads()
]]
    local a = cuda.device_array(200)
    assert.are.equal("cuda.syncthreads() in block (1,0,0) was reached by 72 of its 128 threads: the others returned",
      H.error_of(function() k[{ 2, 128 }](a) end))
    k[{ 2, 100 }](a)
    assert.are.same({ 1.0, 1.0 }, { a:copy_to_host()[1], a:copy_to_host()[200] })
  end)

  it("compiles a kernel's declared signature again for the simulator, numbers converted to it", function()
    cuda.simulate(false)  -- declared signatures compile when the kernel is made: here for the GPU (NVVM IR)
    local ok, k = pcall(cuda.jit, "void(float32[::1], float32)", "def k(a, x):\n    a[cuda.grid(1)] = x / 2\n")
    cuda.simulate(true)
    assert(ok, k)
    assert.are.equal(1, #k.signatures)
    local a = cuda.device_array(4, "float32")
    k[{ 1, 4 }](a, 3)
    assert.are.same({ 1.5, 1.5, 1.5, 1.5 }, a:copy_to_host():totable())
    assert.are.equal(2, #k.signatures)
    assert.are.equal("k: no compiled signature matches the argument types",
      H.error_of(function() k[{ 1, 4 }](cuda.device_array(4), 3) end):gsub("^.-:%d+: ", ""))
  end)

  it("refuses a grid a GPU would refuse", function()
    local k = cuda.jit "def k(a):\n    pass\n"
    local a = cuda.device_array(1)
    local invalid = "[CUDA_ERROR_INVALID_VALUE] cuLaunchKernel: invalid argument"
    assert.are.equal(where() .. invalid, H.error_of(function() k[{ { 1, 65536 }, 1 }](a) end))
    assert.are.equal(where() .. invalid, H.error_of(function() k[{ 1, { 1, 1, 65 } }](a) end))
    k[{ { 1, 65535 }, { 1, 1, 64 } }](a)
  end)

  it("shows the kernel compiled for the CPU in inspect_llvm", function()
    local k = cuda.jit "def k(a):\n    a[cuda.grid(1)] = cuda.threadIdx.x\n"
    k[{ 1, 4 }](cuda.device_array(4, "int64"))
    local ir = k:inspect_llvm()
    assert.truthy(ir:find("@simrun_ctx()", 1, true))
    assert.falsy(ir:find("nvvm", 1, true))
  end)
end)

describe("cuda.simulate as a setting", function()
  it("accepts DESIGN.md's spelling cuda.simulate = true", function()
    local cuda = require("lumba").cuda
    local before = cuda.simulate()
    cuda.simulate = true
    local ok, what = cuda.is_available()
    assert.is_true(ok)
    assert.are.equal("the CUDA simulator: kernels run on the CPU", what)
    cuda.simulate = before
    assert.are.equal(before, cuda.simulate())
  end)
end)
