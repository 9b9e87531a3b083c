import numpy as np
import numba

@numba.jit(nopython=True, cache=True)
def ising_energy_numba(spins: np.ndarray, J: float = 1.0) -> float:
    """Numba JIT accelerated Ising energy.

    nopython=True: compile fully or raise; cache=True: keep the result on disk.
    """
    N = spins.shape[0]
    energy = 0.0
    for i in range(N):
        for j in range(N):
            s = spins[i, j]
            # periodic boundary via modulo
            neighbor_right = spins[i, (j + 1) % N]
            neighbor_down = spins[(i + 1) % N, j]
            energy -= J * s * (neighbor_right + neighbor_down)
    return energy
