import math
from numba import prange

def nbody_step_prange(pos, vel, mass, npos, nvel, dt, eps2):
    n = pos.shape[1]
    for i in prange(n):
        xi = pos[0, i]
        yi = pos[1, i]
        zi = pos[2, i]
        ax = 0.0
        ay = 0.0
        az = 0.0
        for j in range(n):
            dx = pos[0, j] - xi
            dy = pos[1, j] - yi
            dz = pos[2, j] - zi
            r2 = dx * dx + dy * dy + dz * dz + eps2
            inv = mass[j] / (r2 * math.sqrt(r2))
            ax += dx * inv
            ay += dy * inv
            az += dz * inv
        nvel[0, i] = vel[0, i] + dt * ax
        nvel[1, i] = vel[1, i] + dt * ay
        nvel[2, i] = vel[2, i] + dt * az
    for i in prange(n):
        npos[0, i] = pos[0, i] + dt * nvel[0, i]
        npos[1, i] = pos[1, i] + dt * nvel[1, i]
        npos[2, i] = pos[2, i] + dt * nvel[2, i]
