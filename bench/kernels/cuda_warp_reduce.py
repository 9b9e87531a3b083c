import numpy as np
from numba import cuda

WARPS = 8  # warps of a 256-thread block


# the sum of x: grid-stride partial sums, folded within each warp by
# shfl_down_sync, the warps' sums through shared memory by the first warp,
# whose lane 0 adds the block's sum to out[0]
@cuda.jit
def warp_reduce(x, out):
    s = cuda.shared.array(WARPS, np.float64)
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    acc = 0.0
    while i < x.shape[0]:
        acc += x[i]
        i += stride
    lane = cuda.threadIdx.x % 32
    w = cuda.threadIdx.x // 32
    off = 16
    while off > 0:
        acc += cuda.shfl_down_sync(0xFFFFFFFF, acc, off)
        off //= 2
    if lane == 0:
        s[w] = acc
    cuda.syncthreads()
    if w == 0:
        acc = 0.0
        if lane < WARPS:
            acc = s[lane]
        off = 16
        while off > 0:
            acc += cuda.shfl_down_sync(0xFFFFFFFF, acc, off)
            off //= 2
        if lane == 0:
            cuda.atomic.add(out, 0, acc)
