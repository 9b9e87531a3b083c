/*
** builtin_math.c — the math family of the registry: math.* and their NumPy
** spellings on scalars, and Python's builtins (abs, min, max, round, int,
** float, bool, len, range, print), np.power, np.maximum/minimum. Typing
** hooks leave a CallInfo for the lowering hooks below them.
*/
#include <math.h>

#include "builtin_hooks.h"

/* MATH rows of builtins.def: how the lowering computes each */
typedef struct MathFn {
  const char *base;       // C / libdevice name
  int arity;
  char result;            // 'F', 'I', 'B', 'X' (builtins.def)
  const char *intrinsic;  // LLVM intrinsic or NULL
} MathFn;

static const MathFn math_fns[BI__COUNT] = {
#define MATH(id, mod, mem, base, n, r, intr) [BI_##id] = {#base, n, r, intr},
#include "builtins.def"
};

/* ---- typing ---- */

Type *bmath_infer_math(Infer *I, Node *n, const BuiltinName *nm) {
  const Builtin *b = builtin_of(nm);
  const MathFn *m = &math_fns[nm->id];
  const char *name = b->member;
  bool numpy = nm->flags & BF_NUMPY;
  Type *at[2];
  if (nm->id == BI_math_log && n->args.len == 2 && !numpy) {
    CallInfo *ci = infer_new_info(I, n, CALL_BUILTIN, b->name);
    ci->bi = nm->id;
    if (!infer_arg_types(I, n->args.items, 2, at)) return NULL;
    infer_scalar_arg(I, n->args.items[0], at[0], "log");
    infer_scalar_arg(I, n->args.items[1], at[1], "log");
    return ty_float64;
  }
  infer_nargs(I, n, name, m->arity, m->arity);
  infer_no_keywords(I, n, name);
  CallInfo *ci = infer_new_info(I, n, CALL_BUILTIN, b->name);
  ci->bi = nm->id;
  ci->dt = numpy ? 1 : 0;  /* numpy floor/ceil/trunc stay floats */
  if (!infer_arg_types(I, n->args.items, m->arity, at)) return NULL;
  bool f32 = true;
  for (int i = 0; i < m->arity; i++) {
    infer_scalar_arg(I, n->args.items[i], at[i], name);
    f32 = f32 && at[i]->dtype == DT_FLOAT32;
  }
  switch (m->result) {
    case 'B': return ty_bool;
    case 'I': if (!numpy) return ty_int64; /* fall through */
    default: return f32 ? ty_scalar(DT_FLOAT32) : ty_float64;
  }
}

/* the CallInfo of a builtin whose arguments are checked against its row */
static CallInfo *checked_info(Infer *I, Node *n, const BuiltinName *nm) {
  const Builtin *b = builtin_of(nm);
  infer_nargs(I, n, b->member, b->lo, b->hi);
  infer_no_keywords(I, n, b->member);
  CallInfo *ci = infer_new_info(I, n, CALL_BUILTIN, b->name);
  ci->bi = nm->id;
  return ci;
}

Type *bmath_infer_minmax(Infer *I, Node *n, const BuiltinName *nm) {
  const char *name = builtin_of(nm)->member;
  infer_no_keywords(I, n, name);
  if (n->args.len == 0) compile_error(I->C, n->loc, "TypingError", "%s expected at least 1 argument, got 0", name);
  Type *at[LM_MAXARGS];
  if (n->args.len > LM_MAXARGS) compile_error(I->C, n->loc, "UnsupportedError", "too many arguments");
  if (!infer_arg_types(I, n->args.items, n->args.len, at)) return NULL;
  if (n->args.len == 1) {
    if (at[0]->kind == TY_ARRAY)  /* min(a): the reduction a.min() */
      return infer_method(I, n, nm->id == BI_min ? BI_ndarray_min : BI_ndarray_max, n->args.items[0], at[0], name,
                          NULL, 0);
    if (at[0]->kind == TY_TUPLE && at[0]->nelems > 0) {
      Type *u = NULL;
      for (int i = 0; i < at[0]->nelems; i++) u = ty_unify(&I->C->S->types, u, at[0]->elems[i]);
      if (u == NULL || !ty_is_number(u)) compile_error(I->C, n->loc, "TypingError", "%s() of %s", name, tyname(I->C, at[0]));
      infer_new_info(I, n, CALL_BUILTIN, name)->bi = nm->id;
      return u;
    }
    compile_error(I->C, n->loc, "TypingError", "%s() of one %s is not supported", name, tyname(I->C, at[0]));
  }
  Type *u = NULL;
  for (int i = 0; i < n->args.len; i++) {
    infer_scalar_arg(I, n->args.items[i], at[i], name);
    u = u ? (ty_is_float(u) || ty_is_float(at[i]) ? ty_arith(u, at[i]) : ty_unify(&I->C->S->types, u, at[i])) : at[i];
  }
  infer_new_info(I, n, CALL_BUILTIN, name)->bi = nm->id;
  return u;
}

/* np.maximum(x, y), np.minimum(x, y) on scalars: a NaN propagates */
Type *bmath_infer_binary(Infer *I, Node *n, const BuiltinName *nm) {
  const char *name = builtin_of(nm)->member;
  checked_info(I, n, nm);
  Type *at[2];
  if (!infer_arg_types(I, n->args.items, 2, at)) return NULL;
  infer_scalar_arg(I, n->args.items[0], at[0], name);
  infer_scalar_arg(I, n->args.items[1], at[1], name);
  return ty_is_float(at[0]) || ty_is_float(at[1]) ? ty_arith(at[0], at[1]) : ty_unify(&I->C->S->types, at[0], at[1]);
}

/* np.power(x, y) is x ** y: integers stay integers, as in NumPy */
Type *bmath_infer_power(Infer *I, Node *n, const BuiltinName *nm) {
  Type *at[2];
  checked_info(I, n, nm);
  if (!infer_arg_types(I, n->args.items, 2, at)) return NULL;
  return infer_binop_type(I, OP_Pow, infer_scalar_arg(I, n->args.items[0], at[0], "power"),
                          infer_scalar_arg(I, n->args.items[1], at[1], "power"), n->loc);
}

Type *bmath_infer_len(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  Type *at[1];
  checked_info(I, n, nm);
  if (!infer_arg_types(I, n->args.items, 1, at)) return NULL;
  if ((at[0]->kind != TY_ARRAY && at[0]->kind != TY_TUPLE) || (at[0]->kind == TY_ARRAY && at[0]->ndim == 0))
    compile_error(C, n->args.items[0]->loc, "TypingError", "object of type %s has no len()", tyname(C, at[0]));
  return ty_int64;
}

/* abs, int, float, bool, np.sign, np.square of a number: int and float
** as named; the others keep a float's type and give an int64 for integers */
Type *bmath_infer_number(Infer *I, Node *n, const BuiltinName *nm) {
  Type *at[1];
  checked_info(I, n, nm);
  if (!infer_arg_types(I, n->args.items, 1, at)) return NULL;
  infer_scalar_arg(I, n->args.items[0], at[0], builtin_of(nm)->member);
  switch (nm->id) {
    case BI_int: return ty_int64;
    case BI_float: return ty_float64;
    case BI_bool: return ty_bool;
    default: return ty_is_float(at[0]) ? at[0] : ty_arith(at[0], at[0]);
  }
}

/* round(x) gives an int; np.round keeps floats floating */
Type *bmath_infer_round(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  Type *at[2];
  const char *q = builtin_of(nm)->member;
  checked_info(I, n, nm);
  if (!infer_arg_types(I, n->args.items, n->args.len, at)) return NULL;
  infer_scalar_arg(I, n->args.items[0], at[0], q);
  if (n->args.len == 2) {
    if (!ty_is_int(at[1])) compile_error(C, n->args.items[1]->loc, "TypingError", "round() ndigits must be an integer");
    /* Numba types round(x, n) for floats only: an integer x converts to float64 */
    return at[0]->dtype == DT_FLOAT32 ? at[0] : ty_float64;
  }
  return (nm->flags & BF_NUMPY) && ty_is_float(at[0]) ? at[0] : ty_int64;
}

Type *bmath_infer_range(Infer *I, Node *n, const BuiltinName *nm) {
  (void)nm;
  compile_error(I->C, n->loc, "UnsupportedError", "range() is only supported as the iterable of a for loop");
}

Type *bmath_infer_print(Infer *I, Node *n, const BuiltinName *nm) {
  (void)nm;
  compile_error(I->C, n->loc, "UnsupportedError", "print() is not supported in compiled code");
}

/* ---- lowering ---- */

/* log(x, base) of the math module */
static Val lower_log2arg(Lower *L, CallInfo *ci) {
  LLVMValueRef x = lower_cast(L, lower_arg(L, ci, 0), ty_float64).v, b = lower_cast(L, lower_arg(L, ci, 1), ty_float64).v;
  LLVMValueRef lx = L->C->target->math_call(L, "log", "llvm.log", &x, 1, false);
  LLVMValueRef lb = L->C->target->math_call(L, "log", "llvm.log", &b, 1, false);
  return (Val){ty_float64, LLVMBuildFDiv(L->b, lx, lb, ""), false};
}

Val bmath_lower_math(Lower *L, Node *n, CallInfo *ci) {
  const MathFn *m = &math_fns[ci->bi];
  if (ci->bi == BI_math_log && ci->nargs == 2) return lower_log2arg(L, ci);
  Type *rt = lower_ann(L, n)->ty;
  Type *ft = ty_is_float(rt) ? rt : ty_float64;
  LLVMValueRef xs[2];
  Val a0 = lower_arg(L, ci, 0);
  if (m->result == 'B') {
    if (!ty_is_float(a0.ty))
      return (Val){ty_bool, LLVMConstInt(LLVMInt1TypeInContext(L->ctx), ci->bi == BI_math_isfinite, 0), false};
    LLVMValueRef x = a0.v;
    LLVMTypeRef t = LLVMTypeOf(x);
    LLVMValueRef ax = lower_fmath(L, "fabs", &x, 1);
    LLVMValueRef inf = LLVMConstReal(t, INFINITY);
    LLVMValueRef r = ci->bi == BI_math_isnan ? LLVMBuildFCmp(L->b, LLVMRealUNO, x, x, "")
                   : ci->bi == BI_math_isinf ? LLVMBuildFCmp(L->b, LLVMRealOEQ, ax, inf, "")
                                             : LLVMBuildFCmp(L->b, LLVMRealOLT, ax, inf, "");
    return (Val){ty_bool, r, false};
  }
  if (m->result == 'I' && ty_is_int(a0.ty) && !ci->dt) return lower_cast(L, a0, ty_int64);
  Type *opt = a0.ty->dtype == DT_FLOAT32 && (m->arity == 1 || ft->dtype == DT_FLOAT32) ? ty_scalar(DT_FLOAT32) : ty_float64;
  if (m->result == 'I' || m->result == 'B') opt = ty_is_float(a0.ty) ? a0.ty : ty_float64;
  xs[0] = lower_cast(L, a0, opt).v;
  if (m->arity == 2) xs[1] = lower_cast(L, lower_arg(L, ci, 1), opt).v;
  LLVMValueRef r;
  if (m->result == 'X') {
    double k = ci->bi == BI_math_degrees ? 180.0 / 3.141592653589793 : 3.141592653589793 / 180.0;
    r = LLVMBuildFMul(L->b, xs[0], LLVMConstReal(lower_type(L, opt), k), "");
  } else {
    r = L->C->target->math_call(L, m->base, m->intrinsic, xs, m->arity, opt->dtype == DT_FLOAT32);
  }
  if (L->C->opt.lua && ty_is_int(rt)) lower_lua_integral(L, r);
  return lower_cast(L, (Val){opt, r, false}, rt);
}

/* round half to even (Python 3), ndigits through scaling */
Val bmath_lower_round(Lower *L, Node *n, CallInfo *ci) {
  Val x = lower_arg(L, ci, 0);
  if (!ty_is_float(x.ty) && ci->nargs == 1) return lower_cast(L, x, lower_ann(L, n)->ty);
  if (ci->nargs == 2) {
    Val nd = lower_cast(L, lower_arg(L, ci, 1), ty_float64);
    LLVMValueRef ten = LLVMConstReal(LLVMDoubleTypeInContext(L->ctx), 10.0);
    LLVMValueRef pa[2] = {ten, nd.v};
    LLVMValueRef scale = lower_fmath(L, "pow", pa, 2);
    LLVMValueRef xv = lower_cast(L, x, ty_float64).v;
    LLVMValueRef y = LLVMBuildFMul(L->b, xv, scale, "");
    y = lower_fmath(L, "rint", &y, 1);
    return lower_cast(L, (Val){ty_float64, LLVMBuildFDiv(L->b, y, scale, ""), false}, lower_ann(L, n)->ty);
  }
  LLVMValueRef r = lower_fmath(L, "rint", &x.v, 1);
  return lower_cast(L, (Val){x.ty, r, false}, lower_ann(L, n)->ty);
}

Val bmath_lower_minmax(Lower *L, Node *n, CallInfo *ci) {
  bool mx = ci->bi == BI_max;
  Type *rt = lower_ann(L, n)->ty;
  if (ci->nargs == 1) {
    /* min(tuple) */
    Val t = lower_arg(L, ci, 0);
    Val best = lower_cast(L, (Val){t.ty->elems[0], LLVMBuildExtractValue(L->b, t.v, 0, ""), false}, rt);
    for (int i = 1; i < t.ty->nelems; i++) {
      Val e = lower_cast(L, (Val){t.ty->elems[i], LLVMBuildExtractValue(L->b, t.v, (unsigned)i, ""), false}, rt);
      LLVMValueRef better = ty_is_float(rt) ? LLVMBuildFCmp(L->b, mx ? LLVMRealOGT : LLVMRealOLT, e.v, best.v, "")
                                            : LLVMBuildICmp(L->b, mx ? LLVMIntSGT : LLVMIntSLT, e.v, best.v, "");
      best.v = LLVMBuildSelect(L->b, better, e.v, best.v, "");
    }
    return best;
  }
  Val best = lower_cast(L, lower_arg(L, ci, 0), rt);
  for (int i = 1; i < ci->nargs; i++) {
    Val e = lower_cast(L, lower_arg(L, ci, i), rt);
    LLVMValueRef better;
    if (ty_is_float(rt)) better = LLVMBuildFCmp(L->b, mx ? LLVMRealOGT : LLVMRealOLT, e.v, best.v, "");
    else if (ty_is_signed(rt)) better = LLVMBuildICmp(L->b, mx ? LLVMIntSGT : LLVMIntSLT, e.v, best.v, "");
    else better = LLVMBuildICmp(L->b, mx ? LLVMIntUGT : LLVMIntULT, e.v, best.v, "");
    best.v = LLVMBuildSelect(L->b, better, e.v, best.v, "");
  }
  return best;
}

/* NumPy's maximum/minimum: the larger (smaller) of two; the first NaN if there is one */
static Val lower_np_minmax(Lower *L, Node *n, CallInfo *ci, bool mx) {
  Type *rt = lower_ann(L, n)->ty;
  Val x = lower_cast(L, lower_arg(L, ci, 0), rt);
  Val y = lower_cast(L, lower_arg(L, ci, 1), rt);
  LLVMValueRef pick_y;
  if (ty_is_float(rt))  /* y when it is larger (smaller), or y is NaN and x is not */
    pick_y = LLVMBuildAnd(L->b, LLVMBuildFCmp(L->b, LLVMRealORD, x.v, x.v, ""),
                          LLVMBuildFCmp(L->b, mx ? LLVMRealUGT : LLVMRealULT, y.v, x.v, ""), "");
  else if (ty_is_signed(rt)) pick_y = LLVMBuildICmp(L->b, mx ? LLVMIntSGT : LLVMIntSLT, y.v, x.v, "");
  else pick_y = LLVMBuildICmp(L->b, mx ? LLVMIntUGT : LLVMIntULT, y.v, x.v, "");
  return (Val){rt, LLVMBuildSelect(L->b, pick_y, y.v, x.v, ""), false};
}
Val bmath_lower_maximum(Lower *L, Node *n, CallInfo *ci) { return lower_np_minmax(L, n, ci, true); }
Val bmath_lower_minimum(Lower *L, Node *n, CallInfo *ci) { return lower_np_minmax(L, n, ci, false); }

Val bmath_lower_power(Lower *L, Node *n, CallInfo *ci) {
  Val x = lower_arg(L, ci, 0), y = lower_arg(L, ci, 1);
  return (Val){lower_ann(L, n)->ty, lower_binop(L, OP_Pow, x, y, lower_ann(L, n)->ty, n->loc), false};
}

Val bmath_lower_len(Lower *L, Node *n, CallInfo *ci) {
  (void)n;
  Val a = lower_arg(L, ci, 0);
  Val r = {ty_int64, a.ty->kind == TY_TUPLE ? lower_i64(L, a.ty->nelems) : lower_arr_shape(L, a.v, 0), false};
  lower_release(L, a);
  return r;
}

#if defined(__x86_64__)
/* int(float) on x86: cvttsd2si alone, as Numba's fptosi, with the
** saturation (documented: NaN gives 0, out-of-range values the limits)
** moved off the common path. cvttsd2si is defined for every input: NaN and
** out-of-range give INT64_MIN, the only result that needs a second look.
** llvm.fptosi.sat put a compare, a branch and a cmov on the path from
** x to the index in histogram-like loops. */
static Val float_to_i64(Lower *L, Val x, Type *to) {
  LLVMTypeRef ft = LLVMTypeOf(x.v), i64 = LLVMInt64TypeInContext(L->ctx), i1 = LLVMInt1TypeInContext(L->ctx);
  bool f32 = LLVMGetTypeKind(ft) == LLVMFloatTypeKind;
  LLVMTypeRef vt = LLVMVectorType(ft, f32 ? 4 : 2);
  LLVMValueRef vx = LLVMBuildInsertElement(L->b, LLVMGetUndef(vt), x.v, lower_i32(L, 0), "");
  const char *name = f32 ? "llvm.x86.sse.cvttss2si64" : "llvm.x86.sse2.cvttsd2si64";
  LLVMTypeRef fty = LLVMFunctionType(i64, &vt, 1, 0);
  LLVMValueRef f = LLVMGetNamedFunction(L->C->mod, name);
  if (f == NULL) f = LLVMAddFunction(L->C->mod, name, fty);
  LLVMValueRef r = LLVMBuildCall2(L->b, fty, f, &vx, 1, "");
  LLVMValueRef bad = LLVMBuildICmp(L->b, LLVMIntEQ, r, LLVMConstInt(i64, (unsigned long long)INT64_MIN, 0), "");
  bad = lower_intrinsic(L, "llvm.expect", &i1, 1, (LLVMValueRef[]){bad, LLVMConstInt(i1, 0, 0)}, 2);
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(L->b), fix = lower_block(L, "satfix"), join = lower_block(L, "satjoin");
  LLVMBuildCondBr(L->b, bad, fix, join);
  LLVMPositionBuilderAtEnd(L->b, fix);
  LLVMValueRef s = lower_cast(L, x, to).v;  /* llvm.fptosi.sat */
  LLVMBuildBr(L->b, join);
  LLVMPositionBuilderAtEnd(L->b, join);
  LLVMValueRef phi = LLVMBuildPhi(L->b, i64, "int");
  LLVMAddIncoming(phi, (LLVMValueRef[]){r, s}, (LLVMBasicBlockRef[]){pre, fix}, 2);
  return (Val){to, phi, false};
}
#endif

Val bmath_lower_cast(Lower *L, Node *n, CallInfo *ci) {
  Val x = lower_arg(L, ci, 0);
  Type *to = lower_ann(L, n)->ty;
#if defined(__x86_64__)
  if (!L->C->target->gpu && !L->C->opt.lua && ty_is_float(x.ty) && to == ty_int64) return float_to_i64(L, x, to);
#endif
  return lower_cast(L, x, to);
}

Val bmath_lower_abs(Lower *L, Node *n, CallInfo *ci) {
  Val x = lower_cast(L, lower_arg(L, ci, 0), lower_ann(L, n)->ty);
  if (ty_is_float(lower_ann(L, n)->ty)) {
    return (Val){lower_ann(L, n)->ty, lower_fmath(L, "fabs", &x.v, 1), false};
  }
  if (!ty_is_signed(lower_ann(L, n)->ty)) return x;
  LLVMValueRef neg = LLVMBuildICmp(L->b, LLVMIntSLT, x.v, LLVMConstNull(LLVMTypeOf(x.v)), "");
  return (Val){lower_ann(L, n)->ty, LLVMBuildSelect(L->b, neg, LLVMBuildNeg(L->b, x.v, ""), x.v, ""), false};
}

/* NumPy's sign: -1, 0 or 1 of the argument's type, NaN for NaN (and 0.0 for -0.0) */
Val bmath_lower_sign(Lower *L, Node *n, CallInfo *ci) {
  Type *rt = lower_ann(L, n)->ty;
  Val x = lower_cast(L, lower_arg(L, ci, 0), rt);
  LLVMTypeRef t = lower_type(L, rt);
  if (ty_is_float(rt)) {
    LLVMValueRef zero = LLVMConstReal(t, 0.0);
    LLVMValueRef r = LLVMBuildSelect(L->b, LLVMBuildFCmp(L->b, LLVMRealOEQ, x.v, zero, ""), zero, x.v, "");
    r = LLVMBuildSelect(L->b, LLVMBuildFCmp(L->b, LLVMRealOLT, x.v, zero, ""), LLVMConstReal(t, -1.0), r, "");
    return (Val){rt, LLVMBuildSelect(L->b, LLVMBuildFCmp(L->b, LLVMRealOGT, x.v, zero, ""), LLVMConstReal(t, 1.0), r, ""),
                 false};
  }
  LLVMValueRef zero = LLVMConstNull(t);
  LLVMValueRef pos = LLVMBuildZExt(L->b, LLVMBuildICmp(L->b, ty_is_signed(rt) ? LLVMIntSGT : LLVMIntUGT, x.v, zero, ""), t, "");
  if (!ty_is_signed(rt)) return (Val){rt, pos, false};
  LLVMValueRef neg = LLVMBuildZExt(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, x.v, zero, ""), t, "");
  return (Val){rt, LLVMBuildSub(L->b, pos, neg, ""), false};
}

/* x * x in the argument's type (integers wrap) */
Val bmath_lower_square(Lower *L, Node *n, CallInfo *ci) {
  Val x = lower_cast(L, lower_arg(L, ci, 0), lower_ann(L, n)->ty);
  return (Val){lower_ann(L, n)->ty, lower_binop(L, OP_Mult, x, x, lower_ann(L, n)->ty, n->loc), false};
}
