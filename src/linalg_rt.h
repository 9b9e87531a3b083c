/*
** linalg_rt.h — the matrix products compiled code calls (linalg_rt.c, in
** core.so so that the cache's loader finds them: objload_extern.c): shape
** checks with NumPy's messages, then BLAS (blas.h) with the transpose flags
** a C- or F-ordered operand needs; any other strided operand is copied to a
** C-ordered temporary first, as Numba does. builtin_linalg.c lowers the
** calls.
*/
#ifndef linalg_rt_h
#define linalg_rt_h

#include <stdint.h>

#include "rt.h"

/* a 1-D or 2-D array as compiled code passes it */
typedef struct LmOperand {
  void *data;
  int64_t ndim;
  int64_t shape[2];
  int64_t strides[2];  /* bytes, any sign */
} LmOperand;

/* which product: they differ in the shapes they accept and their messages */
typedef enum LmProd {
  LM_PROD_DOT,     /* np.dot */
  LM_PROD_MATMUL,  /* a @ b, np.matmul */
  LM_PROD_INNER,   /* np.inner: over the last axis of both */
  LM_PROD_VDOT,    /* np.vdot (1-D): conjugates a */
} LmProd;

/* The shape of op(a, b) into shape (a->ndim + b->ndim - 2 entries): 0, or
** LMERR_VALUE with NumPy's message in err (text in a per-thread buffer,
** valid until this thread's next failing check). */
int32_t lm_prod_shape(LmErr *err, int32_t op, const LmOperand *a, const LmOperand *b, int64_t *shape);
/* op(a, b) for dtype dt (array.h's DType: float32, float64, complex64,
** complex128) into out, a
** C-contiguous array of the shape lm_prod_shape gave (NULL when both are
** 1-D: the result goes to *scalar, an element of dt). 0, or an LmErrKind
** with err set (no BLAS, out of memory, out of the wrong shape). */
int32_t lm_prod(LmErr *err, int32_t op, int32_t dt, const LmOperand *a, const LmOperand *b, const LmOperand *out,
                void *scalar);

/* linalg_lua.c: lumba.core._lapack and _prod, the object mode's door to these */
void linalg_lua_open(struct lua_State *L);

#define LM_NO_BLAS_MSG "np.dot needs a BLAS library (libopenblas0 or libblas3)"

#endif
