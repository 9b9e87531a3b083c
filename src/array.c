/*
** array.c — the lumba.ndarray userdata: dtype facts, creation, views,
** flags, iteration and the metamethods (__index, __newindex, __len,
** __pairs, __gc, __close). Constructors live in array_new.c, methods in
** array_methods.c, printing in array_print.c, element conversions in
** array_elem.c, lumba.random in random.c.
**
** Memory: every NdArray holds one reference to the MemInfo that owns its
** buffer (nrt.h). A view takes one more reference, so the buffer lives as
** long as any array that sees it, whatever the order of collection.
** __close (or :close()) drops the reference early and marks the array
** closed; any later use raises "attempt to use a closed array".
*/
#include <string.h>
#include <sys/sysinfo.h>

#include <lauxlib.h>
#include <lua.h>

#include "array.h"
#include "array_impl.h"
#include "random.h"

const RecordHooks *array_records;

/* NumPy's short codes and Python's builtin names, besides the full names */
static const struct { const char *name; DType dt; } dtype_aliases[] = {
  {"float", DT_FLOAT64}, {"double", DT_FLOAT64}, {"f8", DT_FLOAT64},
  {"f4", DT_FLOAT32}, {"single", DT_FLOAT32}, {"f2", DT_FLOAT16}, {"half", DT_FLOAT16}, {"int", DT_INT64},
  {"i1", DT_INT8}, {"i2", DT_INT16}, {"i4", DT_INT32}, {"i8", DT_INT64},
  {"u1", DT_UINT8}, {"u2", DT_UINT16}, {"u4", DT_UINT32}, {"u8", DT_UINT64},
  {"?", DT_BOOL}, {"complex", DT_COMPLEX128}, {"c16", DT_COMPLEX128}, {"c8", DT_COMPLEX64},
  {"cdouble", DT_COMPLEX128}, {"csingle", DT_COMPLEX64},
};

int dtype_from_name(const char *name) {
  for (int i = 0; i < DT__COUNT; i++)
    if (strcmp(name, dtype_names[i]) == 0) return i;
  for (size_t i = 0; i < lm_countof(dtype_aliases); i++)
    if (strcmp(name, dtype_aliases[i].name) == 0) return (int)dtype_aliases[i].dt;
  return -1;
}

/* dtype -> nil (the default) | name */
DType dtype_check(lua_State *L, int idx, DType dflt) {
  if (lua_isnoneornil(L, idx)) return dflt;
  int rec = array_records ? array_records->dtype_test(L, idx) : -1;
  if (rec >= 0) return (DType)rec;
  if (lua_type(L, idx) != LUA_TSTRING)
    luaL_argerror(L, idx, lua_pushfstring(L, "dtype name expected, got %s",
                                          luaL_typename(L, idx)));
  const char *name = lua_tostring(L, idx);
  int dt = dtype_from_name(name);
  if (dt < 0)
    luaL_argerror(L, idx, lua_pushfstring(L, "unknown dtype '%s'", name));
  return (DType)dt;
}

/* ---- the userdata ---- */

static l_noret closed_error(lua_State *L) {
  luaL_error(L, "attempt to use a closed array");
  LM_UNREACHABLE();
}

NdArray *array_peek(lua_State *L, int idx) {
  return UDATA_TEST(L, idx, NdArray, ARRAY_MT, ARRAY_TAG);
}

NdArray *array_test(lua_State *L, int idx) {
  NdArray *a = array_peek(L, idx);
  if (a && (a->flags & ARR_CLOSED)) closed_error(L);
  return a;
}

NdArray *array_check(lua_State *L, int idx) {
  NdArray *a = UDATA_CHECK(L, idx, NdArray, ARRAY_MT, ARRAY_TAG);
  if (a->flags & ARR_CLOSED) closed_error(L);
  return a;
}

NdArray *array_checkw(lua_State *L, int idx, bool write) {
  NdArray *a = array_check(L, idx);
  if (write && (a->flags & ARR_READONLY))
    luaL_error(L, "assignment destination is read-only");
  return a;
}

/* NumPy's rule: an axis of length 1 may have any stride, and an empty
** array is contiguous both ways. */
void array_update_flags(NdArray *a) {
  int64_t n = 1;
  for (int k = 0; k < a->ndim; k++) n *= a->s.shape[k];
  a->s.nitems = n;
  int flags = a->flags & (ARR_READONLY | ARR_CLOSED);
  if (n == 0) {
    a->flags = flags | ARR_C_CONTIG | ARR_F_CONTIG;
    return;
  }
  bool c = true, f = true;
  int64_t sd = a->s.itemsize;
  for (int k = a->ndim - 1; k >= 0; k--) {
    if (a->s.shape[k] == 1) continue;
    if (a->s.strides[k] != sd) c = false;
    sd *= a->s.shape[k];
  }
  sd = a->s.itemsize;
  for (int k = 0; k < a->ndim; k++) {
    if (a->s.shape[k] == 1) continue;
    if (a->s.strides[k] != sd) f = false;
    sd *= a->s.shape[k];
  }
  a->flags = flags | (c ? ARR_C_CONTIG : 0) | (f ? ARR_F_CONTIG : 0);
}

char array_layout(const NdArray *a) {
  if (a->flags & ARR_C_CONTIG) return 'C';
  if (a->flags & ARR_F_CONTIG) return 'F';
  return 'A';
}

void array_iter_init(ArrayIter *it, const NdArray *a) {
  it->p = a->s.data;
  it->ndim = a->ndim;
  it->left = a->s.nitems;
  memset(it->idx, 0, sizeof it->idx);
  it->shape = a->s.shape;
  it->strides = a->s.strides;
}

/* Odometer over the index, last axis fastest. */
char *array_iter_next(ArrayIter *it) {
  if (it->left <= 0) return NULL;
  char *cur = it->p;
  if (--it->left > 0) {
    for (int k = it->ndim - 1; k >= 0; k--) {
      if (++it->idx[k] < it->shape[k]) {
        it->p += it->strides[k];
        break;
      }
      it->idx[k] = 0;
      it->p -= it->strides[k] * (it->shape[k] - 1);
    }
  }
  return cur;
}

void array_push_shape(lua_State *L, int ndim, const int64_t *shape) {
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  luaL_addchar(&b, '{');
  for (int k = 0; k < ndim; k++) {
    if (k) luaL_addstring(&b, ", ");
    lua_pushfstring(L, "%I", (lua_Integer)shape[k]);
    luaL_addvalue(&b);
  }
  luaL_addchar(&b, '}');
  luaL_pushresult(&b);
}

static l_noret shape_error(lua_State *L, int argn, const char *msg) {
  if (argn > 0) luaL_argerror(L, argn, msg);
  else luaL_error(L, "%s", msg);
  LM_UNREACHABLE();
}

/* shape -> integer | '{' integer {',' integer} '}' */
int array_read_shape(lua_State *L, int idx, int64_t *shape, int argn) {
  int t = lua_type(L, idx);
  if (t == LUA_TNUMBER) {
    lua_Integer n;
    if (!lua_isinteger(L, idx)) {
      int ok;
      n = lua_tointegerx(L, idx, &ok);
      if (!ok) shape_error(L, argn, lua_pushfstring(L,
        "shape must contain integers, got %s", luaL_tolstring(L, idx, NULL)));
    } else {
      n = lua_tointeger(L, idx);
    }
    shape[0] = n;
    return 1;
  }
  if (t != LUA_TTABLE)
    shape_error(L, argn, lua_pushfstring(L,
      "shape must be an integer or a table of integers, got %s", luaL_typename(L, idx)));
  lua_Integer nd = (lua_Integer)lua_rawlen(L, idx);
  if (nd > LM_MAXDIM)
    shape_error(L, argn, lua_pushfstring(L,
      "too many dimensions: %I (at most %d)", nd, LM_MAXDIM));
  for (int k = 0; k < (int)nd; k++) {
    int ok = lua_rawgeti(L, idx, k + 1) == LUA_TNUMBER;
    lua_Integer n = ok ? lua_tointegerx(L, -1, &ok) : 0;
    if (!ok) {
      if (lua_type(L, -1) == LUA_TNUMBER)
        shape_error(L, argn, lua_pushfstring(L,
          "shape must contain integers, got %s", luaL_tolstring(L, -1, NULL)));
      shape_error(L, argn, lua_pushfstring(L,
        "shape must contain integers, got %s", luaL_typename(L, -1)));
    }
    shape[k] = n;
    lua_pop(L, 1);
  }
  return (int)nd;
}

/* Bytes of RAM and swap on this machine: a request above it can only fail,
** and some allocators (ASan's) abort instead of returning NULL for it. */
static uint64_t machine_memory(void) {
  struct sysinfo si;
  if (sysinfo(&si) != 0) return UINT64_MAX;
  return ((uint64_t)si.totalram + (uint64_t)si.totalswap) * si.mem_unit;
}

/* NumPy's rule: the product of the item size and the non-zero dimensions
** must fit in int64, also when another dimension is 0 (else the strides of
** {0, 2^62} overflow); returns the size in bytes. */
int64_t array_check_size(lua_State *L, DType dt, int ndim, const int64_t *shape, int argn) {
  int64_t bytes = dtype_sizes[dt];
  bool overflow = false, empty = false;
  for (int k = 0; k < ndim; k++) {
    if (shape[k] < 0) shape_error(L, argn, "negative dimensions are not allowed");
    if (shape[k] == 0) empty = true;
    else if (!overflow && __builtin_mul_overflow(bytes, shape[k], &bytes)) overflow = true;
  }
  if (overflow) {
    array_push_shape(L, ndim, shape);
    shape_error(L, argn, lua_pushfstring(L,
      "array is too big: %s %s elements take more than 2^63 bytes",
      lua_tostring(L, -1), dtype_names[dt]));
  }
  return empty ? 0 : bytes;
}

/* Tells the collector about memory it cannot see (the buffer and its
** MemInfo), so that loops dropping arrays collect them in time, unless the
** user stopped the GC. Small arrays add up: their bytes accumulate (per
** thread: a pacing hint, never state) and are reported in 16 KiB steps.
** Without this a Lua heap grown large (many compiled functions) let
** hundreds of thousands of small dead arrays wait for the next cycle.
**
** Steps are not enough in generational mode: a minor collection frees only
** young objects, and an array still referenced at the step (the loop's last
** temporary) turns old and waits for a major collection, which Lua starts
** only when its own heap has doubled. A loop of 8 MB temporaries then held
** gigabytes. So once the buffers made since the last full collection pass
** FULL_GC_BYTES and the Lua heap's own size, a full collection runs: its
** cost, in proportion to the Lua heap, is paid at most once per as many
** buffer bytes. */
#define FULL_GC_BYTES ((size_t)64 << 20)

static _Thread_local size_t unseen, since_full;

static void unseen_memory(lua_State *L, size_t bytes) {
  size_t add = sizeof(MemInfo) + NRT_ALIGN + bytes;
  unseen = add > SIZE_MAX - unseen ? SIZE_MAX : unseen + add;
  since_full = add > SIZE_MAX - since_full ? SIZE_MAX : since_full + add;
  if (unseen < 16384 || !lua_gc(L, LUA_GCISRUNNING)) return;
  size_t heap = (size_t)lua_gc(L, LUA_GCCOUNT) * 1024;
  if (since_full > FULL_GC_BYTES && since_full > heap) {
    unseen = since_full = 0;
    lua_gc(L, LUA_GCCOLLECT);
    return;
  }
  size_t kb = unseen / 1024;
  unseen = 0;
  lua_gc(L, LUA_GCSTEP, (int)(kb > 1 << 30 ? 1 << 30 : kb));
}

/* Validates the shape (non-negative, product fits in int64 bytes),
** allocates the zeroed buffer and sets C or F strides. */
NdArray *array_new(lua_State *L, DType dt, int ndim, const int64_t *shape,
                   char order, int argn) {
  LM_ASSERT(ndim >= 0);
  if (ndim > LM_MAXDIM)
    shape_error(L, argn, lua_pushfstring(L,
      "too many dimensions: %d (at most %d)", ndim, LM_MAXDIM));
  int64_t bytes = array_check_size(L, dt, ndim, shape, argn);
  NdArray *a = lua_newuserdatauv(L, sizeof(NdArray), 0);
  memset(a, 0, sizeof *a);
  a->tag = ARRAY_TAG;
  a->dtype = dt;
  a->ndim = ndim;
  a->s.itemsize = dtype_sizes[dt];
  luaL_setmetatable(L, ARRAY_MT);
  MemInfo *mi = (uint64_t)bytes <= machine_memory() ? nrt_alloc((size_t)bytes) : NULL;
  if (mi == NULL)
    luaL_error(L, "not enough memory for an array of %I bytes", (lua_Integer)bytes);
  a->s.meminfo = mi;
  a->s.data = mi->data;
  int64_t sd = a->s.itemsize;
  for (int j = 0; j < ndim; j++) {
    int k = order == 'F' ? j : ndim - 1 - j;
    a->s.shape[k] = shape[k];
    a->s.strides[k] = sd;
    sd *= shape[k] ? shape[k] : 1;
  }
  array_update_flags(a);
  unseen_memory(L, (size_t)bytes);
  return a;
}

NdArray *array_push_new(lua_State *L, DType dt, int ndim, const int64_t *shape) {
  return array_new(L, dt, ndim, shape, 'C', 0);
}

/* The userdata is made before the reference is taken, so a memory error
** here leaks nothing. */
NdArray *array_push_view(lua_State *L, const NdArray *base, int ndim,
                         const int64_t *shape, const int64_t *strides, char *data) {
  NdArray *v = lua_newuserdatauv(L, sizeof(NdArray), 0);
  memset(v, 0, sizeof *v);
  v->tag = ARRAY_TAG;
  v->dtype = base->dtype;
  v->ndim = ndim;
  v->flags = base->flags & ARR_READONLY;
  v->s.itemsize = base->s.itemsize;
  v->s.data = data;
  for (int k = 0; k < ndim; k++) {
    v->s.shape[k] = shape[k];
    v->s.strides[k] = strides[k];
  }
  array_update_flags(v);
  luaL_setmetatable(L, ARRAY_MT);
  v->s.meminfo = base->s.meminfo;
  nrt_incref(v->s.meminfo);
  return v;
}

/* Takes over s->meminfo's reference. A memory error while making the
** userdata would leak that one reference (Lua raises before we can keep it). */
NdArray *array_push_struct(lua_State *L, const ArrayStruct *s, DType dt, int ndim) {
  LM_ASSERT(ndim >= 0 && ndim <= LM_MAXDIM);
  NdArray *a = lua_newuserdatauv(L, sizeof(NdArray), 0);
  memset(a, 0, sizeof *a);
  a->tag = ARRAY_TAG;
  a->s = *s;
  a->s.parent = NULL;
  a->dtype = dt;
  a->ndim = ndim;
  array_update_flags(a);
  luaL_setmetatable(L, ARRAY_MT);
  if (s->meminfo) unseen_memory(L, s->meminfo->size);  /* made by compiled code */
  return a;
}

int64_t array_norm_index(lua_State *L, lua_Integer i, int64_t n, int axis, int argn) {
  int64_t j = i > 0 ? i - 1 : i < 0 ? n + i : -1;
  if (j < 0 || j >= n) {
    const char *msg = lua_pushfstring(L, "index %I out of bounds for axis %d with size %I",
                                      i, axis, (lua_Integer)n);
    if (argn > 0) luaL_argerror(L, argn, msg);
    luaL_error(L, "%s", msg);
  }
  return j;
}

/* ---- metamethods ---- */

static void release(NdArray *a) {
  if (a->flags & ARR_CLOSED) return;
  nrt_decref(a->s.meminfo);
  a->s.meminfo = NULL;
  a->s.data = NULL;
  a->s.nitems = 0;
  a->flags |= ARR_CLOSED;
}

static int array_lua_gc(lua_State *L) {
  NdArray *a = UDATA_GC_TEST(L, 1, NdArray, ARRAY_MT, ARRAY_TAG);  /* an impostor is left alone */
  if (a) release(a);
  return 0;
}

/* __close and :close(): release the buffer now (views keep their own
** reference); closing twice is harmless */
static int array_lua_close(lua_State *L) {
  release(UDATA_CHECK(L, 1, NdArray, ARRAY_MT, ARRAY_TAG));
  return 0;
}

/* Integer key of a[k]; raises for a non-integral number. */
static lua_Integer key_index(lua_State *L, int idx) {
  int ok;
  lua_Integer i = lua_tointegerx(L, idx, &ok);
  if (!ok) luaL_error(L, "array index must be an integer, got %s", luaL_tolstring(L, idx, NULL));
  return i;
}

/* a[i] of an N-d array: the view of row i (axis 1 dropped) */
static void push_row(lua_State *L, NdArray *a, int64_t j) {
  array_push_view(L, a, a->ndim - 1, a->s.shape + 1, a->s.strides + 1,
                  (char *)a->s.data + j * a->s.strides[0]);
}

static void push_strides(lua_State *L, int ndim, const int64_t *v) {
  lua_createtable(L, ndim, 0);
  for (int k = 0; k < ndim; k++) {
    lua_pushinteger(L, v[k]);
    lua_rawseti(L, -2, k + 1);
  }
}

/* Fields computed from the struct; returns 0 for an unknown name. */
static int push_field(lua_State *L, NdArray *a, const char *k) {
  if (strcmp(k, "shape") == 0) push_strides(L, a->ndim, a->s.shape);
  else if (strcmp(k, "strides") == 0) push_strides(L, a->ndim, a->s.strides);
  else if (strcmp(k, "dtype") == 0) {
    if (dtype_is_record(a->dtype)) array_records->push_dtype(L, a->dtype);
    else lua_pushstring(L, dtype_names[a->dtype]);
  }
  else if (strcmp(k, "ndim") == 0) lua_pushinteger(L, a->ndim);
  else if (strcmp(k, "size") == 0) lua_pushinteger(L, a->s.nitems);
  else if (strcmp(k, "itemsize") == 0) lua_pushinteger(L, a->s.itemsize);
  else if (strcmp(k, "nbytes") == 0) lua_pushinteger(L, a->s.nitems * a->s.itemsize);
  else if (strcmp(k, "layout") == 0) lua_pushlstring(L, (char[]){array_layout(a)}, 1);
  else if (strcmp(k, "flags") == 0) {
    lua_createtable(L, 0, 4);
    lua_pushboolean(L, a->flags & ARR_C_CONTIG);
    lua_setfield(L, -2, "c_contiguous");
    lua_pushboolean(L, a->flags & ARR_F_CONTIG);
    lua_setfield(L, -2, "f_contiguous");
    lua_pushboolean(L, !(a->flags & ARR_READONLY));
    lua_setfield(L, -2, "writeable");
  } else if (strcmp(k, "T") == 0) {
    lua_getfield(L, lua_upvalueindex(1), "transpose");
    lua_pushvalue(L, 1);
    lua_call(L, 1, 1);
  } else return 0;
  return 1;
}

/* a[i] (element of 1-D, row view of N-d), a.field, a:method (upvalue 1
** holds the methods) */
static int array_lua_index(lua_State *L) {
  NdArray *a = UDATA_CHECK(L, 1, NdArray, ARRAY_MT, ARRAY_TAG);
  if (a->flags & ARR_CLOSED) {  /* only close() stays usable, as a no-op */
    if (lua_type(L, 2) == LUA_TSTRING && strcmp(lua_tostring(L, 2), "close") == 0) {
      lua_pushcfunction(L, array_lua_close);
      return 1;
    }
    closed_error(L);
  }
  if (lua_type(L, 2) == LUA_TNUMBER) {
    lua_Integer i = key_index(L, 2);
    if (a->ndim == 0) return luaL_error(L, "cannot index a 0-d array");
    int64_t j = array_norm_index(L, i, a->s.shape[0], 1, 0);
    if (a->ndim == 1 && !dtype_is_record(a->dtype)) array_push_elem(L, a->dtype, (char *)a->s.data + j * a->s.strides[0]);
    else push_row(L, a, j);  /* a record: the 0-d view of element j */
    return 1;
  }
  if (lua_type(L, 2) == LUA_TSTRING) {
    if (dtype_is_record(a->dtype) && array_records->index(L, a, lua_tostring(L, 2))) return 1;  /* fields first */
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) {
      if (dtype_is_record(a->dtype) && !array_records->method_ok(lua_tostring(L, 2)))
        array_records->unsupported(L, a->dtype, lua_pushfstring(L, "'%s'", lua_tostring(L, 2)));
      return 1;
    }
    if (push_field(L, a, lua_tostring(L, 2))) return 1;
  }
  lua_pushnil(L);
  return 1;
}

/* a[i] = v: an element of a 1-D array; for N-d, row i takes a scalar
** (every element) or an array / nested table of the row's shape */
static int array_lua_newindex(lua_State *L) {
  NdArray *a = array_checkw(L, 1, false);
  if (lua_type(L, 2) != LUA_TNUMBER) {
    if (lua_type(L, 2) == LUA_TSTRING && dtype_is_record(a->dtype))
      return array_records->newindex(L, a, lua_tostring(L, 2), 3);
    if (lua_type(L, 2) == LUA_TSTRING)
      return luaL_error(L, "cannot assign to field '%s' of an array", lua_tostring(L, 2));
    return luaL_error(L, "array index must be an integer, got %s", luaL_typename(L, 2));
  }
  lua_Integer i = key_index(L, 2);
  if (a->flags & ARR_READONLY) return luaL_error(L, "assignment destination is read-only");
  if (a->ndim == 0) return luaL_error(L, "cannot index a 0-d array");
  int64_t j = array_norm_index(L, i, a->s.shape[0], 1, 0);
  char *p = (char *)a->s.data + j * a->s.strides[0];
  if (a->ndim == 1) {
    array_store_elem(L, a->dtype, p, 3, 0);
    return 0;
  }
  push_row(L, a, j);
  NdArray *row = lua_touserdata(L, -1);
  int t = lua_type(L, 3);
  if (t == LUA_TNUMBER || t == LUA_TBOOLEAN) {
    array_fill_value(L, row, 3, 0);
    return 0;
  }
  NdArray *src = array_test(L, 3);
  if (src == NULL && t == LUA_TTABLE) src = array_from_table(L, 3, a->dtype);
  if (src == NULL)
    return luaL_error(L, "cannot assign a %s to an array row", luaL_typename(L, 3));
  bool same = src->ndim == row->ndim;
  for (int k = 0; same && k < row->ndim; k++) same = src->s.shape[k] == row->s.shape[k];
  if (!same) {
    array_push_shape(L, src->ndim, src->s.shape);
    array_push_shape(L, row->ndim, row->s.shape);
    return luaL_error(L, "cannot assign an array of shape %s to a row of shape %s",
                      lua_tostring(L, -2), lua_tostring(L, -1));
  }
  array_assign(L, row, src);
  return 0;
}

static int array_lua_len(lua_State *L) {
  NdArray *a = array_check(L, 1);
  if (a->ndim == 0) return luaL_error(L, "len() of a 0-d array");
  lua_pushinteger(L, a->s.shape[0]);
  return 1;
}

/* pairs(a): i, a[i] for i = 1 .. #a */
static int pairs_next(lua_State *L) {
  NdArray *a = array_check(L, 1);
  lua_Integer i = luaL_checkinteger(L, 2) + 1;
  if (a->ndim == 0 || i > a->s.shape[0]) return 0;
  lua_pushinteger(L, i);
  if (a->ndim == 1 && !dtype_is_record(a->dtype)) array_push_elem(L, a->dtype, (char *)a->s.data + (i - 1) * a->s.strides[0]);
  else push_row(L, a, i - 1);
  return 2;
}

static int array_lua_pairs(lua_State *L) {
  array_check(L, 1);
  lua_pushcfunction(L, pairs_next);
  lua_pushvalue(L, 1);
  lua_pushinteger(L, 0);
  return 3;
}

static int array_lua_live_meminfos(lua_State *L) {
  lua_pushinteger(L, nrt_live());
  return 1;
}

static int array_lua_made_meminfos(lua_State *L) {
  lua_pushinteger(L, nrt_made());
  return 1;
}

static const luaL_Reg array_meta[] = {
  {"__gc", array_lua_gc},
  {"__close", array_lua_close},
  {"__newindex", array_lua_newindex},
  {"__len", array_lua_len},
  {"__pairs", array_lua_pairs},
  {"__tostring", array_tostring},
  {NULL, NULL},
};

void array_open(lua_State *L) {
  luaL_newmetatable(L, ARRAY_MT);
  luaL_setfuncs(L, array_meta, 0);
  udata_protect(L, -1, ARRAY_MT);
  lua_newtable(L);  /* methods */
  lua_pushcfunction(L, array_lua_close);
  lua_setfield(L, -2, "close");
  array_methods_reg(L);
  lua_pushcclosure(L, array_lua_index, 1);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);

  array_ctor_open(L);
  random_open(L);
  lua_createtable(L, DT__COUNT, 0);
  for (int i = 0; i < DT__COUNT; i++) {
    lua_pushstring(L, dtype_names[i]);
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "dtypes");
  lua_pushcfunction(L, array_lua_live_meminfos);
  lua_setfield(L, -2, "_live_meminfos");
  lua_pushcfunction(L, array_lua_made_meminfos);
  lua_setfield(L, -2, "_made_meminfos");
}
