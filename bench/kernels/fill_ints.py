def fill_ints(out, seed):
    """out[k] = s_{k+1}, the MINSTD stream s' = s * 48271 % (2**31 - 1) itself."""
    s = seed
    for k in range(out.shape[0]):
        s = s * 48271 % 2147483647
        out[k] = s
    return s
