/*
** jit_code.c — records of removable JIT code (jit_cpu.h): a resource tracker
** per compiled specialization, reference counts between callers and
** callees, and the index of published code by key.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jit_impl.h"

/* ORC's rules this relies on: a ResourceTracker retains its JITDylib and
** reaches the ExecutionSession when it is released, so every tracker is
** released before the LLJIT is disposed (jit_detach_codes); removing a tracker
** removes its symbols and frees its sections (RuntimeDyld's memory managers
** unmap them). Code is removed only when no code that links to it is left
** (the deps counts), so no remaining code can reach removed code; and only
** from a dispatcher's finalizer or a failed compilation, never while the
** code runs (a dispatcher is on the Lua stack while it is called). */

/* the bucket of key in J->index (FNV-1a of the key) */
static size_t key_bucket(const LmJit *J, const char *key) {
  uint64_t h = 1469598103934665603u;
  for (const char *p = key; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211u;
  return (size_t)(h % J->nindex);
}

static int index_grow(LmJit *J, char **err) {
  size_t n = J->nindex ? 2 * J->nindex : 64;
  JitCode **b = calloc(n, sizeof *b);
  if (b == NULL) {
    jit_seterr(err, "jit: out of memory");
    return -1;
  }
  JitCode **old = J->index;
  size_t oldn = J->nindex;
  J->index = b;
  J->nindex = n;
  for (size_t i = 0; i < oldn; i++)
    for (JitCode *c = old[i], *next; c; c = next) {
      next = c->hnext;
      size_t k = key_bucket(J, c->key);
      c->hnext = b[k];
      b[k] = c;
    }
  free(old);
  return 0;
}

static void index_remove(LmJit *J, JitCode *c) {
  if (c->key == NULL || J->nindex == 0) return;
  for (JitCode **p = &J->index[key_bucket(J, c->key)]; *p; p = &(*p)->hnext)
    if (*p == c) {
      *p = c->hnext;
      J->nkeyed--;
      return;
    }
}

JitCode *jit_code_new(LmJit *J, char **err) {
  JitCode *c = calloc(1, sizeof *c);
  if (c == NULL) {
    jit_seterr(err, "jit: out of memory");
    return NULL;
  }
  c->J = J;
  c->refs = 1;
  c->rt = LLVMOrcJITDylibCreateResourceTracker(J->jd);
  c->tsc = LLVMOrcCreateNewThreadSafeContext();
  c->next = J->codes;
  if (J->codes) J->codes->prev = c;
  J->codes = c;
  J->ncodes++;
  return c;
}

void jit_code_retain(JitCode *c) {
  c->refs++;
}

/* the code is gone from the JIT (or the JIT is): its record leaves J */
static void unlink_code(LmJit *J, JitCode *c) {
  index_remove(J, c);
  if (c->prev) c->prev->next = c->next;
  else J->codes = c->next;
  if (c->next) c->next->prev = c->prev;
  c->prev = c->next = NULL;
  J->ncodes--;
  c->J = NULL;
}

/* sweeps names of removed symbols out of ORC's string pool once in a while */
#define POOL_SWEEP_EVERY 256

void jit_code_release(JitCode *c) {
  while (c != NULL && --c->refs == 0) {
    LmJit *J = c->J;
    if (J) {
      unlink_code(J, c);
      LLVMErrorRef e = LLVMOrcResourceTrackerRemove(c->rt);
      if (e) LLVMConsumeError(e);  /* a finalizer has no one to report it to; the code is unusable anyway */
      LLVMOrcReleaseResourceTracker(c->rt);
      if (++J->removed % POOL_SWEEP_EVERY == 0)
        LLVMOrcSymbolStringPoolClearDeadEntries(
            LLVMOrcExecutionSessionGetSymbolStringPool(LLVMOrcLLJITGetExecutionSession(J->jit)));
    }
    /* callees go after their caller (a chain is released in a loop, not by recursion) */
    JitCode *last = c->ndeps ? c->deps[c->ndeps - 1] : NULL;
    for (int i = 0; i < c->ndeps - 1; i++) jit_code_release(c->deps[i]);
    if (c->tsc) LLVMOrcDisposeThreadSafeContext(c->tsc);
    free(c->deps);
    free(c->key);
    free(c->symbol);
    free(c->ir);
    free(c);
    c = last;
  }
}

void jit_code_release_v(void *c) {
  jit_code_release(c);
}

void jit_detach_codes(LmJit *J) {
  while (J->codes) {
    JitCode *c = J->codes;
    LLVMOrcReleaseResourceTracker(c->rt);  /* the code goes with the JIT */
    c->rt = NULL;
    unlink_code(J, c);
  }
}

int jit_code_depend(JitCode *c, JitCode *callee, char **err) {
  if (callee == NULL || callee == c) return 0;
  for (int i = 0; i < c->ndeps; i++)
    if (c->deps[i] == callee) return 0;
  if (c->ndeps == c->capdeps) {
    int cap = c->capdeps ? 2 * c->capdeps : 4;
    JitCode **d = realloc(c->deps, sizeof *d * (size_t)cap);
    if (d == NULL) {
      jit_seterr(err, "jit: out of memory");
      return -1;
    }
    c->deps = d;
    c->capdeps = cap;
  }
  jit_code_retain(callee);
  c->deps[c->ndeps++] = callee;
  return 0;
}

int jit_code_add_module(JitCode *c, LLVMModuleRef M, char **err) {
  return jit_add_module_rt(c->J, c->rt, c->tsc, M, err);
}

int jit_code_add_object(JitCode *c, const char *obj, size_t len, char **err) {
  return jit_add_object_rt(c->J, c->rt, obj, len, err);
}

int jit_code_publish(JitCode *c, const char *key, const char *symbol, const char *ir, char **err) {
  LmJit *J = c->J;
  if (J == NULL || c->key != NULL) return 0;
  if (J->nkeyed >= J->nindex && index_grow(J, err) != 0) return -1;
  c->key = strdup(key);
  c->symbol = strdup(symbol);
  c->ir = strdup(ir ? ir : "");
  if (c->key == NULL || c->symbol == NULL || c->ir == NULL) {
    free(c->key);
    free(c->symbol);
    free(c->ir);
    c->key = c->symbol = c->ir = NULL;
    jit_seterr(err, "jit: out of memory");
    return -1;
  }
  size_t k = key_bucket(J, key);
  c->hnext = J->index[k];
  J->index[k] = c;
  J->nkeyed++;
  return 0;
}

JitCode *jit_code_find(LmJit *J, const char *key) {
  if (J->nindex == 0) return NULL;
  for (JitCode *c = J->index[key_bucket(J, key)]; c; c = c->hnext)
    if (strcmp(c->key, key) == 0) return c;
  return NULL;
}

LLVMContextRef jit_code_context(JitCode *c) {
  return LLVMOrcThreadSafeContextGetContext(c->tsc);
}

void jit_code_drop_context(JitCode *c) {
  if (c->tsc) LLVMOrcDisposeThreadSafeContext(c->tsc);  /* an added module keeps its own reference */
  c->tsc = NULL;
}

const char *jit_code_symbol(const JitCode *c) { return c->symbol; }
const char *jit_code_ir(const JitCode *c) { return c->ir; }
long jit_code_count(LmJit *J) { return J->ncodes; }
