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
#include "dispatch.h"
#include "sha256.h"

#define CACHE_MAGIC "LUMBAOBJ"
#define CACHE_FORMAT 1u
#define CACHE_SUFFIX ".lcache"
#define CACHE_TMP_PREFIX ".lumba-tmp-"
#define CACHE_MAX_FILE (1u << 30)   /* larger files are not ours */

/* header: magic[8] format[4] lumba_version[16] key[64] symlen[4] objlen[8] irlen[8] sha256[32] */
enum {
  H_MAGIC = 0, H_FORMAT = 8, H_VERSION = 12, H_KEY = 28, H_SYMLEN = 92, H_OBJLEN = 96,
  H_IRLEN = 104, H_SUM = 112, H_SIZE = 144
};

/* ---- per-state bookkeeping ---- */

#define STATE_KEY "lumba.cache"

typedef struct CacheState {
  lua_Integer hits, misses;  // disk lookups of this state
  bool warned;               // the one warning about an unwritable directory was given
  char build[96];            // build id of lumba.core (part of every key)
} CacheState;

static void find_build_id(char *out, size_t cap);

/* the state's CacheState (code already in the JIT is found by key in the
** JIT itself: jit_code_find) */
static CacheState *cache_state(lua_State *L) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, STATE_KEY) == LUA_TUSERDATA) {
    CacheState *cs = lua_touserdata(L, -1);
    lua_pop(L, 1);
    return cs;
  }
  lua_pop(L, 1);
  CacheState *cs = lua_newuserdatauv(L, sizeof *cs, 0);
  memset(cs, 0, sizeof *cs);
  find_build_id(cs->build, sizeof cs->build);
  lua_setfield(L, LUA_REGISTRYINDEX, STATE_KEY);
  return cs;
}

/* ---- the build id of the library this code is in ---- */

typedef struct BuildSearch {
  uintptr_t addr;  // an address inside lumba.core
  char *out;
  size_t cap;
} BuildSearch;

static void hex_of(const unsigned char *p, size_t n, char *out, size_t cap) {
  static const char digits[] = "0123456789abcdef";
  size_t k = 0;
  for (size_t i = 0; i < n && k + 2 < cap; i++) {
    out[k++] = digits[p[i] >> 4];
    out[k++] = digits[p[i] & 15];
  }
  out[k] = '\0';
}

/* dl_iterate_phdr callback: the object holding b->addr; its GNU build-id
** note, else the size and time of its file */
static int build_cb(struct dl_phdr_info *info, size_t size, void *ud) {
  BuildSearch *b = ud;
  (void)size;
  bool mine = false;
  for (int i = 0; i < info->dlpi_phnum && !mine; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    mine = ph->p_type == PT_LOAD && b->addr >= lo && b->addr < lo + ph->p_memsz;
  }
  if (!mine) return 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_NOTE) continue;
    const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
    const unsigned char *end = p + ph->p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)(const void *)p;
      const unsigned char *name = p + sizeof *nh;
      const unsigned char *desc = name + ((nh->n_namesz + 3) & ~3u);
      if (desc + nh->n_descsz > end) break;
      if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
        hex_of(desc, nh->n_descsz, b->out, b->cap);
        return 1;
      }
      p = desc + ((nh->n_descsz + 3) & ~3u);
    }
  }
  struct stat st;
  const char *file = info->dlpi_name && *info->dlpi_name ? info->dlpi_name : "/proc/self/exe";
  if (stat(file, &st) == 0)
    snprintf(b->out, b->cap, "size %lld mtime %lld.%09ld", (long long)st.st_size, (long long)st.st_mtim.tv_sec,
             (long)st.st_mtim.tv_nsec);
  return 1;
}

/* Part of the key: a rebuilt lumba.core (a changed code generator under the
** same LM_VERSION) never loads objects of the previous build. */
static void find_build_id(char *out, size_t cap) {
  BuildSearch b = {(uintptr_t)(void *)find_build_id, out, cap};
  snprintf(out, cap, "unknown");
  dl_iterate_phdr(build_cb, &b);
}

/* ---- what the code depends on beyond the source ---- */

static void add_note(Compile *C, const CacheNote *n) {
  for (int i = 0; i < C->nnotes; i++) {
    const CacheNote *o = &C->notes[i];
    if (o->kind == n->kind && strcmp(o->name, n->name) == 0 && o->ival == n->ival &&
        memcmp(&o->fval, &n->fval, sizeof n->fval) == 0 && (n->kind != 'd' || strcmp(o->key, n->key) == 0))
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

void cache_note_callee(Compile *C, const char *name, const char *key) {
  CacheNote n;
  memset(&n, 0, sizeof n);
  n.name = arena_strdup(C->A, name);
  n.kind = 'd';
  n.key = arena_strdup(C->A, key);
  add_note(C, &n);
}

/* ---- the key ---- */

/* every field is length- or tag-prefixed, so no two inputs hash alike */
static void put_u64(Sha256 *h, uint64_t v) {
  unsigned char b[8];
  for (int i = 0; i < 8; i++) b[i] = (unsigned char)(v >> (8 * i));
  sha256_update(h, b, 8);
}

static void put_bytes(Sha256 *h, const void *p, size_t n) {
  put_u64(h, n);
  sha256_update(h, p, n);
}

static void put_str(Sha256 *h, const char *s) {
  put_bytes(h, s ? s : "", s ? strlen(s) : 0);
}

static void put_tag(Sha256 *h, char t) {
  sha256_update(h, &t, 1);
}

typedef struct KeyItem {
  int type;            // LUA_TNUMBER, LUA_TSTRING, other
  bool isint;
  lua_Integer i;
  double f;
  const char *s;
  size_t len;
  int ref;             // stack slot holding the key while the table is dumped
} KeyItem;

/* keys in a fixed order: integers and floats by value, then strings by bytes */
static int key_cmp(const void *a, const void *b) {
  const KeyItem *x = a, *y = b;
  if (x->type != y->type) return x->type < y->type ? -1 : 1;
  if (x->type == LUA_TNUMBER) {
    double dx = x->isint ? (double)x->i : x->f, dy = y->isint ? (double)y->i : y->f;
    if (dx != dy) return dx < dy ? -1 : 1;
    if (x->isint != y->isint) return x->isint ? -1 : 1;
    return x->isint && x->i != y->i ? (x->i < y->i ? -1 : 1) : 0;
  }
  if (x->type == LUA_TSTRING) {
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->s, y->s, n);
    return c ? c : (x->len < y->len ? -1 : x->len > y->len);
  }
  return 0;
}

/* A canonical dump of the Lua value at idx (a Lua-table AST): tables with
** their keys sorted, numbers by type and bits. Functions and userdata
** count by type only (the AST reader ignores them). */
static void put_lua(Compile *C, Sha256 *h, int idx, int depth) {
  lua_State *L = C->L;
  idx = lua_absindex(L, idx);
  switch (lua_type(L, idx)) {
    case LUA_TNIL: put_tag(h, 'n'); return;
    case LUA_TBOOLEAN: put_tag(h, lua_toboolean(L, idx) ? 'T' : 'F'); return;
    case LUA_TNUMBER:
      if (lua_isinteger(L, idx)) {
        put_tag(h, 'i');
        put_u64(h, (uint64_t)lua_tointeger(L, idx));
      } else {
        double d = lua_tonumber(L, idx);
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        put_tag(h, 'f');
        put_u64(h, bits);
      }
      return;
    case LUA_TSTRING: {
      size_t len;
      const char *s = lua_tolstring(L, idx, &len);
      put_tag(h, 's');
      put_bytes(h, s, len);
      return;
    }
    case LUA_TTABLE: break;
    default: put_tag(h, '?'); put_str(h, luaL_typename(L, idx)); return;
  }
  if (depth > 4 * LM_MAXNEST) {  /* deeper than any AST the reader accepts (a cycle) */
    put_tag(h, 'D');
    return;
  }
  luaL_checkstack(L, 8, "AST too deep");
  int n = 0, cap = 16;
  KeyItem *items = arena_alloc(C->A, sizeof *items * (size_t)cap);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pop(L, 1);
    if (n == cap) {
      KeyItem *p = arena_alloc(C->A, sizeof *p * (size_t)cap * 2);
      memcpy(p, items, sizeof *p * (size_t)n);
      items = p;
      cap *= 2;
    }
    KeyItem *it = &items[n++];
    memset(it, 0, sizeof *it);
    it->type = lua_type(L, -1);
    if (it->type == LUA_TNUMBER) {
      it->isint = lua_isinteger(L, -1);
      it->i = lua_tointeger(L, -1);
      it->f = lua_tonumber(L, -1);
    } else if (it->type == LUA_TSTRING) {
      it->s = lua_tolstring(L, -1, &it->len);  /* the table keeps the string alive */
    }
  }
  qsort(items, (size_t)n, sizeof *items, key_cmp);
  put_tag(h, 't');
  put_u64(h, (uint64_t)n);
  for (int i = 0; i < n; i++) {
    KeyItem *it = &items[i];
    if (it->type == LUA_TNUMBER) {
      if (it->isint) lua_pushinteger(L, it->i);
      else lua_pushnumber(L, it->f);
    } else if (it->type == LUA_TSTRING) {
      lua_pushlstring(L, it->s, it->len);
    } else {
      put_tag(h, '?');  /* a key of another type: only its presence counts */
      continue;
    }
    put_lua(C, h, -1, depth + 1);
    lua_rawget(L, idx);
    put_lua(C, h, -1, depth + 1);
    lua_pop(L, 1);
  }
}

void cache_key(Compile *C, LmJit *J, int disp_idx, FuncSpec *spec, Type *declared_ret,
               char hex[CACHE_KEY_HEX + 1]) {
  lua_State *L = C->L;
  CacheState *cs = cache_state(L);
  Sha256 h;
  sha256_init(&h);
  put_str(&h, "lumba cache key 1");
  put_str(&h, LM_VERSION);
  put_str(&h, cs->build);
  put_str(&h, LLVM_VERSION_STRING);
  put_str(&h, jit_triple(J));
  put_str(&h, jit_cpu_name(J));
  put_str(&h, jit_cpu_features(J));
  put_str(&h, C->src.chunk);
  lua_getiuservalue(L, disp_idx, DISP_UV_SOURCE);
  put_lua(C, &h, -1, 0);
  lua_pop(L, 1);
  put_str(&h, spec->def->name);
  put_u64(&h, (uint64_t)spec->nargs);
  for (int i = 0; i < spec->nargs; i++) put_str(&h, spec->argtypes[i]->name);
  put_str(&h, declared_ret ? declared_ret->name : "");
  /* every Options field that changes the code (cache itself does not) */
  put_u64(&h, C->opt.boundscheck);
  put_u64(&h, C->opt.error_model_numpy);
  put_u64(&h, C->opt.fastmath);
  put_u64(&h, C->opt.parallel);
  put_u64(&h, C->opt.gpu);
  put_u64(&h, C->opt.device);
  put_u64(&h, C->opt.lua);
  put_u64(&h, (uint64_t)C->nnotes);
  for (int i = 0; i < C->nnotes; i++) {
    const CacheNote *n = &C->notes[i];
    put_tag(&h, n->kind);
    put_str(&h, n->name);
    if (n->kind == 'd') {
      put_str(&h, n->key);
    } else if (n->kind == 'f') {
      uint64_t bits;
      memcpy(&bits, &n->fval, sizeof bits);
      put_u64(&h, bits);
    } else {
      put_u64(&h, (uint64_t)n->ival);
    }
  }
  unsigned char d[SHA256_LEN];
  sha256_final(&h, d);
  sha256_hex(d, hex);
}

/* ---- messages ---- */

static bool debug_on(void) {
  const char *v = getenv("LUMBA_DEBUG_CACHE");
  return v && *v && strcmp(v, "0") != 0;
}

/* "f(int64, float64[:])" of the specialization being compiled */
static const char *spec_label(lua_State *L, const DispSpec *out, const char *name) {
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  luaL_addstring(&b, name);
  luaL_addchar(&b, '(');
  for (int i = 0; i < out->nargs; i++) {
    if (i) luaL_addstring(&b, ", ");
    luaL_addstring(&b, out->argtypes[i]->name);
  }
  luaL_addchar(&b, ')');
  luaL_pushresult(&b);
  return lua_tostring(L, -1);
}

static void debug_say(lua_State *L, const char *what, const char *name, const DispSpec *out, const char *why,
                      const char *path) {
  if (!debug_on()) return;
  const char *label = spec_label(L, out, name);
  fprintf(stderr, "lumba cache: %s %s key %.16s: %s (%s)\n", what, label, out->key, why, path);
  lua_pop(L, 1);
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

/* the cache directory, pushed; NULL (nothing pushed) when there is none */
static const char *push_dir(lua_State *L) {
  const char *d = getenv("LUMBA_CACHE_DIR");
  if (d && *d) return lua_pushstring(L, d);
  d = getenv("XDG_CACHE_HOME");
  if (d && *d == '/') return lua_pushfstring(L, "%s/lumba", d);
  d = getenv("HOME");
  if (d && *d) return lua_pushfstring(L, "%s/.cache/lumba", d);
  return NULL;
}

/* dir/<name>-<key>.lcache, pushed (the name made file-safe, for people) */
static const char *push_path(lua_State *L, const char *dir, const char *name, const char *key) {
  char safe[65];
  size_t n = 0;
  for (; name[n] && n < sizeof safe - 1; n++) {
    char c = name[n];
    safe[n] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ? c : '_';
  }
  safe[n] = '\0';
  return lua_pushfstring(L, "%s/%s-%s" CACHE_SUFFIX, dir, safe, key);
}

static void put_le(unsigned char *p, uint64_t v, int n) {
  for (int i = 0; i < n; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

/* the symbol prefix every entry of this key must have: "<name>__<16 hex>_" */
static bool symbol_ok(const char *sym, size_t len, const char *name, const char *key) {
  char want[300];
  int n = snprintf(want, sizeof want, "%s__%.*s_", name, CACHE_TAG_HEX, key);
  if (n < 0 || (size_t)n >= sizeof want || len > 250 || len <= (size_t)n || memcmp(sym, want, (size_t)n) != 0)
    return false;
  for (size_t i = (size_t)n; i < len; i++)
    if (sym[i] < '0' || sym[i] > '9') return false;
  return true;
}

typedef struct Entry {
  const char *sym, *obj, *ir;
  size_t symlen, objlen, irlen;
} Entry;

static bool read_all(int fd, unsigned char *p, size_t n) {
  while (n > 0) {
    ssize_t r = read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    n -= (size_t)r;
  }
  return true;
}

/* Reads and checks the entry at path. True: e points into a userdata
** pushed on the stack. False: why says what failed, nothing pushed. No Lua
** call runs while the file is open (none can raise past the close). */
static bool read_entry(lua_State *L, const char *path, const char *key, const char *name, Entry *e, char *why,
                       size_t whylen) {
  struct stat st;
  if (stat(path, &st) != 0) {
    snprintf(why, whylen, errno == ENOENT ? "no file" : "cannot stat the file: %s", strerror(errno));
    return false;
  }
  if (!S_ISREG(st.st_mode) || st.st_size < H_SIZE || st.st_size > CACHE_MAX_FILE) {
    snprintf(why, whylen, S_ISREG(st.st_mode) ? "bad size (%lld bytes)" : "not a regular file", (long long)st.st_size);
    return false;
  }
  size_t size = (size_t)st.st_size;
  unsigned char *buf = lua_newuserdatauv(L, size, 0);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    snprintf(why, whylen, "cannot open the file: %s", strerror(errno));
    lua_pop(L, 1);
    return false;
  }
  struct stat st2;
  bool ok = fstat(fd, &st2) == 0 && st2.st_size == st.st_size && read_all(fd, buf, size);
  close(fd);
  const char *bad = NULL;
  uint64_t symlen = get_le(buf + H_SYMLEN, 4), objlen = get_le(buf + H_OBJLEN, 8), irlen = get_le(buf + H_IRLEN, 8);
  char version[17];
  memcpy(version, buf + H_VERSION, 16);
  version[16] = '\0';
  if (!ok) bad = "the file changed or could not be read";
  else if (memcmp(buf + H_MAGIC, CACHE_MAGIC, 8) != 0) bad = "bad header (not a lumba cache file)";
  else if (get_le(buf + H_FORMAT, 4) != CACHE_FORMAT)
    snprintf(why, whylen, "format version %u (this lumba reads %u)", (unsigned)get_le(buf + H_FORMAT, 4), CACHE_FORMAT);
  else if (strcmp(version, LM_VERSION) != 0)
    snprintf(why, whylen, "written by lumba %.16s (this is %s)", version, LM_VERSION);
  else if (memcmp(buf + H_KEY, key, CACHE_KEY_HEX) != 0) bad = "bad header (another key)";
  else if (symlen > size || objlen > size || irlen > size || H_SIZE + symlen + objlen + irlen != size)
    snprintf(why, whylen, "truncated or padded (%zu bytes, the header says %llu)", size,
             (unsigned long long)(H_SIZE + symlen + objlen + irlen));
  else {
    unsigned char sum[SHA256_LEN];
    sha256(buf + H_SIZE, size - H_SIZE, sum);
    if (memcmp(sum, buf + H_SUM, SHA256_LEN) != 0) bad = "checksum mismatch";
    else if (!symbol_ok((const char *)buf + H_SIZE, (size_t)symlen, name, key)) bad = "unexpected symbol name";
    else {
      e->sym = (const char *)buf + H_SIZE;
      e->symlen = (size_t)symlen;
      e->obj = e->sym + symlen;
      e->objlen = (size_t)objlen;
      e->ir = e->obj + objlen;
      e->irlen = (size_t)irlen;
      return true;
    }
  }
  if (bad) snprintf(why, whylen, "%s", bad);
  lua_pop(L, 1);
  return false;
}

/* mkdir -p with mode 0700 (XDG's rule for cache directories) */
static int make_dirs(const char *dir) {
  char buf[4096];
  size_t n = strlen(dir);
  if (n == 0 || n >= sizeof buf) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(buf, dir, n + 1);
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(buf, 0700) != 0 && errno != EEXIST) return -1;
    *p = '/';
  }
  if (mkdir(buf, 0700) != 0 && errno != EEXIST) return -1;
  return 0;
}

static bool write_all(int fd, const void *data, size_t n) {
  const char *p = data;
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= (size_t)w;
  }
  return true;
}

/* Writes the entry through a temporary file renamed over path. 0, or an
** errno value and *what names the step that failed. No Lua calls. */
static int write_entry(const char *dir, const char *path, const char *key, const char *sym, const char *obj,
                       size_t objlen, const char *ir, const char **what) {
  size_t symlen = strlen(sym), irlen = ir ? strlen(ir) : 0;
  unsigned char h[H_SIZE];
  memset(h, 0, sizeof h);
  memcpy(h + H_MAGIC, CACHE_MAGIC, 8);
  put_le(h + H_FORMAT, CACHE_FORMAT, 4);
  memcpy(h + H_VERSION, LM_VERSION, strlen(LM_VERSION) < 16 ? strlen(LM_VERSION) : 16);
  memcpy(h + H_KEY, key, CACHE_KEY_HEX);
  put_le(h + H_SYMLEN, symlen, 4);
  put_le(h + H_OBJLEN, objlen, 8);
  put_le(h + H_IRLEN, irlen, 8);
  Sha256 s;
  sha256_init(&s);
  sha256_update(&s, sym, symlen);
  sha256_update(&s, obj, objlen);
  sha256_update(&s, ir ? ir : "", irlen);
  sha256_final(&s, h + H_SUM);
  *what = "cannot create the cache directory";
  if (make_dirs(dir) != 0) return errno;
  char tmp[4096];
  if ((size_t)snprintf(tmp, sizeof tmp, "%s/" CACHE_TMP_PREFIX "XXXXXX", dir) >= sizeof tmp) return ENAMETOOLONG;
  *what = "cannot write to the cache directory";
  int fd = mkostemp(tmp, O_CLOEXEC);
  if (fd < 0) return errno;
  bool ok = write_all(fd, h, sizeof h) && write_all(fd, sym, symlen) && write_all(fd, obj, objlen) &&
            write_all(fd, ir ? ir : "", irlen);
  int err = ok ? 0 : errno ? errno : EIO;
  if (ok) fchmod(fd, 0644);
  if (close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (ok && rename(tmp, path) != 0) {
    ok = false;
    err = errno;
  }
  if (!ok) unlink(tmp);
  return ok ? 0 : err;
}

/* ---- the size cap: least recently used entries go ----
** Every hit sets its entry's modification time to now; a write that brings
** the entries over LUMBA_CACHE_MAX_BYTES removes the entries used longest
** ago until they fit again (never the one just written). Another process
** may remove an entry at any time: a reader then misses (no file, or the
** open fails), and a reader that has the file open still reads all of it. */

#define CACHE_DEFAULT_MAX_BYTES (256LL << 20)

static bool is_entry(const char *f) {
  size_t n = strlen(f), k = strlen(CACHE_SUFFIX);
  return f[0] != '.' && n > k && strcmp(f + n - k, CACHE_SUFFIX) == 0;
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

static char *dup_n(const char *s, size_t n) {
  char *p = malloc(n + 1);
  if (p) {
    memcpy(p, s, n);
    p[n] = '\0';
  }
  return p;
}

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
  for (int i = 0; i < C->nnotes; i++)
    if (C->notes[i].kind == 'd' && jit_code_depend(code, jit_code_find(J, C->notes[i].key), err) != 0) return -1;
  return 0;
}

/* code already in this state's JIT: out shares it (no allocation before the
** reference is taken: a collection could remove it) */
static bool fetch_jitted(lua_State *L, LmJit *J, DispSpec *out) {
  JitCode *c = jit_code_find(J, out->key);
  if (c == NULL) return false;
  jit_code_retain(c);
  set_code(out, c);
  const char *sym = jit_code_symbol(c), *ir = jit_code_ir(c);
  const char *wrap = lua_pushfstring(L, "%s_wrap", sym);
  char *err = NULL;
  void *w = jit_lookup(J, wrap, &err);
  if (w == NULL) raise_jit(L, "lumba: internal error: %s is gone from the JIT: %s", wrap, err);
  out->wrap = (int32_t(*)(LmErr *, int64_t *, int64_t *))w;
  out->symbol = dup_n(sym, strlen(sym));
  out->llvm_ir = dup_n(ir, strlen(ir));
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
  out->symbol = dup_n(e.sym, e.symlen);
  out->llvm_ir = dup_n(e.ir, e.irlen);
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
  int e = write_entry(dir, path, out->key, out->symbol, obj, objlen, out->llvm_ir, &what);
  if (e != 0) {
    const char *msg = lua_pushfstring(L, "cache: %s '%s' (%s); compiled code is not cached", what, dir,
                                      strerror(e));
    debug_say(L, "not stored", name, out, msg, path);
    warn_once(L, cs, msg);
  } else {
    evict(dir, path);
  }
  lua_settop(L, top);
}

/* ---- lumba.cache ---- */

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

/* lumba.cache.info() → {dir=, entries=, bytes=, max_bytes=, hits=, misses=, jitted=} */
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
  lua_pushinteger(L, (lua_Integer)max_bytes());
  lua_setfield(L, -2, "max_bytes");
  lua_pushinteger(L, cs->hits);
  lua_setfield(L, -2, "hits");
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
    if (!entry && !is_tmp(de->d_name)) continue;
    if (unlinkat(dirfd(d), de->d_name, 0) == 0) n += entry;
    else if (errno != ENOENT) failed = errno;
  }
  closedir(d);
  if (failed) return luaL_error(L, "lumba.cache.clear: cannot remove entries of '%s': %s", dir, strerror(failed));
  lua_pushinteger(L, n);
  return 1;
}
