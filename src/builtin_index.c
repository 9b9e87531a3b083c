/*
** builtin_index.c — the registry's family of index functions: np.where
** (one argument: np.nonzero; three: an elementwise choice, broadcast),
** a.nonzero() / np.nonzero, np.argwhere, np.flatnonzero,
** np.count_nonzero, and np.newaxis (None). The arrays they make come from
** the NRT: CPU only. np.where(c, x, y) runs its own loop; fusing it into
** array expressions (lower_arrayexpr.c) is left for later.
*/
#include "builtin_hooks.h"

static LLVMTypeRef i64t(Lower *L) { return LLVMInt64TypeInContext(L->ctx); }
static Type *int64_1d(Compile *C) { return ty_array(&C->S->types, DT_INT64, 1, 'C'); }

/* ---- np.newaxis ---- */

Type *bindex_infer_newaxis(Infer *I, Node *n, const BuiltinName *nm, Type *base) {
  (void)I, (void)n, (void)nm, (void)base;
  return &ty_none;
}

Val bindex_lower_newaxis(Lower *L, Node *n, BuiltinId id, Val base) {
  (void)n, (void)id, (void)base;
  return (Val){&ty_none, LLVMConstInt(LLVMInt8TypeInContext(L->ctx), 0, 0), false};
}

/* ---- typing ---- */

static Type *need_array(Infer *I, Node *a, Type *t, const char *fname) {
  if (t->kind != TY_ARRAY)
    compile_error(I->C, a->loc, "TypingError", "%s() needs an array, not %s", fname, tyname(I->C, t));
  return t;
}

/* np.nonzero(a), a.nonzero(), np.where(c): one int64 array per axis (a 0-d array counts as 1-d) */
static Type *nonzero_type(Infer *I, Type *a) {
  Type *el[LM_MAXDIM];
  int nd = a->ndim ? a->ndim : 1;
  for (int k = 0; k < nd; k++) el[k] = int64_1d(I->C);
  return ty_tuple(&I->C->S->types, el, nd);
}

Type *bindex_infer_nonzero(Infer *I, Node *n, CallInfo *ci, Type *a) {
  if (ci->nargs > 0) compile_error(I->C, n->loc, "TypingError", "nonzero() takes no arguments (%d given)", ci->nargs);
  return nonzero_type(I, a);
}

static Type *value_or_array(Infer *I, Node *a, Type *t) {
  if (t->kind != TY_ARRAY && !ty_is_number(t))
    compile_error(I->C, a->loc, "TypingError", "where() needs numbers or arrays, not %s", tyname(I->C, t));
  return t;
}

Type *bindex_infer_find(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  const Builtin *b = builtin_of(nm);
  infer_no_keywords(I, n, b->member);
  infer_nargs(I, n, b->member, b->lo, b->hi);
  if (nm->id == BI_numpy_where && n->args.len == 2)
    compile_error(C, n->loc, "TypingError", "where() takes 1 or 3 arguments (2 given)");
  CallInfo *ci = infer_new_info(I, n, CALL_BUILTIN, b->name);
  ci->bi = nm->id;
  Type *at[3];
  if (!infer_arg_types(I, n->args.items, n->args.len, at)) return NULL;
  if (n->args.len == 3) {
    /* Numba's choice of dtype: NumPy's promotion of x's and y's dtypes, scalars as their own */
    int nd = 0;
    for (int i = 0; i < 3; i++) {
      value_or_array(I, n->args.items[i], at[i]);
      if (at[i]->kind == TY_ARRAY && at[i]->ndim > nd) nd = at[i]->ndim;
    }
    Type *xa = ty_array(&C->S->types, at[1]->dtype, 1, 'A'), *ya = ty_array(&C->S->types, at[2]->dtype, 1, 'A');
    return ty_array(&C->S->types, infer_arrayexpr_common(xa, ya), nd, 'C');
  }
  Type *a = need_array(I, n->args.items[0], at[0], b->member);
  switch (nm->id) {
    case BI_numpy_where: return nonzero_type(I, a);
    case BI_numpy_argwhere: return ty_array(&C->S->types, DT_INT64, 2, 'C');
    case BI_numpy_flatnonzero: return int64_1d(C);
    default: return ty_int64;  /* count_nonzero */
  }
}

/* ---- lowering: scans of the true elements ---- */

typedef enum { SCAN_COUNT, SCAN_NONZERO, SCAN_ARGWHERE, SCAN_FLAT } ScanKind;

typedef struct Scan {
  ScanKind kind;
  Val a;
  LLVMValueRef cnt, lin;       // allocas: true elements so far, elements so far
  LLVMValueRef out[LM_MAXDIM]; // int64 data of the results
  int nout;
} Scan;

static LLVMValueRef elem_true(Lower *L, Val a, LLVMValueRef *ctr) {
  LLVMValueRef off = lower_i64(L, 0);
  for (int k = 0; k < a.ty->ndim; k++) off = LLVMBuildAdd(L->b, off, LLVMBuildMul(L->b, ctr[k], lower_arr_stride(L, a.v, k), ""), "");
  LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
  LLVMValueRef p = LLVMBuildBitCast(L->b, lower_arr_data(L, a.v), LLVMPointerType(i8, 0), "");
  p = LLVMBuildInBoundsGEP2(L->b, i8, p, &off, 1, "");
  p = LLVMBuildBitCast(L->b, p, LLVMPointerType(lower_mem_type(L, a.ty->dtype), 0), "");
  Val x = {ty_scalar(a.ty->dtype), lower_load_elem(L, a.ty->dtype, p), false};
  return lower_cast(L, x, ty_bool).v;  /* NaN is true, as in NumPy */
}

static void put(Lower *L, LLVMValueRef data, LLVMValueRef i, LLVMValueRef v) {
  LLVMBuildStore(L->b, v, LLVMBuildInBoundsGEP2(L->b, i64t(L), data, &i, 1, ""));
}

static void scan_elem(Lower *L, LLVMValueRef *ctr, void *ud) {
  Scan *s = ud;
  LLVMBasicBlockRef yes = lower_block(L, "nz"), next = lower_block(L, "nznext");
  LLVMBuildCondBr(L->b, elem_true(L, s->a, ctr), yes, next);
  LLVMPositionBuilderAtEnd(L->b, yes);
  LLVMValueRef j = LLVMBuildLoad2(L->b, i64t(L), s->cnt, "");
  int nd = s->a.ty->ndim;
  if (s->kind == SCAN_NONZERO)
    for (int k = 0; k < s->nout; k++) put(L, s->out[k], j, nd ? ctr[k] : lower_i64(L, 0));
  else if (s->kind == SCAN_ARGWHERE)
    for (int k = 0; k < nd; k++)
      put(L, s->out[0], LLVMBuildAdd(L->b, LLVMBuildMul(L->b, j, lower_i64(L, nd), ""), lower_i64(L, k), ""), ctr[k]);
  else if (s->kind == SCAN_FLAT)
    put(L, s->out[0], j, LLVMBuildLoad2(L->b, i64t(L), s->lin, ""));
  LLVMBuildStore(L->b, LLVMBuildAdd(L->b, j, lower_i64(L, 1), ""), s->cnt);
  LLVMBuildBr(L->b, next);
  LLVMPositionBuilderAtEnd(L->b, next);
  LLVMBuildStore(L->b, LLVMBuildAdd(L->b, LLVMBuildLoad2(L->b, i64t(L), s->lin, ""), lower_i64(L, 1), ""), s->lin);
}

static void run_scan(Lower *L, Scan *s) {
  LLVMValueRef shape[LM_MAXDIM];
  for (int k = 0; k < s->a.ty->ndim; k++) shape[k] = lower_arr_shape(L, s->a.v, k);
  LLVMBuildStore(L->b, lower_i64(L, 0), s->cnt);
  LLVMBuildStore(L->b, lower_i64(L, 0), s->lin);
  lower_nest(L, s->a.ty->ndim, shape, scan_elem, s);
}

/* count the true elements of a, then (unless only counting) allocate and fill the result */
static Val scan(Lower *L, Node *n, ScanKind kind, Val a) {
  Compile *C = L->C;
  Scan s = {.kind = SCAN_COUNT, .a = a};
  s.cnt = lower_entry_alloca(L, i64t(L), "nzcount");
  s.lin = lower_entry_alloca(L, i64t(L), "nzlin");
  int mark = lower_hold(L, a);
  run_scan(L, &s);
  LLVMValueRef count = LLVMBuildLoad2(L->b, i64t(L), s.cnt, "");
  Val r = {ty_int64, count, false};
  if (kind != SCAN_COUNT) {
    Type *rt = lower_ann(L, n)->ty;
    Val outs[LM_MAXDIM];
    s.kind = kind;
    if (kind == SCAN_NONZERO) {
      s.nout = rt->nelems;
      LLVMValueRef tv = LLVMGetUndef(lower_type(L, rt));
      for (int k = 0; k < s.nout; k++) {
        outs[k] = lower_alloc_uninit(L, int64_1d(C), &count);
        lower_hold(L, outs[k]);
        s.out[k] = lower_arr_data(L, outs[k].v);
        tv = LLVMBuildInsertValue(L->b, tv, outs[k].v, (unsigned)k, "");
      }
      r = (Val){rt, tv, true};
    } else {
      LLVMValueRef shape[2] = {count, lower_i64(L, a.ty->ndim)};
      r = lower_alloc_uninit(L, rt, shape);
      s.nout = 1;
      s.out[0] = lower_arr_data(L, r.v);
    }
    run_scan(L, &s);
  }
  lower_unhold(L, mark);
  lower_release(L, a);
  return r;
}

Val bindex_lower_nonzero(Lower *L, Node *n, BuiltinId id, Val a, Node **args, int nargs) {
  (void)id, (void)args, (void)nargs;
  return scan(L, n, SCAN_NONZERO, a);
}

/* ---- np.where(c, x, y): one loop over the broadcast shape ---- */

typedef struct Choice {
  Val v[3];                          // c, x, y
  LLVMValueRef stride[3][LM_MAXDIM]; // 0 along broadcast axes
  Val res;
  LLVMValueRef lin;
} Choice;

static Val leaf(Lower *L, Choice *w, int i, LLVMValueRef *ctr, int nd) {
  Val a = w->v[i];
  if (a.ty->kind != TY_ARRAY) return a;
  LLVMValueRef off = lower_i64(L, 0);
  for (int k = 0; k < nd; k++) off = LLVMBuildAdd(L->b, off, LLVMBuildMul(L->b, ctr[k], w->stride[i][k], ""), "");
  LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
  LLVMValueRef p = LLVMBuildBitCast(L->b, lower_arr_data(L, a.v), LLVMPointerType(i8, 0), "");
  p = LLVMBuildInBoundsGEP2(L->b, i8, p, &off, 1, "");
  p = LLVMBuildBitCast(L->b, p, LLVMPointerType(lower_mem_type(L, a.ty->dtype), 0), "");
  return (Val){ty_scalar(a.ty->dtype), lower_load_elem(L, a.ty->dtype, p), false};
}

static void choose(Lower *L, LLVMValueRef *ctr, void *ud) {
  Choice *w = ud;
  Type *rt = w->res.ty;
  Type *et = ty_scalar(rt->dtype);
  LLVMValueRef c = lower_truth(L, leaf(L, w, 0, ctr, rt->ndim));
  LLVMValueRef x = lower_cast(L, leaf(L, w, 1, ctr, rt->ndim), et).v;
  LLVMValueRef y = lower_cast(L, leaf(L, w, 2, ctr, rt->ndim), et).v;
  LLVMValueRef j = LLVMBuildLoad2(L->b, i64t(L), w->lin, "");
  LLVMValueRef p = LLVMBuildInBoundsGEP2(L->b, lower_mem_type(L, rt->dtype), lower_arr_data(L, w->res.v), &j, 1, "");
  lower_store_elem(L, rt->dtype, p, LLVMBuildSelect(L->b, c, x, y, ""));
  LLVMBuildStore(L->b, LLVMBuildAdd(L->b, j, lower_i64(L, 1), ""), w->lin);
}

static Val where3(Lower *L, Node *n, CallInfo *ci) {
  Type *rt = lower_ann(L, n)->ty;
  int nd = rt->ndim;
  Choice w = {0};
  int mark = L->nheld;
  for (int i = 0; i < 3; i++) {
    w.v[i] = lower_arg(L, ci, i);
    lower_hold(L, w.v[i]);
  }
  /* NumPy's broadcasting: axes aligned on the right, a length of 1 stretches */
  LLVMValueRef one = lower_i64(L, 1), zero = lower_i64(L, 0), shape[LM_MAXDIM];
  LLVMValueRef bad = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0);
  for (int k = 0; k < nd; k++) {
    shape[k] = one;
    for (int i = 0; i < 3; i++) {
      Type *t = w.v[i].ty;
      int j = k - (nd - (t->kind == TY_ARRAY ? t->ndim : 0));
      if (t->kind != TY_ARRAY || j < 0) continue;
      LLVMValueRef s = lower_arr_shape(L, w.v[i].v, j);
      LLVMValueRef cur1 = LLVMBuildICmp(L->b, LLVMIntEQ, shape[k], one, "");
      LLVMValueRef s1 = LLVMBuildICmp(L->b, LLVMIntEQ, s, one, "");
      LLVMValueRef ne = LLVMBuildICmp(L->b, LLVMIntNE, s, shape[k], "");
      bad = LLVMBuildOr(L->b, bad, LLVMBuildAnd(L->b, ne, LLVMBuildNot(L->b, LLVMBuildOr(L->b, cur1, s1, ""), ""), ""), "");
      shape[k] = LLVMBuildSelect(L->b, cur1, s, shape[k], "");
    }
  }
  if (nd > 0) lower_raise_if(L, bad, LMERR_VALUE, "operands could not be broadcast together");
  for (int i = 0; i < 3; i++) {
    Type *t = w.v[i].ty;
    if (t->kind != TY_ARRAY) continue;
    for (int k = 0; k < nd; k++) {
      int j = k - (nd - t->ndim);
      if (j < 0) { w.stride[i][k] = zero; continue; }
      LLVMValueRef s1 = LLVMBuildICmp(L->b, LLVMIntEQ, lower_arr_shape(L, w.v[i].v, j), one, "");
      w.stride[i][k] = LLVMBuildSelect(L->b, s1, zero, lower_arr_stride(L, w.v[i].v, j), "");
    }
  }
  w.res = lower_alloc_uninit(L, rt, shape);
  w.lin = lower_entry_alloca(L, i64t(L), "wlin");
  LLVMBuildStore(L->b, zero, w.lin);
  lower_nest(L, nd, shape, choose, &w);
  lower_unhold(L, mark);
  for (int i = 0; i < 3; i++) lower_release(L, w.v[i]);
  return w.res;
}

Val bindex_lower_find(Lower *L, Node *n, CallInfo *ci) {
  if (ci->nargs == 3) return where3(L, n, ci);
  Val a = lower_arg(L, ci, 0);
  switch (ci->bi) {
    case BI_numpy_where: return scan(L, n, SCAN_NONZERO, a);
    case BI_numpy_argwhere: return scan(L, n, SCAN_ARGWHERE, a);
    case BI_numpy_flatnonzero: return scan(L, n, SCAN_FLAT, a);
    default: return scan(L, n, SCAN_COUNT, a);
  }
}
