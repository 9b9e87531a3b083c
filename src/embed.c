/*
** embed.c — lumba.h: host buffers as arrays (lumba_pusharray) and arrays
** back to the host (lumba_toarray). A host buffer is owned by an NRT
** MemInfo made with nrt_wrap, so views and compiled code keep it alive
** exactly as they keep lumba's own buffers; its destructor calls the
** host's release.
*/
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "array.h"
#include "lumba.h"
#include "record.h"
#include "record_lua.h"

/* what the MemInfo's destructor needs to call the host back */
typedef struct HostBuf {
  lumba_Release release;
  void *ud;
} HostBuf;

static void host_release(void *data, void *ud) {
  HostBuf *h = ud;
  if (h->release) h->release(h->ud, data);
  free(h);
}

/* A C programmer's dtype names: C's own types as C reads them ("float" is
** C's float, float32, where Lua-side lumba.zeros(n, "float") follows NumPy
** and means float64), then the dtype names and NumPy's codes
** (docs/embedding.md lists every spelling). */
static const struct { const char *name; DType dt; } c_dtypes[] = {
  {"float", DT_FLOAT32}, {"double", DT_FLOAT64},
  {"int", DT_INT32}, {"unsigned", DT_UINT32}, {"unsigned int", DT_UINT32},
  {"short", DT_INT16}, {"unsigned short", DT_UINT16},
  {"long", DT_INT64}, {"unsigned long", DT_UINT64},
  {"long long", DT_INT64}, {"unsigned long long", DT_UINT64},
  {"signed char", DT_INT8}, {"unsigned char", DT_UINT8},
  {"int8_t", DT_INT8}, {"int16_t", DT_INT16}, {"int32_t", DT_INT32}, {"int64_t", DT_INT64},
  {"uint8_t", DT_UINT8}, {"uint16_t", DT_UINT16}, {"uint32_t", DT_UINT32}, {"uint64_t", DT_UINT64},
  {"_Bool", DT_BOOL}, {"float _Complex", DT_COMPLEX64}, {"double _Complex", DT_COMPLEX128},
  {"float complex", DT_COMPLEX64}, {"double complex", DT_COMPLEX128},
};

static int c_dtype_from_name(const char *name) {
  for (size_t i = 0; i < lm_countof(c_dtypes); i++)
    if (strcmp(name, c_dtypes[i].name) == 0) return (int)c_dtypes[i].dt;
  return dtype_from_name(name);
}

/* The userdata is made first: if Lua raises a memory error there, nothing
** of the host's is held yet. */
static int push_host(lua_State *L, void *ptr, int dt, int ndim, const int64_t *shape,
                     const int64_t *strides_bytes, lumba_Release release, void *ud) {
  if (ndim < 0 || ndim > LM_MAXDIM) return LUMBA_ENDIM;
  /* NumPy's rule (array_check_size): zeros aside, the product must fit */
  int64_t itemsize = dtype_sizes[dt], bytes = itemsize;
  bool empty = false;
  for (int k = 0; k < ndim; k++) {
    if (shape[k] < 0) return LUMBA_ESHAPE;
    if (shape[k] == 0) empty = true;
    else if (__builtin_mul_overflow(bytes, shape[k], &bytes)) return LUMBA_ESHAPE;
  }
  if (empty) bytes = 0;
  if (ptr == NULL && bytes > 0) return LUMBA_EARG;
  /* before require "lumba", the array's metatable does not exist yet:
  ** register it now (require reuses it), or the array would have no __gc
  ** (the buffer would never be released) and would not be an array to Lua */
  if (luaL_getmetatable(L, ARRAY_MT) == LUA_TNIL) {
    lua_newtable(L);
    array_open(L);
    record_open(L);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  NdArray *a = lua_newuserdatauv(L, sizeof(NdArray), 0);
  memset(a, 0, sizeof *a);
  a->tag = ARRAY_TAG;
  HostBuf *h = malloc(sizeof *h);
  MemInfo *mi = h ? nrt_wrap(ptr, (size_t)bytes, host_release, h) : NULL;
  if (mi == NULL) {
    free(h);
    lua_pop(L, 1);
    return LUMBA_EMEM;
  }
  h->release = release;
  h->ud = ud;
  a->dtype = (DType)dt;
  a->ndim = ndim;
  a->s.meminfo = mi;
  a->s.data = ptr;
  a->s.itemsize = itemsize;
  int64_t sd = itemsize;
  for (int k = ndim - 1; k >= 0; k--) {
    a->s.shape[k] = shape[k];
    a->s.strides[k] = strides_bytes ? strides_bytes[k] : sd;
    sd *= shape[k] ? shape[k] : 1;
  }
  array_update_flags(a);
  luaL_setmetatable(L, ARRAY_MT);
  return LUMBA_OK;
}

int lumba_pusharray(lua_State *L, void *ptr, const char *dtype, int ndim,
                    const int64_t *shape, const int64_t *strides_bytes,
                    lumba_Release release, void *ud) {
  int dt = dtype ? c_dtype_from_name(dtype) : -1;
  if (dt < 0) return LUMBA_EDTYPE;
  return push_host(L, ptr, dt, ndim, shape, strides_bytes, release, ud);
}

/* the C struct's layout is the aligned one when every field sits at a
** multiple of its alignment and the size is one of the largest (NumPy's
** align=True gives exactly this for the same fields) */
static bool c_aligned(const DType *types, const int64_t *offsets, int n, int64_t itemsize) {
  int64_t align = 1;
  for (int i = 0; i < n; i++) {
    int64_t fa = dtype_alignment(types[i]);
    if (offsets[i] % fa) return false;
    if (fa > align) align = fa;
  }
  return itemsize % align == 0;
}

int lumba_pushrecords(lua_State *L, void *ptr, const lumba_Field *fields, int nfields, int64_t itemsize, int ndim,
                      const int64_t *shape, const int64_t *strides_bytes, lumba_Release release, void *ud) {
  if (fields == NULL || nfields <= 0 || nfields > 1024 || itemsize <= 0) return LUMBA_EDTYPE;
  const char *names[1024];
  DType types[1024];
  int64_t offsets[1024];
  for (int i = 0; i < nfields; i++) {
    int dt = fields[i].dtype ? c_dtype_from_name(fields[i].dtype) : -1;
    if (dt < 0 || fields[i].name == NULL) return LUMBA_EDTYPE;
    names[i] = fields[i].name;
    types[i] = (DType)dt;
    offsets[i] = fields[i].offset;
    if (offsets[i] < 0 || offsets[i] + dtype_sizes[dt] > itemsize) return LUMBA_EDTYPE;
  }
  char err[160];
  int dt = record_intern(nfields, names, types, offsets, itemsize, c_aligned(types, offsets, nfields, itemsize), err,
                         sizeof err);
  if (dt < 0) return LUMBA_EDTYPE;
  return push_host(L, ptr, dt, ndim, shape, strides_bytes, release, ud);
}

void *lumba_toarray(lua_State *L, int idx, lumba_ArrayInfo *info) {
  NdArray *a = array_peek(L, idx);
  if (a && (a->flags & ARR_CLOSED)) a = NULL;
  if (info) {
    memset(info, 0, sizeof *info);
    if (a) {
      info->data = a->s.data;
      info->dtype = dtype_names[a->dtype];
      info->ndim = a->ndim;
      info->itemsize = a->s.itemsize;
      info->size = a->s.nitems;
      for (int k = 0; k < a->ndim; k++) {
        info->shape[k] = a->s.shape[k];
        info->strides[k] = a->s.strides[k];
      }
    }
  }
  return a ? a->s.data : NULL;
}
