/*
** kernel.c — launching cuda.jit kernels: k[{grid, block[, stream[, shared]]}]
** makes a launch object; calling it types the arguments, compiles the
** kernel for that signature (NVVM IR → PTX → CUfunction, cached per
** specialization and device), packs the parameters and launches
** asynchronously. Host ndarrays are copied in and back, as Numba does.
*/
#include <string.h>

#include <lauxlib.h>

#include "half_rt.h"
#include "backend.h"
#include "complex_lua.h"
#include "devarray.h"
#include "dispatch.h"
#include "kernel.h"
#include "kernel_cache.h"
#include "simrun.h"

#define LAUNCH_MT "lumba.kernel_launch"

typedef struct Launch {
  unsigned grid[3], block[3];
  unsigned shared;
  CUstream stream;
  bool is_forall;  // k:forall(n): n threads, in blocks of the size the occupancy calculator picks
  int64_t forall;
  CUfunction occ_fn;  // the function the forall block size was computed for
  /* the previous call: its argument types, specialization and function, reused
  ** while the arguments keep those types (launching in a loop skips typing
  ** and the specialization search) */
  Type *at[LM_MAXARGS];
  int nat;
  DispSpec *spec;
  CUfunction fn;
  CudaState *S;
  int devno;
  const void *devarray_mt;
  uint32_t tag;  // LAUNCH_TAG (udata.h)
} Launch;

#define LAUNCH_TAG UDATA_TAG('l', 'l', 'c', 'h')

/* per specialization: the PTX and the loaded function of each device */
typedef struct KernelGpu {
  char *ptx;
  CUfunction fn[CUDRV_MAXDEV];
} KernelGpu;

static void kernelgpu_free(void *p) {
  KernelGpu *k = p;
  free(k->ptx);
  free(k);
}

/* d[{grid, block, stream, shared}] */
int kernel_push_launch(lua_State *L, int disp_idx, int cfg_idx) {
  Launch *ln = lua_newuserdatauv(L, sizeof(Launch), 1);
  memset(ln, 0, sizeof *ln);
  ln->tag = LAUNCH_TAG;
  luaL_setmetatable(L, LAUNCH_MT);
  lua_geti(L, cfg_idx, 1);
  lua_geti(L, cfg_idx, 2);
  if (lua_isnil(L, -2) || lua_isnil(L, -1))
    luaL_error(L, "a kernel launch needs {blocks, threads_per_block}");
  cudrv_dims(L, lua_absindex(L, -2), "grid", ln->grid);
  cudrv_dims(L, lua_absindex(L, -1), "block", ln->block);
  lua_pop(L, 2);
  lua_geti(L, cfg_idx, 4);
  if (!lua_isnil(L, -1)) {
    lua_Integer sh = luaL_checkinteger(L, -1);
    if (sh < 0 || sh > (1 << 30)) luaL_error(L, "bad dynamic shared memory size %I", sh);
    ln->shared = (unsigned)sh;
  }
  lua_pop(L, 1);
  lua_geti(L, cfg_idx, 3);
  if (!lua_isnil(L, -1)) {
    CudaState *S = cudrv_get(L);
    ln->stream = cudrv_opt_stream(L, lua_absindex(L, -1), S);
  }
  lua_pop(L, 1);
  lua_pushvalue(L, disp_idx);
  lua_setiuservalue(L, -2, 1);
  return 1;
}

/* k:forall(n [, stream]): a launch of n threads in blocks of the size the
** driver's occupancy calculator picks for the compiled kernel (numba-cuda's
** ForAll) */
static int kernel_lua_forall(lua_State *L) {
  Dispatcher *d = UDATA_CHECK(L, 1, Dispatcher, DISPATCHER_MT, DISPATCHER_TAG);
  if (!d->opt.gpu) return luaL_error(L, "%s is not a CUDA kernel: call it directly", d->name);
  lua_Integer n = luaL_checkinteger(L, 2);
  luaL_argcheck(L, n >= 0 && n <= (lua_Integer)UINT32_MAX * 1024, 2, "thread count out of range");
  lua_settop(L, 3);
  Launch *ln = lua_newuserdatauv(L, sizeof(Launch), 1);
  memset(ln, 0, sizeof *ln);
  ln->tag = LAUNCH_TAG;
  luaL_setmetatable(L, LAUNCH_MT);
  ln->forall = n;
  ln->is_forall = true;
  ln->grid[0] = ln->grid[1] = ln->grid[2] = ln->block[0] = ln->block[1] = ln->block[2] = 1;
  if (!lua_isnoneornil(L, 3)) ln->stream = cudrv_opt_stream(L, 3, cudrv_get(L));
  lua_pushvalue(L, 1);
  lua_setiuservalue(L, -2, 1);
  return 1;
}

/* the forall launch's block and grid for function f (NULL in the simulator) */
static void forall_dims(lua_State *L, CudaState *S, Launch *ln, CUfunction f) {
  if (f != NULL && f == ln->occ_fn) return;  /* the same function: the same block size */
  int min_grid = 0, block = 0;
  CU_CALL(L, S, cuOccupancyMaxPotentialBlockSize, (&min_grid, &block, f, NULL, ln->shared, 0));
  if (block <= 0) block = 128;
  ln->block[0] = (unsigned)block;
  ln->grid[0] = (unsigned)((ln->forall + block - 1) / block);
  ln->occ_fn = f;
}

/* the type of a kernel argument */
static Type *kernel_arg_type(lua_State *L, LmState *LS, int idx, int argn) {
  switch (lua_type(L, idx)) {
    case LUA_TNUMBER: return lua_isinteger(L, idx) ? ty_int64 : ty_float64;
    case LUA_TBOOLEAN: return ty_bool;
    case LUA_TUSERDATA: {
      DevArray *d = devarray_test(L, idx);
      /* a 0-d view of a record array's element (a[i], d[i]): a Record, as numba-cuda types a record scalar */
      if (d && d->ndim == 0 && dtype_is_record(d->dtype)) return ty_scalar(d->dtype);
      if (d) return ty_array(&LS->types, d->dtype, d->ndim, devarray_layout(d->ndim, d->shape, d->strides, dtype_sizes[d->dtype]));
      NdArray *a = array_test(L, idx);
      if (a && a->ndim == 0 && dtype_is_record(a->dtype)) return ty_scalar(a->dtype);
      if (a) return ty_array(&LS->types, a->dtype, a->ndim, 'C');
      Cplx c;
      if (complex_test(L, idx, &c)) return ty_scalar(DT_COMPLEX128);  /* lumba.complex, as Python's complex */
      break;
    }
    default: break;
  }
  luaL_error(L, "bad argument #%d to kernel (device array, ndarray, number, complex or boolean expected, got %s)", argn,
             luaL_typename(L, idx));
  return NULL;
}

static KernelGpu *gpu_of(DispSpec *s) {
  if (s->gpu == NULL) {
    KernelGpu *k = calloc(1, sizeof(KernelGpu));
    s->gpu = k;
    s->gpu_free = kernelgpu_free;
  }
  return s->gpu;
}

static CUfunction kernel_function(lua_State *L, CudaState *S, Dispatcher *d, DispSpec *s) {
  KernelGpu *k = gpu_of(s);
  if (k == NULL) luaL_error(L, "not enough memory");
  int dev = S->devno;
  if (k->fn[dev]) return k->fn[dev];
  if (k->ptx == NULL) {
    /* cache=true: the PTX from an earlier process, else compiled and kept */
    char key[65] = "";
    bool fm = d->opt.fastmath != 0;
    if (!(d->opt.cache && kcache_get(L, d->name, s->kernel_ir, S->cur->cc_major, S->cur->cc_minor, fm, key))) {
      cudrv_push_ptx(L, S, s->kernel_ir, strlen(s->kernel_ir), S->cur->cc_major, S->cur->cc_minor, fm, NULL);
      if (d->opt.cache) kcache_put(L, d->name, key, lua_tostring(L, -1), lua_rawlen(L, -1));
    }
    size_t n;
    const char *ptx = lua_tolstring(L, -1, &n);
    k->ptx = malloc(n + 1);
    if (k->ptx == NULL) luaL_error(L, "not enough memory");
    memcpy(k->ptx, ptx, n + 1);
    lua_pop(L, 1);
  }
  k->fn[dev] = cudrv_load_ptx(L, S, k->ptx, s->kernel_name);
  return k->fn[dev];
}

static DispSpec *spec_for_types(lua_State *L, int disp_idx, Type **at, int nargs);

/* the types of the nargs launch arguments from stack index first, in at */
static void arg_types(lua_State *L, Dispatcher *d, int first, int nargs, Type **at) {
  LmState *LS = lmstate_get(L);
  if (nargs != d->nparams)
    luaL_error(L, "%s() takes %d argument%s but %d were given", d->name, d->nparams, d->nparams == 1 ? "" : "s", nargs);
  for (int i = 0; i < nargs; i++) at[i] = kernel_arg_type(L, LS, first + i, i + 1);
}

DispSpec *kernel_spec(lua_State *L, int disp_idx, int first, int nargs) {
  Type *at[LM_MAXARGS];
  arg_types(L, lua_touserdata(L, disp_idx), first, nargs, at);
  return spec_for_types(L, disp_idx, at, nargs);
}

/* the specialization for argument types at (compiled now if there is none) */
static DispSpec *spec_for_types(lua_State *L, int disp_idx, Type **at, int nargs) {
  Dispatcher *d = lua_touserdata(L, disp_idx);
  /* the simulator's specializations (CPU code) have no NVVM IR */
  bool sim = cudrv_simulating(L);
  for (DispSpec *s = d->specs; s; s = s->next)
    if (s->nargs == nargs && memcmp(s->argtypes, at, sizeof(Type *) * (size_t)nargs) == 0 && sim == (s->kernel_ir == NULL))
      return s;
  if (d->eager) {
    /* signatures were given: numbers convert to the declared scalar types.
    ** A signature compiled only for the other side (the GPU or the
    ** simulator) is compiled for this one now. */
    DispSpec *other = NULL;
    for (DispSpec *s = d->specs; s; s = s->next) {
      bool fits = s->nargs == nargs;
      for (int i = 0; i < nargs && fits; i++) {
        Type *want = s->argtypes[i];
        if (want == at[i]) continue;
        /* any device array fits an A-layout signature (float32[:]) */
        if (want->kind == TY_ARRAY && at[i]->kind == TY_ARRAY && want->layout == 'A' && want->dtype == at[i]->dtype &&
            want->ndim == at[i]->ndim)
          continue;
        fits = want->kind == TY_SCALAR && at[i]->kind == TY_SCALAR && want->dtype != DT_BOOL &&
               at[i]->dtype != DT_BOOL && (ty_is_float(want) || ty_is_int(at[i]) || ty_is_complex(want));
      }
      if (fits && sim == (s->kernel_ir == NULL)) return s;
      if (fits && other == NULL) other = s;
    }
    if (other == NULL) {
      /* a record of another dtype than the signature's: name both */
      for (DispSpec *s = d->specs; s; s = s->next)
        for (int i = 0; i < nargs && s->nargs == nargs; i++)
          if (s->argtypes[i]->kind == TY_RECORD && at[i] != s->argtypes[i]) {
            if (at[i]->kind == TY_RECORD)
              luaL_error(L, "%s: argument #%d is a record of dtype %s, but the signature takes one of dtype %s", d->name,
                         i + 1, dtype_names[at[i]->dtype], dtype_names[s->argtypes[i]->dtype]);
            luaL_error(L, "%s: argument #%d is not a record, but the signature takes one of dtype %s", d->name, i + 1,
                       dtype_names[s->argtypes[i]->dtype]);
          }
      luaL_error(L, "%s: no compiled signature matches the argument types", d->name);
    }
    return dispatch_add_spec(L, d, disp_idx, other->argtypes, nargs);
  }
  return dispatch_add_spec(L, d, disp_idx, at, nargs);
}

/* Whether the arguments at 2.. have the types of the previous call: device
** arrays of the same dtype and rank, numbers of the same kind. */
static bool same_types(lua_State *L, Launch *ln, CudaState *S, int nargs) {
  if (ln->spec == NULL || ln->S != S || ln->devno != S->devno || ln->nat != nargs) return false;
  for (int i = 0; i < nargs; i++) {
    int idx = i + 2;
    Type *t = ln->at[i];
    switch (lua_type(L, idx)) {
      case LUA_TNUMBER:
        if (t != (lua_isinteger(L, idx) ? ty_int64 : ty_float64)) return false;
        break;
      case LUA_TBOOLEAN:
        if (t != ty_bool) return false;
        break;
      case LUA_TUSERDATA: {
        if (t->kind != TY_ARRAY || !lua_getmetatable(L, idx)) return false;
        bool dev = lua_topointer(L, -1) == ln->devarray_mt;
        lua_pop(L, 1);
        const DevArray *dv = dev ? devarray_test(L, idx) : NULL;  /* the tag too (udata.h) */
        if (!dv || dv->dtype != t->dtype || dv->ndim != t->ndim ||
            devarray_layout(dv->ndim, dv->shape, dv->strides, dtype_sizes[dv->dtype]) != t->layout)
          return false;
        break;
      }
      default: return false;
    }
  }
  return true;
}

/* debug=True: waits for the kernel, then raises what its exception record
** holds, as numba-cuda raises a debug kernel's exception at the launch */
static void raise_kernel_exception(lua_State *L, CudaState *S, Dispatcher *d, CUdeviceptr exc, CUstream stream) {
  LmKernelExc rec;
  CUresult r = S->fn.cuStreamSynchronize(stream);
  if (r == 0) r = S->fn.cuMemcpyDtoH(&rec, exc, sizeof rec);
  cudrv_defer_free(S, S->cur->ctx, exc, sizeof rec);
  if (r != 0) cudrv_error(L, S, r, "cuStreamSynchronize");
  if (!rec.claimed) return;
  rec.msg[sizeof rec.msg - 1] = rec.where[sizeof rec.where - 1] = 0;
  SimFail f;
  memset(&f, 0, sizeof f);
  f.kind = SIMFAIL_THREAD;
  f.status = rec.status;
  f.err = rec.err;
  f.err.msg = rec.msg;
  f.err.where = rec.where[0] ? rec.where : NULL;
  memcpy(f.block, rec.ctaid, sizeof f.block);
  memcpy(f.thread, rec.tid, sizeof f.thread);
  char msg[1024];
  backend_get(L)->simrun_message(&f, msg, sizeof msg);
  (void)d;
  lua_pushstring(L, msg);
  lua_error(L);
}

/* launch(args...) */
static int kernel_lua_call(lua_State *L) {
  Launch *ln = UDATA_CHECK(L, 1, Launch, LAUNCH_MT, LAUNCH_TAG);
  int nargs = lua_gettop(L) - 1;
  lua_getiuservalue(L, 1, 1);
  int didx = lua_gettop(L);
  Dispatcher *d = lua_touserdata(L, didx);
  if (d->opt.device) return luaL_error(L, "%s is a device function: call it from a kernel", d->name);
  CudaState *S = cudrv_get(L);
  DispSpec *s;
  CUfunction f;
  if (same_types(L, ln, S, nargs)) {
    s = ln->spec;
    f = ln->fn;
  } else {
    ln->spec = NULL;
    arg_types(L, d, 2, nargs, ln->at);
    s = spec_for_types(L, didx, ln->at, nargs);
    f = S->sim ? NULL : kernel_function(L, S, d, s);
    /* the simulator's state is not cached: switching cuda.simulate must retype */
    if (!S->sim) {
      luaL_getmetatable(L, DEVARRAY_MT);
      ln->devarray_mt = lua_topointer(L, -1);
      lua_pop(L, 1);
      ln->nat = nargs;
      ln->fn = f;
      ln->S = S;
      ln->devno = S->devno;
      ln->spec = s;
    }
  }
  /* host arrays go to the device now and come back after the launch */
  int host[LM_MAXARGS], devpos[LM_MAXARGS], ncopies = 0;
  CudaParams P;
  cudrv_params_reset(&P);
  for (int i = 0; i < nargs; i++) {
    int idx = i + 2;
    Type *t = s->argtypes[i];
    if (t->kind == TY_ARRAY) {
      DevArray *dv = devarray_test(L, idx);
      if (dv == NULL) {
        lua_getfield(L, LUA_REGISTRYINDEX, "lumba.cuda.to_device");
        lua_pushvalue(L, idx);
        lua_call(L, 1, 1);
        host[ncopies] = idx;
        devpos[ncopies++] = lua_gettop(L);
        dv = devarray_test(L, -1);
      }
      cudrv_pack_array(L, S, &P, dv, i + 1);
      continue;
    }
    if (t->kind == TY_RECORD) {
      /* a record: its address on the device. A host record goes there and
      ** comes back after the launch, as numba-cuda's (InOut) */
      int at = idx;
      if (devarray_test(L, idx) == NULL) {
        lua_getfield(L, LUA_REGISTRYINDEX, "lumba.cuda.to_device");
        lua_pushvalue(L, idx);
        lua_call(L, 1, 1);
        host[ncopies] = idx;
        devpos[ncopies++] = at = lua_gettop(L);
      }
      DevArray *dv = devarray_check(L, at, S);  /* not freed, of this context */
      cudrv_param(L, &P, &dv->data, sizeof dv->data);
      continue;
    }
    if (ty_is_complex(t)) {  /* its parts, two parameters (the kernel entry's) */
      Cplx c;
      if (!complex_tocomplex(L, idx, &c)) luaL_error(L, "bad argument #%d to kernel (complex expected)", i + 1);
      if (t->dtype == DT_COMPLEX64) {
        float re = (float)c.re, im = (float)c.im;
        cudrv_param(L, &P, &re, 4);
        cudrv_param(L, &P, &im, 4);
      } else {
        cudrv_param(L, &P, &c.re, 8);
        cudrv_param(L, &P, &c.im, 8);
      }
      continue;
    }
    uint64_t v = 0;
    int size = 8;
    switch (t->dtype) {
      case DT_FLOAT64: { double x = lua_tonumber(L, idx); memcpy(&v, &x, 8); break; }
      case DT_FLOAT32: { float x = (float)lua_tonumber(L, idx); memcpy(&v, &x, 4); size = 4; break; }
      case DT_FLOAT16: { uint16_t x = lm_d2h(lua_tonumber(L, idx)); memcpy(&v, &x, 2); size = 2; break; }
      case DT_BOOL: v = (uint64_t)lua_toboolean(L, idx); size = 1; break;
      default: v = (uint64_t)lua_tointeger(L, idx); size = dtype_sizes[t->dtype]; break;
    }
    cudrv_param(L, &P, &v, (size_t)size);
  }
  if (ln->is_forall) {
    if (ln->forall == 0) return 0;  /* nothing to run, as numba-cuda's ForAll */
    forall_dims(L, S, ln, f);
  }
  /* debug=True on the GPU: a zeroed exception record, the last parameter */
  CUdeviceptr exc = 0;
  if (d->opt.debug && !S->sim) {
    LmKernelExc zero;
    memset(&zero, 0, sizeof zero);
    exc = cudrv_alloc(L, S, sizeof zero);
    CU_CALL(L, S, cuMemcpyHtoD, (exc, &zero, sizeof zero));
    cudrv_param(L, &P, &exc, sizeof exc);
  }
  /* a kernel that syncs its grid: checked against the co-resident blocks, launched cooperatively */
  if (s->cooperative)
    cudrv_launch_cooperative(L, S, S->sim ? NULL : f, d->name, ln->grid, ln->block, ln->shared, ln->stream, P.ptrs);
  if (S->sim) backend_get(L)->cudasim_launch(L, S, s->gpu, ln->grid, ln->block, ln->shared, P.ptrs);
  else if (!s->cooperative) cudrv_launch(L, S, f, ln->grid, ln->block, ln->shared, ln->stream, P.ptrs);
  if (exc) raise_kernel_exception(L, S, d, exc, ln->stream);
  for (int c = 0; c < ncopies; c++) {
    lua_getfield(L, devpos[c], "copy_to_host");
    lua_pushvalue(L, devpos[c]);
    lua_pushvalue(L, host[c]);
    lua_call(L, 2, 0);
  }
  return 0;
}

/* k:max_cooperative_grid_blocks(blockdim [, dynsmemsize]): the most blocks
** of that size a cooperative launch of k's newest specialization may have
** on the current device (numba-cuda's _Kernel.max_cooperative_grid_blocks) */
static int kernel_lua_max_coop(lua_State *L) {
  Dispatcher *d = UDATA_CHECK(L, 1, Dispatcher, DISPATCHER_MT, DISPATCHER_TAG);
  if (!d->opt.gpu || d->opt.device) return luaL_error(L, "%s is not a CUDA kernel", d->name);
  unsigned block[3];
  luaL_checkany(L, 2);
  cudrv_dims(L, 2, "block", block);
  lua_Integer smem = luaL_optinteger(L, 3, 0);
  luaL_argcheck(L, smem >= 0 && smem <= (1 << 30), 3, "dynamic shared memory size out of range");
  CudaState *S = cudrv_get(L);
  DispSpec *s = d->specs;
  while (s && S->sim != (s->kernel_ir == NULL)) s = s->next;
  if (s == NULL)
    return luaL_error(L, "%s has no compiled specialization yet: launch it or call %s:compile(sig) first", d->name, d->name);
  CUfunction f = S->sim ? NULL : kernel_function(L, S, d, s);
  int threads = (int)(block[0] * block[1] * block[2]);
  if (threads <= 0 || threads > S->cur->max_threads)
    return luaL_error(L, "max_cooperative_grid_blocks: %d threads per block; the device allows 1 to %d", threads,
                      S->cur->max_threads);
  lua_pushinteger(L, (lua_Integer)cudrv_max_coresident(L, S, f, threads, (unsigned)smem));
  return 1;
}

static int kernel_lua_tostring(lua_State *L) {
  Launch *ln = UDATA_CHECK(L, 1, Launch, LAUNCH_MT, LAUNCH_TAG);
  if (ln->is_forall) return lua_pushfstring(L, "lumba.kernel_launch: forall %I threads", (lua_Integer)ln->forall), 1;
  lua_pushfstring(L, "lumba.kernel_launch: grid (%d, %d, %d), block (%d, %d, %d)", (int)ln->grid[0],
                  (int)ln->grid[1], (int)ln->grid[2], (int)ln->block[0], (int)ln->block[1], (int)ln->block[2]);
  return 1;
}

/* called with the module table on top, after cuda_open */
void kernel_open(lua_State *L) {
  lua_getfield(L, -1, "cuda");
  lua_getfield(L, -1, "to_device");
  lua_setfield(L, LUA_REGISTRYINDEX, "lumba.cuda.to_device");
  lua_pop(L, 1);
  luaL_newmetatable(L, LAUNCH_MT);
  lua_pushcfunction(L, kernel_lua_call);
  lua_setfield(L, -2, "__call");
  lua_pushcfunction(L, kernel_lua_tostring);
  lua_setfield(L, -2, "__tostring");
  udata_protect(L, -1, LAUNCH_MT);
  lua_pop(L, 1);
  lua_getfield(L, -1, "dispatcher_methods");
  lua_pushcfunction(L, kernel_lua_forall);
  lua_setfield(L, -2, "forall");
  lua_pushcfunction(L, kernel_lua_max_coop);
  lua_setfield(L, -2, "max_cooperative_grid_blocks");
  lua_pop(L, 1);
}
