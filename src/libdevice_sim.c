/*
** libdevice_sim.c — the simulator's cuda.libdevice: every function of
** libdevice.def computed on the host, by the C expression of its row
** (libm where libm has the function; the rounding-mode variants under
** fesetround, so this file is built with -frounding-math; the rest by
** hand below). Kernels compiled for the simulator call lm_rt_libdevice.
*/
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "libdevice.h"

/* ---- what libm lacks ---- */

static uint64_t ld_bits(double x) { uint64_t u; memcpy(&u, &x, 8); return u; }
static double ld_double(uint64_t u) { double x; memcpy(&x, &u, 8); return x; }
static uint32_t ld_fbits(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
static float ld_float(uint32_t u) { float x; memcpy(&x, &u, 4); return x; }

static uint32_t ld_brev32(uint32_t x) {
  uint32_t r = 0;
  for (int i = 0; i < 32; i++, x >>= 1) r = r << 1 | (x & 1);
  return r;
}
static uint64_t ld_brev64(uint64_t x) { return (uint64_t)ld_brev32((uint32_t)x) << 32 | ld_brev32((uint32_t)(x >> 32)); }

/* byte i of the result is byte (s >> 4i) & 7 of the eight bytes y:x (PTX prmt, default mode) */
static uint32_t ld_byte_perm(uint32_t x, uint32_t y, uint32_t s) {
  uint64_t v = (uint64_t)y << 32 | x;
  uint32_t r = 0;
  for (int i = 0; i < 4; i++) r |= (uint32_t)(v >> (8 * ((s >> (4 * i)) & 7)) & 0xff) << (8 * i);
  return r;
}

static int64_t ld_s24(int32_t x) { return (int64_t)((int32_t)((uint32_t)x << 8) >> 8); }

/* sin(pi x), cos(pi x) exact at integers and halves, as libdevice */
static double ld_sinpi(double x) {
  if (!isfinite(x)) return NAN;
  double r = remainder(x, 2.0);  /* [-1, 1] */
  if (r == 0 || fabs(r) == 1) return copysign(0.0, x);
  return sin(M_PI * r);
}
static double ld_cospi(double x) {
  if (!isfinite(x)) return NAN;
  double r = fabs(remainder(x, 2.0));
  if (r == 0.5) return 0.0;
  return cos(M_PI * r);
}

/* the inverse error functions, by Newton's method from a close start */
static double ld_erfinv(double y) {
  if (isnan(y) || y < -1 || y > 1) return NAN;
  if (y == 1 || y == -1) return copysign(INFINITY, y);
  double l = log((1 - y) * (1 + y)), t = 2 / (M_PI * 0.147) + l / 2;  /* Winitzki's start, within 2e-3 */
  double x = copysign(sqrt(sqrt(t * t - l / 0.147) - t), y);
  for (int i = 0; i < 60; i++) {
    double dx = (erf(x) - y) / (2 / sqrt(M_PI) * exp(-x * x));
    x -= dx;
    if (fabs(dx) <= 1e-17 * fabs(x)) break;
  }
  return x;
}
static double ld_erfcinv(double y) {
  if (isnan(y) || y < 0 || y > 2) return NAN;
  if (y == 0) return INFINITY;
  if (y == 2) return -INFINITY;
  if (y > 1e-3 && y < 2 - 1e-3) return ld_erfinv(1 - y);
  double s = y < 1 ? 1 : -1, t = y < 1 ? y : 2 - y, x = sqrt(-log(t));  /* erfc(x) = t, x large */
  for (int i = 0; i < 100; i++) {
    double dx = (erfc(x) - t) / (-2 / sqrt(M_PI) * exp(-x * x));
    x -= dx;
    if (fabs(dx) <= 1e-17 * fabs(x)) break;
  }
  return s * x;
}
/* exp(x^2) erfc(x), by its continued fraction where exp(x^2) overflows */
static double ld_erfcx(double x) {
  if (x < 25) return exp(x * x) * erfc(x);
  double f = 0;
  for (int k = 60; k >= 1; k--) f = (k / 2.0) / (x + f);
  return 1 / (sqrt(M_PI) * (x + f));
}

/* IEEE half <-> float, rounding to nearest even */
static uint16_t ld_float_to_half(float f) {
  uint32_t x = ld_fbits(f), sign = (x >> 16) & 0x8000, e = (x >> 23) & 0xff, m = x & 0x7fffff;
  if (e == 0xff) return (uint16_t)(sign | 0x7c00 | (m ? 0x200 : 0));
  int ex = (int)e - 127 + 15;
  if (ex >= 31) return (uint16_t)(sign | 0x7c00);
  if (ex <= 0) {  /* a subnormal half, or zero */
    if (ex < -10) return (uint16_t)sign;
    m |= 0x800000;
    int shift = 14 - ex;
    uint32_t h = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) h++;
    return (uint16_t)(sign | h);
  }
  uint32_t h = (uint32_t)ex << 10 | m >> 13, rem = m & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) h++;  /* may carry into the exponent: still right */
  return (uint16_t)(sign | h);
}
static float ld_half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0x1f) return ld_float(sign | 0x7f800000 | m << 13);
  if (e == 0) return (sign ? -1.0f : 1.0f) * ldexpf((float)m, -24);
  return ld_float(sign | (e + 112) << 23 | m << 13);
}

/* float → integer as PTX cvt: NaN gives 0, out of range the nearest limit */
static int32_t ld_sat_i32(double x) { return isnan(x) ? 0 : x <= INT32_MIN ? INT32_MIN : x >= INT32_MAX ? INT32_MAX : (int32_t)x; }
static int32_t ld_sat_u32(double x) { return isnan(x) || x <= 0 ? 0 : x >= UINT32_MAX ? (int32_t)UINT32_MAX : (int32_t)(uint32_t)x; }
static int64_t ld_sat_i64(double x) {
  return isnan(x) ? 0 : x <= -0x1p63 ? INT64_MIN : x >= 0x1p63 ? INT64_MAX : (int64_t)x;
}
static int64_t ld_sat_u64(double x) { return isnan(x) || x <= 0 ? 0 : x >= 0x1p64 ? -1 : (int64_t)(uint64_t)x; }
#define ld_to_n nearbyint
#define ld_to_z trunc
#define ld_to_d floor
#define ld_to_u ceil

/* e computed in the rounding mode m (n, z, d, u) */
#define LD_MODE_n FE_TONEAREST
#define LD_MODE_z FE_TOWARDZERO
#define LD_MODE_d FE_DOWNWARD
#define LD_MODE_u FE_UPWARD
#define LD_ROUNDED(m, e) __extension__({ \
  int old_ = fegetround(); \
  fesetround(LD_MODE_##m); \
  volatile __typeof__(e) r_ = (e); \
  fesetround(old_); \
  r_; })

/* ---- the table's functions ---- */

/* arguments read through a volatile pointer: never computed before a fesetround */
#define ARG(k) (((const volatile LdVal *)in)[k])
#define D0 ARG(0).d
#define D1 ARG(1).d
#define D2 ARG(2).d
#define D3 ARG(3).d
#define F0 ARG(0).f
#define F1 ARG(1).f
#define F2 ARG(2).f
#define F3 ARG(3).f
#define I0 ARG(0).i
#define I1 ARG(1).i
#define I2 ARG(2).i
#define L0 ARG(0).l
#define L1 ARG(1).l
#define H0 ARG(0).h
#define OD1 out[1].d
#define OD2 out[2].d
#define OF1 out[1].f
#define OF2 out[2].f
#define OI1 out[1].i
#define OI2 out[2].i
#define STORE_d(e) out[0].d = (e)
#define STORE_f(e) out[0].f = (e)
#define STORE_i(e) out[0].i = (e)
#define STORE_l(e) out[0].l = (e)
#define STORE_h(e) out[0].h = (e)
#define STORE_v(e) (void)(e)

void lm_rt_libdevice(int32_t id, const LdVal *in, LdVal *out) {
  switch ((LdId)id) {
#define LIBDEVICE(nm, r, sig, nin, sim) \
  case LD_##nm: STORE_##r(sim); break;
#include "libdevice.def"
#undef LIBDEVICE
    case LD__COUNT: break;
  }
}
