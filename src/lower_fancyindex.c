/*
** lower_fancyindex.c — subscripts that select (Target.index_get and
** index_set): an integer index array or a bool mask at one position,
** beside integers, slices and None. The rest of the subscript is a view
** (lower_index_view) in which the selection's axes are kept whole; the
** selection becomes a table of byte offsets into those axes, every index
** checked before anything is read or written; then one loop nest over the
** result's shape copies out (a new C array, as NumPy) or stores in.
*/
#include "index.h"
#include "lower.h"

static LLVMTypeRef i64t(Lower *L) { return LLVMInt64TypeInContext(L->ctx); }

/* the element pointer at byte offset off from array a's data */
static LLVMValueRef at(Lower *L, Val a, LLVMValueRef off) {
  LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
  LLVMValueRef p = LLVMBuildBitCast(L->b, lower_arr_data(L, a.v), LLVMPointerType(i8, 0), "");
  p = LLVMBuildInBoundsGEP2(L->b, i8, p, &off, 1, "");
  return LLVMBuildBitCast(L->b, p, LLVMPointerType(lower_mem_type(L, a.ty->dtype), 0), "");
}

static LLVMValueRef i64_at(Lower *L, Val a, LLVMValueRef i) {
  return LLVMBuildInBoundsGEP2(L->b, i64t(L), lower_arr_data(L, a.v), &i, 1, "");
}

/* nested loops over shape[0..nd) in C order; fn gets the counters */

void lower_nest(Lower *L, int nd, LLVMValueRef *shape, NestFn fn, void *ud) {
  LLVMValueRef slot[LM_MAXDIM], ctr[LM_MAXDIM];
  LLVMBasicBlockRef head[LM_MAXDIM], exit[LM_MAXDIM];
  for (int k = 0; k < nd; k++) {
    slot[k] = lower_entry_alloca(L, i64t(L), "nk");
    LLVMBuildStore(L->b, lower_i64(L, 0), slot[k]);
    head[k] = lower_block(L, "nest");
    exit[k] = lower_block(L, "nestend");
    LLVMBuildBr(L->b, head[k]);
    LLVMPositionBuilderAtEnd(L->b, head[k]);
    ctr[k] = LLVMBuildLoad2(L->b, i64t(L), slot[k], "");
    LLVMBasicBlockRef body = lower_block(L, "nestbody");
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, ctr[k], shape[k], ""), body, exit[k]);
    LLVMPositionBuilderAtEnd(L->b, body);
  }
  fn(L, ctr, ud);
  for (int k = nd - 1; k >= 0; k--) {
    LLVMBuildStore(L->b, LLVMBuildNSWAdd(L->b, ctr[k], lower_i64(L, 1), ""), slot[k]);
    LLVMBuildBr(L->b, head[k]);
    LLVMPositionBuilderAtEnd(L->b, exit[k]);
  }
}

/* if cond: then(); the builder continues after it */
static void when(Lower *L, LLVMValueRef cond, NestFn then, LLVMValueRef *ctr, void *ud) {
  LLVMBasicBlockRef yes = lower_block(L, "sel"), next = lower_block(L, "selnext");
  LLVMBuildCondBr(L->b, cond, yes, next);
  LLVMPositionBuilderAtEnd(L->b, yes);
  then(L, ctr, ud);
  LLVMBuildBr(L->b, next);
  LLVMPositionBuilderAtEnd(L->b, next);
}

/* a selection: the view, the offsets of the selected places in it, the result's shape */
typedef struct Sel {
  const IndexPlan *p;
  Val view, index, offs;   // offs: int64[count], byte offsets along the selection's axes
  LLVMValueRef count;
  int rnd;                             // the result's ndim
  LLVMValueRef shape[LM_MAXDIM];       // the result's shape
  LLVMValueRef stride[LM_MAXDIM];      // the view's stride of each result axis but p->rpos
  LLVMValueRef cnt;                    // alloca: a running count
  DType sdt;                           // the value's dtype (stores)
  Val src;                             // the value (stores): a scalar, or a C array read through bstride
  LLVMValueRef bstride[LM_MAXDIM];
  int snd;
} Sel;

static LLVMValueRef mask_true(Lower *L, Val m, LLVMValueRef *ctr, int k) {
  LLVMValueRef off = lower_i64(L, 0);
  for (int d = 0; d < k; d++) off = LLVMBuildAdd(L->b, off, LLVMBuildMul(L->b, ctr[d], lower_arr_stride(L, m.v, d), ""), "");
  return lower_load_elem(L, DT_BOOL, at(L, m, off));
}

static void count_one(Lower *L, LLVMValueRef *ctr, void *ud) {
  (void)ctr;
  Sel *s = ud;
  LLVMBuildStore(L->b, LLVMBuildAdd(L->b, LLVMBuildLoad2(L->b, i64t(L), s->cnt, ""), lower_i64(L, 1), ""), s->cnt);
}
static void count_true(Lower *L, LLVMValueRef *ctr, void *ud) {
  Sel *s = ud;
  when(L, mask_true(L, s->index, ctr, s->p->advk), count_one, ctr, ud);
}
static void note_one(Lower *L, LLVMValueRef *ctr, void *ud) {
  Sel *s = ud;
  LLVMValueRef off = lower_i64(L, 0);
  for (int d = 0; d < s->p->advk; d++)
    off = LLVMBuildAdd(L->b, off, LLVMBuildMul(L->b, ctr[d], lower_arr_stride(L, s->view.v, s->p->vpos + d), ""), "");
  LLVMValueRef j = LLVMBuildLoad2(L->b, i64t(L), s->cnt, "");
  LLVMBuildStore(L->b, off, i64_at(L, s->offs, j));
  count_one(L, ctr, ud);
}
static void note_true(Lower *L, LLVMValueRef *ctr, void *ud) {
  Sel *s = ud;
  when(L, mask_true(L, s->index, ctr, s->p->advk), note_one, ctr, ud);
}

/* a mask: its shape is the view's along its axes (NumPy's IndexError), its true places in C order */
static void mask_offsets(Lower *L, Sel *s) {
  const IndexPlan *p = s->p;
  LLVMValueRef mshape[LM_MAXDIM];
  for (int d = 0; d < p->advk; d++) {
    mshape[d] = lower_arr_shape(L, s->index.v, d);
    char msg[160];
    snprintf(msg, sizeof msg, "IndexError: boolean index did not match indexed array along dimension %d", p->axis + d);
    lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntNE, mshape[d], lower_arr_shape(L, s->view.v, p->vpos + d), ""),
                   LMERR_RAISE, msg);
  }
  s->cnt = lower_entry_alloca(L, i64t(L), "selcount");
  LLVMBuildStore(L->b, lower_i64(L, 0), s->cnt);
  lower_nest(L, p->advk, mshape, count_true, s);
  s->count = LLVMBuildLoad2(L->b, i64t(L), s->cnt, "");
  s->offs = lower_alloc_uninit(L, ty_array(&L->C->S->types, DT_INT64, 1, 'C'), &s->count);
  lower_hold(L, s->offs);
  LLVMBuildStore(L->b, lower_i64(L, 0), s->cnt);
  lower_nest(L, p->advk, mshape, note_true, s);
}

static void note_index(Lower *L, LLVMValueRef *ctr, void *ud) {
  Sel *s = ud;
  DType dt = s->index.ty->dtype;
  LLVMValueRef ix = lower_load_elem(L, dt, at(L, s->index, LLVMBuildMul(L->b, ctr[0], lower_arr_stride(L, s->index.v, 0), "")));
  LLVMValueRef dim = lower_arr_shape(L, s->view.v, s->p->vpos);
  LLVMValueRef i = dtype_kinds[dt] == 'u' ? LLVMBuildZExt(L->b, ix, i64t(L), "") : lower_cast(L, (Val){ty_scalar(dt), ix, false}, ty_int64).v;
  LLVMValueRef w = i;
  if (dtype_kinds[dt] != 'u')  /* negative counts from the end */
    w = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, i, lower_i64(L, 0), ""), LLVMBuildAdd(L->b, i, dim, ""), i, "");
  lower_index_error_if(L, LLVMBuildICmp(L->b, LLVMIntUGE, w, dim, ""), i, s->p->axis, dim);
  LLVMValueRef off = LLVMBuildMul(L->b, w, lower_arr_stride(L, s->view.v, s->p->vpos), "");
  LLVMBuildStore(L->b, off, i64_at(L, s->offs, ctr[0]));
}

/* an integer array: each index wrapped and checked (always: Numba checks these too) */
static void index_offsets(Lower *L, Sel *s) {
  s->count = lower_arr_shape(L, s->index.v, 0);
  s->offs = lower_alloc_uninit(L, ty_array(&L->C->S->types, DT_INT64, 1, 'C'), &s->count);
  lower_hold(L, s->offs);
  lower_nest(L, 1, &s->count, note_index, s);
}

/* the base, the index, the view, the offsets and the result's shape, all held */
static void selection_of(Lower *L, Node *n, Sel *s) {
  const IndexPlan *p = s->p = lower_ann(L, n)->aux;
  Node **items = n->slice->kind == ND_Tuple ? n->slice->elts.items : &n->slice;
  Val base = lower_expr(L, n->value);
  lower_hold(L, base);
  s->index = lower_expr(L, items[p->adv]);
  lower_hold(L, s->index);
  s->view = lower_index_view(L, n, base, ty_array(&L->C->S->types, base.ty->dtype, p->vndim, 'A'));
  if (p->mask) mask_offsets(L, s);
  else index_offsets(L, s);
  s->rnd = p->vndim - p->advk + 1;
  int v = 0;
  for (int r = 0; r < s->rnd; r++) {
    if (r == p->rpos) {
      s->shape[r] = s->count;
      s->stride[r] = lower_i64(L, 0);
      continue;
    }
    if (v == p->vpos) v += p->advk;
    s->shape[r] = lower_arr_shape(L, s->view.v, v);
    s->stride[r] = lower_arr_stride(L, s->view.v, v);
    v++;
  }
}

static void done(Lower *L, Sel *s) {
  lower_decref(L, s->offs);
  lower_release(L, s->index);
  lower_release(L, s->view);
}

/* the selected place of the view at result counters ctr */
static LLVMValueRef place(Lower *L, Sel *s, LLVMValueRef *ctr) {
  LLVMValueRef off = LLVMBuildLoad2(L->b, i64t(L), i64_at(L, s->offs, ctr[s->p->rpos]), "");
  for (int r = 0; r < s->rnd; r++)
    if (r != s->p->rpos) off = LLVMBuildAdd(L->b, off, LLVMBuildMul(L->b, ctr[r], s->stride[r], ""), "");
  return at(L, s->view, off);
}

typedef struct Out { Sel *s; Val res; } Out;

static void copy_out(Lower *L, LLVMValueRef *ctr, void *ud) {
  Out *o = ud;
  DType dt = o->res.ty->dtype;
  LLVMValueRef x = lower_load_elem(L, dt, place(L, o->s, ctr));
  LLVMValueRef j = LLVMBuildLoad2(L->b, i64t(L), o->s->cnt, "");
  lower_store_elem(L, dt, LLVMBuildInBoundsGEP2(L->b, lower_mem_type(L, dt), lower_arr_data(L, o->res.v), &j, 1, ""), x);
  count_one(L, ctr, o->s);
}

Val lower_fancy_get(Lower *L, Node *n) {
  int mark = L->nheld;
  Sel s = {0};
  selection_of(L, n, &s);
  Val res = lower_alloc_uninit(L, lower_ann(L, n)->ty, s.shape);
  if (!s.cnt) s.cnt = lower_entry_alloca(L, i64t(L), "selcount");
  LLVMBuildStore(L->b, lower_i64(L, 0), s.cnt);
  Out o = {&s, res};
  lower_nest(L, s.rnd, s.shape, copy_out, &o);
  lower_unhold(L, mark);
  done(L, &s);
  return res;
}

static void store_in(Lower *L, LLVMValueRef *ctr, void *ud) {
  Sel *s = ud;
  DType dt = s->view.ty->dtype;
  Val x = s->src;
  if (x.ty->kind == TY_ARRAY) {
    LLVMValueRef off = lower_i64(L, 0);
    for (int j = 0; j < s->snd; j++)
      off = LLVMBuildAdd(L->b, off, LLVMBuildMul(L->b, ctr[s->rnd - s->snd + j], s->bstride[j], ""), "");
    x = (Val){ty_scalar(s->sdt), lower_load_elem(L, s->sdt, at(L, s->src, off)), false};
  }
  lower_store_elem(L, dt, place(L, s, ctr), lower_cast(L, x, ty_scalar(dt)).v);
}

void lower_fancy_set(Lower *L, Node *target, Val v) {
  int mark = lower_hold(L, v);
  Sel s = {0};
  selection_of(L, target, &s);
  DType dt = s.view.ty->dtype;
  Val copy = {0};
  if (v.ty->kind == TY_SCALAR) {
    s.src = (Val){ty_scalar(dt), lower_cast(L, v, ty_scalar(dt)).v, false};
  } else {
    /* NumPy's broadcasting of the value to the selection's shape, through a
    ** copy (the value may be a view of the target) */
    s.snd = v.ty->ndim;
    for (int j = 0; j < s.snd; j++) {
      LLVMValueRef vs = lower_arr_shape(L, v.v, j), rs = s.shape[s.rnd - s.snd + j];
      LLVMValueRef ok = LLVMBuildOr(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, vs, rs, ""),
                                    LLVMBuildICmp(L->b, LLVMIntEQ, vs, lower_i64(L, 1), ""), "");
      lower_raise_if(L, LLVMBuildNot(L->b, ok, ""), LMERR_VALUE,
                     "shape mismatch: value array could not be broadcast to the indexing result");
    }
    Val borrowed = v;
    borrowed.owned = false;
    copy = lower_array_method(L, NULL, BI_ndarray_copy, borrowed, NULL, 0);
    s.src = copy;
    s.sdt = v.ty->dtype;
    for (int j = 0; j < s.snd; j++) {
      LLVMValueRef one = LLVMBuildICmp(L->b, LLVMIntEQ, lower_arr_shape(L, copy.v, j), lower_i64(L, 1), "");
      s.bstride[j] = LLVMBuildSelect(L->b, one, lower_i64(L, 0), lower_arr_stride(L, copy.v, j), "");
    }
  }
  lower_nest(L, s.rnd, s.shape, store_in, &s);
  if (copy.ty) lower_decref(L, copy);
  lower_unhold(L, mark);
  done(L, &s);
  lower_release(L, v);
}
