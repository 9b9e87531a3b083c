/*
** softmax.c — the softmax of each row of an n x m float64 matrix: exp(x -
** the row's max), divided by the row's sum of those, into a new n x m array
** per call. Inputs: x from the MINSTD stream of seed, row-major. The check
** value is sum(out[k] * (k % 97 + 1)) over the row-major index k.
** usage: softmax n m seed
*/
#include <math.h>

#include "bench.h"

static double *softmax(const double *x, int64_t n, int64_t m) {
  double *out = xmalloc(sizeof(double) * (size_t)(n * m));
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; i++) {
    const double *r = x + i * m;
    double *o = out + i * m;
    double mx = r[0];
    for (int64_t j = 1; j < m; j++) mx = r[j] > mx ? r[j] : mx;
    double s = 0.0;
    for (int64_t j = 0; j < m; j++) {
      o[j] = exp(r[j] - mx);
      s += o[j];
    }
    for (int64_t j = 0; j < m; j++) o[j] = o[j] / s;
  }
  return out;
}

static double *(*volatile kernel)(const double *, int64_t, int64_t) = softmax;

typedef struct Ctx { double *x, *out; int64_t n, m; } Ctx;

static void step(void *p) {
  Ctx *c = p;
  free(c->out);
  c->out = kernel(c->x, c->n, c->m);
}

int main(int argc, char **argv) {
  Ctx c = {0};
  c.n = arg_int(argc, argv, 1);
  c.m = arg_int(argc, argv, 2);
  int64_t seed = arg_int(argc, argv, 3);
  c.x = xmalloc(sizeof(double) * (size_t)(c.n * c.m));
  fill_uniform(c.x, c.n * c.m, seed);
  bench_run(step, &c);
  double check = 0.0;
  for (int64_t k = 0; k < c.n * c.m; k++) check += c.out[k] * (double)(k % 97 + 1);
  bench_check(check);
  free(c.x);
  free(c.out);
  return 0;
}
