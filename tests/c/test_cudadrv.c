/* The launch machinery's checks and the kernel parameter layout, on a
** CudaState made by hand: everything here is decided before the driver is
** called, so no GPU (and no libcuda) is needed. */
#include <lauxlib.h>
#include <lualib.h>

#include "cudadrv.h"
#include "devarray.h"
#include "test.h"

/* a fake driver for the deferred-free bookkeeping */
static int allocs, frees, fail_next_alloc;
static CUresult fake_alloc(CUdeviceptr *p, size_t n) {
  (void)n;
  if (fail_next_alloc) { fail_next_alloc--; return 2; }  /* CUDA_ERROR_OUT_OF_MEMORY */
  *p = (CUdeviceptr)(0x100000 + 0x1000 * ++allocs);
  return 0;
}
static CUresult fake_free(CUdeviceptr p) { (void)p; frees++; return 0; }
static CUresult fake_get_current(CUcontext *c) { *c = (CUcontext)(uintptr_t)0x10; return 0; }
static CUresult fake_set_current(CUcontext c) { (void)c; return 0; }
static CUresult fake_name(CUresult r, const char **s) { *s = r == 2 ? "CUDA_ERROR_OUT_OF_MEMORY" : "?"; return 0; }
static CUresult fake_string(CUresult r, const char **s) { *s = r == 2 ? "out of memory" : "?"; return 0; }

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
    case 3: {  /* 10 buffers released (kept pending), 60 made live and released, one more allocated */
      CUdeviceptr p[70];
      for (int i = 0; i < 70; i++) {
        p[i] = cudrv_alloc(L, c->S, 64);
        c->S->nbufs++;
        if (i < 10) { c->S->nbufs--; cudrv_defer_free(c->S, c->S->cur->ctx, p[i], 64); }
      }
      for (int i = 10; i < 70; i++) { c->S->nbufs--; cudrv_defer_free(c->S, c->S->cur->ctx, p[i], 64); }
      lua_pushinteger(L, c->S->npending);
      cudrv_alloc(L, c->S, 64);
      return 1;
    }
    case 4: cudrv_alloc(L, c->S, 64); break;
  }
  return 0;
}

/* the error message of the case, or "ok" */
static const char *outcome(lua_State *L, Case *c) {
  lua_settop(L, 0);
  lua_pushcfunction(L, run_case);
  lua_pushlightuserdata(L, c);
  if (lua_pcall(L, 1, 1, 0) == LUA_OK) return "ok";
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

  /* deferred frees: queued without touching the driver, flushed past 16 */
  S->fn.cuMemAlloc = fake_alloc;
  S->fn.cuMemFree = fake_free;
  S->fn.cuCtxGetCurrent = fake_get_current;
  S->fn.cuCtxSetCurrent = fake_set_current;
  S->alive = true;
  c.what = 3;
  ASSERT_STR("ok", outcome(L, &c));
  ASSERT(70, lua_tointeger(L, -1));  /* all 70 queued, none freed yet */
  ASSERT(71, allocs);
  ASSERT(70, frees);                 /* the 71st allocation flushed them */
  ASSERT(0, S->npending);
  for (int i = 0; i < 15; i++) cudrv_defer_free(S, S->cur->ctx, 0x5000 + i, 8);
  cudrv_maybe_flush(S);
  ASSERT(15, S->npending);  /* below the threshold: kept */
  cudrv_defer_free(S, S->cur->ctx, 0x6000, 8);
  cudrv_maybe_flush(S);
  ASSERT(0, S->npending);
  ASSERT(86, frees);
  /* out of memory: flush, collect, retry */
  fail_next_alloc = 1;
  cudrv_defer_free(S, S->cur->ctx, 0x7000, 8);
  lua_settop(L, 0);
  ASSERT(1, cudrv_alloc(L, S, 64) != 0);
  ASSERT(87, frees);
  S->fn.cuGetErrorName = fake_name;
  S->fn.cuGetErrorString = fake_string;
  fail_next_alloc = 3;
  c.what = 4;
  ASSERT_STR("[CUDA_ERROR_OUT_OF_MEMORY] cuMemAlloc: out of memory", outcome(L, &c));
  ASSERT(0, fail_next_alloc);  /* tried three times */
  S->alive = false;
  cudrv_defer_free(S, S->cur->ctx, 0x8000, 8);  /* after lua_close: dropped */
  ASSERT(0, S->npending);

  lua_close(L);
  free(S->pending);
  free(P);
  free(S);
  TEST_END();
}
