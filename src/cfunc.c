/*
** cfunc.c — the @cfunc object (userdata lumba.cfunc): a dispatcher compiled
** for one signature and the C entry point made for it (cfunc_jit.c in the
** backend). c.address is that entry's address as a Lua integer, valid while
** c is alive; c(...) calls the dispatcher; lumba_tocfunc (lumba.h)
** reads it from C.
*/
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "backend.h"
#include "dispatch.h"
#include "lumba.h"
#include "udata.h"

#define CFUNC_MT "lumba.cfunc"
#define CFUNC_TAG UDATA_TAG('l', 'c', 'f', 'n')

typedef struct CFunc {
  void *addr;    // the C entry point
  void *code;    // its JIT code (Backend.cfunc_release); NULL once released
  uint32_t tag;  // CFUNC_TAG
} CFunc;

/* uservalues: the dispatcher, the signature text */
enum { CF_UV_DISP = 1, CF_UV_SIG, CF_NUV = CF_UV_SIG };

static bool c_type(const Type *t, bool result) {
  return t->kind == TY_SCALAR || t->kind == TY_CPTR || (result && t->kind == TY_NONE);
}

/* core._cfunc(dispatcher, signature): the dispatcher has compiled the
** signature (lumba.cfunc in init.lua did); the cfunc object over it */
static int cfunc_lua_new(lua_State *L) {
  if (!dispatch_test(L, 1)) return luaL_typeerror(L, 1, DISPATCHER_MT);
  Dispatcher *d = lua_touserdata(L, 1);
  const char *sig = luaL_checkstring(L, 2);
  LmState *S = lmstate_get(L);
  Type *args[LM_MAXARGS], *ret;
  char err[256];
  int n = ty_parse_signature(&S->types, sig, &ret, args, LM_MAXARGS, err, sizeof err);
  if (n < 0) return luaL_error(L, "bad signature of cfunc %s: %s", d->name, err);
  if (ret == NULL)
    return luaL_error(L, "the signature of cfunc %s needs a return type, as \"float64(float64)\" (void for none)", d->name);
  for (int i = -1; i < n; i++) {
    Type *t = i < 0 ? ret : args[i];
    if (!c_type(t, i < 0))
      return luaL_error(L, "cfunc %s: a C signature takes numbers and C pointers (CPointer(float64), voidptr), "
                        "not %s: pass an array as a pointer and view it with carray(ptr, shape)", d->name, t->name);
  }
  DispSpec *s = d->specs;
  while (s && !(s->nargs == n && memcmp(s->argtypes, args, sizeof(Type *) * (size_t)n) == 0)) s = s->next;
  if (s == NULL) return luaL_error(L, "cfunc %s: the signature %s is not compiled", d->name, sig);
  if (s->ret != ret)
    return luaL_error(L, "cfunc %s returns %s, not the %s of its signature", d->name, s->ret->name, ret->name);
  CFunc *c = lua_newuserdatauv(L, sizeof(CFunc), CF_NUV);
  memset(c, 0, sizeof *c);
  c->tag = CFUNC_TAG;
  luaL_setmetatable(L, CFUNC_MT);
  lua_pushvalue(L, 1);
  lua_setiuservalue(L, -2, CF_UV_DISP);
  lua_pushvalue(L, 2);
  lua_setiuservalue(L, -2, CF_UV_SIG);
  void *code = NULL;
  c->addr = backend_get(L)->cfunc_wrap(L, s, d->name, &code);
  c->code = code;
  return 1;
}

static CFunc *check_cfunc(lua_State *L) {
  return UDATA_CHECK(L, 1, CFunc, CFUNC_MT, CFUNC_TAG);
}

static int cfunc_lua_index(lua_State *L) {
  CFunc *c = check_cfunc(L);
  const char *k = lua_tostring(L, 2);
  if (k == NULL) return 0;
  if (strcmp(k, "address") == 0) {
    lua_pushinteger(L, (lua_Integer)(intptr_t)c->addr);
  } else if (strcmp(k, "signature") == 0) {
    lua_getiuservalue(L, 1, CF_UV_SIG);
  } else if (strcmp(k, "dispatcher") == 0) {
    lua_getiuservalue(L, 1, CF_UV_DISP);
  } else {
    return 0;
  }
  return 1;
}

/* c(...) runs the compiled function, as the dispatcher would */
static int cfunc_lua_call(lua_State *L) {
  check_cfunc(L);
  int n = lua_gettop(L);
  lua_getiuservalue(L, 1, CF_UV_DISP);
  lua_replace(L, 1);
  lua_call(L, n - 1, LUA_MULTRET);
  return lua_gettop(L);
}

static int cfunc_lua_gc(lua_State *L) {
  CFunc *c = UDATA_TEST(L, 1, CFunc, CFUNC_MT, CFUNC_TAG);
  if (c && c->code) {
    const Backend *be = backend_loaded();
    if (be) be->cfunc_release(c->code);
    c->code = NULL;
    c->addr = NULL;
  }
  return 0;
}

static int cfunc_lua_tostring(lua_State *L) {
  check_cfunc(L);
  lua_getiuservalue(L, 1, CF_UV_DISP);
  Dispatcher *d = lua_touserdata(L, -1);
  lua_getiuservalue(L, 1, CF_UV_SIG);
  lua_pushfstring(L, "lumba.cfunc: %s %s", d && d->name ? d->name : "?", lua_tostring(L, -1));
  return 1;
}

LUMBA_API void *lumba_tocfunc(lua_State *L, int idx) {
  CFunc *c = UDATA_TEST(L, idx, CFunc, CFUNC_MT, CFUNC_TAG);
  return c ? c->addr : NULL;
}

void cfunc_open(lua_State *L) {
  static const luaL_Reg meta[] = {
      {"__index", cfunc_lua_index}, {"__call", cfunc_lua_call}, {"__gc", cfunc_lua_gc},
      {"__tostring", cfunc_lua_tostring}, {NULL, NULL},
  };
  luaL_newmetatable(L, CFUNC_MT);
  luaL_setfuncs(L, meta, 0);
  udata_protect(L, -1, CFUNC_MT);
  lua_pop(L, 1);
  lua_pushcfunction(L, cfunc_lua_new);
  lua_setfield(L, -2, "_cfunc");
}
