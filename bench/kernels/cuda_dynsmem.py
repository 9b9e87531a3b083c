import numpy as np
from numba import cuda


# a 3-point average through a tile of the launch's dynamic shared memory
# (blockDim + 2 elements: the block's and a halo each side, clamped at the ends)
@cuda.jit
def smooth3(x, out):
    s = cuda.shared.array(0, np.float64)
    t = cuda.threadIdx.x
    n = x.shape[0]
    b0 = cuda.blockIdx.x * cuda.blockDim.x
    j = t
    while j < cuda.blockDim.x + 2:
        k = b0 + j - 1
        if k < 0:
            k = 0
        if k > n - 1:
            k = n - 1
        s[j] = x[k]
        j += cuda.blockDim.x
    cuda.syncthreads()
    i = b0 + t
    if i < n:
        out[i] = (s[t] + s[t + 1] + s[t + 2]) * (1.0 / 3.0)
