/*
** lower_arrayexpr.c — a tree of elementwise array operations as ONE loop
** nest over the broadcast shape (Numba's array-expression rewrite): the
** operands are read through their strides, only the result is allocated.
** Reached through Target.array_expr, so the expression lowering does not
** depend on this file (the layering rule of docs/internals.md).
*/
#include "lower.h"

#define AX_MAXLEAF 32

typedef struct Leaf {
  Node *n;
  Val v;
  LLVMValueRef stride[LM_MAXDIM];  // 0 along a broadcast axis
  LLVMValueRef elem;               // this iteration's element (or the scalar)
} Leaf;

typedef struct Ax {
  Leaf leaf[AX_MAXLEAF];
  int nleaf;
} Ax;

static bool inner(Lower *L, Node *n) {
  Type *t = lower_ann(L, n)->ty;
  if (t == NULL || t->kind != TY_ARRAY) return false;
  /* a @ b is not elementwise: a leaf, lowered by the registry's matmul (builtin_linalg.c) */
  return (n->kind == ND_BinOp && n->op != OP_MatMult) || n->kind == ND_UnaryOp || (n->kind == ND_Compare && n->elts.len == 1);
}

static void collect(Lower *L, Ax *x, Node *n) {
  if (!inner(L, n)) {
    if (x->nleaf == AX_MAXLEAF)
      compile_error(L->C, n->loc, "UnsupportedError", "array expression too large (split it)");
    x->leaf[x->nleaf++].n = n;
    return;
  }
  if (n->kind == ND_UnaryOp) { collect(L, x, n->operand); return; }
  collect(L, x, n->left);
  collect(L, x, n->kind == ND_BinOp ? n->right : n->elts.items[0]);
}

static Leaf *find(Ax *x, Node *n) {
  for (int i = 0; i < x->nleaf; i++)
    if (x->leaf[i].n == n) return &x->leaf[i];
  LM_UNREACHABLE();
}

static LLVMValueRef cmp(Lower *L, OpKind op, DType ct, LLVMValueRef a, LLVMValueRef b) {
  if (dtype_kinds[ct] == 'f') {
    LLVMRealPredicate p = op == OP_Eq ? LLVMRealOEQ : op == OP_NotEq ? LLVMRealUNE : op == OP_Lt ? LLVMRealOLT
                        : op == OP_LtE ? LLVMRealOLE : op == OP_Gt ? LLVMRealOGT : LLVMRealOGE;
    return LLVMBuildFCmp(L->b, p, a, b, "");
  }
  bool sg = dtype_kinds[ct] == 'i';
  LLVMIntPredicate p = op == OP_Eq ? LLVMIntEQ : op == OP_NotEq ? LLVMIntNE
                     : op == OP_Lt ? (sg ? LLVMIntSLT : LLVMIntULT) : op == OP_LtE ? (sg ? LLVMIntSLE : LLVMIntULE)
                     : op == OP_Gt ? (sg ? LLVMIntSGT : LLVMIntUGT) : (sg ? LLVMIntSGE : LLVMIntUGE);
  return LLVMBuildICmp(L->b, p, a, b, "");
}

/* the element of n at this iteration, as a scalar of n's element type */
static Val eval(Lower *L, Ax *x, Node *n) {
  if (!inner(L, n)) {
    Leaf *f = find(x, n);
    return (Val){ty_scalar(f->v.ty->dtype), f->elem, false};
  }
  Type *rt = ty_scalar(lower_ann(L, n)->ty->dtype);
  if (n->kind == ND_UnaryOp) {
    Val a = lower_cast(L, eval(L, x, n->operand), rt);
    if (n->op == OP_UAdd) return a;
    if (n->op == OP_Invert) return (Val){rt, LLVMBuildNot(L->b, a.v, ""), false};
    return (Val){rt, ty_is_float(rt) ? LLVMBuildFNeg(L->b, a.v, "") : LLVMBuildNeg(L->b, a.v, ""), false};
  }
  Node *rn = n->kind == ND_BinOp ? n->right : n->elts.items[0];
  Val a = eval(L, x, n->left), b = eval(L, x, rn);
  Type *ct = ty_scalar(infer_arrayexpr_common(lower_ann(L, n->left)->ty, lower_ann(L, rn)->ty));
  if (n->kind == ND_Compare) {
    OpKind op = n->cmpops[0];
    return (Val){rt, cmp(L, op, ct->dtype, lower_cast(L, a, ct).v, lower_cast(L, b, ct).v), false};
  }
  a = lower_cast(L, a, ct);
  b = lower_cast(L, b, ct);
  if (ty_is_bool(rt) && (n->op == OP_Add || n->op == OP_Mult))  /* NumPy: logical or / and */
    return (Val){rt, n->op == OP_Add ? LLVMBuildOr(L->b, a.v, b.v, "") : LLVMBuildAnd(L->b, a.v, b.v, ""), false};
  if (n->op == OP_Div) {
    a = lower_cast(L, a, rt);
    b = lower_cast(L, b, rt);
    return (Val){rt, LLVMBuildFDiv(L->b, a.v, b.v, ""), false};  /* NumPy: inf or nan, no raise */
  }
  if ((n->op == OP_FloorDiv || n->op == OP_Mod) && !ty_is_float(rt)) {
    /* NumPy: an integer division by zero gives 0 */
    b = lower_cast(L, b, rt);
    LLVMValueRef z = LLVMBuildICmp(L->b, LLVMIntEQ, b.v, LLVMConstNull(LLVMTypeOf(b.v)), "");
    Val b1 = {rt, LLVMBuildSelect(L->b, z, LLVMConstInt(LLVMTypeOf(b.v), 1, 0), b.v, ""), false};
    LLVMValueRef r = lower_binop(L, n->op, lower_cast(L, a, rt), b1, rt, n->loc);
    return (Val){rt, LLVMBuildSelect(L->b, z, LLVMConstNull(LLVMTypeOf(r)), r, ""), false};
  }
  return (Val){rt, lower_binop(L, n->op, a, b, rt, n->loc), false};
}

static LLVMValueRef elem_at(Lower *L, Val a, LLVMValueRef off) {
  LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
  LLVMValueRef p = LLVMBuildBitCast(L->b, lower_arr_data(L, a.v), LLVMPointerType(i8, 0), "");
  p = LLVMBuildInBoundsGEP2(L->b, i8, p, &off, 1, "");
  p = LLVMBuildBitCast(L->b, p, LLVMPointerType(lower_mem_type(L, a.ty->dtype), 0), "");
  return lower_load_elem(L, a.ty->dtype, p);
}

Val lower_arrayexpr(Lower *L, Node *n) {
  Type *t = lower_ann(L, n)->ty;
  int nd = t->ndim;
  Ax x = {0};
  collect(L, &x, n);
  int mark = L->nheld;
  for (int i = 0; i < x.nleaf; i++) {
    x.leaf[i].v = lower_expr(L, x.leaf[i].n);
    lower_hold(L, x.leaf[i].v);
  }
  /* the broadcast shape, NumPy's rule: axes aligned on the right, 1 stretches */
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  LLVMValueRef one = lower_i64(L, 1), zero = lower_i64(L, 0);
  LLVMValueRef shape[LM_MAXDIM], bad = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0);
  for (int k = 0; k < nd; k++) {
    shape[k] = one;
    for (int i = 0; i < x.nleaf; i++) {
      Type *lt = x.leaf[i].v.ty;
      if (lt->kind != TY_ARRAY || k - (nd - lt->ndim) < 0) continue;
      LLVMValueRef s = lower_arr_shape(L, x.leaf[i].v.v, k - (nd - lt->ndim));
      LLVMValueRef cur1 = LLVMBuildICmp(L->b, LLVMIntEQ, shape[k], one, "");
      LLVMValueRef s1 = LLVMBuildICmp(L->b, LLVMIntEQ, s, one, "");
      LLVMValueRef ne = LLVMBuildICmp(L->b, LLVMIntNE, s, shape[k], "");
      bad = LLVMBuildOr(L->b, bad, LLVMBuildAnd(L->b, ne, LLVMBuildNot(L->b, LLVMBuildOr(L->b, cur1, s1, ""), ""), ""), "");
      shape[k] = LLVMBuildSelect(L->b, cur1, s, shape[k], "");
    }
  }
  if (nd > 0) {
    lower_raise_if(L, bad, LMERR_VALUE, "operands could not be broadcast together");
  }
  for (int i = 0; i < x.nleaf; i++) {
    Type *lt = x.leaf[i].v.ty;
    if (lt->kind != TY_ARRAY) { x.leaf[i].elem = x.leaf[i].v.v; continue; }
    for (int k = 0; k < nd; k++) {
      int j = k - (nd - lt->ndim);
      if (j < 0) { x.leaf[i].stride[k] = zero; continue; }
      LLVMValueRef s1 = LLVMBuildICmp(L->b, LLVMIntEQ, lower_arr_shape(L, x.leaf[i].v.v, j), one, "");
      x.leaf[i].stride[k] = LLVMBuildSelect(L->b, s1, zero, lower_arr_stride(L, x.leaf[i].v.v, j), "");
    }
  }
  Val res = lower_alloc(L, t, shape);
  lower_hold(L, res);
  /* the loop nest: counters per axis, the result written in order */
  LLVMValueRef ctr[LM_MAXDIM];
  LLVMBasicBlockRef head[LM_MAXDIM], exit[LM_MAXDIM];
  LLVMValueRef lin = lower_entry_alloca(L, i64, "axlin");
  LLVMBuildStore(L->b, zero, lin);
  for (int k = 0; k < nd; k++) {
    ctr[k] = lower_entry_alloca(L, i64, "axk");
    LLVMBuildStore(L->b, zero, ctr[k]);
    head[k] = lower_block(L, "ax");
    exit[k] = lower_block(L, "axend");
    LLVMBuildBr(L->b, head[k]);
    LLVMPositionBuilderAtEnd(L->b, head[k]);
    LLVMBasicBlockRef body = lower_block(L, "axbody");
    LLVMValueRef c = LLVMBuildLoad2(L->b, i64, ctr[k], "");
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, c, shape[k], ""), body, exit[k]);
    LLVMPositionBuilderAtEnd(L->b, body);
  }
  for (int i = 0; i < x.nleaf; i++) {
    if (x.leaf[i].v.ty->kind != TY_ARRAY) continue;
    LLVMValueRef off = zero;
    for (int k = 0; k < nd; k++)
      off = LLVMBuildAdd(L->b, off, LLVMBuildMul(L->b, LLVMBuildLoad2(L->b, i64, ctr[k], ""), x.leaf[i].stride[k], ""), "");
    x.leaf[i].elem = elem_at(L, x.leaf[i].v, off);
  }
  Val e = eval(L, &x, n);
  LLVMValueRef li = LLVMBuildLoad2(L->b, i64, lin, "");
  LLVMValueRef dp = LLVMBuildInBoundsGEP2(L->b, lower_mem_type(L, t->dtype), lower_arr_data(L, res.v), &li, 1, "");
  lower_store_elem(L, t->dtype, dp, lower_cast(L, e, ty_scalar(t->dtype)).v);
  LLVMBuildStore(L->b, LLVMBuildAdd(L->b, li, one, ""), lin);
  for (int k = nd - 1; k >= 0; k--) {
    LLVMBuildStore(L->b, LLVMBuildAdd(L->b, LLVMBuildLoad2(L->b, i64, ctr[k], ""), one, ""), ctr[k]);
    LLVMBuildBr(L->b, head[k]);
    LLVMPositionBuilderAtEnd(L->b, exit[k]);
    if (k > 0) LLVMBuildStore(L->b, zero, ctr[k]);
  }
  lower_unhold(L, mark);
  for (int i = 0; i < x.nleaf; i++) lower_release(L, x.leaf[i].v);
  return res;
}
