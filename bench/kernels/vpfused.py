from numba import vectorize


@vectorize(["float64(float64, float64, float64, float64, float64)"], target="parallel")
def vpfused(a, b, c, d, e):
    return a * b + c * d - e
