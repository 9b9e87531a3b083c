/*
** compile.c — the pipeline for one specialization, run protected as
** luaD_protectedparser runs the parser: parse (or import the Lua-table
** AST) → resolve → infer → lower → verify/optimise → JIT. Whatever happens,
** the arena, the builder and any module the JIT did not take are freed
** before an error is re-raised.
*/
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include <lauxlib.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/IRReader.h>

#include "builtin_hooks.h"
#include "cache.h"
#include "cachefast.h"
#include "compile.h"
#include "cudadrv.h"
#include "dispatch.h"
#include "fastmath.h"
#include "frontend.h"
#include "jit_cpu.h"
#include "lower.h"
#include "nrt.h"
#include "parallel.h"
#include "simrun.h"
#include "stack.h"
#include "target_sim.h"

/* what libNVVM 2.0 accepts (../shared/gpu/README.md): i128:128:128 is required */
#define LUMBA_NVVM_TRIPLE "nvptx64-nvidia-cuda"
#define LUMBA_NVVM_DATALAYOUT                                                              \
  "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-" \
  "v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"

/* ---- the per-state compiler ---- */

/* runtime functions compiled code calls */
static const char *const rt_names[] = {"nrt_alloc", "nrt_incref", "nrt_decref", "par_for", "par_max_workers",
                                       "simrun_ctx", "simrun_shared", "simrun_barrier", "simrun_syncwarp",
                                       "stack_limit"};

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
    void *addrs[] = {(void *)nrt_alloc, (void *)nrt_incref, (void *)nrt_decref, (void *)par_for,
                     (void *)par_max_workers, (void *)simrun_ctx, (void *)simrun_shared, (void *)simrun_barrier,
                     (void *)simrun_syncwarp, (void *)stack_limit};
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
  diag_error(C->L, &C->src, loc, kind, "%s", msg);
}

const char *tyname(Compile *C, const Type *t) {
  char buf[256];
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

/* ---- one compilation ---- */

/* the stages a compilation reports with LUMBA_VERBOSE=1 */
enum { T_START, T_PARSE, T_INFER, T_LOWER, T_OPT, T_CODE, T__COUNT };

double compile_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

typedef struct Job {
  double t[T__COUNT];       // stage end times (ms)
  bool from_cache;
  int disp_idx;             // absolute stack index of the dispatcher
  const char *name;
  const Options *opt;
  Type **argtypes;
  int nargs;
  Type *declared_ret;
  bool gpu;                 // compile a CUDA kernel (NVVM IR) instead of host code
  bool sim;                 // ... for the CUDA simulator: CPU code, typed as a kernel
  LLVMContextRef gpu_ctx;   // GPU modules live in their own context
  Arena arena;
  Compile C;
  LLVMModuleRef mod;        // owned until the JIT takes it
  LLVMBuilderRef b;
  char *obj;                // object code for the cache (malloc'd)
  size_t objlen;
  DispSpec *out;            // malloc'd result
} Job;

static void arena_oom(void *ud) {
  luaL_error((lua_State *)ud, "not enough memory to compile");
}

static char *types_text(Compile *C, FuncSpec *spec) {
  luaL_Buffer b;
  lua_State *L = C->L;
  luaL_buffinit(L, &b);
  lua_pushfstring(L, "%s (", spec->def->name);
  luaL_addvalue(&b);
  for (int i = 0; i < spec->nargs; i++) {
    lua_pushfstring(L, "%s%s", i ? ", " : "", spec->argtypes[i]->name);
    luaL_addvalue(&b);
  }
  lua_pushfstring(L, ") -> %s\n", spec->ret->name);
  luaL_addvalue(&b);
  for (int i = 0; i < spec->nlocals; i++) {
    lua_pushfstring(L, "  %s: %s%s\n", spec->locals[i].name, spec->locals[i].ty->name,
                    spec->locals[i].is_param ? " (argument)" : "");
    luaL_addvalue(&b);
  }
  luaL_pushresult(&b);
  char *s = strdup(lua_tostring(L, -1));
  lua_pop(L, 1);
  return s;
}

static void fail_llvm(lua_State *L, const char *what, char *err) {
  lua_pushfstring(L, "lumba: %s: %s", what, err ? err : "out of memory");
  free(err);
  lua_error(L);
}


/* source → typed specialization (shared by both targets) */
static FuncSpec *front(lua_State *L, Job *job) {
  Compile *C = &job->C;
  C->L = L;
  C->S = lmstate_get(L);
  C->A = &job->arena;
  C->opt = *job->opt;
  C->opt.gpu = job->gpu;
  /* kernels never raise ZeroDivisionError unless asked to (numba-cuda's default) */
  if (job->gpu && !C->opt.error_model_set) C->opt.error_model_numpy = true;
  C->target = job->sim ? &target_sim : job->gpu ? &target_gpu : &target_cpu;
  C->builtins = builtin_table;
  if (job->sim) C->opt.boundscheck = true;  /* the simulator is a debugging tool */
  job->arena.oom = arena_oom;
  job->arena.oom_ud = L;
  int d = job->disp_idx;
  lua_getiuservalue(L, d, DISP_UV_CHUNK);
  C->src.chunk = arena_strdup(C->A, lua_tostring(L, -1) ? lua_tostring(L, -1) : "<string>");
  lua_pop(L, 1);
  lua_getiuservalue(L, d, DISP_UV_SOURCE);
  if (lua_type(L, -1) == LUA_TSTRING) {
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    C->src.text = arena_strndup(C->A, s, len);
    C->src.len = len;
    C->module = parse_source(L, C->A, &C->src);
  } else {
    /* an AST may carry the text its positions point into (Module.source): messages then show lines */
    lua_pushliteral(L, "source");
    if (lua_rawget(L, -2) == LUA_TSTRING) {
      size_t len;
      const char *s = lua_tolstring(L, -1, &len);
      C->src.text = arena_strndup(C->A, s, len);
      C->src.len = len;
    }
    lua_pop(L, 1);
    C->module = ast_from_lua(L, lua_absindex(L, -1), C->A, &C->src);
  }
  lua_pop(L, 1);
  job->t[T_PARSE] = compile_now_ms();
  lua_getiuservalue(L, d, DISP_UV_ENV);
  C->env_idx = lua_istable(L, -1) ? lua_absindex(L, -1) : 0;
  lua_getiuservalue(L, d, DISP_UV_GLOBALS);
  C->globals_idx = lua_istable(L, -1) ? lua_absindex(L, -1) : 0;
  compile_collect_module_names(C);
  Node *def = compile_find_def(C, job->name);
  if (def == NULL) luaL_error(L, "lumba: no function '%s' in the source", job->name);
  FuncSpec *spec = infer_spec(C, def, job->argtypes, job->nargs, def->loc);
  if (job->declared_ret && job->declared_ret != spec->ret) {
    if (job->declared_ret->kind == TY_SCALAR && spec->ret->kind == TY_SCALAR) {
      spec->ret = job->declared_ret;
      spec->ret_fixed = true;  /* the lowering's re-typing must not widen it back */
    } else
      compile_error(C, def->loc, "TypingError", "the signature returns %s but %s() returns %s",
                    tyname(C, job->declared_ret), def->name, tyname(C, spec->ret));
  }
  job->t[T_INFER] = compile_now_ms();
  DispSpec *out = calloc(1, sizeof(DispSpec));
  if (out == NULL) luaL_error(L, "not enough memory");
  job->out = out;
  memcpy(out->argtypes, job->argtypes, sizeof(Type *) * (size_t)job->nargs);
  out->nargs = job->nargs;
  out->ret = spec->ret;
  out->ret_slots = ty_slots(spec->ret);
  out->types = types_text(C, spec);
  return spec;
}

/* a new code record for out's code (the spec owns its one reference) */
static JitCode *new_code(lua_State *L, LmJit *J, DispSpec *out) {
  char *err = NULL;
  JitCode *code = jit_code_new(J, &err);
  if (code == NULL) fail_llvm(L, "cannot add the module to the JIT", err);
  out->code = code;
  out->code_free = jit_code_release_v;
  return code;
}

static int compile_protected(lua_State *L) {
  Job *job = lua_touserdata(L, 1);
  Compile *C = &job->C;
  FuncSpec *spec = front(L, job);
  DispSpec *out = job->out;
  LmJit *J = lmstate_jit(L, C->S);
  cache_key(C, J, job->disp_idx, spec, job->declared_ret, out->key);
  if (cache_fetch(C, J, job->name, out)) {  /* no lowering, no optimising */
    job->from_cache = true;
    cache_index(C, job->name, out);  /* the next process may skip inference too */
    job->t[T_LOWER] = job->t[T_OPT] = job->t[T_CODE] = compile_now_ms();
    return 0;
  }
  C->symtag = out->key;
  /* its own code record (removed when the last user goes: dispatch_free_spec)
  ** and the context its module is built in */
  JitCode *code = new_code(L, J, out);
  C->ctx = jit_code_context(code);
  job->mod = LLVMModuleCreateWithNameInContext(job->name, C->ctx);
  C->mod = job->mod;
  jit_prepare_module(J, C->mod);
  job->b = LLVMCreateBuilderInContext(C->ctx);
  C->b = job->b;
  lower_module(C);
  const char *wrap = lower_wrapper(C, spec);
  if (C->opt.fastmath) {
    LLVMModuleRef fm = fastmath_apply(L, C->ctx, job->mod, C->opt.fastmath);
    LLVMDisposeModule(job->mod);
    job->mod = C->mod = fm;
  }
  job->t[T_LOWER] = compile_now_ms();
  if (C->pardiag) out->pardiag = strdup(C->pardiag);

  char *err = NULL;
  if (jit_optimize(J, C->mod, 3, &err) != 0) fail_llvm(L, "internal error: invalid IR", err);
  job->t[T_OPT] = compile_now_ms();
  out->symbol = strdup(spec->symbol);
  char *ir = LLVMPrintModuleToString(C->mod);
  out->llvm_ir = strdup(ir);
  LLVMDisposeMessage(ir);
  if (cache_code_deps(C, code, &err) != 0) fail_llvm(L, "cannot add the module to the JIT", err);
  if (C->opt.cache) {  /* code generation runs once: the object is both loaded and stored */
    job->obj = jit_emit_object(J, C->mod, &job->objlen, &err);
    if (job->obj == NULL) fail_llvm(L, "cannot generate object code", err);
    if (jit_code_add_object(code, job->obj, job->objlen, &err) != 0)
      fail_llvm(L, "cannot add the object code to the JIT", err);
  } else {
    LLVMModuleRef m = job->mod;
    job->mod = NULL;  /* the JIT owns it now, also on failure */
    if (jit_code_add_module(code, m, &err) != 0) fail_llvm(L, "cannot add the module to the JIT", err);
  }
  out->wrap = (int32_t(*)(LmErr *, int64_t *, int64_t *))jit_lookup(J, wrap, &err);
  if (out->wrap == NULL) fail_llvm(L, "cannot find the compiled function", err);
  cache_done(C, job->name, out, job->obj, job->objlen);
  job->t[T_CODE] = compile_now_ms();
  return 0;
}

/* LUMBA_VERBOSE=1: where the time of a compilation went */
static void report(const Job *job, const DispSpec *out) {
  char sig[512];
  ty_args_text(out->argtypes, out->nargs, sig, sizeof sig);
  const double *t = job->t;
  if (job->gpu && !job->sim)
    fprintf(stderr, "lumba: compiled kernel %s(%s): parse %.2f ms, infer %.2f ms, lower %.2f ms (NVVM and load at the first launch)\n",
            job->name, sig, t[T_PARSE] - t[T_START], t[T_INFER] - t[T_PARSE], t[T_LOWER] - t[T_INFER]);
  else if (job->sim)
    fprintf(stderr, "lumba: compiled kernel %s(%s) for the simulator: parse %.2f ms, infer %.2f ms, lower %.2f ms, "
            "optimise %.2f ms, codegen and load %.2f ms, total %.2f ms\n", job->name, sig, t[T_PARSE] - t[T_START],
            t[T_INFER] - t[T_PARSE], t[T_LOWER] - t[T_INFER], t[T_OPT] - t[T_LOWER], t[T_CODE] - t[T_OPT],
            t[T_CODE] - t[T_START]);
  else if (job->from_cache)
    fprintf(stderr, "lumba: compiled %s(%s) -> %s: parse %.2f ms, infer %.2f ms, loaded from the cache in %.2f ms, total %.2f ms\n",
            job->name, sig, out->ret->name, t[T_PARSE] - t[T_START], t[T_INFER] - t[T_PARSE],
            t[T_CODE] - t[T_INFER], t[T_CODE] - t[T_START]);
  else
    fprintf(stderr, "lumba: compiled %s(%s) -> %s: parse %.2f ms, infer %.2f ms, lower %.2f ms, optimise %.2f ms, "
            "codegen and load %.2f ms, total %.2f ms\n", job->name, sig, out->ret->name, t[T_PARSE] - t[T_START],
            t[T_INFER] - t[T_PARSE], t[T_LOWER] - t[T_INFER], t[T_OPT] - t[T_LOWER], t[T_CODE] - t[T_OPT],
            t[T_CODE] - t[T_START]);
}

/* The kernel entry: void kernel(T* data, i64 shape..., i64 strides..., scalars...)
** calls the inner function with no meminfo; a failing status ends the thread. */
static const char *gpu_kernel_entry(Compile *C, FuncSpec *spec) {
  LLVMContextRef ctx = C->ctx;
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
  LLVMTypeRef ps[LM_MAXARGS * (2 * LM_MAXDIM + 1)];
  int np = 0;
  Lower Lw = {0};
  Lw.C = C;
  Lw.ctx = ctx;
  Lw.b = C->b;
  for (int i = 0; i < spec->nargs; i++) {
    Type *t = spec->argtypes[i];
    if (t->kind == TY_ARRAY) {
      ps[np++] = LLVMPointerType(lower_mem_type(&Lw, t->dtype), 0);
      for (int k = 0; k < 2 * t->ndim; k++) ps[np++] = i64;
    } else {
      ps[np++] = lower_type(&Lw, t);
    }
  }
  char name[300];
  snprintf(name, sizeof name, "%s_kernel", spec->symbol);
  LLVMValueRef fn = LLVMAddFunction(C->mod, name, LLVMFunctionType(LLVMVoidTypeInContext(ctx), ps, (unsigned)np, 0));
  LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(ctx, fn, "entry");
  LLVMPositionBuilderAtEnd(C->b, bb);
  LLVMValueRef args[4 + LM_MAXARGS * (2 * LM_MAXDIM + 2)];
  int na = 0;
  args[na++] = LLVMBuildAlloca(C->b, lower_err_type(ctx), "err");
  args[na++] = LLVMBuildAlloca(C->b, lower_type(&Lw, spec->ret), "ret");
  int p = 0;
  for (int i = 0; i < spec->nargs; i++) {
    Type *t = spec->argtypes[i];
    if (t->kind == TY_ARRAY) {
      args[na++] = LLVMConstNull(LLVMPointerType(LLVMInt8TypeInContext(ctx), 0));
      for (int k = 0; k < 1 + 2 * t->ndim; k++) args[na++] = LLVMGetParam(fn, (unsigned)p++);
    } else {
      args[na++] = LLVMGetParam(fn, (unsigned)p++);
    }
  }
  LLVMBuildCall2(C->b, spec->fnty, spec->fn, args, (unsigned)na, "");
  LLVMBuildRetVoid(C->b);
  /* inner functions are private to the module and inlined into the kernel */
  unsigned inl = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
  for (FuncSpec *s = C->specs; s; s = s->next) {
    LLVMSetLinkage(s->fn, LLVMInternalLinkage);
    LLVMAddAttributeAtIndex(s->fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, inl, 0));
  }
  LLVMValueRef md[3] = {fn, LLVMMDStringInContext(ctx, "kernel", 6), LLVMConstInt(LLVMInt32TypeInContext(ctx), 1, 0)};
  LLVMAddNamedMetadataOperand(C->mod, "nvvm.annotations", LLVMMDNodeInContext(ctx, md, 3));
  return arena_strdup(C->A, name);
}

static void check_kernel_ret(Job *job, FuncSpec *spec) {
  if (spec->ret->kind != TY_NONE && !job->opt->device)
    compile_error(&job->C, spec->def->loc, "TypingError", "a CUDA kernel cannot return a value (it returns %s)",
                  tyname(&job->C, spec->ret));
}

static int compile_kernel_protected(lua_State *L) {
  Job *job = lua_touserdata(L, 1);
  Compile *C = &job->C;
  FuncSpec *spec = front(L, job);
  check_kernel_ret(job, spec);
  job->gpu_ctx = LLVMContextCreate();
  C->ctx = job->gpu_ctx;
  job->mod = LLVMModuleCreateWithNameInContext(job->name, C->ctx);
  C->mod = job->mod;
  LLVMSetTarget(C->mod, LUMBA_NVVM_TRIPLE);
  LLVMSetDataLayout(C->mod, LUMBA_NVVM_DATALAYOUT);
  job->b = LLVMCreateBuilderInContext(C->ctx);
  C->b = job->b;
  lower_module(C);
  const char *kname = gpu_kernel_entry(C, spec);
  job->t[T_LOWER] = compile_now_ms();
  char *verr = NULL;
  if (LLVMVerifyModule(C->mod, LLVMReturnStatusAction, &verr)) {
    lua_pushfstring(L, "lumba: internal error: invalid kernel IR: %s", verr ? verr : "?");
    LLVMDisposeMessage(verr);
    lua_error(L);
  }
  LLVMDisposeMessage(verr);
  char *ir = LLVMPrintModuleToString(C->mod);
  job->out->kernel_ir = strdup(ir);
  LLVMDisposeMessage(ir);
  job->out->kernel_name = strdup(kname);
  job->out->symbol = strdup(spec->symbol);
  job->out->llvm_ir = strdup(job->out->kernel_ir);
  return 0;
}

/* The simulator's kernel: compiled for the CPU into the state's JIT, its
** entry (target_sim.h) in a SimKernel kept as the spec's launcher state. */
static int compile_sim_protected(lua_State *L) {
  Job *job = lua_touserdata(L, 1);
  Compile *C = &job->C;
  FuncSpec *spec = front(L, job);
  check_kernel_ret(job, spec);
  LmJit *J = lmstate_jit(L, C->S);
  JitCode *code = new_code(L, J, job->out);
  C->ctx = jit_code_context(code);
  job->mod = LLVMModuleCreateWithNameInContext(job->name, C->ctx);
  C->mod = job->mod;
  jit_prepare_module(J, C->mod);
  job->b = LLVMCreateBuilderInContext(C->ctx);
  C->b = job->b;
  lower_module(C);
  SimKernel *k = calloc(1, sizeof *k);
  if (k == NULL) luaL_error(L, "not enough memory");
  job->out->gpu = k;
  job->out->gpu_free = free;
  const char *entry = tsim_kernel_entry(C, spec, k);
  if (C->opt.fastmath) {
    LLVMModuleRef fm = fastmath_apply(L, C->ctx, job->mod, C->opt.fastmath);
    LLVMDisposeModule(job->mod);
    job->mod = C->mod = fm;
  }
  job->t[T_LOWER] = compile_now_ms();
  char *err = NULL;
  if (jit_optimize(J, C->mod, 3, &err) != 0) fail_llvm(L, "internal error: invalid IR", err);
  job->t[T_OPT] = compile_now_ms();
  job->out->symbol = strdup(spec->symbol);
  char *ir = LLVMPrintModuleToString(C->mod);
  job->out->llvm_ir = strdup(ir);
  LLVMDisposeMessage(ir);
  LLVMModuleRef m = job->mod;
  job->mod = NULL;  /* the JIT owns it now, also on failure */
  if (jit_code_add_module(code, m, &err) != 0) fail_llvm(L, "cannot add the module to the JIT", err);
  k->entry = (SimEntry)jit_lookup(J, entry, &err);
  if (k->entry == NULL) fail_llvm(L, "cannot find the compiled function", err);
  job->t[T_CODE] = compile_now_ms();
  return 0;
}

DispSpec *compile_spec(lua_State *L, int disp_idx, const char *name, const Options *opt,
                       Type **argtypes, int nargs, Type *declared_ret) {
  Job job;
  bool gpu = opt->gpu;
  memset(&job, 0, sizeof job);
  arena_init(&job.arena);
  job.disp_idx = 2;  /* inside compile_protected: (job, dispatcher) */
  job.name = name;
  job.opt = opt;
  job.argtypes = argtypes;
  job.nargs = nargs;
  job.declared_ret = declared_ret;
  job.gpu = gpu;
  job.sim = gpu && cudrv_simulating(L);
  job.t[T_START] = compile_now_ms();
  int top = lua_gettop(L);
  disp_idx = lua_absindex(L, disp_idx);
  Dispatcher *d = lua_touserdata(L, disp_idx);
  DispBusy busy = {argtypes, nargs, d->busy};
  d->busy = &busy;
  lua_pushcfunction(L, job.sim ? compile_sim_protected : gpu ? compile_kernel_protected : compile_protected);
  lua_pushlightuserdata(L, &job);
  lua_pushvalue(L, disp_idx);
  int status = lua_pcall(L, 2, 0, 0);
  /* cleanup runs whatever happened */
  d->busy = busy.next;
  if (job.b) LLVMDisposeBuilder(job.b);
  if (job.mod) LLVMDisposeModule(job.mod);
  if (job.gpu_ctx) LLVMContextDispose(job.gpu_ctx);
  free(job.obj);
  for (int i = 0; i < job.C.nrefs; i++) luaL_unref(L, LUA_REGISTRYINDEX, job.C.refs[i]);
  arena_free(&job.arena);
  /* no module of the compilation is left outside the JIT: its context may go with its code */
  if (job.out && job.out->code) jit_code_drop_context(job.out->code);
  if (status != LUA_OK) {
    dispatch_free_spec(job.out);
    lua_error(L);
  }
  lua_settop(L, top);
  if (lmstate_get(L)->verbose) report(&job, job.out);
  return job.out;
}


/* inspect_asm: the kept IR text parsed again (in a context of its own, gone
** afterwards) and compiled to assembly */
char *jit_asm_of_ir(lua_State *L, const char *ir);
char *jit_asm_of_ir(lua_State *L, const char *ir) {
  LmJit *J = lmstate_jit(L, lmstate_get(L));
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "ir");
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = NULL;
  char *err = NULL;
  if (LLVMParseIRInContext(ctx, buf, &m, &err)) {  /* takes buf */
    LLVMContextDispose(ctx);
    lua_pushfstring(L, "lumba: cannot re-read the IR: %s", err ? err : "?");
    LLVMDisposeMessage(err);
    lua_error(L);
  }
  char *text = jit_emit_asm(J, m, &err);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  if (text == NULL) fail_llvm(L, "cannot emit assembly", err);
  return text;
}
