/*
** lower_call.c — calls: builtins, math functions through the target,
** dtype casts, array allocation, array methods, other specializations.
*/
#include <math.h>
#include <string.h>

#include "lower.h"

typedef struct MathFn {
  const char *name, *base;
  int arity;
  char result;
  const char *intrinsic;
} MathFn;
const MathFn *infer_math_fn(const char *name);

static Val arg(Lower *L, CallInfo *ci, int i) { return lower_expr(L, ci->args[i]); }

static Val lower_math(Lower *L, Node *n, CallInfo *ci) {
  const MathFn *m = infer_math_fn(ci->qname);
  Type *rt = lower_ann(L, n)->ty;
  Type *ft = ty_is_float(rt) ? rt : ty_float64;
  LLVMValueRef xs[2];
  Val a0 = arg(L, ci, 0);
  if (m->result == 'B') {
    if (!ty_is_float(a0.ty)) return (Val){ty_bool, LLVMConstInt(LLVMInt1TypeInContext(L->ctx), m->name[2] == 'f', 0), false};
    LLVMValueRef x = a0.v;
    LLVMTypeRef t = LLVMTypeOf(x);
    LLVMValueRef ax = lower_fmath(L, "fabs", &x, 1);
    LLVMValueRef inf = LLVMConstReal(t, INFINITY);
    LLVMValueRef r = strcmp(m->name, "isnan") == 0 ? LLVMBuildFCmp(L->b, LLVMRealUNO, x, x, "")
                   : strcmp(m->name, "isinf") == 0 ? LLVMBuildFCmp(L->b, LLVMRealOEQ, ax, inf, "")
                                                   : LLVMBuildFCmp(L->b, LLVMRealOLT, ax, inf, "");
    return (Val){ty_bool, r, false};
  }
  if (m->result == 'I' && ty_is_int(a0.ty) && !ci->dt) return lower_cast(L, a0, ty_int64);
  Type *opt = a0.ty->dtype == DT_FLOAT32 && (m->arity == 1 || ft->dtype == DT_FLOAT32) ? ty_scalar(DT_FLOAT32) : ty_float64;
  if (m->result == 'I' || m->result == 'B') opt = ty_is_float(a0.ty) ? a0.ty : ty_float64;
  xs[0] = lower_cast(L, a0, opt).v;
  if (m->arity == 2) xs[1] = lower_cast(L, arg(L, ci, 1), opt).v;
  LLVMValueRef r;
  if (m->result == 'X') {
    double k = strcmp(m->name, "degrees") == 0 ? 180.0 / 3.141592653589793 : 3.141592653589793 / 180.0;
    r = LLVMBuildFMul(L->b, xs[0], LLVMConstReal(lower_type(L, opt), k), "");
  } else {
    r = L->C->target->math_call(L, m->base, m->intrinsic, xs, m->arity, opt->dtype == DT_FLOAT32);
  }
  if (L->C->opt.lua && ty_is_int(rt)) lower_lua_integral(L, r);
  return lower_cast(L, (Val){opt, r, false}, rt);
}

/* round half to even (Python 3), ndigits through scaling */
static Val lower_round(Lower *L, Node *n, CallInfo *ci) {
  Val x = arg(L, ci, 0);
  if (!ty_is_float(x.ty) && ci->nargs == 1) return lower_cast(L, x, lower_ann(L, n)->ty);
  if (ci->nargs == 2) {
    Val nd = lower_cast(L, arg(L, ci, 1), ty_float64);
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

static Val lower_minmax(Lower *L, Node *n, CallInfo *ci) {
  bool mx = ci->qname[1] == 'a';
  Type *rt = lower_ann(L, n)->ty;
  if (ci->nargs == 1) {
    /* min(tuple) */
    Val t = arg(L, ci, 0);
    Val best = lower_cast(L, (Val){t.ty->elems[0], LLVMBuildExtractValue(L->b, t.v, 0, ""), false}, rt);
    for (int i = 1; i < t.ty->nelems; i++) {
      Val e = lower_cast(L, (Val){t.ty->elems[i], LLVMBuildExtractValue(L->b, t.v, (unsigned)i, ""), false}, rt);
      LLVMValueRef better = ty_is_float(rt) ? LLVMBuildFCmp(L->b, mx ? LLVMRealOGT : LLVMRealOLT, e.v, best.v, "")
                                            : LLVMBuildICmp(L->b, mx ? LLVMIntSGT : LLVMIntSLT, e.v, best.v, "");
      best.v = LLVMBuildSelect(L->b, better, e.v, best.v, "");
    }
    return best;
  }
  Val best = lower_cast(L, arg(L, ci, 0), rt);
  for (int i = 1; i < ci->nargs; i++) {
    Val e = lower_cast(L, arg(L, ci, i), rt);
    LLVMValueRef better;
    if (ty_is_float(rt)) better = LLVMBuildFCmp(L->b, mx ? LLVMRealOGT : LLVMRealOLT, e.v, best.v, "");
    else if (ty_is_signed(rt)) better = LLVMBuildICmp(L->b, mx ? LLVMIntSGT : LLVMIntSLT, e.v, best.v, "");
    else better = LLVMBuildICmp(L->b, mx ? LLVMIntUGT : LLVMIntULT, e.v, best.v, "");
    best.v = LLVMBuildSelect(L->b, better, e.v, best.v, "");
  }
  return best;
}

typedef struct { DType dt; LLVMValueRef v; } FillV;
static void fill_v(Lower *L, LLVMValueRef ptr, LLVMValueRef linear, void *ud) {
  FillV *f = ud;
  (void)linear;
  lower_store_elem(L, f->dt, ptr, f->v);
}

static Val lower_np_alloc(Lower *L, Node *n, CallInfo *ci) {
  Type *t = lower_ann(L, n)->ty;
  LLVMValueRef shape[LM_MAXDIM];
  const char *nm = ci->qname;
  Val s = lower_expr(L, ci->args[0]);
  if (strstr(nm, "_like")) {
    for (int k = 0; k < t->ndim; k++) shape[k] = lower_arr_shape(L, s.v, k);
    lower_release(L, s);
  } else if (s.ty->kind == TY_TUPLE) {
    for (int k = 0; k < t->ndim; k++)
      shape[k] = lower_cast(L, (Val){s.ty->elems[k], LLVMBuildExtractValue(L->b, s.v, (unsigned)k, ""), false}, ty_int64).v;
  } else {
    shape[0] = lower_cast(L, s, ty_int64).v;
  }
  Val a = lower_alloc(L, t, shape);
  /* nrt_alloc zeroes: empty and zeros are done */
  if (strncmp(nm, "ones", 4) == 0 || strncmp(nm, "full", 4) == 0) {
    int mark = lower_hold(L, a);  /* the fill value may raise */
    Val fv = strncmp(nm, "ones", 4) == 0 ? (Val){ty_int64, lower_i64(L, 1), false} : lower_expr(L, ci->args[1]);
    lower_unhold(L, mark);
    FillV f = {t->dtype, lower_cast(L, fv, ty_scalar(t->dtype)).v};
    lower_foreach(L, a, fill_v, &f);
  }
  return a;
}

static Val lower_arange(Lower *L, Node *n, CallInfo *ci) {
  Type *t = lower_ann(L, n)->ty;
  Type *ct = ty_is_float(ty_scalar(t->dtype)) ? ty_float64 : ty_int64;
  LLVMValueRef start = lower_cast(L, (Val){ty_int64, lower_i64(L, 0), false}, ct).v, stop, step;
  step = lower_cast(L, (Val){ty_int64, lower_i64(L, 1), false}, ct).v;
  if (ci->nargs == 1) stop = lower_cast(L, arg(L, ci, 0), ct).v;
  else {
    start = lower_cast(L, arg(L, ci, 0), ct).v;
    stop = lower_cast(L, arg(L, ci, 1), ct).v;
    if (ci->nargs == 3) step = lower_cast(L, arg(L, ci, 2), ct).v;
  }
  LLVMValueRef len;
  if (ct == ty_float64) {
    lower_raise_if(L, LLVMBuildFCmp(L->b, LLVMRealOEQ, step, LLVMConstReal(lower_type(L, ct), 0), ""), LMERR_VALUE,
                   "arange: step must not be zero");
    LLVMValueRef q = LLVMBuildFDiv(L->b, LLVMBuildFSub(L->b, stop, start, ""), step, "");
    q = lower_fmath(L, "ceil", &q, 1);
    len = lower_cast(L, (Val){ty_float64, q, false}, ty_int64).v;
  } else {
    lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntEQ, step, lower_i64(L, 0), ""), LMERR_VALUE,
                   "arange: step must not be zero");
    len = lower_range_count(L, start, stop, step);
    /* an unsigned count beyond 2^63 - 1 (arange(-2**63, 2**63 - 1)): too big, not empty */
    lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntSLT, len, lower_i64(L, 0), ""), LMERR_MEMORY, "array is too big");
  }
  len = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, len, lower_i64(L, 0), ""), lower_i64(L, 0), len, "");
  Val a = lower_alloc(L, t, &len);
  /* fill: a[i] = start + i * step */
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  LLVMValueRef ctr = lower_entry_alloca(L, i64, "ar");
  LLVMBuildStore(L->b, lower_i64(L, 0), ctr);
  LLVMBasicBlockRef head = lower_block(L, "ar"), body = lower_block(L, "arbody"), end = lower_block(L, "arend");
  LLVMBuildBr(L->b, head);
  LLVMPositionBuilderAtEnd(L->b, head);
  LLVMValueRef i = LLVMBuildLoad2(L->b, i64, ctr, "");
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, i, len, ""), body, end);
  LLVMPositionBuilderAtEnd(L->b, body);
  LLVMValueRef fi = lower_cast(L, (Val){ty_int64, i, false}, ct).v;
  LLVMValueRef v = ct == ty_float64 ? LLVMBuildFAdd(L->b, start, LLVMBuildFMul(L->b, fi, step, ""), "")
                                    : LLVMBuildAdd(L->b, start, LLVMBuildMul(L->b, fi, step, ""), "");
  LLVMValueRef p = LLVMBuildInBoundsGEP2(L->b, lower_mem_type(L, t->dtype), lower_arr_data(L, a.v), &i, 1, "");
  lower_store_elem(L, t->dtype, p, lower_cast(L, (Val){ct, v, false}, ty_scalar(t->dtype)).v);
  LLVMBuildStore(L->b, LLVMBuildNSWAdd(L->b, i, lower_i64(L, 1), ""), ctr);
  LLVMBuildBr(L->b, head);
  LLVMPositionBuilderAtEnd(L->b, end);
  return a;
}

static Val lower_builtin(Lower *L, Node *n, CallInfo *ci) {
  const char *q = ci->qname;
  if (L->C->opt.gpu && L->C->target->cuda_call && !infer_math_fn(q) && strcmp(q, "math.log2arg") != 0 &&
      (strcmp(q, "grid") == 0 || strcmp(q, "gridsize") == 0 || strncmp(q, "sync", 4) == 0 ||
       strncmp(q, "threadfence", 11) == 0 || strstr(q, ".array") || strncmp(q, "atomic.", 7) == 0))
    return L->C->target->cuda_call(L, n, ci);
  if (infer_math_fn(q)) return lower_math(L, n, ci);
  if (strcmp(q, "numpy.power") == 0) {
    Val x = arg(L, ci, 0), y = arg(L, ci, 1);
    return (Val){lower_ann(L, n)->ty, lower_binop(L, OP_Pow, x, y, lower_ann(L, n)->ty, n->loc), false};
  }
  if (strcmp(q, "math.log2arg") == 0) {
    LLVMTypeRef dt = LLVMDoubleTypeInContext(L->ctx);
    LLVMValueRef x = lower_cast(L, arg(L, ci, 0), ty_float64).v, b = lower_cast(L, arg(L, ci, 1), ty_float64).v;
    (void)dt;
    LLVMValueRef lx = L->C->target->math_call(L, "log", "llvm.log", &x, 1, false);
    LLVMValueRef lb = L->C->target->math_call(L, "log", "llvm.log", &b, 1, false);
    return (Val){ty_float64, LLVMBuildFDiv(L->b, lx, lb, ""), false};
  }
  if (strcmp(q, "len") == 0) {
    Val a = arg(L, ci, 0);
    Val r = {ty_int64, a.ty->kind == TY_TUPLE ? lower_i64(L, a.ty->nelems) : lower_arr_shape(L, a.v, 0), false};
    lower_release(L, a);
    return r;
  }
  if (strcmp(q, "int") == 0 || strcmp(q, "float") == 0 || strcmp(q, "bool") == 0) return lower_cast(L, arg(L, ci, 0), lower_ann(L, n)->ty);
  if (strcmp(q, "abs") == 0) {
    Val x = lower_cast(L, arg(L, ci, 0), lower_ann(L, n)->ty);
    if (ty_is_float(lower_ann(L, n)->ty)) {
      return (Val){lower_ann(L, n)->ty, lower_fmath(L, "fabs", &x.v, 1), false};
    }
    if (!ty_is_signed(lower_ann(L, n)->ty)) return x;
    LLVMValueRef neg = LLVMBuildICmp(L->b, LLVMIntSLT, x.v, LLVMConstNull(LLVMTypeOf(x.v)), "");
    return (Val){lower_ann(L, n)->ty, LLVMBuildSelect(L->b, neg, LLVMBuildNeg(L->b, x.v, ""), x.v, ""), false};
  }
  if (strcmp(q, "round") == 0) return lower_round(L, n, ci);
  if (strcmp(q, "min") == 0 || strcmp(q, "max") == 0) return lower_minmax(L, n, ci);
  if (strcmp(q, "arange") == 0) return lower_arange(L, n, ci);
  return lower_np_alloc(L, n, ci);
}

/* arguments of a call to another specialization: arrays flattened */
static int push_args(Lower *L, FuncSpec *callee, CallInfo *ci, LLVMValueRef *out, Val *vals) {
  int k = 0;
  for (int i = 0; i < ci->nargs; i++) {
    Type *pt = callee->argtypes[i];
    vals[i] = lower_cast(L, lower_expr(L, ci->args[i]), pt);
    lower_hold(L, vals[i]);  /* until the call (call_spec drops it): later arguments may raise */
    if (pt->kind == TY_ARRAY) {
      out[k++] = lower_arr_mi(L, vals[i].v);
      out[k++] = lower_arr_data(L, vals[i].v);
      for (int d = 0; d < pt->ndim; d++) out[k++] = lower_arr_shape(L, vals[i].v, d);
      for (int d = 0; d < pt->ndim; d++) out[k++] = lower_arr_stride(L, vals[i].v, d);
    } else {
      out[k++] = vals[i].v;
    }
  }
  return k;
}

/* status != 0 from a callee: its error record is already filled in */
static void propagate(Lower *L, LLVMValueRef st) {
  LLVMBasicBlockRef bad = lower_block(L, "callerr"), ok = lower_block(L, "callok");
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntNE, st, lower_i32(L, 0), ""), bad, ok);
  LLVMPositionBuilderAtEnd(L->b, bad);
  LLVMBuildStore(L->b, st, L->status);
  lower_release_held(L);
  LLVMBuildBr(L->b, L->cleanup);
  LLVMPositionBuilderAtEnd(L->b, ok);
}

static Val call_spec(Lower *L, Node *n, FuncSpec *callee, LLVMValueRef fn, LLVMTypeRef fnty, CallInfo *ci) {
  LLVMValueRef args[4 * LM_MAXARGS + 2 * LM_MAXDIM * LM_MAXARGS];
  Val vals[LM_MAXARGS];
  Type *rt = callee->ret;
  LLVMValueRef ret = lower_entry_alloca(L, lower_type(L, rt), "cret");
  args[0] = L->err;
  args[1] = ret;
  int mark = L->nheld;
  int k = 2 + push_args(L, callee, ci, args + 2, vals);
  lower_unhold(L, mark);
  LLVMValueRef st = LLVMBuildCall2(L->b, fnty, fn, args, (unsigned)k, "");
  for (int i = 0; i < ci->nargs; i++) lower_release(L, vals[i]);
  propagate(L, st);
  (void)n;
  return (Val){rt, LLVMBuildLoad2(L->b, lower_type(L, rt), ret, ""), L->refcount && rt->kind != TY_SCALAR};
}

Val lower_call(Lower *L, Node *n) {
  CallInfo *ci = lower_ann(L, n)->aux;
  switch (ci->kind) {
    case CALL_BUILTIN: return lower_builtin(L, n, ci);
    case CALL_CAST: return lower_cast(L, arg(L, ci, 0), lower_ann(L, n)->ty);
    case CALL_METHOD: {
      Val a = lower_expr(L, ci->recv);
      return lower_array_method(L, n, ci->qname, a, ci->args, ci->nargs);
    }
    case CALL_DEF: return call_spec(L, n, ci->callee, ci->callee->fn, ci->callee->fnty, ci);
    case CALL_DISPATCHER: {
      LLVMTypeRef fnty;
      LLVMValueRef fn = lower_declare_callee(L, ci->callee, &fnty);
      return call_spec(L, n, ci->callee, fn, fnty, ci);
    }
  }
  LM_UNREACHABLE();
}
