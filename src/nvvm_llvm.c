/*
** nvvm_llvm.c — the fallback where libNVVM is missing but the driver is
** not: LLVM's own NVPTX backend through the C API. parse the module ->
** link libdevice (its functions made internal, so the O3 pipeline keeps
** only what is called) -> NVVMReflect + O3 -> PTX. The LLVM version
** differences (which sm_XY and PTX ISA it knows) stay in this file.
*/
#include <pthread.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <llvm/Config/llvm-config.h>

#include "backend.h"
#include "core_api.h"
#include "lm.h"
#include "nvvm.h"

/* the sm_XY this LLVM's NVPTX backend knows, ascending, and its newest PTX ISA */
#if LLVM_VERSION_MAJOR >= 16
static const int known_sm[] = {35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90};
#define PTX_FEATURES "+ptx78"
#else
static const int known_sm[] = {35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86};
#define PTX_FEATURES "+ptx75"
#endif

static pthread_once_t nvptx_once = PTHREAD_ONCE_INIT;

static void nvptx_init(void) {
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeNVPTXAsmPrinter();
}

/* Collects the errors LLVM reports through the context (the linker's). */
static void on_diagnostic(LLVMDiagnosticInfoRef info, void *ud) {
  if (LLVMGetDiagInfoSeverity(info) != LLVMDSError) return;
  char *msg = LLVMGetDiagInfoDescription(info);
  NvBuf *b = ud;
  nvvm_buf_str(b, b->len ? "; " : "");
  nvvm_buf_str(b, msg);
  LLVMDisposeMessage(msg);
}

/* "[NVPTX] step: detail", without the detail's trailing newlines */
static char *fail(const char *step, const char *detail) {
  NvBuf b = {0};
  if (detail == NULL) detail = "failed";
  size_t n = strlen(detail);
  while (n > 0 && (detail[n - 1] == '\n' || detail[n - 1] == ' ')) n--;
  nvvm_buf_printf(&b, "[NVPTX] %s: %.*s", step, (int)n, detail);
  return nvvm_buf_take(&b);
}

/* Links libdevice into m: every function it brings in becomes internal, so
** that global DCE drops the hundreds nobody calls. */
static char *link_libdevice(LLVMContextRef ctx, LLVMModuleRef m, const char *path, NvBuf *diag) {
  LLVMMemoryBufferRef buf;
  char *err = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &err)) {
    char *e = fail("libdevice", err);
    LLVMDisposeMessage(err);
    return e;
  }
  LLVMModuleRef lib;
  bool bad = LLVMParseBitcodeInContext2(ctx, buf, &lib);
  LLVMDisposeMemoryBuffer(buf);
  if (bad) return fail("libdevice", diag->len ? diag->s : path);
  LLVMSetTarget(lib, LLVMGetTarget(m));
  LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(m));
  size_t nown = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) nown++;
  LLVMValueRef *own = malloc((nown + 1) * sizeof *own);
  if (own == NULL) { LLVMDisposeModule(lib); return fail("libdevice", "out of memory"); }
  nown = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f)) own[nown++] = f;
  if (LLVMLinkModules2(m, lib)) {  /* lib is destroyed either way */
    free(own);
    return fail("link libdevice", diag->s);
  }
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    bool mine = false;
    for (size_t i = 0; i < nown && !mine; i++) mine = own[i] == f;
    if (!mine && !LLVMIsDeclaration(f)) LLVMSetLinkage(f, LLVMInternalLinkage);
  }
  free(own);
  return NULL;
}

/* fastmath: flush denormals (libdevice reads the module flag through
** __nvvm_reflect) and let codegen use approximate division and sqrt. */
static void set_fastmath(LLVMContextRef ctx, LLVMModuleRef m) {
  LLVMValueRef one = LLVMConstInt(LLVMInt32TypeInContext(ctx), 1, 0);
  LLVMAddModuleFlag(m, LLVMModuleFlagBehaviorOverride, "nvvm-reflect-ftz", 16, LLVMValueAsMetadata(one));
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f)) continue;
    LLVMAddTargetDependentFunctionAttr(f, "unsafe-fp-math", "true");
    LLVMAddTargetDependentFunctionAttr(f, "denormal-fp-math-f32", "preserve-sign,preserve-sign");
  }
}

static int pick_sm(int cc_major, int cc_minor) {
  int want = cc_major * 10 + cc_minor, sm = known_sm[0];
  for (size_t i = 0; i < lm_countof(known_sm); i++)
    if (known_sm[i] <= want) sm = known_sm[i];
  return sm;
}

/* Everything after parsing, on a module this function owns. */
static char *compile_module(LLVMContextRef ctx, LLVMModuleRef m, int sm, bool fastmath,
                            const char *libdevice_path, NvBuf *diag, char **ptx) {
  char *err = NULL;
  LLVMTargetRef target;
  if (LLVMGetTargetFromTriple(NVVM_TRIPLE, &target, &err)) {
    char *e = fail("target", err);
    LLVMDisposeMessage(err);
    return e;
  }
  char cpu[16];
  snprintf(cpu, sizeof cpu, "sm_%d", sm);
  LLVMTargetMachineRef tm = LLVMCreateTargetMachine(target, NVVM_TRIPLE, cpu, PTX_FEATURES,
                                                    LLVMCodeGenLevelAggressive, LLVMRelocDefault,
                                                    LLVMCodeModelDefault);
  LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tm);
  LLVMSetTarget(m, NVVM_TRIPLE);
  LLVMSetModuleDataLayout(m, dl);
  LLVMDisposeTargetData(dl);
  char *e = libdevice_path ? link_libdevice(ctx, m, libdevice_path, diag) : NULL;
  if (e == NULL && fastmath) set_fastmath(ctx, m);
  if (e == NULL) {
    /* NVPTX registers NVVMReflect at the pipeline's start */
    LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
    LLVMErrorRef perr = LLVMRunPasses(m, "default<O3>", tm, opts);
    LLVMDisposePassBuilderOptions(opts);
    if (perr) {
      char *msg = LLVMGetErrorMessage(perr);
      e = fail("optimise", msg);
      LLVMDisposeErrorMessage(msg);
    }
  }
  LLVMMemoryBufferRef out = NULL;
  if (e == NULL && LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMAssemblyFile, &err, &out)) {
    e = fail("emit", err);
    LLVMDisposeMessage(err);
  }
  if (e == NULL) {
    size_t n = LLVMGetBufferSize(out);
    if ((*ptx = malloc(n + 1)) == NULL) e = fail("emit", "out of memory");
    else { memcpy(*ptx, LLVMGetBufferStart(out), n); (*ptx)[n] = '\0'; }
    LLVMDisposeMemoryBuffer(out);
  }
  LLVMDisposeTargetMachine(tm);
  return e;
}

int nvvm_compile_llvm(const char *ir, size_t len, int cc_major, int cc_minor, bool fastmath,
                      const char *libdevice_path, char **ptx, char **log) {
  *ptx = *log = NULL;
  pthread_once(&nvptx_once, nvptx_init);
  LLVMContextRef ctx = LLVMContextCreate();
  NvBuf diag = {0};
  LLVMContextSetDiagnosticHandler(ctx, on_diagnostic, &diag);
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, len, "lumba");
  LLVMModuleRef m = NULL;
  char *err = NULL;
  if (LLVMParseIRInContext(ctx, buf, &m, &err)) {  /* takes buf */
    *log = fail("parse", err);
    LLVMDisposeMessage(err);
  } else {
    *log = compile_module(ctx, m, pick_sm(cc_major, cc_minor), fastmath, libdevice_path, &diag, ptx);
    LLVMDisposeModule(m);
  }
  LLVMContextDispose(ctx);
  free(nvvm_buf_take(&diag));
  return *log ? -1 : 0;
}

/* the entry point: nvptx.so calls core.so (nvvm_buf_*) through its table */
NvptxCompile lumba_nvptx_compiler(const CoreApi *core) {
  core_api = core;  // set once: backend_load.c calls this under pthread_once
  return nvvm_compile_llvm;
}
