# The NumPy prelude: NumPy functions written in the Python lumba compiles
# (src/builtin_prelude.c, docs/internals.md "The NumPy prelude"). A PYFUNC
# or PYMETHOD row of src/builtins.def names each def. Its names: these
# defs, the builtins, np, math, and _lumba (the intrinsics). An if on a
# compile-time test (a.ndim == 1, axis is None) types only its branch.


def _axis(axis, ndim):
    if axis < -ndim or axis >= ndim:
        raise AxisError("axis is out of bounds for the array's dimension")
    if axis < 0:
        return axis + ndim
    return axis


# the elements after axis ax in C order: a reduction over ax walks the
# input in C order as out.size // inner blocks of n rows of inner elements
def _inner(a, ax):
    m = 1
    for k in range(ax + 1, a.ndim):
        m *= _lumba.dim(a, k)
    return m


# Reductions along an axis are prange loops, parallel in a parallel=True
# caller (Numba's parfor of a reduction with axis), serial elsewhere. The
# work is cut into tiles of at most 512 outputs of one block p (outputs
# p * inner + c for c in [c0, c1)), and each output still sees the elements
# of its fiber in order k = 0, 1, ...: the result is the serial one.
def _ntiles(out, inner):
    if inner == 0:
        return 0
    return (out.size // inner) * ((inner + 511) // 512)


def _tile(t, inner):
    w = (inner + 511) // 512
    c0 = (t % w) * 512
    return t // w, c0, min(c0 + 512, inner)


# adds a's elements along axis ax into out (a's shape without ax, zeroed)
def _add_along(a, ax, out):
    n = _lumba.dim(a, ax)
    inner = _inner(a, ax)
    if inner == 1:  # the last axis: each output is one run of n elements
        for p in prange(out.size):
            acc = _lumba.flat(out, p)
            for i in range(p * n, p * n + n):
                acc = acc + _lumba.flat(a, i)
            _lumba.flat_set(out, p, acc)
    else:
        for t in prange(_ntiles(out, inner)):
            p, c0, c1 = _tile(t, inner)
            for k in range(n):
                i = (p * n + k) * inner + c0
                for j in range(p * inner + c0, p * inner + c1):
                    _lumba.flat_set(out, j, _lumba.flat(out, j) + _lumba.flat(a, i))
                    i += 1


def np_sum(a, axis=None):
    if axis is None:
        return a.sum()
    if a.ndim <= 1:
        _axis(axis, a.ndim)
        return a.sum()
    ax = _axis(axis, a.ndim)
    out = _lumba.empty(_lumba.shape_drop(a, ax), a, "sum")
    out.fill(0)
    _add_along(a, ax, out)
    return out


def np_prod(a, axis=None):
    if axis is None:
        return a.prod()
    if a.ndim <= 1:
        _axis(axis, a.ndim)
        return a.prod()
    ax = _axis(axis, a.ndim)
    out = _lumba.empty(_lumba.shape_drop(a, ax), a, "sum")
    out.fill(1)
    n = _lumba.dim(a, ax)
    inner = _inner(a, ax)
    if inner == 1:  # the last axis: each output is one run of n elements
        for p in prange(out.size):
            acc = _lumba.flat(out, p)
            for i in range(p * n, p * n + n):
                acc = acc * _lumba.flat(a, i)
            _lumba.flat_set(out, p, acc)
    else:
        for t in prange(_ntiles(out, inner)):
            p, c0, c1 = _tile(t, inner)
            for k in range(n):
                i = (p * n + k) * inner + c0
                for j in range(p * inner + c0, p * inner + c1):
                    _lumba.flat_set(out, j, _lumba.flat(out, j) * _lumba.flat(a, i))
                    i += 1
    return out


def np_mean(a, axis=None):
    if axis is None:
        return a.mean()
    if a.ndim <= 1:
        _axis(axis, a.ndim)
        return a.mean()
    ax = _axis(axis, a.ndim)
    out = _lumba.empty(_lumba.shape_drop(a, ax), a, "mean")
    out.fill(0)
    _add_along(a, ax, out)
    n = _lumba.dim(a, ax)
    for j in prange(out.size):
        if n == 0:
            _lumba.flat_set(out, j, np.nan)
        else:
            _lumba.flat_set(out, j, _lumba.flat(out, j) / n)
    return out


# min and max along an axis: the first element of each fiber, then NumPy's
# rule (a NaN wins)
def np_max(a, axis=None):
    if axis is None:
        return a.max()
    if a.ndim <= 1:
        _axis(axis, a.ndim)
        return a.max()
    ax = _axis(axis, a.ndim)
    n = _lumba.dim(a, ax)
    if n == 0:
        raise ValueError("zero-size array to reduction operation maximum which has no identity")
    out = _lumba.empty(_lumba.shape_drop(a, ax), a, "same")
    inner = _inner(a, ax)
    for t in prange(_ntiles(out, inner)):
        p, c0, c1 = _tile(t, inner)
        for k in range(n):
            i = (p * n + k) * inner + c0
            for j in range(p * inner + c0, p * inner + c1):
                v = _lumba.flat(a, i)
                if k == 0 or v > _lumba.flat(out, j) or v != v:
                    _lumba.flat_set(out, j, v)
                i += 1
    return out


def np_min(a, axis=None):
    if axis is None:
        return a.min()
    if a.ndim <= 1:
        _axis(axis, a.ndim)
        return a.min()
    ax = _axis(axis, a.ndim)
    n = _lumba.dim(a, ax)
    if n == 0:
        raise ValueError("zero-size array to reduction operation minimum which has no identity")
    out = _lumba.empty(_lumba.shape_drop(a, ax), a, "same")
    inner = _inner(a, ax)
    for t in prange(_ntiles(out, inner)):
        p, c0, c1 = _tile(t, inner)
        for k in range(n):
            i = (p * n + k) * inner + c0
            for j in range(p * inner + c0, p * inner + c1):
                v = _lumba.flat(a, i)
                if k == 0 or v < _lumba.flat(out, j) or v != v:
                    _lumba.flat_set(out, j, v)
                i += 1
    return out


def np_ptp(a, axis=None):
    if axis is None:
        return a.max() - a.min()
    if a.ndim <= 1:
        _axis(axis, a.ndim)
        return a.max() - a.min()
    return np_max(a, axis) - np_min(a, axis)


# argmin and argmax: the index of the first extreme; a NaN is the extreme
# (the first NaN's index), as in NumPy. big: argmax, else argmin
def _better(v, best, big):
    if best != best:
        return False
    if v != v:
        return True
    if big:
        return v > best
    return v < best


def _argext(a, big, axis=None):
    if axis is None or a.ndim <= 1:
        if axis is not None:
            _axis(axis, a.ndim)
        if a.size == 0:
            if big:
                raise ValueError("attempt to get argmax of an empty sequence")
            raise ValueError("attempt to get argmin of an empty sequence")
        k = 0
        best = _lumba.flat(a, 0)
        for i in range(1, a.size):
            v = _lumba.flat(a, i)
            if _better(v, best, big):
                best = v
                k = i
        return k
    ax = _axis(axis, a.ndim)
    n = _lumba.dim(a, ax)
    if n == 0:
        if big:
            raise ValueError("attempt to get argmax of an empty sequence")
        raise ValueError("attempt to get argmin of an empty sequence")
    shape = _lumba.shape_drop(a, ax)
    out = np.zeros(shape, np.int64)
    best = _lumba.empty(shape, a, "same")
    inner = _inner(a, ax)
    for t in prange(_ntiles(out, inner)):
        p, c0, c1 = _tile(t, inner)
        for k in range(n):
            i = (p * n + k) * inner + c0
            for j in range(p * inner + c0, p * inner + c1):
                v = _lumba.flat(a, i)
                if k == 0 or _better(v, _lumba.flat(best, j), big):
                    _lumba.flat_set(best, j, v)
                    _lumba.flat_set(out, j, k)
                i += 1
    return out


def np_argmax(a, axis=None):
    return _argext(a, True, axis)


def np_argmin(a, axis=None):
    return _argext(a, False, axis)


# all and any: every (some) element is nonzero; a NaN is nonzero. want: the
# answer unless an element says otherwise (True for all, False for any)
def _truth(a, want, axis=None):
    if axis is None or a.ndim <= 1:
        if axis is not None:
            _axis(axis, a.ndim)
        for i in range(a.size):
            t = _lumba.flat(a, i) != 0
            if t != want:
                return t
        return want
    ax = _axis(axis, a.ndim)
    n = _lumba.dim(a, ax)
    out = np.empty(_lumba.shape_drop(a, ax), np.bool_)
    out.fill(want)
    inner = _inner(a, ax)
    for t in prange(_ntiles(out, inner)):
        p, c0, c1 = _tile(t, inner)
        for k in range(n):
            i = (p * n + k) * inner + c0
            for j in range(p * inner + c0, p * inner + c1):
                if (_lumba.flat(a, i) != 0) != want:
                    _lumba.flat_set(out, j, not want)
                i += 1
    return out


def np_all(a, axis=None):
    return _truth(a, True, axis)


def np_any(a, axis=None):
    return _truth(a, False, axis)
