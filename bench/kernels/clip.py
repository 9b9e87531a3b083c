import numpy as np


def clip(x, lo, hi):
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        v = x[i] if x[i] > lo else lo
        out[i] = v if v < hi else hi
    return out
