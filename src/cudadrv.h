/*
** cudadrv.h — lumba.cuda's C side: libcuda bound at run time (dlopen, never
** linked), one CudaState per Lua state, the primary context, errors in
** numba-cuda's form, deferred frees, PTX loading and kernel launch.
**
** Kernel ABI (what the GPU lowering emits and what the launcher packs), one
** kernel parameter per item, in argument order:
**   array of ndim N    T *data, i64 shape[0..N-1], i64 strides[0..N-1]
**                      (strides in bytes; 2 * N + 1 parameters)
**   int64 / uint64     i64          float64   double
**   int32 / uint32     i32          float32   float
**   bool               i8 (0 or 1)  int8/16   i8 / i16
** Kernels return void. A dispatcher packs a launch as
**   CudaParams P; cudrv_params_reset(&P);
**   cudrv_pack_array(L, S, &P, d, argn);  cudrv_param(L, &P, &x, sizeof x); ...
**   cudrv_launch(L, S, f, grid, block, shared, stream, P.ptrs);
*/
#ifndef cudadrv_h
#define cudadrv_h

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <lua.h>

#include "lm.h"
#include "nvvm.h"

/* Driver API types, declared here so that lumba builds without cuda.h */
typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;

#define CUDRV_MAXDEV 16
#define CUDRV_MAXPARAMS (LM_MAXARGS * (1 + 2 * LM_MAXDIM))

/* The entry points we use: X(field, symbol, older symbol or NULL, parameters).
** Where the ABI was revised the newest symbol comes first (cuda.h's #defines). */
#define CUDRV_FUNCS(X) \
  X(cuGetErrorName, "cuGetErrorName", NULL, (CUresult r, const char **s)) \
  X(cuGetErrorString, "cuGetErrorString", NULL, (CUresult r, const char **s)) \
  X(cuInit, "cuInit", NULL, (unsigned flags)) \
  X(cuDriverGetVersion, "cuDriverGetVersion", NULL, (int *v)) \
  X(cuDeviceGetCount, "cuDeviceGetCount", NULL, (int *n)) \
  X(cuDeviceGet, "cuDeviceGet", NULL, (CUdevice *d, int ordinal)) \
  X(cuDeviceGetName, "cuDeviceGetName", NULL, (char *name, int len, CUdevice d)) \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute", NULL, (int *v, int attr, CUdevice d)) \
  X(cuDeviceTotalMem, "cuDeviceTotalMem_v2", NULL, (size_t *bytes, CUdevice d)) \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", NULL, (CUcontext *c, CUdevice d)) \
  X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", NULL, (CUdevice d)) \
  X(cuCtxSetCurrent, "cuCtxSetCurrent", NULL, (CUcontext c)) \
  X(cuCtxGetCurrent, "cuCtxGetCurrent", NULL, (CUcontext *c)) \
  X(cuCtxSynchronize, "cuCtxSynchronize", NULL, (void)) \
  X(cuMemGetInfo, "cuMemGetInfo_v2", NULL, (size_t *free, size_t *total)) \
  X(cuMemAlloc, "cuMemAlloc_v2", NULL, (CUdeviceptr *p, size_t bytes)) \
  X(cuMemFree, "cuMemFree_v2", NULL, (CUdeviceptr p)) \
  X(cuMemAllocManaged, "cuMemAllocManaged", NULL, (CUdeviceptr *p, size_t bytes, unsigned flags)) \
  X(cuMemHostAlloc, "cuMemHostAlloc", NULL, (void **p, size_t bytes, unsigned flags)) \
  X(cuMemFreeHost, "cuMemFreeHost", NULL, (void *p)) \
  X(cuMemcpyHtoD, "cuMemcpyHtoD_v2", NULL, (CUdeviceptr dst, const void *src, size_t n)) \
  X(cuMemcpyDtoH, "cuMemcpyDtoH_v2", NULL, (void *dst, CUdeviceptr src, size_t n)) \
  X(cuMemcpyDtoD, "cuMemcpyDtoD_v2", NULL, (CUdeviceptr dst, CUdeviceptr src, size_t n)) \
  X(cuMemcpyPeer, "cuMemcpyPeer", NULL, (CUdeviceptr dst, CUcontext dctx, CUdeviceptr src, CUcontext sctx, size_t n)) \
  X(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2", NULL, (CUdeviceptr dst, const void *src, size_t n, CUstream s)) \
  X(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2", NULL, (void *dst, CUdeviceptr src, size_t n, CUstream s)) \
  X(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2", NULL, (CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)) \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx", NULL, (CUmodule *m, const void *image, unsigned n, int *opts, void **vals)) \
  X(cuModuleGetFunction, "cuModuleGetFunction", NULL, (CUfunction *f, CUmodule m, const char *name)) \
  X(cuModuleUnload, "cuModuleUnload", NULL, (CUmodule m)) \
  X(cuLaunchKernel, "cuLaunchKernel", NULL, (CUfunction f, unsigned gx, unsigned gy, unsigned gz, \
    unsigned bx, unsigned by, unsigned bz, unsigned shared, CUstream s, void **params, void **extra)) \
  X(cuLaunchCooperativeKernel, "cuLaunchCooperativeKernel", NULL, (CUfunction f, unsigned gx, unsigned gy, \
    unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shared, CUstream s, void **params)) \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor", NULL, (int *blocks, \
    CUfunction f, int block_size, size_t smem)) \
  X(cuOccupancyMaxPotentialBlockSize, "cuOccupancyMaxPotentialBlockSize", NULL, (int *min_grid, int *block, \
    CUfunction f, size_t (*smem_of)(int), size_t smem, int limit)) \
  X(cuStreamCreate, "cuStreamCreate", NULL, (CUstream *s, unsigned flags)) \
  X(cuStreamDestroy, "cuStreamDestroy_v2", NULL, (CUstream s)) \
  X(cuStreamSynchronize, "cuStreamSynchronize", NULL, (CUstream s)) \
  X(cuStreamQuery, "cuStreamQuery", NULL, (CUstream s)) \
  X(cuEventCreate, "cuEventCreate", NULL, (CUevent *e, unsigned flags)) \
  X(cuEventDestroy, "cuEventDestroy_v2", NULL, (CUevent e)) \
  X(cuEventRecord, "cuEventRecord", NULL, (CUevent e, CUstream s)) \
  X(cuEventSynchronize, "cuEventSynchronize", NULL, (CUevent e)) \
  X(cuEventQuery, "cuEventQuery", NULL, (CUevent e)) \
  X(cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime", (float *ms, CUevent a, CUevent b))

typedef struct CudaDriver {
#define CUDRV_FIELD(name, sym, alt, params) CUresult (*name) params;
  CUDRV_FUNCS(CUDRV_FIELD)
#undef CUDRV_FIELD
} CudaDriver;

typedef struct CudaDevice {
  CUdevice dev;         // driver handle
  CUcontext ctx;        // its primary context; NULL until first selected
  char name[128];
  int cc_major, cc_minor;
  int max_threads;      // threads per block
  int nsm;              // multiprocessors
  size_t total_mem;     // bytes
} CudaDevice;

typedef struct PendingFree {
  CUdeviceptr ptr;
  CUcontext ctx;
  size_t size;
} PendingFree;

typedef struct LoadedModule {
  CUmodule mod;
  CUcontext ctx;
} LoadedModule;

enum { CUDRV_UNTRIED, CUDRV_READY, CUDRV_FAILED };

/* Per Lua state, reference counted: the Lua box holds one reference and so
** do every device buffer, pinned buffer, stream and event, so that whatever
** order lua_close finalizes them in, none of them outlives what it needs.
** After the box's __gc the contexts are released and `alive` is false:
** later releases drop their handles without calling the driver. */
typedef struct CudaState {
  _Atomic int refct;
  int status;                  // CUDRV_UNTRIED / READY / FAILED
  bool sim;                    // the CUDA simulator (cudasim.c): fn is host code
  char *why;                   // FAILED: why (malloc'd)
  void *lib;                   // libcuda.so.1 (never dlclosed: the driver keeps threads)
  CudaDriver fn;
  int driver_version;          // 13000 for CUDA 13.0
  int ndev;
  int devno;                   // the selected device
  CudaDevice devs[CUDRV_MAXDEV];
  CudaDevice *cur;             // &devs[devno]
  bool alive;                  // contexts retained and usable
  PendingFree *pending;        // device memory to free at the next flush
  int npending, cappending;    // cappending > npending + nbufs: queueing never allocates
  size_t pending_bytes;
  int nbufs;                   // live device buffers (DevBuf)
  LoadedModule *mods;          // modules loaded, unloaded at close
  int nmods, capmods;
  struct CudaParams *scratch;  // the _launch test hook's parameters (malloc'd at first use)
  int nvvm_status;             // libNVVM: CUDRV_UNTRIED / READY / FAILED
  Nvvm *nvvm;
  char *nvvm_why;
  int libdevice_status;        // libdevice.10.bc: same
  char *libdevice;             // its path
  char *libdevice_why;
} CudaState;

/* kernel parameters: ptrs[i] points at slots[i] (cuLaunchKernel's array) */
typedef struct CudaParams {
  int n;
  void *ptrs[CUDRV_MAXPARAMS];
  uint64_t slots[CUDRV_MAXPARAMS];
} CudaParams;

typedef struct DevArray DevArray;

/* adds lumba.core.cuda = {...}; nothing CUDA-related is loaded here */
void cuda_open(lua_State *L);
/* Whether lumba.cuda is the CPU simulator now (LUMBA_CUDA_SIM=1 at
** require, or cuda.simulate(true)): cudrv_get then returns the simulator's
** state and kernels compile with target_sim. */
bool cudrv_simulating(lua_State *L);

/* The state with the driver loaded and the selected device's context
** current on this thread; raises "CUDA is not available: <why>". */
CudaState *cudrv_get(lua_State *L);
void cudrv_retain(CudaState *S);
void cudrv_release(CudaState *S);  /* the last release frees S */
/* Makes S's current context current on this thread (no raise). */
void cudrv_make_current(CudaState *S, CUcontext ctx);

/* "[CUDA_ERROR_X] call: message" */
l_noret cudrv_error(lua_State *L, CudaState *S, CUresult r, const char *call);
#define CU_CALL(L, S, call, args) do { \
    CUresult r_ = (S)->fn.call args; \
    if (LM_UNLIKELY(r_ != 0)) cudrv_error(L, S, r_, #call); \
  } while (0)

/* Device memory: allocation flushes the pending frees past a threshold, and
** on CUDA_ERROR_OUT_OF_MEMORY flushes them all, runs a full Lua GC, and
** retries. cudrv_defer_free never calls the driver (safe in __gc). */
CUdeviceptr cudrv_alloc(lua_State *L, CudaState *S, size_t size);
void cudrv_defer_free(CudaState *S, CUcontext ctx, CUdeviceptr ptr, size_t size);
void cudrv_flush(CudaState *S);        /* frees everything pending */
void cudrv_maybe_flush(CudaState *S);  /* ... when past the threshold */

/* the stream argument at idx: nil or absent -> the default stream (0) */
CUstream cudrv_opt_stream(lua_State *L, int idx, CudaState *S);
/* grid or block at idx: an integer or {x[, y[, z]]} */
void cudrv_dims(lua_State *L, int idx, const char *what, unsigned d[3]);

/* PTX for NVVM IR or LLVM 14 IR text, pushed as a Lua string. backend:
** "nvvm", "llvm" (NVPTX) or NULL (libNVVM when found, else NVPTX).
** libdevice is linked when the text calls an @__nv_ function. */
void cudrv_push_ptx(lua_State *L, CudaState *S, const char *ir, size_t len, int cc_major,
                    int cc_minor, bool fastmath, const char *backend);
/* cuModuleLoadDataEx (the JIT's error log in the message) + cuModuleGetFunction.
** The module lives until the state closes; the caller caches the function. */
CUfunction cudrv_load_ptx(lua_State *L, CudaState *S, const char *ptx, const char *kernel_name);

void cudrv_params_reset(CudaParams *P);
void cudrv_param(lua_State *L, CudaParams *P, const void *value, size_t size);  /* size <= 8 */
/* data, shape[ndim], strides[ndim]; raises for a freed device array or one
** of another context, naming argument argn */
void cudrv_pack_array(lua_State *L, CudaState *S, CudaParams *P, const DevArray *d, int argn);
/* Raises for a zero grid or block dimension or too many threads per block. */
void cudrv_check_launch(lua_State *L, CudaState *S, const unsigned grid[3], const unsigned block[3]);
/* cudrv_check_launch, then the launch; raises for a driver error. The
** launch itself is asynchronous. */
void cudrv_launch(lua_State *L, CudaState *S, CUfunction f, const unsigned grid[3],
                  const unsigned block[3], unsigned shared_bytes, CUstream stream, void **params);
/* The most blocks of block_threads threads (and shared_bytes of dynamic
** shared memory) of f resident at once on the current device: a
** cooperative launch's limit (f NULL in the simulator). */
int64_t cudrv_max_coresident(lua_State *L, CudaState *S, CUfunction f, int block_threads, unsigned shared_bytes);
/* A kernel that syncs its grid: raises, naming name and the limit, when the
** grid is larger than cudrv_max_coresident allows; then (f not NULL) the
** launch through cuLaunchCooperativeKernel. */
void cudrv_launch_cooperative(lua_State *L, CudaState *S, CUfunction f, const char *name, const unsigned grid[3],
                              const unsigned block[3], unsigned shared_bytes, CUstream stream, void **params);

#endif
