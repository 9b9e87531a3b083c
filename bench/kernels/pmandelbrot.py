from numba import prange

def mandelbrot_prange(out, max_iter):
    h = out.shape[0]
    w = out.shape[1]
    dx = 3.0 / w
    dy = 2.0 / h
    for i in prange(h):
        ci = -1.0 + i * dy
        for j in range(w):
            cr = -2.0 + j * dx
            zr = 0.0
            zi = 0.0
            n = 0
            while n < max_iter and zr * zr + zi * zi <= 4.0:
                zi2 = 2.0 * zr * zi + ci
                zr = zr * zr - zi * zi + cr
                zi = zi2
                n += 1
            out[i, j] = n
