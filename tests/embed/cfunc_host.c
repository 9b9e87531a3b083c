/*
** cfunc_host.c — a C host calling @cfunc callbacks through their pointers
** (tests/cfunc_spec.lua): a pasted module defines an ODE right-hand side
** (scalar, and a system over CPointer(float64) arguments viewed with
** carray); the host fetches the pointers with lumba_tocfunc and by
** reading .address, integrates with its own RK4 and compares with the same
** right-hand side written in C; then two threads integrate at once through
** the same pointers, no Lua state involved; then a cfunc that raises.
**
** usage: cfunc_host   run from the repository root. Prints "ok"/"FAIL" lines.
*/
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "lumba.h"

int luaopen_lumba_core(lua_State *L);

static const char *const script =
    "local lumba = require 'lumba'\n"
    "M = lumba.load([[\n"
    "import math\n"
    "from numba import cfunc, carray\n"
    "\n"
    "@cfunc('float64(float64, float64)')\n"
    "def decay(t, y):\n"
    "    return -0.5 * y + math.sin(t)\n"
    "\n"
    "@cfunc('void(float64, CPointer(float64), CPointer(float64), intc)')\n"
    "def lorenz(t, y, dy, n):\n"
    "    u = carray(y, n)\n"
    "    du = carray(dy, n)\n"
    "    du[0] = 10.0 * (u[1] - u[0])\n"
    "    du[1] = u[0] * (28.0 - u[2]) - u[1]\n"
    "    du[2] = u[0] * u[1] - (8.0 / 3.0) * u[2]\n"
    "\n"
    "@cfunc('int64(int64, int64)')\n"
    "def idiv(a, b):\n"
    "    return a // b\n"
    "]])\n";

typedef double (*ScalarRhs)(double, double);
typedef void (*SystemRhs)(double, double *, double *, int);

static double c_decay(double t, double y) { return -0.5 * y + sin(t); }
static void c_lorenz(double t, double *u, double *du, int n) {
  (void)t, (void)n;
  du[0] = 10.0 * (u[1] - u[0]);
  du[1] = u[0] * (28.0 - u[2]) - u[1];
  du[2] = u[0] * u[1] - (8.0 / 3.0) * u[2];
}

static double rk4_scalar(ScalarRhs f, double y, double h, int steps) {
  double t = 0;
  for (int i = 0; i < steps; i++, t += h) {
    double k1 = f(t, y), k2 = f(t + h / 2, y + h / 2 * k1), k3 = f(t + h / 2, y + h / 2 * k2), k4 = f(t + h, y + h * k3);
    y += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
  }
  return y;
}

static void rk4_system(SystemRhs f, double *y, double h, int steps) {
  double k[4][3], tmp[3], t = 0;
  for (int s = 0; s < steps; s++, t += h) {
    f(t, y, k[0], 3);
    for (int i = 0; i < 3; i++) tmp[i] = y[i] + h / 2 * k[0][i];
    f(t + h / 2, tmp, k[1], 3);
    for (int i = 0; i < 3; i++) tmp[i] = y[i] + h / 2 * k[1][i];
    f(t + h / 2, tmp, k[2], 3);
    for (int i = 0; i < 3; i++) tmp[i] = y[i] + h * k[2][i];
    f(t + h, tmp, k[3], 3);
    for (int i = 0; i < 3; i++) y[i] += h / 6 * (k[0][i] + 2 * k[1][i] + 2 * k[2][i] + k[3][i]);
  }
}

typedef struct Work {
  SystemRhs f;
  double y[3];
  ScalarRhs g;
  double z;
} Work;

static void *run(void *p) {
  Work *w = p;
  rk4_system(w->f, w->y, 1e-4, 200000);
  w->z = rk4_scalar(w->g, w->z, 1e-4, 200000);
  return NULL;
}

static int fails;
static void check(int ok, const char *what) {
  printf("%s - %s\n", ok ? "ok" : "FAIL", what);
  if (!ok) fails++;
}

/* the pointer of M[name], through lumba_tocfunc; *via_field the .address integer */
static void *fetch(lua_State *L, const char *name, void **via_field) {
  lua_getglobal(L, "M");
  lua_getfield(L, -1, name);
  void *p = lumba_tocfunc(L, -1);
  lua_getfield(L, -1, "address");
  *via_field = (void *)(intptr_t)lua_tointeger(L, -1);
  lua_pop(L, 3);
  return p;
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
  void *a1, *a2, *a3;
  ScalarRhs decay = (ScalarRhs)fetch(L, "decay", &a1);
  SystemRhs lorenz = (SystemRhs)fetch(L, "lorenz", &a2);
  int64_t (*idiv)(int64_t, int64_t) = (int64_t(*)(int64_t, int64_t))fetch(L, "idiv", &a3);
  check(decay && (void *)decay == a1 && (void *)lorenz == a2 && (void *)idiv == a3,
        "lumba_tocfunc is .address");
  lua_pushinteger(L, 1);
  check(lumba_tocfunc(L, -1) == NULL, "lumba_tocfunc of a non-cfunc is NULL");
  lua_pop(L, 1);
  double want = rk4_scalar(c_decay, 1.0, 1e-3, 10000), got = rk4_scalar(decay, 1.0, 1e-3, 10000);
  check(fabs(got - want) <= 1e-12 * fabs(want), "scalar RK4 through the cfunc matches C");
  /* Lorenz is chaotic: compared with C over a short span (t = 2) only */
  double yc[3] = {1, 1, 1}, yl[3] = {1, 1, 1};
  rk4_system(c_lorenz, yc, 1e-4, 20000);
  rk4_system(lorenz, yl, 1e-4, 20000);
  check(fabs(yc[0] - yl[0]) + fabs(yc[1] - yl[1]) + fabs(yc[2] - yl[2]) <= 1e-9, "Lorenz RK4 through carray matches C");
  memcpy(yl, (double[3]){1, 1, 1}, sizeof yl);
  rk4_system(lorenz, yl, 1e-4, 200000);  /* what each thread must get, bit for bit */
  Work w[2] = {{lorenz, {1, 1, 1}, decay, 1.0}, {lorenz, {1, 1, 1}, decay, 1.0}};
  pthread_t th[2];
  for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, run, &w[i]);
  for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
  double zc = rk4_scalar(c_decay, 1.0, 1e-4, 200000);
  int same = 1;
  for (int i = 0; i < 2; i++)
    same = same && memcmp(w[i].y, yl, sizeof yl) == 0 && fabs(w[i].z - zc) <= 1e-12 * fabs(zc);
  check(same, "two threads at once give the single-thread results");
  check(idiv(7, 2) == 3 && idiv(-7, 2) == -4, "int64 floor division as Python");
  check(idiv(7, 0) == 0, "a cfunc that raises returns 0");
  lua_close(L);
  printf("%s\n", fails ? "some failed" : "all ok");
  return fails != 0;
}
