/*
** array.c — stub until the array runtime lands.
*/
#include "array.h"

void array_open(lua_State *L) {
  (void)L;
}
