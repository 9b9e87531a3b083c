/*
** diag.h — source locations and compile errors that carry them.
*/
#ifndef diag_h
#define diag_h

#include <lua.h>

#include "lm.h"

/* The text a compilation reads; text may be NULL (Lua-table AST input
** without Module.source). Each lives in the arena of the compilation that
** read it: the main source and every device function parsed into it. */
typedef struct Source {
  const char *chunk;  // name shown in messages: "ising.py", "=[string]"
  const char *text;   // whole source, NUL-terminated, or NULL
  size_t len;
} Source;

/* A position in the source: line is 1-based, col is 0-based as Python's
** col_offset; messages print col + 1. src names the text the position is
** in, so one compilation can report in several sources (NULL: unknown). */
typedef struct Loc {
  const Source *src;
  int line;
  int col;
} Loc;

/* Raise "chunk:line:col: Kind: message", then the source line and a caret,
** all from loc.src (src when loc names none). kind is one of Numba's names:
** SyntaxError, NameError, TypingError, UnsupportedError. Never returns
** (lua_error). */
l_noret diag_error(lua_State *L, const Source *src, Loc loc, const char *kind,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Push the message diag_error would raise, without raising. */
void diag_push(lua_State *L, const Source *src, Loc loc, const char *kind,
               const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
