/*
** cachekey.c — the hashing both cache keys share, the build ids and the
** host fingerprint (cachekey.h). Runs in core.so before the backend is
** loaded: no LLVM calls, and nothing that waits for the dynamic loader's
** lock (no dlsym, no dladdr) while the backend loads on another thread.
*/
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <lauxlib.h>
#include <llvm/Config/llvm-config.h>

#include "cachekey.h"
#include "dispatch.h"
#include "fastmath.h"

/* ---- fields ---- */

void cachekey_u64(Sha256 *h, uint64_t v) {
  unsigned char b[8];
  for (int i = 0; i < 8; i++) b[i] = (unsigned char)(v >> (8 * i));
  sha256_update(h, b, 8);
}

void cachekey_bytes(Sha256 *h, const void *p, size_t n) {
  cachekey_u64(h, n);
  sha256_update(h, p, n);
}

void cachekey_str(Sha256 *h, const char *s) {
  cachekey_bytes(h, s ? s : "", s ? strlen(s) : 0);
}

void cachekey_tag(Sha256 *h, char t) {
  sha256_update(h, &t, 1);
}

void cachekey_options(Sha256 *h, const Options *o) {
  cachekey_u64(h, o->boundscheck);
  cachekey_u64(h, o->error_model_numpy);
  cachekey_u64(h, o->fastmath);
  cachekey_u64(h, o->parallel);
  cachekey_u64(h, o->gpu);
  cachekey_u64(h, o->device);
  cachekey_u64(h, o->lua);
}

typedef struct KeyItem {
  int type;            // LUA_TNUMBER, LUA_TSTRING, other
  bool isint;
  lua_Integer i;
  double f;
  const char *s;
  size_t len;
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
void cachekey_lua(lua_State *L, Arena *A, Sha256 *h, int idx, int depth) {
  idx = lua_absindex(L, idx);
  switch (lua_type(L, idx)) {
    case LUA_TNIL: cachekey_tag(h, 'n'); return;
    case LUA_TBOOLEAN: cachekey_tag(h, lua_toboolean(L, idx) ? 'T' : 'F'); return;
    case LUA_TNUMBER:
      if (lua_isinteger(L, idx)) {
        cachekey_tag(h, 'i');
        cachekey_u64(h, (uint64_t)lua_tointeger(L, idx));
      } else {
        double d = lua_tonumber(L, idx);
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        cachekey_tag(h, 'f');
        cachekey_u64(h, bits);
      }
      return;
    case LUA_TSTRING: {
      size_t len;
      const char *s = lua_tolstring(L, idx, &len);
      cachekey_tag(h, 's');
      cachekey_bytes(h, s, len);
      return;
    }
    case LUA_TTABLE: break;
    default: cachekey_tag(h, '?'); cachekey_str(h, luaL_typename(L, idx)); return;
  }
  if (depth > 4 * LM_MAXNEST) {  /* deeper than any AST the reader accepts (a cycle) */
    cachekey_tag(h, 'D');
    return;
  }
  luaL_checkstack(L, 8, "AST too deep");
  int n = 0, cap = 16;
  KeyItem *items = arena_alloc(A, sizeof *items * (size_t)cap);
  if (items == NULL) luaL_error(L, "not enough memory");
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pop(L, 1);
    if (n == cap) {
      KeyItem *p = arena_alloc(A, sizeof *p * (size_t)cap * 2);
      if (p == NULL) luaL_error(L, "not enough memory");
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
  cachekey_tag(h, 't');
  cachekey_u64(h, (uint64_t)n);
  for (int i = 0; i < n; i++) {
    KeyItem *it = &items[i];
    if (it->type == LUA_TNUMBER) {
      if (it->isint) lua_pushinteger(L, it->i);
      else lua_pushnumber(L, it->f);
    } else if (it->type == LUA_TSTRING) {
      lua_pushlstring(L, it->s, it->len);
    } else {
      cachekey_tag(h, '?');  /* a key of another type: only its presence counts */
      continue;
    }
    cachekey_lua(L, A, h, -1, depth + 1);
    lua_rawget(L, idx);
    cachekey_lua(L, A, h, -1, depth + 1);
    lua_pop(L, 1);
  }
}

/* ---- build ids ---- */

static void hex_of(const unsigned char *p, size_t n, char *out, size_t cap) {
  static const char digits[] = "0123456789abcdef";
  size_t k = 0;
  for (size_t i = 0; i < n && k + 2 < cap; i++) {
    out[k++] = digits[p[i] >> 4];
    out[k++] = digits[p[i] & 15];
  }
  out[k] = '\0';
}

/* the GNU build-id note among n bytes of notes; false if none */
static bool note_build_id(const unsigned char *p, size_t n, char *out, size_t cap) {
  const unsigned char *end = p + n;
  while ((size_t)(end - p) >= sizeof(ElfW(Nhdr))) {
    ElfW(Nhdr) nh;
    memcpy(&nh, p, sizeof nh);
    size_t namesz = ((size_t)nh.n_namesz + 3) & ~(size_t)3, descsz = ((size_t)nh.n_descsz + 3) & ~(size_t)3;
    const unsigned char *name = p + sizeof nh;
    if ((size_t)(end - name) < namesz || (size_t)(end - name - namesz) < nh.n_descsz) return false;
    if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
      hex_of(name + namesz, nh.n_descsz, out, cap);
      return true;
    }
    if ((size_t)(end - name - namesz) < descsz) return false;
    p = name + namesz + descsz;
  }
  return false;
}

/* the build id of the ELF file at path (its PT_NOTE segments), else its
** size and modification time; false when it cannot be read */
static bool file_build_id(const char *path, char *out, size_t cap) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  bool ok = fstat(fd, &st) == 0;
  ElfW(Ehdr) eh;
  bool found = false;
  if (ok && pread(fd, &eh, sizeof eh, 0) == (ssize_t)sizeof eh && memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
      eh.e_phentsize == sizeof(ElfW(Phdr)) && eh.e_phnum < 64) {
    for (int i = 0; i < eh.e_phnum && !found; i++) {
      ElfW(Phdr) ph;
      if (pread(fd, &ph, sizeof ph, (off_t)(eh.e_phoff + (size_t)i * sizeof ph)) != (ssize_t)sizeof ph) break;
      if (ph.p_type != PT_NOTE || ph.p_filesz > 4096) continue;
      unsigned char notes[4096];
      if (pread(fd, notes, ph.p_filesz, (off_t)ph.p_offset) != (ssize_t)ph.p_filesz) break;
      found = note_build_id(notes, ph.p_filesz, out, cap);
    }
  }
  close(fd);
  if (ok && !found)
    snprintf(out, cap, "size %lld mtime %lld.%09ld", (long long)st.st_size, (long long)st.st_mtim.tv_sec,
             (long)st.st_mtim.tv_nsec);
  return ok;
}

typedef struct BuildSearch {
  uintptr_t addr;  // an address inside the library
  char path[4096];
  char id[200];    // its build id, from its notes in memory ("" if none)
} BuildSearch;

/* dl_iterate_phdr callback: the file name and build id of the object
** holding b->addr */
static int find_self(struct dl_phdr_info *info, size_t size, void *ud) {
  BuildSearch *b = ud;
  (void)size;
  bool mine = false;
  for (int i = 0; i < info->dlpi_phnum && !mine; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    mine = ph->p_type == PT_LOAD && b->addr >= lo && b->addr < lo + ph->p_memsz;
  }
  if (!mine) return 0;
  snprintf(b->path, sizeof b->path, "%s", info->dlpi_name && *info->dlpi_name ? info->dlpi_name : "/proc/self/exe");
  b->id[0] = '\0';
  for (int i = 0; i < info->dlpi_phnum && !b->id[0]; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_NOTE)
      note_build_id((const unsigned char *)(info->dlpi_addr + ph->p_vaddr), ph->p_memsz, b->id, sizeof b->id);
  }
  return 1;
}

bool cachekey_loaded_build_id(const void *addr, char *out, size_t cap) {
  BuildSearch b;
  memset(&b, 0, sizeof b);
  b.addr = (uintptr_t)addr;
  if (!dl_iterate_phdr(find_self, &b) || b.id[0] == '\0') return false;
  snprintf(out, cap, "%s", b.id);
  return true;
}

static pthread_once_t ids_once = PTHREAD_ONCE_INIT;
static char ids[512];  /* set once under ids_once, then only read */
static bool ids_ok;

static void find_ids(void) {
  static BuildSearch b;
  b.addr = (uintptr_t)(void *)find_ids;
  if (!dl_iterate_phdr(find_self, &b)) return;
  char core[200], backend[200], path[4096 + 16];
  if (b.id[0]) snprintf(core, sizeof core, "%s", b.id);
  else if (!file_build_id(b.path, core, sizeof core)) return;
  char *slash = strrchr(b.path, '/');
  size_t dir = slash ? (size_t)(slash - b.path + 1) : 0;
  snprintf(path, sizeof path, "%.*sbackend.so", (int)dir, b.path);
  if (!file_build_id(path, backend, sizeof backend)) return;
  snprintf(ids, sizeof ids, "core %s backend %s", core, backend);
  ids_ok = true;
}

const char *cachekey_build_ids(void) {
  pthread_once(&ids_once, find_ids);
  return ids_ok ? ids : NULL;
}

/* ---- the host ---- */

static pthread_once_t host_once = PTHREAD_ONCE_INIT;
static char host[2 * SHA256_LEN + 1];  /* set once under host_once */

static void find_host(void) {
  Sha256 h;
  sha256_init(&h);
  cachekey_str(&h, "lumba host 1");
#if defined(__x86_64__) || defined(__i386__)
  unsigned a, b, c, d;
  unsigned max = __get_cpuid_max(0, NULL), ext = __get_cpuid_max(0x80000000u, NULL);
  /* leaf, subleaf, which registers (a b c d) count: the ones LLVM's
  ** getHostCPUName and getHostCPUFeatures read (leaf 1's ebx holds the
  ** APIC id, which differs from core to core) */
  static const struct { unsigned leaf, sub; const char *regs; } leaves[] = {
      {0, 0, "abcd"}, {1, 0, "acd"}, {7, 0, "bcd"}, {7, 1, "a"}, {0xd, 1, "a"}, {0x14, 0, "b"}, {0x19, 0, "b"},
      {0x80000001u, 0, "cd"}, {0x80000008u, 0, "b"},
  };
  for (size_t i = 0; i < sizeof leaves / sizeof leaves[0]; i++) {
    unsigned top = leaves[i].leaf >= 0x80000000u ? ext : max;
    a = b = c = d = 0;
    if (leaves[i].leaf <= top) __cpuid_count(leaves[i].leaf, leaves[i].sub, a, b, c, d);
    for (const char *r = leaves[i].regs; *r; r++) cachekey_u64(&h, *r == 'a' ? a : *r == 'b' ? b : *r == 'c' ? c : d);
  }
  uint64_t xcr0 = 0;
  if (max >= 1) {
    __cpuid(1, a, b, c, d);
    if (c & (1u << 27)) {  /* OSXSAVE: the OS says which register states it saves */
      unsigned lo, hi;
      __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
      xcr0 = (uint64_t)hi << 32 | lo;
    }
  }
  cachekey_u64(&h, xcr0);
#else
  cachekey_str(&h, "no cpuid");
#endif
  const char *salt = getenv("LUMBA_CACHE_HOST_SALT");
  cachekey_str(&h, salt ? salt : "");
  unsigned char dg[SHA256_LEN];
  sha256_final(&h, dg);
  sha256_hex(dg, host);
}

const char *cachekey_host(void) {
  pthread_once(&host_once, find_host);
  return host;
}

/* ---- the pre-key ---- */

static int arena_gc(lua_State *L) {
  arena_free(lua_touserdata(L, 1));
  return 0;
}

/* an Arena in a userdata on the stack, freed when it is collected */
static Arena *boxed_arena(lua_State *L) {
  Arena *A = lua_newuserdatauv(L, sizeof *A, 0);
  arena_init(A);
  if (luaL_newmetatable(L, "lumba.keyarena")) {
    lua_pushcfunction(L, arena_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_setmetatable(L, -2);
  return A;
}

bool cachekey_pre(lua_State *L, int didx, const char *name, const Options *opt, Type **argtypes, int nargs,
                  Type *declared_ret, char hex[2 * SHA256_LEN + 1]) {
  const char *ids_now = cachekey_build_ids();
  if (ids_now == NULL) return false;
  didx = lua_absindex(L, didx);
  Sha256 h;
  sha256_init(&h);
  cachekey_str(&h, "lumba pre-key 1");
  cachekey_str(&h, LM_VERSION);
  cachekey_str(&h, ids_now);
  cachekey_str(&h, LLVM_VERSION_STRING);
  cachekey_str(&h, LLVM_DEFAULT_TARGET_TRIPLE);
  cachekey_str(&h, cachekey_host());
  lua_getiuservalue(L, didx, DISP_UV_CHUNK);
  cachekey_str(&h, lua_tostring(L, -1) ? lua_tostring(L, -1) : "<string>");
  lua_pop(L, 1);
  lua_getiuservalue(L, didx, DISP_UV_SOURCE);
  if (lua_type(L, -1) == LUA_TSTRING) {
    cachekey_lua(L, NULL, &h, -1, 0);  /* a string needs no scratch memory */
  } else {
    Arena *A = boxed_arena(L);  /* freed by its __gc also when the dump raises */
    cachekey_lua(L, A, &h, -2, 0);
    arena_free(A);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  cachekey_str(&h, name);
  cachekey_u64(&h, (uint64_t)nargs);
  for (int i = 0; i < nargs; i++) cachekey_str(&h, argtypes[i]->name);
  cachekey_str(&h, declared_ret ? declared_ret->name : "");
  cachekey_options(&h, opt);
  if (opt->fastmath & FM_AFN) {  /* which vector math library such code calls (vecmath.c) */
    const char *vm = getenv("LUMBA_VECMATH");
    cachekey_str(&h, vm ? vm : "");
  }
  unsigned char d[SHA256_LEN];
  sha256_final(&h, d);
  sha256_hex(d, hex);
  return true;
}
