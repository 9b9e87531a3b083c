/*
** types.c — interned types, Numba's arithmetic typing rules, unification,
** signature strings.
*/
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "rt.h"
#include "types.h"
#include "record.h"
#include <pthread.h>

Type ty_none = {.kind = TY_NONE, .name = "none"};

static Type scalars[DT__MAX] = {
#define DTYPE(e, nm, ctype, sz, k) {.kind = TY_SCALAR, .dtype = DT_##e, .name = nm},
#include "dtype.def"
#undef DTYPE
};

static Type dtypes[DT__MAX] = {
#define DTYPE(e, nm, ctype, sz, k) {.kind = TY_DTYPE, .dtype = DT_##e, .name = "dtype(" nm ")"},
#include "dtype.def"
#undef DTYPE
};

static Type cptrs[DT__MAX] = {
#define DTYPE(e, nm, ctype, sz, k) {.kind = TY_CPTR, .dtype = DT_##e, .name = "CPointer(" nm ")"},
#include "dtype.def"
#undef DTYPE
};

static Type optionals[DT__MAX] = {
#define DTYPE(e, nm, ctype, sz, k) {.kind = TY_OPTIONAL, .dtype = DT_##e, .name = "OptionalType(" nm ")"},
#include "dtype.def"
#undef DTYPE
};

Type ty_voidptr = {.kind = TY_CPTR, .dtype = DT_UINT8, .layout = 'v', .name = "voidptr"};
Type ty_grid_group = {.kind = TY_OPAQUE, .name = "GridGroup", .methods = "numba.cuda.cg.GridGroup."};

Type *ty_cptr(DType dt) {
  LM_ASSERT(dt >= 0 && dt < DT__COUNT);
  return &cptrs[dt];
}

Type *ty_optional(DType dt) {
  LM_ASSERT(dt >= 0 && dt < DT__COUNT);
  return &optionals[dt];
}

/* a record's rows, made at their first use: its value is a view of one
** element, TY_RECORD (a Lua state compiles in one thread, but two states may
** ask at once: a lock) */
static pthread_mutex_t record_lock = PTHREAD_MUTEX_INITIALIZER;
static void record_rows(DType dt) {
  const RecordInfo *r = record_info(dt);
  LM_ASSERT(r != NULL);
  pthread_mutex_lock(&record_lock);
  if (scalars[dt].name == NULL) {
    dtypes[dt] = (Type){.kind = TY_DTYPE, .dtype = dt, .name = r->dtype_name};
    scalars[dt] = (Type){.kind = TY_RECORD, .dtype = dt, .name = r->name};
  }
  pthread_mutex_unlock(&record_lock);
}

Type *ty_dtype(DType dt) {
  LM_ASSERT(dt >= 0 && dt < DT__MAX);
  if (dtype_is_record(dt) && __atomic_load_n(&scalars[dt].name, __ATOMIC_ACQUIRE) == NULL) record_rows(dt);
  return &dtypes[dt];
}

Type *ty_scalar(DType dt) {
  LM_ASSERT(dt >= 0 && dt < DT__MAX);
  if (dtype_is_record(dt) && __atomic_load_n(&scalars[dt].name, __ATOMIC_ACQUIRE) == NULL) record_rows(dt);
  return &scalars[dt];
}

void ty_table_init(TypeTable *T) {
  arena_init(&T->arena);
  T->arrays = T->tuples = NULL;
}

void ty_table_free(TypeTable *T) {
  arena_free(&T->arena);
  T->arrays = T->tuples = NULL;
}

static const char *array_name(Arena *a, DType dt, int ndim, char layout, bool show_layout) {
  size_t cap = strlen(dtype_names[dt]) + 8 * LM_MAXDIM + 4;  /* a record's name is long */
  char *buf = arena_alloc(a, cap);
  size_t n = (size_t)snprintf(buf, cap, "%s[", dtype_names[dt]);
  for (int i = 0; i < ndim; i++) {
    bool unit = show_layout && ((layout == 'C' && i == ndim - 1) || (layout == 'F' && i == 0));
    n += (size_t)snprintf(buf + n, cap - n, "%s%s", i ? ", " : "", unit ? "::1" : ":");
  }
  snprintf(buf + n, cap - n, "]");
  return buf;
}

Type *ty_array(TypeTable *T, DType dt, int ndim, char layout) {
  if (ndim <= 1 && layout == 'F') layout = 'C';  /* 1-d: C and F are the same */
  for (Type *t = T->arrays; t; t = t->next)
    if (t->dtype == dt && t->ndim == ndim && t->layout == layout) return t;
  Type *t = arena_alloc(&T->arena, sizeof(Type));
  t->kind = TY_ARRAY;
  t->dtype = dt;
  t->ndim = ndim;
  t->layout = layout;
  t->name = array_name(&T->arena, dt, ndim, layout, true);
  t->next = T->arrays;
  T->arrays = t;
  return t;
}

Type *ty_tuple(TypeTable *T, Type **elems, int n) {
  for (Type *t = T->tuples; t; t = t->next) {
    if (t->nelems != n) continue;
    int i = 0;
    while (i < n && t->elems[i] == elems[i]) i++;
    if (i == n) return t;
  }
  Type *t = arena_alloc(&T->arena, sizeof(Type));
  t->kind = TY_TUPLE;
  t->nelems = n;
  t->elems = arena_alloc(&T->arena, sizeof(Type *) * (size_t)(n ? n : 1));
  memcpy(t->elems, elems, sizeof(Type *) * (size_t)n);
  char buf[512];
  size_t len = (size_t)snprintf(buf, sizeof buf, "(");
  for (int i = 0; i < n && len < sizeof buf; i++)
    len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i ? ", " : "", elems[i]->name);
  if (len < sizeof buf) snprintf(buf + len, sizeof buf - len, n == 1 ? ",)" : ")");
  t->name = arena_strdup(&T->arena, buf);
  t->next = T->tuples;
  T->tuples = t;
  return t;
}

int ty_class_field(const ClassInfo *c, const char *name) {
  for (int i = 0; i < c->nfields; i++)
    if (strcmp(c->fnames[i], name) == 0) return i;
  return -1;
}

int ty_class_method(const ClassInfo *c, const char *name) {
  for (int i = 0; i < c->nmethods; i++)
    if (strcmp(c->mnames[i], name) == 0) return i;
  return -1;
}

bool ty_is_bool(const Type *t) { return t->kind == TY_SCALAR && t->dtype == DT_BOOL; }
bool ty_is_int(const Type *t) {
  return t->kind == TY_SCALAR && (dtype_kinds[t->dtype] == 'i' || dtype_kinds[t->dtype] == 'u');
}
bool ty_is_signed(const Type *t) { return t->kind == TY_SCALAR && dtype_kinds[t->dtype] == 'i'; }
bool ty_is_float(const Type *t) { return t->kind == TY_SCALAR && dtype_kinds[t->dtype] == 'f'; }
Type *ty_complex_part(const Type *t) { return ty_scalar(t->dtype == DT_COMPLEX64 ? DT_FLOAT32 : DT_FLOAT64); }
Type *ty_complex_of(const Type *t) {
  return ty_scalar(t->dtype == DT_FLOAT32 || t->dtype == DT_COMPLEX64 ? DT_COMPLEX64 : DT_COMPLEX128);
}
bool ty_is_number(const Type *t) { return t->kind == TY_SCALAR; }
bool ty_is_array(const Type *t) { return t->kind == TY_ARRAY; }
int ty_bits(const Type *t) { return t->dtype == DT_BOOL ? 1 : dtype_sizes[t->dtype] * 8; }

/* Numba types integer arithmetic in 64 bits: uint64 only when both sides are
** unsigned, float64 when a signed value meets a uint64 (no common integer). */
Type *ty_arith(const Type *a, const Type *b) {
  if (!ty_is_number(a) || !ty_is_number(b)) return NULL;
  if (ty_is_complex(a) || ty_is_complex(b)) {  /* the parts' type decides: complex64 only with float32 parts */
    Type *r = ty_arith(ty_is_complex(a) ? ty_complex_part(a) : a, ty_is_complex(b) ? ty_complex_part(b) : b);
    return ty_complex_of(r);
  }
  if (ty_is_float(a) || ty_is_float(b)) {
    /* two floats: the wider (float16 with float16 stays float16, numba-cuda's);
    ** a float with an int goes to float64 */
    if (ty_is_float(a) && ty_is_float(b)) return dtype_sizes[a->dtype] >= dtype_sizes[b->dtype] ? (Type *)a : (Type *)b;
    return ty_float64;
  }
  bool ua = dtype_kinds[a->dtype] == 'u', ub = dtype_kinds[b->dtype] == 'u';
  if (ua && ub) return ty_scalar(DT_UINT64);
  if ((ua && a->dtype == DT_UINT64) || (ub && b->dtype == DT_UINT64)) return ty_float64;
  return ty_int64;
}

Type *ty_truediv(const Type *a, const Type *b) {
  if (!ty_is_number(a) || !ty_is_number(b)) return NULL;
  if (ty_is_complex(a) || ty_is_complex(b)) return ty_arith(a, b);
  if (ty_is_float(a) && ty_is_float(b)) return ty_arith(a, b);  /* float16 / float16 stays float16 */
  return ty_float64;
}

int64_t ty_tuple_offset(const Type *t, int k) {
  int64_t off = 0;
  for (int i = 0; i <= k && i < t->nelems; i++) {
    int64_t sz = dtype_sizes[t->elems[i]->dtype];
    off = (off + sz - 1) / sz * sz;
    if (i < k) off += sz;
  }
  return off;
}

Type *ty_unify(TypeTable *T, Type *a, Type *b) {
  if (a == b) return a;
  if (a == NULL) return b;
  if (b == NULL) return a;
  if (a->kind == TY_SCALAR && b->kind == TY_SCALAR) {
    if (ty_is_bool(a)) return ty_is_bool(b) ? a : ty_arith(ty_int64, b);
    if (ty_is_bool(b)) return ty_arith(a, ty_int64);
    if (ty_is_complex(a) || ty_is_complex(b)) return ty_arith(a, b);
    if (ty_is_float(a) || ty_is_float(b)) return ty_float64;
    return ty_arith(a, b);
  }
  if (a->kind == TY_ARRAY && b->kind == TY_ARRAY && a->dtype == b->dtype && a->ndim == b->ndim)
    return ty_array(T, a->dtype, a->ndim, 'A');
  /* None and a number (x = None ... x = 5): Optional(number), as Numba types it */
  bool a_num = a->kind == TY_SCALAR && !ty_is_complex(a), b_num = b->kind == TY_SCALAR && !ty_is_complex(b);
  if ((a->kind == TY_NONE && b_num) || (b->kind == TY_NONE && a_num)) return ty_optional((a_num ? a : b)->dtype);
  if (a->kind == TY_OPTIONAL || b->kind == TY_OPTIONAL) {
    if (a->kind == TY_NONE || b->kind == TY_NONE) return a->kind == TY_NONE ? b : a;
    Type *x = a->kind == TY_OPTIONAL ? ty_scalar(a->dtype) : a, *y = b->kind == TY_OPTIONAL ? ty_scalar(b->dtype) : b;
    if (x->kind != TY_SCALAR || y->kind != TY_SCALAR || ty_is_complex(x) || ty_is_complex(y)) return NULL;
    return ty_optional(ty_unify(T, x, y)->dtype);
  }
  /* None and an instance: the instance's type, NULL being None (a @jitclass's optional(node_type)) */
  if (a->kind == TY_NONE && b->kind == TY_CLASS) return b;
  if (b->kind == TY_NONE && a->kind == TY_CLASS) return a;
  if (a->kind == TY_TUPLE && b->kind == TY_TUPLE && a->nelems == b->nelems) {
    Type *el[LM_MAXARGS];
    if (a->nelems > LM_MAXARGS) return NULL;
    for (int i = 0; i < a->nelems; i++) {
      el[i] = ty_unify(T, a->elems[i], b->elems[i]);
      if (el[i] == NULL) return NULL;
    }
    return ty_tuple(T, el, a->nelems);
  }
  return NULL;
}

const char *ty_args_text(Type *const *args, int n, char *buf, size_t cap) {
  size_t k = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && k < cap; i++) k += (size_t)snprintf(buf + k, cap - k, "%s%s", i ? ", " : "", args[i]->name);
  return buf;
}

const char *ty_display(const Type *t, char *buf, size_t len) {
  if (t == NULL) {
    snprintf(buf, len, "<unknown>");
  } else if (t->kind == TY_ARRAY) {
    size_t n = (size_t)snprintf(buf, len, "%s[", dtype_names[t->dtype]);
    for (int i = 0; i < t->ndim && n < len; i++)
      n += (size_t)snprintf(buf + n, len - n, "%s:", i ? ", " : "");
    if (n < len) snprintf(buf + n, len - n, "]");
  } else {
    snprintf(buf, len, "%s", t->name);
  }
  return buf;
}

/* ---- signature strings ---- */

typedef struct SigParser {
  TypeTable *T;
  const char *p;
  char *err;
  size_t errlen;
} SigParser;

static void skip_ws(SigParser *P) {
  while (isspace((unsigned char)*P->p)) P->p++;
}

static const struct { const char *alias; DType dt; } dtype_aliases[] = {
    {"float", DT_FLOAT64}, {"double", DT_FLOAT64}, {"f8", DT_FLOAT64}, {"f4", DT_FLOAT32},
    {"int", DT_INT64}, {"intp", DT_INT64}, {"i8", DT_INT64}, {"i4", DT_INT32},
    {"i2", DT_INT16}, {"i1", DT_INT8}, {"u8", DT_UINT64}, {"u4", DT_UINT32},
    {"u2", DT_UINT16}, {"u1", DT_UINT8}, {"boolean", DT_BOOL}, {"bool_", DT_BOOL},
    {"b1", DT_BOOL}, {"uintp", DT_UINT64}, {"intc", DT_INT32}, {"uintc", DT_UINT32},
    {"complex", DT_COMPLEX128}, {"c16", DT_COMPLEX128}, {"c8", DT_COMPLEX64}, {"f2", DT_FLOAT16}, {"half", DT_FLOAT16},
};

static Type *parse_type(SigParser *P);

static Type *parse_array_suffix(SigParser *P, DType dt) {
  /* '[' dim (',' dim)* ']' where dim is ':' or '::1' */
  int ndim = 0, unit = -1;
  P->p++;
  for (;;) {
    skip_ws(P);
    if (strncmp(P->p, "::1", 3) == 0) {
      if (unit >= 0) goto bad;
      unit = ndim;
      P->p += 3;
    } else if (*P->p == ':') {
      P->p++;
    } else {
      goto bad;
    }
    ndim++;
    skip_ws(P);
    if (*P->p == ',') { P->p++; continue; }
    if (*P->p == ']') { P->p++; break; }
    goto bad;
  }
  if (ndim > LM_MAXDIM) {
    snprintf(P->err, P->errlen, "arrays have at most %d dimensions", LM_MAXDIM);
    return NULL;
  }
  char layout = unit < 0 ? 'A' : unit == ndim - 1 ? 'C' : unit == 0 ? 'F' : 0;
  if (!layout) goto bad;
  return ty_array(P->T, dt, ndim, layout);
bad:
  snprintf(P->err, P->errlen, "bad array type near '%.20s'", P->p);
  return NULL;
}

/* type -> NAME ('[' dims ']')? | '(' type (',' type)* ')' */
static Type *parse_type(SigParser *P) {
  skip_ws(P);
  if (*P->p == '(') {
    Type *el[LM_MAXARGS];
    int n = 0;
    P->p++;
    skip_ws(P);
    while (*P->p != ')') {
      if (n == LM_MAXARGS) { snprintf(P->err, P->errlen, "tuple too long"); return NULL; }
      if ((el[n++] = parse_type(P)) == NULL) return NULL;
      skip_ws(P);
      if (*P->p == ',') P->p++;
      else if (*P->p != ')') { snprintf(P->err, P->errlen, "expected ',' or ')' near '%.20s'", P->p); return NULL; }
      skip_ws(P);
    }
    P->p++;
    return ty_tuple(P->T, el, n);
  }
  const char *s = P->p;
  while (isalnum((unsigned char)*P->p) || *P->p == '_') P->p++;
  size_t n = (size_t)(P->p - s);
  if (n == 0) { snprintf(P->err, P->errlen, "expected a type near '%.20s'", s); return NULL; }
  char name[32];
  if (n >= sizeof name) n = sizeof name - 1;
  memcpy(name, s, n);
  name[n] = '\0';
  if (strcmp(name, "void") == 0 || strcmp(name, "none") == 0) return &ty_none;
  if (strcmp(name, "voidptr") == 0) return &ty_voidptr;
  if (strcmp(name, "CPointer") == 0) {  /* CPointer(float64): a @cfunc's pointer argument */
    skip_ws(P);
    if (*P->p != '(') { snprintf(P->err, P->errlen, "CPointer needs its element type: CPointer(float64)"); return NULL; }
    P->p++;
    Type *el = parse_type(P);
    if (el == NULL) return NULL;
    skip_ws(P);
    if (el->kind != TY_SCALAR || *P->p != ')') {
      snprintf(P->err, P->errlen, "CPointer takes one scalar type, as CPointer(float64)");
      return NULL;
    }
    P->p++;
    return ty_cptr(el->dtype);
  }
  int dt = -1;
  if (strcmp(name, "Record") == 0 && *P->p == '(') {  /* a record dtype by its Numba name (from_dtype) */
    int depth = 0;
    const char *e = P->p;
    do depth += *e == '(' ? 1 : *e == ')' ? -1 : 0;
    while (*++e && depth > 0);
    if (depth != 0 || (dt = record_by_name(s, (size_t)(e - s))) < 0) {
      snprintf(P->err, P->errlen, "unknown record type '%.*s' (make its dtype first)", (int)(e - s), s);
      return NULL;
    }
    P->p = e;
  }
  for (int i = 0; i < DT__COUNT && dt < 0; i++)
    if (strcmp(name, dtype_names[i]) == 0) dt = i;
  for (size_t i = 0; i < lm_countof(dtype_aliases) && dt < 0; i++)
    if (strcmp(name, dtype_aliases[i].alias) == 0) dt = (int)dtype_aliases[i].dt;
  if (dt < 0) { snprintf(P->err, P->errlen, "unknown type '%s'", name); return NULL; }
  skip_ws(P);
  if (*P->p == '[') return parse_array_suffix(P, (DType)dt);
  return ty_scalar((DType)dt);
}

int ty_parse_signature(TypeTable *T, const char *s, Type **ret, Type **args,
                       int maxargs, char *err, size_t errlen) {
  SigParser P = {T, s, err, errlen};
  *ret = NULL;
  skip_ws(&P);
  if (*P.p != '(') {
    if ((*ret = parse_type(&P)) == NULL) return -1;
    skip_ws(&P);
    if (*P.p != '(') { snprintf(err, errlen, "expected '(' after the return type in '%s'", s); return -1; }
  }
  P.p++;
  int n = 0;
  skip_ws(&P);
  while (*P.p != ')') {
    if (n == maxargs) { snprintf(err, errlen, "too many arguments in '%s'", s); return -1; }
    if ((args[n++] = parse_type(&P)) == NULL) return -1;
    skip_ws(&P);
    if (*P.p == ',') P.p++;
    else if (*P.p != ')') { snprintf(err, errlen, "expected ',' or ')' in '%s'", s); return -1; }
    skip_ws(&P);
  }
  P.p++;
  skip_ws(&P);
  if (*P.p) { snprintf(err, errlen, "unexpected '%s' after the signature", P.p); return -1; }
  return n;
}

/* 8-byte result slots a value of t takes (dispatch.h) */
int ty_slots(const Type *t) {
  switch (t->kind) {
    case TY_NONE: case TY_OPAQUE: return 0;
    case TY_SCALAR: return dtype_kinds[t->dtype] == 'c' ? 2 : 1;  /* complex: real, imaginary */
    case TY_DTYPE: case TY_CPTR: case TY_CLASS: case TY_RECORD: return 1;
    case TY_OPTIONAL: return 2;  /* is-set, the number */
    case TY_ARRAY: return RT_ARRAY_SLOTS;
    case TY_TUPLE: {
      int n = 0;
      for (int i = 0; i < t->nelems; i++) n += ty_slots(t->elems[i]);
      return n;
    }
  }
  return 0;
}
