-- cuda.gpus, select_device and per-device scoping (tag gpu; the parts that
-- need several GPUs are pending where there is one).
local lumba = require "lumba"
local H = require "helpers"
local cuda = lumba.cuda

describe("several GPUs #gpu", function()
  H.gpu_it("lists the devices with their facts", function()
    local gpus = cuda.gpus
    assert.is_true(#gpus >= 1)
    for i, g in ipairs(gpus) do
      assert.are.equal(i - 1, g.id)
      assert.is_string(g.name)
      assert.are.equal(2, #g.compute_capability)
      assert.is_true(g.total_memory > 0)
    end
  end)

  H.gpu_it("runs a function with a device current and restores the previous one", function()
    local g = cuda.gpus[#cuda.gpus]
    local before = cuda.get_current_device().id
    local id, doubled = g:run(function(x) return cuda.get_current_device().id, 2 * x end, 21)
    assert.are.equal(g.id, id)
    assert.are.equal(42, doubled)
    assert.are.equal(before, cuda.get_current_device().id)
    assert.truthy(H.error_of(function() g:run(function() error("inside") end) end):find("inside", 1, true))
    assert.are.equal(before, cuda.get_current_device().id)
  end)

  H.gpu_it("rejects a device number that does not exist", function()
    assert.truthy(H.error_of(cuda.select_device, #cuda.gpus):find("select_device: no device", 1, true))
  end)

  if cuda.is_available() and #cuda.gpus < 2 then
    pending("[needs 2 GPUs] arrays of one device used on another raise; work split across devices")
  end
end)

describe("work on two GPUs #gpu", function()
  local two = cuda.is_available() and #cuda.gpus >= 2
  if not two then
    pending("[needs 2 GPUs] arrays across devices, copy_to between devices, kernels on each device")
    return
  end

  it("raises when an array of one device is used on another, and the state keeps working", function()
    local k = cuda.jit "def k(a):\n    i = cuda.grid(1)\n    if i < a.shape[0]:\n        a[i] = i\n"
    local a0 = cuda.gpus[1]:run(function() return cuda.device_array(8, "int64") end)
    local err = cuda.gpus[2]:run(function() return H.error_of(function() k[{ 1, 8 }](a0) end) end)
    assert.truthy(err:find("device array of another context (device 0; current device 1)", 1, true), err)
    cuda.gpus[1]:run(function() k[{ 1, 8 }](a0); cuda.synchronize() end)
    assert.are.same({ 0, 1, 2, 3, 4, 5, 6, 7 }, cuda.gpus[1]:run(function() return a0:copy_to_host():totable() end))
  end)

  it("copies between devices with copy_to and runs kernels on each", function()
    local k = cuda.jit "def k(a):\n    i = cuda.grid(1)\n    if i < a.shape[0]:\n        a[i] = a[i] * 2 + 1\n"
    local h = lumba.arange(1000)
    local a0 = cuda.gpus[1]:run(function() return cuda.to_device(h) end)
    local a1 = cuda.gpus[2]:run(function() return cuda.device_array(1000, "int64") end)
    a0:copy_to(a1)
    assert.are.equal(1, a1.device)
    cuda.gpus[2]:run(function() k[{ 4, 256 }](a1); cuda.synchronize() end)
    local r = cuda.gpus[2]:run(function() return a1:copy_to_host() end)
    for i = 1, 1000, 99 do assert.are.equal((i - 1) * 2 + 1, r[i]) end
  end)
end)
