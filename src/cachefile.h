/*
** cachefile.h — the cache directory's files, read and written by core.so
** (the fast path, before LLVM is loaded) and by the backend (cache.c).
**
** Entry files <name>-<key>.lcache (cache.h): a header (magic, format,
** lumba version, key, lengths, SHA-256 of the payload), then the entry
** symbol, the object code and the IR text.
**
** Index files <name>-<pre-key>.lindex: the same kind of header (magic
** LUMBAIDX, the pre-key instead of the key), then what a process needs to
** find and check the entry before any inference: the full key, the entry
** and wrapper symbols, the return type, the inspect_types text, and the
** notes: each env/global name the code froze (its kind and value), each
** name that was looked up and absent, each called dispatcher (the name it
** was found under, the argument types of the call, the callee's key).
**
** Readers check everything and report a miss with a reason; writers write
** a temporary file and rename it.
*/
#ifndef cachefile_h
#define cachefile_h

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <lua.h>

#include "compile.h"

#define CACHEFILE_MAGIC "LUMBAOBJ"
#define CACHEFILE_FORMAT 1u
#define CACHEFILE_SUFFIX ".lcache"
#define CACHEFILE_INDEX_SUFFIX ".lindex"
#define CACHEFILE_TMP_PREFIX ".lumba-tmp-"
#define CACHEFILE_MAX (1u << 30)   /* larger files are not ours */
#define CACHEFILE_KEY_HEX 64

/* entry header: magic[8] format[4] lumba_version[16] key[64] symlen[4] objlen[8] irlen[8] sha256[32] */
enum {
  CF_MAGIC = 0, CF_FORMAT = 8, CF_VERSION = 12, CF_KEY = 28, CF_SYMLEN = 92, CF_OBJLEN = 96,
  CF_IRLEN = 104, CF_SUM = 112, CF_SIZE = 144
};

/* LUMBA_DEBUG_CACHE=1: every lookup says on stderr why it missed */
bool cachefile_debug(void);
/* the cache directory, pushed; NULL (nothing pushed) when there is none */
const char *cachefile_push_dir(lua_State *L);
/* dir/<name>-<hex><suffix>, pushed (the name made file-safe, for people) */
const char *cachefile_push_path(lua_State *L, const char *dir, const char *name, const char *hex, const char *suffix);

void cachefile_put_le(unsigned char *p, uint64_t v, int n);
uint64_t cachefile_get_le(const unsigned char *p, int n);

typedef struct CacheEntry {
  const char *sym, *obj, *ir;
  size_t symlen, objlen, irlen;
} CacheEntry;

/* Reads and checks the entry at path for key and def `name`. True: e
** points into a userdata pushed on the stack. False: why says what failed,
** nothing pushed. */
bool cachefile_read_entry(lua_State *L, const char *path, const char *key, const char *name, CacheEntry *e,
                          char *why, size_t whylen);

/* Writes n parts to path through a temporary file in dir (created, mode
** 0700, if missing) renamed over it. 0, or an errno value and *what names
** the step that failed. No Lua calls. */
int cachefile_write(const char *dir, const char *path, const void *const *parts, const size_t *lens, int n,
                    const char **what);

/* Writes an entry (the header above, then sym, obj and ir; ir may be NULL)
** with cachefile_write. 0 or an errno value and *what. */
int cachefile_write_entry(const char *dir, const char *path, const char *key, const char *sym, const char *obj,
                          size_t objlen, const char *ir, const char **what);

/* ---- the index ---- */

typedef struct CacheIndexNote {
  char kind;              // 'i' 'b' 'f' a frozen value; 'n' absent; 'D' a dispatcher; 'd' a call
  const char *name;       // the name as looked up in env/globals
  int64_t ival;           // i, b; f: the bits of the double
  const char *key;        // d: the callee specialization's key
  int nargs;              // d: the argument types of the call
  Type *argtypes[LM_MAXARGS];
} CacheIndexNote;

typedef struct CacheIndex {
  const char *key, *symbol, *wrap, *types;
  Type *ret;
  uint64_t int_float_stores;  // DispSpec's
  int nnotes;
  CacheIndexNote *notes;
} CacheIndex;

/* the index at path for pre-key `pre`: fills ix, whose strings and notes
** live in userdata pushed on the stack (two values); false (nothing pushed)
** and why when it is missing or does not check out */
bool cachefile_read_index(lua_State *L, const char *path, const char *pre, CacheIndex *ix, char *why, size_t whylen);
/* the bytes of the index file of pre-key `pre`, malloc'd (*len bytes);
** NULL when out of memory or too large */
char *cachefile_index_bytes(const char *pre, const CacheIndex *ix, size_t *len);

#endif
