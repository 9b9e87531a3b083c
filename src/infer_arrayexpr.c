/*
** infer_arrayexpr.c — the type of an elementwise operation on arrays, as
** Numba types an array expression: NumPy's promotion between the operands'
** dtypes, a scalar taking the array's dtype when its kind is not higher
** (Numba's ufunc loop choice), broadcasting to the larger ndim.
*/
#include "infer.h"

static int kind_rank(DType d) {
  char k = dtype_kinds[d];
  return k == 'b' ? 0 : k == 'f' ? 2 : 1;
}

/* np.result_type of two dtypes */
static DType promote(DType a, DType b) {
  if (a == b) return a;
  if (a == DT_BOOL) return b;
  if (b == DT_BOOL) return a;
  char ka = dtype_kinds[a], kb = dtype_kinds[b];
  int sa = dtype_sizes[a], sb = dtype_sizes[b];
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

Type *infer_arrayexpr_binop(Infer *I, OpKind op, Type *a, Type *b, Loc loc) {
  Compile *C = I->C;
  if (!ty_is_number(a) && a->kind != TY_ARRAY) return NULL;
  if (!ty_is_number(b) && b->kind != TY_ARRAY) return NULL;
  /* an array with a bool scalar keeps today's typing error (asserted in errors_spec) */
  if ((a->kind == TY_SCALAR && ty_is_bool(a)) || (b->kind == TY_SCALAR && ty_is_bool(b))) return NULL;
  DType r = infer_arrayexpr_common(a, b);
  int nd = a->kind == TY_ARRAY ? a->ndim : 0;
  if (b->kind == TY_ARRAY && b->ndim > nd) nd = b->ndim;
  bool fl = dtype_kinds[r] == 'f';
  switch (op) {
    case OP_Add: case OP_Mult: break;
    case OP_Sub: if (r == DT_BOOL) return NULL; break;
    case OP_Div: if (!fl) r = DT_FLOAT64; break;
    case OP_FloorDiv: case OP_Mod: case OP_Pow: if (r == DT_BOOL) r = DT_INT8; break;
    case OP_LShift: case OP_RShift: if (fl) return NULL; if (r == DT_BOOL) r = DT_INT8; break;
    case OP_BitAnd: case OP_BitOr: case OP_BitXor: if (fl) return NULL; break;
    case OP_Eq: case OP_NotEq: case OP_Lt: case OP_LtE: case OP_Gt: case OP_GtE: r = DT_BOOL; break;
    default: return NULL;
  }
  (void)loc;
  return ty_array(&C->S->types, r, nd, 'C');
}

Type *infer_arrayexpr_unary(Infer *I, OpKind op, Type *a) {
  DType d = a->dtype;
  if (op == OP_USub && d == DT_BOOL) return NULL;
  if (op == OP_Invert && dtype_kinds[d] == 'f') return NULL;
  if (op == OP_Not) return NULL;
  return ty_array(&I->C->S->types, d, a->ndim, 'C');
}
