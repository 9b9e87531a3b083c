/*
** builtin_dtype.c — dtypes as values: a.dtype and np.dtype(x). A dtype
** value's type is ty_dtype(dt) (types.h), so it is known at compile time:
** a function taking one specialises on it, as Numba's does, and its value,
** dt.itemsize and dt == np.float64 fold to constants (lower_expr.c).
*/
#include "builtin_hooks.h"
#include "record.h"

/* a.dtype */
Type *bdtype_infer_attr(Infer *I, Node *n, const BuiltinName *nm, Type *base) {
  (void)n;
  (void)nm;
  (void)I;
  return ty_dtype(base->dtype);
}

Val bdtype_lower_attr(Lower *L, Node *n, BuiltinId id, Val base) {
  (void)n;
  (void)id;
  lower_release(L, base);
  Type *t = ty_dtype(base.ty->dtype);
  return (Val){t, LLVMConstInt(lower_type(L, t), (unsigned long long)t->dtype, 0), false};
}

/* np.dtype([('x', np.float64), ...], align=...): the record dtype; -2 not typed yet */
static int record_dtype(Infer *I, Node *list, Node *align) {
  Compile *C = I->C;
  int n = list->elts.len;
  if (n == 0 || n > 4096) compile_error(C, list->loc, "TypingError", "a record dtype needs 1 to 4096 fields");
  bool aligned = false;
  if (align) {
    if (align->kind != ND_Constant || (align->ckind != CK_BOOL && align->ckind != CK_INT))
      compile_error(C, align->loc, "TypingError", "np.dtype(align=...) must be True or False");
    aligned = align->ckind == CK_BOOL ? align->bval : align->ival != 0;
  }
  const char **names = arena_alloc(C->A, sizeof(char *) * (size_t)n);
  DType *types = arena_alloc(C->A, sizeof(DType) * (size_t)n);
  for (int i = 0; i < n; i++) {
    Node *e = list->elts.items[i];
    if (e->kind != ND_Tuple || e->elts.len != 2 || e->elts.items[0]->kind != ND_Constant ||
        e->elts.items[0]->ckind != CK_STR)
      compile_error(C, e->loc, "TypingError", "a record field is a tuple ('name', dtype)");
    names[i] = e->elts.items[0]->sval;
    int dt = infer_dtype_arg(I, e->elts.items[1]);
    if (dt == -2) return -2;
    if (dt < 0) compile_error(C, e->elts.items[1]->loc, "TypingError", "field '%s' needs a dtype", names[i]);
    types[i] = (DType)dt;
  }
  char err[160];
  int dt = record_intern(n, names, types, NULL, 0, aligned, err, sizeof err);
  if (dt < 0) compile_error(C, list->loc, "TypingError", "%s", err);
  return dt;
}

/* np.dtype('float32'), np.dtype(np.int32), np.dtype(a.dtype), np.dtype(float);
** np.dtype([('x', np.float64), ('n', 'i4')], align=True), a record (infer_record.c) */
Type *bdtype_infer_dtype(Infer *I, Node *n, const BuiltinName *nm) {
  const Builtin *b = builtin_of(nm);
  infer_only_keywords(I, n, b->member, b->keywords);
  infer_nargs(I, n, b->member, b->lo, b->hi);
  CallInfo *ci = infer_new_info(I, n, CALL_BUILTIN, b->name);
  ci->bi = nm->id;
  Node *a = infer_arg_or_kw(n, 0, "dtype");
  if (a == NULL) compile_error(I->C, n->loc, "TypingError", "np.dtype() needs a dtype");
  int dt = a->kind == ND_List ? record_dtype(I, a, infer_arg_or_kw(n, 1, "align"))  /* a record */
                              : infer_dtype_arg(I, a);
  if (dt == -2) return NULL;
  if (dt < 0)
    compile_error(I->C, a->loc, "TypingError", "np.dtype() needs a dtype or its name such as 'float32'");
  ci->dt = (DType)dt;
  return ty_dtype(ci->dt);
}

Val bdtype_lower_dtype(Lower *L, Node *n, CallInfo *ci) {
  (void)n;
  Type *t = ty_dtype(ci->dt);
  return (Val){t, LLVMConstInt(lower_type(L, t), (unsigned long long)t->dtype, 0), false};
}
