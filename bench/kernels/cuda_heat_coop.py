from numba import cuda


# `steps` explicit steps of the 1-D heat equation in one launch: the grid
# strides over the rod, ping-pongs between u and v, and syncs once a step
@cuda.jit
def heat_coop(u, v, steps, alpha):
    g = cuda.cg.this_grid()
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    n = u.shape[0]
    for s in range(steps):
        i = start
        while i < n:
            if i > 0 and i < n - 1:
                if s % 2 == 0:
                    v[i] = u[i] + alpha * (u[i - 1] - 2.0 * u[i] + u[i + 1])
                else:
                    u[i] = v[i] + alpha * (v[i - 1] - 2.0 * v[i] + v[i + 1])
            i += stride
        g.sync()
