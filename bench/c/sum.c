/*
** sum.c — sum of a float64 array, seed 3 (sum_array) in C; with -fopenmp
** it is seed 4 (parallel_sum, a reduction over prange).
** usage: sum n seed
*/
#include "bench.h"

static double sum_array(const double *arr, int64_t n) {
  double total = 0.0;
#pragma omp parallel for reduction(+ : total) schedule(static)
  for (int64_t i = 0; i < n; i++) total += arr[i];
  return total;
}

static double (*volatile kernel)(const double *, int64_t) = sum_array;

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
