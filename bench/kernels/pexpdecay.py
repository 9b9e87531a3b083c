import math
from numba import prange

def exp_decay_prange(x, out, tau):
    for i in prange(x.shape[0]):
        out[i] = math.exp(-x[i] / tau)
