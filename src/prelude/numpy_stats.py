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
