/*
** fuzz_cache — the on-disk cache loader on damaged cache files. A good
** entry is written once (njit{cache = true} in a fresh state); then each
** input damages a copy of it and a fresh Lua state compiles the same
** function, which reads the file. The input's first byte picks how:
**   0: the rest of the input is the whole file;
**   1: (offset, byte) pairs overwrite the good file, then it may be cut
**      short or padded: disk corruption, which the checksum must catch;
**   2: the same on the header and symbol only, with the checksum made
**      right again, so the loader's own checks (lengths, key, symbol name)
**      are all that stand between the bytes and the JIT;
**   3: mode 1 on the fast path's index file (cachefile.h) instead: the
**      checksum must catch it;
**   4: (offset, byte) pairs overwrite the index's payload, cut short or
**      padded, the checksum made right, next to a garbage entry: the fast
**      path parses the index and misses at the entry at the latest.
** Whatever the files hold, the function must return its one right value
** (a damaged entry is ignored and rebuilt): no crash, no sanitizer report,
** no error. (Object code with a valid checksum is trusted, as any cache
** trusts its own directory, so mode 2 leaves the object bytes alone.)
**   5: (offset, byte) pairs overwrite the entry's ELF object, cut short or
**      padded: objload_load links it (and frees it), nothing calls it; it
**      must refuse or succeed without a sanitizer report.
*/
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

#include "objload.h"
#include "sha256.h"

#define H_SIZE 144  /* cache.c's header: ... symlen@92 objlen@96 irlen@104 sha256@112 */
#define H_SYMLEN 92
#define H_SUM 112

static const char *const script =
    "local lumba = require 'lumba'\n"
    "local f = lumba.njit{cache = true}('def cached(a, b):\\n    return a * b + 1\\n')\n"
    "local r = f(3, 4)\n"
    "if r ~= 13 then error('cached(3, 4) gave ' .. tostring(r)) end\n";

static char dir[256], path[512], ipath[512];
static unsigned char *good, *goodix;
static size_t goodlen, goodixlen;

static lua_State *fresh_state(void) {
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  lua_getglobal(L, "package");
  lua_pushliteral(L, "lua/?.lua;lua/?/init.lua");
  lua_setfield(L, -2, "path");
  lua_getfield(L, -1, "preload");
  lua_pushcfunction(L, luaopen_lumba_core);
  lua_setfield(L, -2, "lumba.core");
  lua_pop(L, 2);
  return L;
}

static void run_script(void) {
  lua_State *L = fresh_state();
  if (luaL_dostring(L, script) != LUA_OK) FZ_FAIL("a damaged cache entry changed the result: %s", lua_tostring(L, -1));
  lua_close(L);
}

/* the one file with that suffix in dir, its path in out */
static int find_file(const char *suffix, char *out, size_t cap) {
  DIR *d = opendir(dir);
  if (d == NULL) return 0;
  struct dirent *e;
  int found = 0;
  while ((e = readdir(d)) != NULL)
    if (strstr(e->d_name, suffix)) {
      snprintf(out, cap, "%s/%s", dir, e->d_name);
      found = 1;
    }
  closedir(d);
  return found;
}

static unsigned char *read_file(const char *p, size_t *len) {
  FILE *f = fopen(p, "rb");
  if (f == NULL) FZ_FAIL("cannot read %s", p);
  fseek(f, 0, SEEK_END);
  *len = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc(*len);
  if (b == NULL || fread(b, 1, *len, f) != *len) FZ_FAIL("cannot read %s", p);
  fclose(f);
  return b;
}

static void write_file(const char *p, const unsigned char *b, size_t len) {
  FILE *f = fopen(p, "wb");
  if (f == NULL) FZ_FAIL("cannot write %s", p);
  if (len && fwrite(b, 1, len, f) != len) FZ_FAIL("cannot write %s", p);
  fclose(f);
}

/* the cache directory goes with the process */
static void cleanup(void) {
  DIR *d = opendir(dir);
  if (d == NULL) return;
  struct dirent *e;
  char p[600];
  while ((e = readdir(d)) != NULL)
    if (e->d_name[0] != '.' || strncmp(e->d_name, ".lumba-tmp-", 11) == 0) {
      snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
      unlink(p);
    }
  closedir(d);
  rmdir(dir);
}

static void setup(void) {
  snprintf(dir, sizeof dir, "/tmp/lumba-fuzz-cache-%d", (int)getpid());
  mkdir(dir, 0700);
  setenv("LUMBA_CACHE_DIR", dir, 1);
  atexit(cleanup);
  run_script();
  if (!find_file(".lcache", path, sizeof path)) FZ_FAIL("no cache entry was written in %s", dir);
  if (!find_file(".lindex", ipath, sizeof ipath)) FZ_FAIL("no index was written in %s", dir);
  good = read_file(path, &goodlen);
  goodix = read_file(ipath, &goodixlen);
}

/* (offset, byte) pairs over [from, from + span) of buf (len bytes, room
** for 64 more), then maybe cut short or padded; the new length */
static size_t damage(Bytes *b, unsigned char *buf, size_t len, size_t from, size_t span) {
  unsigned n = fz_pick(b, 8);
  for (unsigned i = 0; i < n && span; i++) {
    size_t off = ((size_t)fz_u8(b) << 8 | fz_u8(b)) % span;
    buf[from + off] = (unsigned char)fz_u8(b);
  }
  unsigned cut = fz_pick(b, 4);
  if (cut == 1) return (size_t)(fz_u8(b) << 8 | fz_u8(b)) % (len + 1);
  if (cut == 2) {
    unsigned pad = 1 + fz_pick(b, 64);
    memset(buf + len, 0, pad);
    return len + pad;
  }
  return len;
}

static void fix_sum(unsigned char *buf, size_t len, size_t head, size_t sum_at) {
  if (len < head) return;
  Sha256 s;
  sha256_init(&s);
  sha256_update(&s, buf + head, len - head);
  sha256_final(&s, buf + sum_at);
}

#define IX_LEN 92   /* cachefile.c's index header: ... prekey@28 paylen@92 sha256@100, 132 bytes */
#define IX_SUM 100
#define IX_SIZE 132

/* mode 4: a payload the checksum vouches for, read by the fast path with
** a garbage entry next to it, so whatever the index says, the code that
** runs comes from the compiler (which rewrites both files) */
static void index_mode(Bytes *b) {
  unsigned char *buf = malloc(goodixlen + 64);
  if (buf == NULL) return;
  memcpy(buf, goodix, goodixlen);
  size_t len = damage(b, buf, goodixlen, IX_SIZE, goodixlen - IX_SIZE);
  if (len >= IX_SIZE) {
    for (int i = 0; i < 8; i++) buf[IX_LEN + i] = (unsigned char)((uint64_t)(len - IX_SIZE) >> (8 * i));
    fix_sum(buf, len, IX_SIZE, IX_SUM);
  }
  write_file(ipath, buf, len);
  free(buf);
  write_file(path, (const unsigned char *)"garbage", 7);
  run_script();
}

static void *resolve(void *ud, const char *name) {
  (void)ud;
  return objload_extern(name);
}

/* mode 5: the ELF loader on a damaged object, linked, never run */
static void object_mode(Bytes *b) {
  uint64_t symlen = 0, objlen = 0;
  for (int i = 0; i < 4; i++) symlen |= (uint64_t)good[H_SYMLEN + i] << (8 * i);
  for (int i = 0; i < 8; i++) objlen |= (uint64_t)good[H_SYMLEN + 4 + i] << (8 * i);
  unsigned char *obj = malloc(objlen + 64);
  if (obj == NULL) return;
  memcpy(obj, good + H_SIZE + symlen, objlen);
  size_t len = damage(b, obj, objlen, 0, objlen);
  char why[300];
  ObjImage *im = objload_load(obj, len, resolve, NULL, why, sizeof why);
  objload_free(im);
  free(obj);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (good == NULL) setup();
  Bytes b = {data, size};
  unsigned mode = fz_pick(&b, 6);
  if (mode == 4) {
    index_mode(&b);
    return 0;
  }
  if (mode == 5) {
    object_mode(&b);
    return 0;
  }
  if (mode == 3) {
    unsigned char *buf = malloc(goodixlen + 64);
    if (buf == NULL) return 0;
    memcpy(buf, goodix, goodixlen);
    size_t len = damage(&b, buf, goodixlen, 0, goodixlen);
    write_file(ipath, buf, len);
    free(buf);
    run_script();
    return 0;
  }
  unsigned char *buf;
  size_t len;
  if (mode == 0) {
    len = b.n;
    buf = malloc(len + 1);
    if (buf == NULL) return 0;
    memcpy(buf, b.p, len);
  } else {
    len = goodlen;
    buf = malloc(goodlen + 64);
    if (buf == NULL) return 0;
    memcpy(buf, good, goodlen);
    size_t span = goodlen;
    if (mode == 2) {
      uint64_t symlen = 0;
      for (int i = 0; i < 4; i++) symlen |= (uint64_t)good[H_SYMLEN + i] << (8 * i);
      span = H_SIZE + (size_t)symlen;  /* header and symbol */
    }
    unsigned n = fz_pick(&b, 8);
    for (unsigned i = 0; i < n; i++) {
      size_t off = ((size_t)fz_u8(&b) << 8 | fz_u8(&b)) % span;
      buf[off] = (unsigned char)fz_u8(&b);
    }
    unsigned cut = fz_pick(&b, 4);
    if (cut == 1) len = (size_t)(fz_u8(&b) << 8 | fz_u8(&b)) % (goodlen + 1);
    if (cut == 2) {
      unsigned pad = 1 + fz_pick(&b, 64);
      memset(buf + goodlen, 0, pad);
      len = goodlen + pad;
    }
    if (mode == 2 && len >= H_SIZE) {
      unsigned char sum[SHA256_LEN];
      Sha256 s;
      sha256_init(&s);
      sha256_update(&s, buf + H_SIZE, len - H_SIZE);
      sha256_final(&s, sum);
      memcpy(buf + H_SUM, sum, SHA256_LEN);
    }
  }
  FILE *f = fopen(path, "wb");
  if (f == NULL) FZ_FAIL("cannot write %s", path);
  if (len && fwrite(buf, 1, len, f) != len) FZ_FAIL("cannot write %s", path);
  fclose(f);
  free(buf);
  run_script();
  return 0;
}
