import math

def exp_decay(x, out, tau):
    for i in range(x.shape[0]):
        out[i] = math.exp(-x[i] / tau)
