/*
** dispatch_calls.c — calls from compiled code to another dispatcher: the
** callee is compiled (or found) for the argument types, and the caller
** declares its inner function by symbol (the JIT resolves it).
*/
#include <string.h>

#include <lauxlib.h>

#include "cache.h"
#include "dispatch.h"
#include "lower.h"


DispSpec *dispatch_spec_for(Compile *C, int ref, Type **argtypes, int nargs, Loc loc) {
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
  return found;
}

Type *dispatch_spec_ret(DispSpec *d) { return d->ret; }

FuncSpec *dispatch_spec_funcspec(struct Lower *L, DispSpec *d) {
  FuncSpec *f = arena_alloc(L->C->A, sizeof(FuncSpec));
  f->argtypes = d->argtypes;
  f->nargs = d->nargs;
  f->ret = d->ret;
  f->symbol = d->symbol;
  return f;
}

LLVMValueRef dispatch_spec_declare(struct Lower *L, DispSpec *d, LLVMTypeRef *fnty) {
  LLVMValueRef f = LLVMGetNamedFunction(L->C->mod, d->symbol);
  LLVMTypeRef ps[4 + 2 * LM_MAXARGS * (LM_MAXDIM + 1)];
  int n = 0;
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  ps[n++] = LLVMPointerType(lower_err_type(L->ctx), 0);
  ps[n++] = LLVMPointerType(lower_type(L, d->ret), 0);
  for (int i = 0; i < d->nargs; i++) {
    Type *t = d->argtypes[i];
    if (t->kind == TY_ARRAY) {
      ps[n++] = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
      ps[n++] = LLVMPointerType(lower_mem_type(L, t->dtype), 0);
      for (int k = 0; k < 2 * t->ndim; k++) ps[n++] = i64;
    } else {
      ps[n++] = lower_type(L, t);
    }
  }
  *fnty = LLVMFunctionType(LLVMInt32TypeInContext(L->ctx), ps, (unsigned)n, 0);
  if (f == NULL) f = LLVMAddFunction(L->C->mod, d->symbol, *fnty);
  return f;
}

