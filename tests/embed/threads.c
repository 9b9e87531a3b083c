/*
** threads.c — embedding safety (make tsan-embed builds it with
** -fsanitize=thread and runs it): several OS threads, each with Lua states
** of its own, compile and call at once (distinct functions, prange loops,
** arrays made by Lua, by compiled code and wrapped from the host's memory),
** and every state is closed with all of that still alive. Each thread
** opens and closes NSTATES states in turn. Then the process forks and the
** child uses lumba again.
**
** usage: threads [nthreads [nstates [nofork]]]   run from the repository root
** (nofork: under ThreadSanitizer, whose OpenMP tool, archer, crashes in a
** forked child; the fork is checked by the plain build, make embed-threads)
** Prints one line per thread and "ok" lines; exits 0 when every check holds.
*/
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "lumba.h"

int luaopen_lumba_core(lua_State *L);

static atomic_int failures;
static atomic_int released;  /* host buffers given back by lumba */

#define FAIL(...)                  \
  do {                             \
    fprintf(stderr, __VA_ARGS__);  \
    fputc('\n', stderr);           \
    atomic_fetch_add(&failures, 1); \
  } while (0)

static void on_release(void *ud, void *ptr) {
  (void)ptr;
  free(ud);
  atomic_fetch_add(&released, 1);
}

static lua_State *new_state(void) {
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

/* The work of one state: T is the thread number, S the state's. Leaves
** dispatchers, arrays and views alive in globals for lua_close to free. */
static const char *const script =
    "local T, S = ...\n"
    "local lumba = require 'lumba'\n"
    "lumba.set_num_threads(2)\n"
    "keep = {}\n"
    "for k = 1, 6 do\n"
    "  local c = T * 1000 + S * 10 + k\n"
    "  local f = lumba.njit(('def f(a, x):\\n    s = 0.0\\n    for i in range(a.shape[0]):\\n"
    "        s += a[i] * x + %d\\n    return s\\n'):format(c))\n"
    "  local a = lumba.arange(8.0)\n"
    "  local got, want = f(a, 2.0), 56.0 + 8 * c\n"
    "  if got ~= want then error(('f%d gave %s, expected %s'):format(c, got, want)) end\n"
    "  keep[#keep + 1] = f\n"
    "  keep[#keep + 1] = a:slice({2, 5})\n"
    "end\n"
    "local p = lumba.njit{parallel = true}('def p(n):\\n    s = 0\\n    for i in prange(n):\\n        s += i % 7\\n    return s\\n')\n"
    "local want = 0\n"
    "for i = 0, 9999 do want = want + i % 7 end\n"
    "if p(10000) ~= want then error('prange sum ' .. p(10000)) end\n"
    "keep.p = p\n"
    "local m = lumba.njit('def m(n):\\n    a = np.zeros(n)\\n    for i in range(n):\\n        a[i] = i\\n    return a\\n')\n"
    "keep.made = m(100)\n"
    "keep.view = keep.made:slice({10, 20})\n"
    "keep.host = host\n"
    "local h = lumba.njit('def h(b):\\n    for i in range(b.shape[0]):\\n        b[i] += 1.0\\n    return b.sum()\\n')\n"
    "if h(host) ~= 4.0 then error('host buffer sum ' .. h(host)) end\n"
    "return #keep\n";

typedef struct Job {
  int id, nstates;
} Job;

static void *worker(void *arg) {
  Job *J = arg;
  for (int s = 0; s < J->nstates; s++) {
    lua_State *L = new_state();
    /* a host buffer of 4 doubles, released by lumba when its arrays go */
    double *buf = calloc(4, sizeof(double));
    int64_t shape[1] = {4};
    if (buf == NULL || lumba_pusharray(L, buf, "float64", 1, shape, NULL, on_release, buf) != LUMBA_OK) {
      FAIL("thread %d: lumba_pusharray failed", J->id);
      free(buf);
      lua_close(L);
      continue;
    }
    lua_setglobal(L, "host");
    if (luaL_loadstring(L, script) != LUA_OK) {
      FAIL("thread %d: %s", J->id, lua_tostring(L, -1));
    } else {
      lua_pushinteger(L, J->id);
      lua_pushinteger(L, s);
      if (lua_pcall(L, 2, 1, 0) != LUA_OK) FAIL("thread %d state %d: %s", J->id, s, lua_tostring(L, -1));
    }
    lua_close(L);  /* with dispatchers, arrays, views and the host's buffer alive */
  }
  printf("thread %d: %d states\n", J->id, J->nstates);
  return NULL;
}

/* after fork, the child compiles and runs a prange loop in a new state */
static int child_work(void) {
  lua_State *L = new_state();
  int st = luaL_dostring(L,
                         "local lumba = require 'lumba'\n"
                         "local p = lumba.njit{parallel = true}('def p(n):\\n    s = 0\\n    for i in prange(n):\\n        s += i\\n    return s\\n')\n"
                         "assert(p(1000) == 499500)\n");
  if (st != LUA_OK) fprintf(stderr, "child: %s\n", lua_tostring(L, -1));
  lua_close(L);
  return st == LUA_OK ? 0 : 1;
}

int main(int argc, char **argv) {
  int nthreads = argc > 1 ? atoi(argv[1]) : 4;
  int nstates = argc > 2 ? atoi(argv[2]) : 3;
  if (nthreads < 1 || nthreads > 64) nthreads = 4;
  pthread_t th[64];
  Job jobs[64];
  for (int i = 0; i < nthreads; i++) {
    jobs[i] = (Job){i, nstates};
    if (pthread_create(&th[i], NULL, worker, &jobs[i]) != 0) {
      FAIL("pthread_create");
      nthreads = i;
      break;
    }
  }
  for (int i = 0; i < nthreads; i++) pthread_join(th[i], NULL);
  int want = nthreads * nstates;
  if (atomic_load(&released) != want) FAIL("host buffers released: %d, expected %d", atomic_load(&released), want);
  else printf("ok - every host buffer released once (%d)\n", want);

  /* fork after use: the child starts lumba afresh, prange included */
  if (argc > 3 && strcmp(argv[3], "nofork") == 0) goto done;
  pid_t pid = fork();
  if (pid == 0) _exit(child_work());
  int ws = 0;
  if (pid < 0 || waitpid(pid, &ws, 0) != pid || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0)
    FAIL("the forked child failed (status %d)", ws);
  else
    printf("ok - lumba works in a child forked after use\n");
done:;
  int f = atomic_load(&failures);
  printf("%s\n", f ? "FAILED" : "all ok");
  return f ? 1 : 0;
}
