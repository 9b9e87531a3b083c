/*
** lower_arrayexpr.c — a tree of elementwise array operations as ONE loop
** nest over the broadcast shape (Numba's array-expression rewrite): the
** operands are read through their strides, only the result is allocated.
** The elements follow NumPy's ufunc loops: no ZeroDivisionError, shifts
** past the width give 0, integers to negative powers raise ValueError.
** Reached through Target.array_expr, so the expression lowering does not
** depend on this file (the layering rule of docs/internals.md).
*/
#include <string.h>

#include "lower_arrayexpr.h"
#include "lower_complex.h"

/* an operation fused into the loop (else a leaf, read through its strides);
** x->outcall is a ufunc writing into out whose own loop this is */
static bool inner(Lower *L, const Ax *x, Node *n) {
  Type *t = lower_ann(L, n)->ty;
  if (t == NULL || t->kind != TY_ARRAY) return false;
  /* a @ b is not elementwise: a leaf, lowered by the registry's matmul (builtin_linalg.c) */
  return (n->kind == ND_BinOp && n->op != OP_MatMult) || n->kind == ND_UnaryOp || (n->kind == ND_Compare && n->elts.len == 1) ||
         (n->kind == ND_Call && (n == x->outcall || lower_ufunc_inner(L, n)));
}

bool ax_is_fused(Lower *L, Node *n) {
  Ax x = {.target = -1};
  return inner(L, &x, n);
}

void ax_collect(Lower *L, Ax *x, Node *n) {
  if (!inner(L, x, n)) {
    if (x->nleaf == AX_MAXLEAF)
      compile_error(L->C, n->loc, "UnsupportedError", "array expression too large (split it)");
    x->leaf[x->nleaf++].n = n;
    return;
  }
  x->nops++;
  if (n->kind == ND_UnaryOp) { ax_collect(L, x, n->operand); return; }
  if (n->kind == ND_Call) {  /* a ufunc (lower_ufunc.c) */
    Node **args;
    for (int i = 0, k = lower_ufunc_operands(L, n, &args); i < k; i++) ax_collect(L, x, args[i]);
    return;
  }
  ax_collect(L, x, n->left);
  ax_collect(L, x, n->kind == ND_BinOp ? n->right : n->elts.items[0]);
}

static Leaf *find(Ax *x, Node *n) {
  for (int i = 0; i < x->nleaf; i++)
    if (x->leaf[i].n == n) return &x->leaf[i];
  LM_UNREACHABLE();
}

static LLVMValueRef cmp(Lower *L, OpKind op, DType ct, LLVMValueRef a, LLVMValueRef b) {
  if (dtype_kinds[ct] == 'c') return lower_complex_eq(L, a, b, op == OP_NotEq);  /* typing allows == and != */
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

/* NumPy's shifts: a count past the width (or negative) gives 0, or -1 for a negative >> */
static LLVMValueRef shift(Lower *L, OpKind op, Type *rt, LLVMValueRef a, LLVMValueRef b) {
  LLVMTypeRef t = LLVMTypeOf(a);
  unsigned w = LLVMGetIntTypeWidth(t);
  LLVMValueRef big = LLVMBuildICmp(L->b, LLVMIntUGE, b, LLVMConstInt(t, w, 0), "");
  LLVMValueRef s = LLVMBuildSelect(L->b, big, LLVMConstInt(t, w - 1, 0), b, "");
  if (op == OP_RShift && ty_is_signed(rt)) return LLVMBuildAShr(L->b, a, s, "");
  LLVMValueRef r = op == OP_LShift ? LLVMBuildShl(L->b, a, s, "") : LLVMBuildLShr(L->b, a, s, "");
  return LLVMBuildSelect(L->b, big, LLVMConstNull(t), r, "");
}

/* a op b of one element, a and b of the operand types ta and tb, the result of dtype rt */
static Val binop(Lower *L, OpKind op, Val a, Type *ta, Val b, Type *tb, Type *rt, Loc loc) {
  Type *ct = ty_scalar(infer_arrayexpr_common(ta, tb));
  a = lower_cast(L, a, ct);
  b = lower_cast(L, b, ct);
  if (ty_is_bool(rt) && (op == OP_Add || op == OP_Mult))  /* NumPy: logical or / and */
    return (Val){rt, op == OP_Add ? LLVMBuildOr(L->b, a.v, b.v, "") : LLVMBuildAnd(L->b, a.v, b.v, ""), false};
  a = lower_cast(L, a, rt);
  b = lower_cast(L, b, rt);
  if (op == OP_Div && !ty_is_complex(rt)) return (Val){rt, LLVMBuildFDiv(L->b, a.v, b.v, ""), false};  /* NumPy: inf or nan, no raise */
  if ((op == OP_LShift || op == OP_RShift)) return (Val){rt, shift(L, op, rt, a.v, b.v), false};
  if (op == OP_Pow && ty_is_signed(rt))
    lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntSLT, b.v, LLVMConstNull(LLVMTypeOf(b.v)), ""), LMERR_VALUE,
                   "Integers to negative integer powers are not allowed.");
  /* NumPy's error model: x // 0 is 0 for integers, inf or nan for floats; x % 0 is 0 or nan */
  bool saved = L->C->opt.error_model_numpy;
  L->C->opt.error_model_numpy = true;
  LLVMValueRef r = lower_binop(L, op, a, b, rt, loc);
  L->C->opt.error_model_numpy = saved;
  return (Val){rt, r, false};
}

/* the element of n at this iteration, as a scalar of n's element type */
static Val eval(Lower *L, Ax *x, Node *n) {
  if (!inner(L, x, n)) {
    Leaf *f = find(x, n);
    return (Val){ty_scalar(f->v.ty->dtype), f->elem, false};
  }
  Type *rt = ty_scalar(lower_ann(L, n)->ty->dtype);
  if (n->kind == ND_Call) {  /* a ufunc: its element from its operands' (lower_ufunc.c) */
    Node **args;
    Val v[LM_MAXARGS];
    int k = lower_ufunc_operands(L, n, &args);
    for (int i = 0; i < k; i++) v[i] = eval(L, x, args[i]);
    return lower_ufunc_elem(L, n, v);
  }
  if (n->kind == ND_UnaryOp) {
    Val a = lower_cast(L, eval(L, x, n->operand), rt);
    if (n->op == OP_UAdd) return a;
    if (n->op == OP_Invert) return (Val){rt, LLVMBuildNot(L->b, a.v, ""), false};
    if (ty_is_complex(rt)) return (Val){rt, lower_complex_neg(L, rt, a.v), false};
    return (Val){rt, ty_is_float(rt) ? LLVMBuildFNeg(L->b, a.v, "") : LLVMBuildNeg(L->b, a.v, ""), false};
  }
  Node *rn = n->kind == ND_BinOp ? n->right : n->elts.items[0];
  Type *ta = lower_ann(L, n->left)->ty, *tb = lower_ann(L, rn)->ty;
  Val a = eval(L, x, n->left), b = eval(L, x, rn);
  if (n->kind == ND_Compare) {
    Type *ct = ty_scalar(infer_arrayexpr_common(ta, tb));
    return (Val){rt, cmp(L, n->cmpops[0], ct->dtype, lower_cast(L, a, ct).v, lower_cast(L, b, ct).v), false};
  }
  return binop(L, n->op, a, ta, b, tb, rt, n->loc);
}

void ax_lower_leaves(Lower *L, Ax *x) {
  for (int i = 0; i < x->nleaf; i++) {
    if (x->leaf[i].n == NULL) continue;  /* the in-place target: lowered by the caller */
    x->leaf[i].v = lower_expr(L, x->leaf[i].n);
    lower_hold(L, x->leaf[i].v);
  }
}

void ax_release_leaves(Lower *L, Ax *x) {
  for (int i = 0; i < x->nleaf; i++)
    if (x->leaf[i].n) lower_release(L, x->leaf[i].v);
}

const char *ax_with_where(Lower *L, const char *text, Loc loc) {
  const char *w = lower_where(L, loc);
  size_t n = strlen(text) + strlen(w) + 1;
  char *out = arena_alloc(L->C->A, n);
  snprintf(out, n, "%s%s", text, w);
  return out;
}

void ax_leaf_shape(Lower *L, Val v, LLVMValueRef *shape) {
  for (int k = 0; v.ty->kind == TY_ARRAY && k < v.ty->ndim; k++) shape[k] = lower_arr_shape(L, v.v, k);
}

/* shape[nd0] broadcast with s1[nd1] into shape, NumPy's rule: axes aligned on
** the right, 1 stretches; its ndim returned */
static int broadcast(Lower *L, int nd0, LLVMValueRef *shape, int nd1, LLVMValueRef *s1, Loc loc) {
  LLVMValueRef s[2][LM_MAXDIM];
  int nd[2] = {nd0, nd1};
  for (int k = 0; k < nd0; k++) s[0][k] = shape[k];
  for (int k = 0; k < nd1; k++) s[1][k] = s1[k];
  int r = nd0 > nd1 ? nd0 : nd1;
  if (nd0 == 0 || nd1 == 0) {  /* with a scalar (or a 0-d array): the other's shape */
    for (int k = 0; k < r; k++) shape[k] = s[nd0 ? 0 : 1][k];
    return r;
  }
  LLVMValueRef one = lower_i64(L, 1), bad = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0);
  for (int k = 0; k < r; k++) {
    int ja = k - (r - nd0), jb = k - (r - nd1);
    if (ja < 0 || jb < 0) { shape[k] = ja < 0 ? s[1][jb] : s[0][ja]; continue; }
    LLVMValueRef a = s[0][ja], b = s[1][jb];
    LLVMValueRef a1 = LLVMBuildICmp(L->b, LLVMIntEQ, a, one, ""), b1 = LLVMBuildICmp(L->b, LLVMIntEQ, b, one, "");
    LLVMValueRef ne = LLVMBuildICmp(L->b, LLVMIntNE, a, b, "");
    bad = LLVMBuildOr(L->b, bad, LLVMBuildAnd(L->b, ne, LLVMBuildNot(L->b, LLVMBuildOr(L->b, a1, b1, ""), ""), ""), "");
    shape[k] = LLVMBuildSelect(L->b, a1, b, a, "");
  }
  lower_shape_error_if(L, bad, ax_with_where(L, "operands could not be broadcast together with shapes %S %S ", loc),
                       2, nd, s);
  return r;
}

int ax_shape(Lower *L, Ax *x, Node *n, LLVMValueRef *shape) {
  if (!inner(L, x, n)) {
    Val v = find(x, n)->v;
    ax_leaf_shape(L, v, shape);
    return v.ty->kind == TY_ARRAY ? v.ty->ndim : 0;
  }
  if (n->kind == ND_UnaryOp) return ax_shape(L, x, n->operand, shape);
  Node **ops, *two[2];
  int k = 2;
  if (n->kind == ND_Call) {
    k = lower_ufunc_operands(L, n, &ops);
  } else {
    two[0] = n->left;
    two[1] = n->kind == ND_BinOp ? n->right : n->elts.items[0];
    ops = two;
  }
  int r = ax_shape(L, x, ops[0], shape);
  for (int i = 1; i < k; i++) {
    LLVMValueRef s[LM_MAXDIM];
    r = broadcast(L, r, shape, ax_shape(L, x, ops[i], s), s, n->loc);
  }
  return r;
}

void ax_strides(Lower *L, Ax *x, int nd, LLVMValueRef *shape) {
  LLVMValueRef one = lower_i64(L, 1), zero = lower_i64(L, 0);
  (void)shape;
  for (int i = 0; i < x->nleaf; i++) {
    Type *lt = x->leaf[i].v.ty;
    if (lt->kind != TY_ARRAY) { x->leaf[i].elem = x->leaf[i].v.v; continue; }
    for (int k = 0; k < nd; k++) {
      int j = k - (nd - lt->ndim);
      if (j < 0) { x->leaf[i].stride[k] = zero; continue; }
      LLVMValueRef s1 = LLVMBuildICmp(L->b, LLVMIntEQ, lower_arr_shape(L, x->leaf[i].v.v, j), one, "");
      x->leaf[i].stride[k] = LLVMBuildSelect(L->b, s1, zero, lower_arr_stride(L, x->leaf[i].v.v, j), "");
    }
  }
}

static LLVMValueRef byte_ptr(Lower *L, LLVMValueRef p) {
  return LLVMBuildBitCast(L->b, p, LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0), "");
}

static LLVMValueRef byte_gep(Lower *L, LLVMValueRef p, LLVMValueRef off) {
  return LLVMBuildInBoundsGEP2(L->b, LLVMInt8TypeInContext(L->ctx), p, &off, 1, "");
}

/* one innermost loop over c < n: each leaf's element read from its row
** pointer row[i] (out's: row[nleaf]), either contiguously (the elements are
** adjacent: a typed pointer indexed by c, which LLVM vectorises) or through
** the axis' byte stride (the general path). An in-place target is read where
** out is written (the store path makes out the target or its copy) */
static void inner_loop(Lower *L, Ax *x, LLVMValueRef n, LLVMValueRef *row, LLVMValueRef ostride, Val out,
                       bool contig) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  int nd = out.ty->ndim;
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(L->b), body = lower_block(L, contig ? "axvec" : "axgen");
  LLVMBasicBlockRef done = lower_block(L, "axrowend");
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSGT, n, lower_i64(L, 0), ""), body, done);
  LLVMPositionBuilderAtEnd(L->b, body);
  LLVMValueRef c = LLVMBuildPhi(L->b, i64, "axi");
  LLVMValueRef ptr[AX_MAXLEAF + 1];
  for (int i = 0; i <= x->nleaf; i++) {
    Val v = i < x->nleaf ? x->leaf[i].v : out;
    if (i == x->target || v.ty->kind != TY_ARRAY) continue;
    LLVMTypeRef mt = lower_mem_type(L, v.ty->dtype);
    LLVMValueRef p;
    if (v.ty->ndim == 0) {  /* a 0-d array: one element for every c */
      p = LLVMBuildBitCast(L->b, row[i], LLVMPointerType(mt, 0), "");
    } else if (contig) {
      p = LLVMBuildBitCast(L->b, row[i], LLVMPointerType(mt, 0), "");
      p = LLVMBuildInBoundsGEP2(L->b, mt, p, &c, 1, "");
    } else {
      LLVMValueRef s = i < x->nleaf ? x->leaf[i].stride[nd - 1] : ostride;
      p = LLVMBuildBitCast(L->b, byte_gep(L, row[i], LLVMBuildMul(L->b, c, s, "")), LLVMPointerType(mt, 0), "");
    }
    ptr[i] = p;
    if (i < x->nleaf) x->leaf[i].elem = lower_load_elem(L, v.ty->dtype, p);
  }
  if (x->target >= 0) x->leaf[x->target].elem = lower_load_elem(L, x->leaf[x->target].v.ty->dtype, ptr[x->nleaf]);
  Val e = x->root ? eval(L, x, x->root) : (Val){ty_scalar(x->leaf[0].v.ty->dtype), x->leaf[0].elem, false};
  if (x->target >= 0) {
    Leaf *t = &x->leaf[x->target];
    Val cur = {ty_scalar(t->v.ty->dtype), t->elem, false};
    Type *vt = x->root ? lower_ann(L, x->root)->ty : x->leaf[0].v.ty;
    e = binop(L, x->op, cur, t->v.ty, e, vt, ty_scalar(x->opty->dtype), x->loc);
  }
  lower_store_elem(L, out.ty->dtype, ptr[x->nleaf], lower_cast(L, e, ty_scalar(out.ty->dtype)).v);
  LLVMValueRef next = LLVMBuildNSWAdd(L->b, c, lower_i64(L, 1), "");
  LLVMBasicBlockRef latch = LLVMGetInsertBlock(L->b);  /* eval may have branched (raises) */
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, next, n, ""), body, done);
  LLVMAddIncoming(c, (LLVMValueRef[]){lower_i64(L, 0), next}, (LLVMBasicBlockRef[]){pre, latch}, 2);
  LLVMPositionBuilderAtEnd(L->b, done);
}

/* The loop nest: the outer axes count rows, each leaf's row pointer moved by
** its strides there; the innermost axis runs one of two loops, chosen once
** before the nest: every operand contiguous along it (the usual case: whole
** arrays, rows, slices with step 1), or the general strided one. */
void ax_loop(Lower *L, Ax *x, int nd, LLVMValueRef *shape, Val out) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  LLVMValueRef one = lower_i64(L, 1), zero = lower_i64(L, 0);
  LLVMValueRef ctr[LM_MAXDIM], ostride[LM_MAXDIM];
  LLVMBasicBlockRef head[LM_MAXDIM], exit[LM_MAXDIM];
  LLVMValueRef data[AX_MAXLEAF + 1], row[AX_MAXLEAF + 1];
  int nl = x->nleaf;
  for (int k = 0; k < nd; k++) ostride[k] = lower_arr_stride(L, out.v, k);
  LLVMValueRef contig = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 1, 0);
  for (int i = 0; i <= nl; i++) {
    Val v = i < nl ? x->leaf[i].v : out;
    if (i == x->target || v.ty->kind != TY_ARRAY) continue;
    data[i] = byte_ptr(L, lower_arr_data(L, v.v));
    if (nd == 0 || v.ty->ndim == 0) continue;
    if (x->lo) data[i] = byte_gep(L, data[i], LLVMBuildMul(L->b, x->lo, i < nl ? x->leaf[i].stride[0] : ostride[0], ""));
    LLVMValueRef s = i < nl ? x->leaf[i].stride[nd - 1] : ostride[nd - 1];
    LLVMValueRef size = lower_i64(L, dtype_sizes[v.ty->dtype]);
    contig = LLVMBuildAnd(L->b, contig, LLVMBuildICmp(L->b, LLVMIntEQ, s, size, ""), "");
  }
  if (nd == 0) {  /* one element: both paths are the same */
    inner_loop(L, x, one, data, zero, out, true);
    return;
  }
  for (int k = 0; k < nd - 1; k++) {
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
  LLVMValueRef c[LM_MAXDIM];
  for (int k = 0; k < nd - 1; k++) c[k] = LLVMBuildLoad2(L->b, i64, ctr[k], "");
  for (int i = 0; i <= nl; i++) {
    Val v = i < nl ? x->leaf[i].v : out;
    if (i == x->target || v.ty->kind != TY_ARRAY) continue;
    LLVMValueRef off = zero;
    for (int k = 0; k < nd - 1; k++)
      off = LLVMBuildAdd(L->b, off, LLVMBuildMul(L->b, c[k], i < nl ? x->leaf[i].stride[k] : ostride[k], ""), "");
    row[i] = byte_gep(L, data[i], off);
  }
  LLVMBasicBlockRef vec = lower_block(L, "axcontig"), gen = lower_block(L, "axstrided"), join = lower_block(L, "axrow");
  LLVMBuildCondBr(L->b, contig, vec, gen);
  LLVMPositionBuilderAtEnd(L->b, vec);
  inner_loop(L, x, shape[nd - 1], row, ostride[nd - 1], out, true);
  LLVMBuildBr(L->b, join);
  LLVMPositionBuilderAtEnd(L->b, gen);
  inner_loop(L, x, shape[nd - 1], row, ostride[nd - 1], out, false);
  LLVMBuildBr(L->b, join);
  LLVMPositionBuilderAtEnd(L->b, join);
  for (int k = nd - 2; k >= 0; k--) {
    LLVMBuildStore(L->b, LLVMBuildAdd(L->b, LLVMBuildLoad2(L->b, i64, ctr[k], ""), one, ""), ctr[k]);
    LLVMBuildBr(L->b, head[k]);
    LLVMPositionBuilderAtEnd(L->b, exit[k]);
    if (k > 0) LLVMBuildStore(L->b, zero, ctr[k]);
  }
}

void ax_expr_plan(Lower *L, Node *n, AxPlan *p) {
  Type *t = lower_ann(L, n)->ty;
  *p = (AxPlan){.x = {.root = n, .loc = n->loc, .target = -1}, .mark = L->nheld};
  Ax *x = &p->x;
  ax_collect(L, x, n);
  ax_lower_leaves(L, x);
  p->nd = ax_shape(L, x, n, p->shape);
  LM_ASSERT(p->nd == t->ndim);
  ax_strides(L, x, p->nd, p->shape);
  p->out = lower_alloc_uninit(L, t, p->shape);
  lower_hold(L, p->out);
}

Val lower_arrayexpr(Lower *L, Node *n) {
  AxPlan p;
  ax_expr_plan(L, n, &p);
  ax_plan_run(L, &p);
  lower_unhold(L, p.mark);
  ax_release_leaves(L, &p.x);
  return p.out;
}
