# Counting and binning: np.histogram, np.bincount, np.digitize, np.interp.


# np.linspace(lo, hi, n + 1) as NumPy computes it: i * step + lo, the last
# one hi itself; float64 whatever a's dtype (Numba's edges; NumPy gives
# float32 input float32 edges)
def _edges(a, lo, hi, n):
    e = np.empty(n + 1, np.float64)
    step = (hi - lo) / n
    for i in range(n):
        e[i] = i * step + lo
    e[n] = hi
    return e


# counts of a's values in n equal bins from lo to hi: the index from the
# scaled value t (times n / (hi - lo), as NumPy), then moved by one where
# rounding put it past an edge (NumPy's rule: each bin [e[i], e[i+1]), the
# last one closed). The edges are read only when t's fraction lies within
# `near` of a whole number: t and the edges are each off their exact bin
# positions by a few ulps of n and of (|lo| + |hi|) / width, so farther
# from an edge NumPy's checks cannot move k. Without the edge loads in the
# common path the count's address does not wait on them (2x faster).
def _count_equal(a, e, lo, hi, n):
    counts = np.zeros(n, np.int64)
    norm = n / (hi - lo)
    z = e[0] * 0
    last = n - 1
    near = 32 * 2.220446049250313e-16 * (n + (abs(lo) + abs(hi)) * norm)
    for i in range(a.size):
        x = _lumba.flat(a, i)
        if x >= lo and x <= hi:
            xe = x + z  # in the edges' dtype
            t = (xe - lo) * norm
            k = int(t)
            f = t - k
            if k > last or not (f > near and f < 1.0 - near):
                if k > last:
                    k = last
                if xe < e[k]:
                    k -= 1
                elif k < last and xe >= e[k + 1]:
                    k += 1
            counts[k] += 1
    return counts


# bins given as edges: the last edge <= x by bisection
def _count_edges(a, bins):
    n = bins.size - 1
    counts = np.zeros(n if n > 0 else 0, np.int64)
    for i in range(1, bins.size):
        if bins[i] < bins[i - 1]:
            raise ValueError("`bins` must increase monotonically, when an array")
    if n < 1:
        return counts
    lo = bins[0]
    hi = bins[n]
    for i in range(a.size):
        x = _lumba.flat(a, i)
        if x >= lo and x <= hi:
            if x == hi:
                k = _search(bins, x, 0) - 1
            else:
                k = _search(bins, x, 1) - 1
            if k >= n:
                k = n - 1
            counts[k] += 1
    return counts


def _hist_int(a, bins, lo, hi):
    if bins < 1:
        raise ValueError("`bins` must be positive, when an integer")
    if lo > hi:
        raise ValueError("max must be larger than min in range parameter.")
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise ValueError("supplied range is not finite")
    if lo == hi:
        lo = lo - 0.5
        hi = hi + 0.5
    e = _edges(a, lo, hi, bins)
    return _count_equal(a, e, e[0], e[bins], bins), e


def _hist_auto(a, bins):
    if a.size == 0:
        return _hist_int(a, bins, 0.0, 1.0)
    # a NaN makes both NaN (a.min() and a.max() propagate it, as NumPy's)
    lo = a.min() + 0.0
    hi = a.max() + 0.0
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise ValueError("autodetected range is not finite")
    return _hist_int(a, bins, lo, hi)


def np_histogram(a, bins=10, range=None):
    if _lumba.ndim(bins) == 0:
        if range is None:
            return _hist_auto(a, bins)
        return _hist_int(a, bins, range[0] + 0.0, range[1] + 0.0)
    if bins.ndim != 1:
        raise ValueError("`bins` must be 1d, when an array")
    return _count_edges(a, bins), bins.copy()


def np_bincount(x, weights=None, minlength=0):
    if x.ndim != 1:
        raise ValueError("object too deep for desired array")
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    if weights is not None:
        if weights.size != x.size:
            raise ValueError("The weights and list don't have the same length.")
    m = -1
    for i in range(x.size):
        v = x[i]
        if v < 0:
            raise ValueError("'list' argument must have no negative elements")
        if v > m:
            m = v
    n = max(m + 1, minlength)
    if weights is None:
        out = np.zeros(n, np.int64)
        for i in range(x.size):
            out[x[i]] += 1
        return out
    outw = np.zeros(n, np.float64)
    for i in range(x.size):
        outw[x[i]] += _lumba.flat(weights, i)
    return outw


# the bin of each x: increasing bins, i with bins[i-1] <= x < bins[i]
# (right=True: bins[i-1] < x <= bins[i]); decreasing ones the other way
def np_digitize(x, bins, right=False):
    if bins.ndim != 1:
        raise ValueError("object of too small depth for desired array")
    n = bins.size
    inc = True
    if n > 1 and bins[n - 1] < bins[0]:
        inc = False
    for i in range(1, n):
        if (inc and bins[i] < bins[i - 1]) or (not inc and bins[i] > bins[i - 1]):
            raise ValueError("bins must be monotonically increasing or decreasing")
    if _lumba.ndim(x) == 0:
        return _digit(x, bins, right, inc)
    out = _lumba.empty(x.shape, 0, "same")
    for i in range(x.size):
        _lumba.flat_set(out, i, _digit(_lumba.flat(x, i), bins, right, inc))
    return out


def _digit(v, bins, right, inc):
    n = bins.size
    if inc:
        if right:
            return _search(bins, v, 0)
        return _search(bins, v, 1)
    # decreasing: the count of bins above v (right: at or above)
    lo = 0
    hi = n
    while lo < hi:
        m = (lo + hi) >> 1
        if (right and not (bins[m] < v)) or (not right and bins[m] > v):
            lo = m + 1
        else:
            hi = m
    return lo


# NumPy's interp: the left and right values outside xp, else the line
# through the two points around x (the slope times x - xp[j], plus fp[j])
def _interp1(x, xp, fp):
    n = xp.size
    if x != x:
        return x + 0.0
    if x < xp[0]:
        return fp[0] + 0.0
    if x > xp[n - 1]:
        return fp[n - 1] + 0.0
    j = _search(xp, x, 1) - 1
    if j >= n - 1:
        return fp[n - 1] + 0.0
    if x == xp[j]:
        return fp[j] + 0.0
    slope = ((fp[j + 1] + 0.0) - fp[j]) / ((xp[j + 1] + 0.0) - xp[j])  # in floats: unsigned would wrap
    r = slope * (x - xp[j]) + fp[j]
    if r != r:  # an infinite slope: NumPy tries the other end
        r = slope * (x - xp[j + 1]) + fp[j + 1]
        if r != r and fp[j] == fp[j + 1]:
            r = fp[j] + 0.0
    return r


def np_interp(x, xp, fp):
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("object too deep for desired array")
    if xp.size != fp.size:
        raise ValueError("fp and xp are not of the same length.")
    if xp.size == 0:
        raise ValueError("array of sample points is empty")
    if _lumba.ndim(x) == 0:
        return _interp1(x, xp, fp)
    out = _lumba.empty(x.shape, 0.0, "same")
    for i in range(x.size):
        _lumba.flat_set(out, i, _interp1(_lumba.flat(x, i), xp, fp))
    return out
