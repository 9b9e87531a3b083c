/*
** infer_ssa.c — Numba's SSA renaming, as far as a name's type may change:
** an assignment at the top level of a function body to a name defined
** before it (a parameter, an earlier assignment) starts a new variable,
** "x.1", "x.2" as Numba's IR names them, and the statements after it read
** that one. So `x = conv(x); x = np.reshape(x, (n, m))` types x once per
** assignment, as Numba does, instead of failing to unify a 4-d and a 2-d
** array. A top-level statement runs before every statement after it, so
** nothing after it can see the older value; assignments nested in loops
** and branches stay the variable they assign (their types must unify, as
** at Numba's phi nodes), and so do loop targets (a loop of no iterations
** keeps the older value) and in-place operators. Renaming an already
** renamed body changes nothing, so each specialization may run it.
*/
#include <stdio.h>
#include <string.h>

#include "infer.h"

typedef struct Version {
  const char *name;     // as written
  const char *current;  // the variable reads see now: name or name.k
  int count;            // definitions at the top level so far
} Version;

typedef struct Renamer {
  Compile *C;
  Version *v;
  int n, cap;
} Renamer;

static Version *find(Renamer *R, const char *name) {
  for (int i = 0; i < R->n; i++)
    if (strcmp(R->v[i].name, name) == 0) return &R->v[i];
  return NULL;
}

static Version *define(Renamer *R, const char *name) {
  Version *v = find(R, name);
  if (v) return v;
  if (R->n == R->cap) {
    int cap = R->cap ? 2 * R->cap : 16;
    Version *nv = arena_alloc(R->C->A, sizeof(Version) * (size_t)cap);
    if (R->n) memcpy(nv, R->v, sizeof(Version) * (size_t)R->n);
    R->v = nv;
    R->cap = cap;
  }
  R->v[R->n] = (Version){name, name, 0};
  return &R->v[R->n++];
}

static void rename_list(Renamer *R, NodeList *l);

/* every Name in n reads (or, nested, assigns) the current variable */
static void rename_in(Renamer *R, Node *n) {
  if (n == NULL || n->kind == ND_FunctionDef) return;
  if (n->kind == ND_Name) {
    Version *v = find(R, n->name);
    if (v) n->name = v->current;
    return;
  }
  Node *kids[] = {n->value, n->target, n->test, n->iter, n->left, n->right, n->operand, n->func, n->slice,
                  n->lower, n->upper, n->step, n->msg, n->exc, n->body_e, n->orelse_e};
  for (size_t i = 0; i < lm_countof(kids); i++) rename_in(R, kids[i]);
  NodeList *lists[] = {&n->body, &n->orelse, &n->targets, &n->args, &n->keywords, &n->elts};
  for (size_t i = 0; i < lm_countof(lists); i++) rename_list(R, lists[i]);
}

static void rename_list(Renamer *R, NodeList *l) {
  for (int i = 0; i < l->len; i++) rename_in(R, l->items[i]);
}

/* names a statement defines, so that a later top-level assignment renames them */
static void note_defs(Renamer *R, Node *n) {
  if (n == NULL || n->kind == ND_FunctionDef) return;
  if (n->kind == ND_Name) {
    define(R, n->name);
    return;
  }
  note_defs(R, n->target);
  NodeList *lists[] = {&n->body, &n->orelse, &n->targets, &n->elts};
  for (size_t k = 0; k < lm_countof(lists); k++)
    for (int i = 0; i < lists[k]->len; i++) note_defs(R, lists[k]->items[i]);
}

/* a top-level target: a new variable when the name was defined before */
static void new_version(Renamer *R, Node *t) {
  if (t->kind == ND_Tuple || t->kind == ND_List) {
    for (int i = 0; i < t->elts.len; i++) new_version(R, t->elts.items[i]);
    return;
  }
  if (t->kind != ND_Name) {
    rename_in(R, t);  /* a[i] = v reads a */
    return;
  }
  Version *v = find(R, t->name);
  if (v == NULL) {
    define(R, t->name);
    return;
  }
  char buf[256];
  snprintf(buf, sizeof buf, "%s.%d", v->name, ++v->count);
  v->current = arena_strdup(R->C->A, buf);
  t->name = v->current;
}

void infer_ssa_rename(Compile *C, Node *def) {
  if (C->opt.lua) return;  /* Lua's locals are declared: a new `local x` is a new variable already */
  Renamer R = {C, NULL, 0, 0};
  for (int i = 0; i < def->args.len; i++) define(&R, def->args.items[i]->name);
  for (int i = 0; i < def->body.len; i++) {
    Node *s = def->body.items[i];
    if (s->kind == ND_Assign) {
      rename_in(&R, s->value);  /* the value reads the variables before the assignment */
      for (int j = 0; j < s->targets.len; j++) new_version(&R, s->targets.items[j]);
      continue;
    }
    rename_in(&R, s);
    note_defs(&R, s);
  }
}

const char *infer_shown_name(Compile *C, const char *name) {
  const char *dot = strchr(name, '.');
  if (dot == NULL || name[0] == '$') return name;
  return arena_strndup(C->A, name, (size_t)(dot - name));
}
