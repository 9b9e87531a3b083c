/*
** lower_parloop.c — the array loops of a parallel function on the thread
** pool (Numba's parfor conversion of array expressions, ufunc calls, stores
** into views, in-place operators, fills and index fills). The fused loop
** nest of lower_arrayexpr.c is outlined (lower_parallel.c's lower_par_body)
** into a function that runs ax_loop over a chunk [lo, hi) of axis 0, every
** operand's data moved to the chunk's start; par_for (parallel.c) runs the
** chunks (lower_par_call). A fused group of statements (lower_parfuse.c)
** runs every statement's loop per chunk, block by block of rows. Each
** output element is written by exactly one chunk, and the loop never reads
** an output element other than the one it writes: when an operand overlaps
** the target otherwise, the store (lower_arraystore.c) has already routed
** the loop through a temporary, so a parallel loop never has a race the
** serial one lacks. Inside a parallel region (a prange body) and for small
** loops the serial loop runs. Reductions over every element
** (lower_par_reduce, Target.array_reduce) run the caller's element code
** over chunks the same way, a partial result per worker, combined in worker
** order.
*/
#include <stdio.h>
#include <string.h>

#include "lower_arrayexpr.h"
#include "parfor.h"

/* below this many elements the pool's start-up costs more than it saves */
#define PAR_MIN_ELEMS 8192

bool ax_par_ok(Lower *L) {
  return L->spec->parallel && !L->in_par && L->C->target->prange != NULL && L->C->target->refcount;
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

/* the elements of a fused group's loops run in blocks of about this many,
** every statement's block after the one before: what one wrote is still in
** the cache when the next reads it */
#define FUSE_BLOCK 4096

/* ax_loop, its errors pointing at x's statement */
static void loop_of(Lower *L, Ax *x, int nd, LLVMValueRef *shape, Val out) {
  const Node *outer = L->stmt;
  if (x->stmt) L->stmt = x->stmt;
  ax_loop(L, x, nd, shape, out);
  L->stmt = outer;
}

/* The outlined chunk of loops xs[0..nx) (one, or a fused group) over shape[nd]:
** ctx is {each loop's leaf values and strides, shape, each loop's out, errs}. */
static LLVMValueRef outline(Lower *L, Ax **xs, int nx, int nd, LLVMTypeRef ctxt, Val *outs, unsigned errfield) {
  ParOutline P;
  lower_par_body(L, &P, "parloop", ctxt, errfield);
  Lower *B = &P.B;
  unsigned f = 0;
  Ax **ys = arena_alloc(L->C->A, sizeof *ys * (size_t)nx);
  Val *bouts = arena_alloc(L->C->A, sizeof *bouts * (size_t)nx);
  for (int j = 0; j < nx; j++) {
    Ax *x = xs[j], *y = ys[j] = arena_alloc(L->C->A, sizeof *y);
    *y = *x;
    for (int i = 0; i < x->nleaf; i++) {
      y->leaf[i].v.v = LLVMBuildExtractValue(B->b, P.cv, f++, "");
      y->leaf[i].elem = y->leaf[i].v.v;
      if (x->leaf[i].v.ty->kind == TY_ARRAY)
        for (int k = 0; k < nd; k++) y->leaf[i].stride[k] = LLVMBuildExtractValue(B->b, P.cv, f++, "");
    }
  }
  LLVMValueRef shape[LM_MAXDIM];
  for (int k = 0; k < nd; k++) shape[k] = LLVMBuildExtractValue(B->b, P.cv, f++, "");
  for (int j = 0; j < nx; j++) bouts[j] = (Val){outs[j].ty, LLVMBuildExtractValue(B->b, P.cv, f++, ""), false};
  if (nx == 1) {
    ys[0]->lo = P.lo;
    shape[0] = LLVMBuildSub(B->b, P.hi, P.lo, "");
    ax_loop(B, ys[0], nd, shape, bouts[0]);
  } else {  /* blocks of rows: rows = max(1, FUSE_BLOCK / elements of a row) */
    LLVMTypeRef i64 = LLVMInt64TypeInContext(B->ctx);
    LLVMValueRef row = lower_i64(B, 1);
    for (int k = 1; k < nd; k++) row = LLVMBuildMul(B->b, row, shape[k], "");
    row = LLVMBuildSelect(B->b, LLVMBuildICmp(B->b, LLVMIntSLT, row, lower_i64(B, 1), ""), lower_i64(B, 1), row, "");
    LLVMValueRef rows = LLVMBuildSDiv(B->b, lower_i64(B, FUSE_BLOCK), row, "");
    rows = LLVMBuildSelect(B->b, LLVMBuildICmp(B->b, LLVMIntSLT, rows, lower_i64(B, 1), ""), lower_i64(B, 1), rows, "");
    LLVMValueRef ctr = lower_entry_alloca(B, i64, "blk");
    LLVMBuildStore(B->b, P.lo, ctr);
    LLVMBasicBlockRef head = lower_block(B, "fblk"), body = lower_block(B, "fblkbody"), done = lower_block(B, "fblkend");
    LLVMBuildBr(B->b, head);
    LLVMPositionBuilderAtEnd(B->b, head);
    LLVMValueRef b0 = LLVMBuildLoad2(B->b, i64, ctr, "");
    LLVMBuildCondBr(B->b, LLVMBuildICmp(B->b, LLVMIntSLT, b0, P.hi, ""), body, done);
    LLVMPositionBuilderAtEnd(B->b, body);
    LLVMValueRef left = LLVMBuildSub(B->b, P.hi, b0, "");
    shape[0] = LLVMBuildSelect(B->b, LLVMBuildICmp(B->b, LLVMIntSLT, left, rows, ""), left, rows, "");
    for (int j = 0; j < nx; j++) {
      ys[j]->lo = b0;
      loop_of(B, ys[j], nd, shape, bouts[j]);
    }
    LLVMBuildStore(B->b, LLVMBuildAdd(B->b, b0, shape[0], ""), ctr);
    LLVMBuildBr(B->b, head);
    LLVMPositionBuilderAtEnd(B->b, done);
  }
  LLVMBuildBr(B->b, B->cleanup);
  LLVMPositionBuilderAtEnd(B->b, B->cleanup);
  return lower_par_body_end(&P);
}

/* big enough for the pool: PAR_MIN_ELEMS elements and more than one row */
static LLVMValueRef big_enough(Lower *L, int nd, LLVMValueRef *shape) {
  LLVMValueRef total = lower_i64(L, 1);
  for (int k = 0; k < nd; k++) total = LLVMBuildMul(L->b, total, shape[k], "");
  return LLVMBuildAnd(L->b, LLVMBuildICmp(L->b, LLVMIntSGE, total, lower_i64(L, PAR_MIN_ELEMS), ""),
                      LLVMBuildICmp(L->b, LLVMIntSGT, shape[0], lower_i64(L, 1), ""), "");
}

void ax_par_loops(Lower *L, Ax **xs, Val *outs, int nx, int nd, LLVMValueRef *shape) {
  LLVMContextRef ctx = L->ctx;
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
  unsigned nf = 0, cap = (unsigned)(nx * (AX_MAXLEAF * (LM_MAXDIM + 1) + 1) + LM_MAXDIM + 1);
  LLVMTypeRef *ft = arena_alloc(L->C->A, sizeof *ft * cap);
  for (int j = 0; j < nx; j++)
    for (int i = 0; i < xs[j]->nleaf; i++) {
      ft[nf++] = LLVMTypeOf(xs[j]->leaf[i].v.v);
      if (xs[j]->leaf[i].v.ty->kind == TY_ARRAY)
        for (int k = 0; k < nd; k++) ft[nf++] = i64;
    }
  for (int k = 0; k < nd; k++) ft[nf++] = i64;
  for (int j = 0; j < nx; j++) ft[nf++] = lower_type(L, outs[j].ty);
  ft[nf++] = LLVMPointerType(lower_err_type(ctx), 0);
  LLVMTypeRef ctxt = LLVMStructTypeInContext(ctx, ft, nf, 0);
  LLVMBasicBlockRef here = LLVMGetInsertBlock(L->b);
  LLVMValueRef fn = outline(L, xs, nx, nd, ctxt, outs, nf - 1);
  LLVMPositionBuilderAtEnd(L->b, here);
  /* small loops, and axis 0 of one row, stay serial */
  LLVMBasicBlockRef par = lower_block(L, "axpar"), ser = lower_block(L, "axser"), join = lower_block(L, "axparend");
  LLVMBuildCondBr(L->b, big_enough(L, nd, shape), par, ser);
  LLVMPositionBuilderAtEnd(L->b, ser);
  for (int j = 0; j < nx; j++) loop_of(L, xs[j], nd, shape, outs[j]);
  LLVMBuildBr(L->b, join);
  LLVMPositionBuilderAtEnd(L->b, par);
  LLVMValueRef cval = LLVMGetUndef(ctxt);
  unsigned f = 0;
  for (int j = 0; j < nx; j++)
    for (int i = 0; i < xs[j]->nleaf; i++) {
      cval = LLVMBuildInsertValue(L->b, cval, xs[j]->leaf[i].v.v, f++, "");
      if (xs[j]->leaf[i].v.ty->kind == TY_ARRAY)
        for (int k = 0; k < nd; k++) cval = LLVMBuildInsertValue(L->b, cval, xs[j]->leaf[i].stride[k], f++, "");
    }
  for (int k = 0; k < nd; k++) cval = LLVMBuildInsertValue(L->b, cval, shape[k], f++, "");
  for (int j = 0; j < nx; j++) cval = LLVMBuildInsertValue(L->b, cval, outs[j].v, f++, "");
  ParCall pc;
  lower_par_call_begin(L, &pc);
  lower_par_call(L, &pc, shape[0], fn, ctxt, cval, f, NULL, NULL);
  lower_par_call_end(L, &pc);
  LLVMBuildBr(L->b, join);
  LLVMPositionBuilderAtEnd(L->b, join);
}

void ax_par_loop(Lower *L, Ax *x, int nd, LLVMValueRef *shape, Val out, const char *what) {
  if (nd == 0 || !ax_par_ok(L)) {
    ax_loop(L, x, nd, shape, out);
    return;
  }
  if (what) note(L, x, nd, what, strcmp(what, "fill") == 0 ? lower_stmt_loc(L) : x->loc);
  ax_par_loops(L, &x, &out, 1, nd, shape);
}

void ax_par_copy(Lower *L, Val src, Val dst) {
  Ax *x = arena_alloc(L->C->A, sizeof *x);
  *x = (Ax){.root = NULL, .loc = L->spec->def->loc, .target = -1, .nleaf = 1};
  x->leaf[0].v = src;
  int nd = dst.ty->ndim;
  LLVMValueRef shape[LM_MAXDIM];
  ax_leaf_shape(L, dst, shape);
  ax_strides(L, x, nd, shape);
  ax_par_loop(L, x, nd, shape, dst, NULL);
}

bool lower_par_fill(Lower *L, Val a, LLVMValueRef v) {
  if (!ax_par_ok(L) || a.ty->kind != TY_ARRAY || a.ty->ndim == 0) return false;
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

/* ---- fills computed from the index (np.arange, np.linspace) ---- */

/* a[i] = fn(i) for i in [lo, hi) of 1-d contiguous a */
static void index_loop(Lower *L, Val a, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef *caps, IndexFillFn fn, void *ud) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(L->b), body = lower_block(L, "ixfill"), done = lower_block(L, "ixfillend");
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, lo, hi, ""), body, done);
  LLVMPositionBuilderAtEnd(L->b, body);
  LLVMValueRef i = LLVMBuildPhi(L->b, i64, "ix");
  LLVMValueRef p = LLVMBuildInBoundsGEP2(L->b, lower_mem_type(L, a.ty->dtype), lower_arr_data(L, a.v), &i, 1, "");
  lower_store_elem(L, a.ty->dtype, p, fn(L, i, caps, ud));
  LLVMValueRef next = LLVMBuildNSWAdd(L->b, i, lower_i64(L, 1), "");
  LLVMBasicBlockRef latch = LLVMGetInsertBlock(L->b);
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, next, hi, ""), body, done);
  LLVMAddIncoming(i, (LLVMValueRef[]){lo, next}, (LLVMBasicBlockRef[]){pre, latch}, 2);
  LLVMPositionBuilderAtEnd(L->b, done);
}

void lower_index_fill(Lower *L, Val a, LLVMValueRef *caps, int ncap, IndexFillFn fn, void *ud, const char *what) {
  LLVMValueRef n = lower_arr_shape(L, a.v, 0);
  if (!ax_par_ok(L)) {
    index_loop(L, a, lower_i64(L, 0), n, caps, fn, ud);
    return;
  }
  char line[300];
  snprintf(line, sizeof line, "%s(): %s at line %d runs as a parallel loop over axis 0 of its 1-d shape", L->spec->def->name,
           what, lower_stmt_loc(L).line);
  parfor_diag(L->C, line);
  LLVMContextRef ctx = L->ctx;
  LM_ASSERT(ncap <= 14);
  LLVMTypeRef ft[16];
  ft[0] = lower_type(L, a.ty);
  for (int i = 0; i < ncap; i++) ft[1 + i] = LLVMTypeOf(caps[i]);
  ft[1 + ncap] = LLVMPointerType(lower_err_type(ctx), 0);
  LLVMTypeRef ctxt = LLVMStructTypeInContext(ctx, ft, (unsigned)ncap + 2, 0);
  LLVMBasicBlockRef here = LLVMGetInsertBlock(L->b);
  ParOutline P;
  lower_par_body(L, &P, "parfill", ctxt, (unsigned)ncap + 1);
  Lower *B = &P.B;
  LLVMValueRef bcaps[14];
  for (int i = 0; i < ncap; i++) bcaps[i] = LLVMBuildExtractValue(B->b, P.cv, (unsigned)(1 + i), "");
  index_loop(B, (Val){a.ty, LLVMBuildExtractValue(B->b, P.cv, 0, ""), false}, P.lo, P.hi, bcaps, fn, ud);
  LLVMBuildBr(B->b, B->cleanup);
  LLVMPositionBuilderAtEnd(B->b, B->cleanup);
  LLVMValueRef body = lower_par_body_end(&P);
  LLVMPositionBuilderAtEnd(L->b, here);
  LLVMBasicBlockRef par = lower_block(L, "ixpar"), ser = lower_block(L, "ixser"), join = lower_block(L, "ixparend");
  LLVMBuildCondBr(L->b, big_enough(L, 1, &n), par, ser);
  LLVMPositionBuilderAtEnd(L->b, ser);
  index_loop(L, a, lower_i64(L, 0), n, caps, fn, ud);
  LLVMBuildBr(L->b, join);
  LLVMPositionBuilderAtEnd(L->b, par);
  LLVMValueRef cval = LLVMBuildInsertValue(L->b, LLVMGetUndef(ctxt), a.v, 0, "");
  for (int i = 0; i < ncap; i++) cval = LLVMBuildInsertValue(L->b, cval, caps[i], (unsigned)(1 + i), "");
  ParCall pc;
  lower_par_call_begin(L, &pc);
  lower_par_call(L, &pc, n, body, ctxt, cval, (unsigned)ncap + 1, NULL, NULL);
  lower_par_call_end(L, &pc);
  LLVMBuildBr(L->b, join);
  LLVMPositionBuilderAtEnd(L->b, join);
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
  unsigned nacc = (unsigned)R->nacc;
  ParOutline P;
  lower_par_body(L, &P, "parreduce", ctxt, 2 + nacc);
  Lower *B = &P.B;
  LLVMValueRef a = LLVMBuildExtractValue(B->b, P.cv, 0, "");
  LLVMValueRef acc[8], saved[8];
  for (unsigned i = 0; i < nacc; i++) {
    acc[i] = lower_entry_alloca(B, R->tys[i], "pacc");
    LLVMBuildStore(B->b, LLVMBuildExtractValue(B->b, P.cv, 1 + i, ""), acc[i]);
  }
  LLVMValueRef parts = LLVMBuildBitCast(B->b, LLVMBuildExtractValue(B->b, P.cv, 1 + nacc, ""), LLVMPointerType(R->partt, 0), "");
  LLVMValueRef view = chunk_view(B, t, a, P.lo, P.hi);
  for (unsigned i = 0; i < nacc; i++) {  /* the element code updates this chunk's accumulators */
    saved[i] = *R->slots[i];
    *R->slots[i] = acc[i];
  }
  lower_foreach(B, (Val){t, view, false}, R->fn, R->ud);
  for (unsigned i = 0; i < nacc; i++) *R->slots[i] = saved[i];
  LLVMValueRef mine = LLVMBuildInBoundsGEP2(B->b, R->partt, parts, &P.worker, 1, "");
  for (unsigned i = 0; i < nacc; i++)
    LLVMBuildStore(B->b, LLVMBuildLoad2(B->b, R->tys[i], acc[i], ""), LLVMBuildStructGEP2(B->b, R->partt, mine, i, ""));
  LLVMBuildBr(B->b, B->cleanup);
  LLVMPositionBuilderAtEnd(B->b, B->cleanup);
  return lower_par_body_end(&P);
}

typedef struct RedRun {
  RedPlan *R;
  LLVMValueRef parts, start;
  LLVMValueRef (*combine)(Lower *L, int i, LLVMValueRef cur, LLVMValueRef part, void *ud);
} RedRun;

static void init_part(Lower *L, LLVMValueRef w, void *ud) {
  RedRun *r = ud;
  LLVMBuildStore(L->b, r->start, LLVMBuildInBoundsGEP2(L->b, r->R->partt, r->parts, &w, 1, ""));
}

static void combine_part(Lower *L, LLVMValueRef w, void *ud) {
  RedRun *r = ud;
  RedPlan *R = r->R;
  LLVMValueRef pp = LLVMBuildInBoundsGEP2(L->b, R->partt, r->parts, &w, 1, "");
  for (int i = 0; i < R->nacc; i++) {
    LLVMValueRef cur = LLVMBuildLoad2(L->b, R->tys[i], *R->slots[i], "");
    LLVMValueRef part = LLVMBuildLoad2(L->b, R->tys[i], LLVMBuildStructGEP2(L->b, R->partt, pp, (unsigned)i, ""), "");
    LLVMBuildStore(L->b, r->combine(L, i, cur, part, R->ud), *R->slots[i]);
  }
}

bool lower_par_reduce(Lower *L, Val a, ElemFn fn, void *ud, LLVMValueRef **slots, LLVMTypeRef *tys, int nacc,
                      LLVMValueRef (*combine)(Lower *L, int i, LLVMValueRef cur, LLVMValueRef part, void *ud)) {
  Type *t = a.ty;
  if (!ax_par_ok(L) || t->kind != TY_ARRAY || t->ndim == 0 || nacc > 8) return false;
  char line[300];
  snprintf(line, sizeof line, "%s(): reduction at line %d runs as a parallel loop over axis 0 of its %d-d operand "
           "(a partial result per thread, combined in thread order)", L->spec->def->name, lower_stmt_loc(L).line, t->ndim);
  parfor_diag(L->C, line);
  LLVMContextRef ctx = L->ctx;
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
  LLVMValueRef shape[LM_MAXDIM];
  ax_leaf_shape(L, a, shape);
  LLVMBasicBlockRef par = lower_block(L, "redpar"), ser = lower_block(L, "redser"), join = lower_block(L, "redparend");
  LLVMBuildCondBr(L->b, big_enough(L, t->ndim, shape), par, ser);
  LLVMPositionBuilderAtEnd(L->b, ser);
  lower_foreach(L, a, fn, ud);
  LLVMBuildBr(L->b, join);
  LLVMPositionBuilderAtEnd(L->b, par);
  ParCall pc;
  lower_par_call_begin(L, &pc);
  /* every worker's partials start at the accumulators' start values (the identities) */
  RedRun rr = {&R, LLVMBuildArrayAlloca(L->b, R.partt, pc.nw64, "redparts"), LLVMGetUndef(R.partt), combine};
  LLVMValueRef cval = LLVMBuildInsertValue(L->b, LLVMGetUndef(ctxt), a.v, 0, "");
  for (int i = 0; i < nacc; i++) {
    LLVMValueRef v = LLVMBuildLoad2(L->b, tys[i], *slots[i], "");
    rr.start = LLVMBuildInsertValue(L->b, rr.start, v, (unsigned)i, "");
    cval = LLVMBuildInsertValue(L->b, cval, v, (unsigned)(1 + i), "");
  }
  cval = LLVMBuildInsertValue(L->b, cval, LLVMBuildBitCast(L->b, rr.parts, i8p, ""), (unsigned)(1 + nacc), "");
  lower_par_each_worker(L, &pc, init_part, &rr);
  lower_par_call(L, &pc, shape[0], body, ctxt, cval, (unsigned)(2 + nacc), NULL, NULL);
  lower_par_each_worker(L, &pc, combine_part, &rr);  /* in worker order */
  lower_par_call_end(L, &pc);
  LLVMBuildBr(L->b, join);
  LLVMPositionBuilderAtEnd(L->b, join);
  return true;
}
