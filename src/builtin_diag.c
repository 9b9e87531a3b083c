/*
** builtin_diag.c — matrices by their diagonals: np.eye, np.identity,
** np.tri (new arrays), np.tril, np.triu (a copy with a triangle zeroed),
** np.diag (a vector onto a diagonal, or a diagonal out of a matrix).
** Arrays come from the NRT (lower_alloc): CPU only.
*/
#include "builtin_hooks.h"

/* an argument given as None (np.eye(3, None)) is an absent one */
static Node *given(Node *a) {
  return a && a->kind == ND_Constant && a->ckind == CK_NONE ? NULL : a;
}

enum { EYE_N, EYE_M, EYE_K, EYE_DTYPE };

/* eye(N, M=None, k=0, dtype=float), tri(N, M=None, k=0, dtype=float), identity(n, dtype=None) */
Type *bdiag_infer_eye(Infer *I, Node *n, const BuiltinName *nm) {
  CallInfo *ci;
  Node **a = bcreate_bind(I, n, nm, &ci);
  const char *fname = builtin_of(nm)->member;
  if (nm->id == BI_numpy_identity) {  /* (n, dtype): as eye's (N, M, k, dtype) */
    Node **e = arena_alloc(I->C->A, sizeof(Node *) * 4);
    e[EYE_N] = a[0];
    e[EYE_M] = e[EYE_K] = NULL;
    e[EYE_DTYPE] = a[1];
    ci->args = a = e;
    ci->nargs = 4;
  }
  a[EYE_M] = given(a[EYE_M]);
  a[EYE_DTYPE] = given(a[EYE_DTYPE]);
  bool ok = bcreate_number_arg(I, a[EYE_N], fname, true) & bcreate_number_arg(I, a[EYE_M], fname, true) &
            bcreate_number_arg(I, a[EYE_K], fname, true);
  if (!ok) return NULL;
  ci->dt = infer_dtype_of(I, a[EYE_DTYPE], DT_FLOAT64);
  return ty_array(&I->C->S->types, ci->dt, 2, 'C');
}

Val bdiag_lower_eye(Lower *L, Node *n, CallInfo *ci) {
  Type *t = lower_ann(L, n)->ty;
  Node **a = ci->args;
  LLVMValueRef shape[2];
  shape[0] = bcreate_int_arg(L, a[EYE_N], 0);
  shape[1] = a[EYE_M] ? bcreate_int_arg(L, a[EYE_M], 0) : shape[0];
  LLVMValueRef k = bcreate_int_arg(L, a[EYE_K], 0);
  Val out = lower_alloc(L, t, shape);  /* zeroed */
  LLVMTypeRef et = lower_mem_type(L, t->dtype);
  LLVMValueRef one = lower_cast(L, (Val){ty_int64, lower_i64(L, 1), false}, ty_scalar(t->dtype)).v;
  LLVMValueRef data = lower_arr_data(L, out.v);
  CreateLoop li, lj;
  LLVMValueRef i = bcreate_loop_begin(L, &li, shape[0]);
  LLVMValueRef row = LLVMBuildMul(L->b, i, shape[1], "");
  LLVMValueRef ik = LLVMBuildAdd(L->b, i, k, "");
  if (ci->bi == BI_numpy_tri) {  /* a[i, j] = j <= i + k */
    LLVMValueRef j = bcreate_loop_begin(L, &lj, shape[1]);
    LLVMValueRef lin = LLVMBuildAdd(L->b, row, j, "");
    LLVMValueRef in = LLVMBuildICmp(L->b, LLVMIntSLE, j, ik, "");
    Val b = {ty_bool, in, false};
    lower_store_elem(L, t->dtype, LLVMBuildInBoundsGEP2(L->b, et, data, &lin, 1, ""),
                     lower_cast(L, b, ty_scalar(t->dtype)).v);
    bcreate_loop_end(L, &lj);
  } else {  /* a[i, i + k] = 1 where that column exists */
    LLVMValueRef inside = LLVMBuildAnd(L->b, LLVMBuildICmp(L->b, LLVMIntSGE, ik, lower_i64(L, 0), ""),
                                       LLVMBuildICmp(L->b, LLVMIntSLT, ik, shape[1], ""), "");
    LLVMBasicBlockRef set = lower_block(L, "eyeset"), next = lower_block(L, "eyenext");
    LLVMBuildCondBr(L->b, inside, set, next);
    LLVMPositionBuilderAtEnd(L->b, set);
    LLVMValueRef lin = LLVMBuildAdd(L->b, row, ik, "");
    lower_store_elem(L, t->dtype, LLVMBuildInBoundsGEP2(L->b, et, data, &lin, 1, ""), one);
    LLVMBuildBr(L->b, next);
    LLVMPositionBuilderAtEnd(L->b, next);
  }
  bcreate_loop_end(L, &li);
  return out;
}

/* tril(m, k=0), triu(m, k=0): m of 2 or more dimensions (the last two are the matrix) */
Type *bdiag_infer_tril(Infer *I, Node *n, const BuiltinName *nm) {
  CallInfo *ci;
  Node **a = bcreate_bind(I, n, nm, &ci);
  const char *fname = builtin_of(nm)->member;
  Type *m = infer_expr(I, a[0]);
  if (!bcreate_number_arg(I, a[1], fname, true) || m == NULL) return NULL;
  if (m->kind != TY_ARRAY || m->ndim < 2)
    compile_error(I->C, a[0]->loc, "TypingError", "%s() needs an array of 2 or more dimensions, not %s", fname,
                  tyname(I->C, m));
  return ty_array(&I->C->S->types, m->dtype, m->ndim, 'C');
}

Val bdiag_lower_tril(Lower *L, Node *n, CallInfo *ci) {
  Type *t = lower_ann(L, n)->ty;
  Val m = lower_expr(L, ci->args[0]);
  int mark = lower_hold(L, m);  /* k may raise */
  LLVMValueRef k = bcreate_int_arg(L, ci->args[1], 0);
  lower_unhold(L, mark);
  Val out = lower_array_method(L, n, BI_ndarray_copy, m, NULL, 0);  /* releases m */
  LLVMValueRef rows = lower_arr_shape(L, out.v, t->ndim - 2), cols = lower_arr_shape(L, out.v, t->ndim - 1);
  LLVMValueRef outer = lower_i64(L, 1);
  for (int d = 0; d < t->ndim - 2; d++) outer = LLVMBuildMul(L->b, outer, lower_arr_shape(L, out.v, d), "");
  LLVMTypeRef et = lower_mem_type(L, t->dtype);
  LLVMValueRef zero = LLVMConstNull(et), data = lower_arr_data(L, out.v);
  bool lower_tri = ci->bi == BI_numpy_tril;
  CreateLoop lo, li, lj;
  LLVMValueRef o = bcreate_loop_begin(L, &lo, outer);
  LLVMValueRef i = bcreate_loop_begin(L, &li, rows);
  LLVMValueRef j = bcreate_loop_begin(L, &lj, cols);
  /* tril keeps j <= i + k, triu keeps j >= i + k */
  LLVMValueRef ik = LLVMBuildAdd(L->b, i, k, "");
  LLVMValueRef drop = LLVMBuildICmp(L->b, lower_tri ? LLVMIntSGT : LLVMIntSLT, j, ik, "");
  LLVMBasicBlockRef zap = lower_block(L, "trizap"), next = lower_block(L, "trinext");
  LLVMBuildCondBr(L->b, drop, zap, next);
  LLVMPositionBuilderAtEnd(L->b, zap);
  LLVMValueRef lin = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, LLVMBuildAdd(L->b, LLVMBuildMul(L->b, o, rows, ""), i, ""), cols, ""), j, "");
  LLVMBuildStore(L->b, zero, LLVMBuildInBoundsGEP2(L->b, et, data, &lin, 1, ""));
  LLVMBuildBr(L->b, next);
  LLVMPositionBuilderAtEnd(L->b, next);
  bcreate_loop_end(L, &lj);
  bcreate_loop_end(L, &li);
  bcreate_loop_end(L, &lo);
  return out;
}

/* diag(v, k=0): a 1-d v onto the k-th diagonal of a square matrix, or the k-th diagonal of a 2-d v (a copy) */
Type *bdiag_infer_diag(Infer *I, Node *n, const BuiltinName *nm) {
  CallInfo *ci;
  Node **a = bcreate_bind(I, n, nm, &ci);
  Type *v = infer_expr(I, a[0]);
  if (!bcreate_number_arg(I, a[1], "diag", true) || v == NULL) return NULL;
  if (v->kind != TY_ARRAY || (v->ndim != 1 && v->ndim != 2))
    compile_error(I->C, a[0]->loc, "TypingError", "diag() needs a 1-d or 2-d array, not %s", tyname(I->C, v));
  return ty_array(&I->C->S->types, v->dtype, 3 - v->ndim, 'C');
}

static LLVMValueRef smax(Lower *L, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSGT, a, b, ""), a, b, "");
}

Val bdiag_lower_diag(Lower *L, Node *n, CallInfo *ci) {
  Type *t = lower_ann(L, n)->ty;
  Val v = lower_expr(L, ci->args[0]);
  int mark = lower_hold(L, v);  /* k may raise, and so may the allocation */
  LLVMValueRef k = bcreate_int_arg(L, ci->args[1], 0);
  LLVMValueRef zero = lower_i64(L, 0);
  LLVMValueRef roff = smax(L, LLVMBuildNeg(L->b, k, ""), zero), coff = smax(L, k, zero);  /* where the diagonal starts */
  LLVMTypeRef et = lower_mem_type(L, t->dtype);
  Val out;
  if (t->ndim == 2) {
    LLVMValueRef len = lower_arr_shape(L, v.v, 0);
    LLVMValueRef side = LLVMBuildAdd(L->b, len, smax(L, k, LLVMBuildNeg(L->b, k, "")), "");
    LLVMValueRef shape[2] = {side, side};
    out = lower_alloc(L, t, shape);
    CreateLoop lp;
    LLVMValueRef i = bcreate_loop_begin(L, &lp, len);
    LLVMValueRef x = lower_load_elem(L, t->dtype, bcreate_elem_at(L, v.ty, v.v, &i));
    LLVMValueRef lin = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, LLVMBuildAdd(L->b, i, roff, ""), side, ""),
                                    LLVMBuildAdd(L->b, i, coff, ""), "");
    lower_store_elem(L, t->dtype, LLVMBuildInBoundsGEP2(L->b, et, lower_arr_data(L, out.v), &lin, 1, ""), x);
    bcreate_loop_end(L, &lp);
  } else {
    /* min(rows - roff, cols - coff), at least 0 */
    LLVMValueRef r = LLVMBuildSub(L->b, lower_arr_shape(L, v.v, 0), roff, "");
    LLVMValueRef c = LLVMBuildSub(L->b, lower_arr_shape(L, v.v, 1), coff, "");
    LLVMValueRef len = smax(L, LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, r, c, ""), r, c, ""), zero);
    out = lower_alloc(L, t, &len);
    CreateLoop lp;
    LLVMValueRef i = bcreate_loop_begin(L, &lp, len);
    LLVMValueRef idx[2] = {LLVMBuildAdd(L->b, i, roff, ""), LLVMBuildAdd(L->b, i, coff, "")};
    LLVMValueRef x = lower_load_elem(L, t->dtype, bcreate_elem_at(L, v.ty, v.v, idx));
    lower_store_elem(L, t->dtype, LLVMBuildInBoundsGEP2(L->b, et, lower_arr_data(L, out.v), &i, 1, ""), x);
    bcreate_loop_end(L, &lp);
  }
  lower_unhold(L, mark);
  lower_release(L, v);
  return out;
}
