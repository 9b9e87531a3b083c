/*
** vadd.c — out[i] = a[i] + b[i] over float32 arrays (seed 5's add_kernel as
** a CPU loop). a comes from the MINSTD stream of seed_a, b from seed_b, each
** value rounded to float32. The check value is the sum of out, as float64,
** in index order.
** usage: vadd n seed_a seed_b
*/
#include "bench.h"

static void vadd(const float *restrict a, const float *restrict b, float *restrict out, int64_t n) {
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; i++) out[i] = a[i] + b[i];
}

static void (*volatile kernel)(const float *, const float *, float *, int64_t) = vadd;

typedef struct Ctx { float *a, *b, *out; int64_t n; } Ctx;

static void step(void *p) {
  Ctx *c = p;
  kernel(c->a, c->b, c->out, c->n);
}

/* x[k] = (float)(s_{k+1} / (2^31 - 1)) */
static void fill_uniform_f32(float *x, int64_t n, int64_t seed) {
  int64_t s = seed;
  for (int64_t k = 0; k < n; k++) {
    s = minstd_next(s);
    x[k] = (float)((double)s / 2147483647.0);
  }
}

int main(int argc, char **argv) {
  Ctx c;
  c.n = arg_int(argc, argv, 1);
  int64_t seed_a = arg_int(argc, argv, 2), seed_b = arg_int(argc, argv, 3);
  c.a = xmalloc(sizeof(float) * (size_t)c.n);
  c.b = xmalloc(sizeof(float) * (size_t)c.n);
  c.out = xmalloc(sizeof(float) * (size_t)c.n);
  fill_uniform_f32(c.a, c.n, seed_a);
  fill_uniform_f32(c.b, c.n, seed_b);
  bench_run(step, &c);
  double check = 0.0;
  for (int64_t i = 0; i < c.n; i++) check += (double)c.out[i];
  bench_check(check);
  free(c.a);
  free(c.b);
  free(c.out);
  return 0;
}
