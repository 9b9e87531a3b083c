/*
** infer_expr.c — types of expressions by Numba's rules.
*/
#include <string.h>

#include "builtin_hooks.h"
#include "index.h"

static const char *const op_verbs[OP__COUNT] = {
    [OP_Add] = "add", [OP_Sub] = "subtract", [OP_Mult] = "multiply", [OP_MatMult] = "matrix-multiply",
    [OP_Div] = "divide", [OP_FloorDiv] = "floor-divide", [OP_Mod] = "take the modulo of",
    [OP_Pow] = "raise to a power", [OP_LShift] = "shift", [OP_RShift] = "shift",
    [OP_BitOr] = "bitwise-or", [OP_BitXor] = "bitwise-xor", [OP_BitAnd] = "bitwise-and",
};

static Type *need(Infer *I, Node *n, Type *t) {
  if (t == NULL && I->strict)
    compile_error(I->C, n->loc, "TypingError", "cannot determine the type of this expression");
  return t;
}

Type *infer_binop_type(Infer *I, OpKind op, Type *a, Type *b, Loc loc) {
  Compile *C = I->C;
  if (C->opt.lua) return infer_lua_binop_type(I, op, a, b, loc);
  if (ty_is_number(a) && ty_is_number(b) && (ty_is_complex(a) || ty_is_complex(b))) {
    if (op == OP_Add || op == OP_Sub || op == OP_Mult || op == OP_Div || op == OP_Pow) return ty_arith(a, b);
    compile_error(C, loc, "TypingError", "cannot %s %s and %s (complex numbers have + - * / ** only)",
                  op_verbs[op] ? op_verbs[op] : "combine", tyname(C, a), tyname(C, b));
  }
  if (ty_is_number(a) && ty_is_number(b)) {
    switch (op) {
      case OP_Add: case OP_Sub: case OP_Mult: case OP_FloorDiv: case OP_Mod: {
        Type *r = ty_arith(a, b);
        if (r) return r;
        break;
      }
      case OP_Div: return ty_truediv(a, b);
      case OP_Pow:
        /* float ** int keeps the float's type (Numba: float32 ** int64 is float32) */
        if (ty_is_float(a) && ty_is_int(b)) return a;
        return ty_arith(a, b);
      case OP_LShift: case OP_RShift: case OP_BitOr: case OP_BitXor: case OP_BitAnd:
        if (ty_is_float(a) || ty_is_float(b)) break;
        if (ty_is_bool(a) && ty_is_bool(b) && op != OP_LShift && op != OP_RShift) return ty_bool;
        return ty_arith(a, b);
      default: break;
    }
  }
  if (op == OP_MatMult)
    compile_error(C, loc, "TypingError", "the @ operator needs arrays, not %s and %s", tyname(C, a), tyname(C, b));
  if ((a->kind == TY_ARRAY || b->kind == TY_ARRAY) && !C->opt.lua) {
    Type *r = infer_arrayexpr_binop(I, op, a, b, loc);
    if (r) return r;
  }
  if (a->kind == TY_ARRAY || b->kind == TY_ARRAY)
    compile_error(C, loc, "TypingError", "cannot %s %s and %s (an array combines with arrays and numbers)",
                  op_verbs[op] ? op_verbs[op] : "combine", tyname(C, a), tyname(C, b));
  compile_error(C, loc, "TypingError", "cannot %s %s and %s", op_verbs[op] ? op_verbs[op] : "combine",
                tyname(C, a), tyname(C, b));
}

/* n as a value that may be None: an Optional local or optional number
** field keeps its Optional type (y = x, return x, x is None), where
** infer_expr gives the number (unwrapped at run time: None raises) */
Type *infer_expr_opt(Infer *I, Node *n) {
  Type *t = infer_expr(I, n);
  if (t == NULL) return NULL;
  if (infer_ann(I, n)->ty && infer_ann(I, n)->ty->kind == TY_OPTIONAL) return infer_ann(I, n)->ty;
  if (n->kind == ND_Name && infer_ann(I, n)->slot >= 0) {
    Type *lt = I->spec->locals[infer_ann(I, n)->slot].ty;
    if (lt && lt->kind == TY_OPTIONAL) return infer_ann(I, n)->ty = lt;
  }
  if (infer_class_optional(I, n)) return infer_ann(I, n)->ty = ty_optional(t->dtype);
  return t;
}

void infer_truth(Infer *I, Node *n) {
  Type *t = infer_expr_opt(I, n);
  if (t && t->kind == TY_OPTIONAL)  /* as Numba: no truth of OptionalType */
    compile_error(I->C, n->loc, "TypingError", "%s cannot be used as a condition (test it with 'is None' or "
                  "'is not None')", tyname(I->C, t));
  if (I->C->opt.lua) infer_lua_cond(I, n, t);
  if (t && t->kind != TY_SCALAR)
    compile_error(I->C, n->loc, "TypingError", "%s cannot be used as a condition%s", tyname(I->C, t),
                  t->kind == TY_ARRAY ? " (the truth value of an array is ambiguous)" : "");
}

/* a constant integer expression (for tuple indices) */
static bool const_int(Node *n, int64_t *v) {
  if (n->kind == ND_Constant && n->ckind == CK_INT) { *v = n->ival; return true; }
  if (n->kind == ND_UnaryOp && n->op == OP_USub && n->operand->kind == ND_Constant && n->operand->ckind == CK_INT) {
    *v = -n->operand->ival;
    return true;
  }
  return false;
}

/* a[i], a[i, j], a[1:-1], a[:, j]; tuples by constant index; index arrays,
** masks and None: infer_index.c */
Type *infer_subscript(Infer *I, Node *n, bool store) {
  Compile *C = I->C;
  Type *base = infer_expr(I, n->value);
  if (store && n->value->kind == ND_Name && infer_ann(I, n->value)->slot >= 0 &&
      I->spec->locals[infer_ann(I, n->value)->slot].frozen)
    compile_error(C, n->loc, "TypingError",
                  "'%s' is a module-level constant, frozen read-only as Numba freezes global arrays: copy it to write "
                  "(%s.copy())", n->value->name, n->value->name);
  if (infer_record_key(n, base)) {  /* r['x'], a['x'] */
    Type *ft = infer_record_field(C, n->slice->loc, base, n->slice->sval);
    infer_ann(I, n->slice)->ty = NULL;
    return infer_ann(I, n)->ty = ft;
  }
  Node *sl = n->slice;
  int nidx = sl->kind == ND_Tuple ? sl->elts.len : 1;
  Node **idx = sl->kind == ND_Tuple ? sl->elts.items : &n->slice;
  Type *itys[LM_MAXARGS] = {0};
  int nints = 0, nslices = 0;
  bool unknown = false, fancy = false;
  if (nidx > LM_MAXARGS) compile_error(C, n->loc, "TypingError", "too many indices");
  for (int i = 0; i < nidx; i++) {
    Node *x = idx[i];
    if (x->kind == ND_Slice) {
      nslices++;
      Node *parts[3] = {x->lower, x->upper, x->step};
      for (int k = 0; k < 3; k++) {
        if (!parts[k]) continue;
        Type *pt = infer_expr(I, parts[k]);
        if (pt == NULL) { unknown = true; continue; }
        if (!ty_is_int(pt) && !ty_is_bool(pt))
          compile_error(C, parts[k]->loc, "TypingError", "slice indices must be integers, not %s", tyname(C, pt));
      }
      infer_ann(I, x)->ty = NULL;
    } else {
      Type *it = itys[i] = infer_expr(I, x);
      if (it == NULL) { unknown = true; continue; }
      if (it->kind == TY_ARRAY || it->kind == TY_NONE) {  /* an index array, a mask, np.newaxis */
        fancy = true;
        continue;
      }
      if (!ty_is_int(it) && !ty_is_bool(it))
        compile_error(C, x->loc, "TypingError", "array indices must be integers, not %s", tyname(C, it));
      nints++;
    }
  }
  if (base == NULL || unknown) return need(I, n, NULL);
  if (base->kind == TY_TUPLE) {
    int64_t k;
    if (store) compile_error(C, n->loc, "TypingError", "tuples cannot be changed");
    if (nidx != 1 || nslices || fancy || sl->kind == ND_Tuple)  /* t[(1,)] too: the index must be an int */
      compile_error(C, n->loc, "UnsupportedError", "tuples can only be indexed by one integer");
    if (const_int(sl, &k)) {
      if (C->opt.lua) k = infer_lua_tuple_index(k, base->nelems);
      else if (k < 0) k += base->nelems;
      if (k < 0 || k >= base->nelems)
        compile_error(C, sl->loc, "IndexError", "tuple index out of range");
      return infer_ann(I, n)->ty = base->elems[k];
    }
    for (int i = 1; i < base->nelems; i++)
      if (base->elems[i] != base->elems[0])
        compile_error(C, sl->loc, "TypingError", "a tuple of mixed types %s can only be indexed by a constant", tyname(C, base));
    if (base->nelems == 0) compile_error(C, sl->loc, "IndexError", "tuple index out of range");
    return infer_ann(I, n)->ty = base->elems[0];
  }
  if (base->kind != TY_ARRAY)
    compile_error(C, n->loc, "TypingError", "%s cannot be indexed", tyname(C, base));
  if (fancy) {
    Type *t = infer_index_plan(I, n, base, idx, itys, nidx);  /* may grow the table: assign after */
    return infer_ann(I, n)->ty = t;
  }
  infer_ann(I, n)->aux = NULL;
  if (nidx > base->ndim)
    compile_error(C, n->loc, "TypingError", "too many indices for array: array is %d-dimensional, but %d were indexed",
                  base->ndim, nidx);
  if (nints == base->ndim) {
    /* a record is the address of its element: of a temporary array
    ** (np.zeros(k, rec)[0]) a hidden local keeps the array while it lives */
    if (!store && dtype_is_record(base->dtype) && n->value->kind != ND_Name) {
      int slot = infer_hidden_local(I, "$recbase", n, base);
      infer_ann(I, n)->slot = slot;
    }
    return infer_ann(I, n)->ty = ty_scalar(base->dtype);
  }
  char layout = infer_index_layout(base, idx, NULL, nidx);
  return infer_ann(I, n)->ty = ty_array(&C->S->types, base->dtype, base->ndim - nints, layout);
}

static Type *infer_attribute(Infer *I, Node *n) {
  Compile *C = I->C;
  Sym s = resolve_static(C, I->spec, n);
  if (s.kind == SYM_CONST) return infer_ann(I, n)->ty = s.cty;
  if (s.kind == SYM_DTYPE) return infer_ann(I, n)->ty = ty_dtype(s.dt);  /* np.float64 as a value */
  if (s.kind == SYM_BUILTIN && s.bn && C->builtins[s.bn->id].infer_attr) {  /* cuda.threadIdx.x */
    if (builtin_of(s.bn)->target == BT_GPU && !C->opt.gpu)
      compile_error(C, n->loc, "UnsupportedError", "cuda.%s is only available inside cuda.jit kernels", s.bn->member);
    infer_ann(I, n)->aux = (void *)s.bn;  /* for the lowering */
    Type *t = C->builtins[s.bn->id].infer_attr(I, n, s.bn, NULL);  /* may grow the table: assign after */
    return infer_ann(I, n)->ty = t;
  }
  if (s.kind != SYM_NONE)
    compile_error(C, n->loc, "TypingError", "'%s' is not a value that compiled code can use", n->name);
  Type *base = infer_expr(I, n->value);
  if (base == NULL) return need(I, n, NULL);
  if (base->kind == TY_CLASS) return infer_class_attr(I, n, base);
  if (base->kind == TY_RECORD) {
    Type *ft = infer_record_field(C, n->loc, base, n->name);
    return infer_ann(I, n)->ty = ft;
  }
  if (base->kind == TY_DTYPE) {  /* dt.itemsize, as a.itemsize: folded to a constant (lower_expr.c) */
    const BuiltinName *nm = builtin_find_member("ndarray.", n->name);
    if (nm && nm->id == BI_ndarray_itemsize) return infer_ann(I, n)->ty = ty_int64;
  }
  if (base->kind == TY_ARRAY || ty_is_number(base)) {  /* a.shape, a.T, ...: the registry's array attributes */
    const BuiltinName *nm = builtin_find_member("ndarray.", n->name);
    bool scalar_ok = nm && (nm->id == BI_ndarray_real || nm->id == BI_ndarray_imag);  /* z.real of a number too */
    if (nm && C->builtins[nm->id].infer_attr && (base->kind == TY_ARRAY || scalar_ok)) {
      Type *t = C->builtins[nm->id].infer_attr(I, n, nm, base);  /* may grow the table: assign after */
      return infer_ann(I, n)->ty = t;
    }
  }
  if (infer_record_has(base, n->name)) {  /* a.x: a field of a record array */
    Type *ft = infer_record_field(C, n->loc, base, n->name);
    return infer_ann(I, n)->ty = ft;
  }
  compile_error(C, n->loc, "TypingError", "%s has no attribute '%s'", tyname(C, base), n->name);
}

static Type *infer_compare(Infer *I, Node *n) {
  Compile *C = I->C;
  Type *l = infer_expr(I, n->left);
  bool unknown = l == NULL;
  for (int i = 0; i < n->elts.len; i++) {
    OpKind op = n->cmpops[i];
    bool with_none = (op == OP_Is || op == OP_IsNot) && n->elts.len == 1 &&
                     ((n->left->kind == ND_Constant && n->left->ckind == CK_NONE) ||
                      (n->elts.items[0]->kind == ND_Constant && n->elts.items[0]->ckind == CK_NONE));
    if (with_none) l = infer_expr_opt(I, n->left);  /* x is None: x may be an Optional */
    Type *r = with_none ? infer_expr_opt(I, n->elts.items[i]) : infer_expr(I, n->elts.items[i]);
    if ((op == OP_Is || op == OP_IsNot) && n->elts.len == 1 && infer_class_is_none(I, n->left, n->elts.items[0]))
      return infer_ann(I, n)->ty = ty_bool;
    if ((op == OP_Is || op == OP_IsNot) && n->elts.len == 1 && l && r && (l->kind == TY_CLASS || l->kind == TY_NONE) &&
        (r->kind == TY_CLASS || r->kind == TY_NONE))
      return infer_ann(I, n)->ty = ty_bool;  /* identity of two instances (None: NULL): the same MemInfo */
    if (op == OP_Is || op == OP_IsNot || op == OP_In || op == OP_NotIn)
      compile_error(C, n->loc, "UnsupportedError", "'%s' comparisons are not supported in compiled code", ast_op_symbols[op]);
    if (r == NULL) unknown = true;
    else if (l && (l->kind == TY_DTYPE || r->kind == TY_DTYPE)) {  /* a.dtype == np.float64: folded */
      if (n->elts.len != 1 || l->kind != r->kind || (op != OP_Eq && op != OP_NotEq))
        compile_error(C, n->loc, "TypingError", "dtypes compare only with == and != against another dtype, not %s %s %s",
                      tyname(C, l), ast_op_symbols[op], tyname(C, r));
    } else if (n->elts.len > 1 && l && (l->kind == TY_ARRAY || r->kind == TY_ARRAY) && !C->opt.lua)
      infer_arrayexpr_ambiguous(I, l->kind == TY_ARRAY ? l : r, n->loc);  /* a < b < c is (a < b) and (b < c) */
    else if (n->elts.len == 1 && l && (l->kind == TY_ARRAY || r->kind == TY_ARRAY) &&
             !C->opt.lua && infer_arrayexpr_binop(I, op, l, r, n->loc))
      return infer_ann(I, n)->ty = infer_arrayexpr_binop(I, op, l, r, n->loc);
    else if (l && (!ty_is_number(l) || !ty_is_number(r)))
      compile_error(C, n->loc, "TypingError", "cannot compare %s and %s", tyname(C, l), tyname(C, r));
    else if (l && (ty_is_complex(l) || ty_is_complex(r)) && op != OP_Eq && op != OP_NotEq)
      compile_error(C, n->loc, "TypingError", "'%s' is not supported between %s and %s (complex numbers are not ordered)",
                    ast_op_symbols[op], tyname(C, l), tyname(C, r));
    else if (l && C->opt.lua) infer_lua_compare(I, n, op, l, r);
    l = r;
  }
  return unknown ? need(I, n, NULL) : (infer_ann(I, n)->ty = ty_bool);
}

/* the elements of nested lists and tuples of literals */
static int64_t literal_elems(const Node *v) {
  if (v->kind != ND_List && v->kind != ND_Tuple) return 1;
  int64_t n = 0;
  for (int i = 0; i < v->elts.len; i++) n += literal_elems(v->elts.items[i]);
  return n;
}

/* a module-level array a kernel freezes (np.array([...])) must fit the
** GPU's 64 KiB of constant memory; refused where the kernel names it */
static void check_constant_memory(Infer *I, int slot, Node *use) {
  const Node *v = I->spec->locals[slot].frozen;
  Type *t = I->spec->locals[slot].ty;
  if (t == NULL || t->kind != TY_ARRAY || v->kind != ND_Call || v->args.len < 1) return;
  int64_t bytes = literal_elems(v->args.items[0]) * dtype_sizes[t->dtype];
  if (bytes > FROZEN_MAX_BYTES)
    compile_error(I->C, use->loc, "TypingError", "'%s' is a module-level array of %lld bytes: a kernel freezes the "
                  "arrays it uses as globals into its 64 KiB of constant memory (pass it as an argument)",
                  use->name, (long long)bytes);
}

Type *infer_expr(Infer *I, Node *n) {
  Compile *C = I->C;
  Type *t = NULL;
  switch (n->kind) {
    case ND_Constant:
      switch (n->ckind) {
        case CK_INT: t = ty_int64; break;
        case CK_FLOAT: t = ty_float64; break;
        case CK_IMAG: t = ty_scalar(DT_COMPLEX128); break;
        case CK_BOOL: t = ty_bool; break;
        case CK_NONE: t = &ty_none; break;
        case CK_STR:
          compile_error(C, n->loc, "UnsupportedError", "strings are only supported as messages of raise and assert");
      }
      break;
    case ND_Name: {
      Sym s = resolve_name(C, I->spec, n->name, n->loc);
      if (s.kind == SYM_FROZEN) s = infer_frozen(I, n, s.def);  /* becomes a hidden local */
      if (s.kind == SYM_LOCAL) {
        if (I->spec->locals[s.slot].frozen) {
          infer_frozen_value(I, s.slot);
          if (C->opt.gpu) check_constant_memory(I, s.slot, n);
        }
        infer_ann(I, n)->slot = s.slot;
        t = I->spec->locals[s.slot].ty;
        if (t && t->kind == TY_OPTIONAL) t = ty_scalar(t->dtype);  /* used as a number: None raises (lower_expr.c) */
        if (t == NULL && I->strict)
          compile_error(C, n->loc, "NameError", "local variable '%s' is used before it is assigned",
                        infer_shown_name(C, n->name));
      } else if (s.kind == SYM_CONST) {
        infer_ann(I, n)->aux = arena_alloc(C->A, sizeof(Sym));
        *(Sym *)infer_ann(I, n)->aux = s;
        t = s.cty;
      } else if (s.kind == SYM_DEVARRAY) {  /* a device array global: a constant array (lower_const_sym) */
        infer_ann(I, n)->aux = arena_alloc(C->A, sizeof(Sym));
        *(Sym *)infer_ann(I, n)->aux = s;
        t = ty_array(&C->S->types, s.dev->dtype, s.dev->ndim, s.dev->layout);
      } else if (s.kind == SYM_DTYPE) {
        t = ty_dtype(s.dt);  /* a dtype as a value: compile-time, its type says which */
      } else {
        compile_error(C, n->loc, "TypingError", "'%s' is a %s, not a value", n->name,
                      s.kind == SYM_MODULE ? "module" : "function");
      }
      break;
    }
    case ND_BinOp: {
      Type *a = infer_expr(I, n->left), *b = infer_expr(I, n->right);
      /* a @ b of arrays: the registry's matmul (builtin_linalg.c), called with the BinOp */
      if (n->op == OP_MatMult && !C->opt.lua && a && b && (a->kind == TY_ARRAY || b->kind == TY_ARRAY)) {
        t = C->builtins[BI_numpy_matmul].infer(I, n, NULL);
        break;
      }
      if (a && b) t = infer_binop_type(I, n->op, a, b, n->loc);
      break;
    }
    case ND_UnaryOp: {
      Type *a = infer_expr(I, n->operand);
      if (a == NULL) break;
      if (a->kind == TY_ARRAY && !C->opt.lua && (t = infer_arrayexpr_unary(I, n->op, a, n->loc)))
        break;
      if (!ty_is_number(a))
        compile_error(C, n->loc, "TypingError", "bad operand type for unary %s: %s", ast_op_symbols[n->op], tyname(C, a));
      if (C->opt.lua) infer_lua_unary(I, n, a);
      if (n->op == OP_Not) t = ty_bool;
      else if (n->op == OP_Invert && (ty_is_float(a) || ty_is_complex(a)))
        compile_error(C, n->loc, "TypingError", "bad operand type for unary ~: %s", tyname(C, a));
      else if (ty_is_float(a)) t = a;
      else t = ty_arith(a, a);
      break;
    }
    case ND_BoolOp: {
      if (C->opt.lua) {
        t = infer_lua_boolop(I, n);
        break;
      }
      bool unknown = false;
      for (int i = 0; i < n->elts.len; i++) {
        Type *a = infer_expr(I, n->elts.items[i]);
        if (a == NULL) { unknown = true; continue; }
        if (a->kind == TY_ARRAY) infer_arrayexpr_ambiguous(I, a, n->elts.items[i]->loc);
        if (!ty_is_number(a))
          compile_error(C, n->elts.items[i]->loc, "TypingError", "'%s' needs numbers or booleans, not %s",
                        ast_op_symbols[n->op], tyname(C, a));
        Type *u = ty_unify(&C->S->types, t, a);
        t = u;
      }
      if (unknown) t = NULL;
      break;
    }
    case ND_IfExp: {
      infer_truth(I, n->test);
      Type *a = infer_expr(I, n->body_e), *b = infer_expr(I, n->orelse_e);
      if (a && b) {
        t = ty_unify(&C->S->types, a, b);
        if (t == NULL)
          compile_error(C, n->loc, "TypingError", "the branches of a conditional expression have types %s and %s",
                        tyname(C, a), tyname(C, b));
      }
      break;
    }
    case ND_Compare: return infer_compare(I, n);
    case ND_Call: t = infer_call(I, n); break;
    case ND_Attribute: return infer_attribute(I, n);
    case ND_Subscript: return infer_subscript(I, n, false);
    case ND_Tuple: {
      Type *el[LM_MAXARGS];
      if (n->elts.len > LM_MAXARGS) compile_error(C, n->loc, "UnsupportedError", "tuple too long");
      bool unknown = false;
      for (int i = 0; i < n->elts.len; i++)
        if ((el[i] = infer_expr(I, n->elts.items[i])) == NULL) unknown = true;
      if (!unknown) t = ty_tuple(&C->S->types, el, n->elts.len);
      break;
    }
    case ND_List:
      compile_error(C, n->loc, "UnsupportedError", "lists are not supported in compiled code (use a tuple or an array)");
    case ND_Slice:
      compile_error(C, n->loc, "SyntaxError", "a slice is only valid inside []");
    default:
      compile_error(C, n->loc, "UnsupportedError", "'%s' expressions are not supported in compiled code",
                    ast_kind_names[n->kind]);
  }
  infer_ann(I, n)->ty = t;
  /* an Optional result (a call, a if c else None) used as a number: the
  ** annotation keeps the Optional, lower_cast unwraps it (None raises) */
  if (t && t->kind == TY_OPTIONAL) return ty_scalar(t->dtype);
  return need(I, n, t);
}
