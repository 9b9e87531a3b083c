/* jit_cpu: modules built by hand with the LLVM C API are optimised, added,
** looked up and called; errors come back as messages; several JITs live at
** once, also in several threads. Timings are printed as "# " comments. */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <llvm-c/Core.h>

#include "jit_cpu.h"
#include "test.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* double name(double *a, int64 n): the sum of a[0..n) in order */
static void build_sum(LLVMContextRef C, LLVMModuleRef M, const char *name) {
  LLVMTypeRef f64 = LLVMDoubleTypeInContext(C), i64 = LLVMInt64TypeInContext(C);
  LLVMTypeRef params[] = {LLVMPointerType(f64, 0), i64};
  LLVMValueRef fn = LLVMAddFunction(M, name, LLVMFunctionType(f64, params, 2, 0));
  LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(C, fn, "entry");
  LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(C, fn, "loop");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(C, fn, "body");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(C, fn, "done");
  LLVMPositionBuilderAtEnd(B, entry);
  LLVMBuildBr(B, loop);
  LLVMPositionBuilderAtEnd(B, loop);
  LLVMValueRef i = LLVMBuildPhi(B, i64, "i");
  LLVMValueRef s = LLVMBuildPhi(B, f64, "s");
  LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, LLVMGetParam(fn, 1), "c"), body, done);
  LLVMPositionBuilderAtEnd(B, body);
  LLVMValueRef p = LLVMBuildGEP2(B, f64, LLVMGetParam(fn, 0), &i, 1, "p");
  LLVMValueRef s2 = LLVMBuildFAdd(B, s, LLVMBuildLoad2(B, f64, p, "x"), "s2");
  LLVMValueRef i2 = LLVMBuildAdd(B, i, LLVMConstInt(i64, 1, 0), "i2");
  LLVMBuildBr(B, loop);
  LLVMValueRef iv[] = {LLVMConstInt(i64, 0, 0), i2}, sv[] = {LLVMConstReal(f64, 0), s2};
  LLVMBasicBlockRef from[] = {entry, body};
  LLVMAddIncoming(i, iv, from, 2);
  LLVMAddIncoming(s, sv, from, 2);
  LLVMPositionBuilderAtEnd(B, done);
  LLVMBuildRet(B, s);
  LLVMDisposeBuilder(B);
}

/* void scale(double *restrict out, double *restrict a, int64 n): out[i] = a[i] * 2
** (vectorisable: shows the host's vector width in the assembly) */
static void build_scale(LLVMContextRef C, LLVMModuleRef M) {
  LLVMTypeRef f64 = LLVMDoubleTypeInContext(C), i64 = LLVMInt64TypeInContext(C);
  LLVMTypeRef params[] = {LLVMPointerType(f64, 0), LLVMPointerType(f64, 0), i64};
  LLVMValueRef fn = LLVMAddFunction(M, "scale",
                                    LLVMFunctionType(LLVMVoidTypeInContext(C), params, 3, 0));
  unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
  LLVMAddAttributeAtIndex(fn, 1, LLVMCreateEnumAttribute(C, noalias, 0));
  LLVMAddAttributeAtIndex(fn, 2, LLVMCreateEnumAttribute(C, noalias, 0));
  LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(C, fn, "entry");
  LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(C, fn, "loop");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(C, fn, "body");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(C, fn, "done");
  LLVMPositionBuilderAtEnd(B, entry);
  LLVMBuildBr(B, loop);
  LLVMPositionBuilderAtEnd(B, loop);
  LLVMValueRef i = LLVMBuildPhi(B, i64, "i");
  LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, LLVMGetParam(fn, 2), "c"), body, done);
  LLVMPositionBuilderAtEnd(B, body);
  LLVMValueRef x = LLVMBuildLoad2(B, f64, LLVMBuildGEP2(B, f64, LLVMGetParam(fn, 1), &i, 1, ""), "");
  LLVMBuildStore(B, LLVMBuildFMul(B, x, LLVMConstReal(f64, 2), ""),
                 LLVMBuildGEP2(B, f64, LLVMGetParam(fn, 0), &i, 1, ""));
  LLVMValueRef i2 = LLVMBuildAdd(B, i, LLVMConstInt(i64, 1, 0), "i2");
  LLVMBuildBr(B, loop);
  LLVMValueRef iv[] = {LLVMConstInt(i64, 0, 0), i2};
  LLVMBasicBlockRef from[] = {entry, body};
  LLVMAddIncoming(i, iv, from, 2);
  LLVMPositionBuilderAtEnd(B, done);
  LLVMBuildRetVoid(B);
  LLVMDisposeBuilder(B);
}

/* double name(double x): callee(x) + k, callee an external double(double) */
static void build_call(LLVMContextRef C, LLVMModuleRef M, const char *name, const char *callee,
                       double k) {
  LLVMTypeRef f64 = LLVMDoubleTypeInContext(C);
  LLVMTypeRef fty = LLVMFunctionType(f64, &f64, 1, 0);
  LLVMValueRef ext = LLVMGetNamedFunction(M, callee);
  if (ext == NULL) ext = LLVMAddFunction(M, callee, fty);
  LLVMValueRef fn = LLVMAddFunction(M, name, fty);
  LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
  LLVMPositionBuilderAtEnd(B, LLVMAppendBasicBlockInContext(C, fn, "entry"));
  LLVMValueRef arg = LLVMGetParam(fn, 0);
  LLVMValueRef r = LLVMBuildCall2(B, fty, ext, &arg, 1, "r");
  LLVMBuildRet(B, LLVMBuildFAdd(B, r, LLVMConstReal(f64, k), ""));
  LLVMDisposeBuilder(B);
}

/* double powi(double x, i32 n): llvm.powi, which the code generator turns
** into a call to libgcc's __powidf2 */
static void build_powi(LLVMContextRef C, LLVMModuleRef M) {
  LLVMTypeRef params[] = {LLVMDoubleTypeInContext(C), LLVMInt32TypeInContext(C)};
  LLVMValueRef fn = LLVMAddFunction(M, "powi", LLVMFunctionType(params[0], params, 2, 0));
  LLVMValueRef intr = LLVMGetIntrinsicDeclaration(M, LLVMLookupIntrinsicID("llvm.powi", 9),
                                                  params, 2);
  LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
  LLVMPositionBuilderAtEnd(B, LLVMAppendBasicBlockInContext(C, fn, "entry"));
  LLVMValueRef args[] = {LLVMGetParam(fn, 0), LLVMGetParam(fn, 1)};
  LLVMBuildRet(B, LLVMBuildCall2(B, LLVMGlobalGetValueType(intr), intr, args, 2, ""));
  LLVMDisposeBuilder(B);
}

static LLVMModuleRef new_module(LmJit *J, const char *name) {
  LLVMModuleRef M = LLVMModuleCreateWithNameInContext(name, jit_context(J));
  jit_prepare_module(J, M);
  return M;
}

static double host_triple_x(double x) { return 3 * x; }
static double host_other(double x) { return x - 100; }

typedef double (*SumFn)(double *, int64_t);
typedef double (*UnaryFn)(double);
typedef void (*ScaleFn)(double *, double *, int64_t);

static void test_basic(void) {
  char *err = NULL;
  double t0 = now_ms();
  LmJit *J = jit_new(&err);
  double t1 = now_ms();
  printf("# jit_new: %.2f ms\n", t1 - t0);
  ASSERT(1, J != NULL);
  if (J == NULL) {
    printf("# %s\n", err);
    free(err);
    return;
  }
  ASSERT(1, strlen(jit_cpu_name(J)) > 0);
  ASSERT(1, strstr(jit_triple(J), "x86_64") != NULL || strstr(jit_triple(J), "aarch64") != NULL);
  printf("# cpu %s, triple %s\n", jit_cpu_name(J), jit_triple(J));

  const char *names[] = {"host_triple_x"};
  void *addrs[] = {(void *)host_triple_x};
  ASSERT(0, jit_define_symbols(J, names, addrs, 1, &err));
  /* a second definition of the same name is refused */
  ASSERT(-1, jit_define_symbols(J, names, addrs, 1, &err));
  ASSERT_STR("jit: cannot define symbols: Duplicate definition of symbol 'host_triple_x'", err);
  free(err);
  err = NULL;
  /* libgcc's helpers are predefined: a Lua process cannot see them */
  const char *helper[] = {"__powidf2"};
  ASSERT(-1, jit_define_symbols(J, helper, addrs, 1, &err));
  ASSERT_STR("jit: cannot define symbols: Duplicate definition of symbol '__powidf2'", err);
  free(err);
  err = NULL;

  t0 = now_ms();
  LLVMModuleRef M = new_module(J, "m1");
  build_sum(jit_context(J), M, "sum");
  build_call(jit_context(J), M, "callexp", "exp", 0.5);
  build_call(jit_context(J), M, "calltriple", "host_triple_x", 1.0);
  build_scale(jit_context(J), M);
  build_powi(jit_context(J), M);
  ASSERT(0, jit_optimize(J, M, 3, &err));

  /* the assembly is for the host: the copy loop uses its widest usual vectors */
  LLVMModuleRef copy = LLVMCloneModule(M);  /* emitting rewrites its module; M is added below */
  char *asm_text = jit_emit_asm(J, copy, &err);
  LLVMDisposeModule(copy);
  ASSERT(1, asm_text != NULL);
  ASSERT(1, strstr(asm_text, "scale:") != NULL);
  if (strstr(jit_cpu_features(J), "+avx,") || strstr(jit_cpu_features(J), "+avx2,"))
    ASSERT(1, strstr(asm_text, "%ymm") != NULL || strstr(asm_text, "%zmm") != NULL);
  else
    ASSERT(1, strstr(asm_text, "%xmm") != NULL);
  if (getenv("LUMBA_TEST_SHOW_ASM")) fputs(asm_text, stdout);
  free(asm_text);

  ASSERT(0, jit_add_module(J, M, &err));
  SumFn sum = (SumFn)jit_lookup(J, "sum", &err);
  t1 = now_ms();
  printf("# optimize O3 + emit asm + add + lookup (5 small functions): %.2f ms\n", t1 - t0);
  ASSERT(1, sum != NULL);
  double a[1000];
  double expect = 0;
  for (int i = 0; i < 1000; i++) {
    a[i] = i * 0.25 - 3;
    expect += a[i];
  }
  ASSERT(1, sum(a, 1000) == expect);
  ASSERT(1, sum(a, 0) == 0);
  UnaryFn callexp = (UnaryFn)jit_lookup(J, "callexp", &err);
  ASSERT(1, callexp(1.5) == exp(1.5) + 0.5);
  UnaryFn calltriple = (UnaryFn)jit_lookup(J, "calltriple", &err);
  ASSERT(1, calltriple(7) == 22);
  double (*powi)(double, int32_t) = (double (*)(double, int32_t))jit_lookup(J, "powi", &err);
  ASSERT(1, powi(2.0, 10) == 1024.0 && powi(2.0, -2) == 0.25 && powi(-3.0, 3) == -27.0);
  ScaleFn scale = (ScaleFn)jit_lookup(J, "scale", &err);
  double out[1000];
  scale(out, a, 1000);
  ASSERT(1, out[0] == -6 && out[999] == 2 * a[999]);

  /* an unknown name is an error, not a crash; the JIT still works after it */
  ASSERT(1, jit_lookup(J, "nosuch", &err) == NULL);
  ASSERT_STR("jit: cannot look up 'nosuch': Symbols not found: [ nosuch ]", err);
  free(err);
  err = NULL;
  ASSERT(1, jit_lookup(J, "sum", &err) == (void *)sum);

  /* a module that calls a symbol nobody defines fails at lookup */
  LLVMModuleRef M2 = new_module(J, "m2");
  build_call(jit_context(J), M2, "callmissing", "lumba_no_such_function", 0);
  ASSERT(0, jit_optimize(J, M2, 2, &err));
  ASSERT(0, jit_add_module(J, M2, &err));
  ASSERT(1, jit_lookup(J, "callmissing", &err) == NULL);
  ASSERT_STR("jit: cannot look up 'callmissing': Symbols not found: [ lumba_no_such_function ] "
             "(Failed to materialize symbols: { (main, { callmissing }) })", err);
  free(err);
  err = NULL;

  /* a module defining a name again is refused (and freed) */
  LLVMModuleRef M3 = new_module(J, "m3");
  build_sum(jit_context(J), M3, "sum");
  ASSERT(-1, jit_add_module(J, M3, &err));
  ASSERT_STR("jit: cannot add module: Duplicate definition of symbol 'sum'", err);
  free(err);
  err = NULL;

  /* invalid IR is reported by the verifier, not a crash in the optimiser */
  LLVMModuleRef M4 = new_module(J, "m4");
  LLVMTypeRef f64 = LLVMDoubleTypeInContext(jit_context(J));
  LLVMValueRef bad = LLVMAddFunction(M4, "bad", LLVMFunctionType(f64, NULL, 0, 0));
  LLVMAppendBasicBlockInContext(jit_context(J), bad, "entry");  // no terminator
  ASSERT(-1, jit_optimize(J, M4, 3, &err));
  ASSERT(1, err != NULL && strncmp(err, "jit: invalid module: ", 21) == 0);
  free(err);
  err = NULL;
  ASSERT(-1, jit_optimize(J, M4, 4, &err));
  ASSERT_STR("jit: optimisation level 4 is not 0..3", err);
  free(err);
  err = NULL;
  LLVMDisposeModule(M4);  // never added: still ours

  /* object code for the cache: emitted by one JIT, loaded by another */
  LLVMModuleRef M5 = new_module(J, "m5");
  build_sum(jit_context(J), M5, "objsum");
  build_call(jit_context(J), M5, "objexp", "exp", 2.0);
  ASSERT(0, jit_optimize(J, M5, 3, &err));
  size_t len = 0;
  char *obj = jit_emit_object(J, M5, &len, &err);
  ASSERT(1, obj != NULL && len > 64);
  ASSERT(1, memcmp(obj, "\177ELF", 4) == 0);
  LLVMDisposeModule(M5);
  t0 = now_ms();
  LmJit *K = jit_new(&err);
  printf("# a second jit_new: %.2f ms\n", now_ms() - t0);
  ASSERT(0, jit_add_object(K, obj, len, &err));
  free(obj);
  SumFn objsum = (SumFn)jit_lookup(K, "objsum", &err);
  ASSERT(1, objsum != NULL && objsum(a, 1000) == expect);
  UnaryFn objexp = (UnaryFn)jit_lookup(K, "objexp", &err);
  ASSERT(1, objexp != NULL && objexp(-0.5) == exp(-0.5) + 2.0);
  /* garbage is an error */
  ASSERT(-1, jit_add_object(K, "not an object", 13, &err));
  ASSERT(1, err != NULL && strncmp(err, "jit: cannot add object code: ", 29) == 0);
  free(err);
  err = NULL;

  /* the two JITs are independent: the same name, each its own definition */
  const char *n2[] = {"host_triple_x"};
  void *a2[] = {(void *)host_other};
  ASSERT(0, jit_define_symbols(K, n2, a2, 1, &err));
  LLVMModuleRef M6 = new_module(K, "m6");
  build_call(jit_context(K), M6, "calltriple", "host_triple_x", 1.0);
  ASSERT(0, jit_optimize(K, M6, 3, &err));
  ASSERT(0, jit_add_module(K, M6, &err));
  UnaryFn other = (UnaryFn)jit_lookup(K, "calltriple", &err);
  ASSERT(1, other(7) == -92);
  ASSERT(1, calltriple(7) == 22);

  jit_free(K);
  ASSERT(1, calltriple(8) == 25);  // freeing K left J's code alone

  /* what the first call of a small compiled function costs after jit_new */
  t0 = now_ms();
  LLVMModuleRef M7 = new_module(J, "m7");
  build_sum(jit_context(J), M7, "timedsum");
  ASSERT(0, jit_optimize(J, M7, 3, &err));
  ASSERT(0, jit_add_module(J, M7, &err));
  SumFn timedsum = (SumFn)jit_lookup(J, "timedsum", &err);
  t1 = now_ms();
  printf("# build + optimize O3 + add + lookup of one small function: %.2f ms\n", t1 - t0);
  ASSERT(1, timedsum(a, 1000) == expect);
  jit_free(J);
  jit_free(NULL);
}

/* a thread makes its own JIT, compiles at O3 and checks the result */
static void *thread_main(void *arg) {
  int k = *(int *)arg;
  char *err = NULL;
  LmJit *J = jit_new(&err);
  if (J == NULL) {
    free(err);
    return (void *)0;
  }
  long good = 1;
  for (int round = 0; round < 3; round++) {
    LLVMModuleRef M = new_module(J, "t");
    char name[32];
    snprintf(name, sizeof name, "sum%d", round);
    build_sum(jit_context(J), M, name);
    if (jit_optimize(J, M, 3, &err) || jit_add_module(J, M, &err)) {
      free(err);
      good = 0;
      break;
    }
    SumFn f = (SumFn)jit_lookup(J, name, &err);
    double a[] = {k, k, 1.5, round};
    if (f == NULL || f(a, 4) != 2.0 * k + 1.5 + round) good = 0;
  }
  jit_free(J);
  return (void *)good;
}

static void test_threads(void) {
  pthread_t th[2];
  int ks[2] = {10, 20};
  for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, thread_main, &ks[i]);
  for (int i = 0; i < 2; i++) {
    void *ok;
    pthread_join(th[i], &ok);
    ASSERT(1, (long)ok);
  }
}

int main(void) {
  test_basic();
  test_threads();
  TEST_END();
}
