/*
** lower_vectorize.c — a call of a @vectorize def (infer_vectorize.c). On
** arrays it is an inner node of the array expression around it, as NumPy's
** ufunc rows are (lower_ufunc.c): its element is a call of the scalar
** kernel, the result cast to the loop's output dtype; with out, the fused
** store of lower_arraystore.c.
*/
#include "lower.h"

Val lower_vectorize_elem(Lower *L, Node *n, CallInfo *ci, Val *x) {
  (void)n;
  return lower_cast(L, lower_call_spec_vals(L, ci->callee, x), ty_scalar(ci->dt));
}

Val lower_vectorize_call(Lower *L, Node *n, CallInfo *ci) {
  if (ci->out) return lower_ufunc_out(L, n, ci);
  if (lower_ann(L, n)->ty->kind == TY_ARRAY) {
    if (L->C->target->array_expr == NULL)
      compile_error(L->C, n->loc, "UnsupportedError", "ufuncs on arrays are not supported on this target");
    return L->C->target->array_expr(L, n);
  }
  Val x[LM_MAXARGS];
  for (int i = 0; i < ci->nargs; i++) x[i] = lower_expr(L, ci->args[i]);
  return lower_vectorize_elem(L, n, ci, x);
}
