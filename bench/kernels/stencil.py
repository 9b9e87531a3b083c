def stencil(u0, a, b, sweeps):
    n = u0.shape[0]
    m = u0.shape[1]
    for i in range(n):
        for j in range(m):
            a[i, j] = u0[i, j]
            b[i, j] = u0[i, j]
    for s in range(sweeps // 2):
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                b[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                a[i, j] = 0.25 * (b[i - 1, j] + b[i + 1, j] + b[i, j - 1] + b[i, j + 1])
