/*
** interrupt.c — the flag lumba_interrupt sets and compiled loops poll.
** A request is one atomic store (async-signal-safe, any thread); compiled
** code reads it with a relaxed load. Ctrl-C in the lua5.4 interpreter is
** seen without a handler of ours: lua.c's SIGINT handler sets a count hook
** on the state (lua_sethook may be called asynchronously), so a hook that
** differs from the one at the start of the call means an interrupt.
*/
#include <stdatomic.h>

#include "interrupt.h"
#include "lumba.h"

static atomic_int pending;
_Thread_local __attribute__((tls_model("initial-exec"))) InterruptScope *lm_interrupt_cur;

LUMBA_API void lumba_interrupt(lua_State *L) {
  (void)L;  /* one flag for the process: every compiled call running stops */
  atomic_store(&pending, 1);
}

int32_t lm_interrupt_poll(void) {
  if (atomic_load_explicit(&pending, memory_order_relaxed)) return 1;
  const InterruptScope *sc = lm_interrupt_cur;
  if (sc == NULL || lua_gethook(sc->L) == sc->hook) return 0;
  atomic_store(&pending, 1);  /* the prange workers of this call stop too */
  return 1;
}

void interrupt_consume(InterruptScope *sc) {
  atomic_store(&pending, 0);
  if (lua_gethook(sc->L) != sc->hook) lua_sethook(sc->L, sc->hook, sc->mask, sc->count);
}
