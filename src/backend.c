/*
** backend.c — the table core.so calls backend.so through.
*/
#include "backend.h"
#include "cache.h"
#include "core_api.h"
#include "cudasim.h"
#include "jit_cpu.h"
#include "nvvm.h"
#include "parallel.h"

char *jit_asm_of_ir(lua_State *L, const char *ir);
int cache_lua_info(lua_State *L);
int cache_lua_clear(lua_State *L);

static bool jit_has_code(LmJit *J, const char *key) {
  return jit_code_find(J, key) != NULL;
}

static const Backend backend = {
    .compile_spec = compile_spec,
    .asm_of_ir = jit_asm_of_ir,
    .jit_free = jit_free,
    .jit_has_code = jit_has_code,
    .par_set_num_threads = par_set_num_threads,
    .par_num_threads = par_num_threads,
    .par_max_workers = par_max_workers,
    .cache_info = cache_lua_info,
    .cache_clear = cache_lua_clear,
    .cfunc_wrap = cfunc_jit_wrap,
    .cfunc_release = cfunc_jit_release,
    .cudasim_new = cudasim_new,
    .cudasim_launch = cudasim_launch,
    .simrun_message = simrun_message,
};

const Backend *lumba_backend_table(const CoreApi *core) {
  core_api = core;  // set once: backend_load.c calls this under pthread_once
  return &backend;
}
