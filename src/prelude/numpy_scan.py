# Cumulative sums and products (NumPy's accumulate of add and multiply):
# small integers and bools accumulate in 64 bits, as in NumPy.


def np_cumsum(a, axis=None):
    if axis is None:
        out = _lumba.empty(a.size, a, "sum")
        for i in range(a.size):
            if i == 0:
                _lumba.flat_set(out, 0, _lumba.flat(a, 0))
            else:
                _lumba.flat_set(out, i, _lumba.flat(out, i - 1) + _lumba.flat(a, i))
        return out
    ax = _axis(axis, a.ndim)
    out = _lumba.empty(a.shape, a, "sum")
    n = _lumba.dim(a, ax)
    inner = _inner(a, ax)
    for i in range(a.size):
        if (i // inner) % n == 0:
            _lumba.flat_set(out, i, _lumba.flat(a, i))
        else:
            _lumba.flat_set(out, i, _lumba.flat(out, i - inner) + _lumba.flat(a, i))
    return out


def np_cumprod(a, axis=None):
    if axis is None:
        out = _lumba.empty(a.size, a, "sum")
        for i in range(a.size):
            if i == 0:
                _lumba.flat_set(out, 0, _lumba.flat(a, 0))
            else:
                _lumba.flat_set(out, i, _lumba.flat(out, i - 1) * _lumba.flat(a, i))
        return out
    ax = _axis(axis, a.ndim)
    out = _lumba.empty(a.shape, a, "sum")
    n = _lumba.dim(a, ax)
    inner = _inner(a, ax)
    for i in range(a.size):
        if (i // inner) % n == 0:
            _lumba.flat_set(out, i, _lumba.flat(a, i))
        else:
            _lumba.flat_set(out, i, _lumba.flat(out, i - inner) * _lumba.flat(a, i))
    return out
