/*
** jitclass.c — @jitclass on the core side: the class (userdata
** lumba.jitclass, made by core._jitclass from the spec lumba.load read),
** its instances (userdata lumba.jitclass_instance: one reference to the
** instance's MemInfo), fields read and written from Lua (core._jc_get,
** core._jc_set: lua/lumba/jitclass.lua adds methods and properties), and
** lm_class_new, which compiled code calls to make an instance. The class
** itself is made in jitclass_new.c.
*/
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "array.h"
#include "jitclass.h"
#include "udata.h"

#define INSTANCE_TAG UDATA_TAG('l', 'j', 'c', 'i')

typedef struct Instance {
  MemInfo *mi;  // one reference; NULL once collected
  ClassInfo *cls;
  uint32_t tag;
} Instance;

/* the last reference gone: the array and instance fields' references go
** too. A nested instance's own dtor runs in turn; past a depth, its buffer
** waits in a list the outermost dtor drains, so a long linked list
** (deferred_type) is freed without one C frame per node. */
typedef struct Pending {
  void *data;
  ClassInfo *cls;
  struct Pending *next;
} Pending;
static _Thread_local Pending *pending;
static _Thread_local int dtor_depth;

static void release_fields(void *data, ClassInfo *c) {
  for (int i = 0; i < c->nfields; i++) {
    MemInfo *mi;
    if (c->ftypes[i]->kind == TY_ARRAY)
      memcpy(&mi, (char *)data + c->offsets[i] + offsetof(ArrayStruct, meminfo), sizeof mi);
    else if (c->ftypes[i]->kind == TY_CLASS)
      memcpy(&mi, (char *)data + c->offsets[i], sizeof mi);  /* NULL (None): nrt_decref ignores it */
    else
      continue;
    nrt_decref(mi);
  }
  free(data);
}

static void instance_dtor(void *data, void *ud) {
  if (dtor_depth >= 64) {
    Pending *p = malloc(sizeof *p);
    if (p) {
      *p = (Pending){data, ud, pending};
      pending = p;
      return;
    }
  }
  dtor_depth++;
  release_fields(data, ud);
  while (dtor_depth == 1 && pending) {
    Pending *p = pending;
    pending = p->next;
    void *d = p->data;
    ClassInfo *c = p->cls;
    free(p);
    release_fields(d, c);
  }
  dtor_depth--;
}

MemInfo *lm_class_new(ClassInfo *c) {
  void *data = calloc(1, (size_t)(c->size ? c->size : 1));
  if (data == NULL) return NULL;
  MemInfo *mi = nrt_wrap(data, (size_t)c->size, instance_dtor, c);
  if (mi == NULL) free(data);
  return mi;
}

MemInfo *jitclass_test(lua_State *L, int idx, ClassInfo **cls) {
  Instance *in = UDATA_TEST(L, idx, Instance, INSTANCE_MT, INSTANCE_TAG);
  if (in == NULL || in->mi == NULL) return NULL;
  if (cls) *cls = in->cls;
  return in->mi;
}

void jitclass_push(lua_State *L, ClassInfo *cls, MemInfo *mi) {
  Instance *in = lua_newuserdatauv(L, sizeof(Instance), 1);
  in->mi = mi;
  in->cls = cls;
  in->tag = INSTANCE_TAG;
  luaL_setmetatable(L, INSTANCE_MT);
  lua_getfield(L, LUA_REGISTRYINDEX, CLASSES_KEY);  /* the instance keeps its class */
  lua_rawgetp(L, -1, cls);
  lua_setiuservalue(L, -3, 1);
  lua_pop(L, 1);
}

static Instance *check_instance(lua_State *L, int idx) {
  Instance *in = UDATA_CHECK(L, idx, Instance, INSTANCE_MT, INSTANCE_TAG);
  if (in->mi == NULL) luaL_error(L, "attempt to use a collected %s instance", in->cls->name);
  return in;
}

/* core._jc_field(instance_or_class, name) → the field's index, or nil */
static int jitclass_lua_field(lua_State *L) {
  Instance *in = UDATA_TEST(L, 1, Instance, INSTANCE_MT, INSTANCE_TAG);
  ClassInfo *c = in ? in->cls : luaL_checkudata(L, 1, JITCLASS_MT);
  int i = ty_class_field(c, luaL_checkstring(L, 2));
  if (i < 0) return 0;
  lua_pushinteger(L, i);
  return 1;
}

/* core._jc_get(instance, i): field i (an array field as a view sharing its memory) */
static int jitclass_lua_get(lua_State *L) {
  Instance *in = check_instance(L, 1);
  ClassInfo *c = in->cls;
  lua_Integer i = luaL_checkinteger(L, 2);
  luaL_argcheck(L, i >= 0 && i < c->nfields, 2, "no such field");
  Type *t = c->ftypes[i];
  char *p = (char *)in->mi->data + c->offsets[i];
  if (t->kind == TY_ARRAY) {
    ArrayStruct as;
    memcpy(&as, p, sizeof as);
    if (as.data == NULL && as.meminfo == NULL) return 0;  /* never assigned: None */
    nrt_incref(as.meminfo);
    array_push_struct(L, &as, t->dtype, t->ndim);
    return 1;
  }
  if (t->kind == TY_CLASS) {
    MemInfo *mi;
    memcpy(&mi, p, sizeof mi);
    if (mi == NULL) return 0;  /* never assigned, or None: nil */
    nrt_incref(mi);
    jitclass_push(L, t->cls, mi);
    return 1;
  }
  if (t->kind == TY_TUPLE) {  /* a table, 1-based */
    lua_createtable(L, t->nelems, 0);
    for (int k = 0; k < t->nelems; k++) {
      array_push_elem(L, t->elems[k]->dtype, p + ty_tuple_offset(t, k));
      lua_rawseti(L, -2, k + 1);
    }
    return 1;
  }
  if (c->fopt[i] && p[dtype_sizes[t->dtype]] == 0) return 0;  /* optional, None: nil */
  array_push_elem(L, t->dtype, p);
  return 1;
}

/* whether the Lua value at idx fits a number field of dtype dt */
static bool number_fits(lua_State *L, int idx, DType dt) {
  int lt = lua_type(L, idx);
  return dt == DT_BOOL ? lt == LUA_TBOOLEAN : dtype_kinds[dt] == 'f' ? lt == LUA_TNUMBER : lua_isinteger(L, idx);
}

/* the error for a value that does not fit; where: "" or " at [2]" (a tuple's element) */
static int bad_number(lua_State *L, ClassInfo *c, int i, const char *what, int idx, const char *where) {
  int lt = lua_type(L, idx);
  return luaL_error(L, "cannot set field '%s' of %s (%s) to %s%s%s", c->fnames[i], c->name, what,
                    lt == LUA_TNUMBER ? "the float " : luaL_typename(L, idx),
                    lt == LUA_TNUMBER ? lua_tostring(L, idx) : "", where);
}

/* a tuple field from a table of its numbers */
static int set_tuple(lua_State *L, ClassInfo *c, int i, char *p) {
  Type *t = c->ftypes[i];
  if (!lua_istable(L, 3) || lua_rawlen(L, 3) != (size_t)t->nelems)
    return luaL_error(L, "cannot set field '%s' of %s (%s) to %s (a table of %d numbers expected)", c->fnames[i], c->name,
                      t->name, lua_istable(L, 3) ? lua_pushfstring(L, "a table of %d values", (int)lua_rawlen(L, 3))
                                                 : luaL_typename(L, 3), t->nelems);
  _Alignas(16) char buf[LM_MAXARGS * 32];  /* elements of 16 bytes at most, each padded to its alignment */
  for (int k = 0; k < t->nelems; k++) {  /* all checked before any is stored */
    lua_rawgeti(L, 3, k + 1);
    DType dt = t->elems[k]->dtype;
    if (!number_fits(L, -1, dt)) {
      int at = lua_gettop(L);
      return bad_number(L, c, i, t->name, at, lua_pushfstring(L, " at [%d]", k + 1));
    }
    array_store_elem(L, dt, buf + ty_tuple_offset(t, k), lua_gettop(L), 3);
    lua_pop(L, 1);
  }
  memcpy(p, buf, (size_t)ty_tuple_offset(t, t->nelems));
  return 0;
}

/* core._jc_set(instance, i, value) */
static int jitclass_lua_set(lua_State *L) {
  Instance *in = check_instance(L, 1);
  ClassInfo *c = in->cls;
  lua_Integer i = luaL_checkinteger(L, 2);
  luaL_argcheck(L, i >= 0 && i < c->nfields, 2, "no such field");
  Type *t = c->ftypes[i];
  char *p = (char *)in->mi->data + c->offsets[i];
  if (t->kind == TY_ARRAY) {
    NdArray *a = array_test(L, 3);
    if (a == NULL || a->dtype != t->dtype || a->ndim != t->ndim || (t->layout == 'C' && !(a->flags & ARR_C_CONTIG)))
      return luaL_error(L, "cannot set field '%s' of %s (%s) to %s", c->fnames[i], c->name, t->name,
                        a ? lua_pushfstring(L, "a %s array of %d dimensions", dtype_names[a->dtype], a->ndim)
                          : luaL_typename(L, 3));
    ArrayStruct old;
    memcpy(&old, p, sizeof old);
    nrt_incref(a->s.meminfo);
    memcpy(p, &a->s, sizeof a->s);
    nrt_decref(old.meminfo);
    return 0;
  }
  if (t->kind == TY_CLASS) {
    ClassInfo *vc = NULL;
    MemInfo *mi = jitclass_test(L, 3, &vc);
    if (lua_isnil(L, 3) && c->fopt[i]) mi = NULL, vc = t->cls;  /* optional: nil is None */
    else if (mi == NULL || vc != t->cls)
      return luaL_error(L, "cannot set field '%s' of %s (%s) to %s", c->fnames[i], c->name, t->cls->name,
                        mi ? lua_pushfstring(L, "an instance of %s", vc->name) : luaL_typename(L, 3));
    MemInfo *old;
    memcpy(&old, p, sizeof old);
    if (mi) nrt_incref(mi);
    memcpy(p, &mi, sizeof mi);
    nrt_decref(old);
    return 0;
  }
  if (t->kind == TY_TUPLE) return set_tuple(L, c, i, p);
  if (c->fopt[i] && lua_isnil(L, 3)) {  /* optional: nil is None */
    p[dtype_sizes[t->dtype]] = 0;
    return 0;
  }
  if (!number_fits(L, 3, t->dtype)) return bad_number(L, c, i, t->name, 3, "");
  array_store_elem(L, t->dtype, p, 3, 3);
  if (c->fopt[i]) p[dtype_sizes[t->dtype]] = 1;
  return 0;
}

/* core._jc_class(instance) → its class, or nil */
static int jitclass_lua_class(lua_State *L) {
  if (!UDATA_TEST(L, 1, Instance, INSTANCE_MT, INSTANCE_TAG)) return 0;
  lua_getiuservalue(L, 1, 1);
  return 1;
}

static int instance_gc(lua_State *L) {
  Instance *in = UDATA_TEST(L, 1, Instance, INSTANCE_MT, INSTANCE_TAG);
  if (in && in->mi) {
    nrt_decref(in->mi);
    in->mi = NULL;
  }
  return 0;
}

void jitclass_open(lua_State *L) {
  luaL_newmetatable(L, JITCLASS_MT);
  lua_pop(L, 1);
  luaL_newmetatable(L, INSTANCE_MT);
  lua_pushcfunction(L, instance_gc);
  lua_setfield(L, -2, "__gc");
  lua_pushvalue(L, -1);
  lua_setfield(L, -3, "_jc_instance_mt");  /* lua/lumba/jitclass.lua fills in __index and co. */
  lua_pop(L, 1);
  lua_newtable(L);
  lua_setfield(L, LUA_REGISTRYINDEX, CLASSES_KEY);
  static const luaL_Reg fns[] = {
      {"_jc_field", jitclass_lua_field},
      {"_jc_get", jitclass_lua_get}, {"_jc_set", jitclass_lua_set},
      {"_jc_class", jitclass_lua_class}, {NULL, NULL},
  };
  luaL_setfuncs(L, fns, 0);
}
