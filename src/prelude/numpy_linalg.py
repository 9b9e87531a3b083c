# np.linalg, np.cov and np.corrcoef, as Numba's numba/np/linalg.py and
# arraymath.py have them: the same checks, messages, shapes and result
# dtypes. LAPACK's work is _lumba.lapack(op, ...) (builtin_lapack.c,
# lapack_rt.h), op one of LmLapackOp: 0 solve, 1 inv, 2 slogdet,
# 3 cholesky, 4 eig, 5 eigh, 6 svd, 7 qr, 8 lstsq; and the typing checks,
# which compute nothing: 100 a is a 2-D float or complex array, 101 a 1-D
# or 2-D one, 102 a and b have one dtype. Complex arrays give what Numba's
# do: w of eigh, s of svd/lstsq, lstsq's residuals and every norm of the
# real type (_lumba.empty's "real" rule), slogdet a complex128 sign.


def _square(a):
    if a.shape[0] != a.shape[1]:
        raise np.linalg.LinAlgError("Last 2 dimensions of the array must be square.")


def _system_valid(a, b):
    if b.shape[0] != a.shape[0]:
        raise np.linalg.LinAlgError("Incompatible array sizes, system is not dimensionally valid.")


def np_linalg_inv(a):
    _lumba.lapack(100, a)
    _square(a)
    out = _lumba.empty((a.shape[0], a.shape[1]), a, "same")
    _lumba.lapack(1, a, out)
    return out


def np_linalg_solve(a, b):
    _lumba.lapack(100, a)
    _lumba.lapack(101, b)
    _lumba.lapack(102, a, b)
    _square(a)
    _system_valid(a, b)
    x = _lumba.empty(b.shape, b, "same")
    _lumba.lapack(0, a, b, x)
    return x


def np_linalg_slogdet(a):
    _lumba.lapack(100, a)
    _square(a)
    r = _lumba.empty(2, a, "wide")
    _lumba.lapack(2, a, r)
    return (r[0], r[1].real)


def np_linalg_det(a):
    _lumba.lapack(100, a)
    r = np_linalg_slogdet(a)
    return r[0] * np.exp(r[1])


def np_linalg_cholesky(a):
    _lumba.lapack(100, a)
    _square(a)
    out = _lumba.empty((a.shape[0], a.shape[1]), a, "same")
    _lumba.lapack(3, a, out)
    return out


def np_linalg_eig(a):
    _lumba.lapack(100, a)
    _square(a)
    n = a.shape[0]
    w = _lumba.empty(n, a, "same")
    v = _lumba.empty((n, n), a, "same")
    _lumba.lapack(4, a, w, v)
    return (w, v)


def np_linalg_eigvals(a):
    _lumba.lapack(100, a)
    _square(a)
    w = _lumba.empty(a.shape[0], a, "same")
    _lumba.lapack(4, a, w)
    return w


def np_linalg_eigh(a):
    _lumba.lapack(100, a)
    _square(a)
    n = a.shape[0]
    w = _lumba.empty(n, a, "real")
    v = _lumba.empty((n, n), a, "same")
    _lumba.lapack(5, a, w, v)
    return (w, v)


def np_linalg_eigvalsh(a):
    _lumba.lapack(100, a)
    _square(a)
    w = _lumba.empty(a.shape[0], a, "real")
    _lumba.lapack(5, a, w)
    return w


def _not_empty(a):
    if a.shape[0] == 0 or a.shape[1] == 0:
        raise np.linalg.LinAlgError("Arrays cannot be empty")


# compute_uv: None (True, builtin_prelude.c's literal_flag) or False
def np_linalg_svd(a, full_matrices=True, compute_uv=None):
    _lumba.lapack(100, a)
    if compute_uv is not None:
        return _singular_values(a)
    _not_empty(a)
    m = a.shape[0]
    n = a.shape[1]
    k = min(m, n)
    uc = k
    vr = k
    if full_matrices:
        uc = m
        vr = n
    u = _lumba.empty((m, uc), a, "same")
    s = _lumba.empty(k, a, "real")
    vt = _lumba.empty((vr, n), a, "same")
    _lumba.lapack(6, a, s, u, vt)
    return (u, s, vt)


# the singular values alone (norm, cond, matrix_rank)
def _singular_values(a):
    _not_empty(a)
    s = _lumba.empty(min(a.shape[0], a.shape[1]), a, "real")
    _lumba.lapack(6, a, s)
    return s


def np_linalg_qr(a):
    _lumba.lapack(100, a)
    _not_empty(a)
    m = a.shape[0]
    n = a.shape[1]
    k = min(m, n)
    q = _lumba.empty((m, k), a, "same")
    r = _lumba.empty((k, n), a, "same")
    _lumba.lapack(7, a, q, r)
    return (q, r)


def np_linalg_lstsq(a, b, rcond=-1.0):
    _lumba.lapack(100, a)
    _lumba.lapack(101, b)
    _lumba.lapack(102, a, b)
    m = a.shape[0]
    n = a.shape[1]
    nrhs = 1
    if b.ndim == 2:
        nrhs = _lumba.dim(b, 1)
    if m == 0 or n == 0 or b.shape[0] == 0 or nrhs == 0:
        raise np.linalg.LinAlgError("Arrays cannot be empty")
    _system_valid(a, b)
    if b.ndim == 1:
        x = _lumba.empty(n, a, "same")
    else:
        x = _lumba.empty((n, nrhs), a, "same")
    res = _lumba.empty(nrhs, a, "real")
    s = _lumba.empty(min(m, n), a, "real")
    rank = int(_lumba.lapack(8, a, b, x, res, s, rcond))
    if rank < n or m <= n:
        res = res[:0]
    return (x, res, np.int32(rank), s)


# (Numba's: the singular values of a, those under rcond * the largest cut,
# v s^-1 u^H by BLAS)
def np_linalg_pinv(a, rcond=1e-15):
    _lumba.lapack(100, a)
    m = a.shape[0]
    n = a.shape[1]
    if m == 0 or n == 0:
        return _lumba.empty((n, m), a, "same")
    k = min(m, n)
    u = _lumba.empty((m, k), a, "same")
    s = _lumba.empty(k, a, "real")
    vt = _lumba.empty((k, n), a, "same")
    _lumba.lapack(6, a, s, u, vt)
    cut = s[0] * rcond
    keep = 0
    for i in range(k):
        if s[i] > cut:
            s[i] = 1.0 / s[i]
            keep = i + 1
    return (np.conj(vt[:keep]).T * s[:keep]) @ np.conj(u[:, :keep]).T


# ---- norms, cond, matrix_rank, matrix_power: no LAPACK of their own ----

def _norm_2(a):
    s = 0.0
    for i in range(a.size):
        v = _lumba.flat(a, i)
        s += v.real * v.real + v.imag * v.imag
    return np.sqrt(s)


# ord 'fro' and 'nuc' arrive as these numbers (builtin_prelude.c's string_args)
def _norm_vector(a, ord):
    n = a.shape[0]
    if n == 0:
        return 0.0
    if ord == 7.25e307 or ord == 7.5e307:
        raise ValueError("Invalid norm order for vectors.")
    if ord == 2:
        return _norm_2(a)
    if ord == np.inf:
        r = 0.0
        for k in range(n):
            r = max(r, abs(a[k]) + 0.0)
        return r
    if ord == -np.inf:
        r = np.inf
        for k in range(n):
            r = min(r, abs(a[k]) + 0.0)
        return r
    if ord == 0:
        r = 0.0
        for k in range(n):
            if a[k] != 0:
                r += 1.0
        return r
    if ord == 1:
        r = 0.0
        for k in range(n):
            r += abs(a[k])
        return r
    r = 0.0
    for k in range(n):
        r += abs(a[k] + 0.0) ** ord
    return r ** (1.0 / ord)


# the largest (big) or smallest sum of |a| along rows (axis 1) or columns
def _norm_sums(a, axis, big):
    m = a.shape[0]
    n = a.shape[1]
    r = 0.0 if big else np.inf
    outer = m if axis == 1 else n
    inner = n if axis == 1 else m
    for i in range(outer):
        t = 0.0
        for j in range(inner):
            if axis == 1:
                t += abs(a[i, j])
            else:
                t += abs(a[j, i])
        r = max(r, t) if big else min(r, t)
    return r


def _norm_matrix(a, ord):
    if a.size == 0:
        return 0.0
    if ord == np.inf:
        return _norm_sums(a, 1, True)
    if ord == -np.inf:
        return _norm_sums(a, 1, False)
    if ord == 1:
        return _norm_sums(a, 0, True)
    if ord == -1:
        return _norm_sums(a, 0, False)
    if ord == 2:
        return _singular_values(a)[0] + 0.0
    if ord == -2:
        s = _singular_values(a)
        return s[s.size - 1] + 0.0
    if ord == 7.25e307:
        return _norm_2(a)
    if ord == 7.5e307:
        return np.sum(_singular_values(a)) + 0.0
    raise ValueError("Invalid norm order for matrices.")


def np_linalg_norm(x, ord=None):
    _lumba.lapack(101, x)
    if ord is None:
        return _norm_2(x)
    if x.ndim == 1:
        return _norm_vector(x, ord)
    return _norm_matrix(x, ord)


def np_linalg_cond(x, p=None):
    _lumba.lapack(100, x)
    if p is None:
        s = _singular_values(x)
        r = s[0] / s[s.size - 1] + 0.0
    elif p == 2 or p == -2:
        s = _singular_values(x)
        if p == 2:
            r = s[0] / s[s.size - 1] + 0.0
        else:
            r = s[s.size - 1] / s[0] + 0.0
    else:
        r = _norm_matrix(x, p) * _norm_matrix(np_linalg_inv(x), p)
    if np.isnan(r):
        return np.inf
    return r


def np_linalg_matrix_rank(A, tol=None):
    _lumba.lapack(101, A)
    if A.ndim == 1:
        for k in range(A.shape[0]):
            if A[k] != 0:
                return 1
        return 0
    s = _singular_values(A)
    if tol is None:
        eps = 1.1920928955078125e-07 if s.itemsize == 4 else 2.220446049250313e-16  # np.finfo(s.dtype).eps
        t = s[0] * max(A.shape[0], A.shape[1]) * eps
    else:
        t = tol
    r = 0
    for k in range(s.size):
        if s[k] > t:
            r += 1
        else:
            break
    return r


def np_linalg_matrix_power(a, n):
    _lumba.lapack(100, a)
    if n == 0:
        e = _lumba.empty((a.shape[0], a.shape[1]), a, "same")
        e[:, :] = 0
        for k in range(a.shape[0]):
            e[k, k] = 1
        return e
    if a.shape[0] != a.shape[1]:
        raise ValueError("input must be a square array")
    if a.shape[0] == 0:
        return a.copy()
    p = n
    if n < 0:
        b = np_linalg_inv(a)
        p = -n
    else:
        b = a.copy()
    # binary powering: r = b ** p
    r = b
    first = True
    while p != 0:
        if p & 1:
            if first:
                r = b
                first = False
            else:
                r = r @ b
        p = p >> 1
        if p != 0:
            b = b @ b
    return r.copy()


# ---- np.cov, np.corrcoef (float64, as Numba's) ----

# m's variables as float64 rows (rows0 of them first), X's columns its observations
def _cov_fill(X, m, rows0, rowvar):
    r = X.shape[0] - rows0 if rows0 >= 0 else 0
    c = X.shape[1]
    for i in range(r):
        for j in range(c):
            if m.ndim == 1:
                X[rows0 + i, j] = _lumba.flat(m, j)
            elif rowvar:
                X[rows0 + i, j] = _lumba.flat(m, i * c + j)
            else:
                X[rows0 + i, j] = _lumba.flat(m, j * r + i)


# the rows and columns m gives X (Numba: y's (1, n) is never transposed)
def _cov_shape(m, rowvar, single_stays):
    if m.ndim == 1:
        return (1, m.shape[0])
    r = _lumba.dim(m, 0)
    c = _lumba.dim(m, 1)
    if not rowvar and not (single_stays and r == 1):
        return (c, r)
    return (r, c)


def _cov(X, d):
    p = X.shape[0]
    nobs = X.shape[1]
    if p == 0 or nobs == 0:
        c = np.empty((p, p))
        c[:, :] = np.nan
        return c
    fact = max(nobs - d, 0.0)
    for i in range(p):
        s = 0.0
        for j in range(nobs):
            s += X[i, j]
        s = s / nobs
        for j in range(nobs):
            X[i, j] -= s
    c = X @ X.T
    c *= np.true_divide(1, fact)
    return c


def np_cov(m, y=None, rowvar=True, bias=False, ddof=None):
    if m.ndim > 2:
        raise TypeError("m has more than 2 dimensions")
    if m.ndim == 2:
        if _lumba.dim(m, 0) == 1:
            raise RuntimeError("2D array containing a single row is unsupported due to ambiguity in type inference. To use numpy.cov in this case simply pass the row as a 1D array, i.e. m[0].")
    d = 0 if bias else 1
    if ddof is not None:
        d = ddof
    if y is None:
        ms = _cov_shape(m, rowvar, False)
        X = np.empty(ms)
        _cov_fill(X, m, 0, rowvar)
        c = _cov(X, d)
        if m.ndim == 1:
            return np.array(c[0, 0])
        return c
    ms = _cov_shape(m, rowvar, True)
    ys = _cov_shape(y, rowvar, True)
    if ms[1] != ys[1]:
        raise ValueError("m and y have incompatible dimensions")
    X = np.empty((ms[0] + ys[0], ms[1]))
    _cov_fill(X[:ms[0]], m, 0, rowvar or ms[0] == 1)
    _cov_fill(X, y, ms[0], rowvar or ys[0] == 1)
    return _cov(X, d)


def np_corrcoef(x, y=None, rowvar=True):
    c = np_cov(x, y, rowvar)
    if x.ndim == 1 and y is None:
        return c / c
    n = c.shape[0]
    d = np.empty(n)
    for i in range(n):
        d[i] = np.sqrt(c[i, i])
    for i in range(n):
        for j in range(n):
            v = c[i, j] / d[i] / d[j]
            if v > 1:
                v = 1.0
            elif v < -1:
                v = -1.0
            c[i, j] = v
    return c
