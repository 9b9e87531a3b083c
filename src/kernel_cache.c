/*
** kernel_cache.c — the PTX of cuda.jit{cache=true} kernels on disk
** (kernel_cache.h).
*/
#include <stdio.h>
#include <string.h>

#include "cachefile.h"
#include "cachekey.h"
#include "kernel_cache.h"
#include "lm.h"
#include "sha256.h"

static void say(const char *what, const char *name, const char *key, const char *why, const char *path) {
  if (!cachefile_debug()) return;
  fprintf(stderr, "lumba cache: ptx %s %s key %.16s: %s (%s)\n", what, name, key, why, path ? path : "-");
}

/* entries name their symbol after the def and key (cachefile.c checks it) */
static void entry_symbol(char *out, size_t cap, const char *name, const char *key) {
  snprintf(out, cap, "%s__%.16s_0", name, key);
}

bool kcache_get(lua_State *L, const char *name, const char *ir, int cc_major, int cc_minor, bool fastmath,
                char key[65]) {
  key[0] = '\0';
  const char *ids = cachekey_build_ids();
  if (ids == NULL) return false;
  Sha256 h;
  sha256_init(&h);
  cachekey_str(&h, "lumba ptx key 1");
  cachekey_str(&h, LM_VERSION);
  cachekey_str(&h, ids);
  cachekey_str(&h, name);
  cachekey_str(&h, ir);
  cachekey_u64(&h, (uint64_t)cc_major);
  cachekey_u64(&h, (uint64_t)cc_minor);
  cachekey_u64(&h, fastmath);
  unsigned char d[SHA256_LEN];
  sha256_final(&h, d);
  sha256_hex(d, key);
  int top = lua_gettop(L);
  const char *dir = cachefile_push_dir(L);
  if (dir == NULL) return false;
  const char *path = cachefile_push_path(L, dir, name, key, KCACHE_SUFFIX);
  CacheEntry e;
  char why[200];
  char sym[300];
  entry_symbol(sym, sizeof sym, name, key);
  if (!cachefile_read_entry(L, path, key, name, &e, why, sizeof why)) {
    say("miss", name, key, why, path);
    lua_settop(L, top);
    return false;
  }
  /* PTX is text: one without its .entry is not ours */
  if (e.symlen != strlen(sym) || memcmp(e.sym, sym, e.symlen) != 0 || e.objlen == 0 ||
      memchr(e.obj, '\0', e.objlen) != NULL) {
    say("miss", name, key, "not a PTX entry", path);
    lua_settop(L, top);
    return false;
  }
  say("hit", name, key, "loaded", path);
  lua_pushlstring(L, e.obj, e.objlen);
  lua_replace(L, top + 1);
  lua_settop(L, top + 1);
  return true;
}

void kcache_put(lua_State *L, const char *name, const char *key, const char *ptx, size_t len) {
  if (key[0] == '\0') return;
  int top = lua_gettop(L);
  const char *dir = cachefile_push_dir(L);
  if (dir == NULL) return;
  const char *path = cachefile_push_path(L, dir, name, key, KCACHE_SUFFIX);
  char sym[300];
  entry_symbol(sym, sizeof sym, name, key);
  const char *what = NULL;
  int e = cachefile_write_entry(dir, path, key, sym, ptx, len, NULL, &what);
  if (e != 0) say("not stored", name, key, what ? what : "?", path);
  lua_settop(L, top);
}
