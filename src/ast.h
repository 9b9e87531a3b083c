/*
** ast.h — the syntax tree, shaped like Python's ast module (one plain Node
** struct, chibicc style). Nodes live in the compilation's arena.
**
** Lua-table form (lumba.parse / njit(ast_table)): each node is a table
** {tag="BinOp", op="Add", left=..., right=..., lineno=L, col_offset=C}
** with Python's field names: FunctionDef{name, args={tag="arguments",
** args={arg...}, defaults={...}}, body={...}, decorator_list={...}, returns},
** arg{arg, annotation}, Compare{left, ops={"Lt",...}, comparators={...}},
** BoolOp{op, values}, Call{func, args, keywords}, keyword{arg, value},
** Attribute{value, attr}, Name{id}, Constant{value} (value absent = None;
** Lua integer/float/boolean/string otherwise), IfExp{test, body, orelse},
** Import/ImportFrom{module, names={alias{name, asname}}}, Assign{targets,
** value}, For{target, iter, body, orelse}, Assert{test, msg}, Raise{exc}.
*/
#ifndef ast_h
#define ast_h

#include <stdbool.h>

#include "arena.h"
#include "diag.h"

typedef enum NodeKind {
#define NODE(n) ND_##n,
#include "ast.def"
#undef NODE
  ND__COUNT
} NodeKind;

typedef enum OpKind {
  OP_None = 0,
#define OP(n, s) OP_##n,
#include "ops.def"
#undef OP
  OP__COUNT
} OpKind;

/* CK_IMAG: an imaginary literal (1j), fval its imaginary part */
typedef enum ConstKind { CK_NONE, CK_INT, CK_FLOAT, CK_BOOL, CK_STR, CK_IMAG } ConstKind;

typedef struct Node Node;
typedef struct Type Type;

typedef struct NodeList {
  Node **items;  // arena array
  int len, cap;
} NodeList;

struct Node {
  NodeKind kind;
  Loc loc;               // representative position (Python's lineno/col_offset)
  OpKind op;             // BinOp, AugAssign, UnaryOp, BoolOp
  const char *name;      // Name.id, Attribute.attr, FunctionDef/arg/alias/keyword name, ImportFrom module
  const char *asname;    // alias
  /* Constant */
  ConstKind ckind;
  int64_t ival;
  double fval;
  bool bval;
  const char *sval;         // a string Constant; a FunctionDef skipped by a lenient parse: its UnsupportedError
  /* children (NULL when absent) */
  Node *value, *target, *test, *iter, *left, *right, *operand, *func, *slice;
  Node *lower, *upper, *step, *annotation, *returns, *msg, *exc;
  Node *body_e, *orelse_e;  // IfExp
  NodeList body, orelse;    // statement lists
  NodeList targets;         // Assign
  NodeList args, defaults, keywords, decorators, names;
  NodeList elts;            // Tuple/List elements, BoolOp values, Compare comparators
  OpKind *cmpops;           // Compare: elts.len operators
  int id;                   // dense per arena (ast_new): indexes each specialization's annotations (Ann, compile.h)
};

extern const char *const ast_kind_names[ND__COUNT];
extern const char *const ast_op_names[OP__COUNT];    // "Add"
extern const char *const ast_op_symbols[OP__COUNT];  // "+"

Node *ast_new(Arena *a, NodeKind kind, Loc loc);
void ast_list_push(Arena *a, NodeList *l, Node *n);

#endif
