/*
** lower_complex.h — complex numbers in compiled code, as Numba lowers them:
** a {real, imag} struct of two floats (float for complex64, double for
** complex128). Arithmetic is CPython's: products by the schoolbook formula,
** quotients by Smith's method (CPython's _Py_c_quot), powers through
** lm_rt_cpow (CPython's algorithm) on the CPU, written out on the GPU
** (Target.complex_call); division by zero raises
** ZeroDivisionError as Numba does.
**
** Static inline in a header: lower.c, lower_expr.c, the array expressions
** and builtin_complex.c use it, and it uses lower.c and lower_expr.c; as a
** file of its own it would join the lowering's circle of files that use
** one another (tests/layering_spec.lua allows 6).
*/
#ifndef lower_complex_h
#define lower_complex_h

#include <math.h>

#include "lower.h"

static inline LLVMValueRef lower_complex_make(Lower *L, Type *t, LLVMValueRef re, LLVMValueRef im) {
  Type *pt = ty_complex_part(t);
  LLVMTypeRef ft = lower_type(L, pt);
  /* parts of the other float width convert (their LLVM type says which they are) */
  LLVMTypeRef f32 = LLVMFloatTypeInContext(L->ctx);
  if (LLVMTypeOf(re) != ft) re = lower_cast(L, (Val){LLVMTypeOf(re) == f32 ? ty_scalar(DT_FLOAT32) : ty_float64, re, false}, pt).v;
  if (LLVMTypeOf(im) != ft) im = lower_cast(L, (Val){LLVMTypeOf(im) == f32 ? ty_scalar(DT_FLOAT32) : ty_float64, im, false}, pt).v;
  LLVMValueRef v = LLVMGetUndef(lower_type(L, t));
  v = LLVMBuildInsertValue(L->b, v, re, 0, "");
  return LLVMBuildInsertValue(L->b, v, im, 1, "");
}

static inline LLVMValueRef lower_complex_part(Lower *L, LLVMValueRef v, int i) {
  return LLVMBuildExtractValue(L->b, v, (unsigned)i, i ? "im" : "re");
}

/* any number to complex type to; complex to a real type keeps the real part
** (NumPy's cast; Numba refuses it in typing) */
static inline Val lower_complex_cast(Lower *L, Val v, Type *to) {
  Type *from = v.ty;
  if (ty_is_complex(from) && ty_is_complex(to)) {
    Type *pf = ty_complex_part(from), *pt = ty_complex_part(to);
    LLVMValueRef re = lower_cast(L, (Val){pf, lower_complex_part(L, v.v, 0), false}, pt).v;
    LLVMValueRef im = lower_cast(L, (Val){pf, lower_complex_part(L, v.v, 1), false}, pt).v;
    return (Val){to, lower_complex_make(L, to, re, im), false};
  }
  if (ty_is_complex(to)) {
    Type *pt = ty_complex_part(to);
    LLVMValueRef re = lower_cast(L, v, pt).v;
    return (Val){to, lower_complex_make(L, to, re, LLVMConstReal(lower_type(L, pt), 0)), false};
  }
  Type *pf = ty_complex_part(from);
  if (ty_is_bool(to)) {
    LLVMValueRef z = LLVMConstReal(lower_type(L, pf), 0);
    LLVMValueRef a = LLVMBuildFCmp(L->b, LLVMRealUNE, lower_complex_part(L, v.v, 0), z, "");
    LLVMValueRef b = LLVMBuildFCmp(L->b, LLVMRealUNE, lower_complex_part(L, v.v, 1), z, "");
    return (Val){to, LLVMBuildOr(L->b, a, b, ""), false};
  }
  return lower_cast(L, (Val){pf, lower_complex_part(L, v.v, 0), false}, to);
}

static inline LLVMValueRef lc_fconst(Lower *L, Type *pt, double x) { return LLVMConstReal(lower_type(L, pt), x); }

/* CPython's _Py_c_quot (Smith's method); b == 0 raises ZeroDivisionError */
static inline LLVMValueRef lc_c_div(Lower *L, Type *t, LLVMValueRef a, LLVMValueRef b, bool check) {
  Type *pt = ty_complex_part(t);
  LLVMBuilderRef B = L->b;
  LLVMValueRef ar = lower_complex_part(L, a, 0), ai = lower_complex_part(L, a, 1);
  LLVMValueRef br = lower_complex_part(L, b, 0), bi = lower_complex_part(L, b, 1);
  LLVMValueRef abr = lower_fmath(L, "fabs", &br, 1), abi = lower_fmath(L, "fabs", &bi, 1);  /* libNVVM has no llvm.fabs */
  LLVMValueRef z = lc_fconst(L, pt, 0);
  LLVMValueRef zero = LLVMBuildAnd(B, LLVMBuildFCmp(B, LLVMRealOEQ, br, z, ""), LLVMBuildFCmp(B, LLVMRealOEQ, bi, z, ""), "");
  if (L->C->opt.error_model_numpy) {  /* NumPy's loop: a scale factor, x / 0 an inf or nan */
    LLVMValueRef one = lc_fconst(L, pt, 1);
    LLVMValueRef r1 = LLVMBuildFDiv(B, bi, br, ""), s1 = LLVMBuildFDiv(B, one, LLVMBuildFAdd(B, br, LLVMBuildFMul(B, bi, r1, ""), ""), "");
    LLVMValueRef x1 = LLVMBuildFMul(B, LLVMBuildFAdd(B, ar, LLVMBuildFMul(B, ai, r1, ""), ""), s1, "");
    LLVMValueRef y1 = LLVMBuildFMul(B, LLVMBuildFSub(B, ai, LLVMBuildFMul(B, ar, r1, ""), ""), s1, "");
    LLVMValueRef r2 = LLVMBuildFDiv(B, br, bi, ""), s2 = LLVMBuildFDiv(B, one, LLVMBuildFAdd(B, bi, LLVMBuildFMul(B, br, r2, ""), ""), "");
    LLVMValueRef x2 = LLVMBuildFMul(B, LLVMBuildFAdd(B, LLVMBuildFMul(B, ar, r2, ""), ai, ""), s2, "");
    LLVMValueRef y2 = LLVMBuildFMul(B, LLVMBuildFSub(B, LLVMBuildFMul(B, ai, r2, ""), ar, ""), s2, "");
    LLVMValueRef ge = LLVMBuildFCmp(B, LLVMRealOGE, abr, abi, "");
    LLVMValueRef x = LLVMBuildSelect(B, ge, x1, x2, ""), y = LLVMBuildSelect(B, ge, y1, y2, "");
    x = LLVMBuildSelect(B, zero, LLVMBuildFDiv(B, ar, abr, ""), x, "");
    y = LLVMBuildSelect(B, zero, LLVMBuildFDiv(B, ai, abr, ""), y, "");
    return lower_complex_make(L, t, x, y);
  }
  if (check) lower_raise_if(L, zero, LMERR_ZERODIV_FLOAT, "complex division by zero");
  /* |br| >= |bi|: divide through by br */
  LLVMValueRef r1 = LLVMBuildFDiv(B, bi, br, ""), d1 = LLVMBuildFAdd(B, br, LLVMBuildFMul(B, bi, r1, ""), "");
  LLVMValueRef x1 = LLVMBuildFDiv(B, LLVMBuildFAdd(B, ar, LLVMBuildFMul(B, ai, r1, ""), ""), d1, "");
  LLVMValueRef y1 = LLVMBuildFDiv(B, LLVMBuildFSub(B, ai, LLVMBuildFMul(B, ar, r1, ""), ""), d1, "");
  /* else by bi */
  LLVMValueRef r2 = LLVMBuildFDiv(B, br, bi, ""), d2 = LLVMBuildFAdd(B, LLVMBuildFMul(B, br, r2, ""), bi, "");
  LLVMValueRef x2 = LLVMBuildFDiv(B, LLVMBuildFAdd(B, LLVMBuildFMul(B, ar, r2, ""), ai, ""), d2, "");
  LLVMValueRef y2 = LLVMBuildFDiv(B, LLVMBuildFSub(B, LLVMBuildFMul(B, ai, r2, ""), ar, ""), d2, "");
  LLVMValueRef ge = LLVMBuildFCmp(B, LLVMRealOGE, abr, abi, ""), lt = LLVMBuildFCmp(B, LLVMRealOLT, abr, abi, "");
  LLVMValueRef nan = lc_fconst(L, pt, NAN);
  LLVMValueRef x = LLVMBuildSelect(B, ge, x1, LLVMBuildSelect(B, lt, x2, nan, ""), "");
  LLVMValueRef y = LLVMBuildSelect(B, ge, y1, LLVMBuildSelect(B, lt, y2, nan, ""), "");
  return lower_complex_make(L, t, x, y);
}

/* a ** b through the runtime (CPython's complex_pow in double precision) */
static inline LLVMValueRef lc_c_pow(Lower *L, Type *t, LLVMValueRef a, LLVMValueRef b) {
  if (L->C->target->complex_call) return L->C->target->complex_call(L, 'p', t, a, b);  /* a kernel: no runtime */
  Type *f64 = ty_float64;
  Type *pt = ty_complex_part(t);
  LLVMTypeRef d = LLVMDoubleTypeInContext(L->ctx);
  LLVMValueRef args[4];
  for (int i = 0; i < 2; i++) {
    args[i] = lower_cast(L, (Val){pt, lower_complex_part(L, a, i), false}, f64).v;
    args[2 + i] = lower_cast(L, (Val){pt, lower_complex_part(L, b, i), false}, f64).v;
  }
  LLVMValueRef out = lower_entry_alloca(L, LLVMArrayType(d, 2), "cpow");
  LLVMValueRef outp = LLVMBuildBitCast(L->b, out, LLVMPointerType(d, 0), "");
  LLVMValueRef cargs[5] = {args[0], args[1], args[2], args[3], outp};
  LLVMTypeRef ps[5] = {d, d, d, d, LLVMPointerType(d, 0)};
  LLVMValueRef fn = lower_rt_fn(L, "lm_rt_cpow", LLVMVoidTypeInContext(L->ctx), ps, 5);
  LLVMBuildCall2(L->b, LLVMGlobalGetValueType(fn), fn, cargs, 5, "");
  LLVMValueRef one = lower_i64(L, 1);
  LLVMValueRef re = LLVMBuildLoad2(L->b, d, outp, "");
  LLVMValueRef im = LLVMBuildLoad2(L->b, d, LLVMBuildInBoundsGEP2(L->b, d, outp, &one, 1, ""), "");
  return lower_complex_make(L, t, re, im);
}

/* a op b with both already of complex type t ('+', '-', '*', '/', 'p' power) */
static inline LLVMValueRef lower_complex_arith(Lower *L, int op, Type *t, LLVMValueRef a, LLVMValueRef b) {
  LLVMBuilderRef B = L->b;
  LLVMValueRef ar = lower_complex_part(L, a, 0), ai = lower_complex_part(L, a, 1);
  LLVMValueRef br = lower_complex_part(L, b, 0), bi = lower_complex_part(L, b, 1);
  switch (op) {
    case '+': return lower_complex_make(L, t, LLVMBuildFAdd(B, ar, br, ""), LLVMBuildFAdd(B, ai, bi, ""));
    case '-': return lower_complex_make(L, t, LLVMBuildFSub(B, ar, br, ""), LLVMBuildFSub(B, ai, bi, ""));
    case '*':
      return lower_complex_make(L, t, LLVMBuildFSub(B, LLVMBuildFMul(B, ar, br, ""), LLVMBuildFMul(B, ai, bi, ""), ""),
                                LLVMBuildFAdd(B, LLVMBuildFMul(B, ar, bi, ""), LLVMBuildFMul(B, ai, br, ""), ""));
    case '/': return lc_c_div(L, t, a, b, true);
    case 'p': return lc_c_pow(L, t, a, b);
    default: LM_UNREACHABLE();
  }
}

/* a == b (ne: a != b) */
static inline LLVMValueRef lower_complex_eq(Lower *L, LLVMValueRef a, LLVMValueRef b, bool ne) {
  LLVMBuilderRef B = L->b;
  LLVMRealPredicate p = ne ? LLVMRealUNE : LLVMRealOEQ;
  LLVMValueRef x = LLVMBuildFCmp(B, p, lower_complex_part(L, a, 0), lower_complex_part(L, b, 0), "");
  LLVMValueRef y = LLVMBuildFCmp(B, p, lower_complex_part(L, a, 1), lower_complex_part(L, b, 1), "");
  return ne ? LLVMBuildOr(B, x, y, "") : LLVMBuildAnd(B, x, y, "");
}

static inline LLVMValueRef lower_complex_neg(Lower *L, Type *t, LLVMValueRef a) {
  return lower_complex_make(L, t, LLVMBuildFNeg(L->b, lower_complex_part(L, a, 0), ""),
                            LLVMBuildFNeg(L->b, lower_complex_part(L, a, 1), ""));
}

static inline LLVMValueRef lower_complex_conj(Lower *L, Type *t, LLVMValueRef a) {
  return lower_complex_make(L, t, lower_complex_part(L, a, 0), LLVMBuildFNeg(L->b, lower_complex_part(L, a, 1), ""));
}

/* abs(z): hypot of the parts (llvm has no hypot intrinsic: the libm call) */
static inline LLVMValueRef lower_complex_abs(Lower *L, Type *t, LLVMValueRef a) {
  LLVMValueRef args[2] = {lower_complex_part(L, a, 0), lower_complex_part(L, a, 1)};
  return L->C->target->math_call(L, "hypot", NULL, args, 2, t->dtype == DT_COMPLEX64);
}

#endif
