/*
** pipeline.c — the pipeline for one specialization: one list of named
** steps (steps[] below: parse → resolve → infer → reuse → parfor → lower
** → optimise → link), run by one driver for every target. The targets (CPU
** code, CUDA kernels as NVVM IR, the CUDA simulator) differ only by their
** TargetHooks: the lowering's table, how the module starts, the entry the
** caller calls, and how the code is finished. The driver runs protected,
** as luaD_protectedparser runs the parser: whatever happens, the arena, the
** builder and any module the JIT did not take are freed before an error is
** re-raised (compile_spec).
*/
#include <string.h>

#include <lauxlib.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>

#include "builtin_hooks.h"
#include "cache.h"
#include "vecmath.h"
#include "compile.h"
#include "cudadrv.h"
#include "dispatch.h"
#include "fastmath.h"
#include "frontend.h"
#include "jit_cpu.h"
#include "lower.h"
#include "parfor.h"
#include "target_sim.h"

/* what libNVVM 2.0 accepts (../shared/gpu/README.md): i128:128:128 is required */
#define LUMBA_NVVM_TRIPLE "nvptx64-nvidia-cuda"
#define LUMBA_NVVM_DATALAYOUT                                                              \
  "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-" \
  "v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"

/* ---- one compilation ---- */

/* the stages a compilation reports with LUMBA_VERBOSE=1 */
enum { T_START, T_PARSE, T_INFER, T_LOWER, T_OPT, T_CODE, T__COUNT };

typedef struct Job Job;

/* What differs between targets; the steps are the same for all of them. */
typedef struct TargetHooks {
  const Target *target;            // the lowering's table (lower.h)
  bool kernel;                     // a CUDA kernel: it returns nothing (unless a device function)
  bool fastmath;                   // fast-math flags are set on the IR here (NVVM is given its own)
  bool link_callees;               // called dispatchers' optimised IR is linked in for inlining
  /* after inference: the code exists already (the cache), so the pipeline ends; NULL: never */
  bool (*reuse)(Job *job);
  void (*module)(Job *job);        // the LLVM context and module the lowering fills
  const char *(*entry)(Job *job);  // after lowering: the function the caller calls (its name)
  void (*optimise)(Job *job);
  void (*link)(Job *job);          // the code where the dispatcher or the launcher finds it
} TargetHooks;

struct Job {
  double t[T__COUNT];       // stage end times (ms)
  const TargetHooks *th;
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
  Node *def;                // resolve: the def compiled
  FuncSpec *spec;           // infer: its specialization
  LmJit *J;                 // CPU and simulator: the state's JIT ...
  JitCode *code;            // ... and the code record the module goes into
  const char *entry;        // lower: the entry's name
};

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


/* What the stages ask of the compilation's owner: the cache's notes and
** other dispatchers' code (compile.h). */
static const CompileHooks stage_hooks = {
    .note_value = cache_note_value,
    .note_absent = cache_note_absent,
    .note_dispatcher = cache_note_dispatcher,
    .callee = dispatch_callee,
};

/* the compilation's state, before any step */
static void setup(lua_State *L, Job *job) {
  Compile *C = &job->C;
  C->L = L;
  C->S = lmstate_get(L);
  C->A = &job->arena;
  C->opt = *job->opt;
  C->opt.gpu = job->gpu;
  /* kernels never raise ZeroDivisionError unless asked to (numba-cuda's default) */
  if (job->gpu && !C->opt.error_model_set) C->opt.error_model_numpy = true;
  C->target = job->th->target;
  C->builtins = builtin_table;
  C->hooks = &stage_hooks;
  if (job->sim) C->opt.boundscheck = true;  /* the simulator is a debugging tool */
  job->arena.oom = arena_oom;
  job->arena.oom_ud = L;
}

/* source (or the Lua-table AST) → C->module */
static bool step_parse(Job *job) {
  Compile *C = &job->C;
  lua_State *L = C->L;
  int d = job->disp_idx;
  lua_getiuservalue(L, d, DISP_UV_CHUNK);
  C->src.chunk = arena_strdup(C->A, lua_tostring(L, -1) ? lua_tostring(L, -1) : "<string>");
  lua_pop(L, 1);
  lua_getiuservalue(L, d, DISP_UV_SOURCE);
  C->module = frontend_load(L, C->A, -1, C->src.chunk);
  C->src = *C->module->loc.src;  /* an AST may carry its text (Module.source): messages then show lines */
  lua_pop(L, 1);
  return true;
}

/* the names the module sees (env, globals, imports) and the def compiled;
** env and globals stay on the stack, where resolve_name looks them up */
static bool step_resolve(Job *job) {
  Compile *C = &job->C;
  lua_State *L = C->L;
  int d = job->disp_idx;
  lua_getiuservalue(L, d, DISP_UV_ENV);
  C->env_idx = lua_istable(L, -1) ? lua_absindex(L, -1) : 0;
  lua_getiuservalue(L, d, DISP_UV_GLOBALS);
  C->globals_idx = lua_istable(L, -1) ? lua_absindex(L, -1) : 0;
  lua_getiuservalue(L, d, DISP_UV_SIBLINGS);
  C->siblings_idx = lua_istable(L, -1) ? lua_absindex(L, -1) : 0;
  C->disp_idx = d;
  compile_collect_module_names(C);
  job->def = compile_find_def(C, job->name);
  if (job->def == NULL) luaL_error(L, "lumba: no function '%s' in the source", job->name);
  C->root = job->def;
  return true;
}

static void check_kernel_ret(Job *job, FuncSpec *spec) {
  if (spec->ret->kind != TY_NONE && !job->opt->device)
    compile_error(&job->C, spec->def->loc, "TypingError", "a CUDA kernel cannot return a value (it returns %s)",
                  tyname(&job->C, spec->ret));
}

/* a Record is the address of an element of an array the function may
** free on return: Lua gets the array or the fields, not the record */
static bool has_record(const Type *t) {
  if (t->kind == TY_RECORD) return true;
  for (int i = 0; t->kind == TY_TUPLE && i < t->nelems; i++)
    if (has_record(t->elems[i])) return true;
  return false;
}

static bool has_float16(const Type *t) {
  if ((t->kind == TY_SCALAR || t->kind == TY_ARRAY) && t->dtype == DT_FLOAT16) return true;
  for (int i = 0; t->kind == TY_TUPLE && i < t->nelems; i++)
    if (has_float16(t->elems[i])) return true;
  return false;
}

/* Numba's CPU target has no float16 arithmetic: @njit refuses it by name
** (kernels, on the GPU and in the simulator, take it) */
static void refuse_float16(Job *job) {
  Node *def = job->def;
  for (int i = 0; i < job->nargs && i < def->args.len; i++)
    if (has_float16(job->argtypes[i]))
      compile_error(&job->C, def->args.items[i]->loc, "TypingError",
                    "argument '%s' of %s() is %s: float16 is not supported on the CPU target (as in Numba); "
                    "pass a:astype(\"float32\"), or use it in a CUDA kernel",
                    def->args.items[i]->name, def->name, tyname(&job->C, job->argtypes[i]));
}

/* the typed specialization, and the result it will fill */
static bool step_infer(Job *job) {
  Compile *C = &job->C;
  lua_State *L = C->L;
  Node *def = job->def;
  if (!job->gpu && !job->sim) refuse_float16(job);
  FuncSpec *spec = infer_spec(C, def, job->argtypes, job->nargs, def->loc);
  if (spec->ret && has_record(spec->ret))
    compile_error(C, def->loc, "UnsupportedError",
                  "%s() returns %s: a record cannot be returned to Lua (return its array, or its fields)", def->name,
                  tyname(C, spec->ret));
  if (job->declared_ret && job->declared_ret != spec->ret) {
    Type *d = job->declared_ret, *r = spec->ret;
    bool widens = d->kind == TY_ARRAY && r->kind == TY_ARRAY && d->dtype == r->dtype && d->ndim == r->ndim &&
                  d->layout == 'A';  /* float64[:] is any layout: a C result is returned as it is */
    if ((d->kind == TY_SCALAR && r->kind == TY_SCALAR) || widens) {
      infer_fix_ret(C, spec, job->declared_ret);
    } else
      compile_error(C, def->loc, "TypingError", "the signature returns %s but %s() returns %s",
                    tyname(C, job->declared_ret), def->name, tyname(C, spec->ret));
  }
  if (job->th->kernel) check_kernel_ret(job, spec);
  DispSpec *out = calloc(1, sizeof(DispSpec));
  if (out == NULL) luaL_error(L, "not enough memory");
  job->out = out;
  memcpy(out->argtypes, job->argtypes, sizeof(Type *) * (size_t)job->nargs);
  out->nargs = job->nargs;
  out->ret = spec->ret;
  out->ret_slots = ty_slots(spec->ret);
  out->int_float_stores = spec->int_float_stores;
  out->types = types_text(C, spec);
  job->spec = spec;
  return true;
}

/* the target's own check for code that exists already: false ends the pipeline */
static bool step_reuse(Job *job) {
  return !(job->th->reuse && job->th->reuse(job));
}

/* the parallel-loop analysis (parfor.h): what each prange loop does */
static bool step_parfor(Job *job) {
  parfor_run(&job->C);
  return true;
}

/* typed specializations → LLVM IR in a module of the target's */
static bool step_lower(Job *job) {
  Compile *C = &job->C;
  job->th->module(job);
  job->b = LLVMCreateBuilderInContext(C->ctx);
  C->b = job->b;
  lower_module(C);
  job->entry = job->th->entry(job);
  if (job->th->fastmath && C->opt.fastmath) {
    LLVMModuleRef fm = fastmath_apply(C->L, C->ctx, job->mod, C->opt.fastmath);
    LLVMDisposeModule(job->mod);
    job->mod = C->mod = fm;
  }
  return true;
}

/* The optimised code of the other dispatchers this one calls, there to be
** inlined only: every function it defines is in the JIT already
** (available_externally), so the optimiser may inline it, then drops it,
** and the callee's own callees stay declarations: each function is
** lowered once however long a chain of calls is. */
static void link_callee_ir(Job *job) {
  Compile *C = &job->C;
  for (struct CalleeIR *c = C->callee_ir; c; c = c->next)
    if (lower_link_inline_ir(C->ctx, C->mod, c->ir, "callee") > 0)
      luaL_error(C->L, "lumba: internal error: cannot link a callee's code");
}

/* Links ir into mod with every function and global it defines made
** available_externally (for the inliner only; cfunc_jit.c uses it too).
** -1: ir does not parse (the calls stay calls), 1: the link failed, 0: done. */
int lower_link_inline_ir(LLVMContextRef ctx, LLVMModuleRef mod, const char *ir, const char *name) {
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), name);
  LLVMModuleRef m = NULL;
  char *err = NULL;
  if (LLVMParseIRInContext(ctx, buf, &m, &err)) {  /* takes buf */
    LLVMDisposeMessage(err);
    return -1;
  }
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    LLVMLinkage l = LLVMGetLinkage(f);
    if (!LLVMIsDeclaration(f) && l != LLVMInternalLinkage && l != LLVMPrivateLinkage)
      LLVMSetLinkage(f, LLVMAvailableExternallyLinkage);
  }
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
    LLVMLinkage l = LLVMGetLinkage(g);
    if (!LLVMIsDeclaration(g) && l != LLVMInternalLinkage && l != LLVMPrivateLinkage)
      LLVMSetLinkage(g, LLVMAvailableExternallyLinkage);
  }
  return LLVMLinkModules2(mod, m) ? 1 : 0;  /* takes m */
}

static bool step_optimise(Job *job) {
  if (job->th->link_callees) link_callee_ir(job);
  job->th->optimise(job);
  return true;
}

static bool step_link(Job *job) {
  job->th->link(job);
  return true;
}

/* The pipeline. A step with a stage (T_*) ends it in the LUMBA_VERBOSE=1
** report; a step without one is counted in the next stage's time. */
static const struct Step {
  const char *name;
  bool (*run)(Job *job);  // false: the pipeline ends here (the code came from the cache)
  int stage;              // T_* it ends, or -1
} steps[] = {
    {"parse", step_parse, T_PARSE},
    {"resolve", step_resolve, -1},
    {"infer", step_infer, T_INFER},
    {"reuse", step_reuse, -1},
    {"parfor", step_parfor, -1},
    {"lower", step_lower, T_LOWER},
    {"optimise", step_optimise, T_OPT},
    {"link", step_link, T_CODE},
};

/* a new code record for out's code (the spec owns its one reference) */
static JitCode *new_code(lua_State *L, LmJit *J, DispSpec *out) {
  char *err = NULL;
  JitCode *code = jit_code_new(J, &err);
  if (code == NULL) fail_llvm(L, "cannot add the module to the JIT", err);
  out->code = code;
  out->code_free = jit_code_release_v;
  return code;
}

/* ---- the targets ---- */

/* the names and text the dispatcher keeps of the optimised module */
static void keep_ir(Job *job) {
  job->out->symbol = strdup(job->spec->symbol);
  char *ir = LLVMPrintModuleToString(job->C.mod);
  job->out->llvm_ir = strdup(ir);
  LLVMDisposeMessage(ir);
}

/* CPU and simulator: the module goes into its own code record of the
** state's JIT (removed when the last user goes: dispatch_free_spec), built
** in that record's context */
static void jit_module(Job *job) {
  Compile *C = &job->C;
  job->J = lmstate_jit(C->L, C->S);
  job->code = new_code(C->L, job->J, job->out);
  C->ctx = jit_code_context(job->code);
  job->mod = LLVMModuleCreateWithNameInContext(job->name, C->ctx);
  C->mod = job->mod;
  jit_prepare_module(job->J, C->mod);
}

static void jit_opt(Job *job) {
  char *err = NULL;
  if (job->C.opt.fastmath & FM_AFN) vecmath_annotate(job->C.mod, jit_cpu_features(job->J));
  if (jit_optimize(job->J, job->C.mod, 3, &err) != 0) fail_llvm(job->C.L, "internal error: invalid IR", err);
}

static void jit_take_module(Job *job) {
  char *err = NULL;
  LLVMModuleRef m = job->mod;
  job->mod = NULL;  /* the JIT owns it now, also on failure */
  if (jit_code_add_module(job->code, m, &err) != 0) fail_llvm(job->C.L, "cannot add the module to the JIT", err);
}

static void *jit_entry(Job *job) {
  char *err = NULL;
  void *f = jit_lookup(job->J, job->entry, &err);
  if (f == NULL) fail_llvm(job->C.L, "cannot find the compiled function", err);
  return f;
}

/* CPU: the content key names the code; found in this state's JIT or the
** cache directory, it needs no lowering and no optimising */
static bool cpu_reuse(Job *job) {
  Compile *C = &job->C;
  DispSpec *out = job->out;
  job->J = lmstate_jit(C->L, C->S);
  cache_key(C, job->J, job->disp_idx, job->spec, job->declared_ret, out->key);
  if (cache_fetch(C, job->J, job->name, out)) {
    job->from_cache = true;
    cache_index(C, job->name, out);  /* the next process may skip inference too */
    return true;
  }
  C->symtag = out->key;
  return false;
}

static const char *cpu_entry(Job *job) {
  return lower_wrapper(&job->C, job->spec);
}

static void cpu_link(Job *job) {
  Compile *C = &job->C;
  lua_State *L = C->L;
  DispSpec *out = job->out;
  char *err = NULL;
  if (C->pardiag) out->pardiag = strdup(C->pardiag);
  keep_ir(job);
  if (cache_code_deps(C, job->code, &err) != 0) fail_llvm(L, "cannot add the module to the JIT", err);
  if (C->opt.cache) {  /* code generation runs once: the object is both loaded and stored */
    job->obj = jit_emit_object(job->J, C->mod, &job->objlen, &err);
    if (job->obj == NULL) fail_llvm(L, "cannot generate object code", err);
    if (jit_code_add_object(job->code, job->obj, job->objlen, &err) != 0)
      fail_llvm(L, "cannot add the object code to the JIT", err);
  } else {
    jit_take_module(job);
  }
  out->wrap = (int32_t(*)(LmErr *, int64_t *, int64_t *))jit_entry(job);
  cache_done(C, job->name, out, job->obj, job->objlen);
}

static const TargetHooks cpu_hooks = {
    .target = &target_cpu,
    .fastmath = true,
    .reuse = cpu_reuse,
    .module = jit_module,
    .entry = cpu_entry,
    .optimise = jit_opt,
    .link = cpu_link,
    .link_callees = true,
};

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
** (a complex scalar as its two parts) calls the inner function with no
** meminfo; a failing status ends the thread, and with debug=True writes the
** exception record first. */
static const char *gpu_kernel_entry(Job *job) {
  Compile *C = &job->C;
  FuncSpec *spec = job->spec;
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
    } else if (ty_is_complex(t)) {  /* two parameters, its parts: what the launcher packs */
      ps[np++] = lower_type(&Lw, ty_complex_part(t));
      ps[np++] = lower_type(&Lw, ty_complex_part(t));
    } else {
      ps[np++] = lower_type(&Lw, t);
    }
  }
  /* debug=True: the exception record's address last (rt.h's LmKernelExc) */
  if (C->opt.debug) ps[np++] = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
  char name[300];
  snprintf(name, sizeof name, "%s_kernel", spec->symbol);
  LLVMValueRef fn = LLVMAddFunction(C->mod, name, LLVMFunctionType(LLVMVoidTypeInContext(ctx), ps, (unsigned)np, 0));
  LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(ctx, fn, "entry");
  LLVMPositionBuilderAtEnd(C->b, bb);
  LLVMValueRef args[4 + LM_MAXARGS * (2 * LM_MAXDIM + 2)];
  int na = 0;
  args[na++] = LLVMBuildAlloca(C->b, lower_err_type(ctx), "err");
  if (C->opt.debug) LLVMBuildStore(C->b, LLVMConstNull(lower_err_type(ctx)), args[0]);  /* texts not set read as NULL */
  args[na++] = LLVMBuildAlloca(C->b, lower_type(&Lw, spec->ret), "ret");
  int p = 0;
  for (int i = 0; i < spec->nargs; i++) {
    Type *t = spec->argtypes[i];
    if (t->kind == TY_ARRAY) {
      args[na++] = LLVMConstNull(LLVMPointerType(LLVMInt8TypeInContext(ctx), 0));
      for (int k = 0; k < 1 + 2 * t->ndim; k++) args[na++] = LLVMGetParam(fn, (unsigned)p++);
    } else if (ty_is_complex(t)) {
      LLVMValueRef z = LLVMBuildInsertValue(C->b, LLVMGetUndef(lower_type(&Lw, t)), LLVMGetParam(fn, (unsigned)p), 0, "");
      args[na++] = LLVMBuildInsertValue(C->b, z, LLVMGetParam(fn, (unsigned)p + 1), 1, "");
      p += 2;
    } else {
      args[na++] = LLVMGetParam(fn, (unsigned)p++);
    }
  }
  LLVMValueRef st = LLVMBuildCall2(C->b, spec->fnty, spec->fn, args, (unsigned)na, "");
  Lw.b = C->b;
  if (C->opt.debug) tgpu_report_exception(&Lw, fn, st, args[0], LLVMGetParam(fn, (unsigned)p));
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

/* GPU: a module of NVVM's dialect in a context of its own */
static void gpu_module(Job *job) {
  Compile *C = &job->C;
  job->gpu_ctx = LLVMContextCreate();
  C->ctx = job->gpu_ctx;
  job->mod = LLVMModuleCreateWithNameInContext(job->name, C->ctx);
  C->mod = job->mod;
  LLVMSetTarget(C->mod, LUMBA_NVVM_TRIPLE);
  LLVMSetDataLayout(C->mod, LUMBA_NVVM_DATALAYOUT);
}

/* libNVVM optimises (at the first launch): here the IR is only verified */
static void gpu_verify(Job *job) {
  lua_State *L = job->C.L;
  char *verr = NULL;
  if (LLVMVerifyModule(job->C.mod, LLVMReturnStatusAction, &verr)) {
    lua_pushfstring(L, "lumba: internal error: invalid kernel IR: %s", verr ? verr : "?");
    LLVMDisposeMessage(verr);
    lua_error(L);
  }
  LLVMDisposeMessage(verr);
}

/* the kernel's IR text waits for the launcher, which compiles it to PTX */
static void gpu_link(Job *job) {
  keep_ir(job);
  job->out->kernel_ir = strdup(job->out->llvm_ir);
  job->out->kernel_name = strdup(job->entry);
  job->out->cooperative = LLVMGetNamedGlobal(job->C.mod, GPU_GRIDBAR) != NULL;
}

static const TargetHooks gpu_hooks = {
    .target = &target_gpu,
    .kernel = true,
    .module = gpu_module,
    .entry = gpu_kernel_entry,
    .optimise = gpu_verify,
    .link = gpu_link,
};

/* The simulator's kernel: compiled for the CPU into the state's JIT, its
** entry (target_sim.h) in a SimKernel kept as the spec's launcher state. */
static const char *sim_entry(Job *job) {
  SimKernel *k = calloc(1, sizeof *k);
  if (k == NULL) luaL_error(job->C.L, "not enough memory");
  job->out->gpu = k;
  job->out->gpu_free = free;
  return tsim_kernel_entry(&job->C, job->spec, k);
}

static void sim_link(Job *job) {
  keep_ir(job);
  jit_take_module(job);
  ((SimKernel *)job->out->gpu)->entry = (SimEntry)jit_entry(job);
  job->out->cooperative = ((SimKernel *)job->out->gpu)->grid_sync;
}

static const TargetHooks sim_hooks = {
    .target = &target_sim,
    .kernel = true,
    .fastmath = true,
    .module = jit_module,
    .entry = sim_entry,
    .optimise = jit_opt,
    .link = sim_link,
};

/* ---- the driver ---- */

/* Runs the steps in order inside lua_pcall (compile_spec): a step that
** raises leaves the cleanup to compile_spec. A step that ends the pipeline
** ends every stage not run yet. */
static int compile_protected(lua_State *L) {
  Job *job = lua_touserdata(L, 1);
  setup(L, job);
  for (size_t i = 0; i < lm_countof(steps); i++) {
    bool go_on = steps[i].run(job);
    if (steps[i].stage >= 0) job->t[steps[i].stage] = compile_now_ms();
    if (!go_on) {
      double now = compile_now_ms();
      for (int k = T_PARSE; k < T__COUNT; k++)
        if (job->t[k] == 0) job->t[k] = now;
      break;
    }
  }
  return 0;
}

/* Protected compilation, as luaD_protectedparser: the steps run inside
** lua_pcall, and whatever their status the cleanup below runs first (the
** builder, a module the JIT did not take, the GPU context, the object
** code, the registry references, the arena); only then is an error raised
** again. The dispatcher records the signature as busy meanwhile, so a call
** back into it from another dispatcher is an error, not a loop. */
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
  job.th = job.sim ? &sim_hooks : gpu ? &gpu_hooks : &cpu_hooks;
  job.t[T_START] = compile_now_ms();
  int top = lua_gettop(L);
  disp_idx = lua_absindex(L, disp_idx);
  Dispatcher *d = lua_touserdata(L, disp_idx);
  DispBusy busy = {argtypes, nargs, d->busy};
  d->busy = &busy;
  lua_pushcfunction(L, compile_protected);
  lua_pushlightuserdata(L, &job);
  lua_pushvalue(L, disp_idx);
  LmState *S = lmstate_get(L);
  S->compiling++;
  int status = lua_pcall(L, 2, 0, 0);
  S->compiling--;
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
