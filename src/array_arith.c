/*
** array_arith.c — typed inner loops for the commonest elementwise
** operations (+ - * / on arrays of one dtype, or an array and a scalar
** already cast to it), which array_ufunc.c's general loop (every element
** read and written through a switch on its dtype) runs ~10x slower.
** Integers wrap as NumPy's (computed unsigned: no C overflow).
*/
#include <string.h>

#include "array_impl.h"

#define LOOP(name, T, U, expr)                                                         \
  static void name(char *const *p, const int64_t *st, int64_t n) {                     \
    const char *a = p[0], *b = p[1];                                                   \
    char *r = p[2];                                                                    \
    for (int64_t i = 0; i < n; i++, a += st[0], b += st[1], r += st[2]) {              \
      T x, y, z;                                                                       \
      memcpy(&x, a, sizeof x);                                                         \
      memcpy(&y, b, sizeof y);                                                         \
      z = expr;                                                                        \
      memcpy(r, &z, sizeof z);                                                         \
    }                                                                                  \
  }

#define FLOOPS(T, sfx)                 \
  LOOP(add_##sfx, T, T, x + y)         \
  LOOP(sub_##sfx, T, T, x - y)         \
  LOOP(mul_##sfx, T, T, x * y)         \
  LOOP(div_##sfx, T, T, x / y)
#define ILOOPS(T, U, sfx)                          \
  LOOP(add_##sfx, T, U, (T)((U)x + (U)y))          \
  LOOP(sub_##sfx, T, U, (T)((U)x - (U)y))          \
  LOOP(mul_##sfx, T, U, (T)((U)x * (U)y))

FLOOPS(double, f8)
FLOOPS(float, f4)
ILOOPS(int64_t, uint64_t, i8)
ILOOPS(int32_t, uint32_t, i4)
ILOOPS(uint64_t, uint64_t, u8)
ILOOPS(uint32_t, uint32_t, u4)

static const struct { DType dt; ArithLoop add, sub, mul, div; } loops[] = {
  {DT_FLOAT64, add_f8, sub_f8, mul_f8, div_f8},
  {DT_FLOAT32, add_f4, sub_f4, mul_f4, div_f4},
  {DT_INT64, add_i8, sub_i8, mul_i8, NULL},
  {DT_INT32, add_i4, sub_i4, mul_i4, NULL},
  {DT_UINT64, add_u8, sub_u8, mul_u8, NULL},
  {DT_UINT32, add_u4, sub_u4, mul_u4, NULL},
};

ArithLoop array_arith_loop(char op, DType dt) {
  for (size_t i = 0; i < lm_countof(loops); i++) {
    if (loops[i].dt != dt) continue;
    return op == '+' ? loops[i].add : op == '-' ? loops[i].sub : op == '*' ? loops[i].mul
         : op == '/' ? loops[i].div : NULL;
  }
  return NULL;
}
