/*
** lj.c — the Lennard-Jones energy of n points (n x 3, row-major), sum over
** pairs i < j of 4 (r^-12 - r^-6), written as the Numba program is (a
** distance and a pair potential per pair); with -fopenmp the loop over i is
** split over threads (prange over i, a + reduction).
** Inputs: the points from the MINSTD stream of seed, in (0, 1).
** usage: lj n seed
*/
#include <math.h>

#include "bench.h"

static double distance(const double *a, const double *b) {
  double s = 0.0;
  for (int k = 0; k < 3; k++) {
    double d = a[k] - b[k];
    s += d * d;
  }
  return sqrt(s);
}

static double pair_potential(double r) {
  double x = 1.0 / r, x2 = x * x, s6 = x2 * (x2 * x2);
  return 4.0 * (s6 * s6 - s6);
}

static double lj(const double *c, int64_t n) {
  double e = 0.0;
#pragma omp parallel for reduction(+ : e) schedule(static)
  for (int64_t i = 0; i < n - 1; i++)
    for (int64_t j = i + 1; j < n; j++) e += pair_potential(distance(c + 3 * i, c + 3 * j));
  return e;
}

static double (*volatile kernel)(const double *, int64_t) = lj;

typedef struct Ctx { double *c; int64_t n; double result; } Ctx;

static void step(void *p) {
  Ctx *c = p;
  c->result = kernel(c->c, c->n);
}

int main(int argc, char **argv) {
  Ctx c;
  c.n = arg_int(argc, argv, 1);
  int64_t seed = arg_int(argc, argv, 2);
  c.c = xmalloc(sizeof(double) * (size_t)(3 * c.n));
  fill_uniform(c.c, 3 * c.n, seed);
  bench_run(step, &c);
  bench_check(c.result);
  free(c.c);
  return 0;
}
