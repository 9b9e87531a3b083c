/*
** builtin_linalg.c — the linear-algebra family of the registry: a @ b,
** np.dot, np.matmul, np.vdot, np.inner through BLAS (the runtime's
** lm_prod_shape and lm_prod, linalg_rt.h), np.outer and np.kron as loop
** nests, np.trace as a loop. Typed as Numba types them: products on float
** arrays of one dtype (float32, float64, complex64, complex128), 1-D or
** 2-D; np.vdot conjugates its first operand.
*/
#include "builtin_hooks.h"
#include "linalg_rt.h"
#include "lower_complex.h"

/* the name a message calls the operation by */
static const char *prod_name(const BuiltinName *nm) {
  return nm ? builtin_of(nm)->member : "@";
}

static bool real_dtype_ok(DType dt) { return dt == DT_FLOAT32 || dt == DT_FLOAT64; }
static bool prod_dtype_ok(DType dt) { return real_dtype_ok(dt) || dt == DT_COMPLEX64 || dt == DT_COMPLEX128; }

static void need_array(Infer *I, Node *arg, Type *t, const char *fname, bool op) {
  if (t->kind != TY_ARRAY)
    compile_error(I->C, arg->loc, "TypingError", "%s%s%s needs arrays, not %s", op ? "the " : "np.", fname,
                  op ? " operator" : "()", tyname(I->C, t));
}

/* a @ b (n a BinOp, nm NULL) and np.dot/matmul/vdot/inner(a, b), np.dot(a, b, out) */
Type *blinalg_infer_prod(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  bool op = nm == NULL;
  const char *fname = prod_name(nm);
  BuiltinId id = op ? BI_numpy_matmul : nm->id;
  Node **args;
  int nargs = 2;
  if (op) {
    args = arena_alloc(C->A, sizeof(Node *) * 2);
    args[0] = n->left;
    args[1] = n->right;
  } else {
    const Builtin *b = builtin_of(nm);
    infer_only_keywords(I, n, fname, b->keywords);
    infer_nargs(I, n, fname, 0, b->hi);
    if (n->args.len + n->keywords.len > b->hi)
      compile_error(C, n->loc, "TypingError", "%s() takes at most %d arguments", fname, b->hi);
    args = arena_alloc(C->A, sizeof(Node *) * 3);
    for (int i = 0; i < 3; i++) args[i] = infer_arg_or_kw(n, i, i == 0 ? "a" : i == 1 ? "b" : "out");
    nargs = args[2] ? 3 : 2;
    if (args[0] == NULL || args[1] == NULL) infer_nargs(I, n, fname, b->lo, b->hi);
  }
  if (C->opt.gpu)
    compile_error(C, n->loc, "UnsupportedError", "%s%s%s is not supported inside CUDA kernels", op ? "the " : "np.",
                  fname, op ? " operator" : "()");
  CallInfo *ci = infer_new_info(I, n, CALL_BUILTIN, fname);
  ci->bi = id;
  ci->args = args;
  ci->nargs = nargs;
  Type *t[3];
  if (!infer_arg_types(I, args, nargs, t)) return NULL;
  for (int i = 0; i < 2; i++) {
    need_array(I, args[i], t[i], fname, op);
    int hi = id == BI_numpy_vdot ? 1 : 2;
    if (t[i]->ndim > hi)
      compile_error(C, args[i]->loc, "TypingError", "%s%s%s works on %s arrays, not %s%s", op ? "the " : "np.", fname,
                    op ? " operator" : "()", hi == 1 ? "1-D" : "1-D and 2-D", tyname(C, t[i]),
                    hi == 2 ? " (stacks of matrices are not supported)" : "");
    if (!prod_dtype_ok(t[i]->dtype))
      compile_error(C, args[i]->loc, "TypingError",
                    "%s%s%s needs float or complex arrays, as in Numba, not %s (convert with .astype(np.float64))",
                    op ? "the " : "np.", fname, op ? " operator" : "()", tyname(C, t[i]));
  }
  if (t[0]->dtype != t[1]->dtype)
    compile_error(C, n->loc, "TypingError", "%s%s%s needs two arrays of one dtype, as in Numba, not %s and %s",
                  op ? "the " : "np.", fname, op ? " operator" : "()", tyname(C, t[0]), tyname(C, t[1]));
  ci->dt = t[0]->dtype;
  int nd = t[0]->ndim + t[1]->ndim - 2;
  Type *r = nd == 0 ? ty_scalar(ci->dt) : ty_array(&C->S->types, ci->dt, nd, 'C');
  if (nargs == 3) {
    if (nd == 0) compile_error(C, args[2]->loc, "TypingError", "np.dot(): out is for array results, and a . b of two vectors is a number");
    if (t[2] != r)
      compile_error(C, args[2]->loc, "TypingError", "np.dot(): out must be %s (C-contiguous, the result's dtype and dimensions), not %s",
                    tyname(C, r), tyname(C, t[2]));
  }
  return r;
}

/* ---- lowering: operands as LmOperand records for the runtime ---- */

static LLVMTypeRef i64t(Lower *L) { return LLVMInt64TypeInContext(L->ctx); }
static LLVMTypeRef i32t(Lower *L) { return LLVMInt32TypeInContext(L->ctx); }
static LLVMTypeRef i8p(Lower *L) { return LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0); }

/* linalg_rt.h's LmOperand: {i8 *data, i64 ndim, [2 x i64] shape, [2 x i64] strides} */
static LLVMTypeRef operand_type(Lower *L) {
  LLVMTypeRef two = LLVMArrayType(i64t(L), 2);
  LLVMTypeRef f[4] = {i8p(L), i64t(L), two, two};
  return LLVMStructTypeInContext(L->ctx, f, 4, 0);
}

static LLVMValueRef operand(Lower *L, Val a) {
  LLVMTypeRef ot = operand_type(L);
  LLVMValueRef p = lower_entry_alloca(L, ot, "opnd");
  LLVMValueRef v = LLVMGetUndef(ot);
  v = LLVMBuildInsertValue(L->b, v, LLVMBuildBitCast(L->b, lower_arr_data(L, a.v), i8p(L), ""), 0, "");
  v = LLVMBuildInsertValue(L->b, v, lower_i64(L, a.ty->ndim), 1, "");
  for (unsigned k = 0; k < 2; k++) {
    bool has = (int)k < a.ty->ndim;
    LLVMValueRef sh = LLVMBuildExtractValue(L->b, v, 2, "");
    sh = LLVMBuildInsertValue(L->b, sh, has ? lower_arr_shape(L, a.v, (int)k) : lower_i64(L, 1), k, "");
    v = LLVMBuildInsertValue(L->b, v, sh, 2, "");
    LLVMValueRef st = LLVMBuildExtractValue(L->b, v, 3, "");
    st = LLVMBuildInsertValue(L->b, st, has ? lower_arr_stride(L, a.v, (int)k) : lower_i64(L, 0), k, "");
    v = LLVMBuildInsertValue(L->b, v, st, 3, "");
  }
  LLVMBuildStore(L->b, v, p);
  return p;
}

/* a runtime status: nonzero leaves for the cleanup with the error the runtime set in err */
static void check_status(Lower *L, LLVMValueRef st) {
  LLVMBasicBlockRef bad = lower_block(L, "prodfail"), ok = lower_block(L, "prodok");
  LLVMValueRef failed = LLVMBuildICmp(L->b, LLVMIntNE, st, lower_i32(L, 0), "");
  failed = lower_intrinsic(L, "llvm.expect", (LLVMTypeRef[]){LLVMInt1TypeInContext(L->ctx)}, 1,
                           (LLVMValueRef[]){failed, LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0)}, 2);
  LLVMBuildCondBr(L->b, failed, bad, ok);
  LLVMPositionBuilderAtEnd(L->b, bad);
  LLVMBuildStore(L->b, st, L->status);
  lower_note_where(L, false);
  lower_release_held(L);
  LLVMBuildBr(L->b, L->cleanup);
  LLVMPositionBuilderAtEnd(L->b, ok);
}

static LmProd prod_op(BuiltinId id) {
  switch (id) {
    case BI_numpy_dot: return LM_PROD_DOT;
    case BI_numpy_inner: return LM_PROD_INNER;
    case BI_numpy_vdot: return LM_PROD_VDOT;
    default: return LM_PROD_MATMUL;
  }
}

Val blinalg_lower_prod(Lower *L, Node *n, CallInfo *ci) {
  if (blas_get() == NULL)  /* the user's line now, rather than a RuntimeError at the first call */
    compile_error(L->C, n->loc, "UnsupportedError", "%s", LM_NO_BLAS_MSG);
  Type *rt = lower_ann(L, n)->ty;
  int mark = L->nheld;
  Val v[3];
  for (int i = 0; i < ci->nargs; i++) {
    v[i] = lower_arg(L, ci, i);
    lower_hold(L, v[i]);
  }
  LLVMValueRef pa = operand(L, v[0]), pb = operand(L, v[1]);
  LLVMValueRef op = lower_i32(L, prod_op(ci->bi)), dt = lower_i32(L, (int32_t)ci->dt);
  LLVMTypeRef opp = LLVMPointerType(operand_type(L), 0), errp = LLVMPointerType(lower_err_type(L->ctx), 0);
  Val out = {rt, NULL, false};
  LLVMValueRef scalar = LLVMConstNull(i8p(L)), po = LLVMConstNull(opp);
  if (rt->kind == TY_SCALAR) {
    scalar = lower_entry_alloca(L, lower_type(L, rt), "dot");
  } else if (ci->nargs == 3) {
    out = v[2];
    po = operand(L, out);
  } else {
    /* the result's shape first: a mismatch raises before anything is allocated */
    LLVMTypeRef two = LLVMArrayType(i64t(L), 2);
    LLVMValueRef shp = lower_entry_alloca(L, two, "prodshape");
    LLVMTypeRef ps[5] = {errp, i32t(L), opp, opp, LLVMPointerType(i64t(L), 0)};
    LLVMValueRef f = lower_rt_fn(L, "lm_prod_shape", i32t(L), ps, 5);
    LLVMValueRef s0 = LLVMBuildBitCast(L->b, shp, LLVMPointerType(i64t(L), 0), "");
    check_status(L, LLVMBuildCall2(L->b, LLVMGlobalGetValueType(f), f, (LLVMValueRef[]){L->err, op, pa, pb, s0}, 5, ""));
    LLVMValueRef shape[2];
    for (int k = 0; k < rt->ndim; k++)
      shape[k] = LLVMBuildLoad2(L->b, i64t(L), LLVMBuildInBoundsGEP2(L->b, i64t(L), s0, (LLVMValueRef[]){lower_i64(L, k)}, 1, ""), "");
    out = lower_alloc(L, rt, shape);
    lower_hold(L, out);
    po = operand(L, out);
  }
  LLVMTypeRef ps[7] = {errp, i32t(L), i32t(L), opp, opp, opp, i8p(L)};
  LLVMValueRef f = lower_rt_fn(L, "lm_prod", i32t(L), ps, 7);
  LLVMValueRef sp = LLVMBuildBitCast(L->b, scalar, i8p(L), "");
  check_status(L, LLVMBuildCall2(L->b, LLVMGlobalGetValueType(f), f, (LLVMValueRef[]){L->err, op, dt, pa, pb, po, sp}, 7, ""));
  lower_unhold(L, mark);
  lower_release(L, v[0]);
  lower_release(L, v[1]);
  if (rt->kind == TY_SCALAR) return (Val){rt, LLVMBuildLoad2(L->b, lower_type(L, rt), scalar, ""), false};
  return out;  /* np.dot(a, b, out) returns out, owned as its argument was */
}

/* ---- np.outer, np.kron: loop nests over both operands ---- */

Type *blinalg_infer_kron(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  const Builtin *b = builtin_of(nm);
  infer_no_keywords(I, n, b->member);
  infer_nargs(I, n, b->member, b->lo, b->hi);
  CallInfo *ci = infer_new_info(I, n, CALL_BUILTIN, b->name);
  ci->bi = nm->id;
  Type *t[2];
  if (!infer_arg_types(I, n->args.items, 2, t)) return NULL;
  for (int i = 0; i < 2; i++) {
    need_array(I, n->args.items[i], t[i], b->member, false);
    if (nm->id == BI_numpy_kron && t[i]->ndim > 2)
      compile_error(C, n->args.items[i]->loc, "TypingError", "np.kron() works on 1-D and 2-D arrays, not %s",
                    tyname(C, t[i]));
  }
  /* the dtype of a * b (NumPy's promotion; Numba's kron keeps a's dtype, which truncates floats into ints) */
  ci->dt = infer_arrayexpr_common(t[0], t[1]);
  int nd = nm->id == BI_numpy_outer ? 2 : (t[0]->ndim > t[1]->ndim ? t[0]->ndim : t[1]->ndim);
  return ty_array(&C->S->types, ci->dt, nd, 'C');
}

static LLVMValueRef multiply(Lower *L, DType dt, LLVMValueRef x, LLVMValueRef y) {
  Type *t = ty_scalar(dt);
  if (ty_is_complex(t)) return lower_complex_arith(L, '*', t, x, y);
  if (ty_is_float(t)) return LLVMBuildFMul(L->b, x, y, "");
  if (ty_is_bool(t)) return LLVMBuildAnd(L->b, x, y, "");
  return LLVMBuildMul(L->b, x, y, "");
}

typedef struct KronCtx {
  Val a, b, out;
  DType dt;
  bool outer;
  LLVMValueRef ac, bn, bc, br;  /* a's columns; b's size, columns, rows (1-D: one row) */
  LLVMValueRef va, ia, ja;      /* the element of a being spread, its row and column */
} KronCtx;

static void kron_b(Lower *L, LLVMValueRef p, LLVMValueRef lin, void *ud) {
  KronCtx *k = ud;
  LLVMValueRef vb = lower_cast(L, (Val){ty_scalar(k->b.ty->dtype), lower_load_elem(L, k->b.ty->dtype, p), false},
                               ty_scalar(k->dt)).v;
  LLVMValueRef idx;
  if (k->outer) {
    idx = LLVMBuildAdd(L->b, lin, LLVMBuildMul(L->b, k->ia, k->bn, ""), "");
  } else {
    /* out[ia * br + ib, ja * bc + jb] in an out of ac * bc columns */
    LLVMValueRef ib = LLVMBuildSDiv(L->b, lin, k->bc, ""), jb = LLVMBuildSRem(L->b, lin, k->bc, "");
    LLVMValueRef row = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, k->ia, k->br, ""), ib, "");
    LLVMValueRef col = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, k->ja, k->bc, ""), jb, "");
    idx = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, row, LLVMBuildMul(L->b, k->ac, k->bc, ""), ""), col, "");
  }
  LLVMValueRef q = LLVMBuildInBoundsGEP2(L->b, lower_mem_type(L, k->dt), lower_arr_data(L, k->out.v), &idx, 1, "");
  lower_store_elem(L, k->dt, q, multiply(L, k->dt, k->va, vb));
}

static void kron_a(Lower *L, LLVMValueRef p, LLVMValueRef lin, void *ud) {
  KronCtx *k = ud;
  k->va = lower_cast(L, (Val){ty_scalar(k->a.ty->dtype), lower_load_elem(L, k->a.ty->dtype, p), false},
                     ty_scalar(k->dt)).v;
  if (k->outer) {
    k->ia = lin;
  } else {
    k->ia = LLVMBuildSDiv(L->b, lin, k->ac, "");
    k->ja = LLVMBuildSRem(L->b, lin, k->ac, "");
  }
  lower_foreach(L, k->b, kron_b, k);
}

/* the number of elements of a */
static LLVMValueRef size_of(Lower *L, Val a) {
  LLVMValueRef s = lower_i64(L, 1);
  for (int k = 0; k < a.ty->ndim; k++) s = LLVMBuildMul(L->b, s, lower_arr_shape(L, a.v, k), "");
  return s;
}

/* rows and columns of a 1-D (one row) or 2-D array */
static void rows_cols(Lower *L, Val a, LLVMValueRef *r, LLVMValueRef *c) {
  *r = a.ty->ndim == 2 ? lower_arr_shape(L, a.v, 0) : lower_i64(L, 1);
  *c = lower_arr_shape(L, a.v, a.ty->ndim - 1);
}

Val blinalg_lower_kron(Lower *L, Node *n, CallInfo *ci) {
  Type *rt = lower_ann(L, n)->ty;
  int mark = L->nheld;
  KronCtx k = {.dt = ci->dt, .outer = ci->bi == BI_numpy_outer};
  k.a = lower_arg(L, ci, 0);
  lower_hold(L, k.a);
  k.b = lower_arg(L, ci, 1);
  lower_hold(L, k.b);
  LLVMValueRef shape[2];
  if (k.outer) {
    shape[0] = size_of(L, k.a);
    shape[1] = k.bn = size_of(L, k.b);
  } else {
    LLVMValueRef ar;
    rows_cols(L, k.a, &ar, &k.ac);
    rows_cols(L, k.b, &k.br, &k.bc);
    if (rt->ndim == 1) shape[0] = LLVMBuildMul(L->b, k.ac, k.bc, "");
    else {
      shape[0] = LLVMBuildMul(L->b, ar, k.br, "");
      shape[1] = LLVMBuildMul(L->b, k.ac, k.bc, "");
    }
  }
  k.out = lower_alloc(L, rt, shape);
  lower_foreach(L, k.a, kron_a, &k);
  lower_unhold(L, mark);
  lower_release(L, k.a);
  lower_release(L, k.b);
  return k.out;
}

/* ---- np.trace(a, offset=0): the sum of a diagonal ---- */

Type *blinalg_infer_trace(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  const Builtin *b = builtin_of(nm);
  infer_only_keywords(I, n, b->member, b->keywords);
  Node *a = infer_arg_or_kw(n, 0, "a"), *off = infer_arg_or_kw(n, 1, "offset");
  infer_nargs(I, n, b->member, 0, b->hi);
  if (n->args.len + n->keywords.len > b->hi)
    compile_error(C, n->loc, "TypingError", "%s() takes at most %d arguments", b->member, b->hi);
  if (a == NULL) infer_nargs(I, n, b->member, b->lo, b->hi);
  CallInfo *ci = infer_new_info(I, n, CALL_BUILTIN, b->name);
  ci->bi = nm->id;
  ci->args = arena_alloc(C->A, sizeof(Node *) * 2);
  ci->args[0] = a;
  ci->args[1] = off;
  ci->nargs = off ? 2 : 1;
  Type *t = infer_expr(I, a), *ot = off ? infer_expr(I, off) : ty_int64;
  if (t == NULL || ot == NULL) return NULL;
  if (t->kind != TY_ARRAY || t->ndim != 2 || !prod_dtype_ok(t->dtype))
    compile_error(C, a->loc, "TypingError", "np.trace() needs a 2-D float or complex array, as in Numba, not %s",
                  tyname(C, t));
  if (!ty_is_int(ot)) compile_error(C, off->loc, "TypingError", "np.trace(): offset must be an integer, not %s", tyname(C, ot));
  /* Numba sums into an int 0: a complex64 trace is complex128 */
  return ty_is_complex(ty_scalar(t->dtype)) ? ty_scalar(DT_COMPLEX128) : ty_scalar(t->dtype);
}

Val blinalg_lower_trace(Lower *L, Node *n, CallInfo *ci) {
  Type *rt = lower_ann(L, n)->ty;
  int mark = L->nheld;
  Val a = lower_arg(L, ci, 0);
  lower_hold(L, a);
  LLVMValueRef off = ci->nargs == 2 ? lower_cast(L, lower_arg(L, ci, 1), ty_int64).v : lower_i64(L, 0);
  lower_unhold(L, mark);
  /* the diagonal starts at (max(0, -off), max(0, off)) and has max(0, min(rows - r0, cols - c0)) elements */
  LLVMValueRef zero = lower_i64(L, 0), neg = LLVMBuildICmp(L->b, LLVMIntSLT, off, zero, "");
  LLVMValueRef r0 = LLVMBuildSelect(L->b, neg, LLVMBuildNeg(L->b, off, ""), zero, "");
  LLVMValueRef c0 = LLVMBuildSelect(L->b, neg, zero, off, "");
  LLVMValueRef nr = LLVMBuildSub(L->b, lower_arr_shape(L, a.v, 0), r0, "");
  LLVMValueRef nc = LLVMBuildSub(L->b, lower_arr_shape(L, a.v, 1), c0, "");
  LLVMValueRef len = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, nr, nc, ""), nr, nc, "");
  len = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, len, zero, ""), zero, len, "");
  LLVMValueRef rs = lower_arr_stride(L, a.v, 0), cs = lower_arr_stride(L, a.v, 1);
  LLVMValueRef start = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, r0, rs, ""), LLVMBuildMul(L->b, c0, cs, ""), "");
  LLVMValueRef step = LLVMBuildAdd(L->b, rs, cs, "");
  LLVMValueRef base = LLVMBuildBitCast(L->b, lower_arr_data(L, a.v), i8p(L), "");
  LLVMTypeRef ft = lower_type(L, rt), i8 = LLVMInt8TypeInContext(L->ctx);
  LLVMValueRef ctr = lower_entry_alloca(L, i64t(L), "tri"), acc = lower_entry_alloca(L, ft, "tracc");
  LLVMBuildStore(L->b, zero, ctr);
  bool cplx = ty_is_complex(rt);
  LLVMBuildStore(L->b, cplx ? LLVMConstNull(ft) : LLVMConstReal(ft, 0), acc);
  LLVMBasicBlockRef head = lower_block(L, "tr"), body = lower_block(L, "trbody"), end = lower_block(L, "trend");
  LLVMBuildBr(L->b, head);
  LLVMPositionBuilderAtEnd(L->b, head);
  LLVMValueRef i = LLVMBuildLoad2(L->b, i64t(L), ctr, "");
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, i, len, ""), body, end);
  LLVMPositionBuilderAtEnd(L->b, body);
  LLVMValueRef boff = LLVMBuildAdd(L->b, start, LLVMBuildMul(L->b, i, step, ""), "");
  DType edt = a.ty->dtype;
  LLVMValueRef p = LLVMBuildBitCast(L->b, LLVMBuildGEP2(L->b, i8, base, &boff, 1, ""),
                                    LLVMPointerType(lower_mem_type(L, edt), 0), "");
  LLVMValueRef e = lower_load_elem(L, edt, p), s, sum = LLVMBuildLoad2(L->b, ft, acc, "");
  if (cplx) {  /* part by part, the element widened to complex128 */
    e = lower_complex_cast(L, (Val){ty_scalar(edt), e, false}, rt).v;
    LLVMValueRef re = LLVMBuildFAdd(L->b, lower_complex_part(L, sum, 0), lower_complex_part(L, e, 0), "");
    LLVMValueRef im = LLVMBuildFAdd(L->b, lower_complex_part(L, sum, 1), lower_complex_part(L, e, 1), "");
    s = lower_complex_make(L, rt, re, im);
  } else {
    s = LLVMBuildFAdd(L->b, sum, e, "");
  }
  LLVMBuildStore(L->b, s, acc);
  LLVMBuildStore(L->b, LLVMBuildNSWAdd(L->b, i, lower_i64(L, 1), ""), ctr);
  LLVMBuildBr(L->b, head);
  LLVMPositionBuilderAtEnd(L->b, end);
  LLVMValueRef r = LLVMBuildLoad2(L->b, ft, acc, "");
  lower_release(L, a);
  return (Val){rt, r, false};
}

/* ---- for builtin_lapack.c: operands and statuses as the products pass them ---- */

LLVMTypeRef blinalg_operand_type(Lower *L) { return operand_type(L); }
LLVMValueRef blinalg_operand(Lower *L, Val a) { return operand(L, a); }
void blinalg_check_status(Lower *L, LLVMValueRef st) { check_status(L, st); }
