def histogram(x, bins):
    nb = bins.shape[0]
    for k in range(nb):
        bins[k] = 0
    for i in range(x.shape[0]):
        bins[x[i] % nb] += 1
