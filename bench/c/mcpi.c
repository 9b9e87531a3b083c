/*
** mcpi.c — a Monte-Carlo estimate of pi: n points (x, y) uniform in the
** unit square, 4 * (the share inside the unit circle). The generator is
** MT19937 with 53-bit doubles, as np.random draws them in Numba and lumba,
** one state per thread (seeded by thread number). The check is the estimate;
** the rows compare it loosely (each tool draws other numbers).
** usage: mcpi n
*/
#include <stdint.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "bench.h"

typedef struct Mt { uint32_t key[624]; int pos; } Mt;

static void mt_seed(Mt *s, uint32_t seed) {
  for (int i = 0; i < 624; i++) {
    s->key[i] = seed;
    seed = 1812433253U * (seed ^ (seed >> 30)) + (uint32_t)i + 1;
  }
  s->pos = 624;
}

static uint32_t mt_next(Mt *s) {
  if (s->pos == 624) {
    for (int i = 0; i < 624; i++) {
      uint32_t y = (s->key[i] & 0x80000000U) | (s->key[(i + 1) % 624] & 0x7fffffffU);
      s->key[i] = s->key[(i + 397) % 624] ^ (y >> 1) ^ (-(y & 1) & 0x9908b0dfU);
    }
    s->pos = 0;
  }
  uint32_t y = s->key[s->pos++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680U;
  y ^= (y << 15) & 0xefc60000U;
  return y ^ (y >> 18);
}

static double mt_double(Mt *s) {
  int32_t a = (int32_t)(mt_next(s) >> 5), b = (int32_t)(mt_next(s) >> 6);
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

static double mc_pi(int64_t n) {
  int64_t hits = 0;
#pragma omp parallel reduction(+ : hits)
  {
    Mt s;
    int t = 0;
#ifdef _OPENMP
    t = omp_get_thread_num();
#endif
    mt_seed(&s, 12345u + (uint32_t)t);
#pragma omp for schedule(static)
    for (int64_t i = 0; i < n; i++) {
      double x = mt_double(&s), y = mt_double(&s);
      if (x * x + y * y < 1.0) hits++;
    }
  }
  return 4.0 * (double)hits / (double)n;
}

static double (*volatile kernel)(int64_t) = mc_pi;

typedef struct Ctx { int64_t n; double result; } Ctx;

static void step(void *p) {
  Ctx *c = p;
  c->result = kernel(c->n);
}

int main(int argc, char **argv) {
  Ctx c;
  c.n = arg_int(argc, argv, 1);
  bench_run(step, &c);
  bench_check(c.result);
  return 0;
}
