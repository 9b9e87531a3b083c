/*
** jit_cpu.c — pass pipeline, ORC LLJIT per Lua state, symbol lookup (the
** records of removable code are jit_code.c).
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
#include "jit_impl.h"
#include "libgcc.h"
#include "half_rt.h"

typedef struct ExtHalf { const char *name; void *addr; } ExtHalf;
#include "lm.h"
#include "maps.h"

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
void jit_seterr(char **err, const char *fmt, ...) {
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
void jit_seterr_llvm(char **err, const char *what, LLVMErrorRef e) {
  char *msg = LLVMGetErrorMessage(e);  // consumes e
  jit_seterr(err, "%s: %s", what, msg);
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
  jit_seterr(&J->session_err, "%s", msg);
  LLVMDisposeErrorMessage(msg);
}

/* libgcc's helpers that LLVM's code generator calls (llvm.powi, 128-bit
** division). libm and libc are in a Lua process's global symbol scope (lua5.4
** links them), libgcc_s is not (it comes in as a dependency of libomp, loaded
** RTLD_LOCAL with lumba.core), so the process generator cannot find these:
** every LmJit defines them from the copies this library links. */

static int define_helpers(LmJit *J, char **err) {
  static const ExtHalf half[] = {LM_HALF_SYMS};  /* float16 <-> float (half_rt.h) */
  const char *names[6 + lm_countof(half)] = {"__powidf2", "__powisf2", "__divti3",
                                             "__modti3",  "__udivti3", "__umodti3"};
  void *addrs[6 + lm_countof(half)] = {(void *)__powidf2, (void *)__powisf2, (void *)__divti3,
                                       (void *)__modti3,  (void *)__udivti3, (void *)__umodti3};
  for (size_t i = 0; i < lm_countof(half); i++) names[6 + i] = half[i].name, addrs[6 + i] = half[i].addr;
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
    jit_seterr(err, "jit: out of memory");
    return NULL;
  }
  J->triple = LLVMGetDefaultTargetTriple();
  J->cpu = LLVMGetHostCPUName();
  J->features = LLVMGetHostCPUFeatures();
  LLVMTargetRef target;
  char *msg = NULL;
  if (LLVMGetTargetFromTriple(J->triple, &target, &msg)) {
    jit_seterr(err, "jit: no target for %s: %s", J->triple, msg ? msg : "?");
    LLVMDisposeMessage(msg);
    jit_free(J);
    return NULL;
  }
  J->tm = host_tm(J, target);
  LLVMTargetMachineRef jit_tm = host_tm(J, target);
  if (J->tm == NULL || jit_tm == NULL) {
    jit_seterr(err, "jit: cannot create a target machine for %s (%s)", J->triple, J->cpu);
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
    jit_seterr_llvm(err, "jit: cannot create LLJIT", e);
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
    jit_seterr_llvm(err, "jit: cannot search the process's symbols", e);
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

void jit_free(LmJit *J) {
  if (J == NULL) return;
  jit_detach_codes(J);
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
    jit_seterr(err, "jit: out of memory");
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
    jit_seterr_llvm(err, "jit: cannot define symbols", e);
    return -1;
  }
  return 0;
}

/* A module the verifier rejects would crash the optimiser or the code
** generator; it is a bug in lowering, reported as an error. */
static int verify(LLVMModuleRef M, char **err) {
  char *msg = NULL;
  int bad = LLVMVerifyModule(M, LLVMReturnStatusAction, &msg);
  if (bad) jit_seterr(err, "jit: invalid module: %s", msg ? msg : "?");
  LLVMDisposeMessage(msg);
  return bad ? -1 : 0;
}

int jit_optimize(LmJit *J, LLVMModuleRef M, int level, char **err) {
  if (level < 0 || level > 3) {
    jit_seterr(err, "jit: optimisation level %d is not 0..3", level);
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
    jit_seterr_llvm(err, "jit: optimisation failed", e);
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
    jit_seterr(err, "jit: code generation failed: %s", msg ? msg : "?");
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
    jit_seterr(err, "jit: out of memory");
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

int jit_maps_guard(LmJit *J, char **err) {
  if (J->added++ % MAPS_CHECK_EVERY != 0) return 0;
  long used, limit;
  if (maps_room(&used, &limit)) return 0;
  J->added = 0;  /* look again at the next one */
  jit_seterr(err, "jit: the process has %ld memory mappings of the %ld it may have (vm.max_map_count, LUMBA_MAX_MAPS); "
         "compiled code stays mapped while its dispatcher is alive, so no more can be loaded", used, limit);
  return -1;
}

/* M (built in tsc, taken also on failure) or a copy of the object code, added
** under rt (NULL: the JITDylib's default tracker, for good) */
int jit_add_module_rt(LmJit *J, LLVMOrcResourceTrackerRef rt, LLVMOrcThreadSafeContextRef tsc,
                      LLVMModuleRef M, char **err) {
  if (jit_maps_guard(J, err) != 0) {
    LLVMDisposeModule(M);
    return -1;
  }
  LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(M, tsc);
  LLVMErrorRef e = rt ? LLVMOrcLLJITAddLLVMIRModuleWithRT(J->jit, rt, tsm)  // consumes tsm
                      : LLVMOrcLLJITAddLLVMIRModule(J->jit, J->jd, tsm);
  if (e) {
    jit_seterr_llvm(err, "jit: cannot add module", e);
    return -1;
  }
  return 0;
}

int jit_add_object_rt(LmJit *J, LLVMOrcResourceTrackerRef rt, const char *obj, size_t len, char **err) {
  if (jit_maps_guard(J, err) != 0) return -1;
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(obj, len, "lumba-object");
  LLVMErrorRef e = rt ? LLVMOrcLLJITAddObjectFileWithRT(J->jit, rt, buf)  // consumes buf
                      : LLVMOrcLLJITAddObjectFile(J->jit, J->jd, buf);
  if (e) {
    jit_seterr_llvm(err, "jit: cannot add object code", e);
    return -1;
  }
  return 0;
}

int jit_add_module(LmJit *J, LLVMModuleRef M, char **err) {
  return jit_add_module_rt(J, NULL, J->tsc, M, err);
}

int jit_add_object(LmJit *J, const char *obj, size_t len, char **err) {
  return jit_add_object_rt(J, NULL, obj, len, err);
}

void *jit_lookup(LmJit *J, const char *name, char **err) {
  LLVMOrcJITTargetAddress addr = 0;
  free(J->session_err);
  J->session_err = NULL;
  LLVMErrorRef e = LLVMOrcLLJITLookup(J->jit, &addr, name);
  if (e) {
    char *msg = LLVMGetErrorMessage(e);
    if (J->session_err)
      jit_seterr(err, "jit: cannot look up '%s': %s (%s)", name, J->session_err, msg);
    else
      jit_seterr(err, "jit: cannot look up '%s': %s", name, msg);
    LLVMDisposeErrorMessage(msg);
    free(J->session_err);
    J->session_err = NULL;
    return NULL;
  }
  if (addr == 0) {
    jit_seterr(err, "jit: '%s' has address 0", name);
    return NULL;
  }
  return (void *)(uintptr_t)addr;
}

const char *jit_cpu_name(LmJit *J) { return J->cpu; }
const char *jit_cpu_features(LmJit *J) { return J->features; }
const char *jit_triple(LmJit *J) { return J->triple; }
