from numba import prange

def ising_energy_prange(spins, J=1.0):
    N = spins.shape[0]
    energy = 0.0
    for i in prange(N):
        for j in range(N):
            s = spins[i, j]
            neighbor_right = spins[i, (j + 1) % N]
            neighbor_down = spins[(i + 1) % N, j]
            energy -= J * s * (neighbor_right + neighbor_down)
    return energy
