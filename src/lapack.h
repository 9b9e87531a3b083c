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
** table serves each dtype: kit 's' (float), 'd' (double), 'c' (complex
** float), 'z' (complex double) bind sgesv_/dgesv_/cgesv_/zgesv_ ... The
** routines whose arguments are the same for real and complex types are
** LAPACK_SHARED; LAPACK_REAL's have complex counterparts of another shape
** (LAPACK_COMPLEX: geev gives one complex w and takes rwork, heevd is
** syevd's Hermitian form with rwork, gesdd and gelsd take rwork, ungqr is
** orgqr), their real arguments (w, s, rcond, rwork) of the real type. */
#define LAPACK_SHARED(X) \
  X(getrf, (const int *m, const int *n, void *a, const int *lda, int *ipiv, int *info)) \
  X(getri, (const int *n, void *a, const int *lda, const int *ipiv, void *work, const int *lwork, int *info)) \
  X(gesv, (const int *n, const int *nrhs, void *a, const int *lda, int *ipiv, void *b, const int *ldb, int *info)) \
  X(potrf, (const char *uplo, const int *n, void *a, const int *lda, int *info, size_t l_uplo)) \
  X(geqrf, (const int *m, const int *n, void *a, const int *lda, void *tau, void *work, const int *lwork, int *info))

#define LAPACK_REAL(X) \
  X(geev, (const char *jobvl, const char *jobvr, const int *n, void *a, const int *lda, void *wr, void *wi, \
           void *vl, const int *ldvl, void *vr, const int *ldvr, void *work, const int *lwork, int *info, size_t l1, \
           size_t l2)) \
  X(syevd, (const char *jobz, const char *uplo, const int *n, void *a, const int *lda, void *w, void *work, \
            const int *lwork, int *iwork, const int *liwork, int *info, size_t l1, size_t l2)) \
  X(gesdd, (const char *jobz, const int *m, const int *n, void *a, const int *lda, void *s, void *u, \
            const int *ldu, void *vt, const int *ldvt, void *work, const int *lwork, int *iwork, int *info, size_t l1)) \
  X(orgqr, (const int *m, const int *n, const int *k, void *a, const int *lda, const void *tau, void *work, \
            const int *lwork, int *info)) \
  X(gelsd, (const int *m, const int *n, const int *nrhs, void *a, const int *lda, void *b, const int *ldb, \
            void *s, const void *rcond, int *rank, void *work, const int *lwork, int *iwork, int *info))

#define LAPACK_COMPLEX(X) \
  X(geev, (const char *jobvl, const char *jobvr, const int *n, void *a, const int *lda, void *w, void *vl, \
           const int *ldvl, void *vr, const int *ldvr, void *work, const int *lwork, void *rwork, int *info, size_t l1, \
           size_t l2)) \
  X(heevd, (const char *jobz, const char *uplo, const int *n, void *a, const int *lda, void *w, void *work, \
            const int *lwork, void *rwork, const int *lrwork, int *iwork, const int *liwork, int *info, size_t l1, \
            size_t l2)) \
  X(gesdd, (const char *jobz, const int *m, const int *n, void *a, const int *lda, void *s, void *u, \
            const int *ldu, void *vt, const int *ldvt, void *work, const int *lwork, void *rwork, int *iwork, int *info, \
            size_t l1)) \
  X(ungqr, (const int *m, const int *n, const int *k, void *a, const int *lda, const void *tau, void *work, \
            const int *lwork, int *info)) \
  X(gelsd, (const int *m, const int *n, const int *nrhs, void *a, const int *lda, void *b, const int *ldb, \
            void *s, const void *rcond, int *rank, void *work, const int *lwork, void *rwork, int *iwork, int *info))

#define LAPACK_FIELD(name, params) void(*name) params;
typedef struct LapackKit {
  LAPACK_SHARED(LAPACK_FIELD)
  struct { LAPACK_REAL(LAPACK_FIELD) } r;     /* real kits only */
  struct { LAPACK_COMPLEX(LAPACK_FIELD) } z;  /* complex kits only */
} LapackKit;
#undef LAPACK_FIELD

typedef struct Lapack {
  LapackKit s, d;   /* float32, float64 */
  LapackKit c, z;   /* complex64, complex128 */
  const char *lib;  /* the file opened */
} Lapack;

/* LAPACK, opened once per process (thread-safe); NULL when none could be opened */
const Lapack *lapack_get(void);

#define LM_NO_LAPACK_MSG "np.linalg needs a LAPACK library (libopenblas0 or liblapack3)"

#endif
