/*
** builtins_lua.c — lumba.core.builtins(): the registry (builtins.def) as
** Lua tables, so the object mode (lua/lumba/objmode_calls.lua) takes its
** names, aliases and constants from the rows the compiler reads, without
** loading the backend. Only whether a row has compiled hooks is read here;
** the hooks themselves live in backend.so.
*/
#include <string.h>

#include <lauxlib.h>

#include "builtins.h"
#include "lm.h"

typedef struct Row {
  const char *kind;          // "function", "method", "attribute", "constant"; NULL: an alias
  const char *id, *module, *member, *family, *target;
  int lo, hi;
  const char *const *keywords;
  const char *objmode;       // NULL: implemented in the object mode
  const char *infer;         // its typing hook as written: "NULL" where compiled code has none
  double value;
  char result;               // MATH rows
  unsigned flags;            // ALIAS rows
  const char *impl;          // PYFUNC/PYMETHOD rows: the prelude's def
} Row;

#define KWS(...) ((const char *const[]){__VA_ARGS__, NULL})
#define OBJMODE NULL
#define NP BF_NUMPY

static const Row rows[] = {
#define FUNC(id, mod, mem, fam, inf, low, tgt, l, h, kw, om) \
  {"function", #id, mod, mem, #fam, #tgt, l, h, kw, om, #inf, 0, 0, 0, NULL},
#define METHOD(id, mod, mem, fam, inf, low, tgt, l, h, kw, om) \
  {"method", #id, mod, mem, #fam, #tgt, l, h, kw, om, #inf, 0, 0, 0, NULL},
#define ATTR(id, mod, mem, fam, inf, low, tgt, om) {"attribute", #id, mod, mem, #fam, #tgt, 0, 0, NULL, om, #inf, 0, 0, 0, NULL},
#define MATH(id, mod, mem, base, n, res, intr) {"function", #id, mod, mem, "math", "ANY", n, n, NULL, NULL, "", 0, res, 0, NULL},
#define CONST(id, mod, mem, v) {"constant", #id, mod, mem, "math", "ANY", 0, 0, NULL, NULL, "", v, 0, 0, NULL},
#define PYFUNC(id, mod, mem, im, tgt, l, h, kw, om) \
  {"function", #id, mod, mem, "prelude", #tgt, l, h, kw, om, "bprelude_infer", 0, 0, 0, #im},
#define PYMETHOD(id, mod, mem, im, tgt, l, h, kw, om) \
  {"method", #id, mod, mem, "prelude", #tgt, l, h, kw, om, "bprelude_infer_method", 0, 0, 0, #im},
#define ALIAS(id, mod, mem, fl) {NULL, #id, mod, mem, NULL, NULL, 0, 0, NULL, NULL, NULL, 0, 0, fl, NULL},
#include "builtins.def"
};

static void set_str(lua_State *L, const char *k, const char *v) {
  lua_pushstring(L, v);
  lua_setfield(L, -2, k);
}

/* {name =, module =, member =, numpy =} of a row; module without its dot */
static void push_name(lua_State *L, const Row *r) {
  lua_createtable(L, 0, 4);
  lua_pushfstring(L, "%s%s", r->module, r->member);
  lua_setfield(L, -2, "name");
  size_t n = strlen(r->module);
  lua_pushlstring(L, r->module, n ? n - 1 : 0);
  lua_setfield(L, -2, "module");
  set_str(L, "member", r->member);
  lua_pushboolean(L, (r->flags & BF_NUMPY) != 0);
  lua_setfield(L, -2, "numpy");
}

static void push_entry(lua_State *L, const Row *r) {
  lua_createtable(L, 0, 16);
  lua_pushfstring(L, "%s%s", r->module, r->member);
  lua_setfield(L, -2, "name");
  set_str(L, "id", r->id);
  set_str(L, "kind", r->kind);
  set_str(L, "family", r->family);
  set_str(L, "target", r->target[0] == 'A' ? "any" : r->target[0] == 'C' ? "cpu" : "gpu");  /* ANY CPU GPU */
  lua_pushinteger(L, r->lo);
  lua_setfield(L, -2, "lo");
  if (r->hi >= 0) {
    lua_pushinteger(L, r->hi);
    lua_setfield(L, -2, "hi");
  }
  if (r->keywords) {
    lua_newtable(L);
    for (int i = 0; r->keywords[i]; i++) {
      lua_pushstring(L, r->keywords[i]);
      lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "keywords");
  }
  if (r->objmode) lua_pushstring(L, r->objmode);
  else lua_pushboolean(L, 1);
  lua_setfield(L, -2, "objmode");
  lua_pushboolean(L, strcmp(r->infer, "NULL") != 0);
  lua_setfield(L, -2, "compiled");
  if (r->kind[0] == 'c') {
    lua_pushnumber(L, r->value);
    lua_setfield(L, -2, "value");
  }
  if (r->impl) set_str(L, "impl", r->impl);
  if (r->result) {
    lua_pushlstring(L, &r->result, 1);
    lua_setfield(L, -2, "result");
  }
  lua_newtable(L);  /* names: the canonical one first, then the aliases in row order */
  push_name(L, r);
  lua_rawseti(L, -2, 1);
  lua_setfield(L, -2, "names");
}

/* lumba.core.builtins() -> entries (in row order), index (every name in row order) */
static int builtins_lua_list(lua_State *L) {
  int n = (int)lm_countof(rows);
  lua_createtable(L, 0, 0);                 /* entries */
  int entries = lua_gettop(L);
  lua_createtable(L, n, 0);                 /* index */
  int index = lua_gettop(L);
  lua_createtable(L, 0, n);                 /* by id */
  int by_id = lua_gettop(L);
  for (int i = 0; i < n; i++) {
    const Row *r = &rows[i];
    lua_pushfstring(L, "%s%s", r->module, r->member);
    lua_rawseti(L, index, i + 1);
    if (r->kind == NULL) continue;
    push_entry(L, r);
    lua_pushvalue(L, -1);
    lua_setfield(L, by_id, r->id);
    lua_rawseti(L, entries, (lua_Integer)lua_rawlen(L, entries) + 1);
  }
  for (int i = 0; i < n; i++) {
    const Row *r = &rows[i];
    if (r->kind) continue;
    lua_getfield(L, by_id, r->id);
    lua_getfield(L, -1, "names");
    push_name(L, r);
    lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
    lua_pop(L, 2);
  }
  lua_pop(L, 1);
  return 2;
}

void builtins_open(lua_State *L) {
  lua_pushcfunction(L, builtins_lua_list);
  lua_setfield(L, -2, "builtins");
}
