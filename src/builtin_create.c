/*
** builtin_create.c — the array creation family of the registry:
** np.empty/zeros/ones/full, their *_like forms, np.arange. The arrays come
** from the NRT (lower_alloc), so these are CPU only.
*/
#include "builtin_hooks.h"

static bool is_like(BuiltinId id) {
  return id == BI_numpy_empty_like || id == BI_numpy_zeros_like || id == BI_numpy_ones_like || id == BI_numpy_full_like;
}
static bool is_full(BuiltinId id) { return id == BI_numpy_full || id == BI_numpy_full_like; }
static bool is_ones(BuiltinId id) { return id == BI_numpy_ones || id == BI_numpy_ones_like; }

/* the number of dimensions a shape argument gives (int: 1, tuple: its length) */
static int shape_ndim(Infer *I, Node *shape, Type *t) {
  if (ty_is_int(t)) return 1;
  if (t->kind == TY_TUPLE) {
    for (int i = 0; i < t->nelems; i++)
      if (!ty_is_int(t->elems[i]))
        compile_error(I->C, shape->loc, "TypingError", "shape elements must be integers, not %s", tyname(I->C, t->elems[i]));
    if (t->nelems > LM_MAXDIM)  /* () is a 0-d array's shape */
      compile_error(I->C, shape->loc, "TypingError", "arrays have at most %d dimensions", LM_MAXDIM);
    return t->nelems;
  }
  compile_error(I->C, shape->loc, "TypingError", "a shape must be an integer or a tuple of integers, not %s",
                tyname(I->C, t));
}

Type *bcreate_infer_alloc(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  const Builtin *b = builtin_of(nm);
  const char *fname = b->member;
  bool like = is_like(nm->id);
  bool full = is_full(nm->id);
  infer_only_keywords(I, n, fname, b->keywords);
  Node *shape = infer_arg_or_kw(n, 0, like ? "a" : "shape");
  Node *fill = full ? infer_arg_or_kw(n, 1, "fill_value") : NULL;
  Node *dtn = infer_arg_or_kw(n, full ? 2 : 1, "dtype");
  if (shape == NULL) compile_error(C, n->loc, "TypingError", "%s() missing its %s argument", fname, like ? "array" : "shape");
  if (full && fill == NULL) compile_error(C, n->loc, "TypingError", "%s() missing its fill_value argument", fname);
  if (n->args.len > b->hi) compile_error(C, n->loc, "TypingError", "%s() takes at most %d arguments", fname, b->hi);
  CallInfo *ci = infer_new_info(I, n, CALL_BUILTIN, b->name);
  ci->bi = nm->id;
  Type *st = infer_expr(I, shape);
  Type *ft = fill ? infer_expr(I, fill) : NULL;
  if (st == NULL || (fill && ft == NULL)) return NULL;
  int ndim;
  DType dflt = DT_FLOAT64;
  if (like) {
    if (st->kind != TY_ARRAY) compile_error(C, shape->loc, "TypingError", "%s() needs an array, not %s", fname, tyname(C, st));
    ndim = st->ndim;
    dflt = st->dtype;
  } else {
    ndim = shape_ndim(I, shape, st);
  }
  if (ft) {
    infer_scalar_arg(I, fill, ft, fname);
    if (!like) dflt = ft->dtype;  /* full: the value's dtype; full_like: the array's */
  }
  ci->dt = infer_dtype_of_any(I, dtn, dflt);
  if (dtype_is_record(ci->dt) && nm->id != BI_numpy_zeros && nm->id != BI_numpy_empty &&
      nm->id != BI_numpy_zeros_like && nm->id != BI_numpy_empty_like)  /* Numba's: a record has no 1 to fill with */
    compile_error(C, dtn ? dtn->loc : n->loc, "TypingError", "%s() does not support record dtypes: use np.zeros or np.empty",
                  fname);
  ci->args = arena_alloc(C->A, sizeof(Node *) * 2);
  ci->args[0] = shape;
  ci->args[1] = fill;
  ci->nargs = fill ? 2 : 1;
  return ty_array(&C->S->types, ci->dt, ndim, 'C');
}

Type *bcreate_infer_arange(Infer *I, Node *n, const BuiltinName *nm) {
  const Builtin *b = builtin_of(nm);
  const char *fname = b->member;
  infer_only_keywords(I, n, fname, b->keywords);
  infer_nargs(I, n, fname, b->lo, b->hi);
  CallInfo *ci = infer_new_info(I, n, CALL_BUILTIN, b->name);
  ci->bi = nm->id;
  ci->nargs = n->args.len < 3 ? n->args.len : 3;  /* a 4th positional argument is the dtype */
  Type *at[3];
  if (!infer_arg_types(I, n->args.items, ci->nargs, at)) return NULL;
  bool anyfloat = false;
  for (int i = 0; i < ci->nargs; i++) {
    infer_scalar_arg(I, n->args.items[i], at[i], fname);
    anyfloat = anyfloat || ty_is_float(at[i]);
  }
  ci->dt = infer_dtype_of(I, infer_arg_or_kw(n, 3, "dtype"), anyfloat ? DT_FLOAT64 : DT_INT64);
  return ty_array(&I->C->S->types, ci->dt, 1, 'C');
}

Val bcreate_lower_alloc(Lower *L, Node *n, CallInfo *ci) {
  Type *t = lower_ann(L, n)->ty;
  LLVMValueRef shape[LM_MAXDIM];
  Val s = lower_expr(L, ci->args[0]);
  if (is_like(ci->bi)) {
    for (int k = 0; k < t->ndim; k++) shape[k] = lower_arr_shape(L, s.v, k);
    lower_release(L, s);
  } else if (s.ty->kind == TY_TUPLE) {
    for (int k = 0; k < t->ndim; k++)
      shape[k] = lower_cast(L, (Val){s.ty->elems[k], LLVMBuildExtractValue(L->b, s.v, (unsigned)k, ""), false}, ty_int64).v;
  } else {
    shape[0] = lower_cast(L, s, ty_int64).v;
  }
  /* zeros needs nrt_alloc's zero fill; ones and full overwrite every
  ** element, and empty promises nothing (as NumPy's) */
  bool zero = ci->bi == BI_numpy_zeros || ci->bi == BI_numpy_zeros_like;
  Val a = zero ? lower_alloc(L, t, shape) : lower_alloc_uninit(L, t, shape);
  if (is_ones(ci->bi) || is_full(ci->bi)) {
    int mark = lower_hold(L, a);  /* the fill value may raise */
    Val fv = is_ones(ci->bi) ? (Val){ty_int64, lower_i64(L, 1), false} : lower_expr(L, ci->args[1]);
    lower_unhold(L, mark);
    lower_fill(L, a, lower_cast(L, fv, ty_scalar(t->dtype)).v);
  }
  return a;
}

/* a[i] = start + i * step (caps: start, step of the computation's type), cast to a's dtype (ud: a's type) */
static LLVMValueRef arange_elem(Lower *L, LLVMValueRef i, LLVMValueRef *caps, void *ud) {
  Type *t = ud;
  bool fl = LLVMGetTypeKind(LLVMTypeOf(caps[0])) == LLVMDoubleTypeKind;
  Type *ct = fl ? ty_float64 : ty_int64;
  LLVMValueRef fi = lower_cast(L, (Val){ty_int64, i, false}, ct).v;
  LLVMValueRef v = fl ? LLVMBuildFAdd(L->b, caps[0], LLVMBuildFMul(L->b, fi, caps[1], ""), "")
                      : LLVMBuildAdd(L->b, caps[0], LLVMBuildMul(L->b, fi, caps[1], ""), "");
  return lower_cast(L, (Val){ct, v, false}, ty_scalar(t->dtype)).v;
}

Val bcreate_lower_arange(Lower *L, Node *n, CallInfo *ci) {
  Type *t = lower_ann(L, n)->ty;
  Type *ct = ty_is_float(ty_scalar(t->dtype)) ? ty_float64 : ty_int64;
  LLVMValueRef start = lower_cast(L, (Val){ty_int64, lower_i64(L, 0), false}, ct).v, stop, step;
  step = lower_cast(L, (Val){ty_int64, lower_i64(L, 1), false}, ct).v;
  if (ci->nargs == 1) stop = lower_cast(L, lower_arg(L, ci, 0), ct).v;
  else {
    start = lower_cast(L, lower_arg(L, ci, 0), ct).v;
    stop = lower_cast(L, lower_arg(L, ci, 1), ct).v;
    if (ci->nargs == 3) step = lower_cast(L, lower_arg(L, ci, 2), ct).v;
  }
  LLVMValueRef len;
  if (ct == ty_float64) {
    lower_raise_if(L, LLVMBuildFCmp(L->b, LLVMRealOEQ, step, LLVMConstReal(lower_type(L, ct), 0), ""), LMERR_VALUE,
                   "arange: step must not be zero");
    LLVMValueRef q = LLVMBuildFDiv(L->b, LLVMBuildFSub(L->b, stop, start, ""), step, "");
    q = lower_fmath(L, "ceil", &q, 1);
    len = lower_cast(L, (Val){ty_float64, q, false}, ty_int64).v;
  } else {
    lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntEQ, step, lower_i64(L, 0), ""), LMERR_VALUE,
                   "arange: step must not be zero");
    len = lower_range_count(L, start, stop, step);
    /* an unsigned count beyond 2^63 - 1 (arange(-2**63, 2**63 - 1)): too big, not empty */
    lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntSLT, len, lower_i64(L, 0), ""), LMERR_MEMORY, "array is too big");
  }
  len = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, len, lower_i64(L, 0), ""), lower_i64(L, 0), len, "");
  Val a = lower_alloc_uninit(L, t, &len);
  LLVMValueRef caps[2] = {start, step};
  L->C->target->array_index_fill(L, a, caps, 2, arange_elem, t, "np.arange");
  return a;
}

/* ---- loops and element addresses the creation files share ---- */

LLVMValueRef bcreate_loop_begin(Lower *L, CreateLoop *lp, LLVMValueRef n) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  lp->ctr = lower_entry_alloca(L, i64, "ci");
  LLVMBuildStore(L->b, lower_i64(L, 0), lp->ctr);
  lp->head = lower_block(L, "cloop");
  LLVMBasicBlockRef body = lower_block(L, "cbody");
  lp->end = lower_block(L, "cend");
  LLVMBuildBr(L->b, lp->head);
  LLVMPositionBuilderAtEnd(L->b, lp->head);
  LLVMValueRef i = LLVMBuildLoad2(L->b, i64, lp->ctr, "");
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, i, n, ""), body, lp->end);
  LLVMPositionBuilderAtEnd(L->b, body);
  return i;
}

void bcreate_loop_end(Lower *L, CreateLoop *lp) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  LLVMBuildStore(L->b, LLVMBuildNSWAdd(L->b, LLVMBuildLoad2(L->b, i64, lp->ctr, ""), lower_i64(L, 1), ""), lp->ctr);
  LLVMBuildBr(L->b, lp->head);
  LLVMPositionBuilderAtEnd(L->b, lp->end);
}

/* the address of element (idx...) of array a of type t, through its strides (bytes) */
LLVMValueRef bcreate_elem_at(Lower *L, Type *t, LLVMValueRef a, LLVMValueRef *idx) {
  LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
  LLVMValueRef off = lower_i64(L, 0);
  for (int k = 0; k < t->ndim; k++) off = LLVMBuildAdd(L->b, off, LLVMBuildMul(L->b, idx[k], lower_arr_stride(L, a, k), ""), "");
  LLVMValueRef p = LLVMBuildBitCast(L->b, lower_arr_data(L, a), LLVMPointerType(i8, 0), "");
  p = LLVMBuildInBoundsGEP2(L->b, i8, p, &off, 1, "");
  return LLVMBuildBitCast(L->b, p, LLVMPointerType(lower_mem_type(L, t->dtype), 0), "");
}

/* an optional integer argument as an int64 (dflt when absent) */
LLVMValueRef bcreate_int_arg(Lower *L, Node *a, int64_t dflt) {
  return a ? lower_cast(L, lower_expr(L, a), ty_int64).v : lower_i64(L, dflt);
}

/* the arguments a hook found, by position in its registry row's KWS list (NULL: absent) */
Node **bcreate_bind(Infer *I, Node *n, const BuiltinName *nm, CallInfo **cip) {
  const Builtin *b = builtin_of(nm);
  infer_only_keywords(I, n, b->member, b->keywords);
  if (n->args.len < b->lo || n->args.len > b->hi) infer_nargs(I, n, b->member, b->lo, b->hi);
  CallInfo *ci = infer_new_info(I, n, CALL_BUILTIN, b->name);
  ci->bi = nm->id;
  int nk = 0;
  while (b->keywords[nk]) nk++;
  Node **args = arena_alloc(I->C->A, sizeof(Node *) * (size_t)nk);
  for (int i = 0; i < nk; i++) {
    args[i] = infer_arg_or_kw(n, i, b->keywords[i]);
    if (i < n->args.len && args[i] != n->args.items[i])
      compile_error(I->C, n->loc, "TypingError", "%s() got multiple values for argument '%s'", b->member, b->keywords[i]);
  }
  for (int i = 0; i < b->lo; i++)
    if (args[i] == NULL) compile_error(I->C, n->loc, "TypingError", "%s() missing required argument '%s'", b->member, b->keywords[i]);
  ci->args = args;
  ci->nargs = nk;
  *cip = ci;
  return args;
}

/* an optional argument that must be a number (an integer where want_int) */
bool bcreate_number_arg(Infer *I, Node *a, const char *fname, bool want_int) {
  if (a == NULL) return true;
  Type *t = infer_expr(I, a);
  if (t == NULL) return false;
  if (want_int ? !(ty_is_int(t) || ty_is_bool(t)) : !ty_is_number(t))
    compile_error(I->C, a->loc, "TypingError", "%s() needs %s here, not %s", fname, want_int ? "an integer" : "a number",
                  tyname(I->C, t));
  return true;
}

/* ---- np.linspace(start, stop, num=50, endpoint=True, dtype=None), np.logspace(..., base=10.0, ...) ---- */

enum { LS_START, LS_STOP, LS_NUM, LS_ENDPOINT, LS_BASE_OR_DTYPE, LS_DTYPE };

Type *bcreate_infer_linspace(Infer *I, Node *n, const BuiltinName *nm) {
  CallInfo *ci;
  Node **a = bcreate_bind(I, n, nm, &ci);
  const char *fname = builtin_of(nm)->member;
  bool log = nm->id == BI_numpy_logspace;
  bool ok = bcreate_number_arg(I, a[LS_START], fname, false) & bcreate_number_arg(I, a[LS_STOP], fname, false) &
            bcreate_number_arg(I, a[LS_NUM], fname, true) & bcreate_number_arg(I, a[LS_ENDPOINT], fname, false);
  if (log) ok = ok & bcreate_number_arg(I, a[LS_BASE_OR_DTYPE], fname, false);
  if (!ok) return NULL;
  ci->dt = infer_dtype_of(I, a[log ? LS_DTYPE : LS_BASE_OR_DTYPE], DT_FLOAT64);
  return ty_array(&I->C->S->types, ci->dt, 1, 'C');
}

/* NumPy's values: step = (stop - start) / div, y[i] = i * step + start (i * delta
** + start where div is 0), y[-1] = stop with the endpoint; integer dtypes floor */
typedef struct LinspaceKind {
  Type *t;
  bool log;
} LinspaceKind;

/* element i of np.linspace (caps: start, stop, step, div as a float, delta,
** div > 0, endpoint, the last index, base) or np.logspace, as NumPy computes it */
static LLVMValueRef linspace_elem(Lower *L, LLVMValueRef i, LLVMValueRef *caps, void *ud) {
  LinspaceKind *k = ud;
  LLVMTypeRef f64 = LLVMDoubleTypeInContext(L->ctx);
  LLVMValueRef start = caps[0], stop = caps[1], step = caps[2], divf = caps[3], delta = caps[4], haveDiv = caps[5];
  LLVMValueRef fi = LLVMBuildSIToFP(L->b, i, f64, "");
  /* a step that is 0 (stop == start, or an underflow): NumPy scales i / div by delta */
  LLVMValueRef zstep = LLVMBuildFCmp(L->b, LLVMRealOEQ, step, LLVMConstReal(f64, 0), "");
  LLVMValueRef scaled = LLVMBuildFMul(L->b, LLVMBuildFDiv(L->b, fi, divf, ""), delta, "");
  LLVMValueRef v = LLVMBuildSelect(L->b, LLVMBuildAnd(L->b, haveDiv, zstep, ""), scaled, LLVMBuildFMul(L->b, fi, step, ""), "");
  v = LLVMBuildFAdd(L->b, v, start, "");
  LLVMValueRef islast = LLVMBuildAnd(L->b, LLVMBuildAnd(L->b, caps[6], haveDiv, ""),
                                     LLVMBuildICmp(L->b, LLVMIntEQ, i, caps[7], ""), "");
  v = LLVMBuildSelect(L->b, islast, stop, v, "");
  if (k->log) {
    LLVMValueRef pa[2] = {caps[8], v};
    v = lower_fmath(L, "pow", pa, 2);
  }
  if (!ty_is_float(ty_scalar(k->t->dtype)) && k->t->dtype != DT_BOOL) v = lower_fmath(L, "floor", &v, 1);
  return lower_cast(L, (Val){ty_float64, v, false}, ty_scalar(k->t->dtype)).v;
}

Val bcreate_lower_linspace(Lower *L, Node *n, CallInfo *ci) {
  Type *t = lower_ann(L, n)->ty;
  Node **a = ci->args;
  bool log = ci->bi == BI_numpy_logspace;
  LLVMTypeRef f64 = LLVMDoubleTypeInContext(L->ctx);
  LLVMValueRef start = lower_cast(L, lower_expr(L, a[LS_START]), ty_float64).v;
  LLVMValueRef stop = lower_cast(L, lower_expr(L, a[LS_STOP]), ty_float64).v;
  LLVMValueRef num = bcreate_int_arg(L, a[LS_NUM], 50);
  LLVMValueRef endpoint = a[LS_ENDPOINT] ? lower_truth(L, lower_expr(L, a[LS_ENDPOINT]))
                                         : LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 1, 0);
  LLVMValueRef base = log && a[LS_BASE_OR_DTYPE] ? lower_cast(L, lower_expr(L, a[LS_BASE_OR_DTYPE]), ty_float64).v
                                                 : LLVMConstReal(f64, 10.0);
  lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntSLT, num, lower_i64(L, 0), ""), LMERR_VALUE,
                 "Number of samples must be non-negative.");
  LLVMValueRef div = LLVMBuildSelect(L->b, endpoint, LLVMBuildSub(L->b, num, lower_i64(L, 1), ""), num, "");
  LLVMValueRef delta = LLVMBuildFSub(L->b, stop, start, "");
  LLVMValueRef divf = LLVMBuildSIToFP(L->b, div, f64, "");
  LLVMValueRef haveDiv = LLVMBuildICmp(L->b, LLVMIntSGT, div, lower_i64(L, 0), "");
  LLVMValueRef step = LLVMBuildSelect(L->b, haveDiv, LLVMBuildFDiv(L->b, delta, divf, ""), delta, "");
  Val out = lower_alloc_uninit(L, t, &num);
  LLVMValueRef last = LLVMBuildSub(L->b, num, lower_i64(L, 1), "");
  LLVMValueRef caps[9] = {start, stop, step, divf, delta, haveDiv, endpoint, last, base};
  LinspaceKind k = {t, log};
  L->C->target->array_index_fill(L, out, caps, 9, linspace_elem, &k, log ? "np.logspace" : "np.linspace");
  return out;
}
