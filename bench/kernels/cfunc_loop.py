def cfunc_loop(n):
    y = 1.0
    t = 0.0
    for i in range(n):
        y += 1e-7 * (t - 0.5 * y)
        t += 1e-7
    return y
