-- Hand-written NVVM IR kernels (the LLVM-7 dialect libNVVM reads) for the
-- CUDA specs, until the compiler's GPU lowering produces them. They follow
-- the kernel ABI of src/cudadrv.h: an array of ndim N is passed as
-- (T* data, i64 shape[N], i64 strides[N] in bytes); scalars by value.
local K = {}

local header = [[
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() nounwind readnone
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() nounwind readnone
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x() nounwind readnone
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() nounwind readnone
]]

local function module(body, kernel_type, name)
  return header .. body .. string.format([[

!nvvmir.version = !{!0}
!0 = !{i32 2, i32 0}
!nvvm.annotations = !{!1}
!1 = !{%s* @%s, !"kernel", i32 1}
]], kernel_type, name)
end

-- i = blockIdx.x * blockDim.x + threadIdx.x (cuda.grid(1)), as %i
local grid1 = [[
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t = zext i32 %tid to i64
  %b = zext i32 %ctaid to i64
  %w = zext i32 %ntid to i64
  %bw = mul i64 %b, %w
  %i = add i64 %bw, %t
]]

-- def exponential_decay_kernel(x, out, tau, n):
--     idx = cuda.grid(1)
--     if idx < n: out[idx] = math.exp(-x[idx] / tau)
K.exp_decay = module([[
declare double @__nv_exp(double)

define void @exp_decay(double* %x, i64 %x_n, i64 %x_s, double* %out, i64 %out_n, i64 %out_s, double %tau, i64 %n) {
entry:
]] .. grid1 .. [[
  %ok = icmp slt i64 %i, %n
  br i1 %ok, label %body, label %done
body:
  %xb = bitcast double* %x to i8*
  %xoff = mul i64 %i, %x_s
  %xp8 = getelementptr i8, i8* %xb, i64 %xoff
  %xp = bitcast i8* %xp8 to double*
  %xv = load double, double* %xp, align 8
  %neg = fsub double -0.000000e+00, %xv
  %q = fdiv double %neg, %tau
  %e = call double @__nv_exp(double %q)
  %ob = bitcast double* %out to i8*
  %ooff = mul i64 %i, %out_s
  %op8 = getelementptr i8, i8* %ob, i64 %ooff
  %op = bitcast i8* %op8 to double*
  store double %e, double* %op, align 8
  br label %done
done:
  ret void
}
]], "void (double*, i64, i64, double*, i64, i64, double, i64)", "exp_decay")

-- exp decay indexing C-contiguous arrays by element (as Numba lowers 'C'
-- layout arrays) instead of by byte strides
K.exp_decay_contig = module([[
declare double @__nv_exp(double)

define void @exp_decay_contig(double* %x, i64 %x_n, i64 %x_s, double* %out, i64 %out_n, i64 %out_s, double %tau, i64 %n) {
entry:
]] .. grid1 .. [[
  %ok = icmp slt i64 %i, %n
  br i1 %ok, label %body, label %done
body:
  %xp = getelementptr inbounds double, double* %x, i64 %i
  %xv = load double, double* %xp, align 8
  %neg = fsub double -0.000000e+00, %xv
  %q = fdiv double %neg, %tau
  %e = call double @__nv_exp(double %q)
  %op = getelementptr inbounds double, double* %out, i64 %i
  store double %e, double* %op, align 8
  br label %done
done:
  ret void
}
]], "void (double*, i64, i64, double*, i64, i64, double, i64)", "exp_decay_contig")

-- def add_kernel(x, y, out):
--     idx = cuda.grid(1)
--     if idx < x.shape[0]: out[idx] = x[idx] + y[idx]
K.vector_add = module([[
define void @vector_add(float* %x, i64 %x_n, i64 %x_s, float* %y, i64 %y_n, i64 %y_s, float* %out, i64 %out_n, i64 %out_s) {
entry:
]] .. grid1 .. [[
  %ok = icmp slt i64 %i, %x_n
  br i1 %ok, label %body, label %done
body:
  %xb = bitcast float* %x to i8*
  %xoff = mul i64 %i, %x_s
  %xp8 = getelementptr i8, i8* %xb, i64 %xoff
  %xp = bitcast i8* %xp8 to float*
  %xv = load float, float* %xp, align 4
  %yb = bitcast float* %y to i8*
  %yoff = mul i64 %i, %y_s
  %yp8 = getelementptr i8, i8* %yb, i64 %yoff
  %yp = bitcast i8* %yp8 to float*
  %yv = load float, float* %yp, align 4
  %s = fadd float %xv, %yv
  %ob = bitcast float* %out to i8*
  %ooff = mul i64 %i, %out_s
  %op8 = getelementptr i8, i8* %ob, i64 %ooff
  %op = bitcast i8* %op8 to float*
  store float %s, float* %op, align 4
  br label %done
done:
  ret void
}
]], "void (float*, i64, i64, float*, i64, i64, float*, i64, i64)", "vector_add")

-- out[0..4] = b, i, int(f), int(d), l: checks how each scalar kind is packed
K.scalars = module([[
define void @scalars(i64* %out, i64 %out_n, i64 %out_s, i8 %b, i32 %i, float %f, double %d, i64 %l) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = icmp eq i32 %tid, 0
  br i1 %first, label %body, label %done
body:
  %ob = bitcast i64* %out to i8*
  %p1b = getelementptr i8, i8* %ob, i64 %out_s
  %s2 = mul i64 %out_s, 2
  %p2b = getelementptr i8, i8* %ob, i64 %s2
  %s3 = mul i64 %out_s, 3
  %p3b = getelementptr i8, i8* %ob, i64 %s3
  %s4 = mul i64 %out_s, 4
  %p4b = getelementptr i8, i8* %ob, i64 %s4
  %p1 = bitcast i8* %p1b to i64*
  %p2 = bitcast i8* %p2b to i64*
  %p3 = bitcast i8* %p3b to i64*
  %p4 = bitcast i8* %p4b to i64*
  %bv = sext i8 %b to i64
  %iv = sext i32 %i to i64
  %fv = fptosi float %f to i64
  %dv = fptosi double %d to i64
  store i64 %bv, i64* %out, align 8
  store i64 %iv, i64* %p1, align 8
  store i64 %fv, i64* %p2, align 8
  store i64 %dv, i64* %p3, align 8
  store i64 %l, i64* %p4, align 8
  br label %done
done:
  ret void
}
]], "void (i64*, i64, i64, i8, i32, float, double, i64)", "scalars")

-- 2-D: a[i, j] = 100 * i + j with i = blockIdx.y, j = threadIdx.x
K.fill2d = module([[
define void @fill2d(double* %a, i64 %n0, i64 %n1, i64 %s0, i64 %s1) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %cy = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %j = zext i32 %tid to i64
  %i = zext i32 %cy to i64
  %oki = icmp slt i64 %i, %n0
  %okj = icmp slt i64 %j, %n1
  %ok = and i1 %oki, %okj
  br i1 %ok, label %body, label %done
body:
  %ab = bitcast double* %a to i8*
  %o0 = mul i64 %i, %s0
  %o1 = mul i64 %j, %s1
  %o = add i64 %o0, %o1
  %p8 = getelementptr i8, i8* %ab, i64 %o
  %p = bitcast i8* %p8 to double*
  %h = mul i64 %i, 100
  %v = add i64 %h, %j
  %fv = sitofp i64 %v to double
  store double %fv, double* %p, align 8
  br label %done
done:
  ret void
}
]], "void (double*, i64, i64, i64, i64)", "fill2d")

return K
