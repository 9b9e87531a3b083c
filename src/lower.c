/*
** lower.c — lowering of typed specializations to LLVM IR: types, the
** function frame (locals, cleanup path, status), errors, and the wrapper
** the dispatcher calls.
*/
#include <string.h>

#include "lower.h"
#include "lower_complex.h"

LLVMValueRef lower_i64(Lower *L, int64_t v) {
  return LLVMConstInt(LLVMInt64TypeInContext(L->ctx), (unsigned long long)v, 1);
}

LLVMValueRef lower_i32(Lower *L, int32_t v) {
  return LLVMConstInt(LLVMInt32TypeInContext(L->ctx), (unsigned long long)(int64_t)v, 1);
}

LLVMTypeRef lower_mem_type(Lower *L, DType dt) {
  switch (dt) {
    case DT_BOOL: case DT_INT8: case DT_UINT8: return LLVMInt8TypeInContext(L->ctx);
    case DT_INT16: case DT_UINT16: return LLVMInt16TypeInContext(L->ctx);
    case DT_INT32: case DT_UINT32: return LLVMInt32TypeInContext(L->ctx);
    case DT_INT64: case DT_UINT64: return LLVMInt64TypeInContext(L->ctx);
    case DT_FLOAT32: return LLVMFloatTypeInContext(L->ctx);
    case DT_FLOAT64: return LLVMDoubleTypeInContext(L->ctx);
    case DT_FLOAT16: return LLVMHalfTypeInContext(L->ctx);  /* kernels compute in half, as numba-cuda */
    case DT_COMPLEX64: case DT_COMPLEX128: {  /* Numba's {real, imag} struct */
      LLVMTypeRef f = dt == DT_COMPLEX64 ? LLVMFloatTypeInContext(L->ctx) : LLVMDoubleTypeInContext(L->ctx);
      LLVMTypeRef el[2] = {f, f};
      return LLVMStructTypeInContext(L->ctx, el, 2, 0);
    }
    default:  /* a record: its bytes */
      LM_ASSERT(dtype_is_record(dt));
      return LLVMArrayType(LLVMInt8TypeInContext(L->ctx), (unsigned)dtype_sizes[dt]);
  }
}

LLVMTypeRef lower_type(Lower *L, Type *t) {
  switch (t->kind) {
    case TY_NONE: case TY_DTYPE: case TY_OPAQUE: return LLVMInt8TypeInContext(L->ctx);
    case TY_CPTR: return LLVMInt64TypeInContext(L->ctx);  /* an address: carray() makes it an array */
    case TY_CLASS: return LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);  /* the instance's MemInfo */
    case TY_OPTIONAL: {  /* the number, and whether it is set (0: None) */
      LLVMTypeRef el[2] = {lower_type(L, ty_scalar(t->dtype)), LLVMInt1TypeInContext(L->ctx)};
      return LLVMStructTypeInContext(L->ctx, el, 2, 0);
    }
    case TY_RECORD: return LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);  /* the element it views */
    case TY_SCALAR: return t->dtype == DT_BOOL ? LLVMInt1TypeInContext(L->ctx) : lower_mem_type(L, t->dtype);
    case TY_ARRAY: {
      LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
      LLVMTypeRef f[4] = {LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0),
                          LLVMPointerType(lower_mem_type(L, t->dtype), 0), LLVMArrayType(i64, (unsigned)t->ndim),
                          LLVMArrayType(i64, (unsigned)t->ndim)};
      return LLVMStructTypeInContext(L->ctx, f, 4, 0);
    }
    case TY_TUPLE: {
      LLVMTypeRef f[LM_MAXARGS];
      for (int i = 0; i < t->nelems; i++) f[i] = lower_type(L, t->elems[i]);
      return LLVMStructTypeInContext(L->ctx, f, (unsigned)t->nelems, 0);
    }
  }
  LM_UNREACHABLE();
}

LLVMTypeRef lower_err_type(LLVMContextRef ctx) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
  LLVMTypeRef shp = LLVMArrayType(LLVMArrayType(i64, LM_MAXDIM), LMERR_NSHAPES);
  LLVMTypeRef str = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
  LLVMTypeRef f[11] = {i32, i32, i64, i64, str, i64, LLVMArrayType(i32, LMERR_NSHAPES), i32, shp,
                       LLVMArrayType(i64, LM_MAXDIM + 2), str};
  return LLVMStructTypeInContext(ctx, f, 11, 0);
}

LLVMBasicBlockRef lower_block(Lower *L, const char *name) {
  return LLVMAppendBasicBlockInContext(L->ctx, L->fn, name);
}

bool lower_terminated(Lower *L) {
  return LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(L->b)) != NULL;
}

LLVMValueRef lower_entry_alloca(Lower *L, LLVMTypeRef t, const char *name) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(L->ctx);
  LLVMValueRef first = LLVMGetFirstInstruction(L->entry);
  if (first) LLVMPositionBuilderBefore(b, first);
  else LLVMPositionBuilderAtEnd(b, L->entry);
  LLVMValueRef a = LLVMBuildAlloca(b, t, name);
  LLVMDisposeBuilder(b);
  return a;
}

LLVMValueRef lower_intrinsic(Lower *L, const char *name, LLVMTypeRef *tys, int ntys, LLVMValueRef *args, int n) {
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  LM_ASSERT(id != 0);
  LLVMValueRef f = LLVMGetIntrinsicDeclaration(L->C->mod, id, tys, (size_t)ntys);
  LLVMTypeRef ft = LLVMIntrinsicGetType(L->ctx, id, tys, (size_t)ntys);
  return LLVMBuildCall2(L->b, ft, f, args, (unsigned)n, "");
}

/* a float math function by its C name (fabs, floor, rint, copysign...): an
** LLVM intrinsic on the CPU, libdevice on the GPU (libNVVM rejects some
** intrinsics, llvm.fabs.f64 among them) */
LLVMValueRef lower_fmath(Lower *L, const char *base, LLVMValueRef *args, int n) {
  char intr[32];
  snprintf(intr, sizeof intr, "llvm.%s", base);
  if (LLVMGetTypeKind(LLVMTypeOf(args[0])) == LLVMHalfTypeKind) {  /* float16: in float32, rounded back */
    LLVMTypeRef f32t = LLVMFloatTypeInContext(L->ctx);
    LLVMValueRef w[4];
    for (int i = 0; i < n && i < 4; i++)
      w[i] = LLVMGetTypeKind(LLVMTypeOf(args[i])) == LLVMHalfTypeKind ? LLVMBuildFPExt(L->b, args[i], f32t, "") : args[i];
    LLVMValueRef r = L->C->target->math_call(L, base, intr, w, n, true);
    return LLVMTypeOf(r) == f32t ? LLVMBuildFPTrunc(L->b, r, LLVMTypeOf(args[0]), "") : r;
  }
  bool f32 = LLVMGetTypeKind(LLVMTypeOf(args[0])) == LLVMFloatTypeKind;
  return L->C->target->math_call(L, base, intr, args, n, f32);
}

LLVMValueRef lower_rt_fn(Lower *L, const char *name, LLVMTypeRef ret, LLVMTypeRef *params, int n) {
  LLVMValueRef f = LLVMGetNamedFunction(L->C->mod, name);
  if (f) return f;
  return LLVMAddFunction(L->C->mod, name, LLVMFunctionType(ret, params, (unsigned)n, 0));
}

static LLVMTypeRef i8p(Lower *L) {
  return LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
}

/* ---- reference counts (Numba's NRT: every owned array value is +1) ---- */

static void refcall(Lower *L, const char *fname, LLVMValueRef mi) {
  LLVMTypeRef p = i8p(L);
  LLVMValueRef f = lower_rt_fn(L, fname, LLVMVoidTypeInContext(L->ctx), &p, 1);
  LLVMBuildCall2(L->b, LLVMGlobalGetValueType(f), f, &mi, 1, "");
}

static void walk_refs(Lower *L, Type *t, LLVMValueRef v, const char *fname) {
  if (t->kind == TY_ARRAY) refcall(L, fname, LLVMBuildExtractValue(L->b, v, 0, "mi"));
  else if (t->kind == TY_CLASS) refcall(L, fname, v);
  else if (t->kind == TY_TUPLE)
    for (int i = 0; i < t->nelems; i++)
      walk_refs(L, t->elems[i], LLVMBuildExtractValue(L->b, v, (unsigned)i, ""), fname);
}

static bool has_arrays(Type *t) {
  if (t->kind == TY_ARRAY || t->kind == TY_CLASS) return true;  /* what holds references */
  if (t->kind == TY_TUPLE)
    for (int i = 0; i < t->nelems; i++)
      if (has_arrays(t->elems[i])) return true;
  return false;
}

void lower_incref(Lower *L, Val v) {
  if (L->refcount && has_arrays(v.ty)) walk_refs(L, v.ty, v.v, "nrt_incref");
}

void lower_decref(Lower *L, Val v) {
  if (L->refcount && has_arrays(v.ty)) walk_refs(L, v.ty, v.v, "nrt_decref");
}

void lower_release(Lower *L, Val v) {
  if (v.owned) lower_decref(L, v);
}

/* ---- temporaries held across code that may raise ---- */

int lower_hold(Lower *L, Val v) {
  int mark = L->nheld;
  if (!v.owned || !L->refcount || !has_arrays(v.ty)) return mark;
  if (L->nheld == L->capheld) {
    int cap = L->capheld ? 2 * L->capheld : 8;
    Val *p = arena_alloc(L->C->A, sizeof *p * (size_t)cap);
    if (L->nheld) memcpy(p, L->held, sizeof *p * (size_t)L->nheld);
    L->held = p;
    L->capheld = cap;
  }
  L->held[L->nheld++] = v;
  return mark;
}

void lower_unhold(Lower *L, int mark) {
  LM_ASSERT(mark <= L->nheld);
  L->nheld = mark;
}

/* on a raise path: the held temporaries are released (the path leaves for
** cleanup, which releases the locals, and never comes back to their owners) */
void lower_release_held(Lower *L) {
  for (int i = 0; i < L->nheld; i++) lower_decref(L, L->held[i]);
}

/* ---- errors ---- */

/* a traceback line for loc: "\n<chunk>:<line>:<col>: in <function>\n    <its source line>" */
const char *lower_where(Lower *L, Loc loc) {
  const Source *src = loc.src;
  const char *chunk = src && src->chunk ? src->chunk : "?";
  if (chunk[0] == '=' || chunk[0] == '@') chunk++;
  char head[300];
  snprintf(head, sizeof head, "\n%s:%d:%d: in %s", chunk, loc.line, loc.col + 1, L->spec->def->name);
  const char *line = NULL;
  size_t len = 0;
  if (src && src->text) {
    line = src->text;
    for (int k = 1; k < loc.line && line; k++) {
      line = strchr(line, '\n');
      if (line) line++;
    }
    if (line) {
      while (*line == ' ' || *line == '\t') line++;
      len = strcspn(line, "\r\n");
    }
  }
  size_t n = strlen(head) + len + 10;
  char *out = arena_alloc(L->C->A, n);
  snprintf(out, n, "%s%s%.*s", head, len ? "\n    " : "", (int)len, line ? line : "");
  return out;
}


#define ERR_WHERE 10  /* LmErr.where */

/* the traceback line of the statement being lowered, a constant string
** (one per statement, shared by its raise paths); NULL on the GPU unless
** the kernel reports its exceptions (debug=True) */
static LLVMValueRef where_text(Lower *L) {
  if ((L->C->target->gpu && !L->C->opt.debug) || L->stmt == NULL) return NULL;
  if (L->where_of != L->stmt) {
    const char *text;
    if (L->C->opt.lua) {
      /* Lua's form, a prefix the dispatcher puts first: "script.lua:12: " */
      const Source *src = L->stmt->loc.src;
      const char *chunk = src && src->chunk ? src->chunk : "?";
      if (chunk[0] == '=' || chunk[0] == '@') chunk++;
      size_t n = strlen(chunk) + 24;
      char *t = arena_alloc(L->C->A, n);
      snprintf(t, n, "%s:%d: ", chunk, L->stmt->loc.line);
      text = t;
    } else {
      text = lower_where(L, L->stmt->loc);
    }
    L->where = LLVMBuildGlobalStringPtr(L->b, text, "where");
    L->where_of = L->stmt;
  }
  return L->where;
}

/* an error raised here: its traceback line (error() and assert in Lua
** syntax carry their position in the message already, as in Lua) */
static void set_where(Lower *L, LmErrKind kind) {
  if (L->C->opt.lua && kind == LMERR_RAISE) return;
  LLVMValueRef w = where_text(L);
  if (w) LLVMBuildStore(L->b, w, LLVMBuildStructGEP2(L->b, lower_err_type(L->ctx), L->err, ERR_WHERE, ""));
}

void lower_note_where(Lower *L, bool replace) {
  LLVMValueRef w = where_text(L);
  if (w == NULL) return;
  LLVMTypeRef pt = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
  LLVMValueRef slot = LLVMBuildStructGEP2(L->b, lower_err_type(L->ctx), L->err, ERR_WHERE, "");
  if (!replace) {
    LLVMValueRef cur = LLVMBuildLoad2(L->b, pt, slot, "");
    w = LLVMBuildSelect(L->b, LLVMBuildIsNull(L->b, cur, ""), w, cur, "");
  }
  LLVMBuildStore(L->b, w, slot);
}

static void set_err(Lower *L, LmErrKind kind, const char *msg) {
  LLVMTypeRef et = lower_err_type(L->ctx);
  LLVMBuildStore(L->b, lower_i32(L, kind), LLVMBuildStructGEP2(L->b, et, L->err, 0, ""));
  if (msg && (!L->C->target->gpu || L->C->opt.debug)) {  /* a debug kernel reports it (tgpu_report_exception) */
    LLVMValueRef s = LLVMBuildGlobalStringPtr(L->b, msg, "msg");
    LLVMBuildStore(L->b, s, LLVMBuildStructGEP2(L->b, et, L->err, 4, ""));
  }
  /* the shape errors of array expressions name their expression in msg */
  if (kind != LMERR_SHAPES) set_where(L, kind);
  LLVMBuildStore(L->b, lower_i32(L, kind), L->status);
}

void lower_raise_if(Lower *L, LLVMValueRef cond, LmErrKind kind, const char *msg) {
  LLVMBasicBlockRef bad = lower_block(L, "raise"), ok = lower_block(L, "ok");
  /* errors are unlikely: tell the CPU's optimiser (libNVVM is kept to what it accepts) */
  LLVMValueRef expect = L->C->target->gpu ? cond
                      : lower_intrinsic(L, "llvm.expect", (LLVMTypeRef[]){LLVMInt1TypeInContext(L->ctx)}, 1,
                                        (LLVMValueRef[]){cond, LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0)}, 2);
  LLVMBuildCondBr(L->b, expect, bad, ok);
  LLVMPositionBuilderAtEnd(L->b, bad);
  set_err(L, kind, msg);
  lower_release_held(L);
  LLVMBuildBr(L->b, L->cleanup);
  LLVMPositionBuilderAtEnd(L->b, ok);
}

/* a ValueError whose text names numbers known only at run time: fmt's %I's, vals in order */
void lower_raise_fmt_if(Lower *L, LLVMValueRef cond, const char *fmt, LLVMValueRef *vals, int nvals) {
  LM_ASSERT(nvals <= LM_MAXDIM + 2);
  LLVMBasicBlockRef bad = lower_block(L, "raise"), ok = lower_block(L, "ok");
  LLVMBuildCondBr(L->b, cond, bad, ok);
  LLVMPositionBuilderAtEnd(L->b, bad);
  LLVMTypeRef et = lower_err_type(L->ctx);
  LLVMValueRef arr = LLVMBuildStructGEP2(L->b, et, L->err, 9, "");  /* vals */
  for (int i = 0; i < nvals; i++) {
    LLVMValueRef ix[2] = {lower_i64(L, 0), lower_i64(L, i)};
    LLVMBuildStore(L->b, vals[i], LLVMBuildInBoundsGEP2(L->b, LLVMArrayType(LLVMInt64TypeInContext(L->ctx), LM_MAXDIM + 2), arr, ix, 2, ""));
  }
  set_err(L, LMERR_VALUE_FMT, fmt);
  lower_release_held(L);
  LLVMBuildBr(L->b, L->cleanup);
  LLVMPositionBuilderAtEnd(L->b, ok);
}

void lower_index_error_if(Lower *L, LLVMValueRef cond, LLVMValueRef index, int axis, LLVMValueRef size) {
  LLVMBasicBlockRef bad = lower_block(L, "oob"), ok = lower_block(L, "inb");
  LLVMBuildCondBr(L->b, cond, bad, ok);
  LLVMPositionBuilderAtEnd(L->b, bad);
  LLVMTypeRef et = lower_err_type(L->ctx);
  LLVMBuildStore(L->b, lower_i32(L, axis), LLVMBuildStructGEP2(L->b, et, L->err, 1, ""));
  LLVMBuildStore(L->b, index, LLVMBuildStructGEP2(L->b, et, L->err, 2, ""));
  LLVMBuildStore(L->b, size, LLVMBuildStructGEP2(L->b, et, L->err, 3, ""));
  set_err(L, LMERR_INDEX, NULL);
  lower_release_held(L);
  LLVMBuildBr(L->b, L->cleanup);
  LLVMPositionBuilderAtEnd(L->b, ok);
}

/* a ValueError naming shapes (rt.h's LMERR_SHAPES): shape k has ndims[k] axes, shapes[k][0..] */
void lower_shape_error_if(Lower *L, LLVMValueRef cond, const char *msg, int n, const int *ndims,
                          LLVMValueRef (*shapes)[LM_MAXDIM]) {
  LM_ASSERT(n <= LMERR_NSHAPES);
  LLVMBasicBlockRef bad = lower_block(L, "badshape"), ok = lower_block(L, "shapeok");
  LLVMValueRef expect = lower_intrinsic(L, "llvm.expect", (LLVMTypeRef[]){LLVMInt1TypeInContext(L->ctx)}, 1,
                                        (LLVMValueRef[]){cond, LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0)}, 2);
  LLVMBuildCondBr(L->b, expect, bad, ok);
  LLVMPositionBuilderAtEnd(L->b, bad);
  LLVMTypeRef et = lower_err_type(L->ctx);
  for (int k = 0; k < n; k++) {
    LLVMValueRef ix[3] = {lower_i32(L, 0), lower_i32(L, 6), lower_i32(L, k)};
    LLVMBuildStore(L->b, lower_i32(L, ndims[k]), LLVMBuildInBoundsGEP2(L->b, et, L->err, ix, 3, ""));
    for (int j = 0; j < ndims[k]; j++) {
      LLVMValueRef sx[4] = {lower_i32(L, 0), lower_i32(L, 8), lower_i32(L, k), lower_i32(L, j)};
      LLVMBuildStore(L->b, shapes[k][j], LLVMBuildInBoundsGEP2(L->b, et, L->err, sx, 4, ""));
    }
  }
  set_err(L, LMERR_SHAPES, msg);
  lower_release_held(L);
  LLVMBuildBr(L->b, L->cleanup);
  LLVMPositionBuilderAtEnd(L->b, ok);
}

/* ---- the inner function of a specialization ---- */

/* parameter LLVM types: arrays are flattened to meminfo, data, shape..., strides... */
static int param_types(Lower *L, FuncSpec *spec, LLVMTypeRef *out) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  int n = 0;
  out[n++] = LLVMPointerType(lower_err_type(L->ctx), 0);
  out[n++] = LLVMPointerType(lower_type(L, spec->ret), 0);
  for (int i = 0; i < spec->nargs; i++) {
    Type *t = spec->argtypes[i];
    if (t->kind == TY_ARRAY) {
      out[n++] = i8p(L);
      out[n++] = LLVMPointerType(lower_mem_type(L, t->dtype), 0);
      for (int k = 0; k < 2 * t->ndim; k++) out[n++] = i64;
    } else {
      out[n++] = lower_type(L, t);
    }
  }
  return n;
}

static void declare_spec(Lower *L, FuncSpec *spec) {
  LLVMTypeRef params[4 * LM_MAXARGS + 2 * LM_MAXDIM * LM_MAXARGS];
  int n = param_types(L, spec, params);
  spec->fnty = LLVMFunctionType(LLVMInt32TypeInContext(L->ctx), params, (unsigned)n, 0);
  char name[256];
  if (L->C->symtag)  /* from the content key: the same in every process (cache.h) */
    snprintf(name, sizeof name, "%s__%.16s_%d", spec->def->name, L->C->symtag, ++L->C->nsyms);
  else
    snprintf(name, sizeof name, "%s__%lld", spec->def->name, (long long)++L->C->S->counter);
  spec->symbol = arena_strdup(L->C->A, name);
  spec->fn = LLVMAddFunction(L->C->mod, name, spec->fnty);
  /* the error record and the result slot are the callee's alone; array data
  ** may alias (f(a, a) is legal, as in Numba): LLVM checks at run time
  ** before vectorising */
  unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
  unsigned nocapture = LLVMGetEnumAttributeKindForName("nocapture", 9);
  LLVMAddAttributeAtIndex(spec->fn, 1, LLVMCreateEnumAttribute(L->ctx, noalias, 0));
  LLVMAddAttributeAtIndex(spec->fn, 2, LLVMCreateEnumAttribute(L->ctx, noalias, 0));
  LLVMAddAttributeAtIndex(spec->fn, 2, LLVMCreateEnumAttribute(L->ctx, nocapture, 0));
}

/* a specialization compiled by another dispatcher (CompileHooks.callee):
** declared by its symbol, which the JIT resolves */
LLVMValueRef lower_declare_callee(Lower *L, FuncSpec *callee, LLVMTypeRef *fnty) {
  LLVMTypeRef params[4 * LM_MAXARGS + 2 * LM_MAXDIM * LM_MAXARGS];
  int n = param_types(L, callee, params);
  *fnty = LLVMFunctionType(LLVMInt32TypeInContext(L->ctx), params, (unsigned)n, 0);
  LLVMValueRef f = LLVMGetNamedFunction(L->C->mod, callee->symbol);
  return f ? f : LLVMAddFunction(L->C->mod, callee->symbol, *fnty);
}

/* C layout: strides follow from the shape, and telling LLVM so lets it
** see unit strides and vectorise. */
static void contiguous_strides(Lower *L, Type *t, LLVMValueRef *shape, LLVMValueRef *strides) {
  LLVMValueRef s = lower_i64(L, dtype_sizes[t->dtype]);
  if (t->layout == 'C') {
    for (int k = t->ndim - 1; k >= 0; k--) {
      strides[k] = s;
      s = LLVMBuildMul(L->b, s, shape[k], "");
    }
  } else if (t->layout == 'F') {
    for (int k = 0; k < t->ndim; k++) {
      strides[k] = s;
      s = LLVMBuildMul(L->b, s, shape[k], "");
    }
  }
}

static void assume_nonneg(Lower *L, LLVMValueRef v) {
  LLVMValueRef c = LLVMBuildICmp(L->b, LLVMIntSGE, v, lower_i64(L, 0), "");
  lower_intrinsic(L, "llvm.assume", NULL, 0, &c, 1);
}

/* A recursive function's entry: raise RecursionError when the frame is
** below the thread's limit, found by stack_limit() at the first check and
** kept in err (shared by every level of the recursion). */
static void stack_guard(Lower *L) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx), et = lower_err_type(L->ctx);
  LLVMValueRef limp = LLVMBuildStructGEP2(L->b, et, L->err, 5, "limp");
  LLVMValueRef lim = LLVMBuildLoad2(L->b, i64, limp, "lim");
  LLVMBasicBlockRef look = lower_block(L, "stack_look"), check = lower_block(L, "stack_check");
  LLVMBasicBlockRef here = LLVMGetInsertBlock(L->b);
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, lim, lower_i64(L, 0), ""), look, check);
  LLVMPositionBuilderAtEnd(L->b, look);
  LLVMValueRef f = lower_rt_fn(L, "stack_limit", i64, NULL, 0);
  LLVMValueRef got = LLVMBuildCall2(L->b, LLVMGlobalGetValueType(f), f, NULL, 0, "");
  LLVMBuildStore(L->b, got, limp);
  LLVMBuildBr(L->b, check);
  LLVMPositionBuilderAtEnd(L->b, check);
  LLVMValueRef phi = LLVMBuildPhi(L->b, i64, "limit");
  LLVMAddIncoming(phi, (LLVMValueRef[]){lim, got}, (LLVMBasicBlockRef[]){here, look}, 2);
  LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
  LLVMValueRef fa = lower_intrinsic(L, "llvm.frameaddress", &i8p, 1,
                                    (LLVMValueRef[]){LLVMConstInt(LLVMInt32TypeInContext(L->ctx), 0, 0)}, 1);
  LLVMValueRef sp = LLVMBuildPtrToInt(L->b, fa, i64, "sp");
  lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntULT, sp, phi, ""), LMERR_RAISE,
                 "RecursionError: maximum recursion depth exceeded");
}

/* an array value whose facts LLVM cannot see (loaded from memory): shapes
** are non-negative and C/F strides follow from the shape */
LLVMValueRef lower_restate_array(Lower *L, Type *t, LLVMValueRef a) {
  LLVMValueRef shape[LM_MAXDIM], strides[LM_MAXDIM];
  for (int k = 0; k < t->ndim; k++) {
    shape[k] = lower_arr_shape(L, a, k);
    strides[k] = lower_arr_stride(L, a, k);
    assume_nonneg(L, shape[k]);
  }
  contiguous_strides(L, t, shape, strides);
  return lower_arr_make(L, t, lower_arr_mi(L, a), lower_arr_data(L, a), shape, strides);
}

/* does any statement of body assign name (a target of =, op=, for)? */
static bool target_names(Node *t, const char *name) {
  if (t == NULL) return false;
  if (t->kind == ND_Name) return strcmp(t->name, name) == 0;
  if (t->kind == ND_Tuple || t->kind == ND_List)
    for (int i = 0; i < t->elts.len; i++)
      if (target_names(t->elts.items[i], name)) return true;
  return false;
}

static bool assigns(NodeList *body, const char *name) {
  for (int i = 0; i < body->len; i++) {
    Node *s = body->items[i];
    for (int k = 0; k < s->targets.len; k++)
      if (target_names(s->targets.items[k], name)) return true;
    if (target_names(s->target, name)) return true;
    if (assigns(&s->body, name) || assigns(&s->orelse, name)) return true;
  }
  return false;
}

static void lower_spec(Compile *C, FuncSpec *spec) {
  Lower Lw = {0}, *L = &Lw;
  L->C = C;
  L->spec = spec;
  L->b = C->b;
  L->ctx = C->ctx;
  L->fn = spec->fn;
  L->refcount = C->target->refcount;
  L->entry = lower_block(L, "entry");
  LLVMBasicBlockRef body = lower_block(L, "body");
  L->cleanup = lower_block(L, "cleanup");
  LLVMPositionBuilderAtEnd(L->b, L->entry);
  L->err = LLVMGetParam(L->fn, 0);
  L->retp = LLVMGetParam(L->fn, 1);
  L->status = LLVMBuildAlloca(L->b, LLVMInt32TypeInContext(L->ctx), "status");
  LLVMBuildStore(L->b, lower_i32(L, 0), L->status);
  L->slots = arena_alloc(C->A, sizeof(LLVMValueRef) * (size_t)(spec->nlocals + 1));
  for (int i = 0; i < spec->nlocals; i++) {
    Local *v = &spec->locals[i];
    L->slots[i] = LLVMBuildAlloca(L->b, lower_type(L, v->ty), v->name);
    /* a variable read before any assignment reads zero, never garbage (Python would raise UnboundLocalError) */
    LLVMBuildStore(L->b, LLVMConstNull(lower_type(L, v->ty)), L->slots[i]);
  }
  /* parameters into their slots (converted when a later assignment widened
  ** them). An array argument is borrowed, as in Numba: the caller holds a
  ** reference for the whole call, so a parameter never assigned takes none
  ** (an incref/decref pair per call was an atomic read-modify-write that
  ** LLVM cannot remove, and under prange threads fought over its line).
  ** Storing it elsewhere or returning it takes a reference as usual. */
  unsigned char *borrowed = arena_alloc(C->A, (size_t)spec->nlocals + 1);
  memset(borrowed, 0, (size_t)spec->nlocals + 1);
  int p = 2;
  for (int i = 0; i < spec->nargs; i++) {
    Type *t = spec->argtypes[i];
    Val v = {t, NULL, false};
    if (t->kind == TY_ARRAY) {
      LLVMValueRef shape[LM_MAXDIM], strides[LM_MAXDIM];
      LLVMValueRef mi = LLVMGetParam(L->fn, (unsigned)p), data = LLVMGetParam(L->fn, (unsigned)p + 1);
      for (int k = 0; k < t->ndim; k++) {
        shape[k] = LLVMGetParam(L->fn, (unsigned)(p + 2 + k));
        strides[k] = LLVMGetParam(L->fn, (unsigned)(p + 2 + t->ndim + k));
        assume_nonneg(L, shape[k]);
      }
      contiguous_strides(L, t, shape, strides);
      v.v = lower_arr_make(L, t, mi, data, shape, strides);
      p += 2 + 2 * t->ndim;
    } else {
      v.v = LLVMGetParam(L->fn, (unsigned)p++);
    }
    int slot = spec_local(spec, spec->def->args.items[i]->name);
    Val cv = lower_cast(L, v, spec->locals[slot].ty);
    if (has_arrays(cv.ty) && cv.ty == t && !assigns(&spec->def->body, spec->locals[slot].name)) borrowed[slot] = 1;
    else lower_incref(L, cv);
    LLVMBuildStore(L->b, cv.v, L->slots[slot]);
  }
  /* module constants the function uses (Local.frozen): computed once per call, into their hidden locals */
  for (int i = 0; i < spec->nlocals; i++) {
    if (spec->locals[i].frozen == NULL) continue;
    Val cv;
    if (!L->refcount && lower_const_array(L, spec->locals[i].frozen, spec->locals[i].ty, &cv)) {
      LLVMBuildStore(L->b, cv.v, L->slots[i]);
      continue;
    }
    cv = lower_cast(L, lower_expr(L, spec->locals[i].frozen), spec->locals[i].ty);
    if (!cv.owned) lower_incref(L, cv);
    LLVMBuildStore(L->b, cv.v, L->slots[i]);
  }
  if (spec->recursive && !C->target->gpu) stack_guard(L);
  LLVMBuildBr(L->b, body);
  LLVMPositionBuilderAtEnd(L->b, body);
  lower_body(L, &spec->def->body);
  if (!lower_terminated(L)) {
    if (spec->ret->kind == TY_OPTIONAL) {  /* Numba's implicit return None */
      LLVMBuildStore(L->b, lower_cast(L, (Val){&ty_none, LLVMConstInt(LLVMInt8TypeInContext(L->ctx), 0, 0), false}, spec->ret).v,
                     L->retp);
    } else if (spec->ret->kind != TY_NONE) {
      /* fell off the end of a function that returns values elsewhere */
      LLVMTypeRef et = lower_err_type(L->ctx);
      LLVMBuildStore(L->b, lower_i32(L, LMERR_RAISE), LLVMBuildStructGEP2(L->b, et, L->err, 0, ""));
      if (!C->target->gpu)
        LLVMBuildStore(L->b, LLVMBuildGlobalStringPtr(L->b, "TypeError: function ended without returning a value", "msg"),
                       LLVMBuildStructGEP2(L->b, et, L->err, 4, ""));
      NodeList *stmts = &spec->def->body;
      L->stmt = stmts->len ? stmts->items[stmts->len - 1] : NULL;  /* the function's last statement */
      set_where(L, LMERR_RAISE);
      L->stmt = NULL;
      LLVMBuildStore(L->b, lower_i32(L, LMERR_RAISE), L->status);
    }
    LLVMBuildBr(L->b, L->cleanup);
  }
  LLVMPositionBuilderAtEnd(L->b, L->cleanup);
  for (int i = 0; i < spec->nlocals; i++) {
    Local *v = &spec->locals[i];
    if (has_arrays(v->ty) && !borrowed[i]) lower_decref(L, (Val){v->ty, LLVMBuildLoad2(L->b, lower_type(L, v->ty), L->slots[i], ""), true});
  }
  LLVMBuildRet(L->b, LLVMBuildLoad2(L->b, LLVMInt32TypeInContext(L->ctx), L->status, "st"));
}

/* return: the value (owned, +1) goes to *ret, status 0, then cleanup */
void lower_return(Lower *L, Node *value) {
  FuncSpec *spec = L->spec;
  if (value && spec->ret->kind != TY_NONE) {
    Val v = lower_cast(L, lower_expr(L, value), spec->ret);
    if (!v.owned) lower_incref(L, v);
    LLVMBuildStore(L->b, v.v, L->retp);
  } else if (value) {
    lower_release(L, lower_expr(L, value));
  }
  LLVMBuildBr(L->b, L->cleanup);
}

/* ---- the wrapper: i32 wrap(LmErr*, i64 *ret_slots, i64 *arg_slots) ---- */

static LLVMValueRef slot_ptr(Lower *L, LLVMValueRef base, int k) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  LLVMValueRef idx = lower_i64(L, k);
  return LLVMBuildInBoundsGEP2(L->b, i64, base, &idx, 1, "");
}

static LLVMValueRef scalar_from_slot(Lower *L, Type *t, LLVMValueRef raw) {
  LLVMTypeRef lt = lower_type(L, t);
  if (t->kind == TY_DTYPE) return LLVMConstInt(lt, (unsigned long long)t->dtype, 0);  /* its type says which */
  if (t->kind == TY_NONE) return LLVMConstInt(lt, 0, 0);  /* None (LinkedNode(0, None)): nothing to read */
  if (t->kind == TY_CPTR) return raw;
  if (t->kind == TY_CLASS || t->kind == TY_RECORD) return LLVMBuildIntToPtr(L->b, raw, lt, "");
  if (ty_is_complex(t)) {  /* the slot points at two doubles */
    LLVMTypeRef d = LLVMDoubleTypeInContext(L->ctx);
    LLVMValueRef p = LLVMBuildIntToPtr(L->b, raw, LLVMPointerType(d, 0), "");
    LLVMValueRef one = lower_i64(L, 1);
    LLVMValueRef re = LLVMBuildLoad2(L->b, d, p, ""), im = LLVMBuildLoad2(L->b, d, LLVMBuildInBoundsGEP2(L->b, d, p, &one, 1, ""), "");
    return lower_complex_make(L, t, re, im);
  }
  if (t->dtype == DT_FLOAT64) return LLVMBuildBitCast(L->b, raw, lt, "");
  if (t->dtype == DT_FLOAT32 || t->dtype == DT_FLOAT16)  /* a double in the slot */
    return LLVMBuildFPTrunc(L->b, LLVMBuildBitCast(L->b, raw, LLVMDoubleTypeInContext(L->ctx), ""), lt, "");
  if (t->dtype == DT_BOOL) return LLVMBuildICmp(L->b, LLVMIntNE, raw, lower_i64(L, 0), "");
  if (t->dtype == DT_INT64 || t->dtype == DT_UINT64) return raw;
  return LLVMBuildTrunc(L->b, raw, lt, "");
}

static LLVMValueRef scalar_to_slot(Lower *L, Type *t, LLVMValueRef v) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  if (t->kind == TY_CPTR) return v;
  if (t->kind == TY_CLASS || t->kind == TY_RECORD) return LLVMBuildPtrToInt(L->b, v, i64, "");  /* its reference goes with it */
  if (t->dtype == DT_FLOAT64) return LLVMBuildBitCast(L->b, v, i64, "");
  if (t->dtype == DT_FLOAT32 || t->dtype == DT_FLOAT16)
    return LLVMBuildBitCast(L->b, LLVMBuildFPExt(L->b, v, LLVMDoubleTypeInContext(L->ctx), ""), i64, "");
  if (t->dtype == DT_BOOL || dtype_kinds[t->dtype] == 'u') return LLVMBuildZExt(L->b, v, i64, "");
  if (t->dtype == DT_INT64) return v;
  return LLVMBuildSExt(L->b, v, i64, "");
}

/* writes value v of type t into the result slots from index *k on */
static void store_result(Lower *L, Type *t, LLVMValueRef v, LLVMValueRef slots, int *k) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  if (t->kind == TY_DTYPE) {
    LLVMBuildStore(L->b, lower_i64(L, t->dtype), slot_ptr(L, slots, (*k)++));
  } else if (ty_is_complex(t)) {
    Type *f64 = ty_float64;
    for (unsigned i = 0; i < 2; i++) {
      LLVMValueRef part = lower_cast(L, (Val){ty_complex_part(t), LLVMBuildExtractValue(L->b, v, i, ""), true}, f64).v;
      LLVMBuildStore(L->b, scalar_to_slot(L, f64, part), slot_ptr(L, slots, (*k)++));
    }
  } else if (t->kind == TY_OPTIONAL) {  /* is-set, then the number (dispatch.c: nil when not set) */
    Type *num = ty_scalar(t->dtype);
    LLVMBuildStore(L->b, LLVMBuildZExt(L->b, LLVMBuildExtractValue(L->b, v, 1, ""), i64, ""), slot_ptr(L, slots, (*k)++));
    LLVMBuildStore(L->b, scalar_to_slot(L, num, LLVMBuildExtractValue(L->b, v, 0, "")), slot_ptr(L, slots, (*k)++));
  } else if (t->kind == TY_SCALAR || t->kind == TY_CPTR || t->kind == TY_CLASS || t->kind == TY_RECORD) {
    LLVMBuildStore(L->b, scalar_to_slot(L, t, v), slot_ptr(L, slots, (*k)++));
  } else if (t->kind == TY_ARRAY) {
    int base = *k;
    LLVMValueRef shape[LM_MAXDIM];
    LLVMValueRef n = lower_i64(L, 1);
    for (int d = 0; d < t->ndim; d++) {
      shape[d] = LLVMBuildExtractValue(L->b, LLVMBuildExtractValue(L->b, v, 2, ""), (unsigned)d, "");
      n = LLVMBuildMul(L->b, n, shape[d], "");
    }
    LLVMBuildStore(L->b, LLVMBuildPtrToInt(L->b, LLVMBuildExtractValue(L->b, v, 0, ""), i64, ""), slot_ptr(L, slots, base + 0));
    LLVMBuildStore(L->b, lower_i64(L, 0), slot_ptr(L, slots, base + 1));
    LLVMBuildStore(L->b, n, slot_ptr(L, slots, base + 2));
    LLVMBuildStore(L->b, lower_i64(L, dtype_sizes[t->dtype]), slot_ptr(L, slots, base + 3));
    LLVMBuildStore(L->b, LLVMBuildPtrToInt(L->b, LLVMBuildExtractValue(L->b, v, 1, ""), i64, ""), slot_ptr(L, slots, base + 4));
    for (int d = 0; d < t->ndim; d++) {
      LLVMBuildStore(L->b, shape[d], slot_ptr(L, slots, base + 5 + d));
      LLVMValueRef st = LLVMBuildExtractValue(L->b, LLVMBuildExtractValue(L->b, v, 3, ""), (unsigned)d, "");
      LLVMBuildStore(L->b, st, slot_ptr(L, slots, base + 5 + LM_MAXDIM + d));
    }
    *k += RT_ARRAY_SLOTS;
  } else if (t->kind == TY_TUPLE) {
    for (int i = 0; i < t->nelems; i++)
      store_result(L, t->elems[i], LLVMBuildExtractValue(L->b, v, (unsigned)i, ""), slots, k);
  }
}

static LLVMValueRef build_wrapper(Compile *C, FuncSpec *spec, const char *name) {
  Lower Lw = {0}, *L = &Lw;
  L->C = C;
  L->b = C->b;
  L->ctx = C->ctx;
  LLVMTypeRef i64p = LLVMPointerType(LLVMInt64TypeInContext(C->ctx), 0);
  LLVMTypeRef ps[3] = {LLVMPointerType(lower_err_type(C->ctx), 0), i64p, i64p};
  LLVMTypeRef ft = LLVMFunctionType(LLVMInt32TypeInContext(C->ctx), ps, 3, 0);
  L->fn = LLVMAddFunction(C->mod, name, ft);
  L->entry = lower_block(L, "entry");
  LLVMPositionBuilderAtEnd(L->b, L->entry);
  LLVMValueRef args = LLVMGetParam(L->fn, 2);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(C->ctx);
  LLVMValueRef callargs[4 * LM_MAXARGS + 2 * LM_MAXDIM * LM_MAXARGS];
  int n = 0;
  LLVMValueRef ret = LLVMBuildAlloca(L->b, lower_type(L, spec->ret), "ret");
  callargs[n++] = LLVMGetParam(L->fn, 0);
  callargs[n++] = ret;
  for (int i = 0; i < spec->nargs; i++) {
    Type *t = spec->argtypes[i];
    LLVMValueRef raw = LLVMBuildLoad2(L->b, i64, slot_ptr(L, args, i), "");
    if (t->kind != TY_ARRAY) {
      callargs[n++] = scalar_from_slot(L, t, raw);
      continue;
    }
    /* an ArrayStruct: meminfo at slot 0, data at 4, shape at 5, strides at 5 + MAXDIM */
    LLVMValueRef as = LLVMBuildIntToPtr(L->b, raw, i64p, "");
    LLVMValueRef mi = LLVMBuildLoad2(L->b, i64, slot_ptr(L, as, 0), "");
    LLVMValueRef data = LLVMBuildLoad2(L->b, i64, slot_ptr(L, as, 4), "");
    callargs[n++] = LLVMBuildIntToPtr(L->b, mi, i8p(L), "");
    callargs[n++] = LLVMBuildIntToPtr(L->b, data, LLVMPointerType(lower_mem_type(L, t->dtype), 0), "");
    for (int k = 0; k < t->ndim; k++) callargs[n++] = LLVMBuildLoad2(L->b, i64, slot_ptr(L, as, 5 + k), "");
    for (int k = 0; k < t->ndim; k++) callargs[n++] = LLVMBuildLoad2(L->b, i64, slot_ptr(L, as, 5 + LM_MAXDIM + k), "");
  }
  LLVMValueRef st = LLVMBuildCall2(L->b, spec->fnty, spec->fn, callargs, (unsigned)n, "st");
  /* The function stays a call: inlined, its whole body was optimised and
  ** code-generated a second time inside the wrapper (the function itself
  ** stays, other compiled code calls it): a first compilation took 40% longer
  ** for a call that costs ~1 ns. */
  unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
  LLVMAddCallSiteAttribute(st, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(L->ctx, noinline, 0));
  LLVMBasicBlockRef ok = lower_block(L, "ok"), done = lower_block(L, "done");
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, st, lower_i32(L, 0), ""), ok, done);
  LLVMPositionBuilderAtEnd(L->b, ok);
  if (spec->ret->kind != TY_NONE) {
    int k = 0;
    store_result(L, spec->ret, LLVMBuildLoad2(L->b, lower_type(L, spec->ret), ret, ""), LLVMGetParam(L->fn, 1), &k);
  }
  LLVMBuildBr(L->b, done);
  LLVMPositionBuilderAtEnd(L->b, done);
  LLVMBuildRet(L->b, st);
  return L->fn;
}

/* Lowers every specialization made by this compilation, then the wrapper
** of the first (the entry point the dispatcher asked for). */
void lower_module(Compile *C) {
  Lower Lw = {0};
  Lw.C = C;
  Lw.ctx = C->ctx;
  Lw.b = C->b;
  for (FuncSpec *s = C->specs; s; s = s->next) declare_spec(&Lw, s);
  for (FuncSpec *s = C->specs; s; s = s->next) lower_spec(C, s);
}

const char *lower_wrapper(Compile *C, FuncSpec *entry) {
  char name[300];
  snprintf(name, sizeof name, "%s_wrap", entry->symbol);
  build_wrapper(C, entry, name);
  return arena_strdup(C->A, name);
}
