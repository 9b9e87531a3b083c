def checksum97(flat):
    """sum(flat[k] * (k % 97 + 1)) in index order, the check of the 2-D kernels."""
    total = 0.0
    for k in range(flat.shape[0]):
        total += flat[k] * (k % 97 + 1)
    return total
