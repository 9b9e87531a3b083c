/*
** lm.h — limits, assertions and small macros shared by every stage.
** Bugs in lumba trip LM_ASSERT; user input never does (it raises a Lua error).
*/
#ifndef lm_h
#define lm_h

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(__GNUC__)
#define l_noret void __attribute__((noreturn))
#define LM_UNUSED __attribute__((unused))
#define LM_LIKELY(x) __builtin_expect(!!(x), 1)
#define LM_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define l_noret void
#define LM_UNUSED
#define LM_LIKELY(x) (x)
#define LM_UNLIKELY(x) (x)
#endif

/* everything is compiled -fvisibility=hidden: only what this marks is
** visible outside its .so (luaopen_lumba_core, lumba.h's functions, the
** entry points of backend.so and nvptx.so; tests/exports_spec.lua) */
#define LUMBA_API __attribute__((visibility("default")))

#define LM_VERSION "0.1.0"
#define LM_MAXDIM 8          /* arrays have at most this many dimensions */
#define LM_MAXARGS 64        /* compiled functions take at most this many arguments */
#define LM_MAXNEST 200       /* parser nesting depth */

#ifdef NDEBUG
#define LM_ASSERT(c) ((void)0)
#else
#define LM_ASSERT(c) ((c) ? (void)0 : lm_assert_fail(#c, __FILE__, __LINE__))
#endif
#define LM_UNREACHABLE() lm_assert_fail("unreachable", __FILE__, __LINE__)

/* An internal bug: print and trap. Never used for user input. */
static inline l_noret lm_assert_fail(const char *what, const char *file, int line) {
  fprintf(stderr, "lumba: internal error: %s at %s:%d\n", what, file, line);
  __builtin_trap();
}

#define cast(t, e) ((t)(e))
#define lm_countof(a) (sizeof(a) / sizeof((a)[0]))

#endif
