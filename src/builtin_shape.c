/*
** builtin_shape.c — the shape family of the registry: the attributes
** a.shape, a.strides, a.size, a.ndim, a.itemsize, a.nbytes, a.T and the
** methods a.transpose() (with axes: builtin_view.c), a.copy(), a.astype(dtype), a.fill(value).
*/
#include "builtin_hooks.h"

static char transposed_layout(Type *a) { return a->layout == 'C' ? 'F' : a->layout == 'F' ? 'C' : 'A'; }

/* ---- attributes ---- */

/* shape, strides: a tuple of ndim integers */
Type *bshape_infer_dims(Infer *I, Node *n, const BuiltinName *nm, Type *base) {
  (void)n;
  (void)nm;
  Type *el[LM_MAXDIM];
  for (int i = 0; i < base->ndim; i++) el[i] = ty_int64;
  return ty_tuple(&I->C->S->types, el, base->ndim);
}

/* size, ndim, itemsize, nbytes */
Type *bshape_infer_count(Infer *I, Node *n, const BuiltinName *nm, Type *base) {
  (void)I;
  (void)n;
  (void)nm;
  (void)base;
  return ty_int64;
}

Type *bshape_infer_T(Infer *I, Node *n, const BuiltinName *nm, Type *base) {
  (void)n;
  (void)nm;
  return ty_array(&I->C->S->types, base->dtype, base->ndim, transposed_layout(base));
}

Val bshape_lower_dims(Lower *L, Node *n, BuiltinId id, Val a) {
  Type *t = a.ty;
  LLVMValueRef tv = LLVMGetUndef(lower_type(L, lower_ann(L, n)->ty));
  for (int k = 0; k < t->ndim; k++)
    tv = LLVMBuildInsertValue(L->b, tv, id == BI_ndarray_shape ? lower_arr_shape(L, a.v, k) : lower_arr_stride(L, a.v, k),
                              (unsigned)k, "");
  lower_release(L, a);
  return (Val){lower_ann(L, n)->ty, tv, false};
}

Val bshape_lower_count(Lower *L, Node *n, BuiltinId id, Val a) {
  (void)n;
  Type *t = a.ty;
  LLVMValueRef r;
  if (id == BI_ndarray_size || id == BI_ndarray_nbytes) {
    LLVMValueRef s = lower_i64(L, 1);
    for (int k = 0; k < t->ndim; k++) s = LLVMBuildMul(L->b, s, lower_arr_shape(L, a.v, k), "");
    if (id == BI_ndarray_nbytes) s = LLVMBuildMul(L->b, s, lower_i64(L, dtype_sizes[t->dtype]), "");
    r = s;
  } else if (id == BI_ndarray_ndim) {
    r = lower_i64(L, t->ndim);
  } else {  /* itemsize */
    r = lower_i64(L, dtype_sizes[t->dtype]);
  }
  lower_release(L, a);
  return (Val){ty_int64, r, false};
}

Val bshape_lower_T(Lower *L, Node *n, BuiltinId id, Val a) {
  (void)id;
  return bshape_lower_transpose(L, n, BI_ndarray_transpose, a, NULL, 0);
}

/* ---- methods ---- */

Type *bshape_infer_transpose(Infer *I, Node *n, CallInfo *ci, Type *a) {
  if (ci->nargs > 0) return bview_infer_axes(I, n, ci->args, ci->nargs, ci, a);  /* a.transpose(1, 0, 2) */
  return ty_array(&I->C->S->types, a->dtype, a->ndim, transposed_layout(a));
}

Type *bshape_infer_copy(Infer *I, Node *n, CallInfo *ci, Type *a) {
  if (ci->nargs > 0) compile_error(I->C, n->loc, "TypingError", "copy() takes no arguments (%d given)", ci->nargs);
  return ty_array(&I->C->S->types, a->dtype, a->ndim, 'C');
}

Type *bshape_infer_astype(Infer *I, Node *n, CallInfo *ci, Type *a) {
  if (ci->nargs != 1) compile_error(I->C, n->loc, "TypingError", "astype() takes 1 argument");
  ci->dt = infer_dtype_of(I, ci->args[0], DT_FLOAT64);
  return ty_array(&I->C->S->types, ci->dt, a->ndim, 'C');
}

Type *bshape_infer_fill(Infer *I, Node *n, CallInfo *ci, Type *a) {
  (void)a;
  if (ci->nargs != 1) compile_error(I->C, n->loc, "TypingError", "fill() takes 1 argument");
  Type *v = infer_expr(I, ci->args[0]);
  if (v) infer_scalar_arg(I, ci->args[0], v, "fill");
  return &ty_none;
}

Val bshape_lower_transpose(Lower *L, Node *n, BuiltinId id, Val a, Node **args, int nargs) {
  (void)args;
  if (nargs > 0) return bview_lower_method(L, n, id, a, args, nargs);
  Type *t = a.ty;
  LLVMValueRef shape[LM_MAXDIM], strides[LM_MAXDIM];
  for (int k = 0; k < t->ndim; k++) {
    shape[k] = lower_arr_shape(L, a.v, t->ndim - 1 - k);
    strides[k] = lower_arr_stride(L, a.v, t->ndim - 1 - k);
  }
  Type *rt = n ? lower_ann(L, n)->ty : t;
  return (Val){rt, lower_arr_make(L, rt, lower_arr_mi(L, a.v), lower_arr_data(L, a.v), shape, strides), a.owned};
}

static void copy_into(Lower *L, LLVMValueRef ptr, LLVMValueRef linear, void *ud) {
  struct { DType dt, ddt; LLVMValueRef ddata; } *c = ud;
  LLVMValueRef dp = LLVMBuildInBoundsGEP2(L->b, lower_mem_type(L, c->ddt), c->ddata, &linear, 1, "");
  Val x = {ty_scalar(c->dt), lower_load_elem(L, c->dt, ptr), false};
  lower_store_elem(L, c->ddt, dp, lower_cast(L, x, ty_scalar(c->ddt)).v);
}

/* copy and astype: a new C array (n NULL: a copy of the same dtype) */
Val bshape_lower_copy(Lower *L, Node *n, BuiltinId id, Val a, Node **args, int nargs) {
  (void)id;
  (void)args;
  (void)nargs;
  Type *t = a.ty;
  Type *rt = n ? lower_ann(L, n)->ty : ty_array(&L->C->S->types, t->dtype, t->ndim, 'C');
  LLVMValueRef shape[LM_MAXDIM];
  for (int k = 0; k < t->ndim; k++) shape[k] = lower_arr_shape(L, a.v, k);
  Val dst = lower_alloc_uninit(L, rt, shape);
  struct { DType dt, ddt; LLVMValueRef ddata; } c = {t->dtype, rt->dtype, lower_arr_data(L, dst.v)};
  lower_foreach(L, a, copy_into, &c);
  lower_release(L, a);
  return dst;
}

Val bshape_lower_fill(Lower *L, Node *n, BuiltinId id, Val a, Node **args, int nargs) {
  (void)n;
  (void)id;
  (void)nargs;
  lower_fill(L, a, lower_cast(L, lower_expr(L, args[0]), ty_scalar(a.ty->dtype)).v);
  lower_release(L, a);
  return (Val){&ty_none, LLVMConstInt(LLVMInt8TypeInContext(L->ctx), 0, 0), false};
}
