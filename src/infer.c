/*
** infer.c — type inference for one specialization: argument types seed the
** locals, statements are walked until no local changes type (a fixed
** point), then one strict pass reports what stayed unknown and leaves a
** type on every expression node, in the spec's annotations (Ann), for the
** lowering.
*/
#include <string.h>

#include "compile.h"
#include "infer.h"

#define MAX_PASSES 50

/* The table grows to every node made so far: a device function imported
** while this spec is inferred adds nodes its calls may use (defaults). */
Ann *infer_ann_grow(Infer *I, const Node *n) {
  FuncSpec *spec = I->spec;
  int cap = I->C->A->nnodes > n->id ? I->C->A->nnodes : n->id + 1;
  if (cap < 2 * spec->nanns) cap = 2 * spec->nanns;
  Ann *a = arena_alloc(I->C->A, sizeof(Ann) * (size_t)cap);
  if (spec->nanns) memcpy(a, spec->anns, sizeof(Ann) * (size_t)spec->nanns);
  for (int i = spec->nanns; i < cap; i++) a[i].slot = -1;
  spec->anns = a;
  spec->nanns = cap;
  return &spec->anns[n->id];
}

static int add_local(Compile *C, FuncSpec *spec, const char *name) {
  int slot = spec_local(spec, name);
  if (slot >= 0) return slot;
  if (spec->nlocals == spec->caplocals) {
    int cap = spec->caplocals ? 2 * spec->caplocals : 16;
    Local *l = arena_alloc(C->A, sizeof(Local) * (size_t)cap);
    if (spec->nlocals) memcpy(l, spec->locals, sizeof(Local) * (size_t)spec->nlocals);
    spec->locals = l;
    spec->caplocals = cap;
  }
  Local *v = &spec->locals[spec->nlocals];
  memset(v, 0, sizeof *v);
  v->name = name;
  return spec->nlocals++;
}

int infer_hidden_local(Infer *I, const char *what, Node *n, Type *t) {
  char name[64];
  if (n->loc.line > 0) snprintf(name, sizeof name, "%s@%d:%d", what, n->loc.line, n->loc.col + 1);
  else snprintf(name, sizeof name, "%s@%p", what, (void *)n);
  int slot = spec_local(I->spec, name);
  if (slot < 0) slot = add_local(I->C, I->spec, arena_strdup(I->C->A, name));
  infer_set_local(I, slot, t, n->loc);
  return slot;
}

Sym infer_frozen(Infer *I, Node *name, Node *value) {
  Sym s = {0};
  s.kind = SYM_LOCAL;
  s.slot = add_local(I->C, I->spec, name->name);
  I->spec->locals[s.slot].frozen = value;
  I->changed = true;
  return s;
}

void infer_frozen_value(Infer *I, int slot) {
  Local *v = &I->spec->locals[slot];
  Type *t = infer_expr(I, v->frozen);
  if (t) infer_set_local(I, slot, t, v->frozen->loc);
}

static void collect_target(Compile *C, FuncSpec *spec, Node *t) {
  if (t->kind == ND_Name) add_local(C, spec, t->name);
  else if (t->kind == ND_Tuple || t->kind == ND_List)
    for (int i = 0; i < t->elts.len; i++) collect_target(C, spec, t->elts.items[i]);
}

/* Python scoping: a name assigned anywhere in the function is local to it */
static void collect_locals(Compile *C, FuncSpec *spec, NodeList *body) {
  for (int i = 0; i < body->len; i++) {
    Node *s = body->items[i];
    switch (s->kind) {
      case ND_Assign:
        for (int j = 0; j < s->targets.len; j++) collect_target(C, spec, s->targets.items[j]);
        break;
      case ND_AugAssign: case ND_AnnAssign: collect_target(C, spec, s->target); break;
      case ND_For:
        collect_target(C, spec, s->target);
        collect_locals(C, spec, &s->body);
        collect_locals(C, spec, &s->orelse);
        break;
      case ND_While: case ND_If:
        collect_locals(C, spec, &s->body);
        collect_locals(C, spec, &s->orelse);
        break;
      default: break;
    }
  }
}

void infer_set_local(Infer *I, int slot, Type *t, Loc loc) {
  Local *v = &I->spec->locals[slot];
  if (t == NULL) return;
  /* None may go where an instance goes (found = None ... found = node: a NULL instance) */
  /* or where a number goes: the variable becomes an Optional (x = None ... x = 5) */
  if (t->kind == TY_NONE && !(v->ty == NULL || v->ty->kind == TY_CLASS || v->ty->kind == TY_NONE ||
                              v->ty->kind == TY_OPTIONAL || (v->ty->kind == TY_SCALAR && !ty_is_complex(v->ty))))
    compile_error(I->C, loc, "TypingError", "cannot assign None to '%s'", infer_shown_name(I->C, v->name));
  if (v->ty == NULL) {
    v->ty = t;
    v->def_loc = loc;
    I->changed = true;
    return;
  }
  Type *u = ty_unify(&I->C->S->types, v->ty, t);
  if (u == NULL)
    compile_error(I->C, loc, "TypingError",
                  "cannot unify %s and %s for variable '%s' (typed %s at %d:%d)",
                  tyname(I->C, v->ty), tyname(I->C, t), infer_shown_name(I->C, v->name), tyname(I->C, v->ty),
                  v->def_loc.line, v->def_loc.col + 1);
  if (u != v->ty) {
    v->ty = u;
    I->changed = true;
  }
}

/* ---- conditions known at compile time ---- */

enum { TRUTH_FALSE, TRUTH_TRUE, TRUTH_RUNTIME, TRUTH_PENDING };

/* a compile-time integer: a literal (negated too), a frozen constant or
** bool, an array's ndim, the prelude's _lumba.ndim(x); TRUTH_TRUE if n is one (*v its value), else
** TRUTH_RUNTIME, or TRUTH_PENDING while the array's type is unknown */
static int static_int(Infer *I, Node *n, int64_t *v) {
  if (n->kind == ND_Constant && (n->ckind == CK_INT || n->ckind == CK_BOOL)) {
    *v = n->ckind == CK_INT ? n->ival : n->bval;
    return TRUTH_TRUE;
  }
  if (n->kind == ND_UnaryOp && n->op == OP_USub) {
    int k = static_int(I, n->operand, v);
    *v = (int64_t)(0 - (uint64_t)*v);
    return k;
  }
  if (n->kind == ND_Attribute && builtin_member_id("ndarray.", n->name) == BI_ndarray_ndim &&
      resolve_static(I->C, I->spec, n->value).kind == SYM_NONE) {
    Type *t = infer_expr(I, n->value);
    if (t == NULL) return TRUTH_PENDING;
    if (t->kind != TY_ARRAY) return TRUTH_RUNTIME;
    *v = t->ndim;
    return TRUTH_TRUE;
  }
  if (n->kind == ND_Call && n->args.len == 1) {  /* the prelude's _lumba.ndim(x): 0 for a scalar */
    Sym f = resolve_static(I->C, I->spec, n->func);
    if (f.kind == SYM_BUILTIN && f.bn && f.bn->id == BI__lumba_ndim) {
      Type *t = infer_expr(I, n);
      if (t == NULL) return TRUTH_PENDING;
      Type *x = infer_ann(I, n->args.items[0])->ty;
      *v = x && x->kind == TY_ARRAY ? x->ndim : 0;
      return TRUTH_TRUE;
    }
  }
  if (n->kind == ND_Name || n->kind == ND_Attribute) {
    Sym s = resolve_static(I->C, I->spec, n);
    if (s.kind == SYM_CONST && (s.cty == ty_int64 || s.cty == ty_bool)) {
      *v = s.ival;
      return TRUTH_TRUE;
    }
  }
  return TRUTH_RUNTIME;
}

static bool compare_ints(OpKind op, int64_t a, int64_t b) {
  switch (op) {
    case OP_Eq: return a == b;
    case OP_NotEq: return a != b;
    case OP_Lt: return a < b;
    case OP_LtE: return a <= b;
    case OP_Gt: return a > b;
    case OP_GtE: return a >= b;
    default: LM_UNREACHABLE();
  }
}

/* x is None / x is not None: known from x's type */
static int static_is_none(Infer *I, Node *x, Node *y, bool negated) {
  if (x->kind == ND_Constant && x->ckind == CK_NONE) { Node *t = x; x = y; y = t; }
  if (!(y->kind == ND_Constant && y->ckind == CK_NONE)) return TRUTH_RUNTIME;
  Type *t = x->kind == ND_Constant && x->ckind == CK_NONE ? &ty_none : infer_expr_opt(I, x);
  if (t == NULL) return TRUTH_PENDING;
  /* an instance may be None (optional(node_type)), as may an Optional number: a run-time test */
  if (t->kind == TY_CLASS || t->kind == TY_OPTIONAL || infer_class_optional(I, x)) return TRUTH_RUNTIME;
  return (t->kind == TY_NONE) != negated;
}

/* Whether the test n of an If is known at compile time (Numba prunes such
** branches too, so one def serves every ndim and optional argument):
** comparisons of compile-time integers, `is None`, True/False, and not,
** and, or of those */
static int static_truth(Infer *I, Node *n) {
  int64_t v;
  switch (n->kind) {
    case ND_Constant:
      if (n->ckind == CK_NONE) return TRUTH_FALSE;
      return static_int(I, n, &v) == TRUTH_TRUE ? v != 0 : TRUTH_RUNTIME;
    case ND_UnaryOp: {
      if (n->op != OP_Not) break;
      int k = static_truth(I, n->operand);
      return k <= TRUTH_TRUE ? !k : k;
    }
    case ND_BoolOp: {
      /* and: False decides, or: True decides; else each must be known */
      int decided = n->op == OP_And ? TRUTH_FALSE : TRUTH_TRUE, worst = !decided;
      for (int i = 0; i < n->elts.len; i++) {
        int k = static_truth(I, n->elts.items[i]);
        if (k == decided) return decided;
        if (k > worst) worst = k;
      }
      return worst;
    }
    case ND_Compare: {
      if (n->elts.len != 1) break;
      OpKind op = n->cmpops[0];
      if (op == OP_Is || op == OP_IsNot) return static_is_none(I, n->left, n->elts.items[0], op == OP_IsNot);
      if (op == OP_In || op == OP_NotIn) break;
      int64_t a, b;
      int ka = static_int(I, n->left, &a), kb = static_int(I, n->elts.items[0], &b);
      if (ka == TRUTH_TRUE && kb == TRUTH_TRUE) return compare_ints(op, a, b);
      return ka == TRUTH_PENDING || kb == TRUTH_PENDING ? TRUTH_PENDING : TRUTH_RUNTIME;
    }
    default: break;
  }
  return static_int(I, n, &v) == TRUTH_TRUE ? v != 0 : TRUTH_RUNTIME;
}

/* ---- statements ---- */

static void infer_body(Infer *I, NodeList *body);

/* a float stored into the integer elements of a parameter, directly or
** through a view of it (a[i] = 0.5, a[1:] = x * 0.5, a[i][j] += 0.5): its
** bit in int_float_stores. The dispatcher refuses a Lua table of integers
** there, whose values would come back truncated (dispatch.c: tables_check). */
/* the parameters (bit i) the array expression e may be a view of: a
** parameter, a local holding a view, and subscripts or attributes of them */
static uint64_t views_of(Infer *I, Node *e) {
  while (e->kind == ND_Subscript || e->kind == ND_Attribute) e = e->value;
  if (e->kind != ND_Name) return 0;
  int slot = spec_local(I->spec, e->name);
  if (slot < 0) return 0;
  const Local *l = &I->spec->locals[slot];
  return l->is_param && slot < 64 ? (uint64_t)1 << slot : l->views_of;
}

static void note_int_store(Infer *I, Node *target, Type *v) {
  Node *base = target;
  while (base->kind == ND_Subscript || base->kind == ND_Attribute) base = base->value;
  Type *a = base->kind == ND_Name ? infer_ann(I, base)->ty : NULL;
  if (a == NULL || v == NULL || a->kind != TY_ARRAY || !ty_is_int(ty_scalar(a->dtype))) return;
  Type *e = v->kind == TY_ARRAY ? ty_scalar(v->dtype) : v;
  if (ty_is_float(e) || ty_is_complex(e)) I->spec->int_float_stores |= views_of(I, base);
}

static void infer_store(Infer *I, Node *target, Type *t, Node *value) {
  Compile *C = I->C;
  switch (target->kind) {
    case ND_Name: {
      int slot = spec_local(I->spec, target->name);
      LM_ASSERT(slot >= 0);
      infer_ann(I, target)->slot = slot;
      infer_set_local(I, slot, t, target->loc);
      if (t && t->kind == TY_ARRAY && value) I->spec->locals[slot].views_of |= views_of(I, value);
      infer_ann(I, target)->ty = I->spec->locals[slot].ty;
      return;
    }
    case ND_Tuple: case ND_List: {
      if (t == NULL) return;
      int n = target->elts.len;
      if (t->kind != TY_TUPLE)
        compile_error(C, value ? value->loc : target->loc, "TypingError",
                      "cannot unpack %s into %d variables", tyname(C, t), n);
      if (t->nelems != n)
        compile_error(C, value ? value->loc : target->loc, "TypingError",
                      "cannot unpack a tuple of %d values into %d variables", t->nelems, n);
      for (int i = 0; i < n; i++) infer_store(I, target->elts.items[i], t->elems[i], NULL);
      infer_ann(I, target)->ty = t;
      return;
    }
    case ND_Subscript: {
      Type *elem = infer_subscript(I, target, true);
      if (elem == NULL || t == NULL) return;
      if (elem->kind == TY_RECORD) {  /* a[i] = b[j]: a copy of a record of the same dtype */
        if (t->kind != TY_RECORD || t->dtype != elem->dtype)
          compile_error(C, target->loc, "TypingError", "cannot store %s into an element of %s", tyname(C, t),
                        tyname(C, infer_ann(I, target->value)->ty));
        return;
      }
      note_int_store(I, target, t);
      if (elem->kind == TY_ARRAY) {
        if (!ty_is_number(t) && t->kind != TY_ARRAY)  /* a value of more axes: they must be 1 (checked at run time) */
          compile_error(C, target->loc, "TypingError", "cannot store %s into a slice of %s",
                        tyname(C, t), tyname(C, infer_ann(I, target->value)->ty));
      } else if (!ty_is_number(t)) {
        compile_error(C, target->loc, "TypingError", "cannot store %s into an element of %s",
                      tyname(C, t), tyname(C, infer_ann(I, target->value)->ty));
      }
      return;
    }
    case ND_Attribute: {
      Type *base = infer_expr(I, target->value);
      if (base && base->kind == TY_CLASS) {
        infer_class_store(I, target, base, t);
        return;
      }
      if (base && base->kind == TY_RECORD) {
        Type *ft = infer_record_field(C, target->loc, base, target->name);
        infer_ann(I, target)->ty = ft;
        infer_record_store(C, target, base, ft, target->name, t);
        return;
      }
      if (base == NULL) return;
      compile_error(C, target->loc, "UnsupportedError", "assignment to attributes is not supported in compiled code");
    }
    default:
      compile_error(C, target->loc, "SyntaxError", "cannot assign to this expression");
  }
}

static void infer_for(Infer *I, Node *s) {
  Compile *C = I->C;
  Node *it = s->iter;
  Sym f = {0};
  if (it->kind == ND_Call) f = resolve_static(C, I->spec, it->func);
  BuiltinId bi = f.kind == SYM_BUILTIN && f.bn ? f.bn->id : BI_NONE;
  if (bi == BI_range && C->opt.lua) {
    infer_ann(I, s)->aux = (void *)f.qname;
    if (s->target->kind != ND_Name)
      compile_error(C, s->target->loc, "TypingError", "a range loop needs one loop variable");
    infer_store(I, s->target, infer_lua_for(I, s), NULL);
  } else if (bi == BI_range || bi == BI_prange) {
    if (it->args.len < 1 || it->args.len > 3 || it->keywords.len)
      compile_error(C, it->loc, "TypingError", "range expects 1 to 3 integer arguments, got %d", it->args.len);
    for (int i = 0; i < it->args.len; i++) {
      Type *a = infer_expr(I, it->args.items[i]);
      if (a && !ty_is_int(a) && !ty_is_bool(a))
        compile_error(C, it->args.items[i]->loc, "TypingError", "range() arguments must be integers, not %s",
                      tyname(C, a));
    }
    infer_ann(I, s)->aux = (void *)f.qname;  /* on the For: the Call's own aux is a CallInfo when it is not range() */
    if (bi == BI_prange) I->spec->has_prange = true;
    if (s->target->kind != ND_Name)
      compile_error(C, s->target->loc, "TypingError", "a range loop needs one loop variable");
    infer_store(I, s->target, ty_int64, NULL);
  } else {
    Type *t = infer_expr(I, it);
    if (t && t->kind == TY_ARRAY && t->ndim == 0)
      compile_error(C, it->loc, "TypingError", "iteration over a 0-d array (%s)", tyname(C, t));
    if (t && (t->kind == TY_ARRAY || t->kind == TY_TUPLE)) {
      /* a hidden local holds the iterable during the loop, as Python's
      ** iterator does: the body may rebind the name iterated over, and the
      ** cleanup path releases a temporary array when the function leaves
      ** the loop by return or by an error */
      infer_ann(I, s)->slot = infer_hidden_local(I, "$iter", it, t);
    }
    if (t && t->kind == TY_ARRAY) {
      Type *el = t->ndim == 1 ? ty_scalar(t->dtype)
                              : ty_array(&C->S->types, t->dtype, t->ndim - 1, t->layout == 'C' ? 'C' : 'A');
      infer_store(I, s->target, el, NULL);
    } else if (t && t->kind == TY_TUPLE) {
      Type *u = NULL;
      for (int i = 0; i < t->nelems; i++) u = ty_unify(&C->S->types, u, t->elems[i]);
      if (u == NULL && t->nelems) compile_error(C, it->loc, "TypingError", "cannot iterate over a tuple of mixed types %s", tyname(C, t));
      if (u) infer_store(I, s->target, u, NULL);
    } else if (t) {
      compile_error(C, it->loc, "TypingError", "cannot iterate over %s", tyname(C, t));
    }
  }
  infer_body(I, &s->body);
  infer_body(I, &s->orelse);
}

static void infer_stmt(Infer *I, Node *s) {
  Compile *C = I->C;
  switch (s->kind) {
    case ND_Assign: {
      /* y = x copies an Optional, as does inst.val = x (an optional field); an element takes its number */
      bool keep = true;
      for (int i = 0; i < s->targets.len; i++)
        keep = keep && (s->targets.items[i]->kind == ND_Name || s->targets.items[i]->kind == ND_Attribute);
      Type *t = keep ? infer_expr_opt(I, s->value) : infer_expr(I, s->value);
      for (int i = 0; i < s->targets.len; i++) infer_store(I, s->targets.items[i], t, s->value);
      break;
    }
    case ND_AnnAssign:
      if (s->value) infer_store(I, s->target, infer_expr(I, s->value), s->value);
      break;
    case ND_AugAssign: {
      Type *cur = s->target->kind == ND_Subscript ? infer_subscript(I, s->target, true) : infer_expr(I, s->target);
      Type *v = infer_expr(I, s->value);
      if (cur == NULL || v == NULL) break;
      if (cur->kind == TY_ARRAY && !C->opt.lua) {
        /* NumPy's in-place ufunc: written into the target, which keeps its type */
        if (s->target->kind != ND_Name && s->target->kind != ND_Subscript)
          compile_error(C, s->target->loc, "UnsupportedError", "augmented assignment to this target is not supported");
        infer_ann(I, s)->ty = infer_arrayexpr_inplace(I, s->op, cur, v, s->loc);
        break;
      }
      if (v->kind == TY_ARRAY && s->target->kind == ND_Subscript)
        compile_error(C, s->loc, "TypingError", "setting an array element with a sequence (%s %s= %s)",
                      tyname(C, cur), ast_op_symbols[s->op], tyname(C, v));
      Type *r = infer_binop_type(I, s->op, cur, v, s->loc);
      if (s->target->kind == ND_Subscript) note_int_store(I, s->target, r);
      if (s->target->kind == ND_Name) {
        infer_set_local(I, infer_ann(I, s->target)->slot, r, s->target->loc);
      } else if (s->target->kind == ND_Subscript) {
        if (!ty_is_number(cur))
          compile_error(C, s->loc, "UnsupportedError", "augmented assignment to array slices is not supported");
      } else if (s->target->kind == ND_Attribute && infer_ann(I, s->target->value)->ty &&
                 infer_ann(I, s->target->value)->ty->kind == TY_CLASS) {  /* inst.field += v */
        infer_class_store(I, s->target, infer_ann(I, s->target->value)->ty, r);
      } else if (s->target->kind == ND_Attribute && infer_ann(I, s->target->value)->ty &&
                 infer_ann(I, s->target->value)->ty->kind == TY_RECORD) {  /* r.x += v */
        Type *base = infer_ann(I, s->target->value)->ty;
        infer_record_store(C, s->target, base, infer_record_field(C, s->target->loc, base, s->target->name),
                           s->target->name, r);
      } else {
        compile_error(C, s->target->loc, "UnsupportedError", "augmented assignment to this target is not supported");
      }
      infer_ann(I, s)->ty = r;
      break;
    }
    case ND_For: infer_for(I, s); break;
    case ND_While:
      infer_truth(I, s->test);
      infer_body(I, &s->body);
      infer_body(I, &s->orelse);
      break;
    case ND_If: {
      int k = static_truth(I, s->test);
      if (k == TRUTH_PENDING && !I->strict) {  /* a type the test reads is not known yet: a later pass decides */
        infer_ann(I, s)->aux = NULL;
        break;
      }
      if (k == TRUTH_PENDING) k = TRUTH_RUNTIME;     /* the strict pass says which */
      if (k == TRUTH_RUNTIME) {
        infer_truth(I, s->test);
        infer_body(I, &s->body);
        infer_body(I, &s->orelse);
        infer_ann(I, s)->aux = NULL;
        break;
      }
      NodeList *taken = k ? &s->body : &s->orelse;  /* only it is typed, lowered, analysed */
      infer_ann(I, s)->aux = taken;
      I->spec->pruned = true;
      infer_body(I, taken);
      break;
    }
    case ND_Return: {
      Type *t = s->value ? infer_expr_opt(I, s->value) : &ty_none;
      if (t == NULL) break;
      if (t->kind == TY_TUPLE)
        for (int i = 0; i < t->nelems; i++)
          if (t->elems[i]->kind == TY_TUPLE || t->elems[i]->kind == TY_NONE)
            compile_error(C, s->loc, "UnsupportedError", "returning nested tuples is not supported");
      FuncSpec *sp = I->spec;
      if (sp->ret_fixed) break;  /* every return converts to the signature's scalar type */
      if (sp->ret == NULL) {
        sp->ret = t;
        sp->ret_loc = s->loc;
        I->changed = true;
      } else if (sp->ret != t) {
        /* None unifies only with an instance (a NULL one: optional(node_type)) or
        ** a number (an Optional, as Numba's OptionalType(int64)) */
        bool none = sp->ret->kind == TY_NONE || t->kind == TY_NONE;
        bool inst = sp->ret->kind == TY_CLASS || t->kind == TY_CLASS || sp->ret->kind == TY_SCALAR ||
                    t->kind == TY_SCALAR || sp->ret->kind == TY_OPTIONAL || t->kind == TY_OPTIONAL;
        Type *u = none && !inst ? NULL : ty_unify(&C->S->types, sp->ret, t);
        if (u == NULL)
          compile_error(C, s->loc, "TypingError",
                        "cannot unify return types %s and %s (the other return is at %d:%d)",
                        tyname(C, sp->ret), tyname(C, t), sp->ret_loc.line, sp->ret_loc.col + 1);
        if (u != sp->ret) {
          sp->ret = u;
          I->changed = true;
        }
      }
      break;
    }
    case ND_Expr:
      if (s->value->kind == ND_Constant && s->value->ckind == CK_STR) break;  /* docstring */
      infer_expr(I, s->value);
      break;
    case ND_Assert:
      infer_truth(I, s->test);
      if (s->msg && !(s->msg->kind == ND_Constant && s->msg->ckind == CK_STR))
        compile_error(C, s->msg->loc, "UnsupportedError", "assert messages must be string literals");
      break;
    case ND_Raise: infer_raise(I, s); break;
    case ND_Pass: case ND_Break: case ND_Continue: break;
    case ND_FunctionDef:
      compile_error(C, s->loc, "UnsupportedError", "nested functions are not supported in compiled code");
    case ND_Import: case ND_ImportFrom:
      compile_error(C, s->loc, "UnsupportedError", "import inside a compiled function is not supported; import at module level");
    default:
      compile_error(C, s->loc, "UnsupportedError", "'%s' statements are not supported in compiled code",
                    ast_kind_names[s->kind]);
  }
}

static void infer_body(Infer *I, NodeList *body) {
  for (int i = 0; i < body->len; i++) {
    infer_stmt(I, body->items[i]);
    if (spec_if_leaves(I->spec, body->items[i])) break;
  }
}

/* a return statement with a value somewhere in body (nested bodies too) */
static bool returns_value(NodeList *body) {
  for (int i = 0; i < body->len; i++) {
    Node *s = body->items[i];
    if (s->kind == ND_Return && s->value) return true;
    if (returns_value(&s->body) || returns_value(&s->orelse)) return true;
  }
  return false;
}

/* a break leaving the loop whose body is body (not one of an inner loop) */
static bool breaks_out(NodeList *body) {
  for (int i = 0; i < body->len; i++) {
    Node *s = body->items[i];
    if (s->kind == ND_Break) return true;
    if (s->kind == ND_If && (breaks_out(&s->body) || breaks_out(&s->orelse))) return true;
  }
  return false;
}

/* body always ends in return or raise (syntactically: an if whose branches
** both do, a `while True:` with no break) */
static bool always_leaves(NodeList *body) {
  if (body->len == 0) return false;
  Node *s = body->items[body->len - 1];
  if (s->kind == ND_Return || s->kind == ND_Raise) return true;
  if (s->kind == ND_If) return always_leaves(&s->body) && always_leaves(&s->orelse);
  if (s->kind == ND_While)
    return s->test->kind == ND_Constant && s->test->ckind == CK_BOOL && s->test->bval && !breaks_out(&s->body);
  return false;
}

/* true if a local or the return type changed */
static bool run_passes(Compile *C, FuncSpec *spec) {
  Infer I = {C, spec, false, false};
  bool changed = false;
  for (int pass = 0; pass < MAX_PASSES; pass++) {
    I.changed = false;
    infer_body(&I, &spec->def->body);
    if (!I.changed) break;
    changed = true;
  }
  /* no return with a value (a method recursing on its class, insert()):
  ** None, known before its recursive calls are typed strictly */
  if (spec->ret == NULL && !returns_value(&spec->def->body)) spec->ret = &ty_none;
  /* a number returned, but the end reachable: an Optional, None at the end (Numba's implicit return None) */
  if (spec->ret && spec->ret->kind == TY_SCALAR && !ty_is_complex(spec->ret) && !spec->ret_fixed &&
      !always_leaves(&spec->def->body)) {
    spec->ret = ty_optional(spec->ret->dtype);
    changed = true;
  }
  I.strict = true;
  infer_body(&I, &spec->def->body);
  for (int i = 0; i < spec->nlocals; i++)
    if (spec->locals[i].ty == NULL && spec->pruned) {
      spec->locals[i].ty = ty_int64;  /* assigned only in a branch pruned at compile time: never used */
    } else if (spec->locals[i].ty == NULL) {
      /* never assigned a known type: only possible for unreachable or recursive-only code */
      compile_error(C, spec->def->loc, "TypingError", "cannot determine the type of variable '%s' in %s()",
                    infer_shown_name(C, spec->locals[i].name), spec->def->name);
    }
  if (spec->ret == NULL) spec->ret = &ty_none;
  return changed;
}

/* A spec called while it was being inferred (recursion through other specs)
** let those specs read a return type that may have widened since: they and
** it are inferred again until no type changes, so that every spec's
** annotations agree with the types of the specs it calls. */
static void settle(Compile *C, FuncSpec *spec) {
  bool changed = true;
  while (changed) {
    FuncSpec *first = C->specs;
    changed = false;
    for (FuncSpec *s = first; s != spec->next; s = s->next) changed = run_passes(C, s) || changed;
    changed = changed || C->specs != first;  /* new specs: they read the types of this pass */
  }
}

static bool same_args(FuncSpec *s, Node *def, Type **argtypes, int nargs) {
  if (s->def != def || s->nargs != nargs) return false;
  for (int i = 0; i < nargs; i++)
    if (s->argtypes[i] != argtypes[i]) return false;
  return true;
}

FuncSpec *infer_spec(Compile *C, Node *def, Type **argtypes, int nargs, Loc at) {
  for (FuncSpec *s = C->specs; s; s = s->next)
    if (same_args(s, def, argtypes, nargs)) {
      if (s->state == 1) s->recursive = true;  /* a cycle passes through s: guard its entry */
      return s;
    }
  if (def->args.len != nargs)
    compile_error(C, at, "TypingError", "%s() takes %d arguments but %d were given", def->name, def->args.len, nargs);
  int depth = 0;
  for (FuncSpec *s = C->specs; s; s = s->next) depth++;
  if (depth > 200)
    compile_error(C, at, "TypingError", "too many specializations of %s() (recursion on ever-changing types?)", def->name);
  FuncSpec *spec = arena_alloc(C->A, sizeof(FuncSpec));
  spec->def = def;
  spec->nargs = nargs;
  spec->argtypes = arena_alloc(C->A, sizeof(Type *) * (size_t)(nargs ? nargs : 1));
  memcpy(spec->argtypes, argtypes, sizeof(Type *) * (size_t)nargs);
  spec->parallel = C->opt.parallel;
  spec->next = C->specs;
  C->specs = spec;
  for (int i = 0; i < nargs; i++) {
    int slot = add_local(C, spec, def->args.items[i]->name);
    spec->locals[slot].ty = argtypes[i];
    spec->locals[slot].is_param = true;
    spec->locals[slot].def_loc = def->args.items[i]->loc;
  }
  infer_ssa_rename(C, def);
  collect_locals(C, spec, &def->body);
  spec->state = 1;
  run_passes(C, spec);
  spec->state = 2;
  if (spec->recursive && C->specs != spec) settle(C, spec);
  return spec;
}

void infer_fix_ret(Compile *C, FuncSpec *spec, Type *ret) {
  spec->ret = ret;
  spec->ret_fixed = true;  /* the passes below must not widen it back */
  if (spec->recursive) settle(C, spec);  /* its calls (its own too) return ret now */
}
