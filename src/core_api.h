/*
** core_api.h — how backend.so and nvptx.so reach core.so: through a table
** of its functions and objects (core_api.def), the mirror of struct Backend
** (backend.h), so that core.so exports only the public API (lumba.h) and
** luaopen_lumba_core to the programs that embed it.
**
** core.so builds the table (core_api.c) and passes it to the entry point of
** each library it opens (module.c -> backend_init -> backend_load.c). Their code keeps calling arena_alloc(...) by name:
** core_api_calls.c defines, inside each library, a hidden function of that
** name that calls through the table, and every object of theirs is
** compiled with -DCORE_API_CLIENT -include src/core_api.h (the Makefile),
** which turns the names of core's objects into reads through the table
** (ty_none below is core's ty_none, the same address everywhere).
*/
#ifndef core_api_h
#define core_api_h

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "array.h"
#include "ast.h"
#include "blas.h"
#include "cachefast.h"
#include "cachefile.h"
#include "jitclass.h"
#include "cachekey.h"
#include "compile.h"
#include "complex_lua.h"
#include "cudadrv.h"
#include "diag.h"
#include "dispatch.h"
#include "frontend.h"
#include "interrupt.h"
#include "lapack.h"
#include "lapack_rt.h"
#include "record.h"
#include "linalg_rt.h"
#include "maps.h"
#include "nprandom_rt.h"
#include "nrt.h"
#include "nvvm.h"
#include "sha256.h"
#include "stack.h"
#include "types.h"

/* one pointer per row, typed as the row's function or object */
typedef struct CoreApi {
#define CORE_FN(ret, name, params, args) __typeof__(name) *name;
#define CORE_VOID(name, params, args) __typeof__(name) *name;
#define CORE_NORET(name, params, args) __typeof__(name) *name;
#define CORE_VARARG(name) __typeof__(name) *name;
#define CORE_DATA(name) __typeof__(name) *name;
#include "core_api.def"
#undef CORE_FN
#undef CORE_VOID
#undef CORE_NORET
#undef CORE_VARARG
#undef CORE_DATA
} CoreApi;

/* core.so: the table it hands to backend.so and nvptx.so */
extern const CoreApi core_api_table;

/* backend.so, nvptx.so: core's table, set once by the library's entry point
** (backend.c, nvvm_llvm.c) before any other function of it runs */
extern const CoreApi *core_api;

#ifdef CORE_API_CLIENT
#define ast_kind_names (*core_api->ast_kind_names)
#define ast_op_symbols (*core_api->ast_op_symbols)
#define prelude_text (*core_api->prelude_text)
#define dtype_names (*core_api->dtype_names)
#define dtype_sizes (*core_api->dtype_sizes)
#define dtype_kinds (*core_api->dtype_kinds)
#define ty_none (*core_api->ty_none)
#define ty_grid_group (*core_api->ty_grid_group)
#endif

#endif
