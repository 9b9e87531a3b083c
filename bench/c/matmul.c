/*
** matmul.c — naive matrix product c = a b of n x n float64 matrices, the
** triple loop in i-k-j order (the inner loop runs along rows of b and c),
** c zeroed first. With -fopenmp the rows of c are split over threads
** (prange over i).
** Inputs: a from the MINSTD stream of seed, b from seed + 1. The check value
** is sum(c[k] * (k % 97 + 1)) over the row-major index k, in index order.
** usage: matmul n seed
*/
#include "bench.h"

static void matmul(const double *restrict a, const double *restrict b, double *restrict c, int64_t n) {
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; i++) {
    for (int64_t j = 0; j < n; j++) c[i * n + j] = 0.0;
    for (int64_t k = 0; k < n; k++) {
      double aik = a[i * n + k];
      for (int64_t j = 0; j < n; j++) c[i * n + j] += aik * b[k * n + j];
    }
  }
}

static void (*volatile kernel)(const double *, const double *, double *, int64_t) = matmul;

typedef struct Ctx { double *a, *b, *c; int64_t n; } Ctx;

static void step(void *p) {
  Ctx *c = p;
  kernel(c->a, c->b, c->c, c->n);
}

int main(int argc, char **argv) {
  Ctx c;
  c.n = arg_int(argc, argv, 1);
  int64_t seed = arg_int(argc, argv, 2);
  size_t sz = sizeof(double) * (size_t)(c.n * c.n);
  c.a = xmalloc(sz);
  c.b = xmalloc(sz);
  c.c = xmalloc(sz);
  fill_uniform(c.a, c.n * c.n, seed);
  fill_uniform(c.b, c.n * c.n, seed + 1);
  bench_run(step, &c);
  double check = 0.0;
  for (int64_t k = 0; k < c.n * c.n; k++) check += c.c[k] * (double)(k % 97 + 1);
  bench_check(check);
  free(c.a);
  free(c.b);
  free(c.c);
  return 0;
}
