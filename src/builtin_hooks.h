/*
** builtin_hooks.h — how a builtin of the registry (builtins.def) is typed
** and lowered: one BuiltinHooks per entry, in the table builtin_table.c
** assembles from the family files (builtin_<family>.c). The generic call
** machinery (infer_call.c, lower_call.c, lower_array.c, infer_expr.c)
** reaches the hooks through Compile.builtins only, never by name, so the
** families sit above it and it never depends on them. A new family is a
** file src/builtin_<family>.c (the Makefile builds every one into
** backend.so) and its hooks' prototypes below.
*/
#ifndef builtin_hooks_h
#define builtin_hooks_h

#include "builtins.h"
#include "lower.h"

typedef struct BuiltinHooks {
  /* FUNC: types the call n (nm: the name it was called by); leaves a CallInfo in n->aux */
  Type *(*infer)(Infer *I, Node *n, const BuiltinName *nm);
  Val (*lower)(Lower *L, Node *n, CallInfo *ci);
  /* METHOD: ci (made by infer_method) holds the receiver and arguments; a is the receiver's type */
  Type *(*infer_method)(Infer *I, Node *n, CallInfo *ci, Type *a);
  Val (*lower_method)(Lower *L, Node *n, BuiltinId id, Val a, Node **args, int nargs);  /* n may be NULL */
  /* ATTR: base is the array's type, NULL for a module's value (cuda.threadIdx.x) */
  Type *(*infer_attr)(Infer *I, Node *n, const BuiltinName *nm, Type *base);
  Val (*lower_attr)(Lower *L, Node *n, BuiltinId id, Val base);  /* releases base */
  /* a NumPy ufunc (a UFUNC or MATH row): one element of the call n from its
  ** inputs' elements x (scalars of their own types); the array expression
  ** around it (lower_arrayexpr.c, through lower_ufunc.c) calls it per element */
  Val (*elem)(Lower *L, Node *n, CallInfo *ci, Val *x);
  /* the row numba.vectorize: types n, a call of the module's def, when that
  ** def is a @vectorize ufunc (infer_vectorize.c); false for a plain def */
  bool (*infer_def)(Infer *I, Node *n, Node *def, Type **result);
} BuiltinHooks;

extern const BuiltinHooks builtin_table[BI__COUNT];

static inline Val lower_arg(Lower *L, CallInfo *ci, int i) { return lower_expr(L, ci->args[i]); }

/* ---- what the families' typing hooks share (builtins_infer.c) ---- */

/* a call of row nm checked against it (lo..hi positional arguments, no
** keywords): its CallInfo, bi set */
CallInfo *builtin_infer_checked(Infer *I, Node *n, const BuiltinName *nm);
/* the same for a row of fixed arity (lo) taking numbers: their types into
** at, false while one is not typed yet; one that is no number (or complex,
** when real) is a TypingError saying the argument must be what ("a real number") */
bool builtin_infer_numbers(Infer *I, Node *n, const BuiltinName *nm, Type **at, bool real, const char *what);

/* ---- the families' hooks: what builtins.def names ---- */

/* builtin_math.c: scalar math and Python's builtins */
Type *bmath_infer_math(Infer *I, Node *n, const BuiltinName *nm);
Val bmath_lower_math(Lower *L, Node *n, CallInfo *ci);
Type *bmath_infer_number(Infer *I, Node *n, const BuiltinName *nm);  /* abs, int, float, bool */
Val bmath_lower_cast(Lower *L, Node *n, CallInfo *ci);
Type *bmath_infer_len(Infer *I, Node *n, const BuiltinName *nm);
Val bmath_lower_len(Lower *L, Node *n, CallInfo *ci);
Type *bmath_infer_minmax(Infer *I, Node *n, const BuiltinName *nm);
Val bmath_lower_minmax(Lower *L, Node *n, CallInfo *ci);
Type *bmath_infer_round(Infer *I, Node *n, const BuiltinName *nm);
Val bmath_lower_round(Lower *L, Node *n, CallInfo *ci);
Type *bmath_infer_range(Infer *I, Node *n, const BuiltinName *nm);  /* outside a for: an error */
Type *bmath_infer_print(Infer *I, Node *n, const BuiltinName *nm);  /* an error */

/* builtin_ufunc.c: NumPy's ufuncs on scalars and arrays (NumPy's loop
** dtypes, an output array), the MATH rows under their NumPy names too */
Type *bufunc_infer(Infer *I, Node *n, const BuiltinName *nm);
Val bufunc_lower(Lower *L, Node *n, CallInfo *ci);
Val bufunc_elem(Lower *L, Node *n, CallInfo *ci, Val *x);
/* builtin_math.c: the libm function of a MATH row on float arguments of type ft */
LLVMValueRef bmath_float_call(Lower *L, BuiltinId id, LLVMValueRef *xs, Type *ft);

/* builtin_libdevice.c: cuda.libdevice.NAME (libdevice.def) */
Type *bfp16_infer(Infer *I, Node *n, const BuiltinName *nm);
Val bfp16_lower(Lower *L, Node *n, CallInfo *ci);
Type *blibdevice_infer(Infer *I, Node *n, const BuiltinName *nm);
Val blibdevice_lower(Lower *L, Node *n, CallInfo *ci);

/* builtin_vectorize.c: a call of a @vectorize def (typed by infer_vectorize.c) */
Type *bvectorize_infer(Infer *I, Node *n, const BuiltinName *nm);
Val bvectorize_lower(Lower *L, Node *n, CallInfo *ci);
Val bvectorize_elem(Lower *L, Node *n, CallInfo *ci, Val *x);
/* builtin_complex.c: complex(), .real/.imag, conjugate, np.real/imag/angle, cmath, the complex ufunc loops */
Type *bcomplex_infer_ctor(Infer *I, Node *n, const BuiltinName *nm);
Val bcomplex_lower_ctor(Lower *L, Node *n, CallInfo *ci);
Type *bcomplex_infer_part(Infer *I, Node *n, const BuiltinName *nm, Type *base);  /* base: an array or a number */
Val bcomplex_lower_part(Lower *L, Node *n, BuiltinId id, Val a);
Type *bcomplex_infer_np_part(Infer *I, Node *n, const BuiltinName *nm);
Val bcomplex_lower_np_part(Lower *L, Node *n, CallInfo *ci);
Type *bcomplex_infer_conj(Infer *I, Node *n, CallInfo *ci, Type *a);  /* a: a number */
Val bcomplex_lower_conj(Lower *L, Node *n, BuiltinId id, Val a, Node **args, int nargs);
Type *bcomplex_infer_angle(Infer *I, Node *n, const BuiltinName *nm);
Val bcomplex_lower_angle(Lower *L, Node *n, CallInfo *ci);
Type *bcomplex_infer_cmath(Infer *I, Node *n, const BuiltinName *nm);
Val bcomplex_lower_cmath(Lower *L, Node *n, CallInfo *ci);
bool bcomplex_has_loop(BuiltinId id);  /* NumPy has a complex loop of this ufunc */
Val bcomplex_ufunc_elem(Lower *L, Node *n, CallInfo *ci, Val *x, Type *t, Type *rt);

/* builtin_create.c: np.empty/zeros/ones/full, *_like, np.arange */
Type *bcreate_infer_alloc(Infer *I, Node *n, const BuiltinName *nm);
Val bcreate_lower_alloc(Lower *L, Node *n, CallInfo *ci);
Type *bcreate_infer_arange(Infer *I, Node *n, const BuiltinName *nm);
Val bcreate_lower_arange(Lower *L, Node *n, CallInfo *ci);
Type *bcreate_infer_linspace(Infer *I, Node *n, const BuiltinName *nm);  /* linspace, logspace */
Val bcreate_lower_linspace(Lower *L, Node *n, CallInfo *ci);
/* what the creation files share (builtin_create.c): a counted loop, element addresses, arguments */
typedef struct CreateLoop { LLVMValueRef ctr; LLVMBasicBlockRef head, end; } CreateLoop;
LLVMValueRef bcreate_loop_begin(Lower *L, CreateLoop *lp, LLVMValueRef n);  /* the counter 0..n-1 */
void bcreate_loop_end(Lower *L, CreateLoop *lp);
LLVMValueRef bcreate_elem_at(Lower *L, Type *t, LLVMValueRef a, LLVMValueRef *idx);
LLVMValueRef bcreate_int_arg(Lower *L, Node *a, int64_t dflt);
Node **bcreate_bind(Infer *I, Node *n, const BuiltinName *nm, CallInfo **ci);  /* by the row's KWS order */
bool bcreate_number_arg(Infer *I, Node *a, const char *fname, bool want_int);   /* false: not typed yet */

/* builtin_diag.c: np.eye, np.identity, np.tri, np.tril, np.triu, np.diag */
Type *bdiag_infer_eye(Infer *I, Node *n, const BuiltinName *nm);  /* eye, identity, tri */
Val bdiag_lower_eye(Lower *L, Node *n, CallInfo *ci);
Type *bdiag_infer_tril(Infer *I, Node *n, const BuiltinName *nm);  /* tril, triu */
Val bdiag_lower_tril(Lower *L, Node *n, CallInfo *ci);
Type *bdiag_infer_diag(Infer *I, Node *n, const BuiltinName *nm);
Val bdiag_lower_diag(Lower *L, Node *n, CallInfo *ci);

/* builtin_asarray.c: np.array, np.asarray, np.ascontiguousarray */
Type *basarray_infer(Infer *I, Node *n, const BuiltinName *nm);
Val basarray_lower(Lower *L, Node *n, CallInfo *ci);

/* builtin_dtype.c: a.dtype, np.dtype(x): dtype values (ty_dtype) */
Type *bdtype_infer_attr(Infer *I, Node *n, const BuiltinName *nm, Type *base);
Val bdtype_lower_attr(Lower *L, Node *n, BuiltinId id, Val base);
Type *bdtype_infer_dtype(Infer *I, Node *n, const BuiltinName *nm);
Val bdtype_lower_dtype(Lower *L, Node *n, CallInfo *ci);

/* builtin_reduce.c: a.sum(), a.prod(), a.min(), a.max(), a.mean() */
Type *breduce_infer(Infer *I, Node *n, CallInfo *ci, Type *a);
Val breduce_lower(Lower *L, Node *n, BuiltinId id, Val a, Node **args, int nargs);

/* builtin_shape.c: a.shape, a.strides, a.size, ..., a.T; a.transpose(), a.copy(), a.astype(), a.fill() */
Type *bshape_infer_dims(Infer *I, Node *n, const BuiltinName *nm, Type *base);   /* shape, strides */
Val bshape_lower_dims(Lower *L, Node *n, BuiltinId id, Val a);
Type *bshape_infer_count(Infer *I, Node *n, const BuiltinName *nm, Type *base);  /* size, ndim, itemsize, nbytes */
Val bshape_lower_count(Lower *L, Node *n, BuiltinId id, Val a);
Type *bshape_infer_T(Infer *I, Node *n, const BuiltinName *nm, Type *base);
Val bshape_lower_T(Lower *L, Node *n, BuiltinId id, Val a);
Type *bshape_infer_transpose(Infer *I, Node *n, CallInfo *ci, Type *a);
Val bshape_lower_transpose(Lower *L, Node *n, BuiltinId id, Val a, Node **args, int nargs);
Type *bshape_infer_copy(Infer *I, Node *n, CallInfo *ci, Type *a);
Type *bshape_infer_astype(Infer *I, Node *n, CallInfo *ci, Type *a);
Val bshape_lower_copy(Lower *L, Node *n, BuiltinId id, Val a, Node **args, int nargs);  /* copy, astype */
Type *bshape_infer_fill(Infer *I, Node *n, CallInfo *ci, Type *a);
Val bshape_lower_fill(Lower *L, Node *n, BuiltinId id, Val a, Node **args, int nargs);

/* builtin_view.c: views with another shape: reshape, ravel, flatten, transpose(axes), swapaxes, moveaxis,
** expand_dims, squeeze, broadcast_to, atleast_1d/2d/3d, flip, fliplr, flipud */
Type *bview_infer_reshape(Infer *I, Node *n, CallInfo *ci, Type *a);
Type *bview_infer_ravel(Infer *I, Node *n, CallInfo *ci, Type *a);   /* ravel, flatten */
Type *bview_infer_squeeze(Infer *I, Node *n, CallInfo *ci, Type *a);
Type *bview_infer_swapaxes(Infer *I, Node *n, CallInfo *ci, Type *a);
Type *bview_infer_axes(Infer *I, Node *at, Node **axes, int naxes, CallInfo *ci, Type *a);  /* transpose's */
Val bview_lower_method(Lower *L, Node *n, BuiltinId id, Val a, Node **args, int nargs);
Type *bview_infer_func(Infer *I, Node *n, const BuiltinName *nm);  /* np.reshape(a, s), np.flip(a), ... */
Val bview_lower_func(Lower *L, Node *n, CallInfo *ci);

/* builtin_join.c: new arrays from pieces: concatenate, stack, hstack, vstack, dstack, column_stack, append;
** split and array_split (tuples of views); roll, repeat, tile, diff */
Type *bjoin_infer(Infer *I, Node *n, const BuiltinName *nm);
Val bjoin_lower(Lower *L, Node *n, CallInfo *ci);
Type *bjoin_infer_split(Infer *I, Node *n, const BuiltinName *nm);
Val bjoin_lower_split(Lower *L, Node *n, CallInfo *ci);
Type *bjoin_infer_one(Infer *I, Node *n, const BuiltinName *nm);   /* roll, repeat, tile, diff */
Val bjoin_lower_one(Lower *L, Node *n, CallInfo *ci);
/* builtin_linalg.c: a @ b, np.dot/matmul/vdot/inner through BLAS (linalg_rt.h), np.outer/kron/trace as loops.
** The @ operator reaches blinalg_infer_prod and blinalg_lower_prod with its BinOp node (nm NULL). */
Type *blinalg_infer_prod(Infer *I, Node *n, const BuiltinName *nm);
Val blinalg_lower_prod(Lower *L, Node *n, CallInfo *ci);
Type *blinalg_infer_kron(Infer *I, Node *n, const BuiltinName *nm);  /* np.kron, np.outer */
Val blinalg_lower_kron(Lower *L, Node *n, CallInfo *ci);
Type *blinalg_infer_trace(Infer *I, Node *n, const BuiltinName *nm);
Val blinalg_lower_trace(Lower *L, Node *n, CallInfo *ci);
/* builtin_linalg.c, for builtin_lapack.c: an array as a linalg_rt.h LmOperand (a pointer to it), a runtime status checked */
LLVMTypeRef blinalg_operand_type(Lower *L);
LLVMValueRef blinalg_operand(Lower *L, Val a);
void blinalg_check_status(Lower *L, LLVMValueRef st);
/* builtin_lapack.c: the prelude's _lumba.lapack(op, ...), np.linalg's LAPACK calls (lapack_rt.h) */
Type *blapack_infer(Infer *I, Node *n, const BuiltinName *nm);
Val blapack_lower(Lower *L, Node *n, CallInfo *ci);

/* builtin_nprandom.c: np.random, NumPy's legacy RandomState draw for draw (nprandom_rt.h) */
Type *bnprand_infer(Infer *I, Node *n, const BuiltinName *nm);  /* the distributions, rand, randn, randint */
Val bnprand_lower(Lower *L, Node *n, CallInfo *ci);
Type *bnprand_infer_seed(Infer *I, Node *n, const BuiltinName *nm);
Val bnprand_lower_seed(Lower *L, Node *n, CallInfo *ci);
Type *bnprand_infer_shuffle(Infer *I, Node *n, const BuiltinName *nm);  /* shuffle, permutation */
Val bnprand_lower_shuffle(Lower *L, Node *n, CallInfo *ci);
Type *bnprand_infer_choice(Infer *I, Node *n, const BuiltinName *nm);
Val bnprand_lower_choice(Lower *L, Node *n, CallInfo *ci);
Type *bnprand_infer_rows(Infer *I, Node *n, const BuiltinName *nm);  /* multinomial, dirichlet */
Val bnprand_lower_rows(Lower *L, Node *n, CallInfo *ci);

/* builtin_prelude.c: NumPy functions written in Python (src/prelude/NAME.py), and their intrinsics */
Type *bprelude_infer(Infer *I, Node *n, const BuiltinName *nm);                     /* PYFUNC rows */
Type *bprelude_infer_method(Infer *I, Node *n, CallInfo *ci, Type *a);              /* PYMETHOD rows */
Type *bprelude_infer_intrinsic(Infer *I, Node *n, const BuiltinName *nm);           /* _lumba.* */
Val bprelude_lower_intrinsic(Lower *L, Node *n, CallInfo *ci);
/* builtin_index.c: np.where, np.nonzero / a.nonzero(), np.argwhere, np.flatnonzero, np.count_nonzero, np.newaxis */
Type *bindex_infer_find(Infer *I, Node *n, const BuiltinName *nm);   /* where, argwhere, flatnonzero, count_nonzero */
Val bindex_lower_find(Lower *L, Node *n, CallInfo *ci);
Type *bindex_infer_nonzero(Infer *I, Node *n, CallInfo *ci, Type *a);
Val bindex_lower_nonzero(Lower *L, Node *n, BuiltinId id, Val a, Node **args, int nargs);
Type *bindex_infer_newaxis(Infer *I, Node *n, const BuiltinName *nm, Type *base);
Val bindex_lower_newaxis(Lower *L, Node *n, BuiltinId id, Val base);

/* builtin_cfunc.c: numba.carray, numba.farray (an array over a @cfunc's pointer argument) */
Type *bcfunc_infer_carray(Infer *I, Node *n, const BuiltinName *nm);
Val bcfunc_lower_carray(Lower *L, Node *n, CallInfo *ci);

/* builtin_cuda.c: cuda.grid, barriers, shared/local arrays, atomics, threadIdx & co.
** (lowered by the target: Target.cuda_call, Target.sreg) */
Type *bcuda_infer_grid(Infer *I, Node *n, const BuiltinName *nm);      /* grid, gridsize */
Type *bcuda_infer_barrier(Infer *I, Node *n, const BuiltinName *nm);   /* syncthreads, syncwarp, threadfence* */
Type *bcuda_infer_const(Infer *I, Node *n, const BuiltinName *nm);     /* cuda.const.array_like */
Type *bcuda_infer_cg(Infer *I, Node *n, const BuiltinName *nm);        /* cuda.cg.this_grid(), GridGroup.sync() */
Type *bcuda_infer_warp(Infer *I, Node *n, const BuiltinName *nm);      /* shfl_*_sync, votes, activemask, lanemask_lt */
Type *bcuda_infer_array(Infer *I, Node *n, const BuiltinName *nm);     /* shared.array, local.array */
Type *bcuda_infer_atomic(Infer *I, Node *n, const BuiltinName *nm);
Val bcuda_lower(Lower *L, Node *n, CallInfo *ci);
Type *bcuda_infer_sreg(Infer *I, Node *n, const BuiltinName *nm, Type *base);
Val bcuda_lower_sreg(Lower *L, Node *n, BuiltinId id, Val base);

#endif
