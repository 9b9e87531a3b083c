/*
** compile.c — the compilation context every stage shares: its error
** reporting (compile_error, tyname), the registry references it releases
** (compile_note_ref), the clock of the stage report, and the per-state
** compiler (lmstate_jit). It depends on no stage: the stages (resolve,
** infer, parfor, lower) call it, and the pipeline (pipeline.c) runs them.
*/
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include <lauxlib.h>

#include "cachefast.h"
#include "compile.h"
#include "complex_lua.h"
#include "jit_cpu.h"
#include "jitclass.h"
#include "lapack_rt.h"
#include "linalg_rt.h"
#include "nprandom_rt.h"
#include "libdevice.h"
#include "nrt.h"
#include "parallel.h"
#include "simrun.h"
#include "interrupt.h"
#include "stack.h"

/* ---- the per-state compiler ---- */

/* runtime functions compiled code calls */
static const char *const rt_names[] = {"nrt_alloc", "nrt_alloc_uninit", "nrt_incref", "nrt_decref", "par_for", "par_max_workers",
                                       "simrun_ctx", "simrun_shared", "simrun_barrier", "simrun_syncwarp",
                                       "simrun_shfl", "simrun_vote", "simrun_activemask", "simrun_grid_sync",
                                       "stack_limit", "lm_prod_shape", "lm_prod", "lm_class_new", "lm_nprand",
                                       "lm_nprand_random", "lm_nprand_gauss",
                                       "lm_rt_cpow", "lm_rt_cmath", "lm_rt_libdevice", "lm_lapack",
                                       "lm_interrupt_poll"};

/* Code the cache's fast path loaded without the JIT is defined in it as
** absolute symbols before the JIT is used: code compiled later may call it.
** One at a time: a name the JIT already defines (the same code, which
** cachefast.c never loads twice) keeps its definition. */
static LmJit *sync_fast(LmState *S) {
  const char *const *names;
  void *const *addrs;
  int n = cachefast_pending(S, &names, &addrs);
  for (int i = 0; i < n; i++) {
    char *err = NULL;
    if (jit_define_symbols(S->jit, names + i, addrs + i, 1, &err) != 0) free(err);
  }
  cachefast_synced(S);
  return S->jit;
}

LmJit *lmstate_jit(lua_State *L, LmState *S) {
  if (S->jit) return S->fast ? sync_fast(S) : S->jit;
  char *err = NULL;
  LmJit *J = jit_new(&err);
  if (J) {
    void *addrs[] = {(void *)nrt_alloc, (void *)nrt_alloc_uninit, (void *)nrt_incref, (void *)nrt_decref, (void *)par_for,
                     (void *)par_max_workers, (void *)simrun_ctx, (void *)simrun_shared, (void *)simrun_barrier,
                     (void *)simrun_syncwarp, (void *)simrun_shfl, (void *)simrun_vote, (void *)simrun_activemask,
                     (void *)simrun_grid_sync,
                     (void *)stack_limit, (void *)lm_prod_shape, (void *)lm_prod,
                     (void *)lm_class_new, (void *)lm_nprand, (void *)lm_nprand_random, (void *)lm_nprand_gauss,
                     (void *)lm_rt_cpow, (void *)lm_rt_cmath, (void *)lm_rt_libdevice, (void *)lm_lapack,
                     (void *)lm_interrupt_poll};
    if (jit_define_symbols(J, rt_names, addrs, (int)lm_countof(rt_names), &err) != 0) {
      jit_free(J);
      J = NULL;
    }
  }
  if (J == NULL) {
    lua_pushfstring(L, "lumba: cannot start the LLVM JIT: %s", err ? err : "out of memory");
    free(err);
    lua_error(L);
  }
  S->jit = J;
  S->jit_free = jit_free;
  return S->fast ? sync_fast(S) : J;
}

/* ---- messages ---- */

l_noret compile_error(Compile *C, Loc loc, const char *kind, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (C->prelude_fname && C->prelude && loc.src == C->prelude->loc.src)  /* the user's call, not the prelude's text */
    diag_error(C->L, &C->src, C->prelude_call, kind, "%s(): %s (in lumba's prelude, line %d)", C->prelude_fname, msg,
               loc.line);
  diag_error(C->L, &C->src, loc, kind, "%s", msg);
}

const char *tyname(Compile *C, const Type *t) {
  char buf[2048];  /* a record's name is long */
  return arena_strdup(C->A, ty_display(t, buf, sizeof buf));
}

void compile_note_ref(Compile *C, int ref) {
  if (C->nrefs == C->caprefs) {
    int cap = C->caprefs ? 2 * C->caprefs : 8;
    int *r = arena_alloc(C->A, sizeof(int) * (size_t)cap);
    if (C->nrefs) memcpy(r, C->refs, sizeof(int) * (size_t)C->nrefs);
    C->refs = r;
    C->caprefs = cap;
  }
  C->refs[C->nrefs++] = ref;
}

int spec_local(FuncSpec *spec, const char *name) {
  for (int i = 0; i < spec->nlocals; i++)
    if (strcmp(spec->locals[i].name, name) == 0) return i;
  return -1;
}

double compile_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void compile_skip_cache(Compile *C, const char *why) {
  if (!C->opt.cache) return;
  C->opt.cache = false;
  C->prekey[0] = '\0';
  lua_State *L = C->L;
  int top = lua_gettop(L);
  lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  if (lua_getfield(L, -1, "lumba") == LUA_TTABLE && lua_getfield(L, -1, "warnings") == LUA_TFUNCTION) {
    lua_pushfstring(L, "cache: compiled code is not cached: %s", why);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) lua_pop(L, 1);
  }
  lua_settop(L, top);
}
