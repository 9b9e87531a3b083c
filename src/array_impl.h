/*
** array_impl.h — what the files of the array stage share among themselves
** (array.c core and userdata, array_new.c constructors, array_methods.c,
** array_print.c, random.c). Other stages include array.h only.
*/
#ifndef array_impl_h
#define array_impl_h

#include <stdbool.h>

#include <lua.h>

#include "array.h"

/* A number read from an element, before it is cast to another dtype. */
typedef struct Num {
  char kind;   // 'i' signed (bool too), 'u' unsigned, 'f' float, 'c' complex
  int64_t i;   // value for 'i'; the bits of the value for 'u'
  double f;    // value for 'f'; the real part for 'c'
  double im;   // the imaginary part for 'c'
} Num;

/* Visits every element of an array in C (row-major) order. */
typedef struct ArrayIter {
  char *p;                   // current element
  int ndim;
  int64_t left;              // elements not yet returned
  int64_t idx[LM_MAXDIM];    // current index
  const int64_t *shape, *strides;
} ArrayIter;

void array_iter_init(ArrayIter *it, const NdArray *a);
/* The next element's address, or NULL after the last. */
char *array_iter_next(ArrayIter *it);

/* New array (zeroed) of order 'C' or 'F' on the stack. Bad shapes and
** out-of-memory raise; argn > 0 makes them luaL_argerror on that argument. */
NdArray *array_new(lua_State *L, DType dt, int ndim, const int64_t *shape,
                   char order, int argn);
/* Raises for a negative dimension or when the item size times the non-zero
** dimensions passes 2^63 - 1 (NumPy's rule); returns the size in bytes. */
int64_t array_check_size(lua_State *L, DType dt, int ndim, const int64_t *shape, int argn);
/* Shape argument at idx: an integer or a table of integers; returns ndim. */
int array_read_shape(lua_State *L, int idx, int64_t *shape, int argn);
/* Push "{2, 3}" for messages. */
void array_push_shape(lua_State *L, int ndim, const int64_t *shape);
/* Push a view on base's buffer (one more MemInfo reference). */
NdArray *array_push_view(lua_State *L, const NdArray *base, int ndim,
                         const int64_t *shape, const int64_t *strides, char *data);
/* 1-based Lua index i (negative counts from the end) to 0-based, raising
** "index 6 out of bounds for axis 1 with size 5" (argerror if argn > 0). */
int64_t array_norm_index(lua_State *L, lua_Integer i, int64_t n, int axis, int argn);
/* An open array at idx (closed raises); checks writability when write. */
NdArray *array_checkw(lua_State *L, int idx, bool write);

/* Element conversions. array_load reads any dtype; array_cast stores with
** astype's rules (integers wrap, floats truncate toward zero, NaN or a float
** beyond 64 bits raises). */
Num array_load(DType dt, const void *p);
/* min/max order (array_methods.c): true when v should replace best in a min
   (want < 0) or max (want > 0); a NaN wins, complex by real then imaginary part */
bool array_num_better(Num v, Num best, int want);
void array_cast(lua_State *L, DType dt, void *p, Num v);
/* dst[...] = src[...] in C order with astype's casts; sizes must agree. */
void array_assign(lua_State *L, NdArray *dst, const NdArray *src);
/* Fill every element of a with the Lua value at idx (store rules). */
void array_fill_value(lua_State *L, NdArray *a, int idx, int argn);

/* array_arith.c: r[i] = a[i] op b[i] over n elements, p = {a, b, r} and
** st their strides in bytes, for op '+', '-', '*', '/' on dtype dt where a
** typed loop exists (NULL otherwise) */
typedef void (*ArithLoop)(char *const *p, const int64_t *st, int64_t n);
ArithLoop array_arith_loop(char op, DType dt);

/* What a record array does that others do not (record_lua.c): reached
** through this table, which record_open fills, so that the array files do
** not depend on record_lua.c (it depends on them). NULL until then, and
** no record array exists before it. */
typedef struct RecordHooks {
  int (*dtype_test)(lua_State *L, int idx);  /* the record dtype of a lumba.dtype at idx, or -1 */
  void (*push_dtype)(lua_State *L, int dt);
  void (*push_elem)(lua_State *L, int dt, const char *p);
  void (*store_elem)(lua_State *L, int dt, char *p, int idx, int argn);
  int (*index)(lua_State *L, const NdArray *a, const char *key);
  int (*newindex)(lua_State *L, NdArray *a, const char *key, int vidx);
  int (*tostring)(lua_State *L, const NdArray *a);
  bool (*method_ok)(const char *name);
  l_noret (*unsupported)(lua_State *L, int dt, const char *what);
} RecordHooks;
extern const RecordHooks *array_records;

/* pieces of the metatable and module table, filled by each file */
void array_methods_reg(lua_State *L);  /* methods into the table on top */
void array_ctor_open(lua_State *L);    /* constructors into the module table on top */
int array_tostring(lua_State *L);      /* __tostring */

#endif
