/*
** lower_parallel.c — prange loops of parallel functions. The loop body is
** outlined into  i32 body(i8 *ctx, i64 lo, i64 hi, i64 worker)  and run on
** the pool by par_for (parallel.c). Locals are captured by value; scalars
** updated with += -= *= /= or x = min/max(x, ...) are reductions: each
** worker starts from the operator's identity and the partials are combined
** with the value held before the loop. Everything else assigned in the body
** is private to each iteration, and reading it after the loop is an error.
*/
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "lower.h"

enum { V_NONE, V_RED, V_PRIVATE };

typedef struct Scan {
  Lower *L;
  unsigned char *kind;  // per local: V_*
  char *op;             // per local reduction class: '+', '*', 'm' (min), 'M' (max)
} Scan;

static bool is_self(Node *n, const char *name) {
  return n && n->kind == ND_Name && strcmp(n->name, name) == 0;
}

/* the reduction class of `x = <value>` for target x, or 0 */
static char assign_class(Lower *L, Node *value, const char *x, Node **rest) {
  if (value->kind == ND_BinOp) {
    OpKind op = value->op;
    if ((op == OP_Add || op == OP_Sub || op == OP_Mult || op == OP_Div) && is_self(value->left, x)) {
      *rest = value->right;
      return op == OP_Add || op == OP_Sub ? '+' : '*';
    }
    if ((op == OP_Add || op == OP_Mult) && is_self(value->right, x)) {
      *rest = value->left;
      return op == OP_Add ? '+' : '*';
    }
  }
  if (value->kind == ND_Call && lower_ann(L, value)->aux && ((CallInfo *)lower_ann(L, value)->aux)->kind == CALL_BUILTIN &&
      value->args.len == 2 && is_self(value->args.items[0], x)) {
    const char *q = ((CallInfo *)lower_ann(L, value)->aux)->qname;
    if (strcmp(q, "min") == 0 || strcmp(q, "max") == 0) {
      *rest = value->args.items[1];
      return q[1] == 'i' ? 'm' : 'M';
    }
  }
  return 0;
}

static void mark(Scan *S, int slot, char cls, Loc loc) {
  if (slot < 0) return;
  if (cls == 0) {
    S->kind[slot] = V_PRIVATE;
    return;
  }
  if (S->kind[slot] == V_PRIVATE) return;
  if (S->kind[slot] == V_RED && S->op[slot] != cls)
    compile_error(S->L->C, loc, "TypingError", "'%s' is updated with different reduction operators in one prange loop",
                  S->L->spec->locals[slot].name);
  S->kind[slot] = V_RED;
  S->op[slot] = cls;
}

static void mark_target(Scan *S, Node *t) {
  if (t->kind == ND_Name) mark(S, lower_ann(S->L, t)->slot, 0, t->loc);
  else if (t->kind == ND_Tuple || t->kind == ND_List)
    for (int i = 0; i < t->elts.len; i++) mark_target(S, t->elts.items[i]);
}

static void scan_body(Scan *S, NodeList *body, int depth) {
  for (int i = 0; i < body->len; i++) {
    Node *s = body->items[i];
    Node *rest = NULL;
    switch (s->kind) {
      case ND_Assign:
        if (s->targets.len == 1 && s->targets.items[0]->kind == ND_Name) {
          Node *t = s->targets.items[0];
          mark(S, lower_ann(S->L, t)->slot, assign_class(S->L, s->value, t->name, &rest), t->loc);
        } else {
          for (int j = 0; j < s->targets.len; j++) mark_target(S, s->targets.items[j]);
        }
        break;
      case ND_AugAssign:
        if (s->target->kind == ND_Name) {
          OpKind op = s->op;
          char cls = op == OP_Add || op == OP_Sub ? '+' : op == OP_Mult || op == OP_Div ? '*' : 0;
          mark(S, lower_ann(S->L, s->target)->slot, cls, s->target->loc);
        }
        break;
      case ND_AnnAssign: mark_target(S, s->target); break;
      case ND_For:
        mark_target(S, s->target);
        scan_body(S, &s->body, depth + 1);
        scan_body(S, &s->orelse, depth + 1);
        break;
      case ND_While:
        scan_body(S, &s->body, depth + 1);
        scan_body(S, &s->orelse, depth + 1);
        break;
      case ND_If:
        scan_body(S, &s->body, depth);
        scan_body(S, &s->orelse, depth);
        break;
      case ND_Return:
        compile_error(S->L->C, s->loc, "UnsupportedError", "return inside a prange loop is not supported");
      case ND_Break:
        if (depth == 0)
          compile_error(S->L->C, s->loc, "UnsupportedError", "break out of a prange loop is not supported");
        break;
      default: break;
    }
  }
}

/* a reduction variable may be read only by its own updates */
static void check_reads(Scan *S, Node *n, Node *skip_self_of) {
  if (n == NULL) return;
  if (n->kind == ND_Name && lower_ann(S->L, n)->slot >= 0 && S->kind[lower_ann(S->L, n)->slot] == V_RED && n != skip_self_of)
    compile_error(S->L->C, n->loc, "TypingError",
                  "reduction variable '%s' cannot be read inside the prange loop (only updated)", n->name);
  Node *kids[] = {n->value, n->test, n->iter, n->left, n->right, n->operand, n->func, n->slice, n->lower,
                  n->upper, n->step, n->msg, n->exc, n->body_e, n->orelse_e};
  for (size_t i = 0; i < lm_countof(kids); i++) check_reads(S, kids[i], NULL);
  NodeList *lists[] = {&n->args, &n->elts, &n->keywords, &n->targets};
  for (size_t i = 0; i < lm_countof(lists); i++)
    for (int j = 0; j < lists[i]->len; j++) check_reads(S, lists[i]->items[j], NULL);
}

static void check_body_reads(Scan *S, NodeList *body) {
  for (int i = 0; i < body->len; i++) {
    Node *s = body->items[i];
    Node *rest = NULL;
    if (s->kind == ND_Assign && s->targets.len == 1 && s->targets.items[0]->kind == ND_Name &&
        S->kind[lower_ann(S->L, s->targets.items[0])->slot] == V_RED && assign_class(S->L, s->value, s->targets.items[0]->name, &rest)) {
      check_reads(S, rest, NULL);
    } else if (s->kind == ND_AugAssign && s->target->kind == ND_Name && S->kind[lower_ann(S->L, s->target)->slot] == V_RED) {
      check_reads(S, s->value, NULL);
    } else {
      NodeList save_body = s->body, save_else = s->orelse;
      Node *t = s->target;
      if (s->kind == ND_For || s->kind == ND_AugAssign) s->target = NULL;
      s->body.len = 0;
      s->orelse.len = 0;
      check_reads(S, s, NULL);
      s->body = save_body;
      s->orelse = save_else;
      s->target = t;
      check_body_reads(S, &s->body);
      check_body_reads(S, &s->orelse);
    }
  }
}

/* Locals that only ever hold sizes (N = a.shape[0], n, m = a.shape,
** n = len(a), a.size, non-negative literals) are non-negative: the outlined
** body says so to LLVM, which then folds Python's floor-modulo by them into a
** plain remainder and drops negative-index checks, as in the serial code. */
static bool size_expr(Node *v) {
  if (v->kind == ND_Constant) return v->ckind == CK_INT && v->ival >= 0;
  if (v->kind == ND_Subscript && v->value->kind == ND_Attribute && strcmp(v->value->name, "shape") == 0) return true;
  if (v->kind == ND_Attribute && (strcmp(v->name, "size") == 0 || strcmp(v->name, "ndim") == 0)) return true;
  if (v->kind == ND_Call && v->func->kind == ND_Name && strcmp(v->func->name, "len") == 0) return true;
  return false;
}

static void scan_sizes(Lower *L, NodeList *body, signed char *st) {
  for (int i = 0; i < body->len; i++) {
    Node *s = body->items[i];
    if (s->kind == ND_Assign) {
      for (int j = 0; j < s->targets.len; j++) {
        Node *t = s->targets.items[j];
        if (t->kind == ND_Name && lower_ann(L, t)->slot >= 0) {
          if (!size_expr(s->value)) st[lower_ann(L, t)->slot] = -1;
          else if (st[lower_ann(L, t)->slot] == 0) st[lower_ann(L, t)->slot] = 1;
        } else if (t->kind == ND_Tuple) {
          bool shape = s->value->kind == ND_Attribute && strcmp(s->value->name, "shape") == 0;
          for (int k = 0; k < t->elts.len; k++) {
            Node *e = t->elts.items[k];
            if (e->kind != ND_Name || lower_ann(L, e)->slot < 0) continue;
            if (!shape) st[lower_ann(L, e)->slot] = -1;
            else if (st[lower_ann(L, e)->slot] == 0) st[lower_ann(L, e)->slot] = 1;
          }
        }
      }
    } else if (s->kind == ND_AugAssign || s->kind == ND_AnnAssign) {
      if (s->target->kind == ND_Name && lower_ann(L, s->target)->slot >= 0) st[lower_ann(L, s->target)->slot] = -1;
    } else if (s->kind == ND_For) {
      if (s->target->kind == ND_Name && lower_ann(L, s->target)->slot >= 0) st[lower_ann(L, s->target)->slot] = -1;
      scan_sizes(L, &s->body, st);
      scan_sizes(L, &s->orelse, st);
    } else if (s->kind == ND_While || s->kind == ND_If) {
      scan_sizes(L, &s->body, st);
      scan_sizes(L, &s->orelse, st);
    }
  }
}

static void assume_sge0(Lower *L, LLVMValueRef v) {
  LLVMValueRef c = LLVMBuildICmp(L->b, LLVMIntSGE, v, LLVMConstNull(LLVMTypeOf(v)), "");
  lower_intrinsic(L, "llvm.assume", NULL, 0, &c, 1);
}

static bool nonneg_const(Node *n, int64_t *v) {
  if (n->kind == ND_Constant && n->ckind == CK_INT && n->ival >= 0) { *v = n->ival; return true; }
  return false;
}

static LLVMValueRef identity(Lower *L, Type *t, char op) {
  LLVMTypeRef lt = lower_type(L, t);
  bool fl = ty_is_float(t);
  switch (op) {
    case '+': return LLVMConstNull(lt);
    case '*': return fl ? LLVMConstReal(lt, 1) : LLVMConstInt(lt, 1, 0);
    case 'm': return fl ? LLVMConstReal(lt, INFINITY)
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

static LLVMValueRef rt_call(Lower *L, const char *name, LLVMTypeRef ret, LLVMTypeRef *ps, int np, LLVMValueRef *args) {
  LLVMValueRef f = lower_rt_fn(L, name, ret, ps, np);
  return LLVMBuildCall2(L->b, LLVMGlobalGetValueType(f), f, args, (unsigned)np, "");
}

/* appends a line to the parallel diagnostics of this compilation */
static void diag_line(Compile *C, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void diag_line(Compile *C, const char *fmt, ...) {
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n >= sizeof line) n = sizeof line - 1;
  char *buf = arena_alloc(C->A, C->pardiag_len + (size_t)n + 2);
  if (C->pardiag_len) memcpy(buf, C->pardiag, C->pardiag_len);
  memcpy(buf + C->pardiag_len, line, (size_t)n);
  buf[C->pardiag_len + (size_t)n] = '\n';
  C->pardiag = buf;
  C->pardiag_len += (size_t)n + 1;
  buf[C->pardiag_len] = '\0';
}

static const char *op_name(char op) {
  return op == '+' ? "+" : op == '*' ? "*" : op == 'm' ? "min" : "max";
}

bool lower_prange(Lower *L, Node *s) {
  Compile *C = L->C;
  FuncSpec *spec = L->spec;
  bool is_prange = lower_ann(L, s)->aux && strcmp((const char *)lower_ann(L, s)->aux, "numba.prange") == 0;
  if (is_prange && !(spec->parallel && !L->in_parallel && L->refcount))
    diag_line(C, "%s(): prange loop at line %d ran serially (%s)", spec->def->name, s->loc.line,
              !spec->parallel ? "the function is not compiled with parallel=true"
              : L->in_parallel ? "nested inside another prange loop" : "this target has no thread pool");
  if (!(lower_ann(L, s)->aux && strcmp((const char *)lower_ann(L, s)->aux, "numba.prange") == 0)) return false;
  if (!spec->parallel || L->in_parallel || !L->refcount) return false;
  if (s->orelse.len) compile_error(C, s->loc, "UnsupportedError", "a prange loop cannot have an else clause");
  int nl = spec->nlocals;
  Scan S = {L, arena_alloc(C->A, (size_t)nl + 1), arena_alloc(C->A, (size_t)nl + 1)};
  scan_body(&S, &s->body, 0);
  S.kind[lower_ann(L, s->target)->slot] = V_PRIVATE;
  for (int i = 0; i < nl; i++)
    if (S.kind[i] == V_RED && spec->locals[i].ty->kind != TY_SCALAR) S.kind[i] = V_PRIVATE;
  check_body_reads(&S, &s->body);

  diag_line(C, "%s(): prange loop at line %d runs in parallel on the thread pool", spec->def->name, s->loc.line);
  for (int i = 0; i < nl; i++) {
    if (S.kind[i] == V_RED)
      diag_line(C, "  reduction: %s (%s, %s)", spec->locals[i].name, op_name(S.op[i]), spec->locals[i].ty->name);
    else if (S.kind[i] == V_PRIVATE)
      diag_line(C, "  private to each iteration: %s", spec->locals[i].name);
  }
  LLVMContextRef ctx = L->ctx;
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx), i32 = LLVMInt32TypeInContext(ctx);
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
  int nred = 0;
  int *reds = arena_alloc(C->A, sizeof(int) * (size_t)(nl + 1));
  LLVMTypeRef *rt = arena_alloc(C->A, sizeof(LLVMTypeRef) * (size_t)(nl + 1));
  for (int i = 0; i < nl; i++)
    if (S.kind[i] == V_RED) {
      reds[nred] = i;
      rt[nred++] = lower_type(L, spec->locals[i].ty);
    }
  LLVMTypeRef redt = LLVMStructTypeInContext(ctx, rt, (unsigned)nred, 0);

  /* ---- the outlined body ---- */
  LLVMTypeRef bps[4] = {i8p, i64, i64, i64};
  LLVMTypeRef bodyty = LLVMFunctionType(i32, bps, 4, 0);
  char name[300];
  snprintf(name, sizeof name, "%s__prange%lld", spec->symbol, (long long)++C->S->counter);
  LLVMValueRef bodyfn = LLVMAddFunction(C->mod, name, bodyty);
  LLVMSetLinkage(bodyfn, LLVMInternalLinkage);
  LLVMBasicBlockRef saved = LLVMGetInsertBlock(L->b);

  Lower Bw = *L, *B = &Bw;
  B->fn = bodyfn;
  B->in_parallel = true;
  B->poison = NULL;
  B->loop = NULL;
  B->entry = lower_block(B, "entry");
  LLVMBasicBlockRef bbody = lower_block(B, "body");
  B->cleanup = lower_block(B, "cleanup");
  LLVMPositionBuilderAtEnd(B->b, B->entry);
  LLVMValueRef cp = LLVMBuildBitCast(B->b, LLVMGetParam(bodyfn, 0), LLVMPointerType(ctxt, 0), "ctx");
  LLVMValueRef cv = LLVMBuildLoad2(B->b, ctxt, cp, "");
  LLVMValueRef worker = LLVMGetParam(bodyfn, 3);
  LLVMValueRef errs = LLVMBuildExtractValue(B->b, cv, (unsigned)nl + 1, "");
  B->err = LLVMBuildInBoundsGEP2(B->b, errt, errs, &worker, 1, "err");
  B->retp = NULL;
  B->status = LLVMBuildAlloca(B->b, i32, "status");
  LLVMBuildStore(B->b, lower_i32(B, 0), B->status);
  B->slots = arena_alloc(C->A, sizeof(LLVMValueRef) * (size_t)(nl + 1));
  signed char *sizes = arena_alloc(C->A, (size_t)nl + 1);
  scan_sizes(L, &spec->def->body, sizes);
  assume_sge0(B, LLVMGetParam(bodyfn, 1));  /* par_for's chunks start at 0 or later */
  for (int i = 0; i < nl; i++) {
    Type *t = spec->locals[i].ty;
    B->slots[i] = LLVMBuildAlloca(B->b, lower_type(B, t), spec->locals[i].name);
    LLVMValueRef v = S.kind[i] == V_RED ? identity(B, t, S.op[i]) : LLVMBuildExtractValue(B->b, cv, (unsigned)i, "");
    if (t->kind == TY_ARRAY && S.kind[i] == V_NONE) v = lower_restate_array(B, t, v);
    if (S.kind[i] == V_NONE && sizes[i] == 1 && ty_is_int(t) && !spec->locals[i].is_param) assume_sge0(B, v);
    if (S.kind[i] != V_RED) lower_incref(B, (Val){t, v, false});
    LLVMBuildStore(B->b, v, B->slots[i]);
  }
  /* prange(n) and constant bounds: known start and step keep i's range visible */
  Node *itn = s->iter;
  int64_t cstart = 0, cstep = 1;
  bool kstart = itn->args.len == 1 || nonneg_const(itn->args.items[0], &cstart);
  bool kstep = itn->args.len < 3 || nonneg_const(itn->args.items[2], &cstep);
  LLVMValueRef start = kstart ? lower_i64(B, cstart) : LLVMBuildExtractValue(B->b, cv, (unsigned)nl + 2, "");
  LLVMValueRef step = kstep && cstep > 0 ? lower_i64(B, cstep) : LLVMBuildExtractValue(B->b, cv, (unsigned)nl + 3, "");
  LLVMValueRef ctr = LLVMBuildAlloca(B->b, i64, "k");
  LLVMBuildStore(B->b, LLVMGetParam(bodyfn, 1), ctr);
  LLVMBuildBr(B->b, bbody);
  LLVMPositionBuilderAtEnd(B->b, bbody);
  LLVMBasicBlockRef head = lower_block(B, "phead"), lb = lower_block(B, "pbody"), latch = lower_block(B, "pnext"),
                    done = lower_block(B, "pdone");
  LLVMBuildBr(B->b, head);
  LLVMPositionBuilderAtEnd(B->b, head);
  LLVMValueRef k = LLVMBuildLoad2(B->b, i64, ctr, "");
  LLVMBuildCondBr(B->b, LLVMBuildICmp(B->b, LLVMIntSLT, k, LLVMGetParam(bodyfn, 2), ""), lb, done);
  LLVMPositionBuilderAtEnd(B->b, lb);
  LLVMValueRef iv = kstart && kstep && cstep > 0 ? LLVMBuildNSWAdd(B->b, start, LLVMBuildNSWMul(B->b, k, step, ""), "i")
                                                : LLVMBuildAdd(B->b, start, LLVMBuildMul(B->b, k, step, ""), "i");
  LLVMBuildStore(B->b, iv, B->slots[lower_ann(B, s->target)->slot]);
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
    LLVMValueRef mine = LLVMBuildInBoundsGEP2(B->b, redt, parts, &worker, 1, "");
    for (int r = 0; r < nred; r++)
      LLVMBuildStore(B->b, LLVMBuildLoad2(B->b, rt[r], B->slots[reds[r]], ""),
                     LLVMBuildStructGEP2(B->b, redt, mine, (unsigned)r, ""));
  }
  LLVMBuildBr(B->b, B->cleanup);
  LLVMPositionBuilderAtEnd(B->b, B->cleanup);
  for (int i = 0; i < nl; i++) {
    Type *t = spec->locals[i].ty;
    if (t->kind != TY_SCALAR) lower_decref(B, (Val){t, LLVMBuildLoad2(B->b, lower_type(B, t), B->slots[i], ""), true});
  }
  LLVMBuildRet(B->b, LLVMBuildLoad2(B->b, i32, B->status, ""));

  /* ---- the caller: range length, context, partials, par_for, combine ---- */
  LLVMPositionBuilderAtEnd(L->b, saved);
  Node *it = s->iter;
  LLVMValueRef pstart = lower_i64(L, 0), pstop, pstep = lower_i64(L, 1);
  if (it->args.len == 1) {
    pstop = lower_cast(L, lower_expr(L, it->args.items[0]), ty_int64).v;
  } else {
    pstart = lower_cast(L, lower_expr(L, it->args.items[0]), ty_int64).v;
    pstop = lower_cast(L, lower_expr(L, it->args.items[1]), ty_int64).v;
    if (it->args.len == 3) {
      pstep = lower_cast(L, lower_expr(L, it->args.items[2]), ty_int64).v;
      lower_raise_if(L, LLVMBuildICmp(L->b, LLVMIntEQ, pstep, lower_i64(L, 0), ""), LMERR_VALUE,
                     "range() arg 3 must not be zero");
    }
  }
  /* len(range(start, stop, step)); beyond 2^63 - 1 (par_for counts in
  ** int64) it is clamped: those iterations would never be reached anyway */
  LLVMValueRef n = lower_range_count(L, pstart, pstop, pstep);
  n = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, n, lower_i64(L, 0), ""), lower_i64(L, INT64_MAX), n, "n");

  LLVMValueRef nw = rt_call(L, "par_max_workers", i32, NULL, 0, NULL);
  LLVMValueRef nw64 = LLVMBuildSExt(L->b, nw, i64, "");
  /* the per-worker arrays are sized at run time, so they are allocated
  ** here, not in the entry block: between a stack save and restore, or a
  ** prange inside a loop grows the stack each time round (20,000 regions
  ** of 16 workers overflowed 8 MB). The error path returns, freeing them. */
  LLVMValueRef sp = lower_intrinsic(L, "llvm.stacksave", NULL, 0, NULL, 0);
  LLVMValueRef errarr = LLVMBuildArrayAlloca(L->b, errt, nw, "errs");
  LLVMValueRef partarr = LLVMBuildArrayAlloca(L->b, nred ? redt : LLVMInt8TypeInContext(ctx), nw, "parts");
  LLVMValueRef cval = LLVMGetUndef(ctxt);
  for (int i = 0; i < nl; i++)
    cval = LLVMBuildInsertValue(L->b, cval, LLVMBuildLoad2(L->b, ft[i], L->slots[i], ""), (unsigned)i, "");
  cval = LLVMBuildInsertValue(L->b, cval, LLVMBuildBitCast(L->b, partarr, i8p, ""), (unsigned)nl, "");
  cval = LLVMBuildInsertValue(L->b, cval, errarr, (unsigned)nl + 1, "");
  cval = LLVMBuildInsertValue(L->b, cval, pstart, (unsigned)nl + 2, "");
  cval = LLVMBuildInsertValue(L->b, cval, pstep, (unsigned)nl + 3, "");
  LLVMValueRef cslot = lower_entry_alloca(L, ctxt, "pctx");
  LLVMBuildStore(L->b, cval, cslot);
  /* every worker slot starts clean: no error, identity partials */
  LLVMValueRef w = lower_entry_alloca(L, i64, "w");
  LLVMBasicBlockRef ih = lower_block(L, "pinit"), ib = lower_block(L, "pinitb"), ie = lower_block(L, "pinite");
  LLVMBuildStore(L->b, lower_i64(L, 0), w);
  LLVMBuildBr(L->b, ih);
  LLVMPositionBuilderAtEnd(L->b, ih);
  LLVMValueRef wv = LLVMBuildLoad2(L->b, i64, w, "");
  LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, wv, nw64, ""), ib, ie);
  LLVMPositionBuilderAtEnd(L->b, ib);
  LLVMBuildStore(L->b, LLVMConstNull(errt), LLVMBuildInBoundsGEP2(L->b, errt, errarr, &wv, 1, ""));
  if (nred) {
    LLVMValueRef pv = LLVMGetUndef(redt);
    for (int r = 0; r < nred; r++)
      pv = LLVMBuildInsertValue(L->b, pv, identity(L, spec->locals[reds[r]].ty, S.op[reds[r]]), (unsigned)r, "");
    LLVMBuildStore(L->b, pv, LLVMBuildInBoundsGEP2(L->b, redt, partarr, &wv, 1, ""));
  }
  LLVMBuildStore(L->b, LLVMBuildAdd(L->b, wv, lower_i64(L, 1), ""), w);
  LLVMBuildBr(L->b, ih);
  LLVMPositionBuilderAtEnd(L->b, ie);
  LLVMTypeRef pfps[3] = {i64, LLVMPointerType(bodyty, 0), i8p};
  LLVMValueRef pargs[3] = {n, bodyfn, LLVMBuildBitCast(L->b, cslot, i8p, "")};
  LLVMValueRef st = rt_call(L, "par_for", i32, pfps, 3, pargs);
  /* a failure: the first failing worker's error record becomes ours */
  LLVMBasicBlockRef bad = lower_block(L, "perr"), fh = lower_block(L, "pfind"), fnext = lower_block(L, "pfnext"),
                    fok = lower_block(L, "pfound"), good = lower_block(L, "pok");
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
  LLVMBuildBr(L->b, L->cleanup);
  LLVMPositionBuilderAtEnd(L->b, good);
  /* combine the partials, in worker order, with the value before the loop */
  if (nred) {
    LLVMBasicBlockRef ch = lower_block(L, "pcomb"), cb = lower_block(L, "pcombb"), ce = lower_block(L, "pcombe");
    LLVMBuildStore(L->b, lower_i64(L, 0), w);
    LLVMBuildBr(L->b, ch);
    LLVMPositionBuilderAtEnd(L->b, ch);
    LLVMValueRef cw = LLVMBuildLoad2(L->b, i64, w, "");
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, cw, nw64, ""), cb, ce);
    LLVMPositionBuilderAtEnd(L->b, cb);
    LLVMValueRef pp = LLVMBuildInBoundsGEP2(L->b, redt, partarr, &cw, 1, "");
    for (int r = 0; r < nred; r++) {
      int i = reds[r];
      Type *t = spec->locals[i].ty;
      LLVMValueRef cur = LLVMBuildLoad2(L->b, rt[r], L->slots[i], "");
      LLVMValueRef part = LLVMBuildLoad2(L->b, rt[r], LLVMBuildStructGEP2(L->b, redt, pp, (unsigned)r, ""), "");
      LLVMBuildStore(L->b, combine(L, t, S.op[i], cur, part), L->slots[i]);
    }
    LLVMBuildStore(L->b, LLVMBuildAdd(L->b, cw, lower_i64(L, 1), ""), w);
    LLVMBuildBr(L->b, ch);
    LLVMPositionBuilderAtEnd(L->b, ce);
  }
  lower_intrinsic(L, "llvm.stackrestore", NULL, 0, &sp, 1);
  if (L->poison == NULL) L->poison = arena_alloc(C->A, (size_t)nl + 1);
  for (int i = 0; i < nl; i++)
    if (S.kind[i] == V_PRIVATE) L->poison[i] = 1;
  return true;
}
