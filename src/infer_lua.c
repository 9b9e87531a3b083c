/*
** infer_lua.c — Lua 5.4 semantics for functions written in Lua, the typing
** half (lower_lua.c is the lowering half). The Lua-syntax frontend
** (lua/lumba/luafront.lua) builds the same AST the Python frontend builds and
** sets the option semantics = "lua"; the typing and the lowering then ask
** these two files wherever Lua and Python disagree:
**   - arithmetic: integers are int64 and wrap; '/' and '^' give floats; float
**     '//' is floor(a / b) and float '%' is Lua's fmod rule, both IEEE (a
**     float divided by zero is inf or nan, never an error); integer '//' and
**     '%' by zero raise as in Python; shifts are logical, a negative count
**     shifts the other way, a count of 64 or more gives 0; no arithmetic or
**     bitwise operation on booleans;
**   - truth: conditions must be booleans (every number is true in Lua, so a
**     number used as a condition is refused, not compiled as "always true");
**     'and'/'or' return an operand by Lua's rule (numbers are true);
**   - comparisons: a boolean is never compared with a number;
**   - indices: 1-based, negative counts from the end (-1 is the last), 0 is
**     out of bounds: the rule of ndarray indexing on the Lua side;
**   - for: range(a, b[, c]) in a for loop is Lua's numeric for (inclusive
**     limit, integer loop when a and c are integers, float loop otherwise);
**   - math.floor/ceil of a float that no int64 holds raise, as Lua's
**     float-to-integer conversions do, instead of saturating.
*/
#include <string.h>

#include "infer.h"

static const char *const op_verbs[OP__COUNT] = {
    [OP_Add] = "add", [OP_Sub] = "subtract", [OP_Mult] = "multiply", [OP_Div] = "divide",
    [OP_FloorDiv] = "floor-divide", [OP_Mod] = "take the modulo of", [OP_Pow] = "raise to a power",
    [OP_LShift] = "shift", [OP_RShift] = "shift", [OP_BitOr] = "bitwise-or", [OP_BitXor] = "bitwise-xor",
    [OP_BitAnd] = "bitwise-and",
};

/* Lua has one integer type (int64) and one float type; arrays of narrower
** dtypes read as those. float32 stays float32 where both sides are float32,
** as in Numba (a deliberate difference: plain Lua computes in double). */
Type *infer_lua_binop_type(Infer *I, OpKind op, Type *a, Type *b, Loc loc) {
  Compile *C = I->C;
  const char *verb = op_verbs[op] ? op_verbs[op] : "combine";
  bool nums = a->kind == TY_SCALAR && b->kind == TY_SCALAR && !ty_is_bool(a) && !ty_is_bool(b);
  if (!nums) {
    if (a->kind == TY_ARRAY || b->kind == TY_ARRAY)
      compile_error(C, loc, "TypingError", "cannot %s %s and %s (whole-array arithmetic is not supported: write a loop)",
                    verb, tyname(C, a), tyname(C, b));
    compile_error(C, loc, "TypingError", "cannot %s %s and %s%s", verb, tyname(C, a), tyname(C, b),
                  ty_is_bool(a) || ty_is_bool(b) ? " (Lua has no arithmetic on booleans)" : "");
  }
  bool ints = ty_is_int(a) && ty_is_int(b);
  switch (op) {
    case OP_Add: case OP_Sub: case OP_Mult: case OP_FloorDiv: case OP_Mod:
      return ints ? ty_int64 : ty_arith(a, b);
    case OP_Div: case OP_Pow:
      return ty_truediv(a, b);
    case OP_LShift: case OP_RShift: case OP_BitOr: case OP_BitXor: case OP_BitAnd:
      if (!ints)
        compile_error(C, loc, "TypingError", "cannot %s %s and %s (bitwise operators need integers: convert with math.floor)",
                      verb, tyname(C, a), tyname(C, b));
      return ty_int64;
    default:
      compile_error(C, loc, "UnsupportedError", "the '%s' operator is not part of Lua", ast_op_symbols[op]);
  }
}

/* every number is true in Lua: a number as a condition is a bug we refuse */
void infer_lua_cond(Infer *I, Node *n, Type *t) {
  if (t && t->kind == TY_SCALAR && !ty_is_bool(t))
    compile_error(I->C, n->loc, "TypingError",
                  "%s used as a condition: every number is true in Lua (compare it, e.g. x ~= 0)", tyname(I->C, t));
}

void infer_lua_unary(Infer *I, Node *n, Type *a) {
  if (n->op == OP_Not) infer_lua_cond(I, n->operand, a);
  else if (ty_is_bool(a))
    compile_error(I->C, n->loc, "TypingError", "bad operand type for unary %s: bool (Lua has no arithmetic on booleans)",
                  ast_op_symbols[n->op]);
}

/* a and b: a when a is false, else b; a or b: a when a is true, else b. A
** number is always true, so the result is one operand's type; a boolean
** operand needs a boolean partner (false-or-number has no single type). */
Type *infer_lua_boolop(Infer *I, Node *n) {
  Compile *C = I->C;
  const char *opname = ast_op_symbols[n->op];
  bool unknown = false;
  for (int i = 0; i < n->elts.len; i++) {
    Node *e = n->elts.items[i];
    Type *a = infer_expr(I, e);
    if (a == NULL) unknown = true;
    else if (a->kind != TY_SCALAR)
      compile_error(C, e->loc, "TypingError", "'%s' needs numbers or booleans, not %s", opname, tyname(C, a));
  }
  if (unknown) return NULL;
  Type *t = infer_ann(I, n->elts.items[0])->ty;
  for (int i = 1; i < n->elts.len; i++) {
    Type *a = infer_ann(I, n->elts.items[i])->ty;
    if (ty_is_bool(t)) {
      if (!ty_is_bool(a))
        compile_error(C, n->loc, "TypingError",
                      "'%s' of bool and %s has no single type (in Lua it gives either a boolean or the number)",
                      opname, tyname(C, a));
    } else if (n->op == OP_And) {
      t = a;  /* a number is true: the result is the right operand */
    }           /* 'or': a number is true: the result is the left operand */
  }
  return t;
}

void infer_lua_compare(Infer *I, Node *n, OpKind op, Type *l, Type *r) {
  Compile *C = I->C;
  if (l->kind != TY_SCALAR || r->kind != TY_SCALAR) return;  /* Python's check reports it */
  if (ty_is_bool(l) != ty_is_bool(r))
    compile_error(C, n->loc, "TypingError", "cannot compare %s and %s (in Lua a boolean never equals a number)",
                  tyname(C, l), tyname(C, r));
  if (ty_is_bool(l) && op != OP_Eq && op != OP_NotEq)
    compile_error(C, n->loc, "TypingError", "cannot order two booleans with '%s'", ast_op_symbols[op]);
}

/* ndarray indexing on the Lua side: 1 is the first, -1 the last, 0 none */
int64_t infer_lua_tuple_index(int64_t k, int n) {
  if (k > 0) return k <= n ? k - 1 : n;
  if (k < 0) return k >= -(int64_t)n ? n + k : n;
  return n;
}

/* for v = a, b[, c] arrives as For(v, range(a, b[, c])): an integer loop
** when a and c are integers (the limit may be a float), else a float loop */
Type *infer_lua_for(Infer *I, Node *s) {
  Compile *C = I->C;
  Node *it = s->iter;
  static const char *const what[3] = {"initial value", "limit", "step"};
  if (it->args.len < 2 || it->args.len > 3 || it->keywords.len)
    compile_error(C, it->loc, "TypingError", "a numeric for needs an initial value, a limit and an optional step");
  Type *t[3] = {NULL, NULL, ty_int64};
  bool unknown = false;
  for (int i = 0; i < it->args.len; i++) {
    t[i] = infer_expr(I, it->args.items[i]);
    if (t[i] == NULL) unknown = true;
    else if (t[i]->kind != TY_SCALAR || ty_is_bool(t[i]))
      compile_error(C, it->args.items[i]->loc, "TypingError", "'for' %s must be a number, not %s", what[i],
                    tyname(C, t[i]));
  }
  if (unknown) return NULL;
  return ty_is_int(t[0]) && ty_is_int(t[2]) ? ty_int64 : ty_float64;
}

