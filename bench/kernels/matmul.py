def matmul(a, b, c):
    n = a.shape[0]
    p = a.shape[1]
    m = b.shape[1]
    for i in range(n):
        for j in range(m):
            c[i, j] = 0.0
        for k in range(p):
            aik = a[i, k]
            for j in range(m):
                c[i, j] += aik * b[k, j]
