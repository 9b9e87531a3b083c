/*
** cachefast.h — the cache's fast path, in core.so: a specialization of a
** cache=true dispatcher found in the cache directory is loaded without
** the backend (no LLVM, no parsing, no inference).
**
** pre-key (cachekey.h) → index file (cachefile.h) → every note checked
** against the dispatcher's env table and globals as resolve.c looks names
** up (the same kind and value; names that were absent still absent; called
** dispatchers recursively: their index for the recorded argument types
** must give the recorded key, and they are loaded first) → the entry file
** (its usual checks) → objload (objload.h) → a DispSpec. Any failure is a
** miss, silent but for LUMBA_DEBUG_CACHE=1: the dispatcher then compiles
** as if there were no fast path. CPU code only; calls from compiled code
** to other dispatchers always take the compiler's path.
**
** Loaded code stays mapped until the Lua state closes. Its global symbols
** are kept per state: objects loaded later link against them, lmstate_jit
** defines them in the JIT (code compiled later may call them), and
** cache.c's table of code already in the state knows their keys, so the
** same code is never loaded twice.
*/
#ifndef cachefast_h
#define cachefast_h

#include <lua.h>

#include "compile.h"
#include "dispatch.h"

/* d's def for argtypes from the cache, or NULL: compile it */
DispSpec *cachefast_spec(lua_State *L, Dispatcher *d, int didx, Type **argtypes, int nargs, Type *declared_ret);

/* the symbols of loaded code the JIT does not know yet: how many, their
** names and addresses; then cachefast_synced once they are defined */
int cachefast_pending(LmState *S, const char *const **names, void *const **addrs);
void cachefast_synced(LmState *S);
/* pushes the table key → {symbol =, ir =} of the code loaded in this state */
void cachefast_push_loaded(lua_State *L);
/* fast-path hits of this state */
lua_Integer cachefast_hits(lua_State *L);
/* unmaps everything loaded (the state is closing) */
void cachefast_free(LmState *S);

#endif
