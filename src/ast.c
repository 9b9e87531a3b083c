/*
** ast.c — node constructors and the name tables generated from ast.def
** and ops.def.
*/
#include <string.h>

#include "ast.h"

const char *const ast_kind_names[ND__COUNT] = {
#define NODE(n) #n,
#include "ast.def"
#undef NODE
};

const char *const ast_op_names[OP__COUNT] = {
    "None",
#define OP(n, s) #n,
#include "ops.def"
#undef OP
};

const char *const ast_op_symbols[OP__COUNT] = {
    "?",
#define OP(n, s) s,
#include "ops.def"
#undef OP
};

Node *ast_new(Arena *a, NodeKind kind, Loc loc) {
  Node *n = arena_alloc(a, sizeof(Node));
  if (n == NULL) return NULL;
  n->kind = kind;
  n->loc = loc;
  n->id = a->nnodes++;
  return n;
}

/* Grows by doubling; old arrays stay in the arena until it is freed. */
void ast_list_push(Arena *a, NodeList *l, Node *n) {
  if (l->len == l->cap) {
    int cap = l->cap ? l->cap * 2 : 4;
    Node **items = arena_alloc(a, sizeof(Node *) * (size_t)cap);
    if (items == NULL) return;
    if (l->len) memcpy(items, l->items, sizeof(Node *) * (size_t)l->len);
    l->items = items;
    l->cap = cap;
  }
  l->items[l->len++] = n;
}
