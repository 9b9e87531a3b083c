# The nan* reductions: NaNs left out (an all-NaN min or max is NaN). Dtypes
# as Numba gives them: nansum and nanprod widen as sum, nanmin and nanmax
# keep the array's dtype, nanmean, nanvar, nanstd and the order statistics
# give float64.


def np_nansum(a):
    s = _lumba.empty(1, a, "sum")
    s[0] = 0
    acc = s[0]
    for i in range(a.size):
        v = _lumba.flat(a, i)
        if v == v:
            acc = acc + v
    return acc


def np_nanprod(a):
    s = _lumba.empty(1, a, "sum")
    s[0] = 1
    acc = s[0]
    for i in range(a.size):
        v = _lumba.flat(a, i)
        if v == v:
            acc = acc * v
    return acc


def _nanext(a, big):
    if a.size == 0:
        if big:
            raise ValueError("zero-size array to reduction operation fmax which has no identity")
        raise ValueError("zero-size array to reduction operation fmin which has no identity")
    # with no NaN in a (the usual case) its min or max is the answer, and
    # those are vectorised; a NaN there sends the search through the loop
    if big:
        r = a.max()
    else:
        r = a.min()
    if r == r:
        return r
    r = _lumba.flat(a, 0)
    for i in range(1, a.size):
        v = _lumba.flat(a, i)
        if r != r or (big and v > r) or (not big and v < r):
            r = v
    return r


def np_nanmax(a):
    return _nanext(a, True)


def np_nanmin(a):
    return _nanext(a, False)


def np_nanmean(a):
    s = 0.0
    c = 0
    for i in range(a.size):
        v = _lumba.flat(a, i)
        if v == v:
            s += v
            c += 1
    if c == 0:
        return np.nan
    return s / c


# NumPy's nanvar: no elements left (n - ddof <= 0) gives NaN
def np_nanvar(a, ddof=0):
    m = np_nanmean(a)
    ss = 0.0
    c = 0
    for i in range(a.size):
        v = _lumba.flat(a, i)
        if v == v:
            d = v - m
            ss += d * d
            c += 1
    if c - ddof <= 0:
        return np.nan
    return ss / (c - ddof)


def np_nanstd(a, ddof=0):
    return math.sqrt(np_nanvar(a, ddof))


def np_nanmedian(a):
    b = np.empty(a.size)
    n = 0
    for i in range(a.size):
        v = _lumba.flat(a, i)
        if v == v:
            b[n] = v
            n += 1
    if n == 0:
        return np.nan
    return np_median(b[:n])


def np_nanpercentile(a, q):
    return _quantile(a, np.asarray(q) / 100, True, True)


def np_nanquantile(a, q):
    return _quantile(a, q, False, True)
