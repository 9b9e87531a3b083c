def total_energy(x, v, k):
    e = 0.0
    for i in range(x.shape[0]):
        e += 0.5 * k * x[i] * x[i] + 0.5 * v[i] * v[i]
    return e
