/*
** parfor.c — the parallel-loop analysis (Numba's parfor pass, parfor.h):
** which loops of a specialization are prange loops, whether each runs on
** the thread pool (the function is parallel, the loop is not nested in
** another parallel one, the target has a pool), and for a parallel one
** what every outer local is to it. Scalars updated with += -= *= /= or
** x = min/max(x, ...) are reductions: each worker starts from the
** operator's identity and the partials are combined with the value held
** before the loop. Everything else assigned in the body is private to each
** iteration, and reading it after the loop is an error; the rest is
** captured by value. The lowering (lower_parallel.c) only lowers what
** this pass decided.
*/
#include <stdarg.h>
#include <string.h>

#include "builtins.h"
#include "infer.h"
#include "lower.h"
#include "parfor.h"

typedef struct Scan {
  Compile *C;
  FuncSpec *spec;
  unsigned char *kind;  // per local: ParRole
  char *op;             // per local reduction class: '+', '*', 'm' (min), 'M' (max)
} Scan;

/* the local a Name node stands for in this spec, or -1 */
static int slot_of(const FuncSpec *spec, const Node *n) {
  return spec_ann(spec, n)->slot;
}

static bool is_self(Node *n, const char *name) {
  return n && n->kind == ND_Name && strcmp(n->name, name) == 0;
}

/* the reduction class of `x = <value>` for target x, or 0 */
static char assign_class(const FuncSpec *spec, Node *value, const char *x, Node **rest) {
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
  if (value->kind == ND_Call && spec_ann(spec, value)->aux && ((CallInfo *)spec_ann(spec, value)->aux)->kind == CALL_BUILTIN &&
      value->args.len == 2 && is_self(value->args.items[0], x)) {
    /* the builtins only: np.minimum/np.maximum propagate NaN, which the
    ** combining of partial results would not */
    BuiltinId bi = ((CallInfo *)spec_ann(spec, value)->aux)->bi;
    if (bi == BI_min || bi == BI_max) {
      *rest = value->args.items[1];
      return bi == BI_min ? 'm' : 'M';
    }
  }
  return 0;
}

static void mark(Scan *S, int slot, char cls, Loc loc) {
  if (slot < 0) return;
  if (cls == 0) {
    S->kind[slot] = PAR_PRIVATE;
    return;
  }
  if (S->kind[slot] == PAR_PRIVATE) return;
  if (S->kind[slot] == PAR_REDUCTION && S->op[slot] != cls)
    compile_error(S->C, loc, "TypingError", "'%s' is updated with different reduction operators in one prange loop",
                  infer_shown_name(S->C, S->spec->locals[slot].name));
  S->kind[slot] = PAR_REDUCTION;
  S->op[slot] = cls;
}

static void mark_target(Scan *S, Node *t) {
  if (t->kind == ND_Name) mark(S, slot_of(S->spec, t), 0, t->loc);
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
          /* an array rebound (x = x + e) is no reduction: only x += e updates it in place */
          int sl = slot_of(S->spec, t);
          bool arr = sl >= 0 && S->spec->locals[sl].ty->kind == TY_ARRAY;
          mark(S, sl, arr ? 0 : assign_class(S->spec, s->value, t->name, &rest), t->loc);
        } else {
          for (int j = 0; j < s->targets.len; j++) mark_target(S, s->targets.items[j]);
        }
        break;
      case ND_AugAssign:
        if (s->target->kind == ND_Name) {
          OpKind op = s->op;
          char cls = op == OP_Add || op == OP_Sub ? '+' : op == OP_Mult || op == OP_Div ? '*' : 0;
          mark(S, slot_of(S->spec, s->target), cls, s->target->loc);
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
      case ND_If:  /* a branch pruned at compile time was never typed (spec_if_taken) */
        if (spec_if_taken(S->spec, s) != &s->orelse) scan_body(S, &s->body, depth);
        if (spec_if_taken(S->spec, s) != &s->body) scan_body(S, &s->orelse, depth);
        break;
      case ND_Return:
        compile_error(S->C, s->loc, "UnsupportedError", "return inside a prange loop is not supported");
      case ND_Break:
        if (depth == 0)
          compile_error(S->C, s->loc, "UnsupportedError", "break out of a prange loop is not supported");
        break;
      default: break;
    }
  }
}

/* a reduction variable may be read only by its own updates */
static void check_reads(Scan *S, Node *n, Node *skip_self_of) {
  if (n == NULL) return;
  if (n->kind == ND_Name && slot_of(S->spec, n) >= 0 && S->kind[slot_of(S->spec, n)] == PAR_REDUCTION && n != skip_self_of)
    compile_error(S->C, n->loc, "TypingError",
                  "reduction variable '%s' cannot be read inside the prange loop (only updated)", infer_shown_name(S->C, n->name));
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
        S->kind[slot_of(S->spec, s->targets.items[0])] == PAR_REDUCTION && assign_class(S->spec, s->value, s->targets.items[0]->name, &rest)) {
      check_reads(S, rest, NULL);
    } else if (s->kind == ND_AugAssign && s->target->kind == ND_Name && S->kind[slot_of(S->spec, s->target)] == PAR_REDUCTION) {
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
static bool is_shape(Node *v) {
  return v->kind == ND_Attribute && builtin_member_id("ndarray.", v->name) == BI_ndarray_shape;
}

static bool size_expr(const FuncSpec *spec, Node *v) {
  if (v->kind == ND_Constant) return v->ckind == CK_INT && v->ival >= 0;
  if (v->kind == ND_Subscript && is_shape(v->value)) return true;
  if (v->kind == ND_Attribute) {
    BuiltinId a = builtin_member_id("ndarray.", v->name);
    return a == BI_ndarray_size || a == BI_ndarray_ndim;
  }
  const CallInfo *ci = v->kind == ND_Call ? spec_ann(spec, v)->aux : NULL;
  return ci && ci->kind == CALL_BUILTIN && ci->bi == BI_len;
}

static void scan_sizes(const FuncSpec *spec, NodeList *body, signed char *st) {
  for (int i = 0; i < body->len; i++) {
    Node *s = body->items[i];
    if (s->kind == ND_Assign) {
      for (int j = 0; j < s->targets.len; j++) {
        Node *t = s->targets.items[j];
        if (t->kind == ND_Name && slot_of(spec, t) >= 0) {
          if (!size_expr(spec, s->value)) st[slot_of(spec, t)] = -1;
          else if (st[slot_of(spec, t)] == 0) st[slot_of(spec, t)] = 1;
        } else if (t->kind == ND_Tuple) {
          bool shape = is_shape(s->value);
          for (int k = 0; k < t->elts.len; k++) {
            Node *e = t->elts.items[k];
            if (e->kind != ND_Name || slot_of(spec, e) < 0) continue;
            if (!shape) st[slot_of(spec, e)] = -1;
            else if (st[slot_of(spec, e)] == 0) st[slot_of(spec, e)] = 1;
          }
        }
      }
    } else if (s->kind == ND_AugAssign || s->kind == ND_AnnAssign) {
      if (s->target->kind == ND_Name && slot_of(spec, s->target) >= 0) st[slot_of(spec, s->target)] = -1;
    } else if (s->kind == ND_For) {
      if (s->target->kind == ND_Name && slot_of(spec, s->target) >= 0) st[slot_of(spec, s->target)] = -1;
      scan_sizes(spec, &s->body, st);
      scan_sizes(spec, &s->orelse, st);
    } else if (s->kind == ND_While || s->kind == ND_If) {
      if (spec_if_taken(spec, s) != &s->orelse) scan_sizes(spec, &s->body, st);
      if (spec_if_taken(spec, s) != &s->body) scan_sizes(spec, &s->orelse, st);
    }
  }
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

void parfor_diag(Compile *C, const char *line) {
  diag_line(C, "%s", line);
}

static const char *op_name(char op) {
  return op == '+' ? "+" : op == '*' ? "*" : op == 'm' ? "min" : "max";
}

static bool is_prange(const FuncSpec *spec, Node *s) {
  const char *qname = spec_ann(spec, s)->aux;  /* infer_for's mark: range() or prange() */
  return qname && builtin_id(qname) == BI_prange;
}

static ParInit init_of(char op) {
  return op == '+' ? PAR_INIT_ZERO : op == '*' ? PAR_INIT_ONE : op == 'm' ? PAR_INIT_MAX : PAR_INIT_MIN;
}

typedef struct Pass {
  Compile *C;
  FuncSpec *spec;
  ParLoop **tail;           // where the next record goes
  signed char *sizes;       // scan_sizes of the spec, made at its first parallel loop
} Pass;

/* the decisions for prange loop s; in_parallel: s is inside a parallel loop */
static ParLoop *analyse(Pass *P, Node *s, bool in_parallel) {
  Compile *C = P->C;
  FuncSpec *spec = P->spec;
  ParLoop *p = arena_alloc(C->A, sizeof *p);
  p->loop = s;
  *P->tail = p;
  P->tail = &p->next;
  if (!spec->parallel) p->serial = "the function is not compiled with parallel=true";
  else if (in_parallel) p->serial = "nested inside another prange loop";
  else if (C->target->prange == NULL) p->serial = "this target has no thread pool";
  if (p->serial) return p;
  if (s->orelse.len) compile_error(C, s->loc, "UnsupportedError", "a prange loop cannot have an else clause");
  int nl = spec->nlocals;
  Scan S = {C, spec, arena_alloc(C->A, (size_t)nl + 1), arena_alloc(C->A, (size_t)nl + 1)};
  scan_body(&S, &s->body, 0);
  S.kind[slot_of(spec, s->target)] = PAR_PRIVATE;
  /* arrays reduce too (total += a[i, :], Numba's array reductions): each
  ** worker updates its own array of the same shape in place */
  for (int i = 0; i < nl; i++)
    if (S.kind[i] == PAR_REDUCTION && spec->locals[i].ty->kind != TY_SCALAR && spec->locals[i].ty->kind != TY_ARRAY)
      S.kind[i] = PAR_PRIVATE;
  check_body_reads(&S, &s->body);
  p->index = slot_of(spec, s->target);
  Node *it = s->iter;
  p->start = it->args.len > 1 ? it->args.items[0] : NULL;
  p->stop = it->args.items[it->args.len > 1];
  p->step = it->args.len == 3 ? it->args.items[2] : NULL;
  p->role = S.kind;
  p->reds = arena_alloc(C->A, sizeof(ParReduction) * (size_t)(nl + 1));
  for (int i = 0; i < nl; i++)
    if (S.kind[i] == PAR_REDUCTION) p->reds[p->nred++] = (ParReduction){i, S.op[i], init_of(S.op[i])};
  if (P->sizes == NULL) {
    P->sizes = arena_alloc(C->A, (size_t)nl + 1);
    scan_sizes(spec, &spec->def->body, P->sizes);
  }
  p->sizes = P->sizes;
  return p;
}

/* the statements in the order the lowering visits them */
static void walk(Pass *P, NodeList *body, bool in_parallel) {
  for (int i = 0; i < body->len; i++) {
    Node *s = body->items[i];
    switch (s->kind) {
      case ND_For: {
        bool inner = in_parallel;
        if (is_prange(P->spec, s)) inner |= analyse(P, s, in_parallel)->serial == NULL;
        walk(P, &s->body, inner);
        walk(P, &s->orelse, in_parallel);
        break;
      }
      case ND_While: case ND_If:
        if (spec_if_taken(P->spec, s) != &s->orelse) walk(P, &s->body, in_parallel);
        if (spec_if_taken(P->spec, s) != &s->body) walk(P, &s->orelse, in_parallel);
        break;
      default: break;
    }
  }
}

/* :parallel_diagnostics(), from the records */
static void diagnose(Compile *C, FuncSpec *spec) {
  for (ParLoop *p = spec->parloops; p; p = p->next) {
    if (p->serial) {
      diag_line(C, "%s(): prange loop at line %d ran serially (%s)", spec->def->name, p->loop->loc.line, p->serial);
      continue;
    }
    if (compile_in_prelude(C, spec->def)) {  /* NumPy written in Python (np.sum with axis=): its locals are no news */
      diag_line(C, "%s() of the NumPy prelude: its loop over the outputs runs in parallel on the thread pool", spec->def->name);
      continue;
    }
    diag_line(C, "%s(): prange loop at line %d runs in parallel on the thread pool", spec->def->name, p->loop->loc.line);
    const ParReduction *r = p->reds;
    for (int i = 0; i < spec->nlocals; i++) {
      if (p->role[i] == PAR_REDUCTION)
        diag_line(C, "  reduction: %s (%s, %s)", spec->locals[i].name, op_name((r++)->op), spec->locals[i].ty->name);
      else if (p->role[i] == PAR_PRIVATE)
        diag_line(C, "  private to each iteration: %s", spec->locals[i].name);
    }
  }
}

void parfor_run(Compile *C) {
  for (FuncSpec *spec = C->specs; spec; spec = spec->next) {
    if (!spec->has_prange) continue;
    Pass P = {C, spec, &spec->parloops, NULL};
    walk(&P, &spec->def->body, false);
    diagnose(C, spec);
  }
}

ParLoop *parfor_find(FuncSpec *spec, Node *s) {
  for (ParLoop *p = spec->parloops; p; p = p->next)
    if (p->loop == s) return p;
  return NULL;
}
