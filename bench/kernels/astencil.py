import numba as nb


@nb.njit
def astencil(u0, a, b, sweeps):
    a[:, :] = u0
    b[:, :] = u0
    for s in range(sweeps // 2):
        b[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
        a[1:-1, 1:-1] = 0.25 * (b[:-2, 1:-1] + b[2:, 1:-1] + b[1:-1, :-2] + b[1:-1, 2:])
