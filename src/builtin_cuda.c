/*
** builtin_cuda.c — the CUDA family of the registry: inside kernels,
** cuda.grid/gridsize, the barriers (syncthreads, syncwarp, threadfence),
** cuda.shared.array/local.array, cuda.atomic.*, and the values
** cuda.threadIdx.x ... gridDim.z, warpsize, laneid. The typing is here;
** the lowering is the target's (Target.cuda_call and Target.sreg:
** target_gpu.c for NVVM, target_sim.c for the simulator).
*/
#include <string.h>

#include "builtin_hooks.h"

/* the name messages show: as called, but and_ / or_ (Numba's spelling of
** Python keywords) as and / or */
static const char *shown(const BuiltinName *nm) {
  const char *m = nm->member;
  return m[strlen(m) - 1] == '_' ? builtin_of(nm)->member : m;
}

static CallInfo *cuda_info(Infer *I, Node *n, const BuiltinName *nm) {
  CallInfo *ci = infer_new_info(I, n, CALL_BUILTIN, builtin_of(nm)->name);
  ci->bi = nm->id;
  return ci;
}

Type *bcuda_infer_grid(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  const Builtin *b = builtin_of(nm);
  const char *what = shown(nm);
  CallInfo *ci = cuda_info(I, n, nm);
  int64_t nd;
  infer_nargs(I, n, what, b->lo, b->hi);
  if (!infer_static_int(I, n->args.items[0], &nd) || nd < 1 || nd > 3)
    compile_error(C, n->args.items[0]->loc, "TypingError", "cuda.%s() takes a constant 1, 2 or 3", what);
  ci->ndims = (int)nd;
  if (nd == 1) return ty_int64;
  Type *el[3] = {ty_int64, ty_int64, ty_int64};
  return ty_tuple(&C->S->types, el, (int)nd);
}

/* syncthreads, syncwarp([mask]), threadfence, threadfence_block, threadfence_system */
Type *bcuda_infer_barrier(Infer *I, Node *n, const BuiltinName *nm) {
  const Builtin *b = builtin_of(nm);
  cuda_info(I, n, nm);
  infer_nargs(I, n, shown(nm), b->lo, b->hi);
  return &ty_none;
}

/* cuda.cg.this_grid(): the grid group, an object of no run-time value;
** g.sync() (infer_call.c finds it through the group's type): a barrier of
** every thread of the grid, which makes the kernel's launches cooperative */
Type *bcuda_infer_cg(Infer *I, Node *n, const BuiltinName *nm) {
  cuda_info(I, n, nm);
  infer_nargs(I, n, shown(nm), 0, 0);
  infer_no_keywords(I, n, shown(nm));
  return nm->id == BI_cuda_cg_this_grid ? &ty_grid_group : &ty_none;
}

/* cuda.const.array_like(ary): the array itself, read-only; a module-level
** np.array of literals is already a constant array of the kernel (in
** constant memory on the GPU, lower_const_array) */
Type *bcuda_infer_const(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  Type *at[1];
  cuda_info(I, n, nm);
  infer_nargs(I, n, shown(nm), 1, 1);
  infer_no_keywords(I, n, shown(nm));
  if (!infer_arg_types(I, n->args.items, 1, at)) return NULL;
  if (at[0]->kind != TY_ARRAY)
    compile_error(C, n->args.items[0]->loc, "TypingError", "cuda.const.array_like needs an array, not %s", tyname(C, at[0]));
  return at[0];
}

/* warp intrinsics: shfl_sync/shfl_up_sync/shfl_down_sync/shfl_xor_sync(mask,
** value, lane or delta) give value's type (a number); ballot_sync(mask, pred)
** a uint32 mask, all_sync/any_sync/eq_sync(mask, pred) a bool, activemask()
** and lanemask_lt() a uint32 */
Type *bcuda_infer_warp(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  const Builtin *b = builtin_of(nm);
  const char *what = shown(nm);
  Type *at[3];
  cuda_info(I, n, nm);
  infer_nargs(I, n, what, b->lo, b->hi);
  infer_no_keywords(I, n, what);
  if (b->lo == 0) return ty_scalar(DT_UINT32);
  if (!infer_arg_types(I, n->args.items, b->lo, at)) return NULL;
  for (int i = 0; i < b->lo; i++) {
    bool shfl_value = b->lo == 3 && i == 1;
    bool ok = at[i]->kind == TY_SCALAR && (shfl_value ? at[i]->dtype != DT_BOOL : (ty_is_int(at[i]) || at[i]->dtype == DT_BOOL));
    if (!ok)
      compile_error(C, n->args.items[i]->loc, "TypingError", "cuda.%s: argument %d must be %s, not %s", what, i + 1,
                    shfl_value ? "a number" : "an integer or bool", tyname(C, at[i]));
  }
  if (b->lo == 3) return at[1];
  return nm->id == BI_cuda_ballot_sync ? ty_scalar(DT_UINT32) : ty_bool;
}

/* cuda.shared.array(shape, dtype), cuda.local.array(shape, dtype): a constant shape */
Type *bcuda_infer_array(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  const char *what = shown(nm);
  CallInfo *ci = cuda_info(I, n, nm);
  infer_only_keywords(I, n, what, builtin_of(nm)->keywords);
  Node *shape = infer_arg_or_kw(n, 0, "shape");
  if (shape == NULL) compile_error(C, n->loc, "TypingError", "cuda.%s() needs a shape", what);
  int64_t v;
  if (infer_static_int(I, shape, &v)) {
    ci->ndims = 1;
    ci->dims[0] = v;
  } else if (shape->kind == ND_Tuple && shape->elts.len >= 1 && shape->elts.len <= LM_MAXDIM) {
    ci->ndims = shape->elts.len;
    for (int i = 0; i < shape->elts.len; i++)
      if (!infer_static_int(I, shape->elts.items[i], &ci->dims[i]))
        compile_error(C, shape->elts.items[i]->loc, "TypingError", "the shape of cuda.%s must be constant", what);
  } else {
    compile_error(C, shape->loc, "TypingError", "the shape of cuda.%s must be a constant integer or tuple", what);
  }
  /* cuda.shared.array(0, dtype): the launch's dynamic shared memory, 1-D,
  ** as long as the launch's 4th parameter makes it */
  if (nm->id == BI_cuda_shared_array && ci->ndims == 1 && ci->dims[0] == 0 && shape->kind != ND_Tuple) {
    ci->dt = infer_dtype_of(I, infer_arg_or_kw(n, 1, "dtype"), DT_FLOAT64);
    return ty_array(&C->S->types, ci->dt, 1, 'C');
  }
  for (int i = 0; i < ci->ndims; i++)
    if (ci->dims[i] <= 0 || ci->dims[i] > (1 << 24))
      compile_error(C, shape->loc, "TypingError", "bad cuda.%s dimension %lld", what, (long long)ci->dims[i]);
  ci->dt = infer_dtype_of(I, infer_arg_or_kw(n, 1, "dtype"), DT_FLOAT64);
  return ty_array(&C->S->types, ci->dt, ci->ndims, 'C');
}

/* cuda.atomic.op(ary, idx, val) and cuda.atomic.cas(ary, idx, old, val) */
Type *bcuda_infer_atomic(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  const char *what = shown(nm);
  int na = builtin_of(nm)->lo;
  Type *at[4];
  cuda_info(I, n, nm);
  infer_nargs(I, n, what, na, na);
  infer_no_keywords(I, n, what);
  if (!infer_arg_types(I, n->args.items, na, at)) return NULL;
  if (at[0]->kind != TY_ARRAY)
    compile_error(C, n->args.items[0]->loc, "TypingError", "cuda.%s needs an array, not %s", what, tyname(C, at[0]));
  int nidx = at[1]->kind == TY_TUPLE ? at[1]->nelems : 1;
  if (nidx != at[0]->ndim)
    compile_error(C, n->args.items[1]->loc, "TypingError", "cuda.%s needs %d indices for %s", what, at[0]->ndim,
                  tyname(C, at[0]));
  DType dt = at[0]->dtype;
  if (!(dt == DT_INT32 || dt == DT_INT64 || dt == DT_UINT32 || dt == DT_UINT64 || dt == DT_FLOAT32 || dt == DT_FLOAT64))
    compile_error(C, n->args.items[0]->loc, "TypingError", "cuda.%s supports int32, int64, uint32, uint64, float32 and float64 arrays, not %s", what, tyname(C, at[0]));
  if ((nm->id == BI_cuda_atomic_inc || nm->id == BI_cuda_atomic_dec) && !(dt == DT_UINT32 || dt == DT_UINT64))
    compile_error(C, n->args.items[0]->loc, "TypingError", "cuda.%s supports uint32 and uint64 arrays, not %s", what,
                  tyname(C, at[0]));
  if (dtype_kinds[dt] == 'f' && (nm->id == BI_cuda_atomic_and || nm->id == BI_cuda_atomic_or || nm->id == BI_cuda_atomic_xor))
    compile_error(C, n->loc, "TypingError", "cuda.%s needs an integer array", what);
  return ty_scalar(dt);
}

/* every call of the family: the target lowers it */
Val bcuda_lower(Lower *L, Node *n, CallInfo *ci) {
  LM_ASSERT(L->C->target->cuda_call);
  return L->C->target->cuda_call(L, n, ci);
}

/* ---- values: special registers ---- */

static const struct { SReg reg; int axis; } sregs[BI__COUNT] = {
    [BI_cuda_threadIdx_x] = {SREG_TID, 0}, [BI_cuda_threadIdx_y] = {SREG_TID, 1}, [BI_cuda_threadIdx_z] = {SREG_TID, 2},
    [BI_cuda_blockIdx_x] = {SREG_CTAID, 0}, [BI_cuda_blockIdx_y] = {SREG_CTAID, 1}, [BI_cuda_blockIdx_z] = {SREG_CTAID, 2},
    [BI_cuda_blockDim_x] = {SREG_NTID, 0}, [BI_cuda_blockDim_y] = {SREG_NTID, 1}, [BI_cuda_blockDim_z] = {SREG_NTID, 2},
    [BI_cuda_gridDim_x] = {SREG_NCTAID, 0}, [BI_cuda_gridDim_y] = {SREG_NCTAID, 1}, [BI_cuda_gridDim_z] = {SREG_NCTAID, 2},
    [BI_cuda_warpsize] = {SREG_WARPSIZE, 0}, [BI_cuda_laneid] = {SREG_LANEID, 0},
};

Type *bcuda_infer_sreg(Infer *I, Node *n, const BuiltinName *nm, Type *base) {
  (void)I;
  (void)n;
  (void)nm;
  (void)base;
  return ty_int64;
}

Val bcuda_lower_sreg(Lower *L, Node *n, BuiltinId id, Val base) {
  (void)n;
  (void)base;
  LM_ASSERT(L->C->target->sreg);
  return (Val){ty_int64, L->C->target->sreg(L, sregs[id].reg, sregs[id].axis), false};
}
