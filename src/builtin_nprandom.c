/*
** builtin_nprandom.c — the np.random family of the registry: NumPy's
** legacy RandomState in compiled code (nprandom_rt.h draws; this file
** types the calls as Numba does and lowers each to one lm_nprand call).
** A draw without size is a float64 or int64 scalar; with size (an integer
** or a tuple) a new C array of that shape, filled in C order as NumPy
** fills it. np.random.seed seeds the calling thread's generator.
*/
#include <math.h>

#include "builtin_hooks.h"
#include "nprandom_rt.h"

/* a distribution: its runtime function, the kind of each parameter before
** size ('d' float, 'i' integer, in the row's KWS order) and the defaults of
** the optional ones */
typedef struct RandSpec {
  BuiltinId id;
  int32_t fn;
  const char *kinds;
  double dflt[3];
} RandSpec;

#define REQ NAN
static const RandSpec specs[] = {
    {BI_numpy_random_beta, NPRAND_BETA, "dd", {REQ, REQ}},
    {BI_numpy_random_binomial, NPRAND_BINOMIAL, "id", {REQ, REQ}},
    {BI_numpy_random_chisquare, NPRAND_CHISQUARE, "d", {REQ}},
    {BI_numpy_random_exponential, NPRAND_EXPONENTIAL, "d", {1.0}},
    {BI_numpy_random_f, NPRAND_F, "dd", {REQ, REQ}},
    {BI_numpy_random_gamma, NPRAND_GAMMA, "dd", {REQ, 1.0}},
    {BI_numpy_random_geometric, NPRAND_GEOMETRIC, "d", {REQ}},
    {BI_numpy_random_gumbel, NPRAND_GUMBEL, "dd", {0.0, 1.0}},
    {BI_numpy_random_hypergeometric, NPRAND_HYPERGEOMETRIC, "iii", {REQ, REQ, REQ}},
    {BI_numpy_random_laplace, NPRAND_LAPLACE, "dd", {0.0, 1.0}},
    {BI_numpy_random_logistic, NPRAND_LOGISTIC, "dd", {0.0, 1.0}},
    {BI_numpy_random_lognormal, NPRAND_LOGNORMAL, "dd", {0.0, 1.0}},
    {BI_numpy_random_logseries, NPRAND_LOGSERIES, "d", {REQ}},
    {BI_numpy_random_negative_binomial, NPRAND_NEGATIVE_BINOMIAL, "dd", {REQ, REQ}},
    {BI_numpy_random_normal, NPRAND_NORMAL, "dd", {0.0, 1.0}},
    {BI_numpy_random_pareto, NPRAND_PARETO, "d", {REQ}},
    {BI_numpy_random_poisson, NPRAND_POISSON, "d", {1.0}},
    {BI_numpy_random_power, NPRAND_POWER, "d", {REQ}},
    {BI_numpy_random_rand, NPRAND_RANDOM, "", {0}},
    {BI_numpy_random_randint, NPRAND_RANDINT, "ii", {REQ, REQ}},
    {BI_numpy_random_randn, NPRAND_STANDARD_NORMAL, "", {0}},
    {BI_numpy_random_random, NPRAND_RANDOM, "", {0}},
    {BI_numpy_random_random_sample, NPRAND_RANDOM, "", {0}},
    {BI_numpy_random_ranf, NPRAND_RANDOM, "", {0}},
    {BI_numpy_random_rayleigh, NPRAND_RAYLEIGH, "d", {1.0}},
    {BI_numpy_random_sample, NPRAND_RANDOM, "", {0}},
    {BI_numpy_random_standard_cauchy, NPRAND_STANDARD_CAUCHY, "", {0}},
    {BI_numpy_random_standard_exponential, NPRAND_STANDARD_EXPONENTIAL, "", {0}},
    {BI_numpy_random_standard_gamma, NPRAND_STANDARD_GAMMA, "d", {REQ}},
    {BI_numpy_random_standard_normal, NPRAND_STANDARD_NORMAL, "", {0}},
    {BI_numpy_random_standard_t, NPRAND_STANDARD_T, "d", {REQ}},
    {BI_numpy_random_triangular, NPRAND_TRIANGULAR, "ddd", {REQ, REQ, REQ}},
    {BI_numpy_random_uniform, NPRAND_UNIFORM, "dd", {0.0, 1.0}},
    {BI_numpy_random_vonmises, NPRAND_VONMISES, "dd", {REQ, REQ}},
    {BI_numpy_random_wald, NPRAND_WALD, "dd", {REQ, REQ}},
    {BI_numpy_random_weibull, NPRAND_WEIBULL, "d", {REQ}},
    {BI_numpy_random_zipf, NPRAND_ZIPF, "d", {REQ}},
};

static const RandSpec *spec_of(BuiltinId id) {
  for (size_t i = 0; i < lm_countof(specs); i++)
    if (specs[i].id == id) return &specs[i];
  return NULL;
}

static bool is_dims_form(BuiltinId id) { return id == BI_numpy_random_rand || id == BI_numpy_random_randn; }

static bool int_result(int32_t fn) {
  switch (fn) {
    case NPRAND_BINOMIAL: case NPRAND_POISSON: case NPRAND_GEOMETRIC: case NPRAND_NEGATIVE_BINOMIAL:
    case NPRAND_ZIPF: case NPRAND_LOGSERIES: case NPRAND_HYPERGEOMETRIC: case NPRAND_RANDINT:
      return true;
    default: return false;
  }
}

static bool is_none(Node *a) { return a == NULL || (a->kind == ND_Constant && a->ckind == CK_NONE); }

static void no_gpu(Infer *I, Node *n, const Builtin *b) {
  if (I->C->opt.gpu)
    compile_error(I->C, n->loc, "UnsupportedError", "np.random.%s() is not supported inside CUDA kernels", b->member);
}

/* the dimensions a size argument gives: an integer 1, a tuple its length */
static int size_ndim(Infer *I, const Builtin *b, Node *size) {
  Type *t = infer_expr(I, size);
  if (t == NULL) return -1;
  if (ty_is_int(t)) return 1;
  if (t->kind == TY_TUPLE) {
    for (int i = 0; i < t->nelems; i++)
      if (!ty_is_int(t->elems[i]))
        compile_error(I->C, size->loc, "TypingError", "np.random.%s(): size must be a tuple of integers, not %s",
                      b->member, tyname(I->C, t));
    if (t->nelems > LM_MAXDIM)
      compile_error(I->C, size->loc, "TypingError", "arrays have at most %d dimensions", LM_MAXDIM);
    return t->nelems;
  }
  compile_error(I->C, size->loc, "TypingError", "np.random.%s(): size must be an integer or a tuple of integers, not %s",
                b->member, tyname(I->C, t));
}

static void param_arg(Infer *I, const Builtin *b, Node *a, char kind) {
  Type *t = infer_expr(I, a);
  if (t == NULL) return;
  bool ok = kind == 'i' ? ty_is_int(t) || ty_is_bool(t) : ty_is_number(t);
  if (!ok)
    compile_error(I->C, a->loc, "TypingError", "np.random.%s() needs %s here, not %s", b->member,
                  kind == 'i' ? "an integer" : "a number", tyname(I->C, t));
}

/* every distribution, np.random.rand/randn(d0, d1, ...) and randint */
Type *bnprand_infer(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  const Builtin *b = builtin_of(nm);
  const RandSpec *sp = spec_of(nm->id);
  no_gpu(I, n, b);
  DType dt = int_result(sp->fn) ? DT_INT64 : DT_FLOAT64;
  if (is_dims_form(nm->id)) {
    infer_no_keywords(I, n, b->member);
    CallInfo *ci = infer_new_info(I, n, CALL_BUILTIN, b->name);
    ci->bi = nm->id;
    ci->args = n->args.items;
    ci->nargs = n->args.len;
    if (n->args.len > LM_MAXDIM) compile_error(C, n->loc, "TypingError", "arrays have at most %d dimensions", LM_MAXDIM);
    for (int i = 0; i < n->args.len; i++) param_arg(I, b, n->args.items[i], 'i');
    return n->args.len == 0 ? ty_scalar(dt) : ty_array(&C->S->types, dt, n->args.len, 'C');
  }
  CallInfo *ci;
  Node **args = bcreate_bind(I, n, nm, &ci);
  int np = (int)strlen(sp->kinds);
  for (int i = 0; i < np; i++)
    if (args[i]) param_arg(I, b, args[i], sp->kinds[i]);
  Node *size = args[np];
  if (is_none(size)) return ty_scalar(dt);
  int nd = size_ndim(I, b, size);
  return nd < 0 ? NULL : ty_array(&C->S->types, dt, nd, 'C');
}

Type *bnprand_infer_seed(Infer *I, Node *n, const BuiltinName *nm) {
  const Builtin *b = builtin_of(nm);
  no_gpu(I, n, b);
  CallInfo *ci;
  Node **args = bcreate_bind(I, n, nm, &ci);
  if (is_none(args[0]))
    compile_error(I->C, n->loc, "TypingError", "np.random.seed() needs an integer seed in compiled code, as in Numba");
  param_arg(I, b, args[0], 'i');
  return &ty_none;
}

/* ---- lowering ---- */

static LLVMTypeRef i64t(Lower *L) { return LLVMInt64TypeInContext(L->ctx); }
static LLVMTypeRef f64t(Lower *L) { return LLVMDoubleTypeInContext(L->ctx); }
static LLVMTypeRef i8p(Lower *L) { return LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0); }

/* a runtime status: nonzero leaves for the cleanup with the error the runtime set */
static void check_status(Lower *L, LLVMValueRef st) {
  LLVMBasicBlockRef bad = lower_block(L, "randfail"), ok = lower_block(L, "randok");
  LLVMValueRef failed = LLVMBuildICmp(L->b, LLVMIntNE, st, lower_i32(L, 0), "");
  LLVMBuildCondBr(L->b, failed, bad, ok);
  LLVMPositionBuilderAtEnd(L->b, bad);
  LLVMBuildStore(L->b, st, L->status);
  lower_release_held(L);
  LLVMBuildBr(L->b, L->cleanup);
  LLVMPositionBuilderAtEnd(L->b, ok);
}

/* lm_nprand(err, fn, dp, ip, out, n), its status checked */
static void call_rt(Lower *L, int32_t fn, LLVMValueRef dp, LLVMValueRef ip, LLVMValueRef out, LLVMValueRef count) {
  LLVMTypeRef ps[6] = {LLVMPointerType(lower_err_type(L->ctx), 0), LLVMInt32TypeInContext(L->ctx),
                       LLVMPointerType(f64t(L), 0), LLVMPointerType(i64t(L), 0), i8p(L), i64t(L)};
  LLVMValueRef f = lower_rt_fn(L, "lm_nprand", LLVMInt32TypeInContext(L->ctx), ps, 6);
  if (dp == NULL) dp = LLVMConstNull(ps[2]);
  if (ip == NULL) ip = LLVMConstNull(ps[3]);
  out = out ? LLVMBuildBitCast(L->b, out, i8p(L), "") : LLVMConstNull(i8p(L));
  LLVMValueRef args[6] = {L->err, lower_i32(L, fn), dp, ip, out, count};
  check_status(L, LLVMBuildCall2(L->b, LLVMGlobalGetValueType(f), f, args, 6, ""));
}

/* an alloca of k slots of type t, and slot i's address */
static LLVMValueRef slots(Lower *L, LLVMTypeRef t, int k, const char *name) {
  return lower_entry_alloca(L, LLVMArrayType(t, (unsigned)(k > 0 ? k : 1)), name);
}
static LLVMValueRef slot(Lower *L, LLVMTypeRef t, LLVMValueRef arr, int i) {
  LLVMValueRef idx[2] = {lower_i64(L, 0), lower_i64(L, i)};
  return LLVMBuildInBoundsGEP2(L->b, LLVMArrayType(t, 1), arr, idx, 2, "");
}
static LLVMValueRef first(Lower *L, LLVMTypeRef t, LLVMValueRef arr) { return slot(L, t, arr, 0); }

/* the dimensions a size argument (an integer or a tuple of them) gives, into shape */
static void size_shape(Lower *L, Node *size, LLVMValueRef *shape) {
  Val s = lower_expr(L, size);
  if (s.ty->kind == TY_TUPLE) {
    for (int k = 0; k < s.ty->nelems; k++)
      shape[k] = lower_cast(L, (Val){s.ty->elems[k], LLVMBuildExtractValue(L->b, s.v, (unsigned)k, ""), false}, ty_int64).v;
  } else {
    shape[0] = lower_cast(L, s, ty_int64).v;
  }
}

static LLVMValueRef count_of(Lower *L, int nd, LLVMValueRef *shape) {
  LLVMValueRef c = lower_i64(L, 1);
  for (int k = 0; k < nd; k++) c = LLVMBuildMul(L->b, c, shape[k], "");
  return c;
}

/* the result: a scalar drawn into a slot, or a new array of rt's shape drawn into in place */
static Val draw(Lower *L, Type *rt, int32_t fn, LLVMValueRef dp, LLVMValueRef ip, LLVMValueRef *shape) {
  if (rt->kind == TY_SCALAR && (fn == NPRAND_RANDOM || fn == NPRAND_STANDARD_NORMAL)) {
    LLVMValueRef f = lower_rt_fn(L, fn == NPRAND_RANDOM ? "lm_nprand_random" : "lm_nprand_gauss", f64t(L), NULL, 0);
    return (Val){rt, LLVMBuildCall2(L->b, LLVMGlobalGetValueType(f), f, NULL, 0, ""), false};
  }
  if (rt->kind == TY_SCALAR) {
    LLVMTypeRef t = lower_type(L, rt);
    LLVMValueRef out = lower_entry_alloca(L, t, "draw");
    call_rt(L, fn, dp, ip, out, lower_i64(L, 1));
    return (Val){rt, LLVMBuildLoad2(L->b, t, out, ""), false};
  }
  Val a = lower_alloc_uninit(L, rt, shape);
  int mark = lower_hold(L, a);  /* freed if a parameter check fails */
  call_rt(L, fn, dp, ip, lower_arr_data(L, a.v), count_of(L, rt->ndim, shape));
  lower_unhold(L, mark);
  return a;
}

Val bnprand_lower(Lower *L, Node *n, CallInfo *ci) {
  Type *rt = lower_ann(L, n)->ty;
  const RandSpec *sp = spec_of(ci->bi);
  LLVMValueRef shape[LM_MAXDIM];
  if (is_dims_form(ci->bi)) {
    for (int k = 0; k < ci->nargs; k++) shape[k] = lower_cast(L, lower_arg(L, ci, k), ty_int64).v;
    return draw(L, rt, sp->fn, NULL, NULL, shape);
  }
  int np = (int)strlen(sp->kinds);
  LLVMValueRef dp = slots(L, f64t(L), 3, "randd"), ip = slots(L, i64t(L), 3, "randi");
  int kd = 0, ki = 0;
  Node **args = ci->args;
  bool one_arg_randint = ci->bi == BI_numpy_random_randint && args[1] == NULL;
  if (one_arg_randint) {  /* randint(high): [0, high) */
    LLVMBuildStore(L->b, lower_i64(L, 0), slot(L, i64t(L), ip, ki++));
  }
  for (int i = 0; i < np; i++) {
    if (one_arg_randint && i == 1) break;
    bool isint = sp->kinds[i] == 'i';
    LLVMValueRef v;
    if (args[i]) v = lower_cast(L, lower_arg(L, ci, i), isint ? ty_int64 : ty_float64).v;
    else v = LLVMConstReal(f64t(L), sp->dflt[i]);
    if (isint) LLVMBuildStore(L->b, v, slot(L, i64t(L), ip, ki++));
    else LLVMBuildStore(L->b, v, slot(L, f64t(L), dp, kd++));
  }
  if (rt->kind == TY_ARRAY) size_shape(L, args[np], shape);
  return draw(L, rt, sp->fn, first(L, f64t(L), dp), first(L, i64t(L), ip), shape);
}

Val bnprand_lower_seed(Lower *L, Node *n, CallInfo *ci) {
  (void)n;
  LLVMValueRef ip = slots(L, i64t(L), 1, "seed");
  LLVMBuildStore(L->b, lower_cast(L, lower_arg(L, ci, 0), ty_int64).v, first(L, i64t(L), ip));
  call_rt(L, NPRAND_SEED, NULL, first(L, i64t(L), ip), NULL, lower_i64(L, 0));
  return (Val){&ty_none, LLVMConstInt(LLVMInt8TypeInContext(L->ctx), 0, 0), false};
}

/* ---- np.random.shuffle(x), np.random.permutation(x) ---- */

static void need_shufflable(Infer *I, Node *a, Type *t, const char *fname) {
  if (t->kind != TY_ARRAY || t->ndim < 1)
    compile_error(I->C, a->loc, "TypingError", "np.random.%s() needs an array of at least one dimension%s, not %s",
                  fname, strcmp(fname, "permutation") == 0 ? " or an integer" : "", tyname(I->C, t));
  if (t->ndim > 1 && t->layout != 'C')
    compile_error(I->C, a->loc, "TypingError",
                  "np.random.%s() shuffles non-contiguous arrays of one dimension only, not %s", fname, tyname(I->C, t));
}

Type *bnprand_infer_shuffle(Infer *I, Node *n, const BuiltinName *nm) {
  const Builtin *b = builtin_of(nm);
  no_gpu(I, n, b);
  CallInfo *ci;
  Node **args = bcreate_bind(I, n, nm, &ci);
  Type *t = infer_expr(I, args[0]);
  if (t == NULL) return NULL;
  if (nm->id == BI_numpy_random_permutation && (ty_is_int(t) || ty_is_bool(t)))
    return ty_array(&I->C->S->types, DT_INT64, 1, 'C');
  need_shufflable(I, args[0], t, b->member);
  if (nm->id == BI_numpy_random_permutation) return ty_array(&I->C->S->types, t->dtype, t->ndim, 'C');
  return &ty_none;
}

/* shuffles array a (of a shufflable type) along its first axis */
static void shuffle_array(Lower *L, Val a) {
  LLVMValueRef ip = slots(L, i64t(L), 3, "shuf");
  LLVMValueRef item = lower_i64(L, dtype_sizes[a.ty->dtype]);
  for (int k = 1; k < a.ty->ndim; k++) item = LLVMBuildMul(L->b, item, lower_arr_shape(L, a.v, k), "");
  LLVMBuildStore(L->b, lower_arr_shape(L, a.v, 0), slot(L, i64t(L), ip, 0));
  LLVMBuildStore(L->b, lower_arr_stride(L, a.v, 0), slot(L, i64t(L), ip, 1));
  LLVMBuildStore(L->b, item, slot(L, i64t(L), ip, 2));
  call_rt(L, NPRAND_SHUFFLE, NULL, first(L, i64t(L), ip), lower_arr_data(L, a.v), lower_i64(L, 0));
}

typedef struct CopyCtx {
  Val out;
} CopyCtx;

static void copy_elem(Lower *L, LLVMValueRef p, LLVMValueRef lin, void *ud) {
  CopyCtx *c = ud;
  DType dt = c->out.ty->dtype;
  LLVMValueRef q = LLVMBuildInBoundsGEP2(L->b, lower_mem_type(L, dt), lower_arr_data(L, c->out.v), &lin, 1, "");
  lower_store_elem(L, dt, q, lower_load_elem(L, dt, p));
}

Val bnprand_lower_shuffle(Lower *L, Node *n, CallInfo *ci) {
  Type *rt = lower_ann(L, n)->ty;
  Val x = lower_arg(L, ci, 0);
  if (ci->bi == BI_numpy_random_shuffle) {
    int mark = lower_hold(L, x);
    shuffle_array(L, x);
    lower_unhold(L, mark);
    lower_release(L, x);
    return (Val){&ty_none, LLVMConstInt(LLVMInt8TypeInContext(L->ctx), 0, 0), false};
  }
  Val out;
  if (x.ty->kind != TY_ARRAY) {  /* permutation(n): a shuffled arange(n) */
    LLVMValueRef len = lower_cast(L, x, ty_int64).v;
    out = lower_alloc_uninit(L, rt, &len);
    CreateLoop lp;
    LLVMValueRef i = bcreate_loop_begin(L, &lp, len);
    lower_store_elem(L, DT_INT64, LLVMBuildInBoundsGEP2(L->b, i64t(L), lower_arr_data(L, out.v), &i, 1, ""), i);
    bcreate_loop_end(L, &lp);
  } else {  /* a shuffled copy */
    int mark = lower_hold(L, x);
    LLVMValueRef shape[LM_MAXDIM];
    for (int k = 0; k < rt->ndim; k++) shape[k] = lower_arr_shape(L, x.v, k);
    out = lower_alloc_uninit(L, rt, shape);
    CopyCtx c = {out};
    lower_foreach(L, x, copy_elem, &c);
    lower_unhold(L, mark);
    lower_release(L, x);
  }
  int mark = lower_hold(L, out);
  shuffle_array(L, out);
  lower_unhold(L, mark);
  return out;
}

/* ---- np.random.choice(a, size=None, replace=True, p=None) ---- */

enum { CH_A, CH_SIZE, CH_REPLACE, CH_P };

Type *bnprand_infer_choice(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  const Builtin *b = builtin_of(nm);
  no_gpu(I, n, b);
  CallInfo *ci;
  Node **args = bcreate_bind(I, n, nm, &ci);
  Type *at = infer_expr(I, args[CH_A]);
  if (at == NULL) return NULL;
  DType dt = DT_INT64;
  if (at->kind == TY_ARRAY) {
    if (at->ndim != 1) compile_error(C, args[CH_A]->loc, "ValueError", "a must be 1-dimensional");
    dt = at->dtype;
  } else if (!ty_is_int(at)) {
    compile_error(C, args[CH_A]->loc, "TypingError", "np.random.choice() needs an integer or a 1-D array, not %s",
                  tyname(C, at));
  }
  Node *rep = args[CH_REPLACE];
  if (rep && !(rep->kind == ND_Constant && rep->ckind == CK_BOOL))
    compile_error(C, rep->loc, "TypingError", "np.random.choice(): replace must be True or False as written");
  bool replace = rep == NULL || rep->bval;
  if (!is_none(args[CH_P])) {
    Type *pt = infer_expr(I, args[CH_P]);
    if (pt == NULL) return NULL;
    if (pt->kind != TY_ARRAY || pt->ndim != 1 || pt->dtype != DT_FLOAT64 || pt->layout != 'C')
      compile_error(C, args[CH_P]->loc, "TypingError", "np.random.choice(): p must be a contiguous 1-D float64 array, not %s",
                    tyname(C, pt));
    if (!replace)
      compile_error(C, n->loc, "UnsupportedError", "np.random.choice() with p and replace=False is not supported yet");
  }
  if (is_none(args[CH_SIZE])) return ty_scalar(dt);
  int nd = size_ndim(I, b, args[CH_SIZE]);
  return nd < 0 ? NULL : ty_array(&C->S->types, dt, nd, 'C');
}

Val bnprand_lower_choice(Lower *L, Node *n, CallInfo *ci) {
  Type *rt = lower_ann(L, n)->ty;
  Node **args = ci->args;
  int mark = L->nheld;
  Val a = lower_arg(L, ci, CH_A);
  bool arr = a.ty->kind == TY_ARRAY;
  if (arr) lower_hold(L, a);
  LLVMValueRef pop = arr ? lower_arr_shape(L, a.v, 0) : lower_cast(L, a, ty_int64).v;
  LLVMValueRef shape[LM_MAXDIM];
  int nd = rt->kind == TY_ARRAY ? rt->ndim : 0;
  if (nd || rt->kind == TY_ARRAY) size_shape(L, args[CH_SIZE], shape);
  LLVMValueRef count = count_of(L, nd, shape);
  Val p = {0};
  bool with_p = !is_none(args[CH_P]);
  if (with_p) {
    p = lower_arg(L, ci, CH_P);
    lower_hold(L, p);
    lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntNE, lower_arr_shape(L, p.v, 0), pop, ""), LMERR_VALUE,
                   "'a' and 'p' must have same size");
  }
  bool replace = args[CH_REPLACE] == NULL || args[CH_REPLACE]->bval;
  LLVMValueRef some = LLVMBuildICmp(L->b, LLVMIntSGT, count, lower_i64(L, 0), "");
  LLVMValueRef empty = LLVMBuildICmp(L->b, LLVMIntSLE, pop, lower_i64(L, 0), "");
  lower_raise_if(L, LLVMBuildAnd(L->b, some, empty, ""), LMERR_VALUE,
                 arr ? "'a' cannot be empty unless no samples are taken"
                     : "a must be greater than 0 unless no samples are taken");
  /* the indices: into the result itself (a an integer), else into a temporary */
  Type *it = rt->kind == TY_ARRAY ? ty_array(&L->C->S->types, DT_INT64, nd, 'C') : ty_int64;
  LLVMValueRef ip = slots(L, i64t(L), 2, "chi");
  int32_t fn;
  LLVMValueRef dp = NULL;
  if (with_p) {
    fn = NPRAND_CHOICE_P;
    LLVMBuildStore(L->b, pop, slot(L, i64t(L), ip, 0));
    dp = LLVMBuildBitCast(L->b, lower_arr_data(L, p.v), LLVMPointerType(f64t(L), 0), "");
  } else if (replace) {
    fn = NPRAND_RANDINT;
    LLVMBuildStore(L->b, lower_i64(L, 0), slot(L, i64t(L), ip, 0));
    LLVMBuildStore(L->b, pop, slot(L, i64t(L), ip, 1));
  } else {
    fn = NPRAND_CHOICE_NOREPLACE;
    LLVMBuildStore(L->b, pop, slot(L, i64t(L), ip, 0));
  }
  Val idx = draw(L, it, fn, dp, first(L, i64t(L), ip), shape);
  if (with_p) lower_release(L, p);
  if (!arr) {
    lower_unhold(L, mark);
    return idx;
  }
  /* gather a[idx] */
  DType dt = a.ty->dtype;
  LLVMValueRef base = LLVMBuildBitCast(L->b, lower_arr_data(L, a.v), i8p(L), ""), st = lower_arr_stride(L, a.v, 0);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx), mp = LLVMPointerType(lower_mem_type(L, dt), 0);
  Val out;
  if (rt->kind == TY_SCALAR) {
    LLVMValueRef off = LLVMBuildMul(L->b, idx.v, st, "");
    LLVMValueRef q = LLVMBuildBitCast(L->b, LLVMBuildGEP2(L->b, i8, base, &off, 1, ""), mp, "");
    out = (Val){rt, lower_load_elem(L, dt, q), false};
  } else {
    lower_hold(L, idx);
    out = lower_alloc_uninit(L, rt, shape);
    CreateLoop lp;
    LLVMValueRef i = bcreate_loop_begin(L, &lp, count);
    LLVMValueRef k = LLVMBuildLoad2(L->b, i64t(L), LLVMBuildInBoundsGEP2(L->b, i64t(L), lower_arr_data(L, idx.v), &i, 1, ""), "");
    LLVMValueRef off = LLVMBuildMul(L->b, k, st, "");
    LLVMValueRef q = LLVMBuildBitCast(L->b, LLVMBuildGEP2(L->b, i8, base, &off, 1, ""), mp, "");
    LLVMValueRef d = LLVMBuildInBoundsGEP2(L->b, lower_mem_type(L, dt), lower_arr_data(L, out.v), &i, 1, "");
    lower_store_elem(L, dt, d, lower_load_elem(L, dt, q));
    bcreate_loop_end(L, &lp);
    lower_release(L, idx);
  }
  lower_unhold(L, mark);
  lower_release(L, a);
  return out;
}

/* ---- np.random.multinomial(n, pvals, size=None), np.random.dirichlet(alpha, size=None) ---- */

/* a row of results per sample: the shape size + (len(vector),) */
Type *bnprand_infer_rows(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  const Builtin *b = builtin_of(nm);
  no_gpu(I, n, b);
  CallInfo *ci;
  Node **args = bcreate_bind(I, n, nm, &ci);
  bool multi = nm->id == BI_numpy_random_multinomial;
  if (multi) param_arg(I, b, args[0], 'i');
  Node *vec = args[multi ? 1 : 0];
  Type *vt = infer_expr(I, vec);
  if (vt == NULL) return NULL;
  if (vt->kind != TY_ARRAY || vt->ndim != 1 || vt->dtype != DT_FLOAT64 || vt->layout != 'C')
    compile_error(C, vec->loc, "TypingError", "np.random.%s(): %s must be a contiguous 1-D float64 array, not %s",
                  b->member, multi ? "pvals" : "alpha", tyname(C, vt));
  Node *size = args[multi ? 2 : 1];
  int nd = is_none(size) ? 0 : size_ndim(I, b, size);
  if (nd < 0) return NULL;
  if (nd + 1 > LM_MAXDIM) compile_error(C, size->loc, "TypingError", "arrays have at most %d dimensions", LM_MAXDIM);
  return ty_array(&C->S->types, multi ? DT_INT64 : DT_FLOAT64, nd + 1, 'C');
}

Val bnprand_lower_rows(Lower *L, Node *n, CallInfo *ci) {
  Type *rt = lower_ann(L, n)->ty;
  bool multi = ci->bi == BI_numpy_random_multinomial;
  int mark = L->nheld;
  LLVMValueRef ip = slots(L, i64t(L), 2, "rows");
  if (multi) LLVMBuildStore(L->b, lower_cast(L, lower_arg(L, ci, 0), ty_int64).v, slot(L, i64t(L), ip, 0));
  Val v = lower_arg(L, ci, multi ? 1 : 0);
  lower_hold(L, v);
  LLVMValueRef k = lower_arr_shape(L, v.v, 0);
  LLVMBuildStore(L->b, k, slot(L, i64t(L), ip, multi ? 1 : 0));
  LLVMValueRef shape[LM_MAXDIM];
  Node *size = ci->args[multi ? 2 : 1];
  if (rt->ndim > 1) size_shape(L, size, shape);
  shape[rt->ndim - 1] = k;
  LLVMValueRef rows = count_of(L, rt->ndim - 1, shape);
  Val out = lower_alloc_uninit(L, rt, shape);
  lower_hold(L, out);
  LLVMValueRef dp = LLVMBuildBitCast(L->b, lower_arr_data(L, v.v), LLVMPointerType(f64t(L), 0), "");
  call_rt(L, multi ? NPRAND_MULTINOMIAL : NPRAND_DIRICHLET, dp, first(L, i64t(L), ip), lower_arr_data(L, out.v), rows);
  lower_unhold(L, mark);
  lower_release(L, v);
  return out;
}
