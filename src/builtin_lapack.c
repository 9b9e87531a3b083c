/*
** builtin_lapack.c — the prelude's intrinsic _lumba.lapack(op, x, ...):
** one LAPACK operation of lapack_rt.h (op an integer literal, an
** LmLapackOp) on arrays (as LmOperand records) and numbers (as doubles, in
** order), its dtype the first array's (float32, float64, complex64 or
** complex128: the other arrays of the real type where LAPACK's are: w of
** eigh, s of svd); it returns a float64 (lstsq's rank). The prelude (src/prelude/numpy_linalg.py) checks shapes and
** allocates what it writes; this file only passes the call on.
*/
#include "builtin_hooks.h"
#include "lapack.h"
#include "lapack_rt.h"

#define MAX_OPERANDS 7

/* the typing checks of the prelude's defs, which compute nothing (Numba's
** _check_linalg_matrix and co., with their messages) */
enum { CHECK_2D = 100, CHECK_1D_2D = 101, CHECK_SAME = 102 };

static Type *check_types(Infer *I, Node *n, int64_t what, Type **t) {
  Compile *C = I->C;
  Node *a = n->args.items[1];
  if (what == CHECK_SAME) {
    if (n->args.len != 3) compile_error(C, n->loc, "TypingError", "_lumba.lapack(102, a, b)");
    if (t[0]->kind == TY_ARRAY && t[1]->kind == TY_ARRAY && t[0]->dtype != t[1]->dtype)
      compile_error(C, a->loc, "TypingError", "only supports inputs that have homogeneous dtypes, not %s and %s", tyname(C, t[0]), tyname(C, t[1]));
    return ty_float64;
  }
  if (t[0]->kind != TY_ARRAY) compile_error(C, a->loc, "TypingError", "only supported for array types, not %s", tyname(C, t[0]));
  if (what == CHECK_2D && t[0]->ndim != 2)
    compile_error(C, a->loc, "TypingError", "only supported on 2-D arrays, not %s", tyname(C, t[0]));
  if (what == CHECK_1D_2D && (t[0]->ndim < 1 || t[0]->ndim > 2))
    compile_error(C, a->loc, "TypingError", "only supported on 1 and 2-D arrays, not %s", tyname(C, t[0]));
  if (t[0]->dtype != DT_FLOAT32 && t[0]->dtype != DT_FLOAT64 && t[0]->dtype != DT_COMPLEX64 && t[0]->dtype != DT_COMPLEX128)
    compile_error(C, a->loc, "TypingError", "only supported on float and complex arrays, not %s (convert with .astype(np.float64))",
                  tyname(C, t[0]));
  return ty_float64;
}

Type *blapack_infer(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  CallInfo *ci = builtin_infer_checked(I, n, nm);
  ci->args = n->args.items;
  ci->nargs = n->args.len;
  Node *op = n->args.items[0];
  bool check = op->kind == ND_Constant && op->ckind == CK_INT && op->ival >= CHECK_2D && op->ival <= CHECK_SAME;
  if (!check && (op->kind != ND_Constant || op->ckind != CK_INT || op->ival < 0 || op->ival >= LM_LA__COUNT))
    compile_error(C, op->loc, "TypingError", "_lumba.lapack(): the operation must be an integer literal below %d",
                  LM_LA__COUNT);
  Type *t[8];
  if (!infer_arg_types(I, n->args.items + 1, n->args.len - 1, t)) return NULL;
  if (check) return check_types(I, n, op->ival, t);
  bool first = true;
  for (int i = 0; i < n->args.len - 1; i++) {
    Node *a = n->args.items[i + 1];
    if (t[i]->kind != TY_ARRAY) {
      infer_scalar_arg(I, a, t[i], "_lumba.lapack");
      continue;
    }
    if (t[i]->ndim > 2) compile_error(C, a->loc, "TypingError", "_lumba.lapack() takes 1-D and 2-D arrays");
    bool cplx = t[i]->dtype == DT_COMPLEX64 || t[i]->dtype == DT_COMPLEX128;
    if (first && !cplx && t[i]->dtype != DT_FLOAT32 && t[i]->dtype != DT_FLOAT64)
      compile_error(C, a->loc, "TypingError", "_lumba.lapack() works on float32 and float64, not %s", tyname(C, t[i]));
    if (first) ci->dt = t[i]->dtype;
    first = false;
  }
  if (first) compile_error(C, n->loc, "TypingError", "_lumba.lapack() needs an array");
  return ty_float64;
}

Val blapack_lower(Lower *L, Node *n, CallInfo *ci) {
  (void)n;
  if (ci->args[0]->ival >= CHECK_2D) return (Val){ty_float64, LLVMConstReal(LLVMDoubleTypeInContext(L->ctx), 0), false};
  LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx), i64 = LLVMInt64TypeInContext(L->ctx);
  LLVMTypeRef dbl = LLVMDoubleTypeInContext(L->ctx), ot = blinalg_operand_type(L);
  LLVMTypeRef opsT = LLVMArrayType(ot, MAX_OPERANDS), scT = LLVMArrayType(dbl, MAX_OPERANDS);
  LLVMValueRef ops = lower_entry_alloca(L, opsT, "laops"), sc = lower_entry_alloca(L, scT, "lasc");
  LLVMValueRef ret = lower_entry_alloca(L, dbl, "laret");
  LLVMBuildStore(L->b, LLVMConstReal(dbl, 0), ret);
  int mark = L->nheld, nops = 0, nsc = 0;
  Val held[MAX_OPERANDS];
  for (int i = 1; i < ci->nargs; i++) {
    Val v = lower_arg(L, ci, i);
    LLVMValueRef ix[2] = {LLVMConstInt(i64, 0, 0), LLVMConstInt(i64, 0, 0)};
    if (v.ty->kind == TY_ARRAY) {
      lower_hold(L, v);
      held[nops] = v;
      ix[1] = LLVMConstInt(i64, (unsigned long long)nops++, 0);
      LLVMValueRef rec = LLVMBuildLoad2(L->b, ot, blinalg_operand(L, v), "");
      LLVMBuildStore(L->b, rec, LLVMBuildInBoundsGEP2(L->b, opsT, ops, ix, 2, ""));
    } else {
      ix[1] = LLVMConstInt(i64, (unsigned long long)nsc++, 0);
      LLVMBuildStore(L->b, lower_cast(L, v, ty_float64).v, LLVMBuildInBoundsGEP2(L->b, scT, sc, ix, 2, ""));
    }
  }
  LLVMTypeRef errp = LLVMPointerType(lower_err_type(L->ctx), 0), otp = LLVMPointerType(ot, 0);
  LLVMTypeRef dp = LLVMPointerType(dbl, 0);
  LLVMTypeRef ps[8] = {errp, i32, i32, i32, otp, i32, dp, dp};
  LLVMValueRef f = lower_rt_fn(L, "lm_lapack", i32, ps, 8);
  LLVMValueRef args[8] = {L->err,
                          LLVMConstInt(i32, (unsigned long long)ci->args[0]->ival, 0),
                          LLVMConstInt(i32, (unsigned long long)ci->dt, 0),
                          LLVMConstInt(i32, (unsigned long long)nops, 0),
                          LLVMBuildBitCast(L->b, ops, otp, ""),
                          LLVMConstInt(i32, (unsigned long long)nsc, 0),
                          LLVMBuildBitCast(L->b, sc, dp, ""),
                          ret};
  blinalg_check_status(L, LLVMBuildCall2(L->b, LLVMGlobalGetValueType(f), f, args, 8, ""));
  lower_unhold(L, mark);
  for (int i = 0; i < nops; i++) lower_release(L, held[i]);
  return (Val){ty_float64, LLVMBuildLoad2(L->b, dbl, ret, ""), false};
}
