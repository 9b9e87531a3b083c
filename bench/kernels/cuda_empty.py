from numba import cuda

@cuda.jit
def empty0():
    pass

@cuda.jit
def empty1(a):
    pass

@cuda.jit
def empty3(a, b, c):
    pass
