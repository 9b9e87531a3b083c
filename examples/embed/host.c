/*
** host.c — a toy game that embeds Lua 5.4 with lumba.
**
** The host owns a particle buffer (x, y, vx, vy per particle, float32). It
** hands the buffer to Lua as a lumba array without copying
** (lumba_pusharray), runs particles.lua's update() once per frame, which
** moves the particles in place, and after the loop checks the buffer
** against the same physics computed here in C. The script also returns
** the particles' energies in a new lumba array, which the host reads with
** lumba_toarray. Dropping the array in Lua must call the release callback.
**
** usage: host [repo-root]   (default "."; needs <root>/lua and <root>/build)
** Prints a few "key: value" lines and exits 0 when every check holds.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "lumba.h"

#define NPART 64
#define FRAMES 120
#define DT 0.01
#define GRAVITY 9.81

static float particles[NPART][4];  /* the game's own memory */
static float expected[NPART][4];   /* the same physics, computed in C */
static int releases;

/* lumba_Release: Lua is done with the buffer */
static void on_release(void *ud, void *ptr) {
  if (ud == &releases && ptr == particles) releases++;
}

static void init(float p[NPART][4]) {
  for (int i = 0; i < NPART; i++) {
    p[i][0] = (float)i;           /* x */
    p[i][1] = (float)(1 + i % 5); /* y */
    p[i][2] = (float)(i % 3) - 1; /* vx */
    p[i][3] = 0;                  /* vy */
  }
}

/* What particles.lua does, in the same order and precision: Lua computes in
** doubles and each store rounds to float32. */
static void step(float p[NPART][4], double dt) {
  for (int i = 0; i < NPART; i++) {
    double vy = (double)p[i][3] - GRAVITY * dt;
    double y = (double)p[i][1] + vy * dt;
    if (y < 0) {
      y = -y;
      vy = -vy * 0.9;
    }
    p[i][0] = (float)((double)p[i][0] + (double)p[i][2] * dt);
    p[i][1] = (float)y;
    p[i][3] = (float)vy;
  }
}

static int fail(lua_State *L, const char *what) {
  fprintf(stderr, "host: %s: %s\n", what, lua_tostring(L, -1));
  lua_close(L);
  return 1;
}

int main(int argc, char **argv) {
  const char *root = argc > 1 ? argv[1] : ".";
  char buf[4096];
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);

  /* require "lumba" from the repository: lua/ for init.lua, build/ for core.so */
  snprintf(buf, sizeof buf,
           "package.path = '%s/lua/?.lua;%s/lua/?/init.lua;' .. package.path\n"
           "package.cpath = '%s/build/?.so;' .. package.cpath\n"
           "lumba = require 'lumba'",
           root, root, root);
  if (luaL_dostring(L, buf) != LUA_OK) return fail(L, "require lumba");
  snprintf(buf, sizeof buf, "%s/examples/embed/particles.lua", root);
  if (luaL_dofile(L, buf) != LUA_OK) return fail(L, "load particles.lua");

  init(particles);
  init(expected);
  int64_t shape[2] = {NPART, 4};
  if (lumba_pusharray(L, particles, "float32", 2, shape, NULL, on_release, &releases) != LUMBA_OK) {
    fprintf(stderr, "host: lumba_pusharray failed\n");
    return 1;
  }
  lua_setglobal(L, "particles");
  /* Lua's require loaded the core.so this program links, not a second copy:
  ** its count of live buffers includes the one just wrapped */
  if (luaL_dostring(L, "return lumba._live_meminfos()") != LUA_OK) return fail(L, "live");
  printf("one runtime: %s\n", lua_tointeger(L, -1) >= 1 ? "yes" : "no");
  lua_pop(L, 1);

  /* the game loop: Lua moves the particles in the host's buffer */
  for (int frame = 0; frame < FRAMES; frame++) {
    lua_getglobal(L, "update");
    lua_getglobal(L, "particles");
    lua_pushnumber(L, DT);
    if (lua_pcall(L, 2, 0, 0) != LUA_OK) return fail(L, "update");
    step(expected, DT);
  }
  printf("frames: %d\n", FRAMES);
  printf("buffer matches C physics: %s\n",
         memcmp(particles, expected, sizeof particles) == 0 ? "yes" : "no");

  /* an array made by Lua, read back without a copy */
  lua_getglobal(L, "energies");
  lua_getglobal(L, "particles");
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) return fail(L, "energies");
  lumba_ArrayInfo info;
  double *e = lumba_toarray(L, -1, &info);
  double total = 0, want = 0;
  for (int64_t i = 0; e && i < info.shape[0]; i++)
    total += *(double *)((char *)e + i * info.strides[0]);
  for (int i = 0; i < NPART; i++) {
    double vx = expected[i][2], vy = expected[i][3];
    want += 0.5 * (vx * vx + vy * vy) + GRAVITY * (double)expected[i][1];
  }
  printf("energies: %s[%lld], sum %s\n", info.dtype ? info.dtype : "(none)",
         (long long)info.shape[0], e && fabs(total - want) <= 1e-9 * fabs(want) ? "ok" : "wrong");
  lua_pop(L, 1);

  /* Lua drops the array: the release callback runs at collection */
  printf("released before drop: %d\n", releases);
  lua_pushnil(L);
  lua_setglobal(L, "particles");
  lua_gc(L, LUA_GCCOLLECT, 0);
  printf("released after drop: %d\n", releases);
  lua_close(L);
  return releases == 1 && memcmp(particles, expected, sizeof particles) == 0 ? 0 : 1;
}
