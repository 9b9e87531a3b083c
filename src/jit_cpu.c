/*
** jit_cpu.c — pass pipeline, ORC LLJIT per Lua state, symbol lookup.
**
** Ownership rules of the LLVM C API that this file relies on:
**  - LLVMOrcCreateLLJIT consumes its builder, also on failure; the builder
**    consumes the JITTargetMachineBuilder, which consumed its template TM.
**  - LLVMOrcCreateNewThreadSafeModule consumes the module, and
**    LLVMOrcLLJITAddLLVMIRModule / AddObjectFile consume the TSM / buffer even
**    when they fail (llvm-c/LLJIT.h: "should not be disposed of or referenced
**    once this function returns").
**  - LLVMOrcAbsoluteSymbols takes the interned names; LLVMOrcJITDylibDefine
**    owns the materialization unit only on success.
**  - Every char * LLVM returns goes back through LLVMDisposeMessage (or
**    LLVMDisposeErrorMessage for LLVMGetErrorMessage's), after being copied
**    into a malloc'd string when the caller keeps it.
** Code model and relocation model are the JIT defaults (the same ones LLJIT's
** detectHost picks: large code model on x86-64), so the sections RuntimeDyld
** places anywhere in memory can always reach each other and the process's
** libraries; inspect_asm shows exactly the code that runs.
*/
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Error.h>
#include <llvm-c/Support.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "jit_cpu.h"
#include "libgcc.h"
#include "lm.h"
#include "maps.h"

struct LmJit {
  LLVMOrcThreadSafeContextRef tsc;  // context modules are built in
  LLVMOrcLLJITRef jit;              // owns added modules, objects and code
  LLVMOrcJITDylibRef jd;            // the JIT's main JITDylib (owned by jit)
  LLVMTargetMachineRef tm;          // host TM for the optimiser and emission
  char *triple, *cpu, *features;    // from LLVM: LLVMDisposeMessage
  char *session_err;                // last error the ExecutionSession reported (malloc'd)
  unsigned added;                   // modules and objects added (maps_guard checks every so many)
  JitCode *codes;                   // every live JitCode (jit_free detaches them)
  long ncodes;
  JitCode **index;                  // published JitCodes by key: nindex buckets
  size_t nindex, nkeyed;
  unsigned removed;                 // code removed since the symbol pool was last swept
};

struct JitCode {
  LmJit *J;                         // NULL once detached (the JIT is gone)
  LLVMOrcResourceTrackerRef rt;     // tracks what was added with it; NULL once detached
  LLVMOrcThreadSafeContextRef tsc;  // its module's own context, until jit_code_drop_context
  int refs;
  int ndeps, capdeps;
  JitCode **deps;                   // code it calls (one reference each)
  char *key, *symbol, *ir;          // when published (malloc'd)
  JitCode *prev, *next;             // J->codes
  JitCode *hnext;                   // J->index bucket
};

/* The only C global: LLVM's native target is registered once per process. */
static pthread_once_t native_once = PTHREAD_ONCE_INIT;

static void init_native(void) {
#ifdef LUMBA_LLVM_PRIVATE
  /* No runtime unrolling of loops: it was 1.5 ms of a 9 ms compilation (its
  ** scalar-evolution work) and bought nothing the loop vectoriser's
  ** interleaving had not (make bench, every kernel). Full unrolling of loops
  ** with a constant trip count stays. A command-line option is global to
  ** the LLVM it is given to: only set in lumba's own, linked-in copy. */
  const char *const argv[] = {"lumba", "-unroll-runtime=false"};
  LLVMParseCommandLineOptions(2, argv, NULL);
#endif
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();
}

/* A malloc'd copy of a formatted message into *err (NULL if out of memory;
** err itself may be NULL when the caller wants no message). */
static void seterr(char **err, const char *fmt, ...) {
  if (err == NULL) return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (s) {
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
  }
  *err = s;
}

/* Consumes e and reports "what: message". */
static void seterr_llvm(char **err, const char *what, LLVMErrorRef e) {
  char *msg = LLVMGetErrorMessage(e);  // consumes e
  seterr(err, "%s: %s", what, msg);
  LLVMDisposeErrorMessage(msg);
}

/* The ExecutionSession reports materialization failures (an undefined
** symbol in an added module, ...) here instead of printing them to stderr;
** jit_lookup adds the last one to its own message. */
static void report_session_error(void *ctx, LLVMErrorRef e) {
  LmJit *J = ctx;
  char *msg = LLVMGetErrorMessage(e);
  free(J->session_err);
  J->session_err = NULL;
  seterr(&J->session_err, "%s", msg);
  LLVMDisposeErrorMessage(msg);
}

/* libgcc's helpers that LLVM's code generator calls (llvm.powi, 128-bit
** division). libm and libc are in a Lua process's global symbol scope (lua5.4
** links them), libgcc_s is not (it comes in as a dependency of libomp, loaded
** RTLD_LOCAL with lumba.core), so the process generator cannot find these:
** every LmJit defines them from the copies this library links. */

static int define_helpers(LmJit *J, char **err) {
  const char *const names[] = {"__powidf2", "__powisf2", "__divti3",
                               "__modti3",  "__udivti3", "__umodti3"};
  void *const addrs[] = {(void *)__powidf2, (void *)__powisf2, (void *)__divti3,
                         (void *)__modti3,  (void *)__udivti3, (void *)__umodti3};
  return jit_define_symbols(J, names, addrs, (int)lm_countof(names), err);
}

static LLVMTargetMachineRef host_tm(LmJit *J, LLVMTargetRef target) {
  return LLVMCreateTargetMachine(target, J->triple, J->cpu, J->features,
                                 LLVMCodeGenLevelAggressive, LLVMRelocDefault,
                                 LLVMCodeModelJITDefault);
}

LmJit *jit_new(char **err) {
  pthread_once(&native_once, init_native);
  LmJit *J = calloc(1, sizeof *J);
  if (J == NULL) {
    seterr(err, "jit: out of memory");
    return NULL;
  }
  J->triple = LLVMGetDefaultTargetTriple();
  J->cpu = LLVMGetHostCPUName();
  J->features = LLVMGetHostCPUFeatures();
  LLVMTargetRef target;
  char *msg = NULL;
  if (LLVMGetTargetFromTriple(J->triple, &target, &msg)) {
    seterr(err, "jit: no target for %s: %s", J->triple, msg ? msg : "?");
    LLVMDisposeMessage(msg);
    jit_free(J);
    return NULL;
  }
  J->tm = host_tm(J, target);
  LLVMTargetMachineRef jit_tm = host_tm(J, target);
  if (J->tm == NULL || jit_tm == NULL) {
    seterr(err, "jit: cannot create a target machine for %s (%s)", J->triple, J->cpu);
    if (jit_tm) LLVMDisposeTargetMachine(jit_tm);
    jit_free(J);
    return NULL;
  }
  LLVMOrcJITTargetMachineBuilderRef jtmb =
      LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(jit_tm);  // consumes jit_tm
  LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
  LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(builder, jtmb);  // consumes jtmb
  LLVMErrorRef e = LLVMOrcCreateLLJIT(&J->jit, builder);        // consumes builder
  if (e) {
    J->jit = NULL;
    seterr_llvm(err, "jit: cannot create LLJIT", e);
    jit_free(J);
    return NULL;
  }
  LLVMOrcExecutionSessionSetErrorReporter(LLVMOrcLLJITGetExecutionSession(J->jit),
                                          report_session_error, J);
  J->jd = LLVMOrcLLJITGetMainJITDylib(J->jit);
  LLVMOrcDefinitionGeneratorRef gen;
  e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
      &gen, LLVMOrcLLJITGetGlobalPrefix(J->jit), NULL, NULL);
  if (e) {
    seterr_llvm(err, "jit: cannot search the process's symbols", e);
    jit_free(J);
    return NULL;
  }
  LLVMOrcJITDylibAddGenerator(J->jd, gen);  // the JITDylib owns gen
  if (define_helpers(J, err)) {
    jit_free(J);
    return NULL;
  }
  J->tsc = LLVMOrcCreateNewThreadSafeContext();
  return J;
}

static void detach_codes(LmJit *J);

void jit_free(LmJit *J) {
  if (J == NULL) return;
  detach_codes(J);
  free(J->index);
  if (J->jit) {
    LLVMErrorRef e = LLVMOrcDisposeLLJIT(J->jit);
    if (e) LLVMConsumeError(e);  // nothing to report it to while closing
  }
  if (J->tsc) LLVMOrcDisposeThreadSafeContext(J->tsc);
  if (J->tm) LLVMDisposeTargetMachine(J->tm);
  LLVMDisposeMessage(J->triple);
  LLVMDisposeMessage(J->cpu);
  LLVMDisposeMessage(J->features);
  free(J->session_err);
  free(J);
}

LLVMContextRef jit_context(LmJit *J) {
  return LLVMOrcThreadSafeContextGetContext(J->tsc);
}

void jit_prepare_module(LmJit *J, LLVMModuleRef M) {
  LLVMSetTarget(M, LLVMOrcLLJITGetTripleString(J->jit));
  LLVMSetDataLayout(M, LLVMOrcLLJITGetDataLayoutStr(J->jit));
}

int jit_define_symbols(LmJit *J, const char *const *names, void *const *addrs, int n,
                       char **err) {
  if (n <= 0) return 0;
  LLVMJITCSymbolMapPair *pairs = malloc((size_t)n * sizeof *pairs);
  if (pairs == NULL) {
    seterr(err, "jit: out of memory");
    return -1;
  }
  for (int i = 0; i < n; i++) {
    pairs[i].Name = LLVMOrcLLJITMangleAndIntern(J->jit, names[i]);  // retained for AbsoluteSymbols
    pairs[i].Sym.Address = (LLVMOrcJITTargetAddress)(uintptr_t)addrs[i];
    pairs[i].Sym.Flags.GenericFlags =
        LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
    pairs[i].Sym.Flags.TargetFlags = 0;
  }
  LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(pairs, (size_t)n);
  free(pairs);  // the names now belong to mu
  LLVMErrorRef e = LLVMOrcJITDylibDefine(J->jd, mu);
  if (e) {
    LLVMOrcDisposeMaterializationUnit(mu);  // still ours after a failed define
    seterr_llvm(err, "jit: cannot define symbols", e);
    return -1;
  }
  return 0;
}

/* A module the verifier rejects would crash the optimiser or the code
** generator; it is a bug in lowering, reported as an error. */
static int verify(LLVMModuleRef M, char **err) {
  char *msg = NULL;
  int bad = LLVMVerifyModule(M, LLVMReturnStatusAction, &msg);
  if (bad) seterr(err, "jit: invalid module: %s", msg ? msg : "?");
  LLVMDisposeMessage(msg);
  return bad ? -1 : 0;
}

int jit_optimize(LmJit *J, LLVMModuleRef M, int level, char **err) {
  if (level < 0 || level > 3) {
    seterr(err, "jit: optimisation level %d is not 0..3", level);
    return -1;
  }
  if (verify(M, err)) return -1;
  char pipeline[16];
  snprintf(pipeline, sizeof pipeline, "default<O%d>", level);
  LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
  /* clang's choices: vectorisers and unrolling from O2 (the C API leaves
  ** the SLP vectoriser off by default) */
  LLVMPassBuilderOptionsSetLoopVectorization(opts, level >= 2);
  LLVMPassBuilderOptionsSetSLPVectorization(opts, level >= 2);
  LLVMPassBuilderOptionsSetLoopInterleaving(opts, level >= 2);
  LLVMPassBuilderOptionsSetLoopUnrolling(opts, level >= 2);
  LLVMErrorRef e = LLVMRunPasses(M, pipeline, J->tm, opts);
  LLVMDisposePassBuilderOptions(opts);
  if (e) {
    seterr_llvm(err, "jit: optimisation failed", e);
    return -1;
  }
  return 0;
}

/* Code generation rewrites IR in place (CodeGenPrepare): M is compiled as
** it is, not a clone (every caller disposes of it next; cloning cost a first
** compilation ~0.1 ms). */
static char *emit(LmJit *J, LLVMModuleRef M, LLVMCodeGenFileType kind, size_t *len,
                  char **err) {
  char *msg = NULL;
  LLVMMemoryBufferRef buf = NULL;
  LLVMBool bad = LLVMTargetMachineEmitToMemoryBuffer(J->tm, M, kind, &msg, &buf);
  if (bad) {
    seterr(err, "jit: code generation failed: %s", msg ? msg : "?");
    LLVMDisposeMessage(msg);
    return NULL;
  }
  size_t n = LLVMGetBufferSize(buf);
  char *out = malloc(n + 1);
  if (out) {
    memcpy(out, LLVMGetBufferStart(buf), n);
    out[n] = '\0';
    if (len) *len = n;
  } else {
    seterr(err, "jit: out of memory");
  }
  LLVMDisposeMemoryBuffer(buf);
  return out;
}

char *jit_emit_asm(LmJit *J, LLVMModuleRef M, char **err) {
  return emit(J, M, LLVMAssemblyFile, NULL, err);
}

char *jit_emit_object(LmJit *J, LLVMModuleRef M, size_t *len, char **err) {
  return emit(J, M, LLVMObjectFile, len, err);
}

/* ---- the process's memory mappings ----
** LLVM 14's RuntimeDyld maps each object's sections apart, about two
** mappings per compiled function that stay until its code is removed (its
** dispatcher collected: JitCode below) or the JIT goes, and when
** mmap fails at the kernel's per-process limit (vm.max_map_count, 65530 by
** default: ~30,000 functions) it aborts the whole process ("LLVM ERROR:
** Unable to allocate section memory!"). So the first object and every
** 256th after it look at the mappings and refuse, with an error, once
** fewer than MAPS_MARGIN remain: enough for 256 more objects in each of
** several JITs and for the host's own needs. LUMBA_MAX_MAPS may lower the
** limit (a host that wants more headroom; the spec that tests this). */
#define MAPS_CHECK_EVERY 256

static int maps_guard(LmJit *J, char **err) {
  if (J->added++ % MAPS_CHECK_EVERY != 0) return 0;
  long used, limit;
  if (maps_room(&used, &limit)) return 0;
  J->added = 0;  /* look again at the next one */
  seterr(err, "jit: the process has %ld memory mappings of the %ld it may have (vm.max_map_count, LUMBA_MAX_MAPS); "
         "compiled code stays mapped while its dispatcher is alive, so no more can be loaded", used, limit);
  return -1;
}

int jit_add_module(LmJit *J, LLVMModuleRef M, char **err) {
  if (maps_guard(J, err) != 0) {
    LLVMDisposeModule(M);
    return -1;
  }
  LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(M, J->tsc);
  LLVMErrorRef e = LLVMOrcLLJITAddLLVMIRModule(J->jit, J->jd, tsm);  // consumes tsm
  if (e) {
    seterr_llvm(err, "jit: cannot add module", e);
    return -1;
  }
  return 0;
}

int jit_add_object(LmJit *J, const char *obj, size_t len, char **err) {
  if (maps_guard(J, err) != 0) return -1;
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(obj, len, "lumba-object");
  LLVMErrorRef e = LLVMOrcLLJITAddObjectFile(J->jit, J->jd, buf);  // consumes buf
  if (e) {
    seterr_llvm(err, "jit: cannot add object code", e);
    return -1;
  }
  return 0;
}

/* ---- removable code (jit_cpu.h) ----
** ORC's rules this relies on: a ResourceTracker retains its JITDylib and
** reaches the ExecutionSession when it is released, so every tracker is
** released before the LLJIT is disposed (detach_codes); removing a tracker
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
    seterr(err, "jit: out of memory");
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
    seterr(err, "jit: out of memory");
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

static void detach_codes(LmJit *J) {
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
      seterr(err, "jit: out of memory");
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
  LmJit *J = c->J;
  if (maps_guard(J, err) != 0) {
    LLVMDisposeModule(M);
    return -1;
  }
  LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(M, c->tsc);
  LLVMErrorRef e = LLVMOrcLLJITAddLLVMIRModuleWithRT(J->jit, c->rt, tsm);  // consumes tsm
  if (e) {
    seterr_llvm(err, "jit: cannot add module", e);
    return -1;
  }
  return 0;
}

int jit_code_add_object(JitCode *c, const char *obj, size_t len, char **err) {
  LmJit *J = c->J;
  if (maps_guard(J, err) != 0) return -1;
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(obj, len, "lumba-object");
  LLVMErrorRef e = LLVMOrcLLJITAddObjectFileWithRT(J->jit, c->rt, buf);  // consumes buf
  if (e) {
    seterr_llvm(err, "jit: cannot add object code", e);
    return -1;
  }
  return 0;
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
    seterr(err, "jit: out of memory");
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

void *jit_lookup(LmJit *J, const char *name, char **err) {
  LLVMOrcJITTargetAddress addr = 0;
  free(J->session_err);
  J->session_err = NULL;
  LLVMErrorRef e = LLVMOrcLLJITLookup(J->jit, &addr, name);
  if (e) {
    char *msg = LLVMGetErrorMessage(e);
    if (J->session_err)
      seterr(err, "jit: cannot look up '%s': %s (%s)", name, J->session_err, msg);
    else
      seterr(err, "jit: cannot look up '%s': %s", name, msg);
    LLVMDisposeErrorMessage(msg);
    free(J->session_err);
    J->session_err = NULL;
    return NULL;
  }
  if (addr == 0) {
    seterr(err, "jit: '%s' has address 0", name);
    return NULL;
  }
  return (void *)(uintptr_t)addr;
}

const char *jit_cpu_name(LmJit *J) { return J->cpu; }
const char *jit_cpu_features(LmJit *J) { return J->features; }
const char *jit_triple(LmJit *J) { return J->triple; }
