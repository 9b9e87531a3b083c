/*
** histogram.c — counts of n int64 values in nbins bins, bin = x % nbins
** (the values are non-negative), the bins zeroed first.
** Inputs: x[k] = s_{k+1}, the MINSTD stream of seed itself. The check value
** is sum(bins[k] * (k + 1)).
** usage: histogram n seed nbins
*/
#include "bench.h"

static void histogram(const int64_t *restrict x, int64_t n, int64_t *restrict bins, int64_t nbins) {
  for (int64_t k = 0; k < nbins; k++) bins[k] = 0;
  for (int64_t i = 0; i < n; i++) bins[x[i] % nbins] += 1;
}

static void (*volatile kernel)(const int64_t *, int64_t, int64_t *, int64_t) = histogram;

typedef struct Ctx { int64_t *x, *bins, n, nbins; } Ctx;

static void step(void *p) {
  Ctx *c = p;
  kernel(c->x, c->n, c->bins, c->nbins);
}

int main(int argc, char **argv) {
  Ctx c;
  c.n = arg_int(argc, argv, 1);
  int64_t seed = arg_int(argc, argv, 2);
  c.nbins = arg_int(argc, argv, 3);
  c.x = xmalloc(sizeof(int64_t) * (size_t)c.n);
  c.bins = xmalloc(sizeof(int64_t) * (size_t)c.nbins);
  int64_t s = seed;
  for (int64_t k = 0; k < c.n; k++) {
    s = minstd_next(s);
    c.x[k] = s;
  }
  bench_run(step, &c);
  int64_t check = 0;
  for (int64_t k = 0; k < c.nbins; k++) check += c.bins[k] * (k + 1);
  bench_check((double)check);
  free(c.x);
  free(c.bins);
  return 0;
}
