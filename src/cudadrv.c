/*
** cudadrv.c — stub until the CUDA issue lands.
*/
#include <lauxlib.h>

#include "cudadrv.h"

static int cuda_lua_is_available(lua_State *L) {
  lua_pushboolean(L, 0);
  lua_pushliteral(L, "lumba was built without CUDA support yet");
  return 2;
}

void cuda_open(lua_State *L) {
  lua_newtable(L);
  lua_pushcfunction(L, cuda_lua_is_available);
  lua_setfield(L, -2, "is_available");
  lua_setfield(L, -2, "cuda");
}
