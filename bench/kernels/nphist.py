import numpy as np


# np.histogram(x, nbins)[0] written as loops (NumPy's rule at the edges)
def nphist(x, nbins):
    lo = x[0]
    hi = x[0]
    for i in range(x.shape[0]):
        if x[i] < lo:
            lo = x[i]
        if x[i] > hi:
            hi = x[i]
    e = np.empty(nbins + 1)
    step = (hi - lo) / nbins
    for k in range(nbins):
        e[k] = k * step + lo
    e[nbins] = hi
    norm = nbins / (hi - lo)
    counts = np.zeros(nbins, np.int64)
    for i in range(x.shape[0]):
        v = x[i]
        if v >= lo and v <= hi:
            k = int((v - lo) * norm)
            if k > nbins - 1:
                k = nbins - 1
            if v < e[k]:
                k -= 1
            elif k < nbins - 1 and v >= e[k + 1]:
                k += 1
            counts[k] += 1
    return counts
