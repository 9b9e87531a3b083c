/*
** builtin_view.c — the view family of the registry: arrays that share
** their base's buffer with another shape or order of axes. a.reshape
** (Numba's rule: a contiguous array, else NotImplementedError), ravel and
** flatten (copies where needed), transpose with axes, swapaxes, moveaxis,
** expand_dims, squeeze, broadcast_to, atleast_1d/2d/3d, flip, fliplr,
** flipud (negative strides). Axes are compile-time constants: they decide
** the result's type. Also the helpers the shape families share
** (builtin_shape.h).
*/
#include <stdio.h>
#include <string.h>

#include "builtin_shape.h"

/* ---- typing helpers ---- */

bool bshape_static_int(Infer *I, Node *n, int64_t *v) {
  if (n->kind == ND_UnaryOp && n->op == OP_USub && bshape_static_int(I, n->operand, v)) {
    *v = -*v;
    return true;
  }
  return infer_static_int(I, n, v);
}

int bshape_axis(Infer *I, Node *at, int64_t ax, int ndim) {
  if (ax < -ndim || ax >= ndim)
    compile_error(I->C, at->loc, "AxisError", "axis %lld is out of bounds for array of dimension %d", (long long)ax, ndim);
  return (int)(ax < 0 ? ax + ndim : ax);
}

int bshape_axis_arg(Infer *I, Node *n, int ndim, int dflt, const char *fname) {
  if (n == NULL) return dflt;
  int64_t v;
  if (!bshape_static_int(I, n, &v)) {
    Type *t = infer_expr(I, n);
    compile_error(I->C, n->loc, "TypingError", "%s(): the axis must be a constant integer in compiled code, not %s",
                  fname, t ? tyname(I->C, t) : "an expression");
  }
  infer_expr(I, n);
  return bshape_axis(I, n, v, ndim);
}

Type *bshape_array_arg(Infer *I, Node *n, const char *fname) {
  Type *t = infer_expr(I, n);
  if (t && t->kind != TY_ARRAY) compile_error(I->C, n->loc, "TypingError", "%s() needs an array, not %s", fname, tyname(I->C, t));
  return t;
}

/* ---- lowering helpers ---- */

static LLVMTypeRef i8pt(Lower *L) { return LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0); }

static LLVMValueRef offset_ptr(Lower *L, LLVMValueRef data, LLVMValueRef off, DType dt) {
  LLVMValueRef p8 = LLVMBuildBitCast(L->b, data, i8pt(L), "");
  p8 = LLVMBuildGEP2(L->b, LLVMInt8TypeInContext(L->ctx), p8, &off, 1, "");
  return LLVMBuildBitCast(L->b, p8, LLVMPointerType(lower_mem_type(L, dt), 0), "");
}

Val bshape_view(Lower *L, Val a, Type *rt, LLVMValueRef data, LLVMValueRef *shape, LLVMValueRef *strides) {
  return (Val){rt, lower_arr_make(L, rt, lower_arr_mi(L, a.v), data, shape, strides), a.owned};
}

LLVMValueRef bshape_size(Lower *L, Val a) {
  LLVMValueRef s = lower_i64(L, 1);
  for (int k = 0; k < a.ty->ndim; k++) s = LLVMBuildMul(L->b, s, lower_arr_shape(L, a.v, k), "");
  return s;
}

Val bshape_expand(Lower *L, Val a, Type *rt, const bool *new_axis) {
  LLVMValueRef shape[LM_MAXDIM], strides[LM_MAXDIM];
  int j = 0;
  for (int k = 0; k < rt->ndim; k++) {
    if (new_axis[k]) {
      shape[k] = lower_i64(L, 1);
      strides[k] = NULL;
    } else {
      shape[k] = lower_arr_shape(L, a.v, j);
      strides[k] = lower_arr_stride(L, a.v, j++);
    }
  }
  /* a length-1 axis takes the stride a contiguous layout would give it */
  LLVMValueRef item = lower_i64(L, dtype_sizes[rt->dtype]);
  if (rt->layout == 'F') {
    for (int k = 0; k < rt->ndim; k++)
      if (!strides[k]) strides[k] = k == 0 ? item : LLVMBuildMul(L->b, strides[k - 1], shape[k - 1], "");
  } else {
    for (int k = rt->ndim - 1; k >= 0; k--)
      if (!strides[k]) strides[k] = k == rt->ndim - 1 ? item : LLVMBuildMul(L->b, strides[k + 1], shape[k + 1], "");
  }
  return bshape_view(L, a, rt, lower_arr_data(L, a.v), shape, strides);
}

LLVMValueRef bshape_elem_ptr(Lower *L, Val a, LLVMValueRef *idx) {
  LLVMValueRef off = lower_i64(L, 0);
  for (int k = 0; k < a.ty->ndim; k++)
    off = LLVMBuildAdd(L->b, off, LLVMBuildMul(L->b, idx[k], lower_arr_stride(L, a.v, k), ""), "");
  return offset_ptr(L, lower_arr_data(L, a.v), off, a.ty->dtype);
}

void bshape_loop(Lower *L, LLVMValueRef *shape, int nd, IndexFn body, void *ud) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  LLVMValueRef ctr[LM_MAXDIM], idx[LM_MAXDIM];
  LLVMBasicBlockRef head[LM_MAXDIM], exit[LM_MAXDIM];
  for (int k = 0; k < nd; k++) {
    ctr[k] = lower_entry_alloca(L, i64, "i");
    LLVMBuildStore(L->b, lower_i64(L, 0), ctr[k]);
    head[k] = lower_block(L, "loop");
    exit[k] = lower_block(L, "loopend");
    LLVMBuildBr(L->b, head[k]);
    LLVMPositionBuilderAtEnd(L->b, head[k]);
    idx[k] = LLVMBuildLoad2(L->b, i64, ctr[k], "");
    LLVMBasicBlockRef in = lower_block(L, "loopbody");
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, idx[k], shape[k], ""), in, exit[k]);
    LLVMPositionBuilderAtEnd(L->b, in);
  }
  body(L, idx, ud);
  for (int k = nd - 1; k >= 0; k--) {
    LLVMBuildStore(L->b, LLVMBuildNSWAdd(L->b, idx[k], lower_i64(L, 1), ""), ctr[k]);
    LLVMBuildBr(L->b, head[k]);
    LLVMPositionBuilderAtEnd(L->b, exit[k]);
    if (k > 0) LLVMBuildStore(L->b, lower_i64(L, 0), ctr[k]);
  }
}

typedef struct CopyPair { Val dst, src; } CopyPair;

static void copy_one(Lower *L, LLVMValueRef *idx, void *ud) {
  CopyPair *c = ud;
  DType sd = c->src.ty->dtype, dd = c->dst.ty->dtype;
  Val x = {ty_scalar(sd), lower_load_elem(L, sd, bshape_elem_ptr(L, c->src, idx)), false};
  lower_store_elem(L, dd, bshape_elem_ptr(L, c->dst, idx), lower_cast(L, x, ty_scalar(dd)).v);
}

void bshape_copy(Lower *L, Val dst, Val src) {
  LLVMValueRef shape[LM_MAXDIM];
  for (int k = 0; k < dst.ty->ndim; k++) shape[k] = lower_arr_shape(L, dst.v, k);
  CopyPair c = {dst, src};
  bshape_loop(L, shape, dst.ty->ndim, copy_one, &c);
}

/* ---- reshape ---- */

/* the new shape's dimension nodes: a.reshape(n, m), a.reshape((n, m)), np.reshape(a, n) */
static int reshape_ndim(Infer *I, Node *n, CallInfo *ci) {
  Compile *C = I->C;
  if (ci->nargs == 0) compile_error(C, n->loc, "TypingError", "reshape() needs a shape");
  Type *t[LM_MAXDIM];
  if (ci->nargs > LM_MAXDIM) compile_error(C, n->loc, "TypingError", "arrays have at most %d dimensions", LM_MAXDIM);
  if (!infer_arg_types(I, ci->args, ci->nargs, t)) return -1;
  if (ci->nargs == 1 && t[0]->kind == TY_TUPLE) {
    for (int i = 0; i < t[0]->nelems; i++)
      if (!ty_is_int(t[0]->elems[i]))
        compile_error(C, ci->args[0]->loc, "TypingError", "shape elements must be integers, not %s", tyname(C, t[0]->elems[i]));
    if (t[0]->nelems > LM_MAXDIM) compile_error(C, n->loc, "TypingError", "arrays have at most %d dimensions", LM_MAXDIM);
    return t[0]->nelems;
  }
  for (int i = 0; i < ci->nargs; i++)
    if (!ty_is_int(t[i]))
      compile_error(C, ci->args[i]->loc, "TypingError", "reshape(): the shape must be integers or a tuple of integers, not %s",
                    tyname(C, t[i]));
  return ci->nargs;
}

Type *bview_infer_reshape(Infer *I, Node *n, CallInfo *ci, Type *a) {
  int nd = reshape_ndim(I, n, ci);
  return nd < 0 ? NULL : ty_array(&I->C->S->types, a->dtype, nd, 'C');
}

/* true when a's elements lie in row-major order without gaps (Numba's test for reshape) */
static LLVMValueRef is_c_contiguous(Lower *L, Val a) {
  LLVMValueRef ok = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 1, 0);
  LLVMValueRef want = lower_i64(L, dtype_sizes[a.ty->dtype]);
  for (int k = a.ty->ndim - 1; k >= 0; k--) {
    LLVMValueRef d = lower_arr_shape(L, a.v, k);
    LLVMValueRef good = LLVMBuildOr(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, d, lower_i64(L, 1), ""),
                                    LLVMBuildICmp(L->b, LLVMIntEQ, lower_arr_stride(L, a.v, k), want, ""), "");
    ok = LLVMBuildAnd(L->b, ok, good, "");
    want = LLVMBuildMul(L->b, want, d, "");
  }
  /* an empty array has no element out of place */
  return LLVMBuildOr(L->b, ok, LLVMBuildICmp(L->b, LLVMIntEQ, bshape_size(L, a), lower_i64(L, 0), ""), "");
}

/* a C view of the contiguous array a with dims (one of them may be -1) */
static Val reshape_to(Lower *L, Val a, Type *rt, LLVMValueRef *dims) {
  int nd = rt->ndim;
  int mark = lower_hold(L, a);
  LLVMValueRef size = bshape_size(L, a);
  if (a.ty->layout != 'C')
    lower_raise_if(L, LLVMBuildNot(L->b, is_c_contiguous(L, a), ""), LMERR_RAISE,
                   "NotImplementedError: incompatible shape for array");
  LLVMValueRef zero = lower_i64(L, 0), one = lower_i64(L, 1);
  LLVMValueRef nunk = zero, known = one;
  for (int k = 0; k < nd; k++) {
    LLVMValueRef unk = LLVMBuildICmp(L->b, LLVMIntSLT, dims[k], zero, "");
    nunk = LLVMBuildAdd(L->b, nunk, LLVMBuildZExt(L->b, unk, LLVMInt64TypeInContext(L->ctx), ""), "");
    known = LLVMBuildMul(L->b, known, LLVMBuildSelect(L->b, unk, one, dims[k], ""), "");
  }
  if (nd > 1)
    lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntSGT, nunk, one, ""), LMERR_VALUE, "can only specify one unknown dimension");
  LLVMValueRef kz = LLVMBuildICmp(L->b, LLVMIntEQ, known, zero, "");
  LLVMValueRef div = LLVMBuildSelect(L->b, kz, one, known, "");
  LLVMValueRef unknown = LLVMBuildSDiv(L->b, size, div, "");
  LLVMValueRef has_unk = LLVMBuildICmp(L->b, LLVMIntEQ, nunk, one, "");
  LLVMValueRef bad_unk = LLVMBuildOr(L->b, kz, LLVMBuildICmp(L->b, LLVMIntNE, LLVMBuildSRem(L->b, size, div, ""), zero, ""), "");
  LLVMValueRef bad = LLVMBuildSelect(L->b, has_unk, bad_unk, LLVMBuildICmp(L->b, LLVMIntNE, known, size, ""), "");
  /* NumPy's text: "cannot reshape array of size 6 into shape (4,newaxis)" */
  char fmt[128] = "cannot reshape array of size %I into shape (";
  for (int k = 0; k < nd; k++) strcat(fmt, k + 1 < nd ? "%D," : nd == 1 ? "%D," : "%D");
  strcat(fmt, ")");
  LLVMValueRef vals[LM_MAXDIM + 1] = {size};
  for (int k = 0; k < nd; k++) vals[k + 1] = dims[k];
  lower_raise_fmt_if(L, bad, fmt, vals, nd + 1);
  lower_unhold(L, mark);
  LLVMValueRef shape[LM_MAXDIM], strides[LM_MAXDIM];
  for (int k = 0; k < nd; k++) shape[k] = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, dims[k], zero, ""), unknown, dims[k], "");
  LLVMValueRef s = lower_i64(L, dtype_sizes[rt->dtype]);
  for (int k = nd - 1; k >= 0; k--) {
    strides[k] = s;
    s = LLVMBuildMul(L->b, s, shape[k], "");
  }
  return bshape_view(L, a, rt, lower_arr_data(L, a.v), shape, strides);
}

static Val lower_reshape(Lower *L, CallInfo *ci, Type *rt, Val a) {
  LLVMValueRef dims[LM_MAXDIM];
  int mark = lower_hold(L, a);  /* the shape's expressions may raise */
  Val s = lower_expr(L, ci->args[0]);
  if (s.ty->kind == TY_TUPLE) {
    for (int k = 0; k < rt->ndim; k++)
      dims[k] = lower_cast(L, (Val){s.ty->elems[k], LLVMBuildExtractValue(L->b, s.v, (unsigned)k, ""), false}, ty_int64).v;
  } else {
    dims[0] = lower_cast(L, s, ty_int64).v;
    for (int k = 1; k < rt->ndim; k++) dims[k] = lower_cast(L, lower_expr(L, ci->args[k]), ty_int64).v;
  }
  lower_unhold(L, mark);
  return reshape_to(L, a, rt, dims);
}

/* ---- ravel, flatten ---- */

Type *bview_infer_ravel(Infer *I, Node *n, CallInfo *ci, Type *a) {
  if (ci->nargs > 0)
    compile_error(I->C, n->loc, "TypingError", "%s() takes no arguments in compiled code (%d given)", ci->qname, ci->nargs);
  return ty_array(&I->C->S->types, a->dtype, 1, 'C');
}

/* a.ravel() of a C array is a view; otherwise (and flatten always) a C copy, viewed flat */
static Val lower_ravel(Lower *L, BuiltinId id, Type *rt, Val a) {
  if (id != BI_ndarray_flatten && a.ty->layout == 'C') {
    LLVMValueRef size = bshape_size(L, a), st = lower_i64(L, dtype_sizes[rt->dtype]);
    return bshape_view(L, a, rt, lower_arr_data(L, a.v), &size, &st);
  }
  Val c = lower_array_method(L, NULL, BI_ndarray_copy, a, NULL, 0);
  LLVMValueRef size = bshape_size(L, c), st = lower_i64(L, dtype_sizes[rt->dtype]);
  return bshape_view(L, c, rt, lower_arr_data(L, c.v), &size, &st);
}

/* ---- permutations of the axes: transpose(axes), swapaxes, moveaxis ---- */

static char permuted_layout(Type *a, const int64_t *perm) {
  bool same = true, reversed = true;
  for (int k = 0; k < a->ndim; k++) {
    same = same && perm[k] == k;
    reversed = reversed && perm[k] == a->ndim - 1 - k;
  }
  if (same) return a->layout;
  if (reversed) return a->layout == 'C' ? 'F' : a->layout == 'F' ? 'C' : 'A';
  return 'A';
}

/* the permutation perm (ci->dims) of a's axes: a view's type */
static Type *permuted(Infer *I, CallInfo *ci, Type *a) {
  ci->ndims = a->ndim;
  return ty_array(&I->C->S->types, a->dtype, a->ndim, permuted_layout(a, ci->dims));
}

/* transpose's axes: a.transpose(1, 0, 2), a.transpose((1, 0, 2)), axes=(1, 0); NULL-free nodes */
Type *bview_infer_axes(Infer *I, Node *at, Node **axes, int naxes, CallInfo *ci, Type *a) {
  Compile *C = I->C;
  if (naxes == 1 && (axes[0]->kind == ND_Tuple || axes[0]->kind == ND_List)) {
    at = axes[0];
    naxes = at->elts.len;
    axes = at->elts.items;
  }
  if (naxes == 0) {  /* a.T */
    for (int k = 0; k < a->ndim; k++) ci->dims[k] = a->ndim - 1 - k;
    return permuted(I, ci, a);
  }
  if (naxes != a->ndim) compile_error(C, at->loc, "TypingError", "transpose(): axes don't match array");
  bool seen[LM_MAXDIM] = {0};
  for (int k = 0; k < naxes; k++) {
    int64_t v;
    if (!bshape_static_int(I, axes[k], &v))
      compile_error(C, axes[k]->loc, "TypingError", "transpose(): the axes must be constant integers in compiled code");
    int ax = bshape_axis(I, axes[k], v, a->ndim);
    if (seen[ax]) compile_error(C, axes[k]->loc, "TypingError", "transpose(): repeated axis in transpose");
    seen[ax] = true;
    ci->dims[k] = ax;
  }
  return permuted(I, ci, a);
}

static Val lower_permute(Lower *L, CallInfo *ci, Type *rt, Val a) {
  LLVMValueRef shape[LM_MAXDIM], strides[LM_MAXDIM];
  for (int k = 0; k < rt->ndim; k++) {
    shape[k] = lower_arr_shape(L, a.v, (int)ci->dims[k]);
    strides[k] = lower_arr_stride(L, a.v, (int)ci->dims[k]);
  }
  return bshape_view(L, a, rt, lower_arr_data(L, a.v), shape, strides);
}

/* ---- the functions' typing: np.f(a, ...) with keywords ---- */

/* a FUNC row's CallInfo: recv the array (argument 0 or keyword kw0), the rest placed by the caller */
static CallInfo *func_info(Infer *I, Node *n, const BuiltinName *nm, const char *kw0, Type **a) {
  const Builtin *b = builtin_of(nm);
  infer_only_keywords(I, n, b->member, b->keywords);
  if (n->args.len > b->hi) compile_error(I->C, n->loc, "TypingError", "%s() takes at most %d arguments", b->member, b->hi);
  CallInfo *ci = infer_new_info(I, n, CALL_BUILTIN, b->name);
  ci->bi = nm->id;
  ci->recv = infer_arg_or_kw(n, 0, kw0);
  if (ci->recv == NULL) compile_error(I->C, n->loc, "TypingError", "%s() missing its array argument", b->member);
  ci->nargs = 0;
  *a = bshape_array_arg(I, ci->recv, b->member);
  return ci;
}

static Node *need_arg(Infer *I, Node *n, int pos, const char *kw, const char *fname) {
  Node *x = infer_arg_or_kw(n, pos, kw);
  if (x == NULL) compile_error(I->C, n->loc, "TypingError", "%s() missing required argument '%s'", fname, kw);
  return x;
}

static int static_arg(Infer *I, Node *x, const char *fname, const char *what) {
  int64_t v;
  if (!bshape_static_int(I, x, &v))
    compile_error(I->C, x->loc, "TypingError", "%s(): %s must be a constant integer in compiled code", fname, what);
  return (int)v;
}

static void perm_swap(CallInfo *ci, int nd, int i, int j) {
  for (int k = 0; k < nd; k++) ci->dims[k] = k;
  ci->dims[i] = j;
  ci->dims[j] = i;
}

Type *bview_infer_swapaxes(Infer *I, Node *n, CallInfo *ci, Type *a) {
  if (ci->nargs != 2) compile_error(I->C, n->loc, "TypingError", "swapaxes() takes 2 arguments (%d given)", ci->nargs);
  int i = bshape_axis(I, ci->args[0], static_arg(I, ci->args[0], "swapaxes", "axis1"), a->ndim);
  int j = bshape_axis(I, ci->args[1], static_arg(I, ci->args[1], "swapaxes", "axis2"), a->ndim);
  perm_swap(ci, a->ndim, i, j);
  return permuted(I, ci, a);
}

/* one FUNC typing hook for the view functions; the lowering reads ci->bi */
Type *bview_infer_func(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  const char *f = builtin_of(nm)->member;
  Type *a;
  CallInfo *ci = func_info(I, n, nm, "a", &a);
  Node **one = arena_alloc(C->A, sizeof(Node *));
  switch (nm->id) {
    case BI_numpy_reshape: {
      Node *s = need_arg(I, n, 1, "newshape", f);
      ci->args = arena_alloc(C->A, sizeof(Node *));
      ci->args[0] = s;
      ci->nargs = 1;
      if (a == NULL) { infer_expr(I, s); return NULL; }
      return bview_infer_reshape(I, n, ci, a);
    }
    case BI_numpy_ravel:
      return a ? ty_array(&C->S->types, a->dtype, 1, 'C') : NULL;
    case BI_numpy_transpose: {
      Node *ax = infer_arg_or_kw(n, 1, "axes");
      if (a == NULL) return NULL;
      if (ax && !(ax->kind == ND_Tuple || ax->kind == ND_List))
        compile_error(C, ax->loc, "TypingError", "transpose(): axes must be a tuple of constant integers in compiled code");
      one[0] = ax;
      return bview_infer_axes(I, ax ? ax : n, one, ax ? 1 : 0, ci, a);
    }
    case BI_numpy_swapaxes: {
      Node *x = need_arg(I, n, 1, "axis1", f), *y = need_arg(I, n, 2, "axis2", f);
      if (a == NULL) return NULL;
      int i = bshape_axis(I, x, static_arg(I, x, f, "axis1"), a->ndim);
      int j = bshape_axis(I, y, static_arg(I, y, f, "axis2"), a->ndim);
      perm_swap(ci, a->ndim, i, j);
      return permuted(I, ci, a);
    }
    case BI_numpy_moveaxis: {
      Node *x = need_arg(I, n, 1, "source", f), *y = need_arg(I, n, 2, "destination", f);
      if (a == NULL) return NULL;
      int s = bshape_axis(I, x, static_arg(I, x, f, "source"), a->ndim);
      int d = bshape_axis(I, y, static_arg(I, y, f, "destination"), a->ndim);
      /* the other axes keep their order; source goes to destination */
      int j = 0;
      for (int k = 0; k < a->ndim; k++) {
        if (k == d) ci->dims[k] = s;
        else {
          if (j == s) j++;
          ci->dims[k] = j++;
        }
      }
      return permuted(I, ci, a);
    }
    case BI_numpy_expand_dims: {
      Node *x = need_arg(I, n, 1, "axis", f);
      if (a == NULL) return NULL;
      if (a->ndim + 1 > LM_MAXDIM) compile_error(C, n->loc, "TypingError", "arrays have at most %d dimensions", LM_MAXDIM);
      int ax = bshape_axis(I, x, static_arg(I, x, f, "axis"), a->ndim + 1);
      memset(ci->dims, 0, sizeof ci->dims);
      ci->dims[ax] = 1;
      ci->ndims = a->ndim + 1;
      return ty_array(&C->S->types, a->dtype, a->ndim + 1, a->layout);
    }
    case BI_numpy_squeeze: {
      Node *x = infer_arg_or_kw(n, 1, "axis");
      if (a == NULL) return NULL;
      if (x == NULL)
        compile_error(C, n->loc, "TypingError",
                      "squeeze() needs axis= in compiled code: without it the result's number of dimensions depends on the shape");
      ci->dims[0] = bshape_axis(I, x, static_arg(I, x, f, "axis"), a->ndim);
      return ty_array(&C->S->types, a->dtype, a->ndim - 1, a->layout);
    }
    case BI_numpy_broadcast_to: {
      Node *s = need_arg(I, n, 1, "shape", f);
      Type *st = infer_expr(I, s);
      if (a == NULL || st == NULL) return NULL;
      int nd = 1;
      if (st->kind == TY_TUPLE) {
        nd = st->nelems;
        for (int i = 0; i < nd; i++)
          if (!ty_is_int(st->elems[i])) compile_error(C, s->loc, "TypingError", "shape elements must be integers");
      } else if (!ty_is_int(st)) {
        compile_error(C, s->loc, "TypingError", "broadcast_to(): the shape must be an integer or a tuple of integers");
      }
      if (nd > LM_MAXDIM) compile_error(C, s->loc, "TypingError", "arrays have at most %d dimensions", LM_MAXDIM);
      if (nd < a->ndim)
        compile_error(C, s->loc, "TypingError", "broadcast_to(): input operand has more dimensions than allowed by the axis remapping");
      ci->args = arena_alloc(C->A, sizeof(Node *));
      ci->args[0] = s;
      ci->nargs = 1;
      return ty_array(&C->S->types, a->dtype, nd, 'A');
    }
    case BI_numpy_atleast_1d: case BI_numpy_atleast_2d: case BI_numpy_atleast_3d: {
      if (a == NULL) return NULL;
      int want = nm->id == BI_numpy_atleast_1d ? 1 : nm->id == BI_numpy_atleast_2d ? 2 : 3;
      int nd = a->ndim < want ? want : a->ndim;
      /* NumPy's placement: 0-d → (1,...), 1-d (n) → (1, n) or (1, n, 1), 2-d → (m, n, 1) */
      memset(ci->dims, 0, sizeof ci->dims);
      if (a->ndim < want) {
        if (a->ndim == 0) for (int k = 0; k < want; k++) ci->dims[k] = 1;
        else if (a->ndim == 1) { ci->dims[0] = 1; if (want == 3) ci->dims[2] = 1; }
        else ci->dims[2] = 1;
      }
      ci->ndims = nd;
      return ty_array(&C->S->types, a->dtype, nd, a->layout);
    }
    case BI_numpy_flip: case BI_numpy_fliplr: case BI_numpy_flipud: {
      if (a == NULL) return NULL;
      memset(ci->dims, 0, sizeof ci->dims);
      if (nm->id == BI_numpy_flip) {
        Node *x = infer_arg_or_kw(n, 1, "axis");
        if (x) ci->dims[bshape_axis(I, x, static_arg(I, x, f, "axis"), a->ndim)] = 1;
        else for (int k = 0; k < a->ndim; k++) ci->dims[k] = 1;
      } else {
        int need = nm->id == BI_numpy_fliplr ? 2 : 1;
        if (a->ndim < need)
          compile_error(C, n->loc, "TypingError", "%s(): Input must be >= %d-d.", f, need);
        ci->dims[need - 1] = 1;
      }
      return ty_array(&C->S->types, a->dtype, a->ndim, 'A');
    }
    default: LM_UNREACHABLE();
  }
}

/* ---- lowering of the rest ---- */

static Val lower_squeeze(Lower *L, CallInfo *ci, Type *rt, Val a) {
  int ax = (int)ci->dims[0];
  int mark = lower_hold(L, a);
  lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntNE, lower_arr_shape(L, a.v, ax), lower_i64(L, 1), ""), LMERR_VALUE,
                 "cannot select an axis to squeeze out which has size not equal to one");
  lower_unhold(L, mark);
  LLVMValueRef shape[LM_MAXDIM], strides[LM_MAXDIM];
  for (int k = 0, j = 0; k < a.ty->ndim; k++) {
    if (k == ax) continue;
    shape[j] = lower_arr_shape(L, a.v, k);
    strides[j++] = lower_arr_stride(L, a.v, k);
  }
  return bshape_view(L, a, rt, lower_arr_data(L, a.v), shape, strides);
}

static Val lower_broadcast_to(Lower *L, CallInfo *ci, Type *rt, Val a) {
  int nd = rt->ndim, off = nd - a.ty->ndim;
  int mark = lower_hold(L, a);
  Val s = lower_expr(L, ci->args[0]);
  LLVMValueRef shape[LM_MAXDIM], strides[LM_MAXDIM];
  for (int k = 0; k < nd; k++)
    shape[k] = s.ty->kind == TY_TUPLE
                   ? lower_cast(L, (Val){s.ty->elems[k], LLVMBuildExtractValue(L->b, s.v, (unsigned)k, ""), false}, ty_int64).v
                   : lower_cast(L, s, ty_int64).v;
  LLVMValueRef bad = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0);
  for (int k = 0; k < nd; k++) {
    bad = LLVMBuildOr(L->b, bad, LLVMBuildICmp(L->b, LLVMIntSLT, shape[k], lower_i64(L, 0), ""), "");
    if (k < off) { strides[k] = lower_i64(L, 0); continue; }
    LLVMValueRef d = lower_arr_shape(L, a.v, k - off);
    LLVMValueRef one = LLVMBuildICmp(L->b, LLVMIntEQ, d, lower_i64(L, 1), "");
    bad = LLVMBuildOr(L->b, bad, LLVMBuildAnd(L->b, LLVMBuildNot(L->b, one, ""), LLVMBuildICmp(L->b, LLVMIntNE, d, shape[k], ""), ""), "");
    strides[k] = LLVMBuildSelect(L->b, one, lower_i64(L, 0), lower_arr_stride(L, a.v, k - off), "");
  }
  /* NumPy's text: "... [original->remapped]: (2,3)  and requested shape (4,2,2)" */
  char fmt[256] = "operands could not be broadcast together with remapped shapes [original->remapped]: (";
  LLVMValueRef vals[2 * LM_MAXDIM];
  int nv = 0;
  if (a.ty->ndim + nd <= LM_MAXDIM + 2) {
    for (int k = 0; k < a.ty->ndim; k++) {
      strcat(fmt, k + 1 < a.ty->ndim || a.ty->ndim == 1 ? "%I," : "%I");
      vals[nv++] = lower_arr_shape(L, a.v, k);
    }
    strcat(fmt, ")  and requested shape (");
    for (int k = 0; k < nd; k++) {
      strcat(fmt, k + 1 < nd || nd == 1 ? "%I," : "%I");
      vals[nv++] = shape[k];
    }
    strcat(fmt, ")");
    lower_raise_fmt_if(L, bad, fmt, vals, nv);
  } else {
    lower_raise_if(L, bad, LMERR_VALUE, "operands could not be broadcast together with the requested shape");
  }
  lower_unhold(L, mark);
  return bshape_view(L, a, rt, lower_arr_data(L, a.v), shape, strides);
}

static Val lower_flip(Lower *L, CallInfo *ci, Type *rt, Val a) {
  LLVMValueRef shape[LM_MAXDIM], strides[LM_MAXDIM], off = lower_i64(L, 0);
  for (int k = 0; k < rt->ndim; k++) {
    shape[k] = lower_arr_shape(L, a.v, k);
    strides[k] = lower_arr_stride(L, a.v, k);
    if (!ci->dims[k]) continue;
    /* start at the last element (the first when empty), walk backwards */
    LLVMValueRef last = LLVMBuildSub(L->b, shape[k], lower_i64(L, 1), "");
    last = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, last, lower_i64(L, 0), ""), lower_i64(L, 0), last, "");
    off = LLVMBuildAdd(L->b, off, LLVMBuildMul(L->b, last, strides[k], ""), "");
    strides[k] = LLVMBuildNeg(L->b, strides[k], "");
  }
  return bshape_view(L, a, rt, offset_ptr(L, lower_arr_data(L, a.v), off, rt->dtype), shape, strides);
}

static Val view_core(Lower *L, Node *n, CallInfo *ci, Val a) {
  Type *rt = lower_ann(L, n)->ty;
  switch (ci->bi) {
    case BI_ndarray_reshape: case BI_numpy_reshape: return lower_reshape(L, ci, rt, a);
    case BI_ndarray_ravel: case BI_ndarray_flatten: case BI_numpy_ravel: return lower_ravel(L, ci->bi, rt, a);
    case BI_ndarray_transpose: case BI_ndarray_swapaxes: case BI_numpy_swapaxes: case BI_numpy_moveaxis: case BI_numpy_transpose:
      return lower_permute(L, ci, rt, a);
    case BI_numpy_expand_dims: case BI_numpy_atleast_1d: case BI_numpy_atleast_2d: case BI_numpy_atleast_3d: {
      bool nw[LM_MAXDIM];
      for (int k = 0; k < rt->ndim; k++) nw[k] = ci->dims[k] != 0;
      return bshape_expand(L, a, rt, nw);
    }
    case BI_ndarray_squeeze: case BI_numpy_squeeze: return lower_squeeze(L, ci, rt, a);
    case BI_numpy_broadcast_to: return lower_broadcast_to(L, ci, rt, a);
    case BI_numpy_flip: case BI_numpy_fliplr: case BI_numpy_flipud: return lower_flip(L, ci, rt, a);
    default: LM_UNREACHABLE();
  }
}

Val bview_lower_func(Lower *L, Node *n, CallInfo *ci) { return view_core(L, n, ci, lower_expr(L, ci->recv)); }

Val bview_lower_method(Lower *L, Node *n, BuiltinId id, Val a, Node **args, int nargs) {
  (void)id;
  (void)args;
  (void)nargs;
  return view_core(L, n, lower_ann(L, n)->aux, a);
}

Type *bview_infer_squeeze(Infer *I, Node *n, CallInfo *ci, Type *a) {
  if (ci->nargs != 1)
    compile_error(I->C, n->loc, "TypingError",
                  "squeeze() needs its axis in compiled code: without it the result's number of dimensions depends on the shape");
  ci->dims[0] = bshape_axis(I, ci->args[0], static_arg(I, ci->args[0], "squeeze", "axis"), a->ndim);
  return ty_array(&I->C->S->types, a->dtype, a->ndim - 1, a->layout);
}
