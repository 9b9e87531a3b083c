/*
** complex_lua.c — lumba.complex, the Lua complex scalar. Immutable, so a value
** type: every operation makes a new one. Arithmetic takes complex values
** and plain numbers on either side and follows CPython's complex (cplx.h);
** division by zero and 0 raised to a negative power raise
** ZeroDivisionError as Python does. == compares two complex values (Lua
** calls __eq only between two userdata: c == 1 is false, use c.real).
** Complex numbers are not ordered: < and <= raise.
*/
#include <complex.h>

#include <lauxlib.h>
#include <lua.h>

#include "complex_lua.h"

void complex_push(lua_State *L, double re, double im) {
  LuaComplex *c = lua_newuserdatauv(L, sizeof *c, 0);
  c->re = re;
  c->im = im;
  c->tag = COMPLEX_TAG;
  luaL_setmetatable(L, COMPLEX_MT);
}

bool complex_test(lua_State *L, int idx, Cplx *c) {
  LuaComplex *p = UDATA_TEST(L, idx, LuaComplex, COMPLEX_MT, COMPLEX_TAG);
  if (p == NULL) return false;
  *c = cplx(p->re, p->im);
  return true;
}

bool complex_tocomplex(lua_State *L, int idx, Cplx *c) {
  if (lua_type(L, idx) == LUA_TNUMBER) {
    *c = cplx(lua_tonumber(L, idx), 0);
    return true;
  }
  return complex_test(L, idx, c);
}

static Cplx check_arg(lua_State *L, int idx) {
  Cplx c;
  if (!complex_tocomplex(L, idx, &c))
    luaL_error(L, "attempt to perform arithmetic on a complex and a %s value", luaL_typename(L, idx));
  return c;
}

static int push(lua_State *L, Cplx c) {
  complex_push(L, c.re, c.im);
  return 1;
}

/* z op x with x neither a number nor a complex (an array): x's own
** metamethod for the event, if it has one; 0 if not */
static int defer(lua_State *L, const char *event) {
  Cplx c;
  int other = complex_tocomplex(L, 1, &c) ? 2 : 1;
  if (complex_tocomplex(L, other, &c) || luaL_getmetafield(L, other, event) == LUA_TNIL) return 0;
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  lua_call(L, 2, 1);
  return 1;
}

#define DEFER(ev) do { int d_ = defer(L, ev); if (d_) return d_; } while (0)

static int c_add(lua_State *L) { DEFER("__add"); return push(L, cplx_add(check_arg(L, 1), check_arg(L, 2))); }
static int c_sub(lua_State *L) { DEFER("__sub"); return push(L, cplx_sub(check_arg(L, 1), check_arg(L, 2))); }
static int c_mul(lua_State *L) { DEFER("__mul"); return push(L, cplx_mul(check_arg(L, 1), check_arg(L, 2))); }
static int c_unm(lua_State *L) {
  Cplx a = check_arg(L, 1);
  return push(L, cplx(-a.re, -a.im));
}

static int c_div(lua_State *L) {
  DEFER("__div");
  bool zero;
  Cplx r = cplx_div(check_arg(L, 1), check_arg(L, 2), &zero);
  if (zero) luaL_error(L, "ZeroDivisionError: complex division by zero");
  return push(L, r);
}

static int c_pow(lua_State *L) {
  DEFER("__pow");
  bool zero;
  Cplx r = cplx_pow(check_arg(L, 1), check_arg(L, 2), &zero);
  if (zero) luaL_error(L, "ZeroDivisionError: 0.0 to a negative or complex power");
  return push(L, r);
}

static int c_eq(lua_State *L) {
  Cplx a, b;
  lua_pushboolean(L, complex_test(L, 1, &a) && complex_test(L, 2, &b) && a.re == b.re && a.im == b.im);
  return 1;
}

static int c_lt(lua_State *L) {
  return luaL_error(L, "TypeError: complex numbers are not ordered");
}

static int c_tostring(lua_State *L) {
  Cplx c = check_arg(L, 1);
  char buf[96];
  cplx_repr(buf, sizeof buf, c);
  lua_pushstring(L, buf);
  return 1;
}

static int c_conjugate(lua_State *L) {
  Cplx a = check_arg(L, 1);
  return push(L, cplx(a.re, -a.im));
}

static int c_index(lua_State *L) {
  Cplx c = check_arg(L, 1);
  const char *k = lua_tostring(L, 2);
  if (k && strcmp(k, "real") == 0) lua_pushnumber(L, c.re);
  else if (k && strcmp(k, "imag") == 0) lua_pushnumber(L, c.im);
  else if (k && strcmp(k, "conjugate") == 0) lua_pushcfunction(L, c_conjugate);
  else return luaL_error(L, "complex has no field '%s'", k ? k : luaL_typename(L, 2));
  return 1;
}

static int c_newindex(lua_State *L) {
  return luaL_error(L, "complex values are immutable");
}

/* lumba.complex(re [, im]): re may itself be complex (Python's complex(a, b) = a + b*1j) */
static int c_new(lua_State *L) {
  Cplx a, b = cplx(0, 0);
  if (!complex_tocomplex(L, 1, &a)) luaL_typeerror(L, 1, "number or complex");
  if (!lua_isnoneornil(L, 2) && !complex_tocomplex(L, 2, &b)) luaL_typeerror(L, 2, "number or complex");
  return push(L, cplx(a.re - b.im, a.im + b.re));
}

/* lumba.iscomplex(v) */
static int c_is(lua_State *L) {
  Cplx c;
  lua_pushboolean(L, complex_test(L, 1, &c));
  return 1;
}

void lm_rt_cpow(double ar, double ai, double br, double bi, double *out) {
  bool zero;
  Cplx r = cplx_pow(cplx(ar, ai), cplx(br, bi), &zero);
  out[0] = r.re;
  out[1] = r.im;
}

/* re + im*i exactly (infinities and NaNs kept): C11's CMPLX, which glibc
** defines only for GCC, not for clang (the fuzz and sanitizer builds) */
static double _Complex make_complex(double re, double im) {
  double _Complex z;
  double *parts = (double *)&z;  /* C11 6.2.5: an array of two reals */
  parts[0] = re;
  parts[1] = im;
  return z;
}

void lm_rt_cmath(int32_t op, double re, double im, double *out) {
  double _Complex z = make_complex(re, im), r;
  switch (op) {
    case CM_SQRT: r = csqrt(z); break;
    case CM_EXP: r = cexp(z); break;
    case CM_LOG: r = clog(z); break;
    case CM_LOG10: r = clog(z); r = make_complex(creal(r) / M_LN10, cimag(r) / M_LN10); break;  /* CPython's */
    case CM_LOG2: r = clog(z); r = make_complex(creal(r) / M_LN2, cimag(r) / M_LN2); break;
    case CM_SIN: r = csin(z); break;
    case CM_COS: r = ccos(z); break;
    case CM_TAN: r = ctan(z); break;
    case CM_ASIN: r = casin(z); break;
    case CM_ACOS: r = cacos(z); break;
    case CM_ATAN: r = catan(z); break;
    case CM_SINH: r = csinh(z); break;
    case CM_COSH: r = ccosh(z); break;
    case CM_TANH: r = ctanh(z); break;
    case CM_ASINH: r = casinh(z); break;
    case CM_ACOSH: r = cacosh(z); break;
    case CM_ATANH: r = catanh(z); break;
    case CM_EXPM1: r = cexp(z) - 1; break;
    case CM_LOG1P: r = clog(1 + z); break;
    case CM_EXP2: r = cpow(2, z); break;
    default: r = make_complex(NAN, NAN); break;
  }
  out[0] = creal(r);
  out[1] = cimag(r);
}

/* lumba.core._cmath(op, re, im) -> re, im: the object mode's cmath (op a
** CmathOp), the same C99 functions compiled code calls */
static int c_cmath(lua_State *L) {
  int op = (int)luaL_checkinteger(L, 1);
  if (op < 0 || op > CM_EXP2) return luaL_error(L, "lumba.core._cmath: no operation %d", op);
  double out[2];
  lm_rt_cmath(op, luaL_checknumber(L, 2), luaL_checknumber(L, 3), out);
  lua_pushnumber(L, out[0]);
  lua_pushnumber(L, out[1]);
  return 2;
}

void complex_open(lua_State *L) {
  static const luaL_Reg mt[] = {
      {"__add", c_add}, {"__sub", c_sub}, {"__mul", c_mul}, {"__div", c_div},
      {"__pow", c_pow}, {"__unm", c_unm}, {"__eq", c_eq}, {"__lt", c_lt},
      {"__le", c_lt}, {"__tostring", c_tostring}, {"__index", c_index},
      {"__newindex", c_newindex}, {NULL, NULL}};
  luaL_newmetatable(L, COMPLEX_MT);
  luaL_setfuncs(L, mt, 0);
  udata_protect(L, -1, COMPLEX_MT);
  lua_pop(L, 1);
  lua_pushcfunction(L, c_new);
  lua_setfield(L, -2, "complex");
  lua_pushcfunction(L, c_is);
  lua_setfield(L, -2, "iscomplex");
  lua_pushcfunction(L, c_cmath);
  lua_setfield(L, -2, "_cmath");
}
