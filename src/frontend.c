/*
** frontend.c — lumba.parse: source to Lua-table AST (stub until the parser lands).
*/
#include <lauxlib.h>

#include "frontend.h"

static int frontend_lua_parse(lua_State *L) {
  return luaL_error(L, "lumba.parse: the parser is not built yet");
}

void frontend_open(lua_State *L) {
  lua_pushcfunction(L, frontend_lua_parse);
  lua_setfield(L, -2, "parse");
}
