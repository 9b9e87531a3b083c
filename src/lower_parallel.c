/*
** lower_parallel.c — prange loops of parallel functions, as the parfor
** pass (parfor.c) decided them. The loop body is outlined into
**   i32 body(i8 *ctx, i64 lo, i64 hi, i64 worker)
** and run on the pool by par_for (parallel.c). Locals are captured by
** value; each worker starts its reductions from the operator's identity,
** and the partials are combined with the value held before the loop; an
** array reduction's partial is an array of the variable's shape, added (or
** multiplied) into the variable's array in place after the loop.
** Private locals are poisoned after the loop: reading one is an error.
*/
#include <math.h>

#include "lower_arrayexpr.h"
#include "parfor.h"

static void assume_sge0(Lower *L, LLVMValueRef v) {
  LLVMValueRef c = LLVMBuildICmp(L->b, LLVMIntSGE, v, LLVMConstNull(LLVMTypeOf(v)), "");
  lower_intrinsic(L, "llvm.assume", NULL, 0, &c, 1);
}

static bool nonneg_const(Node *n, int64_t *v) {
  if (n->kind == ND_Constant && n->ckind == CK_INT && n->ival >= 0) { *v = n->ival; return true; }
  return false;
}

/* ---- the outlined body and the call of par_for, shared by every parallel loop ---- */

void lower_par_body(Lower *L, ParOutline *P, const char *kind, LLVMTypeRef ctxt, unsigned errfield) {
  LLVMContextRef ctx = L->ctx;
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx), i32 = LLVMInt32TypeInContext(ctx);
  LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
  LLVMTypeRef bps[4] = {i8p, i64, i64, i64};
  char name[300];
  snprintf(name, sizeof name, "%s__%s%lld", L->spec->symbol, kind, (long long)++L->C->S->counter);
  LLVMValueRef fn = LLVMAddFunction(L->C->mod, name, LLVMFunctionType(i32, bps, 4, 0));
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  Lower *B = &P->B;
  *B = *L;
  B->fn = fn;
  B->poison = NULL;
  B->loop = NULL;
  B->slots = NULL;
  B->held = NULL;  /* the caller's held values are the caller's to release */
  B->nheld = B->capheld = 0;
  B->in_par = true;
  B->retp = NULL;
  B->entry = lower_block(B, "entry");
  LLVMBasicBlockRef body = lower_block(B, "chunk");
  B->cleanup = lower_block(B, "cleanup");
  LLVMPositionBuilderAtEnd(B->b, B->entry);
  P->cv = LLVMBuildLoad2(B->b, ctxt, LLVMBuildBitCast(B->b, LLVMGetParam(fn, 0), LLVMPointerType(ctxt, 0), ""), "ctx");
  P->lo = LLVMGetParam(fn, 1);
  P->hi = LLVMGetParam(fn, 2);
  P->worker = LLVMGetParam(fn, 3);
  LLVMValueRef errs = LLVMBuildExtractValue(B->b, P->cv, errfield, "");
  B->err = LLVMBuildInBoundsGEP2(B->b, lower_err_type(ctx), errs, &P->worker, 1, "err");
  B->status = LLVMBuildAlloca(B->b, i32, "status");
  LLVMBuildStore(B->b, lower_i32(B, 0), B->status);
  assume_sge0(B, P->lo);  /* par_for's chunks start at 0 or later */
  LLVMBuildBr(B->b, body);
  LLVMPositionBuilderAtEnd(B->b, body);
}

LLVMValueRef lower_par_body_end(ParOutline *P) {
  Lower *B = &P->B;
  LLVMBuildRet(B->b, LLVMBuildLoad2(B->b, LLVMInt32TypeInContext(B->ctx), B->status, ""));
  return B->fn;
}

static LLVMValueRef rt_call(Lower *L, const char *name, LLVMTypeRef ret, LLVMTypeRef *ps, int np, LLVMValueRef *args) {
  LLVMValueRef f = lower_rt_fn(L, name, ret, ps, np);
  return LLVMBuildCall2(L->b, LLVMGlobalGetValueType(f), f, args, (unsigned)np, "");
}

void lower_par_call_begin(Lower *L, ParCall *pc) {
  LLVMContextRef ctx = L->ctx;
  LLVMTypeRef errt = lower_err_type(ctx);
  pc->nw64 = LLVMBuildSExt(L->b, rt_call(L, "par_max_workers", LLVMInt32TypeInContext(ctx), NULL, 0, NULL),
                           LLVMInt64TypeInContext(ctx), "nw");
  /* the per-worker arrays are sized at run time, so they are allocated
  ** here, not in the entry block: between a stack save and restore, or a
  ** parallel loop inside a loop grows the stack each time round (20,000
  ** regions of 16 workers overflowed 8 MB). The error path returns, freeing them. */
  pc->sp = lower_intrinsic(L, "llvm.stacksave", NULL, 0, NULL, 0);
  pc->errs = LLVMBuildArrayAlloca(L->b, errt, pc->nw64, "errs");
  LLVMBuildMemSet(L->b, pc->errs, LLVMConstInt(LLVMInt8TypeInContext(ctx), 0, 0),
                  LLVMBuildMul(L->b, pc->nw64, LLVMSizeOf(errt), ""), 8);
  pc->w = lower_entry_alloca(L, LLVMInt64TypeInContext(ctx), "w");
}

void lower_par_call(Lower *L, ParCall *pc, LLVMValueRef n, LLVMValueRef body, LLVMTypeRef ctxt, LLVMValueRef cval,
                    unsigned errfield, void (*on_fail)(Lower *L, void *ud), void *ud) {
  LLVMContextRef ctx = L->ctx;
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx), i32 = LLVMInt32TypeInContext(ctx);
  LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
  LLVMTypeRef errt = lower_err_type(ctx);
  cval = LLVMBuildInsertValue(L->b, cval, pc->errs, errfield, "");
  LLVMValueRef cslot = lower_entry_alloca(L, ctxt, "pctx");
  LLVMBuildStore(L->b, cval, cslot);
  LLVMTypeRef pfps[3] = {i64, LLVMTypeOf(body), i8p};
  LLVMValueRef pargs[3] = {n, body, LLVMBuildBitCast(L->b, cslot, i8p, "")};
  LLVMValueRef st = rt_call(L, "par_for", i32, pfps, 3, pargs);
  /* a failure: the first failing worker's error record becomes ours */
  LLVMBasicBlockRef bad = lower_block(L, "perr"), fh = lower_block(L, "pfind"), fnext = lower_block(L, "pfnext"),
                    fok = lower_block(L, "pfound"), good = lower_block(L, "pok");
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntNE, st, lower_i32(L, 0), ""), bad, good);
  LLVMPositionBuilderAtEnd(L->b, bad);
  LLVMBuildStore(L->b, lower_i64(L, 0), pc->w);
  LLVMBuildBr(L->b, fh);
  LLVMPositionBuilderAtEnd(L->b, fh);
  LLVMValueRef fw = LLVMBuildLoad2(L->b, i64, pc->w, "");
  LLVMValueRef ep = LLVMBuildInBoundsGEP2(L->b, errt, pc->errs, &fw, 1, "");
  LLVMValueRef ek = LLVMBuildLoad2(L->b, i32, LLVMBuildStructGEP2(L->b, errt, ep, 0, ""), "");
  LLVMValueRef found = LLVMBuildOr(L->b, LLVMBuildICmp(L->b, LLVMIntNE, ek, lower_i32(L, 0), ""),
                                   LLVMBuildICmp(L->b, LLVMIntSGE, fw, LLVMBuildSub(L->b, pc->nw64, lower_i64(L, 1), ""), ""), "");
  LLVMBuildCondBr(L->b, found, fok, fnext);
  LLVMPositionBuilderAtEnd(L->b, fnext);
  LLVMBuildStore(L->b, LLVMBuildAdd(L->b, fw, lower_i64(L, 1), ""), pc->w);
  LLVMBuildBr(L->b, fh);
  LLVMPositionBuilderAtEnd(L->b, fok);
  if (on_fail) on_fail(L, ud);
  LLVMBuildStore(L->b, LLVMBuildLoad2(L->b, errt, ep, ""), L->err);
  LLVMBuildStore(L->b, st, L->status);
  lower_note_where(L, false);
  lower_release_held(L);
  LLVMBuildBr(L->b, L->cleanup);
  LLVMPositionBuilderAtEnd(L->b, good);
}

void lower_par_each_worker(Lower *L, ParCall *pc, void (*each)(Lower *L, LLVMValueRef w, void *ud), void *ud) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  LLVMBasicBlockRef h = lower_block(L, "pw"), b = lower_block(L, "pwb"), e = lower_block(L, "pwe");
  LLVMBuildStore(L->b, lower_i64(L, 0), pc->w);
  LLVMBuildBr(L->b, h);
  LLVMPositionBuilderAtEnd(L->b, h);
  LLVMValueRef w = LLVMBuildLoad2(L->b, i64, pc->w, "");
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, w, pc->nw64, ""), b, e);
  LLVMPositionBuilderAtEnd(L->b, b);
  each(L, w, ud);
  LLVMBuildStore(L->b, LLVMBuildAdd(L->b, w, lower_i64(L, 1), ""), pc->w);
  LLVMBuildBr(L->b, h);
  LLVMPositionBuilderAtEnd(L->b, e);
}

void lower_par_call_end(Lower *L, ParCall *pc) {
  lower_intrinsic(L, "llvm.stackrestore", NULL, 0, &pc->sp, 1);
}

/* where a worker's partial starts (PAR_INIT_MIN: default) */
static LLVMValueRef identity(Lower *L, Type *t, ParInit init) {
  LLVMTypeRef lt = lower_type(L, t);
  bool fl = ty_is_float(t);
  switch (init) {
    case PAR_INIT_ZERO: return LLVMConstNull(lt);
    case PAR_INIT_ONE: return fl ? LLVMConstReal(lt, 1) : LLVMConstInt(lt, 1, 0);
    case PAR_INIT_MAX: return fl ? LLVMConstReal(lt, INFINITY)
                                 : ty_is_signed(t) ? LLVMConstInt(lt, (unsigned long long)INT64_MAX >> (64 - ty_bits(t)), 0)
                                                   : LLVMConstAllOnes(lt);
    default: return fl ? LLVMConstReal(lt, -INFINITY)
                       : ty_is_signed(t) ? LLVMConstInt(lt, ~((unsigned long long)INT64_MAX >> (64 - ty_bits(t))), 1)
                                         : LLVMConstNull(lt);
  }
}

static LLVMValueRef combine(Lower *L, Type *t, char op, LLVMValueRef a, LLVMValueRef b) {
  bool fl = ty_is_float(t);
  switch (op) {
    case '+': return fl ? LLVMBuildFAdd(L->b, a, b, "") : LLVMBuildAdd(L->b, a, b, "");
    case '*': return fl ? LLVMBuildFMul(L->b, a, b, "") : LLVMBuildMul(L->b, a, b, "");
    default: {
      bool mn = op == 'm';
      LLVMValueRef lt = fl ? LLVMBuildFCmp(L->b, mn ? LLVMRealOLT : LLVMRealOGT, b, a, "")
                           : LLVMBuildICmp(L->b, mn ? (ty_is_signed(t) ? LLVMIntSLT : LLVMIntULT)
                                                    : (ty_is_signed(t) ? LLVMIntSGT : LLVMIntUGT), b, a, "");
      return LLVMBuildSelect(L->b, lt, b, a, "");
    }
  }
}

/* the reduction of local i (a PAR_REDUCTION of p) */
static const ParReduction *reduction(const ParLoop *p, int i) {
  for (int r = 0; r < p->nred; r++)
    if (p->reds[r].slot == i) return &p->reds[r];
  LM_UNREACHABLE();
}

/* an array reduction's partial: a new array of the shape of the value
** before the loop (outer), every element the operator's identity */
static LLVMValueRef array_partial(Lower *L, Type *t, LLVMValueRef outer, ParInit init) {
  LLVMValueRef shape[LM_MAXDIM];
  for (int k = 0; k < t->ndim; k++) shape[k] = lower_arr_shape(L, outer, k);
  Val a = lower_alloc_uninit(L, t, shape);
  lower_fill(L, a, identity(L, ty_scalar(t->dtype), init));
  return a.v;
}

/* cur op= part, elementwise in place (the partials have cur's shape); part released */
static void combine_arrays(Lower *L, Type *t, char op, LLVMValueRef cur, LLVMValueRef part) {
  LLVMBasicBlockRef has = lower_block(L, "predarr"), next = lower_block(L, "predarrend");
  LLVMValueRef mi = LLVMBuildPtrToInt(L->b, lower_arr_mi(L, part), LLVMInt64TypeInContext(L->ctx), "");
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntNE, mi, lower_i64(L, 0), ""), has, next);
  LLVMPositionBuilderAtEnd(L->b, has);
  Ax *x = arena_alloc(L->C->A, sizeof *x);
  *x = (Ax){.root = NULL, .loc = L->spec->def->loc, .op = op == '+' ? OP_Add : OP_Mult, .opty = t, .target = 1, .nleaf = 2};
  x->leaf[0].v = (Val){t, part, false};
  x->leaf[1].v = (Val){t, cur, false};
  LLVMValueRef shape[LM_MAXDIM];
  ax_leaf_shape(L, x->leaf[1].v, shape);
  ax_strides(L, x, t->ndim, shape);
  ax_loop(L, x, t->ndim, shape, x->leaf[1].v);
  lower_decref(L, (Val){t, part, true});
  LLVMBuildBr(L->b, next);
  LLVMPositionBuilderAtEnd(L->b, next);
}

/* the partials of one parallel prange loop */
typedef struct Parts {
  const ParLoop *P;
  LLVMTypeRef redt;
  LLVMValueRef arr;
  ParCall *pc;
} Parts;

static void release_worker(Lower *L, LLVMValueRef w, void *ud) {
  Parts *R = ud;
  LLVMValueRef pp = LLVMBuildInBoundsGEP2(L->b, R->redt, R->arr, &w, 1, "");
  for (int r = 0; r < R->P->nred; r++) {
    Type *t = L->spec->locals[R->P->reds[r].slot].ty;
    if (t->kind != TY_ARRAY) continue;
    LLVMValueRef v = LLVMBuildLoad2(L->b, lower_type(L, t), LLVMBuildStructGEP2(L->b, R->redt, pp, (unsigned)r, ""), "");
    lower_decref(L, (Val){t, v, true});
  }
}

/* a failed loop: the array partials the workers made are dropped */
static void release_partials(Lower *L, void *ud) {
  Parts *R = ud;
  bool any = false;
  for (int r = 0; r < R->P->nred; r++) any |= L->spec->locals[R->P->reds[r].slot].ty->kind == TY_ARRAY;
  if (any) lower_par_each_worker(L, R->pc, release_worker, R);
}

/* every worker's partials start as identities (an array partial: none until the worker runs) */
static void init_worker(Lower *L, LLVMValueRef w, void *ud) {
  Parts *R = ud;
  LLVMValueRef pv = LLVMGetUndef(R->redt);
  for (int r = 0; r < R->P->nred; r++) {
    Type *t = L->spec->locals[R->P->reds[r].slot].ty;
    pv = LLVMBuildInsertValue(L->b, pv, t->kind == TY_ARRAY ? LLVMConstNull(lower_type(L, t)) : identity(L, t, R->P->reds[r].init),
                              (unsigned)r, "");
  }
  LLVMBuildStore(L->b, pv, LLVMBuildInBoundsGEP2(L->b, R->redt, R->arr, &w, 1, ""));
}

/* the worker's partials combined with the value before the loop */
static void combine_worker(Lower *L, LLVMValueRef w, void *ud) {
  Parts *R = ud;
  LLVMValueRef pp = LLVMBuildInBoundsGEP2(L->b, R->redt, R->arr, &w, 1, "");
  for (int r = 0; r < R->P->nred; r++) {
    int i = R->P->reds[r].slot;
    Type *t = L->spec->locals[i].ty;
    LLVMTypeRef lt = lower_type(L, t);
    LLVMValueRef cur = LLVMBuildLoad2(L->b, lt, L->slots[i], "");
    LLVMValueRef part = LLVMBuildLoad2(L->b, lt, LLVMBuildStructGEP2(L->b, R->redt, pp, (unsigned)r, ""), "");
    if (t->kind == TY_ARRAY) combine_arrays(L, t, R->P->reds[r].op, cur, part);
    else LLVMBuildStore(L->b, combine(L, t, R->P->reds[r].op, cur, part), L->slots[i]);
  }
}

bool lower_prange(Lower *L, Node *s) {
  Compile *C = L->C;
  FuncSpec *spec = L->spec;
  ParLoop *P = parfor_find(spec, s);
  if (P == NULL || P->serial) return false;
  const unsigned char *role = P->role;
  int nl = spec->nlocals;
  LLVMContextRef ctx = L->ctx;
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
  LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
  LLVMTypeRef errt = lower_err_type(ctx);
  /* ctx: every local's value, then partials*, errs*, start, step */
  LLVMTypeRef *ft = arena_alloc(C->A, sizeof(LLVMTypeRef) * (size_t)(nl + 4));
  for (int i = 0; i < nl; i++) ft[i] = lower_type(L, spec->locals[i].ty);
  ft[nl] = i8p;
  ft[nl + 1] = LLVMPointerType(errt, 0);
  ft[nl + 2] = i64;
  ft[nl + 3] = i64;
  LLVMTypeRef ctxt = LLVMStructTypeInContext(ctx, ft, (unsigned)(nl + 4), 0);
  /* the reductions' partial values, one struct per worker */
  int nred = P->nred;
  const ParReduction *reds = P->reds;
  LLVMTypeRef *rt = arena_alloc(C->A, sizeof(LLVMTypeRef) * (size_t)(nl + 1));
  for (int r = 0; r < nred; r++) rt[r] = lower_type(L, spec->locals[reds[r].slot].ty);
  LLVMTypeRef redt = LLVMStructTypeInContext(ctx, rt, (unsigned)nred, 0);

  /* ---- the outlined body ---- */
  LLVMBasicBlockRef saved = LLVMGetInsertBlock(L->b);
  ParOutline PB;
  lower_par_body(L, &PB, "prange", ctxt, (unsigned)nl + 1);
  Lower *B = &PB.B;
  LLVMValueRef cv = PB.cv;
  B->slots = arena_alloc(C->A, sizeof(LLVMValueRef) * (size_t)(nl + 1));
  const signed char *sizes = P->sizes;
  for (int i = 0; i < nl; i++) {
    Type *t = spec->locals[i].ty;
    B->slots[i] = lower_entry_alloca(B, lower_type(B, t), spec->locals[i].name);
    /* an array reduction's slot starts empty; its partial is made below */
    LLVMValueRef v = role[i] == PAR_REDUCTION ? (t->kind == TY_ARRAY ? LLVMConstNull(lower_type(B, t))
                                                                     : identity(B, t, reduction(P, i)->init))
                                              : LLVMBuildExtractValue(B->b, cv, (unsigned)i, "");
    if (t->kind == TY_ARRAY && role[i] == PAR_SHARED) v = lower_restate_array(B, t, v);
    if (role[i] == PAR_SHARED && sizes[i] == 1 && ty_is_int(t) && !spec->locals[i].is_param) assume_sge0(B, v);
    if (role[i] != PAR_REDUCTION) lower_incref(B, (Val){t, v, false});
    LLVMBuildStore(B->b, v, B->slots[i]);
  }
  for (int r = 0; r < P->nred; r++) {
    int i = P->reds[r].slot;
    Type *t = spec->locals[i].ty;
    if (t->kind == TY_ARRAY)
      LLVMBuildStore(B->b, array_partial(B, t, LLVMBuildExtractValue(B->b, cv, (unsigned)i, ""), P->reds[r].init),
                     B->slots[i]);
  }
  /* prange(n) and constant bounds: known start and step keep i's range visible */
  int64_t cstart = 0, cstep = 1;
  bool kstart = P->start == NULL || nonneg_const(P->start, &cstart);
  bool kstep = P->step == NULL || nonneg_const(P->step, &cstep);
  LLVMValueRef start = kstart ? lower_i64(B, cstart) : LLVMBuildExtractValue(B->b, cv, (unsigned)nl + 2, "");
  LLVMValueRef step = kstep && cstep > 0 ? lower_i64(B, cstep) : LLVMBuildExtractValue(B->b, cv, (unsigned)nl + 3, "");
  LLVMValueRef ctr = lower_entry_alloca(B, i64, "k");
  LLVMBuildStore(B->b, PB.lo, ctr);
  LLVMBasicBlockRef head = lower_block(B, "phead"), lb = lower_block(B, "pbody"), latch = lower_block(B, "pnext"),
                    done = lower_block(B, "pdone");
  LLVMBuildBr(B->b, head);
  LLVMPositionBuilderAtEnd(B->b, head);
  LLVMValueRef k = LLVMBuildLoad2(B->b, i64, ctr, "");
  LLVMBuildCondBr(B->b, LLVMBuildICmp(B->b, LLVMIntSLT, k, PB.hi, ""), lb, done);
  LLVMPositionBuilderAtEnd(B->b, lb);
  LLVMValueRef iv = kstart && kstep && cstep > 0 ? LLVMBuildNSWAdd(B->b, start, LLVMBuildNSWMul(B->b, k, step, ""), "i")
                                                : LLVMBuildAdd(B->b, start, LLVMBuildMul(B->b, k, step, ""), "i");
  LLVMBuildStore(B->b, iv, B->slots[P->index]);
  LoopCtx lc = {done, latch, NULL};
  B->loop = &lc;
  lower_body(B, &s->body);
  if (!lower_terminated(B)) LLVMBuildBr(B->b, latch);
  LLVMPositionBuilderAtEnd(B->b, latch);
  LLVMBuildStore(B->b, LLVMBuildNSWAdd(B->b, LLVMBuildLoad2(B->b, i64, ctr, ""), lower_i64(B, 1), ""), ctr);
  LLVMBuildBr(B->b, head);
  LLVMPositionBuilderAtEnd(B->b, done);
  if (nred) {
    LLVMValueRef parts = LLVMBuildBitCast(B->b, LLVMBuildExtractValue(B->b, cv, (unsigned)nl, ""), LLVMPointerType(redt, 0), "");
    LLVMValueRef mine = LLVMBuildInBoundsGEP2(B->b, redt, parts, &PB.worker, 1, "");
    for (int r = 0; r < nred; r++) {
      Type *t = spec->locals[reds[r].slot].ty;
      LLVMValueRef v = LLVMBuildLoad2(B->b, rt[r], B->slots[reds[r].slot], "");
      if (t->kind == TY_ARRAY) lower_incref(B, (Val){t, v, false});  /* the cleanup below drops the slot's reference */
      LLVMBuildStore(B->b, v, LLVMBuildStructGEP2(B->b, redt, mine, (unsigned)r, ""));
    }
  }
  LLVMBuildBr(B->b, B->cleanup);
  LLVMPositionBuilderAtEnd(B->b, B->cleanup);
  for (int i = 0; i < nl; i++) {
    Type *t = spec->locals[i].ty;
    if (t->kind != TY_SCALAR) lower_decref(B, (Val){t, LLVMBuildLoad2(B->b, lower_type(B, t), B->slots[i], ""), true});
  }
  LLVMValueRef bodyfn = lower_par_body_end(&PB);

  /* ---- the caller: range length, context, partials, par_for, combine ---- */
  LLVMPositionBuilderAtEnd(L->b, saved);
  LLVMValueRef pstart = lower_i64(L, 0), pstop, pstep = lower_i64(L, 1);
  if (P->start == NULL) {
    pstop = lower_cast(L, lower_expr(L, P->stop), ty_int64).v;
  } else {
    pstart = lower_cast(L, lower_expr(L, P->start), ty_int64).v;
    pstop = lower_cast(L, lower_expr(L, P->stop), ty_int64).v;
    if (P->step) {
      pstep = lower_cast(L, lower_expr(L, P->step), ty_int64).v;
      lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntEQ, pstep, lower_i64(L, 0), ""), LMERR_VALUE,
                     "range() arg 3 must not be zero");
    }
  }
  /* len(range(start, stop, step)); beyond 2^63 - 1 (par_for counts in
  ** int64) it is clamped: those iterations would never be reached anyway */
  LLVMValueRef n = lower_range_count(L, pstart, pstop, pstep);
  n = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, n, lower_i64(L, 0), ""), lower_i64(L, INT64_MAX), n, "n");

  ParCall pc;
  lower_par_call_begin(L, &pc);
  LLVMValueRef partarr = LLVMBuildArrayAlloca(L->b, nred ? redt : LLVMInt8TypeInContext(ctx), pc.nw64, "parts");
  LLVMValueRef cval = LLVMGetUndef(ctxt);
  for (int i = 0; i < nl; i++)
    cval = LLVMBuildInsertValue(L->b, cval, LLVMBuildLoad2(L->b, ft[i], L->slots[i], ""), (unsigned)i, "");
  cval = LLVMBuildInsertValue(L->b, cval, LLVMBuildBitCast(L->b, partarr, i8p, ""), (unsigned)nl, "");
  cval = LLVMBuildInsertValue(L->b, cval, pstart, (unsigned)nl + 2, "");
  cval = LLVMBuildInsertValue(L->b, cval, pstep, (unsigned)nl + 3, "");
  Parts parts = {P, redt, partarr, &pc};
  if (nred) lower_par_each_worker(L, &pc, init_worker, &parts);
  lower_par_call(L, &pc, n, bodyfn, ctxt, cval, (unsigned)nl + 1, release_partials, &parts);
  /* combine the partials, in worker order, with the value before the loop */
  if (nred) lower_par_each_worker(L, &pc, combine_worker, &parts);
  lower_par_call_end(L, &pc);
  if (L->poison == NULL) L->poison = arena_alloc(C->A, (size_t)nl + 1);
  for (int i = 0; i < nl; i++)
    if (role[i] == PAR_PRIVATE) L->poison[i] = 1;
  return true;
}
