-- lumba.cuda's driver side: loading (untagged: what happens without a
-- driver), and on a GPU (tag gpu) the tests of cuda_driver_cases.lua:
-- device arrays, launches of the hand-written kernels in cuda_kernels.lua,
-- streams, events, pinned memory, deferred frees and the errors of each
-- (cuda_sim_spec.lua runs them in the simulator too).
local lumba = require "lumba"
local H = require "helpers"
local cuda = lumba.cuda

local run_lua = H.run_lua

local no_driver = "LUMBA_CUDA_DRIVER=/nonexistent/libcuda.so.1 LUMBA_CUDA_HOME=/nonexistent CUDA_HOME= CUDA_PATH= LUMBA_CUDA_SIM="
local dlerr = "/nonexistent/libcuda.so.1: cannot open shared object file: No such file or directory"

-- the libNVVM line of a reason: the library found, or every path tried
local function check_nvvm_line(line)
  local path = line:match("^libNVVM: (/.-libnvvm%.so[%.%d]*) %(%d+%.%d+, NVVM IR %d+%.%d+%)$")
  if path then
    assert.is_truthy(io.open(path), path)
  else
    local tried = {}
    for _, root in ipairs { "/nonexistent", "/usr/local/cuda" } do
      for _, v in ipairs { "", ".4", ".3" } do tried[#tried + 1] = root .. "/nvvm/lib64/libnvvm.so" .. v end
    end
    assert.are.equal("libNVVM not found; tried " .. table.concat(tried, ", ")
      .. ", libnvvm.so, libnvvm.so.4, libnvvm.so.3 (loader path)", line)
  end
end

describe("cuda without a driver", function()
  it("is_available returns false with the driver's error and the libNVVM search", function()
    local out = run_lua(no_driver, [[
      local ok, why = require("lumba").cuda.is_available()
      io.write(tostring(ok), "\n", why, "\n")]])
    local ok, driver, nvvm = out:match("^(.-)\n(.-)\n(.-)\n$")
    assert.are.equal("false", ok)
    assert.are.equal("CUDA driver: " .. dlerr, driver)
    check_nvvm_line(nvvm)
  end)

  it("loads nothing CUDA-related at require, and raises on use while is_available keeps working", function()
    local out = run_lua(no_driver, [[
      local cuda = require("lumba").cuda
      local maps = io.open("/proc/self/maps"):read("a")
      print(maps:find("libcuda", 1, true) ~= nil, maps:find("libnvvm", 1, true) ~= nil)
      print(select(2, pcall(cuda.device_array, 4)))
      print(select(2, pcall(cuda.to_device, {1, 2})))
      print((cuda.is_available()), cuda._pending())]])
    assert.are.equal("false\tfalse\n"
      .. "CUDA is not available: " .. dlerr .. "\n"
      .. "CUDA is not available: " .. dlerr .. "\n"
      .. "false\t0\t0\n", out)
  end)

  it("detect prints why and returns false", function()
    local out = run_lua(no_driver, 'print(require("lumba").cuda.detect())')
    local first, nvvm, ret = out:match("^(.-)\n(.-)\n(.-)\n$")
    assert.are.equal("CUDA is not available: " .. dlerr, first)
    check_nvvm_line(nvvm)
    assert.are.equal("false", ret)
  end)
end)

-- tests/helpers.lua's gpu_it calls it/pending as globals of its own module,
-- where busted does not define them; this one runs in the spec's environment
local gpu_ok = cuda.is_available()
local function gpu_it(name, fn)
  if gpu_ok then it(name, fn) else pending("[needs CUDA] " .. name) end
end

describe("cuda driver #gpu", function()
  require("cuda_driver_cases").define(gpu_it, not cuda.simulate())  -- LUMBA_CUDA_SIM=1: no hardware to measure
end)
