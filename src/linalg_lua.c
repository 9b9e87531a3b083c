/*
** linalg_lua.c — lumba.core._lapack and lumba.core._prod, the object mode's
** door to the LAPACK and BLAS runtime compiled code calls (lapack_rt.h,
** linalg_rt.h), so that np.linalg, @, np.dot, np.matmul, np.inner and
** np.vdot give the same numbers in both modes.
**   _lapack(op, x, ...): op an LmLapackOp; arrays (1-D, 2-D, their dtype the
**   first one's) and numbers in any order, as the prelude's _lumba.lapack
**   (lua/lumba/objmode_prelude.lua); returns its number result.
**   _prod(op, a, b): op an LmProd; a and b 1-D or 2-D arrays of one float or
**   complex dtype; a new C-contiguous array, or an element for two 1-D.
*/
#include <lauxlib.h>

#include "array.h"
#include "lapack_rt.h"
#include "linalg_rt.h"

#define MAX_OPERANDS 7

static void operand_of(const NdArray *a, LmOperand *o) {
  o->data = a->s.data;
  o->ndim = a->ndim;
  for (int d = 0; d < 2; d++) {
    o->shape[d] = d < a->ndim ? a->s.shape[d] : 1;
    o->strides[d] = d < a->ndim ? a->s.strides[d] : a->s.itemsize;
  }
}

/* the runtime's message, without a position (the object mode adds the Python one) */
static int raise(lua_State *L, const LmErr *err) {
  char buf[512];
  switch (err->kind) {
    case LMERR_RAISE: return luaL_error(L, "%s", err->msg ? err->msg : "ValueError");
    case LMERR_MEMORY: return luaL_error(L, "MemoryError: %s", err->msg ? err->msg : "");
    case LMERR_VALUE_FMT: lmerr_format(err, buf, sizeof buf); return luaL_error(L, "ValueError: %s", buf);
    default: return luaL_error(L, "ValueError: %s", err->msg ? err->msg : "");
  }
}

static NdArray *matrix_arg(lua_State *L, int idx) {
  NdArray *a = array_check(L, idx);
  if (a->ndim < 1 || a->ndim > 2) luaL_error(L, "TypeError: np.linalg works on 1-D and 2-D arrays, not %d-D", a->ndim);
  return a;
}

static int lapack(lua_State *L) {
  int op = (int)luaL_checkinteger(L, 1), top = lua_gettop(L), nops = 0, nsc = 0, dt = -1;
  if (op < 0 || op >= LM_LA__COUNT) return luaL_error(L, "lumba.core._lapack: no operation %d", op);
  LmOperand ops[MAX_OPERANDS];
  double sc[MAX_OPERANDS], ret = 0;
  for (int i = 2; i <= top; i++) {
    if (lua_type(L, i) == LUA_TNUMBER) {
      if (nsc == MAX_OPERANDS) return luaL_error(L, "lumba.core._lapack: too many numbers");
      sc[nsc++] = lua_tonumber(L, i);
      continue;
    }
    NdArray *a = matrix_arg(L, i);
    if (nops == MAX_OPERANDS) return luaL_error(L, "lumba.core._lapack: too many arrays");
    if (dt < 0) {
      dt = a->dtype;
      bool cplx = dt == DT_COMPLEX64 || dt == DT_COMPLEX128;
      if (cplx && op != LM_LA_SOLVE && op != LM_LA_INV)
        return luaL_error(L, "TypeError: np.linalg on complex arrays supports only inv and solve so far");
      if (!cplx && dt != DT_FLOAT32 && dt != DT_FLOAT64)
        return luaL_error(L, "TypeError: np.linalg works on float and complex arrays, not %s", dtype_names[dt]);
    }
    operand_of(a, &ops[nops++]);
  }
  if (dt < 0) return luaL_error(L, "lumba.core._lapack: needs an array");
  LmErr err = {0};
  if (lm_lapack(&err, op, dt, nops, ops, nsc, sc, &ret)) return raise(L, &err);
  lua_pushnumber(L, ret);
  return 1;
}

static int prod(lua_State *L) {
  int op = (int)luaL_checkinteger(L, 1);
  NdArray *a = array_check(L, 2), *b = array_check(L, 3);
  if (a->dtype != b->dtype) return luaL_error(L, "lumba.core._prod: the operands' dtypes differ");
  DType dt = a->dtype;
  if (dt != DT_FLOAT32 && dt != DT_FLOAT64 && dt != DT_COMPLEX64 && dt != DT_COMPLEX128)
    return luaL_error(L, "lumba.core._prod: float or complex operands only, not %s", dtype_names[dt]);
  if (a->ndim < 1 || a->ndim > 2 || b->ndim < 1 || b->ndim > 2)
    return luaL_error(L, "TypeError: np.dot() only supported on 1-D and 2-D arrays");
  LmOperand oa, ob;
  operand_of(a, &oa);
  operand_of(b, &ob);
  LmErr err = {0};
  int64_t shape[2] = {0, 0};
  if (lm_prod_shape(&err, op, &oa, &ob, shape)) return raise(L, &err);
  if (a->ndim == 1 && b->ndim == 1) {
    double scalar[2] = {0, 0};  /* room for a complex128 */
    if (lm_prod(&err, op, dt, &oa, &ob, NULL, scalar)) return raise(L, &err);
    array_push_elem(L, dt, scalar);
    return 1;
  }
  int nd = a->ndim == 1 || b->ndim == 1 ? 1 : 2;
  NdArray *out = array_push_new(L, dt, nd, shape);
  LmOperand oo;
  operand_of(out, &oo);
  if (lm_prod(&err, op, dt, &oa, &ob, &oo, NULL)) return raise(L, &err);
  return 1;
}

void linalg_lua_open(lua_State *L) {
  lua_pushcfunction(L, lapack);
  lua_setfield(L, -2, "_lapack");
  lua_pushcfunction(L, prod);
  lua_setfield(L, -2, "_prod");
}
