/*
** clip.c — out = min(max(x, lo), hi) over n float64, a new result array per
** call (np.minimum(np.maximum(x, lo), hi) in the array version).
** Inputs: x from the MINSTD stream of seed. The check value is
** sum(out[k] * (k % 97 + 1)) in index order.
** usage: clip n seed lo hi
*/
#include "bench.h"

static double *clip(const double *x, int64_t n, double lo, double hi) {
  double *out = xmalloc(sizeof(double) * (size_t)n);
  for (int64_t i = 0; i < n; i++) {
    double v = x[i] > lo ? x[i] : lo;
    out[i] = v < hi ? v : hi;
  }
  return out;
}

static double *(*volatile kernel)(const double *, int64_t, double, double) = clip;

typedef struct Ctx { double *x, *out, lo, hi; int64_t n; } Ctx;

static void step(void *p) {
  Ctx *c = p;
  free(c->out);
  c->out = kernel(c->x, c->n, c->lo, c->hi);
}

int main(int argc, char **argv) {
  Ctx c = {0};
  c.n = arg_int(argc, argv, 1);
  int64_t seed = arg_int(argc, argv, 2);
  c.lo = arg_num(argc, argv, 3);
  c.hi = arg_num(argc, argv, 4);
  c.x = xmalloc(sizeof(double) * (size_t)c.n);
  fill_uniform(c.x, c.n, seed);
  bench_run(step, &c);
  double check = 0.0;
  for (int64_t k = 0; k < c.n; k++) check += c.out[k] * (double)(k % 97 + 1);
  bench_check(check);
  free(c.x);
  free(c.out);
  return 0;
}
