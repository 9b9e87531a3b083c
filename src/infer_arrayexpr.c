/*
** infer_arrayexpr.c — the type of an elementwise operation on arrays, as
** Numba types an array expression: NumPy's promotion between the operands'
** dtypes, a scalar taking the array's dtype when its kind is not higher
** (Numba's ufunc loop choice), broadcasting to the larger ndim; in-place
** operators cast back to the target under NumPy's same_kind rule.
*/
#include <string.h>

#include "infer.h"

/* NumPy's ufunc behind each operator, as its messages name it */
const char *infer_arrayexpr_ufunc(OpKind op) {
  switch (op) {
    case OP_Add: return "add";
    case OP_Sub: return "subtract";
    case OP_Mult: return "multiply";
    case OP_Div: return "divide";
    case OP_FloorDiv: return "floor_divide";
    case OP_Mod: return "remainder";
    case OP_Pow: return "power";
    case OP_LShift: return "left_shift";
    case OP_RShift: return "right_shift";
    case OP_BitAnd: return "bitwise_and";
    case OP_BitOr: return "bitwise_or";
    case OP_BitXor: return "bitwise_xor";
    case OP_Invert: return "invert";
    case OP_USub: return "negative";
    case OP_UAdd: return "positive";
    default: return "?";
  }
}

static int kind_rank(DType d) {
  char k = dtype_kinds[d];
  return k == 'b' ? 0 : k == 'c' ? 3 : k == 'f' ? 2 : 1;
}

/* np.result_type of two dtypes */
static DType promote(DType a, DType b) {
  if (a == b) return a;
  if (a == DT_BOOL) return b;
  if (b == DT_BOOL) return a;
  char ka = dtype_kinds[a], kb = dtype_kinds[b];
  int sa = dtype_sizes[a], sb = dtype_sizes[b];
  if (ka == 'c' || kb == 'c') {  /* complex64 only with float32 or integers of 16 bits or fewer */
    if (ka == 'c' && kb == 'c') return sa > sb ? a : b;
    DType c = ka == 'c' ? a : b, o = ka == 'c' ? b : a;
    if (c == DT_COMPLEX128 || o == DT_FLOAT64 || (dtype_kinds[o] != 'f' && dtype_sizes[o] > 2)) return DT_COMPLEX128;
    return DT_COMPLEX64;
  }
  if (ka == 'f' || kb == 'f') {
    if (ka == 'f' && kb == 'f') return sa > sb ? a : b;
    DType f = ka == 'f' ? a : b, i = ka == 'f' ? b : a;
    if (f == DT_FLOAT64 || dtype_sizes[i] > 2) return DT_FLOAT64;
    return DT_FLOAT32;
  }
  if (ka == kb) return sa >= sb ? a : b;
  DType u = ka == 'u' ? a : b, s = ka == 'u' ? b : a;
  if (dtype_sizes[s] > dtype_sizes[u]) return s;
  switch (dtype_sizes[u]) {
    case 1: return DT_INT16;
    case 2: return DT_INT32;
    case 4: return DT_INT64;
    default: return DT_FLOAT64;
  }
}

/* the dtype both operands are converted to before the operation */
DType infer_arrayexpr_common(const Type *a, const Type *b) {
  DType da = a->dtype, db = b->dtype;
  /* a scalar of a kind no higher than the array's takes the array's dtype */
  if (a->kind == TY_SCALAR && kind_rank(da) <= kind_rank(db)) da = db;
  if (b->kind == TY_SCALAR && kind_rank(db) <= kind_rank(da)) db = da;
  return promote(da, db);
}

static l_noret no_loop(Infer *I, OpKind op, Type *a, Type *b, Loc loc) {
  compile_error(I->C, loc, "TypingError", "ufunc '%s' is not supported for the input types %s and %s (operator %s)",
                infer_arrayexpr_ufunc(op), tyname(I->C, a), tyname(I->C, b), ast_op_symbols[op]);
}

Type *infer_arrayexpr_binop(Infer *I, OpKind op, Type *a, Type *b, Loc loc) {
  Compile *C = I->C;
  if (!ty_is_number(a) && a->kind != TY_ARRAY) return NULL;
  if (!ty_is_number(b) && b->kind != TY_ARRAY) return NULL;
  if (dtype_is_record(a->dtype) || dtype_is_record(b->dtype)) return NULL;  /* records: no arithmetic */
  DType r = infer_arrayexpr_common(a, b);
  int nd = a->kind == TY_ARRAY ? a->ndim : 0;
  if (b->kind == TY_ARRAY && b->ndim > nd) nd = b->ndim;
  bool fl = dtype_kinds[r] == 'f' || dtype_kinds[r] == 'c';
  if (dtype_kinds[r] == 'c' && op != OP_Add && op != OP_Sub && op != OP_Mult && op != OP_Div && op != OP_Pow &&
      op != OP_Eq && op != OP_NotEq)
    no_loop(I, op, a, b, loc);
  switch (op) {
    case OP_Add: case OP_Mult: break;
    case OP_Sub:
      if (r == DT_BOOL)
        compile_error(C, loc, "TypingError", "numpy boolean subtract, the `-` operator, is not supported, use the "
                      "bitwise_xor, the `^` operator, or the logical_xor function instead");
      break;
    case OP_Div: if (!fl) r = DT_FLOAT64; break;
    case OP_FloorDiv: case OP_Mod: case OP_Pow: if (r == DT_BOOL) r = DT_INT8; break;
    case OP_LShift: case OP_RShift: if (fl) no_loop(I, op, a, b, loc); if (r == DT_BOOL) r = DT_INT8; break;
    case OP_BitAnd: case OP_BitOr: case OP_BitXor: if (fl) no_loop(I, op, a, b, loc); break;
    case OP_Eq: case OP_NotEq: case OP_Lt: case OP_LtE: case OP_Gt: case OP_GtE: r = DT_BOOL; break;
    default: return NULL;
  }
  return ty_array(&C->S->types, r, nd, 'C');
}

Type *infer_arrayexpr_unary(Infer *I, OpKind op, Type *a, Loc loc) {
  Compile *C = I->C;
  DType d = a->dtype;
  if (dtype_is_record(d))
    compile_error(C, loc, "TypingError", "operator %s is not supported on %s", ast_op_symbols[op], tyname(C, a));
  if (op == OP_USub && d == DT_BOOL)
    compile_error(C, loc, "TypingError", "The numpy boolean negative, the `-` operator, is not supported, use the "
                  "`~` operator or the logical_not function instead");
  if (op == OP_Invert && (dtype_kinds[d] == 'f' || dtype_kinds[d] == 'c'))
    compile_error(C, loc, "TypingError", "ufunc 'invert' is not supported for the input type %s (operator ~)",
                  tyname(C, a));
  if (op == OP_Not) infer_arrayexpr_ambiguous(I, a, loc);
  return ty_array(&C->S->types, d, a->ndim, 'C');
}

/* an array where Python wants one truth value: not, and, or, chained comparisons */
l_noret infer_arrayexpr_ambiguous(Infer *I, Type *a, Loc loc) {
  compile_error(I->C, loc, "TypingError", "The truth value of an array with more than one element is ambiguous "
                "(%s here). Use a.any() or a.all(), or the elementwise &, |, ~", tyname(I->C, a));
}

/* np.can_cast(from, to, 'same_kind'): kinds ordered b < u < i < f, never down */
static bool same_kind(DType from, DType to) {
  static const char order[] = "buifc";
  return strchr(order, dtype_kinds[from]) <= strchr(order, dtype_kinds[to]);
}

/* target op= value on an array target: the operation's type, whose result is
** written back into the target (NumPy's ufunc with out=target) */
Type *infer_arrayexpr_inplace(Infer *I, OpKind op, Type *target, Type *v, Loc loc) {
  Compile *C = I->C;
  Type *r = infer_arrayexpr_binop(I, op, target, v, loc);
  if (r == NULL)
    compile_error(C, loc, "TypingError", "cannot %s= %s into %s", ast_op_symbols[op], tyname(C, v), tyname(C, target));
  if (!same_kind(r->dtype, target->dtype))
    compile_error(C, loc, "TypingError", "Cannot cast ufunc '%s' output from dtype('%s') to dtype('%s') with casting rule 'same_kind'",
                  infer_arrayexpr_ufunc(op), dtype_names[r->dtype], dtype_names[target->dtype]);
  return r;
}
