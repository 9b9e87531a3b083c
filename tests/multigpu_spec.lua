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
