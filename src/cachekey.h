/*
** cachekey.h — hashing for the cache's keys, in core.so: the helpers the
** full key (cache.c cache_key, after inference) and the pre-key (before
** anything is parsed) share, the build ids of lumba's two libraries and the
** host fingerprint.
**
** The pre-key names a specialization by what is known before inference:
** LM_VERSION, the build ids of core.so and backend.so, LLVM's version and
** default triple, the host fingerprint, the chunk name, the source (the
** same canonical dump as the full key), the def name, the argument types,
** the declared return type and the options that change code. It names the
** index file (cachefile.h) that leads to the full key.
*/
#ifndef cachekey_h
#define cachekey_h

#include <stdbool.h>
#include <stdint.h>

#include <lua.h>

#include "arena.h"
#include "compile.h"
#include "sha256.h"

/* every field is length- or tag-prefixed, so no two inputs hash alike */
void cachekey_u64(Sha256 *h, uint64_t v);
void cachekey_bytes(Sha256 *h, const void *p, size_t n);
void cachekey_str(Sha256 *h, const char *s);
void cachekey_tag(Sha256 *h, char t);
/* a canonical dump of the Lua value at idx (a source string or a Lua-table
** AST: keys sorted, numbers by type and bits); A holds scratch memory */
void cachekey_lua(lua_State *L, Arena *A, Sha256 *h, int idx, int depth);
/* every Options field that changes the code */
void cachekey_options(Sha256 *h, const Options *o);

/* "core <id> backend <id>": GNU build ids (else size and time of the
** files); NULL when backend.so cannot be found next to core.so */
const char *cachekey_build_ids(void);
/* the GNU build id of the loaded library holding addr (from its notes in
** memory); false if it has none */
bool cachekey_loaded_build_id(const void *addr, char *out, size_t cap);
/* 64 hex digits standing for the CPU LLVM would compile for: CPUID
** leaves (vendor, family/model/stepping, feature bits) and XCR0, plus
** LUMBA_CACHE_HOST_SALT (tests fake another host with it) */
const char *cachekey_host(void);

/* The pre-key of def `name` of the dispatcher at didx for argtypes (see
** above). False when it cannot be computed (no build id): no fast path. */
bool cachekey_pre(lua_State *L, int didx, const char *name, const Options *opt, Type **argtypes, int nargs,
                  Type *declared_ret, char hex[2 * SHA256_LEN + 1]);

#endif
