/*
** backend.h — the split between lumba/core.so and lumba/backend.so.
** core.so (arrays, the frontend, dispatchers, CUDA's driver binding) loads
** fast; backend.so holds everything that needs LLVM or the OpenMP runtime
** (inference, lowering, the JIT, prange, the cache) and is opened at the
** first compilation, so `require "lumba"` does not pay for loading LLVM.
** Each side reaches the other only through a table: core.so calls
** backend.so through struct Backend (below), backend.so calls core.so
** through struct CoreApi (core_api.h), which core.so hands to the entry
** point. Neither exports more than its entry point and the public API.
*/
#ifndef backend_h
#define backend_h

#include <stdbool.h>
#include <stddef.h>

#include <lua.h>

#include "compile.h"

struct CoreApi;
struct CudaState;
struct SimKernel;
struct SimFail;

typedef struct Backend {
  DispSpec *(*compile_spec)(lua_State *L, int disp_idx, const char *name, const Options *opt, Type **argtypes,
                            int nargs, Type *declared_ret);
  char *(*asm_of_ir)(lua_State *L, const char *ir);  /* malloc'd assembly text; raises */
  void (*jit_free)(LmJit *J);
  /* whether code of this cache key is in J (jit_code_find) */
  bool (*jit_has_code)(LmJit *J, const char *key);
  int (*par_set_num_threads)(int n);
  int (*par_num_threads)(void);
  int (*par_max_workers)(void);
  lua_CFunction cache_info, cache_clear;
  /* a @cfunc's C entry point for the compiled specialization s (cfunc_jit.c):
  ** its address, *code the JIT code that holds it, for cfunc_release; raises */
  void *(*cfunc_wrap)(lua_State *L, const DispSpec *s, const char *name, void **code);
  void (*cfunc_release)(void *code);
  /* the CUDA simulator (cudasim.h) */
  struct CudaState *(*cudasim_new)(void);
  void (*cudasim_launch)(lua_State *L, struct CudaState *S, const struct SimKernel *k, const unsigned grid[3],
                         const unsigned block[3], unsigned shared, void **params);
  /* the message of a failed simulated thread, or of a debug=True kernel's record on the GPU (simrun.h) */
  int (*simrun_message)(const struct SimFail *f, char *buf, size_t size);
} Backend;

/* backend: Backend.cfunc_wrap and cfunc_release (cfunc_jit.c) */
void *cfunc_jit_wrap(lua_State *L, const DispSpec *s, const char *name, void **code_out);
void cfunc_jit_release(void *code);

/* core: the backend, opened once per process; raises a Lua error naming the
** file when it cannot be loaded */
const Backend *backend_get(lua_State *L);
/* core: the backend if it is already loaded, else NULL (never loads it) */
const Backend *backend_loaded(void);

/* core: nvptx.so's PTX compiler (nvvm.h nvvm_compile_llvm), loaded on the
** first call; a Lua error if it cannot be */
typedef int (*NvptxCompile)(const char *ir, size_t len, int cc_major, int cc_minor, bool fastmath,
                            const char *libdevice_path, char **ptx, char **log);
NvptxCompile backend_nvptx(lua_State *L);

/* core: the table the libraries get when they are opened (core_api.h).
** luaopen_lumba_core passes it, before anything may load them: the loader
** itself refers to no area of core (they all call it). */
void backend_init(const struct CoreApi *core);

/* core: start loading the backend on a background thread (luaopen) */
void backend_preload(void);
/* core: wait until no loading is in progress (before core.so may be unloaded) */
void backend_quiesce(void);

/* backend.so's only entry point: its table, given core's (kept for the
** library's calls into core.so, core_api.h) */
LUMBA_API const Backend *lumba_backend_table(const struct CoreApi *core);

/* nvptx.so's only entry point: its PTX compiler (nvvm_compile_llvm), given
** core's table */
LUMBA_API NvptxCompile lumba_nvptx_compiler(const struct CoreApi *core);

#endif
