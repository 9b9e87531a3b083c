import sys, numpy as np
from numba.cuda import random as r
n, m, seed, sub = (int(v) for v in sys.argv[1:5])
s = np.empty(n, dtype=r.xoroshiro128p_dtype)
r.init_xoroshiro128p_states_cpu(s, seed, sub)
for i in range(n):
    row = []
    for j in range(m):
        row += [r.xoroshiro128p_uniform_float32(s, i), r.xoroshiro128p_uniform_float64(s, i),
                r.xoroshiro128p_normal_float32(s, i), r.xoroshiro128p_normal_float64(s, i)]
    print(" ".join(repr(float(v)) for v in row))
