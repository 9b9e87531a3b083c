/*
** pow6.c — sum of (1 / (x[i] + 0.5))^6 over a float64 array, the power
** written as multiplications (r^2 * r^4, the order square-and-multiply
** takes, so every tool's sum agrees bit for bit).
** usage: pow6 n seed
*/
#include "bench.h"

static double pow6_sum(const double *x, int64_t n) {
  double s = 0.0;
  for (int64_t i = 0; i < n; i++) {
    double r = 1.0 / (x[i] + 0.5);
    double r2 = r * r;
    s += r2 * (r2 * r2);
  }
  return s;
}

static double (*volatile kernel)(const double *, int64_t) = pow6_sum;

typedef struct Ctx { double *x; int64_t n; double result; } Ctx;

static void step(void *p) {
  Ctx *c = p;
  c->result = kernel(c->x, c->n);
}

int main(int argc, char **argv) {
  Ctx c;
  c.n = arg_int(argc, argv, 1);
  int64_t seed = arg_int(argc, argv, 2);
  c.x = xmalloc(sizeof(double) * (size_t)c.n);
  fill_uniform(c.x, c.n, seed);
  bench_run(step, &c);
  bench_check(c.result);
  free(c.x);
  return 0;
}
