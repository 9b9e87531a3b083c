def cmandelbrot(out, max_iter):
    # mandelbrot.py written with complex numbers: z = z*z + c gives the same
    # values bit for bit (2*zr*zi is zr*zi + zi*zr exactly)
    h = out.shape[0]
    w = out.shape[1]
    dx = 3.0 / w
    dy = 2.0 / h
    for i in range(h):
        ci = -1.0 + i * dy
        for j in range(w):
            c = complex(-2.0 + j * dx, ci)
            z = 0j
            n = 0
            while n < max_iter and z.real * z.real + z.imag * z.imag <= 4.0:
                z = z * z + c
                n += 1
            out[i, j] = n
