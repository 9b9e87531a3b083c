/*
** cudadrv.c — libcuda bound lazily (first use, never at require), the
** per-state CudaState, the primary context, errors as
** "[CUDA_ERROR_X] call: message", deferred frees, PTX compile and load,
** kernel launch, streams and events, and the lumba.core.cuda table.
*/
#include <dlfcn.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "backend.h"
#include "cudadrv.h"
#include "udata.h"
#include "devarray.h"

#define STATE_MT "lumba.cudastate"
#define STREAM_MT "lumba.cudastream"
#define EVENT_MT "lumba.cudaevent"
#define FUNCTION_MT "lumba.cudafunction"

/* driver constants (cuda.h) */
enum {
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_READY = 600,
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_EVENT_DISABLE_TIMING = 2,
};

/* Pending frees are flushed at an allocation or launch once there are this
** many, or once they hold a fifth of the device's memory (numba-cuda's
** CUDA_DEALLOCS_COUNT / _RATIO idea): a cuMemFree waits for the device, so
** freeing at every launch would serialise asynchronous work. */
#define PENDING_COUNT 16

/* the registry key of the box; only its address is used */
static const char box_key = 0;

typedef struct CudaBox {
  CudaState *S;    // NULL after __gc
  CudaState *sim;  // the simulator's state, made at first use; NULL after __gc
  bool simulate;   // lumba.cuda is the simulator now
  uint32_t tag;    // the UDATA_TAG of each kind (udata.h), here and below
} CudaBox;

#define STATE_TAG UDATA_TAG('l', 'c', 's', 't')
#define STREAM_TAG UDATA_TAG('l', 'c', 's', 'm')
#define EVENT_TAG UDATA_TAG('l', 'c', 'e', 'v')
#define FUNCTION_TAG UDATA_TAG('l', 'c', 'f', 'n')

typedef struct Function {
  CUfunction f;
  uint32_t tag;
} Function;

/* ---- the state ---- */

void cudrv_retain(CudaState *S) {
  atomic_fetch_add(&S->refct, 1);
}

void cudrv_release(CudaState *S) {
  if (atomic_fetch_sub(&S->refct, 1) != 1) return;
  nvvm_close(S->nvvm);
  free(S->pending);
  free(S->mods);
  free(S->scratch);
  free(S->why);
  free(S->nvvm_why);
  free(S->libdevice);
  free(S->libdevice_why);
  free(S);
}

void cudrv_make_current(CudaState *S, CUcontext ctx) {
  CUcontext cur = NULL;
  if (S->fn.cuCtxGetCurrent(&cur) != 0 || cur != ctx) S->fn.cuCtxSetCurrent(ctx);
}

/* lua_close (or a collected module table): free what is pending, unload
** the modules, release the primary contexts. Later releases of buffers see
** alive == false and never call the driver. */
static void state_shutdown(CudaState *S) {
  if (!S->alive) return;
  cudrv_flush(S);
  for (int i = 0; i < S->nmods; i++) {
    cudrv_make_current(S, S->mods[i].ctx);
    S->fn.cuModuleUnload(S->mods[i].mod);
  }
  S->nmods = 0;
  for (int d = 0; d < S->ndev; d++)
    if (S->devs[d].ctx) S->fn.cuDevicePrimaryCtxRelease(S->devs[d].dev);
  S->alive = false;
}

static int cudrv_lua_state_gc(lua_State *L) {
  CudaBox *b = UDATA_GC_TEST(L, 1, CudaBox, STATE_MT, STATE_TAG);
  if (b == NULL) return 0;  /* an impostor is left alone */
  CudaState **states[2] = {&b->S, &b->sim};
  for (int i = 0; i < 2; i++) {
    if (*states[i] == NULL) continue;
    state_shutdown(*states[i]);
    cudrv_release(*states[i]);
    *states[i] = NULL;
  }
  return 0;
}

static CudaBox *box_of(lua_State *L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &box_key);
  CudaBox *b = lua_touserdata(L, -1);
  lua_pop(L, 1);
  if (b == NULL || b->S == NULL) luaL_error(L, "lumba.cuda is closed");
  return b;
}

/* the real driver's state, or the simulator's when simulating */
static CudaState *state_of(lua_State *L) {
  CudaBox *b = box_of(L);
  if (!b->simulate) return b->S;
  if (b->sim == NULL && (b->sim = backend_get(L)->cudasim_new()) == NULL) luaL_error(L, "not enough memory");
  return b->sim;
}

bool cudrv_simulating(lua_State *L) {
  return box_of(L)->simulate;
}

/* cuda.simulate([on]): with a boolean, makes lumba.cuda the simulator (or
** the driver again); returns the setting before the call. Arrays, streams
** and events belong to the side that made them. */
static int cudrv_lua_simulate(lua_State *L) {
  CudaBox *b = box_of(L);
  bool was = b->simulate;
  if (!lua_isnone(L, 1)) {
    luaL_checktype(L, 1, LUA_TBOOLEAN);
    b->simulate = lua_toboolean(L, 1);
  }
  lua_pushboolean(L, was);
  return 1;
}

static bool state_fail(CudaState *S, const char *fmt, const char *a, const char *b) {
  NvBuf m = {0};
  nvvm_buf_printf(&m, fmt, a, b);
  S->why = nvvm_buf_take(&m);
  S->status = CUDRV_FAILED;
  return false;
}

static const char *err_name(CudaState *S, CUresult r) {
  const char *s = NULL;
  if (S->fn.cuGetErrorName == NULL || S->fn.cuGetErrorName(r, &s) != 0 || s == NULL) s = "CUDA_ERROR_UNKNOWN";
  return s;
}

static const char *err_text(CudaState *S, CUresult r) {
  const char *s = NULL;
  if (S->fn.cuGetErrorString == NULL || S->fn.cuGetErrorString(r, &s) != 0 || s == NULL) s = "unknown error";
  return s;
}

l_noret cudrv_error(lua_State *L, CudaState *S, CUresult r, const char *call) {
  luaL_error(L, "[%s] %s: %s", err_name(S, r), call, err_text(S, r));
  LM_UNREACHABLE();
}

static CUresult device_info(CudaState *S, int i) {
  CudaDevice *d = &S->devs[i];
  CUresult r = S->fn.cuDeviceGet(&d->dev, i);
  if (r == 0) r = S->fn.cuDeviceGetName(d->name, (int)sizeof d->name, d->dev);
  if (r == 0) r = S->fn.cuDeviceGetAttribute(&d->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d->dev);
  if (r == 0) r = S->fn.cuDeviceGetAttribute(&d->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d->dev);
  if (r == 0) r = S->fn.cuDeviceGetAttribute(&d->max_threads, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, d->dev);
  if (r == 0) r = S->fn.cuDeviceGetAttribute(&d->nsm, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, d->dev);
  if (r == 0) r = S->fn.cuDeviceTotalMem(&d->total_mem, d->dev);
  return r;
}

/* First use: dlopen the driver ($LUMBA_CUDA_DRIVER or libcuda.so.1 from the
** loader's path, never a toolkit's compat/ copy), bind, cuInit, read the
** devices, retain device 0's primary context. Tried once per state. */
static bool state_init(CudaState *S) {
  if (S->status != CUDRV_UNTRIED) return S->status == CUDRV_READY;
  const char *name = getenv("LUMBA_CUDA_DRIVER");
  if (name == NULL || name[0] == '\0') name = "libcuda.so.1";
  S->lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (S->lib == NULL) return state_fail(S, "%s%s", dlerror(), "");
#define CUDRV_BIND(field, sym, alt, params) \
  *(void **)&S->fn.field = dlsym(S->lib, sym); \
  if (S->fn.field == NULL && alt != NULL) *(void **)&S->fn.field = dlsym(S->lib, alt ? alt : ""); \
  if (S->fn.field == NULL) return state_fail(S, "%s has no %s (driver too old)", name, sym);
  CUDRV_FUNCS(CUDRV_BIND)
#undef CUDRV_BIND
  CUresult r = S->fn.cuInit(0);
  if (r == 0) r = S->fn.cuDriverGetVersion(&S->driver_version);
  if (r == 0) r = S->fn.cuDeviceGetCount(&S->ndev);
  if (r != 0) return state_fail(S, "[%s] cuInit: %s", err_name(S, r), err_text(S, r));
  if (S->ndev == 0) return state_fail(S, "%s%s", "no CUDA device found", "");
  if (S->ndev > CUDRV_MAXDEV) S->ndev = CUDRV_MAXDEV;
  for (int i = 0; i < S->ndev && r == 0; i++) r = device_info(S, i);
  if (r == 0) r = S->fn.cuDevicePrimaryCtxRetain(&S->devs[0].ctx, S->devs[0].dev);
  if (r != 0) return state_fail(S, "[%s] cuDevicePrimaryCtxRetain: %s", err_name(S, r), err_text(S, r));
  S->cur = &S->devs[0];
  S->alive = true;
  S->status = CUDRV_READY;
  return true;
}

CudaState *cudrv_get(lua_State *L) {
  CudaState *S = state_of(L);
  if (LM_UNLIKELY(S->status != CUDRV_READY) && !state_init(S))
    luaL_error(L, "CUDA is not available: %s", S->why);
  cudrv_make_current(S, S->cur->ctx);
  return S;
}

static Nvvm *state_nvvm(CudaState *S) {
  if (S->nvvm_status == CUDRV_UNTRIED) {
    S->nvvm = nvvm_load(&S->nvvm_why);
    S->nvvm_status = S->nvvm ? CUDRV_READY : CUDRV_FAILED;
  }
  return S->nvvm;
}

static const char *state_libdevice(CudaState *S) {
  if (S->libdevice_status == CUDRV_UNTRIED) {
    Nvvm *nv = state_nvvm(S);
    S->libdevice = nvvm_find_libdevice(nv ? nvvm_lib_path(nv) : NULL, &S->libdevice_why);
    S->libdevice_status = S->libdevice ? CUDRV_READY : CUDRV_FAILED;
  }
  return S->libdevice;
}

/* ---- device memory ---- */

void cudrv_defer_free(CudaState *S, CUcontext ctx, CUdeviceptr ptr, size_t size) {
  if (ptr == 0 || !S->alive) return;
  LM_ASSERT(S->npending < S->cappending);  /* reserved by cudrv_alloc */
  S->pending[S->npending++] = (PendingFree){ptr, ctx, size};
  S->pending_bytes += size;
}

void cudrv_flush(CudaState *S) {
  if (!S->alive || S->npending == 0) return;
  CUcontext cur = NULL;
  S->fn.cuCtxGetCurrent(&cur);
  for (int i = 0; i < S->npending; i++) {
    cudrv_make_current(S, S->pending[i].ctx);
    S->fn.cuMemFree(S->pending[i].ptr);  /* an error here is a sticky one from a kernel: it resurfaces */
  }
  S->npending = 0;
  S->pending_bytes = 0;
  cudrv_make_current(S, cur);
}

void cudrv_maybe_flush(CudaState *S) {
  if (S->npending >= PENDING_COUNT || S->pending_bytes >= S->cur->total_mem / 5) cudrv_flush(S);
}

CUdeviceptr cudrv_alloc(lua_State *L, CudaState *S, size_t size) {
  if (S->cappending <= S->npending + S->nbufs + 1) {  /* room to queue every live buffer */
    int cap = S->cappending ? S->cappending : 64;
    while (cap <= S->npending + S->nbufs + 1) cap *= 2;
    PendingFree *p = realloc(S->pending, (size_t)cap * sizeof *p);
    if (p == NULL) luaL_error(L, "not enough memory");
    S->pending = p;
    S->cappending = cap;
  }
  if (size == 0) return 0;
  cudrv_maybe_flush(S);
  CUdeviceptr p = 0;
  CUresult r = S->fn.cuMemAlloc(&p, size);
  if (r == CUDA_ERROR_OUT_OF_MEMORY) {
    cudrv_flush(S);
    r = S->fn.cuMemAlloc(&p, size);
  }
  if (r == CUDA_ERROR_OUT_OF_MEMORY) {  /* garbage the Lua GC has not reached yet */
    lua_gc(L, LUA_GCCOLLECT);
    cudrv_flush(S);
    r = S->fn.cuMemAlloc(&p, size);
  }
  if (r != 0) cudrv_error(L, S, r, "cuMemAlloc");
  return p;
}

/* ---- streams and events ---- */

typedef struct Stream {
  CUstream s;      // NULL: the default stream
  CUcontext ctx;
  CudaState *S;    // holds a reference; NULL for the default stream
  uint32_t tag;
} Stream;

typedef struct Event {
  CUevent e;
  CUcontext ctx;
  CudaState *S;    // holds a reference
  uint32_t tag;
} Event;

static Stream *stream_check(lua_State *L, int idx, CudaState *S) {
  Stream *st = UDATA_CHECK(L, idx, Stream, STREAM_MT, STREAM_TAG);
  if (st->s && st->ctx != S->cur->ctx) luaL_error(L, "stream of another context");
  return st;
}

CUstream cudrv_opt_stream(lua_State *L, int idx, CudaState *S) {
  if (lua_isnoneornil(L, idx) || (lua_isinteger(L, idx) && lua_tointeger(L, idx) == 0)) return NULL;
  return stream_check(L, idx, S)->s;
}

static int cudrv_lua_stream(lua_State *L) {
  CudaState *S = cudrv_get(L);
  Stream *st = lua_newuserdatauv(L, sizeof *st, 0);
  st->s = NULL;
  st->S = NULL;
  st->ctx = S->cur->ctx;
  st->tag = STREAM_TAG;
  luaL_setmetatable(L, STREAM_MT);
  CU_CALL(L, S, cuStreamCreate, (&st->s, 0));
  st->S = S;
  cudrv_retain(S);
  return 1;
}

static int cudrv_lua_default_stream(lua_State *L) {
  CudaState *S = cudrv_get(L);
  Stream *st = lua_newuserdatauv(L, sizeof *st, 0);
  *st = (Stream){NULL, S->cur->ctx, NULL, STREAM_TAG};
  luaL_setmetatable(L, STREAM_MT);
  return 1;
}

static int cudrv_lua_stream_gc(lua_State *L) {
  Stream *st = UDATA_GC_TEST(L, 1, Stream, STREAM_MT, STREAM_TAG);
  if (st && st->S) {
    if (st->s && st->S->alive) {  /* returns at once; the driver frees it when its work is done */
      cudrv_make_current(st->S, st->ctx);
      st->S->fn.cuStreamDestroy(st->s);
    }
    cudrv_release(st->S);
    st->S = NULL;
    st->s = NULL;
  }
  return 0;
}

static int cudrv_lua_stream_synchronize(lua_State *L) {
  CudaState *S = cudrv_get(L);
  Stream *st = stream_check(L, 1, S);
  CU_CALL(L, S, cuStreamSynchronize, (st->s));
  return 0;
}

/* true when all work queued on the stream is done */
static int cudrv_lua_stream_query(lua_State *L) {
  CudaState *S = cudrv_get(L);
  Stream *st = stream_check(L, 1, S);
  CUresult r = S->fn.cuStreamQuery(st->s);
  if (r != 0 && r != CUDA_ERROR_NOT_READY) cudrv_error(L, S, r, "cuStreamQuery");
  lua_pushboolean(L, r == 0);
  return 1;
}

static int cudrv_lua_stream_tostring(lua_State *L) {
  Stream *st = UDATA_CHECK(L, 1, Stream, STREAM_MT, STREAM_TAG);
  if (st->s) lua_pushfstring(L, "lumba.cudastream (%p)", (void *)st->s);
  else lua_pushliteral(L, "lumba.cudastream (default)");
  return 1;
}

static Event *event_check(lua_State *L, int idx, CudaState *S) {
  Event *ev = UDATA_CHECK(L, idx, Event, EVENT_MT, EVENT_TAG);
  if (ev->ctx != S->cur->ctx) luaL_error(L, "event of another context");
  return ev;
}

/* cuda.event([timing = true]) */
static int cudrv_lua_event(lua_State *L) {
  bool timing = lua_isnoneornil(L, 1) || lua_toboolean(L, 1);
  CudaState *S = cudrv_get(L);
  Event *ev = lua_newuserdatauv(L, sizeof *ev, 0);
  *ev = (Event){NULL, S->cur->ctx, NULL, EVENT_TAG};
  luaL_setmetatable(L, EVENT_MT);
  CU_CALL(L, S, cuEventCreate, (&ev->e, timing ? 0 : CU_EVENT_DISABLE_TIMING));
  ev->S = S;
  cudrv_retain(S);
  return 1;
}

static int cudrv_lua_event_gc(lua_State *L) {
  Event *ev = UDATA_GC_TEST(L, 1, Event, EVENT_MT, EVENT_TAG);
  if (ev && ev->S) {
    if (ev->S->alive) {
      cudrv_make_current(ev->S, ev->ctx);
      ev->S->fn.cuEventDestroy(ev->e);
    }
    cudrv_release(ev->S);
    ev->S = NULL;
  }
  return 0;
}

/* event:record([stream]) */
static int cudrv_lua_event_record(lua_State *L) {
  CudaState *S = cudrv_get(L);
  Event *ev = event_check(L, 1, S);
  CUstream s = cudrv_opt_stream(L, 2, S);
  CU_CALL(L, S, cuEventRecord, (ev->e, s));
  lua_settop(L, 1);
  return 1;
}

static int cudrv_lua_event_synchronize(lua_State *L) {
  CudaState *S = cudrv_get(L);
  Event *ev = event_check(L, 1, S);
  CU_CALL(L, S, cuEventSynchronize, (ev->e));
  return 0;
}

static int cudrv_lua_event_query(lua_State *L) {
  CudaState *S = cudrv_get(L);
  Event *ev = event_check(L, 1, S);
  CUresult r = S->fn.cuEventQuery(ev->e);
  if (r != 0 && r != CUDA_ERROR_NOT_READY) cudrv_error(L, S, r, "cuEventQuery");
  lua_pushboolean(L, r == 0);
  return 1;
}

/* start:elapsed_time(stop) and cuda.event_elapsed_time(start, stop): ms */
static int cudrv_lua_event_elapsed_time(lua_State *L) {
  CudaState *S = cudrv_get(L);
  Event *a = event_check(L, 1, S), *b = event_check(L, 2, S);
  float ms = 0;
  CU_CALL(L, S, cuEventElapsedTime, (&ms, a->e, b->e));
  lua_pushnumber(L, (lua_Number)ms);
  return 1;
}

/* ---- PTX ---- */

void cudrv_push_ptx(lua_State *L, CudaState *S, const char *ir, size_t len, int cc_major,
                    int cc_minor, bool fastmath, const char *backend) {
  if (backend && strcmp(backend, "nvvm") != 0 && strcmp(backend, "llvm") != 0)
    luaL_error(L, "unknown backend '%s' (expected \"nvvm\" or \"llvm\")", backend);
  if (S->sim) {  /* the simulator's "PTX" is the IR, compiled for the CPU when loaded */
    (void)cc_major, (void)cc_minor, (void)fastmath;
    lua_pushlstring(L, ir, len);
    return;
  }
  /* libNVVM may crash on a module for another target (a CPU module's
  ** datalayout and intrinsics): a module naming another triple is refused */
  if (memmem(ir, len, "target triple = \"", 16) != NULL && memmem(ir, len, "target triple = \"nvptx", 22) == NULL)
    luaL_error(L, "not a GPU module: its target triple is not nvptx64-nvidia-cuda");
  bool need_libdevice = memmem(ir, len, "@__nv_", 6) != NULL;
  const char *libdevice = need_libdevice ? state_libdevice(S) : NULL;
  if (need_libdevice && libdevice == NULL) luaL_error(L, "%s", S->libdevice_why);
  bool use_nvvm = backend ? strcmp(backend, "nvvm") == 0 : state_nvvm(S) != NULL;
  char *ptx = NULL, *log = NULL;
  int r;
  if (use_nvvm) {
    Nvvm *nv = state_nvvm(S);
    if (nv == NULL) luaL_error(L, "%s", S->nvvm_why);
    char *text = nvvm_fixup_ir(ir);
    if (text == NULL) luaL_error(L, "not enough memory");
    r = nvvm_compile(nv, text, strlen(text), cc_major, cc_minor, fastmath, need_libdevice, libdevice,
                     &ptx, &log);
    free(text);
  } else {
    r = backend_nvptx(L)(ir, len, cc_major, cc_minor, fastmath, libdevice, &ptx, &log);
  }
  lua_pushstring(L, r == 0 ? ptx : log ? log : "PTX compilation failed");
  free(ptx);
  free(log);
  if (r != 0) lua_error(L);
}

CUfunction cudrv_load_ptx(lua_State *L, CudaState *S, const char *ptx, const char *kernel_name) {
  if (S->nmods == S->capmods) {
    int cap = S->capmods ? 2 * S->capmods : 16;
    LoadedModule *m = realloc(S->mods, (size_t)cap * sizeof *m);
    if (m == NULL) luaL_error(L, "not enough memory");
    S->mods = m;
    S->capmods = cap;
  }
  char log[8192] = "";
  int opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *vals[] = {log, (void *)(uintptr_t)sizeof log};
  CUmodule mod;
  CUresult r = S->fn.cuModuleLoadDataEx(&mod, ptx, 2, opts, vals);
  if (r != 0)
    luaL_error(L, "[%s] cuModuleLoadDataEx: %s%s%s", err_name(S, r), err_text(S, r), log[0] ? "\n" : "", log);
  S->mods[S->nmods++] = (LoadedModule){mod, S->cur->ctx};
  CUfunction f;
  r = S->fn.cuModuleGetFunction(&f, mod, kernel_name);
  if (r != 0)
    luaL_error(L, "[%s] cuModuleGetFunction: %s (kernel '%s')", err_name(S, r), err_text(S, r), kernel_name);
  return f;
}

/* ---- launch ---- */

void cudrv_params_reset(CudaParams *P) {
  P->n = 0;
}

void cudrv_param(lua_State *L, CudaParams *P, const void *value, size_t size) {
  LM_ASSERT(size <= sizeof P->slots[0]);
  if (P->n >= CUDRV_MAXPARAMS) luaL_error(L, "too many kernel parameters (at most %d)", CUDRV_MAXPARAMS);
  P->slots[P->n] = 0;
  memcpy(&P->slots[P->n], value, size);
  P->ptrs[P->n] = &P->slots[P->n];
  P->n++;
}

void cudrv_pack_array(lua_State *L, CudaState *S, CudaParams *P, const DevArray *d, int argn) {
  if (d->buf == NULL) luaL_error(L, "attempt to use a freed device array");
  if (d->buf->ctx != S->cur->ctx)
    luaL_error(L, "argument #%d: device array of another context (device %d; current device %d)", argn,
               d->buf->devno, S->devno);
  cudrv_param(L, P, &d->data, sizeof d->data);
  for (int i = 0; i < d->ndim; i++) cudrv_param(L, P, &d->shape[i], sizeof d->shape[i]);
  for (int i = 0; i < d->ndim; i++) cudrv_param(L, P, &d->strides[i], sizeof d->strides[i]);
}

void cudrv_check_launch(lua_State *L, CudaState *S, const unsigned grid[3], const unsigned block[3]) {
  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
    luaL_error(L, "launch: zero grid dimension (%dx%dx%d)", (int)grid[0], (int)grid[1], (int)grid[2]);
  if (block[0] == 0 || block[1] == 0 || block[2] == 0)
    luaL_error(L, "launch: zero block dimension (%dx%dx%d)", (int)block[0], (int)block[1], (int)block[2]);
  uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
  if (threads > (uint64_t)S->cur->max_threads)
    luaL_error(L, "launch: %I threads per block (%dx%dx%d); the device allows at most %d",
               (lua_Integer)threads, (int)block[0], (int)block[1], (int)block[2], S->cur->max_threads);
}

void cudrv_launch(lua_State *L, CudaState *S, CUfunction f, const unsigned grid[3],
                  const unsigned block[3], unsigned shared_bytes, CUstream stream, void **params) {
  cudrv_check_launch(L, S, grid, block);
  cudrv_maybe_flush(S);
  CU_CALL(L, S, cuLaunchKernel, (f, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                 shared_bytes, stream, params, NULL));
}

int64_t cudrv_max_coresident(lua_State *L, CudaState *S, CUfunction f, int block_threads, unsigned shared_bytes) {
  int per_sm = 0;
  CU_CALL(L, S, cuOccupancyMaxActiveBlocksPerMultiprocessor, (&per_sm, f, block_threads, shared_bytes));
  return (int64_t)per_sm * S->cur->nsm;
}

void cudrv_launch_cooperative(lua_State *L, CudaState *S, CUfunction f, const char *name, const unsigned grid[3],
                              const unsigned block[3], unsigned shared_bytes, CUstream stream, void **params) {
  cudrv_check_launch(L, S, grid, block);
  int threads = (int)(block[0] * block[1] * block[2]);
  int64_t blocks = (int64_t)grid[0] * grid[1] * grid[2];
  int64_t most = cudrv_max_coresident(L, S, f, threads, shared_bytes);
  if (blocks > most)
    luaL_error(L, "%s syncs its grid (cuda.cg.this_grid().sync()), so its launch is cooperative: every block must be "
               "resident at once, and %s holds at most %I blocks of %d threads (%I per multiprocessor x %d "
               "multiprocessors), not %I; see %s:max_cooperative_grid_blocks(%d)",
               name, S->cur->name, (lua_Integer)most, threads, (lua_Integer)(S->cur->nsm ? most / S->cur->nsm : 0),
               S->cur->nsm, (lua_Integer)blocks, name, threads);
  if (f == NULL) return;  /* the simulator runs it (cudasim_launch) */
  cudrv_maybe_flush(S);
  CU_CALL(L, S, cuLaunchCooperativeKernel, (f, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                            shared_bytes, stream, params));
}

void cudrv_dims(lua_State *L, int idx, const char *what, unsigned d[3]) {
  d[0] = d[1] = d[2] = 1;
  if (lua_isinteger(L, idx)) {
    lua_Integer v = lua_tointeger(L, idx);
    if (v < 0 || v > UINT32_MAX) luaL_error(L, "launch: %s %I out of range", what, v);
    d[0] = (unsigned)v;
    return;
  }
  if (!lua_istable(L, idx)) luaL_error(L, "launch: %s must be an integer or {x, y, z}", what);
  lua_Integer n = luaL_len(L, idx);
  if (n < 1 || n > 3) luaL_error(L, "launch: %s must have 1 to 3 dimensions", what);
  for (lua_Integer i = 1; i <= n; i++) {
    int isint;
    lua_geti(L, idx, i);
    lua_Integer v = lua_tointegerx(L, -1, &isint);
    lua_pop(L, 1);
    if (!isint || v < 0 || v > UINT32_MAX) luaL_error(L, "launch: %s must be an integer or {x, y, z}", what);
    d[i - 1] = (unsigned)v;
  }
}

/* ---- the module table ---- */

/* "libNVVM: <path> (2.0, NVVM IR 2.0)" or why not */
static void push_nvvm_line(lua_State *L, CudaState *S) {
  Nvvm *nv = state_nvvm(S);
  if (nv == NULL) {
    lua_pushstring(L, S->nvvm_why);
    return;
  }
  int major, minor, ir_major, ir_minor;
  nvvm_versions(nv, &major, &minor, &ir_major, &ir_minor);
  lua_pushfstring(L, "libNVVM: %s (%d.%d, NVVM IR %d.%d)", nvvm_lib_path(nv), major, minor, ir_major, ir_minor);
}

/* true, or false and why: the driver's failure and what libNVVM search found */
static int cudrv_lua_is_available(lua_State *L) {
  CudaState *S = state_of(L);
  if (state_init(S)) {
    lua_pushboolean(L, 1);
    if (!S->sim) return 1;
    lua_pushliteral(L, "the CUDA simulator: kernels run on the CPU");
    return 2;
  }
  lua_pushboolean(L, 0);
  lua_pushfstring(L, "CUDA driver: %s\n", S->why);
  push_nvvm_line(L, S);
  lua_concat(L, 2);
  return 2;
}

static void push_device(lua_State *L, const CudaDevice *d, int id) {
  lua_createtable(L, 0, 6);
  lua_pushinteger(L, id);
  lua_setfield(L, -2, "id");
  lua_pushstring(L, d->name);
  lua_setfield(L, -2, "name");
  lua_createtable(L, 2, 0);
  lua_pushinteger(L, d->cc_major);
  lua_rawseti(L, -2, 1);
  lua_pushinteger(L, d->cc_minor);
  lua_rawseti(L, -2, 2);
  lua_setfield(L, -2, "compute_capability");
  lua_pushinteger(L, (lua_Integer)d->total_mem);
  lua_setfield(L, -2, "memory");
  lua_pushinteger(L, d->nsm);
  lua_setfield(L, -2, "multiprocessors");
  lua_pushinteger(L, d->max_threads);
  lua_setfield(L, -2, "max_threads_per_block");
}

/* list of {id, name, compute_capability = {major, minor}, memory, ...} */
static int cudrv_lua_devices(lua_State *L) {
  CudaState *S = cudrv_get(L);
  lua_createtable(L, S->ndev, 0);
  for (int i = 0; i < S->ndev; i++) {
    push_device(L, &S->devs[i], i);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

static int cudrv_lua_get_current_device(lua_State *L) {
  CudaState *S = cudrv_get(L);
  push_device(L, S->cur, S->devno);
  return 1;
}

/* cuda.select_device(i), 0-based as in Numba; arrays of the previous
** device stay valid for their own context */
static int cudrv_lua_select_device(lua_State *L) {
  CudaState *S = cudrv_get(L);
  lua_Integer i = luaL_checkinteger(L, 1);
  if (i < 0 || i >= S->ndev)
    luaL_error(L, "select_device: no device %I (%d device%s)", i, S->ndev, S->ndev == 1 ? "" : "s");
  CudaDevice *d = &S->devs[i];
  if (d->ctx == NULL) CU_CALL(L, S, cuDevicePrimaryCtxRetain, (&d->ctx, d->dev));
  S->devno = (int)i;
  S->cur = d;
  cudrv_make_current(S, d->ctx);
  return 0;
}

static void print_line(lua_State *L) {
  lua_getglobal(L, "print");
  lua_insert(L, -2);
  lua_call(L, 1, 0);
}

/* prints the devices, the driver and libNVVM; returns whether CUDA works */
static int cudrv_lua_detect(lua_State *L) {
  CudaState *S = state_of(L);
  if (S->sim) {
    lua_pushfstring(L, "Simulating CUDA on the CPU: %s, up to %d blocks at a time", S->cur->name, S->cur->nsm);
    print_line(L);
    lua_pushboolean(L, 1);
    return 1;
  }
  if (!state_init(S)) {
    lua_pushfstring(L, "CUDA is not available: %s", S->why);
    print_line(L);
    push_nvvm_line(L, S);
    print_line(L);
    lua_pushboolean(L, 0);
    return 1;
  }
  lua_pushfstring(L, "Found %d CUDA device%s", S->ndev, S->ndev == 1 ? "" : "s");
  print_line(L);
  for (int i = 0; i < S->ndev; i++) {
    const CudaDevice *d = &S->devs[i];
    char mem[32];
    snprintf(mem, sizeof mem, "%.1f", (double)d->total_mem / (1024.0 * 1024.0 * 1024.0));
    lua_pushfstring(L, "id %d: %s, compute capability %d.%d, %s GiB, %d multiprocessors%s", i, d->name,
                    d->cc_major, d->cc_minor, mem, d->nsm, i == S->devno ? " [current]" : "");
    print_line(L);
  }
  lua_pushfstring(L, "CUDA driver: %d.%d", S->driver_version / 1000, S->driver_version % 1000 / 10);
  print_line(L);
  push_nvvm_line(L, S);
  if (S->nvvm == NULL) lua_pushliteral(L, " (PTX from LLVM's NVPTX backend)");
  else lua_pushliteral(L, "");
  lua_concat(L, 2);
  print_line(L);
  const char *ld = state_libdevice(S);
  lua_pushfstring(L, "libdevice: %s", ld ? ld : S->libdevice_why);
  print_line(L);
  lua_pushboolean(L, 1);
  return 1;
}

/* waits for the device, then frees what was pending */
static int cudrv_lua_synchronize(lua_State *L) {
  CudaState *S = cudrv_get(L);
  CU_CALL(L, S, cuCtxSynchronize, ());
  cudrv_flush(S);
  return 0;
}

/* free, total bytes of the current device */
static int cudrv_lua_mem_info(lua_State *L) {
  CudaState *S = cudrv_get(L);
  size_t free_b = 0, total = 0;
  CU_CALL(L, S, cuMemGetInfo, (&free_b, &total));
  lua_pushinteger(L, (lua_Integer)free_b);
  lua_pushinteger(L, (lua_Integer)total);
  return 2;
}

/* cuda.current_context():get_memory_info() as in Numba */
static int cudrv_lua_current_context(lua_State *L) {
  cudrv_get(L);
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, cudrv_lua_mem_info);
  lua_setfield(L, -2, "get_memory_info");
  return 1;
}

/* _compile_ptx(ir[, {cc = {9, 0}, fastmath = false, backend = "nvvm"|"llvm"}])
** (a test hook: the dispatcher calls cudrv_push_ptx) */
static int cudrv_lua_compile_ptx(lua_State *L) {
  size_t len;
  const char *ir = luaL_checklstring(L, 1, &len);
  CudaState *S = state_of(L);
  int major = 0, minor = 0;
  bool fastmath = false;
  const char *backend = NULL;
  if (!lua_isnoneornil(L, 2)) {
    luaL_checktype(L, 2, LUA_TTABLE);
    if (lua_getfield(L, 2, "cc") == LUA_TTABLE) {
      lua_geti(L, -1, 1);
      lua_geti(L, -2, 2);
      major = (int)luaL_checkinteger(L, -2);
      minor = (int)luaL_checkinteger(L, -1);
      lua_pop(L, 2);
    }
    lua_getfield(L, 2, "fastmath");
    fastmath = lua_toboolean(L, -1);
    lua_getfield(L, 2, "backend");
    backend = lua_tostring(L, -1);
    lua_pop(L, 3);
  }
  if (major == 0) {
    S = cudrv_get(L);
    major = S->cur->cc_major;
    minor = S->cur->cc_minor;
  }
  cudrv_push_ptx(L, S, ir, len, major, minor, fastmath, backend);
  return 1;
}

static int cudrv_lua_fixup_ir(lua_State *L) {
  char *text = nvvm_fixup_ir(luaL_checkstring(L, 1));
  if (text == NULL) luaL_error(L, "not enough memory");
  lua_pushstring(L, text);
  free(text);
  return 1;
}

/* _load_ptx(ptx, name) -> kernel handle */
static int cudrv_lua_load_ptx(lua_State *L) {
  const char *ptx = luaL_checkstring(L, 1), *name = luaL_checkstring(L, 2);
  CudaState *S = cudrv_get(L);
  Function *f = lua_newuserdatauv(L, sizeof *f, 0);
  f->tag = 0;
  f->f = cudrv_load_ptx(L, S, ptx, name);
  f->tag = FUNCTION_TAG;
  luaL_setmetatable(L, FUNCTION_MT);
  return 1;
}

/* _launch(fn, {grid, block[, stream[, shared_bytes]], times = 1}, fmt, args...):
** fmt gives each argument's kind: a device array, l int64, i int32, b
** bool/int8, d float64, f float32 (a test hook standing in for the
** dispatcher; times > 1 launches the packed parameters again, to time the
** driver alone) */
static int cudrv_lua_launch(lua_State *L) {
  CUfunction f = UDATA_CHECK(L, 1, Function, FUNCTION_MT, FUNCTION_TAG)->f;
  luaL_checktype(L, 2, LUA_TTABLE);
  const char *fmt = luaL_checkstring(L, 3);
  CudaState *S = cudrv_get(L);
  unsigned grid[3], block[3];
  lua_geti(L, 2, 1);
  cudrv_dims(L, -1, "grid", grid);
  lua_geti(L, 2, 2);
  cudrv_dims(L, -1, "block", block);
  lua_geti(L, 2, 3);
  CUstream stream = cudrv_opt_stream(L, -1, S);
  lua_geti(L, 2, 4);
  unsigned shared = (unsigned)luaL_optinteger(L, -1, 0);
  lua_getfield(L, 2, "times");
  lua_Integer times = luaL_optinteger(L, -1, 1);
  lua_pop(L, 5);
  if (S->scratch == NULL && (S->scratch = malloc(sizeof *S->scratch)) == NULL) luaL_error(L, "not enough memory");
  CudaParams *P = S->scratch;  /* too big for the C stack; nothing re-enters before the launch */
  cudrv_params_reset(P);
  for (int i = 0; fmt[i]; i++) {
    int arg = 4 + i;
    luaL_checkany(L, arg);
    switch (fmt[i]) {
      case 'a': {
        DevArray *d = devarray_test(L, arg);
        if (d == NULL) luaL_typeerror(L, arg, DEVARRAY_MT);
        cudrv_pack_array(L, S, P, d, arg);
        break;
      }
      case 'l': { int64_t v = luaL_checkinteger(L, arg); cudrv_param(L, P, &v, 8); break; }
      case 'i': { int32_t v = (int32_t)luaL_checkinteger(L, arg); cudrv_param(L, P, &v, 4); break; }
      case 'b': { int8_t v = lua_isboolean(L, arg) ? (int8_t)lua_toboolean(L, arg) : (int8_t)luaL_checkinteger(L, arg);
                  cudrv_param(L, P, &v, 1); break; }
      case 'd': { double v = luaL_checknumber(L, arg); cudrv_param(L, P, &v, 8); break; }
      case 'f': { float v = (float)luaL_checknumber(L, arg); cudrv_param(L, P, &v, 4); break; }
      default: luaL_error(L, "_launch: unknown argument kind '%c'", fmt[i]);
    }
  }
  for (lua_Integer i = 0; i < times; i++) cudrv_launch(L, S, f, grid, block, shared, stream, P->ptrs);
  return 0;
}

/* _pending() -> device frees queued, their bytes (for the GC tests) */
static int cudrv_lua_pending(lua_State *L) {
  CudaState *S = state_of(L);
  lua_pushinteger(L, S->npending);
  lua_pushinteger(L, (lua_Integer)S->pending_bytes);
  return 2;
}

/* _toolkit() -> {nvvm = path, nvvm_version = "2.0", libdevice = path} with
** nil where not found (so the specs know what they can test) */
static int cudrv_lua_toolkit(lua_State *L) {
  CudaState *S = state_of(L);
  Nvvm *nv = state_nvvm(S);
  const char *ld = state_libdevice(S);
  lua_createtable(L, 0, 3);
  if (nv) {
    int major, minor, ir_major, ir_minor;
    nvvm_versions(nv, &major, &minor, &ir_major, &ir_minor);
    lua_pushstring(L, nvvm_lib_path(nv));
    lua_setfield(L, -2, "nvvm");
    lua_pushfstring(L, "%d.%d", major, minor);
    lua_setfield(L, -2, "nvvm_version");
  }
  if (ld) {
    lua_pushstring(L, ld);
    lua_setfield(L, -2, "libdevice");
  }
  return 1;
}

static const luaL_Reg cuda_funcs[] = {
  {"is_available", cudrv_lua_is_available},
  {"simulate", cudrv_lua_simulate},
  {"detect", cudrv_lua_detect},
  {"devices", cudrv_lua_devices},
  {"get_current_device", cudrv_lua_get_current_device},
  {"select_device", cudrv_lua_select_device},
  {"synchronize", cudrv_lua_synchronize},
  {"mem_info", cudrv_lua_mem_info},
  {"current_context", cudrv_lua_current_context},
  {"stream", cudrv_lua_stream},
  {"default_stream", cudrv_lua_default_stream},
  {"event", cudrv_lua_event},
  {"event_elapsed_time", cudrv_lua_event_elapsed_time},
  {"_compile_ptx", cudrv_lua_compile_ptx},
  {"_fixup_ir", cudrv_lua_fixup_ir},
  {"_load_ptx", cudrv_lua_load_ptx},
  {"_launch", cudrv_lua_launch},
  {"_pending", cudrv_lua_pending},
  {"_toolkit", cudrv_lua_toolkit},
  {NULL, NULL}
};

static const luaL_Reg stream_methods[] = {
  {"synchronize", cudrv_lua_stream_synchronize},
  {"query", cudrv_lua_stream_query},
  {NULL, NULL}
};

static const luaL_Reg event_methods[] = {
  {"record", cudrv_lua_event_record},
  {"synchronize", cudrv_lua_event_synchronize},
  {"query", cudrv_lua_event_query},
  {"elapsed_time", cudrv_lua_event_elapsed_time},
  {NULL, NULL}
};

static void new_class(lua_State *L, const char *mt, lua_CFunction gc, const luaL_Reg *methods) {
  luaL_newmetatable(L, mt);
  udata_protect(L, -1, mt);
  if (gc) {
    lua_pushcfunction(L, gc);
    lua_setfield(L, -2, "__gc");
  }
  if (methods) {
    lua_newtable(L);
    luaL_setfuncs(L, methods, 0);
    lua_setfield(L, -2, "__index");
  }
  lua_pop(L, 1);
}

void cuda_open(lua_State *L) {
  new_class(L, STATE_MT, cudrv_lua_state_gc, NULL);
  new_class(L, STREAM_MT, cudrv_lua_stream_gc, stream_methods);
  new_class(L, EVENT_MT, cudrv_lua_event_gc, event_methods);
  new_class(L, FUNCTION_MT, NULL, NULL);
  luaL_getmetatable(L, STREAM_MT);
  lua_pushcfunction(L, cudrv_lua_stream_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &box_key) == LUA_TNIL) {  /* one state per lua_State */
    CudaBox *b = lua_newuserdatauv(L, sizeof *b, 0);
    b->S = calloc(1, sizeof *b->S);
    if (b->S == NULL) luaL_error(L, "not enough memory");
    atomic_init(&b->S->refct, 1);
    const char *sim = getenv("LUMBA_CUDA_SIM");
    b->sim = NULL;
    b->simulate = sim && strcmp(sim, "1") == 0;
    b->tag = STATE_TAG;
    luaL_setmetatable(L, STATE_MT);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &box_key);
  }
  lua_pop(L, 1);
  luaL_newlib(L, cuda_funcs);
  devarray_open(L);
  lua_setfield(L, -2, "cuda");
}
