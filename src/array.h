/*
** array.h — lumba.ndarray: N-d typed arrays shared by Lua and compiled code.
*/
#ifndef array_h
#define array_h

#include <stdbool.h>

#include <lua.h>

#include "lm.h"
#include "nrt.h"
#include "udata.h"

typedef enum DType {
#define DTYPE(e, name, ctype, size, kind) DT_##e,
#include "dtype.def"
#undef DTYPE
  DT__COUNT
} DType;
/* record dtypes (record.h) are the numbers DT__COUNT .. DT__MAX - 1: the
** tables below have a row for each, filled when the record is made */
#define LM_MAXRECORDS 256
#define DT__MAX (DT__COUNT + LM_MAXRECORDS)
static inline bool dtype_is_record(int dt) { return dt >= DT__COUNT; }

/* The struct compiled code reads (Numba's array layout, with shape and
** strides sized LM_MAXDIM so one C struct serves every ndim).
** Compiled code receives a pointer to one of these per array argument. */
typedef struct ArrayStruct {
  MemInfo *meminfo;  // owner of the buffer; NULL for memory nobody owns
  void *parent;      // unused (Numba's parent object); always NULL
  int64_t nitems;    // product of shape
  int64_t itemsize;  // bytes per element
  void *data;        // first element
  int64_t shape[LM_MAXDIM];
  int64_t strides[LM_MAXDIM];  // in bytes, may be negative or zero
} ArrayStruct;

/* ARR_CLOSED: released by __close/close(); data and meminfo are NULL and
** every use raises "attempt to use a closed array". */
enum { ARR_C_CONTIG = 1, ARR_F_CONTIG = 2, ARR_READONLY = 4, ARR_CLOSED = 8 };

/* userdata "lumba.ndarray" */
typedef struct NdArray {
  ArrayStruct s;  // holds one reference to s.meminfo
  DType dtype;
  int ndim;
  int flags;      // ARR_* (recomputed whenever shape/strides change)
  uint32_t tag;   // ARRAY_TAG (udata.h)
} NdArray;

#define ARRAY_MT "lumba.ndarray"
#define ARRAY_TAG UDATA_TAG('l', 'a', 'r', 'r')
/* what an element may be, in every bad-element message (a lumba.complex
   into a real dtype gets its own "needs a real number") */
#define ELEMENT_KINDS "number, complex or boolean"
/* the array at idx whatever its state (closed too), or NULL; never raises */
NdArray *array_peek(lua_State *L, int idx);

/* dtype facts from dtype.def */
extern const char *dtype_names[DT__MAX];
extern int dtype_sizes[DT__MAX];  /* a record's itemsize */
extern char dtype_kinds[DT__MAX];  /* 'V' for a record, as NumPy's void */
/* dtype by name ("float64", "f8", "int", "float", "bool"...); -1 if unknown */
int dtype_from_name(const char *name);
/* dtype argument at idx (string, or nil -> dflt); raises luaL_argerror */
DType dtype_check(lua_State *L, int idx, DType dflt);

/* NULL if not an ndarray; raises "attempt to use a closed array" for a
** closed one, so callers never see a NULL data pointer. */
NdArray *array_test(lua_State *L, int idx);
NdArray *array_check(lua_State *L, int idx);  /* luaL_checkudata, closed raises */
/* New C-contiguous zeroed array on the stack; raises on bad shape / OOM. */
NdArray *array_push_new(lua_State *L, DType dt, int ndim, const int64_t *shape);
/* Push an ndarray for s, taking over the reference s->meminfo holds. */
NdArray *array_push_struct(lua_State *L, const ArrayStruct *s, DType dt, int ndim);
/* Recompute nitems and ARR_* flags after shape/strides change. */
void array_update_flags(NdArray *a);
/* 'C', 'F' or 'A' as in Numba's layouts */
char array_layout(const NdArray *a);
/* Element at byte address p as a Lua number; store a Lua value there (raises
** on a value that does not fit, naming argument argn). */
void array_push_elem(lua_State *L, DType dt, const void *p);
void array_store_elem(lua_State *L, DType dt, void *p, int idx, int argn);

/* Plain Lua tables as arrays (for compiled-function arguments).
** array_table_dtype: the dtype lumba.array would infer for the (nested)
** table at idx (int64 for integers, float64 if any float, bool for all
** booleans), or -1 when it is not a table of numbers/booleans of regular shape.
** array_from_table: push a new C-contiguous array of dtype dt holding a copy
** of the table's elements (nested tables give N-d); raises on ragged or
** non-numeric tables and on values that do not fit dt.
** array_copy_back: write a's elements back into the table at tbl_idx
** (t[i] for 1-D, t[i][j]... for N-d; missing inner tables are created). */
int array_table_dtype(lua_State *L, int idx);
NdArray *array_from_table(lua_State *L, int idx, DType dt);
void array_copy_back(lua_State *L, int tbl_idx, const NdArray *a);

void array_open(lua_State *L);  /* registers the metatable and fills the table on top */
/* after array_open: the operator metamethods (array_ufunc.c) and
** binop/unop/where/copyto into the table on top */
void array_ufunc_open(lua_State *L);
/* after array_open: the reduction methods (array_reduce.c) into the
** arrays' method table, and lumba.npy.save/load (array_npy.c) into the
** table on top */
void array_reduce_open(lua_State *L);
void array_npy_open(lua_State *L);


/* a:slice's selectors, the arguments at 2.., over an array of ndim axes
** with shape and byte strides: the view's axes in sh/st (returns their
** number) and its first element's byte offset in *offset (array_methods.c;
** device arrays use it too) */
int array_parse_slice(lua_State *L, int ndim, const int64_t *shape, const int64_t *strides, int64_t *offset,
                      int64_t sh[LM_MAXDIM], int64_t st[LM_MAXDIM]);
/* a:transpose's permutation from the arguments at 2.. (reversed when none) */
void array_parse_perm(lua_State *L, int ndim, int perm[LM_MAXDIM]);

#endif
