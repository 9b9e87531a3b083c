from numba import vectorize


@vectorize(["float64(float64, float64, float64, float64, float64)"])
def vfused(a, b, c, d, e):
    return a * b + c * d - e
