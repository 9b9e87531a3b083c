/*
** lower_ufunc.c — NumPy ufunc calls in the array lowering. A ufunc call over
** arrays is an inner node of an array expression (lower_arrayexpr.c asks
** here): its operands are fused into the same loop and its element comes
** from the builtin's element hook, reached through Compile.builtins. A call
** with an output array (out) is the fused store into out of
** lower_arraystore.c, overlaps found at run time, so the result is NumPy's.
*/
#include "builtin_hooks.h"

static CallInfo *ufunc_info(Lower *L, Node *n) {
  if (n->kind != ND_Call) return NULL;
  CallInfo *ci = lower_ann(L, n)->aux;
  if (ci == NULL || ci->kind != CALL_BUILTIN || !ci->ufunc || L->C->builtins[ci->bi].elem == NULL) return NULL;
  return ci;
}

bool lower_ufunc_inner(Lower *L, Node *n) {
  CallInfo *ci = ufunc_info(L, n);
  return ci && ci->out == NULL;  /* a call writing into out is a leaf: it runs on its own */
}

int lower_ufunc_operands(Lower *L, Node *n, Node ***args) {
  CallInfo *ci = ufunc_info(L, n);
  *args = ci->args;
  return ci->nargs;
}

Val lower_ufunc_elem(Lower *L, Node *n, Val *x) {
  CallInfo *ci = ufunc_info(L, n);
  return L->C->builtins[ci->bi].elem(L, n, ci, x);
}

Val lower_ufunc_out(Lower *L, Node *n, CallInfo *ci) {
  /* a CUDA kernel (a target with thread registers) loops in its thread, as numba-cuda's */
  if ((L->C->target->array_expr == NULL || !L->refcount) && L->C->target->sreg == NULL)
    compile_error(L->C, n->loc, "UnsupportedError", "ufuncs with an output array are not supported on this target");
  return lower_ufunc_store(L, n, ci->out);  /* the fused store of lower_arraystore.c */
}
