/*
** lower_constarray.c — a module-level array of literals (W = np.array([...]))
** used inside a CUDA kernel: kernels allocate nothing, so, as numba-cuda
** does, its value is frozen into the module as a constant array (constant
** memory, address space 4, on the GPU; a read-only global in the simulator).
*/
#include <string.h>

#include "lower.h"

#define MAX_CONST_ELEMS (1 << 16)  /* constant memory is 64 KiB */

typedef struct Flat {
  Node **elems;
  int64_t n, cap;
  int ndim;
  int64_t shape[LM_MAXDIM];
} Flat;

/* nested lists/tuples of numbers: their shape (every row alike) and elements in C order */
static bool flatten(Compile *C, Node *v, int depth, Flat *f) {
  if (v->kind == ND_List || v->kind == ND_Tuple) {
    if (depth >= LM_MAXDIM) return false;
    if (depth == f->ndim) {
      f->ndim = depth + 1;
      f->shape[depth] = v->elts.len;
    } else if (f->shape[depth] != v->elts.len) {
      return false;
    }
    for (int i = 0; i < v->elts.len; i++)
      if (!flatten(C, v->elts.items[i], depth + 1, f)) return false;
    return true;
  }
  if (depth != f->ndim) return false;
  Node *c = v->kind == ND_UnaryOp && v->op == OP_USub ? v->operand : v;
  if (c->kind != ND_Constant || !(c->ckind == CK_INT || c->ckind == CK_FLOAT || c->ckind == CK_BOOL)) return false;
  if (f->n == f->cap) {
    if (f->cap >= MAX_CONST_ELEMS) return false;
    int64_t cap = f->cap ? 2 * f->cap : 16;
    Node **e = arena_alloc(C->A, sizeof *e * (size_t)cap);
    if (f->n) memcpy(e, f->elems, sizeof *e * (size_t)f->n);
    f->elems = e;
    f->cap = cap;
  }
  f->elems[f->n++] = v;
  return true;
}

static double num_of(Node *v) {
  bool neg = v->kind == ND_UnaryOp;
  Node *c = neg ? v->operand : v;
  double x = c->ckind == CK_FLOAT ? c->fval : c->ckind == CK_BOOL ? (double)c->bval : (double)c->ival;
  return neg ? -x : x;
}

static int64_t int_of(Node *v) {
  bool neg = v->kind == ND_UnaryOp;
  Node *c = neg ? v->operand : v;
  int64_t x = c->ckind == CK_FLOAT ? (int64_t)c->fval : c->ckind == CK_BOOL ? c->bval : c->ival;
  return neg ? (int64_t)(0 - (uint64_t)x) : x;
}

bool lower_const_array(Lower *L, Node *value, Type *t, Val *out) {
  if (t->kind != TY_ARRAY || value->kind != ND_Call || value->args.len < 1) return false;
  Flat f = {0};
  if (!flatten(L->C, value->args.items[0], 0, &f) || f.ndim != t->ndim) return false;
  DType dt = t->dtype;
  LLVMTypeRef et = lower_mem_type(L, dt);
  LLVMValueRef *cs = arena_alloc(L->C->A, sizeof *cs * (size_t)(f.n ? f.n : 1));
  for (int64_t i = 0; i < f.n; i++) {
    if (dtype_kinds[dt] == 'f') cs[i] = LLVMConstReal(et, num_of(f.elems[i]));
    else if (dt == DT_BOOL) cs[i] = LLVMConstInt(et, num_of(f.elems[i]) != 0, 0);
    else cs[i] = LLVMConstInt(et, (unsigned long long)int_of(f.elems[i]), dtype_kinds[dt] == 'i');
  }
  LLVMTypeRef at = LLVMArrayType(et, (unsigned)f.n);
  unsigned as = L->C->target->gpu ? 4 : 0;
  char name[64];
  snprintf(name, sizeof name, "cmem%lld", (long long)++L->C->S->counter);
  LLVMValueRef g = LLVMAddGlobalInAddressSpace(L->C->mod, at, name, as);
  LLVMSetInitializer(g, LLVMConstArray(et, cs, (unsigned)f.n));
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMInternalLinkage);
  LLVMSetAlignment(g, 16);
  LLVMValueRef base = as ? LLVMConstAddrSpaceCast(g, LLVMPointerType(at, 0)) : g;
  LLVMValueRef data = LLVMConstBitCast(base, LLVMPointerType(et, 0));
  LLVMValueRef shape[LM_MAXDIM], strides[LM_MAXDIM];
  int64_t s = dtype_sizes[dt];
  for (int k = f.ndim - 1; k >= 0; k--) {
    shape[k] = lower_i64(L, f.shape[k]);
    strides[k] = lower_i64(L, s);
    s *= f.shape[k];
  }
  LLVMValueRef mi = LLVMConstNull(LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0));
  *out = (Val){t, lower_arr_make(L, t, mi, data, shape, strides), false};
  return true;
}
