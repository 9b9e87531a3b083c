import numpy as np
import numba as nb


@nb.njit
def asoftmax(x):
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        row = x[i]
        e = np.exp(row - row.max())
        out[i] = e / e.sum()
    return out
