/*
** fastmath.c — fastmath=true (or a set of flags): LLVM's fast-math flags on
** every floating-point instruction, so the optimiser may reassociate (and
** vectorise float reductions), assume no NaNs/infinities, and so on.
** LLVM 14's C API cannot set fast-math flags on instructions, so the module
** is printed, the flags are written into the text, and the text is parsed
** back: a few milliseconds, paid only by fastmath functions.
*/
#include <string.h>

#include <lauxlib.h>
#include <llvm-c/IRReader.h>

#include "fastmath.h"

static const char *const flag_names[] = {FM_NAMES};

/* " = fadd double" → " = fadd nnan ninf ... double" for the listed opcodes */
static const char *const fp_ops[] = {" = fadd ", " = fsub ", " = fmul ", " = fdiv ", " = frem ", " = fneg ", " = fcmp "};

static size_t flags_text(unsigned flags, char *out, size_t cap) {
  size_t n = 0;
  out[0] = '\0';
  if ((flags & FM_ALL) == FM_ALL) return (size_t)snprintf(out, cap, "fast ");
  for (size_t i = 0; i < lm_countof(flag_names); i++)
    if (flags & (1u << i)) n += (size_t)snprintf(out + n, cap - n, "%s ", flag_names[i]);
  return n;
}

LLVMModuleRef fastmath_apply(lua_State *L, LLVMContextRef ctx, LLVMModuleRef m, unsigned flags) {
  char ftext[96];
  size_t flen = flags_text(flags, ftext, sizeof ftext);
  char *ir = LLVMPrintModuleToString(m);
  size_t len = strlen(ir);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  const char *p = ir, *end = ir + len;
  while (p < end) {
    const char *best = NULL;
    size_t blen = 0;
    for (size_t i = 0; i < lm_countof(fp_ops); i++) {
      const char *q = strstr(p, fp_ops[i]);
      if (q && (!best || q < best)) {
        best = q;
        blen = strlen(fp_ops[i]);
      }
    }
    /* calls of math intrinsics take the flags too: "call double @llvm.sqrt" */
    const char *c = strstr(p, " = call double @llvm.");
    const char *c2 = strstr(p, " = call float @llvm.");
    if (c2 && (!c || c2 < c)) c = c2;
    if (c && (!best || c < best)) {
      best = c;
      blen = strlen(" = call ");
    }
    if (!best) {
      luaL_addlstring(&b, p, (size_t)(end - p));
      break;
    }
    luaL_addlstring(&b, p, (size_t)(best - p) + blen);
    luaL_addlstring(&b, ftext, flen);
    p = best + blen;
  }
  LLVMDisposeMessage(ir);
  luaL_pushresult(&b);
  size_t n;
  const char *text = lua_tolstring(L, -1, &n);
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, n, "fastmath");
  lua_pop(L, 1);
  LLVMModuleRef out = NULL;
  char *err = NULL;
  if (LLVMParseIRInContext(ctx, buf, &out, &err)) {
    lua_pushfstring(L, "lumba: internal error: fastmath rewrite: %s", err ? err : "?");
    LLVMDisposeMessage(err);
    lua_error(L);
  }
  return out;
}
