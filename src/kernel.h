/*
** kernel.h — launch objects of cuda.jit kernels.
*/
#ifndef kernel_h
#define kernel_h

#include <lua.h>

#include "dispatch.h"

/* pushes the launch object for dispatcher at disp_idx and config table at cfg_idx */
int kernel_push_launch(lua_State *L, int disp_idx, int cfg_idx);
/* the specialization for the kernel arguments at first..first+nargs-1 (compiles) */
DispSpec *kernel_spec(lua_State *L, int disp_idx, int first, int nargs);
void kernel_open(lua_State *L);

#endif
