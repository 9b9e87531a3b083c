# A Numba module as its users write it, loaded verbatim by lumba.load
# (README.md's tour, docs/api.md): imports, decorators, a module constant,
# functions that call each other.
import numpy as np
from numba import njit, prange

SCALE = 0.5


@njit(cache=True)
def total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


@njit
def scaled(a):
    return SCALE * a


@njit(parallel=True)
def row_norms(m):
    out = np.empty(m.shape[0])
    for i in prange(m.shape[0]):
        out[i] = np.sqrt(np.sum(m[i, :] ** 2))
    return out


@njit
def mean_of_scaled(a):
    return total(scaled(a)) / a.shape[0]
