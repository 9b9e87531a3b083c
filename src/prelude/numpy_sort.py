# Sorting and searching: np.sort, a.sort, np.argsort, np.unique,
# np.searchsorted. NaNs sort last, as in NumPy: they are moved to the end of
# each run first, so the sorts below compare with a plain <.


# moves the NaNs of b's flat run lo..hi-1 to its end (idx along, if any);
# returns where they start. Keeps the others' order and the NaNs' indices'
# order, so a stable sort stays stable. For integers v != v is false.
def _nan_last(b, lo, hi, idx=None):
    e = lo
    nn = 0
    if idx is not None:
        nan_idx = np.empty(hi - lo, np.int64)
    for i in range(lo, hi):
        v = _lumba.flat(b, i)
        if v != v:
            if idx is not None:
                nan_idx[nn] = _lumba.flat(idx, i)  # not yet overwritten: e <= i
            nn += 1
        else:
            if idx is not None:
                _lumba.flat_set(idx, e, _lumba.flat(idx, i))
            _lumba.flat_set(b, e, v)
            e += 1
    for i in range(e, hi):
        _lumba.flat_set(b, i, np.nan)
        if idx is not None:
            _lumba.flat_set(idx, i, nan_idx[i - e])
    return e


# insertion sort of b's run lo..hi-1 (idx along): stable
def _insertion(b, lo, hi, idx=None):
    for i in range(lo + 1, hi):
        v = _lumba.flat(b, i)
        if idx is not None:
            t = _lumba.flat(idx, i)
        j = i
        while j > lo and v < _lumba.flat(b, j - 1):
            _lumba.flat_set(b, j, _lumba.flat(b, j - 1))
            if idx is not None:
                _lumba.flat_set(idx, j, _lumba.flat(idx, j - 1))
            j -= 1
        _lumba.flat_set(b, j, v)
        if idx is not None:
            _lumba.flat_set(idx, j, t)


# quicksort of b's run lo..hi-1 (no NaN; idx along, if any): median of
# three, Hoare's partition with the outer two as sentinels, the smaller
# side first on an explicit stack, insertion sort below 16 elements
def _quicksort(b, lo, hi, idx=None):
    stack = np.empty(128, np.int64)
    stack[0] = lo
    stack[1] = hi
    sp = 2
    while sp > 0:
        sp -= 2
        l = stack[sp]
        h = stack[sp + 1]
        while h - l > 16:
            m = l + (h - l) // 2
            if _lumba.flat(b, m) < _lumba.flat(b, l):
                _swap(b, m, l, idx)
            if _lumba.flat(b, h - 1) < _lumba.flat(b, m):
                _swap(b, h - 1, m, idx)
                if _lumba.flat(b, m) < _lumba.flat(b, l):
                    _swap(b, m, l, idx)
            p = _lumba.flat(b, m)
            _swap(b, m, h - 2, idx)
            i = l
            j = h - 2
            while True:
                i += 1
                while _lumba.flat(b, i) < p:
                    i += 1
                j -= 1
                while p < _lumba.flat(b, j):
                    j -= 1
                if i >= j:
                    break
                _swap(b, i, j, idx)
            _swap(b, i, h - 2, idx)
            if i - l < h - i - 1:  # push the larger side, go on with the smaller
                stack[sp] = i + 1
                stack[sp + 1] = h
                h = i
            else:
                stack[sp] = l
                stack[sp + 1] = i
                l = i + 1
            sp += 2
        _insertion(b, l, h, idx)


def _swap(b, i, j, idx=None):
    t = _lumba.flat(b, i)
    _lumba.flat_set(b, i, _lumba.flat(b, j))
    _lumba.flat_set(b, j, t)
    if idx is not None:
        u = _lumba.flat(idx, i)
        _lumba.flat_set(idx, i, _lumba.flat(idx, j))
        _lumba.flat_set(idx, j, u)


# stable merge sort of the 1-d runs b[0:n], idx[0:n]: insertion-sorted runs
# of 16, then merges of doubling width between b and a scratch copy
def _mergesort(b, idx, n):
    w = 16
    for s in range(0, n, w):
        _insertion(b, s, min(s + w, n), idx)
    if n <= w:
        return
    src = b
    dst = np.empty_like(b)
    isrc = idx
    idst = np.empty_like(idx)
    in_b = True
    while w < n:
        for s in range(0, n, 2 * w):
            m = min(s + w, n)
            e = min(s + 2 * w, n)
            i = s
            j = m
            for k in range(s, e):
                if j >= e or (i < m and not (src[j] < src[i])):
                    dst[k] = src[i]
                    idst[k] = isrc[i]
                    i += 1
                else:
                    dst[k] = src[j]
                    idst[k] = isrc[j]
                    j += 1
        t = src
        src = dst
        dst = t
        it = isrc
        isrc = idst
        idst = it
        in_b = not in_b
        w *= 2
    if not in_b:
        for k in range(n):
            b[k] = src[k]
            idx[k] = isrc[k]


def _sort_run(b, lo, hi):
    e = _nan_last(b, lo, hi)
    _quicksort(b, lo, e)


# sorts out (C order, a new array) along axis ax: a run of n in place
# when ax is the last axis, else each fiber through a scratch buffer
def _sort_axis(out, ax):
    n = _lumba.dim(out, ax)
    inner = _inner(out, ax)
    if n <= 1:
        return
    if inner == 1:
        for p in range(out.size // n):
            _sort_run(out, p * n, p * n + n)
        return
    buf = _lumba.empty(n, out, "same")
    for p in range(out.size // (n * inner)):
        for j in range(inner):
            base = p * n * inner + j
            for k in range(n):
                buf[k] = _lumba.flat(out, base + k * inner)
            _sort_run(buf, 0, n)
            for k in range(n):
                _lumba.flat_set(out, base + k * inner, buf[k])


# a's elements, flattened and sorted
def _sort_flat(a):
    out = _lumba.empty(a.size, a, "same")
    for i in range(a.size):
        out[i] = _lumba.flat(a, i)
    _sort_run(out, 0, out.size)
    return out


def np_sort(a, axis=-1, kind="quicksort"):
    if a.ndim == 0:
        raise AxisError("axis is out of bounds for the array's dimension")
    ax = _axis(axis, a.ndim)
    out = _lumba.empty(a.shape, a, "same")
    for i in range(a.size):
        _lumba.flat_set(out, i, _lumba.flat(a, i))
    _sort_axis(out, ax)
    return out


# a.sort(): in place, along the last axis by default
def nd_sort(a, axis=-1, kind="quicksort"):
    if a.ndim == 0:
        raise AxisError("axis is out of bounds for the array's dimension")
    ax = _axis(axis, a.ndim)
    if a.ndim == 1:
        _sort_run(a, 0, a.size)
        return None
    s = np_sort(a, ax, 0)
    for i in range(a.size):
        _lumba.flat_set(a, i, _lumba.flat(s, i))
    return None


# argsort of one fiber: keys copied to kb, their positions to ib
def _argsort_run(kb, ib, n, kind):
    e = _nan_last(kb, 0, n, ib)
    if kind == 1 or kind == 3:  # "mergesort", "stable"
        _mergesort(kb, ib, e)
    else:
        _quicksort(kb, 0, e, ib)


def np_argsort(a, axis=-1, kind="quicksort"):
    if axis is None:
        n = a.size
        out = _lumba.empty(n, 0, "same")
        kb = _lumba.empty(n, a, "same")
        for i in range(n):
            kb[i] = _lumba.flat(a, i)
            out[i] = i
        _argsort_run(kb, out, n, kind)
        return out
    if a.ndim == 0:
        raise AxisError("axis is out of bounds for the array's dimension")
    ax = _axis(axis, a.ndim)
    out = _lumba.empty(a.shape, 0, "same")
    n = _lumba.dim(a, ax)
    inner = _inner(a, ax)
    kb = _lumba.empty(n, a, "same")
    ib = _lumba.empty(n, 0, "same")
    for p in range(a.size // (n * inner) if n * inner else 0):
        for j in range(inner):
            base = p * n * inner + j
            for k in range(n):
                kb[k] = _lumba.flat(a, base + k * inner)
                ib[k] = k
            _argsort_run(kb, ib, n, kind)
            for k in range(n):
                _lumba.flat_set(out, base + k * inner, ib[k])
    return out


def nd_argsort(a, axis=-1, kind="quicksort"):
    return np_argsort(a, axis, kind)


# the sorted distinct values, flattened; one NaN for all of them (NumPy's equal_nan)
def np_unique(ar):
    s = _sort_flat(ar)
    n = s.size
    out = _lumba.empty(n, ar, "same")
    k = 0
    for i in range(n):
        v = s[i]
        if i == 0 or v != s[i - 1]:
            if v != v and k > 0 and out[k - 1] != out[k - 1]:
                continue
            out[k] = v
            k += 1
    return out[:k].copy()


# NumPy's order: a NaN after everything
def _lt(x, y):
    return x < y or (y != y and x == x)


# the insertion point of v in the sorted 1-d a; side 0 "left", 1 "right"
def _search(a, v, side):
    lo = 0
    hi = a.size
    while lo < hi:
        m = (lo + hi) >> 1
        if side == 0:
            go_right = _lt(a[m], v)
        else:
            go_right = not _lt(v, a[m])
        if go_right:
            lo = m + 1
        else:
            hi = m
    return lo


def np_searchsorted(a, v, side="left"):
    if a.ndim != 1:
        raise ValueError("object too deep for desired array")
    if _lumba.ndim(v) == 0:
        return _search(a, v, side)
    out = _lumba.empty(v.shape, 0, "same")
    for i in range(v.size):
        _lumba.flat_set(out, i, _search(a, _lumba.flat(v, i), side))
    return out
