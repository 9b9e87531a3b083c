/*
** dispatch_calls.c — calls from compiled code to another dispatcher, the
** hook the pipeline gives the stages (CompileHooks.callee): the callee is
** compiled (or found) for the argument types, its key noted for the
** cache, and the caller's lowering declares its inner function by symbol
** (the JIT resolves it).
*/
#include <string.h>

#include <lauxlib.h>

#include "cache.h"
#include "dispatch.h"

FuncSpec *dispatch_callee(Compile *C, int ref, Type **argtypes, int nargs, Loc loc) {
  lua_State *L = C->L;
  lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
  Dispatcher *d = lua_touserdata(L, -1);
  int didx = lua_gettop(L);
  if (d->name == NULL) compile_error(C, loc, "TypingError", "a called dispatcher has been collected");
  if (nargs != d->nparams)
    compile_error(C, loc, "TypingError", "%s() takes %d arguments but %d were given", d->name, d->nparams, nargs);
  DispSpec *found = NULL;
  for (DispSpec *s = d->specs; s && !found; s = s->next)
    if (s->nargs == nargs && memcmp(s->argtypes, argtypes, sizeof(Type *) * (size_t)nargs) == 0) found = s;
  if (found == NULL) {
    if (d->eager) compile_error(C, loc, "TypingError", "%s has no compiled signature for these argument types", d->name);
    for (DispBusy *b = d->busy; b; b = b->next)
      if (b->nargs == nargs && memcmp(b->argtypes, argtypes, sizeof(Type *) * (size_t)nargs) == 0)
        compile_error(C, loc, "TypingError",
                      "%s() calls itself back through other lumba functions, so its type cannot be inferred "
                      "(define the functions in one source)", d->name);
    found = dispatch_add_spec(L, d, didx, argtypes, nargs);
  }
  cache_note_callee(C, d->name, ref, found->key, argtypes, nargs);  /* the callee's key is part of the caller's */
  lua_settop(L, didx - 1);
  /* what the caller's inference and lowering need of it (the spec outlives the compilation) */
  FuncSpec *f = arena_alloc(C->A, sizeof(FuncSpec));
  f->argtypes = found->argtypes;
  f->nargs = found->nargs;
  f->ret = found->ret;
  f->symbol = found->symbol;
  /* its optimised IR, for inlining (pipeline.c); large code is called, never copied */
  if (found->llvm_ir && strlen(found->llvm_ir) < 64 * 1024) {
    struct CalleeIR *c = arena_alloc(C->A, sizeof *c);
    c->ir = found->llvm_ir;  /* the callee's spec outlives this compilation: C holds a reference */
    c->next = C->callee_ir;
    C->callee_ir = c;
  }
  return f;
}
