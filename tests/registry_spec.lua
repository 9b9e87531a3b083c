-- The registry of builtins (src/builtins.def, read through
-- lumba.core.builtins()): every entry, under every one of its names, runs
-- in the object mode with the compiled code's result, or says why it is
-- compiled-only (and the object mode indeed refuses it); compiled code
-- refuses what it does not have; the rows are sorted (the compiler
-- bisects them); and no compiler file but the registry's own spells a
-- builtin's name.
local lumba = require "lumba"
local H = require "helpers"

local entries, index = require("lumba.core").builtins()

local nan = 0 / 0
local function A() return lumba.array({ { 1.5, -2.0, 3.0 }, { 4.0, 0.5, -6.0 } }) end  -- float64, 2 x 3
local function I() return lumba.array({ 3, 1, 2 }, "int64") end
local function M() return lumba.array({ { 4.0, 1.0, 0.5 }, { 1.0, 3.0, -1.0 }, { 0.5, -1.0, 5.0 } }) end  -- symmetric, positive definite
local function Z() return lumba.complex(1.5, -0.5) end
local function CA() return lumba.array({ 1.0, -2.0 }, "complex128") + lumba.array({ 0.5, 3.0 }) * lumba.complex(0, 1) end
local function V() return lumba.array({ 1.0, -2.0, 0.5 }) end

-- Python spelling of a registry name
local function spelled(nm)
  if nm.module == "" then return nm.member end
  if nm.module == "numpy" then return "np." .. nm.member end
  if nm.module == "numpy.random" then return "np.random." .. nm.member end
  if nm.module == "numpy.linalg" then return "np.linalg." .. nm.member end
  if nm.module == "numba.cuda" then return "cuda." .. nm.member end
  return nm.name
end

-- Samples by entry id: {expr, args...} where @ is the name as called (a
-- method's or attribute's own name after "a."), or src = a whole def f;
-- modules = the names the sample is for (default: every name). Entries
-- without samples get the defaults below (math functions, methods,
-- attributes, constants).
local S = {
  abs = { { "@(x)", -2.5 }, { "@(x)", -3 }, { "@(x)", 0 } },
  bool = { { "@(x)", 0.0 }, { "@(x)", 3 } },
  float = { { "@(x)", 3 }, { "@(x)", -2.5 } },
  int = { { "@(x)", -2.7 }, { "@(x)", 9.9 } },
  len = { { "@(a)", A }, { "@(a)", I } },
  min = { { "@(x, y)", 3, 1.5, modules = { [""] = true } }, { "@(x, y, z)", 4, -2, 7, modules = { [""] = true } },
    { "@(a)", A, modules = { numpy = true } }, { "@(a)", I } },
  max = { { "@(x, y)", 2, 7, modules = { [""] = true } }, { "@(a)", A, modules = { numpy = true } }, { "@(a)", I } },
  round = { { "@(x)", 2.5 }, { "@(x)", 3.5 }, { "@(x)", -0.5 }, { "@(x)", 4 }, { "@(x, n)", 1.255, 2 } },
  range = { { src = "def f(n):\n    s = 0\n    for i in @(n):\n        s += i * i\n    return s\n", 5 },
    { src = "def f(n):\n    s = 0\n    for i in @(2, n, 3):\n        s += i\n    return s\n", 11 } },
  print = { { "@(x)", 1, compiled_error = "print() is not supported in compiled code" } },
  numpy_add = { { "@(a, a)", A }, { "@(a, 2)", I }, { "@(x, y)", 7, 3 }, { "@(x, y)", -2.5, 4 } },
  numpy_subtract = { { "@(a, a)", A }, { "@(a, 2)", I }, { "@(x, y)", 7, 3 }, { "@(x, y)", -2.5, 4 } },
  numpy_multiply = { { "@(a, a)", A }, { "@(a, 2)", I }, { "@(x, y)", 7, 3 }, { "@(x, y)", -2.5, 4 } },
  numpy_divide = { { "@(a, a)", A }, { "@(a, 2)", I }, { "@(x, y)", 7, 3 }, { "@(x, y)", -2.5, 4 } },
  numpy_floor_divide = { { "@(a, a)", A }, { "@(a, 2)", I }, { "@(x, y)", 7, 3 }, { "@(x, y)", -2.5, 4 } },
  numpy_remainder = { { "@(a, a)", A }, { "@(a, 2)", I }, { "@(x, y)", 7, 3 }, { "@(x, y)", -2.5, 4 } },
  numpy_equal = { { "@(a, a)", A }, { "@(a, 2)", I }, { "@(x, y)", 7, 3 }, { "@(x, y)", -2.5, 4 } },
  numpy_not_equal = { { "@(a, a)", A }, { "@(a, 2)", I }, { "@(x, y)", 7, 3 }, { "@(x, y)", -2.5, 4 } },
  numpy_less = { { "@(a, a)", A }, { "@(a, 2)", I }, { "@(x, y)", 7, 3 }, { "@(x, y)", -2.5, 4 } },
  numpy_less_equal = { { "@(a, a)", A }, { "@(a, 2)", I }, { "@(x, y)", 7, 3 }, { "@(x, y)", -2.5, 4 } },
  numpy_greater = { { "@(a, a)", A }, { "@(a, 2)", I }, { "@(x, y)", 7, 3 }, { "@(x, y)", -2.5, 4 } },
  numpy_greater_equal = { { "@(a, a)", A }, { "@(a, 2)", I }, { "@(x, y)", 7, 3 }, { "@(x, y)", -2.5, 4 } },
  numpy_bitwise_and = { { "@(a, a)", I }, { "@(a, 1)", I }, { "@(x, y)", 7, 3 } },
  numpy_bitwise_or = { { "@(a, a)", I }, { "@(a, 1)", I }, { "@(x, y)", 7, 3 } },
  numpy_bitwise_xor = { { "@(a, a)", I }, { "@(a, 1)", I }, { "@(x, y)", 7, 3 } },
  numpy_left_shift = { { "@(a, a)", I }, { "@(a, 1)", I }, { "@(x, y)", 7, 3 } },
  numpy_right_shift = { { "@(a, a)", I }, { "@(a, 1)", I }, { "@(x, y)", 7, 3 } },
  numpy_fmax = { { "@(a, a)", A }, { "@(a, 2)", I }, { "@(x, y)", 7, -3 }, { "@(x, y)", nan, 4.0 }, { "@(x, y)", -2.5, 4 } },
  numpy_fmin = { { "@(a, a)", A }, { "@(a, 2)", I }, { "@(x, y)", 7, -3 }, { "@(x, y)", nan, 4.0 }, { "@(x, y)", -2.5, 4 } },
  numpy_fmod = { { "@(a, a)", A }, { "@(a, 2)", I }, { "@(x, y)", 7, -3 }, { "@(x, y)", nan, 4.0 }, { "@(x, y)", -2.5, 4 } },
  numpy_logical_and = { { "@(a, a)", A }, { "@(a, 0)", I }, { "@(x, y)", 7, 0 }, { "@(x, y)", 0.0, 0 } },
  numpy_logical_or = { { "@(a, a)", A }, { "@(a, 0)", I }, { "@(x, y)", 7, 0 }, { "@(x, y)", 0.0, 0 } },
  numpy_logical_xor = { { "@(a, a)", A }, { "@(a, 0)", I }, { "@(x, y)", 7, 0 }, { "@(x, y)", 0.0, 0 } },
  numpy_logical_not = { { "@(a)", A }, { "@(a)", I }, { "@(x)", 0 }, { "@(x)", 2.5 } },
  numpy_cumprod = { { "@(a)", A }, { "@(a)", I }, { "@(a, 1)", A }, { "@(a, axis=0)", A } },
  ndarray_cumprod = { { "a.@()", A }, { "a.@()", I }, { "a.@(1)", A }, { "a.@(axis=0)", A } },
  numpy_cumsum = { { "@(a)", A }, { "@(a)", I }, { "@(a, 1)", A }, { "@(a, axis=0)", A } },
  ndarray_cumsum = { { "a.@()", A }, { "a.@()", I }, { "a.@(1)", A }, { "a.@(axis=0)", A } },
  numpy_negative = { { "@(a)", A }, { "@(a)", I }, { "@(x)", 3 } },
  numpy_positive = { { "@(a)", A }, { "@(a)", I }, { "@(x)", -2.5 } },
  numpy_invert = { { "@(a)", I }, { "@(x)", 5 } },
  numpy_maximum = { { "@(x, y)", 1.5, 2 }, { "@(x, y)", 3, 2 }, { "@(x, y)", nan, 1.0 }, { "@(x, y)", 2.0, nan } },
  numpy_minimum = { { "@(x, y)", 1.5, 2 }, { "@(x, y)", 3, 2 }, { "@(x, y)", nan, 1.0 }, { "@(x, y)", 2.0, nan } },
  numpy_power = { { "@(x, y)", 2, 3 }, { "@(x, y)", 2, -3.0 }, { "@(x, y)", 1.5, 2 } },
  numpy_sign = { { "@(x)", -3 }, { "@(x)", 0 }, { "@(x)", 5 }, { "@(x)", -2.5 }, { "@(x)", 0.0 }, { "@(x)", -0.0 },
    { "@(x)", nan } },
  numpy_square = { { "@(x)", -3 }, { "@(x)", 2.5 }, { "@(x)", 0 }, { "@(x)", 3e200 } },
  math_log = { { "@(x)", 2.5 }, { "@(x, b)", 8, 2, modules = { math = true } } },
  numpy_empty = { { "@(n).shape", 3 }, { "@((2, 3)).shape" } },
  numpy_zeros = { { "@(n)", 3 }, { "@((2, 2))" }, { "@(n, np.int32)", 3 } },
  numpy_ones = { { "@(n)", 3 }, { "@((2, 2))" }, { "@(n, np.int32)", 3 } },
  numpy_full = { { "@(n, 2.5)", 3 }, { "@((2, 2), 7)" } },
  numpy_empty_like = { { "@(a).shape", A } },
  numpy_zeros_like = { { "@(a)", A }, { "@(a)", I } },
  numpy_ones_like = { { "@(a)", A }, { "@(a)", I } },
  numpy_full_like = { { "@(a, 4.0)", A }, { "@(a, 4)", I } },
  numpy_arange = { { "@(n)", 5 }, { "@(x, y, s)", 1.0, 2.0, 0.25 }, { "@(x, y)", 2, 6 } },
  ndarray_astype = { { "a.@(np.int32)", A }, { "a.@(np.float64)", I } },
  numpy_where = { { "@(a)", A }, { "@(a)", I }, { "@(a, a, 0.5)", A }, { "@(a, 1, a)", I }, { "@(x, a, y)", true, A, 2 } },
  numpy_argwhere = { { "@(a)", A }, { "@(a)", I } },
  numpy_flatnonzero = { { "@(a)", A }, { "@(a)", I } },
  numpy_count_nonzero = { { "@(a)", A }, { "@(a)", I } },
  numpy_newaxis = { { "@" } },  -- None (subscripts with it: tests/indexing_spec.lua)
  numpy_array = { { "@([[x, 2], [3, y]])", 1, 4.5 }, { "@(a)", A }, { "@((x, y), np.float32)", 1, 2 }, { "@(x)", 2.5 },
    { "@([True, False])" } },
  numpy_asarray = { { "@(a)", I }, { "@(a, np.float64)", I }, { "@((x, y))", 1, 2 } },
  numpy_ascontiguousarray = { { "@(a.T)", A }, { "@(a)", I }, { "@(x)", 3 } },
  numpy_linspace = { { "@(x, y)", 0, 1 }, { "@(x, y, n)", 2.0, -1.0, 7 }, { "@(x, y, n, False)", 0, 1, 4 },
    { "@(x, y, 5, dtype=np.int32)", 0, 10 }, { "@(x, y, 0)", 0, 1 }, { "@(x, y, 1)", 3, 4 } },
  numpy_logspace = { { "@(x, y, n)", 0, 2, 3 }, { "@(x, y, 4, True, 2.0)", 0, 3 }, { "@(x, y, 3, False)", 1, 2 } },
  numpy_eye = { { "@(n)", 3 }, { "@(2, n, 1)", 3 }, { "@(n, None, -1, np.int32)", 3 }, { "@(0)" } },
  numpy_identity = { { "@(n)", 3 }, { "@(n, np.int8)", 2 } },
  numpy_tri = { { "@(n)", 3 }, { "@(2, n, 1)", 3 }, { "@(n, k=-1, dtype=np.int32)", 3 } },
  numpy_tril = { { "@(a)", A }, { "@(a, 1)", A }, { "@(a, -1)", A } },
  numpy_triu = { { "@(a)", A }, { "@(a, 1)", A }, { "@(a, -1)", A } },
  numpy_diag = { { "@(a)", A }, { "@(a, 1)", A }, { "@(a, -1)", A }, { "@(a)", I }, { "@(a, -2)", I } },
  numpy_dtype = { { "@('float32')" }, { "@(np.int8)" }, { "@(a.dtype)", I }, { "@(float)" } },
  ndarray_fill = { { src = "def f(a):\n    b = a.copy()\n    b.@(7.5)\n    return b\n", A } },
  ndarray_reshape = { { "a.@(3, 2)", A }, { "a.@((6,))", A }, { "a.@(-1, 3)", I } },
  numpy_reshape = { { "@(a, (3, 2))", A }, { "@(a, -1)", I } },
  numpy_ravel = { { "@(a)", A }, { "@(a)", I } },
  numpy_transpose = { { "@(a)", A }, { "@(a)", I } },
  numpy_std = { { "@(a)", A }, { "@(a, axis=0)", I }, { "@(a, 1, ddof=1)", A } },
  numpy_var = { { "@(a)", I }, { "@(a, axis=-1)", A }, { "@(a, ddof=1)", I } },
  numpy_argmin = { { "@(a)", A }, { "@(a, axis=0)", I }, { "@(a, 1)", A } },
  numpy_argmax = { { "@(a)", I }, { "@(a, axis=1)", A }, { "@(a, 0)", I } },
  -- the prelude's (src/prelude), run by the object mode from the same defs
  numpy_all = { { "@(a)", A }, { "@(a, 0)", I }, { "@(a, axis=1)", A } },
  numpy_any = { { "@(a)", A }, { "@(a, 0)", I }, { "@(a, axis=1)", A } },
  numpy_allclose = { { "@(a, a)", A }, { "@(a, a + 1e-9)", A }, { "@(a, a, 0.0, 0.5)", I } },
  numpy_isclose = { { "@(a, a + 1e-9)", A }, { "@(a, 2)", I } },
  numpy_array_equal = { { "@(a, a)", A }, { "@(a, a + 1)", I } },
  numpy_argsort = { { "@(a)", A }, { "@(a)", I }, { "@(a, 0)", A }, { "@(a, kind='mergesort')", I } },
  numpy_sort = { { "@(a)", A }, { "@(a)", I }, { "@(a, 0)", A }, { "@(a, kind='stable')", I } },
  numpy_unique = { { "@(a)", A }, { "@(a)", I } },
  numpy_searchsorted = { { "@(a, 2)", I }, { "@(np.sort(a), 2, side='right')", I }, { "@(np.sort(a), a)", I } },
  numpy_bincount = { { "@(a)", I }, { "@(a, minlength=6)", I }, { "@(a, a * 0.5)", I } },
  numpy_clip = { { "@(a, -1.0, 2.0)", A }, { "@(a, 1, 2)", I } },
  numpy_convolve = { { "@(a, a)", I }, { "@(a, a, 'same')", I }, { "@(a, a[:2], 'valid')", I } },
  numpy_correlate = { { "@(a, a)", I }, { "@(a, a, 'full')", I } },
  numpy_cross = { { "@(a, a[::-1])", I }, { "@(a, a * 2.5)", A } },
  numpy_digitize = { { "@(a, np.array([0.0, 1.0, 2.5]))", A }, { "@(a, np.array([1, 2]), True)", I } },
  numpy_histogram = { { "@(a)", A }, { "@(a, 3)", I }, { "@(a, 4, (-2.0, 2.0))", A } },
  numpy_interp = { { "@(a, np.array([0.0, 2.0]), np.array([1.0, 3.0]))", A } },
  numpy_median = { { "@(a)", A }, { "@(a)", I } },
  numpy_percentile = { { "@(a, 30.0)", A }, { "@(a, 50)", I } },
  numpy_quantile = { { "@(a, 0.3)", A }, { "@(a, 0.5)", I } },
  numpy_ptp = { { "@(a)", A }, { "@(a, 1)", A }, { "@(a)", I } },
  numpy_trapz = { { "@(a)", I }, { "@(a[0], a[1])", A } },
  numpy_nansum = { { "@(a)", A }, { "@(a)", I } },
  numpy_nanprod = { { "@(a)", A }, { "@(a)", I } },
  numpy_nanmax = { { "@(a)", A }, { "@(a)", I } },
  numpy_nanmin = { { "@(a)", A }, { "@(a)", I } },
  numpy_nanmean = { { "@(a)", A }, { "@(a)", I } },
  numpy_nanmedian = { { "@(a)", A }, { "@(a)", I } },
  numpy_nanstd = { { "@(a)", A }, { "@(a)", I } },
  numpy_nanvar = { { "@(a)", A }, { "@(a)", I } },
  numpy_nanpercentile = { { "@(a, 30.0)", A }, { "@(a, 50)", I } },
  numpy_nanquantile = { { "@(a, 0.3)", A }, { "@(a, 0.5)", I } },
  -- products (BLAS) and np.linalg (LAPACK): the runtime compiled code calls
  numpy_dot = { { "@(a, a)", M }, { "@(a, a[0])", M }, { "@(a[0], a[1])", M }, { "@(a, a, np.empty((3, 3)))", M } },
  numpy_matmul = { { "@(a, a)", M }, { "@(a[0], a)", M } },
  numpy_inner = { { "@(a, a)", M }, { "@(a[0], a[2])", M } },
  numpy_vdot = { { "@(a[0], a[1])", M } },
  numpy_outer = { { "@(a, a)", V }, { "@(a, a)", I } },
  numpy_kron = { { "@(a, a)", V }, { "@(a, a[:2, :2])", M }, { "@(a, a)", I } },
  numpy_trace = { { "@(a)", M }, { "@(a, 1)", M }, { "@(a, offset=-1)", A } },
  numpy_cov = { { "@(a)", A }, { "@(a)", V } },
  numpy_corrcoef = { { "@(a)", A }, { "@(a)", M } },
  numpy_linalg_inv = { { "@(a)", M } },
  numpy_linalg_solve = { { "@(a, a[0])", M }, { "@(a, a)", M } },
  numpy_linalg_det = { { "@(a)", M } },
  numpy_linalg_slogdet = { { "@(a)", M } },
  numpy_linalg_cholesky = { { "@(a)", M } },
  numpy_linalg_eig = { { "@(a)", M } },
  numpy_linalg_eigvals = { { "@(a)", M } },
  numpy_linalg_eigh = { { "@(a)", M } },
  numpy_linalg_eigvalsh = { { "@(a)", M } },
  numpy_linalg_svd = { { "@(a)", A }, { "@(a, False)", A }, { "@(a, compute_uv=False)", M } },
  numpy_linalg_qr = { { "@(a)", A }, { "@(a)", M } },
  numpy_linalg_lstsq = { { "@(a.T, a[0])", A }, { "@(a, a[1], 1e-10)", M } },
  numpy_linalg_pinv = { { "@(a)", A } },
  numpy_linalg_norm = { { "@(a)", A }, { "@(a, 'fro')", M }, { "@(a, 'nuc')", A }, { "@(a, 1)", M }, { "@(a[0], np.inf)", A } },
  numpy_linalg_cond = { { "@(a)", M }, { "@(a, 'fro')", M }, { "@(a, 1)", M } },
  numpy_linalg_matrix_rank = { { "@(a)", A }, { "@(a)", M } },
  numpy_linalg_matrix_power = { { "@(a, 3)", M }, { "@(a, 0)", M }, { "@(a, -2)", M } },
  -- ufuncs without core loops (lua/lumba/objmode_ufunc.lua)
  numpy_fix = { { "@(a)", A }, { "@(x)", -2.5 }, { "@(a)", I } },
  numpy_reciprocal = { { "@(a)", A }, { "@(a)", I }, { "@(x)", 4.0 } },
  numpy_signbit = { { "@(a)", A }, { "@(x)", -0.0 }, { "@(a)", I } },
  numpy_sinc = { { "@(a)", A }, { "@(x)", 0.0 }, { "@(a)", I } },
  numpy_float_power = { { "@(a, 2)", A }, { "@(a, a)", I }, { "@(x, y)", 2, 0.5 } },
  numpy_gcd = { { "@(a, 4)", I }, { "@(x, y)", 12, -18 }, { "@(a, a * 2)", I } },
  numpy_lcm = { { "@(a, 4)", I }, { "@(x, y)", 4, 6 }, { "@(a, a + 1)", I } },
  numpy_heaviside = { { "@(a, 0.5)", A }, { "@(x, y)", 0.0, 0.25 }, { "@(a - 2, 1.0)", I } },
  numpy_ldexp = { { "@(a, 3)", A }, { "@(x, y)", 1.5, -2 }, { "@(a, a)", I } },
  numpy_logaddexp = { { "@(a, a[::-1])", A }, { "@(x, y)", 1.0, 2.0 }, { "@(a, 1)", I } },
  numpy_logaddexp2 = { { "@(a, a[::-1])", A }, { "@(x, y)", 1.0, 2.0 }, { "@(a, 1)", I } },
  numpy_nextafter = { { "@(a, 0.0)", A }, { "@(x, y)", 1.0, 2.0 }, { "@(x, y)", 0.0, -1.0 } },
  -- joins, splits and views with axes (lua/lumba/objmode_joins.lua)
  numpy_concatenate = { { "@((a, a))", A }, { "@((a, a), axis=1)", A }, { "@((a, a * 2.5))", I } },
  numpy_stack = { { "@((a, a))", A }, { "@((a, a), 1)", I } },
  numpy_hstack = { { "@((a, a))", A }, { "@((a, a))", I } },
  numpy_vstack = { { "@((a, a))", A }, { "@((a, a))", I } },
  numpy_dstack = { { "@((a, a))", A } },
  numpy_column_stack = { { "@((a, a))", I }, { "@((a, a))", A } },
  numpy_append = { { "@(a, a)", A }, { "@(a, a, axis=0)", A }, { "@(a, a)", I } },
  numpy_split = { { "@(a, 3)", I }, { "@(a, 3, axis=1)", A } },
  numpy_array_split = { { "@(a, 2)", I }, { "@(a, 2, axis=1)", A } },
  numpy_diff = { { "@(a)", A }, { "@(a, 2)", I }, { "@(a, axis=0)", A } },
  numpy_repeat = { { "@(a, 2)", I }, { "@(a, 2)", A } },
  numpy_roll = { { "@(a, 1)", I }, { "@(a, -1)", A }, { "@(a, 1, axis=1)", A } },
  numpy_tile = { { "@(a, 2)", I }, { "@(a, 3)", A } },
  numpy_flip = { { "@(a)", A }, { "@(a, 1)", A }, { "@(a)", I } },
  numpy_fliplr = { { "@(a)", A } },
  numpy_flipud = { { "@(a)", A } },
  numpy_swapaxes = { { "@(a, 0, 1)", A } },
  ndarray_swapaxes = { { "a.@(0, 1)", A }, { "a.@(1, 0)", A } },
  numpy_moveaxis = { { "@(a, 0, 1)", A }, { "@(a, -1, 0)", A } },
  numpy_expand_dims = { { "@(a, 0)", A }, { "@(a, 1)", I } },
  numpy_squeeze = { { "@(np.expand_dims(a, 0), 0)", A } },
  ndarray_squeeze = { { "np.expand_dims(a, 1).@(1)", A } },
  numpy_atleast_1d = { { "@(a)", A }, { "@(a)", I } },
  numpy_atleast_2d = { { "@(a)", A }, { "@(a)", I } },
  numpy_atleast_3d = { { "@(a)", A }, { "@(a)", I } },
  numpy_broadcast_to = { { "@(a, (2, 3))", I }, { "@(a, (4, 2, 3))", A } },
  -- complex numbers (lua/lumba/objmode_complex.lua)
  complex = { { "@(x, y)", 1.5, -2 }, { "@(x)", 3 }, { "@()" } },
  cmath_log = { { "@(z)", Z }, { "@(z, 2.0)", Z }, { "@(x)", 2.5 } },
  cmath_rect = { { "@(x, y)", 2.0, 0.5 }, { "@(x, y)", 0.0, 1.0 } },
  cmath_polar = { { "@(z)", Z }, { "@(x)", -2.0 } },
  ndarray_real = { { "a.@", CA }, { "a.@", A }, { "z.@", Z } },
  ndarray_imag = { { "a.@", CA }, { "z.@", Z } },
  ndarray_conj = { { "a.@()", CA }, { "a.@()", A }, { "z.@()", Z } },
  ndarray_conjugate = { { "a.@()", CA }, { "a.@()", A }, { "z.@()", Z } },
  numpy_real = { { "@(a)", CA }, { "@(z)", Z }, { "@(x)", 2.5 } },
  numpy_imag = { { "@(a)", CA }, { "@(z)", Z }, { "@(x)", 2.5 } },
  numpy_angle = { { "@(z)", Z }, { "@(x)", -2.0 } },
  -- rows "<name>.prelude": the calls with an axis of the row without the suffix
  numpy_sum_prelude = { { src = "def f(a):\n    return np.sum(a, axis=1)\n", A } },
  numpy_prod_prelude = { { src = "def f(a):\n    return np.prod(a, 0)\n", A } },
  numpy_max_prelude = { { src = "def f(a):\n    return np.max(a, axis=0)\n", A } },
  numpy_min_prelude = { { src = "def f(a):\n    return np.min(a, axis=1)\n", A } },
  numpy_mean_prelude = { { src = "def f(a):\n    return np.mean(a, axis=1)\n", A } },
  numpy_round_prelude = { { src = "def f(a):\n    return np.round(a, 1)\n", A } },
  ndarray_sum_prelude = { { src = "def f(a):\n    return a.sum(axis=0)\n", A } },
  ndarray_prod_prelude = { { src = "def f(a):\n    return a.prod(1)\n", A } },
  ndarray_max_prelude = { { src = "def f(a):\n    return a.max(axis=1)\n", A } },
  ndarray_min_prelude = { { src = "def f(a):\n    return a.min(0)\n", A } },
  ndarray_mean_prelude = { { src = "def f(a):\n    return a.mean(axis=0)\n", A } },
  ndarray_sort = { { "a.@()", A }, { "a.@()", I } },
  ndarray_round = { { "a.@()", A }, { "a.@(1)", A }, { "a.@()", I } },
  ndarray_clip = { { "a.@(-1.0, 2.0)", A }, { "a.@(1, 2)", I } },
}

-- entries the object mode has and compiled code has not: the object mode's
-- result, computed by hand (none today: reshape, ravel, flatten and dtype,
-- the last ones, are compiled now; a sample left here for a compiled entry fails)
local OBJMODE_ONLY = {
}

S.prange = S.range

-- np.random: seeded, so that compiled code and the object mode draw alike
local RANDOM_ARGS = {
  beta = "2.0, 3.0", binomial = "20, 0.4", chisquare = "3.0", exponential = "2.0", f = "3.0, 7.0", gamma = "2.5",
  geometric = "0.3", gumbel = "", hypergeometric = "10, 5, 8", laplace = "", logistic = "", lognormal = "",
  logseries = "0.6", negative_binomial = "5.0, 0.3", normal = "1.0, 2.0", pareto = "3.0", poisson = "40.0",
  power = "2.5", randint = "3, 90", random = "", random_sample = "", ranf = "", sample = "", rayleigh = "",
  standard_cauchy = "", standard_exponential = "", standard_gamma = "0.5", standard_normal = "", standard_t = "4.0",
  triangular = "-1.0, 0.5, 2.0", uniform = "-1.0, 1.0", vonmises = "0.5, 4.0", wald = "1.0, 3.0", weibull = "1.5",
  zipf = "2.5", rand = "", randn = "", choice = "10",
}
local SEEDED = "def f(s):\n    np.random.seed(s)\n    return %s\n"
for m, args in pairs(RANDOM_ARGS) do
  local sized = "@(" .. args .. (args == "" and "" or ", ") .. "size=(2, 3))"
  if m == "rand" or m == "randn" then sized = "@(2, 3)" end  -- dimensions, not size
  S["numpy_random_" .. m] = { { src = SEEDED:format("@(" .. args .. ")"), 7 }, { src = SEEDED:format(sized), 7 } }
end
S.numpy_random_multinomial = { { src = SEEDED:format("@(30, np.array([0.2, 0.5, 0.3]), 4)"), 5 } }
S.numpy_random_dirichlet = { { src = SEEDED:format("@(np.array([0.5, 2.0]), (2, 3))"), 5 } }
S.numpy_random_seed = { { src = "def f(s):\n    @(s)\n    return np.random.random()\n", 5 } }
S.numpy_random_shuffle = { { src = "def f(s):\n    np.random.seed(s)\n    a = np.arange(10)\n    @(a)\n    return a\n", 5 } }
S.numpy_random_permutation = { { src = SEEDED:format("@(10)"), 5 }, { src = SEEDED:format("@(np.arange(6.0))"), 5 } }
S.numpy_random_choice[3] = { src = SEEDED:format("@(np.arange(5.0), 4, False)"), 5 }
S.numpy_random_choice[4] = { src = SEEDED:format("@(3, 6, True, np.array([0.2, 0.5, 0.3]))"), 5 }

local MATH1 = { 0.25, 0.5, 1.5, 2.5, -0.75, 3 }
local MATH2 = { { 0.5, 1.5 }, { 2.5, -0.75 }, { 3, 2 } }

local function samples_of(e)
  if S[e.id] then return S[e.id] end
  if e.name:match("^cmath%.") then return { { "@(z)", Z }, { "@(x)", 0.5 }, { "@(x)", -2.0 } } end
  if e.kind == "constant" then return { { "@" } } end
  if e.result then  -- a math function
    local t = {}
    if e.lo == 1 then for _, x in ipairs(MATH1) do t[#t + 1] = { "@(x)", x } end
    else for _, p in ipairs(MATH2) do t[#t + 1] = { "@(x, y)", p[1], p[2] } end end
    return t
  end
  if e.kind == "method" then return { { "a.@()", A }, { "a.@()", I } } end
  if e.kind == "attribute" then return { { "a.@", A }, { "a.@", I } } end
  return nil
end

-- the parameters of a sample's expression, in the order it uses them
local PARAM = { a = true, b = true, n = true, s = true, x = true, y = true, z = true }
local function params_of(expr)
  local params, seen = {}, {}
  for p in expr:gmatch("[%a_][%w_]*") do
    if PARAM[p] and not seen[p] then
      seen[p] = true
      params[#params + 1] = p
    end
  end
  return table.concat(params, ", ")
end

-- the source of a sample called by name nm
local function source_of(smp, nm, e)
  local call = (e.kind == "method" or e.kind == "attribute") and nm.module == "ndarray" and nm.member or spelled(nm)
  local text = smp.src
  if not text then
    local expr = smp[1]
    if e.kind == "method" and nm.module ~= "ndarray" then expr = "@(a)" end  -- np.sum(a)
    text = "def f(" .. params_of(expr) .. "):\n    return " .. expr .. "\n"
  end
  text = text:gsub("@", (call:gsub("%%", "%%%%")))
  return "import math\nimport cmath\nimport numpy as np\nimport numba\nfrom numba import cuda\n" .. text
end

-- its arguments (array makers called): after the expression, or all of a src sample's
local function args_of(smp)
  local t = {}
  for i = smp.src and 1 or 2, #smp do
    local v = smp[i]
    if type(v) == "function" then v = v() end
    t[#t + 1] = v
  end
  return t
end

local function is_array(v) return type(v) == "userdata" and pcall(function() return v.dtype end) end

-- equal numbers (same integer/float type, NaN equal to NaN, floats close) and arrays
local function same(a, b)
  if type(a) == "number" and type(b) == "number" then
    if math.type(a) ~= math.type(b) then return false end
    if a ~= a or b ~= b then return a ~= a and b ~= b end
    if math.type(a) == "integer" then return a == b end
    if a == b then return true end
    return math.abs(a - b) <= 1e-12 * math.abs(a)
  end
  if is_array(a) and is_array(b) then
    if a.dtype ~= b.dtype or a.ndim ~= b.ndim or a.size ~= b.size then return false end
    local fa, fb = a:copy():reshape(a.size), b:copy():reshape(b.size)
    for i = 1, a.size do if not same(fa:get(i), fb:get(i)) then return false end end
    return true
  end
  return a == b
end

local function show(v)
  if is_array(v) then return tostring(v) end
  if type(v) == "number" then return string.format("%s %.17g", math.type(v), v) end
  return tostring(v)
end

-- runs f quietly (print writes to stdout)
local function quiet(f, ...)
  local w = io.write
  io.write = function() end
  local r = table.pack(pcall(f, ...))
  io.write = w
  return r
end

describe("the registry of builtins", function()
  it("lists its rows sorted by name, as builtin_find's binary search needs", function()
    local function before(a, b)  -- strcmp order, whatever the locale
      for i = 1, math.min(#a, #b) do
        local x, y = a:byte(i), b:byte(i)
        if x ~= y then return x < y end
      end
      return #a < #b
    end
    assert.is_true(#index >= 180)
    for i = 2, #index do
      assert(before(index[i - 1], index[i]), "src/builtins.def: '" .. index[i] .. "' must come before '" .. index[i - 1] .. "'")
    end
  end)

  it("gives each entry its names, kind, family, target and object-mode status", function()
    local ids, names = {}, {}
    for _, e in ipairs(entries) do
      assert.is_nil(ids[e.id], e.id)
      ids[e.id] = true
      assert.are.equal(e.name, e.names[1].name)
      assert.truthy(({ ["function"] = 1, method = 1, attribute = 1, constant = 1 })[e.kind], e.name)
      assert.truthy(({ any = 1, cpu = 1, gpu = 1 })[e.target], e.name)
      assert.truthy(H.slurp("src/builtin_" .. e.family .. ".c"), "no src/builtin_" .. e.family .. ".c for " .. e.name)
      assert(e.objmode == true or (type(e.objmode) == "string" and #e.objmode > 10),
        e.name .. ": the object mode implements it, or the entry says why not")
      for _, nm in ipairs(e.names) do
        assert.is_nil(names[nm.name], nm.name)
        names[nm.name] = true
        assert.are.equal(nm.name, (nm.module == "" and "" or nm.module .. ".") .. nm.member)
      end
    end
    assert.are.equal(#index, (function() local n = 0 for _ in pairs(names) do n = n + 1 end return n end)())
    assert.is_true(#entries >= 120)
  end)

  it("runs every entry the object mode implements, under every name, with the compiled result", function()
    local checked, missing, wrong = 0, {}, {}
    for _, e in ipairs(entries) do
      if e.objmode == true and e.compiled then
        local smps = samples_of(e)
        if not smps then missing[#missing + 1] = e.name end
        for _, nm in ipairs(e.names) do
          for _, smp in ipairs(smps or {}) do
            if not smp.modules or smp.modules[nm.module] then
              local src = source_of(smp, nm, e)
              local args = args_of(smp)
              local d = lumba.njit(src)
              local om = quiet(d.interpret, d, table.unpack(args, 1, #args))
              local label = nm.name .. " in\n" .. src
              if not om[1] then
                wrong[#wrong + 1] = label .. "object mode: " .. tostring(om[2])
              elseif smp.compiled_error then
                local err = H.error_of(d, table.unpack(args, 1, #args))
                if not err:find(smp.compiled_error, 1, true) then wrong[#wrong + 1] = label .. "compiled: " .. err end
              else
                local cc = table.pack(pcall(d, table.unpack(args, 1, #args)))
                if not cc[1] then
                  wrong[#wrong + 1] = label .. "compiled: " .. tostring(cc[2])
                else
                  for k = 2, math.max(cc.n, om.n) do
                    if not same(cc[k], om[k]) then
                      wrong[#wrong + 1] = string.format("%sargs %s: compiled %s, object mode %s", label,
                        table.concat((function() local t = {} for i, v in ipairs(args) do t[i] = show(v) end return t end)(), ", "),
                        show(cc[k]), show(om[k]))
                    end
                  end
                end
              end
              checked = checked + 1
            end
          end
        end
      end
    end
    assert.are.same({}, missing)
    assert(#wrong == 0, table.concat(wrong, "\n\n"))
    assert.is_true(checked >= 400)
  end)

  it("runs the object mode's own entries, which compiled code refuses", function()
    local n = 0
    for _, e in ipairs(entries) do
      if not e.compiled then
        local smp = assert(OBJMODE_ONLY[e.id], e.name .. " has no compiled hooks: give it an object-mode sample")
        local nm = e.names[1]
        local d = lumba.njit(source_of(smp, nm, e))
        local got = d:interpret(A())
        if type(smp.expect) == "table" then
          assert.are.same(smp.expect, got:totable())
        else
          assert.are.equal(smp.expect, got)
        end
        local err = H.error_of(d, A())
        assert.truthy(err:find("TypingError: float64[:, :] has no " .. (e.kind == "method" and "method" or "attribute")
          .. " '" .. nm.member .. "'", 1, true), err)
        n = n + 1
      end
    end
    local samples = 0
    for id in pairs(OBJMODE_ONLY) do samples = samples + 1 end
    assert.are.equal(samples, n, "OBJMODE_ONLY has samples of entries compiled code has")
  end)

  it("names why each compiled-only entry is, and the object mode refuses it", function()
    local n = 0
    for _, e in ipairs(entries) do
      if e.objmode ~= true and e.family == "prelude" then
        -- the prelude's (tests/prelude_spec.lua): a name users can call, refused by the object mode
        for _, nm in ipairs(e.names) do
          if nm.module ~= "_lumba" and not nm.member:find(".prelude", 1, true) then
            local use = e.kind == "method" and "a." .. nm.member .. "()" or spelled(nm) .. "(a)"
            local d = lumba.njit("import numpy as np\ndef f(a):\n    return " .. use .. "\n")
            local err = H.error_of(d.interpret, d, A())
            assert.truthy(err:find("UnsupportedError: .*not supported in object mode"), nm.name .. ": " .. err)
          end
        end
      elseif e.objmode ~= true then
        -- kernels' features, ufuncs, linear algebra (BLAS in compiled code only, so far), and NumPy
        -- functions the object mode has not yet (the entry says so)
        if e.target ~= "gpu" then
          assert.truthy(e.family == "ufunc" or e.family == "linalg" or e.objmode:find("object mode", 1, true), e.name)
        end
        for _, nm in ipairs(e.names) do
          local last = nm.member:match("[%w_]+$")
          if last == "and" or last == "or" then goto next end  -- Python keywords: and_, or_ are these names
          local use = e.kind == "attribute" and spelled(nm) or spelled(nm) .. "(a, 0, 1)"
          if nm.module == "ndarray" then use = "a." .. nm.member .. (e.kind == "method" and "()" or "") end
          local d = lumba.njit("from numba import cuda\ndef f(a):\n    return " .. use .. "\n")
          local err = H.error_of(d.interpret, d, 1)
          assert.truthy(err:find("UnsupportedError: .*not supported in object mode"), nm.name .. ": " .. err)
          n = n + 1
          ::next::
        end
      end
    end
    assert.is_true(n >= 30)
  end)

  it("np.sign and np.square have NumPy's values and types", function()
    local sign = lumba.njit "import numpy as np\ndef f(x):\n    return np.sign(x)\n"
    local square = lumba.njit "import numpy as np\ndef f(x):\n    return np.square(x)\n"
    for _, c in ipairs { { -3, -1 }, { 0, 0 }, { 7, 1 }, { -2.5, -1.0 }, { 0.0, 0.0 }, { 1e-300, 1.0 }, { -math.huge, -1.0 } } do
      for _, f in ipairs { sign, function(x) return sign:interpret(x) end } do
        local got = f(c[1])
        assert.are.equal(math.type(c[2]), math.type(got))
        assert.are.equal(c[2], got)
      end
    end
    assert.are.equal("0.0", tostring(sign(-0.0)))  -- not -0.0
    local s = sign(nan)
    assert.is_true(s ~= s)
    assert.are.equal(9, square(-3))
    assert.are.equal("integer", math.type(square(-3)))
    assert.are.equal(6.25, square(-2.5))
    assert.are.equal(math.huge, square(1e200))
    assert.are.equal(math.mininteger, square(1 << 32) + math.mininteger)  -- 2^64 wraps to 0
    local f32 = lumba.njit "import numpy as np\ndef f(a):\n    return np.square(a[0]), np.sign(a[1])\n"
    local a = lumba.array({ 1.5, -4 }, "float32")
    local q, g = f32(a)
    assert.are.equal(2.25, q)
    assert.are.equal(-1.0, g)
    assert.truthy(f32:inspect_types():find("float32", 1, true))
  end)
end)

-- C string literals of a source file (comments, character literals skipped)
local function literals(text)
  local out, i, n = {}, 1, #text
  while i <= n do
    local c = text:sub(i, i)
    if text:sub(i, i + 1) == "/*" then
      i = (text:find("*/", i + 2, true) or n) + 2
    elseif text:sub(i, i + 1) == "//" then
      i = (text:find("\n", i, true) or n) + 1
    elseif c == "'" then
      i = i + 1
      while i <= n and text:sub(i, i) ~= "'" do i = i + (text:sub(i, i) == "\\" and 2 or 1) end
      i = i + 1
    elseif c == '"' then
      local j, buf = i + 1, {}
      while j <= n and text:sub(j, j) ~= '"' do
        buf[#buf + 1] = text:sub(j, j + (text:sub(j, j) == "\\" and 1 or 0))
        j = j + #buf[#buf]
      end
      out[#out + 1] = { s = table.concat(buf), at = i }
      i = j + 1
    else
      i = i + 1
    end
  end
  return out
end

local function line_of(text, at)
  local _, k = text:sub(1, at):gsub("\n", "")
  return k + 1
end

-- The literals of text that spell a builtin: a registry name with a dot
-- anywhere ("numba.prange"), and any name or member ("len", "sum", "grid")
-- compared as a string, in a table of names or assigned; LLVM value names
-- ("len" in LLVMBuildSelect(..., "len")) are not names of builtins.
local function spellings(text, full, members, allowed)
  local found = {}
  for _, lit in ipairs(literals(text)) do
    local s = lit.s
    local before = text:sub(math.max(1, lit.at - 60), lit.at - 1)
    local compared = before:match("str%a*cmp%s*%([^;]*$") or before:match("strstr%s*%([^;]*$")
      or before:match("memcmp%s*%([^;]*$")
    local listed = before:match("[{=]%s*$")
    local named = full[s] and s:find(".", 1, true)
    if (named or ((full[s] or members[s]) and (compared or listed))) and not (allowed or {})[s] then
      found[#found + 1] = { s = s, line = line_of(text, lit.at) }
    end
  end
  return found
end

-- every name, and every name's member
local FULL, MEMBERS = {}, {}
for _, name in ipairs(index) do FULL[name] = true end
for _, e in ipairs(entries) do
  for _, nm in ipairs(e.names) do MEMBERS[nm.member] = true end
end

-- the verbs of the operators' messages (op_verbs in infer_expr.c), which NumPy's ufuncs are named after
local OP_VERBS = { add = true, subtract = true, multiply = true, divide = true }

describe("the compiler", function()
  it("spells a builtin's name only in the registry and its family files", function()
    local p = io.popen("ls src/*.c")
    local found, files = {}, 0
    for path in p:lines() do
      local text = H.slurp(path)
      local compiler = text:find('#include "compile.h"', 1, true) or text:find('#include "infer.h"', 1, true)
        or text:find('#include "lower.h"', 1, true) or text:find('#include "builtin_hooks.h"', 1, true)
      local registry = path:match("^src/builtin_") or path:match("^src/builtins[%w_]*%.c$")
      if compiler and not registry then
        files = files + 1
        for _, f in ipairs(spellings(text, FULL, MEMBERS, OP_VERBS)) do
          found[#found + 1] = string.format("%s:%d: \"%s\"", path, f.line, f.s)
        end
      end
    end
    p:close()
    assert.is_true(files >= 15)
    assert(#found == 0, "builtin names spelled outside src/builtins.def and src/builtin_*.c "
      .. "(compare registry ids instead: builtin_find, BI_*):\n" .. table.concat(found, "\n"))
  end)

  it("finds a name spelled in a compiler file (the check above can fail)", function()
    local text = 'static bool is_len(const char *q) { return strcmp(q, "len") == 0; } /* "sum" */ char c = \'"\';\n'
      .. 'static const char *const names[] = {"abs", "x"};\nconst char *p = "numba.prange";\n'
      .. 'if (strncmp(n->name, "shape", 5) == 0) return;\nv = LLVMBuildSelect(L->b, c, x, y, "len");\n'
    local got = {}
    for _, f in ipairs(spellings(text, FULL, MEMBERS)) do got[#got + 1] = f.line .. " " .. f.s end
    assert.are.same({ "1 len", "2 abs", "3 numba.prange", "4 shape" }, got)
  end)
end)
