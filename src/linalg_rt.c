/*
** linalg_rt.c — matrix products for compiled code (linalg_rt.h): NumPy's
** shape rules and messages, then one BLAS call (gemm, gemv or dot) with the
** operands as BLAS can read them in place, or copied to C order.
*/
#include <complex.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "linalg_rt.h"

/* Up to this many multiply-adds a plain loop beats the BLAS call, which
** spends ~90 ns checking arguments and picking kernels before the first
** flop. Measured with OpenBLAS 0.3.21 (float64, best of 15): 4x4 times 4x4
** 45 ns by the loop, 97 ns by dgemm; 6x6 161 against 135; 8x8 178 against
** 125. Vectors: a dot of 16 elements 8 ns both ways, of 32 19 against 10. */
#define SMALL_PRODUCT 64
#define SMALL_DOT 16

static _Thread_local char message[256];

static int fail(LmErr *err, int32_t kind, const char *msg) {
  err->kind = kind;
  err->msg = msg;
  return kind;
}

/* "(2,3)", "(2,)" as NumPy prints a shape */
static const char *shape_text(char *buf, size_t len, const LmOperand *x) {
  if (x->ndim == 1) snprintf(buf, len, "(%lld,)", (long long)x->shape[0]);
  else snprintf(buf, len, "(%lld,%lld)", (long long)x->shape[0], (long long)x->shape[1]);
  return buf;
}

static int32_t misaligned(LmErr *err, int32_t op, const LmOperand *a, int da, const LmOperand *b, int db) {
  char sa[48], sb[48];
  if (op == LM_PROD_MATMUL)
    snprintf(message, sizeof message,
             "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
             "(n?,k),(k,m?)->(n?,m?) (size %lld is different from %lld)",
             (long long)b->shape[db], (long long)a->shape[da]);
  else
    snprintf(message, sizeof message, "shapes %s and %s not aligned: %lld (dim %d) != %lld (dim %d)",
             shape_text(sa, sizeof sa, a), shape_text(sb, sizeof sb, b), (long long)a->shape[da], da,
             (long long)b->shape[db], db);
  return fail(err, LMERR_VALUE, message);
}

int32_t lm_prod_shape(LmErr *err, int32_t op, const LmOperand *a, const LmOperand *b, int64_t *shape) {
  int da = (int)a->ndim - 1;                               /* the summed axis of a: its last */
  int db = op == LM_PROD_INNER ? (int)b->ndim - 1 : 0;      /* of b: its first; inner's: its last */
  if (a->shape[da] != b->shape[db]) {
    /* NumPy names inner's b as the transpose it multiplies by */
    LmOperand bt = {b->data, b->ndim, {b->shape[b->ndim - 1], b->shape[0]}, {0, 0}};
    return op == LM_PROD_INNER ? misaligned(err, op, a, da, &bt, 0) : misaligned(err, op, a, da, b, db);
  }
  int k = 0;
  if (a->ndim == 2) shape[k++] = a->shape[0];
  if (b->ndim == 2) shape[k++] = b->shape[op == LM_PROD_INNER ? 0 : 1];
  return 0;
}

/* ---- operands as BLAS reads them ---- */

/* a logical rows x cols matrix: element (i, j) at p + i*rs + j*cs */
typedef struct Mat {
  char *p;
  int64_t rows, cols, rs, cs;
} Mat;

/* How BLAS reads m in row-major terms: its stored form is rows x cols with
** leading dimension ld (NoTrans, C order) or its transpose (Trans, F order).
** false: neither (a strided view), copy it. */
static bool stored(const Mat *m, int64_t it, int *trans, int64_t *ld) {
  int64_t r = m->rows, c = m->cols;
  if ((c <= 1 || m->cs == it) && (r <= 1 || (m->rs > 0 && m->rs % it == 0 && m->rs / it >= c))) {
    *trans = BLAS_NO_TRANS;
    *ld = r <= 1 ? (c > 1 ? c : 1) : m->rs / it;
  } else if ((r <= 1 || m->rs == it) && (c <= 1 || (m->cs > 0 && m->cs % it == 0 && m->cs / it >= r))) {
    *trans = BLAS_TRANS;
    *ld = c <= 1 ? (r > 1 ? r : 1) : m->cs / it;
  } else {
    return false;
  }
  return *ld <= INT_MAX;
}

/* a C-ordered copy of m in a new buffer (NULL: out of memory) */
static void *copy_c(const Mat *m, int64_t it) {
  char *q = malloc((size_t)(m->rows * m->cols * it) + 1);
  if (q == NULL) return NULL;
  char *d = q;
  for (int64_t i = 0; i < m->rows; i++)
    for (int64_t j = 0; j < m->cols; j++, d += it) memcpy(d, m->p + i * m->rs + j * m->cs, (size_t)it);
  return q;
}

/* m readable by BLAS: in place, or copied (*tmp to free) */
static bool blas_form(Mat *m, int64_t it, int *trans, int64_t *ld, void **tmp) {
  *tmp = NULL;
  if (stored(m, it, trans, ld)) return true;
  if ((*tmp = copy_c(m, it)) == NULL) return false;
  m->p = *tmp;
  m->cs = it;
  m->rs = m->cols * it;
  *trans = BLAS_NO_TRANS;
  *ld = m->cols > 1 ? m->cols : 1;
  return true;
}

/* a vector: BLAS's increment (in elements) and the pointer BLAS wants for a
** negative one (its lowest address); false: copy it (a stride that is not a
** whole number of elements, or zero) */
static bool vec_form(Mat *v, int64_t n, int64_t s, int64_t it, int64_t *inc, void **tmp) {
  *tmp = NULL;
  if (n <= 1) s = it;
  if (s != 0 && s % it == 0 && s / it <= INT_MAX && s / it >= -INT_MAX) {
    *inc = s / it;
    if (s < 0) v->p += (n - 1) * s;
    return true;
  }
  Mat m = {v->p, 1, n, 0, s};
  if ((*tmp = copy_c(&m, it)) == NULL) return false;
  v->p = *tmp;
  *inc = 1;
  return true;
}

/* ---- the products, by dtype (complex: cgemm/zgemm with alpha and beta by pointer) ---- */

/* CONJ(x): a's element as the product reads it (np.vdot conjugates a) */
#define SMALL_LOOPS(NAME, T, CONJ)                                                                       \
  static void NAME(const Mat *a, const Mat *b, T *c, int64_t n) {                                      \
    for (int64_t i = 0; i < a->rows; i++)                                                            \
      for (int64_t j = 0; j < b->cols; j++) {                                                        \
        T s = 0;                                                                                     \
        for (int64_t l = 0; l < a->cols; l++)                                                        \
          s += CONJ(*(const T *)(a->p + i * a->rs + l * a->cs)) * *(const T *)(b->p + l * b->rs + j * b->cs); \
        c[i * n + j] = s;                                                                            \
      }                                                                                              \
  }
#define AS_IS(x) (x)
typedef float _Complex cfloat;
typedef double _Complex cdouble;
SMALL_LOOPS(small_gemm_float, float, AS_IS)
SMALL_LOOPS(small_gemm_double, double, AS_IS)
SMALL_LOOPS(small_gemm_cfloat, cfloat, AS_IS)
SMALL_LOOPS(small_gemm_cdouble, cdouble, AS_IS)
SMALL_LOOPS(small_vdot_cfloat, cfloat, conjf)
SMALL_LOOPS(small_vdot_cdouble, cdouble, conj)

typedef struct Prod {
  const Blas *B;
  int32_t dt;
  int64_t it;
} Prod;

/* c = a b by the plain loop, into c of n columns (vdot: conj(a) b) */
static void small_gemm(const Prod *P, const Mat *a, const Mat *b, void *c, int64_t n, bool vdot) {
  switch (P->dt) {
    case DT_FLOAT64: small_gemm_double(a, b, c, n); break;
    case DT_FLOAT32: small_gemm_float(a, b, c, n); break;
    case DT_COMPLEX128: (vdot ? small_vdot_cdouble : small_gemm_cdouble)(a, b, c, n); break;
    default: (vdot ? small_vdot_cfloat : small_gemm_cfloat)(a, b, c, n); break;
  }
}

/* alpha = 1 and beta = 0 for the complex routines, which take them by pointer */
static const float c_one[2] = {1, 0}, c_zero[2] = {0, 0};
static const double z_one[2] = {1, 0}, z_zero[2] = {0, 0};

static void gemm(const Prod *P, int ta, int tb, int64_t m, int64_t n, int64_t k, const Mat *a, int64_t lda,
                 const Mat *b, int64_t ldb, void *c, int64_t ldc) {
  if (P->dt == DT_COMPLEX128)
    P->B->zgemm(BLAS_ROW_MAJOR, ta, tb, (int)m, (int)n, (int)k, z_one, a->p, (int)lda, b->p, (int)ldb, z_zero, c,
                (int)ldc);
  else if (P->dt == DT_COMPLEX64)
    P->B->cgemm(BLAS_ROW_MAJOR, ta, tb, (int)m, (int)n, (int)k, c_one, a->p, (int)lda, b->p, (int)ldb, c_zero, c,
                (int)ldc);
  else if (P->dt == DT_FLOAT64)
    P->B->dgemm(BLAS_ROW_MAJOR, ta, tb, (int)m, (int)n, (int)k, 1.0, (const double *)a->p, (int)lda,
                (const double *)b->p, (int)ldb, 0.0, c, (int)ldc);
  else
    P->B->sgemm(BLAS_ROW_MAJOR, ta, tb, (int)m, (int)n, (int)k, 1.0f, (const float *)a->p, (int)lda,
                (const float *)b->p, (int)ldb, 0.0f, c, (int)ldc);
}

/* y = op(S) x, S the stored sr x sc matrix */
static void gemv(const Prod *P, int trans, int64_t sr, int64_t sc, const Mat *s, int64_t ld, const Mat *x,
                 int64_t incx, void *y) {
  if (P->dt == DT_COMPLEX128)
    P->B->zgemv(BLAS_ROW_MAJOR, trans, (int)sr, (int)sc, z_one, s->p, (int)ld, x->p, (int)incx, z_zero, y, 1);
  else if (P->dt == DT_COMPLEX64)
    P->B->cgemv(BLAS_ROW_MAJOR, trans, (int)sr, (int)sc, c_one, s->p, (int)ld, x->p, (int)incx, c_zero, y, 1);
  else if (P->dt == DT_FLOAT64)
    P->B->dgemv(BLAS_ROW_MAJOR, trans, (int)sr, (int)sc, 1.0, (const double *)s->p, (int)ld, (const double *)x->p,
                (int)incx, 0.0, y, 1);
  else
    P->B->sgemv(BLAS_ROW_MAJOR, trans, (int)sr, (int)sc, 1.0f, (const float *)s->p, (int)ld, (const float *)x->p,
                (int)incx, 0.0f, y, 1);
}

static int32_t no_memory(LmErr *err) { return fail(err, LMERR_MEMORY, "cannot allocate a temporary for np.dot"); }

/* matrix (a->rows x k) times matrix (k x b->cols) into c, C order */
static int32_t mat_mat(LmErr *err, const Prod *P, Mat a, Mat b, void *c) {
  int64_t m = a.rows, k = a.cols, n = b.cols;
  if (m <= SMALL_PRODUCT && n <= SMALL_PRODUCT && k <= SMALL_PRODUCT && m * n * k <= SMALL_PRODUCT) {
    small_gemm(P, &a, &b, c, n, false);
    return 0;
  }
  int ta, tb;
  int64_t lda, ldb;
  void *ta_tmp, *tb_tmp = NULL;
  if (!blas_form(&a, P->it, &ta, &lda, &ta_tmp) || !blas_form(&b, P->it, &tb, &ldb, &tb_tmp)) {
    free(ta_tmp);
    return no_memory(err);
  }
  gemm(P, ta, tb, m, n, k, &a, lda, &b, ldb, c, n > 1 ? n : 1);
  free(ta_tmp);
  free(tb_tmp);
  return 0;
}

/* y = X v (transpose: X^T v), X a logical matrix, v a vector of stride vs */
static int32_t mat_vec(LmErr *err, const Prod *P, Mat x, bool transpose, Mat v, int64_t vs, void *y) {
  int64_t len = transpose ? x.rows : x.cols;
  if (x.rows <= SMALL_PRODUCT && x.cols <= SMALL_PRODUCT && x.rows * x.cols <= SMALL_PRODUCT) {
    Mat col = {v.p, len, 1, vs, 0};
    if (transpose) {  /* (v^T X)^T: a 1 x len row times X */
      Mat row = {v.p, 1, len, 0, vs};
      small_gemm(P, &row, &x, y, x.cols, false);
    } else {
      small_gemm(P, &x, &col, y, 1, false);
    }
    return 0;
  }
  int trans;
  int64_t ld, inc;
  void *xt, *vt;
  if (!blas_form(&x, P->it, &trans, &ld, &xt)) return no_memory(err);
  if (!vec_form(&v, len, vs, P->it, &inc, &vt)) {
    free(xt);
    return no_memory(err);
  }
  /* stored form: x itself (NoTrans: rows x cols) or its transpose (cols x rows) */
  int64_t sr = trans == BLAS_NO_TRANS ? x.rows : x.cols, sc = trans == BLAS_NO_TRANS ? x.cols : x.rows;
  if (transpose) trans = trans == BLAS_NO_TRANS ? BLAS_TRANS : BLAS_NO_TRANS;
  gemv(P, trans, sr, sc, &x, ld, &v, inc, y);
  free(xt);
  free(vt);
  return 0;
}

static int32_t vec_vec(LmErr *err, const Prod *P, bool vdot, Mat a, int64_t as, Mat b, int64_t bs, int64_t n, void *r) {
  int64_t ia, ib;
  void *at, *bt;
  if (n <= SMALL_DOT) {
    Mat row = {a.p, 1, n, 0, as}, col = {b.p, n, 1, bs, 0};
    small_gemm(P, &row, &col, r, 1, vdot);
    return 0;
  }
  if (!vec_form(&a, n, as, P->it, &ia, &at)) return no_memory(err);
  if (!vec_form(&b, n, bs, P->it, &ib, &bt)) {
    free(at);
    return no_memory(err);
  }
  const void *pa = a.p, *pb = b.p;
  if (P->dt == DT_COMPLEX128) (vdot ? P->B->zdotc_sub : P->B->zdotu_sub)((int)n, pa, (int)ia, pb, (int)ib, r);
  else if (P->dt == DT_COMPLEX64) (vdot ? P->B->cdotc_sub : P->B->cdotu_sub)((int)n, pa, (int)ia, pb, (int)ib, r);
  else if (P->dt == DT_FLOAT64) *(double *)r = P->B->ddot((int)n, (const double *)a.p, (int)ia, (const double *)b.p, (int)ib);
  else *(float *)r = P->B->sdot((int)n, (const float *)a.p, (int)ia, (const float *)b.p, (int)ib);
  free(at);
  free(bt);
  return 0;
}

static Mat mat_of(const LmOperand *x, bool transpose) {
  Mat m = {x->data, x->shape[0], x->shape[1], x->strides[0], x->strides[1]};
  if (transpose) m = (Mat){x->data, x->shape[1], x->shape[0], x->strides[1], x->strides[0]};
  return m;
}

int32_t lm_prod(LmErr *err, int32_t op, int32_t dt, const LmOperand *a, const LmOperand *b, const LmOperand *out,
                void *scalar) {
  int64_t shape[2];
  if (lm_prod_shape(err, op, a, b, shape)) return err->kind;
  int nd = (int)(a->ndim + b->ndim - 2);
  if (out) {
    for (int i = 0; i < nd; i++)
      if (out->ndim != nd || out->shape[i] != shape[i]) return fail(err, LMERR_VALUE, "output array has wrong dimensions");
  }
  Prod P = {blas_get(), dt, dt == DT_COMPLEX128 ? 16 : dt == DT_FLOAT64 || dt == DT_COMPLEX64 ? 8 : 4};
  if (P.B == NULL) return fail(err, LMERR_RAISE, "RuntimeError: " LM_NO_BLAS_MSG);
  int64_t k = a->shape[a->ndim - 1];
  for (int i = 0; i < nd; i++)
    if (shape[i] > INT_MAX) return fail(err, LMERR_VALUE, "np.dot: a dimension over 2**31 - 1 is too large for BLAS");
  if (k > INT_MAX) return fail(err, LMERR_VALUE, "np.dot: a dimension over 2**31 - 1 is too large for BLAS");
  void *c = out ? out->data : scalar;
  int64_t count = nd == 0 ? 1 : nd == 1 ? shape[0] : shape[0] * shape[1];
  if (count == 0) return 0;
  if (k == 0) {  /* an empty sum: zeros (BLAS may not touch c) */
    memset(c, 0, (size_t)(count * P.it));
    return 0;
  }
  bool bt = op == LM_PROD_INNER;  /* inner(a, b) = dot(a, b.T) */
  Mat ma = {a->data, 0, 0, 0, 0}, mb = {b->data, 0, 0, 0, 0};
  if (a->ndim == 2 && b->ndim == 2) return mat_mat(err, &P, mat_of(a, false), mat_of(b, bt), c);
  if (a->ndim == 2) return mat_vec(err, &P, mat_of(a, false), false, mb, b->strides[0], c);
  if (b->ndim == 2) return mat_vec(err, &P, mat_of(b, bt), true, ma, a->strides[0], c);
  return vec_vec(err, &P, op == LM_PROD_VDOT, ma, a->strides[0], mb, b->strides[0], k, c);
}
