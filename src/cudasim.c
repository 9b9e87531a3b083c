/*
** cudasim.c — the simulator's CudaDriver table: every entry point
** cudadrv.c binds from libcuda, implemented on the host, so that device
** arrays, copies, streams, events, the deferred frees and the launch
** checks are cudadrv.c's and devarray.c's own code in both modes. The
** handles are malloc'd host objects; nothing here keeps global state.
**
** Loading a module compiles NVVM IR (the text cudrv_push_ptx returns in
** simulator mode) for the CPU into a JIT of its own: special-register
** reads become calls that read the simulated thread (simrun_sreg_fn),
** llvm.nvvm.barrier0 and bar.warp.sync become simrun_barrier and
** simrun_syncwarp, libdevice's __nv_f becomes libm's f, and every kernel
** (a function returning void) gets a SimEntry over the cuLaunchKernel
** parameter array (target_sim.h).
*/
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lauxlib.h>
#include <llvm-c/IRReader.h>

#include "cudasim.h"
#include "jit_cpu.h"
#include "parallel.h"
#include "target_sim.h"

enum {
  SIM_SUCCESS = 0,
  SIM_INVALID_VALUE = 1,
  SIM_OUT_OF_MEMORY = 2,
  SIM_INVALID_DEVICE = 101,
  SIM_INVALID_CONTEXT = 201,
  SIM_INVALID_PTX = 218,
  SIM_INVALID_HANDLE = 400,
  SIM_NOT_FOUND = 500,
  SIM_LAUNCH_FAILED = 719,
};

static const struct { CUresult r; const char *name, *text; } sim_errors[] = {
  {SIM_SUCCESS, "CUDA_SUCCESS", "no error"},
  {SIM_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
  {SIM_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
  {SIM_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
  {SIM_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
  {SIM_INVALID_PTX, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
  {SIM_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
  {SIM_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
  {SIM_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
};

/* the one context: an address that is never dereferenced */
static const char sim_context = 0;
#define SIM_CTX ((CUcontext)(uintptr_t)&sim_context)

#define SIM_NAME "lumba CUDA simulator (CPU)"
#define SIM_MAX_THREADS 1024
#define SIM_CC_MAJOR 5  /* a modest compute capability: code that checks it takes the plain path */
#define SIM_CC_MINOR 2

/* ---- errors, devices, contexts ---- */

static CUresult sim_error_name(CUresult r, const char **s) {
  for (size_t i = 0; i < lm_countof(sim_errors); i++)
    if (sim_errors[i].r == r) { *s = sim_errors[i].name; return 0; }
  return SIM_INVALID_VALUE;
}

static CUresult sim_error_string(CUresult r, const char **s) {
  for (size_t i = 0; i < lm_countof(sim_errors); i++)
    if (sim_errors[i].r == r) { *s = sim_errors[i].text; return 0; }
  return SIM_INVALID_VALUE;
}

static CUresult sim_init(unsigned flags) { (void)flags; return 0; }
static CUresult sim_driver_version(int *v) { *v = 0; return 0; }
static CUresult sim_device_count(int *n) { *n = 1; return 0; }

static CUresult sim_device_get(CUdevice *d, int ordinal) {
  if (ordinal != 0) return SIM_INVALID_DEVICE;
  *d = 0;
  return 0;
}

static CUresult sim_device_name(char *name, int len, CUdevice d) {
  (void)d;
  snprintf(name, (size_t)len, "%s", SIM_NAME);
  return 0;
}

static CUresult sim_device_attribute(int *v, int attr, CUdevice d) {
  (void)d;
  switch (attr) {
    case 1: *v = SIM_MAX_THREADS; return 0;    /* MAX_THREADS_PER_BLOCK */
    case 16: *v = par_max_workers(); return 0;  /* MULTIPROCESSOR_COUNT: blocks that run at once */
    case 75: *v = SIM_CC_MAJOR; return 0;       /* COMPUTE_CAPABILITY_MAJOR */
    case 76: *v = SIM_CC_MINOR; return 0;       /* COMPUTE_CAPABILITY_MINOR */
    default: return SIM_INVALID_VALUE;
  }
}

static size_t pages_bytes(int which) {
  long n = sysconf(which), page = sysconf(_SC_PAGESIZE);
  return n > 0 && page > 0 ? (size_t)n * (size_t)page : 0;
}

static CUresult sim_total_mem(size_t *bytes, CUdevice d) {
  (void)d;
  *bytes = pages_bytes(_SC_PHYS_PAGES);
  return 0;
}

static CUresult sim_ctx_retain(CUcontext *c, CUdevice d) { (void)d; *c = SIM_CTX; return 0; }
static CUresult sim_ctx_release(CUdevice d) { (void)d; return 0; }
static CUresult sim_ctx_set(CUcontext c) { return c == SIM_CTX ? 0 : SIM_INVALID_HANDLE; }
static CUresult sim_ctx_get(CUcontext *c) { *c = SIM_CTX; return 0; }
static CUresult sim_ctx_sync(void) { return 0; }

/* ---- memory ---- */

static CUresult sim_mem_info(size_t *free_b, size_t *total) {
  *free_b = pages_bytes(_SC_AVPHYS_PAGES);
  *total = pages_bytes(_SC_PHYS_PAGES);
  return 0;
}

/* 256-byte aligned, as cuMemAlloc's; like a device, never more than the
** (physical) memory there is */
static CUresult sim_alloc(CUdeviceptr *p, size_t bytes) {
  if (bytes == 0 || bytes > pages_bytes(_SC_PHYS_PAGES)) return SIM_OUT_OF_MEMORY;
  void *m = aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (m == NULL) return SIM_OUT_OF_MEMORY;
  *p = (CUdeviceptr)(uintptr_t)m;
  return 0;
}

/* managed memory is host memory here, as all of the simulator's */
static CUresult sim_alloc_managed(CUdeviceptr *p, size_t bytes, unsigned flags) {
  (void)flags;
  return sim_alloc(p, bytes);
}
static CUresult sim_free(CUdeviceptr p) { free((void *)(uintptr_t)p); return 0; }

static CUresult sim_host_alloc(void **p, size_t bytes, unsigned flags) {
  (void)flags;
  if (bytes > pages_bytes(_SC_PHYS_PAGES) || (*p = aligned_alloc(64, (bytes + 63) / 64 * 64)) == NULL)
    return SIM_OUT_OF_MEMORY;
  return 0;
}

static CUresult sim_free_host(void *p) { free(p); return 0; }

static CUresult sim_htod(CUdeviceptr dst, const void *src, size_t n) {
  memmove((void *)(uintptr_t)dst, src, n);
  return 0;
}

static CUresult sim_dtoh(void *dst, CUdeviceptr src, size_t n) {
  memmove(dst, (const void *)(uintptr_t)src, n);
  return 0;
}

static CUresult sim_dtod(CUdeviceptr dst, CUdeviceptr src, size_t n) {
  memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
  return 0;
}

/* between "devices": only the simulator's own memory is reachable */
static CUresult sim_peer(CUdeviceptr dst, CUcontext dctx, CUdeviceptr src, CUcontext sctx, size_t n) {
  if (dctx != SIM_CTX || sctx != SIM_CTX) return SIM_INVALID_CONTEXT;
  return sim_dtod(dst, src, n);
}

/* a stream's work runs when it is queued, so every copy is synchronous */
static CUresult sim_htod_async(CUdeviceptr dst, const void *src, size_t n, CUstream s) { (void)s; return sim_htod(dst, src, n); }
static CUresult sim_dtoh_async(void *dst, CUdeviceptr src, size_t n, CUstream s) { (void)s; return sim_dtoh(dst, src, n); }
static CUresult sim_dtod_async(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s) { (void)s; return sim_dtod(dst, src, n); }

/* ---- streams and events ---- */

/* blocks of 256 threads: what the GPU's occupancy calculator gives small kernels */
static CUresult sim_occupancy_block(int *min_grid, int *block, CUfunction f, size_t (*smem_of)(int), size_t smem,
                                    int limit) {
  (void)f;
  (void)smem_of;
  (void)smem;
  *min_grid = 1;
  *block = limit > 0 && limit < 256 ? limit : 256;
  return 0;
}

/* as a GPU of 2048 threads per multiprocessor; a multiprocessor is a core of the pool */
static CUresult sim_occupancy_active(int *blocks, CUfunction f, int block_size, size_t smem) {
  (void)f;
  (void)smem;
  *blocks = block_size > 0 && block_size <= SIM_MAX_THREADS ? 2048 / block_size : 0;
  return 0;
}

static CUresult sim_stream_create(CUstream *s, unsigned flags) {
  (void)flags;
  *s = malloc(1);  /* a distinct handle; the stream has no state */
  return *s ? 0 : SIM_OUT_OF_MEMORY;
}

static CUresult sim_stream_destroy(CUstream s) { free(s); return 0; }
static CUresult sim_stream_sync(CUstream s) { (void)s; return 0; }
static CUresult sim_stream_query(CUstream s) { (void)s; return 0; }

typedef struct SimEvent {
  double ms;        // CLOCK_MONOTONIC when recorded
  bool recorded;
  bool timing;
} SimEvent;

static CUresult sim_event_create(CUevent *e, unsigned flags) {
  SimEvent *ev = calloc(1, sizeof *ev);
  if (ev == NULL) return SIM_OUT_OF_MEMORY;
  ev->timing = (flags & 2) == 0;  /* CU_EVENT_DISABLE_TIMING */
  *e = (CUevent)ev;
  return 0;
}

static CUresult sim_event_destroy(CUevent e) { free(e); return 0; }

static CUresult sim_event_record(CUevent e, CUstream s) {
  (void)s;
  SimEvent *ev = (SimEvent *)e;
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  ev->ms = (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
  ev->recorded = true;
  return 0;
}

static CUresult sim_event_sync(CUevent e) { (void)e; return 0; }
static CUresult sim_event_query(CUevent e) { (void)e; return 0; }

static CUresult sim_event_elapsed(float *ms, CUevent a, CUevent b) {
  SimEvent *x = (SimEvent *)a, *y = (SimEvent *)b;
  if (!x->recorded || !y->recorded || !x->timing || !y->timing) return SIM_INVALID_HANDLE;
  *ms = (float)(y->ms - x->ms);
  return 0;
}

/* ---- modules of hand-written NVVM IR ---- */

typedef struct SimModule {
  LmJit *J;             // owns the code
  int n;
  char **names;         // kernel names (malloc'd)
  SimKernel *kernels;
} SimModule;

static void module_free(SimModule *m) {
  if (m == NULL) return;
  jit_free(m->J);
  for (int i = 0; i < m->n; i++) free(m->names[i]);
  free(m->names);
  free(m->kernels);
  free(m);
}

/* the log buffer cuModuleLoadDataEx was given (CU_JIT_ERROR_LOG_BUFFER = 5, its size 6) */
static void put_log(unsigned n, const int *opts, void **vals, const char *what, const char *msg) {
  char *buf = NULL;
  size_t size = 0;
  for (unsigned i = 0; i < n; i++) {
    if (opts[i] == 5) buf = vals[i];
    if (opts[i] == 6) size = (size_t)(uintptr_t)vals[i];
  }
  if (buf && size) snprintf(buf, size, "%s%s", what, msg ? msg : "");
}

typedef struct IrBody {
  LLVMValueRef fn;
  LLVMTypeRef fnty;
  LLVMValueRef args[CUDRV_MAXPARAMS];
  unsigned nargs;
} IrBody;

static void ir_prep(void *ud, LLVMBuilderRef b, LLVMValueRef params) {
  IrBody *ib = ud;
  LLVMContextRef ctx = LLVMGetTypeContext(ib->fnty);
  LLVMTypeRef ts[CUDRV_MAXPARAMS], i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
  LLVMGetParamTypes(ib->fnty, ts);
  for (unsigned k = 0; k < ib->nargs; k++) {
    LLVMValueRef i = LLVMConstInt(LLVMInt64TypeInContext(ctx), k, 0);
    LLVMValueRef slot = LLVMBuildLoad2(b, i8p, LLVMBuildInBoundsGEP2(b, i8p, params, &i, 1, ""), "");
    ib->args[k] = LLVMBuildLoad2(b, ts[k], LLVMBuildBitCast(b, slot, LLVMPointerType(ts[k], 0), ""), "");
  }
}

static LLVMValueRef ir_call(void *ud, LLVMBuilderRef b, LLVMValueRef err) {
  IrBody *ib = ud;
  (void)err;
  LLVMBuildCall2(b, ib->fnty, ib->fn, ib->args, ib->nargs, "");
  return LLVMConstInt(LLVMInt32TypeInContext(LLVMGetTypeContext(ib->fnty)), 0, 0);
}

/* NVVM names → what the simulator runs; the sreg functions become absolute
** symbols (names[], addrs[]); returns an error text or NULL */
static const char *adapt_calls(LLVMModuleRef M, const char **names, void **addrs, int *nsyms, int cap, bool *fibers) {
  LLVMValueRef next;
  for (LLVMValueRef f = LLVMGetFirstFunction(M); f; f = next) {
    next = LLVMGetNextFunction(f);
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    const char *to = NULL;
    char buf[128];
    if (strncmp(name, "llvm.nvvm.read.ptx.sreg.", 24) == 0) {
      void *fn = simrun_sreg_fn(name + 24);
      if (fn == NULL || *nsyms == cap) return name;
      snprintf(buf, sizeof buf, "simrun.sreg.%s", name + 24);
      names[*nsyms] = strdup(buf);
      addrs[(*nsyms)++] = fn;
      to = buf;
    } else if (strcmp(name, "llvm.nvvm.barrier0") == 0) {
      to = "simrun_barrier";
      *fibers = true;
    } else if (strcmp(name, "llvm.nvvm.bar.warp.sync") == 0) {
      to = "simrun_syncwarp";
      *fibers = true;
    } else if (strncmp(name, "__nv_", 5) == 0) {
      to = name + 5;
    } else if (strncmp(name, "llvm.nvvm.", 10) == 0) {
      return name;
    }
    if (to == NULL) continue;
    LLVMTypeRef ty = LLVMGlobalGetValueType(f);
    LLVMValueRef g = LLVMGetNamedFunction(M, to);
    if (g == NULL) g = LLVMAddFunction(M, to, ty);
    LLVMReplaceAllUsesWith(f, g);
    LLVMDeleteFunction(f);
  }
  return NULL;
}

static CUresult sim_module_load(CUmodule *out, const void *image, unsigned nopt, int *opts, void **vals) {
  char *err = NULL;
  SimModule *m = calloc(1, sizeof *m);
  if (m == NULL || (m->J = jit_new(&err)) == NULL) {
    free(err);
    free(m);
    return SIM_OUT_OF_MEMORY;
  }
  const char *text = image;
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, strlen(text), "kernel");
  LLVMModuleRef M = NULL;
  if (LLVMParseIRInContext(jit_context(m->J), buf, &M, &err)) {
    put_log(nopt, opts, vals, "", err);
    LLVMDisposeMessage(err);
    module_free(m);
    return SIM_INVALID_PTX;
  }
  const char *names[20] = {"simrun_ctx", "simrun_shared", "simrun_barrier", "simrun_syncwarp"};
  void *addrs[20] = {(void *)simrun_ctx, (void *)simrun_shared, (void *)simrun_barrier, (void *)simrun_syncwarp};
  int nsyms = 4;
  bool fibers = false;
  const char *bad = adapt_calls(M, names, addrs, &nsyms, (int)lm_countof(names), &fibers);
  int kernels = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(M); f; f = LLVMGetNextFunction(f))
    kernels += !LLVMIsDeclaration(f) && LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(f))) == LLVMVoidTypeKind;
  m->names = calloc((size_t)kernels + 1, sizeof *m->names);
  m->kernels = calloc((size_t)kernels + 1, sizeof *m->kernels);
  CUresult r = SIM_SUCCESS;
  if (bad) {
    put_log(nopt, opts, vals, "the simulator does not implement ", bad);
    r = SIM_INVALID_PTX;
  } else if (m->names == NULL || m->kernels == NULL) {
    r = SIM_OUT_OF_MEMORY;
  }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(jit_context(m->J));
  for (LLVMValueRef f = LLVMGetFirstFunction(M); f && r == 0; f = LLVMGetNextFunction(f)) {
    LLVMTypeRef fty = LLVMGlobalGetValueType(f);
    if (LLVMIsDeclaration(f) || LLVMGetTypeKind(LLVMGetReturnType(fty)) != LLVMVoidTypeKind) continue;
    if (LLVMCountParamTypes(fty) > CUDRV_MAXPARAMS) continue;
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    m->names[m->n] = strdup(name);
    if (m->names[m->n] == NULL) { r = SIM_OUT_OF_MEMORY; break; }
    IrBody ib = {.fn = f, .fnty = fty, .nargs = LLVMCountParamTypes(fty)};
    char entry[300];
    snprintf(entry, sizeof entry, "%s.sim", name);
    tsim_build_entry(M, b, entry, !fibers, &(TsimBody){ir_prep, ir_call, &ib});
    m->kernels[m->n++] = (SimKernel){.entry = NULL, .fibers = fibers, .stack = 64 * 1024};
  }
  LLVMDisposeBuilder(b);
  if (r == 0) {
    jit_prepare_module(m->J, M);
    if (jit_define_symbols(m->J, names, addrs, nsyms, &err) != 0 || jit_optimize(m->J, M, 2, &err) != 0) {
      put_log(nopt, opts, vals, "", err);
      r = SIM_INVALID_PTX;
    }
  }
  for (int i = 4; i < nsyms; i++) free((void *)names[i]);
  if (r == 0) {
    LLVMModuleRef owned = M;
    M = NULL;
    if (jit_add_module(m->J, owned, &err) != 0) {
      put_log(nopt, opts, vals, "", err);
      r = SIM_INVALID_PTX;
    }
  }
  for (int i = 0; i < m->n && r == 0; i++) {
    char entry[300];
    snprintf(entry, sizeof entry, "%s.sim", m->names[i]);
    m->kernels[i].entry = (SimEntry)jit_lookup(m->J, entry, &err);
    if (m->kernels[i].entry == NULL) {
      put_log(nopt, opts, vals, "", err);
      r = SIM_INVALID_PTX;
    }
  }
  free(err);
  if (M) LLVMDisposeModule(M);
  if (r != 0) {
    module_free(m);
    return r;
  }
  *out = (CUmodule)m;
  return 0;
}

static CUresult sim_module_function(CUfunction *f, CUmodule mod, const char *name) {
  SimModule *m = (SimModule *)mod;
  for (int i = 0; i < m->n; i++)
    if (strcmp(m->names[i], name) == 0) {
      *f = (CUfunction)&m->kernels[i];
      return 0;
    }
  return SIM_NOT_FOUND;
}

static CUresult sim_module_unload(CUmodule mod) {
  module_free((SimModule *)mod);
  return 0;
}

/* ---- launches ---- */

/* what a GPU accepts beyond cudrv_launch's checks: grid x < 2^31, y and
** z < 2^16; block x, y <= 1024, z <= 64 */
static bool dims_ok(const unsigned grid[3], const unsigned block[3]) {
  return grid[0] < (1u << 31) && grid[1] < (1u << 16) && grid[2] < (1u << 16) && block[0] <= 1024 &&
         block[1] <= 1024 && block[2] <= 64;
}

static CUresult sim_launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                           unsigned bz, unsigned shared, CUstream s, void **params, void **extra) {
  (void)s;
  (void)extra;
  unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
  if (!dims_ok(grid, block)) return SIM_INVALID_VALUE;
  SimFail fail;
  return simrun_launch_shared((const SimKernel *)f, grid, block, shared, params, &fail) ? SIM_LAUNCH_FAILED : 0;
}

static CUresult sim_launch_cooperative(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                       unsigned bz, unsigned shared, CUstream s, void **params) {
  return sim_launch(f, gx, gy, gz, bx, by, bz, shared, s, params, NULL);
}

void cudasim_launch(lua_State *L, CudaState *S, const SimKernel *k, const unsigned grid[3],
                    const unsigned block[3], unsigned shared, void **params) {
  cudrv_check_launch(L, S, grid, block);
  if (!dims_ok(grid, block)) cudrv_error(L, S, SIM_INVALID_VALUE, "cuLaunchKernel");
  SimFail fail;
  if (simrun_launch_shared(k, grid, block, shared, params, &fail) == 0) return;
  char msg[1024];
  simrun_message(&fail, msg, sizeof msg);
  lua_pushstring(L, msg);
  lua_error(L);
}

/* ---- the state ---- */

CudaState *cudasim_new(void) {
  CudaState *S = calloc(1, sizeof *S);
  if (S == NULL) return NULL;
  atomic_init(&S->refct, 1);
  CudaDriver *d = &S->fn;
  d->cuGetErrorName = sim_error_name;
  d->cuGetErrorString = sim_error_string;
  d->cuInit = sim_init;
  d->cuDriverGetVersion = sim_driver_version;
  d->cuDeviceGetCount = sim_device_count;
  d->cuDeviceGet = sim_device_get;
  d->cuDeviceGetName = sim_device_name;
  d->cuDeviceGetAttribute = sim_device_attribute;
  d->cuDeviceTotalMem = sim_total_mem;
  d->cuDevicePrimaryCtxRetain = sim_ctx_retain;
  d->cuDevicePrimaryCtxRelease = sim_ctx_release;
  d->cuCtxSetCurrent = sim_ctx_set;
  d->cuCtxGetCurrent = sim_ctx_get;
  d->cuCtxSynchronize = sim_ctx_sync;
  d->cuMemGetInfo = sim_mem_info;
  d->cuMemAlloc = sim_alloc;
  d->cuMemFree = sim_free;
  d->cuMemAllocManaged = sim_alloc_managed;
  d->cuMemHostAlloc = sim_host_alloc;
  d->cuMemFreeHost = sim_free_host;
  d->cuMemcpyHtoD = sim_htod;
  d->cuMemcpyDtoH = sim_dtoh;
  d->cuMemcpyDtoD = sim_dtod;
  d->cuMemcpyPeer = sim_peer;
  d->cuMemcpyHtoDAsync = sim_htod_async;
  d->cuMemcpyDtoHAsync = sim_dtoh_async;
  d->cuMemcpyDtoDAsync = sim_dtod_async;
  d->cuModuleLoadDataEx = sim_module_load;
  d->cuModuleGetFunction = sim_module_function;
  d->cuModuleUnload = sim_module_unload;
  d->cuLaunchKernel = sim_launch;
  d->cuOccupancyMaxPotentialBlockSize = sim_occupancy_block;
  d->cuOccupancyMaxActiveBlocksPerMultiprocessor = sim_occupancy_active;
  d->cuLaunchCooperativeKernel = sim_launch_cooperative;
  d->cuStreamCreate = sim_stream_create;
  d->cuStreamDestroy = sim_stream_destroy;
  d->cuStreamSynchronize = sim_stream_sync;
  d->cuStreamQuery = sim_stream_query;
  d->cuEventCreate = sim_event_create;
  d->cuEventDestroy = sim_event_destroy;
  d->cuEventRecord = sim_event_record;
  d->cuEventSynchronize = sim_event_sync;
  d->cuEventQuery = sim_event_query;
  d->cuEventElapsedTime = sim_event_elapsed;
  S->sim = true;
  S->ndev = 1;
  CudaDevice *dev = &S->devs[0];
  snprintf(dev->name, sizeof dev->name, "%s", SIM_NAME);
  dev->ctx = SIM_CTX;
  dev->cc_major = SIM_CC_MAJOR;
  dev->cc_minor = SIM_CC_MINOR;
  dev->max_threads = SIM_MAX_THREADS;
  dev->nsm = par_max_workers();
  dev->total_mem = pages_bytes(_SC_PHYS_PAGES);
  S->cur = dev;
  S->alive = true;
  S->status = CUDRV_READY;
  return S;
}
