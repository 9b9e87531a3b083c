/*
** builtin_asarray.c — arrays from values: np.array, np.asarray,
** np.ascontiguousarray of an array, a number (0-d), a tuple, or nested
** list and tuple literals whose items may be any numbers computed at run
** time (np.array([[x, 0.0], [0.0, y]])). The nesting's shape is known at
** compile time; the items are computed, then stored into a new C array.
*/
#include "builtin_hooks.h"

enum { AA_OBJ, AA_DTYPE };

static bool is_literal(const Node *e) { return e->kind == ND_List || e->kind == ND_Tuple; }

/* The shape of a nesting: literal nodes by their items, other values by
** their types (a tuple of tuples). Each item's type comes from ty_of: the
** inference (which types it) or the lowering (which reads it). */
typedef struct Shape {
  Compile *C;
  int ndim;          // the depth of the items; -1 until the first item says
  int deepest;       // the deepest list seen, for empty ones ([] is 1-d, [[], []] 2-d)
  int64_t dims[LM_MAXDIM];
  bool seen[LM_MAXDIM];
  Type *leaf;        // the items' unified type; NULL: no items yet
  int64_t nleaves;
} Shape;

static l_noret not_rectangular(Shape *S, Node *at) {
  compile_error(S->C, at->loc, "TypingError",
                "np.array() needs a rectangular nesting of numbers (every item at one depth the same length)");
}

/* a list of len items at depth, or (leaf) an item */
static void shape_fix(Shape *S, Node *at, int depth, int64_t len, bool leaf) {
  if (leaf) {
    if (S->ndim < 0) S->ndim = depth;
    else if (S->ndim != depth) not_rectangular(S, at);
    return;
  }
  if (depth >= LM_MAXDIM) compile_error(S->C, at->loc, "TypingError", "arrays have at most %d dimensions", LM_MAXDIM);
  if ((S->seen[depth] && S->dims[depth] != len) || (S->ndim >= 0 && depth >= S->ndim)) not_rectangular(S, at);
  S->seen[depth] = true;
  S->dims[depth] = len;
  if (depth + 1 > S->deepest) S->deepest = depth + 1;
}

typedef Type *(*TypeOf)(void *ud, Node *e);

static void shape_of_type(Shape *S, Node *at, Type *t, int depth) {
  if (t->kind == TY_TUPLE) {
    shape_fix(S, at, depth, t->nelems, false);
    for (int i = 0; i < t->nelems; i++) shape_of_type(S, at, t->elems[i], depth + 1);
    return;
  }
  if (t->kind != TY_SCALAR)
    compile_error(S->C, at->loc, "TypingError", "np.array() takes numbers, tuples and lists of them here, not %s",
                  tyname(S->C, t));
  shape_fix(S, at, depth, 0, true);
  S->leaf = S->leaf ? ty_unify(&S->C->S->types, S->leaf, t) : t;
  S->nleaves++;
}

/* false when an item is not typed yet */
static bool shape_of(Shape *S, Node *e, int depth, TypeOf ty_of, void *ud) {
  if (is_literal(e)) {
    shape_fix(S, e, depth, e->elts.len, false);
    bool ok = true;
    for (int i = 0; i < e->elts.len; i++) ok = shape_of(S, e->elts.items[i], depth + 1, ty_of, ud) && ok;
    return ok;
  }
  Type *t = ty_of(ud, e);
  if (t == NULL) return false;
  shape_of_type(S, e, t, depth);
  return true;
}

static Type *infer_type_of(void *ud, Node *e) { return infer_expr(ud, e); }
static Type *lower_type_of(void *ud, Node *e) { return lower_ann(ud, e)->ty; }

static Node *given(Node *a) {
  return a && a->kind == ND_Constant && a->ckind == CK_NONE ? NULL : a;
}

Type *basarray_infer(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  CallInfo *ci;
  Node **a = bcreate_bind(I, n, nm, &ci);
  a[AA_DTYPE] = given(a[AA_DTYPE]);
  Node *obj = a[AA_OBJ];
  if (!is_literal(obj)) {
    Type *t = infer_expr(I, obj);
    if (t == NULL) return NULL;
    if (t->kind == TY_ARRAY) {
      ci->dt = infer_dtype_of(I, a[AA_DTYPE], t->dtype);
      /* asarray: the array itself where the dtype is its own; ascontiguousarray too when it is C */
      bool same = ci->dt == t->dtype;
      if (same && (nm->id == BI_numpy_asarray || (nm->id == BI_numpy_ascontiguousarray && t->layout == 'C')))
        return t;
      return ty_array(&C->S->types, ci->dt, t->ndim, 'C');
    }
  }
  Shape S = {.C = C, .ndim = -1};
  if (!shape_of(&S, obj, 0, infer_type_of, I)) return NULL;
  int ndim = S.ndim < 0 ? S.deepest : S.ndim;
  if (nm->id == BI_numpy_ascontiguousarray && ndim == 0) ndim = 1;  /* NumPy: at least 1-d */
  ci->dt = infer_dtype_of(I, a[AA_DTYPE], S.leaf ? S.leaf->dtype : DT_FLOAT64);
  return ty_array(&C->S->types, ci->dt, ndim, 'C');
}

typedef struct Leaves {
  LLVMValueRef *v;
  int64_t n;
  DType dt;
} Leaves;

static void leaves_of_value(Lower *L, Leaves *out, Val v) {
  if (v.ty->kind == TY_TUPLE) {
    for (int i = 0; i < v.ty->nelems; i++)
      leaves_of_value(L, out, (Val){v.ty->elems[i], LLVMBuildExtractValue(L->b, v.v, (unsigned)i, ""), false});
    return;
  }
  out->v[out->n++] = lower_cast(L, v, ty_scalar(out->dt)).v;
}

static void leaves_of(Lower *L, Leaves *out, Node *e) {
  if (is_literal(e)) {
    for (int i = 0; i < e->elts.len; i++) leaves_of(L, out, e->elts.items[i]);
    return;
  }
  leaves_of_value(L, out, lower_expr(L, e));  /* numbers and tuples of numbers: nothing to release */
}

Val basarray_lower(Lower *L, Node *n, CallInfo *ci) {
  Type *t = lower_ann(L, n)->ty;
  Node *obj = ci->args[AA_OBJ];
  Type *ot = is_literal(obj) ? NULL : lower_ann(L, obj)->ty;
  if (ot && ot->kind == TY_ARRAY) {
    Val a = lower_expr(L, obj);
    if (t == ot && ci->bi != BI_numpy_array) return a;  /* asarray, a C array's ascontiguousarray: no copy */
    return lower_array_method(L, n, BI_ndarray_copy, a, NULL, 0);  /* into t's dtype; releases a */
  }
  Shape S = {.C = L->C, .ndim = -1};
  shape_of(&S, obj, 0, lower_type_of, L);
  Leaves lv = {arena_alloc(L->C->A, sizeof(LLVMValueRef) * (size_t)(S.nleaves ? S.nleaves : 1)), 0, t->dtype};
  leaves_of(L, &lv, obj);  /* computed first: an item that raises leaves no array behind */
  LLVMValueRef shape[LM_MAXDIM];
  for (int k = 0; k < t->ndim; k++) shape[k] = lower_i64(L, S.seen[k] ? S.dims[k] : 1);  /* 1: a 0-d ascontiguousarray */
  Val out = lower_alloc(L, t, shape);
  LLVMTypeRef et = lower_mem_type(L, t->dtype);
  for (int64_t i = 0; i < lv.n; i++) {
    LLVMValueRef idx = lower_i64(L, i);
    lower_store_elem(L, t->dtype, LLVMBuildInBoundsGEP2(L->b, et, lower_arr_data(L, out.v), &idx, 1, ""), lv.v[i]);
  }
  return out;
}
