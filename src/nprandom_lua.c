/*
** nprandom_lua.c — lumba.core._nprand, the object mode's door to the
** runtime compiled code calls (nprandom_rt.h), so that both draw the same
** numbers from the same per-thread state (lua/lumba/objmode_random.lua
** binds the arguments as builtin_nprandom.c does).
**   nprand(name, shape, d1, d2, d3, i1, i2, i3): name one of
**   NPRAND_FUNCS in lower case ("normal", "randint"); shape nil for one
**   number, else a table of dimensions for a new float64 or int64 array;
**   the float and integer parameters in the runtime's order.
**   nprand("shuffle", a): a shuffled in place along its first axis.
**   nprand("choice_p", shape, p, pop), nprand("choice_noreplace", shape,
**   nil, nil, nil, pop): the indices np.random.choice draws.
**   nprand("multinomial", shape, pvals, n), nprand("dirichlet", shape,
**   alpha): rows of shape + (len(vector),).
*/
#include <ctype.h>
#include <string.h>

#include <lauxlib.h>

#include "array.h"
#include "nprandom_rt.h"

static const char *const names[] = {
#define NPRAND_NAME(name, nd, ni, isint) #name,
    NPRAND_FUNCS(NPRAND_NAME)
#undef NPRAND_NAME
};
static const bool int_results[] = {
#define NPRAND_ISINT(name, nd, ni, isint) isint,
    NPRAND_FUNCS(NPRAND_ISINT)
#undef NPRAND_ISINT
};

static int fn_of(lua_State *L, const char *s) {
  for (int i = 0; i < NPRAND__COUNT; i++) {
    const char *n = names[i];
    size_t k = 0;
    while (n[k] && s[k] && tolower((unsigned char)n[k]) == s[k]) k++;
    if (n[k] == 0 && s[k] == 0) return i;
  }
  return luaL_error(L, "lumba.core._nprand: no function %s", s);
}

/* NumPy's message, without a position (the object mode adds the Python one) */
static int raise(lua_State *L, const LmErr *err) {
  lua_pushfstring(L, "%s: %s", err->kind == LMERR_MEMORY ? "MemoryError" : "ValueError", err->msg ? err->msg : "");
  return lua_error(L);
}

static int nprand(lua_State *L) {
  int fn = fn_of(L, luaL_checkstring(L, 1));
  LmErr err = {0};
  if (fn == NPRAND_SHUFFLE) {
    NdArray *a = array_check(L, 2);
    if (a->ndim < 1) return luaL_error(L, "TypeError: np.random.shuffle() needs an array of at least one dimension");
    if (a->ndim > 1 && !(a->flags & ARR_C_CONTIG))
      return luaL_error(L, "TypeError: np.random.shuffle() shuffles non-contiguous arrays of one dimension only");
    int64_t item = a->s.itemsize;
    for (int k = 1; k < a->ndim; k++) item *= a->s.shape[k];
    int64_t ip[3] = {a->s.shape[0], a->s.strides[0], item};
    if (lm_nprand(&err, fn, NULL, ip, a->s.data, 0)) return raise(L, &err);
    return 0;
  }
  if (fn == NPRAND_MULTINOMIAL || fn == NPRAND_DIRICHLET) {  /* (name, shape of the rows, vector, n) */
    NdArray *v = array_check(L, 3);
    if (v->dtype != DT_FLOAT64 || v->ndim != 1 || !(v->flags & ARR_C_CONTIG))
      return luaL_error(L, "TypeError: np.random.%s(): %s must be a contiguous 1-D float64 array",
                        fn == NPRAND_MULTINOMIAL ? "multinomial" : "dirichlet", fn == NPRAND_MULTINOMIAL ? "pvals" : "alpha");
    int64_t k = v->s.shape[0];
    int64_t ip2[2] = {fn == NPRAND_MULTINOMIAL ? (int64_t)luaL_checkinteger(L, 4) : k, k};
    int64_t shape[LM_MAXDIM];
    int nd = lua_istable(L, 2) ? (int)lua_rawlen(L, 2) : 0;
    if (nd + 1 > LM_MAXDIM) return luaL_error(L, "ValueError: arrays have at most %d dimensions", LM_MAXDIM);
    int64_t rows = 1;
    for (int i = 0; i < nd; i++) {
      lua_rawgeti(L, 2, i + 1);
      shape[i] = (int64_t)luaL_checkinteger(L, -1);
      lua_pop(L, 1);
      if (shape[i] < 0) return luaL_error(L, "ValueError: negative dimensions are not allowed");
      rows *= shape[i];
    }
    shape[nd] = k;
    NdArray *a = array_push_new(L, fn == NPRAND_MULTINOMIAL ? DT_INT64 : DT_FLOAT64, nd + 1, shape);
    if (lm_nprand(&err, fn, v->s.data, ip2, a->s.data, rows)) return raise(L, &err);
    return 1;
  }
  double dp[3];
  int64_t ip[3];
  for (int k = 0; k < 3; k++) {
    dp[k] = fn == NPRAND_CHOICE_P ? 0 : luaL_optnumber(L, 3 + k, 0);  /* choice_p: p at 3 */
    ip[k] = luaL_optinteger(L, 6 + k, 0);
  }
  const double *dps = dp;
  if (fn == NPRAND_CHOICE_P) {
    NdArray *p = array_check(L, 3);
    if (p->dtype != DT_FLOAT64 || p->ndim != 1 || !(p->flags & ARR_C_CONTIG))
      return luaL_error(L, "TypeError: np.random.choice(): p must be a contiguous 1-D float64 array");
    if (p->s.shape[0] != ip[0]) return luaL_error(L, "ValueError: 'a' and 'p' must have same size");
    dps = p->s.data;
  }
  DType dt = int_results[fn] ? DT_INT64 : DT_FLOAT64;
  if (lua_isnoneornil(L, 2)) {
    union { double d; int64_t i; } v;
    if (lm_nprand(&err, fn, dps, ip, &v, 1)) return raise(L, &err);
    if (dt == DT_INT64) lua_pushinteger(L, (lua_Integer)v.i);
    else lua_pushnumber(L, v.d);
    return 1;
  }
  luaL_checktype(L, 2, LUA_TTABLE);
  int ndim = (int)lua_rawlen(L, 2);
  if (ndim > LM_MAXDIM) return luaL_error(L, "ValueError: arrays have at most %d dimensions", LM_MAXDIM);
  int64_t shape[LM_MAXDIM];
  for (int k = 0; k < ndim; k++) {
    lua_rawgeti(L, 2, k + 1);
    shape[k] = (int64_t)luaL_checkinteger(L, -1);
    lua_pop(L, 1);
    if (shape[k] < 0) return luaL_error(L, "ValueError: negative dimensions are not allowed");
  }
  NdArray *a = array_push_new(L, dt, ndim, shape);
  if (lm_nprand(&err, fn, dps, ip, a->s.data, a->s.nitems)) return raise(L, &err);
  return 1;
}

void nprandom_open(lua_State *L) {
  lua_pushcfunction(L, nprand);
  lua_setfield(L, -2, "_nprand");
}
