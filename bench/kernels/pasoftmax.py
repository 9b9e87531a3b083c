import numpy as np
import numba as nb
from numba import prange


@nb.njit
def pasoftmax(x):
    out = np.empty_like(x)
    for i in prange(x.shape[0]):
        row = x[i]
        e = np.exp(row - row.max())
        out[i] = e / e.sum()
    return out
