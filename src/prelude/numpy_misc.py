# Elementwise helpers and small numerics: np.clip, np.round on arrays,
# np.isclose, np.allclose, np.array_equal, np.trapz, np.convolve,
# np.correlate, np.cross.


# b broadcast against a's shape (b.ndim <= a.ndim, each of b's dims 1 or
# a's): raises NumPy's error otherwise
def _check_bcast(a, b):
    if b.ndim > a.ndim:
        raise ValueError("operands could not be broadcast together")
    for k in range(b.ndim):
        m = _lumba.dim(b, k)
        if m != 1 and m != _lumba.dim(a, a.ndim - b.ndim + k):
            raise ValueError("operands could not be broadcast together")


# b's element at a's C-order flat index i, b broadcast to a's shape
def _bcast_at(a, b, i):
    if b.ndim == 0:
        return b[()]
    if b.ndim == a.ndim and b.size == a.size:
        return _lumba.flat(b, i)
    j = 0
    mul = 1
    rem = i
    for k in range(a.ndim - 1, -1, -1):
        n = _lumba.dim(a, k)
        d = rem % n
        rem = rem // n
        kb = k - (a.ndim - b.ndim)
        if kb >= 0:
            m = _lumba.dim(b, kb)
            if m != 1:
                j += d * mul
            mul *= m
    return _lumba.flat(b, j)


def _val_at(a, v, i):
    if _lumba.ndim(v) == 0:
        return v
    return _bcast_at(a, v, i)


# NumPy's minimum and maximum: a NaN wins
def _clip1(x, lo=None, hi=None):
    if x != x:
        return x
    if lo is not None:
        if lo != lo:
            return lo
        if x < lo:
            x = lo
    if hi is not None:
        if hi != hi:
            return hi
        if x > hi:
            x = hi
    return x


def np_clip(a, a_min=None, a_max=None, out=None):
    if _lumba.ndim(a_min) > 0:
        _check_bcast(a, a_min)
    if _lumba.ndim(a_max) > 0:
        _check_bcast(a, a_max)
    if a_min is None and a_max is None:
        raise ValueError("array_clip: must set either max or min")
    if out is None:  # scalar bounds keep a's dtype (Numba's); arrays promote
        if _lumba.ndim(a_min) > 0 and _lumba.ndim(a_max) > 0:
            res = _lumba.empty(a.shape, (a, a_min, a_max), "same")
        elif _lumba.ndim(a_min) > 0:
            res = _lumba.empty(a.shape, (a, a_min), "same")
        elif _lumba.ndim(a_max) > 0:
            res = _lumba.empty(a.shape, (a, a_max), "same")
        else:
            res = _lumba.empty(a.shape, a, "same")
    else:
        res = out
    for i in range(a.size):
        x = _lumba.flat(a, i)
        if a_min is None:
            _lumba.flat_set(res, i, _clip1(x, None, _val_at(a, a_max, i)))
        elif a_max is None:
            _lumba.flat_set(res, i, _clip1(x, _val_at(a, a_min, i), None))
        else:
            _lumba.flat_set(res, i, _clip1(x, _val_at(a, a_min, i), _val_at(a, a_max, i)))
    return res


def nd_clip(a, min=None, max=None, out=None):
    return np_clip(a, min, max, out)


# NumPy's round: half to even (rint); decimals d scales by 10.0**d first
# (divides by 10.0**-d for d < 0), in the array's float dtype; integers
# stay integers (unchanged for d >= 0)
def np_round(a, decimals=0, out=None):
    if _lumba.ndim(a) == 0:  # np.round(x, n) of a number: Python's round, as before
        return round(a, decimals)
    if out is None:
        res = _lumba.empty(a.shape, a, "same")
    else:
        res = out
    kind = _lumba.empty(1, a, "same")  # 2.5 stored: 1 for bool, 2 for integers
    kind[0] = 2.5
    if kind[0] == 1:
        raise TypeError("np.round() of a bool array is not supported")
    f = 1.0
    for k in range(decimals if decimals > 0 else -decimals):
        f = f * 10.0
    fb = _lumba.empty(1, (a, 0.0), "same")  # f in the float dtype of the computation
    fb[0] = f
    ff = fb[0]
    if kind[0] == 2 and decimals >= 0:
        for i in range(a.size):
            _lumba.flat_set(res, i, _lumba.flat(a, i))
        return res
    for i in range(a.size):
        x = _lumba.flat(a, i)
        if decimals == 0:
            _lumba.flat_set(res, i, np.rint(x))
        elif decimals > 0:
            _lumba.flat_set(res, i, np.rint(x * ff) / ff)
        else:
            _lumba.flat_set(res, i, np.rint(x / ff) * ff)
    return res


def nd_round(a, decimals=0, out=None):
    return np_round(a, decimals, out)


# |a - b| <= atol + rtol * |b|, infinities equal only to themselves
def _close1(x, y, rtol, atol, equal_nan):
    if x != x or y != y:
        return equal_nan and x != x and y != y
    if x == y:
        return True
    if math.isinf(x + 0.0) or math.isinf(y + 0.0):
        return False
    return abs(x - y + 0.0) <= atol + rtol * abs(y + 0.0)


def np_isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    if _lumba.ndim(a) == 0 and _lumba.ndim(b) == 0:
        return _close1(a, b, rtol, atol, equal_nan)
    if _lumba.ndim(b) > _lumba.ndim(a):
        return _isclose_rev(a, b, rtol, atol, equal_nan)
    if _lumba.ndim(b) > 0:
        _check_bcast(a, b)
    out = _lumba.empty(a.shape, True, "same")
    for i in range(a.size):
        _lumba.flat_set(out, i, _close1(_lumba.flat(a, i), _val_at(a, b, i), rtol, atol, equal_nan))
    return out


# isclose(a, b) for b of more dims than a: b's shape, |b| still b's
def _isclose_rev(a, b, rtol, atol, equal_nan):
    if _lumba.ndim(a) > 0:
        _check_bcast(b, a)
    out = _lumba.empty(b.shape, True, "same")
    for i in range(b.size):
        _lumba.flat_set(out, i, _close1(_val_at(b, a, i), _lumba.flat(b, i), rtol, atol, equal_nan))
    return out


def np_allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    if _lumba.ndim(a) == 0 and _lumba.ndim(b) == 0:
        return _close1(a, b, rtol, atol, equal_nan)
    c = np_isclose(a, b, rtol, atol, equal_nan)
    for i in range(c.size):
        if not _lumba.flat(c, i):
            return False
    return True


def np_array_equal(a1, a2):
    if _lumba.ndim(a1) != _lumba.ndim(a2):
        return False
    if _lumba.ndim(a1) == 0:
        return a1 == a2
    for k in range(a1.ndim):
        if _lumba.dim(a1, k) != _lumba.dim(a2, k):
            return False
    for i in range(a1.size):
        if not (_lumba.flat(a1, i) == _lumba.flat(a2, i)):
            return False
    return True


# the trapezoidal rule along the last axis
def np_trapz(y, x=None, dx=1.0, axis=-1):
    if y.ndim != 1:
        raise ValueError("np.trapz() takes a 1-d y in compiled code")
    n = y.size
    acc = 0.0
    if x is None:
        for i in range(1, n):
            acc += (y[i] + y[i - 1] + 0.0) * dx / 2.0
        return acc
    if x.size != n:
        raise ValueError("operands could not be broadcast together")
    for i in range(1, n):
        acc += (x[i] - x[i - 1] + 0.0) * (y[i] + y[i - 1] + 0.0) / 2.0
    return acc


def _check_1d_pair(a, v):
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("object too deep for desired array")
    if a.size == 0:
        raise ValueError("a cannot be empty")
    if v.size == 0:
        raise ValueError("v cannot be empty")


# NumPy's correlation of big (n1 values) with small (n <= n1, reversed
# when rev): output k is lag st + k - (n - 1), the sum of big[lag + i] *
# small[i]; mode 0 "full" (n1 + n - 1 values), 1 "same" (n1, centred as
# NumPy: from lag -(n // 2)), 2 "valid" (n1 - n + 1); flip writes it reversed
def _corr(big, small, rev, flip, mode):
    n1 = big.size
    n = small.size
    if mode == 0:
        m = n1 + n - 1
        st = 0
    elif mode == 1:
        m = n1
        st = n - 1 - n // 2
    else:
        m = n1 - n + 1
        st = n - 1
    out = _lumba.empty(m, (big, small), "same")
    zb = _lumba.empty(1, (big, small), "same")
    zb[0] = 0
    z = zb[0]
    for k in range(m):
        lag = st + k - (n - 1)
        i0 = -lag if lag < 0 else 0
        i1 = n1 - lag if n1 - lag < n else n
        acc = z
        for i in range(i0, i1):
            if rev:
                acc += big[lag + i] * small[n - 1 - i]
            else:
                acc += big[lag + i] * small[i]
        if flip:
            out[m - 1 - k] = acc
        else:
            out[k] = acc
    return out


# convolution of 1-d a and v: the correlation of the longer with the
# shorter reversed
def np_convolve(a, v, mode="full"):
    _check_1d_pair(a, v)
    if v.size > a.size:
        return _corr(v, a, True, False, mode)
    return _corr(a, v, True, False, mode)


# correlation (default "valid"); NumPy swaps the two and reverses the
# result when v is the longer
def np_correlate(a, v, mode="valid"):
    _check_1d_pair(a, v)
    if v.size > a.size:
        return _corr(v, a, False, True, mode)
    return _corr(a, v, False, False, mode)


# cross products of 3-vectors along the last axis, broadcast
def np_cross(a, b):
    if _lumba.dim(a, a.ndim - 1) != 3 or _lumba.dim(b, b.ndim - 1) != 3:
        raise ValueError("incompatible dimensions for cross product (dimension must be 3)")
    if a.ndim == 1 and b.ndim == 1:
        out = _lumba.empty(3, (a, b), "same")
        out[0] = a[1] * b[2] - a[2] * b[1]
        out[1] = a[2] * b[0] - a[0] * b[2]
        out[2] = a[0] * b[1] - a[1] * b[0]
        return out
    if b.ndim > a.ndim:
        big = b
    else:
        big = a
    _check_bcast(big, a)
    _check_bcast(big, b)
    out = _lumba.empty(big.shape, (a, b), "same")
    for p in range(big.size // 3):
        i = p * 3
        a0 = _bcast_at(big, a, i)
        a1 = _bcast_at(big, a, i + 1)
        a2 = _bcast_at(big, a, i + 2)
        b0 = _bcast_at(big, b, i)
        b1 = _bcast_at(big, b, i + 1)
        b2 = _bcast_at(big, b, i + 2)
        _lumba.flat_set(out, i, a1 * b2 - a2 * b1)
        _lumba.flat_set(out, i + 1, a2 * b0 - a0 * b2)
        _lumba.flat_set(out, i + 2, a0 * b1 - a1 * b0)
    return out
