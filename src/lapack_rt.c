/*
** lapack_rt.c — np.linalg's LAPACK calls (lapack_rt.h): each operation
** copies its operands into Fortran-ordered scratch buffers, calls one or two
** LAPACK routines of the dtype's kit and stores the results, with Numba's
** errors for what LAPACK reports.
*/
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lapack.h"
#include "lapack_rt.h"

#define MSG_SINGULAR "LinAlgError: Matrix is singular to machine precision."
#define MSG_NOT_PD "LinAlgError: Matrix is not positive definite."
#define MSG_NONFINITE "LinAlgError: Array must not contain infs or NaNs."
#define MSG_CONVERGE "ValueError: Internal algorithm failed to converge."
#define MSG_DOMAIN "ValueError: eig() argument must not cause a domain change."

/* one call's state: the dtype's routines, its element size and that of
** its real type (half of it for complex), the scratch buffers to free at the
** end (at most this many per operation) */
typedef struct Call {
  LmErr *err;
  const LapackKit *K;
  int32_t dt;
  bool cplx;
  int64_t it, rit;
  void *tmp[10];
  int ntmp;
} Call;

static int32_t fail(Call *c, int32_t kind, const char *msg) {
  c->err->kind = kind;
  c->err->msg = msg;
  return kind;
}

static int32_t no_memory(Call *c) { return fail(c, LMERR_MEMORY, "cannot allocate LAPACK's scratch space"); }

/* zeroed scratch of n elements (of size it; NULL: out of memory, c's error set) */
static void *scratch(Call *c, int64_t n, int64_t it) {
  void *p = c->ntmp < 10 ? calloc((size_t)(n > 0 ? n : 1), (size_t)it) : NULL;
  if (p == NULL) {
    no_memory(c);
    return NULL;
  }
  c->tmp[c->ntmp++] = p;
  return p;
}

/* element (i, j) of x, a 1-D x being one column */
static char *at(const LmOperand *x, int64_t i, int64_t j) {
  return (char *)x->data + i * x->strides[0] + (x->ndim == 2 ? j * x->strides[1] : 0);
}
static int64_t rows(const LmOperand *x) { return x->ndim >= 1 ? x->shape[0] : 1; }
static int64_t cols(const LmOperand *x) { return x->ndim == 2 ? x->shape[1] : 1; }

/* a real element, or a complex one's real part (at p + rit its imaginary part) */
static double get(const Call *c, const void *p) { return c->rit == 8 ? *(const double *)p : *(const float *)p; }
static double imag(const Call *c, const void *p) { return c->cplx ? get(c, (const char *)p + c->rit) : 0; }
static void put_real(const Call *c, void *p, double v) {
  if (c->rit == 8) *(double *)p = v;
  else *(float *)p = (float)v;
}
static void zero(const Call *c, void *p) { memset(p, 0, (size_t)c->it); }

/* x's elements into a new Fortran-ordered buffer with leading dimension ld
** (>= rows(x)), its other rows zero */
static void *fcopy(Call *c, const LmOperand *x, int64_t ld) {
  int64_t r = rows(x), k = cols(x);
  char *buf = scratch(c, ld * k, c->it);
  if (buf == NULL) return NULL;
  for (int64_t j = 0; j < k; j++)
    for (int64_t i = 0; i < r; i++) memcpy(buf + (i + j * ld) * c->it, at(x, i, j), (size_t)c->it);
  return buf;
}

/* the r x k top-left block of a Fortran buffer of elements of size it into out */
static void fstore_of(const void *buf, int64_t ld, int64_t r, int64_t k, const LmOperand *out, int64_t it) {
  const char *b = buf;
  for (int64_t j = 0; j < k; j++)
    for (int64_t i = 0; i < r; i++) memcpy(at(out, i, j), b + (i + j * ld) * it, (size_t)it);
}
static void fstore(const Call *c, const void *buf, int64_t ld, int64_t r, int64_t k, const LmOperand *out) {
  fstore_of(buf, ld, r, k, out, c->it);
}
/* a buffer of the real type (singular values, Hermitian eigenvalues) */
static void fstore_real(const Call *c, const void *buf, int64_t n, const LmOperand *out) {
  fstore_of(buf, n, n, 1, out, c->rit);
}

static bool all_finite(const Call *c, const LmOperand *x) {
  for (int64_t i = 0; i < rows(x); i++)
    for (int64_t j = 0; j < cols(x); j++)
      if (!isfinite(get(c, at(x, i, j))) || !isfinite(imag(c, at(x, i, j)))) return false;
  return true;
}

/* LAPACK's answer to a workspace query (lwork = -1), as a size */
static int work_size(const Call *c, const void *w) {
  double v = get(c, w);
  return v < 1 ? 1 : v > INT_MAX ? INT_MAX : (int)v;
}

static int32_t check_info(Call *c, int info, const char *positive) {
  if (info > 0) return fail(c, LMERR_RAISE, positive);
  if (info < 0) return fail(c, LMERR_RAISE, "RuntimeError: LAPACK rejected an argument (an internal error of lumba)");
  return 0;
}

/* ---- the operations ---- */

static int32_t la_solve(Call *c, const LmOperand *o) {
  int n = (int)rows(&o[0]), nrhs = (int)cols(&o[1]), info = 0;
  if (n == 0 || nrhs == 0) return 0;
  void *a = fcopy(c, &o[0], n), *b = fcopy(c, &o[1], n);
  int *ipiv = scratch(c, n, sizeof(int));
  if (a == NULL || b == NULL || ipiv == NULL) return c->err->kind;
  c->K->gesv(&n, &nrhs, a, &n, ipiv, b, &n, &info);
  if (check_info(c, info, MSG_SINGULAR)) return c->err->kind;
  fstore(c, b, n, n, nrhs, &o[2]);
  return 0;
}

static int32_t la_inv(Call *c, const LmOperand *o) {
  int n = (int)rows(&o[0]), info = 0, lwork = -1;
  if (n == 0) return 0;
  void *a = fcopy(c, &o[0], n);
  int *ipiv = scratch(c, n, sizeof(int));
  double q[2];
  if (a == NULL || ipiv == NULL) return c->err->kind;
  c->K->getrf(&n, &n, a, &n, ipiv, &info);
  if (check_info(c, info, MSG_SINGULAR)) return c->err->kind;
  c->K->getri(&n, a, &n, ipiv, q, &lwork, &info);
  lwork = work_size(c, q);
  void *work = scratch(c, lwork, c->it);
  if (work == NULL) return c->err->kind;
  c->K->getri(&n, a, &n, ipiv, work, &lwork, &info);
  if (check_info(c, info, MSG_SINGULAR)) return c->err->kind;
  fstore(c, a, n, n, n, &o[1]);
  return 0;
}

/* as Numba's: the sign from the pivots and the diagonal (a complex sign for
** complex a: the product of d / |d|), the log from |diagonal|; out is float64
** (sign, log), or complex128 for complex a */
static int32_t la_slogdet(Call *c, const LmOperand *o) {
  int n = (int)rows(&o[0]), info = 0;
  double sign = 1, sign_im = 0, logdet = 0;
  if (n > 0) {
    char *a = fcopy(c, &o[0], n);
    int *ipiv = scratch(c, n, sizeof(int));
    if (a == NULL || ipiv == NULL) return c->err->kind;
    c->K->getrf(&n, &n, a, &n, ipiv, &info);
    if (info < 0) return check_info(c, info, "");
    if (info > 0) {
      sign = 0;
      logdet = -INFINITY;
    } else {
      for (int k = 0; k < n; k++) {
        const char *d = a + (k + (int64_t)k * n) * c->it;
        double v = get(c, d);
        if (ipiv[k] != k + 1) sign = -sign, sign_im = -sign_im;
        if (c->cplx) {
          double y = imag(c, d), m = hypot(v, y), re = v / m, im = y / m, s = sign;
          sign = s * re - sign_im * im;
          sign_im = s * im + sign_im * re;
          logdet += log(m);
          continue;
        }
        if (v < 0) {
          sign = -sign;
          v = -v;
        }
        logdet += log(v);
      }
    }
  }
  double *s = (double *)at(&o[1], 0, 0), *l = (double *)at(&o[1], 1, 0);
  s[0] = sign;
  l[0] = logdet;
  if (c->cplx) s[1] = sign_im, l[1] = 0;
  return 0;
}

static int32_t la_cholesky(Call *c, const LmOperand *o) {
  int n = (int)rows(&o[0]), info = 0;
  if (n == 0) return 0;
  char *a = fcopy(c, &o[0], n);
  if (a == NULL) return c->err->kind;
  c->K->potrf("L", &n, a, &n, &info, 1);
  if (check_info(c, info, MSG_NOT_PD)) return c->err->kind;
  for (int64_t j = 1; j < n; j++)
    for (int64_t i = 0; i < j; i++) zero(c, a + (i + j * n) * c->it);
  fstore(c, a, n, n, n, &o[1]);
  return 0;
}

static int32_t la_eig(Call *c, const LmOperand *o, int nops) {
  int n = (int)rows(&o[0]), info = 0, lwork = -1, one = 1;
  bool vecs = nops > 2;
  if (n == 0) return 0;
  char *a = fcopy(c, &o[0], n), *wr = scratch(c, n, c->it), *wi = scratch(c, n, c->it);
  char *vr = scratch(c, vecs ? (int64_t)n * n : 1, c->it);
  double q[2], vl[2] = {0, 0};
  if (a == NULL || wr == NULL || wi == NULL || vr == NULL) return c->err->kind;
  const char *jobvr = vecs ? "V" : "N";
  int ldvr = vecs ? n : 1;
  if (c->cplx) {  /* complex a: one complex w (wr), wi unused; rwork of 2n reals */
    char *rwork = scratch(c, 2 * (int64_t)n, c->rit);
    if (rwork == NULL) return c->err->kind;
    c->K->z.geev("N", jobvr, &n, a, &n, wr, vl, &one, vr, &ldvr, q, &lwork, rwork, &info, 1, 1);
    lwork = work_size(c, q);
    void *work = scratch(c, lwork, c->it);
    if (work == NULL) return c->err->kind;
    c->K->z.geev("N", jobvr, &n, a, &n, wr, vl, &one, vr, &ldvr, work, &lwork, rwork, &info, 1, 1);
    if (check_info(c, info, MSG_CONVERGE)) return c->err->kind;
  } else {
    c->K->r.geev("N", jobvr, &n, a, &n, wr, wi, vl, &one, vr, &ldvr, q, &lwork, &info, 1, 1);
    lwork = work_size(c, q);
    void *work = scratch(c, lwork, c->it);
    if (work == NULL) return c->err->kind;
    c->K->r.geev("N", jobvr, &n, a, &n, wr, wi, vl, &one, vr, &ldvr, work, &lwork, &info, 1, 1);
    if (check_info(c, info, MSG_CONVERGE)) return c->err->kind;
    for (int k = 0; k < n; k++)
      if (get(c, wi + k * c->it) != 0) return fail(c, LMERR_RAISE, MSG_DOMAIN);
  }
  fstore(c, wr, n, n, 1, &o[1]);
  if (vecs) fstore(c, vr, n, n, n, &o[2]);
  return 0;
}

static int32_t la_eigh(Call *c, const LmOperand *o, int nops) {
  int n = (int)rows(&o[0]), info = 0, lwork = -1, liwork = -1, iq = 0;
  bool vecs = nops > 2;
  if (n == 0) return 0;
  char *a = fcopy(c, &o[0], n), *w = scratch(c, n, c->rit);
  double q[2], rq[1] = {0};
  if (a == NULL || w == NULL) return c->err->kind;
  const char *jobz = vecs ? "V" : "N";
  if (c->cplx) {  /* heevd: w real, rwork real beside the complex work */
    int lrwork = -1;
    c->K->z.heevd(jobz, "L", &n, a, &n, w, q, &lwork, rq, &lrwork, &iq, &liwork, &info, 1, 1);
    lwork = work_size(c, q);
    lrwork = work_size(c, rq);
    liwork = iq > 1 ? iq : 1;
    void *work = scratch(c, lwork, c->it), *rwork = scratch(c, lrwork, c->rit);
    int *iwork = scratch(c, liwork, sizeof(int));
    if (work == NULL || rwork == NULL || iwork == NULL) return c->err->kind;
    c->K->z.heevd(jobz, "L", &n, a, &n, w, work, &lwork, rwork, &lrwork, iwork, &liwork, &info, 1, 1);
  } else {
    c->K->r.syevd(jobz, "L", &n, a, &n, w, q, &lwork, &iq, &liwork, &info, 1, 1);
    lwork = work_size(c, q);
    liwork = iq > 1 ? iq : 1;
    void *work = scratch(c, lwork, c->it);
    int *iwork = scratch(c, liwork, sizeof(int));
    if (work == NULL || iwork == NULL) return c->err->kind;
    c->K->r.syevd(jobz, "L", &n, a, &n, w, work, &lwork, iwork, &liwork, &info, 1, 1);
  }
  if (check_info(c, info, MSG_CONVERGE)) return c->err->kind;
  fstore_real(c, w, n, &o[1]);
  if (vecs) fstore(c, a, n, n, n, &o[2]);
  return 0;
}

static int32_t la_svd(Call *c, const LmOperand *o, int nops) {
  int m = (int)rows(&o[0]), n = (int)cols(&o[0]), k = m < n ? m : n, info = 0, lwork = -1;
  if (k == 0) return 0;
  bool vecs = nops > 2;
  /* full_matrices: u is m x m and vt n x n ('A'), else m x k and k x n ('S') */
  int ucols = vecs ? (int)cols(&o[2]) : 1, vtrows = vecs ? (int)rows(&o[3]) : 1;
  const char *jobz = !vecs ? "N" : ucols == m && vtrows == n ? "A" : "S";
  int ldu = vecs ? m : 1, ldvt = vecs ? vtrows : 1;
  char *a = fcopy(c, &o[0], m), *s = scratch(c, k, c->rit);
  char *u = scratch(c, (int64_t)ldu * ucols, c->it), *vt = scratch(c, (int64_t)ldvt * n, c->it);
  int *iwork = scratch(c, 8 * (int64_t)k, sizeof(int));
  /* complex: rwork of the size LAPACK's zgesdd documents (7 min(m,n) with no vectors) */
  int64_t mx = m > n ? m : n, kk = k;
  int64_t lrwork = !c->cplx ? 1 : !vecs ? 7 * kk : 5 * kk * kk + 5 * kk > 2 * mx * kk + 2 * kk * kk + kk ? 5 * kk * kk + 5 * kk : 2 * mx * kk + 2 * kk * kk + kk;
  char *rwork = scratch(c, lrwork, c->rit);
  double q[2];
  if (a == NULL || s == NULL || u == NULL || vt == NULL || iwork == NULL || rwork == NULL) return c->err->kind;
  if (c->cplx) c->K->z.gesdd(jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, q, &lwork, rwork, iwork, &info, 1);
  else c->K->r.gesdd(jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, q, &lwork, iwork, &info, 1);
  lwork = work_size(c, q);
  void *work = scratch(c, lwork, c->it);
  if (work == NULL) return c->err->kind;
  if (c->cplx) c->K->z.gesdd(jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, work, &lwork, rwork, iwork, &info, 1);
  else c->K->r.gesdd(jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, &info, 1);
  if (check_info(c, info, MSG_CONVERGE)) return c->err->kind;
  fstore_real(c, s, k, &o[1]);
  if (vecs) {
    fstore(c, u, ldu, m, ucols, &o[2]);
    fstore(c, vt, ldvt, vtrows, n, &o[3]);
  }
  return 0;
}

/* Q from geqrf's reflectors: orgqr, or ungqr for complex */
static void orgqr(const Call *c, const int *m, const int *n, const int *k, void *a, const int *lda, const void *tau,
                  void *work, const int *lwork, int *info) {
  if (c->cplx) c->K->z.ungqr(m, n, k, a, lda, tau, work, lwork, info);
  else c->K->r.orgqr(m, n, k, a, lda, tau, work, lwork, info);
}

static int32_t la_qr(Call *c, const LmOperand *o) {
  int m = (int)rows(&o[0]), n = (int)cols(&o[0]), k = m < n ? m : n, info = 0, lwork = -1;
  if (k == 0) return 0;
  char *a = fcopy(c, &o[0], m), *tau = scratch(c, k, c->it);
  double q[2];
  if (a == NULL || tau == NULL) return c->err->kind;
  c->K->geqrf(&m, &n, a, &m, tau, q, &lwork, &info);
  lwork = work_size(c, q);
  orgqr(c, &m, &k, &k, a, &m, tau, q, (int[]){-1}, &info);
  if (work_size(c, q) > lwork) lwork = work_size(c, q);
  void *work = scratch(c, lwork, c->it);
  if (work == NULL) return c->err->kind;
  c->K->geqrf(&m, &n, a, &m, tau, work, &lwork, &info);
  if (check_info(c, info, MSG_CONVERGE)) return c->err->kind;
  /* R: the upper triangle of a's first k rows */
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = 0; i < k; i++) memcpy(at(&o[2], i, j), a + (i + j * m) * c->it, (size_t)c->it);
  for (int64_t j = 0; j < k; j++)
    for (int64_t i = j + 1; i < k; i++) zero(c, at(&o[2], i, j));
  orgqr(c, &m, &k, &k, a, &m, tau, work, &lwork, &info);
  if (check_info(c, info, MSG_CONVERGE)) return c->err->kind;
  fstore(c, a, m, m, k, &o[1]);
  return 0;
}

static int32_t la_lstsq(Call *c, const LmOperand *o, const double *sc, double *ret) {
  int m = (int)rows(&o[0]), n = (int)cols(&o[0]), nrhs = (int)cols(&o[1]), k = m < n ? m : n;
  int maxmn = m > n ? m : n, info = 0, lwork = -1, iq = 0, rank = 0;
  char *a = fcopy(c, &o[0], m), *b = fcopy(c, &o[1], maxmn), *s = scratch(c, k, c->rit);
  double q[2], rq[1] = {0}, rcond[1];
  float rcondf[1] = {(float)sc[0]};
  rcond[0] = sc[0];
  void *rc = c->rit == 8 ? (void *)rcond : (void *)rcondf;
  if (a == NULL || b == NULL || s == NULL) return c->err->kind;
  if (c->cplx) c->K->z.gelsd(&m, &n, &nrhs, a, &m, b, &maxmn, s, rc, &rank, q, &lwork, rq, &iq, &info);
  else c->K->r.gelsd(&m, &n, &nrhs, a, &m, b, &maxmn, s, rc, &rank, q, &lwork, &iq, &info);
  lwork = work_size(c, q);
  void *work = scratch(c, lwork, c->it), *rwork = scratch(c, c->cplx ? work_size(c, rq) : 1, c->rit);
  int *iwork = scratch(c, iq > 1 ? iq : 1, sizeof(int));
  if (work == NULL || rwork == NULL || iwork == NULL) return c->err->kind;
  if (c->cplx) c->K->z.gelsd(&m, &n, &nrhs, a, &m, b, &maxmn, s, rc, &rank, work, &lwork, rwork, iwork, &info);
  else c->K->r.gelsd(&m, &n, &nrhs, a, &m, b, &maxmn, s, rc, &rank, work, &lwork, iwork, &info);
  if (check_info(c, info, MSG_CONVERGE)) return c->err->kind;
  fstore(c, b, maxmn, n, nrhs, &o[2]);
  /* the residuals (real): the squared norms of b's rows past n (used when m > n at full rank) */
  for (int64_t j = 0; j < nrhs && m > n; j++) {
    double r = 0;
    for (int64_t i = n; i < m; i++) {
      const char *p = b + (i + j * maxmn) * c->it;
      double v = get(c, p), y = imag(c, p);
      r += v * v + y * y;
    }
    put_real(c, at(&o[3], j, 0), r);
  }
  fstore_real(c, s, k, &o[4]);
  *ret = rank;
  return 0;
}

/* the operands LAPACK reads, which must hold no inf or NaN (Numba's
** _check_finite_matrix), by operation: a bit per operand */
static const unsigned checked[LM_LA__COUNT] = {
    [LM_LA_SOLVE] = 3, [LM_LA_INV] = 1, [LM_LA_SLOGDET] = 1, [LM_LA_CHOLESKY] = 0, [LM_LA_EIG] = 1,
    [LM_LA_EIGH] = 1,  [LM_LA_SVD] = 1, [LM_LA_QR] = 1,      [LM_LA_LSTSQ] = 3,
};

int32_t lm_lapack(LmErr *err, int32_t op, int32_t dt, int32_t nops, const LmOperand *ops, int32_t nsc,
                  const double *sc, double *ret) {
  (void)nsc;
  bool cplx = dt == DT_COMPLEX64 || dt == DT_COMPLEX128;
  Call c = {.err = err, .dt = dt, .cplx = cplx, .rit = dt == DT_FLOAT64 || dt == DT_COMPLEX128 ? 8 : 4};
  c.it = cplx ? 2 * c.rit : c.rit;
  const Lapack *P = lapack_get();
  if (P == NULL) return fail(&c, LMERR_RAISE, "RuntimeError: " LM_NO_LAPACK_MSG);
  if (dt != DT_FLOAT64 && dt != DT_FLOAT32 && !cplx) return fail(&c, LMERR_RAISE, "TypeError: np.linalg: unsupported dtype");
  c.K = dt == DT_FLOAT64 ? &P->d : dt == DT_FLOAT32 ? &P->s : dt == DT_COMPLEX128 ? &P->z : &P->c;
  for (int i = 0; i < nops; i++)
    for (int d = 0; d < ops[i].ndim; d++)
      if (ops[i].shape[d] > INT_MAX / 8)
        return fail(&c, LMERR_VALUE, "np.linalg: an array with a dimension over 2**28 is too large for LAPACK");
  for (int i = 0; i < nops; i++)
    if ((checked[op] >> i & 1) && !all_finite(&c, &ops[i])) return fail(&c, LMERR_RAISE, MSG_NONFINITE);
  int32_t st;
  switch (op) {
    case LM_LA_SOLVE: st = la_solve(&c, ops); break;
    case LM_LA_INV: st = la_inv(&c, ops); break;
    case LM_LA_SLOGDET: st = la_slogdet(&c, ops); break;
    case LM_LA_CHOLESKY: st = la_cholesky(&c, ops); break;
    case LM_LA_EIG: st = la_eig(&c, ops, nops); break;
    case LM_LA_EIGH: st = la_eigh(&c, ops, nops); break;
    case LM_LA_SVD: st = la_svd(&c, ops, nops); break;
    case LM_LA_QR: st = la_qr(&c, ops); break;
    case LM_LA_LSTSQ: st = la_lstsq(&c, ops, sc, ret); break;
    default: st = fail(&c, LMERR_RAISE, "RuntimeError: np.linalg: unknown LAPACK operation");
  }
  for (int i = 0; i < c.ntmp; i++) free(c.tmp[i]);
  return st;
}
