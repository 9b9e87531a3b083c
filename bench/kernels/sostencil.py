import numba as nb


@nb.njit
def sostencil(u0, a, b, sweeps):
    a[:, :] = u0
    b[:, :] = u0
    for s in range(sweeps // 2):
        five(a, out=b)
        five(b, out=a)


@nb.stencil
def five(a):
    return 0.25 * (a[-1, 0] + a[1, 0] + a[0, -1] + a[0, 1])
