-- catalog.lua — what the bench measures: the tools, the kernel rows (sizes for
-- the full run and for BENCH_QUICK), and how long to measure each.
local M = {}

-- Tools in display order. family: which runner; omp / par: parallel builds.
M.tools = {
  gcc = { label = "gcc -O3 -march=native", short = "gcc", family = "c", cc = "gcc", color = "#9e9e9e" },
  clang = { label = "clang -O3 -march=native", short = "clang", family = "c", cc = "clang", color = "#5f6b73" },
  ["gcc-omp"] = { label = "gcc -O3 -march=native -fopenmp", short = "gcc+OpenMP", family = "c",
    cc = "gcc", omp = true, color = "#c5cfd6" },
  ["clang-omp"] = { label = "clang -O3 -march=native -fopenmp", short = "clang+OpenMP", family = "c",
    cc = "clang", omp = true, color = "#8fa3b0" },
  luajit = { label = "LuaJIT, FFI double arrays", short = "LuaJIT", family = "luajit", color = "#f39c12" },
  lua = { label = "plain Lua 5.4, tables", short = "Lua 5.4", family = "lua", color = "#2c7fb8" },
  numba = { label = "Numba njit", short = "Numba", family = "numba", color = "#31a354" },
  ["numba-par"] = { label = "Numba njit(parallel=True)", short = "Numba parallel", family = "numba",
    par = true, color = "#a1d99b" },
  lumba = { label = "lumba njit", short = "lumba", family = "lumba", color = "#d62728" },
  -- the array-notation rows: lumba on the same kernel written as loops (row.py_loop)
  ["lumba-loop"] = { label = "lumba njit, the kernel as loops", short = "lumba loops", family = "lumba",
    loop = true, color = "#7f0000" },
  -- the call rows (issue 23): lumba on the same loop written out by hand
  -- (the helper inlined, the power multiplied out): row.py_loop
  ["lumba-hand"] = { label = "lumba njit, the loop written out by hand", short = "lumba by hand",
    family = "lumba", loop = true, color = "#7f0000" },
  ["lumba-par"] = { label = "lumba njit{parallel=true}", short = "lumba parallel", family = "lumba",
    par = true, color = "#ff9896" },
  -- the fastmath rows (issue 23 item 3): every tool with fast-math on
  ["gcc-fm"] = { label = "gcc -O3 -march=native -ffast-math", short = "gcc -ffast-math", family = "c",
    cc = "gcc", color = "#bdbdbd" },
  ["clang-fm"] = { label = "clang -O3 -march=native -ffast-math -fveclib=libmvec", short = "clang -ffast-math",
    family = "c", cc = "clang", color = "#7f8c95" },
  ["numba-fm"] = { label = "Numba njit(fastmath=True)", short = "Numba fastmath", family = "numba",
    fm = true, color = "#74c476" },
  ["lumba-fm"] = { label = "lumba njit{fastmath=true}", short = "lumba fastmath", family = "lumba",
    fm = true, color = "#e6550d" },
}

M.serial_tools = { "gcc", "clang", "luajit", "lua", "numba", "lumba" }
M.parallel_tools = { "gcc", "clang", "gcc-omp", "clang-omp", "numba", "numba-par", "lumba", "lumba-par" }
-- the array-notation rows (issue 18): Numba and lumba run the kernel written
-- in NumPy's array language; lumba also runs it written as loops
M.array_tools = { "gcc", "clang", "numba", "lumba-loop", "lumba" }
-- the call rows (issue 23): a helper taking an array, x ** 6; lumba also
-- runs the loop written out by hand
M.calls_tools = { "gcc", "clang", "numba", "lumba-hand", "lumba" }
-- the fastmath rows: C with -ffast-math, Numba and lumba with fastmath; gcc
-- and lumba without it for scale (gcc's exact result is what the others are
-- checked against)
M.fastmath_tools = { "gcc", "gcc-fm", "clang-fm", "numba-fm", "lumba", "lumba-fm" }
-- the tools whose fastest run is "C" for a row's ratios
M.c_ref = { serial = { "gcc", "clang" }, parallel = { "gcc-omp", "clang-omp" }, array = { "gcc", "clang" },
  calls = { "gcc", "clang" }, fastmath = { "gcc-fm", "clang-fm" } }

-- the tools of a row's group, in display order
function M.tools_of(row)
  if row.group == "array" then return M.array_tools end
  if row.group == "calls" then return M.calls_tools end
  if row.group == "fastmath" then return M.fastmath_tools end
  return row.group == "serial" and M.serial_tools or M.parallel_tools
end

-- One row per kernel and size. kind: the input/check convention shared by
-- every runner; c: bench/c/<c>.c; py: bench/kernels/<py>; lua: plain Lua runs
-- at this size; target: the size issue 3's targets are judged on; heavy: a
-- call takes 50 ms to a second (fewer calls, one round); vectorises: the
-- inner loop vectorises in C (and should in lumba), so issue 8 wants lumba
-- 2x faster than LuaJIT there.
-- rtol: agreement with C (0: exact; the parallel rows sum in another order).
local function row(t)
  t.rtol = t.rtol or (t.kind == "mandelbrot" and 0 or 1e-12)
  return t
end

-- issue 20: Numba 0.56 njit(parallel=True) returns wrong values for the
-- softmax whose prange body reduces each row (row.max(), e.sum())
local PSOFTMAX_WRONG = { ["numba-par"] = "Numba 0.56's parfor pass gets the row reductions in a prange body wrong" }
-- why lumba (and C) lose to LuaJIT on the histogram
local HISTOGRAM_WHY = "x % nb with nb known only at run time is a 64-bit integer division in lumba, C and " ..
  "Numba alike; LuaJIT's FFI double arrays use a floating-point modulo instead"

local full = {
  row { id = "ising-500", group = "serial", kind = "ising", title = "Ising energy", size = "N=500",
    c = "ising", py = "ising.py", args = { 500, 2024 }, lua = true },
  row { id = "ising-2000", group = "serial", kind = "ising", title = "Ising energy", size = "N=2000",
    c = "ising", py = "ising.py", args = { 2000, 2024 }, lua = true, target = true },
  row { id = "sum-1e6", group = "serial", kind = "sum", title = "sum", size = "10^6 float64",
    c = "sum", py = "sum.py", args = { 1000000, 12345 }, lua = true },
  row { id = "sum-1e7", group = "serial", kind = "sum", title = "sum", size = "10^7 float64",
    c = "sum", py = "sum.py", args = { 10000000, 12345 }, target = true },
  row { id = "expdecay-1e6", group = "serial", kind = "expdecay", title = "exp decay", size = "10^6 float64",
    c = "expdecay", py = "expdecay.py", args = { 1000000, 777, 0.5 }, lua = true },
  row { id = "expdecay-1e7", group = "serial", kind = "expdecay", title = "exp decay", size = "10^7 float64",
    c = "expdecay", py = "expdecay.py", args = { 10000000, 777, 0.5 }, target = true },
  row { id = "mandelbrot-256", group = "serial", kind = "mandelbrot", title = "mandelbrot",
    size = "256x192, 200 it", c = "mandelbrot", py = "mandelbrot.py", args = { 256, 192, 200 }, lua = true },
  row { id = "mandelbrot-1024", group = "serial", kind = "mandelbrot", title = "mandelbrot",
    size = "1024x768, 200 it", c = "mandelbrot", py = "mandelbrot.py", args = { 1024, 768, 200 }, target = true },
  row { id = "vadd-1e6", group = "serial", kind = "vadd", title = "vector add", size = "10^6 float32",
    c = "vadd", py = "vadd.py", args = { 1000000, 2718, 3141 }, lua = true, vectorises = true },
  row { id = "vadd-1e7", group = "serial", kind = "vadd", title = "vector add", size = "10^7 float32",
    c = "vadd", py = "vadd.py", args = { 10000000, 2718, 3141 }, target = true, vectorises = true },
  row { id = "nbody-512", group = "serial", kind = "nbody", title = "n-body step", size = "512 bodies",
    c = "nbody", py = "nbody.py", args = { 512, 4242, 0.001, 0.01 }, lua = true },
  row { id = "nbody-4096", group = "serial", kind = "nbody", title = "n-body step", size = "4096 bodies",
    c = "nbody", py = "nbody.py", args = { 4096, 4242, 0.001, 0.01 }, target = true, heavy = true },
  row { id = "stencil-256", group = "serial", kind = "stencil", title = "5-point stencil",
    size = "256², 100 sweeps", c = "stencil", py = "stencil.py", args = { 256, 100, 99 }, lua = true,
    heavy = true, vectorises = true },
  row { id = "stencil-2048", group = "serial", kind = "stencil", title = "5-point stencil",
    size = "2048², 100 sweeps", c = "stencil", py = "stencil.py", args = { 2048, 100, 99 }, target = true,
    heavy = true, vectorises = true },
  row { id = "matmul-128", group = "serial", kind = "matmul", title = "matmul", size = "128³ float64",
    c = "matmul", py = "matmul.py", args = { 128, 31 }, lua = true, vectorises = true },
  row { id = "matmul-512", group = "serial", kind = "matmul", title = "matmul", size = "512³ float64",
    c = "matmul", py = "matmul.py", args = { 512, 31 }, target = true, vectorises = true },
  row { id = "histogram-1e6", group = "serial", kind = "histogram", title = "histogram, 256 bins",
    size = "10^6 int64", c = "histogram", py = "histogram.py", args = { 1000000, 4711, 256 },
    lua = true },
  row { id = "histogram-1e7", group = "serial", kind = "histogram", title = "histogram, 256 bins",
    size = "10^7 int64", c = "histogram", py = "histogram.py", args = { 10000000, 4711, 256 },
    target = true, why_luajit = HISTOGRAM_WHY },
  -- the array language (issue 18): py is the array-notation kernel, py_loop
  -- the same kernel as loops
  -- complex numbers (issue 19): mandelbrot with z = z*z + c; "as loops" is the float version
  row { id = "cmandelbrot-1024", group = "array", kind = "mandelbrot", title = "mandelbrot with complex numbers",
    size = "1024x768, 200 it", c = "mandelbrot", py = "cmandelbrot.py", py_loop = "mandelbrot.py",
    args = { 1024, 768, 200 } },
  row { id = "astencil-2048", group = "array", kind = "stencil", title = "5-point stencil, slice notation",
    size = "2048², 100 sweeps", c = "stencil", py = "astencil.py", py_loop = "stencil.py", args = { 2048, 100, 99 },
    heavy = true },
  row { id = "softmax-4096", group = "array", kind = "softmax", title = "softmax over rows",
    size = "4096x1024 float64", c = "softmax", py = "asoftmax.py", py_loop = "softmax.py", args = { 4096, 1024, 5 } },
  row { id = "fused-1e7", group = "array", kind = "fused", title = "fused a*b + c*d - e",
    size = "10^7 float64", c = "fused", py = "afused.py", py_loop = "fused.py", args = { 10000000, 71 } },
  row { id = "clip-1e7", group = "array", kind = "clip", title = "clip with np.minimum/np.maximum",
    size = "10^7 float64", c = "clip", py = "aclip.py", py_loop = "clip.py", args = { 10000000, 37, 0.25, 0.75 } },
  -- issue 21: a @vectorize ufunc (cpu and parallel targets) against the loop in @njit and C; a @stencil
  row { id = "vfused-1e7", group = "array", kind = "fused", title = "fused a*b + c*d - e as a @vectorize ufunc",
    size = "10^7 float64", c = "fused", py = "vfused.py", py_loop = "fused.py", args = { 10000000, 71 } },
  row { id = "vpfused-1e7", group = "array", kind = "fused", title = "the same ufunc, target='parallel'",
    size = "10^7 float64", c = "fused", py = "vpfused.py", py_loop = "fused.py", args = { 10000000, 71 } },
  row { id = "sstencil-2048", group = "array", kind = "stencil", title = "5-point stencil, @stencil",
    size = "2048², 100 sweeps", c = "stencil", py = "sstencil.py", py_loop = "stencil.py", args = { 2048, 100, 99 },
    heavy = true },
  row { id = "sostencil-2048", group = "array", kind = "stencil", title = "5-point stencil, @stencil with out=",
    size = "2048², 100 sweeps", c = "stencil", py = "sostencil.py", py_loop = "stencil.py", args = { 2048, 100, 99 },
    heavy = true },
  -- a @ b (issue 19): lumba and Numba call OpenBLAS (`c[:, :] = a @ b`); C calls
  -- OpenBLAS's cblas_dgemm itself, writing c directly (c/gemm.c); lumba's
  -- loops: the naive i-k-j loop (none at 2048: minutes a call). blas_target:
  -- issue 19's lumba >= 0.9x OpenBLAS from C
  row { id = "amatmul-64", group = "array", kind = "matmul", title = "matrix product a @ b (BLAS; C: cblas_dgemm)",
    size = "64³ float64", c = "gemm", py = "amatmul.py", py_loop = "matmul.py", args = { 64, 31 }, rtol = 1e-10 },
  row { id = "amatmul-512", group = "array", kind = "matmul", title = "matrix product a @ b (BLAS; C: cblas_dgemm)",
    size = "512³ float64", c = "gemm", py = "amatmul.py", py_loop = "matmul.py", args = { 512, 31 }, rtol = 1e-10,
    blas_target = true },
  row { id = "amatmul-2048", group = "array", kind = "matmul", title = "matrix product a @ b (BLAS; C: cblas_dgemm)",
    size = "2048³ float64", c = "gemm", py = "amatmul.py", args = { 2048, 31 }, rtol = 1e-10, heavy = true,
    blas_target = true },
  -- np.linalg.solve (issue 19): lumba's and Numba's LAPACK against dgesv called from C; lumba loops: elimination by hand
  row { id = "asolve-1000", group = "array", kind = "solve", title = "np.linalg.solve (LAPACK; loops: elimination)",
    size = "1000² float64", c = "solve", py = "asolve.py", py_loop = "solve.py", args = { 1000, 53 }, rtol = 1e-9 },
  row { id = "ahistogram-1e7", group = "array", kind = "nphist", title = "np.histogram, 256 bins",
    size = "10^7 float64", c = "nphist", py = "ahistogram.py", py_loop = "nphist.py", args = { 10000000, 4711, 256 } },
  -- calls between compiled functions and float ** int (issue 23): py is the
  -- kernel as a Numba user writes it, py_loop the same loop written out
  row { id = "hclip-1e7", group = "calls", kind = "clip", title = "clip through a helper taking the array",
    size = "10^7 float64", c = "clip", py = "hclip.py", py_loop = "clip.py", args = { 10000000, 37, 0.25, 0.75 } },
  row { id = "cfunc-1e7", group = "calls", kind = "cfunc", title = "a @cfunc called through its pointer",
    size = "10^7 calls", c = "cfunccall", py = "cfunc_rhs.py", py_loop = "cfunc_loop.py", args = { 10000000 } },
  row { id = "jcenergy-1e7", group = "calls", kind = "jcenergy", title = "a @jitclass method per element",
    size = "10^7 float64 x2", c = "jcenergy", py = "jcenergy.py", py_loop = "jcenergy_loop.py", args = { 10000000, 4242, 3 } },
  row { id = "pow6-1e7", group = "calls", kind = "sum", title = "sum of (1 / (x + 0.5)) ** 6",
    size = "10^7 float64", c = "pow6", py = "pow6.py", py_loop = "pow6mul.py", args = { 10000000, 12345 } },
  row { id = "psum-1e8", group = "parallel", kind = "sum", title = "parallel sum", size = "10^8 float64",
    c = "sum", py = "psum.py", args = { 100000000, 12345 }, rtol = 1e-9 },
  row { id = "pexpdecay-1e7", group = "parallel", kind = "expdecay", title = "parallel exp decay",
    size = "10^7 float64", c = "expdecay", py = "pexpdecay.py", args = { 10000000, 777, 0.5 }, rtol = 1e-9 },
  -- fast-math results differ from glibc's exp by a few ulp
  row { id = "fmexpdecay-1e7", group = "fastmath", kind = "expdecay", title = "fastmath exp decay",
    size = "10^7 float64", c = "expdecay", py = "expdecay.py", args = { 10000000, 777, 0.5 }, rtol = 1e-9 },
  row { id = "pmandelbrot-1024", group = "parallel", kind = "mandelbrot", title = "parallel mandelbrot",
    size = "1024x768, 200 it", c = "mandelbrot", py = "pmandelbrot.py", args = { 1024, 768, 200 } },
  row { id = "pising-2000", group = "parallel", kind = "ising", title = "parallel Ising energy",
    size = "N=2000", c = "ising", py = "pising.py", args = { 2000, 2024 }, rtol = 1e-9 },
  row { id = "pnbody-4096", group = "parallel", kind = "nbody", title = "parallel n-body step",
    size = "4096 bodies", c = "nbody", py = "pnbody.py", args = { 4096, 4242, 0.001, 0.01 }, heavy = true },
  row { id = "pstencil-2048", group = "parallel", kind = "stencil", title = "parallel 5-point stencil",
    size = "2048², 100 sweeps", c = "stencil", py = "pstencil.py", args = { 2048, 100, 99 }, heavy = true },
  row { id = "pmatmul-512", group = "parallel", kind = "matmul", title = "parallel matmul",
    size = "512³ float64", c = "matmul", py = "pmatmul.py", args = { 512, 31 } },
  -- issue 20: the array-notation rows with parallel=True (stencil and fused
  -- as written; softmax's row loop a prange, its body array code)
  row { id = "pastencil-2048", group = "parallel", kind = "stencil", title = "parallel 5-point stencil, slice notation",
    size = "2048², 100 sweeps", c = "stencil", py = "astencil.py", args = { 2048, 100, 99 }, heavy = true },
  row { id = "pasoftmax-4096", group = "parallel", kind = "softmax", title = "parallel softmax, prange over array rows",
    size = "4096x1024 float64", c = "softmax", py = "pasoftmax.py", args = { 4096, 1024, 5 },
    known_wrong = PSOFTMAX_WRONG },
  row { id = "pafused-1e7", group = "parallel", kind = "fused", title = "parallel fused a*b + c*d - e, array notation",
    size = "10^7 float64", c = "fused", py = "afused.py", args = { 10000000, 71 } },
  row { id = "lj-2000", group = "parallel", kind = "lj", title = "Lennard-Jones energy, helpers on row views",
    size = "2000 points", c = "lj", py = "plj.py", args = { 2000, 4711 }, rtol = 1e-9 },
  -- issue 19: np.random.random in prange; every tool draws other numbers (a
  -- state per thread), so the estimates agree to their statistics only
  row { id = "mcpi-1e7", group = "parallel", kind = "mcpi", title = "Monte-Carlo pi, np.random.random in prange",
    size = "10^7 points", c = "mcpi", py = "pmcpi.py", args = { 10000000 }, rtol = 1e-2 },
}

local quick = {
  row { id = "cmandelbrot-64", group = "array", kind = "mandelbrot", title = "mandelbrot with complex numbers",
    size = "64x48, 200 it", c = "mandelbrot", py = "cmandelbrot.py", py_loop = "mandelbrot.py", args = { 64, 48, 200 } },
  row { id = "ising-64", group = "serial", kind = "ising", title = "Ising energy", size = "N=64",
    c = "ising", py = "ising.py", args = { 64, 2024 }, lua = true, target = true },
  row { id = "sum-1e4", group = "serial", kind = "sum", title = "sum", size = "10^4 float64",
    c = "sum", py = "sum.py", args = { 10000, 12345 }, lua = true, target = true },
  row { id = "expdecay-1e4", group = "serial", kind = "expdecay", title = "exp decay", size = "10^4 float64",
    c = "expdecay", py = "expdecay.py", args = { 10000, 777, 0.5 }, lua = true, target = true },
  row { id = "mandelbrot-64", group = "serial", kind = "mandelbrot", title = "mandelbrot",
    size = "64x48, 200 it", c = "mandelbrot", py = "mandelbrot.py", args = { 64, 48, 200 }, lua = true,
    target = true },
  row { id = "vadd-1e4", group = "serial", kind = "vadd", title = "vector add", size = "10^4 float32",
    c = "vadd", py = "vadd.py", args = { 10000, 2718, 3141 }, lua = true, target = true, vectorises = true },
  row { id = "nbody-64", group = "serial", kind = "nbody", title = "n-body step", size = "64 bodies",
    c = "nbody", py = "nbody.py", args = { 64, 4242, 0.001, 0.01 }, lua = true, target = true },
  row { id = "stencil-32", group = "serial", kind = "stencil", title = "5-point stencil",
    size = "32², 10 sweeps", c = "stencil", py = "stencil.py", args = { 32, 10, 99 }, lua = true,
    target = true, vectorises = true },
  row { id = "matmul-24", group = "serial", kind = "matmul", title = "matmul", size = "24³ float64",
    c = "matmul", py = "matmul.py", args = { 24, 31 }, lua = true, target = true, vectorises = true },
  row { id = "histogram-1e4", group = "serial", kind = "histogram", title = "histogram, 256 bins",
    size = "10^4 int64", c = "histogram", py = "histogram.py", args = { 10000, 4711, 256 },
    lua = true, target = true, why_luajit = HISTOGRAM_WHY },
  row { id = "astencil-32", group = "array", kind = "stencil", title = "5-point stencil, slice notation",
    size = "32², 10 sweeps", c = "stencil", py = "astencil.py", py_loop = "stencil.py", args = { 32, 10, 99 } },
  row { id = "softmax-64", group = "array", kind = "softmax", title = "softmax over rows",
    size = "64x32 float64", c = "softmax", py = "asoftmax.py", py_loop = "softmax.py", args = { 64, 32, 5 } },
  row { id = "fused-1e4", group = "array", kind = "fused", title = "fused a*b + c*d - e",
    size = "10^4 float64", c = "fused", py = "afused.py", py_loop = "fused.py", args = { 10000, 71 } },
  row { id = "vfused-1e4", group = "array", kind = "fused", title = "fused a*b + c*d - e as a @vectorize ufunc",
    size = "10^4 float64", c = "fused", py = "vfused.py", py_loop = "fused.py", args = { 10000, 71 } },
  row { id = "vpfused-1e4", group = "array", kind = "fused", title = "the same ufunc, target='parallel'",
    size = "10^4 float64", c = "fused", py = "vpfused.py", py_loop = "fused.py", args = { 10000, 71 } },
  row { id = "sstencil-32", group = "array", kind = "stencil", title = "5-point stencil, @stencil",
    size = "32², 10 sweeps", c = "stencil", py = "sstencil.py", py_loop = "stencil.py", args = { 32, 10, 99 } },
  row { id = "sostencil-32", group = "array", kind = "stencil", title = "5-point stencil, @stencil with out=",
    size = "32², 10 sweeps", c = "stencil", py = "sostencil.py", py_loop = "stencil.py", args = { 32, 10, 99 } },
  row { id = "clip-1e4", group = "array", kind = "clip", title = "clip with np.minimum/np.maximum",
    size = "10^4 float64", c = "clip", py = "aclip.py", py_loop = "clip.py", args = { 10000, 37, 0.25, 0.75 } },
  row { id = "asolve-50", group = "array", kind = "solve", title = "np.linalg.solve (LAPACK; loops: elimination)",
    size = "50² float64", c = "solve", py = "asolve.py", py_loop = "solve.py", args = { 50, 53 }, rtol = 1e-9 },
  row { id = "amatmul-24", group = "array", kind = "matmul", title = "matrix product a @ b (BLAS; C: cblas_dgemm)",
    size = "24³ float64", c = "gemm", py = "amatmul.py", py_loop = "matmul.py", args = { 24, 31 }, rtol = 1e-10 },
  row { id = "amatmul-48", group = "array", kind = "matmul", title = "matrix product a @ b (BLAS; C: cblas_dgemm)",
    size = "48³ float64", c = "gemm", py = "amatmul.py", args = { 48, 31 }, rtol = 1e-10, blas_target = true },
  row { id = "ahistogram-1e4", group = "array", kind = "nphist", title = "np.histogram, 256 bins",
    size = "10^4 float64", c = "nphist", py = "ahistogram.py", py_loop = "nphist.py", args = { 10000, 4711, 256 } },
  row { id = "hclip-1e4", group = "calls", kind = "clip", title = "clip through a helper taking the array",
    size = "10^4 float64", c = "clip", py = "hclip.py", py_loop = "clip.py", args = { 10000, 37, 0.25, 0.75 } },
  row { id = "cfunc-1e4", group = "calls", kind = "cfunc", title = "a @cfunc called through its pointer",
    size = "10^4 calls", c = "cfunccall", py = "cfunc_rhs.py", py_loop = "cfunc_loop.py", args = { 10000 } },
  row { id = "jcenergy-1e4", group = "calls", kind = "jcenergy", title = "a @jitclass method per element",
    size = "10^4 float64 x2", c = "jcenergy", py = "jcenergy.py", py_loop = "jcenergy_loop.py", args = { 10000, 4242, 3 } },
  row { id = "pow6-1e4", group = "calls", kind = "sum", title = "sum of (1 / (x + 0.5)) ** 6",
    size = "10^4 float64", c = "pow6", py = "pow6.py", py_loop = "pow6mul.py", args = { 10000, 12345 } },
  row { id = "psum-1e5", group = "parallel", kind = "sum", title = "parallel sum", size = "10^5 float64",
    c = "sum", py = "psum.py", args = { 100000, 12345 }, rtol = 1e-9 },
  row { id = "pexpdecay-1e4", group = "parallel", kind = "expdecay", title = "parallel exp decay",
    size = "10^4 float64", c = "expdecay", py = "pexpdecay.py", args = { 10000, 777, 0.5 }, rtol = 1e-9 },
  row { id = "fmexpdecay-1e4", group = "fastmath", kind = "expdecay", title = "fastmath exp decay",
    size = "10^4 float64", c = "expdecay", py = "expdecay.py", args = { 10000, 777, 0.5 }, rtol = 1e-9 },
  row { id = "pmandelbrot-64", group = "parallel", kind = "mandelbrot", title = "parallel mandelbrot",
    size = "64x48, 200 it", c = "mandelbrot", py = "pmandelbrot.py", args = { 64, 48, 200 } },
  row { id = "pising-64", group = "parallel", kind = "ising", title = "parallel Ising energy",
    size = "N=64", c = "ising", py = "pising.py", args = { 64, 2024 }, rtol = 1e-9 },
  row { id = "pnbody-64", group = "parallel", kind = "nbody", title = "parallel n-body step",
    size = "64 bodies", c = "nbody", py = "pnbody.py", args = { 64, 4242, 0.001, 0.01 } },
  row { id = "pstencil-32", group = "parallel", kind = "stencil", title = "parallel 5-point stencil",
    size = "32², 10 sweeps", c = "stencil", py = "pstencil.py", args = { 32, 10, 99 } },
  row { id = "pmatmul-24", group = "parallel", kind = "matmul", title = "parallel matmul",
    size = "24³ float64", c = "matmul", py = "pmatmul.py", args = { 24, 31 } },
  row { id = "pastencil-96", group = "parallel", kind = "stencil", title = "parallel 5-point stencil, slice notation",
    size = "96², 10 sweeps", c = "stencil", py = "astencil.py", args = { 96, 10, 99 } },
  row { id = "pasoftmax-64", group = "parallel", kind = "softmax", title = "parallel softmax, prange over array rows",
    size = "64x32 float64", c = "softmax", py = "pasoftmax.py", args = { 64, 32, 5 },
    known_wrong = PSOFTMAX_WRONG },
  row { id = "pafused-1e5", group = "parallel", kind = "fused", title = "parallel fused a*b + c*d - e, array notation",
    size = "10^5 float64", c = "fused", py = "afused.py", args = { 100000, 71 } },
  row { id = "lj-64", group = "parallel", kind = "lj", title = "Lennard-Jones energy, helpers on row views",
    size = "64 points", c = "lj", py = "plj.py", args = { 64, 4711 }, rtol = 1e-9 },
  row { id = "mcpi-1e5", group = "parallel", kind = "mcpi", title = "Monte-Carlo pi, np.random.random in prange",
    size = "10^5 points", c = "mcpi", py = "pmcpi.py", args = { 100000 }, rtol = 5e-2 },
}

-- Measurement policy (env of every runner) and the latency counts.
function M.settings(is_quick)
  if is_quick then
    return {
      rows = quick,
      env = { BENCH_WARMUP = "1", BENCH_MINREPS = "3", BENCH_MAXREPS = "20", BENCH_BUDGET = "0.02" },
      rounds = 1,           -- fresh processes per tool and row; the faster one counts
      retry_s = 0,          -- seconds of re-runs allowed for figures taken under load
      noisy = 0.25,         -- cores used by other processes that make a figure noisy
      procs = 3,            -- fresh processes per latency figure
      calls = 100000,       -- dispatch calls per batch
      firstcall_n = 16,     -- lattice of the first-call measurement
      limit = 120,          -- seconds before a runner is killed
      -- issue 23: chains of calls compiled, modules loaded (sizes of functions)
      scaling = { chains = "3,5,10", loads = "20,200,1000", numba_loads = "20,200" },
    }
  end
  return {
    rows = full,
    env = { BENCH_WARMUP = "2", BENCH_MINREPS = "5", BENCH_MAXREPS = "100", BENCH_BUDGET = "0.5" },
    -- rows marked heavy (a call of 50 ms to a second): fewer calls, one round
    heavy_env = { BENCH_WARMUP = "1", BENCH_MINREPS = "3", BENCH_BUDGET = "0" },
    heavy_rounds = 1,
    -- one round per row keeps the whole run near 5 minutes on 2 cores; a
    -- figure disturbed by other processes is taken again instead (retry_s)
    rounds = 1,
    retry_s = 45,
    noisy = 0.25,
    procs = 7,
    calls = 1000000,
    firstcall_n = 16,
    limit = 300,
    scaling = { chains = "10,30,100", loads = "200,1000,2000,10000", numba_loads = "200,1000,2000" },
  }
end

return M
