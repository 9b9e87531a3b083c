import numba
import numpy as np


def clip_with_helper(x, lo, hi):
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = clamp_at(x, i, lo, hi)
    return out


@numba.njit
def clamp_at(a, i, lo, hi):
    v = a[i] if a[i] > lo else lo
    return v if v < hi else hi
