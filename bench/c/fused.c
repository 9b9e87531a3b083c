/*
** fused.c — out = a * b + c * d - e over n float64, a new result array per
** call (as the array expression returns one in NumPy, Numba and lumba).
** Inputs: a..e from the MINSTD streams of seed, seed+1, ... seed+4. The
** check value is sum(out[k] * (k % 97 + 1)) in index order.
** usage: fused n seed
*/
#include "bench.h"

static double *fused(const double *a, const double *b, const double *c, const double *d, const double *e,
                     int64_t n) {
  double *out = xmalloc(sizeof(double) * (size_t)n);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; i++) out[i] = a[i] * b[i] + c[i] * d[i] - e[i];
  return out;
}

static double *(*volatile kernel)(const double *, const double *, const double *, const double *,
                                  const double *, int64_t) = fused;

typedef struct Ctx { double *in[5], *out; int64_t n; } Ctx;

static void step(void *p) {
  Ctx *c = p;
  free(c->out);
  c->out = kernel(c->in[0], c->in[1], c->in[2], c->in[3], c->in[4], c->n);
}

int main(int argc, char **argv) {
  Ctx c = {0};
  c.n = arg_int(argc, argv, 1);
  int64_t seed = arg_int(argc, argv, 2);
  for (int k = 0; k < 5; k++) {
    c.in[k] = xmalloc(sizeof(double) * (size_t)c.n);
    fill_uniform(c.in[k], c.n, seed + k);
  }
  bench_run(step, &c);
  double check = 0.0;
  for (int64_t k = 0; k < c.n; k++) check += c.out[k] * (double)(k % 97 + 1);
  bench_check(check);
  for (int k = 0; k < 5; k++) free(c.in[k]);
  free(c.out);
  return 0;
}
