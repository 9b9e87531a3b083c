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
  for _, name in ipairs { "ising", "sum_array", "ising_lua", "vector_add_lua" } do
    it(name .. ".lua runs and checks its results", function()
      local ok, out = run("examples/" .. name .. ".lua")
      assert(ok, out)
    end)
  end

  it("ising.lua prints the energies agreeing with plain Lua", function()
    local _, out = run("examples/ising.lua")
    assert.truthy(out:match("N=50  energy %-?%d+%.%d %(plain Lua agrees%)"), out)
    assert.truthy(out:match("N=100  energy %-?%d+%.%d %(plain Lua agrees%)"), out)
  end)

  it("ising_lua.lua agrees with the Python-syntax version and the interpreter", function()
    local _, out = run("examples/ising_lua.lua")
    assert.truthy(out:match("N=50  energy %-?%d+%.%d %(Python syntax and the interpreter agree%)"), out)
    assert.truthy(out:match("N=100  energy %-?%d+%.%d %(Python syntax and the interpreter agree%)"), out)
  end)

  it("vector_add_lua.lua compiles the kernel and adds on the CPU", function()
    local _, out = run("examples/vector_add_lua.lua")
    assert.truthy(out:match("kernels compiled to NVVM IR: Lua syntax %d+ bytes, Python syntax %d+ bytes"), out)
    assert.truthy(out:match("n=10000: out%[n%] = 29997%.0 %(Python syntax agrees%)"), out)
  end)
end)
