from numba import cfunc


@cfunc("float64(float64, float64)")
def rhs(t, y):
    return t - 0.5 * y
