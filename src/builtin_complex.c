/*
** builtin_complex.c — complex numbers' builtins: complex(a, b), z.real,
** z.imag, z.conjugate() (scalars, and .real/.imag of arrays as views, as
** NumPy gives them), np.real, np.imag, np.conj, np.angle and the cmath
** module; and the complex loops of NumPy's ufuncs (bcomplex_ufunc_elem,
** called by builtin_ufunc.c). Typed as Numba types them; the cmath
** functions run C99's complex functions through lm_rt_cmath (on the GPU
** Target.complex_call's formulas).
*/
#include "builtin_hooks.h"
#include "lower_complex.h"

static CallInfo *checked(Infer *I, Node *n, const BuiltinName *nm) {
  CallInfo *ci = builtin_infer_checked(I, n, nm);
  ci->nargs = n->args.len;
  ci->args = n->args.items;
  return ci;
}

static Type *part_of(Type *t) { return ty_is_complex(t) ? ty_complex_part(t) : t; }

/* any number as the complex type ct */
static LLVMValueRef as_complex(Lower *L, Val v, Type *ct) { return lower_cast(L, v, ct).v; }

/* ---- complex(a, b) ---- */

Type *bcomplex_infer_ctor(Infer *I, Node *n, const BuiltinName *nm) {
  checked(I, n, nm);
  Type *at[2];
  if (!infer_arg_types(I, n->args.items, n->args.len, at)) return NULL;
  for (int i = 0; i < n->args.len; i++) infer_scalar_arg(I, n->args.items[i], at[i], "complex");
  return ty_scalar(DT_COMPLEX128);  /* Numba's complex() is complex128 whatever its arguments */
}

/* complex(a, b) = a + b*1j, each possibly complex itself */
Val bcomplex_lower_ctor(Lower *L, Node *n, CallInfo *ci) {
  Type *ct = lower_ann(L, n)->ty;
  LLVMTypeRef d = LLVMDoubleTypeInContext(L->ctx);
  LLVMValueRef re = LLVMConstReal(d, 0), im = LLVMConstReal(d, 0);
  if (ci->nargs >= 1) {
    LLVMValueRef a = as_complex(L, lower_arg(L, ci, 0), ct);
    re = lower_complex_part(L, a, 0);
    im = lower_complex_part(L, a, 1);
  }
  if (ci->nargs == 2) {
    LLVMValueRef b = as_complex(L, lower_arg(L, ci, 1), ct);
    re = LLVMBuildFSub(L->b, re, lower_complex_part(L, b, 1), "");
    im = LLVMBuildFAdd(L->b, im, lower_complex_part(L, b, 0), "");
  }
  return (Val){ct, lower_complex_make(L, ct, re, im), false};
}

/* ---- .real, .imag ---- */

Type *bcomplex_infer_part(Infer *I, Node *n, const BuiltinName *nm, Type *base) {
  if (base->kind == TY_ARRAY) {
    if (dtype_kinds[base->dtype] != 'c') {
      if (nm->id == BI_ndarray_imag)
        compile_error(I->C, n->loc, "TypingError", "the .imag of a %s array is not supported (it has no imaginary part)",
                      dtype_names[base->dtype]);
      return base;  /* a real array's .real is itself */
    }
    DType pd = base->dtype == DT_COMPLEX64 ? DT_FLOAT32 : DT_FLOAT64;
    return ty_array(&I->C->S->types, pd, base->ndim, 'A');
  }
  return part_of(base);
}

Val bcomplex_lower_part(Lower *L, Node *n, BuiltinId id, Val a) {
  Type *rt = lower_ann(L, n)->ty;
  bool imag = id == BI_ndarray_imag;
  if (a.ty->kind == TY_ARRAY) {
    if (dtype_kinds[a.ty->dtype] != 'c') return a;
    /* a view on the same buffer: the same strides, the data one part further for .imag */
    LLVMValueRef shape[LM_MAXDIM], strides[LM_MAXDIM];
    for (int k = 0; k < a.ty->ndim; k++) {
      shape[k] = lower_arr_shape(L, a.v, k);
      strides[k] = lower_arr_stride(L, a.v, k);
    }
    LLVMTypeRef ft = lower_mem_type(L, rt->dtype);
    LLVMValueRef data = LLVMBuildBitCast(L->b, lower_arr_data(L, a.v), LLVMPointerType(ft, 0), "");
    if (imag) {
      LLVMValueRef one = lower_i64(L, 1);
      data = LLVMBuildInBoundsGEP2(L->b, ft, data, &one, 1, "");
    }
    return (Val){rt, lower_arr_make(L, rt, lower_arr_mi(L, a.v), data, shape, strides), a.owned};
  }
  if (ty_is_complex(a.ty)) return (Val){rt, lower_complex_part(L, a.v, imag), false};
  if (!imag) return a;
  return lower_cast(L, (Val){ty_int64, lower_i64(L, 0), false}, rt);  /* a real number's imaginary part is 0 */
}

/* np.real(x), np.imag(x) */
Type *bcomplex_infer_np_part(Infer *I, Node *n, const BuiltinName *nm) {
  checked(I, n, nm);
  Type *at[1];
  if (!infer_arg_types(I, n->args.items, 1, at)) return NULL;
  if (at[0]->kind != TY_ARRAY) infer_scalar_arg(I, n->args.items[0], at[0], builtin_of(nm)->member);
  const BuiltinName *attr = builtin_find_member("ndarray.", nm->id == BI_numpy_imag ? "imag" : "real");
  return bcomplex_infer_part(I, n, attr, at[0]);
}

Val bcomplex_lower_np_part(Lower *L, Node *n, CallInfo *ci) {
  return bcomplex_lower_part(L, n, ci->bi == BI_numpy_imag ? BI_ndarray_imag : BI_ndarray_real, lower_arg(L, ci, 0));
}

/* ---- z.conjugate(), z.conj(), np.conj(z), np.angle(z) ---- */

Type *bcomplex_infer_conj(Infer *I, Node *n, CallInfo *ci, Type *a) {
  if (ci->nargs > 0) compile_error(I->C, n->loc, "TypingError", "%s() takes no arguments", ci->qname);
  if (a->kind == TY_ARRAY) return ty_array(&I->C->S->types, a->dtype, a->ndim, 'C');  /* a new array, as NumPy */
  return a;
}

typedef struct ConjCtx { Type *et; LLVMValueRef out; } ConjCtx;

static void conj_elem(Lower *L, LLVMValueRef ptr, LLVMValueRef linear, void *ud) {
  ConjCtx *c = ud;
  LLVMValueRef x = lower_load_elem(L, c->et->dtype, ptr);
  if (ty_is_complex(c->et)) x = lower_complex_conj(L, c->et, x);
  LLVMValueRef dst = LLVMBuildInBoundsGEP2(L->b, lower_mem_type(L, c->et->dtype), c->out, &linear, 1, "");
  lower_store_elem(L, c->et->dtype, dst, x);
}

Val bcomplex_lower_conj(Lower *L, Node *n, BuiltinId id, Val a, Node **args, int nargs) {
  (void)id, (void)args, (void)nargs;
  if (a.ty->kind == TY_ARRAY) {  /* elementwise into a new C-contiguous array */
    Type *rt = n ? lower_ann(L, n)->ty : ty_array(&L->C->S->types, a.ty->dtype, a.ty->ndim, 'C');
    LLVMValueRef shape[LM_MAXDIM];
    for (int k = 0; k < a.ty->ndim; k++) shape[k] = lower_arr_shape(L, a.v, k);
    Val out = lower_alloc(L, rt, shape);
    ConjCtx c = {ty_scalar(a.ty->dtype), lower_arr_data(L, out.v)};
    lower_foreach(L, a, conj_elem, &c);
    lower_release(L, a);
    return out;
  }
  if (!ty_is_complex(a.ty)) return a;
  return (Val){a.ty, lower_complex_conj(L, a.ty, a.v), false};
}

Type *bcomplex_infer_angle(Infer *I, Node *n, const BuiltinName *nm) {
  checked(I, n, nm);
  Type *at[1];
  if (!infer_arg_types(I, n->args.items, 1, at)) return NULL;
  infer_scalar_arg(I, n->args.items[0], at[0], "angle");
  Type *p = part_of(at[0]);
  return ty_is_float(p) ? p : ty_float64;
}

static LLVMValueRef phase(Lower *L, Val z, Type *ft) {
  LLVMValueRef re, im;
  if (ty_is_complex(z.ty)) {
    Type *pt = ty_complex_part(z.ty);
    re = lower_cast(L, (Val){pt, lower_complex_part(L, z.v, 0), false}, ft).v;
    im = lower_cast(L, (Val){pt, lower_complex_part(L, z.v, 1), false}, ft).v;
  } else {
    re = lower_cast(L, z, ft).v;
    im = LLVMConstReal(lower_type(L, ft), 0);
  }
  LLVMValueRef xs[2] = {im, re};
  return L->C->target->math_call(L, "atan2", NULL, xs, 2, ft->dtype == DT_FLOAT32);
}

Val bcomplex_lower_angle(Lower *L, Node *n, CallInfo *ci) {
  Type *rt = lower_ann(L, n)->ty;
  return (Val){rt, phase(L, lower_arg(L, ci, 0), rt), false};
}

/* ---- cmath ---- */

static int cmath_op(BuiltinId id) {
  switch (id) {
    case BI_cmath_sqrt: return CM_SQRT;
    case BI_cmath_exp: return CM_EXP;
    case BI_cmath_log: return CM_LOG;
    case BI_cmath_log10: return CM_LOG10;
    case BI_cmath_sin: return CM_SIN;
    case BI_cmath_cos: return CM_COS;
    case BI_cmath_tan: return CM_TAN;
    case BI_cmath_asin: return CM_ASIN;
    case BI_cmath_acos: return CM_ACOS;
    case BI_cmath_atan: return CM_ATAN;
    case BI_cmath_sinh: return CM_SINH;
    case BI_cmath_cosh: return CM_COSH;
    case BI_cmath_tanh: return CM_TANH;
    case BI_cmath_asinh: return CM_ASINH;
    case BI_cmath_acosh: return CM_ACOSH;
    case BI_cmath_atanh: return CM_ATANH;
    default: return -1;
  }
}

Type *bcomplex_infer_cmath(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  const char *name = builtin_of(nm)->member;
  checked(I, n, nm);
  Type *at[2];
  if (!infer_arg_types(I, n->args.items, n->args.len, at)) return NULL;
  for (int i = 0; i < n->args.len; i++) infer_scalar_arg(I, n->args.items[i], at[i], name);
  switch (nm->id) {
    case BI_cmath_isnan: case BI_cmath_isinf: case BI_cmath_isfinite: return ty_bool;
    case BI_cmath_phase: return ty_float64;
    case BI_cmath_polar: {
      Type *el[2] = {ty_float64, ty_float64};
      return ty_tuple(&C->S->types, el, 2);
    }
    case BI_cmath_rect:
      if (ty_is_complex(at[0]) || ty_is_complex(at[1]))
        compile_error(C, n->loc, "TypingError", "cmath.rect() takes real numbers, not %s and %s", tyname(C, at[0]),
                      tyname(C, at[1]));
      return ty_scalar(DT_COMPLEX128);
    default: break;
  }
  /* Numba: complex64 stays complex64; real arguments give complex128 */
  return at[0]->dtype == DT_COMPLEX64 && (n->args.len == 1 || at[1]->dtype == DT_COMPLEX64) ? at[0]
                                                                                          : ty_scalar(DT_COMPLEX128);
}

/* op of z (complex type t) through the runtime, in double precision */
static LLVMValueRef cmath_call(Lower *L, int op, Type *t, LLVMValueRef z) {
  if (L->C->target->complex_call) return L->C->target->complex_call(L, op, t, z, NULL);  /* a kernel */
  Type *pt = ty_complex_part(t);
  LLVMTypeRef d = LLVMDoubleTypeInContext(L->ctx), i32 = LLVMInt32TypeInContext(L->ctx);
  LLVMValueRef out = lower_entry_alloca(L, LLVMArrayType(d, 2), "cmath");
  LLVMValueRef outp = LLVMBuildBitCast(L->b, out, LLVMPointerType(d, 0), "");
  LLVMValueRef args[4] = {LLVMConstInt(i32, (unsigned long long)op, 0),
                          lower_cast(L, (Val){pt, lower_complex_part(L, z, 0), false}, ty_float64).v,
                          lower_cast(L, (Val){pt, lower_complex_part(L, z, 1), false}, ty_float64).v, outp};
  LLVMTypeRef ps[4] = {i32, d, d, LLVMPointerType(d, 0)};
  LLVMValueRef fn = lower_rt_fn(L, "lm_rt_cmath", LLVMVoidTypeInContext(L->ctx), ps, 4);
  LLVMBuildCall2(L->b, LLVMGlobalGetValueType(fn), fn, args, 4, "");
  LLVMValueRef one = lower_i64(L, 1);
  LLVMValueRef re = LLVMBuildLoad2(L->b, d, outp, "");
  LLVMValueRef im = LLVMBuildLoad2(L->b, d, LLVMBuildInBoundsGEP2(L->b, d, outp, &one, 1, ""), "");
  return lower_complex_make(L, t, re, im);
}

/* isnan, isinf, isfinite of a complex value: of either part (isfinite: of both) */
static LLVMValueRef classify(Lower *L, BuiltinId id, Type *t, LLVMValueRef z) {
  Type *pt = ty_complex_part(t);
  LLVMTypeRef ft = lower_type(L, pt);
  LLVMValueRef inf = LLVMConstReal(ft, INFINITY), r[2];
  for (int i = 0; i < 2; i++) {
    LLVMValueRef x = lower_complex_part(L, z, i);
    LLVMValueRef ax = lower_fmath(L, "fabs", &x, 1);
    r[i] = id == BI_cmath_isnan ? LLVMBuildFCmp(L->b, LLVMRealUNO, x, x, "")
         : id == BI_cmath_isinf ? LLVMBuildFCmp(L->b, LLVMRealOEQ, ax, inf, "") : LLVMBuildFCmp(L->b, LLVMRealOLT, ax, inf, "");
  }
  return id == BI_cmath_isfinite ? LLVMBuildAnd(L->b, r[0], r[1], "") : LLVMBuildOr(L->b, r[0], r[1], "");
}

Val bcomplex_lower_cmath(Lower *L, Node *n, CallInfo *ci) {
  Type *rt = lower_ann(L, n)->ty;
  BuiltinId id = ci->bi;
  Type *c128 = ty_scalar(DT_COMPLEX128);
  Val x = lower_arg(L, ci, 0);
  switch (id) {
    case BI_cmath_isnan: case BI_cmath_isinf: case BI_cmath_isfinite: {
      Type *ct = ty_complex_of(part_of(x.ty));
      return (Val){ty_bool, classify(L, id, ct, as_complex(L, x, ct)), false};
    }
    case BI_cmath_phase: return (Val){rt, phase(L, x, ty_float64), false};
    case BI_cmath_polar: {
      LLVMValueRef z = as_complex(L, x, c128);
      LLVMValueRef t = LLVMGetUndef(lower_type(L, rt));
      t = LLVMBuildInsertValue(L->b, t, lower_complex_abs(L, c128, z), 0, "");
      t = LLVMBuildInsertValue(L->b, t, phase(L, (Val){c128, z, false}, ty_float64), 1, "");
      return (Val){rt, t, false};
    }
    case BI_cmath_rect: {
      LLVMValueRef r = lower_cast(L, x, ty_float64).v, phi = lower_cast(L, lower_arg(L, ci, 1), ty_float64).v;
      LLVMValueRef c = L->C->target->math_call(L, "cos", "llvm.cos", &phi, 1, false);
      LLVMValueRef s = L->C->target->math_call(L, "sin", "llvm.sin", &phi, 1, false);
      return (Val){rt, lower_complex_make(L, rt, LLVMBuildFMul(L->b, r, c, ""), LLVMBuildFMul(L->b, r, s, "")), false};
    }
    default: break;
  }
  LLVMValueRef z = cmath_call(L, cmath_op(id), rt, as_complex(L, x, rt));
  if (id == BI_cmath_log && ci->nargs == 2) {  /* log(z, base) = log(z) / log(base), CPython's */
    LLVMValueRef b = cmath_call(L, CM_LOG, rt, as_complex(L, lower_arg(L, ci, 1), rt));
    z = lower_complex_arith(L, '/', rt, z, b);
  }
  return (Val){rt, z, false};
}

/* ---- NumPy's complex ufunc loops ---- */

bool bcomplex_has_loop(BuiltinId id) {
  switch (id) {
    case BI_abs: case BI_numpy_add: case BI_numpy_subtract: case BI_numpy_multiply: case BI_numpy_divide:
    case BI_numpy_power: case BI_numpy_negative: case BI_numpy_positive: case BI_numpy_square:
    case BI_numpy_reciprocal: case BI_numpy_equal: case BI_numpy_not_equal:
    case BI_math_sqrt: case BI_math_exp: case BI_math_log: case BI_math_log10: case BI_math_log2:
    case BI_math_sin: case BI_math_cos: case BI_math_tan: case BI_math_asin: case BI_math_acos: case BI_math_atan:
    case BI_math_sinh: case BI_math_cosh: case BI_math_tanh: case BI_math_asinh: case BI_math_acosh:
    case BI_math_atanh: case BI_math_expm1: case BI_math_log1p: case BI_math_exp2:
    case BI_math_isnan: case BI_math_isinf: case BI_math_isfinite:
      return true;
    default: return false;
  }
}

static int math_op(BuiltinId id) {
  switch (id) {
    case BI_math_sqrt: return CM_SQRT;
    case BI_math_exp: return CM_EXP;
    case BI_math_log: return CM_LOG;
    case BI_math_log10: return CM_LOG10;
    case BI_math_log2: return CM_LOG2;
    case BI_math_sin: return CM_SIN;
    case BI_math_cos: return CM_COS;
    case BI_math_tan: return CM_TAN;
    case BI_math_asin: return CM_ASIN;
    case BI_math_acos: return CM_ACOS;
    case BI_math_atan: return CM_ATAN;
    case BI_math_sinh: return CM_SINH;
    case BI_math_cosh: return CM_COSH;
    case BI_math_tanh: return CM_TANH;
    case BI_math_asinh: return CM_ASINH;
    case BI_math_acosh: return CM_ACOSH;
    case BI_math_atanh: return CM_ATANH;
    case BI_math_expm1: return CM_EXPM1;
    case BI_math_log1p: return CM_LOG1P;
    case BI_math_exp2: return CM_EXP2;
    default: return -1;
  }
}

/* one element of ufunc ci over complex type t (the loop's), result type rt */
Val bcomplex_ufunc_elem(Lower *L, Node *n, CallInfo *ci, Val *x, Type *t, Type *rt) {
  BuiltinId id = ci->bi;
  (void)n;
  LLVMValueRef a = as_complex(L, x[0], t), b = NULL;
  if (builtin_entries[id].lo == 2) b = as_complex(L, x[1], t);
  bool saved = L->C->opt.error_model_numpy;
  L->C->opt.error_model_numpy = true;  /* NumPy's division: no raise */
  LLVMValueRef r;
  switch (id) {
    case BI_abs: r = lower_complex_abs(L, t, a); break;
    case BI_numpy_add: r = lower_complex_arith(L, '+', t, a, b); break;
    case BI_numpy_subtract: r = lower_complex_arith(L, '-', t, a, b); break;
    case BI_numpy_multiply: r = lower_complex_arith(L, '*', t, a, b); break;
    case BI_numpy_divide: r = lower_complex_arith(L, '/', t, a, b); break;
    case BI_numpy_power: r = lower_complex_arith(L, 'p', t, a, b); break;
    case BI_numpy_negative: r = lower_complex_neg(L, t, a); break;
    case BI_numpy_positive: r = a; break;
    case BI_numpy_square: r = lower_complex_arith(L, '*', t, a, a); break;
    case BI_numpy_reciprocal: {
      LLVMValueRef one = as_complex(L, (Val){ty_int64, lower_i64(L, 1), false}, t);
      r = lower_complex_arith(L, '/', t, one, a);
      break;
    }
    case BI_numpy_equal: case BI_numpy_not_equal: r = lower_complex_eq(L, a, b, id == BI_numpy_not_equal); break;
    case BI_math_isnan: r = classify(L, BI_cmath_isnan, t, a); break;
    case BI_math_isinf: r = classify(L, BI_cmath_isinf, t, a); break;
    case BI_math_isfinite: r = classify(L, BI_cmath_isfinite, t, a); break;
    default:
      r = cmath_call(L, math_op(id), t, a);
      break;
  }
  L->C->opt.error_model_numpy = saved;
  return (Val){rt, r, false};
}
