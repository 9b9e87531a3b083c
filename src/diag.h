/*
** diag.h — source locations and compile errors that carry them.
*/
#ifndef diag_h
#define diag_h

#include <lua.h>

#include "lm.h"

/* A position in the source: line is 1-based, col is 0-based as Python's
** col_offset; messages print col + 1. */
typedef struct Loc {
  int line;
  int col;
} Loc;

/* The text a compilation reads; text may be NULL (Lua-table AST input). */
typedef struct Source {
  const char *chunk;  // name shown in messages: "ising.py", "=[string]"
  const char *text;   // whole source, NUL-terminated, or NULL
  size_t len;
} Source;

/* Raise "chunk:line:col: Kind: message", then the source line and a caret.
** kind is one of Numba's names: SyntaxError, NameError, TypingError,
** UnsupportedError. Never returns (lua_error). */
l_noret diag_error(lua_State *L, const Source *src, Loc loc, const char *kind,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Push the message diag_error would raise, without raising. */
void diag_push(lua_State *L, const Source *src, Loc loc, const char *kind,
               const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
