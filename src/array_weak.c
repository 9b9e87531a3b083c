/*
** array_weak.c — weak stand-ins for the array.c functions that the CUDA
** code calls, so that the cuda branch builds and its tests run before the
** array runtime lands. Every definition here is weak: array.c's real ones
** replace them at link time. Delete this file once array.c has them.
*/
#include <string.h>

#include <lauxlib.h>

#include "array.h"

#define WEAK __attribute__((weak))

WEAK const char *const dtype_names[DT__COUNT] = {
#define DTYPE(e, name, ctype, size, kind) name,
#include "dtype.def"
#undef DTYPE
};

WEAK const int dtype_sizes[DT__COUNT] = {
#define DTYPE(e, name, ctype, size, kind) size,
#include "dtype.def"
#undef DTYPE
};

WEAK int dtype_from_name(const char *name) {
  for (int i = 0; i < DT__COUNT; i++)
    if (strcmp(name, dtype_names[i]) == 0) return i;
  return -1;
}

WEAK DType dtype_check(lua_State *L, int idx, DType dflt) {
  if (lua_isnoneornil(L, idx)) return dflt;
  int dt = dtype_from_name(luaL_checkstring(L, idx));
  if (dt < 0) luaL_argerror(L, idx, lua_pushfstring(L, "unknown dtype '%s'", lua_tostring(L, idx)));
  return (DType)dt;
}

WEAK NdArray *array_test(lua_State *L, int idx) {
  return luaL_testudata(L, idx, ARRAY_MT);
}

WEAK NdArray *array_check(lua_State *L, int idx) {
  return luaL_checkudata(L, idx, ARRAY_MT);
}

WEAK void array_push_elem(lua_State *L, DType dt, const void *p) {
  switch (dt) {
#define DTYPE(e, name, ctype, size, kind) \
    case DT_##e: \
      if (kind == 'f') lua_pushnumber(L, (lua_Number)*(const ctype *)p); \
      else if (kind == 'b') lua_pushboolean(L, *(const ctype *)p != 0); \
      else lua_pushinteger(L, (lua_Integer)*(const ctype *)p); \
      break;
#include "dtype.def"
#undef DTYPE
    default: lua_pushnil(L);
  }
}

WEAK void array_store_elem(lua_State *L, DType dt, void *p, int idx, int argn) {
  if (dt == DT_BOOL) {
    *(uint8_t *)p = (uint8_t)lua_toboolean(L, idx);
    return;
  }
  if (!lua_isnumber(L, idx)) luaL_argerror(L, argn, "numbers expected");
  switch (dt) {
#define DTYPE(e, name, ctype, size, kind) \
    case DT_##e: \
      if (kind == 'f') *(ctype *)p = (ctype)lua_tonumber(L, idx); \
      else *(ctype *)p = (ctype)lua_tointeger(L, idx); \
      break;
#include "dtype.def"
#undef DTYPE
    default: break;
  }
}

static int array_lua_weak_gc(lua_State *L) {
  NdArray *a = luaL_checkudata(L, 1, ARRAY_MT);
  nrt_decref(a->s.meminfo);
  a->s.meminfo = NULL;
  return 0;
}

static void push_table(lua_State *L, const NdArray *a, const char *p, int dim) {
  lua_createtable(L, (int)a->s.shape[dim], 0);
  for (int64_t i = 0; i < a->s.shape[dim]; i++) {
    const char *q = p + i * a->s.strides[dim];
    if (dim + 1 < a->ndim) push_table(L, a, q, dim + 1);
    else array_push_elem(L, a->dtype, q);
    lua_rawseti(L, -2, i + 1);
  }
}

/* a:totable(), the one method the CUDA specs read results with */
static int array_lua_weak_totable(lua_State *L) {
  NdArray *a = luaL_checkudata(L, 1, ARRAY_MT);
  if (a->ndim == 0) array_push_elem(L, a->dtype, a->s.data);
  else push_table(L, a, a->s.data, 0);
  return 1;
}

WEAK NdArray *array_push_struct(lua_State *L, const ArrayStruct *s, DType dt, int ndim) {
  NdArray *a = lua_newuserdatauv(L, sizeof *a, 1);
  a->s = *s;
  a->dtype = dt;
  a->ndim = ndim;
  a->flags = 0;
  if (luaL_newmetatable(L, ARRAY_MT)) {
    lua_pushcfunction(L, array_lua_weak_gc);
    lua_setfield(L, -2, "__gc");
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, array_lua_weak_totable);
    lua_setfield(L, -2, "totable");
    lua_setfield(L, -2, "__index");
  }
  lua_setmetatable(L, -2);
  return a;
}

WEAK NdArray *array_push_new(lua_State *L, DType dt, int ndim, const int64_t *shape) {
  ArrayStruct s = {.itemsize = dtype_sizes[dt], .nitems = 1};
  for (int i = ndim - 1; i >= 0; i--) {
    s.shape[i] = shape[i];
    s.strides[i] = s.nitems * s.itemsize;
    s.nitems *= shape[i];
  }
  s.meminfo = nrt_alloc((size_t)(s.nitems * s.itemsize));
  if (s.meminfo == NULL) luaL_error(L, "not enough memory");
  s.data = s.meminfo->data;
  return array_push_struct(L, &s, dt, ndim);
}
