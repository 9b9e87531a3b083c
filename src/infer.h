/*
** infer.h — shared by the inference files (statements in infer.c,
** expressions in infer_expr.c, calls and builtins in infer_call.c).
*/
#ifndef infer_h
#define infer_h

#include "compile.h"

typedef struct Infer {
  Compile *C;
  FuncSpec *spec;
  bool changed;   // a local or the return type changed this pass
  bool strict;    // final pass: unknown types are errors
} Infer;

/* n's annotations in the spec being inferred (compile.h: Ann), to read or write */
Ann *infer_ann_grow(Infer *I, const Node *n);
static inline Ann *infer_ann(Infer *I, const Node *n) {
  return n->id < I->spec->nanns ? &I->spec->anns[n->id] : infer_ann_grow(I, n);
}

Type *infer_expr(Infer *I, Node *n);
void infer_truth(Infer *I, Node *n);                      /* a condition: scalar */
Type *infer_subscript(Infer *I, Node *n, bool store);
Type *infer_binop_type(Infer *I, OpKind op, Type *a, Type *b, Loc loc);
Type *infer_call(Infer *I, Node *n);
void infer_raise(Infer *I, Node *s);
void infer_set_local(Infer *I, int slot, Type *t, Loc loc);
/* the dtype named by a dtype argument (np.float32, float, "int32"); -1 if not one */
int infer_dtype_arg(Infer *I, Node *n);

/* what a Call's annotation (aux) tells the lowering */
typedef enum CallKind {
  CALL_BUILTIN = 1,  // qname: a builtin, see lower_call.c
  CALL_DEF,
  CALL_DISPATCHER,
  CALL_CAST,
  CALL_METHOD,
} CallKind;

typedef struct CallInfo {
  CallKind kind;
  const char *qname;     // builtin or method name
  FuncSpec *callee;      // CALL_DEF; CALL_DISPATCHER: the other dispatcher's code (no def, CompileHooks.callee)
  DType dt;              // CALL_CAST / allocation dtype
  Node *recv;            // CALL_METHOD: the array the method works on
  Node **args;           // positional arguments after keywords and defaults are placed
  int nargs;
  int64_t dims[LM_MAXDIM]; // cuda.shared.array / cuda.local.array: constant shape
  int ndims;
} CallInfo;

/* Lua 5.4 semantics (infer_lua.c), asked where opt.lua is set */
Type *infer_lua_binop_type(Infer *I, OpKind op, Type *a, Type *b, Loc loc);
void infer_lua_cond(Infer *I, Node *n, Type *t);      /* a condition must be a boolean */
void infer_lua_unary(Infer *I, Node *n, Type *a);
Type *infer_lua_boolop(Infer *I, Node *n);
void infer_lua_compare(Infer *I, Node *n, OpKind op, Type *l, Type *r);
int64_t infer_lua_tuple_index(int64_t k, int n);       /* 1-based k → 0-based; n when out of range */
Type *infer_lua_for(Infer *I, Node *s);               /* numeric for: the variable's type, NULL while unknown */

#endif
