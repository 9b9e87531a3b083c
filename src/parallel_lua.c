/*
** parallel_lua.c — the Lua face of the prange pool: lumba.set_num_threads,
** lumba.get_num_threads, lumba.max_threads.
*/
#include <lauxlib.h>

#include "parallel.h"
#include "parallel_lua.h"

static int par_lua_set_num_threads(lua_State *L) {
  lua_Integer n = luaL_checkinteger(L, 1);
  int max = par_max_workers();
  luaL_argcheck(L, n >= 1 && n <= max, 1, lua_pushfstring(L, "the number of threads must be in 1..%d", max));
  lua_pushinteger(L, par_set_num_threads((int)n));
  return 1;
}

static int par_lua_get_num_threads(lua_State *L) {
  lua_pushinteger(L, par_num_threads());
  return 1;
}

static int par_lua_max_threads(lua_State *L) {
  lua_pushinteger(L, par_max_workers());
  return 1;
}

static const luaL_Reg par_funcs[] = {
    {"set_num_threads", par_lua_set_num_threads},
    {"get_num_threads", par_lua_get_num_threads},
    {"max_threads", par_lua_max_threads},
    {NULL, NULL},
};

void par_open(lua_State *L) {
  luaL_setfuncs(L, par_funcs, 0);
}
