/*
** backend_load.c — opens lumba/backend.so (next to this core.so) at the
** first compilation. One-time process initialisation under pthread_once;
** after it the table is read-only.
*/
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "backend.h"
#include "core_api.h"

/* the libraries' entry points: each takes core's table (core_api.h) */
typedef const Backend *(*BackendEntry)(const CoreApi *core);
typedef NvptxCompile (*NvptxEntry)(const CoreApi *core);

/* core's table (core_api.c), stored by every luaopen_lumba_core: always the
** same address, so states opened at once on several threads store the same
** value (atomically: no data race), before any of them can load a library */
static _Atomic(const CoreApi *) core_table;

void backend_init(const CoreApi *core) {
  atomic_store_explicit(&core_table, core, memory_order_relaxed);
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
/* set once by load_once, then only read; atomic because backend_loaded
** may look while the preload thread is still setting it */
static _Atomic(const Backend *) table;
static char why[8192];

/* dlopens name from the directory of this core.so, its symbols local; NULL
** and the reason in why_out. From then on core.so stays loaded (Lua's
** dlclose leaves it mapped): the libraries are never closed and keep
** core's table, and the loading thread may still be returning through this
** file when the state that started it closes. */
static void *open_sibling(const char *name, char *path, size_t pathsize, char *why_out, size_t whysize) {
  if (atomic_load_explicit(&core_table, memory_order_relaxed) == NULL) {
    snprintf(why_out, whysize, "luaopen_lumba_core has not run");  // a host calling core's internals
    return NULL;
  }
  Dl_info info;
  if (!dladdr((void *)backend_get, &info) || info.dli_fname == NULL) {
    snprintf(why_out, whysize, "cannot locate lumba's core module");
    return NULL;
  }
  dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
  snprintf(path, pathsize, "%s", info.dli_fname);
  char *slash = strrchr(path, '/');
  size_t dir = slash ? (size_t)(slash - path + 1) : 0;
  snprintf(path + dir, pathsize - dir, "%s", name);
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) snprintf(why_out, whysize, "cannot load %s: %s", path, dlerror());
  return h;
}

static void load_once(void) {
  char path[4096];
  void *h = open_sibling("backend.so", path, sizeof path, why, sizeof why);
  if (h == NULL) return;
  BackendEntry entry = (BackendEntry)dlsym(h, "lumba_backend_table");
  if (entry == NULL) {
    snprintf(why, sizeof why, "%s has no lumba_backend_table", path);
    return;
  }
  atomic_store_explicit(&table, entry(atomic_load_explicit(&core_table, memory_order_relaxed)), memory_order_release);
}

/* ---- loading in the background ----
** Loading LLVM takes ~3 ms. backend_preload (called by luaopen) starts it
** on a detached thread, so require stays fast and a script that prepares
** its data before the first call finds the compiler ready. Everything that
** could race with that thread waits for it first: backend_get, fork()
** (pthread_atfork: a child must not inherit the loader's lock), and the
** Lua state's close (core.so is unloaded after it). LUMBA_PRELOAD=0 turns
** it off. */
static void *preload_main(void *ud) {
  (void)ud;
  pthread_once(&once, load_once);
  return NULL;
}

static void wait_loaded(void) {
  pthread_once(&once, load_once);
}

static pthread_once_t preload_once = PTHREAD_ONCE_INIT;
static bool preload_started;  /* set once under preload_once */

static void start_preload(void) {
  const char *v = getenv("LUMBA_PRELOAD");
  if (v && strcmp(v, "0") == 0) return;
  pthread_atfork(wait_loaded, NULL, NULL);
  pthread_attr_t attr;
  pthread_t t;
  if (pthread_attr_init(&attr) != 0) return;
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  preload_started = pthread_create(&t, &attr, preload_main, NULL) == 0;
  pthread_attr_destroy(&attr);
}

void backend_preload(void) {
  pthread_once(&preload_once, start_preload);
}

void backend_quiesce(void) {
  pthread_once(&preload_once, start_preload);
  if (preload_started) wait_loaded();
}

const Backend *backend_get(lua_State *L) {
  pthread_once(&once, load_once);
  const Backend *B = atomic_load_explicit(&table, memory_order_acquire);
  if (B == NULL) luaL_error(L, "lumba: %s", why);
  return B;
}

const Backend *backend_loaded(void) {
  return atomic_load_explicit(&table, memory_order_acquire);
}

/* ---- nvptx.so: LLVM's NVPTX backend, for machines with a CUDA driver but
** no libNVVM (nvvm_llvm.c). A library of its own, opened on first use:
** linked into backend.so it cost every first compilation 0.3 ms to load. */
static pthread_once_t nvptx_once = PTHREAD_ONCE_INIT;
static NvptxCompile nvptx_fn;  /* set once by nvptx_load, then only read */
static char nvptx_why[8192];

static void nvptx_load(void) {
  char path[4096];
  void *h = open_sibling("nvptx.so", path, sizeof path, nvptx_why, sizeof nvptx_why);
  if (h == NULL) return;
  NvptxEntry entry = (NvptxEntry)dlsym(h, "lumba_nvptx_compiler");
  if (entry == NULL) {
    snprintf(nvptx_why, sizeof nvptx_why, "%s has no lumba_nvptx_compiler", path);
    return;
  }
  nvptx_fn = entry(atomic_load_explicit(&core_table, memory_order_relaxed));
}

NvptxCompile backend_nvptx(lua_State *L) {
  pthread_once(&nvptx_once, nvptx_load);
  if (nvptx_fn == NULL) luaL_error(L, "lumba: %s", nvptx_why);
  return nvptx_fn;
}
