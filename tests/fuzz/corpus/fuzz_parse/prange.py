import numpy as np
from numba import njit, prange

@njit(parallel=True, cache=True)
def sum_array(arr):
    """doc"""
    total = 0.0
    for i in prange(arr.shape[0]):
        total += arr[i]
    return total
