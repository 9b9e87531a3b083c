import numpy as np
import numba as nb


@nb.njit
def aclip(x, lo, hi):
    return np.minimum(np.maximum(x, lo), hi)
