import math
import numba
from numba import prange


def lj_energy(cluster):
    n = cluster.shape[0]
    e = 0.0
    for i in prange(n - 1):
        for j in range(i + 1, n):
            e += pair_potential(distance(cluster[i], cluster[j]))
    return e


@numba.njit
def distance(a, b):
    s = 0.0
    for k in range(a.shape[0]):
        d = a[k] - b[k]
        s += d * d
    return math.sqrt(s)


@numba.njit
def pair_potential(r):
    s6 = (1.0 / r) ** 6
    return 4.0 * (s6 * s6 - s6)
