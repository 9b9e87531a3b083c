/*
** infer_call.c — typing of calls: builtins, math/numpy functions, dtype
** casts, array methods, defs of the same source and other dispatchers.
** Leaves a CallInfo in the Call's annotation (aux) for the lowering.
*/
#include <string.h>

#include "infer.h"

typedef struct MathFn {
  const char *name, *base;
  int arity;
  char result;
  const char *intrinsic;
} MathFn;

static const MathFn math_fns[] = {
#define MATH(py, base, n, r, intr) {#py, #base, n, r, intr},
#include "math.def"
#undef MATH
};

const struct MathFn *infer_math_fn(const char *name);
const struct MathFn *infer_math_fn(const char *name) {
  for (size_t i = 0; i < lm_countof(math_fns); i++)
    if (strcmp(math_fns[i].name, name) == 0) return &math_fns[i];
  return NULL;
}

/* numpy spellings of math functions */
static const char *numpy_alias(const char *n) {
  static const char *const pairs[][2] = {
      {"arcsin", "asin"}, {"arccos", "acos"}, {"arctan", "atan"}, {"arcsinh", "asinh"},
      {"arccosh", "acosh"}, {"arctanh", "atanh"}, {"arctan2", "atan2"},
      {"absolute", "abs"}, {"minimum", "min"}, {"maximum", "max"}, {"amin", "min"},
      {"amax", "max"},
  };
  for (size_t i = 0; i < lm_countof(pairs); i++)
    if (strcmp(n, pairs[i][0]) == 0) return pairs[i][1];
  return n;
}

static CallInfo *new_info(Infer *I, Node *n, CallKind kind, const char *qname) {
  CallInfo *ci = arena_alloc(I->C->A, sizeof(CallInfo));
  ci->kind = kind;
  ci->qname = qname;
  ci->args = n->args.items;
  ci->nargs = n->args.len;
  infer_ann(I, n)->aux = ci;
  return ci;
}

static void no_keywords(Infer *I, Node *n, const char *fname) {
  if (n->keywords.len)
    compile_error(I->C, n->keywords.items[0]->loc, "TypingError", "%s() got an unexpected keyword argument '%s'",
                  fname, n->keywords.items[0]->name);
}

static void nargs_between(Infer *I, Node *n, const char *fname, int lo, int hi) {
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
  if (s.kind == SYM_BUILTIN) {
    if (strcmp(s.qname, "float") == 0) return DT_FLOAT64;
    if (strcmp(s.qname, "int") == 0) return DT_INT64;
    if (strcmp(s.qname, "bool") == 0) return DT_BOOL;
  }
  return -1;
}

/* the keyword `name`, or positional argument pos; NULL if absent */
static Node *arg_or_kw(Node *n, int pos, const char *name) {
  for (int i = 0; i < n->keywords.len; i++)
    if (strcmp(n->keywords.items[i]->name, name) == 0) return n->keywords.items[i]->value;
  return pos < n->args.len ? n->args.items[pos] : NULL;
}

static void only_keywords(Infer *I, Node *n, const char *fname, const char *const *allowed) {
  for (int i = 0; i < n->keywords.len; i++) {
    const char *k = n->keywords.items[i]->name;
    bool ok = false;
    for (int j = 0; allowed[j]; j++) ok = ok || strcmp(k, allowed[j]) == 0;
    if (!ok)
      compile_error(I->C, n->keywords.items[i]->loc, "TypingError", "%s() got an unexpected keyword argument '%s'",
                    fname, k);
  }
}

static DType dtype_of(Infer *I, Node *n, DType dflt) {
  if (n == NULL) return dflt;
  int dt = infer_dtype_arg(I, n);
  if (dt < 0) compile_error(I->C, n->loc, "TypingError", "expected a dtype such as np.float64 here");
  return (DType)dt;
}

/* the number of dimensions a shape argument gives (int: 1, tuple: its length) */
static int shape_ndim(Infer *I, Node *shape, Type *t) {
  if (ty_is_int(t)) return 1;
  if (t->kind == TY_TUPLE) {
    for (int i = 0; i < t->nelems; i++)
      if (!ty_is_int(t->elems[i]))
        compile_error(I->C, shape->loc, "TypingError", "shape elements must be integers, not %s", tyname(I->C, t->elems[i]));
    if (t->nelems < 1 || t->nelems > LM_MAXDIM)
      compile_error(I->C, shape->loc, "TypingError", "arrays have 1 to %d dimensions", LM_MAXDIM);
    return t->nelems;
  }
  compile_error(I->C, shape->loc, "TypingError", "a shape must be an integer or a tuple of integers, not %s",
                tyname(I->C, t));
}

static Type *elem_sum_type(Type *a) {
  if (ty_is_float(ty_scalar(a->dtype))) return ty_scalar(a->dtype);
  return dtype_kinds[a->dtype] == 'u' ? ty_scalar(DT_UINT64) : ty_int64;
}

/* Type the arguments; NULL when one is still unknown */
static bool arg_types(Infer *I, Node **args, int n, Type **out) {
  bool ok = true;
  for (int i = 0; i < n; i++)
    if ((out[i] = infer_expr(I, args[i])) == NULL) ok = false;
  return ok;
}

static Type *scalar_arg(Infer *I, Node *a, Type *t, const char *fname) {
  if (!ty_is_number(t))
    compile_error(I->C, a->loc, "TypingError", "%s() needs a number, not %s", fname, tyname(I->C, t));
  return t;
}

static Type *infer_math(Infer *I, Node *n, const char *name, bool numpy) {
  const MathFn *m = infer_math_fn(name);
  Type *at[2];
  if (strcmp(name, "log") == 0 && n->args.len == 2 && !numpy) {
    new_info(I, n, CALL_BUILTIN, "math.log2arg");
    if (!arg_types(I, n->args.items, 2, at)) return NULL;
    scalar_arg(I, n->args.items[0], at[0], "log");
    scalar_arg(I, n->args.items[1], at[1], "log");
    return ty_float64;
  }
  nargs_between(I, n, name, m->arity, m->arity);
  no_keywords(I, n, name);
  CallInfo *ci = new_info(I, n, CALL_BUILTIN, m->name);
  ci->dt = numpy ? 1 : 0;  /* numpy floor/ceil/trunc stay floats */
  if (!arg_types(I, n->args.items, m->arity, at)) return NULL;
  bool f32 = true;
  for (int i = 0; i < m->arity; i++) {
    scalar_arg(I, n->args.items[i], at[i], name);
    f32 = f32 && at[i]->dtype == DT_FLOAT32;
  }
  switch (m->result) {
    case 'B': return ty_bool;
    case 'I': if (!numpy) return ty_int64; /* fall through */
    default: return f32 ? ty_scalar(DT_FLOAT32) : ty_float64;
  }
}

static Type *infer_minmax(Infer *I, Node *n, const char *name) {
  no_keywords(I, n, name);
  if (n->args.len == 0) compile_error(I->C, n->loc, "TypingError", "%s expected at least 1 argument, got 0", name);
  Type *at[LM_MAXARGS];
  if (n->args.len > LM_MAXARGS) compile_error(I->C, n->loc, "UnsupportedError", "too many arguments");
  if (!arg_types(I, n->args.items, n->args.len, at)) return NULL;
  if (n->args.len == 1) {
    if (at[0]->kind == TY_ARRAY) {
      CallInfo *ci = new_info(I, n, CALL_METHOD, name);
      ci->recv = n->args.items[0];
      ci->args = NULL;
      ci->nargs = 0;
      return ty_scalar(at[0]->dtype);
    }
    if (at[0]->kind == TY_TUPLE && at[0]->nelems > 0) {
      Type *u = NULL;
      for (int i = 0; i < at[0]->nelems; i++) u = ty_unify(&I->C->S->types, u, at[0]->elems[i]);
      if (u == NULL || !ty_is_number(u)) compile_error(I->C, n->loc, "TypingError", "%s() of %s", name, tyname(I->C, at[0]));
      new_info(I, n, CALL_BUILTIN, name);
      return u;
    }
    compile_error(I->C, n->loc, "TypingError", "%s() of one %s is not supported", name, tyname(I->C, at[0]));
  }
  Type *u = NULL;
  for (int i = 0; i < n->args.len; i++) {
    scalar_arg(I, n->args.items[i], at[i], name);
    u = u ? (ty_is_float(u) || ty_is_float(at[i]) ? ty_arith(u, at[i]) : ty_unify(&I->C->S->types, u, at[i])) : at[i];
  }
  new_info(I, n, CALL_BUILTIN, name);
  return u;
}

static Type *infer_alloc(Infer *I, Node *n, const char *fname) {
  Compile *C = I->C;
  bool like = strstr(fname, "_like") != NULL;
  bool full = strncmp(fname, "full", 4) == 0;
  static const char *const kws[] = {"shape", "dtype", "fill_value", "a", "order", NULL};
  only_keywords(I, n, fname, kws);
  Node *shape = arg_or_kw(n, 0, like ? "a" : "shape");
  Node *fill = full ? arg_or_kw(n, 1, "fill_value") : NULL;
  Node *dtn = arg_or_kw(n, full ? 2 : 1, "dtype");
  if (shape == NULL) compile_error(C, n->loc, "TypingError", "%s() missing its %s argument", fname, like ? "array" : "shape");
  if (full && fill == NULL) compile_error(C, n->loc, "TypingError", "%s() missing its fill_value argument", fname);
  if (n->args.len > (full ? 3 : 2)) compile_error(C, n->loc, "TypingError", "%s() takes at most %d arguments", fname, full ? 3 : 2);
  CallInfo *ci = new_info(I, n, CALL_BUILTIN, fname);
  Type *st = infer_expr(I, shape);
  Type *ft = fill ? infer_expr(I, fill) : NULL;
  if (st == NULL || (fill && ft == NULL)) return NULL;
  int ndim;
  DType dflt = DT_FLOAT64;
  if (like) {
    if (st->kind != TY_ARRAY) compile_error(C, shape->loc, "TypingError", "%s() needs an array, not %s", fname, tyname(C, st));
    ndim = st->ndim;
    dflt = st->dtype;
  } else {
    ndim = shape_ndim(I, shape, st);
  }
  if (ft) {
    scalar_arg(I, fill, ft, fname);
    dflt = ft->dtype;
  }
  ci->dt = dtype_of(I, dtn, dflt);
  ci->args = arena_alloc(C->A, sizeof(Node *) * 2);
  ci->args[0] = shape;
  ci->args[1] = fill;
  ci->nargs = fill ? 2 : 1;
  return ty_array(&C->S->types, ci->dt, ndim, 'C');
}

static Type *infer_arange(Infer *I, Node *n) {
  static const char *const kws[] = {"start", "stop", "step", "dtype", NULL};
  only_keywords(I, n, "arange", kws);
  nargs_between(I, n, "arange", 1, 3);
  CallInfo *ci = new_info(I, n, CALL_BUILTIN, "arange");
  Type *at[3];
  if (!arg_types(I, n->args.items, n->args.len, at)) return NULL;
  bool anyfloat = false;
  for (int i = 0; i < n->args.len; i++) {
    scalar_arg(I, n->args.items[i], at[i], "arange");
    anyfloat = anyfloat || ty_is_float(at[i]);
  }
  ci->dt = dtype_of(I, arg_or_kw(n, 99, "dtype"), anyfloat ? DT_FLOAT64 : DT_INT64);
  return ty_array(&I->C->S->types, ci->dt, 1, 'C');
}

/* a.sum(), a.min(), a.copy(), ... and np.sum(a) */
static Type *infer_method(Infer *I, Node *n, Node *recv, Type *a, const char *name, Node **args, int nargs) {
  Compile *C = I->C;
  CallInfo *ci = new_info(I, n, CALL_METHOD, name);
  ci->recv = recv;
  ci->args = args;
  ci->nargs = nargs;
  if (a->kind != TY_ARRAY)
    compile_error(C, n->loc, "TypingError", "%s has no method '%s'", tyname(C, a), name);
  /* arguments these methods would take in NumPy (axis, order, axes) change the
  ** result: refuse them rather than ignore them */
  bool reduction = strcmp(name, "sum") == 0 || strcmp(name, "prod") == 0 || strcmp(name, "min") == 0 ||
                   strcmp(name, "max") == 0 || strcmp(name, "mean") == 0;
  if (nargs > 0 && reduction)
    compile_error(C, n->loc, "TypingError", "%s() with an axis is not supported in compiled code", name);
  if (nargs > 0 && strcmp(name, "copy") == 0)
    compile_error(C, n->loc, "TypingError", "copy() takes no arguments (%d given)", nargs);
  if (nargs > 0 && strcmp(name, "transpose") == 0)
    compile_error(C, n->loc, "TypingError", "transpose() with axes is not supported in compiled code");
  if (strcmp(name, "sum") == 0 || strcmp(name, "prod") == 0) return elem_sum_type(a);
  if (strcmp(name, "min") == 0 || strcmp(name, "max") == 0) return ty_scalar(a->dtype);
  if (strcmp(name, "mean") == 0) return a->dtype == DT_FLOAT32 ? ty_scalar(DT_FLOAT32) : ty_float64;
  if (strcmp(name, "copy") == 0) return ty_array(&C->S->types, a->dtype, a->ndim, 'C');
  if (strcmp(name, "transpose") == 0) {
    char lay = a->layout == 'C' ? 'F' : a->layout == 'F' ? 'C' : 'A';
    return ty_array(&C->S->types, a->dtype, a->ndim, lay);
  }
  if (strcmp(name, "fill") == 0) {
    if (nargs != 1) compile_error(C, n->loc, "TypingError", "fill() takes 1 argument");
    Type *v = infer_expr(I, args[0]);
    if (v) scalar_arg(I, args[0], v, "fill");
    return &ty_none;
  }
  if (strcmp(name, "astype") == 0) {
    if (nargs != 1) compile_error(C, n->loc, "TypingError", "astype() takes 1 argument");
    ci->dt = dtype_of(I, args[0], DT_FLOAT64);
    return ty_array(&C->S->types, ci->dt, a->ndim, 'C');
  }
  compile_error(C, n->loc, "TypingError", "%s has no method '%s'", tyname(C, a), name);
}

/* a compile-time integer: a literal or a frozen constant */
static bool static_int(Infer *I, Node *n, int64_t *v) {
  if (n->kind == ND_Constant && n->ckind == CK_INT) { *v = n->ival; return true; }
  Sym s = resolve_static(I->C, I->spec, n);
  if (s.kind == SYM_CONST && s.cty == ty_int64) { *v = s.ival; return true; }
  return false;
}

/* cuda.grid, cuda.shared.array, cuda.atomic.add, cuda.syncthreads ... */
static Type *infer_cuda_call(Infer *I, Node *n, const char *what) {
  Compile *C = I->C;
  CallInfo *ci = new_info(I, n, CALL_BUILTIN, arena_strdup(C->A, what));
  Type *at[4];
  if (strcmp(what, "grid") == 0 || strcmp(what, "gridsize") == 0) {
    int64_t nd;
    nargs_between(I, n, what, 1, 1);
    if (!static_int(I, n->args.items[0], &nd) || nd < 1 || nd > 3)
      compile_error(C, n->args.items[0]->loc, "TypingError", "cuda.%s() takes a constant 1, 2 or 3", what);
    ci->ndims = (int)nd;
    if (nd == 1) return ty_int64;
    Type *el[3] = {ty_int64, ty_int64, ty_int64};
    return ty_tuple(&C->S->types, el, (int)nd);
  }
  if (strcmp(what, "syncthreads") == 0 || strcmp(what, "threadfence") == 0 || strcmp(what, "syncwarp") == 0 ||
      strcmp(what, "threadfence_block") == 0) {
    nargs_between(I, n, what, 0, what[4] == 'w' ? 1 : 0);
    return &ty_none;
  }
  if (strcmp(what, "shared.array") == 0 || strcmp(what, "local.array") == 0) {
    static const char *const kws[] = {"shape", "dtype", NULL};
    only_keywords(I, n, what, kws);
    Node *shape = arg_or_kw(n, 0, "shape");
    if (shape == NULL) compile_error(C, n->loc, "TypingError", "cuda.%s() needs a shape", what);
    int64_t v;
    if (static_int(I, shape, &v)) {
      ci->ndims = 1;
      ci->dims[0] = v;
    } else if (shape->kind == ND_Tuple && shape->elts.len >= 1 && shape->elts.len <= LM_MAXDIM) {
      ci->ndims = shape->elts.len;
      for (int i = 0; i < shape->elts.len; i++)
        if (!static_int(I, shape->elts.items[i], &ci->dims[i]))
          compile_error(C, shape->elts.items[i]->loc, "TypingError", "the shape of cuda.%s must be constant", what);
    } else {
      compile_error(C, shape->loc, "TypingError", "the shape of cuda.%s must be a constant integer or tuple", what);
    }
    for (int i = 0; i < ci->ndims; i++)
      if (ci->dims[i] <= 0 || ci->dims[i] > (1 << 24))
        compile_error(C, shape->loc, "TypingError", "bad cuda.%s dimension %lld", what, (long long)ci->dims[i]);
    ci->dt = dtype_of(I, arg_or_kw(n, 1, "dtype"), DT_FLOAT64);
    return ty_array(&C->S->types, ci->dt, ci->ndims, 'C');
  }
  if (strncmp(what, "atomic.", 7) == 0) {
    /* Numba spells them and_ / or_ (Python keywords) */
    if (strcmp(what, "atomic.and_") == 0 || strcmp(what, "atomic.or_") == 0) {
      char *w = arena_strdup(C->A, what);
      w[strlen(w) - 1] = '\0';
      ci->qname = w;
      what = w;
    }
    const char *op = what + 7;
    bool cas = strcmp(op, "cas") == 0 || strcmp(op, "compare_and_swap") == 0;
    int na = cas ? 4 : 3;
    if (!(strcmp(op, "add") == 0 || strcmp(op, "sub") == 0 || strcmp(op, "min") == 0 || strcmp(op, "max") == 0 ||
          strcmp(op, "exch") == 0 || strcmp(op, "and") == 0 || strcmp(op, "or") == 0 || strcmp(op, "xor") == 0 || cas))
      compile_error(C, n->loc, "TypingError", "unknown atomic operation cuda.atomic.%s", op);
    nargs_between(I, n, what, na, na);
    no_keywords(I, n, what);
    if (!arg_types(I, n->args.items, na, at)) return NULL;
    if (at[0]->kind != TY_ARRAY)
      compile_error(C, n->args.items[0]->loc, "TypingError", "cuda.%s needs an array, not %s", what, tyname(C, at[0]));
    int nidx = at[1]->kind == TY_TUPLE ? at[1]->nelems : 1;
    if (nidx != at[0]->ndim)
      compile_error(C, n->args.items[1]->loc, "TypingError", "cuda.%s needs %d indices for %s", what, at[0]->ndim,
                    tyname(C, at[0]));
    DType dt = at[0]->dtype;
    if (!(dt == DT_INT32 || dt == DT_INT64 || dt == DT_UINT32 || dt == DT_UINT64 || dt == DT_FLOAT32 || dt == DT_FLOAT64))
      compile_error(C, n->args.items[0]->loc, "TypingError", "cuda.%s supports int32, int64, uint32, uint64, float32 and float64 arrays, not %s", what, tyname(C, at[0]));
    if (dtype_kinds[dt] == 'f' && (strcmp(op, "and") == 0 || strcmp(op, "or") == 0 || strcmp(op, "xor") == 0))
      compile_error(C, n->loc, "TypingError", "cuda.%s needs an integer array", what);
    return ty_scalar(dt);
  }
  compile_error(C, n->loc, "TypingError", "cuda.%s is not supported", what);
}

static Type *infer_builtin(Infer *I, Node *n, const char *q) {
  Compile *C = I->C;
  Type *at[LM_MAXARGS];
  if (strncmp(q, "math.", 5) == 0) {
    const char *nm = q + 5;
    if (infer_math_fn(nm)) return infer_math(I, n, nm, false);
    compile_error(C, n->loc, "TypingError", "unknown function math.%s", nm);
  }
  if (strcmp(q, "numpy.power") == 0) {
    /* np.power(x, y) is x ** y: integers stay integers, as in NumPy */
    nargs_between(I, n, "power", 2, 2);
    no_keywords(I, n, "power");
    new_info(I, n, CALL_BUILTIN, q);
    if (!arg_types(I, n->args.items, 2, at)) return NULL;
    return infer_binop_type(I, OP_Pow, scalar_arg(I, n->args.items[0], at[0], "power"),
                            scalar_arg(I, n->args.items[1], at[1], "power"), n->loc);
  }
  if (strcmp(q, "numpy.round") == 0 || strcmp(q, "numpy.round_") == 0 || strcmp(q, "numpy.around") == 0) {
    /* np.round keeps floats floating (the builtin round() gives an int) */
    Type *t = infer_builtin(I, n, "round");
    Type *x = infer_ann(I, n->args.items[0])->ty;
    return t && x && ty_is_float(x) ? x : t;
  }
  if (strncmp(q, "numpy.", 6) == 0) {
    const char *nm = numpy_alias(q + 6);
    if (infer_math_fn(nm)) return infer_math(I, n, nm, true);
    if (strcmp(nm, "empty") == 0 || strcmp(nm, "zeros") == 0 || strcmp(nm, "ones") == 0 || strcmp(nm, "full") == 0 ||
        strcmp(nm, "empty_like") == 0 || strcmp(nm, "zeros_like") == 0 || strcmp(nm, "ones_like") == 0 ||
        strcmp(nm, "full_like") == 0)
      return infer_alloc(I, n, nm);
    if (strcmp(nm, "arange") == 0) return infer_arange(I, n);
    if (strcmp(nm, "abs") == 0 || strcmp(nm, "min") == 0 || strcmp(nm, "max") == 0 || strcmp(nm, "round") == 0)
      q = nm;  /* same as the builtins below */
    else if (strcmp(nm, "sum") == 0 || strcmp(nm, "mean") == 0 || strcmp(nm, "copy") == 0 || strcmp(nm, "prod") == 0 ||
             strcmp(nm, "transpose") == 0) {
      nargs_between(I, n, nm, 1, 1);
      no_keywords(I, n, nm);
      Type *a = infer_expr(I, n->args.items[0]);
      if (a == NULL) return NULL;
      return infer_method(I, n, n->args.items[0], a, nm, NULL, 0);
    } else
      compile_error(C, n->loc, "TypingError", "np.%s is not supported in compiled code", q + 6);
  }
  if (strcmp(q, "range") == 0 || strcmp(q, "numba.prange") == 0)
    compile_error(C, n->loc, "UnsupportedError", "range() is only supported as the iterable of a for loop");
  if (strcmp(q, "min") == 0 || strcmp(q, "max") == 0) return infer_minmax(I, n, q);
  if (strcmp(q, "len") == 0) {
    nargs_between(I, n, "len", 1, 1);
    no_keywords(I, n, "len");
    new_info(I, n, CALL_BUILTIN, q);
    if (!arg_types(I, n->args.items, 1, at)) return NULL;
    if ((at[0]->kind != TY_ARRAY && at[0]->kind != TY_TUPLE) || (at[0]->kind == TY_ARRAY && at[0]->ndim == 0))
      compile_error(C, n->args.items[0]->loc, "TypingError", "object of type %s has no len()", tyname(C, at[0]));
    return ty_int64;
  }
  if (strcmp(q, "abs") == 0 || strcmp(q, "int") == 0 || strcmp(q, "float") == 0 || strcmp(q, "bool") == 0) {
    nargs_between(I, n, q, 1, 1);
    no_keywords(I, n, q);
    new_info(I, n, CALL_BUILTIN, q);
    if (!arg_types(I, n->args.items, 1, at)) return NULL;
    scalar_arg(I, n->args.items[0], at[0], q);
    if (q[0] == 'i') return ty_int64;
    if (q[0] == 'f') return ty_float64;
    if (q[1] == 'o') return ty_bool;
    return ty_is_float(at[0]) ? at[0] : ty_arith(at[0], at[0]);
  }
  if (strcmp(q, "round") == 0) {
    nargs_between(I, n, q, 1, 2);
    no_keywords(I, n, q);
    new_info(I, n, CALL_BUILTIN, q);
    if (!arg_types(I, n->args.items, n->args.len, at)) return NULL;
    scalar_arg(I, n->args.items[0], at[0], q);
    if (n->args.len == 2) {
      if (!ty_is_int(at[1])) compile_error(C, n->args.items[1]->loc, "TypingError", "round() ndigits must be an integer");
      /* Numba types round(x, n) for floats only: an integer x converts to float64 */
      return at[0]->dtype == DT_FLOAT32 ? at[0] : ty_float64;
    }
    return ty_int64;
  }
  if (strcmp(q, "print") == 0)
    compile_error(C, n->loc, "UnsupportedError", "print() is not supported in compiled code");
  if (strncmp(q, "numba.cuda.", 11) == 0) {
    if (!C->opt.gpu)
      compile_error(C, n->loc, "UnsupportedError", "cuda.%s is only available inside cuda.jit kernels", q + 11);
    return infer_cuda_call(I, n, q + 11);
  }
  compile_error(C, n->loc, "TypingError", "unknown function '%s'", q);
}

/* place keyword arguments and defaults of a def call into positional order */
static Node **place_args(Infer *I, Node *n, Node *def, int *nout) {
  Compile *C = I->C;
  int np = def->args.len, nd = def->defaults.len;
  if (n->args.len > np)
    compile_error(C, n->loc, "TypingError", "%s() takes %d arguments but %d were given", def->name, np, n->args.len);
  Node **out = arena_alloc(C->A, sizeof(Node *) * (size_t)(np ? np : 1));
  for (int i = 0; i < n->args.len; i++) out[i] = n->args.items[i];
  for (int k = 0; k < n->keywords.len; k++) {
    Node *kw = n->keywords.items[k];
    int i = 0;
    while (i < np && strcmp(def->args.items[i]->name, kw->name) != 0) i++;
    if (i == np) compile_error(C, kw->loc, "TypingError", "%s() got an unexpected keyword argument '%s'", def->name, kw->name);
    if (out[i]) compile_error(C, kw->loc, "TypingError", "%s() got multiple values for argument '%s'", def->name, kw->name);
    out[i] = kw->value;
  }
  for (int i = 0; i < np; i++)
    if (out[i] == NULL) {
      if (i >= np - nd) out[i] = def->defaults.items[i - (np - nd)];
      else compile_error(C, n->loc, "TypingError", "%s() missing required argument '%s'", def->name, def->args.items[i]->name);
    }
  *nout = np;
  return out;
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
      no_keywords(I, n, f->name);
      return infer_method(I, n, f->value, a, f->name, n->args.items, n->args.len);
    }
    Type *t = infer_expr(I, f);
    compile_error(C, f->loc, "TypingError", "%s is not callable", t ? tyname(C, t) : "this");
  }
  switch (s.kind) {
    case SYM_BUILTIN: return infer_builtin(I, n, s.qname);
    case SYM_DTYPE: {
      const char *nm = dtype_names[s.dt];
      nargs_between(I, n, nm, 1, 1);
      no_keywords(I, n, nm);
      CallInfo *ci = new_info(I, n, CALL_CAST, nm);
      ci->dt = s.dt;
      Type *a = infer_expr(I, n->args.items[0]);
      if (a) scalar_arg(I, n->args.items[0], a, nm);
      return a ? ty_scalar(s.dt) : NULL;
    }
    case SYM_DEF: {
      int na;
      Node **args = place_args(I, n, s.def, &na);
      CallInfo *ci = new_info(I, n, CALL_DEF, s.def->name);
      ci->args = args;
      ci->nargs = na;
      Type *at[LM_MAXARGS];
      if (na > LM_MAXARGS) compile_error(C, n->loc, "UnsupportedError", "too many arguments");
      if (!arg_types(I, args, na, at)) return NULL;
      for (int i = 0; i < na; i++)
        if (at[i]->kind == TY_NONE) compile_error(C, args[i]->loc, "TypingError", "None cannot be passed to %s()", s.def->name);
      FuncSpec *callee = infer_spec(C, s.def, at, na, n->loc);
      ci->callee = callee;
      if (callee->ret == NULL && I->strict)
        compile_error(C, n->loc, "TypingError",
                      "cannot infer the return type of %s(): every return path calls it recursively", s.def->name);
      return callee->ret;
    }
    case SYM_DISPATCHER: {
      no_keywords(I, n, "a lumba function");
      CallInfo *ci = new_info(I, n, CALL_DISPATCHER, NULL);
      Type *at[LM_MAXARGS];
      if (n->args.len > LM_MAXARGS) compile_error(C, n->loc, "UnsupportedError", "too many arguments");
      if (!arg_types(I, n->args.items, n->args.len, at)) return NULL;
      ci->callee = C->hooks->callee(C, s.ref, at, n->args.len, n->loc);
      return ci->callee->ret;
    }
    case SYM_CONST:
      compile_error(C, f->loc, "TypingError", "a number is not callable");
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
  if (callee->kind != ND_Name)
    compile_error(C, e->loc, "UnsupportedError", "raise needs an exception class such as ValueError(\"message\")");
  if (e->kind == ND_Call) {
    if (e->args.len > 1 || e->keywords.len ||
        (e->args.len == 1 && !(e->args.items[0]->kind == ND_Constant && e->args.items[0]->ckind == CK_STR)))
      compile_error(C, e->loc, "UnsupportedError", "exception arguments must be one string literal");
  }
}
