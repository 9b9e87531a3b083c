/*
** lower_parloop.c — the array loops of a parallel function on the thread
** pool (Numba's parfor conversion of array expressions, ufunc calls, stores
** into views, in-place operators and fills). The fused loop nest of
** lower_arrayexpr.c is outlined into a ParBody that runs ax_loop over a
** chunk [lo, hi) of axis 0, every operand's data moved to the chunk's start;
** par_for (parallel.c) runs the chunks. Each output element is written by
** exactly one chunk, and the loop never reads an output element other than
** the one it writes: when an operand overlaps the target otherwise, the store
** (lower_arraystore.c) has already routed the loop through a temporary, so a
** parallel loop never has a race the serial one lacks. Inside a parallel
** region (a prange body) and for small loops the serial ax_loop runs.
** Reductions over every element (lower_par_reduce, Target.array_reduce) run
** the caller's element code over chunks the same way, a partial result per
** worker, combined in worker order. ax_par_loop is the entry point for any
** other elementwise loop nest that wants the pool.
*/
#include <stdio.h>
#include <string.h>

#include "lower_arrayexpr.h"
#include "parfor.h"

/* below this many elements the pool's start-up costs more than it saves */
#define PAR_MIN_ELEMS 8192

static bool par_ok(Lower *L) {
  return L->spec->parallel && !L->in_par && L->C->target->prange != NULL && L->C->target->refcount;
}

static LLVMValueRef rt_call(Lower *L, const char *name, LLVMTypeRef ret, LLVMTypeRef *ps, int np, LLVMValueRef *args) {
  LLVMValueRef f = lower_rt_fn(L, name, ret, ps, np);
  return LLVMBuildCall2(L->b, LLVMGlobalGetValueType(f), f, args, (unsigned)np, "");
}

static void note(Lower *L, Ax *x, int nd, const char *what, Loc loc) {
  char line[400];
  int arrays = 0, ops = x->nops + (x->target >= 0);
  for (int i = 0; i < x->nleaf; i++) arrays += x->leaf[i].v.ty->kind == TY_ARRAY;
  bool store = x->target >= 0 || x->outcall || strcmp(what, "store into an array") == 0;
  snprintf(line, sizeof line, "%s(): %s at line %d runs as a parallel loop over axis 0 of its %d-d shape "
           "(%d operation%s fused into one loop, %d array operand%s%s)", L->spec->def->name, what, loc.line, nd, ops,
           ops == 1 ? "" : "s", arrays, arrays == 1 ? "" : "s",
           store && arrays ? "; through a temporary when an operand overlaps the target, checked at run time" : "");
  parfor_diag(L->C, line);
}

/* The outlined chunk: ctx is {leaf values, leaf strides, shape, out, errs}. */
static LLVMValueRef outline(Lower *L, Ax *x, int nd, LLVMTypeRef ctxt, Type *outty) {
  LLVMContextRef ctx = L->ctx;
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx), i32 = LLVMInt32TypeInContext(ctx);
  LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
  LLVMTypeRef errt = lower_err_type(ctx);
  LLVMTypeRef bps[4] = {i8p, i64, i64, i64};
  char name[300];
  snprintf(name, sizeof name, "%s__parloop%lld", L->spec->symbol, (long long)++L->C->S->counter);
  LLVMValueRef fn = LLVMAddFunction(L->C->mod, name, LLVMFunctionType(i32, bps, 4, 0));
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  Lower Bw = *L, *B = &Bw;
  B->fn = fn;
  B->poison = NULL;
  B->loop = NULL;
  B->slots = NULL;  /* the loop reads operands only, never locals */
  B->held = NULL;
  B->nheld = B->capheld = 0;
  B->in_par = true;
  B->retp = NULL;
  B->entry = lower_block(B, "entry");
  LLVMBasicBlockRef body = lower_block(B, "chunk");
  B->cleanup = lower_block(B, "cleanup");
  LLVMPositionBuilderAtEnd(B->b, B->entry);
  LLVMValueRef cv = LLVMBuildLoad2(B->b, ctxt, LLVMBuildBitCast(B->b, LLVMGetParam(fn, 0), LLVMPointerType(ctxt, 0), ""), "");
  LLVMValueRef worker = LLVMGetParam(fn, 3);
  unsigned f = 0;
  Ax *y = arena_alloc(L->C->A, sizeof *y);
  *y = *x;
  for (int i = 0; i < x->nleaf; i++) {
    y->leaf[i].v.v = LLVMBuildExtractValue(B->b, cv, f++, "");
    y->leaf[i].elem = y->leaf[i].v.v;
    if (x->leaf[i].v.ty->kind == TY_ARRAY)
      for (int k = 0; k < nd; k++) y->leaf[i].stride[k] = LLVMBuildExtractValue(B->b, cv, f++, "");
  }
  LLVMValueRef shape[LM_MAXDIM];
  for (int k = 0; k < nd; k++) shape[k] = LLVMBuildExtractValue(B->b, cv, f++, "");
  Val out = {outty, LLVMBuildExtractValue(B->b, cv, f++, ""), false};
  LLVMValueRef errs = LLVMBuildExtractValue(B->b, cv, f++, "");
  B->err = LLVMBuildInBoundsGEP2(B->b, errt, errs, &worker, 1, "err");
  B->status = LLVMBuildAlloca(B->b, i32, "status");
  LLVMBuildStore(B->b, lower_i32(B, 0), B->status);
  LLVMBuildBr(B->b, body);
  LLVMPositionBuilderAtEnd(B->b, body);
  y->lo = LLVMGetParam(fn, 1);
  shape[0] = LLVMBuildSub(B->b, LLVMGetParam(fn, 2), y->lo, "");
  ax_loop(B, y, nd, shape, out);
  LLVMBuildBr(B->b, B->cleanup);
  LLVMPositionBuilderAtEnd(B->b, B->cleanup);
  LLVMBuildRet(B->b, LLVMBuildLoad2(B->b, i32, B->status, ""));
  return fn;
}

/* par_for(n, fn, ctx) from L; a failing chunk's error (the lowest worker's) becomes L's */
static void run(Lower *L, LLVMValueRef n, LLVMValueRef fn, LLVMTypeRef ctxt, LLVMValueRef cval, unsigned errfield) {
  LLVMContextRef ctx = L->ctx;
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx), i32 = LLVMInt32TypeInContext(ctx);
  LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
  LLVMTypeRef errt = lower_err_type(ctx);
  LLVMValueRef nw64 = LLVMBuildSExt(L->b, rt_call(L, "par_max_workers", i32, NULL, 0, NULL), i64, "");
  /* sized at run time: between a stack save and restore (a loop of array statements must not grow the stack) */
  LLVMValueRef sp = lower_intrinsic(L, "llvm.stacksave", NULL, 0, NULL, 0);
  LLVMValueRef errarr = LLVMBuildArrayAlloca(L->b, errt, nw64, "errs");
  LLVMBuildMemSet(L->b, errarr, LLVMConstInt(LLVMInt8TypeInContext(ctx), 0, 0),
                  LLVMBuildMul(L->b, nw64, LLVMSizeOf(errt), ""), 8);
  cval = LLVMBuildInsertValue(L->b, cval, errarr, errfield, "");
  LLVMValueRef cslot = lower_entry_alloca(L, ctxt, "axpctx");
  LLVMBuildStore(L->b, cval, cslot);
  LLVMTypeRef bps[4] = {i8p, i64, i64, i64};
  LLVMTypeRef pfps[3] = {i64, LLVMPointerType(LLVMFunctionType(i32, bps, 4, 0), 0), i8p};
  LLVMValueRef pargs[3] = {n, fn, LLVMBuildBitCast(L->b, cslot, i8p, "")};
  LLVMValueRef st = rt_call(L, "par_for", i32, pfps, 3, pargs);
  LLVMBasicBlockRef bad = lower_block(L, "axperr"), fh = lower_block(L, "axpfind"), fnext = lower_block(L, "axpfnext"),
                    fok = lower_block(L, "axpfound"), good = lower_block(L, "axpok");
  LLVMValueRef w = lower_entry_alloca(L, i64, "axpw");
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntNE, st, lower_i32(L, 0), ""), bad, good);
  LLVMPositionBuilderAtEnd(L->b, bad);
  LLVMBuildStore(L->b, lower_i64(L, 0), w);
  LLVMBuildBr(L->b, fh);
  LLVMPositionBuilderAtEnd(L->b, fh);
  LLVMValueRef fw = LLVMBuildLoad2(L->b, i64, w, "");
  LLVMValueRef ep = LLVMBuildInBoundsGEP2(L->b, errt, errarr, &fw, 1, "");
  LLVMValueRef ek = LLVMBuildLoad2(L->b, i32, LLVMBuildStructGEP2(L->b, errt, ep, 0, ""), "");
  LLVMValueRef found = LLVMBuildOr(L->b, LLVMBuildICmp(L->b, LLVMIntNE, ek, lower_i32(L, 0), ""),
                                   LLVMBuildICmp(L->b, LLVMIntSGE, fw, LLVMBuildSub(L->b, nw64, lower_i64(L, 1), ""), ""), "");
  LLVMBuildCondBr(L->b, found, fok, fnext);
  LLVMPositionBuilderAtEnd(L->b, fnext);
  LLVMBuildStore(L->b, LLVMBuildAdd(L->b, fw, lower_i64(L, 1), ""), w);
  LLVMBuildBr(L->b, fh);
  LLVMPositionBuilderAtEnd(L->b, fok);
  LLVMBuildStore(L->b, LLVMBuildLoad2(L->b, errt, ep, ""), L->err);
  LLVMBuildStore(L->b, st, L->status);
  lower_release_held(L);
  LLVMBuildBr(L->b, L->cleanup);
  LLVMPositionBuilderAtEnd(L->b, good);
  lower_intrinsic(L, "llvm.stackrestore", NULL, 0, &sp, 1);
}

void ax_par_loop(Lower *L, Ax *x, int nd, LLVMValueRef *shape, Val out, const char *what) {
  if (nd == 0 || !par_ok(L)) {
    ax_loop(L, x, nd, shape, out);
    return;
  }
  note(L, x, nd, what, strcmp(what, "fill") == 0 ? lower_stmt_loc(L) : x->loc);
  LLVMContextRef ctx = L->ctx;
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
  LLVMTypeRef ft[AX_MAXLEAF * (LM_MAXDIM + 1) + LM_MAXDIM + 2];
  unsigned nf = 0;
  for (int i = 0; i < x->nleaf; i++) {
    ft[nf++] = LLVMTypeOf(x->leaf[i].v.v);
    if (x->leaf[i].v.ty->kind == TY_ARRAY)
      for (int k = 0; k < nd; k++) ft[nf++] = i64;
  }
  for (int k = 0; k < nd; k++) ft[nf++] = i64;
  ft[nf++] = lower_type(L, out.ty);
  ft[nf++] = LLVMPointerType(lower_err_type(ctx), 0);
  LLVMTypeRef ctxt = LLVMStructTypeInContext(ctx, ft, nf, 0);
  LLVMBasicBlockRef here = LLVMGetInsertBlock(L->b);
  LLVMValueRef fn = outline(L, x, nd, ctxt, out.ty);
  LLVMPositionBuilderAtEnd(L->b, here);
  /* small loops, and axis 0 of one row, stay serial */
  LLVMValueRef total = lower_i64(L, 1);
  for (int k = 0; k < nd; k++) total = LLVMBuildMul(L->b, total, shape[k], "");
  LLVMValueRef big = LLVMBuildAnd(L->b, LLVMBuildICmp(L->b, LLVMIntSGE, total, lower_i64(L, PAR_MIN_ELEMS), ""),
                                  LLVMBuildICmp(L->b, LLVMIntSGT, shape[0], lower_i64(L, 1), ""), "");
  LLVMBasicBlockRef par = lower_block(L, "axpar"), ser = lower_block(L, "axser"), join = lower_block(L, "axparend");
  LLVMBuildCondBr(L->b, big, par, ser);
  LLVMPositionBuilderAtEnd(L->b, ser);
  ax_loop(L, x, nd, shape, out);
  LLVMBuildBr(L->b, join);
  LLVMPositionBuilderAtEnd(L->b, par);
  LLVMValueRef cval = LLVMGetUndef(ctxt);
  unsigned f = 0;
  for (int i = 0; i < x->nleaf; i++) {
    cval = LLVMBuildInsertValue(L->b, cval, x->leaf[i].v.v, f++, "");
    if (x->leaf[i].v.ty->kind == TY_ARRAY)
      for (int k = 0; k < nd; k++) cval = LLVMBuildInsertValue(L->b, cval, x->leaf[i].stride[k], f++, "");
  }
  for (int k = 0; k < nd; k++) cval = LLVMBuildInsertValue(L->b, cval, shape[k], f++, "");
  cval = LLVMBuildInsertValue(L->b, cval, out.v, f++, "");
  run(L, shape[0], fn, ctxt, cval, f);
  LLVMBuildBr(L->b, join);
  LLVMPositionBuilderAtEnd(L->b, join);
}

bool lower_par_fill(Lower *L, Val a, LLVMValueRef v) {
  if (!par_ok(L) || a.ty->kind != TY_ARRAY || a.ty->ndim == 0) return false;
  Ax *x = arena_alloc(L->C->A, sizeof *x);
  *x = (Ax){.root = NULL, .loc = L->spec->def->loc, .target = -1, .nleaf = 1};
  x->leaf[0].v = (Val){ty_scalar(a.ty->dtype), v, false};
  int nd = a.ty->ndim;
  LLVMValueRef shape[LM_MAXDIM];
  ax_leaf_shape(L, a, shape);
  ax_strides(L, x, nd, shape);
  ax_par_loop(L, x, nd, shape, a, "fill");
  return true;
}

/* ---- reductions over every element (a.sum(), np.max(a), ...) ---- */

typedef struct RedPlan {
  ElemFn fn;
  void *ud;
  LLVMValueRef **slots;
  LLVMTypeRef *tys;
  int nacc;
  LLVMTypeRef partt;  // one worker's accumulators
} RedPlan;

/* a's rows [lo, hi) of axis 0, as a view of a's type */
static LLVMValueRef chunk_view(Lower *L, Type *t, LLVMValueRef a, LLVMValueRef lo, LLVMValueRef hi) {
  LLVMValueRef shape[LM_MAXDIM], strides[LM_MAXDIM];
  for (int k = 0; k < t->ndim; k++) {
    shape[k] = lower_arr_shape(L, a, k);
    strides[k] = lower_arr_stride(L, a, k);
  }
  shape[0] = LLVMBuildSub(L->b, hi, lo, "");
  LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
  LLVMValueRef off = LLVMBuildMul(L->b, lo, strides[0], "");
  LLVMValueRef data = LLVMBuildBitCast(L->b, lower_arr_data(L, a), LLVMPointerType(i8, 0), "");
  data = LLVMBuildInBoundsGEP2(L->b, i8, data, &off, 1, "");
  data = LLVMBuildBitCast(L->b, data, LLVMTypeOf(lower_arr_data(L, a)), "");
  return lower_arr_make(L, t, lower_arr_mi(L, a), data, shape, strides);
}

/* the outlined chunk: ctx is {a, the accumulators' start values, partials*, errs*} */
static LLVMValueRef outline_reduce(Lower *L, RedPlan *R, Type *t, LLVMTypeRef ctxt) {
  LLVMContextRef ctx = L->ctx;
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx), i32 = LLVMInt32TypeInContext(ctx);
  LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
  LLVMTypeRef errt = lower_err_type(ctx);
  LLVMTypeRef bps[4] = {i8p, i64, i64, i64};
  char name[300];
  snprintf(name, sizeof name, "%s__parreduce%lld", L->spec->symbol, (long long)++L->C->S->counter);
  LLVMValueRef fn = LLVMAddFunction(L->C->mod, name, LLVMFunctionType(i32, bps, 4, 0));
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  Lower Bw = *L, *B = &Bw;
  B->fn = fn;
  B->poison = NULL;
  B->loop = NULL;
  B->slots = NULL;
  B->held = NULL;
  B->nheld = B->capheld = 0;
  B->in_par = true;
  B->retp = NULL;
  B->entry = lower_block(B, "entry");
  LLVMBasicBlockRef body = lower_block(B, "chunk");
  B->cleanup = lower_block(B, "cleanup");
  LLVMPositionBuilderAtEnd(B->b, B->entry);
  LLVMValueRef cv = LLVMBuildLoad2(B->b, ctxt, LLVMBuildBitCast(B->b, LLVMGetParam(fn, 0), LLVMPointerType(ctxt, 0), ""), "");
  LLVMValueRef worker = LLVMGetParam(fn, 3);
  unsigned nacc = (unsigned)R->nacc;
  LLVMValueRef a = LLVMBuildExtractValue(B->b, cv, 0, "");
  LLVMValueRef acc[8], saved[8];
  for (unsigned i = 0; i < nacc; i++) {
    acc[i] = LLVMBuildAlloca(B->b, R->tys[i], "pacc");
    LLVMBuildStore(B->b, LLVMBuildExtractValue(B->b, cv, 1 + i, ""), acc[i]);
  }
  LLVMValueRef parts = LLVMBuildBitCast(B->b, LLVMBuildExtractValue(B->b, cv, 1 + nacc, ""), LLVMPointerType(R->partt, 0), "");
  LLVMValueRef errs = LLVMBuildExtractValue(B->b, cv, 2 + nacc, "");
  B->err = LLVMBuildInBoundsGEP2(B->b, errt, errs, &worker, 1, "err");
  B->status = LLVMBuildAlloca(B->b, i32, "status");
  LLVMBuildStore(B->b, lower_i32(B, 0), B->status);
  LLVMBuildBr(B->b, body);
  LLVMPositionBuilderAtEnd(B->b, body);
  LLVMValueRef view = chunk_view(B, t, a, LLVMGetParam(fn, 1), LLVMGetParam(fn, 2));
  for (unsigned i = 0; i < nacc; i++) {  /* the element code updates this chunk's accumulators */
    saved[i] = *R->slots[i];
    *R->slots[i] = acc[i];
  }
  lower_foreach(B, (Val){t, view, false}, R->fn, R->ud);
  for (unsigned i = 0; i < nacc; i++) *R->slots[i] = saved[i];
  LLVMValueRef mine = LLVMBuildInBoundsGEP2(B->b, R->partt, parts, &worker, 1, "");
  for (unsigned i = 0; i < nacc; i++)
    LLVMBuildStore(B->b, LLVMBuildLoad2(B->b, R->tys[i], acc[i], ""), LLVMBuildStructGEP2(B->b, R->partt, mine, i, ""));
  LLVMBuildBr(B->b, B->cleanup);
  LLVMPositionBuilderAtEnd(B->b, B->cleanup);
  LLVMBuildRet(B->b, LLVMBuildLoad2(B->b, i32, B->status, ""));
  return fn;
}

bool lower_par_reduce(Lower *L, Val a, ElemFn fn, void *ud, LLVMValueRef **slots, LLVMTypeRef *tys, int nacc,
                      LLVMValueRef (*combine)(Lower *L, int i, LLVMValueRef cur, LLVMValueRef part, void *ud)) {
  Type *t = a.ty;
  if (!par_ok(L) || t->kind != TY_ARRAY || t->ndim == 0 || nacc > 8) return false;
  char line[300];
  snprintf(line, sizeof line, "%s(): reduction at line %d runs as a parallel loop over axis 0 of its %d-d operand "
           "(a partial result per thread, combined in thread order)", L->spec->def->name, lower_stmt_loc(L).line, t->ndim);
  parfor_diag(L->C, line);
  LLVMContextRef ctx = L->ctx;
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx), i32 = LLVMInt32TypeInContext(ctx);
  LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
  RedPlan R = {fn, ud, slots, tys, nacc, LLVMStructTypeInContext(ctx, tys, (unsigned)nacc, 0)};
  LLVMTypeRef ft[12];
  ft[0] = lower_type(L, t);
  for (int i = 0; i < nacc; i++) ft[1 + i] = tys[i];
  ft[1 + nacc] = i8p;
  ft[2 + nacc] = LLVMPointerType(lower_err_type(ctx), 0);
  LLVMTypeRef ctxt = LLVMStructTypeInContext(ctx, ft, (unsigned)(nacc + 3), 0);
  LLVMBasicBlockRef here = LLVMGetInsertBlock(L->b);
  LLVMValueRef body = outline_reduce(L, &R, t, ctxt);
  LLVMPositionBuilderAtEnd(L->b, here);
  LLVMValueRef total = lower_i64(L, 1);
  for (int k = 0; k < t->ndim; k++) total = LLVMBuildMul(L->b, total, lower_arr_shape(L, a.v, k), "");
  LLVMValueRef n0 = lower_arr_shape(L, a.v, 0);
  LLVMValueRef big = LLVMBuildAnd(L->b, LLVMBuildICmp(L->b, LLVMIntSGE, total, lower_i64(L, PAR_MIN_ELEMS), ""),
                                  LLVMBuildICmp(L->b, LLVMIntSGT, n0, lower_i64(L, 1), ""), "");
  LLVMBasicBlockRef par = lower_block(L, "redpar"), ser = lower_block(L, "redser"), join = lower_block(L, "redparend");
  LLVMBuildCondBr(L->b, big, par, ser);
  LLVMPositionBuilderAtEnd(L->b, ser);
  lower_foreach(L, a, fn, ud);
  LLVMBuildBr(L->b, join);
  LLVMPositionBuilderAtEnd(L->b, par);
  /* every worker's partials start at the accumulators' start values (the identities) */
  LLVMValueRef nw64 = LLVMBuildSExt(L->b, rt_call(L, "par_max_workers", i32, NULL, 0, NULL), i64, "");
  LLVMValueRef sp = lower_intrinsic(L, "llvm.stacksave", NULL, 0, NULL, 0);
  LLVMValueRef parts = LLVMBuildArrayAlloca(L->b, R.partt, nw64, "redparts");
  LLVMValueRef start = LLVMGetUndef(R.partt);
  LLVMValueRef cval = LLVMBuildInsertValue(L->b, LLVMGetUndef(ctxt), a.v, 0, "");
  for (int i = 0; i < nacc; i++) {
    LLVMValueRef v = LLVMBuildLoad2(L->b, tys[i], *slots[i], "");
    start = LLVMBuildInsertValue(L->b, start, v, (unsigned)i, "");
    cval = LLVMBuildInsertValue(L->b, cval, v, (unsigned)(1 + i), "");
  }
  cval = LLVMBuildInsertValue(L->b, cval, LLVMBuildBitCast(L->b, parts, i8p, ""), (unsigned)(1 + nacc), "");
  LLVMValueRef w = lower_entry_alloca(L, i64, "redw");
  LLVMBasicBlockRef ih = lower_block(L, "redinit"), ib = lower_block(L, "redinitb"), ie = lower_block(L, "redinite");
  LLVMBuildStore(L->b, lower_i64(L, 0), w);
  LLVMBuildBr(L->b, ih);
  LLVMPositionBuilderAtEnd(L->b, ih);
  LLVMValueRef wv = LLVMBuildLoad2(L->b, i64, w, "");
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, wv, nw64, ""), ib, ie);
  LLVMPositionBuilderAtEnd(L->b, ib);
  LLVMBuildStore(L->b, start, LLVMBuildInBoundsGEP2(L->b, R.partt, parts, &wv, 1, ""));
  LLVMBuildStore(L->b, LLVMBuildAdd(L->b, wv, lower_i64(L, 1), ""), w);
  LLVMBuildBr(L->b, ih);
  LLVMPositionBuilderAtEnd(L->b, ie);
  run(L, n0, body, ctxt, cval, (unsigned)(2 + nacc));
  /* combine in worker order */
  LLVMBasicBlockRef ch = lower_block(L, "redcomb"), cb = lower_block(L, "redcombb"), ce = lower_block(L, "redcombe");
  LLVMBuildStore(L->b, lower_i64(L, 0), w);
  LLVMBuildBr(L->b, ch);
  LLVMPositionBuilderAtEnd(L->b, ch);
  LLVMValueRef cw = LLVMBuildLoad2(L->b, i64, w, "");
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, cw, nw64, ""), cb, ce);
  LLVMPositionBuilderAtEnd(L->b, cb);
  LLVMValueRef pp = LLVMBuildInBoundsGEP2(L->b, R.partt, parts, &cw, 1, "");
  for (int i = 0; i < nacc; i++) {
    LLVMValueRef cur = LLVMBuildLoad2(L->b, tys[i], *slots[i], "");
    LLVMValueRef part = LLVMBuildLoad2(L->b, tys[i], LLVMBuildStructGEP2(L->b, R.partt, pp, (unsigned)i, ""), "");
    LLVMBuildStore(L->b, combine(L, i, cur, part, ud), *slots[i]);
  }
  LLVMBuildStore(L->b, LLVMBuildAdd(L->b, cw, lower_i64(L, 1), ""), w);
  LLVMBuildBr(L->b, ch);
  LLVMPositionBuilderAtEnd(L->b, ce);
  lower_intrinsic(L, "llvm.stackrestore", NULL, 0, &sp, 1);
  LLVMBuildBr(L->b, join);
  LLVMPositionBuilderAtEnd(L->b, join);
  return true;
}
