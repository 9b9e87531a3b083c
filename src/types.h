/*
** types.h — lumba's types: scalar singletons, interned arrays and tuples.
** Interned types live in a TypeTable that outlives compilations (signature
** keys point at them), so two equal types are always the same pointer.
*/
#ifndef types_h
#define types_h

#include <stdbool.h>

#include "arena.h"
#include "array.h"

typedef enum TypeKind {
  TY_NONE,    /* Python's None: functions without a return value */
  TY_SCALAR,  /* bool, ints, floats: the dtype says which */
  TY_ARRAY,   /* array(dtype, ndim, layout) */
  TY_TUPLE,   /* heterogeneous tuple of any types */
  TY_DTYPE,   /* a dtype as a value (np.float64, a.dtype, np.dtype('f4')): the dtype says which, a compile-time value */
  TY_CLASS,   /* an instance of a @jitclass (cls): a MemInfo* whose buffer holds the fields (jitclass.h) */
  TY_RECORD,  /* one element of a record array (record.h), a view: the dtype says which record; a pointer to the element */
  TY_CPTR,    /* a C pointer of a @cfunc's signature: CPointer(dtype), or voidptr (layout 'v'); an address held as int64 */
  TY_OPAQUE,  /* an object of a library with no run-time value (numba.cuda's GridGroup): methods in the registry under .methods */
  TY_OPTIONAL,  /* a number or None (Numba's OptionalType(int64)): the dtype says which number; {value, i1 is-set} */
} TypeKind;

typedef struct Type Type;
struct Type {
  TypeKind kind;
  DType dtype;       // scalar: which; array: element type
  int ndim;          // array
  char layout;       // array: 'C', 'F' or 'A'
  int nelems;        // tuple
  Type **elems;      // tuple
  struct ClassInfo *cls;  // class
  const char *name;  // "float64", "float64[:, ::1]", "(int64, float64)"
  const char *methods;  // opaque: the registry module of its methods ("numba.cuda.cg.GridGroup.")
  Type *next;        // intern chain
};

typedef struct TypeTable {
  Arena arena;       // long-lived: freed with the Lua state
  Type *arrays;      // interned arrays
  Type *tuples;      // interned tuples
} TypeTable;

void ty_table_init(TypeTable *T);
void ty_table_free(TypeTable *T);

extern Type ty_none;
Type *ty_scalar(DType dt);      /* the singleton for a dtype */
#define ty_bool (ty_scalar(DT_BOOL))
#define ty_int64 (ty_scalar(DT_INT64))
#define ty_float64 (ty_scalar(DT_FLOAT64))
Type *ty_dtype(DType dt);       /* the singleton "dtype(float64)" */
Type *ty_cptr(DType dt);        /* the singleton "CPointer(float64)" */
Type *ty_optional(DType dt);    /* the singleton "OptionalType(int64)": a number or None */
extern Type ty_voidptr;         /* "voidptr": a pointer to memory of no dtype */
extern Type ty_grid_group;      /* "GridGroup": cuda.cg.this_grid() inside kernels */
Type *ty_array(TypeTable *T, DType dt, int ndim, char layout);
Type *ty_tuple(TypeTable *T, Type **elems, int n);

/* A @jitclass: its fields (in the instance's buffer at offsets[i]), its
** methods (defs of the module named def_names[i]: "Bag__increment") and
** properties. Made by core._jitclass (jitclass.c), lives with the state. */
typedef struct ClassInfo {
  const char *name;
  int nfields;
  const char **fnames;
  Type **ftypes;
  int64_t *offsets;
  bool *fopt;             // optional(...): may hold None (a number: a flag byte after its value, 0 = None)
  int64_t size;           // bytes of an instance's buffer
  int nmethods;           // __init__ included
  const char **mnames;    // "increment", "size", "__init__"
  const char **mdefs;     // the defs: "Bag__increment"
  bool *mprops;           // an @property
  Type type;              // TY_CLASS, .cls = this
} ClassInfo;
int ty_class_field(const ClassInfo *c, const char *name);   /* its index, or -1 */
/* the byte offset of element k of a tuple field of numbers (k == nelems:
** its size), each element at its natural alignment */
int64_t ty_tuple_offset(const Type *t, int k);
int ty_class_method(const ClassInfo *c, const char *name);  /* its index, or -1 */

bool ty_is_bool(const Type *t);
bool ty_is_int(const Type *t);      /* signed or unsigned integer (not bool) */
bool ty_is_signed(const Type *t);
bool ty_is_float(const Type *t);
/* complex64 or complex128 (inline: the dispatcher asks it of every argument) */
static inline bool ty_is_complex(const Type *t) {
  return t->kind == TY_SCALAR && (t->dtype == DT_COMPLEX64 || t->dtype == DT_COMPLEX128);
}
Type *ty_complex_part(const Type *t);  /* complex64 -> float32, complex128 -> float64 */
Type *ty_complex_of(const Type *t);    /* float32, complex64 -> complex64; other numbers -> complex128 */
bool ty_is_number(const Type *t);   /* bool, int or float */
bool ty_is_array(const Type *t);
int ty_bits(const Type *t);         /* scalar width in bits (bool: 1) */

/* Numba's rules: result type of arithmetic on two numbers (+ - * // % **),
** of true division, and the unified type of a variable assigned both.
** ty_unify returns NULL when the two cannot unify. */
Type *ty_arith(const Type *a, const Type *b);
Type *ty_truediv(const Type *a, const Type *b);
Type *ty_unify(TypeTable *T, Type *a, Type *b);

/* Parse Numba's signature syntax "float64(float64[:], int64)" (also
** "(float64[:, ::1], int64)" without a return type: *ret = NULL). Returns
** the number of arguments, or -1 with a message in err. */
int ty_parse_signature(TypeTable *T, const char *s, Type **ret, Type **args,
                       int maxargs, char *err, size_t errlen);
/* "int64, float64[:]": the names of n argument types, for messages */
const char *ty_args_text(Type *const *args, int n, char *buf, size_t cap);
/* A short name for messages: "float64[:]" for any 1-d float64 array. */
const char *ty_display(const Type *t, char *buf, size_t len);

#endif
