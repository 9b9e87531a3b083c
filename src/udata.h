/*
** udata.h — telling lumba's userdata from impostors. A metatable alone does
** not: debug.setmetatable can give any userdata (a FILE*, a dispatcher) an
** array's metatable, and the methods would read its block as an array. So
** each kind's struct carries a tag, and a block is that kind only when its
** metatable, its size and its tag all agree. Methods raise for an impostor;
** __gc and __close leave it alone (also at lua_close).
*/
#ifndef udata_h
#define udata_h

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

/* the tags: four letters each, never 0 (a zeroed block is no object) */
#define UDATA_TAG(a, b, c, d) \
  ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

/* the block at idx if it is a T of metatable mt with tag; else NULL */
#define UDATA_TEST(L, idx, T, mt, tagval) \
  ((T *)udata_test((L), (idx), (mt), sizeof(T), offsetof(T, tag), (tagval)))
/* the same, raising "bad argument" for anything else */
#define UDATA_CHECK(L, idx, T, mt, tagval) \
  ((T *)udata_check((L), (idx), (mt), sizeof(T), offsetof(T, tag), (tagval)))

static inline void *udata_test(lua_State *L, int idx, const char *mt, size_t size, size_t tag_at, uint32_t tag) {
  void *p = luaL_testudata(L, idx, mt);
  if (p == NULL || lua_rawlen(L, idx) != size) return NULL;
  uint32_t t;
  memcpy(&t, (const char *)p + tag_at, sizeof t);
  return t == tag ? p : NULL;
}

static inline void *udata_check(lua_State *L, int idx, const char *mt, size_t size, size_t tag_at, uint32_t tag) {
  void *p = udata_test(L, idx, mt, size, tag_at, tag);
  if (p == NULL) {
    if (luaL_testudata(L, idx, mt))
      luaL_argerror(L, idx, lua_pushfstring(L, "%s expected, got another userdata given its metatable", mt));
    luaL_typeerror(L, idx, mt);
  }
  return p;
}

/* for __gc: the block, or NULL for an impostor (its metatable given to
** another userdata: left alone); raises for a value with another metatable
** (a __gc called by hand) */
#define UDATA_GC_TEST(L, idx, T, mt, tagval) \
  ((T *)udata_gc_test((L), (idx), (mt), sizeof(T), offsetof(T, tag), (tagval)))

static inline void *udata_gc_test(lua_State *L, int idx, const char *mt, size_t size, size_t tag_at, uint32_t tag) {
  if (!luaL_testudata(L, idx, mt)) luaL_typeerror(L, idx, mt);
  return udata_test(L, idx, mt, size, tag_at, tag);
}

/* __metatable of every lumba metatable: getmetatable(x) gives this name,
** setmetatable(x, ...) raises "cannot change a protected metatable" */
static inline void udata_protect(lua_State *L, int mt_idx, const char *name) {
  lua_pushstring(L, name);
  lua_setfield(L, mt_idx < 0 ? mt_idx - 1 : mt_idx, "__metatable");
}

#endif
