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
/* the Lua state whose compiled call runs on this thread, and its hook then */
static _Thread_local lua_State *cur_L;
static _Thread_local lua_Hook cur_hook;

LUMBA_API void lumba_interrupt(lua_State *L) {
  (void)L;  /* one flag for the process: every compiled call running stops */
  atomic_store(&pending, 1);
}

int32_t lm_interrupt_poll(void) {
  if (atomic_load_explicit(&pending, memory_order_relaxed)) return 1;
  if (cur_L == NULL || lua_gethook(cur_L) == cur_hook) return 0;
  atomic_store(&pending, 1);  /* the prange workers of this call stop too */
  return 1;
}

void interrupt_enter(lua_State *L, InterruptScope *sc) {
  sc->prev_L = cur_L;
  sc->prev_hook = cur_hook;
  sc->L = L;
  sc->hook = lua_gethook(L);
  sc->mask = lua_gethookmask(L);
  sc->count = lua_gethookcount(L);
  cur_L = L;
  cur_hook = sc->hook;
}

void interrupt_leave(InterruptScope *sc) {
  cur_L = sc->prev_L;
  cur_hook = sc->prev_hook;
}

void interrupt_consume(InterruptScope *sc) {
  atomic_store(&pending, 0);
  if (lua_gethook(sc->L) != sc->hook) lua_sethook(sc->L, sc->hook, sc->mask, sc->count);
}
