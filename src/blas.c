/*
** blas.c — opening the BLAS (blas.h): once per process, at the first
** matrix product of compiled code, never at require.
*/
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "blas.h"

static Blas blas;
static const Blas *loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static bool bind(void *h, const char *lib) {
#define BLAS_BIND(ret, name, params) \
  if ((*(void **)&blas.name = dlsym(h, "cblas_" #name)) == NULL) return false;
  BLAS_FUNCS(BLAS_BIND)
#undef BLAS_BIND
  blas.lib = lib;
  return true;
}

static void open_blas(void) {
  static const char *const libs[] = {"libopenblas.so.0", "libblas.so.3", "libcblas.so.3"};
  const char *env = getenv("LUMBA_BLAS");
  int n = env && env[0] ? 1 : (int)(sizeof libs / sizeof libs[0]);
  for (int i = 0; i < n; i++) {
    const char *lib = env && env[0] ? env : libs[i];
    /* RTLD_LOCAL: its symbols stay out of the process's namespace (another
    ** BLAS there, NumPy's in an embedding host, keeps its own) */
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) continue;
    if (bind(h, lib)) {
      loaded = &blas;
      return;
    }
    dlclose(h);  /* a BLAS without the C interface (a Fortran-only libblas) */
  }
}

const Blas *blas_get(void) {
  pthread_once(&once, open_blas);
  return loaded;
}
