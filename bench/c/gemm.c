/*
** gemm.c — the matrix product c = a b of n x n float64 matrices by OpenBLAS's
** cblas_dgemm, the BLAS lumba's `a @ b` calls (libopenblas.so.0, else
** libblas.so.3 / libcblas.so.3, opened with dlopen as lumba opens it, so the
** build needs no -l flags), writing c directly: the floor lumba's and Numba's
** `c[:, :] = a @ b` are compared with.
** Inputs: a from the MINSTD stream of seed, b from seed + 1 (as matmul.c).
** The check value is sum(c[k] * (k % 97 + 1)) over the row-major index k.
** usage: gemm n seed
*/
#include <dlfcn.h>

#include "bench.h"

enum { ROW_MAJOR = 101, NO_TRANS = 111 };
typedef void (*Dgemm)(int order, int ta, int tb, int m, int n, int k, double alpha, const double *a, int lda,
                      const double *b, int ldb, double beta, double *c, int ldc);

typedef struct Ctx { double *a, *b, *c; int64_t n; Dgemm gemm; } Ctx;

static void step(void *p) {
  Ctx *c = p;
  int n = (int)c->n;
  c->gemm(ROW_MAJOR, NO_TRANS, NO_TRANS, n, n, n, 1.0, c->a, n, c->b, n, 0.0, c->c, n);
}

int main(int argc, char **argv) {
  Ctx c;
  c.n = arg_int(argc, argv, 1);
  int64_t seed = arg_int(argc, argv, 2);
  const char *libs[] = {"libopenblas.so.0", "libcblas.so.3", "libblas.so.3"};
  c.gemm = NULL;
  for (int i = 0; i < 3 && c.gemm == NULL; i++) {
    void *h = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
    if (h) *(void **)&c.gemm = dlsym(h, "cblas_dgemm");
  }
  if (c.gemm == NULL) {
    printf("SKIP a CBLAS not found (libopenblas0)\n");
    return 0;
  }
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
