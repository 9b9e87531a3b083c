/*
** records_host.c — a C host handing Lua arrays of its own structs
** (tests/record_spec.lua): one struct as the compiler lays it out (NumPy's
** align=True) and the same fields packed (NumPy's default); compiled code
** of a pasted module changes fields of every type, the host reads them back.
** Prints each array's dtype as Lua sees it, then "ok"/"FAIL" lines.
**
** usage: records_host   run from the repository root.
*/
#include <complex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "lumba.h"

int luaopen_lumba_core(lua_State *L);

#define FIELDS(S)                                                                                              \
  {                                                                                                            \
    {"b", "_Bool", offsetof(S, b)}, {"x", "double", offsetof(S, x)}, {"i8", "int8_t", offsetof(S, i8)},        \
        {"n", "int32_t", offsetof(S, n)}, {"u16", "uint16_t", offsetof(S, u16)},                               \
        {"i64", "int64_t", offsetof(S, i64)}, {"u8", "uint8_t", offsetof(S, u8)},                              \
        {"c", "float _Complex", offsetof(S, c)}, {"i16", "int16_t", offsetof(S, i16)},                         \
        {"u32", "uint32_t", offsetof(S, u32)}, {"f", "float", offsetof(S, f)},                                 \
        {"u64", "uint64_t", offsetof(S, u64)}, {"z", "double _Complex", offsetof(S, z)},                       \
  }
#define MEMBERS                                                                                                \
  bool b;                                                                                                      \
  double x;                                                                                                    \
  int8_t i8;                                                                                                   \
  int32_t n;                                                                                                   \
  uint16_t u16;                                                                                                \
  int64_t i64;                                                                                                 \
  uint8_t u8;                                                                                                  \
  float _Complex c;                                                                                            \
  int16_t i16;                                                                                                 \
  uint32_t u32;                                                                                                \
  float f;                                                                                                     \
  uint64_t u64;                                                                                                \
  double _Complex z;

typedef struct Aligned { MEMBERS } Aligned;
typedef struct __attribute__((packed)) Packed { MEMBERS } Packed;

static const char *const script =
    "local lumba = require 'lumba'\n"
    "M = lumba.load([[\n"
    "from numba import njit\n"
    "\n"
    "@njit\n"
    "def step(a):\n"
    "    t = 0\n"
    "    for i in range(a.shape[0]):\n"
    "        r = a[i]\n"
    "        r.b = not r.b\n"
    "        r.x += 0.5\n"
    "        r.i8 = -r.i8\n"
    "        r['n'] = r.n * 3\n"
    "        r.u16 += 1000\n"
    "        r.u8 = 255\n"
    "        r.c = r.c * 2j\n"
    "        r.i16 -= 7\n"
    "        r.u32 = 4000000000\n"
    "        r.f = r.x * 0.25\n"
    "        r.u64 = r.u32\n"
    "        r.z = r.z + complex(1.0, -1.0)\n"
    "        t += r.i64\n"
    "    a['i64'][:] = 5\n"
    "    return t\n"
    "]])\n"
    "function show(a)\n"
    "  print(tostring(a.dtype) .. ' ' .. a.itemsize .. ' ' .. tostring(a.dtype.isalignedstruct))\n"
    "  return M.step(a)\n"
    "end\n";

static int failures;
static void check(bool ok, const char *what) {
  printf("%s - %s\n", ok ? "ok" : "FAIL", what);
  if (!ok) failures++;
}

#define FILL(arr)                                                                                              \
  for (int i = 0; i < 3; i++) {                                                                                \
    arr[i].b = i == 1;                                                                                         \
    arr[i].x = i + 0.25;                                                                                       \
    arr[i].i8 = (int8_t)(i + 1);                                                                               \
    arr[i].n = 10 + i;                                                                                         \
    arr[i].u16 = 60000;                                                                                        \
    arr[i].i64 = (int64_t)1 << 40 | i;                                                                         \
    arr[i].c = 1.0f + 2.0f * I;                                                                                \
    arr[i].i16 = -100;                                                                                         \
    arr[i].z = 3.0 + 4.0 * I;                                                                                  \
  }

#define VERIFY(arr, name)                                                                                      \
  do {                                                                                                         \
    bool ok = true;                                                                                            \
    for (int i = 0; i < 3; i++) {                                                                              \
      ok = ok && arr[i].b == (i != 1) && arr[i].x == i + 0.75 && arr[i].i8 == -(i + 1) &&                       \
           arr[i].n == 3 * (10 + i) && arr[i].u16 == 61000 && arr[i].i64 == 5 && arr[i].u8 == 255 &&           \
           crealf(arr[i].c) == -4.0f && cimagf(arr[i].c) == 2.0f && arr[i].i16 == -107 &&                     \
           arr[i].u32 == 4000000000u && arr[i].f == (float)((i + 0.75) * 0.25) && arr[i].u64 == 4000000000u &&  \
           creal(arr[i].z) == 4.0 && cimag(arr[i].z) == 3.0;                                                   \
    }                                                                                                          \
    check(ok, name " structs changed by compiled code, read by C");                                            \
  } while (0)

static int64_t run(lua_State *L, void *ptr, const lumba_Field *f, int nf, int64_t size) {
  lua_getglobal(L, "show");
  int rc = lumba_pushrecords(L, ptr, f, nf, size, 1, (int64_t[]){3}, NULL, NULL, NULL);
  if (rc != LUMBA_OK) {
    printf("FAIL - lumba_pushrecords returned %d\n", rc);
    lua_pop(L, 1);
    return -1;
  }
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
    printf("FAIL - %s\n", lua_tostring(L, -1));
    lua_pop(L, 1);
    return -1;
  }
  int64_t t = lua_tointeger(L, -1);
  lua_pop(L, 1);
  return t;
}

int main(void) {
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  lua_getglobal(L, "package");
  lua_pushliteral(L, "lua/?.lua;lua/?/init.lua");
  lua_setfield(L, -2, "path");
  lua_getfield(L, -1, "preload");
  lua_pushcfunction(L, luaopen_lumba_core);
  lua_setfield(L, -2, "lumba.core");
  lua_pop(L, 2);
  if (luaL_dostring(L, script) != LUA_OK) {
    fprintf(stderr, "script: %s\n", lua_tostring(L, -1));
    return 2;
  }
  Aligned al[3];
  Packed pk[3];
  memset(al, 0, sizeof al);
  memset(pk, 0, sizeof pk);
  FILL(al);
  FILL(pk);
  lumba_Field fa[] = FIELDS(Aligned), fp[] = FIELDS(Packed);
  int64_t want = 3 * ((int64_t)1 << 40) + 3;
  check(run(L, al, fa, 13, sizeof(Aligned)) == want, "aligned: compiled code read int64 fields");
  VERIFY(al, "aligned");
  check(run(L, pk, fp, 13, sizeof(Packed)) == want, "packed: compiled code read int64 fields");
  VERIFY(pk, "packed");
  lumba_Field bad[] = {{"x", "double", 0}, {"y", "double", 4}};
  lua_settop(L, 0);
  check(lumba_pushrecords(L, al, bad, 2, 16, 1, (int64_t[]){3}, NULL, NULL, NULL) == LUMBA_EDTYPE &&
            lua_gettop(L) == 0,
        "overlapping fields are LUMBA_EDTYPE, nothing pushed");
  lumba_Field unk[] = {{"x", "quad", 0}};
  check(lumba_pushrecords(L, al, unk, 1, 16, 1, (int64_t[]){3}, NULL, NULL, NULL) == LUMBA_EDTYPE,
        "an unknown field dtype is LUMBA_EDTYPE");
  lua_close(L);
  printf(failures ? "FAILED\n" : "all ok\n");
  return failures != 0;
}
