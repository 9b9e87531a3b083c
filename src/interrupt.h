/*
** interrupt.h — stopping compiled code from outside: lumba_interrupt (lumba.h)
** from a signal handler or another thread, and Ctrl-C in lua5.4 (whose
** SIGINT handler sets a Lua hook, which compiled code never reaches).
** A poll that sees the hook sets the flag too, so the call's prange workers
** (threads without the Lua state) stop as well.
** Compiled loops call lm_interrupt_poll every LM_POLL_EVERY back-edges of a
** while loop and of a range loop holding another loop; nonzero makes the
** call raise "KeyboardInterrupt: interrupted".
*/
#ifndef interrupt_h
#define interrupt_h

#include <stdint.h>

#include <lua.h>

#define LM_POLL_EVERY 1024

/* nonzero when the running compiled call should stop: lumba_interrupt was
** called, or a hook was set on the calling Lua state since the call began */
int32_t lm_interrupt_poll(void);

/* around one compiled call on the calling thread (nests) */
typedef struct InterruptScope {
  lua_State *L;
  lua_Hook hook;
  int mask, count;
  struct InterruptScope *prev;  /* the call this one runs inside, on this thread */
} InterruptScope;
/* the scope of the compiled call running on this thread. Every dispatch
** sets it, so it is one pointer, in the initial-exec model: the default one
** costs a __tls_get_addr call per access in a dlopen'd library (7% of a
** scalar call), and 8 bytes fit the static TLS space glibc keeps for
** libraries loaded later. enter/leave are inline: they are on every call */
extern _Thread_local __attribute__((tls_model("initial-exec"))) InterruptScope *lm_interrupt_cur;

static inline void interrupt_enter(lua_State *L, InterruptScope *sc) {
  sc->prev = lm_interrupt_cur;
  sc->L = L;
  sc->hook = lua_gethook(L);
  /* mask and count only matter to put a hook back (interrupt_consume):
  ** with none at the start (the usual case) there is nothing to read */
  sc->mask = sc->hook ? lua_gethookmask(L) : 0;
  sc->count = sc->hook ? lua_gethookcount(L) : 0;
  lm_interrupt_cur = sc;
}

static inline void interrupt_leave(InterruptScope *sc) {
  lm_interrupt_cur = sc->prev;
}
/* the call stopped: the request is consumed (a hook lua.c's SIGINT handler
** set is taken back: the error raised instead says "interrupt") */
void interrupt_consume(InterruptScope *sc);

#endif
