/*
** dispatch.h — the dispatcher userdata: per-signature compiled entries.
*/
#ifndef dispatch_h
#define dispatch_h

#include <lua.h>

void dispatch_open(lua_State *L);

#endif
