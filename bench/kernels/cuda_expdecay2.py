import math
from numba import cuda

# Not the seed's kernel: the same work, two elements a thread a block apart
# (both loads issued before the first store), so that each thread keeps more
# bytes in flight; launched with half the blocks.
@cuda.jit
def exponential_decay_kernel2(x, out, tau, n):
    w = cuda.blockDim.x
    i = cuda.blockIdx.x * w * 2 + cuda.threadIdx.x
    if i + w < n:
        a = x[i]
        b = x[i + w]
        out[i] = math.exp(-a / tau)
        out[i + w] = math.exp(-b / tau)
    elif i < n:
        out[i] = math.exp(-x[i] / tau)
