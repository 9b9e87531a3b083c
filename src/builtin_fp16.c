/*
** builtin_fp16.c — the fp16 family of the registry: numba-cuda's
** cuda.fp16.NAME in kernels, one row per function of fp16.def. Arguments
** convert to float16 (numba-cuda's one float16 signature per function);
** the result is float16, bool for the comparisons. Arithmetic is LLVM's on
** half (NVVM emits the f16 instructions; in the simulator LLVM widens to
** float through half_rt.h's helpers); the math functions compute in
** float32 and round back, as cuda_fp16.h's.
*/
#include <stdio.h>
#include <string.h>

#include "builtin_hooks.h"

typedef enum FpOp {
  FP_ADD, FP_SUB, FP_MUL, FP_DIV, FP_NEG, FP_ABS, FP_FMA, FP_MAX, FP_MIN, FP_CMP, FP_MATH, FP_RSQRT, FP_RCP,
} FpOp;

typedef struct FpFn {
  FpOp op;
  int pred;          // FP_CMP: an LLVMRealPredicate
  const char *fn;    // FP_MATH: libm's float32 name
} FpFn;

static const FpFn fp_fns[BI__COUNT] = {
#define FP16(nm, nin, op, pred, fn) [BI_cuda_fp16_##nm] = {op, pred, fn},
#include "fp16.def"
#undef FP16
};

Type *bfp16_infer(Infer *I, Node *n, const BuiltinName *nm) {
  Type *at[3];
  if (!builtin_infer_numbers(I, n, nm, at, true, "a real number (float16)")) return NULL;
  return fp_fns[nm->id].op == FP_CMP ? ty_scalar(DT_BOOL) : ty_scalar(DT_FLOAT16);
}

/* the float32 function name(x): libdevice's on the GPU, libm's in the simulator */
static LLVMValueRef call_f32(Lower *L, const char *name, LLVMValueRef x) {
  char buf[32];
  LLVMTypeRef f32 = LLVMFloatTypeInContext(L->ctx);
  snprintf(buf, sizeof buf, "%s%s", L->C->target->gpu ? "__nv_" : "", name);
  LLVMValueRef fn = lower_rt_fn(L, buf, f32, &f32, 1);
  return LLVMBuildCall2(L->b, LLVMGlobalGetValueType(fn), fn, &x, 1, "");
}

/* one PTX f16 instruction on 16-bit registers (libNVVM has no llvm.fma.f16
** or llvm.maxnum.f16): numba-cuda's inline assembly */
static LLVMValueRef ptx_f16(Lower *L, const char *text, LLVMValueRef *x, int n) {
  LLVMTypeRef i16 = LLVMInt16TypeInContext(L->ctx), ht = LLVMTypeOf(x[0]);
  LLVMTypeRef ps[3] = {i16, i16, i16};
  LLVMValueRef a[3];
  for (int i = 0; i < n; i++) a[i] = LLVMBuildBitCast(L->b, x[i], i16, "");
  const char *cons = n == 3 ? "=h,h,h,h" : "=h,h,h";
  LLVMTypeRef fty = LLVMFunctionType(i16, ps, (unsigned)n, 0);
  LLVMValueRef asmv = LLVMGetInlineAsm(fty, (char *)text, strlen(text), (char *)cons, strlen(cons), 0, 0,
                                       LLVMInlineAsmDialectATT, 0);
  return LLVMBuildBitCast(L->b, LLVMBuildCall2(L->b, fty, asmv, a, (unsigned)n, ""), ht, "");
}

Val bfp16_lower(Lower *L, Node *n, CallInfo *ci) {
  const FpFn *f = &fp_fns[ci->bi];
  Type *h = ty_scalar(DT_FLOAT16);
  LLVMTypeRef ht = lower_type(L, h), f32 = LLVMFloatTypeInContext(L->ctx);
  LLVMValueRef x[3];
  bool gpu = L->C->target->gpu;
  int nin = builtin_entries[ci->bi].lo;
  for (int i = 0; i < nin; i++) x[i] = lower_cast(L, lower_arg(L, ci, i), h).v;
  LLVMValueRef r;
  switch (f->op) {
    case FP_ADD: r = LLVMBuildFAdd(L->b, x[0], x[1], ""); break;
    case FP_SUB: r = LLVMBuildFSub(L->b, x[0], x[1], ""); break;
    case FP_MUL: r = LLVMBuildFMul(L->b, x[0], x[1], ""); break;
    case FP_DIV: r = LLVMBuildFDiv(L->b, x[0], x[1], ""); break;
    case FP_NEG: r = LLVMBuildFNeg(L->b, x[0], ""); break;
    case FP_ABS: {  /* the sign bit cleared: NaN stays NaN on every target */
      LLVMTypeRef i16 = LLVMInt16TypeInContext(L->ctx);
      LLVMValueRef bits = LLVMBuildAnd(L->b, LLVMBuildBitCast(L->b, x[0], i16, ""), LLVMConstInt(i16, 0x7fff, 0), "");
      r = LLVMBuildBitCast(L->b, bits, ht, "");
      break;
    }
    case FP_FMA:
      r = gpu ? ptx_f16(L, "fma.rn.f16 $0, $1, $2, $3;", x, 3) : lower_intrinsic(L, "llvm.fma", &ht, 1, x, 3);
      break;
    case FP_MAX: r = gpu ? ptx_f16(L, "max.f16 $0, $1, $2;", x, 2) : lower_intrinsic(L, "llvm.maxnum", &ht, 1, x, 2); break;
    case FP_MIN: r = gpu ? ptx_f16(L, "min.f16 $0, $1, $2;", x, 2) : lower_intrinsic(L, "llvm.minnum", &ht, 1, x, 2); break;
    case FP_CMP:
      return (Val){ty_scalar(DT_BOOL), LLVMBuildFCmp(L->b, (LLVMRealPredicate)f->pred, x[0], x[1], ""), false};
    default: {  /* float32 math, rounded back once */
      LLVMValueRef v = LLVMBuildFPExt(L->b, x[0], f32, ""), one = LLVMConstReal(f32, 1.0);
      if (f->op == FP_MATH) v = call_f32(L, f->fn, v);
      else if (f->op == FP_RCP) v = LLVMBuildFDiv(L->b, one, v, "");
      else v = L->C->target->gpu ? call_f32(L, "rsqrtf", v) : LLVMBuildFDiv(L->b, one, call_f32(L, "sqrtf", v), "");
      r = LLVMBuildFPTrunc(L->b, v, ht, "");
    }
  }
  (void)n;
  return (Val){h, r, false};
}
