def pow6_sum(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += (1.0 / (x[i] + 0.5)) ** 6
    return s
