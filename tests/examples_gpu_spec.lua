-- The GPU examples on a real GPU (tags gpu and hardware: the simulator runs
-- them in examples_spec.lua). Small sizes; each checks itself against njit
-- and exits non-zero on a mismatch. On the GPU, fused multiply-adds and
-- libdevice make results differ from the CPU in their last bits, which the
-- examples allow for.
local lumba = require "lumba"
local H = require "helpers"

local function run(script)
  local p = io.popen("LUMBA_CUDA_SIM=0 LUMBA_EXAMPLE_QUICK=1 lua5.4 " .. script .. " 2>&1")
  local out = p:read("a")
  local ok, _, code = p:close()
  return ok and code == 0, out
end

describe("GPU examples on the GPU #gpu #hardware", function()
  local name = lumba.cuda.is_available() and lumba.cuda.get_current_device().name or "?"
  local examples = {
    { "mandelbrot_gpu", { "^mandelbrot on " .. name:gsub("%p", "%%%0") .. ": 96x64, max_iter 300: first launch ",
      "\n%d+ of 6144 pixels agree with the CPU %(%d+ inside the set, relative difference <= [%d.e+-]+%); wrote " } },
    { "heat_gpu", { "^cosine mode after 50 steps on the GPU: amplitude 0%.940173, exact 0%.940173 ",
      "\n36x54 plate on " .. name:gsub("%p", "%%%0") .. ", 200 steps: ",
      "\nevery cell agrees with the CPU to [%d.e+-]+; total heat [%d.]+ conserved",
      "after 0, 20, 60, 200 steps, pixels within [01] of the CPU's heat map" } },
    { "nbody_gpu", { "^300 bodies in tiles of 128 on " .. name:gsub("%p", "%%%0"),
      "\naccelerations agree with plain Lua %(8 bodies%) and with the njit float64 step to [%d.e+-]+ of the largest",
      "\n4 steps of dt 0%.001: moves within [%d.e+-]+ and velocity changes within [%d.e+-]+ of the largest",
      "\nenergy %-0%.3%d+ %(kinetic 0%.2%d+, potential %-0%.5%d+%), drift [%d.e+-]+; total momentum" } },
  }
  for _, e in ipairs(examples) do
    H.gpu_it(e[1] .. ".lua runs on the GPU and agrees with njit", function()
      local ok, out = run("examples/" .. e[1] .. ".lua")
      assert(ok, out)
      assert.is_nil(out:find("simulator", 1, true), out)
      for _, pat in ipairs(e[2]) do assert.truthy(out:find(pat), pat .. "\nnot in\n" .. out) end
    end)
  end
end)
