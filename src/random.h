/*
** random.h — lumba.random: a seeded generator for arrays.
*/
#ifndef random_h
#define random_h

#include <lua.h>

/* adds the table lumba.random to the module table on top of the stack */
void random_open(lua_State *L);

#endif
