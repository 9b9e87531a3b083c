-- cuda.jit kernels: NVVM IR → PTX everywhere libNVVM is installed (checked
-- with ptxas for sm_90), and run on a GPU with checked results (tag gpu;
-- the same tests run in the simulator in cuda_sim_spec.lua).
local lumba = require "lumba"
local H = require "helpers"
local cuda = lumba.cuda
local core = require "lumba.core"

local KERNELS = require("cuda_kernel_cases").KERNELS

describe("cuda kernels compile to PTX", function()
  -- PTX needs the GPU target even under LUMBA_CUDA_SIM=1
  local was
  setup(function() was = cuda.simulate(false) end)
  teardown(function() cuda.simulate(was) end)
  local have_nvvm = false
  if core.cuda._toolkit then
    local ok, info = pcall(core.cuda._toolkit)
    have_nvvm = ok and info and info.nvvm ~= nil
  end
  for name, k in pairs(KERNELS) do
    if have_nvvm then
      it(name .. " through libNVVM, assembled by ptxas for sm_90", function()
        local kern = cuda.jit(k[1])
        kern:compile(k[2])
        local ptx = kern:inspect_ptx(nil, { cc = { 9, 0 } })
        assert.truthy(ptx:find(".entry", 1, true))
        local f = os.tmpname()
        local fh = io.open(f, "w")
        fh:write(ptx)
        fh:close()
        local ptxas = "/usr/local/cuda/bin/ptxas"
        if io.open(ptxas) then
          local ok = os.execute(ptxas .. " -arch=sm_90 " .. f .. " -o /dev/null")
          assert.is_true(ok)
        end
        os.remove(f)
      end)
    else
      pending("[needs libNVVM] " .. name)
    end
  end

  if have_nvvm then
    -- the simulator's specializations are CPU code: never handed to libNVVM
    it("inspect_ptx after simulator-only launches asks for a GPU compile; CPU IR is refused", function()
      local k = cuda.jit [[
@cuda.jit
def twice(a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i] = 2 * a[i]
]]
      cuda.simulate(true)
      local d = cuda.to_device(lumba.array({ 1, 2, 3 }))
      k[{ 1, 32 }](d)
      assert.are.same({ 2, 4, 6 }, d:copy_to_host():totable())
      cuda.simulate(false)
      assert.are.equal("twice has no GPU specialization (it ran in the CUDA simulator): compile one with "
        .. "cuda.simulate(false) first", H.error_of(k.inspect_ptx, k, nil, { cc = { 9, 0 } }))
      assert.are.equal("twice has no GPU specialization for (float64[::1],)",
        H.error_of(k.inspect_ptx, k, "(float64[::1],)", { cc = { 9, 0 } }))
      local cpu_ir = k:inspect_llvm()
      assert.are.equal("not a GPU module: its target triple is not nvptx64-nvidia-cuda",
        H.error_of(core.cuda._compile_ptx, cpu_ir, { cc = { 9, 0 } }))
      k:compile("(float64[::1],)")
      assert.truthy(k:inspect_ptx("(float64[::1],)", { cc = { 9, 0 } }):find(".entry", 1, true))
    end)

    -- a CAS loop would serialise every contending block through L2 round trips
    it("float atomic add and sub use the GPU's atomic add, not a compare-and-swap loop", function()
      local k = cuda.jit [[
@cuda.jit
def acc(x, out, out32):
    i = cuda.grid(1)
    if i < x.shape[0]:
        cuda.atomic.add(out, 0, x[i])
        cuda.atomic.sub(out32, 1, np.float32(x[i]))
]]
      k:compile("(float64[::1], float64[::1], float32[::1])")
      local ptx = k:inspect_ptx(nil, { cc = { 9, 0 } })
      assert.truthy(ptx:find("%.global%.add%.f64") and ptx:find("%.global%.add%.f32"), ptx)
      assert.is_nil(ptx:find("atom.global.cas", 1, true), ptx)
    end)
  else
    pending("[needs libNVVM] float atomics")
  end

  -- NVVM unrolls a grid-stride loop only if the counter's step cannot wrap (as
  -- CUDA C's int64 i += stride): the step is add nsw, and cuda.grid and
  -- cuda.gridsize are known non-negative, so x[i] needs no negative-index wrap
  it("a while loop's counter step is an add nsw in GPU code (Python and Lua syntax)", function()
    local k = cuda.jit [[
def k(a, start, step):
    i = start
    while i < a.shape[0]:
        a[i] = 1.0
        i += step
]]
    k:compile("(float64[::1], int64, int64)")
    assert.truthy(k:inspect_llvm():find("add nsw i64", 1, true))
    local down = cuda.jit "def k(a, step):\n    i = a.shape[0] - 1\n    while i >= 0:\n        a[i] = 1.0\n        i -= step\n"
    down:compile("(float64[::1], int64)")
    assert.truthy(down:inspect_llvm():find("sub nsw i64", 1, true))
    local l = cuda.jit(function(a, step)
      local i = 1
      while i <= #a do
        a[i] = 1.0
        i = i + step
      end
    end)
    l:compile("void(float64[::1], int64)")
    assert.truthy(l:inspect_llvm():find("add nsw i64", 1, true))
    -- a name the test does not compare keeps wrapping arithmetic
    local other = cuda.jit "def k(a, n):\n    j = 0\n    i = 0\n    while i < n:\n        i = n\n        j += 1\n    a[0] = j\n"
    other:compile("(int64[::1], int64)")
    assert.is_nil(other:inspect_llvm():find("add nsw i64", 1, true))
  end)

  if have_nvvm then
    it("a grid-stride reduction loop is unrolled, without negative-index wrap", function()
      local k = cuda.jit [[
def k(x, out):
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    acc = 0.0
    while i < x.shape[0]:
        acc += x[i]
        i += stride
    out[cuda.grid(1)] = acc
]]
      k:compile("(float64[::1], float64[::1])")
      local ptx = k:inspect_ptx(nil, { cc = { 9, 0 } })
      local _, loads = ptx:gsub("ld%.global%.f64", "")
      assert.is_true(loads >= 4, ptx)
      assert.is_nil(ptx:find("shr.s64", 1, true), ptx)
    end)
  else
    pending("[needs libNVVM] unrolled grid-stride loop")
  end

  if have_nvvm then
    -- inspect_ptx shows the code a launch runs: libNVVM gets the kernel's fastmath
    it("inspect_ptx of a fastmath kernel has the approximate reciprocal square root", function()
      local src = "def k(a):\n    i = cuda.grid(1)\n    a[i] = np.float32(1.0) / math.sqrt(a[i])\n"
      local precise, fast = cuda.jit(src), cuda.jit { fastmath = true } (src)
      precise:compile("(float32[::1],)")
      fast:compile("(float32[::1],)")
      local p = precise:inspect_ptx(nil, { cc = { 9, 0 } })
      local f = fast:inspect_ptx(nil, { cc = { 9, 0 } })
      assert.truthy(p:find("sqrt.rn.f32", 1, true), p)
      assert.is_nil(p:find("rsqrt.approx", 1, true), p)
      assert.truthy(f:find("rsqrt.approx.ftz.f32", 1, true), f)
    end)
  else
    pending("[needs libNVVM] fastmath in inspect_ptx")
  end

  it("rejects a kernel that returns a value, with its position", function()
    local k = cuda.jit "def k(x):\n    return x\n"
    assert.are.equal([[<string>:1:1: TypingError: a CUDA kernel cannot return a value (it returns int64)
    def k(x):
    ^]], H.error_of(function() k:compile("(int64,)") end))
  end)

  it("rejects calling a kernel like a function", function()
    local k = cuda.jit "def k(x):\n    pass\n"
    assert.truthy(H.error_of(k, 1):find("k is a CUDA kernel: launch it with k[{blocks, threads}](...)", 1, true))
  end)

  it("rejects cuda.* outside kernels", function()
    local f = lumba.njit "def f(x):\n    return cuda.grid(1)\n"
    assert.truthy(H.error_of(f, 1):find("UnsupportedError: cuda.grid is only available inside cuda.jit kernels", 1, true))
  end)
end)

-- it() for the GPU: pending with "[needs CUDA]" where no GPU is (busted's
-- it and pending live in this file's environment, not in the cases module)
local gpu_ok = cuda.is_available()
local function gpu_it(name, fn)
  if gpu_ok then it(name, fn) else pending("[needs CUDA] " .. name) end
end

describe("cuda kernels on the GPU #gpu", function()
  require("cuda_kernel_cases").define(gpu_it)
end)
