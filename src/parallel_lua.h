/*
** parallel_lua.h — registers the thread-count functions in the module table.
*/
#ifndef parallel_lua_h
#define parallel_lua_h

#include <lua.h>

void par_open(lua_State *L);

#endif
