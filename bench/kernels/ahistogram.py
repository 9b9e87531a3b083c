import numpy as np
import numba as nb


@nb.njit
def ahistogram(x, nbins):
    counts, edges = np.histogram(x, nbins)
    return counts
