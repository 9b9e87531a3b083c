/*
** dispatch.c — stub until the compiler lands.
*/
#include "dispatch.h"

void dispatch_open(lua_State *L) {
  (void)L;
}
