/*
** builtin_cfunc.c — the @cfunc family of the registry: numba.carray and
** numba.farray, which view the memory a C pointer argument (CPointer(T),
** voidptr: an address held as int64, types.h TY_CPTR) points at as an
** array of a given shape. The array owns nothing (no meminfo), as Numba's:
** the caller of the cfunc keeps the memory alive.
*/
#include "builtin_hooks.h"

/* carray(ptr, shape[, dtype]): ptr a C pointer (or an integer address),
** shape an integer or a tuple of them; dtype needed for voidptr and
** integer addresses, else it must match the pointer's */
Type *bcfunc_infer_carray(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  CallInfo *ci;
  Node **args = bcreate_bind(I, n, nm, &ci);
  const char *fname = builtin_of(nm)->member;
  Type *pt = infer_expr(I, args[0]), *st = infer_expr(I, args[1]);
  if (pt == NULL || st == NULL) return NULL;
  bool typed = pt->kind == TY_CPTR && pt->layout != 'v';
  if (pt->kind != TY_CPTR && !ty_is_int(pt))
    compile_error(C, args[0]->loc, "TypingError", "%s() needs a C pointer (a CPointer or voidptr argument), not %s",
                  fname, tyname(C, pt));
  if (!typed && args[2] == NULL)
    compile_error(C, n->loc, "TypingError", "%s() of %s needs a dtype: %s(ptr, shape, dtype=np.float64)", fname,
                  tyname(C, pt), fname);
  DType dt = infer_dtype_of(I, args[2], typed ? pt->dtype : DT_FLOAT64);
  if (typed && args[2] && dt != pt->dtype)
    compile_error(C, args[2]->loc, "TypingError", "%s(): the dtype %s does not match the pointer's %s", fname,
                  dtype_names[dt], tyname(C, pt));
  int ndim = 1;
  if (st->kind == TY_TUPLE) {
    ndim = st->nelems;
    for (int i = 0; i < st->nelems; i++)
      if (!ty_is_int(st->elems[i]))
        compile_error(C, args[1]->loc, "TypingError", "shape elements must be integers, not %s", tyname(C, st->elems[i]));
    if (ndim < 1 || ndim > LM_MAXDIM)
      compile_error(C, args[1]->loc, "TypingError", "%s() needs 1 to %d dimensions", fname, LM_MAXDIM);
  } else if (!ty_is_int(st)) {
    compile_error(C, args[1]->loc, "TypingError", "a shape must be an integer or a tuple of integers, not %s",
                  tyname(C, st));
  }
  ci->dt = dt;
  ci->nargs = 2;
  return ty_array(&C->S->types, dt, ndim, nm->id == BI_numba_farray ? 'F' : 'C');
}

Val bcfunc_lower_carray(Lower *L, Node *n, CallInfo *ci) {
  Type *t = lower_ann(L, n)->ty;
  Val p = lower_arg(L, ci, 0);
  LLVMValueRef addr = p.ty->kind == TY_CPTR ? p.v : lower_cast(L, p, ty_int64).v;  /* a pointer is an int64 already */
  Val s = lower_arg(L, ci, 1);
  LLVMValueRef shape[LM_MAXDIM], strides[LM_MAXDIM];
  if (s.ty->kind == TY_TUPLE) {
    for (int k = 0; k < t->ndim; k++)
      shape[k] = lower_cast(L, (Val){s.ty->elems[k], LLVMBuildExtractValue(L->b, s.v, (unsigned)k, ""), false}, ty_int64).v;
  } else {
    shape[0] = lower_cast(L, s, ty_int64).v;
  }
  LLVMValueRef step = lower_i64(L, dtype_sizes[t->dtype]);
  for (int i = 0; i < t->ndim; i++) {
    int k = t->layout == 'F' ? i : t->ndim - 1 - i;  /* from the fastest axis */
    strides[k] = step;
    step = LLVMBuildMul(L->b, step, shape[k], "");
  }
  LLVMValueRef data = LLVMBuildIntToPtr(L->b, addr, LLVMPointerType(lower_mem_type(L, t->dtype), 0), "carray");
  LLVMValueRef mi = LLVMConstNull(LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0));
  return (Val){t, lower_arr_make(L, t, mi, data, shape, strides), false};
}
