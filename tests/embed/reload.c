/*
** reload.c — a host that loads and unloads lumba again and again: each
** round opens a Lua state, requires lumba (Lua dlopens lumba/core.so),
** compiles and runs a prange loop, keeps a dispatcher and an array alive,
** and closes the state (Lua dlcloses the module). Run from the repository
** root after make; prints one line and exits 0 when every round worked.
**
** usage: reload [rounds]   (default 20)
*/
#include <stdio.h>
#include <stdlib.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

static const char *const round_script =
    "package.path = 'lua/?.lua;lua/?/init.lua;' .. package.path\n"
    "package.cpath = 'build/?.so;' .. package.cpath\n"
    "local lumba = require 'lumba'\n"
    "local f = lumba.njit{parallel = true}('def f(n):\\n    s = 0\\n    for i in prange(n):\\n        s += i\\n    return s\\n')\n"
    "assert(f(1000) == 499500, 'prange sum')\n"
    "keep = { f, lumba.arange(10.0) }\n";

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20;
  for (int i = 0; i < n; i++) {
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    if (luaL_dostring(L, round_script) != LUA_OK) {
      printf("round %d: %s\n", i, lua_tostring(L, -1));
      lua_close(L);
      return 1;
    }
    lua_close(L);
  }
  printf("loaded and unloaded %d times\n", n);
  return 0;
}
