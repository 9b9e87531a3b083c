/*
** builtin_prelude.c — NumPy functions written in Python: the prelude
** (src/prelude/NAME.py, embedded by the Makefile as prelude_text) is parsed
** into a compilation at the first call of one of its defs; a PYFUNC or
** PYMETHOD row of builtins.def names the def that implements it, and its
** call is typed as a call of a def of the same source (infer_spec) and
** lowered as one (CALL_DEF). While it is typed, errors in the prelude's
** text are reported at the user's call (compile_error). Also the _lumba
** intrinsics, for what plain Python cannot say for every ndim: they are
** visible in the prelude only (resolve.c).
*/
#include <string.h>

#include "builtin_hooks.h"
#include "frontend.h"
#include "infer.h"
#include "lower_arrayexpr.h"


static Node *prelude_module(Compile *C) {
  if (C->prelude) return C->prelude;
  Source src = {"=lumba.prelude", prelude_text, strlen(prelude_text)};
  C->prelude = parse_source(C->L, C->A, &src, false);  /* copies src into the arena */
  return C->prelude;
}

/* the row's def, its keywords checked against the def's parameters */
static Node *prelude_def(Compile *C, const Builtin *b, Loc at) {
  Node *m = prelude_module(C);
  for (int i = 0; i < m->body.len; i++) {
    Node *d = m->body.items[i];
    if (d->kind != ND_FunctionDef || strcmp(d->name, b->impl) != 0) continue;
    for (int k = 0; b->keywords && b->keywords[k]; k++) {
      int j = 0;
      while (j < d->args.len && strcmp(d->args.items[j]->name, b->keywords[k]) != 0) j++;
      if (j == d->args.len)
        compile_error(C, at, "InternalError", "builtins.def: %s's keyword '%s' is no parameter of the prelude's %s()",
                      b->name, b->keywords[k], b->impl);
    }
    return d;
  }
  compile_error(C, at, "InternalError", "builtins.def: the prelude has no def %s() for %s", b->impl, b->name);
}

/* "np.cumsum", "ndarray.cumsum": the name errors show (a ".prelude" row's without its suffix) */
static const char *user_name(Compile *C, const Builtin *b) {
  char buf[128];
  const char *mod = b->kind == BK_METHOD ? "ndarray." : strncmp(b->name, "numpy.", 6) == 0 ? "np." : "";
  const char *mem = mod[0] == 'n' && mod[1] == 'p' ? b->name + 6 : b->member;  /* np.linalg.inv: its submodule too */
  const char *dot = strstr(mem, ".prelude");
  int len = dot ? (int)(dot - mem) : (int)strlen(mem);
  snprintf(buf, sizeof buf, "%s%.*s", mod, len, mem);
  return arena_strdup(C->A, buf);
}

/* a literal integer (negated too) */
static bool literal_int(Node *n, int64_t *v) {
  bool neg = n->kind == ND_UnaryOp && n->op == OP_USub;
  Node *c = neg ? n->operand : n;
  if (c->kind != ND_Constant || c->ckind != CK_INT) return false;
  *v = neg ? (int64_t)(0 - (uint64_t)c->ival) : c->ival;
  return true;
}

/* a constant axis out of range is a compile-time error, as in Numba, with NumPy's text */
static void check_axis(Infer *I, Node *def, Node **args, Type **at, int na, const char *fname) {
  for (int i = 1; i < na; i++) {
    int64_t v;
    if (strcmp(def->args.items[i]->name, "axis") != 0 || at[0]->kind != TY_ARRAY) continue;
    if (!literal_int(args[i], &v) && !infer_static_int(I, args[i], &v)) continue;
    int nd = at[0]->ndim;
    if (v < -nd || v >= nd)
      compile_error(I->C, args[i]->loc, "AxisError", "%s(): axis %lld is out of bounds for array of dimension %d",
                    fname, (long long)v, nd);
  }
}

/* Parameters that take one of a few strings (Numba wants a literal): the
** string becomes its index here, an int the def compares (side == 1) */
static const char *const str_params[][5] = {
  {"side", "left", "right", NULL},
  {"kind", "quicksort", "mergesort", "heapsort", "stable"},
  {"mode", "full", "same", "valid", NULL},
};

/* np.linalg.norm's ord (cond's p) 'fro' or 'nuc': a number no other ord is, which the
** prelude's _norm_matrix compares with (a float, as ord's others may be) */
static void norm_order(Compile *C, Node **arg, const char *fname) {
  Node *a = *arg;
  if (!(a->kind == ND_Constant && a->ckind == CK_STR)) return;
  bool fro = strcmp(a->sval, "fro") == 0;
  if (!fro && strcmp(a->sval, "nuc") != 0)
    compile_error(C, a->loc, "ValueError", "%s(): invalid norm order '%s'", fname, a->sval);
  Node *c = arena_alloc(C->A, sizeof(Node));
  *c = *a;
  c->id = C->A->nnodes++;
  c->ckind = CK_FLOAT;
  c->fval = fro ? 7.25e307 : 7.5e307;
  *arg = c;
}

/* np.linalg.svd's compute_uv, a literal (it picks the result's type): True
** arrives as None (the def's default), which `compute_uv is None` prunes by */
static void literal_flag(Compile *C, Node **arg, const char *fname) {
  Node *a = *arg;
  if (a->kind == ND_Constant && a->ckind == CK_NONE) return;  /* the default */
  if (!(a->kind == ND_Constant && (a->ckind == CK_BOOL || a->ckind == CK_INT)))
    compile_error(C, a->loc, "TypingError", "%s(): compute_uv must be a literal True or False", fname);
  if (!(a->ckind == CK_BOOL ? a->bval : a->ival != 0)) return;
  Node *c = arena_alloc(C->A, sizeof(Node));
  *c = *a;
  c->id = C->A->nnodes++;
  c->ckind = CK_NONE;
  *arg = c;
}

static void string_args(Compile *C, Node *def, Node **args, int na, const char *fname) {
  for (int i = 0; i < na; i++) {
    if (strcmp(def->args.items[i]->name, "ord") == 0 || (strcmp(def->name, "np_linalg_cond") == 0 && i == 1))
      norm_order(C, &args[i], fname);
    if (strcmp(def->args.items[i]->name, "compute_uv") == 0) literal_flag(C, &args[i], fname);
    const char *const *ch = NULL;
    for (size_t k = 0; k < sizeof str_params / sizeof str_params[0]; k++)
      if (strcmp(def->args.items[i]->name, str_params[k][0]) == 0) ch = str_params[k];
    if (ch == NULL) continue;
    Node *a = args[i];
    if (!(a->kind == ND_Constant && a->ckind == CK_STR))
      compile_error(C, a->loc, "TypingError", "%s(): %s must be a string literal", fname, ch[0]);
    int j = 1;
    while (j < 5 && ch[j] && strcmp(ch[j], a->sval) != 0) j++;
    if (j == 5 || ch[j] == NULL) {
      char list[128] = "";
      for (int k = 1; k < 5 && ch[k]; k++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s'%s'", k > 1 ? ", " : "", ch[k]);
      compile_error(C, a->loc, "ValueError", "%s(): %s must be one of %s, not '%s'", fname, ch[0], list, a->sval);
    }
    Node *c = arena_alloc(C->A, sizeof(Node));  /* a new node: ast_new's steps (it is core.so's) */
    *c = *a;
    c->id = C->A->nnodes++;
    c->ckind = CK_INT;
    c->ival = j - 1;
    args[i] = c;
  }
}

/* the call n of row b with positional arguments pos: a call of b's def */
static Type *call_prelude(Infer *I, Node *n, const Builtin *b, Node **pos, int npos, CallInfo *ci) {
  Compile *C = I->C;
  const char *fname = user_name(C, b);
  Node *def = prelude_def(C, b, n->loc);
  infer_only_keywords(I, n, fname, b->keywords);
  int self = b->kind == BK_METHOD, hi = b->hi < 0 ? LM_MAXARGS : b->hi + self;
  /* too few: infer_place_args names the missing parameter */
  if (npos > hi)
    compile_error(C, n->loc, "TypingError", "%s() takes at most %d positional argument%s (%d given)", fname, hi - self,
                  hi - self == 1 ? "" : "s", npos - self);
  int na;
  Node **args = infer_place_args(I, n, def, fname, pos, npos, &na);
  if (na > LM_MAXARGS) compile_error(C, n->loc, "UnsupportedError", "too many arguments");
  string_args(C, def, args, na, fname);
  ci->kind = CALL_DEF;
  ci->qname = def->name;
  ci->args = args;
  ci->nargs = na;
  Type *at[LM_MAXARGS];
  if (!infer_arg_types(I, args, na, at)) return NULL;
  infer_check_none_args(I, def, fname, args, at, na);
  check_axis(I, def, args, at, na, fname);
  /* the user's call, unless the prelude calls itself: its errors are shown there */
  Loc call = C->prelude_call;
  const char *outer = C->prelude_fname;
  if (!compile_in_prelude(C, I->spec->def)) {
    C->prelude_call = n->loc;
    C->prelude_fname = fname;
  }
  FuncSpec *callee = infer_spec(C, def, at, na, n->loc);
  C->prelude_call = call;
  C->prelude_fname = outer;
  ci->callee = callee;
  if (callee->ret == NULL && I->strict)
    compile_error(C, n->loc, "TypingError", "cannot infer the return type of %s()", fname);
  return callee->ret;
}

Type *bprelude_infer(Infer *I, Node *n, const BuiltinName *nm) {
  CallInfo *ci = infer_new_info(I, n, CALL_DEF, NULL);
  return call_prelude(I, n, builtin_of(nm), n->args.items, n->args.len, ci);
}

/* a.cumsum(axis=0): the array is the def's first argument */
Type *bprelude_infer_method(Infer *I, Node *n, CallInfo *ci, Type *a) {
  (void)a;
  Node **pos = arena_alloc(I->C->A, sizeof(Node *) * (size_t)(ci->nargs + 1));
  pos[0] = ci->recv;
  for (int i = 0; i < ci->nargs; i++) pos[i + 1] = ci->args[i];
  return call_prelude(I, n, &builtin_entries[ci->bi], pos, ci->nargs + 1, ci);
}

/* ---- the intrinsics (docs/internals.md, "The NumPy prelude") ---- */

static Type *array_arg(Infer *I, Node *n, Type *t, const char *fname) {
  if (t->kind != TY_ARRAY)
    compile_error(I->C, n->loc, "TypingError", "_lumba.%s() needs an array, not %s", fname, tyname(I->C, t));
  return t;
}

static void int_arg(Infer *I, Node *n, Type *t, const char *fname) {
  if (!ty_is_int(t) && !ty_is_bool(t))
    compile_error(I->C, n->loc, "TypingError", "_lumba.%s() needs an integer, not %s", fname, tyname(I->C, t));
}

/* the dtype of a new array made from one of dtype dt by NumPy's rule: "same",
** "sum" (sum, prod, cumsum: small integers widen to 64 bits), "mean" (integers give float64);
** for np.linalg "real" (a complex dtype's real type, as Numba's underlying_float) and "wide"
** (complex128 for complex dtypes, else float64: slogdet's sign) */
static DType rule_dtype(Infer *I, Node *rule, DType dt) {
  Type *t = ty_scalar(dt);
  const char *r = rule->kind == ND_Constant && rule->ckind == CK_STR ? rule->sval : "";
  if (strcmp(r, "same") == 0) return dt;
  if (strcmp(r, "sum") == 0) return ty_is_float(t) ? dt : ty_is_int(t) && !ty_is_signed(t) ? DT_UINT64 : DT_INT64;
  if (strcmp(r, "mean") == 0) return ty_is_float(t) ? dt : DT_FLOAT64;
  if (strcmp(r, "real") == 0) return dt == DT_COMPLEX64 ? DT_FLOAT32 : dt == DT_COMPLEX128 ? DT_FLOAT64 : dt;
  if (strcmp(r, "wide") == 0) return dt == DT_COMPLEX64 || dt == DT_COMPLEX128 ? DT_COMPLEX128 : DT_FLOAT64;
  compile_error(I->C, rule->loc, "TypingError",
                "_lumba.empty(): the dtype rule must be \"same\", \"sum\", \"mean\", \"real\" or \"wide\"");
}

/* the dtype empty()'s second argument names: an array's, a scalar's, or NumPy's
** promotion of a tuple of them (the argument is typed, never evaluated) */
static DType like_dtype(Infer *I, Node *n, Type *t) {
  if (t->kind == TY_ARRAY || ty_is_number(t)) return t->dtype;
  if (t->kind != TY_TUPLE || t->nelems == 0)
    compile_error(I->C, n->loc, "TypingError", "_lumba.empty() needs an array, a number or a tuple of them, not %s",
                  tyname(I->C, t));
  Type *acc = t->elems[0];
  for (int i = 0; i < t->nelems; i++) {
    Type *e = t->elems[i];
    if (e->kind != TY_ARRAY && !ty_is_number(e))
      compile_error(I->C, n->loc, "TypingError", "_lumba.empty() cannot take a dtype from %s", tyname(I->C, e));
    if (i == 0) continue;
    DType d = infer_arrayexpr_common(acc, e);
    acc = acc->kind == TY_ARRAY || e->kind == TY_ARRAY ? ty_array(&I->C->S->types, d, 1, 'C') : ty_scalar(d);
  }
  return acc->dtype;
}

Type *bprelude_infer_intrinsic(Infer *I, Node *n, const BuiltinName *nm) {
  Compile *C = I->C;
  const Builtin *b = builtin_of(nm);
  builtin_infer_checked(I, n, nm);
  Node **args = n->args.items;
  Type *at[3];
  int typed = nm->id == BI__lumba_empty ? 2 : n->args.len;  /* empty's rule is a string literal */
  if (!infer_arg_types(I, args, typed, at)) return NULL;
  switch (nm->id) {
    case BI__lumba_dim:  /* dim(a, k): a.shape[k], k a runtime value in 0..ndim-1 */
      array_arg(I, args[0], at[0], b->member);
      int_arg(I, args[1], at[1], b->member);
      return ty_int64;
    case BI__lumba_flat:  /* flat(a, i): the element of C-order index i, any ndim, any strides */
      array_arg(I, args[0], at[0], b->member);
      int_arg(I, args[1], at[1], b->member);
      return ty_scalar(at[0]->dtype);
    case BI__lumba_flat_set:  /* flat_set(a, i, v): stores v (converted) there */
      array_arg(I, args[0], at[0], b->member);
      int_arg(I, args[1], at[1], b->member);
      infer_scalar_arg(I, args[2], at[2], "_lumba.flat_set");
      return &ty_none;
    case BI__lumba_ndim:  /* ndim(x): x.ndim, 0 for a scalar or None; a compile-time int (infer.c's static_int) */
      if (at[0]->kind != TY_ARRAY && at[0]->kind != TY_NONE) infer_scalar_arg(I, args[0], at[0], "_lumba.ndim");
      return ty_int64;
    case BI__lumba_overlaps:  /* overlaps(a, b): the two arrays' memory extents meet (generated @stencil code) */
      array_arg(I, args[0], at[0], b->member);
      array_arg(I, args[1], at[1], b->member);
      return ty_bool;
    case BI__lumba_shape_drop: {  /* shape_drop(a, k): a.shape without axis k */
      array_arg(I, args[0], at[0], b->member);
      int_arg(I, args[1], at[1], b->member);
      if (at[0]->ndim == 0) compile_error(C, args[0]->loc, "TypingError", "_lumba.shape_drop() of a 0-d array");
      Type *el[LM_MAXDIM];
      for (int i = 0; i < at[0]->ndim - 1; i++) el[i] = ty_int64;
      return ty_tuple(&C->S->types, el, at[0]->ndim - 1);
    }
    case BI__lumba_empty: {  /* empty(shape, a, rule): a new C array, its dtype a's by the rule */
      Type *sh = at[0];
      bool ok = ty_is_int(sh) || (sh->kind == TY_TUPLE && sh->nelems <= LM_MAXDIM);
      for (int i = 0; ok && sh->kind == TY_TUPLE && i < sh->nelems; i++) ok = ty_is_int(sh->elems[i]);
      if (!ok) compile_error(C, args[0]->loc, "TypingError", "_lumba.empty() needs a shape, not %s", tyname(C, sh));
      int nd = sh->kind == TY_TUPLE ? sh->nelems : 1;
      return ty_array(&C->S->types, rule_dtype(I, args[2], like_dtype(I, args[1], at[1])), nd, 'C');
    }
    default: LM_UNREACHABLE();
  }
}

/* a.shape[k] or a.strides[k] for a runtime k: the array's fields spilled to memory */
static LLVMValueRef dim_at(Lower *L, Val a, LLVMValueRef k, bool stride) {
  int nd = a.ty->ndim;
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx), at = LLVMArrayType(i64, (unsigned)(nd ? nd : 1));
  LLVMValueRef mem = lower_entry_alloca(L, at, stride ? "strides" : "dims");
  for (int d = 0; d < nd; d++) {
    LLVMValueRef ix[2] = {lower_i32(L, 0), lower_i32(L, d)};
    LLVMValueRef v = stride ? lower_arr_stride(L, a.v, d) : lower_arr_shape(L, a.v, d);
    LLVMBuildStore(L->b, v, LLVMBuildInBoundsGEP2(L->b, at, mem, ix, 2, ""));
  }
  LLVMValueRef ix[2] = {lower_i64(L, 0), k};
  return LLVMBuildLoad2(L->b, i64, LLVMBuildInBoundsGEP2(L->b, at, mem, ix, 2, ""), "");
}

/* the address of a's element of C-order index i (0 <= i < a.size) */
static LLVMValueRef flat_ptr(Lower *L, Val a, LLVMValueRef i) {
  LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx), et = lower_mem_type(L, a.ty->dtype);
  if (a.ty->layout == 'C') {  /* contiguous: the flat index is the offset */
    LLVMValueRef base = LLVMBuildBitCast(L->b, lower_arr_data(L, a.v), LLVMPointerType(et, 0), "");
    return LLVMBuildGEP2(L->b, et, base, &i, 1, "");
  }
  LLVMValueRef off = lower_i64(L, 0), rem = i;
  for (int d = a.ty->ndim - 1; d >= 0; d--) {
    LLVMValueRef n = lower_arr_shape(L, a.v, d), idx = rem;
    if (d > 0) {
      idx = LLVMBuildURem(L->b, rem, n, "");
      rem = LLVMBuildUDiv(L->b, rem, n, "");
    }
    off = LLVMBuildAdd(L->b, off, LLVMBuildMul(L->b, idx, lower_arr_stride(L, a.v, d), ""), "");
  }
  LLVMValueRef base = LLVMBuildBitCast(L->b, lower_arr_data(L, a.v), LLVMPointerType(i8, 0), "");
  LLVMValueRef p = LLVMBuildGEP2(L->b, i8, base, &off, 1, "");
  return LLVMBuildBitCast(L->b, p, LLVMPointerType(et, 0), "");
}

static LLVMValueRef int_val(Lower *L, CallInfo *ci, int i) { return lower_cast(L, lower_arg(L, ci, i), ty_int64).v; }

Val bprelude_lower_intrinsic(Lower *L, Node *n, CallInfo *ci) {
  Type *rt = lower_ann(L, n)->ty;
  switch (ci->bi) {
    case BI__lumba_dim: {
      Val a = lower_arg(L, ci, 0);
      Val r = {ty_int64, dim_at(L, a, int_val(L, ci, 1), false), false};
      lower_release(L, a);
      return r;
    }
    case BI__lumba_flat: {
      Val a = lower_arg(L, ci, 0);
      Val r = {rt, lower_load_elem(L, a.ty->dtype, flat_ptr(L, a, int_val(L, ci, 1))), false};
      lower_release(L, a);
      return r;
    }
    case BI__lumba_flat_set: {
      Val a = lower_arg(L, ci, 0);
      LLVMValueRef p = flat_ptr(L, a, int_val(L, ci, 1));
      lower_store_elem(L, a.ty->dtype, p, lower_cast(L, lower_arg(L, ci, 2), ty_scalar(a.ty->dtype)).v);
      lower_release(L, a);
      return (Val){&ty_none, LLVMConstInt(LLVMInt8TypeInContext(L->ctx), 0, 0), false};
    }
    case BI__lumba_ndim: {  /* known at compile time; x is not evaluated */
      Type *x = lower_ann(L, ci->args[0])->ty;
      return (Val){ty_int64, lower_i64(L, x->kind == TY_ARRAY ? x->ndim : 0), false};
    }
    case BI__lumba_overlaps: {
      Val a = lower_arg(L, ci, 0), b = lower_arg(L, ci, 1);
      Val r = {ty_bool, ax_extents_meet(L, a, b), false};
      lower_release(L, a);
      lower_release(L, b);
      return r;
    }
    case BI__lumba_shape_drop: {
      Val a = lower_arg(L, ci, 0);
      LLVMValueRef k = int_val(L, ci, 1), t = LLVMGetUndef(lower_type(L, rt));
      for (int j = 0; j < rt->nelems; j++) {
        LLVMValueRef before = LLVMBuildICmp(L->b, LLVMIntSLT, lower_i64(L, j), k, "");
        LLVMValueRef v = LLVMBuildSelect(L->b, before, lower_arr_shape(L, a.v, j), lower_arr_shape(L, a.v, j + 1), "");
        t = LLVMBuildInsertValue(L->b, t, v, (unsigned)j, "");
      }
      lower_release(L, a);
      return (Val){rt, t, false};
    }
    case BI__lumba_empty: {
      Val sh = lower_arg(L, ci, 0);
      LLVMValueRef dims[LM_MAXDIM];
      if (sh.ty->kind == TY_TUPLE) {
        for (int d = 0; d < sh.ty->nelems; d++)
          dims[d] = lower_cast(L, (Val){sh.ty->elems[d], LLVMBuildExtractValue(L->b, sh.v, (unsigned)d, ""), false},
                               ty_int64).v;
      } else {
        dims[0] = lower_cast(L, sh, ty_int64).v;
      }
      return lower_alloc(L, rt, dims);
    }
    default: LM_UNREACHABLE();
  }
}
