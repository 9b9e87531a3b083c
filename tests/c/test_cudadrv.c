/* The launch machinery's checks and the kernel parameter layout, on a
** CudaState made by hand: everything here is decided before the driver is
** called, so no GPU (and no libcuda) is needed. */
#include <lauxlib.h>
#include <lualib.h>

#include "cudadrv.h"
#include "devarray.h"
#include "test.h"

typedef struct Case {
  CudaState *S;
  CudaParams *P;
  DevArray *d;
  unsigned grid[3], block[3];
  int what;  // which call to make
} Case;

static int run_case(lua_State *L) {
  Case *c = lua_touserdata(L, 1);
  switch (c->what) {
    case 0: cudrv_pack_array(L, c->S, c->P, c->d, 3); break;
    case 1: cudrv_launch(L, c->S, NULL, c->grid, c->block, 0, NULL, c->P->ptrs); break;
    case 2: for (int i = 0; i <= CUDRV_MAXPARAMS; i++) { int8_t b = 1; cudrv_param(L, c->P, &b, 1); } break;
  }
  return 0;
}

/* the error message of the case, or "ok" */
static const char *outcome(lua_State *L, Case *c) {
  lua_settop(L, 0);
  lua_pushcfunction(L, run_case);
  lua_pushlightuserdata(L, c);
  if (lua_pcall(L, 1, 0, 0) == LUA_OK) return "ok";
  return lua_tostring(L, -1);
}

static void dims(unsigned d[3], unsigned x, unsigned y, unsigned z) {
  d[0] = x;
  d[1] = y;
  d[2] = z;
}

int main(void) {
  lua_State *L = luaL_newstate();
  CudaState *S = calloc(1, sizeof *S);
  S->ndev = 1;
  S->devs[0].ctx = (CUcontext)(uintptr_t)0x10;
  S->devs[0].max_threads = 1024;
  S->devs[0].total_mem = (size_t)1 << 34;
  S->cur = &S->devs[0];
  CudaParams *P = malloc(sizeof *P);
  DevBuf buf = {1, 0x1000, 120, S->devs[0].ctx, 0, S};
  DevArray d = {.data = 0x1008, .dtype = DT_FLOAT64, .ndim = 2, .size = 15, .nbytes = 120,
                .shape = {3, 5}, .strides = {40, 8}, .buf = &buf};
  Case c = {.S = S, .P = P, .d = &d};

  /* an array of ndim 2 is data, shape[0], shape[1], strides[0], strides[1] */
  cudrv_params_reset(P);
  ASSERT_STR("ok", outcome(L, &c));
  ASSERT(5, P->n);
  ASSERT(0x1008, *(uint64_t *)P->ptrs[0]);
  ASSERT(3, *(int64_t *)P->ptrs[1]);
  ASSERT(5, *(int64_t *)P->ptrs[2]);
  ASSERT(40, *(int64_t *)P->ptrs[3]);
  ASSERT(8, *(int64_t *)P->ptrs[4]);
  ASSERT(1, P->ptrs[4] == (void *)&P->slots[4]);

  /* scalars: their bytes at the start of a zeroed 8-byte slot */
  float f = 1.5f;
  int8_t b = -5;
  cudrv_param(L, P, &f, sizeof f);
  cudrv_param(L, P, &b, sizeof b);
  ASSERT(7, P->n);
  ASSERT(1, memcmp(P->ptrs[5], &f, sizeof f) == 0);
  ASSERT(0xfb, P->slots[6]);

  /* a freed array, an array of another context */
  d.buf = NULL;
  ASSERT_STR("attempt to use a freed device array", outcome(L, &c));
  DevBuf other = {1, 0x2000, 120, (CUcontext)(uintptr_t)0x20, 1, S};
  d.buf = &other;
  ASSERT_STR("argument #3: device array of another context (device 1; current device 0)", outcome(L, &c));

  /* launch checks made before the driver is called */
  c.what = 1;
  dims(c.grid, 0, 1, 1);
  dims(c.block, 128, 1, 1);
  ASSERT_STR("launch: zero grid dimension (0x1x1)", outcome(L, &c));
  dims(c.grid, 4, 1, 1);
  dims(c.block, 32, 0, 1);
  ASSERT_STR("launch: zero block dimension (32x0x1)", outcome(L, &c));
  dims(c.block, 2048, 1, 1);
  ASSERT_STR("launch: 2048 threads per block (2048x1x1); the device allows at most 1024", outcome(L, &c));
  dims(c.block, 32, 32, 2);
  ASSERT_STR("launch: 2048 threads per block (32x32x2); the device allows at most 1024", outcome(L, &c));

  /* the parameter array is bounded */
  c.what = 2;
  cudrv_params_reset(P);
  ASSERT_STR("too many kernel parameters (at most 1088)", outcome(L, &c));

  lua_close(L);
  free(P);
  free(S);
  TEST_END();
}
