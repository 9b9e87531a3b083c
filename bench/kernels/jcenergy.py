import numpy as np
from numba import njit, float64
from numba.experimental import jitclass


@jitclass([('x', float64[:]), ('v', float64[:]), ('k', float64)])
class Springs(object):
    def __init__(self, x, v, k):
        self.x = x
        self.v = v
        self.k = k

    def energy_at(self, i):
        return 0.5 * self.k * self.x[i] * self.x[i] + 0.5 * self.v[i] * self.v[i]


@njit
def total_energy(s):
    e = 0.0
    for i in range(s.x.shape[0]):
        e += s.energy_at(i)
    return e
