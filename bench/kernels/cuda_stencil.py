from numba import cuda

@cuda.jit
def stencil_sweep(a, b):
    j, i = cuda.grid(2)
    if i >= 1 and i < a.shape[0] - 1 and j >= 1 and j < a.shape[1] - 1:
        b[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])
