/*
** devarray.h — lumba.devicearray: N-d arrays in GPU memory, their
** host<->device copies, and page-locked (pinned) host ndarrays.
*/
#ifndef devarray_h
#define devarray_h

#include "array.h"
#include "cudadrv.h"

/* One cuMemAlloc'd block, shared by an array and its views. The last
** release queues the block on the state's pending-free list. */
typedef struct DevBuf {
  int refct;         // arrays and views using it
  CUdeviceptr ptr;   // 0 for an empty array
  size_t size;       // bytes
  CUcontext ctx;     // the context it was allocated in
  int devno;         // that context's device
  CudaState *S;      // holds a reference
  bool external;     // someone else's memory (cuda.external_array): never freed here
} DevBuf;

/* userdata "lumba.devicearray": a C-order array or a view of any strides */
struct DevArray {
  CUdeviceptr data;            // first element
  DType dtype;
  int ndim;
  int64_t size;                // elements
  size_t nbytes;
  int64_t shape[LM_MAXDIM];
  int64_t strides[LM_MAXDIM];  // bytes
  DevBuf *buf;                 // NULL once freed
  uint32_t tag;                // DEVARRAY_TAG (udata.h)
};

#define DEVARRAY_MT "lumba.devicearray"
#define DEVARRAY_TAG UDATA_TAG('l', 'd', 'e', 'v')

DevArray *devarray_test(lua_State *L, int idx);  /* NULL if not a device array */
/* A live device array of S's current context; raises "attempt to use a
** freed device array" or "device array of another context". */
DevArray *devarray_check(lua_State *L, int idx, CudaState *S);
/* New uninitialised C-contiguous device array on the stack. */
DevArray *devarray_push_new(lua_State *L, CudaState *S, DType dt, int ndim, const int64_t *shape);

/* whether shape/strides are C-order (F-order when fortran) without gaps;
** axes of length 1 may have any stride, as NumPy's flags say */
static inline bool devarray_contiguous(int ndim, const int64_t *shape, const int64_t *strides, int64_t item,
                                       bool fortran) {
  int64_t expect = item;
  for (int j = 0; j < ndim; j++) {
    int i = fortran ? j : ndim - 1 - j;
    if (shape[i] == 0) return true;
    if (shape[i] != 1 && strides[i] != expect) return false;
    expect *= shape[i];
  }
  return true;
}

/* 'C', 'F' or 'A': the layout a kernel parameter of this array gets, as
** numba-cuda types a device array by its flags (item: the dtype's size) */
static inline char devarray_layout(int ndim, const int64_t *shape, const int64_t *strides, int64_t item) {
  if (devarray_contiguous(ndim, shape, strides, item, false)) return 'C';
  if (devarray_contiguous(ndim, shape, strides, item, true)) return 'F';
  return 'A';
}

/* registers the metatable and adds to_device, device_array, ... to the table on top */
void devarray_open(lua_State *L);

#endif
