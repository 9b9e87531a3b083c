/*
** builtin_libdevice.c — the libdevice family of the registry: numba-cuda's
** cuda.libdevice.NAME in kernels, one row per function of libdevice.def.
** Arguments convert to the types the row declares (as numba-cuda's one
** signature per function); pointer arguments become results, a tuple
** (result, outputs...). On the GPU a call of libdevice's __nv_NAME
** (linked by nvvm.c), in the simulator of lm_rt_libdevice
** (libdevice_sim.c) with the arguments in LdVal slots.
*/
#include <string.h>

#include "builtin_hooks.h"
#include "libdevice.h"

typedef struct LdFn {
  const char *name;  // libdevice's name without __nv_
  const char *ret;   // its result's letter (libdevice.def)
  const char *sig;   // its arguments' letters
  int id;            // LdId
} LdFn;

static const LdFn ld_fns[BI__COUNT] = {
#define LIBDEVICE(nm, r, sig, nin, sim) [BI_cuda_libdevice_##nm] = {#nm, #r, sig, LD_##nm},
#include "libdevice.def"
#undef LIBDEVICE
};

static Type *letter_type(char c) {
  switch (c) {
    case 'f': case 'F': return ty_scalar(DT_FLOAT32);
    case 'd': case 'D': return ty_float64;
    case 'i': case 'I': return ty_scalar(DT_INT32);
    case 'l': case 'L': return ty_int64;
    case 'h': return ty_scalar(DT_INT16);
    default: return NULL;  /* v: none */
  }
}

static bool is_out(char c) { return c >= 'A' && c <= 'Z'; }

Type *blibdevice_infer(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  const LdFn *f = &ld_fns[nm->id];
  Type *at[LD_MAXIN];
  /* any number converts, as to numba-cuda's one signature */
  if (!builtin_infer_numbers(I, n, nm, at, false, "a real number")) return NULL;
  Type *el[LD_MAXOUT];
  int nel = 0;
  if (f->ret[0] != 'v') el[nel++] = letter_type(f->ret[0]);
  for (const char *s = f->sig; *s; s++)
    if (is_out(*s)) el[nel++] = letter_type(*s);
  return nel == 1 && f->ret[0] != 'v' ? el[0] : ty_tuple(&C->S->types, el, nel);
}

static LLVMTypeRef letter_llvm(Lower *L, char c) {
  Type *t = letter_type(c);
  return t ? lower_type(L, t) : LLVMVoidTypeInContext(L->ctx);
}

/* the simulator: lm_rt_libdevice(id, in, out) over LdVal slots (8 bytes each) */
static void sim_call(Lower *L, const LdFn *f, LLVMValueRef *xs, int nin, LLVMValueRef out) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx), i32 = LLVMInt32TypeInContext(L->ctx);
  LLVMValueRef in = lower_entry_alloca(L, LLVMArrayType(i64, LD_MAXIN), "ldin");
  for (int k = 0; k < nin; k++) {
    LLVMValueRef idx[2] = {lower_i32(L, 0), lower_i32(L, k)};
    LLVMValueRef slot = LLVMBuildInBoundsGEP2(L->b, LLVMArrayType(i64, LD_MAXIN), in, idx, 2, "");
    LLVMBuildStore(L->b, xs[k], LLVMBuildBitCast(L->b, slot, LLVMPointerType(LLVMTypeOf(xs[k]), 0), ""));
  }
  LLVMTypeRef p64 = LLVMPointerType(i64, 0);
  LLVMTypeRef ps[3] = {i32, p64, p64};
  LLVMValueRef fn = lower_rt_fn(L, "lm_rt_libdevice", LLVMVoidTypeInContext(L->ctx), ps, 3);
  LLVMValueRef args[3] = {lower_i32(L, f->id), LLVMBuildBitCast(L->b, in, p64, ""), LLVMBuildBitCast(L->b, out, p64, "")};
  LLVMBuildCall2(L->b, LLVMGlobalGetValueType(fn), fn, args, 3, "");
}

/* slot k of the out array as a pointer to letter c's type */
static LLVMValueRef out_slot(Lower *L, LLVMValueRef out, int k, char c) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  LLVMValueRef idx[2] = {lower_i32(L, 0), lower_i32(L, k)};
  LLVMValueRef slot = LLVMBuildInBoundsGEP2(L->b, LLVMArrayType(i64, LD_MAXOUT), out, idx, 2, "");
  return LLVMBuildBitCast(L->b, slot, LLVMPointerType(letter_llvm(L, c), 0), "");
}

Val blibdevice_lower(Lower *L, Node *n, CallInfo *ci) {
  const LdFn *f = &ld_fns[ci->bi];
  Type *rt = lower_ann(L, n)->ty;
  LLVMValueRef xs[LD_MAXIN + LD_MAXOUT];
  LLVMTypeRef ps[LD_MAXIN + LD_MAXOUT];
  int nx = 0, nin = 0;
  /* outputs live in slots of one array: out[0] the result, out[1..] the pointers' */
  LLVMValueRef out = lower_entry_alloca(L, LLVMArrayType(LLVMInt64TypeInContext(L->ctx), LD_MAXOUT), "ldout");
  for (int k = 0; f->sig[k]; k++) {
    char c = f->sig[k];
    if (is_out(c)) {
      xs[nx] = out_slot(L, out, k, c);  /* outputs follow the inputs: slot k is 1.. */
      ps[nx] = LLVMTypeOf(xs[nx]);
      nx++;
    } else {
      xs[nx] = lower_cast(L, lower_arg(L, ci, nin++), letter_type(c)).v;
      ps[nx] = LLVMTypeOf(xs[nx]);
      nx++;
    }
  }
  if (L->C->target->gpu) {
    char name[64];
    snprintf(name, sizeof name, "__nv_%s", f->name);
    LLVMValueRef fn = lower_rt_fn(L, name, letter_llvm(L, f->ret[0]), ps, nx);
    LLVMValueRef r = LLVMBuildCall2(L->b, LLVMGlobalGetValueType(fn), fn, xs, (unsigned)nx, "");
    if (f->ret[0] != 'v') LLVMBuildStore(L->b, r, out_slot(L, out, 0, f->ret[0]));
  } else {
    sim_call(L, f, xs, nin, out);
  }
  if (rt->kind != TY_TUPLE)
    return (Val){rt, LLVMBuildLoad2(L->b, lower_type(L, rt), out_slot(L, out, 0, f->ret[0]), ""), false};
  LLVMValueRef tup = LLVMGetUndef(lower_type(L, rt));
  unsigned e = 0;
  if (f->ret[0] != 'v')
    tup = LLVMBuildInsertValue(L->b, tup, LLVMBuildLoad2(L->b, lower_type(L, rt->elems[e]), out_slot(L, out, 0, f->ret[0]), ""), e, ""), e++;
  for (int k = 0; f->sig[k]; k++)
    if (is_out(f->sig[k]))
      tup = LLVMBuildInsertValue(L->b, tup, LLVMBuildLoad2(L->b, lower_type(L, rt->elems[e]), out_slot(L, out, k, f->sig[k]), ""), e, ""), e++;
  return (Val){rt, tup, false};
}
