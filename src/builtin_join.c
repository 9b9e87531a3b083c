/*
** builtin_join.c — the join family of the registry: np.concatenate,
** stack, hstack, vstack, dstack, column_stack, append (new arrays made of
** pieces), np.split/array_split (a tuple of views: lumba has no lists, so
** the number of pieces is a compile-time constant), np.roll, np.repeat,
** np.tile, np.diff. Axes are compile-time constants. The sequence of arrays
** is a tuple or list written in the call, or a tuple value.
*/
#include <stdio.h>
#include <string.h>

#include "builtin_shape.h"

static bool is_none(Node *n) { return n && n->kind == ND_Constant && n->ckind == CK_NONE; }

/* ---- the sequence argument ---- */

/* the arrays' types: a tuple or list literal, or a tuple value; -1 while one is unknown */
static int seq_types(Infer *I, Node *s, const char *fname, Type **out) {
  Compile *C = I->C;
  int n;
  if (s->kind == ND_Tuple || s->kind == ND_List) {
    n = s->elts.len;
    if (n > LM_MAXARGS) compile_error(C, s->loc, "UnsupportedError", "%s(): too many arrays", fname);
    if (!infer_arg_types(I, s->elts.items, n, out)) return -1;
  } else {
    Type *t = infer_expr(I, s);
    if (t == NULL) return -1;
    if (t->kind != TY_TUPLE) compile_error(C, s->loc, "TypingError", "%s() needs a tuple of arrays, not %s", fname, tyname(C, t));
    n = t->nelems;
    for (int i = 0; i < n; i++) out[i] = t->elems[i];
  }
  if (n == 0) compile_error(C, s->loc, "TypingError", "need at least one array to concatenate");
  for (int i = 0; i < n; i++)
    if (out[i]->kind != TY_ARRAY)
      compile_error(C, s->loc, "TypingError", "%s() needs arrays, not %s (at index %d)", fname, tyname(C, out[i]), i);
  return n;
}

typedef struct Seq {
  Val item[LM_MAXARGS];
  int n;
  Val owner;      // a tuple value holding the items (none for a literal: the items are owned themselves)
  bool tuple;
} Seq;

/* the arrays, held until seq_release */
static void seq_lower(Lower *L, Node *s, Seq *q) {
  if (s->kind == ND_Tuple || s->kind == ND_List) {
    q->tuple = false;
    q->n = s->elts.len;
    for (int i = 0; i < q->n; i++) {
      q->item[i] = lower_expr(L, s->elts.items[i]);
      lower_hold(L, q->item[i]);
    }
    return;
  }
  q->tuple = true;
  q->owner = lower_expr(L, s);
  lower_hold(L, q->owner);
  q->n = q->owner.ty->nelems;
  for (int i = 0; i < q->n; i++)
    q->item[i] = (Val){q->owner.ty->elems[i], LLVMBuildExtractValue(L->b, q->owner.v, (unsigned)i, ""), false};
}

static void seq_release(Lower *L, Seq *q) {
  if (q->tuple) lower_release(L, q->owner);
  else for (int i = 0; i < q->n; i++) lower_release(L, q->item[i]);
}

/* ---- joining pieces of one ndim along an axis ---- */

/* a new C array of dtype dt: the pieces (held by the caller) one after the other along axis */
static Val join(Lower *L, Val *p, int n, int axis, Type *rt) {
  int nd = rt->ndim;
  LLVMValueRef shape[LM_MAXDIM];
  for (int k = 0; k < nd; k++) shape[k] = lower_arr_shape(L, p[0].v, k);
  for (int i = 1; i < n; i++) {
    for (int k = 0; k < nd; k++) {
      LLVMValueRef d = lower_arr_shape(L, p[i].v, k);
      if (k == axis) {
        shape[k] = LLVMBuildAdd(L->b, shape[k], d, "");
        continue;
      }
      char fmt[256];
      snprintf(fmt, sizeof fmt,
               "all the input array dimensions except for the concatenation axis must match exactly, but along dimension "
               "%d, the array at index 0 has size %%I and the array at index %d has size %%I", k, i);
      LLVMValueRef vals[2] = {shape[k], d};
      lower_raise_fmt_if(L, LLVMBuildICmp(L->b, LLVMIntNE, shape[k], d, ""), arena_strdup(L->C->A, fmt), vals, 2);
    }
  }
  Val out = lower_alloc_uninit(L, rt, shape);
  LLVMValueRef off = lower_i64(L, 0), st = lower_arr_stride(L, out.v, axis);
  for (int i = 0; i < n; i++) {
    LLVMValueRef sh[LM_MAXDIM], sts[LM_MAXDIM];
    for (int k = 0; k < nd; k++) {
      sh[k] = lower_arr_shape(L, p[i].v, k);
      sts[k] = lower_arr_stride(L, out.v, k);
    }
    LLVMValueRef data = LLVMBuildGEP2(L->b, lower_mem_type(L, rt->dtype), lower_arr_data(L, out.v),
                                      (LLVMValueRef[]){LLVMBuildSDiv(L->b, LLVMBuildMul(L->b, off, st, ""),
                                                                     lower_i64(L, dtype_sizes[rt->dtype]), "")}, 1, "");
    Val dst = {ty_array(&L->C->S->types, rt->dtype, nd, 'A'), lower_arr_make(L, rt, lower_arr_mi(L, out.v), data, sh, sts), false};
    bshape_copy(L, dst, p[i]);
    off = LLVMBuildAdd(L->b, off, sh[axis], "");
  }
  return out;
}

/* piece p with length-1 axes added: NumPy's atleast_Nd (column: a 1-d array as a column) */
static Val atleast(Lower *L, Val p, int want, bool column) {
  int nd = p.ty->ndim;
  if (nd >= want) return p;
  bool nw[LM_MAXDIM] = {0};
  if (column && nd == 1) nw[1] = true;
  else if (nd == 0) for (int k = 0; k < want; k++) nw[k] = true;
  else if (nd == 1) { nw[0] = true; if (want == 3) nw[2] = true; }
  else nw[2] = true;
  char lay = p.ty->layout == 'C' ? 'C' : 'A';
  return bshape_expand(L, p, ty_array(&L->C->S->types, p.ty->dtype, want, lay), nw);
}

/* a piece flattened for axis=None: a C array viewed flat, else a flat copy (owned) */
static Val flat(Lower *L, Val p) {
  Type *t1 = ty_array(&L->C->S->types, p.ty->dtype, 1, 'C');
  if (p.ty->layout != 'C') p = lower_array_method(L, NULL, BI_ndarray_copy, (Val){p.ty, p.v, false}, NULL, 0);
  LLVMValueRef size = bshape_size(L, p), st = lower_i64(L, dtype_sizes[p.ty->dtype]);
  return (Val){t1, lower_arr_make(L, t1, lower_arr_mi(L, p.v), lower_arr_data(L, p.v), &size, &st), p.owned};
}

/* ---- typing ---- */

static Node *need_arg(Infer *I, Node *n, int pos, const char *kw, const char *fname) {
  Node *x = infer_arg_or_kw(n, pos, kw);
  if (x == NULL) compile_error(I->C, n->loc, "TypingError", "%s() missing required argument '%s'", fname, kw);
  return x;
}

static int static_arg(Infer *I, Node *x, const char *fname, const char *what) {
  int64_t v;
  if (!bshape_static_int(I, x, &v))
    compile_error(I->C, x->loc, "TypingError", "%s(): %s must be a constant integer in compiled code", fname, what);
  return (int)v;
}

/* the ndim each piece has once joined (what atleast_Nd makes of it) */
static int piece_ndim(BuiltinId id, int nd) {
  int want = id == BI_numpy_hstack ? 1 : id == BI_numpy_vstack || id == BI_numpy_column_stack ? 2 : id == BI_numpy_dstack ? 3 : 0;
  return nd < want ? want : nd;
}

Type *bjoin_infer(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  const Builtin *b = builtin_of(nm);
  const char *f = b->member;
  BuiltinId id = nm->id;
  infer_only_keywords(I, n, f, b->keywords);
  if (n->args.len > b->hi) compile_error(C, n->loc, "TypingError", "%s() takes at most %d arguments", f, b->hi);
  CallInfo *ci = infer_new_info(I, n, CALL_BUILTIN, b->name);
  ci->bi = id;
  Type *el[LM_MAXARGS];
  bool append = id == BI_numpy_append;
  Node *s = append ? need_arg(I, n, 0, "arr", f) : need_arg(I, n, 0, id == BI_numpy_stack ? "arrays" : "tup", f);
  ci->recv = s;
  int cnt;
  if (append) {
    Node *v = need_arg(I, n, 1, "values", f);
    Type *t0 = bshape_array_arg(I, s, f), *t1 = bshape_array_arg(I, v, f);
    if (t0 == NULL || t1 == NULL) return NULL;
    el[0] = t0;
    el[1] = t1;
    cnt = 2;
    ci->args = arena_alloc(C->A, sizeof(Node *) * 2);
    ci->args[0] = s;
    ci->args[1] = v;
    ci->nargs = 2;
  } else {
    cnt = seq_types(I, s, f, el);
    if (cnt < 0) return NULL;
  }
  /* NumPy's promotion over every array, or dtype= */
  DType dt = el[0]->dtype;
  for (int i = 1; i < cnt; i++) dt = infer_arrayexpr_common(ty_array(&C->S->types, dt, 1, 'C'), el[i]);
  Node *dtn = id == BI_numpy_concatenate || id == BI_numpy_stack ? infer_arg_or_kw(n, 99, "dtype") : NULL;
  dt = infer_dtype_of(I, dtn, dt);
  int nd = piece_ndim(id, el[0]->ndim);
  bool is_cat = id == BI_numpy_concatenate || append;
  Node *cax = is_cat ? infer_arg_or_kw(n, append ? 2 : 1, "axis") : NULL;
  bool flat_axis = is_cat && (append ? (cax == NULL || is_none(cax)) : is_none(cax));
  for (int i = 1; i < cnt && !flat_axis; i++) {
    int ndi = piece_ndim(id, el[i]->ndim);
    if (ndi != nd)
      compile_error(C, n->loc, "TypingError",
                    "%s(): all the input arrays must have same number of dimensions, but the array at index 0 has %d "
                    "dimension(s) and the array at index %d has %d dimension(s)", f, nd, i, ndi);
  }
  int rnd = nd;
  ci->dims[0] = 0;
  ci->ndims = cnt;
  switch (id) {
    case BI_numpy_concatenate: case BI_numpy_append:
      if (flat_axis) {
        ci->dims[0] = -1;  /* axis=None: flattened, one after the other */
        rnd = 1;
        break;
      }
      if (nd == 0) compile_error(C, n->loc, "TypingError", "%s(): zero-dimensional arrays cannot be concatenated", f);
      ci->dims[0] = cax ? bshape_axis(I, cax, static_arg(I, cax, f, "axis"), nd) : 0;
      break;
    case BI_numpy_stack: {
      Node *ax = infer_arg_or_kw(n, 1, "axis");
      rnd = nd + 1;
      if (rnd > LM_MAXDIM) compile_error(C, n->loc, "TypingError", "arrays have at most %d dimensions", LM_MAXDIM);
      ci->dims[0] = ax ? bshape_axis(I, ax, static_arg(I, ax, f, "axis"), rnd) : 0;
      break;
    }
    case BI_numpy_hstack: ci->dims[0] = nd == 1 ? 0 : 1; break;
    case BI_numpy_vstack: ci->dims[0] = 0; break;
    case BI_numpy_dstack: ci->dims[0] = 2; break;
    case BI_numpy_column_stack: ci->dims[0] = 1; break;
    default: LM_UNREACHABLE();
  }
  return ty_array(&C->S->types, dt, rnd, 'C');
}

Val bjoin_lower(Lower *L, Node *n, CallInfo *ci) {
  Type *rt = lower_ann(L, n)->ty;
  BuiltinId id = ci->bi;
  int mark = L->nheld;
  Seq q;
  if (id == BI_numpy_append) {
    q.tuple = false;
    q.n = 2;
    for (int i = 0; i < 2; i++) {
      q.item[i] = lower_expr(L, ci->args[i]);
      lower_hold(L, q.item[i]);
    }
  } else {
    seq_lower(L, ci->recv, &q);
  }
  Val p[LM_MAXARGS];
  int axis = (int)ci->dims[0];
  for (int i = 0; i < q.n; i++) {
    Val x = q.item[i];
    x.owned = false;
    switch (id) {
      case BI_numpy_concatenate: case BI_numpy_append:
        if (axis < 0) {
          x = flat(L, x);
          lower_hold(L, x);
        }
        break;
      case BI_numpy_stack: {
        bool nw[LM_MAXDIM] = {0};
        nw[axis] = true;
        x = bshape_expand(L, x, ty_array(&L->C->S->types, x.ty->dtype, rt->ndim, 'A'), nw);
        break;
      }
      case BI_numpy_hstack: x = atleast(L, x, 1, false); break;
      case BI_numpy_vstack: x = atleast(L, x, 2, false); break;
      case BI_numpy_dstack: x = atleast(L, x, 3, false); break;
      case BI_numpy_column_stack: x = atleast(L, x, 2, true); break;
      default: LM_UNREACHABLE();
    }
    p[i] = x;
  }
  if (id == BI_numpy_stack)
    for (int i = 1; i < q.n; i++)
      for (int k = 0; k < q.item[0].ty->ndim; k++)
        lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntNE, lower_arr_shape(L, q.item[0].v, k), lower_arr_shape(L, q.item[i].v, k), ""),
                       LMERR_VALUE, "all input arrays must have the same shape");
  Val out = join(L, p, q.n, axis < 0 ? 0 : axis, rt);
  lower_unhold(L, mark);
  for (int i = 0; i < q.n; i++)
    if (p[i].owned) lower_release(L, p[i]);
  seq_release(L, &q);
  return out;
}

/* ---- split, array_split ---- */

Type *bjoin_infer_split(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  const Builtin *b = builtin_of(nm);
  const char *f = b->member;
  infer_only_keywords(I, n, f, b->keywords);
  if (n->args.len > b->hi) compile_error(C, n->loc, "TypingError", "%s() takes at most %d arguments", f, b->hi);
  CallInfo *ci = infer_new_info(I, n, CALL_BUILTIN, b->name);
  ci->bi = nm->id;
  ci->recv = need_arg(I, n, 0, "ary", f);
  Node *s = need_arg(I, n, 1, "indices_or_sections", f);
  Node *ax = infer_arg_or_kw(n, 2, "axis");
  Type *a = bshape_array_arg(I, ci->recv, f);
  if (a == NULL) return NULL;
  if (a->ndim == 0) compile_error(C, ci->recv->loc, "TypingError", "%s(): the array must have at least one dimension", f);
  int axis = ax ? bshape_axis(I, ax, static_arg(I, ax, f, "axis"), a->ndim) : 0;
  int cnt;
  int64_t sec;
  if (s->kind == ND_Tuple || s->kind == ND_List) {
    cnt = s->elts.len + 1;
    Type *t[LM_MAXARGS];
    if (cnt > LM_MAXARGS) compile_error(C, s->loc, "UnsupportedError", "%s(): too many pieces", f);
    if (!infer_arg_types(I, s->elts.items, s->elts.len, t)) return NULL;
    for (int i = 0; i < s->elts.len; i++)
      if (!ty_is_int(t[i])) compile_error(C, s->elts.items[i]->loc, "TypingError", "%s(): indices must be integers", f);
    ci->args = s->elts.items;
    ci->nargs = s->elts.len;
  } else if (bshape_static_int(I, s, &sec)) {
    if (sec <= 0) compile_error(C, s->loc, "TypingError", "%s(): number sections must be larger than 0.", f);
    if (sec > LM_MAXARGS) compile_error(C, s->loc, "UnsupportedError", "%s(): at most %d sections", f, LM_MAXARGS);
    cnt = (int)sec;
    ci->args = NULL;
    ci->nargs = -1;
  } else {
    compile_error(C, s->loc, "TypingError",
                  "%s(): the sections must be a constant integer or a tuple of indices in compiled code (the result is a "
                  "tuple of that many arrays)", f);
  }
  ci->dims[0] = axis;
  ci->dims[1] = cnt;
  Type *pt = ty_array(&C->S->types, a->dtype, a->ndim, axis == 0 && a->layout == 'C' ? 'C' : 'A');
  Type *el[LM_MAXARGS];
  for (int i = 0; i < cnt; i++) el[i] = pt;
  return ty_tuple(&C->S->types, el, cnt);
}

/* an index of split's list as a slice bound: negative from the end, clamped to [0, len] */
static LLVMValueRef clamp_bound(Lower *L, LLVMValueRef x, LLVMValueRef len) {
  LLVMValueRef zero = lower_i64(L, 0);
  x = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, x, zero, ""), LLVMBuildAdd(L->b, x, len, ""), x, "");
  x = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, x, zero, ""), zero, x, "");
  return LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSGT, x, len, ""), len, x, "");
}

Val bjoin_lower_split(Lower *L, Node *n, CallInfo *ci) {
  Type *rt = lower_ann(L, n)->ty, *pt = rt->elems[0];
  int axis = (int)ci->dims[0], cnt = (int)ci->dims[1];
  Val a = lower_expr(L, ci->recv);
  int mark = lower_hold(L, a);
  LLVMValueRef len = lower_arr_shape(L, a.v, axis), zero = lower_i64(L, 0);
  LLVMValueRef start[LM_MAXARGS], size[LM_MAXARGS];
  if (ci->nargs >= 0) {
    LLVMValueRef prev = zero;
    for (int i = 0; i < cnt; i++) {
      LLVMValueRef end = i + 1 < cnt ? clamp_bound(L, lower_cast(L, lower_expr(L, ci->args[i]), ty_int64).v, len) : len;
      start[i] = prev;
      LLVMValueRef d = LLVMBuildSub(L->b, end, prev, "");
      size[i] = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, d, zero, ""), zero, d, "");
      prev = end;
    }
  } else {
    LLVMValueRef N = lower_i64(L, cnt);
    LLVMValueRef each = LLVMBuildSDiv(L->b, len, N, ""), extra = LLVMBuildSRem(L->b, len, N, "");
    if (ci->bi == BI_numpy_split)
      lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntNE, extra, zero, ""), LMERR_VALUE,
                     "array split does not result in an equal division");
    for (int i = 0; i < cnt; i++) {
      LLVMValueRef I = lower_i64(L, i);
      LLVMValueRef lt = LLVMBuildICmp(L->b, LLVMIntSLT, I, extra, "");
      size[i] = LLVMBuildAdd(L->b, each, LLVMBuildZExt(L->b, lt, LLVMInt64TypeInContext(L->ctx), ""), "");
      start[i] = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, I, each, ""), LLVMBuildSelect(L->b, lt, I, extra, ""), "");
    }
  }
  lower_unhold(L, mark);
  LLVMValueRef tv = LLVMGetUndef(lower_type(L, rt));
  for (int i = 0; i < cnt; i++) {
    LLVMValueRef shape[LM_MAXDIM], strides[LM_MAXDIM];
    for (int k = 0; k < pt->ndim; k++) {
      shape[k] = k == axis ? size[i] : lower_arr_shape(L, a.v, k);
      strides[k] = lower_arr_stride(L, a.v, k);
    }
    LLVMValueRef off = LLVMBuildMul(L->b, start[i], strides[axis], "");
    LLVMValueRef p8 = LLVMBuildBitCast(L->b, lower_arr_data(L, a.v), LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0), "");
    p8 = LLVMBuildGEP2(L->b, LLVMInt8TypeInContext(L->ctx), p8, &off, 1, "");
    LLVMValueRef data = LLVMBuildBitCast(L->b, p8, LLVMPointerType(lower_mem_type(L, pt->dtype), 0), "");
    Val v = bshape_view(L, a, pt, data, shape, strides);
    lower_incref(L, v);  /* the tuple holds a reference per piece */
    tv = LLVMBuildInsertValue(L->b, tv, v.v, (unsigned)i, "");
  }
  lower_release(L, a);
  return (Val){rt, tv, L->refcount};
}

/* ---- roll, repeat, tile, diff: one array in, a new one out ---- */

Type *bjoin_infer_one(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  const Builtin *b = builtin_of(nm);
  const char *f = b->member;
  BuiltinId id = nm->id;
  infer_only_keywords(I, n, f, b->keywords);
  if (n->args.len > b->hi) compile_error(C, n->loc, "TypingError", "%s() takes at most %d arguments", f, b->hi);
  CallInfo *ci = infer_new_info(I, n, CALL_BUILTIN, b->name);
  ci->bi = id;
  ci->recv = need_arg(I, n, 0, "a", f);
  Type *a = bshape_array_arg(I, ci->recv, f);
  const char *k1 = id == BI_numpy_roll ? "shift" : id == BI_numpy_repeat ? "repeats" : id == BI_numpy_tile ? "reps" : "n";
  Node *x = id == BI_numpy_diff ? infer_arg_or_kw(n, 1, "n") : need_arg(I, n, 1, k1, f);
  Node *ax = id == BI_numpy_tile ? NULL : infer_arg_or_kw(n, 2, "axis");
  Type *xt = x && id != BI_numpy_diff ? infer_expr(I, x) : NULL;
  if (a == NULL || (x && id != BI_numpy_diff && xt == NULL)) return NULL;
  if (xt && !ty_is_int(xt)) compile_error(C, x->loc, "TypingError", "%s(): %s must be an integer, not %s", f, k1, tyname(C, xt));
  ci->args = arena_alloc(C->A, sizeof(Node *));
  ci->args[0] = x;
  ci->nargs = 1;
  ci->dims[0] = -1;  /* axis: -1 for None */
  int rnd = a->ndim;
  switch (id) {
    case BI_numpy_roll:
      if (ax && !is_none(ax)) ci->dims[0] = bshape_axis(I, ax, static_arg(I, ax, f, "axis"), a->ndim);
      break;
    case BI_numpy_repeat:
      if (ax && !is_none(ax)) ci->dims[0] = bshape_axis(I, ax, static_arg(I, ax, f, "axis"), a->ndim);
      else rnd = 1;
      break;
    case BI_numpy_tile:
      if (rnd == 0) rnd = 1;
      break;
    case BI_numpy_diff: {
      int order = x ? static_arg(I, x, f, "n") : 1;
      if (order < 0) compile_error(C, x->loc, "TypingError", "diff(): order must be non-negative but got %d", order);
      if (a->ndim == 0) compile_error(C, n->loc, "TypingError", "diff requires input that is at least one dimensional");
      ci->dims[0] = bshape_axis(I, ax ? ax : n, ax ? static_arg(I, ax, f, "axis") : -1, a->ndim);
      ci->dims[1] = order;
      if (order == 0) return a;
      break;
    }
    default: LM_UNREACHABLE();
  }
  return ty_array(&C->S->types, a->dtype, rnd, 'C');
}

/* a view of a along axis: start and length there, the stride multiplied by mul */
static Val along(Lower *L, Val a, int axis, LLVMValueRef start, LLVMValueRef len, LLVMValueRef mul) {
  LLVMValueRef shape[LM_MAXDIM], strides[LM_MAXDIM];
  for (int k = 0; k < a.ty->ndim; k++) {
    shape[k] = lower_arr_shape(L, a.v, k);
    strides[k] = lower_arr_stride(L, a.v, k);
  }
  LLVMValueRef off = LLVMBuildMul(L->b, start, strides[axis], "");
  shape[axis] = len;
  if (mul) strides[axis] = LLVMBuildMul(L->b, strides[axis], mul, "");
  LLVMValueRef p8 = LLVMBuildBitCast(L->b, lower_arr_data(L, a.v), LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0), "");
  p8 = LLVMBuildGEP2(L->b, LLVMInt8TypeInContext(L->ctx), p8, &off, 1, "");
  LLVMValueRef data = LLVMBuildBitCast(L->b, p8, LLVMPointerType(lower_mem_type(L, a.ty->dtype), 0), "");
  Type *vt = ty_array(&L->C->S->types, a.ty->dtype, a.ty->ndim, 'A');
  return (Val){vt, lower_arr_make(L, vt, lower_arr_mi(L, a.v), data, shape, strides), false};
}

/* x mod n in [0, n), n > 0 (Python's %) */
static LLVMValueRef pymod(Lower *L, LLVMValueRef x, LLVMValueRef n) {
  LLVMValueRef r = LLVMBuildSRem(L->b, x, n, "");
  return LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, r, lower_i64(L, 0), ""), LLVMBuildAdd(L->b, r, n, ""), r, "");
}

typedef struct FlatRoll { DType dt; LLVMValueRef out, shift, n, rep; } FlatRoll;

static void roll_elem(Lower *L, LLVMValueRef ptr, LLVMValueRef linear, void *ud) {
  FlatRoll *r = ud;
  LLVMValueRef j = LLVMBuildAdd(L->b, linear, r->shift, "");
  j = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSGE, j, r->n, ""), LLVMBuildSub(L->b, j, r->n, ""), j, "");
  LLVMValueRef p = LLVMBuildInBoundsGEP2(L->b, lower_mem_type(L, r->dt), r->out, &j, 1, "");
  lower_store_elem(L, r->dt, p, lower_load_elem(L, r->dt, ptr));
}

typedef struct RepCtx { DType dt; LLVMValueRef out, rep, src; } RepCtx;

static void rep_one(Lower *L, LLVMValueRef *idx, void *ud) {
  RepCtx *r = ud;
  LLVMValueRef p = LLVMBuildInBoundsGEP2(L->b, lower_mem_type(L, r->dt), r->out, idx, 1, "");
  LLVMBuildStore(L->b, r->src, p);
}

static void repeat_elem(Lower *L, LLVMValueRef ptr, LLVMValueRef linear, void *ud) {
  RepCtx *r = ud;
  RepCtx in = *r;
  in.src = LLVMBuildLoad2(L->b, lower_mem_type(L, r->dt), ptr, "");
  in.out = LLVMBuildInBoundsGEP2(L->b, lower_mem_type(L, r->dt), r->out, (LLVMValueRef[]){LLVMBuildMul(L->b, linear, r->rep, "")}, 1, "");
  bshape_loop(L, &r->rep, 1, rep_one, &in);
}

typedef struct BlockCtx { Val out, src; int axis; LLVMValueRef len, mul; } BlockCtx;

/* out's j-th block along axis (start j * len, or j with stride mul) = src */
static void block_copy(Lower *L, LLVMValueRef *idx, void *ud) {
  BlockCtx *b = ud;
  LLVMValueRef start = b->mul ? idx[0] : LLVMBuildMul(L->b, idx[0], b->len, "");
  bshape_copy(L, along(L, b->out, b->axis, start, b->len, b->mul), b->src);
}

typedef struct DiffCtx { Val out, cur; int axis; } DiffCtx;

static void diff_one(Lower *L, LLVMValueRef *idx, void *ud) {
  DiffCtx *d = ud;
  DType dt = d->cur.ty->dtype;
  LLVMValueRef nx[LM_MAXDIM];
  for (int k = 0; k < d->cur.ty->ndim; k++) nx[k] = k == d->axis ? LLVMBuildAdd(L->b, idx[k], lower_i64(L, 1), "") : idx[k];
  LLVMValueRef x0 = lower_load_elem(L, dt, bshape_elem_ptr(L, d->cur, idx));
  LLVMValueRef x1 = lower_load_elem(L, dt, bshape_elem_ptr(L, d->cur, nx));
  /* NumPy: bool arrays differ by !=, integers wrap */
  LLVMValueRef r = dt == DT_BOOL ? LLVMBuildXor(L->b, x1, x0, "")
                 : dtype_kinds[dt] == 'f' ? LLVMBuildFSub(L->b, x1, x0, "") : LLVMBuildSub(L->b, x1, x0, "");
  lower_store_elem(L, dt, bshape_elem_ptr(L, d->out, idx), r);
}

static Val lower_diff(Lower *L, CallInfo *ci, Type *rt, Val a) {
  int axis = (int)ci->dims[0], order = (int)ci->dims[1];
  Val cur = a;
  for (int s = 0; s < order; s++) {
    int mark = lower_hold(L, cur);
    LLVMValueRef shape[LM_MAXDIM];
    for (int k = 0; k < rt->ndim; k++) shape[k] = lower_arr_shape(L, cur.v, k);
    LLVMValueRef m = LLVMBuildSub(L->b, shape[axis], lower_i64(L, 1), "");
    shape[axis] = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, m, lower_i64(L, 0), ""), lower_i64(L, 0), m, "");
    Val out = lower_alloc_uninit(L, rt, shape);
    lower_unhold(L, mark);
    DiffCtx d = {out, cur, axis};
    bshape_loop(L, shape, rt->ndim, diff_one, &d);
    lower_release(L, cur);
    cur = out;
  }
  return cur;
}

Val bjoin_lower_one(Lower *L, Node *n, CallInfo *ci) {
  Type *rt = lower_ann(L, n)->ty;
  Val a = lower_expr(L, ci->recv);
  if (ci->bi == BI_numpy_diff) return ci->dims[1] == 0 ? a : lower_diff(L, ci, rt, a);
  int mark = lower_hold(L, a);
  LLVMValueRef x = lower_cast(L, lower_expr(L, ci->args[0]), ty_int64).v;
  int axis = (int)ci->dims[0];
  LLVMValueRef zero = lower_i64(L, 0), shape[LM_MAXDIM];
  for (int k = 0; k < a.ty->ndim; k++) shape[k] = lower_arr_shape(L, a.v, k);
  Val out;
  switch (ci->bi) {
    case BI_numpy_roll: {
      out = lower_alloc_uninit(L, rt, shape);
      if (axis < 0) {
        LLVMValueRef size = bshape_size(L, a);
        LLVMBasicBlockRef go = lower_block(L, "roll"), done = lower_block(L, "rolled");
        LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSGT, size, zero, ""), go, done);
        LLVMPositionBuilderAtEnd(L->b, go);
        FlatRoll r = {rt->dtype, lower_arr_data(L, out.v), pymod(L, x, size), size, NULL};
        lower_foreach(L, (Val){a.ty, a.v, false}, roll_elem, &r);
        LLVMBuildBr(L->b, done);
        LLVMPositionBuilderAtEnd(L->b, done);
      } else {
        LLVMValueRef len = shape[axis];
        LLVMValueRef s = pymod(L, x, LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, len, zero, ""), lower_i64(L, 1), len, ""));
        LLVMValueRef rest = LLVMBuildSub(L->b, len, s, "");
        /* out[s:] = a[:len-s]; out[:s] = a[len-s:] */
        bshape_copy(L, along(L, out, axis, s, rest, NULL), along(L, a, axis, zero, rest, NULL));
        bshape_copy(L, along(L, out, axis, zero, s, NULL), along(L, a, axis, rest, s, NULL));
      }
      break;
    }
    case BI_numpy_repeat: {
      lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntSLT, x, zero, ""), LMERR_VALUE, "negative dimensions are not allowed");
      if (axis < 0) {
        LLVMValueRef size = LLVMBuildMul(L->b, bshape_size(L, a), x, "");
        out = lower_alloc_uninit(L, rt, &size);
        RepCtx r = {rt->dtype, lower_arr_data(L, out.v), x, NULL};
        lower_foreach(L, (Val){a.ty, a.v, false}, repeat_elem, &r);
      } else {
        shape[axis] = LLVMBuildMul(L->b, shape[axis], x, "");
        out = lower_alloc_uninit(L, rt, shape);
        BlockCtx b = {out, (Val){a.ty, a.v, false}, axis, lower_arr_shape(L, a.v, axis), x};
        bshape_loop(L, &x, 1, block_copy, &b);
      }
      break;
    }
    case BI_numpy_tile: {
      lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntSLT, x, zero, ""), LMERR_VALUE, "negative dimensions are not allowed");
      Val src = a;
      src.owned = false;
      if (a.ty->ndim == 0) {
        bool nw[1] = {true};
        src = bshape_expand(L, src, ty_array(&L->C->S->types, a.ty->dtype, 1, 'A'), nw);
        shape[0] = lower_i64(L, 1);
      }
      int last = rt->ndim - 1;
      LLVMValueRef len = shape[last];
      shape[last] = LLVMBuildMul(L->b, len, x, "");
      out = lower_alloc_uninit(L, rt, shape);
      BlockCtx b = {out, src, last, len, NULL};
      bshape_loop(L, &x, 1, block_copy, &b);
      break;
    }
    default: LM_UNREACHABLE();
  }
  lower_unhold(L, mark);
  lower_release(L, a);
  return out;
}
