/*
** luasem.h — Lua 5.4 semantics for functions written in Lua. The Lua-syntax
** frontend (lua/lumba/luafront.lua) builds the same AST the Python frontend
** builds and sets the option semantics = "lua"; the typing and the lowering
** then ask here wherever Lua and Python disagree:
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
#ifndef luasem_h
#define luasem_h

#include "lower.h"

/* typing */
Type *luasem_binop_type(Infer *I, OpKind op, Type *a, Type *b, Loc loc);
void luasem_check_cond(Infer *I, Node *n, Type *t);
void luasem_check_unary(Infer *I, Node *n, Type *a);
Type *luasem_boolop_type(Infer *I, Node *n);
void luasem_check_compare(Infer *I, Node *n, OpKind op, Type *l, Type *r);
int64_t luasem_tuple_index(int64_t k, int n);  /* 0-based; n when out of range */
Type *luasem_for_type(Infer *I, Node *s);     /* the loop variable's type; NULL while unknown */

/* lowering */
LLVMValueRef luasem_lower_binop(Lower *L, OpKind op, Val a, Val b, Type *rt);  /* NULL: Python's */
LLVMValueRef luasem_index(Lower *L, LLVMValueRef i, LLVMValueRef dim);         /* 0-based, unchecked */
void luasem_lower_for(Lower *L, Node *s);
void luasem_check_integral(Lower *L, LLVMValueRef x);  /* math.floor/ceil: x must fit an int64 */

#endif
