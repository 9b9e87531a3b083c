/* The array runtime's C entry points that no Lua function exposes: plain
** tables as arrays (for compiled-function arguments) and the embedding
** API's argument checks. */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "array.h"
#include "lumba.h"
#include "test.h"

static int released;
static void on_release(void *ud, void *ptr) {
  (void)ptr;
  released += *(int *)ud;
}

static int from_table_uint8(lua_State *L) {
  array_from_table(L, 1, DT_UINT8);
  return 1;
}

/* evaluates a Lua expression; the value is left on the stack */
static void eval(lua_State *L, const char *expr) {
  char buf[256];
  snprintf(buf, sizeof buf, "return %s", expr);
  if (luaL_dostring(L, buf) != LUA_OK) {
    printf("FAIL eval %s: %s\n", expr, lua_tostring(L, -1));
    lua_pop(L, 1);
    lua_pushnil(L);
  }
}

int main(void) {
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  lua_newtable(L);
  array_open(L);
  lua_setglobal(L, "lumba");

  /* dtype inference, without raising */
  eval(L, "{1, 2, 3}");
  ASSERT(DT_INT64, array_table_dtype(L, -1));
  eval(L, "{1, 2.5}");
  ASSERT(DT_FLOAT64, array_table_dtype(L, -1));
  eval(L, "{{true}, {false}}");
  ASSERT(DT_BOOL, array_table_dtype(L, -1));
  eval(L, "{{1, 2}, {3}}");
  ASSERT(-1, array_table_dtype(L, -1));
  eval(L, "{1, 'x'}");
  ASSERT(-1, array_table_dtype(L, -1));
  eval(L, "42");
  ASSERT(-1, array_table_dtype(L, -1));
  ASSERT(6, lua_gettop(L));
  lua_settop(L, 0);

  /* a table copied in as float64, changed, copied back */
  eval(L, "{1, 2, 3}");
  NdArray *a = array_from_table(L, 1, DT_FLOAT64);
  ASSERT(2, lua_gettop(L));
  ASSERT(1, a->ndim);
  ASSERT(3, a->s.shape[0]);
  ASSERT(DT_FLOAT64, a->dtype);
  double *d = a->s.data;
  ASSERT(2, (int)d[1]);
  d[0] = 10.5;
  d[2] = -1;
  array_copy_back(L, 1, a);
  lua_setglobal(L, "arr");
  lua_setglobal(L, "t");
  eval(L, "t[1] == 10.5 and math.type(t[2]) == 'float' and t[2] == 2 and t[3] == -1 and #t == 3");
  ASSERT(1, lua_toboolean(L, -1));
  lua_settop(L, 0);

  /* nested tables give N-d; copy_back fills the existing rows */
  eval(L, "{{1, 2, 3}, {4, 5, 6}}");
  a = array_from_table(L, 1, DT_INT32);
  ASSERT(2, a->ndim);
  ASSERT(3, a->s.shape[1]);
  ASSERT(12, a->s.strides[0]);
  ((int32_t *)a->s.data)[4] = 50;
  array_copy_back(L, 1, a);
  lua_pushvalue(L, 1);
  lua_setglobal(L, "t2");
  eval(L, "t2[2][2] == 50 and math.type(t2[2][2]) == 'integer' and t2[1][3] == 3");
  ASSERT(1, lua_toboolean(L, -1));
  lua_settop(L, 0);

  /* a value that does not fit, or a ragged table, raises a Lua error */
  lua_pushcfunction(L, from_table_uint8);
  eval(L, "{1, 300}");
  ASSERT(LUA_ERRRUN, lua_pcall(L, 1, 1, 0));
  ASSERT_STR("value 300 out of bounds for uint8", lua_tostring(L, -1));
  lua_pushcfunction(L, from_table_uint8);
  eval(L, "{{1}, {2, 3}}");
  ASSERT(LUA_ERRRUN, lua_pcall(L, 1, 1, 0));
  ASSERT_STR("ragged nested tables: element [2] has length 2, expected 1", lua_tostring(L, -1));
  lua_settop(L, 0);

  /* C's type names mean C's types: "float" is float32 (a C float buffer is
  ** read as 4-byte floats, not past its end), "int" int32, "double" float64 */
  {
    static const struct { const char *name, *dtype; int size; } c_names[] = {
      {"float", "float32", 4}, {"double", "float64", 8}, {"int", "int32", 4},
      {"long", "int64", 8}, {"unsigned char", "uint8", 1}, {"uint16_t", "uint16", 2},
      {"int64_t", "int64", 8}, {"_Bool", "bool", 1}, {"f4", "float32", 4}, {"float64", "float64", 8},
      {"float _Complex", "complex64", 8}, {"double _Complex", "complex128", 16}, {"c16", "complex128", 16},
    };
    static float fbuf[3] = {1.5f, 2.5f, 3.5f};
    int64_t n3 = 3;
    for (size_t i = 0; i < sizeof c_names / sizeof c_names[0]; i++) {
      lumba_ArrayInfo info;
      ASSERT(LUMBA_OK, lumba_pusharray(L, fbuf, c_names[i].name, 1, &n3, NULL, NULL, NULL));
      lumba_toarray(L, -1, &info);
      ASSERT_STR(c_names[i].dtype, info.dtype);
      ASSERT(c_names[i].size, (int)info.itemsize);
      lua_pop(L, 1);
    }
    ASSERT(LUMBA_OK, lumba_pusharray(L, fbuf, "float", 1, &n3, NULL, NULL, NULL));
    lua_setglobal(L, "cf");
    eval(L, "cf[1] == 1.5 and cf[3] == 3.5 and #cf == 3");
    ASSERT(1, lua_toboolean(L, -1));
    lua_settop(L, 0);
    lua_pushnil(L);
    lua_setglobal(L, "cf");
    lua_gc(L, LUA_GCCOLLECT, 0);
  }

  /* lumba_pusharray rejects bad arguments without pushing or raising */
  static double buf[6] = {1, 2, 3, 4, 5, 6};
  int64_t shape[2] = {2, 3}, bad[2] = {2, -3};
  int one = 1;
  ASSERT(LUMBA_EDTYPE, lumba_pusharray(L, buf, "double64", 2, shape, NULL, on_release, &one));
  ASSERT(LUMBA_EDTYPE, lumba_pusharray(L, buf, NULL, 2, shape, NULL, on_release, &one));
  ASSERT(LUMBA_ENDIM, lumba_pusharray(L, buf, "float64", 9, shape, NULL, on_release, &one));
  ASSERT(LUMBA_ENDIM, lumba_pusharray(L, buf, "float64", -1, shape, NULL, on_release, &one));
  ASSERT(LUMBA_ESHAPE, lumba_pusharray(L, buf, "float64", 2, bad, NULL, on_release, &one));
  int64_t huge_empty[2] = {0, (int64_t)1 << 62};  /* size 0, but 2^65 bytes by NumPy's rule */
  ASSERT(LUMBA_ESHAPE, lumba_pusharray(L, buf, "float64", 2, huge_empty, NULL, on_release, &one));
  ASSERT(LUMBA_EARG, lumba_pusharray(L, NULL, "float64", 2, shape, NULL, on_release, &one));
  ASSERT(0, lua_gettop(L));
  ASSERT(0, released);

  /* a Fortran-order view of the host's buffer, with explicit strides */
  int64_t fstrides[2] = {8, 16};
  ASSERT(LUMBA_OK, lumba_pusharray(L, buf, "float64", 2, shape, fstrides, on_release, &one));
  lua_setglobal(L, "h");
  eval(L, "h:get(1, 2) == 3 and h:get(2, 1) == 2 and h.layout == 'F' and h.dtype == 'float64'");
  ASSERT(1, lua_toboolean(L, -1));
  eval(L, "h:slice({}, 3)");  /* a view holds the buffer too */
  lua_setglobal(L, "col");
  eval(L, "(function() h[2][3] = 60; h = nil; collectgarbage(); collectgarbage(); return col[2] end)()");
  ASSERT(60, (int)lua_tonumber(L, -1));
  ASSERT(60, (int)buf[5]);
  ASSERT(0, released);
  lumba_ArrayInfo info;
  lua_getglobal(L, "col");
  ASSERT(1, lumba_toarray(L, -1, &info) == buf + 4);
  ASSERT(1, info.ndim);
  ASSERT(2, info.shape[0]);
  ASSERT(8, info.strides[0]);
  ASSERT(8, info.itemsize);
  ASSERT(2, info.size);
  ASSERT_STR("float64", info.dtype);
  lua_pushnil(L);
  lua_setglobal(L, "col");
  lua_settop(L, 0);
  lua_gc(L, LUA_GCCOLLECT, 0);
  ASSERT(1, released);

  /* lumba_toarray of a non-array */
  lua_pushinteger(L, 3);
  info.ndim = 5;
  ASSERT(1, lumba_toarray(L, -1, &info) == NULL);
  ASSERT(0, info.ndim);
  ASSERT(1, lumba_toarray(L, -1, NULL) == NULL);

  lua_close(L);
  ASSERT(0, nrt_live());

  /* a host buffer pushed before lumba is loaded is still an array, and
  ** lua_close releases it */
  L = luaL_newstate();
  released = 0;
  ASSERT(LUMBA_OK, lumba_pusharray(L, buf, "float64", 2, shape, NULL, on_release, &one));
  ASSERT(1, lumba_toarray(L, -1, NULL) == buf);
  lua_close(L);
  ASSERT(1, released);
  ASSERT(0, nrt_live());
  TEST_END();
}
