/*
** jit_cpu.h — the CPU back end's last steps: the pass pipeline for the host
** CPU, one ORC LLJIT per Lua state, absolute runtime symbols, object code for
** the cache, and symbol lookup. LLVM's C API only (the llvm-c headers).
**
** Ownership: an LmJit owns its ThreadSafeContext, its LLJIT and a host
** TargetMachine. Modules are built in jit_context(J); jit_add_module takes the
** module (also when it fails). Every function that can fail returns an error
** code (0 ok / NULL) and sets *err to a malloc'd message the caller frees.
** An LmJit may be used by one thread at a time; several LmJit may be used by
** several threads at once.
*/
#ifndef jit_cpu_h
#define jit_cpu_h

#include <stddef.h>

#include <llvm-c/Core.h>

typedef struct LmJit LmJit;

/* Initialises LLVM's native target once per process, then creates an LLJIT
** for the host CPU (name and features) at CodeGenOptLevel Aggressive, whose
** main JITDylib also resolves symbols of the process (libm's exp, sqrt, ...).
** NULL and *err on failure. Costly (milliseconds): call it at the first
** compile, not at require. */
LmJit *jit_new(char **err);
/* Disposes the JIT (its code and every module added), the context and the
** target machine. NULL is ignored. */
void jit_free(LmJit *J);

/* The context of the JIT's ThreadSafeContext: build modules in it. */
LLVMContextRef jit_context(LmJit *J);
/* Sets M's triple and data layout to the host TargetMachine's. Call before
** jit_optimize (the optimiser reads target facts from the module). */
void jit_prepare_module(LmJit *J, LLVMModuleRef M);

/* Defines n absolute symbols (runtime functions compiled code calls, e.g.
** "nrt_alloc") in the main JITDylib. Each name may be defined only once per
** LmJit. jit_new already defines libgcc's helpers the code generator calls
** (__powidf2, __powisf2, __divti3, __modti3, __udivti3, __umodti3); libm
** and libc names resolve through the process. 0 on success, else -1 and *err. */
int jit_define_symbols(LmJit *J, const char *const *names, void *const *addrs, int n,
                       char **err);

/* Runs the new pass manager's default<O{level}> pipeline (level 0..3) on M
** with the host TargetMachine, so vectorisation uses the host's vector
** width. 0 on success, else -1 and *err. */
int jit_optimize(LmJit *J, LLVMModuleRef M, int level, char **err);

/* Host assembly text of M (a clone is compiled, M is unchanged); malloc'd,
** NUL-terminated. NULL and *err on failure. */
char *jit_emit_asm(LmJit *J, LLVMModuleRef M, char **err);
/* Object code of M (M unchanged), malloc'd, *len bytes; what jit_add_object
** loads. NULL and *err on failure. */
char *jit_emit_object(LmJit *J, LLVMModuleRef M, size_t *len, char **err);

/* Adds M to the main JITDylib; code is generated at the first lookup of one
** of its symbols. Takes ownership of M, also on failure. 0 or -1 and *err. */
int jit_add_module(LmJit *J, LLVMModuleRef M, char **err);
/* Adds object code (from jit_emit_object, e.g. read from the cache); the
** bytes are copied. 0 or -1 and *err. */
int jit_add_object(LmJit *J, const char *obj, size_t len, char **err);
/* Address of a function or global defined in an added module or object (or
** an absolute or process symbol); compiles it if needed. NULL and *err when
** the name is not defined or its module fails to compile. */
void *jit_lookup(LmJit *J, const char *name, char **err);

/* The host facts the code is compiled for (owned by J; for inspect and for
** the cache key). */
const char *jit_cpu_name(LmJit *J);
const char *jit_cpu_features(LmJit *J);
const char *jit_triple(LmJit *J);

#endif
