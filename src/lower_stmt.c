/*
** lower_stmt.c — statements: assignment, control flow, loops, raise.
*/
#include <string.h>

#include "interrupt.h"
#include "lower.h"


/* stores v into a local slot: the slot takes a reference, the old value drops one */
void lower_store_local(Lower *L, int slot, Val v) {
  Type *lt = L->spec->locals[slot].ty;
  if (L->poison) L->poison[slot] = 0;
  Val cv = lower_cast(L, v, lt);
  if (L->refcount && (lt->kind == TY_ARRAY || lt->kind == TY_TUPLE || lt->kind == TY_CLASS)) {
    if (!cv.owned) lower_incref(L, cv);
    Val old = {lt, LLVMBuildLoad2(L->b, lower_type(L, lt), L->slots[slot], "old"), true};
    LLVMBuildStore(L->b, cv.v, L->slots[slot]);
    lower_decref(L, old);
    return;
  }
  LLVMBuildStore(L->b, cv.v, L->slots[slot]);
}

void lower_store_target(Lower *L, Node *t, Val v) {
  switch (t->kind) {
    case ND_Name: lower_store_local(L, lower_ann(L, t)->slot, v); return;
    case ND_Tuple: case ND_List:
      for (int i = 0; i < t->elts.len; i++) {
        Val e = {v.ty->elems[i], LLVMBuildExtractValue(L->b, v.v, (unsigned)i, ""), false};
        lower_store_target(L, t->elts.items[i], e);
      }
      lower_release(L, v);
      return;
    case ND_Subscript: lower_store_subscript(L, t, v); return;
    case ND_Attribute:
      if (lower_record_attr(L, t, false)) lower_record_target(L, t)->record_store(L, t, v, OP_None, NULL);
      else lower_class_target(L, t)->class_store(L, t, v);
      return;
    default: LM_UNREACHABLE();
  }
}

static bool is_array(Lower *L, Node *n) {
  Type *t = lower_ann(L, n)->ty;
  if (n->kind == ND_Name && lower_ann(L, n)->slot >= 0) t = L->spec->locals[lower_ann(L, n)->slot].ty;
  return t && t->kind == TY_ARRAY;
}

/* The counter's step of a GPU while loop (lower_while): cur op rhs as an add
** or sub with no signed wrap, so that NVVM knows the trip count of a
** grid-stride loop and unrolls it as it does CUDA C's (whose int64 counter
** cannot overflow either); NULL when the operation is no int64 + or -. */
static LLVMValueRef counter_step(Lower *L, const Node *s, OpKind op, Val cur, Val rhs, Type *rt) {
  if (s != L->counter_step || rt != ty_int64 || !ty_is_int(cur.ty) || !ty_is_int(rhs.ty) || (op != OP_Add && op != OP_Sub))
    return NULL;
  LLVMValueRef x = lower_cast(L, cur, rt).v, y = lower_cast(L, rhs, rt).v;
  return op == OP_Add ? LLVMBuildNSWAdd(L->b, x, y, "") : LLVMBuildNSWSub(L->b, x, y, "");
}

static void lower_assign(Lower *L, Node *s) {
  Node *t0 = s->targets.items[0];
  if (s == L->counter_step) {  /* i = i + e (Lua's form of i += e) */
    Node *e = s->value;
    Val cur = lower_expr(L, e->left), rhs = lower_expr(L, e->right);
    LLVMValueRef r = counter_step(L, s, e->op, cur, rhs, lower_ann(L, e)->ty);
    Val v = {lower_ann(L, e)->ty, r ? r : lower_binop(L, e->op, cur, rhs, lower_ann(L, e)->ty, e->loc), false};
    lower_store_target(L, t0, v);
    return;
  }
  if (s->targets.len == 1 && t0->kind == ND_Subscript && is_array(L, t0) && is_array(L, s->value) &&
      L->C->target->array_store) {
    L->C->target->array_store(L, t0, OP_None, NULL, s->value, NULL);  /* fused: the expression's loop writes the view */
    return;
  }
  Val v = lower_expr(L, s->value);
  /* a = b = value: every target takes its own reference; the value is held
  ** while a target's indices are computed (they may raise) */
  int mark = lower_hold(L, v);
  for (int i = 0; i < s->targets.len; i++) {
    Val vi = v;
    vi.owned = false;
    lower_store_target(L, s->targets.items[i], vi);
  }
  lower_unhold(L, mark);
  lower_release(L, v);
}

static void lower_augassign(Lower *L, Node *s) {
  Node *t = s->target;
  if ((t->kind == ND_Name || t->kind == ND_Subscript) && is_array(L, t)) {
    if (L->C->target->array_store == NULL)
      compile_error(L->C, s->loc, "UnsupportedError", "in-place operators on arrays are not supported on this target");
    L->C->target->array_store(L, t, s->op, lower_ann(L, s)->ty, s->value, NULL);  /* NumPy's in-place ufunc */
    return;
  }
  if (t->kind == ND_Name) {
    Type *lt = L->spec->locals[lower_ann(L, t)->slot].ty;
    Val cur = {lt, LLVMBuildLoad2(L->b, lower_type(L, lt), L->slots[lower_ann(L, t)->slot], ""), false};
    if (lt->kind == TY_OPTIONAL) cur = lower_cast(L, cur, ty_scalar(lt->dtype));  /* None raises */
    cur.ty = lower_ann(L, t)->ty ? lower_ann(L, t)->ty : cur.ty;
    Val rhs = lower_expr(L, s->value);
    LLVMValueRef step = counter_step(L, s, s->op, cur, rhs, lower_ann(L, s)->ty);
    Val r = {lower_ann(L, s)->ty, step ? step : lower_binop(L, s->op, cur, rhs, lower_ann(L, s)->ty, s->loc), false};
    lower_store_local(L, lower_ann(L, t)->slot, r);
    return;
  }
  if (lower_record_key(L, t) || (t->kind == ND_Attribute && lower_record_attr(L, t, false))) {  /* r.x op= v */
    lower_record_target(L, t)->record_store(L, t, lower_expr(L, s->value), s->op, lower_ann(L, s)->ty);
    return;
  }
  if (t->kind == ND_Attribute) {  /* inst.field op= v (a number field: infer.c) */
    const Target *tg = lower_class_target(L, t);
    Val cur = tg->class_attr(L, t);
    Val rhs = lower_expr(L, s->value);
    Val r = {lower_ann(L, s)->ty, lower_binop(L, s->op, cur, rhs, lower_ann(L, s)->ty, s->loc), false};
    tg->class_store(L, t, r);
    return;
  }
  /* a[i] op= v: one address computation, load, op, store */
  Val base;
  LLVMValueRef p = lower_elem_ptr(L, t, &base);
  DType dt = base.ty->dtype;
  Val cur = {ty_scalar(dt), lower_load_elem(L, dt, p), false};
  int mark = lower_hold(L, base);  /* the value and the operation may raise */
  Val rhs = lower_expr(L, s->value);
  Val r = {lower_ann(L, s)->ty, lower_binop(L, s->op, cur, rhs, lower_ann(L, s)->ty, s->loc), false};
  lower_unhold(L, mark);
  lower_store_elem(L, dt, p, lower_cast(L, r, ty_scalar(dt)).v);
  lower_release(L, base);
}

static void lower_if(Lower *L, Node *s) {
  const NodeList *taken = spec_if_taken(L->spec, s);
  if (taken) {  /* decided at compile time: the dead branch was never typed */
    lower_body(L, (NodeList *)taken);
    return;
  }
  LLVMBasicBlockRef then = lower_block(L, "then"), els = lower_block(L, "else"), end = lower_block(L, "endif");
  LLVMBuildCondBr(L->b, lower_cond(L, s->test), then, s->orelse.len ? els : end);
  LLVMPositionBuilderAtEnd(L->b, then);
  lower_body(L, &s->body);
  if (!lower_terminated(L)) LLVMBuildBr(L->b, end);
  LLVMPositionBuilderAtEnd(L->b, els);
  if (s->orelse.len) lower_body(L, &s->orelse);
  if (!lower_terminated(L)) LLVMBuildBr(L->b, end);
  LLVMPositionBuilderAtEnd(L->b, end);
}

/* ---- interrupts (interrupt.h): a countdown per loop, a poll at zero ---- */

/* the countdown, set before the loop (nothing on the GPU) */
static LLVMValueRef poll_start(Lower *L) {
  if (L->C->target->gpu) return NULL;
  LLVMValueRef c = lower_entry_alloca(L, LLVMInt32TypeInContext(L->ctx), "poll");
  LLVMBuildStore(L->b, lower_i32(L, LM_POLL_EVERY), c);
  return c;
}

/* at a back-edge: every LM_POLL_EVERY-th time ask lm_interrupt_poll */
static void poll_tick(Lower *L, LLVMValueRef ctr) {
  if (ctr == NULL) return;
  LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
  LLVMValueRef c = LLVMBuildSub(L->b, LLVMBuildLoad2(L->b, i32, ctr, ""), lower_i32(L, 1), "");
  LLVMBuildStore(L->b, c, ctr);
  LLVMBasicBlockRef ask = lower_block(L, "poll"), on = lower_block(L, "polled");
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, c, lower_i32(L, 0), ""), ask, on);
  LLVMPositionBuilderAtEnd(L->b, ask);
  LLVMBuildStore(L->b, lower_i32(L, LM_POLL_EVERY), ctr);
  LLVMValueRef f = lower_rt_fn(L, "lm_interrupt_poll", i32, NULL, 0);
  LLVMValueRef r = LLVMBuildCall2(L->b, LLVMGlobalGetValueType(f), f, NULL, 0, "");
  lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntNE, r, lower_i32(L, 0), ""), LMERR_INTERRUPT, NULL);
  LLVMBuildBr(L->b, on);
  LLVMPositionBuilderAtEnd(L->b, on);
}

/* does a loop body hold another loop (its own statements and its ifs')? */
static bool has_loop(NodeList *body) {
  for (int i = 0; i < body->len; i++) {
    Node *s = body->items[i];
    if (s->kind == ND_For || s->kind == ND_While) return true;
    if (s->kind == ND_If && (has_loop(&s->body) || has_loop(&s->orelse))) return true;
  }
  return false;
}

static bool same_name(const Node *a, const Node *b) {
  return a && b && a->kind == ND_Name && b->kind == ND_Name && strcmp(a->name, b->name) == 0;
}

/* GPU code: the statement of while s's body (at its top level) that steps
** the counter its test compares, `while i < n: ...; i += stride` (also
** i -= e, and i = i + e / i = i - e as Lua writes it); NULL if none. */
static const Node *find_counter_step(Lower *L, const Node *s) {
  const Node *t = s->test;
  if (!L->C->target->gpu || t->kind != ND_Compare || t->elts.len != 1 || t->left->kind != ND_Name) return NULL;
  OpKind c = t->cmpops[0];
  if (c != OP_Lt && c != OP_LtE && c != OP_Gt && c != OP_GtE) return NULL;
  for (int i = 0; i < s->body.len; i++) {
    const Node *st = s->body.items[i];
    if (st->kind == ND_AugAssign && (st->op == OP_Add || st->op == OP_Sub) && same_name(st->target, t->left)) return st;
    if (st->kind == ND_Assign && st->targets.len == 1 && same_name(st->targets.items[0], t->left) &&
        st->value->kind == ND_BinOp && (st->value->op == OP_Add || st->value->op == OP_Sub) &&
        same_name(st->value->left, t->left))
      return st;
  }
  return NULL;
}

static void lower_while(Lower *L, Node *s) {
  LLVMBasicBlockRef head = lower_block(L, "while"), body = lower_block(L, "wbody"), els = lower_block(L, "welse"),
                    end = lower_block(L, "wend"), latch = lower_block(L, "wnext");
  LLVMValueRef poll = poll_start(L);
  LLVMBuildBr(L->b, head);
  LLVMPositionBuilderAtEnd(L->b, head);
  LLVMBuildCondBr(L->b, lower_cond(L, s->test), body, els);
  LLVMPositionBuilderAtEnd(L->b, body);
  LoopCtx lc = {end, latch, L->loop};
  L->loop = &lc;
  const Node *outer_step = L->counter_step;
  L->counter_step = find_counter_step(L, s);
  lower_body(L, &s->body);
  L->counter_step = outer_step;
  L->loop = lc.outer;
  if (!lower_terminated(L)) LLVMBuildBr(L->b, latch);
  LLVMPositionBuilderAtEnd(L->b, latch);
  poll_tick(L, poll);
  LLVMBuildBr(L->b, head);
  LLVMPositionBuilderAtEnd(L->b, els);
  lower_body(L, &s->orelse);
  if (!lower_terminated(L)) LLVMBuildBr(L->b, end);
  LLVMPositionBuilderAtEnd(L->b, end);
}

static bool const_step(Node *n, int64_t *v) {
  if (n == NULL) { *v = 1; return true; }
  if (n->kind == ND_Constant && n->ckind == CK_INT) { *v = n->ival; return true; }
  if (n->kind == ND_UnaryOp && n->op == OP_USub && n->operand->kind == ND_Constant && n->operand->ckind == CK_INT) {
    *v = -n->operand->ival;
    return true;
  }
  return false;
}

/* How many values range(start, stop, step) yields, as an unsigned count.
** Python's range never overflows, but a counter running from start by step
** would wrap at the ends of int64 (range(0, 2**63 - 1, 2**62) would never
** end): the distance between the bounds always fits in 64 unsigned bits. */
LLVMValueRef lower_range_count(Lower *L, LLVMValueRef start, LLVMValueRef stop, LLVMValueRef step) {
  LLVMValueRef zero = lower_i64(L, 0), one = lower_i64(L, 1);
  LLVMValueRef pos = LLVMBuildICmp(L->b, LLVMIntSGT, step, zero, "");
  LLVMValueRef lo = LLVMBuildSelect(L->b, pos, start, stop, ""), hi = LLVMBuildSelect(L->b, pos, stop, start, "");
  LLVMValueRef nonempty = LLVMBuildICmp(L->b, LLVMIntSLT, lo, hi, "");
  LLVMValueRef dist = LLVMBuildSub(L->b, hi, lo, "");
  LLVMValueRef astep = LLVMBuildSelect(L->b, pos, step, LLVMBuildSub(L->b, zero, step, ""), "");
  LLVMValueRef n = LLVMBuildAdd(L->b, LLVMBuildUDiv(L->b, LLVMBuildSub(L->b, dist, one, ""), astep, ""), one, "");
  return LLVMBuildSelect(L->b, nonempty, n, zero, "trips");
}

/* for i in range(start, stop, step): a hidden counter; i is set from it on
** each iteration, so i keeps the last value after the loop as in Python.
** A constant step of 1 counts i itself up to stop (the form LLVM's
** vectoriser knows best, and it cannot overflow); other steps count trips. */
static void lower_for_range(Lower *L, Node *s) {
  Node *it = s->iter;
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  LLVMValueRef start = lower_i64(L, 0), stop, step = lower_i64(L, 1);
  int na = it->args.len;
  Val a0 = lower_cast(L, lower_expr(L, it->args.items[0]), ty_int64);
  if (na == 1) stop = a0.v;
  else {
    start = a0.v;
    stop = lower_cast(L, lower_expr(L, it->args.items[1]), ty_int64).v;
  }
  int64_t cstep = 0;
  bool known = const_step(na == 3 ? it->args.items[2] : NULL, &cstep);
  if (na == 3) {
    step = lower_cast(L, lower_expr(L, it->args.items[2]), ty_int64).v;
    if (!known || cstep == 0)
      lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntEQ, step, lower_i64(L, 0), ""), LMERR_VALUE,
                     "range() arg 3 must not be zero");
  }
  bool unit = known && cstep == 1;
  LLVMValueRef trips = unit ? NULL : lower_range_count(L, start, stop, step);
  LLVMValueRef ctr = lower_entry_alloca(L, i64, "ctr");
  LLVMBuildStore(L->b, unit ? start : lower_i64(L, 0), ctr);
  LLVMValueRef poll = has_loop(&s->body) ? poll_start(L) : NULL;  /* innermost loops stay as the vectoriser likes them */
  LLVMBasicBlockRef head = lower_block(L, "for"), body = lower_block(L, "fbody"), latch = lower_block(L, "fnext"),
                    els = lower_block(L, "felse"), end = lower_block(L, "fend");
  LLVMBuildBr(L->b, head);
  LLVMPositionBuilderAtEnd(L->b, head);
  LLVMValueRef c = LLVMBuildLoad2(L->b, i64, ctr, unit ? "i" : "k");
  LLVMValueRef cond = unit ? LLVMBuildICmp(L->b, LLVMIntSLT, c, stop, "") : LLVMBuildICmp(L->b, LLVMIntULT, c, trips, "");
  LLVMBuildCondBr(L->b, cond, body, els);
  LLVMPositionBuilderAtEnd(L->b, body);
  /* start + k * step wraps only where the true value is in int64 anyway */
  LLVMValueRef i = unit ? c : LLVMBuildAdd(L->b, start, LLVMBuildMul(L->b, c, step, ""), "i");
  lower_store_local(L, lower_ann(L, s->target)->slot, (Val){ty_int64, i, false});
  LoopCtx lc = {end, latch, L->loop};
  L->loop = &lc;
  lower_body(L, &s->body);
  L->loop = lc.outer;
  if (!lower_terminated(L)) LLVMBuildBr(L->b, latch);
  LLVMPositionBuilderAtEnd(L->b, latch);
  LLVMValueRef c2 = LLVMBuildLoad2(L->b, i64, ctr, "");
  /* i < stop (unit step) or k < trips: the increment cannot overflow; say so,
  ** so LLVM knows the counter stays in range */
  LLVMValueRef next = unit ? LLVMBuildNSWAdd(L->b, c2, step, "") : LLVMBuildNUWAdd(L->b, c2, lower_i64(L, 1), "");
  LLVMBuildStore(L->b, next, ctr);
  poll_tick(L, poll);
  LLVMBuildBr(L->b, head);
  LLVMPositionBuilderAtEnd(L->b, els);
  lower_body(L, &s->orelse);
  if (!lower_terminated(L)) LLVMBuildBr(L->b, end);
  LLVMPositionBuilderAtEnd(L->b, end);
}

/* for x in array: rows of an N-d array, elements of a 1-d one; for x in tuple */
static void lower_for_iter(Lower *L, Node *s) {
  Val seq = lower_expr(L, s->iter);
  if (lower_ann(L, s)->slot >= 0) {
    /* the loop's hidden local takes the reference (see infer_for) */
    lower_store_local(L, lower_ann(L, s)->slot, seq);
    seq.owned = false;
  }
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  LLVMValueRef n;
  /* a tuple: its elements converted to their unified type (the loop
  ** variable's, as infer_for types it) in an array the counter indexes;
  ** (1, 2.5) gives 1.0 then 2.5, not the bits of 2.5 read as an int */
  Type *et = NULL;
  LLVMTypeRef spillt = NULL;
  LLVMValueRef spill = NULL;
  if (seq.ty->kind == TY_TUPLE) {
    for (int i = 0; i < seq.ty->nelems; i++) et = ty_unify(&L->C->S->types, et, seq.ty->elems[i]);
    if (et == NULL) {  /* for x in (): the body never runs */
      lower_body(L, &s->orelse);
      lower_release(L, seq);
      return;
    }
    spillt = LLVMArrayType(lower_type(L, et), (unsigned)seq.ty->nelems);
    spill = lower_entry_alloca(L, spillt, "tup");
    for (int i = 0; i < seq.ty->nelems; i++) {
      Val e = {seq.ty->elems[i], LLVMBuildExtractValue(L->b, seq.v, (unsigned)i, ""), false};
      LLVMValueRef ix[2] = {lower_i32(L, 0), lower_i32(L, i)};
      LLVMBuildStore(L->b, lower_cast(L, e, et).v, LLVMBuildInBoundsGEP2(L->b, spillt, spill, ix, 2, ""));
    }
    n = lower_i64(L, seq.ty->nelems);
  } else {
    n = lower_arr_shape(L, seq.v, 0);
  }
  LLVMValueRef ctr = lower_entry_alloca(L, i64, "it");
  LLVMBuildStore(L->b, lower_i64(L, 0), ctr);
  LLVMBasicBlockRef head = lower_block(L, "for"), body = lower_block(L, "fbody"), latch = lower_block(L, "fnext"),
                    els = lower_block(L, "felse"), end = lower_block(L, "fend");
  LLVMBuildBr(L->b, head);
  LLVMPositionBuilderAtEnd(L->b, head);
  LLVMValueRef c = LLVMBuildLoad2(L->b, i64, ctr, "");
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, c, n, ""), body, els);
  LLVMPositionBuilderAtEnd(L->b, body);
  Val item;
  if (spill) {
    LLVMValueRef idx[2] = {lower_i64(L, 0), c};
    LLVMValueRef p = LLVMBuildInBoundsGEP2(L->b, spillt, spill, idx, 2, "");
    item = (Val){et, LLVMBuildLoad2(L->b, lower_type(L, et), p, ""), false};
  } else {
    Type *at = seq.ty;
    LLVMValueRef off = LLVMBuildMul(L->b, c, lower_arr_stride(L, seq.v, 0), "");
    LLVMValueRef base8 = LLVMBuildBitCast(L->b, lower_arr_data(L, seq.v), LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0), "");
    LLVMValueRef p8 = LLVMBuildGEP2(L->b, LLVMInt8TypeInContext(L->ctx), base8, &off, 1, "");
    LLVMValueRef p = LLVMBuildBitCast(L->b, p8, LLVMPointerType(lower_mem_type(L, at->dtype), 0), "");
    if (at->ndim == 1 && dtype_is_record(at->dtype)) {
      item = lower_record_elem(L, p, ty_scalar(at->dtype));  /* for r in a: each element's view */
    } else if (at->ndim == 1) {
      item = (Val){ty_scalar(at->dtype), lower_load_elem(L, at->dtype, p), false};
    } else {
      LLVMValueRef shape[LM_MAXDIM], strides[LM_MAXDIM];
      for (int k = 1; k < at->ndim; k++) {
        shape[k - 1] = lower_arr_shape(L, seq.v, k);
        strides[k - 1] = lower_arr_stride(L, seq.v, k);
      }
      Type *rt = lower_ann(L, s->target)->ty;
      item = (Val){rt, lower_arr_make(L, rt, lower_arr_mi(L, seq.v), p, shape, strides), false};
    }
  }
  lower_store_target(L, s->target, item);
  LoopCtx lc = {end, latch, L->loop};
  L->loop = &lc;
  lower_body(L, &s->body);
  L->loop = lc.outer;
  if (!lower_terminated(L)) LLVMBuildBr(L->b, latch);
  LLVMPositionBuilderAtEnd(L->b, latch);
  LLVMBuildStore(L->b, LLVMBuildAdd(L->b, LLVMBuildLoad2(L->b, i64, ctr, ""), lower_i64(L, 1), ""), ctr);
  LLVMBuildBr(L->b, head);
  LLVMPositionBuilderAtEnd(L->b, els);
  lower_body(L, &s->orelse);
  if (!lower_terminated(L)) LLVMBuildBr(L->b, end);
  LLVMPositionBuilderAtEnd(L->b, end);
  lower_release(L, seq);
}

/* "ValueError: message" from raise ValueError("message") */
static const char *raise_message(Lower *L, Node *exc, const char *dflt_class) {
  if (exc == NULL) return arena_strdup(L->C->A, "RuntimeError: No active exception to reraise");
  Node *cls = exc->kind == ND_Call ? exc->func : exc;
  const char *text = exc->kind == ND_Call && exc->args.len == 1 ? exc->args.items[0]->sval : NULL;
  /* np.linalg.LinAlgError: its last name */
  const char *name = cls->kind == ND_Name || cls->kind == ND_Attribute ? cls->name : dflt_class;
  size_t n = strlen(name) + (text ? strlen(text) : 0) + 4;
  char *msg = arena_alloc(L->C->A, n);
  snprintf(msg, n, text && *text ? "%s: %s" : "%s", name, text ? text : "");
  return msg;
}

static void lower_stmt(Lower *L, Node *s) {
  switch (s->kind) {
    case ND_Assign: lower_assign(L, s); break;
    case ND_AnnAssign:
      if (s->value) lower_store_target(L, s->target, lower_expr(L, s->value));
      break;
    case ND_AugAssign: lower_augassign(L, s); break;
    case ND_If: lower_if(L, s); break;
    case ND_While: lower_while(L, s); break;
    case ND_For:
      if (L->C->target->prange && L->C->target->prange(L, s)) break;
      if (lower_ann(L, s)->aux && L->C->opt.lua && builtin_id(lower_ann(L, s)->aux) == BI_range) lower_lua_for(L, s);  /* Lua's numeric for */
      else if (lower_ann(L, s)->aux) lower_for_range(L, s);  /* range()/prange(): infer marks the For */
      else lower_for_iter(L, s);
      break;
    case ND_Return: lower_return(L, s->value); break;
    case ND_Expr:
      if (s->value->kind == ND_Constant && s->value->ckind == CK_STR) break;
      lower_release(L, lower_expr(L, s->value));
      break;
    case ND_Pass: break;
    case ND_Break: LLVMBuildBr(L->b, L->loop->brk); break;
    case ND_Continue: LLVMBuildBr(L->b, L->loop->cont); break;
    case ND_Assert: {
      const char *text = s->msg ? s->msg->sval : NULL;
      size_t n = 20 + (text ? strlen(text) : 0);
      char *msg = arena_alloc(L->C->A, n);
      snprintf(msg, n, text ? "AssertionError: %s" : "AssertionError", text);
      lower_raise_if(L, LLVMBuildNot(L->b, lower_cond(L, s->test), ""), LMERR_RAISE, msg);
      break;
    }
    case ND_Raise:
      lower_raise_if(L, LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 1, 0), LMERR_RAISE,
                     raise_message(L, s->exc, "Exception"));
      break;
    default: LM_UNREACHABLE();
  }
}

void lower_body(Lower *L, NodeList *body) {
  for (int i = 0; i < body->len; i++) {
    if (lower_terminated(L)) {
      /* code after return/break/continue: unreachable, but still lowered into a dead block */
      LLVMPositionBuilderAtEnd(L->b, lower_block(L, "dead"));
    }
    int fused = L->C->target->array_fuse ? L->C->target->array_fuse(L, body, i) : 0;
    if (fused > 0) {  /* adjacent array statements as one parallel loop (lower_parfuse.c) */
      i += fused - 1;
      if (spec_if_leaves(L->spec, body->items[i])) break;
      continue;
    }
    const Node *outer = L->stmt;
    L->stmt = body->items[i];
    lower_stmt(L, body->items[i]);
    L->stmt = outer;
    if (spec_if_leaves(L->spec, body->items[i])) break;  /* the rest was never typed (infer_body) */
  }
}
