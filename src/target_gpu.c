/*
** target_gpu.c — the CUDA target: thread indices from NVVM special
** registers, math from libdevice (__nv_*), shared memory in address space
** 3, atomics, barriers. Arrays are never allocated or counted here.
*/
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "lower.h"

static LLVMValueRef gpu_math(Lower *L, const char *base, const char *intrinsic, LLVMValueRef *args, int n, bool f32) {
  (void)intrinsic;
  LLVMTypeRef t = f32 ? LLVMFloatTypeInContext(L->ctx) : LLVMDoubleTypeInContext(L->ctx);
  char name[64];
  snprintf(name, sizeof name, "__nv_%s%s", base, f32 ? "f" : "");
  LLVMTypeRef ps[2] = {t, t};
  LLVMValueRef f = lower_rt_fn(L, name, t, ps, n);
  return LLVMBuildCall2(L->b, LLVMGlobalGetValueType(f), f, args, (unsigned)n, "");
}

/* NVVM's intrinsic of each register (threadIdx is tid, blockIdx ctaid, blockDim ntid, gridDim nctaid) */
static const char *const sreg_intrinsics[] = {
    [SREG_TID] = "llvm.nvvm.read.ptx.sreg.tid", [SREG_CTAID] = "llvm.nvvm.read.ptx.sreg.ctaid",
    [SREG_NTID] = "llvm.nvvm.read.ptx.sreg.ntid", [SREG_NCTAID] = "llvm.nvvm.read.ptx.sreg.nctaid",
    [SREG_WARPSIZE] = "llvm.nvvm.read.ptx.sreg.warpsize", [SREG_LANEID] = "llvm.nvvm.read.ptx.sreg.laneid",
};

/* axis 'x'..'z', or 0 for the registers that have none */
static LLVMValueRef sreg32(Lower *L, SReg reg, char axis) {
  char name[64];
  if (axis) snprintf(name, sizeof name, "%s.%c", sreg_intrinsics[reg], axis);
  else snprintf(name, sizeof name, "%s", sreg_intrinsics[reg]);
  LLVMValueRef v = lower_intrinsic(L, name, NULL, 0, NULL, 0);
  return LLVMBuildZExt(L->b, v, LLVMInt64TypeInContext(L->ctx), "");
}

static LLVMValueRef gpu_sreg(Lower *L, SReg reg, int axis) {
  return sreg32(L, reg, reg == SREG_WARPSIZE || reg == SREG_LANEID ? 0 : (char)('x' + axis));
}

static void barrier(Lower *L, const char *name, LLVMValueRef *args, int n) {
  lower_intrinsic(L, name, NULL, 0, args, n);
}

/* address of ary[idx] (idx an integer or a tuple of them), strides in bytes; checked
** against the shape when boundscheck is on (always in the simulator) */
static LLVMValueRef atomic_ptr(Lower *L, Val a, Val idx) {
  LLVMValueRef off = lower_i64(L, 0);
  int n = idx.ty->kind == TY_TUPLE ? idx.ty->nelems : 1;
  for (int k = 0; k < n; k++) {
    Val i = idx.ty->kind == TY_TUPLE ? (Val){idx.ty->elems[k], LLVMBuildExtractValue(L->b, idx.v, (unsigned)k, ""), false} : idx;
    LLVMValueRef iv = lower_cast(L, i, ty_int64).v;
    if (L->C->opt.boundscheck) {  /* as a checked subscript, without wrapping negative indices */
      LLVMValueRef dim = lower_arr_shape(L, a.v, k);
      lower_index_error_if(L, LLVMBuildICmp(L->b, LLVMIntUGE, iv, dim, ""), iv, k, dim);
    }
    off = LLVMBuildAdd(L->b, off, LLVMBuildMul(L->b, iv, lower_arr_stride(L, a.v, k), ""), "");
  }
  LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
  LLVMValueRef p8 = LLVMBuildBitCast(L->b, lower_arr_data(L, a.v), LLVMPointerType(i8, 0), "");
  p8 = LLVMBuildInBoundsGEP2(L->b, i8, p8, &off, 1, "");
  return LLVMBuildBitCast(L->b, p8, LLVMPointerType(lower_mem_type(L, a.ty->dtype), 0), "");
}

/* the new value of a compare-and-swap atomic from the current one */
static LLVMValueRef cas_new_value(Lower *L, BuiltinId op, LLVMValueRef cur, LLVMValueRef v, DType dt) {
  LLVMBuilderRef b = L->b;
  if (dtype_kinds[dt] != 'f') {  /* inc, dec (unsigned), nanmin, nanmax of integers */
    bool sg = dtype_kinds[dt] == 'i';
    LLVMValueRef one = LLVMConstInt(LLVMTypeOf(cur), 1, 0), zero = LLVMConstInt(LLVMTypeOf(cur), 0, 0);
    switch (op) {
      case BI_cuda_atomic_inc:  /* old >= val ? 0 : old + 1, as CUDA's atomicInc */
        return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGE, cur, v, ""), zero, LLVMBuildAdd(b, cur, one, ""), "");
      case BI_cuda_atomic_dec:  /* old == 0 or old > val ? val : old - 1, as atomicDec */
        return LLVMBuildSelect(b, LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntEQ, cur, zero, ""),
                                               LLVMBuildICmp(b, LLVMIntUGT, cur, v, ""), ""),
                               v, LLVMBuildSub(b, cur, one, ""), "");
      case BI_cuda_atomic_nanmin:
        return LLVMBuildSelect(b, LLVMBuildICmp(b, sg ? LLVMIntSLT : LLVMIntULT, v, cur, ""), v, cur, "");
      default:
        return LLVMBuildSelect(b, LLVMBuildICmp(b, sg ? LLVMIntSGT : LLVMIntUGT, v, cur, ""), v, cur, "");
    }
  }
  switch (op) {
    case BI_cuda_atomic_add: return LLVMBuildFAdd(b, cur, v, "");
    case BI_cuda_atomic_sub: return LLVMBuildFSub(b, cur, v, "");
    case BI_cuda_atomic_min: return LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, v, cur, ""), v, cur, "");
    case BI_cuda_atomic_max: return LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, v, cur, ""), v, cur, "");
    case BI_cuda_atomic_nanmin:
    case BI_cuda_atomic_nanmax: {
      /* NaNs ignored: a NaN current value gives way to v, a NaN v keeps the current one */
      LLVMValueRef better = LLVMBuildFCmp(b, op == BI_cuda_atomic_nanmin ? LLVMRealOLT : LLVMRealOGT, v, cur, "");
      LLVMValueRef take = LLVMBuildOr(b, better, LLVMBuildFCmp(b, LLVMRealUNO, cur, cur, ""), "");
      take = LLVMBuildAnd(b, take, LLVMBuildFCmp(b, LLVMRealORD, v, v, ""), "");
      return LLVMBuildSelect(b, take, v, cur, "");
    }
    default: return v;  /* exch */
  }
}

/* atomics as a compare-and-swap loop on the bits (works on every GPU):
** float min/max/exch, nanmin/nanmax, inc/dec */
static LLVMValueRef cas_atomic(Lower *L, BuiltinId op, LLVMValueRef p, LLVMValueRef v, DType dt) {
  LLVMTypeRef ft = lower_mem_type(L, dt);
  LLVMTypeRef it = dtype_sizes[dt] == 4 ? LLVMInt32TypeInContext(L->ctx) : LLVMInt64TypeInContext(L->ctx);
  LLVMValueRef ip = LLVMBuildBitCast(L->b, p, LLVMPointerType(it, 0), "");
  LLVMValueRef init = LLVMBuildLoad2(L->b, it, ip, "");
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(L->b);
  LLVMBasicBlockRef loop = lower_block(L, "cas"), done = lower_block(L, "casdone");
  LLVMBuildBr(L->b, loop);
  LLVMPositionBuilderAtEnd(L->b, loop);
  LLVMValueRef cur = LLVMBuildPhi(L->b, it, "cur");
  LLVMValueRef curf = LLVMBuildBitCast(L->b, cur, ft, "");
  LLVMValueRef nf = cas_new_value(L, op, curf, v, dt);
  LLVMValueRef pair = LLVMBuildAtomicCmpXchg(L->b, ip, cur, LLVMBuildBitCast(L->b, nf, it, ""),
                                             LLVMAtomicOrderingMonotonic, LLVMAtomicOrderingMonotonic, 0);
  LLVMValueRef seen = LLVMBuildExtractValue(L->b, pair, 0, "");
  LLVMValueRef ok = LLVMBuildExtractValue(L->b, pair, 1, "");
  LLVMBasicBlockRef here = LLVMGetInsertBlock(L->b);
  LLVMValueRef in[2] = {init, seen};
  LLVMBasicBlockRef from[2] = {pre, here};
  LLVMAddIncoming(cur, in, from, 2);
  LLVMBuildCondBr(L->b, ok, done, loop);
  LLVMPositionBuilderAtEnd(L->b, done);
  return LLVMBuildBitCast(L->b, seen, ft, "");
}

static Val atomic(Lower *L, Node *n, CallInfo *ci) {
  BuiltinId op = ci->bi;
  Val a = lower_expr(L, n->args.items[0]);
  Val idx = lower_expr(L, n->args.items[1]);
  DType dt = a.ty->dtype;
  Type *et = ty_scalar(dt);
  LLVMValueRef p = atomic_ptr(L, a, idx);
  if (op == BI_cuda_atomic_cas) {
    LLVMValueRef oldv = lower_cast(L, lower_expr(L, n->args.items[2]), et).v;
    LLVMValueRef newv = lower_cast(L, lower_expr(L, n->args.items[3]), et).v;
    LLVMTypeRef it = dtype_sizes[dt] == 4 ? LLVMInt32TypeInContext(L->ctx) : LLVMInt64TypeInContext(L->ctx);
    LLVMValueRef ip = LLVMBuildBitCast(L->b, p, LLVMPointerType(it, 0), "");
    LLVMValueRef pair = LLVMBuildAtomicCmpXchg(L->b, ip, LLVMBuildBitCast(L->b, oldv, it, ""),
                                               LLVMBuildBitCast(L->b, newv, it, ""), LLVMAtomicOrderingMonotonic,
                                               LLVMAtomicOrderingMonotonic, 0);
    return (Val){et, LLVMBuildBitCast(L->b, LLVMBuildExtractValue(L->b, pair, 0, ""), lower_mem_type(L, dt), ""), false};
  }
  LLVMValueRef v = lower_cast(L, lower_expr(L, n->args.items[2]), et).v;
  /* float add/sub: the GPU's own atomic add (red/atom.add.f32, and .f64 on
  ** sm_60 and later, all that CUDA 12+ supports). A CAS loop would serialise
  ** every contending thread through L2 round trips: with 1024 blocks adding
  ** to one total it made a block reduction 2.9x slower than CUDA C. */
  if (dtype_kinds[dt] == 'f' && (op == BI_cuda_atomic_add || op == BI_cuda_atomic_sub)) {
    if (op == BI_cuda_atomic_sub) v = LLVMBuildFNeg(L->b, v, "");
    return (Val){et, LLVMBuildAtomicRMW(L->b, LLVMAtomicRMWBinOpFAdd, p, v, LLVMAtomicOrderingMonotonic, 0), false};
  }
  if (dtype_kinds[dt] == 'f' || op == BI_cuda_atomic_inc || op == BI_cuda_atomic_dec || op == BI_cuda_atomic_nanmin ||
      op == BI_cuda_atomic_nanmax)
    return (Val){et, cas_atomic(L, op, p, v, dt), false};
  bool sg = dtype_kinds[dt] == 'i';
  LLVMAtomicRMWBinOp rop = op == BI_cuda_atomic_add ? LLVMAtomicRMWBinOpAdd
                         : op == BI_cuda_atomic_sub ? LLVMAtomicRMWBinOpSub
                         : op == BI_cuda_atomic_min ? (sg ? LLVMAtomicRMWBinOpMin : LLVMAtomicRMWBinOpUMin)
                         : op == BI_cuda_atomic_max ? (sg ? LLVMAtomicRMWBinOpMax : LLVMAtomicRMWBinOpUMax)
                         : op == BI_cuda_atomic_and ? LLVMAtomicRMWBinOpAnd
                         : op == BI_cuda_atomic_or ? LLVMAtomicRMWBinOpOr
                         : op == BI_cuda_atomic_xor ? LLVMAtomicRMWBinOpXor : LLVMAtomicRMWBinOpXchg;
  return (Val){et, LLVMBuildAtomicRMW(L->b, rop, p, v, LLVMAtomicOrderingMonotonic, 0), false};
}

/* cuda.shared.array: a block-wide global in address space 3; cuda.local.array: a per-thread alloca */
static Val static_array(Lower *L, Node *n, CallInfo *ci, bool shared) {
  Type *t = lower_ann(L, n)->ty;
  int64_t count = 1;
  for (int k = 0; k < ci->ndims; k++) count *= ci->dims[k];
  LLVMTypeRef et = lower_mem_type(L, ci->dt);
  LLVMTypeRef at = LLVMArrayType(et, (unsigned)count);
  LLVMValueRef base;
  if (shared) {
    char name[64];
    snprintf(name, sizeof name, "smem%lld", (long long)++L->C->S->counter);
    LLVMValueRef g = LLVMAddGlobalInAddressSpace(L->C->mod, at, name, 3);
    LLVMSetInitializer(g, LLVMGetUndef(at));
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMSetAlignment(g, 16);
    base = LLVMConstAddrSpaceCast(g, LLVMPointerType(at, 0));
  } else {
    base = lower_entry_alloca(L, at, "local");
  }
  LLVMValueRef data = LLVMBuildBitCast(L->b, base, LLVMPointerType(et, 0), "");
  LLVMValueRef shape[LM_MAXDIM], strides[LM_MAXDIM];
  int64_t s = dtype_sizes[ci->dt];
  for (int k = ci->ndims - 1; k >= 0; k--) {
    shape[k] = lower_i64(L, ci->dims[k]);
    strides[k] = lower_i64(L, s);
    s *= ci->dims[k];
  }
  LLVMValueRef mi = LLVMConstNull(LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0));
  return (Val){t, lower_arr_make(L, t, mi, data, shape, strides), false};
}

/* cuda.shared.array(0, dtype): the extern shared array every dynamic one
** of the kernel shares (as CUDA's extern __shared__), as long as
** %dynamic_smem_size makes it */
static Val dynamic_shared(Lower *L, Node *n, CallInfo *ci) {
  Type *t = lower_ann(L, n)->ty;
  LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx), i32 = LLVMInt32TypeInContext(L->ctx);
  LLVMTypeRef at = LLVMArrayType(i8, 0);
  LLVMValueRef g = LLVMGetNamedGlobal(L->C->mod, "dynsmem");
  if (g == NULL) {
    g = LLVMAddGlobalInAddressSpace(L->C->mod, at, "dynsmem", 3);
    LLVMSetLinkage(g, LLVMExternalLinkage);
    LLVMSetAlignment(g, 16);
  }
  LLVMTypeRef et = lower_mem_type(L, ci->dt);
  LLVMValueRef data = LLVMConstBitCast(LLVMConstAddrSpaceCast(g, LLVMPointerType(at, 0)), LLVMPointerType(et, 0));
  char text[] = "mov.u32 $0, %dynamic_smem_size;", cons[] = "=r";
  LLVMTypeRef fty = LLVMFunctionType(i32, NULL, 0, 0);
  LLVMValueRef asmv = LLVMGetInlineAsm(fty, text, strlen(text), cons, strlen(cons), 0, 0, LLVMInlineAsmDialectATT, 0);
  LLVMValueRef bytes = LLVMBuildZExt(L->b, LLVMBuildCall2(L->b, fty, asmv, NULL, 0, "dynsmem"), LLVMInt64TypeInContext(L->ctx), "");
  LLVMValueRef shape = LLVMBuildUDiv(L->b, bytes, lower_i64(L, dtype_sizes[ci->dt]), "");
  LLVMValueRef stride = lower_i64(L, dtype_sizes[ci->dt]);
  LLVMValueRef mi = LLVMConstNull(LLVMPointerType(i8, 0));
  return (Val){t, lower_arr_make(L, t, mi, data, &shape, &stride), false};
}

/* an inline PTX instruction giving a u32 register ($0) */
static LLVMValueRef ptx_u32(Lower *L, const char *text) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
  LLVMTypeRef fty = LLVMFunctionType(i32, NULL, 0, 0);
  char t[64], cons[] = "=r";
  snprintf(t, sizeof t, "%s", text);
  LLVMValueRef a = LLVMGetInlineAsm(fty, t, strlen(t), cons, strlen(cons), 1, 0, LLVMInlineAsmDialectATT, 0);
  return LLVMBuildCall2(L->b, fty, a, NULL, 0, "");
}

static LLVMValueRef arg_i32(Lower *L, Node *n, int k) {
  return lower_cast(L, lower_expr(L, n->args.items[k]), ty_scalar(DT_INT32)).v;
}

/* shfl_*_sync of one 32-bit word */
static LLVMValueRef shfl32(Lower *L, BuiltinId op, LLVMValueRef mask, LLVMValueRef v, LLVMValueRef lane) {
  const char *name = op == BI_cuda_shfl_sync ? "llvm.nvvm.shfl.sync.idx.i32" : op == BI_cuda_shfl_up_sync ? "llvm.nvvm.shfl.sync.up.i32"
                   : op == BI_cuda_shfl_down_sync ? "llvm.nvvm.shfl.sync.down.i32" : "llvm.nvvm.shfl.sync.bfly.i32";
  /* c: the clamp lane (31; 0 for up) of a full-warp width */
  LLVMValueRef args[4] = {mask, v, lane, LLVMConstInt(LLVMInt32TypeInContext(L->ctx), op == BI_cuda_shfl_up_sync ? 0 : 0x1f, 0)};
  return lower_intrinsic(L, name, NULL, 0, args, 4);
}

/* the warp intrinsics: shuffles (64-bit values as two words), votes, masks */
static Val gpu_warp(Lower *L, Node *n, CallInfo *ci) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx), i64 = LLVMInt64TypeInContext(L->ctx);
  Type *u32 = ty_scalar(DT_UINT32);
  switch (ci->bi) {
    case BI_cuda_activemask: return (Val){u32, ptx_u32(L, "activemask.b32 $0;"), false};
    case BI_cuda_lanemask_lt: return (Val){u32, ptx_u32(L, "mov.u32 $0, %lanemask_lt;"), false};
    case BI_cuda_ballot_sync:
    case BI_cuda_all_sync:
    case BI_cuda_any_sync:
    case BI_cuda_eq_sync: {
      LLVMValueRef args[2] = {arg_i32(L, n, 0), lower_cond(L, n->args.items[1])};
      const char *name = ci->bi == BI_cuda_ballot_sync ? "llvm.nvvm.vote.ballot.sync" : ci->bi == BI_cuda_all_sync ? "llvm.nvvm.vote.all.sync"
                       : ci->bi == BI_cuda_any_sync ? "llvm.nvvm.vote.any.sync" : "llvm.nvvm.vote.uni.sync";
      LLVMValueRef r = lower_intrinsic(L, name, NULL, 0, args, 2);
      if (ci->bi == BI_cuda_ballot_sync) return (Val){u32, r, false};
      return (Val){ty_bool, LLVMBuildZExt(L->b, r, LLVMInt8TypeInContext(L->ctx), ""), false};
    }
    default: {
      Type *t = lower_ann(L, n)->ty;
      LLVMValueRef mask = arg_i32(L, n, 0), lane = arg_i32(L, n, 2);
      LLVMValueRef v = lower_cast(L, lower_expr(L, n->args.items[1]), t).v;
      LLVMTypeRef vt = LLVMTypeOf(v);
      bool wide = dtype_sizes[t->dtype] == 8;
      LLVMTypeRef it = wide ? i64 : i32;
      LLVMValueRef bits = LLVMGetTypeKind(vt) == LLVMIntegerTypeKind
                              ? (dtype_sizes[t->dtype] < 4 ? LLVMBuildSExt(L->b, v, i32, "") : v)
                              : LLVMBuildBitCast(L->b, v, it, "");
      LLVMValueRef r;
      if (wide) {
        LLVMValueRef lo = LLVMBuildTrunc(L->b, bits, i32, ""), hi = LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, bits, LLVMConstInt(i64, 32, 0), ""), i32, "");
        lo = LLVMBuildZExt(L->b, shfl32(L, ci->bi, mask, lo, lane), i64, "");
        hi = LLVMBuildZExt(L->b, shfl32(L, ci->bi, mask, hi, lane), i64, "");
        r = LLVMBuildOr(L->b, lo, LLVMBuildShl(L->b, hi, LLVMConstInt(i64, 32, 0), ""), "");
      } else {
        r = shfl32(L, ci->bi, mask, bits, lane);
      }
      if (LLVMGetTypeKind(vt) != LLVMIntegerTypeKind) r = LLVMBuildBitCast(L->b, r, vt, "");
      else if (dtype_sizes[t->dtype] < 4) r = LLVMBuildTrunc(L->b, r, vt, "");
      return (Val){t, r, false};
    }
  }
}

/* an inline PTX instruction on a u32 in global memory: $0 the result, $1 the address, $2 an operand */
static LLVMValueRef ptx_global_u32(Lower *L, const char *text, LLVMValueRef p, LLVMValueRef v) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
  LLVMTypeRef ps[2] = {LLVMTypeOf(p), i32};
  LLVMTypeRef fty = LLVMFunctionType(i32, ps, v ? 2 : 1, 0);
  const char *cons = v ? "=r,l,r,~{memory}" : "=r,l,~{memory}";
  LLVMValueRef a = LLVMGetInlineAsm(fty, (char *)text, strlen(text), (char *)cons, strlen(cons), 1, 0,
                                    LLVMInlineAsmDialectATT, 0);
  LLVMValueRef args[2] = {p, v};
  return LLVMBuildCall2(L->b, fty, a, args, v ? 2 : 1, "");
}

/* cuda.cg.this_grid().sync(): a barrier of the whole grid, which a
** cooperative launch (kernel.c) makes safe by keeping every block resident.
** Each block meets at bar.sync; its thread 0 then adds to the module's
** counter lumba_gridbar with release semantics (block 0 adds 2^31 -
** (blocks - 1), the others 1, so the last arrival flips the top bit) and
** spins on acquire loads until the top bit differs from the one it saw;
** the block meets again. The counter is back to a multiple of 2^31 after
** every sync, so launches can follow launches. */
static void grid_sync(Lower *L) {
  LLVMBuilderRef b = L->b;
  LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
  LLVMValueRef g = LLVMGetNamedGlobal(L->C->mod, GPU_GRIDBAR);
  if (g == NULL) {
    g = LLVMAddGlobalInAddressSpace(L->C->mod, i32, GPU_GRIDBAR, 1);
    LLVMSetInitializer(g, LLVMConstInt(i32, 0, 0));
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMSetAlignment(g, 4);
  }
  LLVMValueRef p = LLVMBuildPtrToInt(b, g, LLVMInt64TypeInContext(L->ctx), "");  /* a .global address */
  barrier(L, "llvm.nvvm.barrier0", NULL, 0);
  LLVMValueRef t = LLVMBuildOr(b, LLVMBuildOr(b, sreg32(L, SREG_TID, 'x'), sreg32(L, SREG_TID, 'y'), ""), sreg32(L, SREG_TID, 'z'), "");
  LLVMBasicBlockRef lead = lower_block(L, "gridlead"), spin = lower_block(L, "gridspin"), after = lower_block(L, "gridafter");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, t, lower_i64(L, 0), ""), lead, after);
  LLVMPositionBuilderAtEnd(b, lead);
  LLVMValueRef c = LLVMBuildOr(b, LLVMBuildOr(b, sreg32(L, SREG_CTAID, 'x'), sreg32(L, SREG_CTAID, 'y'), ""), sreg32(L, SREG_CTAID, 'z'), "");
  LLVMValueRef nb = LLVMBuildMul(b, LLVMBuildMul(b, sreg32(L, SREG_NCTAID, 'x'), sreg32(L, SREG_NCTAID, 'y'), ""), sreg32(L, SREG_NCTAID, 'z'), "");
  nb = LLVMBuildTrunc(b, nb, i32, "");
  LLVMValueRef first = LLVMBuildSub(b, LLVMConstInt(i32, 0x80000000u, 0), LLVMBuildSub(b, nb, LLVMConstInt(i32, 1, 0), ""), "");
  LLVMValueRef add = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, c, lower_i64(L, 0), ""), first, LLVMConstInt(i32, 1, 0), "");
  LLVMValueRef old = ptx_global_u32(L, "atom.add.release.gpu.global.u32 $0, [$1], $2;", p, add);
  LLVMBuildBr(b, spin);
  LLVMPositionBuilderAtEnd(b, spin);
  LLVMValueRef now = ptx_global_u32(L, "ld.acquire.gpu.global.u32 $0, [$1];", p, NULL);
  LLVMValueRef flipped = LLVMBuildAnd(b, LLVMBuildXor(b, old, now, ""), LLVMConstInt(i32, 0x80000000u, 0), "");
  LLVMBasicBlockRef done = lower_block(L, "griddone");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, flipped, LLVMConstInt(i32, 0, 0), ""), done, spin);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildBr(b, after);
  LLVMPositionBuilderAtEnd(b, after);
  barrier(L, "llvm.nvvm.barrier0", NULL, 0);
}

static Val gpu_call(Lower *L, Node *n, CallInfo *ci) {
  Val none = {&ty_none, LLVMConstInt(LLVMInt8TypeInContext(L->ctx), 0, 0), false};
  LLVMValueRef mask;
  switch (ci->bi) {
    case BI_cuda_grid:
    case BI_cuda_gridsize: {
      static const char axes[3] = {'x', 'y', 'z'};
      LLVMValueRef v[3];
      for (int k = 0; k < ci->ndims; k++) {
        char a = axes[k];
        LLVMValueRef ntid = sreg32(L, SREG_NTID, a);
        /* products and sums of 32-bit registers in 64 bits never wrap: said so, a grid-stride
        ** counter from cuda.grid by cuda.gridsize is known non-negative (no negative-index
        ** wrap in its subscripts) */
        v[k] = ci->bi == BI_cuda_gridsize
                   ? LLVMBuildNSWMul(L->b, ntid, sreg32(L, SREG_NCTAID, a), "")
                   : LLVMBuildNSWAdd(L->b, LLVMBuildNSWMul(L->b, sreg32(L, SREG_CTAID, a), ntid, ""), sreg32(L, SREG_TID, a), "");
      }
      if (ci->ndims == 1) return (Val){ty_int64, v[0], false};
      LLVMValueRef t = LLVMGetUndef(lower_type(L, lower_ann(L, n)->ty));
      for (int k = 0; k < ci->ndims; k++) t = LLVMBuildInsertValue(L->b, t, v[k], (unsigned)k, "");
      return (Val){lower_ann(L, n)->ty, t, false};
    }
    case BI_cuda_syncthreads: barrier(L, "llvm.nvvm.barrier0", NULL, 0); return none;
    case BI_cuda_cg_this_grid: return (Val){&ty_grid_group, LLVMConstInt(LLVMInt8TypeInContext(L->ctx), 0, 0), false};
    case BI_cuda_cg_grid_sync: grid_sync(L); return none;
    case BI_cuda_threadfence: barrier(L, "llvm.nvvm.membar.gl", NULL, 0); return none;
    case BI_cuda_threadfence_block: barrier(L, "llvm.nvvm.membar.cta", NULL, 0); return none;
    case BI_cuda_threadfence_system: barrier(L, "llvm.nvvm.membar.sys", NULL, 0); return none;
    case BI_cuda_syncwarp:
      mask = n->args.len ? lower_cast(L, lower_expr(L, n->args.items[0]), ty_scalar(DT_INT32)).v
                         : LLVMConstInt(LLVMInt32TypeInContext(L->ctx), 0xffffffffu, 0);
      barrier(L, "llvm.nvvm.bar.warp.sync", &mask, 1);
      return none;
    case BI_cuda_shared_array: return ci->dims[0] == 0 ? dynamic_shared(L, n, ci) : static_array(L, n, ci, true);
    case BI_cuda_local_array: return static_array(L, n, ci, false);
    case BI_cuda_const_array_like: return lower_expr(L, n->args.items[0]);
    case BI_cuda_activemask: case BI_cuda_lanemask_lt: case BI_cuda_ballot_sync: case BI_cuda_all_sync:
    case BI_cuda_any_sync: case BI_cuda_eq_sync: case BI_cuda_shfl_sync: case BI_cuda_shfl_up_sync:
    case BI_cuda_shfl_down_sync: case BI_cuda_shfl_xor_sync:
      return gpu_warp(L, n, ci);
    default: return atomic(L, n, ci);
  }
}

/* ---- the exception record of debug=True kernels ---- */

static LLVMValueRef byte_ptr(Lower *L, LLVMValueRef base, size_t off, LLVMTypeRef to) {
  LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
  LLVMValueRef o = lower_i64(L, (int64_t)off);
  LLVMValueRef p = LLVMBuildInBoundsGEP2(L->b, i8, base, &o, 1, "");
  return LLVMBuildBitCast(L->b, p, LLVMPointerType(to, 0), "");
}

/* void lumba_exc_copy(i8 *dst, i8 *src, i64 cap): a C string, cut to cap - 1 bytes; "" for NULL */
static LLVMValueRef exc_copy_fn(Lower *L) {
  LLVMModuleRef M = L->C->mod;
  LLVMValueRef f = LLVMGetNamedFunction(M, "lumba_exc_copy");
  if (f) return f;
  LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx), i8p = LLVMPointerType(i8, 0), i64 = LLVMInt64TypeInContext(L->ctx);
  LLVMTypeRef ps[3] = {i8p, i8p, i64};
  f = LLVMAddFunction(M, "lumba_exc_copy", LLVMFunctionType(LLVMVoidTypeInContext(L->ctx), ps, 3, 0));
  LLVMSetLinkage(f, LLVMInternalLinkage);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(L->ctx);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(L->ctx, f, "entry"), loop = LLVMAppendBasicBlockInContext(L->ctx, f, "loop"),
                    next = LLVMAppendBasicBlockInContext(L->ctx, f, "next"), none = LLVMAppendBasicBlockInContext(L->ctx, f, "none"),
                    done = LLVMAppendBasicBlockInContext(L->ctx, f, "done");
  LLVMValueRef dst = LLVMGetParam(f, 0), src = LLVMGetParam(f, 1), cap = LLVMGetParam(f, 2);
  LLVMValueRef zero64 = LLVMConstInt(i64, 0, 0), zero8 = LLVMConstInt(i8, 0, 0);
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMBuildCondBr(b, LLVMBuildIsNull(b, src, ""), none, loop);
  LLVMPositionBuilderAtEnd(b, loop);
  LLVMValueRef i = LLVMBuildPhi(b, i64, "i");
  LLVMValueRef c = LLVMBuildLoad2(b, i8, LLVMBuildGEP2(b, i8, src, &i, 1, ""), "");
  LLVMValueRef last = LLVMBuildICmp(b, LLVMIntEQ, i, LLVMBuildSub(b, cap, LLVMConstInt(i64, 1, 0), ""), "");
  c = LLVMBuildSelect(b, last, zero8, c, "");
  LLVMBuildStore(b, c, LLVMBuildGEP2(b, i8, dst, &i, 1, ""));
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, c, zero8, ""), done, next);
  LLVMPositionBuilderAtEnd(b, next);
  LLVMValueRef i1 = LLVMBuildAdd(b, i, LLVMConstInt(i64, 1, 0), "");
  LLVMBuildBr(b, loop);
  LLVMAddIncoming(i, (LLVMValueRef[]){zero64, i1}, (LLVMBasicBlockRef[]){entry, next}, 2);
  LLVMPositionBuilderAtEnd(b, none);
  LLVMBuildStore(b, zero8, dst);
  LLVMBuildBr(b, done);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return f;
}

void tgpu_report_exception(Lower *L, LLVMValueRef fn, LLVMValueRef st, LLVMValueRef err, LLVMValueRef rec) {
  LLVMBuilderRef b = L->b;
  LLVMContextRef ctx = L->ctx;
  LLVMTypeRef i8 = LLVMInt8TypeInContext(ctx), i8p = LLVMPointerType(i8, 0), i32 = LLVMInt32TypeInContext(ctx),
              i64 = LLVMInt64TypeInContext(ctx);
  LLVMBasicBlockRef failed = LLVMAppendBasicBlockInContext(ctx, fn, "failed"), claim = LLVMAppendBasicBlockInContext(ctx, fn, "claim"),
                    out = LLVMAppendBasicBlockInContext(ctx, fn, "out");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, st, LLVMConstInt(i32, 0, 0), ""), failed, out);
  LLVMPositionBuilderAtEnd(b, failed);
  LLVMValueRef pair = LLVMBuildAtomicCmpXchg(b, byte_ptr(L, rec, offsetof(LmKernelExc, claimed), i32), LLVMConstInt(i32, 0, 0),
                                             LLVMConstInt(i32, 1, 0), LLVMAtomicOrderingMonotonic, LLVMAtomicOrderingMonotonic, 0);
  LLVMBuildCondBr(b, LLVMBuildExtractValue(b, pair, 1, ""), claim, out);
  LLVMPositionBuilderAtEnd(b, claim);
  LLVMBuildStore(b, st, byte_ptr(L, rec, offsetof(LmKernelExc, status), i32));
  for (int a = 0; a < 3; a++) {
    LLVMBuildStore(b, sreg32(L, SREG_TID, (char)('x' + a)), byte_ptr(L, rec, offsetof(LmKernelExc, tid) + 8 * (size_t)a, i64));
    LLVMBuildStore(b, sreg32(L, SREG_CTAID, (char)('x' + a)), byte_ptr(L, rec, offsetof(LmKernelExc, ctaid) + 8 * (size_t)a, i64));
  }
  LLVMValueRef e8 = LLVMBuildBitCast(b, err, i8p, "");
  for (size_t off = 0; off + 8 <= sizeof(LmErr); off += 8)
    LLVMBuildStore(b, LLVMBuildLoad2(b, i64, byte_ptr(L, e8, off, i64), ""), byte_ptr(L, rec, offsetof(LmKernelExc, err) + off, i64));
  LLVMValueRef cp = exc_copy_fn(L);
  const size_t texts[2][3] = {{offsetof(LmErr, msg), offsetof(LmKernelExc, msg), sizeof(((LmKernelExc *)0)->msg)},
                              {offsetof(LmErr, where), offsetof(LmKernelExc, where), sizeof(((LmKernelExc *)0)->where)}};
  for (int k = 0; k < 2; k++) {
    LLVMValueRef src = LLVMBuildLoad2(b, i8p, byte_ptr(L, e8, texts[k][0], i8p), "");
    LLVMValueRef args[3] = {byte_ptr(L, rec, texts[k][1], i8), src, lower_i64(L, (int64_t)texts[k][2])};
    LLVMBuildCall2(b, LLVMGlobalGetValueType(cp), cp, args, 3, "");
  }
  LLVMBuildBr(b, out);
  LLVMPositionBuilderAtEnd(b, out);
}

const Target target_gpu = {
    .name = "gpu",
    .refcount = false,
    .gpu = true,
    .math_call = gpu_math,
    .sreg = gpu_sreg,
    .cuda_call = gpu_call,
    .complex_call = tgpu_complex_call,
    .record_field = lower_record_field,
    .record_store = lower_record_store,
};
