/*
** infer.h — shared by the inference files (statements in infer.c,
** expressions in infer_expr.c, calls and builtins in infer_call.c).
*/
#ifndef infer_h
#define infer_h

#include "builtins.h"
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
/* elementwise operations on arrays (infer_arrayexpr.c); NULL: not defined */
Type *infer_arrayexpr_binop(Infer *I, OpKind op, Type *a, Type *b, Loc loc);
Type *infer_arrayexpr_unary(Infer *I, OpKind op, Type *a, Loc loc);
DType infer_arrayexpr_common(const Type *a, const Type *b);
/* np.can_cast(f, t, 'safe' / 'same_kind') (builtin_ufunc.c; infer_vectorize.c
   chooses its loops with them too) */
bool ufunc_cast_safe(DType f, DType t);
bool ufunc_cast_same_kind(DType f, DType t);
/* target op= v on an array target: the operation's type (same_kind cast back checked) */
Type *infer_arrayexpr_inplace(Infer *I, OpKind op, Type *target, Type *v, Loc loc);
/* TypingError: an array used for one truth value (not, and, or, chained comparisons) */
l_noret infer_arrayexpr_ambiguous(Infer *I, Type *a, Loc loc);
/* Numba's SSA renaming of top-level reassignments (infer_ssa.c): x, x.1, x.2 */
void infer_ssa_rename(Compile *C, Node *def);
const char *infer_shown_name(Compile *C, const char *name);  /* "x.1" as the user wrote it: "x" */
const char *infer_arrayexpr_ufunc(OpKind op);  /* NumPy's ufunc for an operator: "add" */
Type *infer_call(Infer *I, Node *n);
/* record dtypes (infer_record.c): n is r['x'] / a['x'] with a constant
** string; the type of field name of base (Numba's error when not there);
** whether a.x names a field of a record array; the check of a store */
bool infer_record_key(const Node *n, const Type *base);
Type *infer_record_field(Compile *C, Loc loc, Type *base, const char *name);
bool infer_record_has(const Type *base, const char *name);
void infer_record_store(Compile *C, Node *target, Type *base, Type *ft, const char *name, Type *t);
void infer_raise(Infer *I, Node *s);
void infer_set_local(Infer *I, int slot, Type *t, Loc loc);
/* a hidden local "what@line:col" of type t, for a value the code at n keeps
** until it runs again or the function returns (cleanup releases it): its slot */
int infer_hidden_local(Infer *I, const char *what, Node *n, Type *t);
/* a module constant (SYM_FROZEN) used by name: a hidden local of that name, its value computed at entry (infer.c) */
Sym infer_frozen(Infer *I, Node *name, Node *value);
void infer_frozen_value(Infer *I, int slot);  /* types the value again, each pass */
/* the dtype named by a dtype argument (np.float32, float, "int32", a dtype value); -1 if not one, -2 not typed yet */
int infer_dtype_arg(Infer *I, Node *n);

/* what a Call's annotation (aux) tells the lowering */
typedef enum CallKind {
  CALL_BUILTIN = 1,  // qname: a builtin, see lower_call.c
  CALL_DEF,
  CALL_DISPATCHER,
  CALL_CAST,
  CALL_METHOD,
  CALL_NEW,          // a new @jitclass instance, its fields zero (the class's own __new__ def only)
} CallKind;

/* infer_class.c: @jitclass instances in compiled code */
/* n's type, an Optional kept as such (y = x, return x, x is None) where infer_expr unwraps it to its number */
Type *infer_expr_opt(Infer *I, Node *n);
/* x is an optional number field of an instance (inst.val of optional(float64)) */
bool infer_class_optional(Infer *I, Node *x);
/* a is None / a is not None tested at run time: an instance or an optional number field against None */
bool infer_class_is_none(Infer *I, Node *a, Node *b);
Type *infer_class_attr(Infer *I, Node *n, Type *base);               /* inst.field, inst.property */
Type *infer_class_method(Infer *I, Node *n, Type *base);             /* inst.method(...) */
Type *infer_class_call(Infer *I, Node *n, ClassInfo *c);             /* Bag(...) */
void infer_class_store(Infer *I, Node *target, Type *base, Type *t); /* inst.field = v */

typedef struct CallInfo {
  CallKind kind;
  const char *qname;     // builtin or method name
  BuiltinId bi;          // CALL_BUILTIN / CALL_METHOD: its registry entry (builtins.def)
  FuncSpec *callee;      // CALL_DEF; CALL_DISPATCHER: the other dispatcher's code (no def, CompileHooks.callee)
  DType dt;              // CALL_CAST / allocation dtype
  Node *recv;            // CALL_METHOD: the array the method works on
  Node **args;           // positional arguments after keywords and defaults are placed
  int nargs;
  int64_t dims[LM_MAXDIM]; // cuda.shared.array / cuda.local.array: constant shape
  int ndims;
  bool ufunc;            // a NumPy ufunc (builtin_ufunc.c, or a @vectorize def: callee): dt is its loop's dtype,
  DType dt_out;          // a ufunc: its output's dtype (bool for predicates, float for abs of complex)
  Node *out;             // its output array, NULL if none
} CallInfo;

/* what the typing hooks of builtins (builtin_*.c) share (infer_call.c) */
CallInfo *infer_new_info(Infer *I, Node *n, CallKind kind, const char *qname);
void infer_no_keywords(Infer *I, Node *n, const char *fname);
void infer_nargs(Infer *I, Node *n, const char *fname, int lo, int hi);   /* lo..hi arguments */
void infer_only_keywords(Infer *I, Node *n, const char *fname, const char *const *allowed);
Node *infer_arg_or_kw(Node *n, int pos, const char *name);  /* the keyword, or argument pos; NULL if absent */
DType infer_dtype_of(Infer *I, Node *n, DType dflt);       /* a dtype argument (dflt if n is NULL) */
DType infer_dtype_of_any(Infer *I, Node *n, DType dflt);   /* the same, record dtypes too (np.zeros, np.empty) */
bool infer_arg_types(Infer *I, Node **args, int n, Type **out);  /* false while one is unknown */
Type *infer_scalar_arg(Infer *I, Node *a, Type *t, const char *fname);  /* t, when a number */
bool infer_static_int(Infer *I, Node *n, int64_t *v);      /* a literal or frozen integer */
/* a def call's arguments in its parameters' order: pos, n's keywords, the defaults */
Node **infer_place_args(Infer *I, Node *n, Node *def, const char *fname, Node **pos, int npos, int *nout);
void infer_check_none_args(Infer *I, Node *def, const char *fname, Node **args, Type **at, int na);
/* a.name(args), by method id (BI_NONE: a has no such method) */
Type *infer_method(Infer *I, Node *n, BuiltinId id, Node *recv, Type *a, const char *name, Node **args, int nargs);

/* Lua 5.4 semantics (infer_lua.c), asked where opt.lua is set */
Type *infer_lua_binop_type(Infer *I, OpKind op, Type *a, Type *b, Loc loc);
void infer_lua_cond(Infer *I, Node *n, Type *t);      /* a condition must be a boolean */
void infer_lua_unary(Infer *I, Node *n, Type *a);
Type *infer_lua_boolop(Infer *I, Node *n);
void infer_lua_compare(Infer *I, Node *n, OpKind op, Type *l, Type *r);
int64_t infer_lua_tuple_index(int64_t k, int n);       /* 1-based k → 0-based; n when out of range */
Type *infer_lua_for(Infer *I, Node *s);               /* numeric for: the variable's type, NULL while unknown */

/* a call of a @vectorize def (infer_vectorize.c): false if def is a plain def */
bool infer_vectorize_call(Infer *I, Node *n, Node *def, Type **result);

#endif
