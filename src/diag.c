/*
** diag.c — compile errors with chunk:line:col, the source line and a caret
** (chibicc's verror_at), raised as Lua errors (never exit).
*/
#include <stdarg.h>
#include <string.h>

#include <lauxlib.h>

#include "diag.h"

static void push_message(lua_State *L, const Source *src, Loc loc,
                         const char *kind, const char *fmt, va_list ap) {
  if (loc.src) src = loc.src;  /* a device function's or a callee's own text */
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  const char *chunk = src && src->chunk ? src->chunk : "?";
  if (chunk[0] == '=' || chunk[0] == '@') chunk++;
  lua_pushfstring(L, "%s:%d:%d: %s: ", chunk, loc.line, loc.col + 1, kind);
  luaL_addvalue(&b);
  lua_pushvfstring(L, fmt, ap);
  luaL_addvalue(&b);
  if (src && src->text && loc.line > 0) {
    /* find the line and show it with a caret under the column */
    const char *p = src->text, *end = src->text + src->len;
    for (int l = 1; l < loc.line && p < end; p++)
      if (*p == '\n') l++;
    const char *e = p;
    while (e < end && *e != '\n' && *e != '\r') e++;
    if (p < end) {
      luaL_addstring(&b, "\n    ");
      luaL_addlstring(&b, p, (size_t)(e - p));
      luaL_addstring(&b, "\n    ");
      for (int i = 0; i < loc.col && p + i < e; i++)
        luaL_addchar(&b, p[i] == '\t' ? '\t' : ' ');
      luaL_addchar(&b, '^');
    }
  }
  luaL_pushresult(&b);
}

void diag_push(lua_State *L, const Source *src, Loc loc, const char *kind,
               const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  push_message(L, src, loc, kind, fmt, ap);
  va_end(ap);
}

l_noret diag_error(lua_State *L, const Source *src, Loc loc, const char *kind,
                   const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  push_message(L, src, loc, kind, fmt, ap);
  va_end(ap);
  lua_error(L);
  LM_UNREACHABLE();
}
