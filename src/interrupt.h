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
void interrupt_enter(lua_State *L, InterruptScope *sc);
void interrupt_leave(InterruptScope *sc);
/* the call stopped: the request is consumed (a hook lua.c's SIGINT handler
** set is taken back: the error raised instead says "interrupt") */
void interrupt_consume(InterruptScope *sc);

#endif
