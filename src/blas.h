/*
** blas.h — the BLAS behind compiled code's matrix products, opened at the
** first product (dlopen, as cudadrv.c opens libcuda): lumba builds and runs
** without one, and loading OpenBLAS (which starts its thread pool when
** loaded) costs nothing to programs that never multiply matrices. The
** functions are CBLAS's (the C interface every Debian BLAS ships); sizes are
** CBLAS's int (LP64 builds).
*/
#ifndef blas_h
#define blas_h

/* CBLAS's enum values, so that no cblas.h is needed to build */
enum { BLAS_ROW_MAJOR = 101, BLAS_COL_MAJOR = 102 };
enum { BLAS_NO_TRANS = 111, BLAS_TRANS = 112, BLAS_CONJ_TRANS = 113 };

/* One entry per routine: float32, float64, complex64 (c), complex128 (z);
** the complex ones take alpha and beta by pointer and return dots through
** their last argument (cdotu: x . y, cdotc: conj(x) . y). */
#define BLAS_FUNCS(X) \
  X(void, sgemm, (int order, int ta, int tb, int m, int n, int k, float alpha, const float *a, int lda, \
                  const float *b, int ldb, float beta, float *c, int ldc)) \
  X(void, dgemm, (int order, int ta, int tb, int m, int n, int k, double alpha, const double *a, int lda, \
                  const double *b, int ldb, double beta, double *c, int ldc)) \
  X(void, sgemv, (int order, int ta, int m, int n, float alpha, const float *a, int lda, const float *x, int incx, \
                  float beta, float *y, int incy)) \
  X(void, dgemv, (int order, int ta, int m, int n, double alpha, const double *a, int lda, const double *x, \
                  int incx, double beta, double *y, int incy)) \
  X(float, sdot, (int n, const float *x, int incx, const float *y, int incy)) \
  X(double, ddot, (int n, const double *x, int incx, const double *y, int incy)) \
  X(void, cgemm, (int order, int ta, int tb, int m, int n, int k, const void *alpha, const void *a, int lda, \
                  const void *b, int ldb, const void *beta, void *c, int ldc)) \
  X(void, zgemm, (int order, int ta, int tb, int m, int n, int k, const void *alpha, const void *a, int lda, \
                  const void *b, int ldb, const void *beta, void *c, int ldc)) \
  X(void, cgemv, (int order, int ta, int m, int n, const void *alpha, const void *a, int lda, const void *x, \
                  int incx, const void *beta, void *y, int incy)) \
  X(void, zgemv, (int order, int ta, int m, int n, const void *alpha, const void *a, int lda, const void *x, \
                  int incx, const void *beta, void *y, int incy)) \
  X(void, cdotu_sub, (int n, const void *x, int incx, const void *y, int incy, void *r)) \
  X(void, zdotu_sub, (int n, const void *x, int incx, const void *y, int incy, void *r)) \
  X(void, cdotc_sub, (int n, const void *x, int incx, const void *y, int incy, void *r)) \
  X(void, zdotc_sub, (int n, const void *x, int incx, const void *y, int incy, void *r))

typedef struct Blas {
#define BLAS_FIELD(ret, name, params) ret(*name) params;
  BLAS_FUNCS(BLAS_FIELD)
#undef BLAS_FIELD
  const char *lib;  /* the file opened */
} Blas;

/* The BLAS, opened once per process (thread-safe); NULL when none could be
** opened: LUMBA_BLAS (a file name or path), else libopenblas.so.0, else
** libblas.so.3 and libcblas.so.3 (Debian's alternatives: OpenBLAS, BLIS,
** the reference BLAS). */
const Blas *blas_get(void);

#endif
