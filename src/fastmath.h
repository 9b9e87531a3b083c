/*
** fastmath.h — LLVM fast-math flags for fastmath=true / a set of flags.
*/
#ifndef fastmath_h
#define fastmath_h

#include <string.h>

#include <llvm-c/Core.h>
#include <lua.h>

#include "lm.h"

enum { FM_ALL = 0x7f, FM_AFN = 1 << 5 };  /* nnan ninf nsz arcp contract afn reassoc */

#define FM_NAMES "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc"

/* the bit of a flag name ("nnan", ..., or "fast" for all); -1 if unknown
** (inline: core.so parses options, backend.so applies them) */
static inline int fastmath_flag(const char *name) {
  static const char *const names[] = {FM_NAMES};
  if (strcmp(name, "fast") == 0) return FM_ALL;
  for (size_t i = 0; i < lm_countof(names); i++)
    if (strcmp(name, names[i]) == 0) return 1 << i;
  return -1;
}
/* m with the flags on every floating-point instruction: a new module in ctx
** (m is left to the caller to dispose); raises on failure */
LLVMModuleRef fastmath_apply(lua_State *L, LLVMContextRef ctx, LLVMModuleRef m, unsigned flags);

#endif
