/*
** lclock.c — benchclock: a monotonic wall clock for the Lua 5.4 runners
** (os.clock is CPU time, which parallel code inflates). Built by the bench.
*/
#include <stdint.h>
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

/* benchclock.cfunc_drive(address, n) — bench/c/cfunccall.c's Euler loop
** calling a @cfunc double (*)(double, double) through its address */
static int benchclock_lua_cfunc_drive(lua_State *L) {
  double (*f)(double, double) = (double (*)(double, double))(intptr_t)luaL_checkinteger(L, 1);
  lua_Integer n = luaL_checkinteger(L, 2);
  double y = 1.0, t = 0.0;
  for (lua_Integer i = 0; i < n; i++) {
    y += 1e-7 * f(t, y);
    t += 1e-7;
  }
  lua_pushnumber(L, y);
  return 1;
}

int luaopen_benchclock(lua_State *L) {
  static const luaL_Reg funcs[] = {
    {"now", benchclock_lua_now},
    {"empty", benchclock_lua_empty},
    {"cfunc_drive", benchclock_lua_cfunc_drive},
    {NULL, NULL},
  };
  luaL_newlib(L, funcs);
  return 1;
}
