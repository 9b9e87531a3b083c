/*
** dispatch.h — the dispatcher userdata: compiles a function lazily per
** argument-type signature and calls the compiled specializations.
*/
#ifndef dispatch_h
#define dispatch_h

#include <stdbool.h>

#include <llvm-c/Core.h>
#include <lua.h>

#include "compile.h"
#include "rt.h"
#include "udata.h"

#define DISPATCHER_MT "lumba.dispatcher"

/* One compiled specialization (long-lived: owned by its dispatcher). */
struct DispSpec {
  Type *argtypes[LM_MAXARGS];
  int nargs;
  Type *ret;
  int ret_slots;                                   // 8-byte result slots of ret
  uint64_t int_float_stores;                       // FuncSpec's: a table there would come back truncated
  int32_t (*wrap)(LmErr *, int64_t *, int64_t *);  // the entry the call path uses
  char *symbol;                                    // inner function (calls from other dispatchers)
  char *llvm_ir;                                   // optimised module text (inspect_llvm)
  char *types;                                     // inspect_types text
  char *pardiag;                                   // parallel_diagnostics text
  char *kernel_ir;                                 // GPU: NVVM IR text (LLVM 14 dialect) of the kernel
  char *kernel_name;                               // GPU: the kernel entry's name
  bool cooperative;                                // GPU and simulator: the kernel syncs its grid (launched cooperatively)
  void *gpu;                                       // GPU: the launcher's per-specialization state
  void (*gpu_free)(void *);                        // releases gpu
  void *code;                                      // CPU and simulator: its code in the JIT (a JitCode, jit_cpu.h)
  void (*code_free)(void *);                       // releases code: the last user removes it from the JIT
  char key[65];                                    // CPU: content key, hex (cache.h); GPU: ""
  DispSpec *next;
};

/* A specialization being compiled (a node on the C stack of compile_spec):
** calls from compiled code that come back to it cannot be typed. */
typedef struct DispBusy {
  Type **argtypes;
  int nargs;
  struct DispBusy *next;
} DispBusy;

typedef struct Dispatcher {
  char *name;          // the def this dispatcher calls
  int nparams;         // parameters of the def
  int ndefaults;       // how many trailing parameters have defaults
  Options opt;
  bool eager;          // signatures were given: no compilation at call time
  bool fallback;       // jit: fall back to object mode when compilation fails
  bool objmode;        // ... and it did: every call runs the object-mode path
  int nspecs;
  DispSpec *specs;     // every specialization, newest first
  DispSpec *last;      // the one used by the previous call (the fast path)
  DispBusy *busy;      // signatures being compiled now, innermost first
  const void *array_mt;  // lumba.ndarray's metatable (the registry keeps it): the call path compares it
  uint32_t tag;        // DISPATCHER_TAG (udata.h)
} Dispatcher;

#define DISPATCHER_TAG UDATA_TAG('l', 'd', 'i', 's')

/* uservalues of a dispatcher */
/* DISP_UV_SIBLINGS: lumba.load's table of the module's dispatchers by name;
** a call of one of them compiles it once and links it (resolve_name) */
enum { DISP_UV_SOURCE = 1, DISP_UV_ENV, DISP_UV_GLOBALS, DISP_UV_DEFAULTS, DISP_UV_CHUNK, DISP_UV_SIBLINGS,
       DISP_NUV = DISP_UV_SIBLINGS };

void dispatch_open(lua_State *L);
void cfunc_open(lua_State *L);  /* cfunc.c: core._cfunc and the lumba.cfunc objects */
DispSpec *dispatch_add_spec(lua_State *L, Dispatcher *d, int didx, Type **argtypes, int nargs);
void dispatch_free_spec(DispSpec *s);
bool dispatch_test(lua_State *L, int idx);
int ty_slots(const Type *t);  /* 8-byte result slots a value of t takes */

/* dispatch_calls.c: CompileHooks.callee (compile.h), the pipeline's hook
** for calls from compiled code to another dispatcher */
FuncSpec *dispatch_callee(Compile *C, int ref, Type **argtypes, int nargs, Loc loc);

#endif
