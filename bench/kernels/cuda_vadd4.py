from numba import cuda

# Not the seed's kernel: the same work, four elements a thread a block apart
# (every load issued before the first store); launched with a quarter of the
# blocks.
@cuda.jit
def add_kernel4(x, y, out):
    n = x.shape[0]
    w = cuda.blockDim.x
    i = cuda.blockIdx.x * w * 4 + cuda.threadIdx.x
    if i + 3 * w < n:
        a0 = x[i] + y[i]
        a1 = x[i + w] + y[i + w]
        a2 = x[i + 2 * w] + y[i + 2 * w]
        a3 = x[i + 3 * w] + y[i + 3 * w]
        out[i] = a0
        out[i + w] = a1
        out[i + 2 * w] = a2
        out[i + 3 * w] = a3
    else:
        for k in range(4):
            j = i + k * w
            if j < n:
                out[j] = x[j] + y[j]
