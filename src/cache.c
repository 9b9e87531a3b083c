/*
** cache.c — content keys for CPU specializations, the per-state table of
** keys already in the JIT, and the on-disk object cache (cache.h).
**
** Nothing read from a cache file is trusted before it has passed every
** check: size, magic, format, lumba version, key, lengths, SHA-256 of the
** payload, symbol name. Whatever fails is a miss (LUMBA_DEBUG_CACHE=1 says
** which check), and the entry is rewritten after compiling. Writes go to a
** fresh temporary file in the same directory, renamed over the entry, so a
** reader sees an old entry, a new one, or none; two writers both succeed.
** The files themselves are read and written by cachefile.c and hashed with
** cachekey.c (both in core.so, for the fast path of cachefast.c); this file
** adds the index a compilation leaves for that path (cache_index).
*/
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lauxlib.h>
#include <llvm/Config/llvm-config.h>

#include "cache.h"
#include "fastmath.h"
#include "vecmath.h"
#include "kernel_cache.h"
#include "cachefast.h"
#include "cachefile.h"
#include "cachekey.h"
#include "dispatch.h"
#include "sha256.h"

#define CACHE_SUFFIX CACHEFILE_SUFFIX
#define CACHE_TMP_PREFIX CACHEFILE_TMP_PREFIX

/* ---- per-state bookkeeping ---- */

#define STATE_KEY "lumba.cache"

typedef struct CacheState {
  lua_Integer hits, misses;  // disk lookups of this state
  bool warned;               // the one warning about an unwritable directory was given
} CacheState;

/* the state's CacheState (code already in the JIT is found by key in the
** JIT itself, jit_code_find; code the fast path loaded, in cachefast's table) */
static CacheState *cache_state(lua_State *L) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, STATE_KEY) == LUA_TUSERDATA) {
    CacheState *cs = lua_touserdata(L, -1);
    lua_pop(L, 1);
    return cs;
  }
  lua_pop(L, 1);
  CacheState *cs = lua_newuserdatauv(L, sizeof *cs, 0);
  memset(cs, 0, sizeof *cs);
  lua_setfield(L, LUA_REGISTRYINDEX, STATE_KEY);
  return cs;
}

/* ---- what the code depends on beyond the source ---- */

static void add_note(Compile *C, const CacheNote *n) {
  for (int i = 0; i < C->nnotes; i++) {
    const CacheNote *o = &C->notes[i];
    if (o->kind == n->kind && strcmp(o->name, n->name) == 0 && o->ival == n->ival &&
        memcmp(&o->fval, &n->fval, sizeof n->fval) == 0 && (n->kind != 'd' || strcmp(o->key, n->key) == 0) &&
        n->kind != 'D')
      return;
  }
  if (C->nnotes == C->capnotes) {
    int cap = C->capnotes ? 2 * C->capnotes : 8;
    CacheNote *p = arena_alloc(C->A, sizeof *p * (size_t)cap);
    if (C->nnotes) memcpy(p, C->notes, sizeof *p * (size_t)C->nnotes);
    C->notes = p;
    C->capnotes = cap;
  }
  C->notes[C->nnotes++] = *n;
}

void cache_note_value(Compile *C, const char *name, const Sym *s) {
  if (s->kind != SYM_CONST) return;  /* dispatchers are noted when called, with their key */
  CacheNote n;
  memset(&n, 0, sizeof n);
  n.name = arena_strdup(C->A, name);
  if (s->cty == ty_float64) {
    n.kind = 'f';
    n.fval = s->fval;
  } else {
    n.kind = s->cty == ty_bool ? 'b' : 'i';
    n.ival = s->ival;
  }
  add_note(C, &n);
}

void cache_note_absent(Compile *C, const char *name) {
  CacheNote n;
  memset(&n, 0, sizeof n);
  n.name = arena_strdup(C->A, name);
  n.kind = 'n';
  add_note(C, &n);
}

void cache_note_dispatcher(Compile *C, const char *name, const Sym *s) {
  CacheNote n;
  memset(&n, 0, sizeof n);
  n.name = arena_strdup(C->A, name);
  n.kind = 'D';
  n.ref = s->ref;
  add_note(C, &n);
}

void cache_note_callee(Compile *C, const char *name, int ref, const char *key, Type **argtypes, int nargs) {
  CacheNote n;
  memset(&n, 0, sizeof n);
  n.name = arena_strdup(C->A, name);
  n.kind = 'd';
  n.key = arena_strdup(C->A, key);
  n.ref = ref;
  n.argtypes = arena_alloc(C->A, sizeof(Type *) * (size_t)(nargs ? nargs : 1));
  memcpy(n.argtypes, argtypes, sizeof(Type *) * (size_t)nargs);
  n.nargs = nargs;
  add_note(C, &n);
}

/* ---- the key ---- */

void cache_key(Compile *C, LmJit *J, int disp_idx, FuncSpec *spec, Type *declared_ret,
               char hex[CACHE_KEY_HEX + 1]) {
  lua_State *L = C->L;
  const char *ids = cachekey_build_ids();
  char mem[512], core[200], mine[200];
  if (ids == NULL) {  /* backend.so's file is out of reach (a relative path after chdir): the libraries in memory */
    bool ok = cachekey_loaded_build_id((const void *)cachekey_build_ids, core, sizeof core) &&
              cachekey_loaded_build_id((const void *)cache_key, mine, sizeof mine);
    snprintf(mem, sizeof mem, "core %s backend %s (in memory)", ok ? core : "?", ok ? mine : "?");
    ids = mem;
  }
  Sha256 h;
  sha256_init(&h);
  cachekey_str(&h, "lumba cache key 1");
  cachekey_str(&h, LM_VERSION);
  cachekey_str(&h, ids ? ids : "unknown");
  cachekey_str(&h, LLVM_VERSION_STRING);
  cachekey_str(&h, jit_triple(J));
  cachekey_str(&h, jit_cpu_name(J));
  cachekey_str(&h, jit_cpu_features(J));
  if (C->opt.fastmath & FM_AFN) cachekey_str(&h, vecmath_name());  /* such code calls it */
  cachekey_str(&h, C->src.chunk);
  lua_getiuservalue(L, disp_idx, DISP_UV_SOURCE);
  cachekey_lua(L, C->A, &h, -1, 0);
  lua_pop(L, 1);
  cachekey_str(&h, spec->def->name);
  cachekey_u64(&h, (uint64_t)spec->nargs);
  for (int i = 0; i < spec->nargs; i++) cachekey_str(&h, spec->argtypes[i]->name);
  cachekey_str(&h, declared_ret ? declared_ret->name : "");
  /* every Options field that changes the code (cache itself does not) */
  cachekey_options(&h, &C->opt);
  int nkey = 0;
  for (int i = 0; i < C->nnotes; i++) nkey += C->notes[i].kind != 'n' && C->notes[i].kind != 'D';
  cachekey_u64(&h, (uint64_t)nkey);
  for (int i = 0; i < C->nnotes; i++) {
    const CacheNote *n = &C->notes[i];
    if (n->kind == 'n' || n->kind == 'D') continue;  /* only for the index */
    cachekey_tag(&h, n->kind);
    cachekey_str(&h, n->name);
    if (n->kind == 'd') {
      cachekey_str(&h, n->key);
    } else if (n->kind == 'f') {
      uint64_t bits;
      memcpy(&bits, &n->fval, sizeof bits);
      cachekey_u64(&h, bits);
    } else {
      cachekey_u64(&h, (uint64_t)n->ival);
    }
  }
  unsigned char d[SHA256_LEN];
  sha256_final(&h, d);
  sha256_hex(d, hex);
  C->prekey[0] = '\0';
  if (C->opt.cache && !cachekey_pre(L, disp_idx, spec->def->name, &C->opt, spec->argtypes, spec->nargs, declared_ret,
                                    C->prekey))
    C->prekey[0] = '\0';
}

/* ---- messages ---- */

/* "lumba cache: <what> f(int64, float64[:]) key <16 hex>: <why> (<path>)" */
static void debug_say(lua_State *L, const char *what, const char *name, const DispSpec *out, const char *why,
                      const char *path) {
  (void)L;
  if (!cachefile_debug()) return;
  char sig[512];
  fprintf(stderr, "lumba cache: %s %s(%s) key %.16s: %s (%s)\n", what, name,
          ty_args_text(out->argtypes, out->nargs, sig, sizeof sig), out->key, why, path);
}

/* One warning per state about the cache directory: through lumba.warnings(msg)
** when the module table has that function (an error in it is ignored:
** compilation goes on), else on stderr. */
static void warn_once(lua_State *L, CacheState *cs, const char *msg) {
  if (cs->warned) return;
  cs->warned = true;
  static const char *const mods[] = {"lumba", "lumba.core"};
  lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  for (size_t i = 0; i < lm_countof(mods); i++) {
    if (lua_getfield(L, -1, mods[i]) == LUA_TTABLE) {
      if (lua_getfield(L, -1, "warnings") == LUA_TFUNCTION) {
        lua_pushstring(L, msg);
        if (lua_pcall(L, 1, 0, 0) != LUA_OK) lua_pop(L, 1);
        lua_pop(L, 2);
        return;
      }
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  fprintf(stderr, "lumba: warning: %s\n", msg);
}

/* ---- files ---- */

static const char *push_dir(lua_State *L) {
  return cachefile_push_dir(L);
}

/* dir/<name>-<key>.lcache, pushed */
static const char *push_path(lua_State *L, const char *dir, const char *name, const char *key) {
  return cachefile_push_path(L, dir, name, key, CACHE_SUFFIX);
}

typedef CacheEntry Entry;

static bool read_entry(lua_State *L, const char *path, const char *key, const char *name, Entry *e, char *why,
                       size_t whylen) {
  return cachefile_read_entry(L, path, key, name, e, why, whylen);
}

/* Writes the entry through a temporary file renamed over path. 0, or an
** errno value and *what names the step that failed. No Lua calls. */

/* ---- the size cap: least recently used entries go ----
** Every hit sets its entry's modification time to now; a write that brings
** the entries over LUMBA_CACHE_MAX_BYTES removes the entries used longest
** ago until they fit again (never the one just written). Another process
** may remove an entry at any time: a reader then misses (no file, or the
** open fails), and a reader that has the file open still reads all of it. */

#define CACHE_DEFAULT_MAX_BYTES (256LL << 20)

static bool ends_with(const char *f, const char *suffix) {
  size_t n = strlen(f), k = strlen(suffix);
  return f[0] != '.' && n > k && strcmp(f + n - k, suffix) == 0;
}

/* entries: CPU code, and the PTX of kernels (kernel_cache.h) */
static bool is_entry(const char *f) {
  return ends_with(f, CACHE_SUFFIX) || ends_with(f, KCACHE_SUFFIX);
}

/* LUMBA_CACHE_MAX_BYTES: bytes, with an optional k, m or g (KiB, MiB,
** GiB); 0 for no cap; unset or unreadable: the default (256 MiB) */
static long long max_bytes(void) {
  const char *v = getenv("LUMBA_CACHE_MAX_BYTES");
  if (v == NULL || *v == '\0') return CACHE_DEFAULT_MAX_BYTES;
  char *end;
  errno = 0;
  long long n = strtoll(v, &end, 10);
  int shift = 0;
  switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    default: break;
  }
  if (errno != 0 || end == v || *end != '\0' || n < 0 || n > (LLONG_MAX >> shift)) return CACHE_DEFAULT_MAX_BYTES;
  return n << shift;
}

/* a hit: the entry is the most recently used (errors are ignored: a
** read-only directory still serves hits, in no useful order) */
static void touch_entry(const char *path) {
  utimensat(AT_FDCWD, path, NULL, 0);
}

typedef struct Victim {
  char *name;
  struct timespec mtime;
  long long size;
} Victim;

static int victim_cmp(const void *a, const void *b) {
  const Victim *x = a, *y = b;
  if (x->mtime.tv_sec != y->mtime.tv_sec) return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
  if (x->mtime.tv_nsec != y->mtime.tv_nsec) return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
  return strcmp(x->name, y->name);
}

/* after writing the entry `path` in dir: removes the least recently used
** entries while the entries' bytes exceed the cap. No Lua calls; out of
** memory or an unreadable directory leave the directory as it is. */
static void evict(const char *dir, const char *path) {
  long long cap = max_bytes();
  if (cap <= 0) return;
  const char *keep = strrchr(path, '/');
  keep = keep ? keep + 1 : path;
  DIR *d = opendir(dir);
  if (d == NULL) return;
  Victim *v = NULL;
  size_t n = 0, capv = 0;
  long long total = 0;
  bool ok = true;
  struct dirent *de;
  struct stat st;
  while (ok && (de = readdir(d)) != NULL) {
    if (!is_entry(de->d_name) || fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
      continue;
    total += (long long)st.st_size;
    if (strcmp(de->d_name, keep) == 0) continue;
    if (n == capv) {
      size_t c = capv ? 2 * capv : 64;
      Victim *p = realloc(v, sizeof *p * c);
      if (p == NULL) {
        ok = false;
        break;
      }
      v = p;
      capv = c;
    }
    v[n].name = strdup(de->d_name);
    v[n].mtime = st.st_mtim;
    v[n].size = (long long)st.st_size;
    if (v[n].name == NULL) ok = false;
    else n++;
  }
  if (ok && total > cap) {
    qsort(v, n, sizeof *v, victim_cmp);
    for (size_t i = 0; i < n && total > cap; i++)
      if (unlinkat(dirfd(d), v[i].name, 0) == 0 || errno == ENOENT) total -= v[i].size;  /* ENOENT: another process took it */
  }
  for (size_t i = 0; i < n; i++) free(v[i].name);
  free(v);
  closedir(d);
}

/* ---- fetch and store ---- */

/* Publishes the code of out under its key: a later specialization with the
** same key reuses it (fetch_jitted) while any user of it is alive. */
static void remember(lua_State *L, DispSpec *out) {
  char *err = NULL;
  if (jit_code_publish(out->code, out->key, out->symbol, out->llvm_ir, &err) != 0) {
    lua_pushfstring(L, "lumba: %s", err ? err : "out of memory");
    free(err);
    lua_error(L);
  }
}

static l_noret raise_jit(lua_State *L, const char *fmt, const char *arg, char *err) {
  lua_pushfstring(L, fmt, arg, err ? err : "out of memory");
  free(err);
  lua_error(L);
  LM_UNREACHABLE();
}

static void set_code(DispSpec *out, JitCode *c) {
  out->code = c;
  out->code_free = jit_code_release_v;
}

int cache_code_deps(Compile *C, JitCode *code, char **err) {
  LmJit *J = C->S->jit;
  /* a callee the fast path loaded has no JitCode (NULL): it stays until lua_close */
  for (int i = 0; i < C->nnotes; i++)
    if (C->notes[i].kind == 'd' && jit_code_depend(code, jit_code_find(J, C->notes[i].key), err) != 0) return -1;
  return 0;
}

/* Code already in this state's JIT: out shares it (no allocation before the
** reference is taken: a collection could remove it). Or code the fast path
** loaded, whose symbols lmstate_jit has defined in the JIT: mapped until
** lua_close, out holds no reference. */
static bool fetch_jitted(lua_State *L, LmJit *J, DispSpec *out) {
  const char *sym, *ir;
  JitCode *c = jit_code_find(J, out->key);
  if (c) {
    jit_code_retain(c);
    set_code(out, c);
    sym = jit_code_symbol(c);
    ir = jit_code_ir(c);
  } else {
    cachefast_push_loaded(L);
    if (lua_getfield(L, -1, out->key) != LUA_TTABLE) return false;
    lua_getfield(L, -1, "symbol");
    lua_getfield(L, -2, "ir");
    sym = lua_tostring(L, -2);
    ir = lua_tostring(L, -1);
    if (sym == NULL || ir == NULL) return false;
  }
  const char *wrap = lua_pushfstring(L, "%s_wrap", sym);
  char *err = NULL;
  void *w = jit_lookup(J, wrap, &err);
  if (w == NULL) raise_jit(L, "lumba: internal error: %s is gone from the JIT: %s", wrap, err);
  out->wrap = (int32_t(*)(LmErr *, int64_t *, int64_t *))w;
  out->symbol = strdup(sym);
  out->llvm_ir = strdup(ir);
  if (out->symbol == NULL || out->llvm_ir == NULL) luaL_error(L, "not enough memory");
  return true;
}

/* a disk entry that cannot be used after all: its code leaves the JIT (so
** its symbols can be defined again by the compilation that follows) */
static bool disk_miss(lua_State *L, CacheState *cs, DispSpec *out, const char *name, const char *why,
                      const char *path, int top) {
  JitCode *c = out->code;
  out->code = NULL;
  out->code_free = NULL;
  jit_code_release(c);
  cs->misses++;
  debug_say(L, "miss", name, out, why, path);
  unlink(path);
  lua_settop(L, top);
  return false;
}

bool cache_fetch(Compile *C, LmJit *J, const char *name, DispSpec *out) {
  lua_State *L = C->L;
  int top = lua_gettop(L);
  CacheState *cs = cache_state(L);
  bool done = fetch_jitted(L, J, out);
  lua_settop(L, top);
  if (done || !C->opt.cache) return done;
  const char *dir = push_dir(L);
  if (dir == NULL) {
    cs->misses++;
    debug_say(L, "miss", name, out, "no cache directory (set LUMBA_CACHE_DIR or HOME)", "-");
    lua_settop(L, top);
    return false;
  }
  const char *path = push_path(L, dir, name, out->key);
  Entry e;
  char why[200];
  if (!read_entry(L, path, out->key, name, &e, why, sizeof why)) {
    cs->misses++;
    debug_say(L, "miss", name, out, why, path);
    lua_settop(L, top);
    return false;
  }
  char *err = NULL;
  JitCode *code = jit_code_new(J, &err);
  if (code == NULL) raise_jit(L, "lumba: %s: %s", "cannot load cached code", err);
  set_code(out, code);
  if (cache_code_deps(C, code, &err) != 0) raise_jit(L, "lumba: %s: %s", "cannot load cached code", err);
  if (jit_code_add_object(code, e.obj, e.objlen, &err) != 0) {
    lua_pushfstring(L, "the JIT rejected the object: %s", err ? err : "?");
    free(err);
    return disk_miss(L, cs, out, name, lua_tostring(L, -1), path, top);
  }
  lua_pushlstring(L, e.sym, e.symlen);
  const char *sym = lua_tostring(L, -1);
  const char *wrap = lua_pushfstring(L, "%s_wrap", sym);
  void *w = jit_lookup(J, wrap, &err);
  if (w == NULL) {
    /* passed every check but does not link (a damaged symbol name with its
    ** checksum made right, an object of another build): a miss, rewritten */
    lua_pushfstring(L, "the entry cannot be linked: %s", err ? err : "?");
    free(err);
    return disk_miss(L, cs, out, name, lua_tostring(L, -1), path, top);
  }
  out->wrap = (int32_t(*)(LmErr *, int64_t *, int64_t *))w;
  out->symbol = strndup(e.sym, e.symlen);
  out->llvm_ir = strndup(e.ir, e.irlen);
  if (out->symbol == NULL || out->llvm_ir == NULL) luaL_error(L, "not enough memory");
  cs->hits++;
  debug_say(L, "hit", name, out, "loaded", path);
  touch_entry(path);
  remember(L, out);
  lua_settop(L, top);
  return true;
}


void cache_done(Compile *C, const char *name, DispSpec *out, const char *obj, size_t objlen) {
  lua_State *L = C->L;
  int top = lua_gettop(L);
  CacheState *cs = cache_state(L);
  remember(L, out);
  if (!C->opt.cache || obj == NULL) return;
  const char *dir = push_dir(L);
  if (dir == NULL) {
    warn_once(L, cs, "cache: no cache directory (set LUMBA_CACHE_DIR or HOME); compiled code is not cached");
    lua_settop(L, top);
    return;
  }
  const char *path = push_path(L, dir, name, out->key);
  const char *what = NULL;
  int e = cachefile_write_entry(dir, path, out->key, out->symbol, obj, objlen, out->llvm_ir, &what);
  if (e != 0) {
    const char *msg = lua_pushfstring(L, "cache: %s '%s' (%s); compiled code is not cached", what, dir,
                                      strerror(e));
    debug_say(L, "not stored", name, out, msg, path);
    warn_once(L, cs, msg);
  } else {
    cache_index(C, name, out);
    evict(dir, path);
  }
  lua_settop(L, top);
}

/* the index notes of C's notes: values and absences as they are; calls
** under the name their dispatcher was found as (its 'D' note); a 'D' note
** once per name */
static CacheIndexNote *index_notes(Compile *C, int *n) {
  CacheIndexNote *v = arena_alloc(C->A, sizeof *v * (size_t)(C->nnotes ? C->nnotes : 1));
  int k = 0;
  for (int i = 0; i < C->nnotes; i++) {
    const CacheNote *cn = &C->notes[i];
    CacheIndexNote *x = &v[k];
    memset(x, 0, sizeof *x);
    x->kind = cn->kind;
    x->name = cn->name;
    if (cn->kind == 'f') memcpy(&x->ival, &cn->fval, sizeof x->ival);
    else x->ival = cn->ival;
    if (cn->kind == 'd') {
      x->name = NULL;
      for (int j = 0; j < C->nnotes && !x->name; j++)
        if (C->notes[j].kind == 'D' && C->notes[j].ref == cn->ref) x->name = C->notes[j].name;
      if (x->name == NULL) return NULL;  /* not found through env/globals: no index */
      x->key = cn->key;
      x->nargs = cn->nargs;
      memcpy(x->argtypes, cn->argtypes, sizeof(Type *) * (size_t)cn->nargs);
    }
    bool dup = false;
    for (int j = 0; j < k && cn->kind == 'D'; j++) dup = dup || (v[j].kind == 'D' && strcmp(v[j].name, x->name) == 0);
    if (!dup) k++;
  }
  *n = k;
  return v;
}

void cache_index(Compile *C, const char *name, DispSpec *out) {
  lua_State *L = C->L;
  if (!C->opt.cache || C->prekey[0] == '\0') return;
  int top = lua_gettop(L);
  CacheIndex ix;
  memset(&ix, 0, sizeof ix);
  ix.key = out->key;
  ix.symbol = out->symbol;
  ix.wrap = lua_pushfstring(L, "%s_wrap", out->symbol);
  ix.ret = out->ret;
  ix.types = out->types ? out->types : "";
  ix.int_float_stores = out->int_float_stores;
  ix.notes = index_notes(C, &ix.nnotes);
  size_t len;
  char *bytes = ix.notes ? cachefile_index_bytes(C->prekey, &ix, &len) : NULL;
  const char *dir = bytes ? push_dir(L) : NULL;
  if (dir) {
    const char *path = cachefile_push_path(L, dir, name, C->prekey, CACHEFILE_INDEX_SUFFIX);
    const char *what;
    const void *parts[] = {bytes};
    int e = cachefile_write(dir, path, parts, &len, 1, &what);
    if (e != 0) debug_say(L, "index not stored", name, out, strerror(e), path);
  }
  free(bytes);
  lua_settop(L, top);
}

/* ---- lumba.cache ---- */

static bool is_index(const char *f) {
  return ends_with(f, CACHEFILE_INDEX_SUFFIX);
}

static bool is_tmp(const char *f) {
  return strncmp(f, CACHE_TMP_PREFIX, strlen(CACHE_TMP_PREFIX)) == 0;
}

/* specializations' code in this state's JIT; 0 before the first
** compilation and once the compiler is closed (a finalizer during
** lua_close may still ask: no error; "lumba.state" is state.c's key) */
static lua_Integer jitted_count(lua_State *L) {
  lua_Integer n = 0;
  if (lua_getfield(L, LUA_REGISTRYINDEX, "lumba.state") == LUA_TUSERDATA) {
    LmState *S = lua_touserdata(L, -1);
    if (!S->closed && S->jit) n = (lua_Integer)jit_code_count(S->jit);
  }
  lua_pop(L, 1);
  return n;
}

/* lumba.cache.info() → {dir=, entries=, bytes=, max_bytes=, hits=, misses=, fast_hits=, jitted=}:
** hits count both paths, fast_hits those of the fast path (cachefast.h) */
int cache_lua_info(lua_State *L);
int cache_lua_info(lua_State *L) {
  CacheState *cs = cache_state(L);
  lua_createtable(L, 0, 5);
  const char *dir = push_dir(L);
  lua_Integer entries = 0, bytes = 0;
  if (dir) {
    DIR *d = opendir(dir);
    if (d) {
      struct dirent *de;
      struct stat st;
      while ((de = readdir(d)) != NULL)
        if (is_entry(de->d_name) && fstatat(dirfd(d), de->d_name, &st, 0) == 0 && S_ISREG(st.st_mode)) {
          entries++;
          bytes += (lua_Integer)st.st_size;
        }
      closedir(d);
    }
    lua_setfield(L, -2, "dir");
  }
  lua_pushinteger(L, entries);
  lua_setfield(L, -2, "entries");
  lua_pushinteger(L, bytes);
  lua_setfield(L, -2, "bytes");
  lua_Integer fast = cachefast_hits(L);
  lua_pushinteger(L, cs->hits + fast);
  lua_setfield(L, -2, "hits");
  lua_pushinteger(L, fast);
  lua_setfield(L, -2, "fast_hits");
  lua_pushinteger(L, (lua_Integer)max_bytes());
  lua_setfield(L, -2, "max_bytes");
  lua_pushinteger(L, jitted_count(L));
  lua_setfield(L, -2, "jitted");
  lua_pushinteger(L, cs->misses);
  lua_setfield(L, -2, "misses");
  return 1;
}

/* lumba.cache.clear([dir]) → the number of entries removed (leftover
** temporary files go too); other files in the directory are left alone */
int cache_lua_clear(lua_State *L);
int cache_lua_clear(lua_State *L) {
  const char *dir = luaL_optstring(L, 1, NULL);
  if (dir == NULL) dir = push_dir(L);
  if (dir == NULL) return luaL_error(L, "lumba.cache.clear: no cache directory (set LUMBA_CACHE_DIR or HOME)");
  DIR *d = opendir(dir);
  if (d == NULL) {
    if (errno == ENOENT) {
      lua_pushinteger(L, 0);
      return 1;
    }
    return luaL_error(L, "lumba.cache.clear: cannot read '%s': %s", dir, strerror(errno));
  }
  lua_Integer n = 0;
  int failed = 0;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    bool entry = is_entry(de->d_name);
    if (!entry && !is_tmp(de->d_name) && !is_index(de->d_name)) continue;
    if (unlinkat(dirfd(d), de->d_name, 0) == 0) n += entry;
    else if (errno != ENOENT) failed = errno;
  }
  closedir(d);
  if (failed) return luaL_error(L, "lumba.cache.clear: cannot remove entries of '%s': %s", dir, strerror(failed));
  lua_pushinteger(L, n);
  return 1;
}
