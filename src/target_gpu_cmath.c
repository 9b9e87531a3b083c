/*
** target_gpu_cmath.c — complex functions and powers in CUDA kernels: what
** the CPU and the simulator compute through the runtime (lm_rt_cmath,
** lm_rt_cpow: C99's complex functions, CPython's power) written out in
** double precision over libdevice's real functions, which is all a kernel
** can call. The formulas keep C99's branch cuts; tan/tanh use the form
** that stays finite for large arguments; the power is CPython's
** (repeated multiplication for integral exponents up to 100, else polar).
*/
#include <math.h>

#include "cplx.h"
#include "lower_complex.h"

typedef struct Z { LLVMValueRef re, im; } Z;

static LLVMValueRef k(Lower *L, double x) { return LLVMConstReal(LLVMDoubleTypeInContext(L->ctx), x); }
static LLVMValueRef f1(Lower *L, const char *fn, LLVMValueRef x) {
  return L->C->target->math_call(L, fn, NULL, &x, 1, false);
}
static LLVMValueRef f2(Lower *L, const char *fn, LLVMValueRef x, LLVMValueRef y) {
  LLVMValueRef a[2] = {x, y};
  return L->C->target->math_call(L, fn, NULL, a, 2, false);
}
static LLVMValueRef add(Lower *L, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFAdd(L->b, a, b, ""); }
static LLVMValueRef sub(Lower *L, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFSub(L->b, a, b, ""); }
static LLVMValueRef mul(Lower *L, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFMul(L->b, a, b, ""); }
static LLVMValueRef dv(Lower *L, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFDiv(L->b, a, b, ""); }
static LLVMValueRef neg(Lower *L, LLVMValueRef a) { return LLVMBuildFNeg(L->b, a, ""); }
static LLVMValueRef sel(Lower *L, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildSelect(L->b, c, a, b, ""); }
static LLVMValueRef cmp(Lower *L, LLVMRealPredicate p, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFCmp(L->b, p, a, b, ""); }
static Z zsel(Lower *L, LLVMValueRef c, Z a, Z b) { return (Z){sel(L, c, a.re, b.re), sel(L, c, a.im, b.im)}; }
static Z zadd(Lower *L, Z a, Z b) { return (Z){add(L, a.re, b.re), add(L, a.im, b.im)}; }
static Z zsub(Lower *L, Z a, Z b) { return (Z){sub(L, a.re, b.re), sub(L, a.im, b.im)}; }
static Z zmul(Lower *L, Z a, Z b) {
  return (Z){sub(L, mul(L, a.re, b.re), mul(L, a.im, b.im)), add(L, mul(L, a.re, b.im), mul(L, a.im, b.re))};
}
/* z + r and r - z for a real r: the imaginary part keeps its sign (a signed zero picks the side of a cut) */
static Z zaddr(Lower *L, Z z, double r) { return (Z){add(L, z.re, k(L, r)), z.im}; }
static Z zrsub(Lower *L, double r, Z z) { return (Z){sub(L, k(L, r), z.re), neg(L, z.im)}; }
static Z zscale(Lower *L, Z a, LLVMValueRef s) { return (Z){mul(L, a.re, s), mul(L, a.im, s)}; }
static Z times_i(Lower *L, Z a) { return (Z){neg(L, a.im), a.re}; }       /* i z */
static Z times_minus_i(Lower *L, Z a) { return (Z){a.im, neg(L, a.re)}; } /* -i z */

static Z zlog(Lower *L, Z z) { return (Z){f1(L, "log", f2(L, "hypot", z.re, z.im)), f2(L, "atan2", z.im, z.re)}; }

static Z zexp(Lower *L, Z z) {
  LLVMValueRef e = f1(L, "exp", z.re);
  LLVMValueRef real = cmp(L, LLVMRealOEQ, z.im, k(L, 0));  /* exp of a real: its imaginary part stays 0 */
  return (Z){sel(L, real, e, mul(L, e, f1(L, "cos", z.im))), sel(L, real, z.im, mul(L, e, f1(L, "sin", z.im)))};
}

/* the principal root, as CPython's c_sqrt: (s, y/2s) right of the cut, (|y|/2s, ±s) left of it */
static Z zsqrt(Lower *L, Z z) {
  LLVMValueRef ax = f1(L, "fabs", z.re), ay = f1(L, "fabs", z.im);
  LLVMValueRef s = f1(L, "sqrt", mul(L, add(L, ax, f2(L, "hypot", ax, ay)), k(L, 0.5)));
  LLVMValueRef d = dv(L, ay, mul(L, s, k(L, 2)));
  Z right = {s, f2(L, "copysign", d, z.im)}, left = {d, f2(L, "copysign", s, z.im)};
  Z r = zsel(L, cmp(L, LLVMRealOGE, z.re, k(L, 0)), right, left);
  return zsel(L, cmp(L, LLVMRealOEQ, s, k(L, 0)), (Z){k(L, 0), z.im}, r);
}

/* tanh(x + iy) = (tanh x (1 + tan²y), tan y (1 - tanh²x)) / (1 + tanh²x tan²y): finite for large x */
static Z ztanh(Lower *L, Z z) {
  LLVMValueRef t = f1(L, "tanh", z.re), u = f1(L, "tan", z.im);
  LLVMValueRef t2 = mul(L, t, t), u2 = mul(L, u, u);
  LLVMValueRef d = add(L, k(L, 1), mul(L, t2, u2));
  return (Z){dv(L, mul(L, t, add(L, k(L, 1), u2)), d), dv(L, mul(L, u, sub(L, k(L, 1), t2)), d)};
}

/* asinh z = log(z + sqrt(z² + 1)), on the right half-plane (odd: the left by symmetry) */
static Z zasinh(Lower *L, Z z) {
  LLVMValueRef left = cmp(L, LLVMRealOLT, z.re, k(L, 0));
  Z w = zsel(L, left, (Z){neg(L, z.re), neg(L, z.im)}, z);
  Z r = zlog(L, zadd(L, w, zsqrt(L, zaddr(L, zmul(L, w, w), 1))));
  return zsel(L, left, (Z){neg(L, r.re), neg(L, r.im)}, r);
}

static Z zatanh(Lower *L, Z z) {  /* (log(1 + z) - log(1 - z)) / 2 */
  return zscale(L, zsub(L, zlog(L, zaddr(L, z, 1)), zlog(L, zrsub(L, 1, z))), k(L, 0.5));
}

static Z zcmath(Lower *L, int op, Z z) {
  switch (op) {
    case CM_SQRT: return zsqrt(L, z);
    case CM_EXP: return zexp(L, z);
    case CM_LOG: return zlog(L, z);
    case CM_LOG10: return zscale(L, zlog(L, z), k(L, 1 / M_LN10));
    case CM_LOG2: return zscale(L, zlog(L, z), k(L, 1 / M_LN2));
    case CM_SIN:
      return (Z){mul(L, f1(L, "sin", z.re), f1(L, "cosh", z.im)), mul(L, f1(L, "cos", z.re), f1(L, "sinh", z.im))};
    case CM_COS:
      return (Z){mul(L, f1(L, "cos", z.re), f1(L, "cosh", z.im)), neg(L, mul(L, f1(L, "sin", z.re), f1(L, "sinh", z.im)))};
    case CM_TAN: return times_minus_i(L, ztanh(L, times_i(L, z)));
    case CM_SINH:
      return (Z){mul(L, f1(L, "sinh", z.re), f1(L, "cos", z.im)), mul(L, f1(L, "cosh", z.re), f1(L, "sin", z.im))};
    case CM_COSH:
      return (Z){mul(L, f1(L, "cosh", z.re), f1(L, "cos", z.im)), mul(L, f1(L, "sinh", z.re), f1(L, "sin", z.im))};
    case CM_TANH: return ztanh(L, z);
    case CM_ASINH: return zasinh(L, z);
    case CM_ASIN: return times_minus_i(L, zasinh(L, times_i(L, z)));
    case CM_ACOS: {  /* pi/2 - asin z */
      Z a = times_minus_i(L, zasinh(L, times_i(L, z)));
      return (Z){sub(L, k(L, M_PI / 2), a.re), neg(L, a.im)};
    }
    case CM_ACOSH: {  /* log(z + sqrt(z + 1) sqrt(z - 1)) */
      return zlog(L, zadd(L, z, zmul(L, zsqrt(L, zaddr(L, z, 1)), zsqrt(L, zaddr(L, z, -1)))));
    }
    case CM_ATANH: return zatanh(L, z);
    case CM_ATAN: return times_minus_i(L, zatanh(L, times_i(L, z)));
    case CM_EXPM1: {  /* (expm1(x) cos y - 2 sin²(y/2), e^x sin y): no cancellation near 0 */
      LLVMValueRef h = f1(L, "sin", mul(L, z.im, k(L, 0.5)));
      LLVMValueRef re = sub(L, mul(L, f1(L, "expm1", z.re), f1(L, "cos", z.im)), mul(L, k(L, 2), mul(L, h, h)));
      return (Z){re, mul(L, f1(L, "exp", z.re), f1(L, "sin", z.im))};
    }
    case CM_LOG1P: {  /* (log1p(x(2 + x) + y²) / 2, atan2(y, 1 + x)) */
      LLVMValueRef q = add(L, mul(L, z.re, add(L, k(L, 2), z.re)), mul(L, z.im, z.im));
      return (Z){mul(L, f1(L, "log1p", q), k(L, 0.5)), f2(L, "atan2", z.im, add(L, k(L, 1), z.re))};
    }
    case CM_EXP2: return zexp(L, zscale(L, z, k(L, M_LN2)));
    default: LM_UNREACHABLE();
  }
}

/* CPython's complex_pow: b integral with |b| <= 100 by squaring and
** multiplying (seven bits, as selects), else polar form; 0 ** 0 is 1 */
static Z zpow(Lower *L, Z a, Z b) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  LLVMValueRef integral = LLVMBuildAnd(L->b, cmp(L, LLVMRealOEQ, b.im, k(L, 0)),
                                       LLVMBuildAnd(L->b, cmp(L, LLVMRealOEQ, b.re, f1(L, "floor", b.re)),
                                                    cmp(L, LLVMRealOLE, f1(L, "fabs", b.re), k(L, 100)), ""), "");
  LLVMValueRef n = LLVMBuildFPToSI(L->b, sel(L, integral, f1(L, "fabs", b.re), k(L, 0)), i64, "");
  Z r = {k(L, 1), k(L, 0)}, p = a;
  for (int bit = 0; bit < 7; bit++) {
    LLVMValueRef on = LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, n, LLVMConstInt(i64, (unsigned)bit, 0), ""),
                                     LLVMInt1TypeInContext(L->ctx), "");
    r = zsel(L, on, zmul(L, r, p), r);
    p = zmul(L, p, p);
  }
  Type *c128 = ty_scalar(DT_COMPLEX128);
  LLVMValueRef inv = lc_c_div(L, c128, lower_complex_make(L, c128, k(L, 1), k(L, 0)), lower_complex_make(L, c128, r.re, r.im), false);
  Z ri = {lower_complex_part(L, inv, 0), lower_complex_part(L, inv, 1)};
  Z ipow = zsel(L, cmp(L, LLVMRealOLT, b.re, k(L, 0)), ri, r);
  /* polar: |a|^re(b) / e^(arg a im(b)), angle arg a re(b) + im(b) log|a| */
  LLVMValueRef vabs = f2(L, "hypot", a.re, a.im), at = f2(L, "atan2", a.im, a.re);
  LLVMValueRef len = dv(L, f2(L, "pow", vabs, b.re), f1(L, "exp", mul(L, at, b.im)));
  LLVMValueRef ph = add(L, mul(L, at, b.re), mul(L, b.im, f1(L, "log", vabs)));
  Z polar = {mul(L, len, f1(L, "cos", ph)), mul(L, len, f1(L, "sin", ph))};
  LLVMValueRef bzero = LLVMBuildAnd(L->b, cmp(L, LLVMRealOEQ, b.re, k(L, 0)), cmp(L, LLVMRealOEQ, b.im, k(L, 0)), "");
  LLVMValueRef azero = LLVMBuildAnd(L->b, cmp(L, LLVMRealOEQ, a.re, k(L, 0)), cmp(L, LLVMRealOEQ, a.im, k(L, 0)), "");
  /* 0 ** b: 0 for re(b) > 0 real b, else nan (CPython raises; Numba's nan) */
  LLVMValueRef zpos = LLVMBuildAnd(L->b, cmp(L, LLVMRealOEQ, b.im, k(L, 0)), cmp(L, LLVMRealOGT, b.re, k(L, 0)), "");
  Z zres = zsel(L, zpos, (Z){k(L, 0), k(L, 0)}, (Z){k(L, NAN), k(L, NAN)});
  Z r2 = zsel(L, azero, zres, polar);
  r2 = zsel(L, bzero, (Z){k(L, 1), k(L, 0)}, r2);
  return zsel(L, integral, ipow, r2);
}

/* op (a CmathOp, or 'p' for a ** b) of complex values of type t */
LLVMValueRef tgpu_complex_call(Lower *L, int op, Type *t, LLVMValueRef a, LLVMValueRef b) {
  Type *pt = ty_complex_part(t);
  Z x = {lower_cast(L, (Val){pt, lower_complex_part(L, a, 0), false}, ty_float64).v,
         lower_cast(L, (Val){pt, lower_complex_part(L, a, 1), false}, ty_float64).v};
  Z r;
  if (op == 'p') {
    Z y = {lower_cast(L, (Val){pt, lower_complex_part(L, b, 0), false}, ty_float64).v,
           lower_cast(L, (Val){pt, lower_complex_part(L, b, 1), false}, ty_float64).v};
    r = zpow(L, x, y);
  } else {
    r = zcmath(L, op, x);
  }
  return lower_complex_make(L, t, r.re, r.im);
}
