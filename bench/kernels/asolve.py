import numpy as np
import numba as nb


# np.linalg.solve through LAPACK's dgesv (lumba: lapack_rt.c; Numba: SciPy's LAPACK)
@nb.njit
def asolve(a, b, x):
    x[:] = np.linalg.solve(a, b)
