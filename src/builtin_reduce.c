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
  LLVMValueRef acc;   // alloca
  LLVMValueRef nan;   // alloca: min/max of floats, a NaN met (else the initial NaN-free 0)
} ReduceCtx;

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
  else {
    /* from the identity (-inf, INT_MIN, ...): a short dependence chain per
    ** element; a NaN is kept aside and wins at the end, as in NumPy */
    bool mx = r->op == BI_ndarray_max;
    LLVMValueRef better;
    if (fl) {
      better = LLVMBuildFCmp(L->b, mx ? LLVMRealOGT : LLVMRealOLT, x.v, cur, "");
      LLVMValueRef isnan = LLVMBuildFCmp(L->b, LLVMRealUNO, x.v, x.v, "");
      LLVMValueRef seen = LLVMBuildLoad2(L->b, at, r->nan, "");
      LLVMBuildStore(L->b, LLVMBuildSelect(L->b, isnan, x.v, seen, ""), r->nan);
    } else {
      better = LLVMBuildICmp(L->b, mx ? (ty_is_signed(r->acc_ty) ? LLVMIntSGT : LLVMIntUGT)
                                      : (ty_is_signed(r->acc_ty) ? LLVMIntSLT : LLVMIntULT), x.v, cur, "");
    }
    nv = LLVMBuildSelect(L->b, better, x.v, cur, "");
  }
  LLVMBuildStore(L->b, nv, r->acc);
}

/* two chunks' accumulators (i = 0) or NaN slots (i = 1) as one: the parallel loop's combine */
static LLVMValueRef reduce_combine(Lower *L, int i, LLVMValueRef cur, LLVMValueRef part, void *ud) {
  ReduceCtx *r = ud;
  bool fl = ty_is_float(r->acc_ty);
  if (i == 1) return LLVMBuildSelect(L->b, LLVMBuildFCmp(L->b, LLVMRealUNO, part, part, ""), part, cur, "");
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
  LLVMBuildStore(L->b, init, r.acc);
  if (is_minmax && ty_is_float(acc_ty)) {
    r.nan = lower_entry_alloca(L, lower_type(L, acc_ty), "nan");
    LLVMBuildStore(L->b, LLVMConstNull(lower_type(L, acc_ty)), r.nan);
  }
  LLVMValueRef size = lower_i64(L, 1);
  for (int k = 0; k < t->ndim; k++) size = LLVMBuildMul(L->b, size, lower_arr_shape(L, a.v, k), "");
  if (is_minmax)
    lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntEQ, size, lower_i64(L, 0), ""), LMERR_VALUE,
                   id == BI_ndarray_min ? "zero-size array to reduction operation minimum which has no identity"
                                        : "zero-size array to reduction operation maximum which has no identity");
  /* in a parallel function: chunks of axis 0 on the thread pool (lower_parloop.c) */
  LLVMValueRef *slots[2] = {&r.acc, &r.nan};
  LLVMTypeRef tys[2] = {lower_type(L, acc_ty), lower_type(L, acc_ty)};
  const Target *tg = L->C->target;
  if (!tg->array_reduce || !tg->array_reduce(L, a, reduce_elem, &r, slots, tys, r.nan ? 2 : 1, reduce_combine))
    lower_foreach(L, a, reduce_elem, &r);
  LLVMValueRef v = LLVMBuildLoad2(L->b, lower_type(L, acc_ty), r.acc, "");
  if (r.nan) {
    LLVMValueRef seen = LLVMBuildLoad2(L->b, lower_type(L, acc_ty), r.nan, "");
    v = LLVMBuildSelect(L->b, LLVMBuildFCmp(L->b, LLVMRealUNO, seen, seen, ""), seen, v, "");
  }
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
