"""numba-cuda runner of `make bench-gpu`: the kernels of
bench/kernels/cuda_*.py (the same files the lumba runner compiles) on the
GPU, the launch overhead, the first launch of a new kernel, the
device-to-device copy roof and host <-> device transfers. One process; one
line per figure, in seconds (bench/run_gpu.lua reads them):
  ROW <id> median=<s> min=<s> max=<s> reps=<n> [check=<v>]
  SKIP <id> <reason> / ERROR <id> <message> / NOTE <text>
Sizes come from the environment (GPU_N, GPU_MATMUL_N, ...; see run_gpu.lua);
GPU_ONLY=id,id,... runs only those figures.
On a NumPy that numba-cuda predates, np_shim (found on PYTHONPATH) is
imported first: it puts back the aliases numba-cuda registers overloads for.
usage: python3 bench/numba/run_cuda.py
"""
import importlib.util
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "..", "kernels")


def env_int(name, dflt):
    try:
        return int(os.environ.get(name, ""))
    except ValueError:
        return dflt


N = env_int("GPU_N", 100000000)
MATMUL_N = env_int("GPU_MATMUL_N", 2048)
STENCIL_N = env_int("GPU_STENCIL_N", 8192)
SWEEPS = env_int("GPU_STENCIL_SWEEPS", 10)
REPS = env_int("GPU_REPS", 20)
REDUCE_BLOCKS = env_int("GPU_REDUCE_BLOCKS", 1024)
XFER = env_int("GPU_XFER_BYTES", 1 << 30)
XFER_REPS = env_int("GPU_XFER_REPS", 5)
BATCHES = env_int("GPU_LAUNCH_BATCHES", 50)
BATCH = env_int("GPU_LAUNCH_BATCH", 100)
MC_THREADS = env_int("GPU_MC_THREADS", 1 << 20)
MC_SAMPLES = env_int("GPU_MC_SAMPLES", 1000)
HEAT_N = env_int("GPU_HEAT_N", 1 << 20)
HEAT_STEPS = env_int("GPU_HEAT_STEPS", 10000)
HEAT_BLOCKS = env_int("GPU_HEAT_BLOCKS", 256)
HEAT_REPS = env_int("GPU_HEAT_REPS", 5)


def out(line):
    print(line)
    sys.stdout.flush()


def row(ident, t, check=None):
    t = sorted(t)
    n = len(t)
    med = t[n // 2] if n % 2 else 0.5 * (t[n // 2 - 1] + t[n // 2])
    line = "ROW %s median=%.9g min=%.9g max=%.9g reps=%d" % (ident, med, t[0], t[-1], n)
    if check is not None:
        line += " check=%.17g" % check
    out(line)


# GPU_ONLY=heatcoop,warpreduce: only these figures run (and the figures
# they sit inside, which then print their own rows too)
ONLY = set(filter(None, os.environ.get("GPU_ONLY", "").replace(",", " ").split()))
INSIDE = {"expdecay2": "expdecay", "reduce": "expdecay", "vadd4": "vadd", "dynsmem": "warpreduce",
          "launch0": "launch", "launch1": "launch", "launch3": "launch"}


def wanted(ident):
    return not ONLY or ident in ONLY or any(INSIDE.get(c) == ident for c in ONLY)


def figure(ident, fn):
    if not wanted(ident):
        return
    try:
        fn()
    except Exception:
        out("ERROR %s %s" % (ident, traceback.format_exc().replace("\n", " | ")))


_loaded = 0


def load(name):
    """A fresh module from bench/kernels/<name> (its decorators run again, so
    its kernels are new dispatchers that compile at their first launch)."""
    global _loaded
    _loaded += 1
    path = os.path.join(KERNELS, name)
    modname = "bench_cuda_%s_%d" % (os.path.splitext(name)[0], _loaded)
    spec = importlib.util.spec_from_file_location(modname, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[modname] = mod
    spec.loader.exec_module(mod)
    return mod


def main():
    try:
        import np_shim  # noqa: F401
        if np_shim.applied:
            out("NOTE np_shim: " + ", ".join(np_shim.applied))
    except ImportError:
        pass
    t0 = time.perf_counter()
    from numba import cuda
    import numba
    t1 = time.perf_counter()
    import numpy as np
    if not cuda.is_available():
        out("SKIP all numba-cuda sees no GPU")
        return
    ver = getattr(sys.modules.get("numba_cuda"), "__version__", None)
    out("NOTE numba %s%s, NumPy %s" % (numba.__version__, ", numba-cuda " + ver if ver else "", np.__version__))
    row("import", [t1 - t0])

    def events(fn, warmup, reps, before=None):
        for _ in range(warmup):
            if before:
                before()
            fn()
        cuda.synchronize()
        a, b = cuda.event(), cuda.event()
        t = []
        for _ in range(reps):
            if before:
                before()
            a.record()
            fn()
            b.record()
            b.synchronize()
            t.append(a.elapsed_time(b) * 1e-3)
        return t

    helpers = {}

    def uniform(n, seed, dtype=np.float64):
        if not helpers:
            from numba import njit
            helpers["fill"] = njit(load("fill_uniform.py").fill_uniform)
            helpers["sum"] = njit(load("sum.py").sum_array)
        a = np.empty(n, dtype=dtype)
        helpers["fill"](a, seed)
        return a

    def seq_sum(a):
        return helpers["sum"](a.reshape(-1))

    # the context first, so that the first launch below counts the kernel alone
    cuda.device_array(1)
    cuda.synchronize()

    def firstlaunch():
        x, o = cuda.device_array(1024), cuda.device_array(1024)
        t0 = time.perf_counter()
        k = load("cuda_expdecay.py").exponential_decay_kernel
        k[4, 256](x, o, 0.5, 1024)
        cuda.synchronize()
        row("firstlaunch", [time.perf_counter() - t0])
    figure("firstlaunch", firstlaunch)

    def newkernel():
        x = cuda.device_array(1024, dtype=np.float32)
        o = cuda.device_array(1024, dtype=np.float32)
        t0 = time.perf_counter()
        k = load("cuda_vadd.py").add_kernel
        k[4, 256](x, x, o)
        cuda.synchronize()
        row("newkernel", [time.perf_counter() - t0])
    figure("newkernel", newkernel)

    def copy():
        a, b = cuda.device_array(N), cuda.device_array(N)
        row("copy", events(lambda: b.copy_to_device(a), 3, REPS))
    figure("copy", copy)

    def expdecay():
        dx = cuda.to_device(uniform(N, 777))
        dout = cuda.device_array(N)
        launch = load("cuda_expdecay.py").exponential_decay_kernel[(N + 255) // 256, 256]
        t = events(lambda: launch(dx, dout, 0.5, N), 3, REPS)
        row("expdecay", t, seq_sum(dout.copy_to_host()))

        def expdecay2():
            launch2 = load("cuda_expdecay2.py").exponential_decay_kernel2[(N + 511) // 512, 256]
            dout.copy_to_device(np.zeros(N))
            t2 = events(lambda: launch2(dx, dout, 0.5, N), 3, REPS)
            row("expdecay2", t2, seq_sum(dout.copy_to_host()))
        figure("expdecay2", expdecay2)

        def reduce():
            o = cuda.device_array(1)
            zero = np.zeros(1)
            launch = load("cuda_reduce.py").block_reduce[REDUCE_BLOCKS, 256]
            o.copy_to_device(zero)
            launch(dx, o)
            check = float(o.copy_to_host()[0])
            tr = events(lambda: launch(dx, o), 3, REPS, lambda: o.copy_to_device(zero))
            row("reduce", tr, check)
        figure("reduce", reduce)
    figure("expdecay", expdecay)

    def vadd():
        dx = cuda.to_device(uniform(N, 2718, np.float32))
        dy = cuda.to_device(uniform(N, 3141, np.float32))
        dout = cuda.device_array(N, dtype=np.float32)
        launch = load("cuda_vadd.py").add_kernel[(N + 255) // 256, 256]
        t = events(lambda: launch(dx, dy, dout), 3, REPS)
        row("vadd", t, seq_sum(dout.copy_to_host()))

        def vadd4():
            launch4 = load("cuda_vadd4.py").add_kernel4[(N + 1023) // 1024, 256]
            dout.copy_to_device(np.zeros(N, dtype=np.float32))
            t4 = events(lambda: launch4(dx, dy, dout), 3, REPS)
            row("vadd4", t4, seq_sum(dout.copy_to_host()))
        figure("vadd4", vadd4)
    figure("vadd", vadd)

    def matmul():
        n = MATMUL_N
        dA = cuda.to_device(uniform(n * n, 31, np.float32).reshape(n, n))
        dB = cuda.to_device(uniform(n * n, 32, np.float32).reshape(n, n))
        dC = cuda.device_array((n, n), dtype=np.float32)
        g = (n + 15) // 16
        launch = load("cuda_matmul.py").matmul_tiled[(g, g), (16, 16)]
        t = events(lambda: launch(dA, dB, dC), 3, REPS)
        row("matmul", t, seq_sum(dC.copy_to_host()))
    figure("matmul", matmul)

    def stencil():
        n = STENCIL_N
        u0 = uniform(n * n, 99).reshape(n, n)
        a, b = cuda.to_device(u0), cuda.to_device(u0)
        del u0
        launch = load("cuda_stencil.py").stencil_sweep[((n + 31) // 32, (n + 7) // 8), (32, 8)]
        for s in range(SWEEPS):
            if s % 2 == 0:
                launch(a, b)
            else:
                launch(b, a)
        last = b if SWEEPS % 2 == 1 else a
        check = seq_sum(last.copy_to_host())
        row("stencil", events(lambda: launch(a, b), 3, REPS), check)
    figure("stencil", stencil)

    # issue 22's kernels
    def mc():
        from numba.cuda.random import create_xoroshiro128p_states
        states = create_xoroshiro128p_states(MC_THREADS, seed=1)
        dout = cuda.device_array(MC_THREADS)
        launch = load("cuda_mc.py").mc_integrate[(MC_THREADS + 255) // 256, 256]
        launch(states, dout, MC_SAMPLES)
        check = seq_sum(dout.copy_to_host())
        row("mc", events(lambda: launch(states, dout, MC_SAMPLES), 2, REPS), check)
    figure("mc", mc)

    def heatcoop():
        u0 = uniform(HEAT_N, 55)
        u, v = cuda.to_device(u0), cuda.to_device(u0)
        launch = load("cuda_heat_coop.py").heat_coop[HEAT_BLOCKS, 256]
        launch(u, v, HEAT_STEPS, 0.25)
        check = seq_sum(u.copy_to_host())
        row("heatcoop", events(lambda: launch(u, v, HEAT_STEPS, 0.25), 1, HEAT_REPS), check)
    figure("heatcoop", heatcoop)

    def warpreduce():
        dx = cuda.to_device(uniform(N, 777))
        dout, zero = cuda.device_array(1), np.zeros(1)
        launch = load("cuda_warp_reduce.py").warp_reduce[REDUCE_BLOCKS, 256]
        dout.copy_to_device(zero)
        launch(dx, dout)
        check = float(dout.copy_to_host()[0])
        row("warpreduce", events(lambda: launch(dx, dout), 3, REPS, lambda: dout.copy_to_device(zero)), check)

        def dynsmem():
            d2 = cuda.device_array(N)
            launch2 = load("cuda_dynsmem.py").smooth3[(N + 255) // 256, 256, 0, (256 + 2) * 8]
            t = events(lambda: launch2(dx, d2), 3, REPS)
            row("dynsmem", t, seq_sum(d2.copy_to_host()))
        figure("dynsmem", dynsmem)
    figure("warpreduce", warpreduce)

    def launches():
        m = load("cuda_empty.py")
        d = cuda.device_array(1)
        calls = {
            "launch0": (m.empty0[1, 32], lambda l: l()),
            "launch1": (m.empty1[1, 32], lambda l: l(d)),
            "launch3": (m.empty3[1, 32], lambda l: l(d, d, d)),
        }
        for ident in ("launch0", "launch1", "launch3"):
            def one(ident=ident):
                l, call = calls[ident]
                t = []
                for b in range(-4, BATCHES):
                    cuda.synchronize()
                    t0 = time.perf_counter()
                    for _ in range(BATCH):
                        call(l)
                    t1 = time.perf_counter()
                    if b >= 0:
                        t.append((t1 - t0) / BATCH)
                cuda.synchronize()
                row(ident, t)
            figure(ident, one)
    figure("launch", launches)

    def transfers():
        n = XFER // 8
        d = cuda.device_array(n)
        pageable = np.ones(n)
        pinned = cuda.pinned_array(n)
        pinned[:] = 1.0
        row("h2d-pageable", events(lambda: d.copy_to_device(pageable), 1, XFER_REPS))
        row("d2h-pageable", events(lambda: d.copy_to_host(pageable), 1, XFER_REPS))
        row("h2d-pinned", events(lambda: d.copy_to_device(pinned), 1, XFER_REPS))
        row("d2h-pinned", events(lambda: d.copy_to_host(pinned), 1, XFER_REPS))
    figure("transfers", transfers)


if __name__ == "__main__":
    try:
        main()
    except Exception:
        out("SKIP all " + traceback.format_exc().replace("\n", " | "))
