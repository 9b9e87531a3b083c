/*
** builtin_vectorize.c — the registry row numba.vectorize: the decorator
** itself is no function of compiled code; a call of a @vectorize def
** (typed by infer_vectorize.c) is lowered here. On arrays it is an inner
** node of the array expression around it, as NumPy's ufunc rows are
** (lower_ufunc.c): its element is a call of the scalar kernel (ci->callee),
** the result cast to the loop's output dtype; with out, the fused store of
** lower_arraystore.c.
*/
#include "builtin_hooks.h"

Type *bvectorize_infer(Infer *I, Node *n, const BuiltinName *nm) {
  (void)nm;
  compile_error(I->C, n->loc, "TypingError",
                "vectorize is a decorator: compiled code calls the ufunc a @vectorize def makes, not vectorize itself");
}

Val bvectorize_elem(Lower *L, Node *n, CallInfo *ci, Val *x) {
  (void)n;
  return lower_cast(L, lower_call_spec_vals(L, ci->callee, x), ty_scalar(ci->dt));
}

Val bvectorize_lower(Lower *L, Node *n, CallInfo *ci) {
  if (ci->out) return lower_ufunc_out(L, n, ci);
  if (lower_ann(L, n)->ty->kind == TY_ARRAY) {
    if (L->C->target->array_expr == NULL)
      compile_error(L->C, n->loc, "UnsupportedError", "ufuncs on arrays are not supported on this target");
    return L->C->target->array_expr(L, n);
  }
  Val x[LM_MAXARGS];
  for (int i = 0; i < ci->nargs; i++) x[i] = lower_expr(L, ci->args[i]);
  return bvectorize_elem(L, n, ci, x);
}
