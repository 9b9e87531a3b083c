/*
** cache.h — the on-disk object cache (njit{cache=true}) and the content
** key every CPU specialization is named by.
**
** The key is a SHA-256 over everything the machine code depends on: the
** source (text, or a canonical dump of the Lua-table AST), the function and
** chunk name, the argument types, the options, the env/global values the
** compilation froze, the keys of the dispatchers it calls (so an edited callee
** changes its callers' keys), the target triple, CPU name and features, the
** LLVM version, LM_VERSION and the build id of lumba.core itself.
**
** Symbols are named from the key (<def>__<16 hex>_<n>), so an object file
** written by one process links in another, and a callee's symbol is the same
** wherever it is compiled. A key already in this state's JIT is reused, never
** added twice.
**
** Files: one per key in LUMBA_CACHE_DIR (default $XDG_CACHE_HOME/lumba, else
** ~/.cache/lumba): a header (magic, format, lumba version, key, lengths,
** SHA-256 of the payload), then the payload (entry symbol, object code, IR
** text). Written to a temporary file and renamed. Anything unexpected in a
** file is a miss, never an error; failing to write warns once per state.
*/
#ifndef cache_h
#define cache_h

#include <stdbool.h>

#include <lua.h>

#include "compile.h"
#include "jit_cpu.h"

#define CACHE_KEY_HEX 64   /* hex digits of a key */
#define CACHE_TAG_HEX 16   /* hex digits of the key in symbol names */

/* A value the compiled code depends on beyond the source (in Compile). */
typedef struct CacheNote {
  const char *name;  // the free name as written ('d': the callee's def name)
  char kind;         // 'i' int64, 'f' float64, 'b' bool, 'd' a call of another dispatcher;
                     // not in the key, for the index (cachefile.h): 'n' absent from env and
                     // globals, 'D' a dispatcher found in them (ref)
  int64_t ival;      // i, b
  double fval;       // f
  const char *key;   // d: the callee specialization's key (hex)
  int ref;           // d, D: the registry reference the dispatcher was found as (resolve.c)
  Type **argtypes;   // d: the argument types of the call
  int nargs;
} CacheNote;

/* CompileHooks.note_* (resolve.c asks): name was frozen as the constant s
** (from env or globals) */
void cache_note_value(Compile *C, const char *name, const Sym *s);
/* resolve.c: name is in neither env nor globals; or it is the dispatcher
** s (s->ref) */
void cache_note_absent(Compile *C, const char *name);
void cache_note_dispatcher(Compile *C, const char *name, const Sym *s);
/* dispatch_calls.c: compiled code calls a specialization of dispatcher
** `name` (found as registry reference ref) for argtypes */
void cache_note_callee(Compile *C, const char *name, int ref, const char *key, Type **argtypes, int nargs);

/* The key of the specialization `spec` (after inference, before lowering);
** disp_idx is the dispatcher's stack index. Writes hex digits and a NUL. */
void cache_key(Compile *C, LmJit *J, int disp_idx, FuncSpec *spec, Type *declared_ret,
               char hex[CACHE_KEY_HEX + 1]);

/* Code for out->key already in this state's JIT, or (with opt.cache) in the
** cache directory: fills out->symbol, out->llvm_ir, out->wrap and out->code
** and returns true. False: compile it (an entry that fails a check or
** does not link is a miss, and its file is removed to be rewritten). */
bool cache_fetch(Compile *C, LmJit *J, const char *name, struct DispSpec *out);
/* After the code of out is in the JIT: publishes it for cache_fetch and,
** with opt.cache, writes obj (objlen bytes) to the cache directory and the
** index (cache_index), then evicts least recently used entries over
** LUMBA_CACHE_MAX_BYTES. */
void cache_done(Compile *C, const char *name, struct DispSpec *out, const char *obj, size_t objlen);

/* With opt.cache: writes the index file of C->prekey, which leads a later
** process to out's entry without inference (cachefile.h, cachefast.h). */
void cache_index(Compile *C, const char *name, struct DispSpec *out);

/* code of the dispatchers this compilation calls (its 'd' notes): code
** depends on each (jit_code_depend), so they outlive it. 0 or -1 and *err. */
int cache_code_deps(Compile *C, JitCode *code, char **err);

/* adds lumba.core.cache = {clear=, info=} */

#endif
