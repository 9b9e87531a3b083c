/*
** module.c — luaopen_lumba_core: one registration place. Each area adds
** its functions to the module table through its *_open(L), and core's
** table for backend.so and nvptx.so (core_api.h) goes to their loader.
*/
#include <lauxlib.h>
#include <lua.h>

#include "array.h"
#include "complex_lua.h"
#include "backend.h"
#include "builtins.h"
#include "nprandom_rt.h"
#include "core_api.h"
#include "cudadrv.h"
#include "dispatch.h"
#include "compile.h"
#include "frontend.h"
#include "jitclass.h"
#include "kernel.h"
#include "linalg_rt.h"
#include "record_lua.h"

LUMBA_API int luaopen_lumba_core(lua_State *L);

int luaopen_lumba_core(lua_State *L) {
  backend_init(&core_api_table);  // before state_open starts loading the backend
  lua_newtable(L);
  lua_pushliteral(L, LM_VERSION);
  lua_setfield(L, -2, "version");
  array_open(L);
  record_open(L);
  complex_open(L);
  array_ufunc_open(L);
  array_reduce_open(L);
  array_npy_open(L);
  frontend_open(L);
  dispatch_open(L);
  cfunc_open(L);
  jitclass_open(L);
  jitclass_new_open(L);
  cuda_open(L);
  kernel_open(L);
  state_open(L);
  builtins_open(L);
  nprandom_open(L);
  linalg_lua_open(L);
  return 1;
}
