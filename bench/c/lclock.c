/*
** lclock.c — benchclock: a monotonic wall clock for the Lua 5.4 runners
** (os.clock is CPU time, which parallel code inflates). Built by the bench.
*/
#include <time.h>

#include <lauxlib.h>
#include <lua.h>

int luaopen_benchclock(lua_State *L);

/* benchclock.now() -> seconds since an arbitrary start, as a float */
static int benchclock_lua_now(lua_State *L) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  lua_pushnumber(L, (lua_Number)ts.tv_sec + 1e-9 * (lua_Number)ts.tv_nsec);
  return 1;
}

/* benchclock.empty() — an empty C function, the floor of a Lua->C call */
static int benchclock_lua_empty(lua_State *L) {
  (void)L;
  return 0;
}

int luaopen_benchclock(lua_State *L) {
  static const luaL_Reg funcs[] = {
    {"now", benchclock_lua_now},
    {"empty", benchclock_lua_empty},
    {NULL, NULL},
  };
  luaL_newlib(L, funcs);
  return 1;
}
