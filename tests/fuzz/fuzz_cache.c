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
**      are all that stand between the bytes and the JIT.
** Whatever the file holds, the function must return its one right value
** (a damaged entry is ignored and rebuilt): no crash, no sanitizer report,
** no error. (Object code with a valid checksum is trusted, as any cache
** trusts its own directory, so mode 2 leaves the object bytes alone.)
*/
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

#include "sha256.h"

#define H_SIZE 144  /* cache.c's header: ... symlen@92 objlen@96 irlen@104 sha256@112 */
#define H_SYMLEN 92
#define H_SUM 112

static const char *const script =
    "local lumba = require 'lumba'\n"
    "local f = lumba.njit{cache = true}('def cached(a, b):\\n    return a * b + 1\\n')\n"
    "local r = f(3, 4)\n"
    "if r ~= 13 then error('cached(3, 4) gave ' .. tostring(r)) end\n";

static char dir[256], path[512];
static unsigned char *good;
static size_t goodlen;

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

/* the one .lcache file in dir */
static int find_entry(void) {
  DIR *d = opendir(dir);
  if (d == NULL) return 0;
  struct dirent *e;
  int found = 0;
  while ((e = readdir(d)) != NULL)
    if (strstr(e->d_name, ".lcache")) {
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      found = 1;
    }
  closedir(d);
  return found;
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
  if (!find_entry()) FZ_FAIL("no cache entry was written in %s", dir);
  FILE *f = fopen(path, "rb");
  if (f == NULL) FZ_FAIL("cannot read %s", path);
  fseek(f, 0, SEEK_END);
  goodlen = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  good = malloc(goodlen);
  if (good == NULL || fread(good, 1, goodlen, f) != goodlen) FZ_FAIL("cannot read %s", path);
  fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (good == NULL) setup();
  Bytes b = {data, size};
  unsigned mode = fz_pick(&b, 3);
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
