-- NVVM IR -> PTX without a GPU: the LLVM 14 -> NVVM text fix-ups, libNVVM
-- and LLVM's NVPTX backend, and ptxas for sm_90 on what they produce.
-- Parts that need the CUDA toolkit are pending where it is not installed.
local lumba = require "lumba"
local H = require "helpers"
local K = require "cuda_kernels"
local cuda = lumba.cuda

local toolkit = cuda._toolkit()

-- $PTXAS, else bin/ptxas under $LUMBA_CUDA_HOME, $CUDA_HOME or /usr/local/cuda
local function find_ptxas()
  local candidates = {}
  local function add(p) if p and p ~= "" and p ~= "/bin/ptxas" then candidates[#candidates + 1] = p end end
  add(os.getenv("PTXAS"))
  add((os.getenv("LUMBA_CUDA_HOME") or "") .. "/bin/ptxas")
  add((os.getenv("CUDA_HOME") or "") .. "/bin/ptxas")
  add("/usr/local/cuda/bin/ptxas")
  for _, p in ipairs(candidates) do
    local f = io.open(p)
    if f then f:close(); return p end
  end
end
local ptxas = find_ptxas()

-- it() that is pending with "[needs X]" unless every need is met
local function needs_it(needs, name, fn)
  for what, ok in pairs(needs) do
    if not ok then return pending("[needs " .. what .. "] " .. name) end
  end
  it(name, fn)
end

-- assembles PTX for sm_90; returns ptxas's output when it fails
local function assemble(ptx)
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write(ptx)
  f:close()
  local p = io.popen(ptxas .. " -arch=sm_90 -o /dev/null " .. path .. " 2>&1")
  local out = p:read("a")
  local ok = p:close()
  os.remove(path)
  return ok, out
end

local function fix(lines)
  return cuda._fixup_ir(table.concat(lines, "\n") .. "\n")
end

local layout = 'target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-'
  .. 'f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"'
-- what the fix-ups append to a module without metadata or datalayout
local tail = "!nvvmir.version = !{!0}\n!0 = !{i32 2, i32 0}\n" .. layout .. "\n"

describe("NVVM IR fix-ups", function()
  it("drop the attributes LLVM 7 does not parse, keeping an attribute group non-empty", function()
    assert.are.equal(table.concat({
      "declare void @llvm.memset.p0i8.i64(i8* nocapture writeonly, i8, i64, i1) #1",
      'attributes #0 = { nounwind "frame-pointer"="all" }',
      "attributes #1 = { nounwind }",
      "attributes #2 = { argmemonly nounwind writeonly }",
      "",
    }, "\n") .. tail, fix {
      "declare void @llvm.memset.p0i8.i64(i8* nocapture writeonly, i8, i64, i1 immarg) #1",
      'attributes #0 = { mustprogress nofree nosync nounwind willreturn "frame-pointer"="all" vscale_range(1,16) }',
      "attributes #1 = { nofree nosync willreturn }",
      "attributes #2 = { argmemonly mustprogress nofree nounwind willreturn writeonly }",
    })
  end)

  it("drop numbered parameter names and turn numbered labels into comments", function()
    assert.are.equal(table.concat({
      "define dso_local void @k(double* nocapture readonly, i64, void (i8*)*, i32 %n) local_unnamed_addr #0 {",
      "; <label>:16:                                     ; preds = %6",
      "  %17 = call double @f(double %4, i8* byval %q) #3",
      "",
    }, "\n") .. tail, fix {
      "define dso_local void @k(double* nocapture noundef readonly %0, i64 noundef %1, void (i8*)* %2, i32 %n) local_unnamed_addr #0 {",
      "16:                                     ; preds = %6",
      "  %17 = call double @f(double noundef %4, i8* byval(i8) %q) #3",
    })
  end)

  it("rewrite fneg, freeze, poison and the atomics LLVM 7 lacks", function()
    assert.are.equal(table.concat({
      "  %4 = fsub fast double -0.000000e+00, %3",
      "  %5 = fsub float -0.000000e+00, %x",
      "  %6 = bitcast i64 %1 to i64",
      "  %7 = insertelement <2 x double> undef, double %4, i32 0",
      "  %8 = call double @llvm.nvvm.atomic.load.add.f64.p3f64(double addrspace(3)* %s, double %4)",
      "  %9 = call float @llvm.nvvm.atomic.load.add.f32.p0f32(float* %p, float 1.000000e+00)",
      "  %10 = cmpxchg i64* %c, i64 0, i64 1 seq_cst seq_cst",
      "  %11 = atomicrmw add i64* %c, i64 1 monotonic",
      "declare double @llvm.nvvm.atomic.load.add.f64.p3f64(double addrspace(3)*, double)",
      "declare float @llvm.nvvm.atomic.load.add.f32.p0f32(float*, float)",
      "",
    }, "\n") .. tail, fix {
      "  %4 = fneg fast double %3",
      "  %5 = fneg float %x",
      "  %6 = freeze i64 %1",
      "  %7 = insertelement <2 x double> poison, double %4, i32 0",
      '  %8 = atomicrmw volatile fadd double addrspace(3)* %s, double %4 syncscope("block") monotonic, align 8',
      "  %9 = atomicrmw fadd float* %p, float 1.000000e+00 seq_cst, align 4",
      "  %10 = cmpxchg i64* %c, i64 0, i64 1 seq_cst seq_cst, align 8",
      "  %11 = atomicrmw add i64* %c, i64 1 monotonic, align 8",
    })
  end)

  it("lower smax/smin/umax/umin/abs calls to icmp + select and drop their declarations", function()
    assert.are.equal(table.concat({
      "  %.lmfx0 = icmp sgt i64 %1, -3",
      "  %m = select i1 %.lmfx0, i64 %1, i64 -3",
      "  %.lmfx2 = icmp ult i32 %a, %b",
      "  %u = select i1 %.lmfx2, i32 %a, i32 %b",
      "  %.lmfx4 = sub i32 0, %x",
      "  %.lmfx5 = icmp slt i32 %x, 0",
      "  %9 = select i1 %.lmfx5, i32 %.lmfx4, i32 %x",
      "declare <2 x i64> @llvm.smax.v2i64(<2 x i64>, <2 x i64>)",
      "",
    }, "\n") .. tail, fix {
      "  %m = tail call i64 @llvm.smax.i64(i64 %1, i64 -3)",
      "  %u = call i32 @llvm.umin.i32(i32 %a, i32 %b)",
      "  %9 = call i32 @llvm.abs.i32(i32 %x, i1 true)",
      "declare i64 @llvm.smax.i64(i64, i64) #1",
      "declare i32 @llvm.umin.i32(i32, i32)",
      "declare i32 @llvm.abs.i32(i32, i1 immarg) #1",
      "declare <2 x i64> @llvm.smax.v2i64(<2 x i64>, <2 x i64>)",
    })
  end)

  it("set NVVM's datalayout and triple and number nvvmir.version after the last metadata", function()
    assert.are.equal(table.concat({
      layout,
      'target triple = "nvptx64-nvidia-cuda"',
      '!3 = !{i32 7, !"frame-pointer", i32 2}',
      '!12 = !{!"hot"}',
      "!nvvmir.version = !{!13}",
      "!13 = !{i32 2, i32 0}",
      "",
    }, "\n"), fix {
      'target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"',
      'target triple = "nvptx64-nvidia-cuda"',
      '!3 = !{i32 7, !"frame-pointer", i32 2}',
      '!12 = !{!"hot"}',
    })
  end)

  it("leave names and quoted strings alone, and NVVM-dialect text unchanged", function()
    assert.are.equal('  %nofree = add i64 %hot, 1\n@"hot" = global i8 0\n' .. tail,
      fix { "  %nofree = add i64 %hot, 1", '@"hot" = global i8 0' })
    for name, ir in pairs(K) do
      assert.are.equal(ir, cuda._fixup_ir(ir), name)
    end
  end)
end)

local fixture = assert(io.open("tests/fixtures/llvm14_kernel.ll")):read("a")
local kernels = {
  { name = "exp_decay", ir = K.exp_decay, libdevice = true },
  { name = "exp_decay_contig", ir = K.exp_decay_contig, libdevice = true },
  { name = "vector_add", ir = K.vector_add },
  { name = "scalars", ir = K.scalars },
  { name = "fill2d", ir = K.fill2d },
  { name = "features", ir = fixture, libdevice = true },  -- printed by LLVM 14
}

describe("NVVM IR to PTX", function()
  -- the simulator's "PTX" is the IR itself: these need the driver's side
  local was
  setup(function() was = cuda.simulate(false) end)
  teardown(function() cuda.simulate(was) end)
  for _, k in ipairs(kernels) do
    needs_it({ libNVVM = toolkit.nvvm, libdevice = toolkit.libdevice or not k.libdevice, ptxas = ptxas },
      "libNVVM compiles " .. k.name .. " for compute_90 and ptxas assembles it", function()
      local ptx = cuda._compile_ptx(k.ir, { cc = { 9, 0 }, backend = "nvvm" })
      assert.is_truthy(ptx:find(".visible .entry " .. k.name .. "(", 1, true))
      assert.are.equal(".target sm_90", ptx:match("%.target [%w_]+"))
      local ok, out = assemble(ptx)
      assert.is_true(ok, out)
    end)

    needs_it({ libdevice = toolkit.libdevice or not k.libdevice, ptxas = ptxas },
      "the NVPTX backend compiles " .. k.name .. " and ptxas assembles it for sm_90", function()
      local ptx = cuda._compile_ptx(k.ir, { cc = { 9, 0 }, backend = "llvm" })
      assert.is_truthy(ptx:find(".visible .entry " .. k.name .. "(", 1, true))
      assert.is_nil(ptx:find("__nvvm_reflect", 1, true))  -- resolved by NVVMReflect
      local ok, out = assemble(ptx)
      assert.is_true(ok, out)
    end)
  end

  it("the NVPTX backend targets the newest sm_XY it knows at or below the device's", function()
    local function target(cc)
      return cuda._compile_ptx(K.vector_add, { cc = cc, backend = "llvm" }):match("%.target ([%w_]+)")
    end
    assert.are.equal("sm_86", target { 9, 0 })
    assert.are.equal("sm_86", target { 8, 9 })
    assert.are.equal("sm_80", target { 8, 0 })
    assert.are.equal("sm_75", target { 7, 5 })
    assert.are.equal("sm_61", target { 6, 1 })
  end)

  it("fastmath flushes float32 denormals in the NVPTX backend", function()
    local plain = cuda._compile_ptx(K.vector_add, { cc = { 9, 0 }, backend = "llvm" })
    local fast = cuda._compile_ptx(K.vector_add, { cc = { 9, 0 }, backend = "llvm", fastmath = true })
    assert.is_nil(plain:find("ftz", 1, true))
    assert.is_truthy(fast:find("add.ftz.f32", 1, true))
  end)

  needs_it({ libNVVM = toolkit.nvvm }, "fastmath passes -ftz=1 to libNVVM", function()
    local plain = cuda._compile_ptx(K.vector_add, { cc = { 9, 0 }, backend = "nvvm" })
    local fast = cuda._compile_ptx(K.vector_add, { cc = { 9, 0 }, backend = "nvvm", fastmath = true })
    assert.is_nil(plain:find("ftz", 1, true))
    assert.is_truthy(fast:find("add.ftz.f32", 1, true))
  end)

  local bad = "define void @k() {\n  ret i32 0\n}\n"

  needs_it({ libNVVM = toolkit.nvvm }, "reports libNVVM's log for invalid IR, and keeps working", function()
    assert.are.equal("[NVVM_ERROR_INVALID_IR] nvvmVerifyProgram: lumba (2, 6): parse value doesn't match "
      .. "function result type 'void'", H.error_of(cuda._compile_ptx, bad, { cc = { 9, 0 }, backend = "nvvm" }))
    assert.are.equal("[NVVM_ERROR_INVALID_OPTION] nvvmVerifyProgram: libnvvm : error: -arch=compute_10 is an "
      .. "unsupported option", H.error_of(cuda._compile_ptx, K.vector_add, { cc = { 1, 0 }, backend = "nvvm" }))
    assert.is_string(cuda._compile_ptx(K.vector_add, { cc = { 9, 0 }, backend = "nvvm" }))
  end)

  it("reports LLVM's parse error from the NVPTX backend, and keeps working", function()
    assert.are.equal("[NVPTX] parse: lumba:2:7: error: value doesn't match function result type 'void'\n"
      .. "  ret i32 0\n      ^", H.error_of(cuda._compile_ptx, bad, { cc = { 9, 0 }, backend = "llvm" }))
    assert.are.equal('unknown backend \'ptx\' (expected "nvvm" or "llvm")',
      H.error_of(cuda._compile_ptx, K.vector_add, { cc = { 9, 0 }, backend = "ptx" }))
    assert.is_string(cuda._compile_ptx(K.vector_add, { cc = { 9, 0 }, backend = "llvm" }))
  end)
end)
