/*
** lower_array.c — arrays in compiled code: element addresses (negative
** indices wrap, bounds checked on request), views from slicing, loads and
** stores, allocation through the NRT; attributes and methods through the
** registry's hooks (builtin_shape.c, builtin_reduce.c).
*/
#include "builtin_hooks.h"
#include "index.h"
#include "record.h"

static LLVMTypeRef i64t(Lower *L) { return LLVMInt64TypeInContext(L->ctx); }
static LLVMTypeRef i8pt(Lower *L) { return LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0); }

LLVMValueRef lower_arr_mi(Lower *L, LLVMValueRef a) { return LLVMBuildExtractValue(L->b, a, 0, "mi"); }
LLVMValueRef lower_arr_data(Lower *L, LLVMValueRef a) { return LLVMBuildExtractValue(L->b, a, 1, "data"); }
LLVMValueRef lower_arr_shape(Lower *L, LLVMValueRef a, int k) {
  return LLVMBuildExtractValue(L->b, LLVMBuildExtractValue(L->b, a, 2, ""), (unsigned)k, "dim");
}
LLVMValueRef lower_arr_stride(Lower *L, LLVMValueRef a, int k) {
  return LLVMBuildExtractValue(L->b, LLVMBuildExtractValue(L->b, a, 3, ""), (unsigned)k, "stride");
}

LLVMValueRef lower_arr_make(Lower *L, Type *t, LLVMValueRef mi, LLVMValueRef data, LLVMValueRef *shape,
                            LLVMValueRef *strides) {
  LLVMTypeRef at = lower_type(L, t);
  LLVMValueRef v = LLVMGetUndef(at);
  v = LLVMBuildInsertValue(L->b, v, mi, 0, "");
  v = LLVMBuildInsertValue(L->b, v, data, 1, "");
  LLVMValueRef sh = LLVMGetUndef(LLVMArrayType(i64t(L), (unsigned)t->ndim));
  LLVMValueRef st = LLVMGetUndef(LLVMArrayType(i64t(L), (unsigned)t->ndim));
  for (int k = 0; k < t->ndim; k++) {
    sh = LLVMBuildInsertValue(L->b, sh, shape[k], (unsigned)k, "");
    st = LLVMBuildInsertValue(L->b, st, strides[k], (unsigned)k, "");
  }
  v = LLVMBuildInsertValue(L->b, v, sh, 2, "");
  return LLVMBuildInsertValue(L->b, v, st, 3, "");
}

LLVMValueRef lower_load_elem(Lower *L, DType dt, LLVMValueRef ptr) {
  LLVMValueRef v = LLVMBuildLoad2(L->b, lower_mem_type(L, dt), ptr, "");
  if (dt == DT_BOOL) v = LLVMBuildICmp(L->b, LLVMIntNE, v, LLVMConstInt(LLVMInt8TypeInContext(L->ctx), 0, 0), "");
  return v;
}

void lower_store_elem(Lower *L, DType dt, LLVMValueRef ptr, LLVMValueRef v) {
  if (dt == DT_BOOL) v = LLVMBuildZExt(L->b, v, LLVMInt8TypeInContext(L->ctx), "");
  LLVMBuildStore(L->b, v, ptr);
}

/* a Python index into axis k: negative counts from the end; checked when asked */
static LLVMValueRef wrap_index(Lower *L, LLVMValueRef i, LLVMValueRef dim, int axis) {
  LLVMValueRef zero = lower_i64(L, 0);
  LLVMValueRef neg = LLVMBuildICmp(L->b, LLVMIntSLT, i, zero, "");
  LLVMValueRef w = L->C->opt.lua ? lower_lua_index(L, i, dim) : LLVMBuildSelect(L->b, neg, LLVMBuildAdd(L->b, i, dim, ""), i, "idx");
  if (L->C->opt.boundscheck) {
    LLVMValueRef bad = LLVMBuildICmp(L->b, LLVMIntUGE, w, dim, "");
    lower_index_error_if(L, bad, i, L->C->opt.lua ? axis + 1 : axis, dim);
  }
  return w;
}

static LLVMValueRef byte_offset_ptr(Lower *L, LLVMValueRef data, LLVMValueRef off, DType dt) {
  LLVMValueRef p8 = LLVMBuildBitCast(L->b, data, i8pt(L), "");
  p8 = LLVMBuildInBoundsGEP2(L->b, LLVMInt8TypeInContext(L->ctx), p8, &off, 1, "");
  return LLVMBuildBitCast(L->b, p8, LLVMPointerType(lower_mem_type(L, dt), 0), "");
}

/* indices of a subscript: items and count */
static Node **index_items(Node *n, int *count) {
  if (n->slice->kind == ND_Tuple) {
    *count = n->slice->elts.len;
    return n->slice->elts.items;
  }
  *count = 1;
  return &n->slice;
}

/* address of a[i, j, ...] when every axis has an integer index. C arrays use
** a linear element index (what the vectoriser understands best). */
LLVMValueRef lower_elem_ptr(Lower *L, Node *n, Val *base) {
  *base = lower_expr(L, n->value);
  Type *t = base->ty;
  int ni;
  Node **items = index_items(n, &ni);
  LLVMValueRef a = base->v;
  LLVMValueRef idx[LM_MAXDIM] = {0};
  int mark = lower_hold(L, *base);  /* an index may raise, and so may its bounds check */
  for (int k = 0; k < ni; k++) {
    Val iv = lower_cast(L, lower_expr(L, items[k]), ty_int64);
    idx[k] = wrap_index(L, iv.v, lower_arr_shape(L, a, k), k);
  }
  lower_unhold(L, mark);
  LLVMValueRef data = lower_arr_data(L, a);
  if (t->layout == 'C') {
    LLVMValueRef lin = ni ? idx[0] : lower_i64(L, 0);  /* a[()] of a 0-d array: its one element */
    for (int k = 1; k < ni; k++)
      lin = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, lin, lower_arr_shape(L, a, k), ""), idx[k], "");
    return LLVMBuildInBoundsGEP2(L->b, lower_mem_type(L, t->dtype), data, &lin, 1, "p");
  }
  LLVMValueRef off = lower_i64(L, 0);
  for (int k = 0; k < ni; k++) off = LLVMBuildAdd(L->b, off, LLVMBuildMul(L->b, idx[k], lower_arr_stride(L, a, k), ""), "");
  return byte_offset_ptr(L, data, off, t->dtype);
}

/* Python's slice.indices for one axis: start and length of the view, given step */
static void slice_bounds(Lower *L, Node *sl, LLVMValueRef dim, LLVMValueRef *start, LLVMValueRef *len, LLVMValueRef *step) {
  LLVMValueRef zero = lower_i64(L, 0), one = lower_i64(L, 1), m1 = lower_i64(L, -1);
  int64_t cs = 1;
  bool known = true;
  if (sl->step) {
    if (sl->step->kind == ND_Constant && sl->step->ckind == CK_INT) cs = sl->step->ival;
    else if (sl->step->kind == ND_UnaryOp && sl->step->op == OP_USub && sl->step->operand->kind == ND_Constant)
      cs = -sl->step->operand->ival;
    else known = false;
  }
  *step = sl->step ? lower_cast(L, lower_expr(L, sl->step), ty_int64).v : one;
  if (!known || cs == 0)
    lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntEQ, *step, zero, ""), LMERR_VALUE, "slice step cannot be zero");
  LLVMValueRef pos = known ? LLVMConstInt(LLVMInt1TypeInContext(L->ctx), cs > 0, 0)
                           : LLVMBuildICmp(L->b, LLVMIntSGT, *step, zero, "");
  /* clamp(x): negative counts from the end, then into [lo, hi] */
  LLVMValueRef lo = LLVMBuildSelect(L->b, pos, zero, m1, "");
  LLVMValueRef hi = LLVMBuildSelect(L->b, pos, dim, LLVMBuildSub(L->b, dim, one, ""), "");
  LLVMValueRef b[2];
  Node *parts[2] = {sl->lower, sl->upper};
  LLVMValueRef dflt[2] = {LLVMBuildSelect(L->b, pos, zero, LLVMBuildSub(L->b, dim, one, ""), ""),
                          LLVMBuildSelect(L->b, pos, dim, m1, "")};
  for (int k = 0; k < 2; k++) {
    if (parts[k] == NULL) { b[k] = dflt[k]; continue; }
    LLVMValueRef x = lower_cast(L, lower_expr(L, parts[k]), ty_int64).v;
    LLVMValueRef neg = LLVMBuildICmp(L->b, LLVMIntSLT, x, zero, "");
    x = LLVMBuildSelect(L->b, neg, LLVMBuildAdd(L->b, x, dim, ""), x, "");
    x = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, x, lo, ""), lo, x, "");
    x = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSGT, x, hi, ""), hi, x, "");
    b[k] = x;
  }
  *start = b[0];
  /* length: ceil(span / |step|) when the span is positive, else 0 */
  LLVMValueRef span_pos = LLVMBuildSub(L->b, b[1], b[0], "");
  LLVMValueRef span_neg = LLVMBuildSub(L->b, b[0], b[1], "");
  LLVMValueRef astep = LLVMBuildSelect(L->b, pos, *step, LLVMBuildNeg(L->b, *step, ""), "");
  LLVMValueRef span = LLVMBuildSelect(L->b, pos, span_pos, span_neg, "");
  /* (span - 1) / |step| + 1 in unsigned arithmetic: |step| may be 2**63 and span + |step| would overflow */
  LLVMValueRef n = LLVMBuildAdd(L->b, LLVMBuildUDiv(L->b, LLVMBuildSub(L->b, span, one, ""), astep, ""), one, "");
  *len = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSGT, span, zero, ""), n, zero, "len");
}

/* a view of base for a subscript mixing integers, slices and None (a new
** axis of length 1, stride 0); the index array or mask of an IndexPlan
** keeps its axes whole, for lower_fancyindex.c to select from. rt: the
** view's type. */
Val lower_index_view(Lower *L, Node *n, Val base, Type *rt) {
  Type *t = base.ty;
  const IndexPlan *plan = lower_ann(L, n)->aux;
  int ni;
  Node **items = index_items(n, &ni);
  LLVMValueRef a = base.v;
  LLVMValueRef off = lower_i64(L, 0);
  LLVMValueRef shape[LM_MAXDIM], strides[LM_MAXDIM];
  int r = 0, k = 0;  /* the view's axis, base's axis */
  int mark = lower_hold(L, base);  /* indices and slice bounds may raise */
  for (int i = 0; i < ni; i++) {
    if (plan && i == plan->adv) {
      for (int d = 0; d < plan->advk; d++, k++) {
        shape[r] = lower_arr_shape(L, a, k);
        strides[r++] = lower_arr_stride(L, a, k);
      }
      continue;
    }
    if (items[i]->kind != ND_Slice && lower_ann(L, items[i])->ty->kind == TY_NONE) {
      shape[r] = lower_i64(L, 1);
      strides[r++] = lower_i64(L, 0);
      continue;
    }
    LLVMValueRef dim = lower_arr_shape(L, a, k), st = lower_arr_stride(L, a, k);
    if (items[i]->kind == ND_Slice) {
      LLVMValueRef start, len, step;
      slice_bounds(L, items[i], dim, &start, &len, &step);
      off = LLVMBuildAdd(L->b, off, LLVMBuildMul(L->b, start, st, ""), "");
      shape[r] = len;
      strides[r++] = LLVMBuildMul(L->b, st, step, "");
    } else {
      LLVMValueRef ix = wrap_index(L, lower_cast(L, lower_expr(L, items[i]), ty_int64).v, dim, k);
      off = LLVMBuildAdd(L->b, off, LLVMBuildMul(L->b, ix, st, ""), "");
    }
    k++;
  }
  for (; k < t->ndim; k++) {
    shape[r] = lower_arr_shape(L, a, k);
    strides[r++] = lower_arr_stride(L, a, k);
  }
  lower_unhold(L, mark);
  LLVMValueRef data = byte_offset_ptr(L, lower_arr_data(L, a), off, t->dtype);
  return (Val){rt, lower_arr_make(L, rt, lower_arr_mi(L, a), data, shape, strides), base.owned};
}

static Val make_view(Lower *L, Node *n, Val base) { return lower_index_view(L, n, base, lower_ann(L, n)->ty); }

/* an index array or a mask: the target's selection (lower_fancyindex.c) */
static const IndexPlan *selection(Lower *L, Node *n) {
  const IndexPlan *p = lower_ann(L, n)->aux;
  if (p == NULL || p->adv < 0) return NULL;
  if (L->C->target->index_get == NULL)
    compile_error(L->C, n->loc, "UnsupportedError", "index arrays and masks are not supported on this target (they make arrays)");
  return p;
}

bool lower_is_selection(Lower *L, Node *n) { return selection(L, n) != NULL; }

/* element e of tuple t: of a temporary tuple ((a, b)[0], np.nonzero(x)[0]) it
** takes its own reference and the tuple's are released, which else leaked */
static Val tuple_elem_of(Lower *L, Val t, Val e) {
  if (!t.owned) return e;
  lower_incref(L, e);
  lower_release(L, t);
  e.owned = true;
  return e;
}

Val lower_subscript(Lower *L, Node *n) {
  Type *bt = lower_ann(L, n->value)->ty;
  if (lower_record_key(L, n)) return lower_record_target(L, n)->record_field(L, n);
  if (bt->kind == TY_TUPLE) {
    Val t = lower_expr(L, n->value);
    Node *sl = n->slice;
    int64_t k = 0;
    bool constant = true;
    if (sl->kind == ND_Constant) k = sl->ival;
    else if (sl->kind == ND_UnaryOp && sl->operand->kind == ND_Constant) k = -sl->operand->ival;
    else constant = false;
    if (constant) {
      if (L->C->opt.lua) k = infer_lua_tuple_index(k, bt->nelems);
      else if (k < 0) k += bt->nelems;
      Val e = {bt->elems[k], LLVMBuildExtractValue(L->b, t.v, (unsigned)k, ""), false};
      return tuple_elem_of(L, t, e);
    }
    /* homogeneous tuple, runtime index: through memory, wrapped and checked */
    LLVMTypeRef tt = lower_type(L, bt), et = lower_type(L, bt->elems[0]);
    LLVMValueRef tmp = lower_entry_alloca(L, tt, "tup");
    LLVMBuildStore(L->b, t.v, tmp);
    int mark = lower_hold(L, t);
    LLVMValueRef i = lower_cast(L, lower_expr(L, sl), ty_int64).v;
    LLVMValueRef n_ = lower_i64(L, bt->nelems);
    if (L->C->opt.lua) i = lower_lua_index(L, i, n_);
    else i = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, i, lower_i64(L, 0), ""), LLVMBuildAdd(L->b, i, n_, ""), i, "");
    lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntUGE, i, n_, ""), LMERR_RAISE, "IndexError: tuple index out of range");
    lower_unhold(L, mark);
    LLVMValueRef p = LLVMBuildBitCast(L->b, tmp, LLVMPointerType(et, 0), "");
    Val e = {bt->elems[0], LLVMBuildLoad2(L->b, et, LLVMBuildGEP2(L->b, et, p, &i, 1, ""), ""), false};
    return tuple_elem_of(L, t, e);
  }
  if (lower_ann(L, n)->ty->kind == TY_RECORD) {  /* an element of a record array: its address */
    Val base;
    LLVMValueRef p = lower_elem_ptr(L, n, &base);
    Val r = lower_record_elem(L, p, lower_ann(L, n)->ty);
    /* a temporary array goes to the hidden local infer_subscript made: r
    ** points into it, which the release here freed under r's feet */
    if (base.owned && lower_ann(L, n)->slot >= 0) lower_store_local(L, lower_ann(L, n)->slot, base);
    else lower_release(L, base);
    return r;
  }
  if (lower_ann(L, n)->ty->kind == TY_SCALAR) {
    Val base;
    LLVMValueRef p = lower_elem_ptr(L, n, &base);
    Val r = {lower_ann(L, n)->ty, lower_load_elem(L, bt->dtype, p), false};
    lower_release(L, base);
    return r;
  }
  if (selection(L, n)) return L->C->target->index_get(L, n);
  return make_view(L, n, lower_expr(L, n->value));
}

typedef struct FillCtx {
  DType dt;
  LLVMValueRef value;     // scalar to store
} FillCtx;

static void fill_elem(Lower *L, LLVMValueRef ptr, LLVMValueRef linear, void *ud) {
  FillCtx *f = ud;
  (void)linear;
  lower_store_elem(L, f->dt, ptr, f->value);
}

void lower_fill(Lower *L, Val a, LLVMValueRef v) {
  if (L->C->target->array_fill && L->C->target->array_fill(L, a, v)) return;
  FillCtx f = {a.ty->dtype, v};
  lower_foreach(L, a, fill_elem, &f);
}

void lower_store_subscript(Lower *L, Node *target, Val v) {
  if (lower_record_key(L, target)) {
    lower_record_target(L, target)->record_store(L, target, v, OP_None, NULL);
    return;
  }
  if (lower_ann(L, target)->ty->kind == TY_RECORD) {  /* a[i] = b[j]: the element's bytes */
    const RecordInfo *r = record_info(v.ty->dtype);
    unsigned align = r->aligned ? (unsigned)r->alignment : 1u;
    Val base;
    int mark = lower_hold(L, v);
    LLVMValueRef p = lower_elem_ptr(L, target, &base);
    lower_unhold(L, mark);
    LLVMBuildMemCpy(L->b, lower_record_elem(L, p, v.ty).v, align, v.v, align, lower_i64(L, r->itemsize));
    lower_release(L, base);
    return;
  }
  if (lower_ann(L, target)->ty->kind == TY_SCALAR) {
    Val base;
    LLVMValueRef p = lower_elem_ptr(L, target, &base);
    lower_store_elem(L, base.ty->dtype, p, lower_cast(L, v, ty_scalar(base.ty->dtype)).v);
    lower_release(L, base);
    return;
  }
  if (selection(L, target)) {  /* an index array or a mask (lower_fancyindex.c) */
    L->C->target->index_set(L, target, v);
    return;
  }
  if (v.ty->kind == TY_ARRAY) {  /* with broadcasting, overlap found at run time (lower_arraystore.c) */
    if (L->C->target->array_store == NULL)
      compile_error(L->C, target->loc, "UnsupportedError", "storing an array into a slice is not supported on this target");
    L->C->target->array_store(L, target, OP_None, NULL, NULL, &v);
    return;
  }
  /* a[1:3] = scalar; the value is held while the target is computed and checked */
  Val view = make_view(L, target, lower_expr(L, target->value));
  lower_fill(L, view, lower_cast(L, v, ty_scalar(view.ty->dtype)).v);
  lower_release(L, view);
}


/* nested loops over every element of a (row-major order), linear counter included */
void lower_foreach(Lower *L, Val a, ElemFn fn, void *ud) {
  Type *t = a.ty;
  int nd = t->ndim;
  LLVMTypeRef i64 = i64t(L);
  LLVMValueRef ctr[LM_MAXDIM];
  LLVMBasicBlockRef head[LM_MAXDIM], latch[LM_MAXDIM], exit[LM_MAXDIM];
  LLVMValueRef lin = lower_entry_alloca(L, i64, "lin");
  LLVMBuildStore(L->b, lower_i64(L, 0), lin);
  LLVMValueRef off = lower_i64(L, 0);
  LLVMValueRef offs[LM_MAXDIM + 1];
  offs[0] = off;
  for (int k = 0; k < nd; k++) {
    ctr[k] = lower_entry_alloca(L, i64, "k");
    LLVMBuildStore(L->b, lower_i64(L, 0), ctr[k]);
    head[k] = lower_block(L, "each");
    latch[k] = lower_block(L, "eachnext");
    exit[k] = lower_block(L, "eachend");
    LLVMBuildBr(L->b, head[k]);
    LLVMPositionBuilderAtEnd(L->b, head[k]);
    LLVMValueRef c = LLVMBuildLoad2(L->b, i64, ctr[k], "");
    LLVMBasicBlockRef body = lower_block(L, "eachbody");
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, c, lower_arr_shape(L, a.v, k), ""), body, exit[k]);
    LLVMPositionBuilderAtEnd(L->b, body);
    offs[k + 1] = LLVMBuildAdd(L->b, offs[k], LLVMBuildMul(L->b, c, lower_arr_stride(L, a.v, k), ""), "");
  }
  LLVMValueRef p = byte_offset_ptr(L, lower_arr_data(L, a.v), offs[nd], t->dtype);
  LLVMValueRef lv = LLVMBuildLoad2(L->b, i64, lin, "");
  fn(L, p, lv, ud);
  LLVMBuildStore(L->b, LLVMBuildAdd(L->b, LLVMBuildLoad2(L->b, i64, lin, ""), lower_i64(L, 1), ""), lin);
  for (int k = nd - 1; k >= 0; k--) {
    LLVMBuildBr(L->b, latch[k]);
    LLVMPositionBuilderAtEnd(L->b, latch[k]);
    LLVMBuildStore(L->b, LLVMBuildNSWAdd(L->b, LLVMBuildLoad2(L->b, i64, ctr[k], ""), lower_i64(L, 1), ""), ctr[k]);
    LLVMBuildBr(L->b, head[k]);
    LLVMPositionBuilderAtEnd(L->b, exit[k]);
    if (k > 0) LLVMBuildStore(L->b, lower_i64(L, 0), ctr[k]);
  }
  if (nd == 0) return;
}

/* a new C-contiguous array from the NRT: nrt_alloc(bytes) → MemInfo {refct, data, ...};
** rt names nrt_alloc (zeroed) or nrt_alloc_uninit */
static Val alloc_with(Lower *L, Type *t, LLVMValueRef *shape, const char *rt) {
  if (!L->refcount)
    compile_error(L->C, L->spec->def->loc, "UnsupportedError",
                  "arrays cannot be allocated inside CUDA kernels (use cuda.local.array or cuda.shared.array)");
  LLVMTypeRef i64 = i64t(L);
  LLVMValueRef n = lower_i64(L, 1);
  LLVMValueRef ovf = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0);
  LLVMValueRef empty = ovf;
  LLVMTypeRef ovt[1] = {i64};
  /* NumPy's rule, as array_check_size: the non-zero dimensions times the
  ** item size must fit, also when another dimension is 0 */
  for (int k = 0; k < t->ndim; k++) {
    lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntSLT, shape[k], lower_i64(L, 0), ""), LMERR_VALUE,
                   "negative dimensions are not allowed");
    LLVMValueRef zero = LLVMBuildICmp(L->b, LLVMIntEQ, shape[k], lower_i64(L, 0), "");
    empty = LLVMBuildOr(L->b, empty, zero, "");
    LLVMValueRef args[2] = {n, LLVMBuildSelect(L->b, zero, lower_i64(L, 1), shape[k], "")};
    LLVMValueRef r = lower_intrinsic(L, "llvm.smul.with.overflow", ovt, 1, args, 2);
    n = LLVMBuildExtractValue(L->b, r, 0, "");
    ovf = LLVMBuildOr(L->b, ovf, LLVMBuildExtractValue(L->b, r, 1, ""), "");
  }
  LLVMValueRef args[2] = {n, lower_i64(L, dtype_sizes[t->dtype])};
  LLVMValueRef r = lower_intrinsic(L, "llvm.smul.with.overflow", ovt, 1, args, 2);
  LLVMValueRef bytes = LLVMBuildExtractValue(L->b, r, 0, "");
  ovf = LLVMBuildOr(L->b, ovf, LLVMBuildExtractValue(L->b, r, 1, ""), "");
  lower_raise_if(L, ovf, LMERR_MEMORY, "array is too big");
  bytes = LLVMBuildSelect(L->b, empty, lower_i64(L, 0), bytes, "bytes");
  LLVMTypeRef p = i64;
  LLVMValueRef f = lower_rt_fn(L, rt, i8pt(L), &p, 1);
  LLVMValueRef mi = LLVMBuildCall2(L->b, LLVMGlobalGetValueType(f), f, &bytes, 1, "mi");
  lower_raise_if(L, LLVMBuildIsNull(L->b, mi, ""), LMERR_MEMORY, "cannot allocate the array");
  /* MemInfo.data sits after the 8-byte count */
  LLVMValueRef dp = LLVMBuildBitCast(L->b, mi, LLVMPointerType(i8pt(L), 0), "");
  LLVMValueRef one = lower_i64(L, 1);
  dp = LLVMBuildInBoundsGEP2(L->b, i8pt(L), dp, &one, 1, "");
  LLVMValueRef data = LLVMBuildBitCast(L->b, LLVMBuildLoad2(L->b, i8pt(L), dp, ""),
                                       LLVMPointerType(lower_mem_type(L, t->dtype), 0), "data");
  LLVMValueRef strides[LM_MAXDIM];
  LLVMValueRef s = lower_i64(L, dtype_sizes[t->dtype]);
  for (int k = t->ndim - 1; k >= 0; k--) {
    strides[k] = s;
    s = LLVMBuildMul(L->b, s, shape[k], "");
  }
  return (Val){t, lower_arr_make(L, t, mi, data, shape, strides), true};
}

Val lower_alloc(Lower *L, Type *t, LLVMValueRef *shape) {
  return alloc_with(L, t, shape, "nrt_alloc");
}

Val lower_alloc_uninit(Lower *L, Type *t, LLVMValueRef *shape) {
  return alloc_with(L, t, shape, "nrt_alloc_uninit");
}

Val lower_attribute(Lower *L, Node *n) {
  Type *bt = lower_ann(L, n->value)->ty;
  if (bt && bt->kind == TY_CLASS) return lower_class_target(L, n)->class_attr(L, n);
  if (bt && (bt->kind == TY_RECORD || bt->kind == TY_ARRAY)) {  /* r.x, a.x of a record array */
    const BuiltinName *an = builtin_find_member("ndarray.", n->name);
    if (lower_record_attr(L, n, an && L->C->builtins[an->id].infer_attr)) return lower_record_target(L, n)->record_field(L, n);
  }
  if (lower_ann(L, n)->aux) {  /* a module's value (cuda.threadIdx.x): the typing left its registry row */
    const BuiltinName *nm = lower_ann(L, n)->aux;
    return L->C->builtins[nm->id].lower_attr(L, n, nm->id, (Val){0});
  }
  if (lower_ann(L, n)->ty->kind == TY_SCALAR && lower_ann(L, n->value)->ty == NULL) {
    Sym s = resolve_static(L->C, L->spec, n);
    return lower_const_sym(L, &s);
  }
  Val a = lower_expr(L, n->value);
  if (a.ty->kind != TY_ARRAY && !ty_is_number(a.ty)) {
    Sym s = resolve_static(L->C, L->spec, n);
    return lower_const_sym(L, &s);
  }
  const BuiltinName *nm = builtin_find_member("ndarray.", n->name);  /* the typing found it */
  return L->C->builtins[nm->id].lower_attr(L, n, nm->id, a);
}

/* a[i] of a record array: the element's address */
Val lower_record_elem(Lower *L, LLVMValueRef p, Type *t) {
  return (Val){t, LLVMBuildBitCast(L->b, p, LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0), ""), false};
}

/* n is r['x'] or a['x'] (typed by infer_record.c) */
bool lower_record_key(Lower *L, Node *n) {
  if (n->kind != ND_Subscript || n->slice->kind != ND_Constant || n->slice->ckind != CK_STR) return false;
  Type *bt = lower_ann(L, n->value)->ty;
  return bt && (bt->kind == TY_RECORD || (bt->kind == TY_ARRAY && dtype_is_record(bt->dtype)));
}

/* n is r.x, or a.x of a record array where x is no array attribute */
bool lower_record_attr(Lower *L, Node *n, bool array_attr) {
  Type *bt = lower_ann(L, n->value)->ty;
  if (bt == NULL) return false;
  if (bt->kind == TY_RECORD) return true;
  return !array_attr && bt->kind == TY_ARRAY && dtype_is_record(bt->dtype) &&
         record_field(record_info(bt->dtype), n->name) >= 0;
}

const Target *lower_record_target(Lower *L, Node *n) {
  if (L->C->target->record_field == NULL)
    compile_error(L->C, n->loc, "UnsupportedError", "record dtypes are not supported on the %s target", L->C->target->name);
  return L->C->target;
}

/* a method of array a (n NULL: called by the lowering itself, on a's own type) */
Val lower_array_method(Lower *L, Node *n, BuiltinId id, Val a, Node **args, int nargs) {
  return L->C->builtins[id].lower_method(L, n, id, a, args, nargs);
}

/* ---- a module-level array of literals (W = np.array([...])) used inside a
** CUDA kernel: kernels allocate nothing, so, as numba-cuda does, its value is
** frozen into the module as a constant array (constant memory, address
** space 4, on the GPU; a read-only global in the simulator) ---- */

#define MAX_CONST_ELEMS (1 << 16)  /* constant memory is 64 KiB */

typedef struct Flat {
  Node **elems;
  int64_t n, cap;
  int ndim;
  int64_t shape[LM_MAXDIM];
  bool complex;  // some element is a complex literal
} Flat;

/* nested lists/tuples of numbers: their shape (every row alike) and elements in C order */
static bool flatten(Compile *C, Node *v, int depth, Flat *f) {
  if (v->kind == ND_List || v->kind == ND_Tuple) {
    if (depth >= LM_MAXDIM) return false;
    if (depth == f->ndim) {
      f->ndim = depth + 1;
      f->shape[depth] = v->elts.len;
    } else if (f->shape[depth] != v->elts.len) {
      return false;
    }
    for (int i = 0; i < v->elts.len; i++)
      if (!flatten(C, v->elts.items[i], depth + 1, f)) return false;
    return true;
  }
  if (depth != f->ndim) return false;
  Node *c = v->kind == ND_UnaryOp && v->op == OP_USub ? v->operand : v;
  double re, im;
  if (compile_complex_literal(v, &re, &im)) f->complex = true;
  else if (c->kind != ND_Constant || !(c->ckind == CK_INT || c->ckind == CK_FLOAT || c->ckind == CK_BOOL)) return false;
  if (f->n == f->cap) {
    if (f->cap >= MAX_CONST_ELEMS) return false;
    int64_t cap = f->cap ? 2 * f->cap : 16;
    Node **e = arena_alloc(C->A, sizeof *e * (size_t)cap);
    if (f->n) memcpy(e, f->elems, sizeof *e * (size_t)f->n);
    f->elems = e;
    f->cap = cap;
  }
  f->elems[f->n++] = v;
  return true;
}

static double num_of(Node *v) {
  bool neg = v->kind == ND_UnaryOp;
  Node *c = neg ? v->operand : v;
  double x = c->ckind == CK_FLOAT ? c->fval : c->ckind == CK_BOOL ? (double)c->bval : (double)c->ival;
  return neg ? -x : x;
}

static int64_t int_of(Node *v) {
  bool neg = v->kind == ND_UnaryOp;
  Node *c = neg ? v->operand : v;
  int64_t x = c->ckind == CK_FLOAT ? (int64_t)c->fval : c->ckind == CK_BOOL ? c->bval : c->ival;
  return neg ? (int64_t)(0 - (uint64_t)x) : x;
}

bool lower_const_array(Lower *L, Node *value, Type *t, Val *out) {
  if (t->kind != TY_ARRAY || value->kind != ND_Call || value->args.len < 1) return false;
  Flat f = {0};
  if (!flatten(L->C, value->args.items[0], 0, &f) || f.ndim != t->ndim) return false;
  DType dt = t->dtype;
  if (f.complex && dtype_kinds[dt] != 'c') return false;  /* NumPy refuses it; the general path says so */
  LLVMTypeRef et = lower_mem_type(L, dt);
  LLVMValueRef *cs = arena_alloc(L->C->A, sizeof *cs * (size_t)(f.n ? f.n : 1));
  for (int64_t i = 0; i < f.n; i++) {
    if (dtype_kinds[dt] == 'c') {  /* Numba's {real, imag} */
      double re, im;
      if (!compile_complex_literal(f.elems[i], &re, &im)) re = num_of(f.elems[i]), im = 0;
      LLVMTypeRef pt = dt == DT_COMPLEX64 ? LLVMFloatTypeInContext(L->ctx) : LLVMDoubleTypeInContext(L->ctx);
      LLVMValueRef parts[2] = {LLVMConstReal(pt, re), LLVMConstReal(pt, im)};
      cs[i] = LLVMConstStructInContext(L->ctx, parts, 2, 0);
    } else if (dtype_kinds[dt] == 'f') cs[i] = LLVMConstReal(et, num_of(f.elems[i]));
    else if (dt == DT_BOOL) cs[i] = LLVMConstInt(et, num_of(f.elems[i]) != 0, 0);
    else cs[i] = LLVMConstInt(et, (unsigned long long)int_of(f.elems[i]), dtype_kinds[dt] == 'i');
  }
  LLVMTypeRef at = LLVMArrayType(et, (unsigned)f.n);
  unsigned as = L->C->target->gpu ? 4 : 0;
  char name[64];
  snprintf(name, sizeof name, "cmem%lld", (long long)++L->C->S->counter);
  LLVMValueRef g = LLVMAddGlobalInAddressSpace(L->C->mod, at, name, as);
  LLVMSetInitializer(g, LLVMConstArray(et, cs, (unsigned)f.n));
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMInternalLinkage);
  LLVMSetAlignment(g, 16);
  LLVMValueRef base = as ? LLVMConstAddrSpaceCast(g, LLVMPointerType(at, 0)) : g;
  LLVMValueRef data = LLVMConstBitCast(base, LLVMPointerType(et, 0));
  LLVMValueRef shape[LM_MAXDIM], strides[LM_MAXDIM];
  int64_t s = dtype_sizes[dt];
  for (int k = f.ndim - 1; k >= 0; k--) {
    shape[k] = lower_i64(L, f.shape[k]);
    strides[k] = lower_i64(L, s);
    s *= f.shape[k];
  }
  LLVMValueRef mi = LLVMConstNull(LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0));
  *out = (Val){t, lower_arr_make(L, t, mi, data, shape, strides), false};
  return true;
}
