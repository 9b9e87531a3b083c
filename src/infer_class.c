/*
** infer_class.c — typing @jitclass instances (types.h TY_CLASS, ClassInfo):
** inst.field has its spec's type; inst.prop and inst.method(...) call the
** module's def of that method (lua/lumba/jitclass.lua named it
** "Bag__method"), the instance first; Bag(...) calls the class's __new__
** def, whose own Bag() makes the instance (CALL_NEW).
*/
#include "infer.h"

#include <stdio.h>


#include <string.h>

static Node *method_def(Infer *I, Node *n, ClassInfo *c, int m) {
  Node *def = compile_find_def(I->C, c->mdefs[m]);
  if (def == NULL) compile_error(I->C, n->loc, "TypingError", "%s has no compiled method '%s'", c->name, c->mnames[m]);
  return def;
}

/* a call of method m of c with the receiver recv first, then pos */
static Type *call_method(Infer *I, Node *n, ClassInfo *c, int m, Node *recv, Node **pos, int npos) {
  Compile *C = I->C;
  Node *def = method_def(I, n, c, m);
  Node **all = arena_alloc(C->A, sizeof(Node *) * (size_t)(npos + 1));
  all[0] = recv;
  for (int i = 0; i < npos; i++) all[i + 1] = pos[i];
  int na;
  Node **args = infer_place_args(I, n, def, c->mnames[m], all, npos + 1, &na);
  CallInfo *ci = infer_new_info(I, n, CALL_DEF, def->name);
  ci->args = args;
  ci->nargs = na;
  Type *at[LM_MAXARGS];
  if (na > LM_MAXARGS) compile_error(C, n->loc, "UnsupportedError", "too many arguments");
  if (!infer_arg_types(I, args, na, at)) return NULL;
  FuncSpec *callee = infer_spec(C, def, at, na, n->loc);
  ci->callee = callee;
  if (callee->ret == NULL && I->strict)
    compile_error(C, n->loc, "TypingError", "cannot infer the return type of %s.%s()", c->name, c->mnames[m]);
  return callee->ret;
}

bool infer_class_optional(Infer *I, Node *x) {
  if (x->kind != ND_Attribute) return false;
  Type *b = infer_ann(I, x->value)->ty;
  if (b == NULL || b->kind != TY_CLASS) return false;
  int f = ty_class_field(b->cls, x->name);
  return f >= 0 && b->cls->fopt[f] && b->cls->ftypes[f]->kind == TY_SCALAR;
}

static bool is_none_const(Node *x) { return x->kind == ND_Constant && x->ckind == CK_NONE; }

bool infer_class_is_none(Infer *I, Node *a, Node *b) {
  if (is_none_const(a)) { Node *t = a; a = b; b = t; }
  if (!is_none_const(b)) return false;
  Type *t = infer_ann(I, a)->ty;
  return (t && (t->kind == TY_CLASS || t->kind == TY_NONE || t->kind == TY_OPTIONAL)) || infer_class_optional(I, a);  /* None: known */
}

Type *infer_class_attr(Infer *I, Node *n, Type *base) {
  ClassInfo *c = base->cls;
  int f = ty_class_field(c, n->name);
  if (f >= 0) return infer_ann(I, n)->ty = c->ftypes[f];
  int m = ty_class_method(c, n->name);
  if (m >= 0 && c->mprops[m]) {
    Type *t = call_method(I, n, c, m, n->value, NULL, 0);
    return infer_ann(I, n)->ty = t;
  }
  if (m >= 0)
    compile_error(I->C, n->loc, "TypingError", "method '%s' of %s must be called: %s.%s(...)", n->name, c->name,
                  c->name, n->name);
  compile_error(I->C, n->loc, "TypingError", "%s has no field, property or method '%s'", c->name, n->name);
}

Type *infer_class_method(Infer *I, Node *n, Type *base) {
  ClassInfo *c = base->cls;
  Node *f = n->func;
  int m = ty_class_method(c, f->name);
  if (m < 0 || c->mprops[m] || strcmp(f->name, "__new__") == 0) {
    if (ty_class_field(c, f->name) >= 0 || (m >= 0 && c->mprops[m]))
      compile_error(I->C, f->loc, "TypingError", "'%s' of %s is not a method", f->name, c->name);
    compile_error(I->C, f->loc, "TypingError", "%s has no method '%s'", c->name, f->name);
  }
  return call_method(I, n, c, m, f->value, n->args.items, n->args.len);
}

Type *infer_class_call(Infer *I, Node *n, ClassInfo *c) {
  Compile *C = I->C;
  int m = ty_class_method(c, "__new__");
  if (m < 0) compile_error(C, n->loc, "TypingError", "%s cannot be constructed", c->name);
  if (I->spec->def == compile_find_def(C, c->mdefs[m]) && n->args.len == 0 && n->keywords.len == 0) {
    infer_new_info(I, n, CALL_NEW, c->name);  /* the instance itself, in __new__ */
    if (C->opt.cache) {
      char why[200];
      snprintf(why, sizeof why, "it constructs jitclass %s instances, whose class is an address of this process",
               c->name);
      compile_skip_cache(C, why);
    }
    return &c->type;
  }
  Node *def = method_def(I, n, c, m);
  int na;
  Node **args = infer_place_args(I, n, def, c->name, n->args.items, n->args.len, &na);
  CallInfo *ci = infer_new_info(I, n, CALL_DEF, def->name);
  ci->args = args;
  ci->nargs = na;
  Type *at[LM_MAXARGS];
  if (na > LM_MAXARGS) compile_error(C, n->loc, "UnsupportedError", "too many arguments");
  if (!infer_arg_types(I, args, na, at)) return NULL;
  ci->callee = infer_spec(C, def, at, na, n->loc);
  return &c->type;
}

void infer_class_store(Infer *I, Node *target, Type *base, Type *t) {
  Compile *C = I->C;
  ClassInfo *c = base->cls;
  int f = ty_class_field(c, target->name);
  if (f < 0) {
    int m = ty_class_method(c, target->name);
    if (m >= 0)
      compile_error(C, target->loc, "TypingError", "cannot assign to the %s '%s' of %s",
                    c->mprops[m] ? "property" : "method", target->name, c->name);
    compile_error(C, target->loc, "TypingError", "%s has no field '%s'", c->name, target->name);
  }
  infer_ann(I, target)->ty = c->ftypes[f];
  if (t == NULL) return;
  Type *ft = c->ftypes[f];
  bool numbers = t->kind == TY_TUPLE && ft->kind == TY_TUPLE && t->nelems == ft->nelems;
  for (int k = 0; numbers && k < t->nelems; k++) numbers = ty_is_number(t->elems[k]);
  bool ok = t->kind == TY_NONE ? c->fopt[f]  /* None: an optional field's */
          : t->kind == TY_OPTIONAL ? ft->kind == TY_SCALAR  /* an Optional: None raises unless the field is optional */
          : ft->kind == TY_TUPLE ? numbers
          : ft->kind == TY_SCALAR ? ty_is_number(t)
          : ft->kind == TY_CLASS ? t->kind == TY_CLASS && t->cls == ft->cls
          : t->kind == TY_ARRAY && t->dtype == ft->dtype && t->ndim == ft->ndim && (ft->layout == 'A' || t->layout == ft->layout);
  if (!ok)
    compile_error(C, target->loc, "TypingError", "cannot assign %s to field '%s' of %s (%s)", tyname(C, t), target->name,
                  c->name, tyname(C, ft));
}
