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
    if (t->nelems < 1 || t->nelems > LM_MAXDIM)
      compile_error(I->C, shape->loc, "TypingError", "arrays have 1 to %d dimensions", LM_MAXDIM);
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
    dflt = ft->dtype;
  }
  ci->dt = infer_dtype_of(I, dtn, dflt);
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
  Type *at[3];
  if (!infer_arg_types(I, n->args.items, n->args.len, at)) return NULL;
  bool anyfloat = false;
  for (int i = 0; i < n->args.len; i++) {
    infer_scalar_arg(I, n->args.items[i], at[i], fname);
    anyfloat = anyfloat || ty_is_float(at[i]);
  }
  ci->dt = infer_dtype_of(I, infer_arg_or_kw(n, 99, "dtype"), anyfloat ? DT_FLOAT64 : DT_INT64);
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
  Val a = lower_alloc(L, t, shape);
  /* nrt_alloc zeroes: empty and zeros are done */
  if (is_ones(ci->bi) || is_full(ci->bi)) {
    int mark = lower_hold(L, a);  /* the fill value may raise */
    Val fv = is_ones(ci->bi) ? (Val){ty_int64, lower_i64(L, 1), false} : lower_expr(L, ci->args[1]);
    lower_unhold(L, mark);
    lower_fill(L, a, lower_cast(L, fv, ty_scalar(t->dtype)).v);
  }
  return a;
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
  Val a = lower_alloc(L, t, &len);
  /* fill: a[i] = start + i * step */
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  LLVMValueRef ctr = lower_entry_alloca(L, i64, "ar");
  LLVMBuildStore(L->b, lower_i64(L, 0), ctr);
  LLVMBasicBlockRef head = lower_block(L, "ar"), body = lower_block(L, "arbody"), end = lower_block(L, "arend");
  LLVMBuildBr(L->b, head);
  LLVMPositionBuilderAtEnd(L->b, head);
  LLVMValueRef i = LLVMBuildLoad2(L->b, i64, ctr, "");
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, i, len, ""), body, end);
  LLVMPositionBuilderAtEnd(L->b, body);
  LLVMValueRef fi = lower_cast(L, (Val){ty_int64, i, false}, ct).v;
  LLVMValueRef v = ct == ty_float64 ? LLVMBuildFAdd(L->b, start, LLVMBuildFMul(L->b, fi, step, ""), "")
                                    : LLVMBuildAdd(L->b, start, LLVMBuildMul(L->b, fi, step, ""), "");
  LLVMValueRef p = LLVMBuildInBoundsGEP2(L->b, lower_mem_type(L, t->dtype), lower_arr_data(L, a.v), &i, 1, "");
  lower_store_elem(L, t->dtype, p, lower_cast(L, (Val){ct, v, false}, ty_scalar(t->dtype)).v);
  LLVMBuildStore(L->b, LLVMBuildNSWAdd(L->b, i, lower_i64(L, 1), ""), ctr);
  LLVMBuildBr(L->b, head);
  LLVMPositionBuilderAtEnd(L->b, end);
  return a;
}
