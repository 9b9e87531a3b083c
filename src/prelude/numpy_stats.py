# Order statistics.


# puts b's k-th smallest at b[k], the smaller ones before it (Hoare's
# selection; b is 1-d, with no NaN)
def _select(b, k):
    lo = 0
    hi = b.size - 1
    while lo < hi:
        p = b[(lo + hi) // 2]
        i = lo
        j = hi
        while i <= j:
            while b[i] < p:
                i += 1
            while b[j] > p:
                j -= 1
            if i <= j:
                t = b[i]
                b[i] = b[j]
                b[j] = t
                i += 1
                j -= 1
        if k <= j:
            hi = j
        elif k >= i:
            lo = i
        else:
            lo = hi


def np_median(a):
    n = a.size
    if n == 0:
        return np.nan
    b = _lumba.empty(n, a, "mean")
    for i in range(n):
        v = _lumba.flat(a, i)
        if v != v:
            return np.nan
        b[i] = v
    h = n // 2
    _select(b, h)
    if n % 2 == 1:
        return b[h] + 0.0
    m = b[0]
    for i in range(1, h):
        if b[i] > m:
            m = b[i]
    return (m + b[h]) / 2


# the variance as NumPy computes it: the mean of the squared deviations from
# the mean, over n - ddof elements (a float64 sum; float32 gives float32). A
# division by zero gives inf, or nan for 0 / 0, as NumPy's does
def _var_div(s, d):
    if d > 0:
        return s / d
    if s > 0:
        return np.inf
    return np.nan


def np_var(a, axis=None, ddof=0):
    if axis is None or a.ndim <= 1:
        if axis is not None:
            _axis(axis, a.ndim)
        n = a.size
        s = 0.0
        for i in range(n):
            s += _lumba.flat(a, i)
        m = s / n if n else np.nan
        ss = 0.0
        for i in range(n):
            d = _lumba.flat(a, i) - m
            ss += d * d
        r = _lumba.empty(1, a, "mean")
        r[0] = _var_div(ss, n - ddof)
        return r[0]
    ax = _axis(axis, a.ndim)
    out = _lumba.empty(_lumba.shape_drop(a, ax), a, "mean")
    n = _lumba.dim(a, ax)
    inner = _inner(a, ax)
    m = np.zeros(out.size)
    _add_along(a, ax, m)
    for j in range(out.size):
        m[j] = m[j] / n if n else np.nan
    ss = np.zeros(out.size)
    for p in range(out.size // inner if inner else 0):
        for k in range(n):
            i = (p * n + k) * inner
            for j in range(p * inner, p * inner + inner):
                d = _lumba.flat(a, i) - m[j]
                ss[j] += d * d
                i += 1
    for j in range(out.size):
        _lumba.flat_set(out, j, _var_div(ss[j], n - ddof))
    return out


def np_std(a, axis=None, ddof=0):
    if axis is None or a.ndim <= 1:
        return np.sqrt(np_var(a, axis, ddof))
    v = np_var(a, axis, ddof)
    np.sqrt(v, v)
    return v


# quantiles by NumPy's default method ('linear'): the value at q * (n - 1)
# between its two neighbours in sorted order, in float64 as Numba computes
# them; any NaN gives NaN (skipnan: the NaNs are left out)
def _quantile(a, q, pct, skipnan):
    qa = np.asarray(q)
    for i in range(qa.size):
        x = _lumba.flat(qa, i)
        if not (x >= 0 and x <= 1):
            if pct:
                raise ValueError("Percentiles must be in the range [0, 100]")
            raise ValueError("Quantiles must be in the range [0, 1]")
    if a.size == 0 and not skipnan:
        raise IndexError("cannot do a non-empty take from an empty axes.")
    b = np.empty(a.size)
    n = 0
    nan = False
    for i in range(a.size):
        v = _lumba.flat(a, i)
        if v != v:
            nan = True
        else:
            b[n] = v
            n += 1
    if nan and not skipnan:
        n = 0
    if qa.ndim == 0:
        return _quantile_one(b[:n], _lumba.flat(qa, 0))
    out = np.empty(qa.shape)
    for i in range(qa.size):
        _lumba.flat_set(out, i, _quantile_one(b[:n], _lumba.flat(qa, i)))
    return out


# the q-th quantile of b, which it reorders (NaN when b is empty); NumPy's
# lerp, rounding as it does
def _quantile_one(b, q):
    n = b.size
    if n == 0:
        return np.nan
    v = q * (n - 1)
    lo = math.floor(v)
    if lo >= n - 1:
        lo = n - 1
    _select(b, lo)
    x = b[lo]
    y = x
    if lo < n - 1:
        y = b[lo + 1]
        for i in range(lo + 2, n):
            if b[i] < y:
                y = b[i]
    g = v - lo
    d = y - x
    if g >= 0.5:
        return y - d * (1 - g)
    return x + d * g


def np_percentile(a, q):
    return _quantile(a, np.asarray(q) / 100, True, False)


def np_quantile(a, q):
    return _quantile(a, q, False, False)
