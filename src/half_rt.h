/*
** half_rt.h — IEEE binary16 (float16) conversions, bit-exact with NumPy's
** npy_half: round to nearest even straight from double (no double rounding
** through float), inf and NaN kept, subnormals and signed zeros kept.
** The host arrays store float16 as its 16 bits; compiled CPU code (the JIT,
** the simulator) calls the helpers below under libgcc's names, which
** LLVM's code generator emits for half conversions.
*/
#ifndef half_rt_h
#define half_rt_h

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline double lm_h2d(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double v;
  if (e == 0) v = ldexp((double)m, -24);
  else if (e == 31) v = m ? NAN : INFINITY;
  else v = ldexp((double)(1024 + m), e - 25);
  return (h & 0x8000) ? -v : v;
}

static inline uint16_t lm_d2h(double d) {
  uint16_t sign = signbit(d) ? 0x8000 : 0;
  double a = fabs(d);
  if (isnan(d)) return sign | 0x7e00;
  if (a >= 65520.0) return sign | 0x7c00;  /* 65520 ties to 65536: overflow */
  if (a < 0x1p-14) return sign | (uint16_t)rint(ldexp(a, 24));  /* subnormal (1024 is the least normal) */
  int ex;
  frexp(a, &ex);  /* a in [2^(ex-1), 2^ex) */
  int E = ex - 1;
  double r = rint(ldexp(a, 10 - E));  /* [1024, 2048] */
  if (r == 2048.0) { E++; r = 1024.0; }
  return sign | (uint16_t)(((E + 15) << 10) | ((int)r - 1024));
}

/* libgcc/compiler-rt's half helpers, for compiled code: each library that
** resolves compiled code's symbols has its own copy (as libgcc.h's) */
static inline float lm_gnu_h2f_ieee(uint16_t h) { return (float)lm_h2d(h); }
static inline uint16_t lm_gnu_f2h_ieee(float f) { return lm_d2h((double)f); }
static inline uint16_t lm_truncdfhf2(double d) { return lm_d2h(d); }
#define LM_HALF_SYMS                                                                  \
  {"__gnu_h2f_ieee", (void *)lm_gnu_h2f_ieee}, {"__extendhfsf2", (void *)lm_gnu_h2f_ieee}, \
  {"__gnu_f2h_ieee", (void *)lm_gnu_f2h_ieee}, {"__truncsfhf2", (void *)lm_gnu_f2h_ieee}, \
  {"__truncdfhf2", (void *)lm_truncdfhf2}

#endif
