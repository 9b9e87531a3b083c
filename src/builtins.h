/*
** builtins.h — the registry of builtins (builtins.def): one id per entry,
** its static description, every name it goes by, and the lookup from a
** name to its entry. Code that must recognise a builtin compares ids
** (BI_len), never names. The hooks that type and lower an entry are
** elsewhere (builtin_hooks.h), so this header needs neither LLVM nor Lua.
*/
#ifndef builtins_h
#define builtins_h

/* BI_<id> for every entry, in the order of builtins.def */
typedef enum BuiltinId {
  BI_NONE,
#define FUNC(id, ...) BI_##id,
#define METHOD(id, ...) BI_##id,
#define ATTR(id, ...) BI_##id,
#define MATH(id, ...) BI_##id,
#define CONST(id, ...) BI_##id,
#define PYFUNC(id, ...) BI_##id,
#define PYMETHOD(id, ...) BI_##id,
#include "builtins.def"
  BI__COUNT
} BuiltinId;

typedef enum BuiltinKind { BK_FUNC, BK_METHOD, BK_ATTR, BK_CONST } BuiltinKind;
typedef enum BuiltinTarget { BT_ANY, BT_CPU, BT_GPU } BuiltinTarget;
enum { BF_NUMPY = 1 };  /* ALIAS flag NP: called by its NumPy name, with NumPy's semantics */

typedef struct Builtin {
  const char *name;             // canonical name: module and member ("math.sqrt", "ndarray.sum", "len")
  const char *member;           // the name without its module ("sqrt", "sum"): what messages show
  BuiltinKind kind;
  const char *family;           // its hooks are in src/builtin_<family>.c
  BuiltinTarget target;
  signed char lo, hi;           // positional arguments; hi -1: any number
  const char *const *keywords;  // keywords it takes, NULL-terminated; NULL: none
  const char *objmode;          // NULL: the object mode implements it; else why it is compiled-only
  double value;                 // BK_CONST
  const char *impl;             // PYFUNC/PYMETHOD: its def in the prelude (src/prelude/NAME.py); else NULL
} Builtin;

/* one name of an entry: its canonical name or an alias */
typedef struct BuiltinName {
  const char *name;             // "numpy.arcsin"
  const char *member;           // "arcsin"
  BuiltinId id;                 // BI_math_asin
  unsigned flags;               // BF_*
} BuiltinName;

extern const Builtin builtin_entries[BI__COUNT];
/* every name, in builtins.def order (sorted by name) */
extern const BuiltinName builtin_index[];
extern const int builtin_nindex;

/* the registry row of a name ("numpy.zeros", "len"); NULL if it has none */
const BuiltinName *builtin_find(const char *name);
/* the same for module member given apart ("ndarray.", "sum"): no string to build */
const BuiltinName *builtin_find_member(const char *module, const char *member);

static inline const Builtin *builtin_of(const BuiltinName *nm) { return &builtin_entries[nm->id]; }
/* the entry a name denotes; BI_NONE if none */
static inline BuiltinId builtin_id(const char *name) {
  const BuiltinName *nm = builtin_find(name);
  return nm ? nm->id : BI_NONE;
}
/* the same for module member given apart: builtin_member_id("ndarray.", "shape") == BI_ndarray_shape */
static inline BuiltinId builtin_member_id(const char *module, const char *member) {
  const BuiltinName *nm = builtin_find_member(module, member);
  return nm ? nm->id : BI_NONE;
}

/* builtins_lua.c (core.so): lumba.core.builtins(), the registry for the object mode */
struct lua_State;
void builtins_open(struct lua_State *L);

#endif
