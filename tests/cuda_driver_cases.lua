-- The driver side of lumba.cuda with a device, shared by the GPU
-- (cuda_driver_spec.lua, tag gpu) and the CPU simulator (cuda_sim_spec.lua,
-- run on every push): device arrays, launches of the hand-written NVVM IR
-- kernels of cuda_kernels.lua, streams, events, pinned memory, deferred
-- frees and the errors of each. C.define(it, hardware) adds the tests
-- through the given it(); the tests that measure the device's memory run
-- only when hardware is true.
local assert = require "luassert"  -- busted's assert lives in the spec files' environment
local lumba = require "lumba"
local H = require "helpers"
local K = require "cuda_kernels"
local cuda = lumba.cuda

local C = {}

-- "<this file>:<line>: ", the position luaL_error gives an error raised by
-- a C function called from the line where where() is called
local function where()
  local info = debug.getinfo(2, "Sl")
  return info.short_src .. ":" .. info.currentline .. ": "
end

function C.define(it, hardware)
  local hw_it = hardware and it or function() end
  local loaded = {}
  -- a hand-written kernel compiled for this device and loaded (once per backend)
  local function kernel(name, backend)
    local key = name .. "/" .. (backend or "auto")
    if not loaded[key] then
      loaded[key] = cuda._load_ptx(cuda._compile_ptx(K[name], { backend = backend }), name)
    end
    return loaded[key]
  end

  local function blocks(n, threads) return (n + threads - 1) // threads end

  it("detect reports the devices and returns true", function()
    assert.is_true(cuda.detect())
    local d = cuda.devices()[1]
    assert.are.equal(0, d.id)
    assert.are.equal(cuda.get_current_device().name, d.name)
    assert.is_true(#d.name > 0)
    assert.is_true(d.compute_capability[1] >= 3)
    assert.is_true(d.memory > 0)
    assert.are.equal(1024, d.max_threads_per_block)
  end)

  it("copies tables to the device and back, inferring int64 or float64", function()
    local d = cuda.to_device { 1.5, -2, 3.25 }
    assert.are.equal("float64", d.dtype)
    assert.are.same({ 3 }, d.shape)
    assert.are.same({ 8 }, d.strides)
    assert.are.equal(3, d.size)
    assert.are.equal(1, d.ndim)
    assert.are.equal(24, d.nbytes)
    assert.are.equal(3, #d)
    assert.are.same({ 1.5, -2, 3.25 }, d:copy_to_host():totable())
    local i = cuda.to_device { 7, -8, 9 }
    assert.are.equal("int64", i.dtype)
    assert.are.same({ 7, -8, 9 }, i:copy_to_host():totable())
  end)

  it("device_array takes a shape and a dtype (or {dtype = ...}); device_array_like copies both", function()
    local d = cuda.device_array({ 3, 4 }, "float32")
    assert.are.same({ 3, 4 }, d.shape)
    assert.are.same({ 16, 4 }, d.strides)
    assert.are.equal(12, d.size)
    assert.are.equal(48, d.nbytes)
    assert.are.equal("lumba.devicearray(float32, (3, 4))", tostring(d))
    assert.are.equal("float64", cuda.device_array(5).dtype)
    assert.are.equal("int32", cuda.device_array(5, { dtype = "int32" }).dtype)
    local like = cuda.device_array_like(d)
    assert.are.same({ 3, 4 }, like.shape)
    assert.are.equal("float32", like.dtype)
    local host_like = cuda.device_array_like(cuda.to_device({ 1, 2 }):copy_to_host())
    assert.are.same({ 2 }, host_like.shape)
    assert.are.equal("int64", host_like.dtype)
  end)

  for _, backend in ipairs { "nvvm", "llvm" } do
    it("runs exp decay (libdevice exp) compiled by " .. backend, function()
      local n, tau = 100003, 0.5
      local x = {}
      for i = 1, n do x[i] = (i - 1) * 1e-4 end
      local dx, dout = cuda.to_device(x), cuda.device_array(n)
      cuda._launch(kernel("exp_decay", backend), { blocks(n, 256), 256 }, "aadl", dx, dout, tau, n)
      cuda.synchronize()
      local out = dout:copy_to_host():totable()
      assert.are.equal(n, #out)
      for i = 1, n do H.assert_close(math.exp(-x[i] / tau), out[i], 1e-14) end
    end)
  end

  it("runs the vector add of seed 5 on float32 arrays", function()
    local n = 1000000
    local x, y = {}, {}
    for i = 1, n do x[i] = i - 1; y[i] = 2 * (i - 1) end
    local dx, dy = cuda.device_array(n, "float32"), cuda.device_array(n, "float32")
    dx:copy_to_device(x)
    dy:copy_to_device(y)
    local dout = cuda.device_array_like(dx)
    cuda._launch(kernel("vector_add"), { blocks(n, 128), 128 }, "aaa", dx, dy, dout)
    local out = dout:copy_to_host():totable()
    for i = 1, n do
      if out[i] ~= 3 * (i - 1) then error(("out[%d] = %s, expected %d"):format(i, out[i], 3 * (i - 1))) end
    end
  end)

  it("packs every scalar kind at its size", function()
    local out = cuda.device_array(5, "int64")
    cuda._launch(kernel("scalars"), { 1, 32 }, "abifdl", out, -5, 123456, 7.9, -9.5, (1 << 40) + 3)
    assert.are.same({ -5, 123456, 7, -9, (1 << 40) + 3 }, out:copy_to_host():totable())
  end)

  it("launches 2-D grids on 2-D arrays and on row views", function()
    local a = cuda.device_array { 3, 5 }
    cuda._launch(kernel("fill2d"), { { 1, 3 }, 5 }, "a", a)
    assert.are.same({ { 0, 1, 2, 3, 4 }, { 100, 101, 102, 103, 104 }, { 200, 201, 202, 203, 204 } },
      a:copy_to_host():totable())
    local b = cuda.device_array { 4, 2 }
    b:copy_to_device { 9, 9, 9, 9, 9, 9, 9, 9 }
    local rows = b:slice(2, 3)
    assert.are.same({ 2, 2 }, rows.shape)
    cuda._launch(kernel("fill2d"), { { 1, 2 }, 2 }, "a", rows)
    assert.are.same({ { 9, 9 }, { 0, 1 }, { 100, 101 }, { 9, 9 } }, b:copy_to_host():totable())
  end)

  it("copy_to_host fills a given ndarray of the same shape and dtype", function()
    local h = cuda.to_device({ 1.0, 2.0, 3.0 }):copy_to_host()
    local back = cuda.to_device({ 4.5, 5.5, 6.5 }):copy_to_host(h)
    assert.are.equal(h, back)
    assert.are.same({ 4.5, 5.5, 6.5 }, h:totable())
    local ints, four = cuda.to_device { 1, 2, 3 }, cuda.to_device { 1.0, 2, 3, 4 }
    assert.are.equal("copy_to_host: dtype mismatch (device int64, host float64)",
      H.error_of(ints.copy_to_host, ints, h))
    assert.are.equal("copy_to_host: shape mismatch (device (4,), host (3,))",
      H.error_of(four.copy_to_host, four, h))
    assert.are.same({ 4.5, 5.5, 6.5 }, h:totable())
  end)

  it("copy_to_device takes a table, an ndarray or a device array", function()
    local d = cuda.device_array(3, "int32")
    d:copy_to_device { 1, 2, 3 }
    assert.are.same({ 1, 2, 3 }, d:copy_to_host():totable())
    local src = cuda.to_device({ 4, 5, 6 })
    local d64 = cuda.device_array(3, "int64")
    d64:copy_to_device(src)
    assert.are.same({ 4, 5, 6 }, d64:copy_to_host():totable())
    d64:copy_to_device(cuda.to_device({ 7, 8, 9 }):copy_to_host())
    assert.are.same({ 7, 8, 9 }, d64:copy_to_host():totable())
    assert.are.equal("copy_to_device: size mismatch (device 3 elements, table 2)",
      H.error_of(d.copy_to_device, d, { 1, 2 }))
    assert.are.equal("copy_to_device: dtype mismatch (device int32, source int64)",
      H.error_of(d.copy_to_device, d, src))
    assert.are.same({ 1, 2, 3 }, d:copy_to_host():totable())
  end)

  it("slices rows with string.sub's rules into views that keep the memory", function()
    local d = cuda.to_device { 10, 20, 30, 40, 50 }
    assert.are.same({ 20, 30, 40 }, d:slice(2, 4):copy_to_host():totable())
    assert.are.same({ 40, 50 }, d:slice(-2):copy_to_host():totable())
    assert.are.same({ 0 }, d:slice(4, 2).shape)
    local v = cuda.to_device({ 1, 2, 3 }):slice(2)
    collectgarbage()
    collectgarbage()
    cuda.synchronize()
    assert.are.same({ 2, 3 }, v:copy_to_host():totable())
  end)

  it("refuses a freed device array, then keeps working", function()
    local d = cuda.to_device { 1, 2, 3 }
    d:free()
    d:free()
    assert.are.equal("lumba.devicearray (freed)", tostring(d))
    assert.are.equal("attempt to use a freed device array", H.error_of(d.copy_to_host, d))
    assert.are.equal(where() .. "attempt to use a freed device array", H.error_of(function() return d.shape end))
    assert.are.equal(where() .. "attempt to use a freed device array", H.error_of(function() return #d end))
    assert.are.equal("attempt to use a freed device array",
      H.error_of(cuda._launch, kernel("scalars"), { 1, 1 }, "abifdl", d, 0, 0, 0, 0, 0))
    assert.are.same({ 4 }, cuda.to_device({ 4 }):copy_to_host():totable())
  end)

  it("defers frees from __gc and __close until a synchronize", function()
    collectgarbage()
    cuda.synchronize()
    assert.are.same({ 0, 0 }, { cuda._pending() })
    do
      local c <close> = cuda.device_array(1000)
    end
    assert.are.same({ 1, 8000 }, { cuda._pending() })
    do
      for _ = 1, 5 do cuda.device_array(1000) end
    end
    collectgarbage()
    collectgarbage()
    assert.are.same({ 6, 48000 }, { cuda._pending() })
    cuda.synchronize()
    assert.are.same({ 0, 0 }, { cuda._pending() })
  end)

  hw_it("returns device memory to where it started after 10^4 collected allocations", function()
    collectgarbage()
    cuda.synchronize()
    local free0 = cuda.mem_info()
    for _ = 1, 10000 do
      cuda.device_array(131072)  -- 1 MiB
      assert.is_true(cuda._pending() <= 16)
    end
    collectgarbage()
    collectgarbage()
    cuda.synchronize()
    assert.are.equal(free0, (cuda.mem_info()))
  end)

  hw_it("recovers garbage through the GC when an allocation runs out of memory", function()
    local _, total = cuda.mem_info()
    local chunk = total // 8 // 8  -- an eighth of the device, in float64 elements
    for _ = 1, 40 do cuda.device_array(chunk) end  -- five times the device, none kept
    collectgarbage()
    cuda.synchronize()
  end)

  it("reports an allocation larger than the device, then keeps working", function()
    assert.are.equal("[CUDA_ERROR_OUT_OF_MEMORY] cuMemAlloc: out of memory",
      H.error_of(cuda.device_array, 1 << 43))
    assert.are.same({ 1 }, cuda.to_device({ 1 }):copy_to_host():totable())
  end)

  it("refuses bad launch configurations, then keeps working", function()
    local out = cuda.device_array(5, "int64")
    local k = kernel("scalars")
    local args = { out, 1, 2, 3, 4, 5 }
    assert.are.equal("launch: 2048 threads per block (2048x1x1); the device allows at most 1024",
      H.error_of(cuda._launch, k, { 1, 2048 }, "abifdl", table.unpack(args)))
    assert.are.equal("launch: 2048 threads per block (32x32x2); the device allows at most 1024",
      H.error_of(cuda._launch, k, { 1, { 32, 32, 2 } }, "abifdl", table.unpack(args)))
    assert.are.equal("launch: zero grid dimension (0x1x1)",
      H.error_of(cuda._launch, k, { 0, 32 }, "abifdl", table.unpack(args)))
    assert.are.equal("launch: zero block dimension (32x0x1)",
      H.error_of(cuda._launch, k, { 1, { 32, 0 } }, "abifdl", table.unpack(args)))
    assert.are.equal("launch: grid must be an integer or {x, y, z}",
      H.error_of(cuda._launch, k, { "x", 32 }, "abifdl", table.unpack(args)))
    local expect = "bad argument #4 to '_launch' (lumba.devicearray expected, got number)"
    assert.are.equal(where() .. expect, H.error_of(function() cuda._launch(k, { 1, 32 }, "abifdl", 5, 1, 2, 3, 4, 5) end))
    cuda._launch(k, { 1, 32 }, "abifdl", table.unpack(args))
    assert.are.same({ 1, 2, 3, 4, 5 }, out:copy_to_host():totable())
  end)

  it("reports a kernel name the module lacks", function()
    local ptx = cuda._compile_ptx(K.vector_add)
    assert.are.equal("[CUDA_ERROR_NOT_FOUND] cuModuleGetFunction: named symbol not found (kernel 'nope')",
      H.error_of(cuda._load_ptx, ptx, "nope"))
  end)

  it("runs copies and kernels on a stream", function()
    local s = cuda.stream()
    local n = 4096
    local x = {}
    for i = 1, n do x[i] = i end
    local dx = cuda.to_device(x, s)
    local dy = cuda.to_device(x, s)
    local dout = cuda.device_array(n, "int64")
    dout:copy_to_device(dx, s)
    local dx32, dy32, dout32 = cuda.device_array(n, "float32"), cuda.device_array(n, "float32"),
      cuda.device_array(n, "float32")
    dx32:copy_to_device(x)
    dy32:copy_to_device(x)
    cuda._launch(kernel("vector_add"), { blocks(n, 128), 128, s }, "aaa", dx32, dy32, dout32)
    local h = dout32:copy_to_host(s)
    s:synchronize()
    assert.is_true(s:query())
    local t = h:totable()
    for i = 1, n do assert(t[i] == 2 * i) end
    assert.are.same(x, dout:copy_to_host(nil, s):totable())
    assert.are.same(x, dy:copy_to_host():totable())
    assert.are.equal("lumba.cudastream (default)", tostring(cuda.default_stream()))
  end)

  it("times work between two events", function()
    local s = cuda.stream()
    local start, stop = cuda.event(), cuda.event()
    local n = 1 << 22
    local a, b, c = cuda.device_array(n, "float32"), cuda.device_array(n, "float32"), cuda.device_array(n, "float32")
    start:record(s)
    cuda._launch(kernel("vector_add"), { blocks(n, 256), 256, s }, "aaa", a, b, c)
    stop:record(s)
    stop:synchronize()
    assert.is_true(stop:query())
    local ms = start:elapsed_time(stop)
    assert.are.equal("float", math.type(ms))
    assert.is_true(ms >= 0)
    assert.are.equal(ms, cuda.event_elapsed_time(start, stop))
  end)

  it("makes pinned ndarrays that copy both ways", function()
    local p = cuda.pinned_array(1000, "float32")
    local t = p:totable()
    assert.are.equal(1000, #t)
    for i = 1, 1000 do assert(t[i] == 0) end
    local src = {}
    for i = 1, 1000 do src[i] = i / 4 end
    local d = cuda.device_array(1000, "float32")
    d:copy_to_device(src)
    assert.are.equal(p, d:copy_to_host(p))
    assert.are.same(src, p:totable())
    local d2 = cuda.to_device(p)
    assert.are.equal("float32", d2.dtype)
    assert.are.same(src, d2:copy_to_host():totable())
  end)

  it("reports device memory", function()
    local free, total = cuda.mem_info()
    assert.is_true(free > 0 and free <= total)
    local _, total2 = cuda.current_context():get_memory_info()
    assert.are.equal(total, total2)
  end)

  it("selects devices by 0-based number", function()
    local n = #cuda.devices()
    cuda.select_device(0)
    assert.are.equal(("select_device: no device %d (%d device%s)"):format(n, n, n == 1 and "" or "s"),
      H.error_of(cuda.select_device, n))
    assert.are.same({ 2 }, cuda.to_device({ 2 }):copy_to_host():totable())
  end)
end

return C
