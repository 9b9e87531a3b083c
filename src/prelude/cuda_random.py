# numba-cuda's xoroshiro128+ generator (numba/cuda/random.py), the same
# streams for the same seed and subsequence. A state array is uint64 of
# shape (n, 2): state i is row i, (s0, s1). The host side,
# create_xoroshiro128p_states, is lua/lumba/init.lua's (compiled with njit).


def _xoro_next(states, index):
    s0 = states[index, 0]
    s1 = states[index, 1]
    result = s0 + s1
    s1 ^= s0
    states[index, 0] = ((s0 << np.uint64(55)) | (s0 >> np.uint64(9))) ^ s1 ^ (s1 << np.uint64(14))
    states[index, 1] = (s1 << np.uint64(36)) | (s1 >> np.uint64(28))
    return result


def _xoro_unit64(x):
    return np.float64(x >> np.uint64(11)) * (1.0 / 9007199254740992.0)


def cuda_xoro_uniform_float64(states, index):
    return _xoro_unit64(_xoro_next(states, index))


def cuda_xoro_uniform_float32(states, index):
    return np.float32(_xoro_unit64(_xoro_next(states, index)))


def cuda_xoro_normal_float32(states, index):
    u1 = cuda_xoro_uniform_float32(states, index)
    u2 = cuda_xoro_uniform_float32(states, index)
    return math.sqrt(np.float32(-2.0) * math.log(u1)) * math.cos(np.float32(6.283185307179586) * u2)


# as numba-cuda's: float64 results from two float32 uniforms
def cuda_xoro_normal_float64(states, index):
    u1 = cuda_xoro_uniform_float32(states, index)
    u2 = cuda_xoro_uniform_float32(states, index)
    return math.sqrt(-2.0 * math.log(np.float64(u1))) * math.cos(6.283185307179586 * np.float64(u2))
