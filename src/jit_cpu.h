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
** target machine; JitCodes still referenced are detached. NULL is ignored. */
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

/* Host assembly text of M; malloc'd, NUL-terminated. NULL and *err on
** failure. Code generation rewrites M: dispose of it after. */
char *jit_emit_asm(LmJit *J, LLVMModuleRef M, char **err);
/* Object code of M, malloc'd, *len bytes; what jit_add_object loads. NULL and
** *err on failure. Code generation rewrites M: dispose of it after. */
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

/* ---- code that can be removed again ----
** A JitCode is the code of one specialization: the module or object added
** with it (its own ORC ResourceTracker), counted. jit_code_new returns it
** with one reference; the last jit_code_release removes its code from the
** JIT (the memory mappings go back to the system) and releases the code it
** depends on. Code that calls another's symbols must depend on it
** (jit_code_depend) so that the callee outlives every caller. A JitCode may
** be published under a content key (with the entry symbol and IR text that
** go with it) so that another specialization with the same key reuses it
** (jit_code_find); it leaves the index when it is removed. jit_free detaches
** the JitCodes still referenced: their code is gone with the JIT, releasing
** them afterwards only frees their records. */
typedef struct JitCode JitCode;

JitCode *jit_code_new(LmJit *J, char **err);
void jit_code_retain(JitCode *c);
void jit_code_release(JitCode *c);  /* NULL is ignored */
void jit_code_release_v(void *c);   /* the same, for DispSpec.code_free */
/* c keeps callee (retained) until c is removed; a second call for the same
** callee does nothing. 0 or -1 and *err (out of memory). */
int jit_code_depend(JitCode *c, JitCode *callee, char **err);
/* The context to build c's module in: each JitCode has its own, so the
** constants and types a module makes go with it (a context shared by all
** modules keeps them until the JIT goes). Drop it once no module built in
** it is left outside the JIT (the JIT keeps its own reference while it
** needs the module). */
LLVMContextRef jit_code_context(JitCode *c);
void jit_code_drop_context(JitCode *c);
/* as jit_add_module / jit_add_object, tracked by c; a module must be built
** in jit_code_context(c) */
int jit_code_add_module(JitCode *c, LLVMModuleRef M, char **err);
int jit_code_add_object(JitCode *c, const char *obj, size_t len, char **err);
/* publishes c under key (copied, with symbol and ir); 0 or -1 and *err */
int jit_code_publish(JitCode *c, const char *key, const char *symbol, const char *ir, char **err);
/* the published code of key in J, or NULL (not retained) */
JitCode *jit_code_find(LmJit *J, const char *key);
const char *jit_code_symbol(const JitCode *c);
const char *jit_code_ir(const JitCode *c);
/* live JitCodes of J (records not yet removed), for tests and the soak */
long jit_code_count(LmJit *J);

/* The host facts the code is compiled for (owned by J; for inspect and for
** the cache key). */
const char *jit_cpu_name(LmJit *J);
const char *jit_cpu_features(LmJit *J);
const char *jit_triple(LmJit *J);

#endif
