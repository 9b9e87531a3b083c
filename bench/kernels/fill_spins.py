def fill_spins(out, seed):
    """out[i, j] = +1.0 or -1.0 from the MINSTD stream, row-major."""
    s = seed
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            s = s * 48271 % 2147483647
            if s >= 1073741824:
                out[i, j] = 1.0
            else:
                out[i, j] = -1.0
    return s
