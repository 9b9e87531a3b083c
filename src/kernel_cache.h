/*
** kernel_cache.h — cuda.jit{cache=true}: the PTX of each kernel
** specialization kept in the cache directory (LUMBA_CACHE_DIR), so a later
** process skips libNVVM (or LLVM's NVPTX backend); the driver keeps its own
** cache of the machine code it makes from PTX (CUDA's compute cache).
**
** Files <name>-<key>.lptx in the format of cache entries (cachefile.h): the
** PTX as the object, no IR. The key is a SHA-256 of the kernel's NVVM IR
** text, the compute capability, fastmath, LM_VERSION and the build ids of
** lumba's libraries: an edited kernel, a callee device function, another
** signature or GPU all change the IR or the key. Any file that does not
** check out is a miss (LUMBA_DEBUG_CACHE=1 says why) and is rewritten.
*/
#ifndef kernel_cache_h
#define kernel_cache_h

#include <stdbool.h>

#include <lua.h>

#define KCACHE_SUFFIX ".lptx"

/* The cached PTX of kernel `name` (def name) compiled from ir for cc and
** fastmath: pushed (a string), true; false (nothing pushed) on a miss.
** Fills key (65 bytes) for kcache_put. */
bool kcache_get(lua_State *L, const char *name, const char *ir, int cc_major, int cc_minor, bool fastmath,
                char key[65]);
/* Stores ptx under key; a failure to write is a debug message only (the
** CPU cache's warning covers unwritable directories). */
void kcache_put(lua_State *L, const char *name, const char *key, const char *ptx, size_t len);

#endif
