/*
** builtin_table.c — the one place that knows the families' hooks: the
** table of BuiltinHooks by id, assembled from builtins.def. The driver
** (pipeline.c) hands it to each compilation as Compile.builtins; nothing
** else refers to it, so the generic typing and lowering never depend on
** the family files (which depend on them).
*/
#include "builtin_hooks.h"

/* a FUNC row's lowering UFUNC: a NumPy ufunc, lowered by its family's call
** hook, which runs the element hook once on scalars or per element in a loop */
#define UFUNC bufunc_lower, .elem = bufunc_elem
/* a call of a @vectorize def (builtin_vectorize.c): a ufunc whose element is the def */
#define VECTORIZE bvectorize_lower, .elem = bvectorize_elem, .infer_def = infer_vectorize_call

const BuiltinHooks builtin_table[BI__COUNT] = {
#define FUNC(id, mod, mem, fam, inf, low, ...) [BI_##id] = {.infer = inf, .lower = low},
#define METHOD(id, mod, mem, fam, inf, low, ...) [BI_##id] = {.infer_method = inf, .lower_method = low},
#define ATTR(id, mod, mem, fam, inf, low, ...) [BI_##id] = {.infer_attr = inf, .lower_attr = low},
#define MATH(id, ...) [BI_##id] = {.infer = bmath_infer_math, .lower = bmath_lower_math, .elem = bufunc_elem},
/* the prelude's defs: typed as calls of defs (builtin_prelude.c), lowered as those */
#define PYFUNC(id, ...) [BI_##id] = {.infer = bprelude_infer},
#define PYMETHOD(id, ...) [BI_##id] = {.infer_method = bprelude_infer_method},
#include "builtins.def"
};
