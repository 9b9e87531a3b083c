/*
** jcenergy.c — the energy of n springs, 0.5 k x^2 + 0.5 v^2 summed in index
** order over two float64 arrays (the @jitclass row: lumba and Numba call a
** jitclass method per element in the loop, kernels/jcenergy.py).
** usage: jcenergy n seed k
*/
#include "bench.h"

typedef struct Ctx { double *x, *v, k; int64_t n; double result; } Ctx;

static double energy(const double *x, const double *v, double k, int64_t n) {
  double e = 0.0;
  for (int64_t i = 0; i < n; i++) e += 0.5 * k * x[i] * x[i] + 0.5 * v[i] * v[i];
  return e;
}

static double (*volatile kernel)(const double *, const double *, double, int64_t) = energy;

static void step(void *p) {
  Ctx *c = p;
  c->result = kernel(c->x, c->v, c->k, c->n);
}

int main(int argc, char **argv) {
  Ctx c;
  c.n = arg_int(argc, argv, 1);
  int64_t seed = arg_int(argc, argv, 2);
  c.k = (double)arg_int(argc, argv, 3) / 4.0;
  c.x = xmalloc(sizeof(double) * (size_t)c.n);
  c.v = xmalloc(sizeof(double) * (size_t)c.n);
  fill_uniform(c.x, c.n, seed);
  fill_uniform(c.v, c.n, seed + 1);
  bench_run(step, &c);
  bench_check(c.result);
  free(c.x);
  free(c.v);
  return 0;
}
