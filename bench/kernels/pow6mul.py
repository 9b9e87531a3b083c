def pow6_mul_sum(x):
    s = 0.0
    for i in range(x.shape[0]):
        r = 1.0 / (x[i] + 0.5)
        r2 = r * r
        s += r2 * (r2 * r2)
    return s
