/*
** cudadrv.h — lumba.cuda's C side: libcuda and libNVVM bound at run time.
*/
#ifndef cudadrv_h
#define cudadrv_h

#include <lua.h>

/* adds lumba.core.cuda = {...}; nothing CUDA-related is loaded here */
void cuda_open(lua_State *L);

#endif
