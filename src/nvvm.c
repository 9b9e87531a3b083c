/*
** nvvm.c — libNVVM bound at run time and driven in its fixed steps:
** create program, add the module, lazily add libdevice, verify, compile,
** read the PTX and the log. Also the search for libNVVM and libdevice.
*/
#include <dlfcn.h>
#include <link.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "lm.h"
#include "nvvm.h"

/* ---- growing strings ---- */

static bool buf_reserve(NvBuf *b, size_t extra) {
  if (b->oom) return false;
  if (b->len + extra + 1 <= b->cap) return true;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + extra + 1) cap *= 2;
  char *s = realloc(b->s, cap);
  if (s == NULL) { b->oom = true; return false; }
  b->s = s;
  b->cap = cap;
  return true;
}

void nvvm_buf_add(NvBuf *b, const char *s, size_t n) {
  if (!buf_reserve(b, n)) return;
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = '\0';
}

void nvvm_buf_str(NvBuf *b, const char *s) {
  nvvm_buf_add(b, s, strlen(s));
}

void nvvm_buf_printf(NvBuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || !buf_reserve(b, (size_t)n)) return;
  va_start(ap, fmt);
  vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

char *nvvm_buf_take(NvBuf *b) {
  if (b->oom) { free(b->s); return NULL; }
  if (b->s == NULL) return calloc(1, 1);
  return b->s;
}

/* ---- search ---- */

int nvvm_roots(const char *roots[NVVM_MAXROOTS]) {
  const char *cand[NVVM_MAXROOTS] = {getenv("LUMBA_CUDA_HOME"), getenv("CUDA_HOME"),
                                     getenv("CUDA_PATH"), "/usr/local/cuda"};
  int n = 0;
  for (int i = 0; i < NVVM_MAXROOTS; i++) {
    if (cand[i] == NULL || cand[i][0] == '\0') continue;
    bool seen = false;
    for (int j = 0; j < n; j++) seen |= strcmp(roots[j], cand[i]) == 0;
    if (!seen) roots[n++] = cand[i];
  }
  return n;
}

static const char *const nvvm_names[] = {"libnvvm.so", "libnvvm.so.4", "libnvvm.so.3"};

/* The entry points we use, with their libNVVM names. */
#define NVVM_FUNCS(X) \
  X(nvvmGetErrorString, const char *, (int r)) \
  X(nvvmVersion, int, (int *major, int *minor)) \
  X(nvvmIRVersion, int, (int *ir_major, int *ir_minor, int *dbg_major, int *dbg_minor)) \
  X(nvvmCreateProgram, int, (void **prog)) \
  X(nvvmDestroyProgram, int, (void **prog)) \
  X(nvvmAddModuleToProgram, int, (void *prog, const char *buf, size_t size, const char *name)) \
  X(nvvmLazyAddModuleToProgram, int, (void *prog, const char *buf, size_t size, const char *name)) \
  X(nvvmVerifyProgram, int, (void *prog, int nopts, const char **opts)) \
  X(nvvmCompileProgram, int, (void *prog, int nopts, const char **opts)) \
  X(nvvmGetCompiledResultSize, int, (void *prog, size_t *size)) \
  X(nvvmGetCompiledResult, int, (void *prog, char *buf)) \
  X(nvvmGetProgramLogSize, int, (void *prog, size_t *size)) \
  X(nvvmGetProgramLog, int, (void *prog, char *buf))

struct Nvvm {
  void *lib;    // dlopen handle
  char *path;   // the file opened
#define X(name, ret, args) ret (*name) args;
  NVVM_FUNCS(X)
#undef X
  char *libdevice;       // libdevice.10.bc, read at its first use
  size_t libdevice_len;
  char *libdevice_from;  // the path it was read from
};

/* The file the loader picked for a handle opened by bare name. */
static char *handle_path(void *lib, const char *fallback) {
  struct link_map *lm = NULL;
  if (dlinfo(lib, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name && lm->l_name[0])
    return strdup(lm->l_name);
  return strdup(fallback);
}

static Nvvm *bind(void *lib, const char *path) {
  Nvvm *nv = calloc(1, sizeof *nv);
  if (nv == NULL) return NULL;
  nv->lib = lib;
#define X(name, ret, args) \
  if ((*(void **)&nv->name = dlsym(lib, #name)) == NULL) { free(nv); return NULL; }
  NVVM_FUNCS(X)
#undef X
  nv->path = handle_path(lib, path);
  return nv;
}

/* Search order: roots' nvvm/lib64, then the loader's paths. A library that
** opens but lacks an entry point counts as not found. */
Nvvm *nvvm_load(char **why) {
  NvBuf tried = {0};
  const char *roots[NVVM_MAXROOTS];
  int nroots = nvvm_roots(roots);
  char path[4096];
  for (int r = 0; r <= nroots; r++) {
    for (size_t i = 0; i < lm_countof(nvvm_names); i++) {
      const char *file = nvvm_names[i];
      if (r < nroots) {
        snprintf(path, sizeof path, "%s/nvvm/lib64/%s", roots[r], nvvm_names[i]);
        file = path;
      }
      nvvm_buf_str(&tried, tried.len ? ", " : "");
      nvvm_buf_str(&tried, file);
      void *lib = dlopen(file, RTLD_NOW | RTLD_LOCAL);
      if (lib == NULL) continue;
      Nvvm *nv = bind(lib, file);
      if (nv) { free(nvvm_buf_take(&tried)); return nv; }
      dlclose(lib);
    }
    if (r == nroots) nvvm_buf_str(&tried, " (loader path)");
  }
  char *list = nvvm_buf_take(&tried);
  NvBuf msg = {0};
  nvvm_buf_printf(&msg, "libNVVM not found; tried %s", list ? list : "");
  free(list);
  *why = nvvm_buf_take(&msg);
  return NULL;
}

void nvvm_close(Nvvm *nv) {
  if (nv == NULL) return;
  dlclose(nv->lib);
  free(nv->path);
  free(nv->libdevice);
  free(nv->libdevice_from);
  free(nv);
}

const char *nvvm_lib_path(const Nvvm *nv) {
  return nv->path;
}

void nvvm_versions(const Nvvm *nv, int *major, int *minor, int *ir_major, int *ir_minor) {
  int dbg_major, dbg_minor;
  *major = *minor = *ir_major = *ir_minor = 0;
  nv->nvvmVersion(major, minor);
  nv->nvvmIRVersion(ir_major, ir_minor, &dbg_major, &dbg_minor);
}

char *nvvm_find_libdevice(const char *lib_path, char **why) {
  NvBuf tried = {0};
  const char *roots[NVVM_MAXROOTS];
  int nroots = nvvm_roots(roots);
  char path[4096];
  for (int r = 0; r <= nroots; r++) {
    if (r < nroots) {
      snprintf(path, sizeof path, "%s/nvvm/libdevice/libdevice.10.bc", roots[r]);
    } else {
      /* beside libNVVM: <x>/nvvm/lib64/libnvvm.so -> <x>/nvvm/libdevice/ */
      const char *slash = lib_path ? strrchr(lib_path, '/') : NULL;
      if (slash == NULL) break;
      snprintf(path, sizeof path, "%.*s/../libdevice/libdevice.10.bc",
               (int)(slash - lib_path), lib_path);
    }
    if (access(path, R_OK) == 0) { free(nvvm_buf_take(&tried)); return strdup(path); }
    nvvm_buf_str(&tried, tried.len ? ", " : "");
    nvvm_buf_str(&tried, path);
  }
  char *list = nvvm_buf_take(&tried);
  NvBuf msg = {0};
  nvvm_buf_printf(&msg, "libdevice not found; tried %s", list ? list : "");
  free(list);
  *why = nvvm_buf_take(&msg);
  return NULL;
}

/* ---- compile ---- */

/* Reads a whole file; NULL on failure. */
static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  char *data = NULL;
  long n;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
      (data = malloc((size_t)n)) != NULL) {
    if (fread(data, 1, (size_t)n, f) != (size_t)n) { free(data); data = NULL; }
    else *len = (size_t)n;
  }
  fclose(f);
  return data;
}

/* "[NVVM_ERROR_X] step: log" — the program log without its trailing blanks. */
static char *step_error(Nvvm *nv, void *prog, int r, const char *step) {
  NvBuf b = {0};
  nvvm_buf_printf(&b, "[%s] %s", nv->nvvmGetErrorString(r), step);
  size_t n = 0;
  if (prog && nv->nvvmGetProgramLogSize(prog, &n) == 0 && n > 1) {
    char *text = malloc(n);
    if (text && nv->nvvmGetProgramLog(prog, text) == 0) {
      size_t len = strnlen(text, n);
      while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' ')) len--;
      nvvm_buf_str(&b, ": ");
      nvvm_buf_add(&b, text, len);
    }
    free(text);
  }
  return nvvm_buf_take(&b);
}

static char *program_log(Nvvm *nv, void *prog) {
  size_t n = 0;
  if (nv->nvvmGetProgramLogSize(prog, &n) != 0 || n <= 1) return NULL;
  char *text = malloc(n);
  if (text && nv->nvvmGetProgramLog(prog, text) != 0) { free(text); text = NULL; }
  return text;
}

int nvvm_compile(Nvvm *nv, const char *ir, size_t len, int cc_major, int cc_minor,
                 bool fastmath, bool need_libdevice, const char *libdevice_path,
                 char **ptx, char **log) {
  *ptx = *log = NULL;
  if (need_libdevice && nv->libdevice == NULL) {
    if (libdevice_path == NULL || (nv->libdevice = read_file(libdevice_path, &nv->libdevice_len)) == NULL) {
      NvBuf b = {0};
      nvvm_buf_printf(&b, "cannot read libdevice (%s)", libdevice_path ? libdevice_path : "not found");
      *log = nvvm_buf_take(&b);
      return -1;
    }
  }
  char arch[32];
  snprintf(arch, sizeof arch, "-arch=compute_%d%d", cc_major, cc_minor);
  const char *opts[] = {arch, "-opt=3", "-ftz=1", "-prec-div=0", "-prec-sqrt=0", "-fma=1"};
  int nopts = fastmath ? 6 : 2;
  void *prog = NULL;
  int r = nv->nvvmCreateProgram(&prog);
  if (r != 0) { *log = step_error(nv, NULL, r, "nvvmCreateProgram"); return -1; }
  const char *step = "nvvmAddModuleToProgram";
  r = nv->nvvmAddModuleToProgram(prog, ir, len, "lumba");
  if (r == 0 && need_libdevice) {
    step = "nvvmLazyAddModuleToProgram";
    r = nv->nvvmLazyAddModuleToProgram(prog, nv->libdevice, nv->libdevice_len, "libdevice");
  }
  if (r == 0) { step = "nvvmVerifyProgram"; r = nv->nvvmVerifyProgram(prog, nopts, opts); }
  if (r == 0) { step = "nvvmCompileProgram"; r = nv->nvvmCompileProgram(prog, nopts, opts); }
  size_t n = 0;
  if (r == 0) { step = "nvvmGetCompiledResult"; r = nv->nvvmGetCompiledResultSize(prog, &n); }
  if (r == 0) {
    *ptx = malloc(n + 1);
    if (*ptx == NULL) r = 1;  /* NVVM_ERROR_OUT_OF_MEMORY */
    else if ((r = nv->nvvmGetCompiledResult(prog, *ptx)) == 0) (*ptx)[n] = '\0';
  }
  if (r != 0) {
    free(*ptx);
    *ptx = NULL;
    *log = step_error(nv, prog, r, step);
  } else {
    *log = program_log(nv, prog);
  }
  nv->nvvmDestroyProgram(&prog);
  return r == 0 ? 0 : -1;
}
