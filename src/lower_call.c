/*
** lower_call.c — calls, the generic part: builtins and array methods
** through the registry's hooks (builtin_*.c), dtype casts, calls of other
** specializations (arguments flattened, the callee's status propagated).
*/
#include "builtin_hooks.h"

/* arguments of a call to another specialization: arrays flattened */
/* the receiver of inst.method(...) or inst.property, when n is one, else NULL */
static Node *receiver(Node *n, CallInfo *ci, const char **attr) {
  if (n == NULL) return NULL;
  Node *a = n->kind == ND_Call && n->func->kind == ND_Attribute ? n->func : n->kind == ND_Attribute ? n : NULL;
  if (a == NULL || ci->nargs == 0 || ci->args[0] != a->value) return NULL;
  *attr = a->name;
  return a->value;
}

static int push_args(Lower *L, Node *n, FuncSpec *callee, CallInfo *ci, LLVMValueRef *out, Val *vals) {
  int k = 0;
  const char *attr = NULL;
  Node *recv = receiver(n, ci, &attr);
  for (int i = 0; i < ci->nargs; i++) {
    Type *pt = callee->argtypes[i];
    vals[i] = lower_cast(L, lower_expr(L, ci->args[i]), pt);
    lower_hold(L, vals[i]);  /* until the call (call_spec drops it): later arguments may raise */
    if (i == 0 && recv && pt->kind == TY_CLASS) {  /* a method of None (an optional(node_type) field) */
      char msg[200];
      snprintf(msg, sizeof msg, "AttributeError: 'NoneType' object has no attribute '%s' (a %s instance was expected)",
               attr, pt->cls->name);
      lower_raise_if(L, LLVMBuildIsNull(L->b, vals[0].v, ""), LMERR_RAISE, msg);
    }
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

/* status != 0 from a callee: its error record is already filled in; an
** error of the prelude (np.linalg.cholesky's LinAlgError...) names the
** user's statement that called it, not the prelude's line */
static void propagate(Lower *L, LLVMValueRef st, FuncSpec *callee) {
  LLVMBasicBlockRef bad = lower_block(L, "callerr"), ok = lower_block(L, "callok");
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntNE, st, lower_i32(L, 0), ""), bad, ok);
  LLVMPositionBuilderAtEnd(L->b, bad);
  LLVMBuildStore(L->b, st, L->status);
  lower_note_where(L, compile_in_prelude(L->C, callee->def) && !compile_in_prelude(L->C, L->spec->def));
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
  int k = 2 + push_args(L, n, callee, ci, args + 2, vals);
  lower_unhold(L, mark);
  LLVMValueRef st = LLVMBuildCall2(L->b, fnty, fn, args, (unsigned)k, "");
  for (int i = 0; i < ci->nargs; i++) lower_release(L, vals[i]);
  propagate(L, st, callee);
  (void)n;
  return (Val){rt, LLVMBuildLoad2(L->b, lower_type(L, rt), ret, ""), L->refcount && rt->kind != TY_SCALAR};
}

const Target *lower_class_target(Lower *L, Node *n) {
  if (L->C->target->class_attr == NULL)
    compile_error(L->C, n->loc, "UnsupportedError", "@jitclass instances are not supported on the %s target",
                  L->C->target->name);
  return L->C->target;
}

Val lower_call_def(Lower *L, Node *n, CallInfo *ci) {
  return call_spec(L, n, ci->callee, ci->callee->fn, ci->callee->fnty, ci);
}

/* the specialisation callee called on scalar values (a @vectorize kernel's
** element, builtin_vectorize.c): each cast to its parameter's type */
Val lower_call_spec_vals(Lower *L, FuncSpec *callee, Val *x) {
  LLVMValueRef args[2 + LM_MAXARGS];
  Type *rt = callee->ret;
  LLVMValueRef ret = lower_entry_alloca(L, lower_type(L, rt), "uret");
  args[0] = L->err;
  args[1] = ret;
  for (int i = 0; i < callee->nargs; i++) args[2 + i] = lower_cast(L, x[i], callee->argtypes[i]).v;
  LLVMValueRef st = LLVMBuildCall2(L->b, callee->fnty, callee->fn, args, (unsigned)(2 + callee->nargs), "");
  propagate(L, st, callee);
  return (Val){rt, LLVMBuildLoad2(L->b, lower_type(L, rt), ret, ""), false};
}

Val lower_call(Lower *L, Node *n) {
  CallInfo *ci = lower_ann(L, n)->aux;
  switch (ci->kind) {
    case CALL_BUILTIN: return L->C->builtins[ci->bi].lower(L, n, ci);
    case CALL_CAST: return lower_cast(L, lower_arg(L, ci, 0), lower_ann(L, n)->ty);
    case CALL_METHOD: {
      Val a = lower_expr(L, ci->recv);
      return lower_array_method(L, n, ci->bi, a, ci->args, ci->nargs);
    }
    case CALL_DEF: return call_spec(L, n, ci->callee, ci->callee->fn, ci->callee->fnty, ci);
    case CALL_NEW: return lower_class_target(L, n)->class_new(L, n);
    case CALL_DISPATCHER: {
      LLVMTypeRef fnty;
      LLVMValueRef fn = lower_declare_callee(L, ci->callee, &fnty);
      return call_spec(L, n, ci->callee, fn, fnty, ci);
    }
  }
  LM_UNREACHABLE();
}
