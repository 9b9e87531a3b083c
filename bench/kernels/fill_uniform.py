def fill_uniform(out, seed):
    """out[k] = s_{k+1} / (2**31 - 1) with MINSTD s' = s * 48271 % (2**31 - 1)."""
    s = seed
    for k in range(out.shape[0]):
        s = s * 48271 % 2147483647
        out[k] = s / 2147483647.0
    return s
