/*
** lower_ufunc.c — NumPy ufunc calls in the array lowering. A ufunc call over
** arrays is an inner node of an array expression (lower_arrayexpr.c asks
** here): its operands are fused into the same loop and its element comes
** from the builtin's element hook, reached through Compile.builtins. A call
** with an output array (out) is one loop over out's shape writing into it;
** an input that overlaps out other than element for element (a shifted view
** of it) is copied first, so the result is NumPy's.
*/
#include "builtin_hooks.h"

static CallInfo *ufunc_info(Lower *L, Node *n) {
  if (n->kind != ND_Call) return NULL;
  CallInfo *ci = lower_ann(L, n)->aux;
  if (ci == NULL || ci->kind != CALL_BUILTIN || !ci->ufunc || L->C->builtins[ci->bi].elem == NULL) return NULL;
  return ci;
}

bool lower_ufunc_inner(Lower *L, Node *n) {
  CallInfo *ci = ufunc_info(L, n);
  return ci && ci->out == NULL;  /* a call writing into out is a leaf: it runs on its own */
}

int lower_ufunc_operands(Lower *L, Node *n, Node ***args) {
  CallInfo *ci = ufunc_info(L, n);
  *args = ci->args;
  return ci->nargs;
}

Val lower_ufunc_elem(Lower *L, Node *n, Val *x) {
  CallInfo *ci = ufunc_info(L, n);
  return L->C->builtins[ci->bi].elem(L, n, ci, x);
}

/* the byte address of a's element at offset off */
static LLVMValueRef elem_ptr(Lower *L, Val a, LLVMValueRef off) {
  LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
  LLVMValueRef p = LLVMBuildBitCast(L->b, lower_arr_data(L, a.v), LLVMPointerType(i8, 0), "");
  p = LLVMBuildInBoundsGEP2(L->b, i8, p, &off, 1, "");
  return LLVMBuildBitCast(L->b, p, LLVMPointerType(lower_mem_type(L, a.ty->dtype), 0), "");
}

/* src's stride along dest's axis k: 0 where src broadcasts (a missing axis or length 1) */
static LLVMValueRef bstride(Lower *L, Val src, int nd, int k) {
  int j = k - (nd - src.ty->ndim);
  if (j < 0) return lower_i64(L, 0);
  LLVMValueRef one = LLVMBuildICmp(L->b, LLVMIntEQ, lower_arr_shape(L, src.v, j), lower_i64(L, 1), "");
  return LLVMBuildSelect(L->b, one, lower_i64(L, 0), lower_arr_stride(L, src.v, j), "");
}

/* dest[i] = f(src[0][i], ...) over dest's shape, the sources broadcast to it;
** f is the ufunc of call n (ci), or a copy when ci is NULL */
static void loop_into(Lower *L, Val dest, Val *src, int nsrc, Node *n, CallInfo *ci) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  int nd = dest.ty->ndim;
  LLVMValueRef ctr[LM_MAXDIM], stride[2][LM_MAXDIM];
  LLVMBasicBlockRef head[LM_MAXDIM], exit[LM_MAXDIM];
  for (int i = 0; i < nsrc; i++)
    if (src[i].ty->kind == TY_ARRAY)
      for (int k = 0; k < nd; k++) stride[i][k] = bstride(L, src[i], nd, k);
  for (int k = 0; k < nd; k++) {
    ctr[k] = lower_entry_alloca(L, i64, "ufk");
    LLVMBuildStore(L->b, lower_i64(L, 0), ctr[k]);
    head[k] = lower_block(L, "uf");
    exit[k] = lower_block(L, "ufend");
    LLVMBuildBr(L->b, head[k]);
    LLVMPositionBuilderAtEnd(L->b, head[k]);
    LLVMBasicBlockRef body = lower_block(L, "ufbody");
    LLVMValueRef c = LLVMBuildLoad2(L->b, i64, ctr[k], "");
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, c, lower_arr_shape(L, dest.v, k), ""), body, exit[k]);
    LLVMPositionBuilderAtEnd(L->b, body);
  }
  Val x[2];
  LLVMValueRef doff = lower_i64(L, 0);
  for (int k = 0; k < nd; k++)
    doff = LLVMBuildAdd(L->b, doff, LLVMBuildMul(L->b, LLVMBuildLoad2(L->b, i64, ctr[k], ""), lower_arr_stride(L, dest.v, k), ""), "");
  for (int i = 0; i < nsrc; i++) {
    if (src[i].ty->kind != TY_ARRAY) { x[i] = src[i]; continue; }
    LLVMValueRef off = lower_i64(L, 0);
    for (int k = 0; k < nd; k++)
      off = LLVMBuildAdd(L->b, off, LLVMBuildMul(L->b, LLVMBuildLoad2(L->b, i64, ctr[k], ""), stride[i][k], ""), "");
    x[i] = (Val){ty_scalar(src[i].ty->dtype), lower_load_elem(L, src[i].ty->dtype, elem_ptr(L, src[i], off)), false};
  }
  Val e = ci ? L->C->builtins[ci->bi].elem(L, n, ci, x) : x[0];
  lower_store_elem(L, dest.ty->dtype, elem_ptr(L, dest, doff), lower_cast(L, e, ty_scalar(dest.ty->dtype)).v);
  for (int k = nd - 1; k >= 0; k--) {
    LLVMBuildStore(L->b, LLVMBuildAdd(L->b, LLVMBuildLoad2(L->b, i64, ctr[k], ""), lower_i64(L, 1), ""), ctr[k]);
    LLVMBuildBr(L->b, head[k]);
    LLVMPositionBuilderAtEnd(L->b, exit[k]);
    if (k > 0) LLVMBuildStore(L->b, lower_i64(L, 0), ctr[k]);
  }
}

/* the lowest and one past the highest byte address of a's elements */
static void extent(Lower *L, Val a, LLVMValueRef *lo, LLVMValueRef *hi, LLVMValueRef *empty) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  LLVMValueRef base = LLVMBuildPtrToInt(L->b, lower_arr_data(L, a.v), i64, "");
  LLVMValueRef zero = lower_i64(L, 0), one = lower_i64(L, 1);
  *lo = base;
  *hi = LLVMBuildAdd(L->b, base, lower_i64(L, dtype_sizes[a.ty->dtype]), "");
  *empty = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0);
  for (int k = 0; k < a.ty->ndim; k++) {
    LLVMValueRef s = lower_arr_shape(L, a.v, k);
    *empty = LLVMBuildOr(L->b, *empty, LLVMBuildICmp(L->b, LLVMIntEQ, s, zero, ""), "");
    LLVMValueRef span = LLVMBuildMul(L->b, LLVMBuildSub(L->b, s, one, ""), lower_arr_stride(L, a.v, k), "");
    LLVMValueRef neg = LLVMBuildICmp(L->b, LLVMIntSLT, span, zero, "");
    *lo = LLVMBuildAdd(L->b, *lo, LLVMBuildSelect(L->b, neg, span, zero, ""), "");
    *hi = LLVMBuildAdd(L->b, *hi, LLVMBuildSelect(L->b, neg, zero, span, ""), "");
  }
}

/* true when reading a while writing out could see an element already written:
** their bytes overlap and a is not out itself element for element */
static LLVMValueRef hazard(Lower *L, Val a, Val out) {
  LLVMValueRef alo, ahi, aem, olo, ohi, oem;
  extent(L, a, &alo, &ahi, &aem);
  extent(L, out, &olo, &ohi, &oem);
  LLVMValueRef ov = LLVMBuildAnd(L->b, LLVMBuildICmp(L->b, LLVMIntULT, alo, ohi, ""),
                                 LLVMBuildICmp(L->b, LLVMIntULT, olo, ahi, ""), "");
  ov = LLVMBuildAnd(L->b, ov, LLVMBuildNot(L->b, LLVMBuildOr(L->b, aem, oem, ""), ""), "");
  LLVMValueRef same = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), a.ty->ndim == out.ty->ndim, 0);
  same = LLVMBuildAnd(L->b, same, LLVMBuildICmp(L->b, LLVMIntEQ, alo, olo, ""), "");
  if (a.ty->ndim == out.ty->ndim && dtype_sizes[a.ty->dtype] == dtype_sizes[out.ty->dtype])
    for (int k = 0; k < a.ty->ndim; k++) {
      same = LLVMBuildAnd(L->b, same, LLVMBuildICmp(L->b, LLVMIntEQ, lower_arr_stride(L, a.v, k), lower_arr_stride(L, out.v, k), ""), "");
      same = LLVMBuildAnd(L->b, same, LLVMBuildICmp(L->b, LLVMIntEQ, lower_arr_shape(L, a.v, k), lower_arr_shape(L, out.v, k), ""), "");
    }
  else
    same = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0);
  return LLVMBuildAnd(L->b, ov, LLVMBuildNot(L->b, same, ""), "");
}

/* a, or a copy of it when it is a hazard for out; owned either way */
static Val unaliased(Lower *L, Val a, Val out) {
  LLVMValueRef slot = lower_entry_alloca(L, lower_type(L, a.ty), "ufin");
  LLVMBasicBlockRef copy = lower_block(L, "ufcopy"), keep = lower_block(L, "ufkeep"), join = lower_block(L, "ufjoin");
  LLVMBuildCondBr(L->b, hazard(L, a, out), copy, keep);
  LLVMPositionBuilderAtEnd(L->b, copy);
  LLVMValueRef shape[LM_MAXDIM];
  for (int k = 0; k < a.ty->ndim; k++) shape[k] = lower_arr_shape(L, a.v, k);
  Val tmp = lower_alloc(L, ty_array(&L->C->S->types, a.ty->dtype, a.ty->ndim, 'C'), shape);
  loop_into(L, tmp, &a, 1, NULL, NULL);
  LLVMBuildStore(L->b, tmp.v, slot);
  LLVMBuildBr(L->b, join);
  LLVMPositionBuilderAtEnd(L->b, keep);
  lower_incref(L, a);
  LLVMBuildStore(L->b, a.v, slot);
  LLVMBuildBr(L->b, join);
  LLVMPositionBuilderAtEnd(L->b, join);
  return (Val){a.ty, LLVMBuildLoad2(L->b, lower_type(L, a.ty), slot, ""), true};
}

Val lower_ufunc_out(Lower *L, Node *n, CallInfo *ci) {
  if (L->C->target->array_expr == NULL || !L->refcount)
    compile_error(L->C, n->loc, "UnsupportedError", "ufuncs with an output array are not supported on this target");
  int mark = L->nheld;
  Val in[2], out;
  for (int i = 0; i < ci->nargs; i++) lower_hold(L, in[i] = lower_expr(L, ci->args[i]));
  lower_hold(L, out = lower_expr(L, ci->out));
  /* NumPy: the inputs broadcast to out's shape, out itself never stretches */
  int nd = out.ty->ndim;
  LLVMValueRef bad = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0);
  for (int i = 0; i < ci->nargs; i++)
    for (int j = 0; in[i].ty->kind == TY_ARRAY && j < in[i].ty->ndim; j++) {
      LLVMValueRef s = lower_arr_shape(L, in[i].v, j), o = lower_arr_shape(L, out.v, j + nd - in[i].ty->ndim);
      LLVMValueRef ne = LLVMBuildAnd(L->b, LLVMBuildICmp(L->b, LLVMIntNE, s, o, ""),
                                     LLVMBuildICmp(L->b, LLVMIntNE, s, lower_i64(L, 1), ""), "");
      bad = LLVMBuildOr(L->b, bad, ne, "");
    }
  lower_raise_if(L, bad, LMERR_VALUE, "non-broadcastable output operand: the inputs do not broadcast to its shape");
  Val src[2];
  for (int i = 0; i < ci->nargs; i++) {
    src[i] = in[i];
    if (in[i].ty->kind == TY_ARRAY) lower_hold(L, src[i] = unaliased(L, in[i], out));
  }
  loop_into(L, out, src, ci->nargs, n, ci);
  lower_unhold(L, mark);
  for (int i = 0; i < ci->nargs; i++) {
    if (in[i].ty->kind == TY_ARRAY) lower_release(L, src[i]);
    lower_release(L, in[i]);
  }
  if (!out.owned) lower_incref(L, out);
  return (Val){out.ty, out.v, true};
}
