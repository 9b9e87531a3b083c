/*
** array_new.c — the constructors (lumba.empty, zeros, ones, full, arange,
** linspace, array), Lua tables as arrays (array_from_table and friends for
** the compiler) and lumba.allclose.
**
** Nested tables: the shape comes from the first element at each depth
** ({{1, 2}, {3, 4}} is 2x2); every other element must agree, else
** "ragged nested tables: element [2] has length 1, expected 2". Elements
** are read raw (no metamethods). Inferred dtype: any float -> float64,
** else any integer -> int64, else (all booleans) bool; an empty table is
** float64, as NumPy's np.array([]).
*/
#include <math.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "array.h"
#include "array_impl.h"
#include "complex_lua.h"

/* order -> nil | 'C' | 'F' */
static char check_order(lua_State *L, int idx) {
  if (lua_isnoneornil(L, idx)) return 'C';
  const char *o = luaL_checkstring(L, idx);
  if (strcmp(o, "C") != 0 && strcmp(o, "F") != 0)
    luaL_argerror(L, idx, lua_pushfstring(L, "order must be 'C' or 'F', got '%s'", o));
  return o[0];
}

/* empty|zeros|ones (shape [, dtype [, order]]) */
static NdArray *make(lua_State *L, int dtidx) {
  int64_t shape[LM_MAXDIM];
  int ndim = array_read_shape(L, 1, shape, 1);
  DType dt = dtype_check(L, dtidx, DT_FLOAT64);
  char order = check_order(L, dtidx + 1);
  return array_new(L, dt, ndim, shape, order, 1);
}

static int array_lua_empty(lua_State *L) {
  make(L, 2);  /* nrt_alloc zeroes: empty is zeros, deterministic */
  return 1;
}

static int array_lua_zeros(lua_State *L) {
  make(L, 2);
  return 1;
}

static int array_lua_ones(lua_State *L) {
  NdArray *a = make(L, 2);
  lua_pushinteger(L, 1);
  array_fill_value(L, a, -1, 0);
  lua_pop(L, 1);
  return 1;
}

/* full(shape, value [, dtype [, order]]): dtype defaults to the value's */
static int array_lua_full(lua_State *L) {
  int t = lua_type(L, 2);
  bool cx = t == LUA_TUSERDATA && complex_test(L, 2, &(Cplx){0, 0});
  if (t != LUA_TNUMBER && t != LUA_TBOOLEAN && !cx)
    luaL_typeerror(L, 2, ELEMENT_KINDS);
  DType dflt = cx ? DT_COMPLEX128 : t == LUA_TBOOLEAN ? DT_BOOL : lua_isinteger(L, 2) ? DT_INT64 : DT_FLOAT64;
  int64_t shape[LM_MAXDIM];
  int ndim = array_read_shape(L, 1, shape, 1);
  DType dt = dtype_check(L, 3, dflt);
  char order = check_order(L, 4);
  NdArray *a = array_new(L, dt, ndim, shape, order, 1);
  array_fill_value(L, a, 2, 2);
  return 1;
}

/* arange([start,] stop [, step] [, dtype]): NumPy's values, stop excluded.
** All-integer arguments count exactly in int64 (default dtype int64); with
** any float the values are start + i*step in float64 (default float64),
** length ceil((stop - start) / step). Values are cast to dtype. */
static int array_lua_arange(lua_State *L) {
  int n = 0;
  bool ints = true;
  while (n < 3 && lua_type(L, n + 1) == LUA_TNUMBER) {
    if (!lua_isinteger(L, n + 1)) ints = false;
    n++;
  }
  if (n == 0) luaL_typeerror(L, 1, "number");
  if (!lua_isnoneornil(L, n + 1) && lua_type(L, n + 1) != LUA_TSTRING)
    luaL_typeerror(L, n + 1, n < 3 ? "number or dtype name" : "dtype name");
  DType dt = dtype_check(L, n + 1, ints ? DT_INT64 : DT_FLOAT64);
  int64_t len;
  if (ints) {
    lua_Integer start = n >= 2 ? lua_tointeger(L, 1) : 0;
    lua_Integer stop = lua_tointeger(L, n >= 2 ? 2 : 1);
    lua_Integer step = n == 3 ? lua_tointeger(L, 3) : 1;
    if (step == 0) luaL_argerror(L, 3, "step must not be zero");
    uint64_t diff, ustep;
    if (step > 0 && stop > start) diff = (uint64_t)stop - (uint64_t)start, ustep = (uint64_t)step;
    else if (step < 0 && stop < start) diff = (uint64_t)start - (uint64_t)stop, ustep = -(uint64_t)step;
    else diff = 0, ustep = 1;
    uint64_t ulen = diff / ustep + (diff % ustep != 0);
    if (ulen > (uint64_t)INT64_MAX) luaL_error(L, "arange: too many elements");
    len = (int64_t)ulen;
    NdArray *a = array_new(L, dt, 1, &len, 'C', 0);
    char *p = a->s.data;
    for (int64_t i = 0; i < len; i++, p += a->s.itemsize) {
      Num v = {'i', (int64_t)((uint64_t)start + (uint64_t)i * (uint64_t)step), 0, 0};
      array_cast(L, dt, p, v);
    }
    return 1;
  }
  double start = n >= 2 ? lua_tonumber(L, 1) : 0;
  double stop = lua_tonumber(L, n >= 2 ? 2 : 1);
  double step = n == 3 ? lua_tonumber(L, 3) : 1;
  if (step == 0) luaL_argerror(L, 3, "step must not be zero");
  double flen = ceil((stop - start) / step);
  if (isnan(flen) || flen >= 0x1p62)
    return luaL_error(L, "arange: cannot make %f elements", (lua_Number)flen);
  len = flen > 0 ? (int64_t)flen : 0;
  NdArray *a = array_new(L, dt, 1, &len, 'C', 0);
  char *p = a->s.data;
  for (int64_t i = 0; i < len; i++, p += a->s.itemsize)
    array_cast(L, dt, p, (Num){'f', 0, start + (double)i * step, 0});
  return 1;
}

/* linspace(start, stop, num [, dtype]): num values from start to stop
** inclusive, start + i*step, the last exactly stop; cast to dtype */
static int array_lua_linspace(lua_State *L) {
  double a0 = luaL_checknumber(L, 1);
  double b0 = luaL_checknumber(L, 2);
  lua_Integer num = luaL_checkinteger(L, 3);
  if (num < 0) luaL_argerror(L, 3, "number of samples must be non-negative");
  DType dt = dtype_check(L, 4, DT_FLOAT64);
  int64_t len = num;
  NdArray *a = array_new(L, dt, 1, &len, 'C', 3);
  double step = num > 1 ? (b0 - a0) / (double)(num - 1) : 0;
  char *p = a->s.data;
  for (int64_t i = 0; i < len; i++, p += a->s.itemsize) {
    double v = i == len - 1 && len > 1 ? b0 : a0 + (double)i * step;
    array_cast(L, dt, p, (Num){'f', 0, v, 0});
  }
  return 1;
}

/* ---- Lua tables as arrays ---- */

typedef struct Scan {
  lua_State *L;
  int top;                     // stack top before the scan
  int ndim;
  int64_t shape[LM_MAXDIM];
  lua_Integer path[LM_MAXDIM]; // index of the element being visited, per depth
  int kinds;                   // 1 integer, 2 float, 4 boolean, 8 complex seen
} Scan;

/* "[2][1]": the path of the element being visited, pushed */
static const char *push_path(Scan *S, int depth) {
  lua_State *L = S->L;
  luaL_checkstack(L, 4, NULL);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (int d = 0; d < depth; d++) {
    lua_pushfstring(L, "[%I]", S->path[d]);
    luaL_addvalue(&b);
  }
  luaL_pushresult(&b);
  return lua_tostring(L, -1);
}

/* Fails the scan: the stack goes back to S->top with the message (on
** top now) above it. */
static bool scan_fail(Scan *S) {
  lua_replace(S->L, S->top + 1);
  lua_settop(S->L, S->top + 1);
  return false;
}

/* "the table" or "element [2][1]", pushed */
static const char *push_where(Scan *S, int depth) {
  if (depth == 0) {
    lua_pushliteral(S->L, "the table");
    return lua_tostring(S->L, -1);
  }
  return lua_pushfstring(S->L, "element %s", push_path(S, depth));
}

/* The length of the table at t (the element at depth) as Lua code reads
** it: a table with a metatable (a read-only proxy) through __len, its
** elements through __index (lua_geti); a plain table raw. A proxy with
** __index and no __len, or a table with no elements but other keys (a
** record {x = 1, y = 2}), has no length to trust: false with the message
** pushed, rather than a silently empty array. */
static bool table_len(Scan *S, int t, int depth, lua_Integer *len) {
  lua_State *L = S->L;
  if (!lua_getmetatable(L, t)) {
    *len = (lua_Integer)lua_rawlen(L, t);
  } else {
    bool has_len = lua_getfield(L, -1, "__len") != LUA_TNIL;
    bool has_index = lua_getfield(L, -2, "__index") != LUA_TNIL;
    lua_pop(L, 3);
    if (has_index && !has_len && lua_rawlen(L, t) == 0) {
      lua_pushfstring(L, "%s has a metatable with __index but no __len: lumba cannot tell its length "
                      "(give the metatable __len, or pass a plain table)", push_where(S, depth));
      return scan_fail(S);
    }
    *len = luaL_len(L, t);
    if (*len < 0) {
      lua_pushfstring(L, "%s has a negative length (%I, from its metatable's __len)", push_where(S, depth), *len);
      return scan_fail(S);
    }
  }
  if (*len == 0) {
    lua_pushnil(L);
    if (lua_next(L, t)) {
      lua_pop(L, 1);
      const char *key = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : luaL_tolstring(L, -1, NULL);
      lua_pushfstring(L, "%s has no elements 1..n but the key '%s': a table of records ({x = 1, y = 2}, ...) "
                      "is not an array (make one array per field)", push_where(S, depth), key);
      return scan_fail(S);
    }
  }
  return true;
}

/* Every element at depth of the table at t, against the probed shape. */
static bool scan_walk(Scan *S, int t, int depth) {
  lua_State *L = S->L;
  for (lua_Integer i = 1; i <= S->shape[depth]; i++) {
    S->path[depth] = i;
    int ty = lua_geti(L, t, i);
    int v = lua_gettop(L);
    if (depth + 1 < S->ndim) {
      lua_Integer want = (lua_Integer)S->shape[depth + 1];
      if (ty != LUA_TTABLE) {
        lua_pushfstring(L, "ragged nested tables: element %s is a %s, expected a table of length %I",
                        push_path(S, depth + 1), luaL_typename(L, v), want);
        return scan_fail(S);
      }
      lua_Integer len;
      if (!table_len(S, v, depth + 1, &len)) return false;
      if (len != want) {
        lua_pushfstring(L, "ragged nested tables: element %s has length %I, expected %I",
                        push_path(S, depth + 1), len, want);
        return scan_fail(S);
      }
      if (!scan_walk(S, v, depth + 1)) return false;
    } else if (ty == LUA_TNUMBER) {
      S->kinds |= lua_isinteger(L, v) ? 1 : 2;
    } else if (ty == LUA_TBOOLEAN) {
      S->kinds |= 4;
    } else if (ty == LUA_TUSERDATA && complex_test(L, v, &(Cplx){0, 0})) {
      S->kinds |= 8;
    } else if (ty == LUA_TTABLE) {
      lua_pushfstring(L, "ragged nested tables: element %s is a table, expected a " ELEMENT_KINDS,
                      push_path(S, depth + 1));
      return scan_fail(S);
    } else {
      lua_pushfstring(L, "element %s is a %s, expected a " ELEMENT_KINDS,
                      push_path(S, depth + 1), luaL_typename(L, v));
      return scan_fail(S);
    }
    lua_pop(L, 1);
  }
  return true;
}

/* Probes the shape along the first elements, then checks every element.
** On failure returns false with the message on top of the stack. */
static bool table_scan(lua_State *L, int idx, Scan *S) {
  idx = lua_absindex(L, idx);
  S->L = L;
  S->top = lua_gettop(L);
  S->kinds = 0;
  S->ndim = 0;
  for (int d = 0; d < LM_MAXDIM; d++) S->path[d] = 1;  /* the probe goes along the first elements */
  int t = idx;
  for (;;) {
    if (S->ndim == LM_MAXDIM) {
      lua_pushfstring(L, "too many dimensions: nested tables deeper than %d", LM_MAXDIM);
      return scan_fail(S);
    }
    lua_Integer len;
    if (!table_len(S, t, S->ndim, &len)) return false;
    S->shape[S->ndim++] = len;
    if (len == 0 || lua_geti(L, t, 1) != LUA_TTABLE) break;
    t = lua_gettop(L);
  }
  lua_settop(L, S->top);
  return scan_walk(S, idx, 0);
}

static DType scan_dtype(const Scan *S) {
  return (S->kinds & 8) ? DT_COMPLEX128 : (S->kinds & 2) ? DT_FLOAT64 : (S->kinds & 1) ? DT_INT64
         : (S->kinds & 4) ? DT_BOOL : DT_FLOAT64;
}

/* Stores the table's leaves in C order from *p on. */
static void table_fill(lua_State *L, int t, int depth, const Scan *S, DType dt,
                       char **p, int argn) {
  for (lua_Integer i = 1; i <= S->shape[depth]; i++) {
    lua_geti(L, t, i);
    if (depth + 1 < S->ndim) table_fill(L, lua_gettop(L), depth + 1, S, dt, p, argn);
    else {
      array_store_elem(L, dt, *p, lua_gettop(L), argn);
      *p += dtype_sizes[dt];
    }
    lua_pop(L, 1);
  }
}

/* dt < 0: infer. Raises (argerror on argn if > 0) on bad tables. */
static NdArray *from_table(lua_State *L, int idx, int dt, int argn) {
  idx = lua_absindex(L, idx);
  Scan S;
  if (!table_scan(L, idx, &S)) {
    if (argn > 0) luaL_argerror(L, argn, lua_tostring(L, -1));
    lua_error(L);
  }
  DType d = dt < 0 ? scan_dtype(&S) : (DType)dt;
  NdArray *a = array_new(L, d, S.ndim, S.shape, 'C', argn);
  char *p = a->s.data;
  table_fill(L, idx, 0, &S, d, &p, argn);
  return a;
}

int array_table_dtype(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE) return -1;
  Scan S;
  if (!table_scan(L, idx, &S)) {
    lua_pop(L, 1);
    return -1;
  }
  return (int)scan_dtype(&S);
}

NdArray *array_from_table(lua_State *L, int idx, DType dt) {
  return from_table(L, idx, (int)dt, 0);
}

static void copy_back(lua_State *L, int t, const NdArray *a, int depth, const char *p) {
  for (int64_t i = 0; i < a->s.shape[depth]; i++, p += a->s.strides[depth]) {
    if (depth + 1 == a->ndim) {
      array_push_elem(L, a->dtype, p);
    } else {
      if (lua_geti(L, t, i + 1) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
      }
      copy_back(L, lua_gettop(L), a, depth + 1, p);
    }
    lua_seti(L, t, i + 1);  /* through a proxy's __newindex, as Lua code writes */
  }
}

void array_copy_back(lua_State *L, int tbl_idx, const NdArray *a) {
  if (a->ndim == 0) return;
  luaL_checkstack(L, a->ndim + 2, NULL);
  copy_back(L, lua_absindex(L, tbl_idx), a, 0, a->s.data);
}

/* array(table | number | boolean | ndarray [, dtype]): a new C-contiguous copy */
static int array_lua_array(lua_State *L) {
  int t = lua_type(L, 1);
  int dt = lua_isnoneornil(L, 2) ? -1 : (int)dtype_check(L, 2, DT_FLOAT64);
  NdArray *src = array_test(L, 1);
  if (src) {
    NdArray *a = array_new(L, dt < 0 ? src->dtype : (DType)dt, src->ndim, src->s.shape, 'C', 1);
    array_assign(L, a, src);
  } else if (t == LUA_TTABLE) {
    from_table(L, 1, dt, 1);
  } else if (t == LUA_TNUMBER || t == LUA_TBOOLEAN || complex_test(L, 1, &(Cplx){0, 0})) {
    DType d = dt >= 0 ? (DType)dt : t == LUA_TBOOLEAN ? DT_BOOL : t == LUA_TUSERDATA ? DT_COMPLEX128
              : lua_isinteger(L, 1) ? DT_INT64 : DT_FLOAT64;
    NdArray *a = array_new(L, d, 0, NULL, 'C', 1);
    array_store_elem(L, d, a->s.data, 1, 1);
  } else {
    luaL_typeerror(L, 1, "table, number or array");
  }
  return 1;
}

/* ---- allclose ---- */

/* Operand at idx as an array: arrays as they are, tables and numbers
** converted (float64 unless all integers/booleans). */
static NdArray *operand(lua_State *L, int idx) {
  NdArray *a = array_test(L, idx);
  if (a) return a;
  int t = lua_type(L, idx);
  if (t == LUA_TTABLE) return from_table(L, idx, -1, idx);
  if (t == LUA_TNUMBER) {
    a = array_new(L, DT_FLOAT64, 0, NULL, 'C', idx);
    *(double *)a->s.data = lua_tonumber(L, idx);
    return a;
  }
  luaL_typeerror(L, idx, "array, table or number");
  return NULL;
}

static double as_double(DType dt, const char *p) {
  Num v = array_load(dt, p);
  return v.kind == 'f' ? v.f : v.kind == 'u' ? (double)(uint64_t)v.i : (double)v.i;
}

/* NumPy's broadcasting: shapes aligned on the right, axes equal or 1.
** Writes the broadcast views into x and y (stride 0 on stretched axes). */
static bool broadcast(const NdArray *a, const NdArray *b, NdArray *x, NdArray *y) {
  int nd = a->ndim > b->ndim ? a->ndim : b->ndim;
  *x = *a;
  *y = *b;
  x->ndim = y->ndim = nd;
  for (int k = nd - 1; k >= 0; k--) {
    int ka = k - (nd - a->ndim), kb = k - (nd - b->ndim);
    int64_t na = ka >= 0 ? a->s.shape[ka] : 1, nb = kb >= 0 ? b->s.shape[kb] : 1;
    int64_t sa = ka >= 0 ? a->s.strides[ka] : 0, sb = kb >= 0 ? b->s.strides[kb] : 0;
    if (na != nb && na != 1 && nb != 1) return false;
    int64_t n = na == 1 ? nb : na;
    x->s.shape[k] = y->s.shape[k] = n;
    x->s.strides[k] = na == 1 ? 0 : sa;
    y->s.strides[k] = nb == 1 ? 0 : sb;
  }
  array_update_flags(x);
  array_update_flags(y);
  return true;
}

/* allclose(a, b [, rtol=1e-5 [, atol=1e-8]]): |a - b| <= atol + rtol*|b|
** for every broadcast pair; NaN is never close; equal infinities are. */
static int array_lua_allclose(lua_State *L) {
  lua_settop(L, 4);
  double rtol = luaL_optnumber(L, 3, 1e-5);
  double atol = luaL_optnumber(L, 4, 1e-8);
  NdArray *a = operand(L, 1);
  NdArray *b = operand(L, 2);
  NdArray x, y;
  if (!broadcast(a, b, &x, &y)) {
    array_push_shape(L, a->ndim, a->s.shape);
    array_push_shape(L, b->ndim, b->s.shape);
    return luaL_argerror(L, 2, lua_pushfstring(L, "shapes %s and %s cannot be broadcast together",
                                               lua_tostring(L, -2), lua_tostring(L, -1)));
  }
  ArrayIter ix, iy;
  array_iter_init(&ix, &x);
  array_iter_init(&iy, &y);
  bool close = true;
  for (char *p, *q; close && (p = array_iter_next(&ix)) && (q = array_iter_next(&iy));) {
    double u = as_double(a->dtype, p), v = as_double(b->dtype, q);
    if (u == v) continue;  /* equal infinities included */
    close = isfinite(u) && isfinite(v) && fabs(u - v) <= atol + rtol * fabs(v);
  }
  lua_pushboolean(L, close);
  return 1;
}

static const luaL_Reg array_ctors[] = {
  {"empty", array_lua_empty},
  {"zeros", array_lua_zeros},
  {"ones", array_lua_ones},
  {"full", array_lua_full},
  {"arange", array_lua_arange},
  {"linspace", array_lua_linspace},
  {"array", array_lua_array},
  {"allclose", array_lua_allclose},
  {NULL, NULL},
};

void array_ctor_open(lua_State *L) {
  luaL_setfuncs(L, array_ctors, 0);
}
