/*
** random.c — lumba.random.{seed, rand, randn, randint, choice}.
**
** The generator, the same on every machine (so a seed gives the same
** numbers everywhere):
**  - state: xoshiro256** (Blackman and Vigna, 2018), four 64-bit words;
**  - seed(n): the words are four successive outputs of splitmix64 started
**    at n (taken as 64 bits);
**  - uniform floats in [0, 1): the top 53 bits of an output times 2^-53;
**  - integers in [0, r): the low bits of outputs under the smallest
**    all-ones mask covering r-1, drawn again while >= r (no bias);
**  - normals: Marsaglia's polar method on two uniforms u, v mapped to
**    [-1, 1): redrawn until 0 < s = u^2 + v^2 < 1, then u*f and v*f with
**    f = sqrt(-2 log(s) / s); the second value is kept for the next draw
**    (seed() forgets it). sqrt is exact in IEEE arithmetic; log comes from
**    the C library, correctly rounded in glibc >= 2.28 on x86-64 and
**    aarch64, where the normals are therefore bit-identical too.
** Each Lua state has its own generator (an upvalue of these functions),
** seeded from the clock until seed() is called, as NumPy's default.
*/
#include <math.h>
#include <string.h>
#include <time.h>

#include <lauxlib.h>
#include <lua.h>

#include "array.h"
#include "array_impl.h"
#include "random.h"

typedef struct Rng {
  uint64_t s[4];  // xoshiro256** state
  bool has_spare; // a second normal from the last polar draw
  double spare;
} Rng;

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

static uint64_t next(Rng *R) {
  uint64_t *s = R->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

static void seed(Rng *R, uint64_t n) {
  for (int i = 0; i < 4; i++) R->s[i] = splitmix64(&n);
  R->has_spare = false;
}

static double uniform(Rng *R) {
  return (double)(next(R) >> 11) * 0x1.0p-53;
}

/* [0, r) for r >= 1 */
static uint64_t bounded(Rng *R, uint64_t r) {
  uint64_t mask = r - 1;
  for (int k = 1; k < 64; k <<= 1) mask |= mask >> k;
  uint64_t x;
  do x = next(R) & mask; while (x >= r);
  return x;
}

static double normal(Rng *R) {
  if (R->has_spare) {
    R->has_spare = false;
    return R->spare;
  }
  double u, v, s;
  do {
    u = 2 * uniform(R) - 1;
    v = 2 * uniform(R) - 1;
    s = u * u + v * v;
  } while (s >= 1 || s == 0);
  double f = sqrt(-2 * log(s) / s);
  R->spare = v * f;
  R->has_spare = true;
  return u * f;
}

static Rng *rng(lua_State *L) {
  return lua_touserdata(L, lua_upvalueindex(1));
}

/* seed(n) */
static int random_lua_seed(lua_State *L) {
  seed(rng(L), (uint64_t)luaL_checkinteger(L, 1));
  return 0;
}

/* shape of rand/randn: d1, d2, ... or a table; NULL (0 dims) for none */
static int vararg_shape(lua_State *L, int64_t *shape) {
  if (lua_type(L, 1) == LUA_TTABLE) return array_read_shape(L, 1, shape, 1);
  int n = lua_gettop(L);
  if (n > LM_MAXDIM) luaL_error(L, "too many dimensions: %d (at most %d)", n, LM_MAXDIM);
  for (int k = 0; k < n; k++) shape[k] = luaL_checkinteger(L, k + 1);
  return n;
}

/* rand(d1, d2, ...) -> float64 array in [0, 1); rand() -> a number */
static int random_lua_rand(lua_State *L) {
  Rng *R = rng(L);
  int64_t shape[LM_MAXDIM];
  int nd = vararg_shape(L, shape);
  if (nd == 0 && lua_gettop(L) == 0) {
    lua_pushnumber(L, uniform(R));
    return 1;
  }
  NdArray *a = array_new(L, DT_FLOAT64, nd, shape, 'C', 1);
  double *p = a->s.data;
  for (int64_t i = 0; i < a->s.nitems; i++) p[i] = uniform(R);
  return 1;
}

/* randn(d1, d2, ...) -> standard normal float64 array; randn() -> a number */
static int random_lua_randn(lua_State *L) {
  Rng *R = rng(L);
  int64_t shape[LM_MAXDIM];
  int nd = vararg_shape(L, shape);
  if (nd == 0 && lua_gettop(L) == 0) {
    lua_pushnumber(L, normal(R));
    return 1;
  }
  NdArray *a = array_new(L, DT_FLOAT64, nd, shape, 'C', 1);
  double *p = a->s.data;
  for (int64_t i = 0; i < a->s.nitems; i++) p[i] = normal(R);
  return 1;
}

/* randint(low, high [, shape [, dtype]]) or randint(high [, shape [, dtype]]):
** integers in [low, high) (high excluded, as NumPy; low defaults to 0);
** without a shape, one Lua integer */
static int random_lua_randint(lua_State *L) {
  Rng *R = rng(L);
  lua_Integer lo = 0, hi;
  int sh = 2;
  if (lua_type(L, 2) == LUA_TNUMBER) {
    lo = luaL_checkinteger(L, 1);
    hi = luaL_checkinteger(L, 2);
    sh = 3;
  } else {
    hi = luaL_checkinteger(L, 1);
  }
  if (lo >= hi)
    return luaL_argerror(L, sh - 1, lua_pushfstring(L, "empty range [%I, %I): low must be less than high",
                                                  lo, hi));
  uint64_t r = (uint64_t)hi - (uint64_t)lo;
  DType dt = dtype_check(L, sh + 1, DT_INT64);
  if (lua_isnoneornil(L, sh)) {
    lua_pushinteger(L, (lua_Integer)((uint64_t)lo + bounded(R, r)));
    return 1;
  }
  unsigned char tmp[16];  /* both ends must fit the dtype */
  lua_pushinteger(L, lo);
  array_store_elem(L, dt, tmp, lua_gettop(L), sh - 1);
  lua_pushinteger(L, hi - 1);
  array_store_elem(L, dt, tmp, lua_gettop(L), sh - 1);
  lua_pop(L, 2);
  int64_t shape[LM_MAXDIM];
  int nd = array_read_shape(L, sh, shape, sh);
  NdArray *a = array_new(L, dt, nd, shape, 'C', sh);
  char *p = a->s.data;
  for (int64_t i = 0; i < a->s.nitems; i++, p += a->s.itemsize)
    array_cast(L, dt, p, (Num){'i', (int64_t)((uint64_t)lo + bounded(R, r)), 0, 0});
  return 1;
}

/* choice(values [, shape]): elements of a table or 1-D array drawn
** uniformly with replacement; without a shape, one element */
static int random_lua_choice(lua_State *L) {
  Rng *R = rng(L);
  NdArray *src = array_test(L, 1);
  if (src == NULL) {
    int dt = array_table_dtype(L, 1);
    if (dt < 0) {
      if (lua_type(L, 1) == LUA_TTABLE)
        return luaL_argerror(L, 1, "table of numbers or booleans expected");
      return luaL_typeerror(L, 1, "table or array");
    }
    src = array_from_table(L, 1, (DType)dt);
    lua_replace(L, 1);
  }
  if (src->ndim != 1) return luaL_argerror(L, 1, "a 1-D array or table expected");
  int64_t n = src->s.shape[0];
  if (n == 0) return luaL_argerror(L, 1, "cannot choose from an empty sequence");
  const char *base = src->s.data;
  int64_t stride = src->s.strides[0];
  if (lua_isnoneornil(L, 2)) {
    array_push_elem(L, src->dtype, base + (int64_t)bounded(R, (uint64_t)n) * stride);
    return 1;
  }
  int64_t shape[LM_MAXDIM];
  int nd = array_read_shape(L, 2, shape, 2);
  NdArray *a = array_new(L, src->dtype, nd, shape, 'C', 2);
  char *p = a->s.data;
  size_t sz = (size_t)a->s.itemsize;
  for (int64_t i = 0; i < a->s.nitems; i++, p += sz)
    memcpy(p, base + (int64_t)bounded(R, (uint64_t)n) * stride, sz);
  return 1;
}

static const luaL_Reg random_funcs[] = {
  {"seed", random_lua_seed},
  {"rand", random_lua_rand},
  {"randn", random_lua_randn},
  {"randint", random_lua_randint},
  {"choice", random_lua_choice},
  {NULL, NULL},
};

void random_open(lua_State *L) {
  lua_newtable(L);
  Rng *R = lua_newuserdatauv(L, sizeof(Rng), 0);
  seed(R, (uint64_t)time(NULL) ^ (uint64_t)clock() ^ (uint64_t)(uintptr_t)L);
  luaL_setfuncs(L, random_funcs, 1);
  lua_setfield(L, -2, "random");
}
