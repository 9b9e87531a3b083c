/*
** devarray.c — lumba.devicearray: GPU memory as typed N-d arrays. Arrays
** and their views share a reference-counted DevBuf; the last release queues
** the block on the state's pending-free list (cudadrv.c), so __gc never
** calls cuMemFree while a kernel may still use the memory. Also pinned
** (page-locked) host ndarrays.
*/
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "devarray.h"

#define STREAM_MT "lumba.cudastream"

/* ---- buffers ---- */

enum { BUF_DEVICE, BUF_MANAGED, BUF_EXTERNAL };

/* kind BUF_EXTERNAL wraps ext, memory someone else owns */
static DevBuf *buf_make(lua_State *L, CudaState *S, size_t size, int kind, CUdeviceptr ext) {
  CUdeviceptr p = cudrv_alloc(L, S, kind == BUF_DEVICE ? size : 0);  /* raises before anything is owned */
  if (kind == BUF_EXTERNAL) p = ext;
  if (kind == BUF_MANAGED && size) {
    CUresult r = S->fn.cuMemAllocManaged(&p, size, 1 /* CU_MEM_ATTACH_GLOBAL */);
    if (r != 0) cudrv_error(L, S, r, "cuMemAllocManaged");
  }
  DevBuf *b = malloc(sizeof *b);
  if (b == NULL) {
    if (kind != BUF_EXTERNAL) cudrv_defer_free(S, S->cur->ctx, p, size);
    luaL_error(L, "not enough memory");
  }
  *b = (DevBuf){1, p, size, S->cur->ctx, S->devno, S, kind == BUF_EXTERNAL};
  cudrv_retain(S);
  S->nbufs++;
  return b;
}

static void buf_release(DevBuf *b) {
  if (--b->refct > 0) return;
  CudaState *S = b->S;
  if (!b->external) cudrv_defer_free(S, b->ctx, b->ptr, b->size);
  S->nbufs--;
  free(b);
  cudrv_release(S);
}

/* ---- shapes ---- */

/* shape at idx: a non-negative integer or a table of them; returns ndim */
static int check_shape(lua_State *L, int idx, int64_t shape[LM_MAXDIM]) {
  if (lua_isinteger(L, idx)) {
    shape[0] = lua_tointeger(L, idx);
    luaL_argcheck(L, shape[0] >= 0, idx, "negative dimension");
    return 1;
  }
  luaL_argexpected(L, lua_istable(L, idx), idx, "integer or table of integers");
  lua_Integer n = luaL_len(L, idx);
  luaL_argcheck(L, n <= LM_MAXDIM, idx, "too many dimensions");
  for (lua_Integer i = 1; i <= n; i++) {
    int isint;
    lua_geti(L, idx, i);
    shape[i - 1] = lua_tointegerx(L, -1, &isint);
    lua_pop(L, 1);
    luaL_argcheck(L, isint, idx, "shape must hold integers");
    luaL_argcheck(L, shape[i - 1] >= 0, idx, "negative dimension");
  }
  return (int)n;
}

/* C-order strides; returns the element count, or -1 when the byte size
** would not fit in an int64 */
static int64_t c_strides(int ndim, const int64_t *shape, int64_t item, int64_t *strides) {
  int64_t size = 1;
  for (int i = ndim - 1; i >= 0; i--) {
    strides[i] = size * item;
    if (shape[i] != 0 && size > INT64_MAX / item / shape[i]) return -1;
    size *= shape[i];
  }
  return size;
}

static bool host_contiguous(const NdArray *a) {
  int64_t expect = a->s.itemsize;
  for (int i = a->ndim - 1; i >= 0; i--) {
    if (a->s.shape[i] == 0) return true;
    if (a->s.shape[i] != 1 && a->s.strides[i] != expect) return false;
    expect *= a->s.shape[i];
  }
  return true;
}

/* copies every element between two strided layouts of the same shape */
static void strided_copy(char *dst, const int64_t *dst_st, const char *src, const int64_t *src_st,
                         const int64_t *shape, int ndim, size_t item) {
  if (ndim == 0) {
    memcpy(dst, src, item);
    return;
  }
  for (int64_t i = 0; i < shape[0]; i++)
    strided_copy(dst + i * dst_st[0], dst_st + 1, src + i * src_st[0], src_st + 1, shape + 1, ndim - 1, item);
}

static bool dev_contiguous(const DevArray *d) {
  return devarray_contiguous(d->ndim, d->shape, d->strides, dtype_sizes[d->dtype], false);
}

/* the bytes a view's elements touch, [*lo, *hi) relative to d->data (lo <
** 0 where a step is negative) */
static void dev_span(const DevArray *d, int64_t *lo, int64_t *hi) {
  *lo = 0;
  *hi = d->size ? dtype_sizes[d->dtype] : 0;
  for (int k = 0; d->size && k < d->ndim; k++) {
    int64_t ext = (d->shape[k] - 1) * d->strides[k];
    if (ext < 0) *lo += ext;
    else *hi += ext;
  }
}

/* "(3,)" / "(2, 3)" as NumPy prints shapes */
static const char *push_shape(lua_State *L, int ndim, const int64_t *shape) {
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  luaL_addchar(&b, '(');
  for (int i = 0; i < ndim; i++) {
    lua_pushfstring(L, i ? ", %I" : "%I", (lua_Integer)shape[i]);
    luaL_addvalue(&b);
  }
  if (ndim == 1) luaL_addchar(&b, ',');
  luaL_addchar(&b, ')');
  luaL_pushresult(&b);
  return lua_tostring(L, -1);
}

static void check_same(lua_State *L, const char *what, const DevArray *d, const char *other, DType dt,
                       int ndim, const int64_t *shape) {
  if (dt != d->dtype)
    luaL_error(L, "%s: dtype mismatch (device %s, %s %s)", what, dtype_names[d->dtype], other, dtype_names[dt]);
  bool same = ndim == d->ndim;
  for (int i = 0; same && i < ndim; i++) same = shape[i] == d->shape[i];
  if (!same) {
    const char *a = push_shape(L, d->ndim, d->shape), *b = push_shape(L, ndim, shape);
    luaL_error(L, "%s: shape mismatch (device %s, %s %s)", what, a, other, b);
  }
}

/* ---- device arrays ---- */

DevArray *devarray_test(lua_State *L, int idx) {
  return UDATA_TEST(L, idx, DevArray, DEVARRAY_MT, DEVARRAY_TAG);
}

DevArray *devarray_check(lua_State *L, int idx, CudaState *S) {
  DevArray *d = UDATA_CHECK(L, idx, DevArray, DEVARRAY_MT, DEVARRAY_TAG);
  if (d->buf == NULL) luaL_error(L, "attempt to use a freed device array");
  if (d->buf->ctx != S->cur->ctx)
    luaL_error(L, "device array of another context (device %d; current device %d)", d->buf->devno, S->devno);
  return d;
}

/* a userdata with no memory yet: __gc is safe if what follows raises */
static DevArray *push_empty(lua_State *L) {
  DevArray *d = lua_newuserdatauv(L, sizeof *d, 0);
  memset(d, 0, sizeof *d);
  d->tag = DEVARRAY_TAG;
  luaL_setmetatable(L, DEVARRAY_MT);
  return d;
}

static DevArray *push_kind(lua_State *L, CudaState *S, DType dt, int ndim, const int64_t *shape, int kind,
                           CUdeviceptr ext) {
  DevArray *d = push_empty(L);
  d->dtype = dt;
  d->ndim = ndim;
  memcpy(d->shape, shape, (size_t)ndim * sizeof *shape);
  d->size = c_strides(ndim, shape, dtype_sizes[dt], d->strides);
  if (d->size < 0) luaL_error(L, "device array too large");
  d->nbytes = (size_t)d->size * (size_t)dtype_sizes[dt];
  d->buf = buf_make(L, S, d->nbytes, kind, ext);
  d->data = d->buf->ptr;
  return d;
}

DevArray *devarray_push_new(lua_State *L, CudaState *S, DType dt, int ndim, const int64_t *shape) {
  return push_kind(L, S, dt, ndim, shape, BUF_DEVICE, 0);
}

/* the host side of a copy: an ndarray, or a table of numbers turned into
** a 1-D ndarray pushed on the stack (dtype dt, or inferred when dt < 0:
** int64 when every element is an integer, else float64, as NumPy does) */
static NdArray *host_arg(lua_State *L, int idx, int dt) {
  if (!lua_istable(L, idx)) {
    NdArray *a = array_test(L, idx);
    if (a == NULL) luaL_typeerror(L, idx, "lumba.ndarray or table");
    return a;
  }
  int64_t n = (int64_t)lua_rawlen(L, idx);
  if (dt < 0) {
    dt = DT_INT64;
    for (int64_t i = 1; i <= n && dt == DT_INT64; i++) {
      lua_rawgeti(L, idx, i);
      if (!lua_isinteger(L, -1)) dt = DT_FLOAT64;
      lua_pop(L, 1);
    }
  }
  NdArray *a = array_push_new(L, (DType)dt, 1, &n);
  for (int64_t i = 0; i < n; i++) {
    lua_rawgeti(L, idx, i + 1);
    array_store_elem(L, (DType)dt, (char *)a->s.data + i * a->s.strides[0], -1, idx);
    lua_pop(L, 1);
  }
  return a;
}

/* writes d's elements from host memory src laid out by src_st (src_contig:
** C-order). A non-contiguous d is read, patched and written back over
** the bytes it spans (synchronous), so the gaps keep their values. */
static void dev_write(lua_State *L, CudaState *S, const DevArray *d, const char *src, const int64_t *src_st,
                      bool src_contig, CUstream st) {
  if (d->size == 0) return;
  size_t item = (size_t)dtype_sizes[d->dtype];
  bool contig = dev_contiguous(d);
  if (contig && src_contig) {
    if (st) CU_CALL(L, S, cuMemcpyHtoDAsync, (d->data, src, d->nbytes, st));
    else CU_CALL(L, S, cuMemcpyHtoD, (d->data, src, d->nbytes));
    return;
  }
  int64_t lo = 0, hi = (int64_t)d->nbytes;
  int64_t cst[LM_MAXDIM];
  const int64_t *dst_st = d->strides;
  if (contig) c_strides(d->ndim, d->shape, (int64_t)item, cst), dst_st = cst;
  else dev_span(d, &lo, &hi);
  char *tmp = malloc((size_t)(hi - lo));
  if (tmp == NULL) luaL_error(L, "not enough memory");
  CUdeviceptr at = d->data + (CUdeviceptr)lo;
  CUresult r = contig ? 0 : S->fn.cuMemcpyDtoH(tmp, at, (size_t)(hi - lo));
  if (r == 0) {
    strided_copy(tmp - lo, dst_st, src, src_st, d->shape, d->ndim, item);
    r = S->fn.cuMemcpyHtoD(at, tmp, (size_t)(hi - lo));
  }
  free(tmp);
  if (r != 0) cudrv_error(L, S, r, "cuMemcpyHtoD");
}

/* reads d's elements into host memory dst laid out by dst_st */
static void dev_read(lua_State *L, CudaState *S, const DevArray *d, char *dst, const int64_t *dst_st,
                     bool dst_contig, CUstream st) {
  if (d->size == 0) return;
  size_t item = (size_t)dtype_sizes[d->dtype];
  bool contig = dev_contiguous(d);
  if (contig && dst_contig) {
    if (st) CU_CALL(L, S, cuMemcpyDtoHAsync, (dst, d->data, d->nbytes, st));
    else CU_CALL(L, S, cuMemcpyDtoH, (dst, d->data, d->nbytes));
    return;
  }
  int64_t lo = 0, hi = (int64_t)d->nbytes;
  int64_t cst[LM_MAXDIM];
  const int64_t *src_st = d->strides;
  if (contig) c_strides(d->ndim, d->shape, (int64_t)item, cst), src_st = cst;
  else dev_span(d, &lo, &hi);
  char *tmp = malloc((size_t)(hi - lo));
  if (tmp == NULL) luaL_error(L, "not enough memory");
  CUresult r = S->fn.cuMemcpyDtoH(tmp, d->data + (CUdeviceptr)lo, (size_t)(hi - lo));
  if (r == 0) strided_copy(dst, dst_st, tmp - lo, src_st, d->shape, d->ndim, item);
  free(tmp);
  if (r != 0) cudrv_error(L, S, r, "cuMemcpyDtoH");
}

static void copy_htod(lua_State *L, CudaState *S, const DevArray *d, const NdArray *h, CUstream st) {
  dev_write(L, S, d, h->s.data, h->s.strides, host_contiguous(h), st);
}

static void copy_dtoh(lua_State *L, CudaState *S, NdArray *h, const DevArray *d, CUstream st) {
  dev_read(L, S, d, h->s.data, h->s.strides, host_contiguous(h), st);
}

/* copies src into dst (same shape and dtype, one context): a device copy
** when both are contiguous, else staged through a C-order host buffer */
static void dev_copy(lua_State *L, CudaState *S, const DevArray *dst, const DevArray *src, CUstream st) {
  if (dst->size == 0) return;
  if (dev_contiguous(dst) && dev_contiguous(src)) {
    if (st) CU_CALL(L, S, cuMemcpyDtoDAsync, (dst->data, src->data, dst->nbytes, st));
    else CU_CALL(L, S, cuMemcpyDtoD, (dst->data, src->data, dst->nbytes));
    return;
  }
  int64_t cst[LM_MAXDIM];
  c_strides(dst->ndim, dst->shape, dtype_sizes[dst->dtype], cst);
  NdArray *tmp = array_push_new(L, dst->dtype, dst->ndim, dst->shape);  /* collected if a copy raises */
  dev_read(L, S, src, tmp->s.data, cst, true, NULL);
  dev_write(L, S, dst, tmp->s.data, cst, true, NULL);
  lua_pop(L, 1);
}

static void host_free(void *data, void *ud) {
  (void)ud;
  free(data);
}

/* a new host ndarray shaped like d, its buffer left uninitialised (the
** copy fills it; nrt_alloc would zero it first) */
static NdArray *push_host_like(lua_State *L, const DevArray *d) {
  void *data = NULL;
  if (d->nbytes && (data = aligned_alloc(NRT_ALIGN, (d->nbytes + NRT_ALIGN - 1) / NRT_ALIGN * NRT_ALIGN)) == NULL)
    luaL_error(L, "not enough memory");
  MemInfo *mi = nrt_wrap(data, d->nbytes, host_free, NULL);
  if (mi == NULL) {
    free(data);
    luaL_error(L, "not enough memory");
  }
  ArrayStruct s = {.meminfo = mi, .nitems = d->size, .itemsize = dtype_sizes[d->dtype], .data = data};
  memcpy(s.shape, d->shape, sizeof s.shape);
  c_strides(d->ndim, d->shape, s.itemsize, s.strides);  /* C order, also for a strided view */
  return array_push_struct(L, &s, d->dtype, d->ndim);
}

/* cuda.to_device(ary[, stream]): ary is an ndarray or a table of numbers */
static int devarray_lua_to_device(lua_State *L) {
  CudaState *S = cudrv_get(L);
  CUstream st = cudrv_opt_stream(L, 2, S);
  NdArray *h = host_arg(L, 1, -1);
  DevArray *d = devarray_push_new(L, S, h->dtype, h->ndim, h->s.shape);
  copy_htod(L, S, d, h, st);
  return 1;
}

/* cuda.device_array(shape[, dtype]) or device_array(shape, {dtype = ...}):
** uninitialised, as Numba's */
static int devarray_lua_device_array(lua_State *L) {
  int64_t shape[LM_MAXDIM];
  int ndim = check_shape(L, 1, shape);
  if (lua_istable(L, 2)) {
    lua_getfield(L, 2, "dtype");
    lua_replace(L, 2);
  }
  DType dt = dtype_check(L, 2, DT_FLOAT64);
  CudaState *S = cudrv_get(L);
  devarray_push_new(L, S, dt, ndim, shape);
  return 1;
}

/* cuda.device_array_like(ary): same shape and dtype as a device array or ndarray */
static int devarray_lua_device_array_like(lua_State *L) {
  CudaState *S = cudrv_get(L);
  DevArray *d = devarray_test(L, 1);
  if (d) {
    if (d->buf == NULL) luaL_error(L, "attempt to use a freed device array");
    devarray_push_new(L, S, d->dtype, d->ndim, d->shape);
    return 1;
  }
  NdArray *a = array_test(L, 1);
  if (a == NULL) luaL_typeerror(L, 1, "lumba.devicearray or lumba.ndarray");
  devarray_push_new(L, S, a->dtype, a->ndim, a->s.shape);
  return 1;
}

/* d:copy_to_host([ary][, stream]): into ary (same shape and dtype) or a new ndarray */
static int devarray_lua_copy_to_host(lua_State *L) {
  CudaState *S = cudrv_get(L);
  DevArray *d = devarray_check(L, 1, S);
  bool stream_second = luaL_testudata(L, 2, STREAM_MT) != NULL;
  CUstream st = cudrv_opt_stream(L, stream_second ? 2 : 3, S);
  NdArray *h;
  if (!stream_second && !lua_isnoneornil(L, 2)) {
    h = array_test(L, 2);
    if (h == NULL) luaL_typeerror(L, 2, "lumba.ndarray");
    check_same(L, "copy_to_host", d, "host", h->dtype, h->ndim, h->s.shape);
    lua_pushvalue(L, 2);
  } else {
    h = push_host_like(L, d);
  }
  copy_dtoh(L, S, h, d, st);
  return 1;
}

/* d:copy_to_device(ary[, stream]): ary is a device array, an ndarray (same
** shape and dtype) or a table with d.size numbers (converted to d's dtype) */
static int devarray_lua_copy_to_device(lua_State *L) {
  CudaState *S = cudrv_get(L);
  DevArray *d = devarray_check(L, 1, S);
  CUstream st = cudrv_opt_stream(L, 3, S);
  if (devarray_test(L, 2)) {
    DevArray *src = devarray_check(L, 2, S);
    check_same(L, "copy_to_device", d, "source", src->dtype, src->ndim, src->shape);
    dev_copy(L, S, d, src, st);
    return 0;
  }
  bool table = lua_istable(L, 2);
  NdArray *h = host_arg(L, 2, table ? (int)d->dtype : -1);
  if (table && h->s.shape[0] != d->size)
    luaL_error(L, "copy_to_device: size mismatch (device %I elements, table %I)", (lua_Integer)d->size,
               (lua_Integer)h->s.shape[0]);
  if (!table) check_same(L, "copy_to_device", d, "host", h->dtype, h->ndim, h->s.shape);
  copy_htod(L, S, d, h, table ? NULL : st);
  return 0;
}

/* d:copy_to(other): copies d into a device array of the same shape and
** dtype on any device: within a device as a device copy, between devices
** peer-to-peer (cuMemcpyPeer; the driver stages through the host where the
** GPUs cannot reach each other). Synchronous. */
static int devarray_lua_copy_to(lua_State *L) {
  CudaState *S = cudrv_get(L);
  DevArray *src = devarray_test(L, 1), *dst = devarray_test(L, 2);
  luaL_argcheck(L, src != NULL, 1, "lumba.devicearray expected");
  luaL_argcheck(L, dst != NULL, 2, "lumba.devicearray expected");
  if (src->buf == NULL || dst->buf == NULL) luaL_error(L, "attempt to use a freed device array");
  check_same(L, "copy_to", dst, "source", src->dtype, src->ndim, src->shape);
  if (src->nbytes == 0) return 0;
  cudrv_maybe_flush(S);
  if (!dev_contiguous(src) || !dev_contiguous(dst)) {  /* staged through the host, on the current device */
    if (src->buf->ctx != S->cur->ctx || dst->buf->ctx != S->cur->ctx)
      luaL_error(L, "copy_to: a non-contiguous device array copies only within the current device");
    dev_copy(L, S, dst, src, NULL);
    return 0;
  }
  if (src->buf->ctx == dst->buf->ctx) {
    cudrv_make_current(S, src->buf->ctx);
    CUresult r = S->fn.cuMemcpyDtoD(dst->data, src->data, src->nbytes);
    cudrv_make_current(S, S->cur->ctx);
    if (r != 0) cudrv_error(L, S, r, "cuMemcpyDtoD");
  } else {
    CU_CALL(L, S, cuMemcpyPeer, (dst->data, dst->buf->ctx, src->data, src->buf->ctx, src->nbytes));
  }
  return 0;
}

/* a view of d with ndim axes of shape sh and byte strides st, its first
** element off bytes from d's, sharing d's memory; pushed */
static DevArray *push_view(lua_State *L, const DevArray *d, int ndim, const int64_t *sh, const int64_t *st,
                           int64_t off) {
  DevArray *v = push_empty(L);
  *v = *d;
  v->buf = NULL;
  v->ndim = ndim;
  v->size = 1;
  for (int k = 0; k < ndim; k++) {
    v->shape[k] = sh[k];
    v->strides[k] = st[k];
    v->size *= sh[k];
  }
  v->data = d->data + (CUdeviceptr)(v->size ? off : 0);
  v->nbytes = (size_t)v->size * (size_t)dtype_sizes[d->dtype];
  v->buf = d->buf;
  d->buf->refct++;
  return v;
}

/* d:slice(first[, last]) with integers: rows first..last along the first
** axis, 1-based and inclusive, negative counting from the end (string.sub's
** rules). Any other selectors follow a:slice's rules (array_parse_slice):
** d:slice({1, nil, 2}, 3) is numba-cuda's d[::2, 2]. A view sharing d's
** memory, of any strides. */
static int devarray_lua_slice(lua_State *L) {
  DevArray *d = UDATA_CHECK(L, 1, DevArray, DEVARRAY_MT, DEVARRAY_TAG);
  if (d->buf == NULL) luaL_error(L, "attempt to use a freed device array");
  int nsel = lua_gettop(L) - 1;
  bool rows = nsel >= 1 && nsel <= 2 && lua_isinteger(L, 2) && (nsel == 1 || lua_isinteger(L, 3));
  int64_t sh[LM_MAXDIM], st[LM_MAXDIM], off = 0;
  if (!rows) {
    int nd = array_parse_slice(L, d->ndim, d->shape, d->strides, &off, sh, st);
    push_view(L, d, nd, sh, st, off);
    return 1;
  }
  if (d->ndim == 0) luaL_error(L, "slice of a 0-d device array");
  int64_t n = d->shape[0];
  lua_Integer first = luaL_checkinteger(L, 2), last = luaL_optinteger(L, 3, -1);
  if (first < 0) first = n + first + 1;
  if (last < 0) last = n + last + 1;
  if (first < 1) first = 1;
  if (last > n) last = n;
  memcpy(sh, d->shape, sizeof sh);
  sh[0] = last >= first ? last - first + 1 : 0;
  push_view(L, d, d->ndim, sh, d->strides, (int64_t)(first - 1) * d->strides[0]);
  return 1;
}

/* d:transpose([perm]) or d.T: a view with the axes reversed or permuted
** (1-based, as a:transpose) */
static int devarray_lua_transpose(lua_State *L) {
  DevArray *d = UDATA_CHECK(L, 1, DevArray, DEVARRAY_MT, DEVARRAY_TAG);
  if (d->buf == NULL) luaL_error(L, "attempt to use a freed device array");
  int perm[LM_MAXDIM];
  array_parse_perm(L, d->ndim, perm);
  int64_t sh[LM_MAXDIM], st[LM_MAXDIM];
  for (int k = 0; k < d->ndim; k++) sh[k] = d->shape[perm[k]], st[k] = d->strides[perm[k]];
  push_view(L, d, d->ndim, sh, st, 0);
  return 1;
}

/* d:is_c_contiguous(), d:is_f_contiguous(): numba-cuda's methods */
static int devarray_lua_is_c_contiguous(lua_State *L) {
  DevArray *d = UDATA_CHECK(L, 1, DevArray, DEVARRAY_MT, DEVARRAY_TAG);
  lua_pushboolean(L, devarray_layout(d->ndim, d->shape, d->strides, dtype_sizes[d->dtype]) == 'C');
  return 1;
}

static int devarray_lua_is_f_contiguous(lua_State *L) {
  DevArray *d = UDATA_CHECK(L, 1, DevArray, DEVARRAY_MT, DEVARRAY_TAG);
  lua_pushboolean(L, devarray_contiguous(d->ndim, d->shape, d->strides, dtype_sizes[d->dtype], true));
  return 1;
}

/* ---- element access from the host: d[i], d:get(i, j, ...), d[i] = v, d:set(i, j, ..., v) ---- */

/* a 1-based index of axis (0-based) of d, negative from the end (host arrays' rules) */
static int64_t elem_index(lua_State *L, const DevArray *d, int axis, int idx) {
  int isint;
  lua_Integer i = lua_tointegerx(L, idx, &isint);
  if (!isint) luaL_error(L, "device array index must be an integer, got %s", luaL_typename(L, idx));
  int64_t n = d->shape[axis];
  int64_t j = i < 0 ? n + i : i - 1;
  if (j < 0 || j >= n)
    luaL_error(L, "index %I out of bounds for axis %d with size %I", i, axis + 1, (lua_Integer)n);
  return j;
}

/* row j of d (ndim >= 1) as a view, pushed */
static DevArray *push_row(lua_State *L, const DevArray *d, int64_t j) {
  return push_view(L, d, d->ndim - 1, d->shape + 1, d->strides + 1, j * d->strides[0]);
}

static void read_elem(lua_State *L, CudaState *S, const DevArray *d, CUdeviceptr at) {
  char tmp[16];
  CU_CALL(L, S, cuMemcpyDtoH, (tmp, at, (size_t)dtype_sizes[d->dtype]));
  array_push_elem(L, d->dtype, tmp);
}

static void write_elem(lua_State *L, CudaState *S, const DevArray *d, CUdeviceptr at, int vidx) {
  char tmp[16];
  array_store_elem(L, d->dtype, tmp, vidx, vidx);
  CU_CALL(L, S, cuMemcpyHtoD, (at, tmp, (size_t)dtype_sizes[d->dtype]));
}

/* d:get(i, j, ...): one index per dimension, the element */
static int devarray_lua_get(lua_State *L) {
  CudaState *S = cudrv_get(L);
  DevArray *d = devarray_check(L, 1, S);
  int n = lua_gettop(L) - 1;
  if (n != d->ndim) luaL_error(L, "get: %d indices for a %d-d device array", n, d->ndim);
  CUdeviceptr at = d->data;
  for (int k = 0; k < n; k++) at += (CUdeviceptr)(elem_index(L, d, k, k + 2) * d->strides[k]);
  read_elem(L, S, d, at);
  return 1;
}

/* d:set(i, j, ..., v) */
static int devarray_lua_set(lua_State *L) {
  CudaState *S = cudrv_get(L);
  DevArray *d = devarray_check(L, 1, S);
  int n = lua_gettop(L) - 2;
  if (n != d->ndim) luaL_error(L, "set: %d indices for a %d-d device array", n, d->ndim);
  CUdeviceptr at = d->data;
  for (int k = 0; k < n; k++) at += (CUdeviceptr)(elem_index(L, d, k, k + 2) * d->strides[k]);
  write_elem(L, S, d, at, n + 2);
  return 0;
}

/* d[i] = v: element i of a 1-D array; on an N-d array row i filled with a
** scalar, or copied from an ndarray / device array of the row's shape */
static int devarray_lua_newindex(lua_State *L) {
  CudaState *S = cudrv_get(L);
  DevArray *d = devarray_check(L, 1, S);
  if (!lua_isinteger(L, 2)) luaL_error(L, "device arrays take integer indices (got %s)", luaL_typename(L, 2));
  if (d->ndim == 0) luaL_error(L, "index of a 0-d device array");
  int64_t j = elem_index(L, d, 0, 2);
  if (d->ndim == 1) {
    write_elem(L, S, d, d->data + (CUdeviceptr)(j * d->strides[0]), 3);
    return 0;
  }
  DevArray *row = push_row(L, d, j);
  int ridx = lua_gettop(L);
  if (lua_type(L, 3) == LUA_TNUMBER || lua_isboolean(L, 3)) {
    size_t item = (size_t)dtype_sizes[d->dtype];
    char one[16];
    array_store_elem(L, d->dtype, one, 3, 3);
    NdArray *tmp = array_push_new(L, d->dtype, row->ndim, row->shape);
    for (size_t k = 0; k < row->nbytes; k += item) memcpy((char *)tmp->s.data + k, one, item);
    dev_write(L, S, row, tmp->s.data, tmp->s.strides, true, NULL);
    return 0;
  }
  lua_getfield(L, ridx, "copy_to_device");
  lua_pushvalue(L, ridx);
  lua_pushvalue(L, 3);
  lua_call(L, 2, 0);
  return 0;
}

/* d:data_ptr(): the device address of the first element, an integer (for
** cuda.external_array and other CUDA libraries) */
static int devarray_lua_data_ptr(lua_State *L) {
  DevArray *d = UDATA_CHECK(L, 1, DevArray, DEVARRAY_MT, DEVARRAY_TAG);
  if (d->buf == NULL) luaL_error(L, "attempt to use a freed device array");
  lua_pushinteger(L, (lua_Integer)d->data);
  return 1;
}

/* cuda.managed_array(shape[, dtype]): unified memory (cuMemAllocManaged),
** a device array that host code indexes and kernels take without a copy */
static int devarray_lua_managed_array(lua_State *L) {
  int64_t shape[LM_MAXDIM];
  int ndim = check_shape(L, 1, shape);
  DType dt = dtype_check(L, 2, DT_FLOAT64);
  CudaState *S = cudrv_get(L);
  push_kind(L, S, dt, ndim, shape, BUF_MANAGED, 0);  /* uninitialised, as Numba's */
  return 1;
}

/* cuda.external_array(ptr, shape[, dtype]): a C-order device array over
** device memory someone else owns (a renderer, another CUDA library):
** never freed by lumba, valid as long as its owner keeps it */
static int devarray_lua_external_array(lua_State *L) {
  int isint;
  lua_Integer ptr = lua_tointegerx(L, 1, &isint);
  luaL_argexpected(L, isint, 1, "device pointer (integer)");
  luaL_argcheck(L, ptr != 0, 1, "null device pointer");
  int64_t shape[LM_MAXDIM];
  int ndim = check_shape(L, 2, shape);
  DType dt = dtype_check(L, 3, DT_FLOAT64);
  CudaState *S = cudrv_get(L);
  push_kind(L, S, dt, ndim, shape, BUF_EXTERNAL, (CUdeviceptr)ptr);
  return 1;
}

/* d:free() / __close / __gc: hands the memory to the deferred-free list
** (__gc leaves an impostor alone, udata.h) */
static int devarray_lua_gc(lua_State *L) {
  DevArray *d = UDATA_GC_TEST(L, 1, DevArray, DEVARRAY_MT, DEVARRAY_TAG);
  if (d && d->buf) {
    buf_release(d->buf);
    d->buf = NULL;
  }
  return 0;
}

static int devarray_lua_free(lua_State *L) {
  DevArray *d = UDATA_CHECK(L, 1, DevArray, DEVARRAY_MT, DEVARRAY_TAG);
  if (d->buf) {
    buf_release(d->buf);
    d->buf = NULL;
  }
  return 0;
}

static void push_ints(lua_State *L, int n, const int64_t *v) {
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    lua_pushinteger(L, v[i]);
    lua_rawseti(L, -2, i + 1);
  }
}

/* methods first, then the fields shape, strides, dtype, size, ndim, nbytes */
static int devarray_lua_index(lua_State *L) {
  DevArray *d = UDATA_CHECK(L, 1, DevArray, DEVARRAY_MT, DEVARRAY_TAG);
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
  if (lua_isinteger(L, 2)) {  /* d[i]: element i of a 1-D array, row view i of an N-d one */
    CudaState *S = cudrv_get(L);
    devarray_check(L, 1, S);
    if (d->ndim == 0) luaL_error(L, "index of a 0-d device array");
    int64_t j = elem_index(L, d, 0, 2);
    if (d->ndim == 1) read_elem(L, S, d, d->data + (CUdeviceptr)(j * d->strides[0]));
    else push_row(L, d, j);
    return 1;
  }
  if (lua_type(L, 2) != LUA_TSTRING) return 1;
  const char *k = lua_tostring(L, 2);
  if (k == NULL) return 1;
  if (d->buf == NULL) luaL_error(L, "attempt to use a freed device array");
  if (strcmp(k, "shape") == 0) push_ints(L, d->ndim, d->shape);
  else if (strcmp(k, "strides") == 0) push_ints(L, d->ndim, d->strides);
  else if (strcmp(k, "dtype") == 0) lua_pushstring(L, dtype_names[d->dtype]);
  else if (strcmp(k, "size") == 0) lua_pushinteger(L, d->size);
  else if (strcmp(k, "ndim") == 0) lua_pushinteger(L, d->ndim);
  else if (strcmp(k, "nbytes") == 0) lua_pushinteger(L, (lua_Integer)d->nbytes);
  else if (strcmp(k, "T") == 0) {
    lua_settop(L, 1);
    return devarray_lua_transpose(L);
  }
  else if (strcmp(k, "device") == 0) {
    if (d->buf) lua_pushinteger(L, d->buf->devno);
    else lua_pushnil(L);
  }
  else lua_pushnil(L);
  return 1;
}

static int devarray_lua_len(lua_State *L) {
  DevArray *d = UDATA_CHECK(L, 1, DevArray, DEVARRAY_MT, DEVARRAY_TAG);
  if (d->buf == NULL) luaL_error(L, "attempt to use a freed device array");
  if (d->ndim == 0) luaL_error(L, "len() of a 0-d device array");
  lua_pushinteger(L, d->shape[0]);
  return 1;
}

static int devarray_lua_tostring(lua_State *L) {
  DevArray *d = UDATA_CHECK(L, 1, DevArray, DEVARRAY_MT, DEVARRAY_TAG);
  if (d->buf == NULL) {
    lua_pushliteral(L, "lumba.devicearray (freed)");
    return 1;
  }
  const char *shape = push_shape(L, d->ndim, d->shape);
  lua_pushfstring(L, "lumba.devicearray(%s, %s)", dtype_names[d->dtype], shape);
  return 1;
}

/* ---- pinned host arrays ---- */

static void pinned_free(void *data, void *ud) {
  CudaState *S = ud;
  if (S->alive) {  /* after lua_close released the context the memory went with it */
    cudrv_make_current(S, S->cur->ctx);
    S->fn.cuMemFreeHost(data);
  }
  cudrv_release(S);
}

/* cuda.pinned_array(shape[, dtype]): a zeroed lumba.ndarray in page-locked
** memory, which the DMA engines read without a staging copy */
static int devarray_lua_pinned_array(lua_State *L) {
  int64_t shape[LM_MAXDIM];
  int ndim = check_shape(L, 1, shape);
  DType dt = dtype_check(L, 2, DT_FLOAT64);
  CudaState *S = cudrv_get(L);
  ArrayStruct s = {.itemsize = dtype_sizes[dt]};
  memcpy(s.shape, shape, (size_t)ndim * sizeof *shape);
  s.nitems = c_strides(ndim, shape, s.itemsize, s.strides);
  if (s.nitems < 0) luaL_error(L, "pinned array too large");
  size_t nbytes = (size_t)(s.nitems * s.itemsize);
  if (nbytes == 0) {
    array_push_new(L, dt, ndim, shape);
    return 1;
  }
  void *p = NULL;
  CU_CALL(L, S, cuMemHostAlloc, (&p, nbytes, 1 /* CU_MEMHOSTALLOC_PORTABLE */));
  memset(p, 0, nbytes);
  s.data = p;
  s.meminfo = nrt_wrap(p, nbytes, pinned_free, S);
  if (s.meminfo == NULL) {
    S->fn.cuMemFreeHost(p);
    luaL_error(L, "not enough memory");
  }
  cudrv_retain(S);
  array_push_struct(L, &s, dt, ndim);
  return 1;
}

static const luaL_Reg devarray_methods[] = {
  {"copy_to_host", devarray_lua_copy_to_host},
  {"copy_to_device", devarray_lua_copy_to_device},
  {"copy_to", devarray_lua_copy_to},
  {"slice", devarray_lua_slice},
  {"transpose", devarray_lua_transpose},
  {"is_c_contiguous", devarray_lua_is_c_contiguous},
  {"is_f_contiguous", devarray_lua_is_f_contiguous},
  {"get", devarray_lua_get},
  {"set", devarray_lua_set},
  {"data_ptr", devarray_lua_data_ptr},
  {"free", devarray_lua_free},
  {NULL, NULL}
};

static const luaL_Reg devarray_funcs[] = {
  {"to_device", devarray_lua_to_device},
  {"device_array", devarray_lua_device_array},
  {"device_array_like", devarray_lua_device_array_like},
  {"pinned_array", devarray_lua_pinned_array},
  {"managed_array", devarray_lua_managed_array},
  {"external_array", devarray_lua_external_array},
  {NULL, NULL}
};

void devarray_open(lua_State *L) {
  luaL_newmetatable(L, DEVARRAY_MT);
  luaL_newlib(L, devarray_methods);
  lua_pushcclosure(L, devarray_lua_index, 1);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, devarray_lua_newindex);
  lua_setfield(L, -2, "__newindex");
  lua_pushcfunction(L, devarray_lua_gc);
  lua_setfield(L, -2, "__gc");
  udata_protect(L, -1, DEVARRAY_MT);
  lua_pushcfunction(L, devarray_lua_free);
  lua_setfield(L, -2, "__close");
  lua_pushcfunction(L, devarray_lua_len);
  lua_setfield(L, -2, "__len");
  lua_pushcfunction(L, devarray_lua_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
  luaL_setfuncs(L, devarray_funcs, 0);
}
