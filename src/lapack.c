/*
** lapack.c — opening LAPACK (lapack.h): once per process, at the first
** np.linalg call of compiled code, never at require.
*/
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "blas.h"
#include "lapack.h"

static Lapack lapack;
static const Lapack *loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* a kit's routines: prefix ("s", "d", "c", "z") + name + "_"; the shared
** ones and the real or the complex ones */
static bool bind_kit(void *h, LapackKit *kit, const char *prefix, bool cplx) {
  char sym[32];
#define LAPACK_BIND(field, name) \
  snprintf(sym, sizeof sym, "%s%s_", prefix, #name); \
  if ((*(void **)&kit->field = dlsym(h, sym)) == NULL) return false;
#define BIND_SHARED(name, params) LAPACK_BIND(name, name)
#define BIND_REAL(name, params) LAPACK_BIND(r.name, name)
#define BIND_COMPLEX(name, params) LAPACK_BIND(z.name, name)
  LAPACK_SHARED(BIND_SHARED)
  if (cplx) {
    LAPACK_COMPLEX(BIND_COMPLEX)
  } else {
    LAPACK_REAL(BIND_REAL)
  }
#undef BIND_SHARED
#undef BIND_REAL
#undef BIND_COMPLEX
#undef LAPACK_BIND
  return true;
}

static bool bind(void *h, const char *lib) {
  if (!bind_kit(h, &lapack.s, "s", false) || !bind_kit(h, &lapack.d, "d", false)) return false;
  if (!bind_kit(h, &lapack.c, "c", true) || !bind_kit(h, &lapack.z, "z", true)) return false;
  lapack.lib = lib;
  return true;
}

static void open_lapack(void) {
  const Blas *B = blas_get();  /* OpenBLAS holds both: one library, one thread pool */
  const char *libs[] = {getenv("LUMBA_LAPACK"), B ? B->lib : NULL, "libopenblas.so.0", "liblapack.so.3"};
  bool env = libs[0] && libs[0][0];
  for (int i = env ? 0 : 1; i < (env ? 1 : 4); i++) {
    if (libs[i] == NULL) continue;
    void *h = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) continue;
    if (bind(h, libs[i])) {
      loaded = &lapack;
      return;
    }
    dlclose(h);
  }
}

const Lapack *lapack_get(void) {
  pthread_once(&once, open_lapack);
  return loaded;
}
