import numpy as np


# a x = b by Gaussian elimination with partial pivoting, written as loops
# (the row's "lumba loops" figure, against LAPACK's blocked dgesv)
def solve(a, b, x):
    n = a.shape[0]
    m = a.copy()
    for i in range(n):
        x[i] = b[i]
    for k in range(n):
        p = k
        for i in range(k + 1, n):
            if abs(m[i, k]) > abs(m[p, k]):
                p = i
        if p != k:
            for j in range(n):
                t = m[k, j]
                m[k, j] = m[p, j]
                m[p, j] = t
            t = x[k]
            x[k] = x[p]
            x[p] = t
        for i in range(k + 1, n):
            f = m[i, k] / m[k, k]
            for j in range(k + 1, n):
                m[i, j] -= f * m[k, j]
            x[i] -= f * x[k]
    for i in range(n - 1, -1, -1):
        s = x[i]
        for j in range(i + 1, n):
            s -= m[i, j] * x[j]
        x[i] = s / m[i, i]
