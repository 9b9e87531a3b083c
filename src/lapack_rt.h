/*
** lapack_rt.h — np.linalg's LAPACK calls for compiled code (lapack_rt.c,
** in core.so beside linalg_rt.h's products, so that the cache's loader
** finds it). The prelude (src/prelude/numpy_linalg.py) checks shapes,
** allocates the results and computes what needs no LAPACK (norms, cond,
** rank, powers, cov); it calls lm_lapack through the intrinsic
** _lumba.lapack(op, ...), builtin_lapack.c. Each operation copies its
** inputs into Fortran-ordered buffers (any strides, as Numba's
** _copy_to_fortran_order), calls LAPACK for the dtype (float32, float64,
** complex64, complex128: "real" below is the dtype's real type) and writes the results into the
** arrays it is given, any strides. LAPACK's failures raise what Numba
** raises: LinAlgError for a singular or non-positive-definite matrix and for
** infs or NaNs, ValueError for no convergence.
*/
#ifndef lapack_rt_h
#define lapack_rt_h

#include <stdint.h>

#include "linalg_rt.h"
#include "rt.h"

/* the operations; their operands in order (a 1-D operand is a column) */
typedef enum LmLapackOp {
  LM_LA_SOLVE,     /* a (n,n), b (n,) or (n,k), x (b's shape) */
  LM_LA_INV,       /* a (n,n), out (n,n) */
  LM_LA_SLOGDET,   /* a (n,n), out float64 (2,): the sign and log|det| (complex a: complex128 (2,)) */
  LM_LA_CHOLESKY,  /* a (n,n), out (n,n): the lower factor */
  LM_LA_EIG,       /* a (n,n), w (n,) [, v (n,n)]: real a, real eigenvalues only */
  LM_LA_EIGH,      /* a (n,n) (its lower triangle), w (n,) real [, v (n,n)] */
  LM_LA_SVD,       /* a (m,n), s (k,) real [, u (m,m) or (m,k), vt (n,n) or (k,n)], k = min(m, n) */
  LM_LA_QR,        /* a (m,n), q (m,k), r (k,n) */
  LM_LA_LSTSQ,     /* a (m,n), b (m,) or (m,r), x (n,) or (n,r), res (1,) or (r,) real, s (k,) real; sc[0] rcond; *ret rank */
  LM_LA__COUNT
} LmLapackOp;

/* op on ops[0..nops) of dtype dt (array.h's DType), with the numbers sc[0..nsc)
** and a number result in *ret: 0, or an LmErrKind with err set. */
int32_t lm_lapack(LmErr *err, int32_t op, int32_t dt, int32_t nops, const LmOperand *ops, int32_t nsc,
                  const double *sc, double *ret);

#endif
