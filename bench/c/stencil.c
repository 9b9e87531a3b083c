/*
** stencil.c — Jacobi sweeps of the 2-D 5-point stencil on an n x n float64
** grid with fixed boundary values: u0 is copied into both work arrays, then
** each pair of sweeps goes a -> b and b -> a (ping-pong), sweeps/2 pairs,
** the result ending in a. Every call starts again from u0. With -fopenmp the
** rows of each sweep are split over threads (prange over i).
** Inputs: u0 from the MINSTD stream of seed. The check value is
** sum(a[k] * (k % 97 + 1)) over the row-major index k, in index order.
** usage: stencil n sweeps seed
*/
#include "bench.h"

static void stencil(const double *restrict u0, double *restrict a, double *restrict b, int64_t n,
                    int64_t sweeps) {
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) {
      a[i * n + j] = u0[i * n + j];
      b[i * n + j] = u0[i * n + j];
    }
  for (int64_t s = 0; s < sweeps / 2; s++) {
#pragma omp parallel for schedule(static)
    for (int64_t i = 1; i < n - 1; i++)
      for (int64_t j = 1; j < n - 1; j++)
        b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] +
                               a[i * n + j + 1]);
#pragma omp parallel for schedule(static)
    for (int64_t i = 1; i < n - 1; i++)
      for (int64_t j = 1; j < n - 1; j++)
        a[i * n + j] = 0.25 * (b[(i - 1) * n + j] + b[(i + 1) * n + j] + b[i * n + j - 1] +
                               b[i * n + j + 1]);
  }
}

static void (*volatile kernel)(const double *, double *, double *, int64_t, int64_t) = stencil;

typedef struct Ctx { double *u0, *a, *b; int64_t n, sweeps; } Ctx;

static void step(void *p) {
  Ctx *c = p;
  kernel(c->u0, c->a, c->b, c->n, c->sweeps);
}

int main(int argc, char **argv) {
  Ctx c;
  c.n = arg_int(argc, argv, 1);
  c.sweeps = arg_int(argc, argv, 2);
  int64_t seed = arg_int(argc, argv, 3);
  size_t sz = sizeof(double) * (size_t)(c.n * c.n);
  c.u0 = xmalloc(sz);
  c.a = xmalloc(sz);
  c.b = xmalloc(sz);
  fill_uniform(c.u0, c.n * c.n, seed);
  bench_run(step, &c);
  double check = 0.0;
  for (int64_t k = 0; k < c.n * c.n; k++) check += c.a[k] * (double)(k % 97 + 1);
  bench_check(check);
  free(c.u0);
  free(c.a);
  free(c.b);
  return 0;
}
