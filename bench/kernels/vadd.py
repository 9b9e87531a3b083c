def vadd(a, b, out):
    for i in range(a.shape[0]):
        out[i] = a[i] + b[i]
