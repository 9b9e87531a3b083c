/*
** state.c — the per-Lua-state compiler record (LmState: interned types and,
** once the backend has made it, the JIT), and the small Lua functions that
** need only it: verbosity, the cache and thread-count entry points, which
** reach the backend through its table.
*/
#include <string.h>
#include <time.h>

#include <lauxlib.h>

#include "backend.h"
#include "cachefast.h"
#include "compile.h"

#define STATE_KEY "lumba.state"

static int state_gc(lua_State *L) {
  LmState *S = lua_touserdata(L, 1);
  if (S->closed) return 0;
  S->closed = true;
  backend_quiesce();  /* the loading thread runs core.so's code: core.so is unloaded after this */
  if (S->jit && S->jit_free) S->jit_free(S->jit);
  S->jit = NULL;
  cachefast_free(S);  /* after the JIT, whose code may call it */
  ty_table_free(&S->types);
  return 0;
}

LmState *lmstate_get(lua_State *L) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, STATE_KEY) == LUA_TUSERDATA) {
    LmState *S = lua_touserdata(L, -1);
    lua_pop(L, 1);
    /* its __gc ran (a finalizer during lua_close): the types and the JIT are gone */
    if (LM_UNLIKELY(S->closed)) luaL_error(L, "lumba: the compiler of this Lua state has been closed");
    return S;
  }
  lua_pop(L, 1);
  LmState *S = lua_newuserdatauv(L, sizeof(LmState), 0);
  memset(S, 0, sizeof *S);
  const char *v = getenv("LUMBA_VERBOSE");
  S->verbose = v && *v && strcmp(v, "0") != 0;
  ty_table_init(&S->types);
  lua_newtable(L);
  lua_pushcfunction(L, state_gc);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  lua_setfield(L, LUA_REGISTRYINDEX, STATE_KEY);
  return S;
}

/* lumba.config.verbose = true|false */
static int state_lua_set_verbose(lua_State *L) {
  lmstate_get(L)->verbose = lua_toboolean(L, 1);
  return 0;
}

static int state_lua_get_verbose(lua_State *L) {
  lua_pushboolean(L, lmstate_get(L)->verbose);
  return 1;
}

/* lumba.cache.info() / lumba.cache.clear([dir]): implemented by the backend */
static int state_lua_cache_info(lua_State *L) {
  return backend_get(L)->cache_info(L);
}

static int state_lua_cache_clear(lua_State *L) {
  return backend_get(L)->cache_clear(L);
}

/* the prange pool's size */
static int state_lua_set_num_threads(lua_State *L) {
  const Backend *B = backend_get(L);
  lua_Integer n = luaL_checkinteger(L, 1);
  int max = B->par_max_workers();
  luaL_argcheck(L, n >= 1 && n <= max, 1, lua_pushfstring(L, "the number of threads must be in 1..%d", max));
  lua_pushinteger(L, B->par_set_num_threads((int)n));
  return 1;
}

static int state_lua_get_num_threads(lua_State *L) {
  lua_pushinteger(L, backend_get(L)->par_num_threads());
  return 1;
}

static int state_lua_max_threads(lua_State *L) {
  lua_pushinteger(L, backend_get(L)->par_max_workers());
  return 1;
}

/* lumba.clock(): a monotonic wall clock in seconds (os.clock is CPU time) */
static int state_lua_clock(lua_State *L) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  lua_pushnumber(L, (lua_Number)ts.tv_sec + (lua_Number)ts.tv_nsec * 1e-9);
  return 1;
}

static const luaL_Reg state_funcs[] = {
    {"clock", state_lua_clock},
    {"_set_verbose", state_lua_set_verbose},
    {"_get_verbose", state_lua_get_verbose},
    {"set_num_threads", state_lua_set_num_threads},
    {"get_num_threads", state_lua_get_num_threads},
    {"max_threads", state_lua_max_threads},
    {NULL, NULL},
};

static const luaL_Reg cache_funcs[] = {
    {"info", state_lua_cache_info},
    {"clear", state_lua_cache_clear},
    {NULL, NULL},
};

void state_open(lua_State *L) {
  lmstate_get(L);
  backend_preload();
  luaL_setfuncs(L, state_funcs, 0);
  luaL_newlib(L, cache_funcs);
  lua_setfield(L, -2, "cache");
}
