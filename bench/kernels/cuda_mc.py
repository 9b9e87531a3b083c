from numba import cuda
from numba.cuda.random import xoroshiro128p_uniform_float64


# Monte-Carlo integration of 4 / (1 + x^2) over [0, 1) (pi): each thread
# draws `samples` points from its own xoroshiro128+ stream and writes its sum
@cuda.jit
def mc_integrate(states, out, samples):
    i = cuda.grid(1)
    if i < out.shape[0]:
        acc = 0.0
        for _ in range(samples):
            x = xoroshiro128p_uniform_float64(states, i)
            acc += 4.0 / (1.0 + x * x)
        out[i] = acc
