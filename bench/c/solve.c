/*
** solve.c — a x = b for an n x n float64 matrix by LAPACK's dgesv, the
** LAPACK lumba opens (OpenBLAS's libopenblas.so.0, else liblapack.so.3,
** opened with dlopen as lumba does, so the build needs no -l flags): a
** copied into column order first (dgesv overwrites it, and np.linalg.solve
** copies too), b into x.
** Inputs: a from the MINSTD stream of seed with n added to its diagonal (well
** conditioned), b from seed + 1. The check value is sum(x[k] * (k % 97 + 1)).
** usage: solve n seed
*/
#include <dlfcn.h>

#include "bench.h"

typedef void (*Dgesv)(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv, double *b,
                      const int *ldb, int *info);

typedef struct Ctx { double *a, *b, *x, *f; int *ipiv; int64_t n; Dgesv gesv; } Ctx;

static void step(void *p) {
  Ctx *c = p;
  int64_t n = c->n;
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) c->f[i + j * n] = c->a[i * n + j];
  memcpy(c->x, c->b, sizeof(double) * (size_t)n);
  int nn = (int)n, one = 1, info = 0;
  c->gesv(&nn, &one, c->f, &nn, c->ipiv, c->x, &nn, &info);
  if (info != 0) {
    fprintf(stderr, "dgesv failed: info %d\n", info);
    exit(1);
  }
}

int main(int argc, char **argv) {
  Ctx c;
  c.n = arg_int(argc, argv, 1);
  int64_t seed = arg_int(argc, argv, 2);
  void *h = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) h = dlopen("liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
  *(void **)&c.gesv = h ? dlsym(h, "dgesv_") : NULL;
  if (c.gesv == NULL) {
    printf("SKIP LAPACK not found (libopenblas0 or liblapack3)\n");
    return 0;
  }
  size_t sz = sizeof(double) * (size_t)(c.n * c.n);
  c.a = xmalloc(sz);
  c.f = xmalloc(sz);
  c.b = xmalloc(sizeof(double) * (size_t)c.n);
  c.x = xmalloc(sizeof(double) * (size_t)c.n);
  c.ipiv = xmalloc(sizeof(int) * (size_t)c.n);
  fill_uniform(c.a, c.n * c.n, seed);
  for (int64_t i = 0; i < c.n; i++) c.a[i * c.n + i] += (double)c.n;
  fill_uniform(c.b, c.n, seed + 1);
  bench_run(step, &c);
  double check = 0.0;
  for (int64_t k = 0; k < c.n; k++) check += c.x[k] * (double)(k % 97 + 1);
  bench_check(check);
  free(c.a);
  free(c.f);
  free(c.b);
  free(c.x);
  free(c.ipiv);
  return 0;
}
