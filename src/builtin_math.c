/*
** builtin_math.c — the math family of the registry: math.* and their NumPy
** spellings on scalars, and Python's builtins (abs, min, max, round, int,
** float, bool, len, range, print). Their NumPy names are ufuncs, typed and
** lowered by builtin_ufunc.c. Typing hooks leave a CallInfo for the
** lowering hooks below them.
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
  Type *at[2];
  if (nm->flags & BF_NUMPY) return bufunc_infer(I, n, nm);  /* np.sqrt & co.: ufuncs */
  if (nm->id == BI_math_log && n->args.len == 2) {
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
  if (!infer_arg_types(I, n->args.items, m->arity, at)) return NULL;
  bool f32 = true, f16 = true;
  for (int i = 0; i < m->arity; i++) {
    infer_scalar_arg(I, n->args.items[i], at[i], name);
    f32 = f32 && at[i]->dtype == DT_FLOAT32;
    f16 = f16 && at[i]->dtype == DT_FLOAT16;
  }
  switch (m->result) {
    case 'B': return ty_bool;
    case 'I': return ty_int64;
    /* float16 stays float16 (numba-cuda's fp16 math), computed in float32 */
    default: return f16 ? ty_scalar(DT_FLOAT16) : f32 ? ty_scalar(DT_FLOAT32) : ty_float64;
  }
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

Type *bmath_infer_len(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  Type *at[1];
  builtin_infer_checked(I, n, nm);
  if (!infer_arg_types(I, n->args.items, 1, at)) return NULL;
  if ((at[0]->kind != TY_ARRAY && at[0]->kind != TY_TUPLE) || (at[0]->kind == TY_ARRAY && at[0]->ndim == 0))
    compile_error(C, n->args.items[0]->loc, "TypingError", "object of type %s has no len()", tyname(C, at[0]));
  return ty_int64;
}

/* abs, int, float, bool of a number: int and float as named; abs keeps a
** float's type and gives an int64 for integers (np.abs is a ufunc) */
Type *bmath_infer_number(Infer *I, Node *n, const BuiltinName *nm) {
  Type *at[1];
  if (nm->flags & BF_NUMPY) return bufunc_infer(I, n, nm);
  builtin_infer_checked(I, n, nm);
  if (!infer_arg_types(I, n->args.items, 1, at)) return NULL;
  infer_scalar_arg(I, n->args.items[0], at[0], builtin_of(nm)->member);
  switch (nm->id) {
    case BI_int: return ty_int64;
    case BI_float: return ty_float64;
    case BI_bool: return ty_bool;
    default:
      if (ty_is_complex(at[0])) return ty_complex_part(at[0]);  /* abs(z): its modulus */
      return ty_is_float(at[0]) ? at[0] : ty_arith(at[0], at[0]);
  }
}

/* round(x) gives an int; np.round keeps floats floating */
Type *bmath_infer_round(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  Type *at[2];
  const char *q = builtin_of(nm)->member;
  builtin_infer_checked(I, n, nm);
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

/* the libm function (or 'X' scaling) of MATH row id on arguments of float type ft */
LLVMValueRef bmath_float_call(Lower *L, BuiltinId id, LLVMValueRef *xs, Type *ft) {
  const MathFn *m = &math_fns[id];
  if (m->result == 'X') {
    double k = id == BI_math_degrees ? 180.0 / 3.141592653589793 : 3.141592653589793 / 180.0;
    return LLVMBuildFMul(L->b, xs[0], LLVMConstReal(lower_type(L, ft), k), "");
  }
  return L->C->target->math_call(L, m->base, m->intrinsic, xs, m->arity, ft->dtype == DT_FLOAT32);
}

Val bmath_lower_math(Lower *L, Node *n, CallInfo *ci) {
  const MathFn *m = &math_fns[ci->bi];
  if (ci->ufunc) return bufunc_lower(L, n, ci);  /* called by its NumPy name */
  if (ci->bi == BI_math_log && ci->nargs == 2) return lower_log2arg(L, ci);
  Type *rt = lower_ann(L, n)->ty;
  Type *ft = ty_is_float(rt) ? rt : ty_float64;
  LLVMValueRef xs[2];
  Val a0 = lower_arg(L, ci, 0);
  if (a0.ty->dtype == DT_FLOAT16 && a0.ty->kind == TY_SCALAR) a0 = lower_cast(L, a0, ty_scalar(DT_FLOAT32));
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
  if (m->result == 'I' && ty_is_int(a0.ty)) return lower_cast(L, a0, ty_int64);
  Type *opt = a0.ty->dtype == DT_FLOAT32 && (m->arity == 1 || ft->dtype == DT_FLOAT32 || ft->dtype == DT_FLOAT16)
                ? ty_scalar(DT_FLOAT32) : ty_float64;
  if (m->result == 'I') opt = ty_is_float(a0.ty) ? a0.ty : ty_float64;
  xs[0] = lower_cast(L, a0, opt).v;
  if (m->arity == 2) xs[1] = lower_cast(L, lower_arg(L, ci, 1), opt).v;
  LLVMValueRef r = bmath_float_call(L, ci->bi, xs, opt);
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
