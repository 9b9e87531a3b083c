/*
** lower.h — shared by the lowering files: typed AST → LLVM IR.
** Values are single LLVM values: scalars as i1/iN/float/double, arrays as
** the aggregate {i8* meminfo, T* data, [N x i64] shape, [N x i64] strides},
** tuples as literal structs of their elements.
*/
#ifndef lower_h
#define lower_h

#include "compile.h"
#include "infer.h"
#include "rt.h"

typedef struct Val {
  Type *ty;
  LLVMValueRef v;
  bool owned;        // an array holding a reference the consumer must release
} Val;

typedef struct LoopCtx {
  LLVMBasicBlockRef brk, cont;
  struct LoopCtx *outer;
} LoopCtx;

typedef struct Lower {
  Compile *C;
  FuncSpec *spec;
  LLVMBuilderRef b;
  LLVMContextRef ctx;
  LLVMValueRef fn;
  LLVMValueRef err;          // LmErr*
  LLVMValueRef retp;         // Ret*
  LLVMValueRef status;       // alloca i32
  LLVMValueRef *slots;       // alloca per local
  LLVMBasicBlockRef entry;   // allocas live here
  LLVMBasicBlockRef cleanup; // releases locals and returns the status
  LoopCtx *loop;
  const Node *stmt;          // the statement being lowered: where its errors were raised
  const Node *where_of;      // the statement where names
  LLVMValueRef where;        // its traceback line, a constant string
  bool refcount;             // target keeps reference counts (CPU)
  unsigned char *poison;     // per local: assigned privately in a prange loop, unreadable after it
  Val *held;                 // owned temporaries kept while more code is lowered (lower_hold)
  int nheld, capheld;
  bool in_par;               // lowering a body the thread pool runs: array loops inside stay serial
  const Node *counter_step;  // GPU: the `i += e` of the while loop being lowered whose test compares i (lower_stmt.c)
} Lower;

/* n's annotations in the spec being lowered, as inference left them */
static inline const Ann *lower_ann(const Lower *L, const Node *n) { return spec_ann(L->spec, n); }

/* a CUDA thread's special registers (cuda.threadIdx.x and friends, builtin_cuda.c) */
typedef enum SReg { SREG_TID, SREG_CTAID, SREG_NTID, SREG_NCTAID, SREG_WARPSIZE, SREG_LANEID } SReg;

/* The target: what differs between CPU and GPU code. */
struct Target {
  const char *name;
  bool refcount;                         /* arrays allocated and counted */
  bool gpu;                              /* NVVM: no saturating casts, no message strings */
  /* a special register as an int64 (axis 0..2: x..z); NULL on the CPU */
  LLVMValueRef (*sreg)(Lower *L, SReg reg, int axis);
  /* cuda.grid, cuda.shared.array, cuda.atomic.*, cuda.syncthreads (ci->bi says which) */
  Val (*cuda_call)(Lower *L, Node *n, CallInfo *ci);
  /* a math function (base name of a MATH row of builtins.def) for float32 or float64; NULL: not available */
  LLVMValueRef (*math_call)(Lower *L, const char *base, const char *intrinsic, LLVMValueRef *args, int n,
                            bool f32);
  /* a cmath function (a CmathOp of cplx.h) of complex a, or a ** b (op 'p'), of complex type t,
  ** written out in the target's code; NULL: through the runtime (lm_rt_cmath, lm_rt_cpow) */
  LLVMValueRef (*complex_call)(Lower *L, int op, Type *t, LLVMValueRef a, LLVMValueRef b);
  /* a prange loop the parfor pass made parallel, on the thread pool (lower_prange); NULL: no pool */
  bool (*prange)(Lower *L, Node *s);
  /* an array expression (lower_arrayexpr.c) as one loop nest into a new array; NULL: none */
  Val (*array_expr)(Lower *L, Node *n);
  /* a reduction over every element of a as a parallel loop (lower_parloop.c): fn updates the
  ** accumulators *slots[0..nacc) (allocas holding the operator's identity, of types tys) from one
  ** element, combine merges two chunks' values; false (or NULL): the caller's serial loop */
  bool (*array_reduce)(Lower *L, Val a, void (*fn)(Lower *L, LLVMValueRef ptr, LLVMValueRef linear, void *ud), void *ud, LLVMValueRef **slots, LLVMTypeRef *tys, int nacc,
                       LLVMValueRef (*combine)(Lower *L, int i, LLVMValueRef cur, LLVMValueRef part, void *ud));
  /* a[i] = fn(i, caps) for every i of new 1-d C array a (np.arange, np.linspace), a parallel
  ** loop in a parallel function (lower_parloop.c): fn's code sees only caps[0..ncap), the values
  ** it needs from the caller (passed into the loop's function); what names it in the report */
  void (*array_index_fill)(Lower *L, Val a, LLVMValueRef *caps, int ncap,
                           LLVMValueRef (*fn)(Lower *L, LLVMValueRef i, LLVMValueRef *caps, void *ud), void *ud,
                           const char *what);
  /* every element of array a = v as a parallel loop; false (or NULL): lower_fill's own loop */
  bool (*array_fill)(Lower *L, Val a, LLVMValueRef v);
  /* adjacent array statements of body from at on, fused into one parallel loop (lower_parfuse.c):
  ** how many it lowered, 0: none (NULL: no fusion) */
  int (*array_fuse)(Lower *L, NodeList *body, int at);
  /* a store into an array, or an in-place operator on one (lower_arraystore); NULL: none */
  void (*array_store)(Lower *L, Node *target, OpKind op, Type *opty, Node *value, const Val *pre);
  /* a subscript with an index array or a mask (lower_fancyindex.c): its value, a store into it; NULL: none */
  Val (*index_get)(Lower *L, Node *n);
  void (*index_set)(Lower *L, Node *target, Val v);
  /* @jitclass instances (lower_class.c): inst.attr, Bag() in __new__, inst.field = v; NULL: none */
  Val (*class_attr)(Lower *L, Node *n);
  Val (*class_new)(Lower *L, Node *n);
  void (*class_store)(Lower *L, Node *target, Val v);
  /* x is None, x an optional number field (inst.val): its flag clear */
  LLVMValueRef (*class_is_none)(Lower *L, Node *x);
  /* record dtypes (lower_record.c): r.x / r['x'] (a field's value) and a.x / a['x'] (its view);
  ** a store into one, or op= (op != OP_None, opty the operation's type); NULL: none */
  Val (*record_field)(Lower *L, Node *n);
  void (*record_store)(Lower *L, Node *target, Val v, OpKind op, Type *opty);
};
/* the target's record hooks, or a compile error on a target without them */
const Target *lower_record_target(Lower *L, Node *n);
/* the target's class hook, or a compile error on a target without instances (a CUDA kernel) */
const Target *lower_class_target(Lower *L, Node *n);
Val lower_arrayexpr(Lower *L, Node *n);
/* a module-level np.array of literals used in a kernel, as a constant
** array of the module (lower_array.c); false if value is no such array */
bool lower_const_array(Lower *L, Node *value, Type *t, Val *out);
/* target = value, or target op= value (opty: the operation's type), where target is an
** array (a name or a view): one fused loop into it (lower_arraystore.c); value is a
** node, or pre an already lowered value */
void lower_arraystore(Lower *L, Node *target, OpKind op, Type *opty, Node *value, const Val *pre);
/* NumPy ufunc calls in array expressions (lower_ufunc.c): an inner node, its
** operands, its element from theirs; a call writing into its out array */
bool lower_ufunc_inner(Lower *L, Node *n);
int lower_ufunc_operands(Lower *L, Node *n, Node ***args);
Val lower_ufunc_elem(Lower *L, Node *n, Val *x);
Val lower_ufunc_out(Lower *L, Node *n, CallInfo *ci);
Val lower_call_spec_vals(Lower *L, FuncSpec *callee, Val *x);  /* lower_call.c */
/* call (a ufunc call with out=) as one loop into out, which is returned owned (lower_arraystore.c) */
Val lower_ufunc_store(Lower *L, Node *call, Node *out);
Val lower_fancy_get(Lower *L, Node *n);
bool lower_is_selection(Lower *L, Node *n);  /* a subscript with an index array or a mask */
void lower_fancy_set(Lower *L, Node *target, Val v);
extern const Target target_cpu;
extern const Target target_gpu;
LLVMValueRef tgpu_complex_call(Lower *L, int op, Type *t, LLVMValueRef a, LLVMValueRef b);  /* target_gpu_cmath.c */
extern const Target target_sim;  /* the CUDA simulator (target_sim.c) */
/* the module global of a kernel that synchronises its grid (cuda.cg.this_grid().sync()): its
** presence makes the launches cooperative (pipeline.c) */
#define GPU_GRIDBAR "lumba_gridbar"
/* debug=True kernels: in kernel entry fn, after the body's status st (err its LmErr),
** the first failing thread claims the record at rec (LmKernelExc) and fills it */
void tgpu_report_exception(Lower *L, LLVMValueRef fn, LLVMValueRef st, LLVMValueRef err, LLVMValueRef rec);

/* types */
LLVMTypeRef lower_type(Lower *L, Type *t);          /* value type (bool: i1) */
LLVMTypeRef lower_mem_type(Lower *L, DType dt);     /* element in memory (bool: i8) */
LLVMTypeRef lower_err_type(LLVMContextRef ctx);
/* pipeline.c: ir linked into mod for inlining only (-1 no parse, 1 no link) */
int lower_link_inline_ir(LLVMContextRef ctx, LLVMModuleRef mod, const char *ir, const char *name);
LLVMValueRef lower_i64(Lower *L, int64_t v);
LLVMValueRef lower_i32(Lower *L, int32_t v);

/* expressions (lower_expr.c) */
Val lower_expr(Lower *L, Node *n);
LLVMValueRef lower_cond(Lower *L, Node *n);       /* i1 by Python truthiness */
LLVMValueRef lower_truth(Lower *L, Val v);
Val lower_cast(Lower *L, Val v, Type *to);
/* An owned temporary kept while more code that may raise is lowered (a
** subscript's array while its indices are computed, earlier call arguments,
** earlier tuple elements): a raise there releases it. Returns the mark that
** lower_unhold drops back to before the temporary is consumed. */
int lower_hold(Lower *L, Val v);
void lower_unhold(Lower *L, int mark);
/* on a path that leaves for cleanup with an error: releases what is held */
void lower_release_held(Lower *L);

LLVMValueRef lower_binop(Lower *L, OpKind op, Val a, Val b, Type *rt, Loc loc);
/* v, or an Optional's number (a call returning one, used as a number): None raises TypeError */
Val lower_number(Lower *L, Val v);
Val lower_call(Lower *L, Node *n);
LLVMValueRef lower_declare_callee(Lower *L, FuncSpec *callee, LLVMTypeRef *fnty);  /* lower.c */
Val lower_const_sym(Lower *L, const Sym *s);

/* arrays (lower_array.c) */
LLVMValueRef lower_arr_mi(Lower *L, LLVMValueRef a);
LLVMValueRef lower_arr_data(Lower *L, LLVMValueRef a);
LLVMValueRef lower_arr_shape(Lower *L, LLVMValueRef a, int k);
LLVMValueRef lower_arr_stride(Lower *L, LLVMValueRef a, int k);
LLVMValueRef lower_arr_make(Lower *L, Type *t, LLVMValueRef mi, LLVMValueRef data, LLVMValueRef *shape,
                            LLVMValueRef *strides);
Val lower_subscript(Lower *L, Node *n);                         /* load or view */
void lower_store_subscript(Lower *L, Node *target, Val v);
LLVMValueRef lower_elem_ptr(Lower *L, Node *n, Val *base);      /* element address of a full index */
Val lower_index_view(Lower *L, Node *n, Val base, Type *rt);    /* the view part of subscript n, as type rt */
Val lower_alloc(Lower *L, Type *t, LLVMValueRef *shape);        /* new C array */
Val lower_alloc_uninit(Lower *L, Type *t, LLVMValueRef *shape); /* the same, contents undefined: all written first */
Val lower_array_method(Lower *L, Node *n, BuiltinId id, Val a, Node **args, int nargs);  /* through the registry */
void lower_fill(Lower *L, Val a, LLVMValueRef v);                /* every element of a = v */
/* record dtypes (lower_array.c): n is r['x'] / a['x'], or r.x / a.x (a field,
** not an array attribute); a[i]'s address as a Record. The field's value and
** stores: the target's record hooks (lower_record.c) */
bool lower_record_key(Lower *L, Node *n);
bool lower_record_attr(Lower *L, Node *n, bool array_attr);
Val lower_record_elem(Lower *L, LLVMValueRef p, Type *t);
Val lower_record_field(Lower *L, Node *n);
void lower_record_store(Lower *L, Node *target, Val v, OpKind op, Type *ty);
Val lower_attribute(Lower *L, Node *n);
/* lower_class.c: @jitclass instances (through Target: no lowering file calls them by name);
** lower_call.c: a CALL_DEF call */
Val lower_class_attr(Lower *L, Node *n);
Val lower_class_new(Lower *L, Node *n);
void lower_class_store(Lower *L, Node *target, Val v);
LLVMValueRef lower_class_is_none(Lower *L, Node *x);
Val lower_call_def(Lower *L, Node *n, struct CallInfo *ci);
LLVMValueRef lower_load_elem(Lower *L, DType dt, LLVMValueRef ptr);
void lower_store_elem(Lower *L, DType dt, LLVMValueRef ptr, LLVMValueRef v);

LLVMValueRef lower_restate_array(Lower *L, Type *t, LLVMValueRef a);

/* reference counts */
void lower_incref(Lower *L, Val v);
void lower_decref(Lower *L, Val v);
void lower_release(Lower *L, Val v);   /* decref if owned */

/* errors: set err and jump to the cleanup path when cond is true */
void lower_raise_if(Lower *L, LLVMValueRef cond, LmErrKind kind, const char *msg);
/* on a path leaving with an error a callee or the runtime set: names the
** statement being lowered as where it was raised, unless the callee did */
void lower_note_where(Lower *L, bool replace);  /* replace: the caller's line over the callee's */
const char *lower_where(Lower *L, Loc loc);  /* the traceback line of loc */
/* where the statement being lowered is (diagnostics) */
static inline Loc lower_stmt_loc(const Lower *L) { return L->stmt ? L->stmt->loc : L->spec->def->loc; }
void lower_raise_fmt_if(Lower *L, LLVMValueRef cond, const char *fmt, LLVMValueRef *vals, int nvals);  /* %I: vals */
void lower_index_error_if(Lower *L, LLVMValueRef cond, LLVMValueRef index, int axis, LLVMValueRef size);
/* ValueError: msg with its k-th "%S" replaced by the shape ndims[k], shapes[k] (n <= LMERR_NSHAPES) */
void lower_shape_error_if(Lower *L, LLVMValueRef cond, const char *msg, int n, const int *ndims,
                          LLVMValueRef (*shapes)[LM_MAXDIM]);

/* control flow helpers */
LLVMBasicBlockRef lower_block(Lower *L, const char *name);
bool lower_terminated(Lower *L);
LLVMValueRef lower_entry_alloca(Lower *L, LLVMTypeRef t, const char *name);
LLVMValueRef lower_intrinsic(Lower *L, const char *name, LLVMTypeRef *tys, int ntys, LLVMValueRef *args, int n);
LLVMValueRef lower_rt_fn(Lower *L, const char *name, LLVMTypeRef ret, LLVMTypeRef *params, int n);
LLVMValueRef lower_fmath(Lower *L, const char *base, LLVMValueRef *args, int n);

/* parallel loops (lower_parallel.c, the CPU target's Target.prange): true
** if the parfor pass (parfor.h) made s a parallel loop, which it lowered */
bool lower_prange(Lower *L, Node *s);
/* The two halves of every parallel loop (lower_parallel.c): the outlined
**   i32 body(i8 *ctx, i64 lo, i64 hi, i64 worker)
** that par_for runs per chunk, and the call of par_for from L. */
typedef struct ParOutline {
  Lower B;            // lowers into the body: a parallel region, errors into the worker's record
  LLVMValueRef cv;    // the context struct, loaded
  LLVMValueRef lo, hi, worker;
} ParOutline;
/* starts the body of function name "<spec>__<kind>N": B positioned after its entry; ctx is of
** type ctxt, its field errfield the workers' error records */
void lower_par_body(Lower *L, ParOutline *P, const char *kind, LLVMTypeRef ctxt, unsigned errfield);
/* ends it: the status returned from B's cleanup block (B positioned there) */
LLVMValueRef lower_par_body_end(ParOutline *P);
/* par_for(n, body, ctx) from L. lower_par_call_begin saves the stack, counts the workers (nw64)
** and makes their clean error records, and a counter slot w; lower_par_call runs the loop with
** context cval (its errfield set here): on failure the first failing worker's error becomes
** L's, on_fail(L, ud) runs (may be NULL), and L returns; lower_par_call_end restores the stack
** (per-worker arrays alloca'd after begin live until then) */
typedef struct ParCall {
  LLVMValueRef nw64, sp, errs, w;
} ParCall;
void lower_par_call_begin(Lower *L, ParCall *pc);
void lower_par_call(Lower *L, ParCall *pc, LLVMValueRef n, LLVMValueRef body, LLVMTypeRef ctxt, LLVMValueRef cval,
                    unsigned errfield, void (*on_fail)(Lower *L, void *ud), void *ud);
void lower_par_call_end(Lower *L, ParCall *pc);
/* for w in [0, nw64): each(L, w, ud) (counted in pc->w) */
void lower_par_each_worker(Lower *L, ParCall *pc, void (*each)(Lower *L, LLVMValueRef w, void *ud), void *ud);
/* Target.array_index_fill of the CPU (lower_parloop.c), at most 14 caps */
typedef LLVMValueRef (*IndexFillFn)(Lower *L, LLVMValueRef i, LLVMValueRef *caps, void *ud);
void lower_index_fill(Lower *L, Val a, LLVMValueRef *caps, int ncap, IndexFillFn fn, void *ud, const char *what);
/* every element of a = v, on the thread pool in a parallel function (lower_parloop.c) */
bool lower_par_fill(Lower *L, Val a, LLVMValueRef v);
void lower_return(Lower *L, Node *value);
const char *lower_wrapper(Compile *C, FuncSpec *entry);

/* statements (lower_stmt.c) */
void lower_body(Lower *L, NodeList *body);
/* target = v, as an assignment stores it (a name takes its own reference) */
void lower_store_target(Lower *L, Node *t, Val v);
/* v into local slot: the slot takes a reference (v's own if owned), its old value drops one */
void lower_store_local(Lower *L, int slot, Val v);
/* Target.array_fuse of the CPU (lower_parfuse.c) */
int lower_parfuse(Lower *L, NodeList *body, int at);
/* len(range(start, stop, step)) for step != 0, never overflowing (an unsigned count) */
LLVMValueRef lower_range_count(Lower *L, LLVMValueRef start, LLVMValueRef stop, LLVMValueRef step);
/* loops over every element of array value a (any layout), calling fn with each element's pointer */
typedef void (*ElemFn)(Lower *L, LLVMValueRef ptr, LLVMValueRef linear, void *ud);
void lower_foreach(Lower *L, Val a, ElemFn fn, void *ud);
/* Target.array_reduce of the CPU (lower_parloop.c) */
bool lower_par_reduce(Lower *L, Val a, ElemFn fn, void *ud, LLVMValueRef **slots, LLVMTypeRef *tys, int nacc,
                      LLVMValueRef (*combine)(Lower *L, int i, LLVMValueRef cur, LLVMValueRef part, void *ud));
/* nested loops over shape[0..nd) in C order, calling fn with the counters (lower_fancyindex.c) */
typedef void (*NestFn)(Lower *L, LLVMValueRef *ctr, void *ud);
void lower_nest(Lower *L, int nd, LLVMValueRef *shape, NestFn fn, void *ud);

/* Lua 5.4 semantics (lower_lua.c), used where opt.lua is set */
LLVMValueRef lower_lua_binop(Lower *L, OpKind op, Val a, Val b, Type *rt);  /* NULL: Python's rule is Lua's */
LLVMValueRef lower_lua_index(Lower *L, LLVMValueRef i, LLVMValueRef dim);   /* 1-based → 0-based, unchecked */
void lower_lua_for(Lower *L, Node *s);
void lower_lua_integral(Lower *L, LLVMValueRef x);  /* math.floor/ceil: x must fit an int64 */

#endif
