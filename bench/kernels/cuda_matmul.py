import numpy as np
from numba import cuda

TILE = 16

@cuda.jit
def matmul_tiled(A, B, C):
    sA = cuda.shared.array((TILE, TILE), np.float32)
    sB = cuda.shared.array((TILE, TILE), np.float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    acc = np.float32(0.0)
    for t in range((A.shape[1] + TILE - 1) // TILE):
        k = t * TILE
        if y < A.shape[0] and k + tx < A.shape[1]:
            sA[ty, tx] = A[y, k + tx]
        else:
            sA[ty, tx] = np.float32(0.0)
        if k + ty < B.shape[0] and x < B.shape[1]:
            sB[ty, tx] = B[k + ty, x]
        else:
            sB[ty, tx] = np.float32(0.0)
        cuda.syncthreads()
        for j in range(TILE):
            acc += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = acc
