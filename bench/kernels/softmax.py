import math
import numpy as np


def softmax(x):
    n = x.shape[0]
    m = x.shape[1]
    out = np.empty_like(x)
    for i in range(n):
        mx = x[i, 0]
        for j in range(1, m):
            if x[i, j] > mx:
                mx = x[i, j]
        s = 0.0
        for j in range(m):
            out[i, j] = math.exp(x[i, j] - mx)
            s += out[i, j]
        for j in range(m):
            out[i, j] = out[i, j] / s
    return out
