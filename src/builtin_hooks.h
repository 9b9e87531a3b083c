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
} BuiltinHooks;

extern const BuiltinHooks builtin_table[BI__COUNT];

static inline Val lower_arg(Lower *L, CallInfo *ci, int i) { return lower_expr(L, ci->args[i]); }

/* ---- the families' hooks: what builtins.def names ---- */

/* builtin_math.c: scalar math and Python's builtins */
Type *bmath_infer_math(Infer *I, Node *n, const BuiltinName *nm);
Val bmath_lower_math(Lower *L, Node *n, CallInfo *ci);
Type *bmath_infer_number(Infer *I, Node *n, const BuiltinName *nm);  /* abs, int, float, bool, np.sign, np.square */
Val bmath_lower_abs(Lower *L, Node *n, CallInfo *ci);
Val bmath_lower_cast(Lower *L, Node *n, CallInfo *ci);
Val bmath_lower_sign(Lower *L, Node *n, CallInfo *ci);
Val bmath_lower_square(Lower *L, Node *n, CallInfo *ci);
Type *bmath_infer_len(Infer *I, Node *n, const BuiltinName *nm);
Val bmath_lower_len(Lower *L, Node *n, CallInfo *ci);
Type *bmath_infer_minmax(Infer *I, Node *n, const BuiltinName *nm);
Val bmath_lower_minmax(Lower *L, Node *n, CallInfo *ci);
Type *bmath_infer_binary(Infer *I, Node *n, const BuiltinName *nm);  /* np.maximum, np.minimum */
Val bmath_lower_maximum(Lower *L, Node *n, CallInfo *ci);
Val bmath_lower_minimum(Lower *L, Node *n, CallInfo *ci);
Type *bmath_infer_round(Infer *I, Node *n, const BuiltinName *nm);
Val bmath_lower_round(Lower *L, Node *n, CallInfo *ci);
Type *bmath_infer_power(Infer *I, Node *n, const BuiltinName *nm);
Val bmath_lower_power(Lower *L, Node *n, CallInfo *ci);
Type *bmath_infer_range(Infer *I, Node *n, const BuiltinName *nm);  /* outside a for: an error */
Type *bmath_infer_print(Infer *I, Node *n, const BuiltinName *nm);  /* an error */

/* builtin_create.c: np.empty/zeros/ones/full, *_like, np.arange */
Type *bcreate_infer_alloc(Infer *I, Node *n, const BuiltinName *nm);
Val bcreate_lower_alloc(Lower *L, Node *n, CallInfo *ci);
Type *bcreate_infer_arange(Infer *I, Node *n, const BuiltinName *nm);
Val bcreate_lower_arange(Lower *L, Node *n, CallInfo *ci);

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

/* builtin_linalg.c: a @ b, np.dot/matmul/vdot/inner through BLAS (linalg_rt.h), np.outer/kron/trace as loops.
** The @ operator reaches blinalg_infer_prod and blinalg_lower_prod with its BinOp node (nm NULL). */
Type *blinalg_infer_prod(Infer *I, Node *n, const BuiltinName *nm);
Val blinalg_lower_prod(Lower *L, Node *n, CallInfo *ci);
Type *blinalg_infer_kron(Infer *I, Node *n, const BuiltinName *nm);  /* np.kron, np.outer */
Val blinalg_lower_kron(Lower *L, Node *n, CallInfo *ci);
Type *blinalg_infer_trace(Infer *I, Node *n, const BuiltinName *nm);
Val blinalg_lower_trace(Lower *L, Node *n, CallInfo *ci);

/* builtin_prelude.c: NumPy functions written in Python (src/prelude/NAME.py), and their intrinsics */
Type *bprelude_infer(Infer *I, Node *n, const BuiltinName *nm);                     /* PYFUNC rows */
Type *bprelude_infer_method(Infer *I, Node *n, CallInfo *ci, Type *a);              /* PYMETHOD rows */
Type *bprelude_infer_intrinsic(Infer *I, Node *n, const BuiltinName *nm);           /* _lumba.* */
Val bprelude_lower_intrinsic(Lower *L, Node *n, CallInfo *ci);

/* builtin_cuda.c: cuda.grid, barriers, shared/local arrays, atomics, threadIdx & co.
** (lowered by the target: Target.cuda_call, Target.sreg) */
Type *bcuda_infer_grid(Infer *I, Node *n, const BuiltinName *nm);      /* grid, gridsize */
Type *bcuda_infer_barrier(Infer *I, Node *n, const BuiltinName *nm);   /* syncthreads, syncwarp, threadfence* */
Type *bcuda_infer_array(Infer *I, Node *n, const BuiltinName *nm);     /* shared.array, local.array */
Type *bcuda_infer_atomic(Infer *I, Node *n, const BuiltinName *nm);
Val bcuda_lower(Lower *L, Node *n, CallInfo *ci);
Type *bcuda_infer_sreg(Infer *I, Node *n, const BuiltinName *nm, Type *base);
Val bcuda_lower_sreg(Lower *L, Node *n, BuiltinId id, Val base);

#endif
