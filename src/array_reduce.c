/*
** array_reduce.c — NumPy's reductions as array methods, each with an
** optional axis: a:sum a:prod a:mean a:var a:std a:min a:max a:argmin
** a:argmax (a Lua number without an axis, or along axis k an array with
** that axis removed) and a:cumsum a:cumprod (1-D of every element in C
** order without an axis, the array's shape along one).
**
** Axes are numbered from 1 as every Lua-side axis (a:get's messages, slice),
** negative ones from the end (-1 the last); indices argmin/argmax return
** are 1-based (without an axis: into the elements in C order, NumPy's flat
** index plus one). Result dtypes are NumPy's: sum, prod and the cumulative
** ones give int64 for bool and signed integers, uint64 for unsigned, the
** float dtype itself; mean, var and std give float64 for integers, the
** float dtype itself; min and max keep the dtype; argmin/argmax int64.
** Floats accumulate in double (NumPy accumulates float32 in float32, so a
** float32 result may differ from NumPy's in its last bits).
*/
#include <math.h>
#include <string.h>

#include <lauxlib.h>

#include "array_impl.h"

enum { R_SUM, R_PROD, R_MEAN, R_VAR, R_STD, R_MIN, R_MAX, R_ARGMIN, R_ARGMAX, R_CUMSUM, R_CUMPROD };

/* NumPy's names, for messages */
static const char *const reduce_names[] = {
  "sum", "prod", "mean", "var", "std", "minimum", "maximum", "argmin", "argmax", "cumsum", "cumprod",
};

static DType result_dtype(int op, DType d) {
  char k = dtype_kinds[d];
  if (k == 'c') {  /* complex: the dtype itself; var and std the float of its parts */
    if (op == R_VAR || op == R_STD) return d == DT_COMPLEX64 ? DT_FLOAT32 : DT_FLOAT64;
    return op == R_ARGMIN || op == R_ARGMAX ? DT_INT64 : d;
  }
  switch (op) {
    case R_MEAN: case R_VAR: case R_STD: return k == 'f' ? d : DT_FLOAT64;
    case R_MIN: case R_MAX: return d;
    case R_ARGMIN: case R_ARGMAX: return DT_INT64;
    default: return k == 'f' ? d : k == 'u' ? DT_UINT64 : DT_INT64;
  }
}

static Num num_f(double f) { Num r = {'f', 0, f, 0}; return r; }
static Num num_i(char kind, uint64_t bits) { Num r = {kind, (int64_t)bits, 0, 0}; return r; }
static Num num_c(double re, double im) { Num r = {'c', 0, re, im}; return r; }

/* s = s + x or s * x on complex values (the schoolbook product, as NumPy's) */
static void cplx_acc(bool sum, double *sr, double *si, Num x) {
  if (sum) {
    *sr += x.f;
    *si += x.im;
  } else {
    double r = *sr * x.f - *si * x.im, i = *sr * x.im + *si * x.f;
    *sr = r;
    *si = i;
  }
}

/* one lane: n elements from p, st bytes apart */
static Num lane_reduce(int op, DType dt, const char *p, int64_t n, int64_t st, int64_t ddof) {
  bool fl = dtype_kinds[dt] == 'f';
  char ik = dtype_kinds[dt] == 'u' ? 'u' : 'i';
  if (dtype_kinds[dt] == 'c' && op <= R_STD) {
    double sr = op == R_PROD ? 1 : 0, si = 0;
    const char *q = p;
    for (int64_t i = 0; i < n; i++, q += st) cplx_acc(op != R_PROD, &sr, &si, array_load(dt, q));
    if (op == R_SUM || op == R_PROD) return num_c(sr, si);
    double mr = sr / (double)n, mi = si / (double)n;
    if (op == R_MEAN) return num_c(mr, mi);
    double ss = 0;  /* var of complex values: the mean of |x - mean|^2, a float */
    for (int64_t i = 0; i < n; i++, p += st) {
      Num x = array_load(dt, p);
      ss += (x.f - mr) * (x.f - mr) + (x.im - mi) * (x.im - mi);
    }
    double var = ss / (double)(n - ddof > 0 ? n - ddof : 0);
    return num_f(op == R_STD ? sqrt(var) : var);
  }
  switch (op) {
    case R_SUM: case R_PROD: {
      bool sum = op == R_SUM;
      if (fl) {
        double s = sum ? 0 : 1;
        for (int64_t i = 0; i < n; i++, p += st) {
          double x = array_load(dt, p).f;
          s = sum ? s + x : s * x;
        }
        return num_f(s);
      }
      uint64_t s = sum ? 0 : 1;  /* wraps as NumPy's int64/uint64 */
      for (int64_t i = 0; i < n; i++, p += st) {
        uint64_t x = (uint64_t)array_load(dt, p).i;
        s = sum ? s + x : s * x;
      }
      return num_i(ik, s);
    }
    case R_MEAN: case R_VAR: case R_STD: {
      double s = 0;
      const char *q = p;
      for (int64_t i = 0; i < n; i++, q += st) {
        Num x = array_load(dt, q);
        s += x.kind == 'f' ? x.f : x.kind == 'u' ? (double)(uint64_t)x.i : (double)x.i;
      }
      double mean = s / (double)n;
      if (op == R_MEAN) return num_f(mean);
      double ss = 0;
      for (int64_t i = 0; i < n; i++, p += st) {
        Num x = array_load(dt, p);
        double d = (x.kind == 'f' ? x.f : x.kind == 'u' ? (double)(uint64_t)x.i : (double)x.i) - mean;
        ss += d * d;
      }
      double var = ss / (double)(n - ddof > 0 ? n - ddof : 0);
      return num_f(op == R_STD ? sqrt(var) : var);
    }
    default: {  /* min, max, argmin, argmax: n > 0 */
      int want = op == R_MIN || op == R_ARGMIN ? -1 : 1;
      Num best = array_load(dt, p);
      int64_t at = 0;
      p += st;
      for (int64_t i = 1; i < n; i++, p += st) {
        Num v = array_load(dt, p);
        if (array_num_better(v, best, want)) best = v, at = i;
      }
      if (op == R_ARGMIN || op == R_ARGMAX) return num_i('i', (uint64_t)at + 1);
      return best;
    }
  }
}

/* cumsum/cumprod of one lane into q (odt elements, ost bytes apart) */
static void lane_scan(lua_State *L, int op, DType dt, const char *p, int64_t n, int64_t st,
                      DType odt, char *q, int64_t ost) {
  bool sum = op == R_CUMSUM;
  if (dtype_kinds[dt] == 'c') {
    double sr = sum ? 0 : 1, si = 0;
    for (int64_t i = 0; i < n; i++, p += st, q += ost) {
      cplx_acc(sum, &sr, &si, array_load(dt, p));
      array_cast(L, odt, q, num_c(sr, si));
    }
    return;
  }
  if (dtype_kinds[dt] == 'f') {
    double s = sum ? 0 : 1;
    for (int64_t i = 0; i < n; i++, p += st, q += ost) {
      double x = array_load(dt, p).f;
      s = sum ? s + x : s * x;
      array_cast(L, odt, q, num_f(s));
    }
    return;
  }
  uint64_t s = sum ? 0 : 1;
  char ik = dtype_kinds[dt] == 'u' ? 'u' : 'i';
  for (int64_t i = 0; i < n; i++, p += st, q += ost) {
    uint64_t x = (uint64_t)array_load(dt, p).i;
    s = sum ? s + x : s * x;
    array_cast(L, odt, q, num_i(ik, s));
  }
}

/* the axis argument at idx: -1 for none, else 0-based */
static int axis_arg(lua_State *L, int idx, const NdArray *a) {
  if (lua_isnoneornil(L, idx)) return -1;
  lua_Integer k = luaL_checkinteger(L, idx);
  lua_Integer j = k < 0 ? k + a->ndim : k - 1;
  if (k == 0 || j < 0 || j >= a->ndim)
    luaL_argerror(L, idx, lua_pushfstring(L, "axis %I is out of bounds for array of dimension %d (axes are 1..%d, "
                                          "or -1 for the last)", k, a->ndim, a->ndim));
  return (int)j;
}

/* a itself when C-contiguous, else a C-order copy pushed on the stack */
static const NdArray *c_order(lua_State *L, const NdArray *a) {
  if (a->flags & ARR_C_CONTIG) return a;
  NdArray *c = array_new(L, a->dtype, a->ndim, a->s.shape, 'C', 0);
  array_assign(L, c, a);
  return c;
}

static int reduce(lua_State *L, int op) {
  NdArray *a = array_check(L, 1);
  int axis = axis_arg(L, 2, a);
  int64_t ddof = op == R_VAR || op == R_STD ? luaL_optinteger(L, 3, 0) : 0;
  DType rdt = result_dtype(op, a->dtype);
  bool scan = op == R_CUMSUM || op == R_CUMPROD;
  bool needs_one = op >= R_MIN && op <= R_ARGMAX;
  int64_t n = axis < 0 ? a->s.nitems : a->s.shape[axis];
  if (needs_one && n == 0) {
    if (op == R_ARGMIN || op == R_ARGMAX)
      return luaL_error(L, "attempt to get %s of an empty sequence", reduce_names[op]);
    return luaL_error(L, "zero-size array to reduction operation %s which has no identity", reduce_names[op]);
  }
  if (axis < 0) {  /* every element, in C order */
    const NdArray *c = c_order(L, a);
    if (scan) {
      int64_t shape[1] = {n};
      NdArray *out = array_new(L, rdt, 1, shape, 'C', 0);
      lane_scan(L, op, c->dtype, c->s.data, n, c->s.itemsize, rdt, out->s.data, out->s.itemsize);
      return 1;
    }
    char buf[16];  /* an element of any dtype (complex128: 16 bytes) */
    array_cast(L, rdt, buf, lane_reduce(op, c->dtype, c->s.data, n, c->s.itemsize, ddof));
    array_push_elem(L, rdt, buf);
    return 1;
  }
  /* along one axis: an iterator over the lanes' first elements */
  NdArray outer = *a;
  outer.ndim = 0;
  outer.s.nitems = 1;
  for (int k = 0; k < a->ndim; k++) {
    if (k == axis) continue;
    outer.s.shape[outer.ndim] = a->s.shape[k];
    outer.s.strides[outer.ndim++] = a->s.strides[k];
    outer.s.nitems *= a->s.shape[k];
  }
  int64_t st = a->s.strides[axis];
  ArrayIter it;
  array_iter_init(&it, &outer);
  if (scan) {  /* same shape; lane j of the output is lane j of a */
    NdArray *out = array_new(L, rdt, a->ndim, a->s.shape, 'C', 0);
    NdArray oo = *out;
    oo.ndim = 0;
    for (int k = 0; k < a->ndim; k++)
      if (k != axis) oo.s.shape[oo.ndim] = out->s.shape[k], oo.s.strides[oo.ndim++] = out->s.strides[k];
    oo.s.nitems = outer.s.nitems;
    ArrayIter ot;
    array_iter_init(&ot, &oo);
    for (char *p; (p = array_iter_next(&it)) != NULL;)
      lane_scan(L, op, a->dtype, p, n, st, rdt, array_iter_next(&ot), out->s.strides[axis]);
    return 1;
  }
  if (outer.ndim == 0) {  /* a 1-D array: a Lua number, as NumPy gives a scalar */
    char buf[16];  /* an element of any dtype (complex128: 16 bytes) */
    array_cast(L, rdt, buf, lane_reduce(op, a->dtype, a->s.data, n, st, ddof));
    array_push_elem(L, rdt, buf);
    return 1;
  }
  NdArray *out = array_new(L, rdt, outer.ndim, outer.s.shape, 'C', 0);
  char *q = out->s.data;
  for (char *p; (p = array_iter_next(&it)) != NULL; q += out->s.itemsize)
    array_cast(L, rdt, q, lane_reduce(op, a->dtype, p, n, st, ddof));
  return 1;
}

static int m_prod(lua_State *L) { return reduce(L, R_PROD); }
static int m_mean(lua_State *L) { return reduce(L, R_MEAN); }
static int m_var(lua_State *L) { return reduce(L, R_VAR); }
static int m_std(lua_State *L) { return reduce(L, R_STD); }
static int m_argmin(lua_State *L) { return reduce(L, R_ARGMIN); }
static int m_argmax(lua_State *L) { return reduce(L, R_ARGMAX); }
static int m_cumsum(lua_State *L) { return reduce(L, R_CUMSUM); }
static int m_cumprod(lua_State *L) { return reduce(L, R_CUMPROD); }

/* sum, min, max: without an axis the methods array_methods.c defines
** (upvalue 1), along one these */
static int with_axis(lua_State *L, int op) {
  array_check(L, 1);  /* a bad self is reported under the method's own name */
  if (lua_isnoneornil(L, 2)) {
    lua_settop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 1, 1);
    return 1;
  }
  return reduce(L, op);
}
static int m_sum(lua_State *L) { return with_axis(L, R_SUM); }
static int m_min(lua_State *L) { return with_axis(L, R_MIN); }
static int m_max(lua_State *L) { return with_axis(L, R_MAX); }

static const luaL_Reg reduce_methods[] = {
  {"prod", m_prod}, {"mean", m_mean}, {"var", m_var}, {"std", m_std},
  {"argmin", m_argmin}, {"argmax", m_argmax}, {"cumsum", m_cumsum}, {"cumprod", m_cumprod},
  {NULL, NULL},
};

/* the methods table is the upvalue of the arrays' __index (array.c) */
void array_reduce_open(lua_State *L) {
  luaL_getmetatable(L, ARRAY_MT);
  lua_getfield(L, -1, "__index");
  lua_getupvalue(L, -1, 1);
  LM_ASSERT(lua_istable(L, -1));
  luaL_setfuncs(L, reduce_methods, 0);
  static const struct { const char *name; lua_CFunction f; } wrapped[] = {
    {"sum", m_sum}, {"min", m_min}, {"max", m_max},
  };
  for (size_t i = 0; i < lm_countof(wrapped); i++) {
    lua_getfield(L, -1, wrapped[i].name);
    lua_pushcclosure(L, wrapped[i].f, 1);
    lua_setfield(L, -2, wrapped[i].name);
  }
  lua_pop(L, 3);
}
