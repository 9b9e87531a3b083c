-- Every example runs (small sizes) and checks its own result: a failing
-- assertion inside makes the process exit non-zero.
local function run(script)
  local cmd = "LUMBA_EXAMPLE_QUICK=1 lua5.4 " .. script .. " 2>&1"
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

  it("ising.lua prints the energies agreeing with plain Lua", function()
    local _, out = run("examples/ising.lua")
    assert.truthy(out:match("N=50  energy %-?%d+%.%d %(plain Lua agrees%)"), out)
    assert.truthy(out:match("N=100  energy %-?%d+%.%d %(plain Lua agrees%)"), out)
  end)

  it("the picture examples write a PNG where they are told to", function()
    for _, name in ipairs { "mandelbrot", "ising_metropolis", "heat" } do
      local path = os.tmpname()
      local ok, out = run("examples/" .. name .. ".lua " .. path)
      assert(ok, out)
      local f = assert(io.open(path, "rb"))
      local head = f:read(16)
      f:close()
      os.remove(path)
      assert.are.equal("\137PNG\r\n\26\n\0\0\0\13IHDR", head)
    end
  end)
end)
