/*
** vecmath.c — vector variants of exp, log, sin, cos and pow for fastmath
** code (vecmath.h).
**
** LLVM 14's -vector-library option is global to the process and ignores
** fast-math flags, so it would change the results of code compiled without
** fastmath. Instead each call site compiled with afn gets the attribute the
** loop vectoriser reads itself ("vector-function-abi-variant", the one
** LLVM's InjectTLIMappings pass writes), naming the library's functions for
** each width the host has; other calls keep glibc's scalar functions.
**
** The library is SLEEF's 1-ulp functions (libsleef3) when it loads, else
** glibc's libmvec (4 ulp); $LUMBA_VECMATH=sleef|libmvec|none picks one.
** SLEEF is the default: faster here and more accurate (README, dependencies).
*/
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lm.h"
#include "vecmath.h"

typedef struct VecLib {
  const char *name, *soname;
  /* the vector function of base ("exp") at one width; "" if none */
  void (*vname)(char *out, size_t cap, const char *base, bool f32, int isa, int lanes);
} VecLib;

/* x86-64 vector widths: bits, the CPU feature they need */
static const struct { int bits; const char *feature; } isas[] = {
    {128, "sse4.1"}, {256, "avx2"}, {512, "avx512f"}};

/* glibc's names follow the x86-64 vector function ABI: _ZGVdN4v_exp */
static void mvec_name(char *out, size_t cap, const char *base, bool f32, int isa, int lanes) {
  snprintf(out, cap, "_ZGV%cN%d%s_%s%s", "bde"[isa], lanes, strcmp(base, "pow") == 0 ? "vv" : "v",
           base, f32 ? "f" : "");
}

/* SLEEF's 1.0-ulp functions: Sleef_expd4_u10avx2 */
static void sleef_name(char *out, size_t cap, const char *base, bool f32, int isa, int lanes) {
  static const char *const sfx[] = {"sse4", "avx2", "avx512f"};
  snprintf(out, cap, "Sleef_%s%c%d_u10%s", base, f32 ? 'f' : 'd', lanes, sfx[isa]);
}

static const VecLib libs[] = {
    {"sleef", "libsleef.so.3", sleef_name},
    {"libmvec", "libmvec.so.1", mvec_name},
};

static const VecLib *lib;
static void *lib_handle;
static pthread_once_t lib_once = PTHREAD_ONCE_INIT;

static void lib_load(void) {
  const char *want = getenv("LUMBA_VECMATH");
  if (want && *want == '\0') want = NULL;
  for (size_t i = 0; i < lm_countof(libs); i++) {
    if (want && strcmp(want, libs[i].name) != 0) continue;
    void *h = dlopen(libs[i].soname, RTLD_NOW | RTLD_GLOBAL);
    if (h) {
      lib = &libs[i];
      lib_handle = h;
      return;
    }
  }
}

const char *vecmath_name(void) {
  pthread_once(&lib_once, lib_load);
  return lib ? lib->name : "none";
}

/* "+avx2" as a whole entry of LLVM's comma-separated feature list */
static bool has_feature(const char *features, const char *f) {
  size_t n = strlen(f);
  for (const char *p = features; p && *p;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == n + 1 && p[0] == '+' && memcmp(p + 1, f, n) == 0) return true;
    p = end ? end + 1 : NULL;
  }
  return false;
}

/* the functions vectorised: intrinsic stem, library base name, arity */
static const struct { const char *stem, *base; int nargs; } fns[] = {
    {"llvm.exp.", "exp", 1}, {"llvm.log.", "log", 1}, {"llvm.sin.", "sin", 1},
    {"llvm.cos.", "cos", 1}, {"llvm.pow.", "pow", 2}};

typedef struct Used { LLVMValueRef *v; int n, cap; } Used;

static void used_add(Used *u, LLVMValueRef f) {
  for (int i = 0; i < u->n; i++)
    if (u->v[i] == f) return;
  if (u->n == u->cap) {
    u->cap = u->cap ? 2 * u->cap : 16;
    u->v = realloc(u->v, sizeof *u->v * (size_t)u->cap);
    if (!u->v) abort();
  }
  u->v[u->n++] = f;
}

/* the attribute's value for one scalar function, declaring each variant in m
** (the vectoriser requires the declarations; llvm.compiler.used keeps them
** alive until it runs) */
static size_t variants(LLVMModuleRef m, const char *features, const char *scalar, int fi, bool f32,
                       Used *used, char *out, size_t cap) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef et = f32 ? LLVMFloatTypeInContext(ctx) : LLVMDoubleTypeInContext(ctx);
  size_t len = 0;
  out[0] = '\0';
  for (int isa = 0; isa < (int)lm_countof(isas); isa++) {
    if (!has_feature(features, isas[isa].feature)) continue;
    int lanes = isas[isa].bits / (f32 ? 32 : 64);
    char vname[64];
    lib->vname(vname, sizeof vname, fns[fi].base, f32, isa, lanes);
    if (!dlsym(lib_handle, vname)) continue;
    LLVMTypeRef vt = LLVMVectorType(et, (unsigned)lanes);
    LLVMValueRef vf = LLVMGetNamedFunction(m, vname);
    if (!vf) vf = LLVMAddFunction(m, vname, LLVMFunctionType(vt, (LLVMTypeRef[]){vt, vt}, (unsigned)fns[fi].nargs, 0));
    used_add(used, vf);
    len += (size_t)snprintf(out + len, cap - len, "%s_ZGV_LLVM_N%d%s_%s(%s)", len ? "," : "", lanes,
                            fns[fi].nargs == 2 ? "vv" : "v", scalar, vname);
    if (len >= cap) return 0;
  }
  return len;
}

/* which of fns a callee is (-1 if none), and whether it is the f32 one */
static int match(const char *name, bool *f32) {
  for (int i = 0; i < (int)lm_countof(fns); i++) {
    size_t n = strlen(fns[i].stem);
    if (strncmp(name, fns[i].stem, n) != 0) continue;
    if (strcmp(name + n, "f64") == 0 || strcmp(name + n, "f32") == 0) {
      *f32 = name[n + 1] == '3';
      return i;
    }
  }
  return -1;
}

static void keep_used(LLVMModuleRef m, Used *u) {
  if (u->n == 0) return;
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
  LLVMValueRef old = LLVMGetNamedGlobal(m, "llvm.compiler.used");
  if (old) {  /* keep what was there */
    LLVMValueRef init = LLVMGetInitializer(old);
    int n = init ? LLVMGetNumOperands(init) : 0;
    for (int i = 0; i < n; i++) used_add(u, LLVMGetOperand(init, (unsigned)i));
  }
  for (int i = 0; i < u->n; i++)
    if (LLVMTypeOf(u->v[i]) != i8p) u->v[i] = LLVMConstBitCast(u->v[i], i8p);
  LLVMTypeRef at = LLVMArrayType(i8p, (unsigned)u->n);
  if (old) LLVMSetValueName2(old, "", 0);
  LLVMValueRef g = LLVMAddGlobal(m, at, "llvm.compiler.used");
  LLVMSetInitializer(g, LLVMConstArray(i8p, u->v, (unsigned)u->n));
  LLVMSetLinkage(g, LLVMAppendingLinkage);
  LLVMSetSection(g, "llvm.metadata");
  if (old) LLVMDeleteGlobal(old);
}

void vecmath_annotate(LLVMModuleRef m, const char *cpu_features) {
  if (strcmp(vecmath_name(), "none") == 0) return;
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  static const char key[] = "vector-function-abi-variant";
  char attr[1024];
  Used used = {0};
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
        if (!LLVMIsACallInst(in)) continue;
        LLVMValueRef callee = LLVMGetCalledValue(in);
        if (!callee || !LLVMIsAFunction(callee)) continue;
        size_t nlen;
        const char *name = LLVMGetValueName2(callee, &nlen);
        bool f32;
        int fi = match(name, &f32);
        if (fi < 0) continue;
        size_t len = variants(m, cpu_features, name, fi, f32, &used, attr, sizeof attr);
        if (len == 0) continue;
        LLVMAttributeRef a = LLVMCreateStringAttribute(ctx, key, sizeof key - 1, attr, (unsigned)len);
        LLVMAddCallSiteAttribute(in, LLVMAttributeFunctionIndex, a);
      }
  keep_used(m, &used);
  free(used.v);
}
