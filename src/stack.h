/*
** stack.h — the runtime half of the recursion guard: compiled functions
** that call themselves (directly or through other defs) compare their frame
** address with a limit before going deeper, and raise RecursionError where
** Numba would overflow the stack and kill the process.
*/
#ifndef stack_h
#define stack_h

#include <stdint.h>

/* The lowest frame address compiled code may use on the calling thread:
** the thread's stack bottom plus a margin (a quarter of the stack, at most
** 256 KiB) for the frames and runtime calls between two checks. 1 (no
** guard) when the caller is not on its thread's pthread stack (a fiber's
** own stack) or the bounds are unknown. Compiled code calls it at its first
** recursive call and keeps the result in LmErr.stack_limit. */
uint64_t stack_limit(void);

#endif
