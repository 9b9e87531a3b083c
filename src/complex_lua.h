/*
** complex_lua.h — lumba.complex: the Lua form of a complex scalar (a small
** immutable userdata with .real, .imag, arithmetic, ==, tostring as
** Python's repr). Complex array elements read as one; stores take one or
** a plain number.
*/
#ifndef complex_lua_h
#define complex_lua_h

#include <stdbool.h>

#include <lua.h>

#include "cplx.h"
#include "udata.h"

typedef struct LuaComplex {
  double re, im;
  uint32_t tag;  // COMPLEX_TAG
} LuaComplex;

#define COMPLEX_MT "lumba.complex"
#define COMPLEX_TAG UDATA_TAG('l', 'c', 'p', 'x')

void complex_push(lua_State *L, double re, double im);
/* a lumba.complex at idx: true and *c; else false */
bool complex_test(lua_State *L, int idx, Cplx *c);
/* a number or a lumba.complex at idx: true and *c; else false */
bool complex_tocomplex(lua_State *L, int idx, Cplx *c);
/* a ** b for compiled code: CPython's algorithm, nan for 0 to a negative
** or complex power (Numba's numba_cpow) */
void lm_rt_cpow(double ar, double ai, double br, double bi, double *out);
/* op (CmathOp) of re + im*j into out[0], out[1]: C99's complex functions */
void lm_rt_cmath(int32_t op, double re, double im, double *out);
/* registers the metatable and lumba.complex in the table on top */
void complex_open(lua_State *L);

#endif
