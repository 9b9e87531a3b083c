/*
** lapack.h — the LAPACK behind np.linalg in compiled code (lapack_rt.h),
** opened at the first call (dlopen, as blas.h opens the BLAS): Debian's
** OpenBLAS ships LAPACK's Fortran symbols (dgesv_, dgetrf_, ...) in the
** library blas.c opens, so that one is tried first; else Debian's
** liblapack.so.3 alternative (the reference LAPACK, or OpenBLAS's), or
** LUMBA_LAPACK. Fortran calling convention: every argument by pointer,
** int is LAPACK's 32-bit integer (LP64 builds), and each character argument
** has a hidden length (size_t) after the others, as gfortran passes it.
*/
#ifndef lapack_h
#define lapack_h

#include <stddef.h>

/* One row per routine, its element type T written as void so that one
** table serves each real dtype: Kit 's' (float) and 'd' (double) bind
** sgesv_/dgesv_ ... The complex types (prefixes 'c', 'z') take a table of
** their own beside it: geev, syevd (heevd), gesdd and gelsd add rwork there
** and orgqr is ungqr. */
#define LAPACK_REAL(X) \
  X(getrf, (const int *m, const int *n, void *a, const int *lda, int *ipiv, int *info)) \
  X(getri, (const int *n, void *a, const int *lda, const int *ipiv, void *work, const int *lwork, int *info)) \
  X(gesv, (const int *n, const int *nrhs, void *a, const int *lda, int *ipiv, void *b, const int *ldb, int *info)) \
  X(potrf, (const char *uplo, const int *n, void *a, const int *lda, int *info, size_t l_uplo)) \
  X(geev, (const char *jobvl, const char *jobvr, const int *n, void *a, const int *lda, void *wr, void *wi, \
           void *vl, const int *ldvl, void *vr, const int *ldvr, void *work, const int *lwork, int *info, size_t l1, \
           size_t l2)) \
  X(syevd, (const char *jobz, const char *uplo, const int *n, void *a, const int *lda, void *w, void *work, \
            const int *lwork, int *iwork, const int *liwork, int *info, size_t l1, size_t l2)) \
  X(gesdd, (const char *jobz, const int *m, const int *n, void *a, const int *lda, void *s, void *u, \
            const int *ldu, void *vt, const int *ldvt, void *work, const int *lwork, int *iwork, int *info, size_t l1)) \
  X(geqrf, (const int *m, const int *n, void *a, const int *lda, void *tau, void *work, const int *lwork, int *info)) \
  X(orgqr, (const int *m, const int *n, const int *k, void *a, const int *lda, const void *tau, void *work, \
            const int *lwork, int *info)) \
  X(gelsd, (const int *m, const int *n, const int *nrhs, void *a, const int *lda, void *b, const int *ldb, \
            void *s, const void *rcond, int *rank, void *work, const int *lwork, int *iwork, int *info))

typedef struct LapackKit {
#define LAPACK_FIELD(name, params) void(*name) params;
  LAPACK_REAL(LAPACK_FIELD)
#undef LAPACK_FIELD
} LapackKit;

/* the complex kits bind only these so far (np.linalg.inv and solve on
** complex arrays): cgetrf_/zgetrf_ ... take the real ones' arguments */
#define LAPACK_COMPLEX(X) X(getrf) X(getri) X(gesv)

typedef struct Lapack {
  LapackKit s, d;   /* float32, float64 */
  LapackKit c, z;   /* complex64, complex128: LAPACK_COMPLEX's routines, the others NULL */
  const char *lib;  /* the file opened */
} Lapack;

/* LAPACK, opened once per process (thread-safe); NULL when none could be opened */
const Lapack *lapack_get(void);

#define LM_NO_LAPACK_MSG "np.linalg needs a LAPACK library (libopenblas0 or liblapack3)"

#endif
