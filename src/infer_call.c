/*
** infer_call.c — typing of calls, the generic part: builtins and array
** methods through the registry's hooks (builtins.def, builtin_*.c), dtype
** casts, defs of the same source and other dispatchers, and the argument
** helpers the hooks share. Leaves a CallInfo in the Call's annotation (aux) for
** the lowering.
*/
#include <string.h>

#include "builtin_hooks.h"
#include "infer.h"

CallInfo *infer_new_info(Infer *I, Node *n, CallKind kind, const char *qname) {
  CallInfo *ci = arena_alloc(I->C->A, sizeof(CallInfo));
  ci->kind = kind;
  ci->qname = qname;
  ci->args = n->args.items;
  ci->nargs = n->args.len;
  infer_ann(I, n)->aux = ci;
  return ci;
}

void infer_no_keywords(Infer *I, Node *n, const char *fname) {
  if (n->keywords.len)
    compile_error(I->C, n->keywords.items[0]->loc, "TypingError", "%s() got an unexpected keyword argument '%s'",
                  fname, n->keywords.items[0]->name);
}

void infer_nargs(Infer *I, Node *n, const char *fname, int lo, int hi) {
  if (hi < 0) hi = LM_MAXARGS;  /* a registry row's "any number" */
  if (n->args.len < lo || n->args.len > hi) {
    if (lo == hi)
      compile_error(I->C, n->loc, "TypingError", "%s() takes %d argument%s (%d given)", fname, lo, lo == 1 ? "" : "s",
                    n->args.len);
    compile_error(I->C, n->loc, "TypingError", "%s() takes %d to %d arguments (%d given)", fname, lo, hi, n->args.len);
  }
}

int infer_dtype_arg(Infer *I, Node *n) {
  if (n->kind == ND_Constant && n->ckind == CK_STR) return dtype_from_name(n->sval);
  Sym s = resolve_static(I->C, I->spec, n);
  if (s.kind == SYM_DTYPE) return (int)s.dt;
  if (s.kind == SYM_BUILTIN && s.bn) {
    if (s.bn->id == BI_float) return DT_FLOAT64;
    if (s.bn->id == BI_int) return DT_INT64;
    if (s.bn->id == BI_bool) return DT_BOOL;
  }
  if (s.kind != SYM_NONE && s.kind != SYM_FROZEN) return -1;
  /* a dtype value: a.dtype, np.dtype('f4'), a dtype argument or local, a module's rec = np.dtype([...]) */
  Type *t = infer_expr(I, n);
  if (t == NULL) return -2;
  return t->kind == TY_DTYPE ? (int)t->dtype : -1;
}

/* the keyword `name`, or positional argument pos; NULL if absent */
Node *infer_arg_or_kw(Node *n, int pos, const char *name) {
  for (int i = 0; i < n->keywords.len; i++)
    if (strcmp(n->keywords.items[i]->name, name) == 0) return n->keywords.items[i]->value;
  return pos < n->args.len ? n->args.items[pos] : NULL;
}

void infer_only_keywords(Infer *I, Node *n, const char *fname, const char *const *allowed) {
  for (int i = 0; i < n->keywords.len; i++) {
    const char *k = n->keywords.items[i]->name;
    bool ok = false;
    for (int j = 0; allowed && allowed[j]; j++) ok = ok || strcmp(k, allowed[j]) == 0;
    if (!ok)
      compile_error(I->C, n->keywords.items[i]->loc, "TypingError", "%s() got an unexpected keyword argument '%s'",
                    fname, k);
  }
}

DType infer_dtype_of_any(Infer *I, Node *n, DType dflt) {
  if (n == NULL) return dflt;
  int dt = infer_dtype_arg(I, n);
  if (dt == -2 && !I->strict) return dflt;  /* not typed yet: the next pass knows */
  if (dt == -2) compile_error(I->C, n->loc, "TypingError", "cannot determine the dtype of this expression");
  if (dt < 0) compile_error(I->C, n->loc, "TypingError", "expected a dtype such as np.float64 here");
  return (DType)dt;
}

DType infer_dtype_of(Infer *I, Node *n, DType dflt) {
  DType dt = infer_dtype_of_any(I, n, dflt);
  if (dtype_is_record(dt))
    compile_error(I->C, n->loc, "TypingError", "a record dtype is not supported here (np.zeros and np.empty take one)");
  return dt;
}

/* Type the arguments; NULL when one is still unknown */
bool infer_arg_types(Infer *I, Node **args, int n, Type **out) {
  bool ok = true;
  for (int i = 0; i < n; i++)
    if ((out[i] = infer_expr(I, args[i])) == NULL) ok = false;
  return ok;
}

Type *infer_scalar_arg(Infer *I, Node *a, Type *t, const char *fname) {
  if (!ty_is_number(t))
    compile_error(I->C, a->loc, "TypingError", "%s() needs a number, not %s", fname, tyname(I->C, t));
  return t;
}

/* a.sum(), a.copy(), ... and np.sum(a): the method's hooks type it */
Type *infer_method(Infer *I, Node *n, BuiltinId id, Node *recv, Type *a, const char *name, Node **args, int nargs) {
  Compile *C = I->C;
  CallInfo *ci = infer_new_info(I, n, CALL_METHOD, name);
  ci->bi = id;
  ci->recv = recv;
  ci->args = args;
  ci->nargs = nargs;
  bool scalar_ok = id == BI_ndarray_conj || id == BI_ndarray_conjugate;  /* z.conjugate() of a number too */
  if ((a->kind != TY_ARRAY && !(scalar_ok && ty_is_number(a))) || C->builtins[id].infer_method == NULL)
    compile_error(C, n->loc, "TypingError", "%s has no method '%s'", tyname(C, a), name);
  if (dtype_is_record(a->dtype) && id != BI_ndarray_copy)  /* records: no arithmetic, no casts */
    compile_error(C, n->loc, "TypingError", "%s() is not supported on arrays of %s", name, tyname(C, ty_scalar(a->dtype)));
  return C->builtins[id].infer_method(I, n, ci, a);
}

/* a compile-time integer: a literal or a frozen constant */
bool infer_static_int(Infer *I, Node *n, int64_t *v) {
  if (n->kind == ND_Constant && n->ckind == CK_INT) { *v = n->ival; return true; }
  Sym s = resolve_static(I->C, I->spec, n);
  if (s.kind == SYM_CONST && s.cty == ty_int64) { *v = s.ival; return true; }
  return false;
}

/* a builtin called by name q: its registry hooks (bn), else the error its module's names get */
static Type *infer_builtin(Infer *I, Node *n, const char *q, const BuiltinName *bn) {
  Compile *C = I->C;
  const Builtin *b = bn ? builtin_of(bn) : NULL;
  /* kernels' builtins: the GPU target's rows (all of numba.cuda), and unknown names there */
  if (((b && b->target == BT_GPU) || strncmp(q, "numba.cuda.", 11) == 0) && !C->opt.gpu)
    compile_error(C, n->loc, "UnsupportedError", "cuda.%s is only available inside cuda.jit kernels", q + 11);
  if (strncmp(q, "_lumba.", 7) == 0 && !compile_sees_lumba(C, I->spec->def))
    compile_error(C, n->loc, "NameError", "name '_lumba' is not defined (it is lumba's prelude's own)");
  /* np.sum(a, axis=1): the calls a C row taking only the array does not take go to its prelude form */
  const BuiltinName *full = b && (n->args.len > 1 || n->keywords.len) ? builtin_find_member(q, ".prelude") : NULL;
  /* np.round(a) of an array: the math row takes numbers, the prelude form arrays */
  if (!full && b && b->kind == BK_FUNC && strcmp(b->family, "math") == 0 && n->args.len == 1) {
    Type *a0 = infer_expr(I, n->args.items[0]);
    if (a0 && a0->kind == TY_ARRAY) full = builtin_find_member(q, ".prelude");
  }
  if (full) return C->builtins[full->id].infer(I, n, full);
  if (b && b->kind == BK_FUNC && C->builtins[bn->id].infer) return C->builtins[bn->id].infer(I, n, bn);
  if (b && b->kind == BK_METHOD && C->builtins[bn->id].infer_method) {
    /* np.sum(a) is a.sum() */
    infer_nargs(I, n, b->member, 1, 1);
    infer_no_keywords(I, n, b->member);
    Type *a = infer_expr(I, n->args.items[0]);
    if (a == NULL) return NULL;
    return infer_method(I, n, bn->id, n->args.items[0], a, b->member, NULL, 0);
  }
  if (strncmp(q, "math.", 5) == 0) compile_error(C, n->loc, "TypingError", "unknown function math.%s", q + 5);
  if (strncmp(q, "numpy.", 6) == 0)
    compile_error(C, n->loc, "TypingError", "np.%s is not supported in compiled code", q + 6);
  if (strncmp(q, "numba.cuda.", 11) == 0) {
    if (strncmp(q + 11, "atomic.", 7) == 0)
      compile_error(C, n->loc, "TypingError", "unknown atomic operation cuda.atomic.%s", q + 18);
    compile_error(C, n->loc, "TypingError", "cuda.%s is not supported", q + 11);
  }
  compile_error(C, n->loc, "TypingError", "unknown function '%s'", q);
}

/* place the positional arguments pos[0..npos), n's keyword arguments and
** def's defaults into def's parameters' order; fname names it in errors */
Node **infer_place_args(Infer *I, Node *n, Node *def, const char *fname, Node **pos, int npos, int *nout) {
  Compile *C = I->C;
  int np = def->args.len, nd = def->defaults.len;
  if (npos > np)
    compile_error(C, n->loc, "TypingError", "%s() takes %d arguments but %d were given", fname, np, npos);
  Node **out = arena_alloc(C->A, sizeof(Node *) * (size_t)(np ? np : 1));
  for (int i = 0; i < npos; i++) out[i] = pos[i];
  for (int k = 0; k < n->keywords.len; k++) {
    Node *kw = n->keywords.items[k];
    int i = 0;
    while (i < np && strcmp(def->args.items[i]->name, kw->name) != 0) i++;
    if (i == np) compile_error(C, kw->loc, "TypingError", "%s() got an unexpected keyword argument '%s'", fname, kw->name);
    if (out[i]) compile_error(C, kw->loc, "TypingError", "%s() got multiple values for argument '%s'", fname, kw->name);
    out[i] = kw->value;
  }
  for (int i = 0; i < np; i++)
    if (out[i] == NULL) {
      if (i >= np - nd) out[i] = def->defaults.items[i - (np - nd)];
      else compile_error(C, n->loc, "TypingError", "%s() missing required argument '%s'", fname, def->args.items[i]->name);
    }
  *nout = np;
  return out;
}

/* None reaches only a parameter whose default is None (`axis=None`), where
** `if axis is None:` decides at compile time (infer.c) */
void infer_check_none_args(Infer *I, Node *def, const char *fname, Node **args, Type **at, int na) {
  int nd = def->defaults.len, first = def->args.len - nd;
  for (int i = 0; i < na; i++) {
    if (at[i]->kind != TY_NONE) continue;
    Node *d = i >= first ? def->defaults.items[i - first] : NULL;
    if (!(d && d->kind == ND_Constant && d->ckind == CK_NONE))
      compile_error(I->C, args[i]->loc, "TypingError", "None cannot be passed to %s()", fname);
  }
}

Type *infer_call(Infer *I, Node *n) {
  Compile *C = I->C;
  Node *f = n->func;
  Sym s = resolve_static(C, I->spec, f);
  if (s.kind == SYM_NONE) {
    if (f->kind == ND_Attribute) {
      Type *a = infer_expr(I, f->value);
      if (a == NULL) {
        for (int i = 0; i < n->args.len; i++) infer_expr(I, n->args.items[i]);
        return NULL;
      }
      if (a->kind == TY_CLASS) return infer_class_method(I, n, a);
      if (a->kind == TY_OPAQUE) {  /* g.sync() of cuda.cg.this_grid(): a registry row under the type's name */
        const BuiltinName *m = builtin_find_member(a->methods, f->name);
        if (m == NULL || builtin_of(m)->kind != BK_FUNC)
          compile_error(C, n->loc, "TypingError", "%s has no method '%s'", tyname(C, a), f->name);
        return infer_builtin(I, n, m->name, m);
      }
      const BuiltinName *m = builtin_find_member("ndarray.", f->name);
      BuiltinId id = m && builtin_of(m)->kind == BK_METHOD ? m->id : BI_NONE;
      /* a.sum(axis=1): the prelude form of a C row that takes no arguments */
      const BuiltinName *full = id != BI_NONE && (n->args.len || n->keywords.len) && !builtin_of(m)->impl
                                    ? builtin_find_member(m->name, ".prelude") : NULL;
      if (full) id = full->id;
      if (id == BI_NONE || !builtin_entries[id].impl) infer_no_keywords(I, n, f->name);
      return infer_method(I, n, id, f->value, a, f->name, n->args.items, n->args.len);
    }
    Type *t = infer_expr(I, f);
    if (t && t->kind == TY_DTYPE) {  /* dt(x) with dt a dtype value: a cast, as np.float32(x) */
      s.kind = SYM_DTYPE;
      s.dt = t->dtype;
    } else {
      compile_error(C, f->loc, "TypingError", "%s is not callable", t ? tyname(C, t) : "this");
    }
  }
  /* a sibling of a lumba.load module takes positional arguments only: a call
  ** with keywords or leaning on defaults binds and compiles it as a def */
  if (s.kind == SYM_DISPATCHER && s.def && (n->keywords.len > 0 || n->args.len != s.def->args.len))
    s.kind = SYM_DEF;
  switch (s.kind) {
    case SYM_CLASS: return infer_class_call(I, n, s.cls);
    case SYM_BUILTIN: return infer_builtin(I, n, s.qname, s.bn);
    case SYM_DTYPE: {
      const char *nm = dtype_names[s.dt];
      infer_nargs(I, n, nm, 1, 1);
      infer_no_keywords(I, n, nm);
      CallInfo *ci = infer_new_info(I, n, CALL_CAST, nm);
      ci->dt = s.dt;
      Type *a = infer_expr(I, n->args.items[0]);
      if (a) infer_scalar_arg(I, n->args.items[0], a, nm);
      return a ? ty_scalar(s.dt) : NULL;
    }
    case SYM_DEF: {
      Type *ut;
      /* through the registry's table, so the generic typing does not depend on the ufunc's file */
      const BuiltinHooks *vh = &I->C->builtins[BI_numba_vectorize];
      if (vh->infer_def && vh->infer_def(I, n, s.def, &ut)) return ut;
      int na;
      Node **args = infer_place_args(I, n, s.def, s.def->name, n->args.items, n->args.len, &na);
      CallInfo *ci = infer_new_info(I, n, CALL_DEF, s.def->name);
      ci->args = args;
      ci->nargs = na;
      Type *at[LM_MAXARGS];
      if (na > LM_MAXARGS) compile_error(C, n->loc, "UnsupportedError", "too many arguments");
      if (!infer_arg_types(I, args, na, at)) return NULL;
      infer_check_none_args(I, s.def, s.def->name, args, at, na);
      FuncSpec *callee = infer_spec(C, s.def, at, na, n->loc);
      ci->callee = callee;
      if (callee->ret == NULL && I->strict)
        compile_error(C, n->loc, "TypingError",
                      "cannot infer the return type of %s(): every return path calls it recursively", s.def->name);
      return callee->ret;
    }
    case SYM_DISPATCHER: {
      infer_no_keywords(I, n, "a lumba function");
      CallInfo *ci = infer_new_info(I, n, CALL_DISPATCHER, NULL);
      Type *at[LM_MAXARGS];
      if (n->args.len > LM_MAXARGS) compile_error(C, n->loc, "UnsupportedError", "too many arguments");
      if (!infer_arg_types(I, n->args.items, n->args.len, at)) return NULL;
      ci->callee = C->hooks->callee(C, s.ref, at, n->args.len, n->loc);
      return ci->callee->ret;
    }
    case SYM_CONST:
      compile_error(C, f->loc, "TypingError", "a number is not callable");
    case SYM_FROZEN:
      compile_error(C, f->loc, "TypingError", "'%s' is a module-level array or tuple, not a function", f->name);
    case SYM_DEVARRAY:
      compile_error(C, f->loc, "TypingError", "'%s' is a device array, not a function", f->name);
    case SYM_MODULE:
      compile_error(C, f->loc, "TypingError", "module '%s' is not callable", s.qname);
    default: LM_UNREACHABLE();
  }
}

/* raise Exc("msg") / raise Exc / raise: the message must be a constant */
void infer_raise(Infer *I, Node *s) {
  Compile *C = I->C;
  Node *e = s->exc;
  if (e == NULL) return;
  Node *callee = e->kind == ND_Call ? e->func : e;
  /* a Name, or NumPy's np.linalg.LinAlgError */
  bool linalg = callee->kind == ND_Attribute && resolve_static(C, I->spec, callee).qname &&
                strcmp(resolve_static(C, I->spec, callee).qname, "numpy.linalg.LinAlgError") == 0;
  if (callee->kind != ND_Name && !linalg)
    compile_error(C, e->loc, "UnsupportedError", "raise needs an exception class such as ValueError(\"message\")");
  if (e->kind == ND_Call) {
    if (e->args.len > 1 || e->keywords.len ||
        (e->args.len == 1 && !(e->args.items[0]->kind == ND_Constant && e->args.items[0]->ckind == CK_STR)))
      compile_error(C, e->loc, "UnsupportedError", "exception arguments must be one string literal");
  }
}
