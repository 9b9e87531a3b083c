/*
** array_elem.c — moving single elements between Lua values and array
** memory, and between dtypes.
**
** Reading (array_push_elem): bool -> Lua boolean, integer dtypes -> Lua
** integer, float dtypes -> Lua float. uint64 is read as the Lua integer
** with the same 64 bits (Lua's own convention for unsigned values, as in
** math.ult and 0xffffffffffffffff == -1): 2^64-1 reads as -1.
**
** Storing a Lua value (array_store_elem, used by set, a[i] = v, fill,
** full, array and every table conversion) is checked:
**  - float arrays take any number (float32 rounds; beyond its range gives
**    inf, as NumPy); booleans store as 1 and 0;
**  - integer arrays take integers in the dtype's range and floats with an
**    integral value in that range; anything else is an error ("value 300
**    out of bounds for uint8", "int32 needs an integer, got 1.5"), as
**    NumPy 2 raises OverflowError for out-of-range Python ints. uint64
**    takes every Lua integer by its bits (so -1 stores 2^64-1) and floats
**    in [0, 2^64);
**  - bool arrays take true, false, 0 and 1 ("bool needs true, false, 0
**    or 1, got 2").
**
** Complex arrays read as lumba.complex values and take those, numbers and
** booleans; a complex value stored in a real array is an error ("float64
** needs a real number, got (1+2j)").
**
** Casting between dtypes (array_cast: astype, copies between dtypes,
** arange/linspace with an integer dtype) follows NumPy's unsafe casts but
** is always defined: integers wrap modulo 2^bits, floats truncate toward
** zero (a NaN or a float beyond 64 bits raises "cannot cast NaN to int32"),
** any nonzero value is true.
*/
#include <math.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "array.h"
#include "array_impl.h"
#include "complex_lua.h"
#include "half_rt.h"

/* complex elements: two floats, real part first */
static Num load_complex(DType dt, const void *p) {
  Num v = {'c', 0, 0, 0};
  if (dt == DT_COMPLEX64) {
    float x[2];
    memcpy(x, p, sizeof x);
    v.f = x[0];
    v.im = x[1];
  } else {
    double x[2];
    memcpy(x, p, sizeof x);
    v.f = x[0];
    v.im = x[1];
  }
  return v;
}

static void store_complex(DType dt, void *p, Num v) {
  double re = v.kind == 'f' || v.kind == 'c' ? v.f : v.kind == 'u' ? (double)(uint64_t)v.i : (double)v.i;
  double im = v.kind == 'c' ? v.im : 0;
  if (dt == DT_COMPLEX64) {
    float x[2] = {(float)re, (float)im};
    memcpy(p, x, sizeof x);
  } else {
    double x[2] = {re, im};
    memcpy(p, x, sizeof x);
  }
}

Num array_load(DType dt, const void *p) {
  Num v = {'i', 0, 0, 0};
  if (dtype_kinds[dt] == 'c') return load_complex(dt, p);
  if (dt == DT_FLOAT16) {  /* stored as its bits */
    uint16_t h;
    memcpy(&h, p, sizeof h);
    v.kind = 'f';
    v.f = lm_h2d(h);
    return v;
  }
  switch (dt) {
#define DTYPE(e, name, ctype, size, K) \
    case DT_##e: {                                                     \
      ctype x;                                                         \
      memcpy(&x, p, sizeof x);                                         \
      if (K == 'f') { v.kind = 'f'; v.f = (double)x; }              \
      else if (K == 'u') { v.kind = 'u'; v.i = (int64_t)(uint64_t)x; } \
      else if (K == 'b') v.i = x != 0;                              \
      else v.i = (int64_t)x;                                           \
      break;                                                           \
    }
#include "dtype.def"
#undef DTYPE
    default: LM_UNREACHABLE();
  }
  return v;
}

void array_push_elem(lua_State *L, DType dt, const void *p) {
  if (dtype_is_record(dt)) {
    array_records->push_elem(L, dt, p);
    return;
  }
  Num v = array_load(dt, p);
  if (v.kind == 'c') complex_push(L, v.f, v.im);
  else if (v.kind == 'f') lua_pushnumber(L, v.f);
  else if (dtype_kinds[dt] == 'b') lua_pushboolean(L, (int)v.i);
  else lua_pushinteger(L, (lua_Integer)v.i);
}

/* integer bits of v for an integer dtype (truncating floats) */
static uint64_t int_bits(lua_State *L, DType dt, Num v) {
  if (v.kind != 'f') return (uint64_t)v.i;
  double t = trunc(v.f);
  if (t >= -0x1p63 && t < 0x1p63) return (uint64_t)(int64_t)t;
  if (t >= 0x1p63 && t < 0x1p64) return (uint64_t)t;
  if (isnan(t)) luaL_error(L, "cannot cast NaN to %s", dtype_names[dt]);
  luaL_error(L, "cannot cast %f to %s", (lua_Number)v.f, dtype_names[dt]);
  return 0;
}

void array_cast(lua_State *L, DType dt, void *p, Num v) {
  if (dtype_kinds[dt] == 'c') {
    store_complex(dt, p, v);
    return;
  }
  if (v.kind == 'c') {  /* NumPy drops the imaginary part (ComplexWarning); bool looks at both */
    if (dtype_kinds[dt] == 'b') v.f = v.f != 0 || v.im != 0;
    v.kind = 'f';
  }
  if (dt == DT_FLOAT16) {  /* round to nearest even, as NumPy */
    uint16_t h = lm_d2h(v.kind == 'f' ? v.f : v.kind == 'u' ? (double)(uint64_t)v.i : (double)v.i);
    memcpy(p, &h, sizeof h);
    return;
  }
  switch (dt) {
#define DTYPE(e, name, ctype, size, K) \
    case DT_##e: {                                                            \
      ctype x;                                                                \
      if (K == 'f')                                                        \
        x = (ctype)(v.kind == 'f' ? v.f                                       \
                    : v.kind == 'u' ? (double)(uint64_t)v.i : (double)v.i);   \
      else if (K == 'b')                                                      \
        x = (ctype)(v.kind == 'f' ? v.f != 0 : v.i != 0);                     \
      else                                                                    \
        x = (ctype)int_bits(L, dt, v);                                        \
      memcpy(p, &x, sizeof x);                                                \
      break;                                                                  \
    }
#include "dtype.def"
#undef DTYPE
    default: LM_UNREACHABLE();
  }
}

/* the range of an integer dtype narrower than 64 bits */
static void int_range(DType dt, int64_t *lo, int64_t *hi) {
  int bits = dtype_sizes[dt] * 8;
  if (dtype_kinds[dt] == 'u') {
    *lo = 0;
    *hi = (int64_t)((UINT64_C(1) << bits) - 1);
  } else {
    *lo = -(INT64_C(1) << (bits - 1));
    *hi = (INT64_C(1) << (bits - 1)) - 1;
  }
}

static l_noret store_error(lua_State *L, int argn, const char *msg) {
  if (argn > 0) luaL_argerror(L, argn, msg);
  else luaL_error(L, "%s", msg);
  LM_UNREACHABLE();
}

static l_noret out_of_bounds(lua_State *L, DType dt, int idx, int argn) {
  const char *s = luaL_tolstring(L, idx, NULL);
  store_error(L, argn, lua_pushfstring(L, "value %s out of bounds for %s", s, dtype_names[dt]));
}

/* Checks the Lua value at idx against dt (rules at the top of the file). */
void array_store_elem(lua_State *L, DType dt, void *p, int idx, int argn) {
  if (dtype_is_record(dt)) {
    array_records->store_elem(L, dt, p, idx, argn);
    return;
  }
  char kind = dtype_kinds[dt];
  Num v = {'i', 0, 0, 0};
  int t = lua_type(L, idx);
  Cplx c;
  if (t == LUA_TUSERDATA && complex_test(L, idx, &c)) {
    if (kind != 'c')
      store_error(L, argn, lua_pushfstring(L, "%s needs a real number, got %s", dtype_names[dt],
                                           luaL_tolstring(L, idx, NULL)));
    v.kind = 'c';
    v.f = c.re;
    v.im = c.im;
  } else if (t == LUA_TBOOLEAN) {
    v.i = lua_toboolean(L, idx);
  } else if (t != LUA_TNUMBER) {
    store_error(L, argn, lua_pushfstring(L, ELEMENT_KINDS " expected, got %s",
                                         luaL_typename(L, idx)));
  } else if (lua_isinteger(L, idx)) {
    v.i = lua_tointeger(L, idx);
    if (kind == 'b' && v.i != 0 && v.i != 1) {
      store_error(L, argn, lua_pushfstring(L, "bool needs true, false, 0 or 1, got %I",
                                           (lua_Integer)v.i));
    } else if ((kind == 'i' || kind == 'u') && dtype_sizes[dt] < 8) {
      int64_t lo, hi;
      int_range(dt, &lo, &hi);
      if (v.i < lo || v.i > hi) out_of_bounds(L, dt, idx, argn);
    }
  } else {
    double f = lua_tonumber(L, idx);
    if (kind == 'f' || kind == 'c') {
      v.kind = 'f';
      v.f = f;
    } else if (kind == 'b') {
      if (f != 0 && f != 1)
        store_error(L, argn, lua_pushfstring(L, "bool needs true, false, 0 or 1, got %s",
                                             luaL_tolstring(L, idx, NULL)));
      v.i = f != 0;
    } else {
      if (f != floor(f))  /* NaN too */
        store_error(L, argn, lua_pushfstring(L, "%s needs an integer, got %s", dtype_names[dt],
                                             luaL_tolstring(L, idx, NULL)));
      if (dt == DT_UINT64) {
        if (!(f >= 0 && f < 0x1p64)) out_of_bounds(L, dt, idx, argn);
        v.kind = 'u';
        v.i = (int64_t)(uint64_t)f;
      } else {
        if (!(f >= -0x1p63 && f < 0x1p63)) out_of_bounds(L, dt, idx, argn);
        v.i = (int64_t)f;
        if (dtype_sizes[dt] < 8) {
          int64_t lo, hi;
          int_range(dt, &lo, &hi);
          if (v.i < lo || v.i > hi) out_of_bounds(L, dt, idx, argn);
        }
      }
    }
  }
  array_cast(L, dt, p, v);
}

void array_fill_value(lua_State *L, NdArray *a, int idx, int argn) {
  unsigned char buf[16];
  unsigned char *elem = buf;
  if (a->s.itemsize > (int64_t)sizeof buf) {  /* a record: a zeroed scratch element */
    idx = lua_absindex(L, idx);
    elem = lua_newuserdatauv(L, (size_t)a->s.itemsize, 0);
    memset(elem, 0, (size_t)a->s.itemsize);
  }
  array_store_elem(L, a->dtype, elem, idx, argn);
  ArrayIter it;
  array_iter_init(&it, a);
  size_t n = (size_t)a->s.itemsize;
  for (char *p; (p = array_iter_next(&it)) != NULL;) memcpy(p, elem, n);
  if (elem != buf) lua_pop(L, 1);
}

/* Same dtype and both C-contiguous: one memmove (views may overlap). */
void array_assign(lua_State *L, NdArray *dst, const NdArray *src) {
  LM_ASSERT(dst->s.nitems == src->s.nitems);
  if (dst->dtype != src->dtype && (dtype_is_record(dst->dtype) || dtype_is_record(src->dtype)))
    luaL_error(L, "cannot cast an array of dtype %s to %s", dtype_names[src->dtype], dtype_names[dst->dtype]);
  if (dst->dtype == src->dtype && (dst->flags & src->flags & ARR_C_CONTIG)) {
    if (dst->s.nitems > 0)
      memmove(dst->s.data, src->s.data, (size_t)(dst->s.nitems * dst->s.itemsize));
    return;
  }
  ArrayIter id, is;
  array_iter_init(&id, dst);
  array_iter_init(&is, src);
  size_t n = (size_t)dst->s.itemsize;
  for (char *p, *q; (p = array_iter_next(&id)) != NULL && (q = array_iter_next(&is)) != NULL;) {
    if (dst->dtype == src->dtype) memmove(p, q, n);
    else array_cast(L, dst->dtype, p, array_load(src->dtype, q));
  }
}
