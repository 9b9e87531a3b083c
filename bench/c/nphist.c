/*
** nphist.c — np.histogram(x, nbins)[0] over n float64: nbins equal bins
** from the data's min to its max, each [e[k], e[k+1]) and the last closed;
** the bin from the scaled value, moved by one where rounding put it past an
** edge (NumPy's rule), edges e[k] = lo + k * (hi - lo) / nbins, e[nbins] = hi.
** Inputs: x from the MINSTD stream of seed. The check value is
** sum(counts[k] * (k + 1)).
** usage: nphist n seed nbins
*/
#include "bench.h"

static void nphist(const double *restrict x, int64_t n, int64_t *restrict counts, double *restrict e, int64_t nbins) {
  double lo = x[0], hi = x[0];
  for (int64_t i = 0; i < n; i++) {
    if (x[i] < lo) lo = x[i];
    if (x[i] > hi) hi = x[i];
  }
  double step = (hi - lo) / (double)nbins, norm = (double)nbins / (hi - lo);
  for (int64_t k = 0; k < nbins; k++) e[k] = (double)k * step + lo;
  e[nbins] = hi;
  for (int64_t k = 0; k < nbins; k++) counts[k] = 0;
  for (int64_t i = 0; i < n; i++) {
    double v = x[i];
    if (!(v >= lo && v <= hi)) continue;
    int64_t k = (int64_t)((v - lo) * norm);
    if (k > nbins - 1) k = nbins - 1;
    if (v < e[k]) k--;
    else if (k < nbins - 1 && v >= e[k + 1]) k++;
    counts[k]++;
  }
}

static void (*volatile kernel)(const double *, int64_t, int64_t *, double *, int64_t) = nphist;

typedef struct Ctx { double *x, *e; int64_t *counts, n, nbins; } Ctx;

static void step(void *p) {
  Ctx *c = p;
  kernel(c->x, c->n, c->counts, c->e, c->nbins);
}

int main(int argc, char **argv) {
  Ctx c;
  c.n = arg_int(argc, argv, 1);
  int64_t seed = arg_int(argc, argv, 2);
  c.nbins = arg_int(argc, argv, 3);
  c.x = xmalloc(sizeof(double) * (size_t)c.n);
  c.e = xmalloc(sizeof(double) * (size_t)(c.nbins + 1));
  c.counts = xmalloc(sizeof(int64_t) * (size_t)c.nbins);
  fill_uniform(c.x, c.n, seed);
  bench_run(step, &c);
  int64_t check = 0;
  for (int64_t k = 0; k < c.nbins; k++) check += c.counts[k] * (k + 1);
  bench_check((double)check);
  free(c.x);
  free(c.e);
  free(c.counts);
  return 0;
}
