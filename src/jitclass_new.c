/*
** jitclass_new.c — core._jitclass(name, fields, methods): a @jitclass's
** ClassInfo (types.h) from the spec lua/lumba/jitclass.lua read: each
** field's type, its offset in an instance's buffer (natural alignment; an
** array field is an ArrayStruct), the defs of its methods. The ClassInfo
** is a userdata (lumba.jitclass) kept by the state's registry, its arrays
** in the state's type arena: compiled code holds its address.
*/
#include <string.h>

#include <lauxlib.h>

#include "array.h"
#include "compile.h"
#include "jitclass.h"

static size_t field_size(const Type *t, bool opt) {
  if (t->kind == TY_ARRAY) return sizeof(ArrayStruct);
  if (t->kind == TY_CLASS) return sizeof(MemInfo *);  /* an instance: one reference (optional: NULL is None) */
  if (t->kind == TY_TUPLE) return (size_t)ty_tuple_offset(t, t->nelems);
  return (size_t)dtype_sizes[t->dtype] + (opt ? 1 : 0);  /* optional: the flag byte after the value */
}

/* a tuple field holds numbers only (compiled code and Lua copy them in and out) */
static bool numbers_tuple(const Type *t) {
  for (int i = 0; i < t->nelems; i++)
    if (t->elems[i]->kind != TY_SCALAR) return false;
  return t->nelems > 0;
}

/* core._jitclass(name, {{fname, type, optional}, ...}, {{mname, def name, is_property}, ...}) → class;
** a field's type is a type text, a class made before, or false: this class (a deferred_type) */
static int jitclass_lua_new(lua_State *L) {
  const char *name = luaL_checkstring(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  luaL_checktype(L, 3, LUA_TTABLE);
  LmState *S = lmstate_get(L);
  Arena *A = &S->types.arena;
  int nf = (int)lua_rawlen(L, 2), nm = (int)lua_rawlen(L, 3);
  ClassInfo *c = lua_newuserdatauv(L, sizeof(ClassInfo), 1);  /* 4: the class; its memory lives with the state */
  memset(c, 0, sizeof *c);
  c->name = arena_strdup(A, name);
  c->nfields = nf;
  c->fnames = arena_alloc(A, sizeof(char *) * (size_t)(nf + 1));
  c->ftypes = arena_alloc(A, sizeof(Type *) * (size_t)(nf + 1));
  c->offsets = arena_alloc(A, sizeof(int64_t) * (size_t)(nf + 1));
  c->fopt = arena_alloc(A, sizeof(bool) * (size_t)(nf + 1));
  int64_t off = 0;
  for (int i = 0; i < nf; i++) {
    lua_rawgeti(L, 2, i + 1);
    lua_rawgeti(L, -1, 1);
    lua_rawgeti(L, -2, 2);
    lua_rawgeti(L, -3, 3);
    bool opt = lua_toboolean(L, -1);
    lua_pop(L, 1);
    const char *fname = luaL_checkstring(L, -2);
    for (int k = 0; k < i; k++)
      if (strcmp(c->fnames[k], fname) == 0) return luaL_error(L, "field '%s' appears twice in the spec of %s", fname, name);
    Type *t;
    ClassInfo *fc = luaL_testudata(L, -1, JITCLASS_MT);
    if (fc) {
      t = &fc->type;  /* a class made before this one: it lives as long as the state */
    } else if ((lua_isboolean(L, -1) && !lua_toboolean(L, -1)) || lua_istable(L, -1)) {
      /* this class (a deferred_type): its userdata never moves; a table: a
      ** class defined later, held the same way (one reference), linked to it
      ** by core._jitclass_link once made */
      t = &c->type;
    } else {
      const char *tt = luaL_checkstring(L, -1);
      char sig[300], err[256];
      snprintf(sig, sizeof sig, "(%s)", tt);
      Type *ret, *args[2];
      int n = ty_parse_signature(&S->types, sig, &ret, args, 2, err, sizeof err);
      if (n != 1) return luaL_error(L, "the type of field '%s' of %s: %s", fname, name, n < 0 ? err : "one type expected");
      t = args[0];
      if (t->kind != TY_SCALAR && t->kind != TY_ARRAY && !(t->kind == TY_TUPLE && numbers_tuple(t)))
        return luaL_error(L, "field '%s' of %s: a jitclass field is a number, an array, a tuple of numbers "
                          "or a jitclass instance, not %s", fname, name, t->name);
      if (opt && t->kind != TY_SCALAR)
        return luaL_error(L, "field '%s' of %s: optional() takes a number type or a jitclass instance type, not %s",
                          fname, name, t->name);
    }
    size_t sz = field_size(t, opt), al = t->kind == TY_SCALAR ? (size_t)dtype_sizes[t->dtype] : 8;
    off = (off + (int64_t)al - 1) / (int64_t)al * (int64_t)al;
    c->fnames[i] = arena_strdup(A, fname);
    c->ftypes[i] = t;
    c->offsets[i] = off;
    c->fopt[i] = opt;
    off += (int64_t)sz;
    lua_pop(L, 3);
  }
  c->size = (off + 7) / 8 * 8;
  c->nmethods = nm;
  c->mnames = arena_alloc(A, sizeof(char *) * (size_t)(nm + 1));
  c->mdefs = arena_alloc(A, sizeof(char *) * (size_t)(nm + 1));
  c->mprops = arena_alloc(A, sizeof(bool) * (size_t)(nm + 1));
  for (int i = 0; i < nm; i++) {
    lua_rawgeti(L, 3, i + 1);
    lua_rawgeti(L, -1, 1);
    lua_rawgeti(L, -2, 2);
    lua_rawgeti(L, -3, 3);
    c->mnames[i] = arena_strdup(A, luaL_checkstring(L, -3));
    c->mdefs[i] = arena_strdup(A, luaL_checkstring(L, -2));
    c->mprops[i] = lua_toboolean(L, -1);
    lua_pop(L, 4);
  }
  c->type.kind = TY_CLASS;
  c->type.cls = c;
  c->type.name = c->name;
  luaL_setmetatable(L, JITCLASS_MT);
  /* the state keeps every class (instances made by compiled code find theirs) */
  lua_getfield(L, LUA_REGISTRYINDEX, CLASSES_KEY);
  lua_pushvalue(L, -2);
  lua_rawsetp(L, -2, c);
  lua_pop(L, 1);
  return 1;
}

/* core._jitclass_link(class, field index (1-based), other class): field i of
** class holds other's instances (mutually recursive deferred_types) */
static int jitclass_lua_link(lua_State *L) {
  ClassInfo *c = luaL_checkudata(L, 1, JITCLASS_MT);
  lua_Integer i = luaL_checkinteger(L, 2);
  ClassInfo *other = luaL_checkudata(L, 3, JITCLASS_MT);
  luaL_argcheck(L, i >= 1 && i <= c->nfields && c->ftypes[i - 1]->kind == TY_CLASS, 2, "not an instance field");
  c->ftypes[i - 1] = &other->type;  /* both live as long as the state */
  return 0;
}

void jitclass_new_open(lua_State *L) {
  lua_pushcfunction(L, jitclass_lua_link);
  lua_setfield(L, -2, "_jitclass_link");
  lua_pushcfunction(L, jitclass_lua_new);
  lua_setfield(L, -2, "_jitclass");
}
