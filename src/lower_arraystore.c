/*
** lower_arraystore.c — stores into array views as one fused loop:
** view = expression (broadcast into the view) and target op= expression
** (NumPy's in-place ufunc, out=target). The loop writes straight into the
** target; only when the memory of an operand overlaps the target's (views
** of one array: a[1:] = a[:-1] + 1) does it go through a temporary, found
** at run time, so the result is NumPy's (the right side evaluated first);
** for an in-place operator the temporary starts as a copy of the target.
** A CUDA kernel has no temporary (it allocates nothing): its thread writes
** the target element by element, as numba-cuda's ufunc loops do.
*/
#include "lower_arrayexpr.h"

static LLVMTypeRef i64t(Lower *L) { return LLVMInt64TypeInContext(L->ctx); }
static LLVMValueRef i1c(Lower *L, int v) { return LLVMConstInt(LLVMInt1TypeInContext(L->ctx), (unsigned)v, 0); }

/* the bytes a view touches: [lo, hi); empty is true when it has no element */
static void extent(Lower *L, Val a, LLVMValueRef *lo, LLVMValueRef *hi, LLVMValueRef *empty) {
  LLVMValueRef base = LLVMBuildPtrToInt(L->b, lower_arr_data(L, a.v), i64t(L), "");
  LLVMValueRef zero = lower_i64(L, 0), one = lower_i64(L, 1);
  LLVMValueRef down = zero, up = zero;
  *empty = i1c(L, 0);
  for (int k = 0; k < a.ty->ndim; k++) {
    LLVMValueRef n = lower_arr_shape(L, a.v, k);
    *empty = LLVMBuildOr(L->b, *empty, LLVMBuildICmp(L->b, LLVMIntEQ, n, zero, ""), "");
    LLVMValueRef span = LLVMBuildMul(L->b, LLVMBuildSub(L->b, n, one, ""), lower_arr_stride(L, a.v, k), "");
    LLVMValueRef neg = LLVMBuildICmp(L->b, LLVMIntSLT, span, zero, "");
    down = LLVMBuildAdd(L->b, down, LLVMBuildSelect(L->b, neg, span, zero, ""), "");
    up = LLVMBuildAdd(L->b, up, LLVMBuildSelect(L->b, neg, zero, span, ""), "");
  }
  *lo = LLVMBuildAdd(L->b, base, down, "");
  *hi = LLVMBuildAdd(L->b, LLVMBuildAdd(L->b, base, up, ""), lower_i64(L, dtype_sizes[a.ty->dtype]), "");
}

LLVMValueRef ax_extents_meet(Lower *L, Val a, Val b) {
  LLVMValueRef lo, hi, ea, l2, h2, eb;
  extent(L, a, &lo, &hi, &ea);
  extent(L, b, &l2, &h2, &eb);
  LLVMValueRef meet = LLVMBuildAnd(L->b, LLVMBuildICmp(L->b, LLVMIntULT, l2, hi, ""),
                                   LLVMBuildICmp(L->b, LLVMIntULT, lo, h2, ""), "");
  return LLVMBuildAnd(L->b, meet, LLVMBuildNot(L->b, LLVMBuildOr(L->b, ea, eb, ""), ""), "");
}

LLVMValueRef ax_overlaps(Lower *L, Val v, LLVMValueRef *vs, Val dst, int nd, LLVMValueRef *shape) {
  LLVMValueRef lo, hi, dempty, l2, h2, e2;
  extent(L, dst, &lo, &hi, &dempty);
  extent(L, v, &l2, &h2, &e2);
  LLVMValueRef meet = LLVMBuildAnd(L->b, LLVMBuildICmp(L->b, LLVMIntULT, l2, hi, ""),
                                   LLVMBuildICmp(L->b, LLVMIntULT, lo, h2, ""), "");
  meet = LLVMBuildAnd(L->b, meet, LLVMBuildNot(L->b, LLVMBuildOr(L->b, dempty, e2, ""), ""), "");
  /* the same elements in the same order: each is read before it is written */
  LLVMValueRef same = LLVMBuildICmp(L->b, LLVMIntEQ, LLVMBuildPtrToInt(L->b, lower_arr_data(L, v.v), i64t(L), ""),
                                    LLVMBuildPtrToInt(L->b, lower_arr_data(L, dst.v), i64t(L), ""), "");
  if (v.ty->dtype != dst.ty->dtype) same = i1c(L, 0);
  for (int k = 0; k < nd; k++) {
    LLVMValueRef eq = LLVMBuildICmp(L->b, LLVMIntEQ, vs[k], lower_arr_stride(L, dst.v, k), "");
    LLVMValueRef one = LLVMBuildICmp(L->b, LLVMIntSLE, shape[k], lower_i64(L, 1), "");
    same = LLVMBuildAnd(L->b, same, LLVMBuildOr(L->b, eq, one, ""), "");
  }
  return LLVMBuildAnd(L->b, meet, LLVMBuildNot(L->b, same, ""), "");
}

/* true at run time when some operand shares memory with the target, other than
** reading each target element at its own position (a += a, x[:] = x * 2) */
static LLVMValueRef overlaps(Lower *L, Ax *x, Val dst, int nd, LLVMValueRef *shape) {
  LLVMValueRef any = i1c(L, 0);
  for (int i = 0; i < x->nleaf; i++)
    if (i != x->target && x->leaf[i].v.ty->kind == TY_ARRAY)
      any = LLVMBuildOr(L->b, any, ax_overlaps(L, x->leaf[i].v, x->leaf[i].stride, dst, nd, shape), "");
  return any;
}

/* NumPy's checks of a value of shape v[vnd] against the target's d[nd] */
static void check_shapes(Lower *L, Ax *x, bool inplace, int vnd, LLVMValueRef *v, int nd, LLVMValueRef *d) {
  LLVMValueRef one = lower_i64(L, 1), bad = i1c(L, 0), wider = i1c(L, vnd > nd);
  LLVMValueRef s[3][LM_MAXDIM], b[LM_MAXDIM];
  int bnd = vnd > nd ? vnd : nd;
  for (int j = 0; j < vnd; j++) {
    int k = j - vnd + nd;
    LLVMValueRef v1 = LLVMBuildICmp(L->b, LLVMIntEQ, v[j], one, "");
    if (k < 0) {  /* an axis the target lacks: a store takes it when it is 1 */
      if (!inplace) bad = LLVMBuildOr(L->b, bad, LLVMBuildNot(L->b, v1, ""), "");
      b[j] = v[j];
      continue;
    }
    LLVMValueRef ne = LLVMBuildICmp(L->b, LLVMIntNE, v[j], d[k], "");
    LLVMValueRef d1 = LLVMBuildICmp(L->b, LLVMIntEQ, d[k], one, "");
    if (inplace) {
      bad = LLVMBuildOr(L->b, bad, LLVMBuildAnd(L->b, ne, LLVMBuildNot(L->b, LLVMBuildOr(L->b, v1, d1, ""), ""), ""), "");
      wider = LLVMBuildOr(L->b, wider, LLVMBuildAnd(L->b, ne, d1, ""), "");
    } else {
      bad = LLVMBuildOr(L->b, bad, LLVMBuildAnd(L->b, ne, LLVMBuildNot(L->b, v1, ""), ""), "");
    }
  }
  for (int k = 0; k < bnd; k++) {
    int j = k - bnd + vnd, i = k - bnd + nd;
    if (j < 0) b[k] = d[i];
    else if (i >= 0) b[k] = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, d[i], one, ""), v[j], d[i], "");
  }
  for (int k = 0; k < nd; k++) s[0][k] = s[2][k] = d[k];
  for (int j = 0; j < vnd; j++) s[1][j] = v[j];
  if (!inplace) {
    for (int j = 0; j < vnd; j++) s[0][j] = v[j];
    for (int k = 0; k < nd; k++) s[1][k] = d[k];
    lower_shape_error_if(L, bad, ax_with_where(L, "could not broadcast input array from shape %S into shape %S", x->loc),
                         2, (int[]){vnd, nd}, s);
    return;
  }
  if (x->outcall)  /* NumPy lists the inputs, then out */
    lower_shape_error_if(L, bad, ax_with_where(L, "operands could not be broadcast together with shapes %S %S ", x->loc),
                         2, (int[]){vnd, nd}, &s[1]);
  else
    lower_shape_error_if(L, bad, ax_with_where(L, "operands could not be broadcast together with shapes %S %S %S ", x->loc),
                         3, (int[]){nd, vnd, nd}, s);
  for (int k = 0; k < bnd; k++) s[1][k] = b[k];
  lower_shape_error_if(L, wider, ax_with_where(L, "non-broadcastable output operand with shape %S doesn't match the "
                                               "broadcast shape %S", x->loc), 2, (int[]){nd, bnd}, s);
}

/* the store up to its overlap test; outcall: value is a ufunc call writing into
** target, its out (NumPy checks out as for an in-place operator: out never
** stretches). The target, p->out, is held. */
static void plan(Lower *L, Node *target, OpKind op, Type *opty, Node *value, const Val *pre, bool outcall, AxPlan *p) {
  bool inplace = op != OP_None;
  *p = (AxPlan){.x = {.root = NULL, .loc = target->loc, .op = op, .target = -1, .outcall = outcall ? value : NULL},
                .mark = L->nheld, .inplace = inplace, .outcall = outcall, .pre = pre};
  Ax *x = &p->x;
  Val dst = {0};
  if (inplace) {  /* Python: the target's subscript first, then the value */
    dst = lower_expr(L, target);  /* a selection (a[mask]) gives its copy, stored back by the caller */
    lower_hold(L, dst);
  }
  if (pre) {
    x->leaf[0].v = *pre;
    x->nleaf = 1;
    lower_hold(L, *pre);
  } else {
    x->root = value;
    ax_collect(L, x, value);
    ax_lower_leaves(L, x);
  }
  if (!inplace) {
    dst = lower_expr(L, target);
    lower_hold(L, dst);
  }
  int nd = p->nd = dst.ty->ndim;
  LLVMValueRef *d = p->shape, v[LM_MAXDIM];
  ax_leaf_shape(L, dst, d);
  int vnd;
  if (pre) {
    ax_leaf_shape(L, *pre, v);
    vnd = pre->ty->kind == TY_ARRAY ? pre->ty->ndim : 0;
  } else {
    vnd = ax_shape(L, x, value, v);
  }
  check_shapes(L, x, inplace || outcall, vnd, v, nd, d);
  if (inplace) {
    x->target = x->nleaf++;
    x->leaf[x->target] = (Leaf){.n = NULL, .v = dst};
    x->opty = opty;
  }
  ax_strides(L, x, nd, d);
  p->out = dst;
  /* the temporary, only when an operand overlaps the target; a kernel allocates
  ** nothing: straight into the target, as numba-cuda */
  p->need = L->C->target->refcount ? overlaps(L, x, dst, nd, d) : NULL;
}

void ax_store_plan(Lower *L, Node *target, OpKind op, Type *opty, Node *value, AxPlan *p) {
  plan(L, target, op, opty, value, NULL, false, p);
}

void ax_plan_run(Lower *L, AxPlan *p) {
  Ax *x = &p->x;
  int nd = p->nd;
  LLVMValueRef *d = p->shape;
  if (p->need == NULL) {
    ax_par_loop(L, x, nd, d, p->out, "array expression");
    return;
  }
  Val dst = p->out;
  LLVMValueRef need = p->need;
  LLVMBasicBlockRef tmpb = lower_block(L, "axtmp"), direct = LLVMGetInsertBlock(L->b), join = lower_block(L, "axjoin");
  LLVMBuildCondBr(L->b, need, tmpb, join);
  LLVMPositionBuilderAtEnd(L->b, tmpb);
  Type *tt = ty_array(&L->C->S->types, dst.ty->dtype, nd, 'C');
  Val tmp = lower_alloc_uninit(L, tt, d);
  LLVMValueRef tv = tmp.v;
  if (p->inplace) ax_par_copy(L, dst, tmp);  /* the loop reads the target where it writes (ax_loop): a copy of it */
  LLVMBasicBlockRef tmpend = LLVMGetInsertBlock(L->b);
  LLVMBuildBr(L->b, join);
  LLVMPositionBuilderAtEnd(L->b, join);
  LLVMTypeRef at = lower_type(L, dst.ty);
  LLVMValueRef w = LLVMBuildPhi(L->b, at, "axout"), own = LLVMBuildPhi(L->b, at, "axtmpown");
  LLVMAddIncoming(w, (LLVMValueRef[]){dst.v, tv}, (LLVMBasicBlockRef[]){direct, tmpend}, 2);
  LLVMAddIncoming(own, (LLVMValueRef[]){LLVMConstNull(at), tv}, (LLVMBasicBlockRef[]){direct, tmpend}, 2);
  Val owned = {dst.ty, own, true};
  int mark = lower_hold(L, owned);
  ax_par_loop(L, x, nd, d, (Val){dst.ty, w, false},
              p->outcall ? "ufunc call with out=" : p->inplace ? "in-place operator" : "store into an array");
  /* through the temporary: copy it into the target */
  LLVMBasicBlockRef copyb = lower_block(L, "axcopy"), done = lower_block(L, "axdone");
  LLVMBuildCondBr(L->b, need, copyb, done);
  LLVMPositionBuilderAtEnd(L->b, copyb);
  ax_par_copy(L, (Val){tt, own, false}, dst);
  LLVMBuildBr(L->b, done);
  LLVMPositionBuilderAtEnd(L->b, done);
  lower_unhold(L, mark);
  lower_decref(L, owned);
}

/* the store; the target is returned held */
static Val store(Lower *L, Node *target, OpKind op, Type *opty, Node *value, const Val *pre, bool outcall) {
  AxPlan p;
  plan(L, target, op, opty, value, pre, outcall, &p);
  ax_plan_run(L, &p);
  lower_unhold(L, p.mark);
  if (pre) lower_release(L, *pre);
  else ax_release_leaves(L, &p.x);
  return p.out;
}

void lower_arraystore(Lower *L, Node *target, OpKind op, Type *opty, Node *value, const Val *pre) {
  if (target->kind == ND_Subscript && lower_is_selection(L, target)) {
    /* a[mask] = v: NumPy's setitem of the value; a[idx] += v: getitem, the
    ** operation on that copy, setitem (a repeated index is written once) */
    Val v = op != OP_None ? store(L, target, op, opty, value, pre, false) : pre ? *pre : lower_expr(L, value);
    int mark = lower_hold(L, v);
    L->C->target->index_set(L, target, (Val){v.ty, v.v, false});
    lower_unhold(L, mark);
    lower_release(L, v);
    return;
  }
  lower_release(L, store(L, target, op, opty, value, pre, false));
}

Val lower_ufunc_store(Lower *L, Node *call, Node *out) {
  Val dst = store(L, out, OP_None, NULL, call, NULL, true);
  if (!dst.owned) lower_incref(L, dst);
  return (Val){dst.ty, dst.v, true};
}
