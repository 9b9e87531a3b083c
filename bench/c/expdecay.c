/*
** expdecay.c — out[i] = exp(-x[i] / tau), seed 2's kernel body as a CPU loop.
** The check value is the sum of out in index order.
** usage: expdecay n seed tau
*/
#include <math.h>

#include "bench.h"

static void exp_decay(const double *restrict x, double *restrict out, int64_t n,
                      double tau) {
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; i++) out[i] = exp(-x[i] / tau);
}

static void (*volatile kernel)(const double *, double *, int64_t, double) = exp_decay;

typedef struct Ctx { double *x, *out; int64_t n; double tau; } Ctx;

static void step(void *p) {
  Ctx *c = p;
  kernel(c->x, c->out, c->n, c->tau);
}

int main(int argc, char **argv) {
  Ctx c;
  c.n = arg_int(argc, argv, 1);
  int64_t seed = arg_int(argc, argv, 2);
  c.tau = arg_num(argc, argv, 3);
  c.x = xmalloc(sizeof(double) * (size_t)c.n);
  c.out = xmalloc(sizeof(double) * (size_t)c.n);
  fill_uniform(c.x, c.n, seed);
  bench_run(step, &c);
  double check = 0.0;
  for (int64_t i = 0; i < c.n; i++) check += c.out[i];
  bench_check(check);
  free(c.x);
  free(c.out);
  return 0;
}
