/*
** builtin_reduce.c — the reduction family of the registry: a.sum(),
** a.prod(), a.min(), a.max(), a.mean() (and np.sum(a), np.prod(a),
** np.mean(a), min(a), max(a)) over every element, NaN propagating as in
** NumPy. No axis yet: the argument is refused rather than ignored.
*/
#include <math.h>

#include "builtin_hooks.h"
#include "lower_complex.h"

static Type *elem_sum_type(Type *a) {
  if (ty_is_float(ty_scalar(a->dtype)) || ty_is_complex(ty_scalar(a->dtype))) return ty_scalar(a->dtype);
  return dtype_kinds[a->dtype] == 'u' ? ty_scalar(DT_UINT64) : ty_int64;
}

Type *breduce_infer(Infer *I, Node *n, CallInfo *ci, Type *a) {
  /* arguments these methods would take in NumPy (axis) change the result:
  ** refuse them rather than ignore them */
  if (ci->nargs > 0)
    compile_error(I->C, n->loc, "TypingError", "%s() with an axis is not supported in compiled code", ci->qname);
  bool cx = dtype_kinds[a->dtype] == 'c';
  if (cx && (ci->bi == BI_ndarray_min || ci->bi == BI_ndarray_max))
    compile_error(I->C, n->loc, "TypingError", "%s() of %s is not supported (complex numbers are not ordered)", ci->qname,
                  tyname(I->C, a));
  switch (ci->bi) {
    case BI_ndarray_sum: case BI_ndarray_prod: return elem_sum_type(a);
    case BI_ndarray_mean:
      if (cx) return ty_scalar(a->dtype);
      return a->dtype == DT_FLOAT32 ? ty_scalar(DT_FLOAT32) : ty_float64;
    default: return ty_scalar(a->dtype);  /* min, max */
  }
}

typedef struct ReduceCtx {
  BuiltinId op;
  DType dt;
  Type *acc_ty;
  LLVMValueRef acc;   // alloca; min/max of floats: the extreme key (below)
  LLVMValueRef far;   // alloca, min/max of floats: the key at the other extreme (NaNs)
} ReduceCtx;

/* min/max of floats run on integer keys: a float's bits with the magnitude
** bits flipped when negative compare as signed integers in the float's
** order (-0.0 below +0.0), and NaNs land beyond the infinities (negative
** ones below -inf, positive above +inf). Integer min/max have no NaN
** rule, so LLVM vectorises them (a float select of a compare it may not:
** that was a 4-5 cycle chain per element). The same function maps back. */
static LLVMValueRef float_key(Lower *L, LLVMValueRef bits) {
  LLVMTypeRef kt = LLVMTypeOf(bits);
  unsigned w = LLVMGetIntTypeWidth(kt);
  LLVMValueRef sign = LLVMBuildAShr(L->b, bits, LLVMConstInt(kt, w - 1, 0), "");
  return LLVMBuildXor(L->b, bits, LLVMBuildLShr(L->b, sign, LLVMConstInt(kt, 1, 0), ""), "");
}

static LLVMTypeRef key_type(Lower *L, Type *ft) {
  return LLVMIntTypeInContext(L->ctx, (unsigned)(dtype_sizes[ft->dtype] * 8));
}

/* the extreme of two keys: the smaller for min (toward_min), else the larger */
static LLVMValueRef key_pick(Lower *L, bool toward_min, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, toward_min ? LLVMIntSLT : LLVMIntSGT, a, b, ""), a, b, "");
}

static void reduce_elem(Lower *L, LLVMValueRef ptr, LLVMValueRef linear, void *ud) {
  ReduceCtx *r = ud;
  (void)linear;
  LLVMTypeRef at = lower_type(L, r->acc_ty);
  Val x = lower_cast(L, (Val){ty_scalar(r->dt), lower_load_elem(L, r->dt, ptr), false}, r->acc_ty);
  LLVMValueRef cur = LLVMBuildLoad2(L->b, at, r->acc, "");
  bool fl = ty_is_float(r->acc_ty);
  LLVMValueRef nv;
  if (ty_is_complex(r->acc_ty))  /* sum, mean, prod (typing refuses min and max) */
    nv = lower_complex_arith(L, r->op == BI_ndarray_prod ? '*' : '+', r->acc_ty, cur, x.v);
  else if (r->op == BI_ndarray_sum || r->op == BI_ndarray_mean) nv = fl ? LLVMBuildFAdd(L->b, cur, x.v, "") : LLVMBuildAdd(L->b, cur, x.v, "");
  else if (r->op == BI_ndarray_prod) nv = fl ? LLVMBuildFMul(L->b, cur, x.v, "") : LLVMBuildMul(L->b, cur, x.v, "");
  else if (fl) {
    /* keys (float_key): the extreme one, and the other extreme for NaNs */
    bool mn = r->op == BI_ndarray_min;
    LLVMTypeRef kt = key_type(L, r->acc_ty);
    LLVMValueRef key = float_key(L, LLVMBuildBitCast(L->b, x.v, kt, ""));
    LLVMBuildStore(L->b, key_pick(L, !mn, key, LLVMBuildLoad2(L->b, kt, r->far, "")), r->far);
    nv = key_pick(L, mn, key, LLVMBuildLoad2(L->b, kt, r->acc, ""));
  } else {
    /* from the identity (INT_MIN, ...): a short dependence chain per element */
    bool mx = r->op == BI_ndarray_max;
    LLVMValueRef better = LLVMBuildICmp(L->b, mx ? (ty_is_signed(r->acc_ty) ? LLVMIntSGT : LLVMIntUGT)
                                                 : (ty_is_signed(r->acc_ty) ? LLVMIntSLT : LLVMIntULT), x.v, cur, "");
    nv = LLVMBuildSelect(L->b, better, x.v, cur, "");
  }
  LLVMBuildStore(L->b, nv, r->acc);
}

/* two chunks' accumulators (i = 0) or NaN slots (i = 1) as one: the parallel loop's combine */
static LLVMValueRef reduce_combine(Lower *L, int i, LLVMValueRef cur, LLVMValueRef part, void *ud) {
  ReduceCtx *r = ud;
  bool fl = ty_is_float(r->acc_ty);
  if (fl && (r->op == BI_ndarray_min || r->op == BI_ndarray_max))  /* keys: acc (i = 0) and far (i = 1) */
    return key_pick(L, (r->op == BI_ndarray_min) == (i == 0), part, cur);
  if (r->op == BI_ndarray_sum || r->op == BI_ndarray_mean) return fl ? LLVMBuildFAdd(L->b, cur, part, "") : LLVMBuildAdd(L->b, cur, part, "");
  if (r->op == BI_ndarray_prod) return fl ? LLVMBuildFMul(L->b, cur, part, "") : LLVMBuildMul(L->b, cur, part, "");
  bool mx = r->op == BI_ndarray_max;
  LLVMValueRef better = fl ? LLVMBuildFCmp(L->b, mx ? LLVMRealOGT : LLVMRealOLT, part, cur, "")
                           : LLVMBuildICmp(L->b, mx ? (ty_is_signed(r->acc_ty) ? LLVMIntSGT : LLVMIntUGT)
                                                    : (ty_is_signed(r->acc_ty) ? LLVMIntSLT : LLVMIntULT), part, cur, "");
  return LLVMBuildSelect(L->b, better, part, cur, "");
}

/* where min/max start: the value every element beats or equals */
static LLVMValueRef minmax_identity(Lower *L, BuiltinId id, Type *t) {
  LLVMTypeRef lt = lower_type(L, t);
  bool mx = id == BI_ndarray_max;
  if (ty_is_float(t)) return LLVMConstReal(lt, mx ? -INFINITY : INFINITY);
  unsigned w = LLVMGetIntTypeWidth(lt);
  if (!ty_is_signed(t)) return mx ? LLVMConstNull(lt) : LLVMConstAllOnes(lt);
  LLVMValueRef top = LLVMConstShl(LLVMConstInt(lt, 1, 0), LLVMConstInt(lt, w - 1, 0));  /* INT_MIN */
  return mx ? top : LLVMConstNot(top);
}

Val breduce_lower(Lower *L, Node *n, BuiltinId id, Val a, Node **args, int nargs) {
  Type *t = a.ty;
  (void)args;
  (void)nargs;
  Type *acc_ty = lower_ann(L, n)->ty;
  if (id == BI_ndarray_mean) acc_ty = ty_is_complex(acc_ty) ? ty_scalar(DT_COMPLEX128) : ty_float64;
  ReduceCtx r = {id, t->dtype, acc_ty, lower_entry_alloca(L, lower_type(L, acc_ty), "acc"), NULL};
  bool is_minmax = id == BI_ndarray_min || id == BI_ndarray_max;
  LLVMValueRef init = id == BI_ndarray_prod ? lower_cast(L, (Val){ty_int64, lower_i64(L, 1), false}, acc_ty).v
                    : is_minmax           ? minmax_identity(L, id, acc_ty)
                                          : LLVMConstNull(lower_type(L, acc_ty));
  bool keyed = is_minmax && ty_is_float(acc_ty);
  LLVMTypeRef kt = keyed ? key_type(L, acc_ty) : NULL;
  if (keyed) {  /* the widest keys each way; the array is not empty (checked below) */
    LLVMValueRef top = LLVMConstLShr(LLVMConstAllOnes(kt), LLVMConstInt(kt, 1, 0)), bottom = LLVMConstNot(top);
    bool mn = id == BI_ndarray_min;
    r.acc = lower_entry_alloca(L, kt, "acc");
    r.far = lower_entry_alloca(L, kt, "far");
    LLVMBuildStore(L->b, mn ? top : bottom, r.acc);
    LLVMBuildStore(L->b, mn ? bottom : top, r.far);
  } else
    LLVMBuildStore(L->b, init, r.acc);
  LLVMValueRef size = lower_i64(L, 1);
  for (int k = 0; k < t->ndim; k++) size = LLVMBuildMul(L->b, size, lower_arr_shape(L, a.v, k), "");
  if (is_minmax)
    lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntEQ, size, lower_i64(L, 0), ""), LMERR_VALUE,
                   id == BI_ndarray_min ? "zero-size array to reduction operation minimum which has no identity"
                                        : "zero-size array to reduction operation maximum which has no identity");
  /* in a parallel function: chunks of axis 0 on the thread pool (lower_parloop.c) */
  LLVMValueRef *slots[2] = {&r.acc, &r.far};
  LLVMTypeRef tys[2] = {keyed ? kt : lower_type(L, acc_ty), kt};
  const Target *tg = L->C->target;
  if (!tg->array_reduce || !tg->array_reduce(L, a, reduce_elem, &r, slots, tys, keyed ? 2 : 1, reduce_combine))
    lower_foreach(L, a, reduce_elem, &r);
  LLVMValueRef v;
  if (keyed) {
    /* a NaN wins, as in NumPy: one on the far side of the infinity there */
    bool mn = id == BI_ndarray_min;
    LLVMTypeRef ft = lower_type(L, acc_ty);
    LLVMValueRef acc = LLVMBuildLoad2(L->b, kt, r.acc, ""), far = LLVMBuildLoad2(L->b, kt, r.far, "");
    LLVMValueRef inf = float_key(L, LLVMConstBitCast(LLVMConstReal(ft, mn ? INFINITY : -INFINITY), kt));
    LLVMValueRef nan_far = LLVMBuildICmp(L->b, mn ? LLVMIntSGT : LLVMIntSLT, far, inf, "");
    v = LLVMBuildBitCast(L->b, float_key(L, LLVMBuildSelect(L->b, nan_far, far, acc, "")), ft, "");
  } else
    v = LLVMBuildLoad2(L->b, lower_type(L, acc_ty), r.acc, "");
  lower_release(L, a);
  if (id == BI_ndarray_mean && ty_is_complex(acc_ty)) {
    LLVMValueRef fn = LLVMBuildSIToFP(L->b, size, LLVMDoubleTypeInContext(L->ctx), "");
    v = lower_complex_make(L, acc_ty, LLVMBuildFDiv(L->b, lower_complex_part(L, v, 0), fn, ""),
                           LLVMBuildFDiv(L->b, lower_complex_part(L, v, 1), fn, ""));
    return lower_cast(L, (Val){acc_ty, v, false}, lower_ann(L, n)->ty);
  }
  if (id == BI_ndarray_mean) {
    v = LLVMBuildFDiv(L->b, v, LLVMBuildSIToFP(L->b, size, LLVMDoubleTypeInContext(L->ctx), ""), "");
    return lower_cast(L, (Val){ty_float64, v, false}, lower_ann(L, n)->ty);
  }
  return (Val){acc_ty, v, false};
}
