import numba as nb


@nb.njit
def afused(a, b, c, d, e):
    return a * b + c * d - e
