import numpy as np
from numba import prange

def mc_pi(n):
    hits = 0
    for i in prange(n):
        x = np.random.random()
        y = np.random.random()
        if x * x + y * y < 1.0:
            hits += 1
    return 4.0 * hits / n
