/*
** stack.c — the recursion guard's limit (stack.h). The bounds of each
** thread's stack are found once per thread (pthread_getattr_np reads
** /proc/self/maps for the main thread: too slow for every call) and kept in
** thread-local storage: a cache of facts about the thread, never shared.
*/
#include <pthread.h>

#include "stack.h"

#define STACK_MARGIN_MAX (256u * 1024u)

static _Thread_local uintptr_t stack_lo, stack_hi;  /* 0, 0: not looked up yet */

uint64_t stack_limit(void) {
  uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
  if (stack_hi == 0) {
    pthread_attr_t at;
    void *addr = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &at) == 0) {
      if (pthread_attr_getstack(&at, &addr, &size) != 0) size = 0;
      pthread_attr_destroy(&at);
    }
    stack_lo = (uintptr_t)addr;
    stack_hi = size ? stack_lo + size : UINTPTR_MAX;  /* unknown: sp never fits */
    if (size == 0) stack_lo = UINTPTR_MAX;
  }
  if (sp <= stack_lo || sp > stack_hi) return 1;
  uintptr_t margin = (stack_hi - stack_lo) / 4;
  if (margin > STACK_MARGIN_MAX) margin = STACK_MARGIN_MAX;
  return (uint64_t)(stack_lo + margin);
}
