/*
** builtin_hooks.h — how a builtin of the registry (builtins.def) is typed
** and lowered: one BuiltinHooks per entry, in the table builtin_table.c
** assembles from the family files (builtin_<family>.c). The generic call
** machinery (infer_call.c, lower_call.c, lower_array.c, infer_expr.c)
** reaches the hooks through Compile.builtins only, never by name, so the
** families sit above it and it never depends on them.
*/
#ifndef builtin_hooks_h
#define builtin_hooks_h

#include "builtins.h"
#include "lower.h"

typedef struct BuiltinHooks {
  /* FUNC: types the call n (nm: the name it was called by); leaves a CallInfo in n->aux */
  Type *(*infer)(Infer *I, Node *n, const BuiltinName *nm);
  Val (*lower)(Lower *L, Node *n, CallInfo *ci);
  /* METHOD: ci (made by infer_method) holds the receiver and arguments; a is the receiver's type */
  Type *(*infer_method)(Infer *I, Node *n, CallInfo *ci, Type *a);
  Val (*lower_method)(Lower *L, Node *n, BuiltinId id, Val a, Node **args, int nargs);  /* n may be NULL */
  /* ATTR: base is the array's type, NULL for a module's value (cuda.threadIdx.x) */
  Type *(*infer_attr)(Infer *I, Node *n, const BuiltinName *nm, Type *base);
  Val (*lower_attr)(Lower *L, Node *n, BuiltinId id, Val base);  /* releases base */
} BuiltinHooks;

extern const BuiltinHooks builtin_table[BI__COUNT];

static inline Val lower_arg(Lower *L, CallInfo *ci, int i) { return lower_expr(L, ci->args[i]); }

/* ---- the families' hooks: what builtins.def names ---- */

/* builtin_math.c: scalar math and Python's builtins */
Type *bmath_infer_math(Infer *I, Node *n, const BuiltinName *nm);
Val bmath_lower_math(Lower *L, Node *n, CallInfo *ci);
Type *bmath_infer_number(Infer *I, Node *n, const BuiltinName *nm);  /* abs, int, float, bool */
Val bmath_lower_abs(Lower *L, Node *n, CallInfo *ci);
Val bmath_lower_cast(Lower *L, Node *n, CallInfo *ci);
Type *bmath_infer_len(Infer *I, Node *n, const BuiltinName *nm);
Val bmath_lower_len(Lower *L, Node *n, CallInfo *ci);
Type *bmath_infer_minmax(Infer *I, Node *n, const BuiltinName *nm);
Val bmath_lower_minmax(Lower *L, Node *n, CallInfo *ci);
Type *bmath_infer_binary(Infer *I, Node *n, const BuiltinName *nm);  /* np.maximum, np.minimum */
Val bmath_lower_maximum(Lower *L, Node *n, CallInfo *ci);
Val bmath_lower_minimum(Lower *L, Node *n, CallInfo *ci);
Type *bmath_infer_round(Infer *I, Node *n, const BuiltinName *nm);
Val bmath_lower_round(Lower *L, Node *n, CallInfo *ci);
Type *bmath_infer_power(Infer *I, Node *n, const BuiltinName *nm);
Val bmath_lower_power(Lower *L, Node *n, CallInfo *ci);
Type *bmath_infer_range(Infer *I, Node *n, const BuiltinName *nm);  /* outside a for: an error */
Type *bmath_infer_print(Infer *I, Node *n, const BuiltinName *nm);  /* an error */

#endif
