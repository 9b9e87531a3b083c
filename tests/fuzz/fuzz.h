/*
** fuzz.h — shared by the libFuzzer targets in tests/fuzz (README.md):
** a byte reader that turns the fuzzer's input into choices, and the one
** Lua state each target keeps for its whole run (lumba loaded from the
** objects the target links, lua/ for the Lua front).
*/
#ifndef fuzz_h
#define fuzz_h

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

int luaopen_lumba_core(lua_State *L);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Choices read from the input; past its end every read gives 0. */
typedef struct Bytes {
  const uint8_t *p;
  size_t n;
} Bytes;

static inline unsigned fz_u8(Bytes *b) {
  if (b->n == 0) return 0;
  b->n--;
  return *b->p++;
}

/* 0 .. k-1 */
static inline unsigned fz_pick(Bytes *b, unsigned k) {
  return k ? fz_u8(b) % k : 0;
}

static inline uint64_t fz_u64(Bytes *b) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = (v << 8) | fz_u8(b);
  return v;
}

static inline int fz_more(const Bytes *b) {
  return b->n > 0;
}

/* A bug found: print and stop (libFuzzer records the input). */
#define FZ_FAIL(...)                                  \
  do {                                                \
    fprintf(stderr, "fuzz: " __VA_ARGS__);            \
    fputc('\n', stderr);                              \
    __builtin_trap();                                 \
  } while (0)

/* The state every target shares across inputs: standard libraries,
** package.path at lua/ (FUZZ_LUA_PATH prepends more, e.g. a checkout with
** lua/lumba/objmode.lua), lumba.core from the linked objects, and the
** global `lumba` = require "lumba". */
static inline lua_State *fz_state(void) {
  static lua_State *L;
  if (L) return L;
  /* no loading of backend.so on a background thread: its coverage counters
  ** would register with libFuzzer while an input runs (a crash inside
  ** libFuzzer, seen in CI); it loads on this thread at the first compile */
  setenv("LUMBA_PRELOAD", "0", 1);
  L = luaL_newstate();
  luaL_openlibs(L);
  const char *extra = getenv("FUZZ_LUA_PATH");
  lua_getglobal(L, "package");
  lua_pushfstring(L, "%s%slua/?.lua;lua/?/init.lua", extra ? extra : "", extra ? ";" : "");
  lua_setfield(L, -2, "path");
  lua_getfield(L, -1, "preload");
  lua_pushcfunction(L, luaopen_lumba_core);
  lua_setfield(L, -2, "lumba.core");
  lua_pop(L, 2);
  if (luaL_dostring(L, "lumba = require 'lumba'; lumba.warnings = function() end") != LUA_OK)
    FZ_FAIL("cannot load lumba: %s", lua_tostring(L, -1));
  return L;
}

/* Every so many inputs, a full collection (so __gc paths run too). */
static inline void fz_collect(lua_State *L) {
  static unsigned n;
  lua_settop(L, 0);
  if (++n % 64 == 0) lua_gc(L, LUA_GCCOLLECT);
}

#endif
