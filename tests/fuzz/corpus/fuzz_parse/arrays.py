def g(a):
    a[0, 1] += a[:, 1].sum() * np.sqrt(math.pi) | 3 & ~4 ^ 5 << 1 >> 2
    x: int = 5
    return a.shape, len(a), abs(-1), min(1, 2), max(3.0, 4)
