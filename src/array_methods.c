/*
** array_methods.c — the methods of lumba.ndarray: get, set, totable,
** copy, reshape, astype, fill, sum, min, max, transpose, slice, the
** contiguity tests and data_ptr.
**
** Indices from Lua are 1-based, one per dimension; a negative index counts
** from the end as in string.sub (-1 is the last element, Python's a[-1]);
** 0 and anything beyond the axis raise
** "index 6 out of bounds for axis 1 with size 5" (axes numbered from 1).
*/
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "half_rt.h"
#include "array.h"
#include "array_impl.h"
#include "complex_lua.h"

/* The element named by the integer arguments first .. first+ndim-1. */
static char *elem_ptr(lua_State *L, NdArray *a, int first, int nidx, const char *fname) {
  if (nidx != a->ndim)
    luaL_error(L, "wrong number of indices to '%s' (%d expected, got %d)", fname, a->ndim, nidx);
  char *p = a->s.data;
  for (int k = 0; k < a->ndim; k++) {
    lua_Integer i = luaL_checkinteger(L, first + k);
    p += array_norm_index(L, i, a->s.shape[k], k + 1, first + k) * a->s.strides[k];
  }
  return p;
}

/* a:get(i, j, ...) -> element */
static int array_lua_get(lua_State *L) {
  NdArray *a = array_check(L, 1);
  array_push_elem(L, a->dtype, elem_ptr(L, a, 2, lua_gettop(L) - 1, "get"));
  return 1;
}

/* a:set(i, j, ..., v) */
static int array_lua_set(lua_State *L) {
  NdArray *a = array_checkw(L, 1, true);
  int top = lua_gettop(L);
  if (top < 2) luaL_error(L, "wrong number of arguments to 'set' (indices and a value expected)");
  char *p = elem_ptr(L, a, 2, top - 2, "set");
  array_store_elem(L, a->dtype, p, top, top);
  return 0;
}

static void push_table(lua_State *L, const NdArray *a, int depth, const char *p) {
  if (depth == a->ndim) {
    array_push_elem(L, a->dtype, p);
    return;
  }
  int64_t n = a->s.shape[depth];
  lua_createtable(L, n > INT32_MAX ? 0 : (int)n, 0);
  for (int64_t i = 0; i < n; i++, p += a->s.strides[depth]) {
    push_table(L, a, depth + 1, p);
    lua_rawseti(L, -2, i + 1);
  }
}

/* a:totable() -> nested tables (the scalar itself for a 0-d array) */
static int array_lua_totable(lua_State *L) {
  NdArray *a = array_check(L, 1);
  luaL_checkstack(L, a->ndim + 2, NULL);
  push_table(L, a, 0, a->s.data);
  return 1;
}

/* a:copy([order]): order 'C' (default), 'F', or 'A' (F when a is
** Fortran- but not C-contiguous) */
static int array_lua_copy(lua_State *L) {
  NdArray *a = array_check(L, 1);
  const char *o = luaL_optstring(L, 2, "C");
  char order;
  if (strcmp(o, "C") == 0 || strcmp(o, "F") == 0) order = o[0];
  else if (strcmp(o, "A") == 0)
    order = (a->flags & ARR_F_CONTIG) && !(a->flags & ARR_C_CONTIG) ? 'F' : 'C';
  else return luaL_argerror(L, 2, lua_pushfstring(L, "order must be 'C', 'F' or 'A', got '%s'", o));
  NdArray *c = array_new(L, a->dtype, a->ndim, a->s.shape, order, 0);
  array_assign(L, c, a);
  return 1;
}

/* a:astype(dtype): a C-contiguous copy with casts (array_elem.c) */
static int array_lua_astype(lua_State *L) {
  NdArray *a = array_check(L, 1);
  luaL_checkany(L, 2);
  DType dt = dtype_check(L, 2, a->dtype);
  NdArray *c = array_new(L, dt, a->ndim, a->s.shape, 'C', 0);
  array_assign(L, c, a);
  return 1;
}

/* a:fill(v): every element; returns a */
static int array_lua_fill(lua_State *L) {
  NdArray *a = array_checkw(L, 1, true);
  luaL_checkany(L, 2);
  array_fill_value(L, a, 2, 2);
  lua_settop(L, 1);
  return 1;
}

/* Strides of a C-order reshape that keeps a's memory, NumPy's
** attempt_nocopy: group old and new axes whose products agree; each old
** group must be contiguous in itself. Axes of length 1 are ignored. */
static bool reshape_strides(const NdArray *a, int nd, const int64_t *ns, int64_t *nst) {
  if (a->s.nitems == 0) {
    int64_t sd = a->s.itemsize;
    for (int k = nd - 1; k >= 0; k--) {
      nst[k] = sd;
      sd *= ns[k] ? ns[k] : 1;
    }
    return true;
  }
  int od = 0;
  int64_t os[LM_MAXDIM], ost[LM_MAXDIM];
  for (int k = 0; k < a->ndim; k++)
    if (a->s.shape[k] != 1) {
      os[od] = a->s.shape[k];
      ost[od++] = a->s.strides[k];
    }
  int oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < nd && oi < od) {
    int64_t np = ns[ni], op = os[oi];
    while (np != op) {
      if (np < op) np *= ns[nj++];
      else op *= os[oj++];
    }
    for (int ok = oi; ok < oj - 1; ok++)
      if (ost[ok] != os[ok + 1] * ost[ok + 1]) return false;
    nst[nj - 1] = ost[oj - 1];
    for (int nk = nj - 1; nk > ni; nk--) nst[nk - 1] = nst[nk] * ns[nk];
    ni = nj++;
    oi = oj++;
  }
  int64_t last = ni > 0 ? nst[ni - 1] : a->s.itemsize;
  for (int nk = ni; nk < nd; nk++) nst[nk] = last;
  return true;
}

/* a:reshape(d1, d2, ...) or a:reshape({d1, d2, ...}); one dimension may be
** -1 (inferred). A view when the memory allows it, else a copy. */
static int array_lua_reshape(lua_State *L) {
  NdArray *a = array_check(L, 1);
  int64_t ns[LM_MAXDIM];
  int nd;
  if (lua_type(L, 2) == LUA_TTABLE) {
    nd = array_read_shape(L, 2, ns, 2);
  } else {
    nd = lua_gettop(L) - 1;
    if (nd > LM_MAXDIM)
      return luaL_error(L, "too many dimensions: %d (at most %d)", nd, LM_MAXDIM);
    for (int k = 0; k < nd; k++) ns[k] = luaL_checkinteger(L, k + 2);
  }
  int unknown = -1;
  int64_t known = 1;
  for (int k = 0; k < nd; k++) {
    if (ns[k] == -1) {
      if (unknown >= 0) return luaL_error(L, "can only specify one unknown dimension");
      unknown = k;
    } else if (ns[k] < 0) {
      return luaL_error(L, "negative dimensions are not allowed");
    } else if (__builtin_mul_overflow(known, ns[k], &known)) {
      known = -1;  /* cannot match any size */
      break;
    }
  }
  int64_t size = a->s.nitems;
  bool ok = known >= 0;
  if (ok && unknown >= 0) {
    ok = known > 0 && size % known == 0;
    if (ok) ns[unknown] = size / known;
  } else if (ok) {
    ok = known == size;
  }
  if (!ok) {
    array_push_shape(L, nd, ns);
    return luaL_error(L, "cannot reshape array of size %I into shape %s", (lua_Integer)size,
                      lua_tostring(L, -1));
  }
  array_check_size(L, a->dtype, nd, ns, 0);  /* {0, 2^62}: size 0, strides too big */
  int64_t nst[LM_MAXDIM];
  if (reshape_strides(a, nd, ns, nst)) {
    array_push_view(L, a, nd, ns, nst, a->s.data);
  } else {
    NdArray *c = array_new(L, a->dtype, nd, ns, 'C', 0);
    array_assign(L, c, a);
  }
  return 1;
}

/* a:transpose([perm]) or a.T: a view with the axes reversed, or permuted
** as perm says (1-based, a table or varargs: a:transpose(2, 1, 3)) */
/* the permutation of a:transpose / d:transpose from the arguments at 2.. */
void array_parse_perm(lua_State *L, int ndim, int perm[LM_MAXDIM]) {
  int n = 0;
  if (lua_isnoneornil(L, 2)) {
    for (int k = 0; k < ndim; k++) perm[k] = ndim - 1 - k;
    return;
  }
  bool tbl = lua_type(L, 2) == LUA_TTABLE;
  n = tbl ? (int)luaL_len(L, 2) : lua_gettop(L) - 1;
  bool seen[LM_MAXDIM] = {false};
  bool good = n == ndim;
  for (int k = 0; good && k < n; k++) {
    lua_Integer ax;
    if (tbl) {
      lua_rawgeti(L, 2, k + 1);
      int isint;
      ax = lua_tointegerx(L, -1, &isint);
      lua_pop(L, 1);
      if (!isint) ax = 0;
    } else {
      ax = luaL_checkinteger(L, k + 2);
    }
    good = ax >= 1 && ax <= ndim && !seen[ax - 1];
    if (good) seen[ax - 1] = true, perm[k] = (int)ax - 1;
  }
  if (!good) luaL_argerror(L, 2, lua_pushfstring(L, "axes must be a permutation of 1..%d", ndim));
}

static int array_lua_transpose(lua_State *L) {
  NdArray *a = array_check(L, 1);
  int perm[LM_MAXDIM];
  array_parse_perm(L, a->ndim, perm);
  int64_t sh[LM_MAXDIM], st[LM_MAXDIM];
  for (int k = 0; k < a->ndim; k++) {
    sh[k] = a->s.shape[perm[k]];
    st[k] = a->s.strides[perm[k]];
  }
  array_push_view(L, a, a->ndim, sh, st, a->s.data);
  return 1;
}

/* slice bound at t[field] (1-based, negative from the end) as a 0-based
** index, possibly outside 0..n-1; *isnil when absent */
static int64_t slice_bound(lua_State *L, int t, int field, int64_t n, int axis, int argn,
                           bool *isnil) {
  int ok = lua_rawgeti(L, t, field);
  *isnil = ok == LUA_TNIL;
  if (*isnil) {
    lua_pop(L, 1);
    return 0;
  }
  lua_Integer i = ok == LUA_TNUMBER ? lua_tointegerx(L, -1, &ok) : (ok = 0);
  if (!ok)
    luaL_argerror(L, argn, lua_pushfstring(L, "slice bounds must be integers, got %s",
                                           luaL_typename(L, -1)));
  if (i == 0)
    luaL_argerror(L, argn, lua_pushfstring(L,
      "slice bound 0 on axis %d: indices start at 1 and -1 is the last", axis));
  lua_pop(L, 1);
  return i > 0 ? i - 1 : n + i;
}

/* a:slice(s1, s2, ...) -> view. One selector per leading axis; axes after
** the last selector are kept whole. A selector is
**   i                    element i of the axis (1-based, negative from the
**                        end); the axis is dropped
**   {start, stop, step}  elements start, start+step, ... up to stop
**                        INCLUDED, 1-based like string.sub and numeric for:
**                        {2, 5} is 2, 3, 4, 5. start/stop may be nil (the
**                        axis ends: first..last, or last..first when step
**                        < 0) or negative (from the end, -1 is the last);
**                        bounds beyond the axis are clipped, as in Python;
**                        step defaults to 1, may be negative ({-1, 1, -1}
**                        or {nil, nil, -1} reverses), never 0
**   {} or ":" or nil     the whole axis
** The view shares a's memory and keeps it alive. */
int array_parse_slice(lua_State *L, int ndim, const int64_t *shape, const int64_t *strides, int64_t *offset,
                      int64_t sh[LM_MAXDIM], int64_t st[LM_MAXDIM]) {
  int nsel = lua_gettop(L) - 1;
  if (nsel > ndim)
    return luaL_error(L, "too many indices for array: array is %d-dimensional, but %d were indexed", ndim, nsel);
  int nd = 0;
  int64_t off = 0;
  for (int k = 0; k < ndim; k++) {
    int argn = k + 2;
    int64_t n = shape[k], stride = strides[k];
    int t = k < nsel ? lua_type(L, argn) : LUA_TNIL;
    if (t == LUA_TNUMBER) {
      int ok;
      lua_Integer i = lua_tointegerx(L, argn, &ok);
      if (!ok) luaL_argerror(L, argn, "number has no integer representation");
      off += array_norm_index(L, i, n, k + 1, argn) * stride;
      continue;
    }
    if (t == LUA_TNIL || (t == LUA_TSTRING && strcmp(lua_tostring(L, argn), ":") == 0)) {
      sh[nd] = n;
      st[nd++] = stride;
      continue;
    }
    if (t != LUA_TTABLE)
      luaL_typeerror(L, argn, "integer, table or ':'");
    lua_Integer step = 1;
    if (lua_rawgeti(L, argn, 3) != LUA_TNIL) {
      int ok;
      step = lua_tointegerx(L, -1, &ok);
      if (!ok) luaL_argerror(L, argn, "slice step must be an integer");
      if (step == 0) luaL_argerror(L, argn, "slice step cannot be zero");
    }
    lua_pop(L, 1);
    bool nostart, nostop;
    int64_t start = slice_bound(L, argn, 1, n, k + 1, argn, &nostart);
    int64_t stop = slice_bound(L, argn, 2, n, k + 1, argn, &nostop);
    int64_t first, count;
    if (step > 0) {
      int64_t lo = nostart ? 0 : start < 0 ? 0 : start;
      int64_t hi = nostop ? n - 1 : stop > n - 1 ? n - 1 : stop;
      count = hi >= lo ? (hi - lo) / step + 1 : 0;
      first = lo;
    } else {
      int64_t hi = nostart ? n - 1 : start > n - 1 ? n - 1 : start;
      int64_t lo = nostop ? 0 : stop < 0 ? 0 : stop;
      int64_t back = step < -INT64_MAX ? INT64_MAX : -step;
      count = hi >= lo ? (hi - lo) / back + 1 : 0;
      first = hi;
    }
    if (count > 0) off += first * stride;
    sh[nd] = count;
    st[nd++] = count > 1 ? stride * step : stride;
  }
  *offset = off;
  return nd;
}

static int array_lua_slice(lua_State *L) {
  NdArray *a = array_check(L, 1);
  int64_t sh[LM_MAXDIM], st[LM_MAXDIM], off;
  int nd = array_parse_slice(L, a->ndim, a->s.shape, a->s.strides, &off, sh, st);
  array_push_view(L, a, nd, sh, st, (char *)a->s.data + off);
  return 1;
}

/* ---- reductions ---- */

/* a:sum(): float dtypes sum in double (a Lua float; float16's rounded to
** float16); integer dtypes in
** int64 with wrap-around, as NumPy (uint64 by its bits); bool counts */
static int array_lua_sum(lua_State *L) {
  NdArray *a = array_check(L, 1);
  ArrayIter it;
  array_iter_init(&it, a);
  if (dtype_kinds[a->dtype] == 'c') {  /* a lumba.complex, both parts in double */
    double re = 0, im = 0;
    for (char *p; (p = array_iter_next(&it)) != NULL;) {
      Num v = array_load(a->dtype, p);
      re += v.f;
      im += v.im;
    }
    complex_push(L, re, im);
  } else if (dtype_kinds[a->dtype] == 'f') {
    double s = 0;
    for (char *p; (p = array_iter_next(&it)) != NULL;) s += array_load(a->dtype, p).f;
    if (a->dtype == DT_FLOAT16) s = lm_h2d(lm_d2h(s));  /* a float16 value, as NumPy's (double would hold more) */
    lua_pushnumber(L, s);
  } else {
    uint64_t s = 0;
    for (char *p; (p = array_iter_next(&it)) != NULL;) s += (uint64_t)array_load(a->dtype, p).i;
    lua_pushinteger(L, (lua_Integer)s);
  }
  return 1;
}

/* true when v should replace best in a min (want < 0) or max (want > 0);
** a NaN wins and stays, as NumPy propagates it */
bool array_num_better(Num v, Num best, int want) {
  if (v.kind == 'c') {  /* NumPy orders complex values by real part, then imaginary part */
    bool bn = best.f != best.f || best.im != best.im, vn = v.f != v.f || v.im != v.im;
    if (bn) return false;
    if (vn) return true;
    if (v.f != best.f) return want < 0 ? v.f < best.f : v.f > best.f;
    return want < 0 ? v.im < best.im : v.im > best.im;
  }
  if (v.kind == 'f') {
    if (best.f != best.f) return false;
    if (v.f != v.f) return true;
    return want < 0 ? v.f < best.f : v.f > best.f;
  }
  if (v.kind == 'u')
    return want < 0 ? (uint64_t)v.i < (uint64_t)best.i : (uint64_t)v.i > (uint64_t)best.i;
  return want < 0 ? v.i < best.i : v.i > best.i;
}

static int minmax(lua_State *L, int want, const char *name) {
  NdArray *a = array_check(L, 1);
  if (a->s.nitems == 0)
    return luaL_error(L, "zero-size array to reduction operation %s which has no identity", name);
  ArrayIter it;
  array_iter_init(&it, a);
  char *p = array_iter_next(&it), *bestp = p;
  Num best = array_load(a->dtype, p);
  while ((p = array_iter_next(&it)) != NULL) {
    Num v = array_load(a->dtype, p);
    if (array_num_better(v, best, want)) best = v, bestp = p;
  }
  array_push_elem(L, a->dtype, bestp);
  return 1;
}

static int array_lua_min(lua_State *L) {
  return minmax(L, -1, "minimum");
}

static int array_lua_max(lua_State *L) {
  return minmax(L, 1, "maximum");
}

static int array_lua_is_c_contiguous(lua_State *L) {
  lua_pushboolean(L, array_check(L, 1)->flags & ARR_C_CONTIG);
  return 1;
}

static int array_lua_is_f_contiguous(lua_State *L) {
  lua_pushboolean(L, array_check(L, 1)->flags & ARR_F_CONTIG);
  return 1;
}

/* a:data_ptr() -> light userdata: the first element's address (views of
** one buffer can be compared with it) */
static int array_lua_data_ptr(lua_State *L) {
  lua_pushlightuserdata(L, array_check(L, 1)->s.data);
  return 1;
}

/* a:view(specs): the object mode's slicing. specs[k] for each axis is
** {index = i} (1-based, in range; the axis is dropped) or {start = i,
** count = n, step = s} (1-based start, already clipped to the axis). */
static int array_lua_view(lua_State *L) {
  NdArray *a = array_check(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  int64_t sh[LM_MAXDIM], st[LM_MAXDIM];
  int nd = 0;
  char *data = a->s.data;
  for (int k = 0; k < a->ndim; k++) {
    int64_t n = a->s.shape[k], stride = a->s.strides[k];
    if (lua_rawgeti(L, 2, k + 1) != LUA_TTABLE) {
      lua_pop(L, 1);
      sh[nd] = n, st[nd] = stride, nd++;
      continue;
    }
    int isint;
    lua_getfield(L, -1, "index");
    lua_Integer i = lua_tointegerx(L, -1, &isint);
    lua_pop(L, 1);
    if (isint) {
      if (i < 1 || i > n) return luaL_error(L, "view: index %I out of range for axis %d", (lua_Integer)i, k + 1);
      data += (i - 1) * stride;
    } else {
      lua_getfield(L, -1, "start");
      lua_getfield(L, -2, "count");
      lua_getfield(L, -3, "step");
      lua_Integer start = luaL_checkinteger(L, -3), count = luaL_checkinteger(L, -2), step = luaL_checkinteger(L, -1);
      lua_pop(L, 3);
      if (count < 0 || step == 0 || (count > 0 && (start < 1 || start > n || start + (count - 1) * step < 1 ||
                                                  start + (count - 1) * step > n)))
        return luaL_error(L, "view: slice out of range for axis %d", k + 1);
      if (count > 0) data += (start - 1) * stride;
      sh[nd] = count, st[nd] = stride * step, nd++;
    }
    lua_pop(L, 1);
  }
  array_push_view(L, a, nd, sh, st, data);
  return 1;
}

static const luaL_Reg array_methods[] = {
  {"get", array_lua_get},
  {"set", array_lua_set},
  {"totable", array_lua_totable},
  {"copy", array_lua_copy},
  {"astype", array_lua_astype},
  {"fill", array_lua_fill},
  {"reshape", array_lua_reshape},
  {"transpose", array_lua_transpose},
  {"slice", array_lua_slice},
  {"view", array_lua_view},
  {"sum", array_lua_sum},
  {"min", array_lua_min},
  {"max", array_lua_max},
  {"is_c_contiguous", array_lua_is_c_contiguous},
  {"is_f_contiguous", array_lua_is_f_contiguous},
  {"data_ptr", array_lua_data_ptr},
  {NULL, NULL},
};

void array_methods_reg(lua_State *L) {
  luaL_setfuncs(L, array_methods, 0);
}
