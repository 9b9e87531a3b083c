/*
** target_sim.c — the CUDA simulator's target: kernels typed as for the GPU,
** compiled for the CPU. Math and arrays as on the CPU target (no reference
** counts: kernels allocate nothing); threadIdx and friends are loads from
** the running thread's context (simrun_ctx(), simrun.h), cuda.shared.array
** is the block's memory from simrun_shared(), syncthreads/syncwarp call
** the fiber scheduler, atomics and cuda.local.array are the GPU target's
** (LLVM atomics work on the CPU too). Also the kernel entry the simulator
** calls: i32 entry(LmErr *err, void **params) over the CUDA parameter array.
*/
#include <string.h>

#include "lower.h"
#include "simrun.h"
#include "target_sim.h"

#define LOCAL_BYTES "simrun.local_bytes"  /* module global: cuda.local.array bytes, for fiber stacks */

static LLVMTypeRef i64p(LLVMContextRef ctx) {
  return LLVMPointerType(LLVMInt64TypeInContext(ctx), 0);
}

/* SimCtx *simrun_ctx(void), readnone: one simulated thread sees one context
** for its whole run, so LLVM may call it once per function */
static LLVMValueRef ctx_ptr(LLVMModuleRef M, LLVMBuilderRef b) {
  LLVMContextRef ctx = LLVMGetModuleContext(M);
  LLVMValueRef f = LLVMGetNamedFunction(M, "simrun_ctx");
  if (f == NULL) {
    f = LLVMAddFunction(M, "simrun_ctx", LLVMFunctionType(i64p(ctx), NULL, 0, 0));
    static const char *const attrs[] = {"readnone", "nounwind", "willreturn"};
    for (size_t i = 0; i < lm_countof(attrs); i++) {
      unsigned kind = LLVMGetEnumAttributeKindForName(attrs[i], strlen(attrs[i]));
      LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, kind, 0));
    }
  }
  return LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, NULL, 0, "simctx");
}

static LLVMValueRef reg_ptr(LLVMContextRef ctx, LLVMBuilderRef b, LLVMValueRef c, int index) {
  LLVMValueRef i = LLVMConstInt(LLVMInt64TypeInContext(ctx), (unsigned long long)index, 0);
  return LLVMBuildInBoundsGEP2(b, LLVMInt64TypeInContext(ctx), c, &i, 1, "");
}

static LLVMValueRef reg(Lower *L, int index) {
  LLVMValueRef c = ctx_ptr(L->C->mod, L->b);
  return LLVMBuildLoad2(L->b, LLVMInt64TypeInContext(L->ctx), reg_ptr(L->ctx, L->b, c, index), "");
}

/* threadIdx.x → reg[TID + 0], ..., gridDim.z → reg[NCTAID + 2] */
static LLVMValueRef sim_sreg(Lower *L, SReg sreg, int axis) {
  if (sreg == SREG_WARPSIZE) return lower_i64(L, 32);
  if (sreg == SREG_LANEID) {
    LLVMValueRef lin = LLVMBuildAdd(L->b, reg(L, SIMCTX_TID + 1),
                                    LLVMBuildMul(L->b, reg(L, SIMCTX_NTID + 1), reg(L, SIMCTX_TID + 2), ""), "");
    lin = LLVMBuildAdd(L->b, reg(L, SIMCTX_TID), LLVMBuildMul(L->b, reg(L, SIMCTX_NTID), lin, ""), "");
    return LLVMBuildAnd(L->b, lin, lower_i64(L, 31), "lane");
  }
  int base = sreg == SREG_TID ? SIMCTX_TID : sreg == SREG_CTAID ? SIMCTX_CTAID : sreg == SREG_NTID ? SIMCTX_NTID
           : SIMCTX_NCTAID;
  return reg(L, base + axis);
}

static void call_rt(Lower *L, const char *name, LLVMValueRef *args, int n) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
  LLVMValueRef f = lower_rt_fn(L, name, LLVMVoidTypeInContext(L->ctx), &i32, n);
  LLVMBuildCall2(L->b, LLVMGlobalGetValueType(f), f, args, (unsigned)n, "");
}

/* cuda.shared.array: the block's memory for this allocation site, whose id
** is the address of a private global of the module */
static Val shared_array(Lower *L, Node *n, CallInfo *ci) {
  LLVMContextRef ctx = L->ctx;
  LLVMTypeRef i8 = LLVMInt8TypeInContext(ctx), i8p = LLVMPointerType(i8, 0);
  int64_t count = 1;
  for (int k = 0; k < ci->ndims; k++) count *= ci->dims[k];
  /* cuda.shared.array(0, dtype): one site for every dynamic array of the
  ** kernel, the launch's bytes long (SIMCTX_DYNSMEM) */
  bool dyn = ci->dims[0] == 0;
  LLVMValueRef id = dyn ? LLVMGetNamedGlobal(L->C->mod, "shared.dynamic") : NULL;
  if (id == NULL) {
    id = LLVMAddGlobal(L->C->mod, i8, dyn ? "shared.dynamic" : "shared.site");
    LLVMSetInitializer(id, LLVMConstInt(i8, 0, 0));
    LLVMSetLinkage(id, LLVMInternalLinkage);
  }
  LLVMTypeRef ps[2] = {i8p, LLVMInt64TypeInContext(ctx)};
  LLVMValueRef f = lower_rt_fn(L, "simrun_shared", i8p, ps, 2);
  LLVMValueRef dynbytes = dyn ? reg(L, SIMCTX_DYNSMEM) : NULL;
  LLVMValueRef args[2] = {id, dyn ? dynbytes : lower_i64(L, count * dtype_sizes[ci->dt])};
  LLVMValueRef p = LLVMBuildCall2(L->b, LLVMGlobalGetValueType(f), f, args, 2, "shared");
  lower_raise_if(L, LLVMBuildIsNull(L->b, p, ""), LMERR_MEMORY, "not enough memory for cuda.shared.array");
  LLVMValueRef data = LLVMBuildBitCast(L->b, p, LLVMPointerType(lower_mem_type(L, ci->dt), 0), "");
  LLVMValueRef shape[LM_MAXDIM], strides[LM_MAXDIM];
  int64_t s = dtype_sizes[ci->dt];
  for (int k = ci->ndims - 1; k >= 0; k--) {
    shape[k] = dyn ? LLVMBuildUDiv(L->b, dynbytes, lower_i64(L, s), "") : lower_i64(L, ci->dims[k]);
    strides[k] = lower_i64(L, s);
    s *= ci->dims[k];
  }
  return (Val){lower_ann(L, n)->ty, lower_arr_make(L, lower_ann(L, n)->ty, LLVMConstNull(i8p), data, shape, strides), false};
}

/* adds a cuda.local.array's bytes to the module's count */
static void count_local(Lower *L, CallInfo *ci) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  LLVMValueRef g = LLVMGetNamedGlobal(L->C->mod, LOCAL_BYTES);
  if (g == NULL) {
    g = LLVMAddGlobal(L->C->mod, i64, LOCAL_BYTES);
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMSetInitializer(g, LLVMConstInt(i64, 0, 0));
  }
  int64_t bytes = dtype_sizes[ci->dt];
  for (int k = 0; k < ci->ndims; k++) bytes *= ci->dims[k];
  long long was = LLVMConstIntGetSExtValue(LLVMGetInitializer(g));
  LLVMSetInitializer(g, LLVMConstInt(i64, (unsigned long long)(was + bytes), 0));
}

static LLVMValueRef sim_i32(Lower *L, Node *n, int k) {
  return lower_cast(L, lower_expr(L, n->args.items[k]), ty_scalar(DT_INT32)).v;
}

/* the warp intrinsics through the fiber scheduler (simrun.c) */
static Val sim_warp(Lower *L, Node *n, CallInfo *ci) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx), i64 = LLVMInt64TypeInContext(L->ctx);
  Type *u32 = ty_scalar(DT_UINT32);
  LLVMValueRef f;
  switch (ci->bi) {
    case BI_cuda_activemask:
      f = lower_rt_fn(L, "simrun_activemask", i32, NULL, 0);
      return (Val){u32, LLVMBuildCall2(L->b, LLVMGlobalGetValueType(f), f, NULL, 0, ""), false};
    case BI_cuda_lanemask_lt: {
      LLVMValueRef lane = LLVMBuildTrunc(L->b, sim_sreg(L, SREG_LANEID, 0), i32, "");
      LLVMValueRef one = LLVMConstInt(i32, 1, 0);
      return (Val){u32, LLVMBuildSub(L->b, LLVMBuildShl(L->b, one, lane, ""), one, ""), false};
    }
    case BI_cuda_ballot_sync:
    case BI_cuda_all_sync:
    case BI_cuda_any_sync:
    case BI_cuda_eq_sync: {
      LLVMTypeRef ps[3] = {i32, i32, i32};
      f = lower_rt_fn(L, "simrun_vote", i32, ps, 3);
      int kind = ci->bi == BI_cuda_ballot_sync ? 0 : ci->bi == BI_cuda_all_sync ? 1 : ci->bi == BI_cuda_any_sync ? 2 : 3;
      LLVMValueRef args[3] = {sim_i32(L, n, 0), LLVMBuildZExt(L->b, lower_cond(L, n->args.items[1]), i32, ""),
                              LLVMConstInt(i32, (unsigned)kind, 0)};
      LLVMValueRef r = LLVMBuildCall2(L->b, LLVMGlobalGetValueType(f), f, args, 3, "");
      if (kind == 0) return (Val){u32, r, false};
      return (Val){ty_bool, LLVMBuildZExt(L->b, LLVMBuildICmp(L->b, LLVMIntNE, r, LLVMConstInt(i32, 0, 0), ""),
                                          LLVMInt8TypeInContext(L->ctx), ""), false};
    }
    default: {
      Type *t = lower_ann(L, n)->ty;
      LLVMValueRef mask = sim_i32(L, n, 0), lane = sim_i32(L, n, 2);
      LLVMValueRef v = lower_cast(L, lower_expr(L, n->args.items[1]), t).v;
      LLVMTypeRef vt = LLVMTypeOf(v);
      bool isint = LLVMGetTypeKind(vt) == LLVMIntegerTypeKind;
      LLVMValueRef bits = isint ? LLVMBuildSExt(L->b, v, i64, "")
                                : LLVMBuildZExt(L->b, LLVMBuildBitCast(L->b, v, dtype_sizes[t->dtype] == 8 ? i64 : i32, ""), i64, "");
      if (isint && LLVMGetIntTypeWidth(vt) == 64) bits = v;
      int kind = ci->bi == BI_cuda_shfl_sync ? 0 : ci->bi == BI_cuda_shfl_up_sync ? 1 : ci->bi == BI_cuda_shfl_down_sync ? 2 : 3;
      LLVMTypeRef ps[4] = {i32, i64, i32, i32};
      f = lower_rt_fn(L, "simrun_shfl", i64, ps, 4);
      LLVMValueRef args[4] = {mask, bits, lane, LLVMConstInt(i32, (unsigned)kind, 0)};
      LLVMValueRef r = LLVMBuildCall2(L->b, LLVMGlobalGetValueType(f), f, args, 4, "");
      if (isint) r = LLVMGetIntTypeWidth(vt) == 64 ? r : LLVMBuildTrunc(L->b, r, vt, "");
      else r = LLVMBuildBitCast(L->b, dtype_sizes[t->dtype] == 8 ? r : LLVMBuildTrunc(L->b, r, i32, ""), vt, "");
      return (Val){t, r, false};
    }
  }
}

static Val sim_call(Lower *L, Node *n, CallInfo *ci) {
  Val none = {&ty_none, LLVMConstInt(LLVMInt8TypeInContext(L->ctx), 0, 0), false};
  LLVMValueRef mask;
  switch (ci->bi) {
    case BI_cuda_grid:
    case BI_cuda_gridsize: {
      LLVMValueRef v[3];
      for (int k = 0; k < ci->ndims; k++) {
        LLVMValueRef ntid = reg(L, SIMCTX_NTID + k);
        v[k] = ci->bi == BI_cuda_gridsize ? LLVMBuildMul(L->b, ntid, reg(L, SIMCTX_NCTAID + k), "")
                                          : LLVMBuildAdd(L->b, LLVMBuildMul(L->b, reg(L, SIMCTX_CTAID + k), ntid, ""),
                                                         reg(L, SIMCTX_TID + k), "");
      }
      if (ci->ndims == 1) return (Val){ty_int64, v[0], false};
      LLVMValueRef t = LLVMGetUndef(lower_type(L, lower_ann(L, n)->ty));
      for (int k = 0; k < ci->ndims; k++) t = LLVMBuildInsertValue(L->b, t, v[k], (unsigned)k, "");
      return (Val){lower_ann(L, n)->ty, t, false};
    }
    case BI_cuda_syncthreads:
      call_rt(L, "simrun_barrier", NULL, 0);
      return none;
    case BI_cuda_cg_this_grid: return (Val){&ty_grid_group, LLVMConstInt(LLVMInt8TypeInContext(L->ctx), 0, 0), false};
    case BI_cuda_cg_grid_sync:
      call_rt(L, "simrun_grid_sync", NULL, 0);
      return none;
    case BI_cuda_syncwarp:
      mask = n->args.len ? lower_cast(L, lower_expr(L, n->args.items[0]), ty_scalar(DT_INT32)).v
                         : LLVMConstInt(LLVMInt32TypeInContext(L->ctx), 0xffffffffu, 0);
      call_rt(L, "simrun_syncwarp", &mask, 1);
      return none;
    case BI_cuda_threadfence:
    case BI_cuda_threadfence_block:
    case BI_cuda_threadfence_system:
      LLVMBuildFence(L->b, LLVMAtomicOrderingSequentiallyConsistent, 0, "");
      return none;
    case BI_cuda_shared_array: return shared_array(L, n, ci);
    case BI_cuda_const_array_like: return lower_expr(L, n->args.items[0]);
    case BI_cuda_activemask: case BI_cuda_lanemask_lt: case BI_cuda_ballot_sync: case BI_cuda_all_sync:
    case BI_cuda_any_sync: case BI_cuda_eq_sync: case BI_cuda_shfl_sync: case BI_cuda_shfl_up_sync:
    case BI_cuda_shfl_down_sync: case BI_cuda_shfl_xor_sync:
      return sim_warp(L, n, ci);
    case BI_cuda_local_array: count_local(L, ci); /* fall through */
    default: return target_gpu.cuda_call(L, n, ci);  /* cuda.local.array and the atomics */
  }
}

/* math as on the CPU: LLVM intrinsics, else libm */
static LLVMValueRef sim_math(Lower *L, const char *base, const char *intrinsic, LLVMValueRef *args, int n, bool f32) {
  return target_cpu.math_call(L, base, intrinsic, args, n, f32);
}

const Target target_sim = {
    .name = "sim",
    .refcount = false,
    .gpu = false,
    .math_call = sim_math,
    .sreg = sim_sreg,
    .cuda_call = sim_call,
    .record_field = lower_record_field,
    .record_store = lower_record_store,
};

/* ---- kernel entries: i32 entry(LmErr *err, void **params) ---- */

/* The entry: prep once, then the body, which with loop runs for every
** threadIdx of the block (x fastest; each dimension is at least 1, so the
** loops test at the bottom), written into the context first; a failing
** status returns at once. */
LLVMValueRef tsim_build_entry(LLVMModuleRef M, LLVMBuilderRef b, const char *name, bool loop,
                              const TsimBody *body) {
  LLVMContextRef ctx = LLVMGetModuleContext(M);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
  LLVMTypeRef i8pp = LLVMPointerType(LLVMPointerType(LLVMInt8TypeInContext(ctx), 0), 0);
  LLVMTypeRef ps[2] = {LLVMPointerType(lower_err_type(ctx), 0), i8pp};
  LLVMValueRef fn = LLVMAddFunction(M, name, LLVMFunctionType(i32, ps, 2, 0));
  LLVMBasicBlockRef pre = LLVMAppendBasicBlockInContext(ctx, fn, "entry");
  LLVMPositionBuilderAtEnd(b, pre);
  body->prep(body->ud, b, LLVMGetParam(fn, 1));
  if (!loop) {
    LLVMBuildRet(b, body->call(body->ud, b, LLVMGetParam(fn, 0)));
    return fn;
  }
  LLVMValueRef c = ctx_ptr(M, b);
  LLVMValueRef zero = LLVMConstInt(i64, 0, 0), one = LLVMConstInt(i64, 1, 0);
  LLVMValueRef iv[3], bound[3];
  LLVMBasicBlockRef head[3];
  for (int a = 0; a < 3; a++) bound[a] = LLVMBuildLoad2(b, i64, reg_ptr(ctx, b, c, SIMCTX_NTID + a), "");
  for (int a = 2; a >= 0; a--) {  /* z outermost */
    head[a] = LLVMAppendBasicBlockInContext(ctx, fn, "tid");
    LLVMBuildBr(b, head[a]);
    LLVMPositionBuilderAtEnd(b, head[a]);
    iv[a] = LLVMBuildPhi(b, i64, "t");
    LLVMAddIncoming(iv[a], &zero, &pre, 1);
    LLVMBuildStore(b, iv[a], reg_ptr(ctx, b, c, SIMCTX_TID + a));
    pre = head[a];
  }
  LLVMValueRef st = body->call(body->ud, b, LLVMGetParam(fn, 0));
  LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(ctx, fn, "fail");
  LLVMBasicBlockRef latch = LLVMAppendBasicBlockInContext(ctx, fn, "next");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, st, LLVMConstInt(i32, 0, 0), ""), fail, latch);
  LLVMPositionBuilderAtEnd(b, fail);
  LLVMBuildRet(b, st);
  for (int a = 0; a < 3; a++) {
    LLVMPositionBuilderAtEnd(b, latch);
    LLVMValueRef next = LLVMBuildAdd(b, iv[a], one, "");
    LLVMAddIncoming(iv[a], &next, &latch, 1);
    LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(ctx, fn, a < 2 ? "next" : "done");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, next, bound[a], ""), head[a], after);
    latch = after;
  }
  LLVMPositionBuilderAtEnd(b, latch);
  LLVMBuildRet(b, LLVMConstInt(i32, 0, 0));
  return fn;
}

/* the compiled kernel's body: CUDA parameters → the inner function's arguments */
typedef struct SpecBody {
  Lower *L;
  FuncSpec *spec;
  LLVMValueRef args[4 + LM_MAXARGS * (2 * LM_MAXDIM + 2)];
  int nargs;
} SpecBody;

static LLVMValueRef param_as(LLVMBuilderRef b, LLVMValueRef params, int k, LLVMTypeRef t, LLVMContextRef ctx) {
  LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
  LLVMValueRef i = LLVMConstInt(LLVMInt64TypeInContext(ctx), (unsigned long long)k, 0);
  LLVMValueRef slot = LLVMBuildLoad2(b, i8p, LLVMBuildInBoundsGEP2(b, i8p, params, &i, 1, ""), "");
  return LLVMBuildLoad2(b, t, LLVMBuildBitCast(b, slot, LLVMPointerType(t, 0), ""), "");
}

static void spec_prep(void *ud, LLVMBuilderRef b, LLVMValueRef params) {
  SpecBody *sb = ud;
  Lower *L = sb->L;
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  int p = 0, n = 2;  /* err and ret come in call */
  for (int i = 0; i < sb->spec->nargs; i++) {
    Type *t = sb->spec->argtypes[i];
    if (t->kind == TY_ARRAY) {
      sb->args[n++] = LLVMConstNull(LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0));
      sb->args[n++] = param_as(b, params, p++, LLVMPointerType(lower_mem_type(L, t->dtype), 0), L->ctx);
      for (int k = 0; k < 2 * t->ndim; k++) sb->args[n++] = param_as(b, params, p++, i64, L->ctx);
    } else if (ty_is_complex(t)) {  /* its two parts, as the launcher packs them */
      LLVMTypeRef pt = lower_type(L, ty_complex_part(t));
      LLVMValueRef z = LLVMBuildInsertValue(b, LLVMGetUndef(lower_type(L, t)), param_as(b, params, p, pt, L->ctx), 0, "");
      sb->args[n++] = LLVMBuildInsertValue(b, z, param_as(b, params, p + 1, pt, L->ctx), 1, "");
      p += 2;
    } else if (t->kind == TY_RECORD) {  /* a device function's record: the element's address */
      sb->args[n++] = param_as(b, params, p++, lower_type(L, t), L->ctx);
    } else {
      LLVMValueRef v = param_as(b, params, p++, lower_mem_type(L, t->dtype), L->ctx);
      if (t->dtype == DT_BOOL) v = LLVMBuildICmp(b, LLVMIntNE, v, LLVMConstInt(LLVMTypeOf(v), 0, 0), "");
      sb->args[n++] = v;
    }
  }
  sb->args[1] = LLVMBuildAlloca(b, lower_type(L, sb->spec->ret), "ret");
  sb->nargs = n;
}

static LLVMValueRef spec_call(void *ud, LLVMBuilderRef b, LLVMValueRef err) {
  SpecBody *sb = ud;
  sb->args[0] = err;
  return LLVMBuildCall2(b, sb->spec->fnty, sb->spec->fn, sb->args, (unsigned)sb->nargs, "st");
}

const char *tsim_kernel_entry(Compile *C, FuncSpec *spec, SimKernel *k) {
  k->fibers = LLVMGetNamedFunction(C->mod, "simrun_barrier") || LLVMGetNamedFunction(C->mod, "simrun_syncwarp") ||
              LLVMGetNamedFunction(C->mod, "simrun_shfl") || LLVMGetNamedFunction(C->mod, "simrun_vote") ||
              LLVMGetNamedFunction(C->mod, "simrun_activemask") || LLVMGetNamedFunction(C->mod, "simrun_grid_sync");
  k->grid_sync = LLVMGetNamedFunction(C->mod, "simrun_grid_sync") != NULL;
  k->stack = 64 * 1024;
  LLVMValueRef lb = LLVMGetNamedGlobal(C->mod, LOCAL_BYTES);
  if (lb) {
    k->stack += (size_t)LLVMConstIntGetSExtValue(LLVMGetInitializer(lb));
    LLVMDeleteGlobal(lb);
  }
  unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
  for (FuncSpec *s = C->specs; s; s = s->next) {
    LLVMSetLinkage(s->fn, LLVMInternalLinkage);
    /* threads of a block share arrays across barriers: no argument is
    ** private to one call of a function that synchronises */
    if (k->fibers)
      for (unsigned i = 1; i <= LLVMCountParams(s->fn); i++) LLVMRemoveEnumAttributeAtIndex(s->fn, i, noalias);
  }
  Lower Lw = {0};
  Lw.C = C;
  Lw.ctx = C->ctx;
  Lw.b = C->b;
  SpecBody sb = {.L = &Lw, .spec = spec};
  char name[300];
  snprintf(name, sizeof name, "%s_sim", spec->symbol);
  tsim_build_entry(C->mod, C->b, name, !k->fibers, &(TsimBody){spec_prep, spec_call, &sb});
  return arena_strdup(C->A, name);
}
