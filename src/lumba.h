/*
** lumba.h — the C API for host programs (a game, a simulation) that embed
** Lua with lumba: hand your own memory to Lua as a lumba.ndarray without a
** copy, and read arrays that Lua hands back. Installed by `make install`.
**
** Linking: these functions live in lumba/core.so, the module that
** `require "lumba"` loads. Link the host against that file (see
** examples/embed/README.md); Lua's later dlopen of the same file then
** returns the copy already loaded, so the host and Lua share one runtime.
*/
#ifndef lumba_h
#define lumba_h

#include <stdint.h>

#include <lua.h>

#ifndef LUMBA_API
#define LUMBA_API __attribute__((visibility("default")))
#endif

#define LUMBA_MAXDIM 8  /* arrays have at most this many dimensions */

/* results of lumba_pusharray */
#define LUMBA_OK 1       /* one array pushed */
#define LUMBA_EDTYPE (-1) /* unknown dtype name */
#define LUMBA_ENDIM (-2)  /* ndim outside 0..LUMBA_MAXDIM */
#define LUMBA_ESHAPE (-3) /* a negative dimension, or a size beyond 2^63 bytes */
#define LUMBA_EARG (-4)   /* ptr is NULL for a non-empty array */
#define LUMBA_EMEM (-5)   /* out of memory */

/* called once, when the last array (or view) on the buffer is collected or
** closed: ud and ptr are what lumba_pusharray was given */
typedef void (*lumba_Release)(void *ud, void *ptr);

/* what lumba_toarray reports */
typedef struct lumba_ArrayInfo {
  void *data;                     /* first element */
  const char *dtype;              /* "float64", "int32", ... (static); a record's Numba name "Record(...)" */
  int ndim;
  int64_t itemsize;               /* bytes per element */
  int64_t size;                   /* number of elements */
  int64_t shape[LUMBA_MAXDIM];
  int64_t strides[LUMBA_MAXDIM];  /* bytes, may be negative or zero */
} lumba_ArrayInfo;

/*
** Pushes a lumba.ndarray over the host's memory at ptr, without copying.
** dtype: "float32", "float64", "int8".."int64", "uint8".."uint64", "bool",
** or C's names as C reads them: "float" is float32, "double" float64, "int"
** int32, "long" int64, "int8_t".."uint64_t", "_Bool", "double _Complex"
** (complex128), "float _Complex" (complex64) (docs/embedding.md
** lists every spelling).
** shape: ndim lengths. strides_bytes: ndim byte strides, or NULL for a
** C-contiguous (row-major) buffer. Writes from Lua land in the host's
** buffer and the other way round.
** release (may be NULL) runs when Lua no longer uses the buffer; until then
** the buffer must stay valid. Returns LUMBA_OK (1) with the array on the
** stack, or a negative LUMBA_E* code with nothing pushed and release never
** called. It raises no Lua error for bad arguments, so it may be called
** outside a protected call; like lua_newuserdata it can raise a memory
** error while making the userdata (release is not called then either).
*/
LUMBA_API int lumba_pusharray(lua_State *L, void *ptr, const char *dtype, int ndim,
                              const int64_t *shape, const int64_t *strides_bytes,
                              lumba_Release release, void *ud);

/* one field of a C struct, for lumba_pushrecords */
typedef struct lumba_Field {
  const char *name;  /* the field's name: a.x from Lua and compiled code */
  const char *dtype; /* a scalar dtype, spelled as for lumba_pusharray ("double", "int32_t", "_Bool") */
  int64_t offset;    /* offsetof(struct, field) */
} lumba_Field;

/*
** Pushes a lumba.ndarray of records over the host's array of C structs
** at ptr, without copying: nfields fields at their offsets, itemsize
** sizeof(struct). Any layout works: the compiler's own (what NumPy builds
** with align=True; the dtype then reports isalignedstruct) or a packed
** struct (NumPy's default, align=False). The rest is as lumba_pusharray:
** shape, strides_bytes (NULL: contiguous structs), release and ud, the
** results (LUMBA_EDTYPE also for an unknown field dtype, a repeated name, a
** field past itemsize or overlapping another). docs/embedding.md shows it.
*/
LUMBA_API int lumba_pushrecords(lua_State *L, void *ptr, const lumba_Field *fields, int nfields, int64_t itemsize,
                                int ndim, const int64_t *shape, const int64_t *strides_bytes,
                                lumba_Release release, void *ud);

/*
** The data pointer of the lumba.ndarray at idx, and its description in
** *info when info is not NULL; NULL when the value is not an open array
** (info is then zeroed). The memory stays valid while the array does.
*/
LUMBA_API void *lumba_toarray(lua_State *L, int idx, lumba_ArrayInfo *info);

/*
** The C entry point of the @cfunc object at idx (lumba.cfunc(sig)(src), or
** a @cfunc of lumba.load's module): a function of exactly the C signature
** written ("float64(float64, float64)" is double (*)(double, double);
** CPointer(float64) is double *, voidptr void *, intc int), the same
** address as the object's .address. NULL when the value is not a cfunc.
** Any thread may call it, with no Lua state involved, while the object
** stays alive in this Lua state (keep a reference: in a global, the
** registry, or the table lumba.load returned) and the state is open. It
** raises no error.
*/
LUMBA_API void *lumba_tocfunc(lua_State *L, int idx);

/*
** Stop the compiled code running now: a compiled call in a loop (a while
** loop, or a range loop around another loop) raises
** "KeyboardInterrupt: interrupted" within about a thousand iterations.
** Safe from a signal handler and from any thread (one atomic store), e.g.
** a watchdog for user scripts. The request is one for the process: every
** compiled call running stops, and one made while none runs stops the next
** one that polls. Lua code itself is stopped the Lua way (lua_sethook, as
** lua.c's SIGINT handler does), which compiled code notices as well.
*/
LUMBA_API void lumba_interrupt(lua_State *L);

#endif
