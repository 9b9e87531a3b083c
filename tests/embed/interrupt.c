/*
** interrupt.c — a host stopping a compiled call that never ends: a watchdog
** thread calls lumba_interrupt(L) after a moment; the call must raise an
** error mentioning "interrupt" and the state stay usable (a second call of
** a finite function, then a second endless call stopped the same way, then a
** nested range loop).
** usage: interrupt   run from the repository root; prints "ok" lines and
** exits 0 when every check holds.
*/
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "lumba.h"

int luaopen_lumba_core(lua_State *L);

static void *watchdog(void *ud) {
  struct timespec t = {0, 200 * 1000 * 1000};
  nanosleep(&t, NULL);
  lumba_interrupt(ud);
  return NULL;
}

static const char *const script =
    "local lumba = require 'lumba'\n"
    "spin = lumba.njit('def spin(n):\\n    i = 0\\n    while n > 0:\\n        i += 1\\n    return i\\n')\n"
    "nested = lumba.njit('def nested(n):\\n    s = 0\\n    for i in range(n):\\n        for j in range(n):\\n"
    "            s += i ^ j\\n    return s\\n')\n"
    "add = lumba.njit('def add(a, b):\\n    return a + b\\n')\n";

/* run code with a watchdog; 0 when it raised an error mentioning "interrupt" */
static int stopped(lua_State *L, const char *code, const char *what) {
  pthread_t th;
  pthread_create(&th, NULL, watchdog, L);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  int st = luaL_dostring(L, code);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  pthread_join(th, NULL);
  double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
  const char *msg = st ? lua_tostring(L, -1) : "(no error)";
  if (st == 0 || strstr(msg, "interrupt") == NULL || s > 5) {
    fprintf(stderr, "FAIL %s: %s after %.2f s\n", what, msg, s);
    return 1;
  }
  printf("ok - %s stopped: %s\n", what, msg);
  lua_pop(L, 1);
  return 0;
}

int main(void) {
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  lua_getglobal(L, "package");
  lua_pushliteral(L, "lua/?.lua;lua/?/init.lua");
  lua_setfield(L, -2, "path");
  lua_getfield(L, -1, "preload");
  lua_pushcfunction(L, luaopen_lumba_core);
  lua_setfield(L, -2, "lumba.core");
  lua_pop(L, 2);
  int bad = 0;
  if (luaL_dostring(L, script)) {
    fprintf(stderr, "FAIL setup: %s\n", lua_tostring(L, -1));
    return 1;
  }
  bad += stopped(L, "return spin(1)", "an endless while loop");
  if (luaL_dostring(L, "assert(add(2, 3) == 5) assert(spin(0) == 0)")) {
    fprintf(stderr, "FAIL after the interrupt: %s\n", lua_tostring(L, -1));
    bad++;
  } else {
    printf("ok - the state works after it\n");
  }
  bad += stopped(L, "return spin(2)", "a second endless loop");
  bad += stopped(L, "return nested(3000000)", "nested range loops");
  lua_close(L);
  if (bad == 0) printf("all ok\n");
  return bad != 0;
}
