/*
** infer_vectorize.c — calls of a @vectorize def of the module from
** compiled code. lumba.load (lua/lumba/vectorize.lua) puts the ufunc object
** where the def's dispatcher would be, in the module's siblings table, with
** its signatures in the field _vectorize. A call on arrays is a ufunc call
** like NumPy's rows (builtin_ufunc.c): fused into the array expression
** around it, its element the scalar kernel (the def specialised on the
** loop's types, builtin_vectorize.c); on numbers, a call of that kernel.
** The loop is NumPy's choice: the first signature every input casts to
** safely (a scalar beside arrays fits any loop of its kind or higher); a
** ufunc without signatures (_lazy) has the loops compiled so far, and
** specialises on the input types where none fits, as Numba's DUFunc.
*/
#include <string.h>

#include "builtins.h"
#include "infer.h"

static int kind_rank(DType d) {
  char k = dtype_kinds[d];
  return k == 'b' ? 0 : k == 'f' ? 2 : 1;
}

#define MAXSIGS 32

typedef struct Sigs {
  int n;                       // -1: not a @vectorize def
  bool lazy;                   // no signatures given: the loops compiled so far ("(int8, bool)": no return type)
  Type *ret[MAXSIGS];
  Type *args[MAXSIGS][LM_MAXARGS];
} Sigs;

/* the signatures of siblings[def.name]._vectorize */
static void read_sigs(Infer *I, Node *def, Sigs *s) {
  Compile *C = I->C;
  lua_State *L = C->L;
  s->n = -1;
  if (C->siblings_idx == 0) return;
  if (lua_getfield(L, C->siblings_idx, def->name) != LUA_TTABLE) {
    lua_pop(L, 1);
    return;
  }
  if (lua_getfield(L, -1, "_vectorize") != LUA_TTABLE) {
    lua_pop(L, 2);
    return;
  }
  s->n = 0;
  s->lazy = lua_getfield(L, -2, "_lazy") == LUA_TBOOLEAN && lua_toboolean(L, -1);
  lua_pop(L, 1);
  for (int i = 1; i <= MAXSIGS; i++) {
    if (lua_rawgeti(L, -1, i) != LUA_TSTRING) {
      lua_pop(L, 1);
      break;
    }
    char err[200];
    int na = ty_parse_signature(&C->S->types, lua_tostring(L, -1), &s->ret[s->n], s->args[s->n], LM_MAXARGS, err,
                                sizeof err);
    lua_pop(L, 1);
    if (na != def->args.len) continue;  /* checked where the ufunc was made */
    s->n++;
  }
  lua_pop(L, 2);
}

static l_noret no_loop(Infer *I, Node *n, Node *def, Type **at, int nin, Sigs *s) {
  Compile *C = I->C;
  char buf[400], loops[600];
  ty_args_text(at, nin, buf, sizeof buf);
  size_t k = 0;
  loops[0] = 0;
  for (int i = 0; i < s->n && k + 80 < sizeof loops; i++) {
    char a[300];
    k += (size_t)snprintf(loops + k, sizeof loops - k, "%s%s(%s)", i ? ", " : "", s->ret[i] ? tyname(C, s->ret[i]) : "",
                          ty_args_text(s->args[i], nin, a, sizeof a));
  }
  compile_error(C, n->loc, "TypingError",
                "ufunc '%s' has no loop for the input types (%s) under NumPy's safe casting (its loops: %s)",
                def->name, buf, loops);
}

bool infer_vectorize_call(Infer *I, Node *n, Node *def, Type **result) {
  Compile *C = I->C;
  Sigs s;
  read_sigs(I, def, &s);
  if (s.n < 0) return false;
  *result = NULL;
  const char *name = def->name;
  int nin = def->args.len;
  static const char *const out_kw[] = {"out", NULL};
  infer_only_keywords(I, n, name, out_kw);
  infer_nargs(I, n, name, nin, nin + 1);
  if (n->args.len > nin && n->keywords.len)
    compile_error(C, n->loc, "TypingError", "%s() got multiple values for argument 'out'", name);
  if (nin > LM_MAXARGS) compile_error(C, n->loc, "UnsupportedError", "too many arguments");
  CallInfo *ci = infer_new_info(I, n, CALL_BUILTIN, name);
  ci->bi = BI_numba_vectorize;  /* lowered by its row (builtin_vectorize.c) */
  ci->args = n->args.items;
  ci->nargs = nin;
  ci->out = infer_arg_or_kw(n, nin, "out");
  Type *at[LM_MAXARGS];
  if (!infer_arg_types(I, n->args.items, nin, at)) return true;
  int nd = -1, top = 0;
  for (int i = 0; i < nin; i++) {
    bool arr = at[i]->kind == TY_ARRAY;
    if (at[i]->kind == TY_RECORD || (arr && dtype_is_record(at[i]->dtype)))  /* ufuncs loop over numbers */
      compile_error(C, n->args.items[i]->loc, "TypingError", "ufunc '%s' takes numbers, not records (%s): pass a field",
                    name, tyname(C, at[i]));
    if (!ty_is_number(at[i]) && !arr)
      compile_error(C, n->args.items[i]->loc, "TypingError", "ufunc '%s' needs numbers or arrays, not %s", name,
                    tyname(C, at[i]));
    if (arr && at[i]->ndim > nd) nd = at[i]->ndim;
    if (arr && kind_rank(at[i]->dtype) > top) top = kind_rank(at[i]->dtype);
  }
  Type *lt[LM_MAXARGS], *want_ret = NULL;
  {
    int loop = -1;
    for (int c = 0; c < s.n && loop < 0; c++) {
      bool ok = true;
      for (int i = 0; i < nin && ok; i++) {
        bool weak = nd >= 0 && at[i]->kind == TY_SCALAR && kind_rank(at[i]->dtype) <= top;
        DType t = s.args[c][i]->dtype;
        ok = s.args[c][i]->kind == TY_SCALAR && (weak ? kind_rank(t) >= kind_rank(at[i]->dtype) : ufunc_cast_safe(at[i]->dtype, t));
      }
      if (ok) loop = c;
    }
    if (loop < 0 && !s.lazy) no_loop(I, n, def, at, nin, &s);
    for (int i = 0; i < nin; i++) lt[i] = loop < 0 ? ty_scalar(at[i]->dtype) : s.args[loop][i];  /* lazy: a new loop */
    want_ret = loop < 0 ? NULL : s.ret[loop];
  }
  FuncSpec *callee = infer_spec(C, def, lt, nin, n->loc);
  ci->callee = callee;
  if (callee->ret == NULL) {
    if (I->strict)
      compile_error(C, n->loc, "TypingError", "cannot infer the return type of %s(): every return path calls it recursively", name);
    return true;
  }
  if (!ty_is_number(callee->ret))
    compile_error(C, def->loc, "TypingError", "the @vectorize function '%s' must return a number, not %s", name,
                  tyname(C, callee->ret));
  DType od = want_ret ? want_ret->dtype : callee->ret->dtype;
  ci->dt = od;
  ci->ufunc = nd >= 0;
  Type *rt = nd >= 0 ? ty_array(&C->S->types, od, nd, 'C') : ty_scalar(od);
  *result = rt;
  if (ci->out == NULL) return true;
  Type *ot = infer_expr(I, ci->out);
  *result = NULL;
  if (ot == NULL) return true;
  if (ot->kind != TY_ARRAY)
    compile_error(C, ci->out->loc, "TypingError", "%s(): the output (out) must be an array, not %s", name, tyname(C, ot));
  if (ot->ndim < (nd < 0 ? 0 : nd))
    compile_error(C, ci->out->loc, "TypingError", "%s(): the output has %d dimensions, the inputs broadcast to %d", name,
                  ot->ndim, nd);
  if (!ufunc_cast_same_kind(od, ot->dtype))
    compile_error(C, ci->out->loc, "TypingError",
                  "%s(): cannot cast the result from %s to the output's %s with casting rule 'same_kind'", name,
                  dtype_names[od], dtype_names[ot->dtype]);
  ci->ufunc = true;
  *result = ot;
  return true;
}
