/*
** cplx.h — complex arithmetic as CPython's complex object does it, shared
** by the Lua scalar (complex_lua.c), the array operators (array_ufunc.c) and
** the compiled code's runtime helpers. Plain structs, not C99 _Complex, so
** each step is the exact one CPython takes (C's operators may use other
** formulas, and _Complex division differs with the compiler's options).
*/
#ifndef cplx_h
#define cplx_h

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Cplx { double re, im; } Cplx;

/* the cmath functions compiled code calls through lm_rt_cmath (complex_lua.h) */
typedef enum CmathOp {
  CM_SQRT, CM_EXP, CM_LOG, CM_LOG10, CM_SIN, CM_COS, CM_TAN, CM_ASIN, CM_ACOS, CM_ATAN,
  CM_SINH, CM_COSH, CM_TANH, CM_ASINH, CM_ACOSH, CM_ATANH, CM_EXPM1, CM_LOG1P, CM_LOG2, CM_EXP2,
} CmathOp;

static inline Cplx cplx(double re, double im) { Cplx c = {re, im}; return c; }
static inline Cplx cplx_add(Cplx a, Cplx b) { return cplx(a.re + b.re, a.im + b.im); }
static inline Cplx cplx_sub(Cplx a, Cplx b) { return cplx(a.re - b.re, a.im - b.im); }
static inline Cplx cplx_mul(Cplx a, Cplx b) {
  return cplx(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}

/* CPython's _Py_c_quot (Smith's method); *zero set when b is 0 */
static inline Cplx cplx_div(Cplx a, Cplx b, bool *zero) {
  double abr = fabs(b.re), abi = fabs(b.im);
  *zero = false;
  if (abr >= abi) {
    if (abr == 0.0) { *zero = true; return cplx(NAN, NAN); }
    double ratio = b.im / b.re, denom = b.re + b.im * ratio;
    return cplx((a.re + a.im * ratio) / denom, (a.im - a.re * ratio) / denom);
  }
  if (abi >= abr) {
    double ratio = b.re / b.im, denom = b.re * ratio + b.im;
    return cplx((a.re * ratio + a.im) / denom, (a.im * ratio - a.re) / denom);
  }
  return cplx(NAN, NAN);  /* a NaN in b */
}

/* CPython's c_powu: square and multiply */
static inline Cplx cplx_powu(Cplx x, long n) {
  Cplx r = cplx(1, 0), p = x;
  for (long mask = 1; mask > 0 && n >= mask; mask <<= 1) {
    if (n & mask) r = cplx_mul(r, p);
    p = cplx_mul(p, p);
  }
  return r;
}

/* CPython's complex_pow: integral exponents up to 100 by repeated
** multiplication, others through polar form. *zero set for 0 raised to a
** negative or complex power (CPython raises, Numba gives nan). */
static inline Cplx cplx_pow(Cplx a, Cplx b, bool *zero) {
  *zero = false;
  if (b.im == 0.0 && b.re == floor(b.re) && fabs(b.re) <= 100.0) {
    long n = (long)b.re;
    if (n >= 0) return cplx_powu(a, n);
    if (a.re == 0.0 && a.im == 0.0) { *zero = true; return cplx(NAN, NAN); }
    bool z;
    return cplx_div(cplx(1, 0), cplx_powu(a, -n), &z);
  }
  if (b.re == 0.0 && b.im == 0.0) return cplx(1, 0);
  if (a.re == 0.0 && a.im == 0.0) {
    if (b.im != 0.0 || b.re < 0.0) { *zero = true; return cplx(NAN, NAN); }
    return cplx(0, 0);
  }
  double vabs = hypot(a.re, a.im), len = pow(vabs, b.re);
  double at = atan2(a.im, a.re), phase = at * b.re;
  if (b.im != 0.0) {
    len /= exp(at * b.im);
    phase += b.im * log(vabs);
  }
  return cplx(len * cos(phase), len * sin(phase));
}

/* Python's repr of a float inside a complex: shortest round-trip digits,
** no ".0", exponent form outside [1e-4, 1e16) */
static inline void cplx_fmt_part(char *buf, size_t n, double x) {
  if (isnan(x)) { snprintf(buf, n, "nan"); return; }
  if (isinf(x)) { snprintf(buf, n, x < 0 ? "-inf" : "inf"); return; }
  char tmp[40];
  int p = 1;
  for (; p < 17; p++) {
    snprintf(tmp, sizeof tmp, "%.*e", p - 1, x);
    if (strtod(tmp, NULL) == x) break;
  }
  snprintf(tmp, sizeof tmp, "%.*e", p - 1, x);
  int e = atoi(strchr(tmp, 'e') + 1);
  if (x != 0 && (e < -4 || e >= 16)) snprintf(buf, n, "%s", tmp);
  else snprintf(buf, n, "%.*f", p - 1 - e > 0 ? p - 1 - e : 0, x);
}

/* Python's repr(complex): "(1+2j)", "2j", "(-0-1j)", "(nan+infj)" */
static inline void cplx_repr(char *buf, size_t n, Cplx c) {
  char re[40], im[40];
  cplx_fmt_part(im, sizeof im, c.im);
  if (c.re == 0 && !signbit(c.re)) {
    snprintf(buf, n, "%sj", im);
    return;
  }
  cplx_fmt_part(re, sizeof re, c.re);
  bool neg = im[0] == '-';
  snprintf(buf, n, "(%s%s%sj)", re, neg ? "" : "+", im);
}

#endif
