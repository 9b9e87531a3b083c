/*
** builtins.c — the registry's static part: each entry's description and
** the index of every name, both const data expanded from builtins.def,
** and the lookup by name (a binary search over the sorted rows: no table
** to build at start-up, nothing mutable, so several lua_States may
** compile at once). The hooks are not here: builtin_table.c holds them.
*/
#include <stddef.h>
#include <string.h>

#include "builtins.h"

#define KWS(...) ((const char *const[]){__VA_ARGS__, NULL})
#define OBJMODE NULL

const Builtin builtin_entries[BI__COUNT] = {
/* the id is pasted in the row macros, before an argument such as `bool`
** could expand (stdbool.h's bool is a macro where the header is included) */
#define ENTRY(bi, mod, mem, k, fam, tgt, l, h, kw, om, v) ENTRY_IMPL(bi, mod, mem, k, fam, tgt, l, h, kw, om, v, NULL)
#define ENTRY_IMPL(bi, mod, mem, k, fam, tgt, l, h, kw, om, v, im) \
  [bi] = {.name = mod mem, .member = mem, .kind = k, .family = #fam, .target = BT_##tgt, \
               .lo = l, .hi = h, .keywords = kw, .objmode = om, .value = v, .impl = im},
#define FUNC(id, mod, mem, fam, inf, low, tgt, l, h, kw, om) ENTRY(BI_##id, mod, mem, BK_FUNC, fam, tgt, l, h, kw, om, 0)
#define METHOD(id, mod, mem, fam, inf, low, tgt, l, h, kw, om) ENTRY(BI_##id, mod, mem, BK_METHOD, fam, tgt, l, h, kw, om, 0)
#define ATTR(id, mod, mem, fam, inf, low, tgt, om) ENTRY(BI_##id, mod, mem, BK_ATTR, fam, tgt, 0, 0, NULL, om, 0)
#define MATH(id, mod, mem, base, arity, res, intr) ENTRY(BI_##id, mod, mem, BK_FUNC, math, ANY, arity, arity, NULL, NULL, 0)
#define CONST(id, mod, mem, v) ENTRY(BI_##id, mod, mem, BK_CONST, math, ANY, 0, 0, NULL, NULL, v)
#define PYFUNC(id, mod, mem, im, tgt, l, h, kw, om) ENTRY_IMPL(BI_##id, mod, mem, BK_FUNC, prelude, tgt, l, h, kw, om, 0, #im)
#define PYMETHOD(id, mod, mem, im, tgt, l, h, kw, om) ENTRY_IMPL(BI_##id, mod, mem, BK_METHOD, prelude, tgt, l, h, kw, om, 0, #im)
#include "builtins.def"
#undef ENTRY
#undef ENTRY_IMPL
};

const BuiltinName builtin_index[] = {
#define FUNC(id, mod, mem, ...) {mod mem, mem, BI_##id, 0},
#define METHOD(id, mod, mem, ...) {mod mem, mem, BI_##id, 0},
#define ATTR(id, mod, mem, ...) {mod mem, mem, BI_##id, 0},
#define MATH(id, mod, mem, ...) {mod mem, mem, BI_##id, 0},
#define CONST(id, mod, mem, ...) {mod mem, mem, BI_##id, 0},
#define ALIAS(id, mod, mem, fl) {mod mem, mem, BI_##id, fl},
#define PYFUNC(id, mod, mem, ...) {mod mem, mem, BI_##id, 0},
#define PYMETHOD(id, mod, mem, ...) {mod mem, mem, BI_##id, 0},
#define NP BF_NUMPY
#include "builtins.def"
#undef NP
};
const int builtin_nindex = (int)(sizeof builtin_index / sizeof builtin_index[0]);

/* strcmp(module member, name) without joining the two */
static int cmp_joined(const char *module, const char *member, const char *name) {
  size_t n = strlen(module);
  int c = strncmp(module, name, n);
  if (c != 0) return c;
  return strcmp(member, name + n);
}

const BuiltinName *builtin_find_member(const char *module, const char *member) {
  int lo = 0, hi = builtin_nindex - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    int c = cmp_joined(module, member, builtin_index[mid].name);
    if (c == 0) return &builtin_index[mid];
    if (c < 0) hi = mid - 1;
    else lo = mid + 1;
  }
  return NULL;
}

const BuiltinName *builtin_find(const char *name) { return builtin_find_member("", name); }
