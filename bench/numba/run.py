"""Numba runner of the lumba bench: runs one kernel of bench/kernels/*.py
(the same file the lumba runner compiles) and prints the TIME/CHECK lines
the harness reads, or one of the latency figures.

usage:
  python3 run.py kernel <kind> <file.py> <parallel 0|1|fm> args...  (fm: fastmath=True)
  python3 run.py firstcall <file.py> <N>
  python3 run.py import
  python3 run.py dispatch <file.py> <calls>
  python3 run.py scaling <chain sizes> <load sizes> <calls>
"""
import importlib.util
import os
import re
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "..", "kernels")


def env_num(name, dflt):
    try:
        return float(os.environ.get(name, ""))
    except ValueError:
        return dflt


def cfg():
    warmup = int(env_num("BENCH_WARMUP", 2))
    minreps = max(1, int(env_num("BENCH_MINREPS", 5)))
    maxreps = max(minreps, int(env_num("BENCH_MAXREPS", 100)))
    return warmup, minreps, maxreps, env_num("BENCH_BUDGET", 1.0)


def measure(run):
    """run() warmup times untimed, then timed until minreps runs and budget
    seconds (at most maxreps); returns the last result and sorted times."""
    warmup, minreps, maxreps, budget = cfg()
    result = None
    for _ in range(warmup):
        result = run()
    times = []
    start = time.perf_counter()
    while True:
        t0 = time.perf_counter()
        result = run()
        t1 = time.perf_counter()
        times.append(t1 - t0)
        if len(times) >= maxreps or (len(times) >= minreps and t1 - start >= budget):
            break
    times.sort()
    return result, times


def median(t):
    n = len(t)
    return t[n // 2] if n % 2 else 0.5 * (t[n // 2 - 1] + t[n // 2])


def report(times):
    print("TIME median=%.9g min=%.9g max=%.9g reps=%d"
          % (median(times), times[0], times[-1], len(times)))


def load(path):
    """The first top-level def of a kernel file, as the module defines it
    (a Numba dispatcher when the file carries a decorator)."""
    path = os.path.abspath(path)
    with open(path) as f:
        name = re.search(r"^def\s+(\w+)", f.read(), re.M).group(1)
    modname = "bench_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(modname, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[modname] = mod
    spec.loader.exec_module(mod)
    return getattr(mod, name)


def compiled(path, parallel):
    """The file's function compiled by njit (parallel=True if asked); a file
    whose def is already decorated keeps its own decorator when serial."""
    import numba
    from numba.core.registry import CPUDispatcher
    fn = load(path)
    if not isinstance(fn, CPUDispatcher) and not callable(getattr(fn, "__code__", None)) and hasattr(fn, "ntypes"):
        return fn  # a @vectorize ufunc: called as it is
    if isinstance(fn, CPUDispatcher):
        if not parallel:
            return fn
        fn = fn.py_func
    return numba.njit(parallel=parallel)(fn)


def status_kb(field):
    with open("/proc/self/status") as f:
        m = re.search(field + r":\s*(\d+)", f.read())
    return int(m.group(1)) if m else None


def alloc_note(call, result_bytes):
    """One call's peak allocation, in MB: the peak resident set is reset
    (Linux: clear_refs 5), the call runs, the new peak is read against the
    resident set before it. Returns the call's result."""
    try:
        with open("/proc/self/clear_refs", "w") as c:
            c.write("5")
    except OSError:
        return call()
    base = status_kb("VmRSS")
    r = call()
    peak = status_kb("VmHWM")
    print("NOTE one call's peak allocation: %.1f MB (its result: %.1f MB)"
          % ((peak - base) / 1024, result_bytes / 1048576))
    return r


def cfunc_kernel(path, n):
    """The @cfunc row: Numba's cfunc called n times through its pointer (its
    ctypes function, an indirect call from the compiled Euler loop of
    bench/c/cfunccall.c), or the loop file compiled with the call inlined."""
    import numba
    fn = load(path)
    if hasattr(fn, "ctypes"):
        ptr = fn.ctypes

        @numba.njit
        def drive(n):
            y = 1.0
            t = 0.0
            for i in range(n):
                y += 1e-7 * ptr(t, y)
                t += 1e-7
            return y
        f = drive
    else:
        f = compiled(path, False)
    result, times = measure(lambda: f(n))
    report(times)
    print("CHECK %.17g" % result)


def jcenergy_kernel(path, args):
    """The @jitclass row: a jitclass method called per element by the
    module's total_energy, or the loop file (a plain function on arrays)."""
    import numpy as np
    n, seed, k = int(args[0]), int(args[1]), int(args[2]) / 4
    fill_uniform = compiled(os.path.join(KERNELS, "fill_uniform.py"), False)
    x, v = np.empty(n, dtype=np.float64), np.empty(n, dtype=np.float64)
    fill_uniform(x, seed)
    fill_uniform(v, seed + 1)
    with open(path) as f:
        has_class = "@jitclass" in f.read()
    if has_class:
        fn = load(path)  # Springs: the module's first def is __init__; take the module's names
        mod = sys.modules["bench_" + os.path.splitext(os.path.basename(path))[0]]
        s = mod.Springs(x, v, k)
        result, times = measure(lambda: mod.total_energy(s))
    else:
        f = compiled(path, False)
        result, times = measure(lambda: f(x, v, k))
    report(times)
    print("CHECK %.17g" % result)


def kernel(kind, path, parallel, args, fastmath=False):
    import numba
    import numpy as np
    if kind == "cfunc":
        return cfunc_kernel(path, int(args[0]))
    if kind == "jcenergy":
        return jcenergy_kernel(path, args)
    f = numba.njit(fastmath=True)(load(path)) if fastmath else compiled(path, parallel)
    fill_uniform = compiled(os.path.join(KERNELS, "fill_uniform.py"), False)
    fill_spins = compiled(os.path.join(KERNELS, "fill_spins.py"), False)
    seq_sum = compiled(os.path.join(KERNELS, "sum.py"), False)
    fill_ints = compiled(os.path.join(KERNELS, "fill_ints.py"), False)
    checksum97 = compiled(os.path.join(KERNELS, "checksum97.py"), False)

    if kind == "ising":
        n, seed = int(args[0]), int(args[1])
        spins = np.empty((n, n), dtype=np.float64)
        fill_spins(spins, seed)
        result, times = measure(lambda: f(spins))
        check = result
    elif kind == "sum":
        n, seed = int(args[0]), int(args[1])
        x = np.empty(n, dtype=np.float64)
        fill_uniform(x, seed)
        result, times = measure(lambda: f(x))
        check = result
    elif kind == "lj":
        n, seed = int(args[0]), int(args[1])
        c = np.empty((n, 3), dtype=np.float64)
        fill_uniform(c.reshape(-1), seed)
        result, times = measure(lambda: f(c))
        check = result
    elif kind == "mcpi":
        n = int(args[0])
        result, times = measure(lambda: f(n))
        check = result
    elif kind == "expdecay":
        n, seed, tau = int(args[0]), int(args[1]), float(args[2])
        x = np.empty(n, dtype=np.float64)
        out = np.zeros(n, dtype=np.float64)
        fill_uniform(x, seed)
        _, times = measure(lambda: f(x, out, tau))
        check = seq_sum(out)  # in index order, as the C reference sums
    elif kind == "mandelbrot":
        w, h, max_iter = int(args[0]), int(args[1]), int(args[2])
        out = np.zeros((h, w), dtype=np.int64)
        _, times = measure(lambda: f(out, max_iter))
        k = np.arange(w * h, dtype=np.int64)
        check = float(np.sum(out.reshape(-1) * (k % 97 + 1)))
    elif kind == "vadd":
        n, seed_a, seed_b = int(args[0]), int(args[1]), int(args[2])
        a = np.empty(n, dtype=np.float32)
        b = np.empty(n, dtype=np.float32)
        out = np.zeros(n, dtype=np.float32)
        fill_uniform(a, seed_a)  # each float64 value rounded to float32
        fill_uniform(b, seed_b)
        _, times = measure(lambda: f(a, b, out))
        check = seq_sum(out)  # float64 total, index order
    elif kind == "nbody":
        n, seed, dt, eps2 = int(args[0]), int(args[1]), float(args[2]), float(args[3])
        pos = np.empty((3, n), dtype=np.float64)
        mass = np.empty(n, dtype=np.float64)
        vel = np.zeros((3, n), dtype=np.float64)
        npos = np.zeros((3, n), dtype=np.float64)
        nvel = np.zeros((3, n), dtype=np.float64)
        fill_uniform(pos.reshape(-1), seed)
        fill_uniform(mass, seed + 1)
        _, times = measure(lambda: f(pos, vel, mass, npos, nvel, dt, eps2))
        check = checksum97(npos.reshape(-1) + nvel.reshape(-1))
    elif kind == "stencil":
        n, sweeps, seed = int(args[0]), int(args[1]), int(args[2])
        u0 = np.empty((n, n), dtype=np.float64)
        a = np.zeros((n, n), dtype=np.float64)
        b = np.zeros((n, n), dtype=np.float64)
        fill_uniform(u0.reshape(-1), seed)
        _, times = measure(lambda: f(u0, a, b, sweeps))
        check = checksum97(a.reshape(-1))
    elif kind == "matmul":
        n, seed = int(args[0]), int(args[1])
        a = np.empty((n, n), dtype=np.float64)
        b = np.empty((n, n), dtype=np.float64)
        c = np.zeros((n, n), dtype=np.float64)
        fill_uniform(a.reshape(-1), seed)
        fill_uniform(b.reshape(-1), seed + 1)
        _, times = measure(lambda: f(a, b, c))
        check = checksum97(c.reshape(-1))
    elif kind == "solve":
        n, seed = int(args[0]), int(args[1])
        a = np.empty((n, n), dtype=np.float64)
        b = np.empty(n, dtype=np.float64)
        x = np.zeros(n, dtype=np.float64)
        fill_uniform(a.reshape(-1), seed)
        a[np.arange(n), np.arange(n)] += n  # well conditioned, as solve.c's
        fill_uniform(b, seed + 1)
        _, times = measure(lambda: f(a, b, x))
        check = checksum97(x)
    elif kind == "histogram":
        n, seed, nbins = int(args[0]), int(args[1]), int(args[2])
        x = np.empty(n, dtype=np.int64)
        bins = np.zeros(nbins, dtype=np.int64)
        fill_ints(x, seed)
        _, times = measure(lambda: f(x, bins))
        check = float(np.sum(bins * np.arange(1, nbins + 1, dtype=np.int64)))
    elif kind == "fused":
        n, seed = int(args[0]), int(args[1])
        x = [np.empty(n, dtype=np.float64) for _ in range(5)]
        for k in range(5):
            fill_uniform(x[k], seed + k)
        f(*x)
        alloc_note(lambda: f(*x), n * 8)
        r, times = measure(lambda: f(*x))
        check = checksum97(r)
    elif kind == "clip":
        n, seed, lo, hi = int(args[0]), int(args[1]), float(args[2]), float(args[3])
        x = np.empty(n, dtype=np.float64)
        fill_uniform(x, seed)
        f(x, lo, hi)
        alloc_note(lambda: f(x, lo, hi), n * 8)
        r, times = measure(lambda: f(x, lo, hi))
        check = checksum97(r)
    elif kind == "nphist":
        n, seed, nbins = int(args[0]), int(args[1]), int(args[2])
        x = np.empty(n, dtype=np.float64)
        fill_uniform(x, seed)
        r, times = measure(lambda: f(x, nbins))
        check = float(np.sum(r * np.arange(1, nbins + 1, dtype=np.int64)))
    elif kind == "softmax":
        n, m, seed = int(args[0]), int(args[1]), int(args[2])
        x = np.empty((n, m), dtype=np.float64)
        fill_uniform(x.reshape(-1), seed)
        f(x)
        alloc_note(lambda: f(x), n * m * 8)
        r, times = measure(lambda: f(x))
        check = checksum97(r.reshape(-1))
    else:
        raise ValueError("unknown kernel kind " + kind)
    report(times)
    print("CHECK %.17g" % check)
    if parallel:
        print("NOTE threading layer %s, %d threads"
              % (numba.threading_layer(), numba.get_num_threads()))


def firstcall(path, n):
    """Seconds from defining the function (its decorator line runs) to the end
    of its first call, in this fresh process; numba is imported before."""
    import numba  # noqa: F401 (imported before the clock starts)
    import numpy as np
    spins = np.ones((n, n), dtype=np.float64)
    t0 = time.perf_counter()
    f = load(path)
    if not hasattr(f, "py_func"):
        f = numba.njit(f)
    f(spins)
    t1 = time.perf_counter()
    print("SECONDS %.9g" % (t1 - t0))


def import_time():
    t0 = time.perf_counter()
    import numba  # noqa: F401
    t1 = time.perf_counter()
    print("SECONDS %.9g" % (t1 - t0))


def dispatch(path, calls):
    """ns per call of the compiled f(x) = x + 1.0 from a Python loop (median
    of 5 batches of calls), and of the same function not compiled."""
    import numba
    py = load(path)
    f = numba.njit(py)
    f(1.5)
    out = {}
    for label, fn in (("DISPATCH", f), ("PYCALL", py)):
        batches = []
        for _ in range(5):
            t0 = time.perf_counter()
            for _ in range(calls):
                fn(1.5)
            batches.append((time.perf_counter() - t0) / calls * 1e9)
        batches.sort()
        out[label] = batches[2]
        print("%s %.6g" % (label, batches[2]))


def chain_source(n):
    """the same texts as bench/lumba/run.lua's"""
    t = ["from numba import njit\n\n@njit\ndef f0(x):\n    return x + 1.0\n"]
    for i in range(1, n):
        t.append("\n@njit\ndef f%d(x):\n    return f%d(x) * 0.5 + %d.0\n" % (i, i - 1, i))
    return "".join(t)


def flat_source(n):
    t = ["from numba import njit\n"]
    for i in range(n):
        t.append("\n@njit\ndef f%d(x):\n    return x + %d\n" % (i, i))
    return "".join(t)


def scaling(chains, loads, calls):
    """issue 23: CHAIN<n>, LOAD<n>, DISPATCH3 as bench/lumba/run.lua measures them"""
    import numba
    import numpy as np
    for n in [int(s) for s in chains.split(",") if s]:
        t0 = time.perf_counter()
        ns = {}
        exec(compile(chain_source(n), "<chain>", "exec"), ns)
        ns["f%d" % (n - 1)](1.0)
        for i in range(n - 1):
            ns["f%d" % i](1.0)
        print("CHAIN%d %.9g" % (n, time.perf_counter() - t0))
    for n in [int(s) for s in loads.split(",") if s]:
        src = flat_source(n)
        t0 = time.perf_counter()
        exec(compile(src, "<flat>", "exec"), {})
        print("LOAD%d %.9g" % (n, time.perf_counter() - t0))
    g = numba.njit(lambda a, b, c: a[0] + b[0] + c[0])
    a, b, c = np.zeros(4), np.zeros(4), np.zeros(4)
    g(a, b, c)
    batches = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(calls):
            g(a, b, c)
        batches.append((time.perf_counter() - t0) / calls * 1e9)
    batches.sort()
    print("DISPATCH3 %.6g" % batches[2])


def main(argv):
    mode = argv[1]
    if mode == "kernel":
        kernel(argv[2], argv[3], argv[4] == "1", argv[5:], argv[4] == "fm")
    elif mode == "firstcall":
        firstcall(argv[2], int(argv[3]))
    elif mode == "import":
        import_time()
    elif mode == "dispatch":
        dispatch(argv[2], int(argv[3]))
    elif mode == "scaling":
        scaling(argv[2], argv[3], int(argv[4]))
    else:
        raise ValueError("unknown mode " + mode)


if __name__ == "__main__":
    try:
        main(sys.argv)
    except Exception:
        print("ERROR " + traceback.format_exc().replace("\n", " | "))
        sys.stdout.flush()
        sys.exit(1)
