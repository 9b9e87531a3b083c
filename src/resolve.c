/*
** resolve.c — what a free name stands for: locals, defs of the same source,
** builtins and imported modules, the env table, then the caller's globals.
** Numbers found in env/globals are frozen as compile-time constants.
*/
#include <string.h>

#include <lauxlib.h>

#include "builtins.h"
#include "compile.h"
#include "devarray.h"
#include "half_rt.h"
#include "dispatch.h"
#include "frontend.h"

/* names every function sees without importing them (Numba code usually
** imports them, and the imports below map to the same qualified names):
** these modules and exceptions, and the registry's builtins (builtins.def) */
static const struct { const char *name, *qname; } global_names[] = {
    {"math", "math"}, {"cmath", "cmath"}, {"np", "numpy"},
    {"numpy", "numpy"}, {"numba", "numba"}, {"cuda", "numba.cuda"},
    {"ValueError", "ValueError"}, {"ZeroDivisionError", "ZeroDivisionError"},
    {"IndexError", "IndexError"}, {"AssertionError", "AssertionError"},
    {"RuntimeError", "RuntimeError"}, {"TypeError", "TypeError"},
    {"ArithmeticError", "ArithmeticError"}, {"Exception", "Exception"},
    {"OverflowError", "OverflowError"}, {"NotImplementedError", "NotImplementedError"},
};

/* attribute names that are modules rather than functions */
static const char *const module_qnames[] = {
    "math", "cmath", "numpy", "numba", "numba.cuda", "numba.cuda.shared", "numba.cuda.local",
    "numba.cuda.atomic", "numba.cuda.cg", "numba.cuda.const", "numba.cuda.fp16", "numba.cuda.libdevice", "numba.cuda.random", "numba.cuda.threadIdx", "numba.cuda.blockIdx",
    "numba.cuda.blockDim", "numba.cuda.gridDim", "numba.types", "numpy.linalg", "numpy.random",
    "_lumba",  /* the prelude's intrinsics (builtin_prelude.c) */
};

static bool is_module_qname(const char *q) {
  for (size_t i = 0; i < lm_countof(module_qnames); i++)
    if (strcmp(q, module_qnames[i]) == 0) return true;
  return false;
}

/* "numpy.float32", "numba.float32", "numba.types.float32", "float32" → dtype */
static int qname_dtype(const char *q) {
  const char *last = strrchr(q, '.');
  const char *base = last ? last + 1 : q;
  if (last && strncmp(q, "numpy.", 6) != 0 && strncmp(q, "numba.", 6) != 0) return -1;
  if (strcmp(base, "bool_") == 0 || strcmp(base, "boolean") == 0) return DT_BOOL;
  if (strcmp(base, "double") == 0 || strcmp(base, "float_") == 0) return DT_FLOAT64;
  if (strcmp(base, "intp") == 0 || strcmp(base, "int_") == 0) return DT_INT64;
  if (strcmp(base, "uintp") == 0) return DT_UINT64;
  for (int i = 0; i < DT__COUNT; i++)
    if (i != DT_BOOL && strcmp(base, dtype_names[i]) == 0) return i;
  return -1;
}

/* a qualified name → module, dtype, constant or builtin function */
static Sym sym_of_qname(Compile *C, const char *q) {
  Sym s = {0};
  const BuiltinName *nm = builtin_find(q);
  if (nm && builtin_of(nm)->kind == BK_CONST) {
    s.kind = SYM_CONST;
    s.cty = ty_float64;
    s.fval = builtin_of(nm)->value;
    return s;
  }
  int dt = qname_dtype(q);
  if (dt >= 0) {
    s.kind = SYM_DTYPE;
    s.dt = (DType)dt;
    return s;
  }
  s.kind = is_module_qname(q) ? SYM_MODULE : SYM_BUILTIN;
  s.qname = nm ? nm->name : arena_strdup(C->A, q);
  s.bn = nm;
  return s;
}

static void add_modname(Compile *C, const char *name, Sym sym) {
  if (C->nmodnames == C->capmodnames) {
    int cap = C->capmodnames ? 2 * C->capmodnames : 16;
    struct ModName *m = arena_alloc(C->A, sizeof *m * (size_t)cap);
    if (C->nmodnames) memcpy(m, C->modnames, sizeof *m * (size_t)C->nmodnames);
    C->modnames = m;
    C->capmodnames = cap;
  }
  C->modnames[C->nmodnames].name = name;
  C->modnames[C->nmodnames].sym = sym;
  C->nmodnames++;
}

static bool const_value(Node *v, Sym *s) {
  bool neg = false;
  if (v->kind == ND_UnaryOp && v->op == OP_USub && v->operand->kind == ND_Constant) {
    neg = true;
    v = v->operand;
  }
  if (v->kind != ND_Constant) return false;
  s->kind = SYM_CONST;
  switch (v->ckind) {
    case CK_INT: s->cty = ty_int64; s->ival = neg ? (int64_t)(0 - (uint64_t)v->ival) : v->ival; return true;
    case CK_FLOAT: s->cty = ty_float64; s->fval = neg ? -v->fval : v->fval; return true;
    case CK_BOOL: if (neg) return false; s->cty = ty_bool; s->ival = v->bval; return true;
    default: return false;
  }
}

/* a real number literal, negated or not */
static bool real_literal(const Node *v, double *x) {
  bool neg = v->kind == ND_UnaryOp && v->op == OP_USub;
  const Node *c = neg ? v->operand : v;
  if (c->kind != ND_Constant || (c->ckind != CK_INT && c->ckind != CK_FLOAT)) return false;
  *x = c->ckind == CK_FLOAT ? c->fval : (double)c->ival;
  if (neg) *x = -*x;
  return true;
}

static bool imag_literal(const Node *v, double *y) {
  bool neg = v->kind == ND_UnaryOp && v->op == OP_USub;
  const Node *c = neg ? v->operand : v;
  if (c->kind != ND_Constant || c->ckind != CK_IMAG) return false;
  *y = neg ? -c->fval : c->fval;
  return true;
}

bool compile_complex_literal(const Node *v, double *re, double *im) {
  *re = *im = 0;
  if (imag_literal(v, im)) {
    if (v->kind == ND_UnaryOp) *re = -0.0;  /* -2j is -(0+2j), as in Python */
    return true;
  }
  if (v->kind != ND_BinOp || (v->op != OP_Add && v->op != OP_Sub)) return false;
  if (!real_literal(v->left, re) || !imag_literal(v->right, im)) return false;
  if (v->op == OP_Sub) *im = -*im;
  return true;
}

/* a module name as the module names so far have it (an import alias, np, numpy); NULL if none */
static const char *module_of(Compile *C, const char *name) {
  for (int i = C->nmodnames - 1; i >= 0; i--)
    if (strcmp(C->modnames[i].name, name) == 0) return C->modnames[i].sym.kind == SYM_MODULE ? C->modnames[i].sym.qname : NULL;
  for (size_t i = 0; i < lm_countof(global_names); i++)
    if (strcmp(global_names[i].name, name) == 0) return global_names[i].qname;
  return NULL;
}

/* a module-level name frozen before (a record dtype inside np.dtype([...])) */
static bool frozen_name(Compile *C, Node *v) {
  for (int i = C->nmodnames - 1; v->kind == ND_Name && i >= 0; i--)
    if (strcmp(C->modnames[i].name, v->name) == 0) return C->modnames[i].sym.kind == SYM_FROZEN;
  return false;
}

/* a literal a frozen value may hold: numbers, dtype names and np.float32 & co, tuples and lists of them */
static bool frozen_literal(Compile *C, Node *v) {
  Sym s;
  double re, im;
  if (const_value(v, &s) || compile_complex_literal(v, &re, &im)) return true;
  if (v->kind == ND_Constant) return v->ckind == CK_STR || v->ckind == CK_NONE;
  if (v->kind == ND_Tuple || v->kind == ND_List) {
    for (int i = 0; i < v->elts.len; i++)
      if (!frozen_literal(C, v->elts.items[i])) return false;
    return true;
  }
  if (v->kind == ND_Attribute && v->value->kind == ND_Name) {
    const char *m = module_of(C, v->value->name);
    return m && (strcmp(m, "numpy") == 0 || strcmp(m, "numba") == 0) && qname_dtype(v->name) >= 0;
  }
  return false;
}

/* The module-level values Numba freezes and lumba computes in each
** function that uses them: tuples of numbers, and np.array/asarray/zeros/
** ones/empty/full/arange/linspace/eye/identity of literals. Anything else
** at module level is not run. */
static bool frozen_form(Compile *C, Node *v) {
  if (v->kind == ND_Tuple) return frozen_literal(C, v);
  if (v->kind != ND_Call || v->func->kind != ND_Attribute || v->func->value->kind != ND_Name) return false;
  const char *m = module_of(C, v->func->value->name);
  if (m == NULL || strcmp(m, "numpy") != 0) return false;
  char q[256];
  snprintf(q, sizeof q, "numpy.%s", v->func->name);
  const BuiltinName *nm = builtin_find(q);
  static const BuiltinId forms[] = {BI_numpy_array, BI_numpy_asarray, BI_numpy_zeros, BI_numpy_ones, BI_numpy_empty,
                                    BI_numpy_full, BI_numpy_arange, BI_numpy_linspace, BI_numpy_eye, BI_numpy_identity,
                                    BI_numpy_dtype};  /* np.dtype([...]): a record dtype */
  bool ok = false;
  for (size_t i = 0; nm && i < lm_countof(forms); i++) ok = ok || nm->id == forms[i];
  if (ok && nm->id == BI_numpy_dtype && v->args.len == 1 && v->args.items[0]->kind == ND_List) {
    Node *l = v->args.items[0];  /* [('p', pt), ...]: a field may be a record frozen before */
    for (int i = 0; ok && i < l->elts.len; i++) {
      Node *f = l->elts.items[i];
      ok = f->kind == ND_Tuple && f->elts.len == 2 && frozen_literal(C, f->elts.items[0]) &&
           (frozen_literal(C, f->elts.items[1]) || frozen_name(C, f->elts.items[1]));
    }
    for (int i = 0; ok && i < v->keywords.len; i++) ok = frozen_literal(C, v->keywords.items[i]->value);
    return ok;
  }
  for (int i = 0; ok && i < v->args.len; i++) ok = frozen_literal(C, v->args.items[i]);
  for (int i = 0; ok && i < v->keywords.len; i++) ok = frozen_literal(C, v->keywords.items[i]->value);
  return ok;
}

/* imports become aliases; module-level `NAME = number` becomes a constant,
** `NAME = np.array([...])` or a tuple a frozen value (frozen_form) */
void compile_collect_module_names(Compile *C) {
  NodeList *body = &C->module->body;
  for (int i = 0; i < body->len; i++) {
    Node *st = body->items[i];
    if (st->kind == ND_Import) {
      for (int j = 0; j < st->names.len; j++) {
        Node *al = st->names.items[j];
        if (al->asname) {
          add_modname(C, al->asname, sym_of_qname(C, al->name));
        } else {  /* `import numba.np` binds `numba`, as in Python */
          const char *dot = strchr(al->name, '.');
          const char *top = dot ? arena_strndup(C->A, al->name, (size_t)(dot - al->name)) : al->name;
          add_modname(C, top, sym_of_qname(C, top));
        }
      }
    } else if (st->kind == ND_ImportFrom) {
      for (int j = 0; j < st->names.len; j++) {
        Node *al = st->names.items[j];
        const char *mod = st->name ? st->name : "";
        char q[256];
        if (strcmp(mod, "numba.cuda") == 0 || strcmp(mod, "numba.core") == 0) mod = strcmp(mod, "numba.cuda") == 0 ? "numba.cuda" : "numba";
        snprintf(q, sizeof q, "%s.%s", mod, al->name);
        /* from numba import njit/jit: decorators, harmless; from math import sqrt */
        add_modname(C, al->asname ? al->asname : al->name, sym_of_qname(C, q));
      }
    } else if (st->kind == ND_Assign && st->targets.len == 1 && st->targets.items[0]->kind == ND_Name) {
      Sym s = {0};
      if (const_value(st->value, &s)) {
        add_modname(C, st->targets.items[0]->name, s);
      } else if (frozen_form(C, st->value)) {
        s.kind = SYM_FROZEN;
        s.def = st->value;
        add_modname(C, st->targets.items[0]->name, s);
      }
    }
  }
}

static Node *module_def(Node *module, const char *name) {
  for (int i = 0; i < module->body.len; i++) {
    Node *st = module->body.items[i];
    if (st->kind == ND_FunctionDef && strcmp(st->name, name) == 0) return st;
  }
  return NULL;
}

Node *compile_find_def(Compile *C, const char *name) {
  NodeList *body = &C->module->body;
  for (int i = 0; i < body->len; i++) {
    Node *st = body->items[i];
    if (st->kind == ND_FunctionDef && strcmp(st->name, name) == 0) {
      if (st->sval) {  /* a plain Python helper lumba could not parse: its error now */
        lua_pushstring(C->L, st->sval);
        lua_error(C->L);
      }
      return st;
    }
  }
  return NULL;
}

/* parse a device function's source into this compilation and find its def */
static Node *import_device_def(Compile *C, int disp_idx, const char *name) {
  lua_State *L = C->L;
  const void *key = lua_touserdata(L, disp_idx);
  for (int i = 0; i < C->nimports; i++)
    if (C->imports[i].disp == key) return C->imports[i].def;
  lua_getiuservalue(L, disp_idx, DISP_UV_CHUNK);
  lua_getiuservalue(L, disp_idx, DISP_UV_SOURCE);
  Node *mod = frontend_load(L, C->A, -1, lua_tostring(L, -2));  /* its own chunk and text */
  lua_pop(L, 2);
  for (int i = 0; i < mod->body.len; i++) {
    Node *st = mod->body.items[i];
    if (st->kind == ND_FunctionDef && strcmp(st->name, name) == 0) {
      if (C->nimports == C->capimports) {
        int cap = C->capimports ? 2 * C->capimports : 4;
        struct Import *im = arena_alloc(C->A, sizeof *im * (size_t)cap);
        if (C->nimports) memcpy(im, C->imports, sizeof *im * (size_t)C->nimports);
        C->imports = im;
        C->capimports = cap;
      }
      C->imports[C->nimports].disp = key;
      C->imports[C->nimports++].def = st;
      return st;
    }
  }
  luaL_error(L, "device function '%s' not found in its source", name);
  return NULL;
}

/* ---- Lua arrays frozen into kernels ---- */


static Node *frozen_leaf(Compile *C, const NdArray *a, const char *p, Loc loc) {
  Node *c = ast_new(C->A, ND_Constant, loc);
  DType dt = a->dtype;
  int64_t iv = 0;
  switch (dt) {
    case DT_BOOL: c->ckind = CK_BOOL; c->bval = *(const uint8_t *)p != 0; c->ival = c->bval; return c;
    case DT_FLOAT32: c->ckind = CK_FLOAT; c->fval = *(const float *)p; return c;
    case DT_FLOAT64: c->ckind = CK_FLOAT; c->fval = *(const double *)p; return c;
    case DT_FLOAT16: c->ckind = CK_FLOAT; c->fval = lm_h2d(*(const uint16_t *)p); return c;  /* exact in double */
    case DT_COMPLEX64: case DT_COMPLEX128: {  /* re + imj */
      bool single = dt == DT_COMPLEX64;
      c->ckind = CK_FLOAT;
      c->fval = single ? ((const float *)p)[0] : ((const double *)p)[0];
      Node *im = ast_new(C->A, ND_Constant, loc);
      im->ckind = CK_IMAG;
      im->fval = single ? ((const float *)p)[1] : ((const double *)p)[1];
      Node *sum = ast_new(C->A, ND_BinOp, loc);
      sum->op = OP_Add;
      sum->left = c;
      sum->right = im;
      return sum;
    }
    case DT_INT8: iv = *(const int8_t *)p; break;
    case DT_INT16: iv = *(const int16_t *)p; break;
    case DT_INT32: iv = *(const int32_t *)p; break;
    case DT_UINT8: iv = *(const uint8_t *)p; break;
    case DT_UINT16: iv = *(const uint16_t *)p; break;
    case DT_UINT32: iv = *(const uint32_t *)p; break;
    default: memcpy(&iv, p, 8); break;  /* int64, uint64 (its bits) */
  }
  c->ckind = CK_INT;
  c->ival = iv;
  return c;
}

/* the nested list literal of axis k of a from p */
static Node *frozen_list(Compile *C, const NdArray *a, int k, const char *p, Loc loc) {
  if (k == a->ndim) return frozen_leaf(C, a, p, loc);
  Node *l = ast_new(C->A, ND_List, loc);
  for (int64_t i = 0; i < a->s.shape[k]; i++)
    ast_list_push(C->A, &l->elts, frozen_list(C, a, k + 1, p + i * a->s.strides[k], loc));
  return l;
}

/* An ndarray a kernel uses as a global (in env, the caller's locals or
** globals), frozen as numba-cuda freezes global arrays: its values become
** the kernel's constant array (constant memory on the GPU), written as the
** module-level `np.array([...], dtype=np.<dtype>)` lumba already freezes. */
static bool frozen_lua_array(Compile *C, const NdArray *a, const char *name, Loc loc, Sym *s) {
  DType dt = a->dtype;
  if (dtype_is_record(dt) || a->ndim == 0)
    compile_error(C, loc, "TypingError", "'%s' is a Lua array of %s: a kernel freezes only arrays of 1 or more "
                  "dimensions of numbers or booleans (pass it as an argument)", name,
                  a->ndim == 0 ? "0 dimensions" : dtype_names[dt]);
  int64_t bytes = a->s.nitems * dtype_sizes[dt];
  if (bytes > FROZEN_MAX_BYTES)
    compile_error(C, loc, "TypingError", "'%s' is a Lua array of %lld bytes: a kernel freezes the arrays it uses as "
                  "globals into its 64 KiB of constant memory (pass it as an argument)", name, (long long)bytes);
  if (a->s.nitems == 0)
    compile_error(C, loc, "TypingError", "'%s' is an empty Lua array: a kernel cannot freeze it (pass it as an argument)", name);
  if (C->opt.cache)
    compile_error(C, loc, "TypingError", "'%s' is a Lua array: a kernel with cache=true cannot freeze it (its values are not "
                  "part of the cache's key; pass it as an argument)", name);
  Node *np = ast_new(C->A, ND_Name, loc);
  np->name = "numpy";
  Node *f = ast_new(C->A, ND_Attribute, loc);
  f->value = np;
  const Builtin *arr = &builtin_entries[BI_numpy_array];  /* np.array(values, dtype=np.<dt>) */
  f->name = arr->member;
  Node *call = ast_new(C->A, ND_Call, loc);
  call->func = f;
  ast_list_push(C->A, &call->args, frozen_list(C, a, 0, a->s.data, loc));
  Node *dtn = ast_new(C->A, ND_Attribute, loc);
  dtn->value = np;
  dtn->name = dt == DT_BOOL ? "bool_" : dtype_names[dt];  /* np.bool_: NumPy 1's spelling, which lumba knows */
  Node *kw = ast_new(C->A, ND_keyword, loc);
  kw->name = arr->keywords[1];
  kw->value = dtn;
  ast_list_push(C->A, &call->keywords, kw);
  s->kind = SYM_FROZEN;
  s->def = call;
  return true;
}

/* A device array a kernel uses as a global (at the top of the stack), as
** numba-cuda does: its address, shape and strides become constants of the
** kernel, which reads and writes the array itself (not a copy). The
** dispatcher keeps the array alive (registry table lumba.kernel_globals,
** weak in its dispatchers). */
static bool device_global(Compile *C, const DevArray *dv, const char *name, Loc loc, Sym *s) {
  lua_State *L = C->L;
  if (dv->buf == NULL) compile_error(C, loc, "TypingError", "'%s' is a freed device array", name);
  if (C->opt.cache)
    compile_error(C, loc, "TypingError", "'%s' is a device array: a kernel with cache=true cannot use it as a global "
                  "(its address is not part of the cache's key; pass it as an argument)", name);
  DevGlobal *g = arena_alloc(C->A, sizeof *g);
  memset(g, 0, sizeof *g);
  g->ptr = (uint64_t)dv->data;
  g->dtype = dv->dtype;
  g->ndim = dv->ndim;
  for (int k = 0; k < dv->ndim; k++) g->shape[k] = dv->shape[k], g->strides[k] = dv->strides[k];
  g->layout = devarray_layout(dv->ndim, dv->shape, dv->strides, dtype_sizes[dv->dtype]);
  if (C->disp_idx) {
    int v = lua_absindex(L, -1);
    if (lua_getfield(L, LUA_REGISTRYINDEX, "lumba.kernel_globals") != LUA_TTABLE) {
      lua_pop(L, 1);
      lua_newtable(L);
      lua_newtable(L);
      lua_pushliteral(L, "k");
      lua_setfield(L, -2, "__mode");
      lua_setmetatable(L, -2);
      lua_pushvalue(L, -1);
      lua_setfield(L, LUA_REGISTRYINDEX, "lumba.kernel_globals");
    }
    lua_pushvalue(L, C->disp_idx);
    if (lua_rawget(L, -2) != LUA_TTABLE) {
      lua_pop(L, 1);
      lua_newtable(L);
      lua_pushvalue(L, C->disp_idx);
      lua_pushvalue(L, -2);
      lua_rawset(L, -4);
    }
    lua_pushvalue(L, v);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
    lua_pop(L, 2);
  }
  s->kind = SYM_DEVARRAY;
  s->dev = g;
  return true;
}

/* a Lua value (at the top of the stack) as a frozen symbol; pops it */
static bool sym_from_lua(Compile *C, Sym *s, const char *name, Loc loc) {
  lua_State *L = C->L;
  bool ok = true;
  const NdArray *arr;
  const DevArray *dv;
  if (C->opt.gpu && (dv = UDATA_TEST(L, -1, DevArray, DEVARRAY_MT, DEVARRAY_TAG)) != NULL) {
    ok = device_global(C, dv, name, loc, s);
  } else if (C->opt.gpu && (arr = array_test(L, -1)) != NULL) {
    ok = frozen_lua_array(C, arr, name, loc, s);
  } else if (lua_isinteger(L, -1)) {
    s->kind = SYM_CONST; s->cty = ty_int64; s->ival = lua_tointeger(L, -1);
  } else if (lua_type(L, -1) == LUA_TNUMBER) {
    s->kind = SYM_CONST; s->cty = ty_float64; s->fval = lua_tonumber(L, -1);
  } else if (lua_isboolean(L, -1)) {
    s->kind = SYM_CONST; s->cty = ty_bool; s->ival = lua_toboolean(L, -1);
  } else if (dispatch_test(L, -1) && C->opt.gpu) {
    /* a cuda.jit device function: its def joins this kernel's module */
    Dispatcher *d = lua_touserdata(L, -1);
    if (!d->opt.gpu) {
      lua_pop(L, 1);
      return false;
    }
    Node *def = import_device_def(C, lua_gettop(L), d->name);
    s->kind = SYM_DEF;
    s->def = def;
  } else if (dispatch_test(L, -1)) {
    s->kind = SYM_DISPATCHER;
    lua_pushvalue(L, -1);
    s->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    compile_note_ref(C, s->ref);
  } else {
    ok = false;
  }
  lua_pop(L, 1);
  return ok;
}

/* ---- calls between the functions of one lumba.load module ---- */

/* every Name under n: the defs of the module it names, into out */
static void names_in(Node *n, int (*index_of)(Compile *, const char *), Compile *C, int *out, int *nout, int cap) {
  if (n == NULL) return;
  if (n->kind == ND_Name && n->name) {
    int j = index_of(C, n->name);
    if (j >= 0 && *nout < cap) out[(*nout)++] = j;
  }
  Node *kids[] = {n->value, n->target, n->test, n->iter, n->left, n->right, n->operand, n->func, n->slice,
                  n->lower, n->upper, n->step, n->msg, n->exc, n->body_e, n->orelse_e};
  for (size_t i = 0; i < lm_countof(kids); i++) names_in(kids[i], index_of, C, out, nout, cap);
  NodeList *lists[] = {&n->body, &n->orelse, &n->targets, &n->args, &n->defaults, &n->keywords, &n->elts};
  for (size_t i = 0; i < lm_countof(lists); i++)
    for (int k = 0; k < lists[i]->len; k++) names_in(lists[i]->items[k], index_of, C, out, nout, cap);
}

/* the module's defs by name: an open-addressing table of body indices (C->def_table) */
static unsigned name_hash(const char *s) {
  unsigned h = 2166136261u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}
static int def_index(Compile *C, const char *name) {
  NodeList *body = &C->module->body;
  for (unsigned h = name_hash(name) & (unsigned)(C->def_cap - 1);; h = (h + 1) & (unsigned)(C->def_cap - 1)) {
    int i = C->def_table[h];
    if (i < 0) return -1;
    if (strcmp(body->items[i]->name, name) == 0) return i;
  }
}

/* C->reaches_root[i]: the module's i-th statement is a def that may call
** the def being compiled, through any chain of calls (any Name naming a
** def counts: an over-estimate only inlines more) */
static void find_reaches_root(Compile *C) {
  NodeList *body = &C->module->body;
  int n = body->len;
  C->def_cap = 16;
  while (C->def_cap < 2 * n) C->def_cap *= 2;
  C->def_table = arena_alloc(C->A, sizeof(int) * (size_t)C->def_cap);
  for (int i = 0; i < C->def_cap; i++) C->def_table[i] = -1;
  int root = -1;
  for (int i = 0; i < n; i++) {
    Node *st = body->items[i];
    if (st->kind != ND_FunctionDef) continue;
    if (st == C->root) root = i;
    if (def_index(C, st->name) >= 0) continue;  /* the first def of a name is the one resolve finds */
    unsigned h = name_hash(st->name) & (unsigned)(C->def_cap - 1);
    while (C->def_table[h] >= 0) h = (h + 1) & (unsigned)(C->def_cap - 1);
    C->def_table[h] = i;
  }
  /* reverse edges: callers[j] lists the defs naming def j */
  int *start = arena_alloc(C->A, sizeof(int) * (size_t)(n + 1));
  int cap = 1024, nedges = 0;
  int *from = arena_alloc(C->A, sizeof(int) * (size_t)cap), *to = arena_alloc(C->A, sizeof(int) * (size_t)cap);
  for (int i = 0; i < n; i++) {
    Node *st = body->items[i];
    if (st->kind != ND_FunctionDef) continue;
    int buf[4096], nb = 0;
    for (int k = 0; k < st->body.len; k++) names_in(st->body.items[k], def_index, C, buf, &nb, (int)lm_countof(buf));
    if (nb == (int)lm_countof(buf)) buf[nb - 1] = root;  /* too many names to track: assume it reaches root */
    for (int k = 0; k < nb; k++) {
      if (nedges == cap) {
        int *f2 = arena_alloc(C->A, sizeof(int) * (size_t)cap * 2), *t2 = arena_alloc(C->A, sizeof(int) * (size_t)cap * 2);
        memcpy(f2, from, sizeof(int) * (size_t)cap);
        memcpy(t2, to, sizeof(int) * (size_t)cap);
        from = f2, to = t2, cap *= 2;
      }
      from[nedges] = i, to[nedges] = buf[k], nedges++;
    }
  }
  memset(start, 0, sizeof(int) * (size_t)(n + 1));
  for (int e = 0; e < nedges; e++) start[to[e] + 1]++;
  for (int j = 0; j < n; j++) start[j + 1] += start[j];
  int *callers = arena_alloc(C->A, sizeof(int) * (size_t)(nedges ? nedges : 1));
  int *fill = arena_alloc(C->A, sizeof(int) * (size_t)(n + 1));
  memcpy(fill, start, sizeof(int) * (size_t)(n + 1));
  for (int e = 0; e < nedges; e++) callers[fill[to[e]]++] = from[e];
  bool *seen = arena_alloc(C->A, sizeof(bool) * (size_t)(n ? n : 1));
  memset(seen, 0, sizeof(bool) * (size_t)(n ? n : 1));
  int *stack = fill, sp = 0;  /* each def is pushed at most once */
  if (root >= 0) seen[root] = true, stack[sp++] = root;
  while (sp > 0) {
    int j = stack[--sp];
    for (int e = start[j]; e < start[j + 1]; e++)
      if (!seen[callers[e]]) seen[callers[e]] = true, stack[sp++] = callers[e];
  }
  C->reaches_root = seen;
}

static bool same_options(const Options *a, const Options *b) {
  return a->boundscheck == b->boundscheck && a->error_model_numpy == b->error_model_numpy &&
         a->error_model_set == b->error_model_set && a->fastmath == b->fastmath && a->parallel == b->parallel &&
         a->cache == b->cache && a->gpu == b->gpu && a->device == b->device && a->lua == b->lua;
}

/* A def of the module that lumba.load made a dispatcher of, with the same
** options, which cannot call back the def being compiled: called as that
** dispatcher, whose code is compiled once (and inlined from its optimised
** IR where it pays), instead of lowered again into every caller's module. */
static bool sibling_dispatcher(Compile *C, Node *def, const char *name, Sym *s) {
  lua_State *L = C->L;
  if (C->siblings_idx == 0 || C->root == NULL || def == C->root || C->opt.gpu) return false;
  /* each callee compiled for its caller nests a compilation on the C stack:
  ** deeper than this, the rest of a chain is compiled into this module */
  if (C->S->compiling > 32) return false;
  if (C->reaches_root == NULL) find_reaches_root(C);
  NodeList *body = &C->module->body;
  int i = def_index(C, name);
  if (i < 0 || body->items[i] != def || C->reaches_root[i]) return false;
  lua_getfield(L, C->siblings_idx, name);
  Dispatcher *d = dispatch_test(L, -1) ? lua_touserdata(L, -1) : NULL;
  if (d == NULL || d->name == NULL || d->eager || d->objmode || !same_options(&d->opt, &C->opt)) {
    lua_pop(L, 1);
    return false;
  }
  s->kind = SYM_DISPATCHER;
  s->def = def;  /* a call with keywords or defaults binds as a def (infer_call.c) */
  s->ref = luaL_ref(L, LUA_REGISTRYINDEX);
  compile_note_ref(C, s->ref);
  return true;
}

Sym resolve_name(Compile *C, FuncSpec *spec, const char *name, Loc loc) {
  Sym s = {0};
  int slot = spec ? spec_local(spec, name) : -1;
  if (slot >= 0) {
    s.kind = SYM_LOCAL;
    s.slot = slot;
    return s;
  }
  /* the prelude's defs see its defs, _lumba and the builtins: never the user's names */
  bool prelude = spec && compile_in_prelude(C, spec->def);
  Node *def = prelude ? module_def(C->prelude, name) : compile_find_def(C, name);
  if (spec && compile_sees_lumba(C, spec->def) && def == NULL && strcmp(name, "_lumba") == 0) return sym_of_qname(C, name);
  if (def && !prelude && sibling_dispatcher(C, def, name, &s)) return s;
  if (def) {
    s.kind = SYM_DEF;
    s.def = def;
    return s;
  }
  if (!prelude && C->siblings_idx) {  /* a @jitclass of the module (lumba.load: lua/lumba/jitclass.lua) */
    lua_getfield(C->L, C->siblings_idx, name);
    ClassInfo *cls = luaL_testudata(C->L, -1, "lumba.jitclass");
    lua_pop(C->L, 1);
    if (cls) {
      s.kind = SYM_CLASS;
      s.cls = cls;
      return s;
    }
  }
  for (int i = prelude ? -1 : C->nmodnames - 1; i >= 0; i--)
    if (strcmp(C->modnames[i].name, name) == 0) return C->modnames[i].sym;
  const BuiltinName *bn = builtin_find(name);
  if (bn) return sym_of_qname(C, builtin_of(bn)->name);
  for (size_t i = 0; i < lm_countof(global_names); i++)
    if (strcmp(global_names[i].name, name) == 0) return sym_of_qname(C, global_names[i].qname);
  int where[2] = {C->env_idx, C->globals_idx};
  for (int k = prelude ? 2 : 0; k < 2; k++) {
    if (where[k] == 0) continue;
    lua_getfield(C->L, where[k], name);
    if (!lua_isnil(C->L, -1)) {
      const char *tn = luaL_typename(C->L, -1);
      if (sym_from_lua(C, &s, name, loc)) {
        C->hooks->note_value(C, name, &s);  /* a frozen value is part of the cache key */
        if (s.kind == SYM_DISPATCHER) C->hooks->note_dispatcher(C, name, &s);
        return s;
      }
      compile_error(C, loc, "TypingError",
                    "'%s' refers to a Lua %s, which compiled code cannot use (numbers and lumba functions can be used)",
                    name, tn);
    }
    lua_pop(C->L, 1);
  }
  if (!prelude) C->hooks->note_absent(C, name);  /* the index checks it stays absent (cachefile.h) */
  int dt = qname_dtype(name);
  if (dt >= 0) {
    s.kind = SYM_DTYPE;
    s.dt = (DType)dt;
    return s;
  }
  /* why the caller's locals could not be seen (lua/lumba/init.lua: caller_locals) */
  const char *hint = NULL;
  if (!prelude && C->env_idx) {
    lua_getfield(C->L, C->env_idx, "lumba.hint");
    hint = lua_tostring(C->L, -1);
  }
  if (hint) compile_error(C, loc, "NameError", "name '%s' is not defined (%s)", name, hint);
  compile_error(C, loc, "NameError", "name '%s' is not defined", name);
}

/* Names and attribute chains that denote compile-time things (modules,
** functions, dtypes, constants); SYM_NONE for runtime values. */
Sym resolve_static(Compile *C, FuncSpec *spec, Node *n) {
  Sym none = {0};
  if (n->kind == ND_Name) {
    Sym s = resolve_name(C, spec, n->name, n->loc);
    return s.kind == SYM_LOCAL ? none : s;
  }
  if (n->kind == ND_Attribute) {
    Sym base = resolve_static(C, spec, n->value);
    if (base.kind != SYM_MODULE) return none;
    char q[256];
    snprintf(q, sizeof q, "%s.%s", base.qname, n->name);
    return sym_of_qname(C, q);
  }
  return none;
}
