/*
** lower_parfuse.c — adjacent array statements of a parallel function fused
** into one parallel loop (Numba's parfor fusion). A run of statements
**   c = <array expression>    target[...] = <array expression>    target op= <...>
** of one dimensionality becomes one loop on the thread pool: each chunk of
** axis 0 runs every statement's loop, block by block of rows, in source
** order. Fusing is safe when no statement reads at another index what an
** earlier one writes (or writes what an earlier one reads at another
** index): each element is then read after every earlier statement wrote
** it, as in the serial order. The compiler refuses a run where a statement
** names an array written before it other than whole (c[1:] after c = ...);
** what it cannot see (views of one array under two names, shapes) is tested
** at run time, and the statements run one by one, each its own parallel
** loop, when the shapes differ, an operand overlaps another statement's
** target, or a store needs its temporary.
** The statements after the first are lowered before the first one's loop
** runs, so their operands must not read array memory: names, constants,
** views (slices, .T) and scalar arithmetic of those.
*/
#include <string.h>

#include "lower_arrayexpr.h"
#include "parfor.h"

#define FUSE_MAX 16

typedef enum { FS_NONE, FS_EXPR, FS_STORE } FuseKind;

static bool is_array(Lower *L, Node *n) {
  Type *t = lower_ann(L, n)->ty;
  if (n->kind == ND_Name && lower_ann(L, n)->slot >= 0) t = L->spec->locals[lower_ann(L, n)->slot].ty;
  return t && t->kind == TY_ARRAY;
}

/* which form s is (target and value returned), or FS_NONE */
static FuseKind form(Lower *L, Node *s, Node **target, Node **value) {
  if (s->kind == ND_Assign && s->targets.len == 1) {
    Node *t = s->targets.items[0];
    if (!is_array(L, t) || !is_array(L, s->value)) return FS_NONE;
    *target = t;
    *value = s->value;
    if (t->kind == ND_Name && lower_ann(L, t)->slot >= 0 && ax_is_fused(L, s->value)) return FS_EXPR;
    if (t->kind == ND_Subscript && !lower_is_selection(L, t)) return FS_STORE;
    return FS_NONE;
  }
  if (s->kind == ND_AugAssign && is_array(L, s->target) &&
      (s->target->kind == ND_Name || (s->target->kind == ND_Subscript && !lower_is_selection(L, s->target)))) {
    *target = s->target;
    *value = s->value;
    return FS_STORE;
  }
  return FS_NONE;
}

/* n reads no array memory: lowering it early gives what lowering it late would */
static bool data_free(Lower *L, Node *n) {
  if (n == NULL) return true;
  Type *t = lower_ann(L, n)->ty;
  switch (n->kind) {
    case ND_Name: case ND_Constant: return true;
    case ND_Attribute: return strcmp(n->name, "T") == 0 && data_free(L, n->value);
    case ND_Subscript:
      return t && t->kind == TY_ARRAY && !lower_is_selection(L, n) && data_free(L, n->value) && data_free(L, n->slice);
    case ND_Slice: return data_free(L, n->lower) && data_free(L, n->upper) && data_free(L, n->step);
    case ND_Tuple:
      for (int i = 0; i < n->elts.len; i++)
        if (!data_free(L, n->elts.items[i])) return false;
      return true;
    case ND_UnaryOp: return t && t->kind == TY_SCALAR && data_free(L, n->operand);
    case ND_BinOp: return t && t->kind == TY_SCALAR && data_free(L, n->left) && data_free(L, n->right);
    default: return false;
  }
}

/* the array a leaf or target is a view of: its name, or NULL */
static const char *root_name(Node *n) {
  while (n->kind == ND_Subscript || n->kind == ND_Attribute) n = n->value;
  return n->kind == ND_Name ? n->name : NULL;
}

static bool full_slice(Node *n) {
  return n->kind == ND_Slice && n->lower == NULL && n->upper == NULL && n->step == NULL;
}

/* the whole array: a name, or name[:] / name[:, :] */
static bool whole(Node *n) {
  if (n->kind == ND_Name) return true;
  if (n->kind != ND_Subscript || n->value->kind != ND_Name) return false;
  if (full_slice(n->slice)) return true;
  if (n->slice->kind != ND_Tuple) return false;
  for (int i = 0; i < n->slice->elts.len; i++)
    if (!full_slice(n->slice->elts.items[i])) return false;
  return true;
}

typedef struct Stmt {
  Node *s, *target, *value;
  FuseKind kind;
  Node *leaf[AX_MAXLEAF];  // the operands (ax_collect's leaves)
  int nleaf;
  const char *writes;      // the name of the array written
  int nd;
} Stmt;

static bool scan(Lower *L, Node *s, Stmt *st) {
  st->s = s;
  st->kind = form(L, s, &st->target, &st->value);
  if (st->kind == FS_NONE) return false;
  Ax x = {.target = -1};
  if (ax_is_fused(L, st->value)) {
    ax_collect(L, &x, st->value);
  } else {
    x.leaf[0].n = st->value;
    x.nleaf = 1;
  }
  st->nleaf = x.nleaf;
  for (int i = 0; i < x.nleaf; i++) st->leaf[i] = x.leaf[i].n;
  st->writes = root_name(st->target);
  Type *t = st->kind == FS_EXPR ? lower_ann(L, st->value)->ty : lower_ann(L, st->target)->ty;
  if (st->target->kind == ND_Name && lower_ann(L, st->target)->slot >= 0)
    t = st->kind == FS_EXPR ? t : L->spec->locals[lower_ann(L, st->target)->slot].ty;
  st->nd = t->ndim;
  return st->writes != NULL && st->nd > 0;
}

/* may b follow a in one loop? else why not, written into why */
static bool compatible(Lower *L, Stmt *a, Stmt *b, char *why, size_t n) {
  (void)L;
  if (a->nd != b->nd) {
    snprintf(why, n, "their shapes have %d and %d dimensions", a->nd, b->nd);
    return false;
  }
  for (int i = 0; i < b->nleaf; i++) {  /* b reads what a wrote: at the same index only */
    const char *r = root_name(b->leaf[i]);
    if (r && strcmp(r, a->writes) == 0 && !(whole(a->target) && b->leaf[i]->kind == ND_Name)) {
      snprintf(why, n, "line %d reads %s at another index than line %d writes it", b->s->loc.line, r, a->s->loc.line);
      return false;
    }
  }
  for (int i = 0; i < a->nleaf; i++) {  /* b writes what a read: at the same index only */
    const char *r = root_name(a->leaf[i]);
    if (r && strcmp(r, b->writes) == 0 && !(whole(b->target) && a->leaf[i]->kind == ND_Name)) {
      snprintf(why, n, "line %d writes %s, which line %d reads at another index", b->s->loc.line, r, a->s->loc.line);
      return false;
    }
  }
  if (strcmp(a->writes, b->writes) == 0 && !(whole(a->target) && whole(b->target))) {
    snprintf(why, n, "lines %d and %d write parts of %s", a->s->loc.line, b->s->loc.line, a->writes);
    return false;
  }
  return true;
}

/* an expression statement b of st[0..b] rebinds its name: the array it drops
** must outlive the loops of the statements that read it, which it does only
** when an earlier expression statement of the group made it (held) */
static bool rebinds_read(Stmt *st, int b, char *why, size_t n) {
  if (st[b].kind != FS_EXPR) return false;
  for (int a = 0; a <= b; a++)
    for (int i = 0; i <= st[a].nleaf; i++) {  /* its operands, and (before b) its target */
      if (i == st[a].nleaf && a == b) break;
      const char *r = i < st[a].nleaf ? root_name(st[a].leaf[i]) : st[a].writes;
      if (r == NULL || strcmp(r, st[b].writes) != 0) continue;
      bool made = i == st[a].nleaf && st[a].kind == FS_EXPR;  /* its new array, held */
      for (int e = 0; e < a && !made; e++) made = st[e].kind == FS_EXPR && strcmp(st[e].writes, r) == 0;
      if (!made) {
        snprintf(why, n, "line %d rebinds %s, which line %d uses", st[b].s->loc.line, r, st[a].s->loc.line);
        return true;
      }
    }
  return false;
}

/* a store reading its own target at another index goes through its temporary: not fused */
static bool reads_own_target(Stmt *st, char *why, size_t n) {
  for (int i = 0; i < st->nleaf; i++) {
    const char *r = root_name(st->leaf[i]);
    if (r && strcmp(r, st->writes) == 0 && !(whole(st->target) && st->leaf[i]->kind == ND_Name)) {
      snprintf(why, n, "line %d reads %s at another index than it writes it", st->s->loc.line, r);
      return true;
    }
  }
  return false;
}

static bool later_ok(Lower *L, Stmt *st) {
  for (int i = 0; i < st->nleaf; i++)
    if (!data_free(L, st->leaf[i])) return false;
  return data_free(L, st->target);
}

static void report(Lower *L, Stmt *st, int n) {
  char line[400];
  int k = snprintf(line, sizeof line, "%s(): array statements at lines", L->spec->def->name);
  for (int i = 0; i < n && k < (int)sizeof line - 40; i++)
    k += snprintf(line + k, sizeof line - (size_t)k, "%s %d", i == 0 ? "" : i == n - 1 ? " and" : ",", st[i].s->loc.line);
  snprintf(line + k, sizeof line - (size_t)k, " are fused into one parallel loop (when their shapes agree at run time "
           "and no operand overlaps another statement's target; else one loop each)");
  parfor_diag(L->C, line);
}

/* the statements of st[0..n) lowered up to their loops (an expression's array assigned to its name) */
static void plan_all(Lower *L, Stmt *st, AxPlan *p, int n) {
  for (int i = 0; i < n; i++) {
    const Node *outer = L->stmt;
    L->stmt = st[i].s;
    if (st[i].kind == FS_EXPR) {
      ax_expr_plan(L, st[i].value, &p[i]);
      lower_store_target(L, st[i].target, (Val){p[i].out.ty, p[i].out.v, false});
    } else {
      Node *s = st[i].s;
      ax_store_plan(L, st[i].target, s->kind == ND_AugAssign ? s->op : OP_None,
                    s->kind == ND_AugAssign ? lower_ann(L, s)->ty : NULL, st[i].value, &p[i]);
    }
    p[i].x.stmt = st[i].s;
    L->stmt = outer;
  }
}

/* true at run time when the group may run fused: one shape, no temporary, no overlap across statements */
static LLVMValueRef fusable(Lower *L, AxPlan *p, int n) {
  LLVMValueRef ok = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 1, 0);
  int nd = p[0].nd;
  for (int j = 0; j < n; j++) {
    for (int k = 0; k < nd && j > 0; k++)
      ok = LLVMBuildAnd(L->b, ok, LLVMBuildICmp(L->b, LLVMIntEQ, p[j].shape[k], p[0].shape[k], ""), "");
    if (p[j].need) ok = LLVMBuildAnd(L->b, ok, LLVMBuildNot(L->b, p[j].need, ""), "");
  }
  LLVMValueRef bad = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0);
  LLVMValueRef ostr[LM_MAXDIM];
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      /* j's operands against i's target, i's operands against j's, and the two targets */
      for (int d = 0; d < 2; d++) {
        AxPlan *r = d ? &p[i] : &p[j], *w = d ? &p[j] : &p[i];
        for (int l = 0; l < r->x.nleaf; l++)
          if (l != r->x.target && r->x.leaf[l].v.ty->kind == TY_ARRAY)
            bad = LLVMBuildOr(L->b, bad, ax_overlaps(L, r->x.leaf[l].v, r->x.leaf[l].stride, w->out, nd, p[0].shape), "");
      }
      for (int k = 0; k < nd; k++) ostr[k] = lower_arr_stride(L, p[j].out.v, k);
      bad = LLVMBuildOr(L->b, bad, ax_overlaps(L, p[j].out, ostr, p[i].out, nd, p[0].shape), "");
    }
  return LLVMBuildAnd(L->b, ok, LLVMBuildNot(L->b, bad, ""), "");
}

int lower_parfuse(Lower *L, NodeList *body, int at) {
  if (!ax_par_ok(L)) return 0;
  Stmt st[FUSE_MAX];
  int n = 0;
  char why[200] = "";
  while (n < FUSE_MAX && at + n < body->len && !spec_if_leaves(L->spec, body->items[at + n])) {
    Stmt *s = &st[n];
    if (!scan(L, body->items[at + n], s) || (n > 0 && !later_ok(L, s))) break;
    if (reads_own_target(s, why, sizeof why)) break;
    bool ok = true;
    for (int i = 0; i < n && ok; i++) ok = compatible(L, &st[i], s, why, sizeof why);
    if (!ok || rebinds_read(st, n, why, sizeof why)) break;
    n++;
  }
  if (n >= 1 && why[0]) {
    char line[400];
    snprintf(line, sizeof line, "%s(): array statements at lines %d and %d are not fused: %s", L->spec->def->name,
             st[n - 1].s->loc.line, body->items[at + n]->loc.line, why);
    parfor_diag(L->C, line);
  }
  if (n < 2) return 0;
  report(L, st, n);
  AxPlan *p = arena_alloc(L->C->A, sizeof *p * (size_t)n);
  int mark = L->nheld;
  plan_all(L, st, p, n);
  LLVMBasicBlockRef fused = lower_block(L, "fused"), apart = lower_block(L, "unfused"), join = lower_block(L, "fusedend");
  LLVMBuildCondBr(L->b, fusable(L, p, n), fused, apart);
  LLVMPositionBuilderAtEnd(L->b, fused);
  Ax *xs[FUSE_MAX];
  Val outs[FUSE_MAX];
  for (int i = 0; i < n; i++) {
    xs[i] = &p[i].x;
    outs[i] = (Val){p[i].out.ty, p[i].out.v, false};
  }
  ax_par_loops(L, xs, outs, n, p[0].nd, p[0].shape);
  LLVMBuildBr(L->b, join);
  LLVMPositionBuilderAtEnd(L->b, apart);
  for (int i = 0; i < n; i++) {
    const Node *outer = L->stmt;
    L->stmt = st[i].s;
    ax_plan_run(L, &p[i]);
    L->stmt = outer;
  }
  LLVMBuildBr(L->b, join);
  LLVMPositionBuilderAtEnd(L->b, join);
  lower_unhold(L, mark);
  for (int i = 0; i < n; i++) {
    ax_release_leaves(L, &p[i].x);
    lower_release(L, p[i].out);
  }
  return n;
}
