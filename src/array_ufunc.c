/*
** array_ufunc.c — NumPy's elementwise operations on lumba.ndarray: the
** operators as metamethods (a + b, a * 2, -a, a // b, a & b, ...; a < b
** and a <= b are the truth of one comparison) and
** lumba.binop(op, x, y [, out]), lumba.unop(op, x [, out]),
** lumba.where(cond, x, y) for the rest (comparisons, math functions).
**
** Semantics are NumPy 1.x's: operands broadcast; the result dtype is
** np.result_type's, Lua numbers and booleans being Python scalars with the
** value-based rule (a scalar whose kind — bool < integer < float — is not
** above the arrays' takes the smallest type holding its value); integers
** wrap, integer division or modulo by zero gives 0, floats follow IEEE.
** With `out` the result is cast to out's dtype (NumPy's same_kind rule)
** and written there, inputs that overlap out being read first (a += a.T).
** Errors are raised at the caller's line (luaL_where level 1): what Lua code wrote.
*/
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "array_impl.h"
#include "complex_lua.h"
#include "half_rt.h"

/* ---- operations ---- */

enum {
  /* binary */
  U_ADD, U_SUB, U_MUL, U_DIV, U_FLOORDIV, U_MOD, U_POW, U_BAND, U_BOR, U_BXOR,
  U_SHL, U_SHR, U_EQ, U_NE, U_LT, U_LE, U_GT, U_GE, U_MAXIMUM, U_MINIMUM,
  U_FMAX, U_FMIN, U_FMOD, U_ATAN2, U_HYPOT, U_COPYSIGN, U_LAND, U_LOR, U_LXOR,
  U_NBINARY,
  /* unary */
  U_NEG = U_NBINARY, U_POS, U_INVERT, U_ABS, U_NOT, U_SIGN, U_SQUARE,
  U_ISNAN, U_ISINF, U_ISFINITE,
  U_FIRST_FLOAT,  /* the float functions: integer inputs become floats */
  U_SQRT = U_FIRST_FLOAT, U_EXP, U_EXP2, U_EXPM1, U_LOG, U_LOG2, U_LOG10, U_LOG1P,
  U_SIN, U_COS, U_TAN, U_ASIN, U_ACOS, U_ATAN, U_SINH, U_COSH, U_TANH,
  U_ASINH, U_ACOSH, U_ATANH, U_CBRT, U_FLOOR, U_CEIL, U_TRUNC, U_RINT, U_FABS,
  U_DEG2RAD, U_RAD2DEG,
  U_COUNT
};

/* NumPy's names (ufunc names; the Python operator names for messages) */
static const char *const op_names[U_COUNT] = {
  "add", "subtract", "multiply", "true_divide", "floor_divide", "remainder", "power",
  "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift",
  "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
  "maximum", "minimum", "fmax", "fmin", "fmod", "arctan2", "hypot", "copysign",
  "logical_and", "logical_or", "logical_xor",
  "negative", "positive", "invert", "absolute", "logical_not", "sign", "square",
  "isnan", "isinf", "isfinite",
  "sqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
  "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
  "arcsinh", "arccosh", "arctanh", "cbrt", "floor", "ceil", "trunc", "rint", "fabs",
  "deg2rad", "rad2deg",
};

/* other spellings accepted by binop/unop */
static const struct { const char *name; int op; } op_aliases[] = {
  {"sub", U_SUB}, {"mul", U_MUL}, {"div", U_DIV}, {"divide", U_DIV}, {"floordiv", U_FLOORDIV},
  {"mod", U_MOD}, {"pow", U_POW}, {"band", U_BAND}, {"bor", U_BOR}, {"bxor", U_BXOR},
  {"shl", U_SHL}, {"shr", U_SHR}, {"eq", U_EQ}, {"ne", U_NE}, {"lt", U_LT}, {"le", U_LE},
  {"gt", U_GT}, {"ge", U_GE}, {"neg", U_NEG}, {"pos", U_POS}, {"bnot", U_INVERT},
  {"abs", U_ABS}, {"not", U_NOT}, {"arcsin", U_ASIN}, {"asin", U_ASIN}, {"acos", U_ACOS},
  {"atan", U_ATAN}, {"asinh", U_ASINH}, {"acosh", U_ACOSH}, {"atanh", U_ATANH},
  {"atan2", U_ATAN2}, {"degrees", U_RAD2DEG}, {"radians", U_DEG2RAD}, {"bitwise_not", U_INVERT},
  {"mod", U_MOD}, {"power", U_POW},
};

static int op_lookup(const char *s) {
  for (int i = 0; i < U_COUNT; i++)
    if (strcmp(op_names[i], s) == 0) return i;
  for (size_t i = 0; i < sizeof op_aliases / sizeof op_aliases[0]; i++)
    if (strcmp(op_aliases[i].name, s) == 0) return op_aliases[i].op;
  return -1;
}

/* ---- errors at the Lua caller's line ---- */

static int uerror(lua_State *L, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  luaL_where(L, 1);
  lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  lua_concat(L, 2);
  return lua_error(L);
}

/* "(2,3)" as NumPy writes shapes */
static const char *push_pyshape(lua_State *L, int ndim, const int64_t *shape) {
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  luaL_addchar(&b, '(');
  for (int k = 0; k < ndim; k++) {
    if (k) luaL_addchar(&b, ',');
    lua_pushfstring(L, "%I", (lua_Integer)shape[k]);
    luaL_addvalue(&b);
  }
  if (ndim == 1) luaL_addchar(&b, ',');
  luaL_addchar(&b, ')');
  luaL_pushresult(&b);
  return lua_tostring(L, -1);
}

/* ---- dtypes: promotion, value-based scalars ---- */

static int kind_rank(DType d) {
  char k = dtype_kinds[d];
  return k == 'b' ? 0 : k == 'f' ? 2 : 1;
}

static const DType SIGNED[] = {DT_INT8, DT_INT16, DT_INT32, DT_INT64};
static const DType UNSIGNED[] = {DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64};

static int size_index(int size) { return size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3; }

/* np.promote_types */
static DType promote(DType a, DType b) {
  if (a == b) return a;
  if (a == DT_BOOL) return b;
  if (b == DT_BOOL) return a;
  char ka = dtype_kinds[a], kb = dtype_kinds[b];
  int sa = dtype_sizes[a], sb = dtype_sizes[b];
  if (ka == 'f' || kb == 'f') {
    if (ka == 'f' && kb == 'f') return sa > sb ? a : b;
    DType f = ka == 'f' ? a : b, i = ka == 'f' ? b : a;
    if (f == DT_FLOAT64 || dtype_sizes[i] > 2) return DT_FLOAT64;
    if (f == DT_FLOAT16 && dtype_sizes[i] == 1) return DT_FLOAT16;  /* float16 holds every 8-bit integer */
    return DT_FLOAT32;
  }
  if (ka == kb) return sa >= sb ? a : b;
  DType u = ka == 'u' ? a : b, s = ka == 'u' ? b : a;
  if (dtype_sizes[s] > dtype_sizes[u]) return s;
  if (dtype_sizes[u] == 8) return DT_FLOAT64;
  return SIGNED[size_index(dtype_sizes[u]) + 1];
}

/* One operand: an array (possibly broadcast) or a Lua scalar. */
typedef struct Opnd {
  char *data;
  DType dt;       /* storage dtype of data */
  bool scalar;    /* a Lua number/boolean (value-based promotion) */
  int ndim;
  int64_t shape[LM_MAXDIM], strides[LM_MAXDIM];
  union { double f; int64_t i; uint8_t b; double c[2]; } buf;  /* a scalar's storage */
  NdArray *arr;   /* the array, or NULL */
} Opnd;

/* operand from the Lua value at idx; false if it is neither */
static bool opnd_read(lua_State *L, int idx, Opnd *o) {
  memset(o, 0, sizeof *o);
  int t = lua_type(L, idx);
  if (t == LUA_TNUMBER) {
    o->scalar = true;
    if (lua_isinteger(L, idx)) { o->dt = DT_INT64; o->buf.i = lua_tointeger(L, idx); }
    else { o->dt = DT_FLOAT64; o->buf.f = lua_tonumber(L, idx); }
    o->data = (char *)&o->buf;
    return true;
  }
  if (t == LUA_TBOOLEAN) {
    o->scalar = true;
    o->dt = DT_BOOL;
    o->buf.b = (uint8_t)lua_toboolean(L, idx);
    o->data = (char *)&o->buf;
    return true;
  }
  Cplx c;
  if (t == LUA_TUSERDATA && complex_test(L, idx, &c)) {  /* a lumba.complex: a complex128 scalar */
    o->scalar = true;
    o->dt = DT_COMPLEX128;
    o->buf.c[0] = c.re;
    o->buf.c[1] = c.im;
    o->data = (char *)&o->buf;
    return true;
  }
  NdArray *a = array_test(L, idx);
  if (!a) return false;
  if (dtype_is_record(a->dtype)) array_records->unsupported(L, a->dtype, "arithmetic");
  o->arr = a;
  o->data = a->s.data;
  o->dt = a->dtype;
  o->ndim = a->ndim;
  for (int k = 0; k < a->ndim; k++) {
    o->shape[k] = a->s.shape[k];
    o->strides[k] = a->s.strides[k];
  }
  return true;
}

/* the dtype a scalar takes beside arrays of dtype adt (value-based) */
static DType scalar_min_type(const Opnd *o, DType adt) {
  if (o->dt == DT_BOOL) return DT_BOOL;
  if (o->dt == DT_FLOAT64) {
    double v = fabs(o->buf.f);
    if (v < 65000 || !isfinite(v)) return DT_FLOAT16;  /* NumPy's min_scalar_type bound */
    return v <= 3.4028234663852886e38 ? DT_FLOAT32 : DT_FLOAT64;
  }
  int64_t v = o->buf.i;
  if (v < 0) {
    if (v >= INT8_MIN) return DT_INT8;
    if (v >= INT16_MIN) return DT_INT16;
    if (v >= INT32_MIN) return DT_INT32;
    return DT_INT64;
  }
  int s = v <= UINT8_MAX ? 0 : v <= UINT16_MAX ? 1 : v <= UINT32_MAX ? 2 : 3;
  /* a value that fits the signed type of its size acts as that one beside
  ** signed arrays (NumPy 1.x's "small unsigned") */
  bool small = (uint64_t)v <= ((uint64_t)1 << (8 * (1 << s) - 1)) - 1;
  if (small && dtype_kinds[adt] == 'i') return SIGNED[s];
  return UNSIGNED[s];
}

/* np.result_type of the operands: scalars value-based when their kind is
** not above the arrays' (NumPy 1.x), else as Python's bool, int64, float64 */
static DType result_type(const Opnd *o, int n) {
  int arank = -1, srank = -1;
  DType adt = DT_BOOL;
  for (int i = 0; i < n; i++) {
    if (o[i].scalar) {
      if (kind_rank(o[i].dt) > srank) srank = kind_rank(o[i].dt);
    } else {
      adt = arank < 0 ? o[i].dt : promote(adt, o[i].dt);
      if (kind_rank(o[i].dt) > arank) arank = kind_rank(o[i].dt);
    }
  }
  if (srank < 0) return adt;
  DType r = arank < 0 ? o[0].dt : adt;
  for (int i = 0; i < n; i++) {
    if (!o[i].scalar) continue;
    r = promote(r, (arank < 0 || srank > arank) ? o[i].dt : scalar_min_type(&o[i], adt));
  }
  return r;
}

/* NumPy's "safe" casting between dtypes */
static bool safe_cast(DType from, DType to) {
  if (from == to || from == DT_BOOL) return true;
  char kf = dtype_kinds[from], kt = dtype_kinds[to];
  int sf = dtype_sizes[from], st = dtype_sizes[to];
  if (kt == 'b') return false;
  if (kf == 'f') return kt == 'f' && st >= sf;
  if (kt == 'f') return to == DT_FLOAT64 || sf <= (to == DT_FLOAT16 ? 1 : 2);
  if (kf == kt) return st >= sf;
  return kf == 'u' && kt == 'i' && st > sf;
}

/* does a scalar's value fit dtype t (NumPy 1.x's value-based can_cast)? */
static bool scalar_fits(const Opnd *o, DType t) {
  char k = dtype_kinds[t];
  if (o->dt == DT_BOOL) return true;
  if (o->dt == DT_FLOAT64) {
    if (k != 'f') return false;
    double v = fabs(o->buf.f);
    if (t == DT_FLOAT16) return v < 65000 || !isfinite(v);
    return t == DT_FLOAT64 || v <= 3.4028234663852886e38 || isinf(v) || isnan(v);
  }
  int64_t v = o->buf.i;
  switch (t) {
    case DT_BOOL: return false;
    case DT_INT8: return v >= INT8_MIN && v <= INT8_MAX;
    case DT_INT16: return v >= INT16_MIN && v <= INT16_MAX;
    case DT_INT32: return v >= INT32_MIN && v <= INT32_MAX;
    case DT_INT64: return true;
    case DT_UINT8: return v >= 0 && v <= UINT8_MAX;
    case DT_UINT16: return v >= 0 && v <= UINT16_MAX;
    case DT_UINT32: return v >= 0 && v <= UINT32_MAX;
    case DT_UINT64: return v >= 0;
    case DT_FLOAT16: return v >= INT8_MIN && v <= UINT8_MAX;
    case DT_FLOAT32: return v >= INT16_MIN && v <= UINT16_MAX;
    default: return true;
  }
}

/* NumPy 1.x's default type resolver (floor_divide, remainder, power, the
** bitwise ops and shifts): the first loop, in dtype order from `first`,
** every operand casts to safely (scalars by value, when value-based) */
static DType loop_search(const Opnd *o, int n, DType first) {
  static const DType order[] = {DT_BOOL, DT_INT8, DT_UINT8, DT_INT16, DT_UINT16, DT_INT32,
                                DT_UINT32, DT_INT64, DT_UINT64, DT_FLOAT16, DT_FLOAT32, DT_FLOAT64};
  int arank = -1, srank = -1;
  for (int i = 0; i < n; i++) {
    int r = kind_rank(o[i].dt);
    if (o[i].scalar) { if (r > srank) srank = r; }
    else if (r > arank) arank = r;
  }
  bool by_value = arank >= 0 && srank <= arank;
  bool started = false;
  for (size_t j = 0; j < sizeof order / sizeof order[0]; j++) {
    DType t = order[j];
    if (t == first) started = true;
    if (!started) continue;
    bool ok = true;
    for (int i = 0; ok && i < n; i++)
      ok = (o[i].scalar && by_value) ? scalar_fits(&o[i], t) : safe_cast(o[i].dt, t);
    if (ok) return t;
  }
  return DT_FLOAT64;
}

/* NumPy's float type for a float function of integers; 8-bit integers take
** float32, Numba's loop (NumPy's float16 one is not on Numba's CPU target),
** so host and compiled code agree */
static DType float_of(DType d) {
  if (dtype_kinds[d] == 'f') return d;
  return dtype_sizes[d] <= 2 ? DT_FLOAT32 : DT_FLOAT64;
}

/* ---- element values ---- */

typedef union V { double f; int64_t i; uint64_t u; } V;

/* domain: 'f' doubles, 'i' int64, 'u' uint64 */
/* ct: the loop's dtype; a float32 or float16 loop first rounds its inputs to it */
static inline V load(DType dt, const char *p, char dom, DType ct) {
  Num n = array_load(dt, p);
  V v;
  if (dom == 'f') {
    v.f = n.kind == 'f' ? n.f : n.kind == 'u' ? (double)(uint64_t)n.i : (double)n.i;
    if (ct == DT_FLOAT32) v.f = (double)(float)v.f;
    else if (ct == DT_FLOAT16 && dt != DT_FLOAT16) v.f = lm_h2d(lm_d2h(v.f));
  } else {
    v.i = n.kind == 'f' ? (int64_t)n.f : n.i;
  }
  return v;
}

static inline void store(DType dt, char *p, V v, char dom) {
  Num n;
  if (dom == 'f') { n.kind = 'f'; n.f = v.f; n.i = 0; }
  else { n.kind = dom == 'u' ? 'u' : 'i'; n.i = v.i; n.f = 0; }
  switch (dt) {
#define DTYPE(e, name, ctype, size, K)                                          \
    case DT_##e: {                                                              \
      ctype x;                                                                  \
      if (DT_##e == DT_FLOAT16)                                                 \
        x = (ctype)lm_d2h(n.kind == 'f' ? n.f : n.kind == 'u' ? (double)(uint64_t)n.i : (double)n.i); \
      else if (K == 'f')                                                        \
        x = (ctype)(n.kind == 'f' ? n.f : n.kind == 'u' ? (double)(uint64_t)n.i \
                                                      : (double)n.i);           \
      else if (K == 'b')                                                        \
        x = (ctype)(n.kind == 'f' ? n.f != 0 : n.i != 0);                       \
      else if (n.kind == 'f')                                                   \
        x = isfinite(n.f) && fabs(n.f) < 0x1p63 ? (ctype)(int64_t)n.f           \
            : isfinite(n.f) && n.f < 0x1p64 && n.f > 0 ? (ctype)(uint64_t)n.f   \
            : (ctype)INT64_MIN;                                                 \
      else                                                                      \
        x = (ctype)(uint64_t)n.i;                                               \
      memcpy(p, &x, sizeof x);                                                  \
      break;                                                                    \
    }
#include "dtype.def"
#undef DTYPE
    default: LM_UNREACHABLE();
  }
}

/* Python's float divmod (NumPy's npy_divmod) */
static double fdivmod(double a, double b, double *modp) {
  double mod = fmod(a, b);
  if (b == 0) { *modp = mod; return a / b; }
  double div = (a - mod) / b;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) { mod += b; div -= 1.0; }
  } else {
    mod = copysign(0.0, b);
  }
  double fl;
  if (div != 0) {
    fl = floor(div);
    if (div - fl > 0.5) fl += 1.0;
  } else {
    fl = copysign(0.0, a / b);
  }
  *modp = mod;
  return fl;
}

static double rint_even(double x) { return nearbyint(x); }

/* the operation in domain dom; *err set for a negative integer power */
static inline V apply_f(int op, V a, V b) {
  V r;
  double x = a.f, y = b.f, m;
  switch (op) {
    case U_ADD: r.f = x + y; break;
    case U_SUB: r.f = x - y; break;
    case U_MUL: r.f = x * y; break;
    case U_DIV: r.f = x / y; break;
    case U_FLOORDIV: r.f = fdivmod(x, y, &m); break;
    case U_MOD: fdivmod(x, y, &m); r.f = m; break;
    case U_POW: r.f = pow(x, y); break;
    case U_MAXIMUM: r.f = isnan(x) ? x : isnan(y) ? y : x >= y ? x : y; break;
    case U_MINIMUM: r.f = isnan(x) ? x : isnan(y) ? y : x <= y ? x : y; break;
    case U_FMAX: r.f = fmax(x, y); break;
    case U_FMIN: r.f = fmin(x, y); break;
    case U_FMOD: r.f = fmod(x, y); break;
    case U_ATAN2: r.f = atan2(x, y); break;
    case U_HYPOT: r.f = hypot(x, y); break;
    case U_COPYSIGN: r.f = copysign(x, y); break;
    case U_EQ: r.i = x == y; break;
    case U_NE: r.i = x != y; break;
    case U_LT: r.i = x < y; break;
    case U_LE: r.i = x <= y; break;
    case U_GT: r.i = x > y; break;
    case U_GE: r.i = x >= y; break;
    case U_LAND: r.i = x != 0 && y != 0; break;
    case U_LOR: r.i = x != 0 || y != 0; break;
    case U_LXOR: r.i = (x != 0) != (y != 0); break;
    case U_NEG: r.f = -x; break;
    case U_POS: r.f = x; break;
    case U_ABS: case U_FABS: r.f = fabs(x); break;
    case U_NOT: r.i = x == 0; break;
    case U_SIGN: r.f = isnan(x) ? x : x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; break;
    case U_SQUARE: r.f = x * x; break;
    case U_ISNAN: r.i = isnan(x) != 0; break;
    case U_ISINF: r.i = isinf(x) != 0; break;
    case U_ISFINITE: r.i = isfinite(x) != 0; break;
    case U_SQRT: r.f = sqrt(x); break;
    case U_EXP: r.f = exp(x); break;
    case U_EXP2: r.f = exp2(x); break;
    case U_EXPM1: r.f = expm1(x); break;
    case U_LOG: r.f = log(x); break;
    case U_LOG2: r.f = log2(x); break;
    case U_LOG10: r.f = log10(x); break;
    case U_LOG1P: r.f = log1p(x); break;
    case U_SIN: r.f = sin(x); break;
    case U_COS: r.f = cos(x); break;
    case U_TAN: r.f = tan(x); break;
    case U_ASIN: r.f = asin(x); break;
    case U_ACOS: r.f = acos(x); break;
    case U_ATAN: r.f = atan(x); break;
    case U_SINH: r.f = sinh(x); break;
    case U_COSH: r.f = cosh(x); break;
    case U_TANH: r.f = tanh(x); break;
    case U_ASINH: r.f = asinh(x); break;
    case U_ACOSH: r.f = acosh(x); break;
    case U_ATANH: r.f = atanh(x); break;
    case U_CBRT: r.f = cbrt(x); break;
    case U_FLOOR: r.f = floor(x); break;
    case U_CEIL: r.f = ceil(x); break;
    case U_TRUNC: r.f = trunc(x); break;
    case U_RINT: r.f = rint_even(x); break;
    case U_DEG2RAD: r.f = x * (M_PI / 180.0); break;
    case U_RAD2DEG: r.f = x * (180.0 / M_PI); break;
    default: r.f = 0; break;
  }
  return r;
}

static inline uint64_t upow(uint64_t a, uint64_t e) {
  uint64_t r = 1;
  while (e) {
    if (e & 1) r *= a;
    e >>= 1;
    a *= a;
  }
  return r;
}

/* signed (dom 'i') or unsigned ('u') 64-bit integers */
static inline V apply_i(int op, V a, V b, bool uns, bool *negpow) {
  V r;
  int64_t x = a.i, y = b.i;
  uint64_t ux = a.u, uy = b.u;
  switch (op) {
    case U_ADD: r.u = ux + uy; break;
    case U_SUB: r.u = ux - uy; break;
    case U_MUL: r.u = ux * uy; break;
    case U_FLOORDIV:
      if (y == 0) r.i = 0;
      else if (uns) r.u = ux / uy;
      else if (y == -1) r.u = 0 - ux;
      else { int64_t q = x / y; if ((x % y != 0) && ((x < 0) != (y < 0))) q--; r.i = q; }
      break;
    case U_MOD:
      if (y == 0) r.i = 0;
      else if (uns) r.u = ux % uy;
      else if (y == -1) r.i = 0;
      else { int64_t m = x % y; if (m != 0 && ((m < 0) != (y < 0))) m += y; r.i = m; }
      break;
    case U_FMOD:
      if (y == 0) r.i = 0;
      else if (uns) r.u = ux % uy;
      else if (y == -1) r.i = 0;
      else r.i = x % y;
      break;
    case U_POW:
      if (!uns && y < 0) { *negpow = true; r.i = 0; }
      else r.u = upow(ux, uy);
      break;
    case U_BAND: r.u = ux & uy; break;
    case U_BOR: r.u = ux | uy; break;
    case U_BXOR: r.u = ux ^ uy; break;
    case U_SHL: r.u = (uns ? uy >= 64 : (y < 0 || y >= 64)) ? 0 : ux << uy; break;
    case U_SHR:
      if (uns) r.u = uy >= 64 ? 0 : ux >> uy;
      else if (y < 0 || y >= 64) r.i = x < 0 ? -1 : 0;
      else r.i = x >= 0 ? x >> y : ~((~x) >> y);
      break;
    case U_MAXIMUM: case U_FMAX: r.i = (uns ? ux >= uy : x >= y) ? x : y; break;
    case U_MINIMUM: case U_FMIN: r.i = (uns ? ux <= uy : x <= y) ? x : y; break;
    case U_EQ: r.i = x == y; break;
    case U_NE: r.i = x != y; break;
    case U_LT: r.i = uns ? ux < uy : x < y; break;
    case U_LE: r.i = uns ? ux <= uy : x <= y; break;
    case U_GT: r.i = uns ? ux > uy : x > y; break;
    case U_GE: r.i = uns ? ux >= uy : x >= y; break;
    case U_LAND: r.i = x != 0 && y != 0; break;
    case U_LOR: r.i = x != 0 || y != 0; break;
    case U_LXOR: r.i = (x != 0) != (y != 0); break;
    case U_NEG: r.u = 0 - ux; break;
    case U_POS: r.i = x; break;
    case U_INVERT: r.u = ~ux; break;
    case U_ABS: r.u = (!uns && x < 0) ? 0 - ux : ux; break;
    case U_NOT: r.i = x == 0; break;
    case U_SIGN: r.i = uns ? ux != 0 : x > 0 ? 1 : x < 0 ? -1 : 0; break;
    case U_SQUARE: r.u = ux * ux; break;
    case U_ISNAN: case U_ISINF: r.i = 0; break;
    case U_ISFINITE: r.i = 1; break;
    default: r.i = 0; break;
  }
  return r;
}

/* ---- the loop ---- */

typedef struct Plan {
  int op;
  char dom;       /* 'f', 'i', 'u' */
  DType ct;       /* inputs are converted to it */
  DType rt;       /* result dtype */
  bool boolnot;   /* invert of bools: logical not */
} Plan;

/* overlapping out with a differently laid out input: read the input first */
static bool overlaps(const Opnd *in, const NdArray *out) {
  if (!in->arr || in->arr->s.nitems == 0 || out->s.nitems == 0) return false;
  const NdArray *x = in->arr;
  char *lo1 = x->s.data, *hi1 = x->s.data, *lo2 = out->s.data, *hi2 = out->s.data;
  for (int k = 0; k < x->ndim; k++) {
    int64_t e = (x->s.shape[k] - 1) * x->s.strides[k];
    if (e < 0) lo1 += e; else hi1 += e;
  }
  for (int k = 0; k < out->ndim; k++) {
    int64_t e = (out->s.shape[k] - 1) * out->s.strides[k];
    if (e < 0) lo2 += e; else hi2 += e;
  }
  hi1 += x->s.itemsize;
  hi2 += out->s.itemsize;
  if (hi1 <= lo2 || hi2 <= lo1) return false;
  /* the very same elements in the same order are safe */
  if (in->data != out->s.data || in->ndim != out->ndim) return true;
  for (int k = 0; k < in->ndim; k++)
    if (in->strides[k] != out->s.strides[k] || in->shape[k] != out->s.shape[k]) return true;
  return false;
}

/* broadcast n operands to one shape (right-aligned); false on mismatch */
static bool broadcast(Opnd *o, int n, int *ndim, int64_t *shape) {
  int nd = 0;
  for (int i = 0; i < n; i++)
    if (o[i].ndim > nd) nd = o[i].ndim;
  for (int k = 0; k < nd; k++) shape[k] = 1;
  for (int i = 0; i < n; i++) {
    int off = nd - o[i].ndim;
    for (int k = 0; k < o[i].ndim; k++) {
      int64_t d = o[i].shape[k];
      if (d == 1) continue;
      if (shape[off + k] == 1) shape[off + k] = d;
      else if (shape[off + k] != d) return false;
    }
  }
  for (int i = 0; i < n; i++) {
    int off = nd - o[i].ndim;
    int64_t st[LM_MAXDIM];
    for (int k = 0; k < nd; k++) {
      int j = k - off;
      st[k] = (j < 0 || o[i].shape[j] == 1) ? 0 : o[i].strides[j];
    }
    for (int k = 0; k < nd; k++) { o[i].strides[k] = st[k]; o[i].shape[k] = shape[k]; }
    o[i].ndim = nd;
  }
  *ndim = nd;
  return true;
}

static void mismatch(lua_State *L, Opnd *o, int n) {
  luaL_Buffer b;
  lua_pushliteral(L, "ValueError: operands could not be broadcast together with shapes");
  for (int i = 0; i < n; i++) {
    lua_pushliteral(L, " ");
    push_pyshape(L, o[i].ndim, o[i].shape);
  }
  lua_concat(L, 2 * n + 1);
  (void)b;
  uerror(L, "%s", lua_tostring(L, -1));
}

/* run plan over n inputs (1..3; 3 is where(): o[0] the condition) into out */
static void run(lua_State *L, const Plan *P, Opnd *o, int n, NdArray *out) {
  int nd = out->ndim;
  int64_t total = out->s.nitems;
  if (total == 0) return;
  DType ct = P->ct;
  bool uns = dtype_kinds[P->ct] == 'u', negpow = false;
  int64_t idx[LM_MAXDIM] = {0};
  char *p[4];
  for (int i = 0; i < n; i++) p[i] = o[i].data;
  p[n] = out->s.data;
  int64_t inner = nd ? out->s.shape[nd - 1] : 1;
  int64_t st[4];
  for (int i = 0; i < n; i++) st[i] = nd ? o[i].strides[nd - 1] : 0;
  st[n] = nd ? out->s.strides[nd - 1] : 0;
  /* + - * / (and x ^ 2 as x * x) in one dtype: a typed loop (array_arith.c) */
  ArithLoop fast = NULL;
  char sbuf[2][8];
  if (n == 2 && out->dtype == P->ct && P->rt == P->ct) {
    int op = P->op;
    bool square = op == U_POW && o[1].scalar && (o[1].dt == DT_FLOAT64 ? o[1].buf.f == 2 : o[1].buf.i == 2)
                  && o[1].dt != DT_BOOL;
    char c = op == U_ADD ? '+' : op == U_SUB ? '-' : op == U_MUL || square ? '*' : op == U_DIV ? '/' : 0;
    fast = c ? array_arith_loop(c, P->ct) : NULL;
    if (square && o[0].dt != P->ct) fast = NULL;  /* x * x reads x as it is */
    if (fast && square) o[1] = o[0], p[1] = p[0], st[1] = st[0];
    for (int i = 0; fast && i < 2; i++) {
      if (o[i].dt == P->ct) continue;
      if (!o[i].scalar) { fast = NULL; break; }
      store(P->ct, sbuf[i], load(o[i].dt, o[i].data, P->dom, ct), P->dom);
      o[i].dt = P->ct;
      p[i] = sbuf[i];
    }
  }
  for (int64_t done = 0; done < total; done += inner) {
    char *q[4];
    for (int i = 0; i <= n; i++) q[i] = p[i];
    if (fast) fast(q, st, inner);
    for (int64_t j = 0; !fast && j < inner; j++) {
      V r;
      if (n == 3) {  /* where */
        Num c = array_load(o[0].dt, q[0]);
        bool t = c.kind == 'f' ? c.f != 0 : c.i != 0;
        r = load(o[t ? 1 : 2].dt, q[t ? 1 : 2], P->dom, ct);
      } else {
        V a = load(o[0].dt, q[0], P->dom, ct);
        V b = n == 2 ? load(o[1].dt, q[1], P->dom, ct) : a;
        if (P->boolnot) r.i = a.i == 0;
        else if (P->dom == 'f') r = apply_f(P->op, a, b);
        else r = apply_i(P->op, a, b, uns, &negpow);
      }
      bool ires = P->dom != 'f' || (P->op >= U_EQ && P->op <= U_GE) ||
                  (P->op >= U_LAND && P->op <= U_LXOR) || P->op == U_NOT ||
                  (P->op >= U_ISNAN && P->op <= U_ISFINITE);
      store(out->dtype, q[n], r, n == 3 ? P->dom : ires ? (P->dom == 'u' ? 'u' : 'i') : 'f');
      for (int i = 0; i <= n; i++) q[i] += st[i];
    }
    /* next row: carry through the outer indices */
    for (int k = nd - 2; k >= 0; k--) {
      for (int i = 0; i < n; i++) p[i] += o[i].strides[k];
      p[n] += out->s.strides[k];
      if (++idx[k] < out->s.shape[k]) break;
      for (int i = 0; i < n; i++) p[i] -= o[i].strides[k] * out->s.shape[k];
      p[n] -= out->s.strides[k] * out->s.shape[k];
      idx[k] = 0;
    }
  }
  if (negpow) uerror(L, "ValueError: Integers to negative integer powers are not allowed.");
}

/* ---- complex operands: NumPy's complex loops, CPython's arithmetic (cplx.h) ---- */

static bool complex_op(int op) {
  switch (op) {
    case U_ADD: case U_SUB: case U_MUL: case U_DIV: case U_POW: case U_EQ: case U_NE: case U_NEG: case U_POS:
    case U_ABS: case U_SQUARE: case U_ISNAN: case U_ISINF: case U_ISFINITE: case U_SQRT: case U_EXP: case U_LOG:
    case U_LOG10: case U_SIN: case U_COS: case U_TAN: case U_ASIN: case U_ACOS: case U_ATAN: case U_SINH:
    case U_COSH: case U_TANH: case U_ASINH: case U_ACOSH: case U_ATANH:
      return true;
    default: return false;
  }
}

static int cmath_of(int op) {
  switch (op) {
    case U_SQRT: return CM_SQRT; case U_EXP: return CM_EXP; case U_LOG: return CM_LOG; case U_LOG10: return CM_LOG10;
    case U_SIN: return CM_SIN; case U_COS: return CM_COS; case U_TAN: return CM_TAN; case U_ASIN: return CM_ASIN;
    case U_ACOS: return CM_ACOS; case U_ATAN: return CM_ATAN; case U_SINH: return CM_SINH; case U_COSH: return CM_COSH;
    case U_TANH: return CM_TANH; case U_ASINH: return CM_ASINH; case U_ACOSH: return CM_ACOSH; default: return CM_ATANH;
  }
}

static Cplx as_cplx(Num v) {
  return cplx(v.kind == 'c' || v.kind == 'f' ? v.f : v.kind == 'u' ? (double)(uint64_t)v.i : (double)v.i,
              v.kind == 'c' ? v.im : 0);
}

/* one element: a complex value, or a bool / float for the predicates and abs (*kind) */
static Num complex_elem(int op, Cplx a, Cplx b) {
  Num r = {'c', 0, 0, 0};
  Cplx z = a;
  bool zero;
  switch (op) {
    case U_ADD: z = cplx_add(a, b); break;
    case U_SUB: z = cplx_sub(a, b); break;
    case U_MUL: z = cplx_mul(a, b); break;
    case U_SQUARE: z = cplx_mul(a, a); break;
    case U_DIV: z = cplx_div(a, b, &zero); if (zero) z = cplx(a.re / 0.0, a.im / 0.0); break;
    case U_POW: z = cplx_pow(a, b, &zero); break;
    case U_NEG: z = cplx(-a.re, -a.im); break;
    case U_POS: break;
    case U_EQ: case U_NE: {
      bool eq = a.re == b.re && a.im == b.im;
      r.kind = 'i';
      r.i = op == U_EQ ? eq : !eq;
      return r;
    }
    case U_ISNAN: case U_ISINF: case U_ISFINITE:
      r.kind = 'i';
      r.i = op == U_ISNAN ? (isnan(a.re) || isnan(a.im)) : op == U_ISINF ? (isinf(a.re) || isinf(a.im))
                                                                         : (isfinite(a.re) && isfinite(a.im));
      return r;
    case U_ABS: r.kind = 'f'; r.f = hypot(a.re, a.im); return r;
    default: {
      double out[2];
      lm_rt_cmath(cmath_of(op), a.re, a.im, out);
      z = cplx(out[0], out[1]);
      break;
    }
  }
  r.f = z.re;
  r.im = z.im;
  return r;
}

/* ops on complex operands, into a new array (or out): complex64 when no
** operand needs more (NumPy's promotion, Lua numbers and complex values
** being Python scalars), complex128 otherwise */
static int complex_call(lua_State *L, int op, int first, Opnd *o, int n, int out_idx) {
  (void)first;
  if (n == 3 || !complex_op(op))
    return uerror(L, "TypeError: ufunc '%s' not supported for complex inputs outside compiled code", op_names[n == 3 ? U_POS : op]);
  bool c64 = true, all_scalar = true;
  for (int i = 0; i < n; i++) {
    all_scalar = all_scalar && o[i].scalar;
    if (o[i].scalar) continue;
    DType d = o[i].dt;
    if (!(d == DT_COMPLEX64 || d == DT_FLOAT32 || d == DT_BOOL || dtype_sizes[d] <= 2)) c64 = false;
  }
  if (all_scalar) c64 = false;
  DType ct = c64 ? DT_COMPLEX64 : DT_COMPLEX128;
  DType rt = op == U_EQ || op == U_NE || op == U_ISNAN || op == U_ISINF || op == U_ISFINITE ? DT_BOOL
           : op == U_ABS ? (c64 ? DT_FLOAT32 : DT_FLOAT64) : ct;
  Opnd orig[2];
  memcpy(orig, o, (size_t)n * sizeof o[0]);
  int nd;
  int64_t shape[LM_MAXDIM];
  if (!broadcast(o, n, &nd, shape)) mismatch(L, orig, n);
  bool has_out = out_idx && !lua_isnoneornil(L, out_idx);
  NdArray *out;
  if (has_out) {
    out = array_checkw(L, out_idx, true);
    bool same = out->ndim == nd;
    for (int k = 0; same && k < nd; k++) same = out->s.shape[k] == shape[k];
    if (!same || dtype_kinds[out->dtype] != dtype_kinds[rt] || overlaps(&o[0], out) || (n == 2 && overlaps(&o[1], out)))
      return uerror(L, "ValueError: out must be a %s array of the broadcast shape, apart from the inputs, for complex inputs",
                    dtype_kinds[rt] == 'c' ? "complex" : dtype_names[rt]);
    lua_pushvalue(L, out_idx);
  } else {
    out = array_new(L, rt, nd, shape, 'C', 0);
  }
  /* every element in C order: an index counter over the broadcast shape */
  int64_t idx[LM_MAXDIM] = {0};
  for (int64_t e = 0; e < out->s.nitems; e++) {
    char *p[3];
    for (int i = 0; i < n; i++) {
      p[i] = o[i].data;
      for (int k = 0; k < nd; k++) p[i] += idx[k] * o[i].strides[k];
    }
    char *q = out->s.data;
    for (int k = 0; k < nd; k++) q += idx[k] * out->s.strides[k];
    Num a = array_load(o[0].dt, p[0]), b = n == 2 ? array_load(o[1].dt, p[1]) : a;
    Cplx x = as_cplx(a), y = as_cplx(b);
    if (ct == DT_COMPLEX64) {  /* the float32 loop sees float32 parts */
      x = cplx((float)x.re, (float)x.im);
      y = cplx((float)y.re, (float)y.im);
    }
    array_cast(L, out->dtype, q, complex_elem(op, x, y));
    for (int k = nd - 1; k >= 0; k--) {
      if (++idx[k] < shape[k]) break;
      idx[k] = 0;
    }
  }
  if (all_scalar && !has_out) array_push_elem(L, out->dtype, out->s.data);
  return 1;
}

/* the result dtype's plan for op over common dtype ct */
static Plan plan_of(lua_State *L, int op, DType ct, bool unary) {
  Plan P = {op, 'f', ct, ct, false};
  char k = dtype_kinds[ct];
  const char *nm = op_names[op];
  bool isbool = ct == DT_BOOL, isfl = k == 'f';
  if (op >= U_FIRST_FLOAT || op == U_DIV || op == U_ATAN2 || op == U_HYPOT || op == U_COPYSIGN) {
    P.ct = P.rt = op == U_DIV && !isfl ? DT_FLOAT64 : float_of(ct);
  } else if (op >= U_EQ && op <= U_GE) {
    P.rt = DT_BOOL;
  } else if ((op >= U_LAND && op <= U_LXOR) || op == U_NOT || (op >= U_ISNAN && op <= U_ISFINITE)) {
    P.rt = DT_BOOL;
  } else if (op == U_BAND || op == U_BOR || op == U_BXOR || op == U_INVERT || op == U_SHL || op == U_SHR) {
    if (isfl)
      uerror(L, "TypeError: ufunc '%s' not supported for the input types, and the inputs could not be "
             "safely coerced to any supported types according to the casting rule ''safe''", nm);
    if (isbool && (op == U_SHL || op == U_SHR)) P.ct = P.rt = DT_INT8;
    if (isbool && op == U_INVERT) P.boolnot = true;
  } else if (op == U_SUB && isbool) {
    uerror(L, "TypeError: numpy boolean subtract, the `-` operator, is not supported, use the "
           "bitwise_xor, the `^` operator, or the logical_xor function instead.");
  } else if (op == U_NEG && isbool) {
    uerror(L, "TypeError: The numpy boolean negative, the `-` operator, is not supported, use the "
           "`~` operator or the logical_not function instead.");
  } else if (isbool && (op == U_FLOORDIV || op == U_MOD || op == U_POW || op == U_FMOD || op == U_SQUARE)) {
    P.ct = P.rt = DT_INT8;
  } else if (isbool && op == U_SIGN) {
    uerror(L, "UFuncTypeError: ufunc 'sign' did not contain a loop with signature matching types");
  }
  (void)unary;
  char pk = dtype_kinds[P.ct];
  P.dom = pk == 'f' ? 'f' : pk == 'u' ? 'u' : 'i';
  return P;
}

/* NumPy's same_kind casting of a result into out */
static bool can_cast_same_kind(DType from, DType to) {
  if (from == to) return true;
  int rf = kind_rank(from), rt = kind_rank(to);
  if (rf != rt) {
    if (rf < rt) return true;
    return false;
  }
  return true;  /* same kind, any size (int8 <- int64 wraps, as NumPy allows) */
}

/* the shared body: n inputs at stack 1.. (after the op name), out or nil */
static int ufunc_call(lua_State *L, int op, int first, int n, int out_idx, bool unsafe) {
  Opnd o[4];
  for (int i = 0; i < n; i++) {
    if (!opnd_read(L, first + i, &o[i])) {
      return uerror(L, "TypeError: unsupported operand type for %s: '%s'", op_names[op],
                    luaL_typename(L, first + i));
    }
  }
  NdArray *rout = out_idx ? array_test(L, out_idx) : NULL;
  if (rout && dtype_is_record(rout->dtype)) array_records->unsupported(L, rout->dtype, "arithmetic");
  for (int i = 0; i < n; i++)
    if (dtype_kinds[o[i].dt] == 'c') return complex_call(L, op, first, o, n, out_idx);
  bool unary = n == 1 && op >= U_NBINARY;
  DType ct;
  Plan P;
  if (n == 3) {
    ct = result_type(o + 1, 2);
    P = (Plan){U_POS, dtype_kinds[ct] == 'f' ? 'f' : dtype_kinds[ct] == 'u' ? 'u' : 'i', ct, ct, false};
  } else {
    ct = result_type(o, n);
    bool deflt = op == U_FLOORDIV || op == U_MOD || op == U_POW || op == U_FMOD || op == U_BAND ||
                 op == U_BOR || op == U_BXOR || op == U_SHL || op == U_SHR;
    if (deflt && n == 2) {
      bool nobool = op != U_BAND && op != U_BOR && op != U_BXOR;
      DType t = loop_search(o, n, nobool ? DT_INT8 : DT_BOOL);
      /* floats have no bitwise loops: keep the float type, for the error */
      if (dtype_kinds[ct] != 'f') ct = t;
    }
    P = plan_of(L, op, ct, unary);
  }
  bool all_scalar = true;
  for (int i = 0; i < n; i++) all_scalar = all_scalar && o[i].scalar;
  bool has_out = out_idx && !lua_isnoneornil(L, out_idx);
  NdArray *out = has_out ? array_checkw(L, out_idx, true) : NULL;
  /* inputs overlapping out are read from copies */
  for (int i = 0; has_out && i < n; i++) {
    if (!overlaps(&o[i], out)) continue;
    NdArray *c = array_new(L, o[i].arr->dtype, o[i].arr->ndim, o[i].arr->s.shape, 'C', 0);
    array_assign(L, c, o[i].arr);
    lua_replace(L, first + i);  /* keeps the copy alive */
    opnd_read(L, first + i, &o[i]);
  }
  /* broadcast the inputs together, and to out's shape when there is one */
  Opnd orig[4];
  memcpy(orig, o, n * sizeof o[0]);
  int nb = n;
  if (has_out) {
    Opnd *t = &o[n];
    memset(t, 0, sizeof *t);
    t->ndim = out->ndim;
    for (int k = 0; k < out->ndim; k++) t->shape[k] = out->s.shape[k];
    nb = n + 1;
  }
  int nd;
  int64_t shape[LM_MAXDIM];
  if (!broadcast(o, n, &nd, shape)) mismatch(L, orig, n);
  if (has_out) {
    int nd2;
    int64_t shape2[LM_MAXDIM];
    bool ok = broadcast(o, nb, &nd2, shape2) && nd2 == out->ndim;
    for (int k = 0; ok && k < nd2; k++) ok = shape2[k] == out->s.shape[k];
    if (!ok) {
      push_pyshape(L, out->ndim, out->s.shape);
      push_pyshape(L, nd, shape);
      return uerror(L, "ValueError: non-broadcastable output operand with shape %s doesn't match the broadcast shape %s",
                    lua_tostring(L, -2), lua_tostring(L, -1));
    }
    if (!unsafe && !can_cast_same_kind(P.rt, out->dtype))
      return uerror(L, "UFuncTypeError: Cannot cast ufunc '%s' output from dtype('%s') to dtype('%s') with casting rule 'same_kind'",
                    n == 3 ? "where" : op_names[op], dtype_names[P.rt], dtype_names[out->dtype]);
    lua_pushvalue(L, out_idx);
  } else {
    out = array_new(L, P.rt, nd, shape, 'C', 0);
  }
  run(L, &P, o, n, out);
  if (all_scalar && !has_out) {
    array_push_elem(L, out->dtype, out->s.data);  /* scalars in, a scalar out */
  }
  return 1;
}

static int checked_op(lua_State *L, int idx) {
  const char *s = luaL_checkstring(L, idx);
  int op = op_lookup(s);
  if (op < 0) return luaL_argerror(L, idx, lua_pushfstring(L, "unknown operation '%s'", s));
  return op;
}

/* lumba.binop(op, x, y [, out]) */
static int l_binop(lua_State *L) {
  int op = checked_op(L, 1);
  if (op >= U_NBINARY) return luaL_argerror(L, 1, lua_pushfstring(L, "'%s' is not a binary operation", op_names[op]));
  return ufunc_call(L, op, 2, 2, 4, false);
}

/* lumba.unop(op, x [, out]) */
static int l_unop(lua_State *L) {
  int op = checked_op(L, 1);
  if (op < U_NBINARY) return luaL_argerror(L, 1, lua_pushfstring(L, "'%s' is not a unary operation", op_names[op]));
  return ufunc_call(L, op, 2, 1, 3, false);
}

/* lumba.copyto(dst, src): src (an array or a scalar) broadcast to dst's
** shape and cast as astype casts (NumPy's a[...] = v) */
static int l_copyto(lua_State *L) {
  lua_settop(L, 2);
  lua_pushvalue(L, 1);  /* stack: dst, src, dst (the out) */
  ufunc_call(L, U_POS, 2, 1, 3, true);
  return 0;
}

/* lumba.where(cond, x, y) */
static int l_where(lua_State *L) {
  lua_settop(L, 3);
  return ufunc_call(L, U_POS, 1, 3, 0, false);
}

/* metamethods: both operands at 1, 2 (for unary ones Lua passes the operand twice) */
#define META2(name, op) static int name(lua_State *L) { lua_settop(L, 2); return ufunc_call(L, op, 1, 2, 0, false); }
#define META1(name, op) static int name(lua_State *L) { lua_settop(L, 1); return ufunc_call(L, op, 1, 1, 0, false); }
META2(m_add, U_ADD)
META2(m_sub, U_SUB)
META2(m_mul, U_MUL)
META2(m_div, U_DIV)
META2(m_mod, U_MOD)
META2(m_pow, U_POW)
META2(m_idiv, U_FLOORDIV)
META2(m_band, U_BAND)
META2(m_bor, U_BOR)
META2(m_bxor, U_BXOR)
META2(m_shl, U_SHL)
META2(m_shr, U_SHR)
META1(m_unm, U_NEG)
META1(m_bnot, U_INVERT)

/* a < b, a <= b: Lua makes them booleans, so they are the truth of the
** elementwise comparison, as Python's `if a < b:` (one element; empty is
** false; more raise) */
static int truth_of(lua_State *L, int op) {
  lua_settop(L, 2);
  ufunc_call(L, op, 1, 2, 0, false);
  NdArray *r = array_test(L, -1);
  if (!r) return 1;
  if (r->s.nitems > 1)
    return uerror(L, "ValueError: The truth value of an array with more than one element is ambiguous. "
                  "Use a.any() or a.all()");
  lua_pushboolean(L, r->s.nitems == 1 && *(uint8_t *)r->s.data);
  return 1;
}
static int m_lt(lua_State *L) { return truth_of(L, U_LT); }
static int m_le(lua_State *L) { return truth_of(L, U_LE); }

static const luaL_Reg ufunc_meta[] = {
  {"__add", m_add}, {"__sub", m_sub}, {"__mul", m_mul}, {"__div", m_div},
  {"__mod", m_mod}, {"__pow", m_pow}, {"__idiv", m_idiv}, {"__band", m_band},
  {"__bor", m_bor}, {"__bxor", m_bxor}, {"__shl", m_shl}, {"__shr", m_shr},
  {"__unm", m_unm}, {"__bnot", m_bnot}, {"__lt", m_lt}, {"__le", m_le}, {NULL, NULL},
};

static const luaL_Reg ufunc_funcs[] = {
  {"binop", l_binop}, {"unop", l_unop}, {"where", l_where}, {"copyto", l_copyto}, {NULL, NULL},
};

void array_ufunc_open(lua_State *L) {
  luaL_getmetatable(L, ARRAY_MT);
  luaL_setfuncs(L, ufunc_meta, 0);
  lua_pop(L, 1);
  luaL_setfuncs(L, ufunc_funcs, 0);
}
