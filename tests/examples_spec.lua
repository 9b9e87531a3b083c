-- Every example runs (small sizes) and checks its own result: a failing
-- assertion inside makes the process exit non-zero.
local lumba = require "lumba"
local function run(script, env)
  local cmd = (env or "") .. " LUMBA_EXAMPLE_QUICK=1 lua5.4 " .. script .. " 2>&1"
  local p = io.popen(cmd)
  local out = p:read("a")
  local ok, _, code = p:close()
  return ok and code == 0, out
end

describe("examples", function()
  -- each example, and a line it prints only after its checks passed
  local examples = {
    { "ising", "N=100  energy %-?%d+%.%d %(plain Lua agrees%)" },
    { "sum_array", "signatures: " },
    { "parallel_sum", "sum of 1000000 float64: [%d.]+ %(parallel and serial agree%)" },
    { "exp_decay", "^" },       -- prints "no GPU here" where there is none, checks on a GPU
    { "vector_add", "^" },
    { "multi_gpu", "^" },
    { "mandelbrot", "%d+ pixels agree with plain Lua; wrote " },
    { "ising_metropolis", "24x24 lattice, 20 sweeps: identical to plain Lua" },
    { "heat", "total heat [%d.]+ conserved" },
    { "stencil_ast", "R=2: 25%-point stencil, .* plain Lua agrees" },
    { "ising_lua", "N=100  energy %-?%d+%.%d %(Python syntax and the interpreter agree%)" },
    { "vector_add_lua", "n=10000: out%[n%] = 29997%.0 %(Python syntax agrees%)" },
  }
  for _, e in ipairs(examples) do
    it(e[1] .. ".lua runs and checks its results", function()
      local ok, out = run("examples/" .. e[1] .. ".lua")
      assert(ok, out)
      assert.truthy(out:match(e[2]), out)
    end)
  end

  -- the GPU examples in the CUDA simulator, which computes as the CPU does:
  -- every pixel and cell agrees with njit exactly
  local gpu_examples = {
    { "mandelbrot_gpu", { "^mandelbrot on lumba CUDA simulator %(CPU%): 96x64, max_iter 300: first launch ",
      "\n6144 of 6144 pixels agree with the CPU %(%d+ inside the set, relative difference <= 0%.0e%+00%); wrote ",
      "\n0 differ %(0 inside on one side only%); moving the view by an ulp changes %d+ on the CPU\n" } },
    { "heat_gpu", { "^cosine mode after 50 steps on the GPU: amplitude 0%.940173, exact 0%.940173 ",
      "\n36x54 plate on lumba CUDA simulator %(CPU%), 200 steps: ",
      "\nevery cell agrees with the CPU to 0%.0e%+00; total heat [%d.]+ conserved",
      "after 0, 20, 60, 200 steps, pixels within 0 of the CPU's heat map" } },
    { "nbody_gpu", { "^300 bodies in tiles of 128 on lumba CUDA simulator %(CPU%)",
      "\naccelerations agree with plain Lua %(8 bodies%) and with the njit float64 step to [%d.e+-]+ of the largest",
      "\n4 steps of dt 0%.001: moves within [%d.e+-]+ and velocity changes within [%d.e+-]+ of the largest, against the njit float64 steps",
      "\nenergy %-0%.3%d+ %(kinetic 0%.2%d+, potential %-0%.5%d+%), drift [%d.e+-]+; total momentum" } },
  }
  for _, e in ipairs(gpu_examples) do
    it(e[1] .. ".lua runs in the CUDA simulator and checks its results against njit", function()
      local ok, out = run("examples/" .. e[1] .. ".lua", "LUMBA_CUDA_SIM=1")
      assert(ok, out)
      for _, pat in ipairs(e[2]) do assert.truthy(out:find(pat), pat .. "\nnot in\n" .. out) end
    end)
  end

  if not lumba.cuda.is_available() then
    it("the GPU examples say there is no GPU, and how to simulate one, where there is none", function()
      for _, name in ipairs { "mandelbrot_gpu", "heat_gpu", "nbody_gpu" } do
        local ok, out = run("examples/" .. name .. ".lua", "LUMBA_CUDA_SIM=0")
        assert(ok, out)
        assert.are.equal("no GPU here, nothing to run (LUMBA_CUDA_SIM=1 runs this example in the CUDA simulator): ",
          out:match("^[^:]*: "), out)
      end
    end)
  end

  it("ising.lua prints the energies agreeing with plain Lua", function()
    local _, out = run("examples/ising.lua")
    assert.truthy(out:match("N=50  energy %-?%d+%.%d %(plain Lua agrees%)"), out)
    assert.truthy(out:match("N=100  energy %-?%d+%.%d %(plain Lua agrees%)"), out)
  end)

  it("the picture examples write a PNG where they are told to", function()
    for _, name in ipairs { "mandelbrot", "ising_metropolis", "heat", "mandelbrot_gpu", "heat_gpu" } do
      local path = os.tmpname()
      local ok, out = run("examples/" .. name .. ".lua " .. path, "LUMBA_CUDA_SIM=1")
      assert(ok, out)
      local f = assert(io.open(path, "rb"))
      local head = f:read(16)
      f:close()
      os.remove(path)
      assert.are.equal("\137PNG\r\n\26\n\0\0\0\13IHDR", head)
    end
  end)
end)
