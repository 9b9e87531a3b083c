/*
** core_api_calls.c — inside backend.so and nvptx.so: core.so's functions
** under their own names (core_api.def), each calling through the table the
** library was given, so backend code calls arena_alloc(...) as if it were
** linked with core. Hidden, like everything but the entry points.
*/
#include <stdarg.h>
#include <stdlib.h>

#include "core_api.h"

/* The one mutable global of these libraries: the table is core's, known
** only when core.so opens the library (no symbol of core.so is exported to
** bind it at load time), so the entry point sets it once, under core's
** pthread_once in backend_load.c, before any other function here runs;
** after that it is only read. */
const CoreApi *core_api;

#define CORE_FN(ret, name, params, args) \
  ret name params { return core_api->name args; }
#define CORE_VOID(name, params, args) \
  void name params { core_api->name args; }
#define CORE_NORET(name, params, args) \
  l_noret name params { core_api->name args; LM_UNREACHABLE(); }
#define CORE_VARARG(name)
/* each object's name must read through the table (core_api.h) */
#define CORE_STR(x) #x
#define CORE_EXPANDED(x) CORE_STR(x)
#define CORE_DATA(name) \
  _Static_assert(sizeof CORE_EXPANDED(name) > sizeof #name, #name " needs its #define in core_api.h");
#include "core_api.def"

/* ---- the variadic ones: the arguments are formatted here, as core would */

/* diag.c formats with lua_pushvfstring too; the string stays on the stack
** until the error unwinds it */
l_noret diag_error(lua_State *L, const Source *src, Loc loc, const char *kind, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const char *msg = lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  core_api->diag_error(L, src, loc, kind, "%s", msg);
  LM_UNREACHABLE();
}

void nvvm_buf_printf(NvBuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  char *s = malloc((size_t)n + 1);
  if (s == NULL) {
    b->oom = true;
    return;
  }
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  nvvm_buf_add(b, s, (size_t)n);
  free(s);
}
