/*
** record_lua.c — record dtypes from Lua: lumba.dtype{{"x", "float64"}, ...}
** (a "lumba.dtype" userdata naming one record dtype of record.c's table),
** and what a record array does that other arrays do not: a[i] is a 0-d
** view of element i, a.x (or a:field("x")) a view of one field, r.x of a
** 0-d record the field's value; stores go through the same paths. An
** element copied out (totable, get) is a table {x = ..., n = ...}.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "array.h"
#include "array_impl.h"
#include "complex_lua.h"
#include "record.h"
#include "record_lua.h"

#define DTYPE_MT "lumba.dtype"
#define DTYPE_TAG UDATA_TAG('l', 'd', 't', 'y')

typedef struct RecDtype {
  int dt;
  uint32_t tag;
} RecDtype;

int record_dtype_test(lua_State *L, int idx) {
  RecDtype *d = UDATA_TEST(L, idx, RecDtype, DTYPE_MT, DTYPE_TAG);
  return d ? d->dt : -1;
}

void record_push_dtype(lua_State *L, int dt) {
  RecDtype *d = lua_newuserdatauv(L, sizeof *d, 0);
  d->dt = dt;
  d->tag = DTYPE_TAG;
  luaL_setmetatable(L, DTYPE_MT);
}

/* NumPy's code of a field's type in a repr: '?' for bool, 'i1' without '|' */
static void add_format(luaL_Buffer *b, int dt);

static void add_list(luaL_Buffer *b, const RecordInfo *r) {
  luaL_addchar(b, '[');
  for (int i = 0; i < r->nfields; i++) {
    if (i) luaL_addstring(b, ", ");
    luaL_addstring(b, "('");
    luaL_addstring(b, r->names[i]);
    luaL_addstring(b, "', ");
    add_format(b, r->types[i]);
    luaL_addchar(b, ')');
  }
  luaL_addchar(b, ']');
}

/* true when the offsets are NumPy's own for the fields in this order */
static bool natural(const RecordInfo *r) {
  int64_t end = 0, align = 1;
  for (int i = 0; i < r->nfields; i++) {
    int64_t fa = r->aligned ? dtype_alignment(r->types[i]) : 1;
    end = (end + fa - 1) / fa * fa;
    if (r->offsets[i] != end) return false;
    end += dtype_sizes[r->types[i]];
    if (fa > align) align = fa;
  }
  return r->itemsize == (end + align - 1) / align * align;
}

/* NumPy's str(dtype): [('x', '<f8'), ...] or its dict form */
static void add_descr(luaL_Buffer *b, const RecordInfo *r) {
  if (natural(r) && !r->aligned) {
    add_list(b, r);
    return;
  }
  char num[32];
  luaL_addstring(b, "{'names': [");
  for (int i = 0; i < r->nfields; i++) {
    if (i) luaL_addstring(b, ", ");
    luaL_addchar(b, '\'');
    luaL_addstring(b, r->names[i]);
    luaL_addchar(b, '\'');
  }
  luaL_addstring(b, "], 'formats': [");
  for (int i = 0; i < r->nfields; i++) {
    if (i) luaL_addstring(b, ", ");
    add_format(b, r->types[i]);
  }
  luaL_addstring(b, "], 'offsets': [");
  for (int i = 0; i < r->nfields; i++) {
    snprintf(num, sizeof num, "%s%lld", i ? ", " : "", (long long)r->offsets[i]);
    luaL_addstring(b, num);
  }
  snprintf(num, sizeof num, "], 'itemsize': %lld", (long long)r->itemsize);
  luaL_addstring(b, num);
  if (r->aligned) luaL_addstring(b, ", 'aligned': True");
  luaL_addchar(b, '}');
}

static void add_format(luaL_Buffer *b, int dt) {
  const RecordInfo *r = record_info(dt);
  if (r) {
    add_descr(b, r);
    return;
  }
  const char *c = dtype_descr_code(dt);
  luaL_addchar(b, '\'');
  if (dt == DT_BOOL) luaL_addchar(b, '?');
  else luaL_addstring(b, c[0] == '|' ? c + 1 : c);
  luaL_addchar(b, '\'');
}

/* tostring(rec): NumPy's repr, dtype([('x', '<f8'), ('n', '<i4')], align=True) */
static int dtype_tostring(lua_State *L) {
  const RecordInfo *r = record_info(luaL_checkudata(L, 1, DTYPE_MT) ? record_dtype_test(L, 1) : -1);
  if (r == NULL) return luaL_error(L, "not a record dtype");
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  luaL_addstring(&b, "dtype(");
  if (r->aligned && natural(r)) {
    add_list(&b, r);
    luaL_addstring(&b, ", align=True");
  } else add_descr(&b, r);
  luaL_addchar(&b, ')');
  luaL_pushresult(&b);
  return 1;
}

static void push_dt(lua_State *L, int dt) {
  if (dtype_is_record(dt)) record_push_dtype(L, dt);
  else lua_pushstring(L, dtype_names[dt]);
}

/* rec.names, rec.fields (name -> {dtype =, offset =}), rec.itemsize,
** rec.alignment, rec.isalignedstruct, rec.kind ('V'), rec.descr (str()) */
static int dtype_index(lua_State *L) {
  const RecordInfo *r = record_info(record_dtype_test(L, 1));
  if (r == NULL) return luaL_error(L, "not a record dtype");
  const char *k = luaL_checkstring(L, 2);
  if (strcmp(k, "names") == 0) {
    lua_createtable(L, r->nfields, 0);
    for (int i = 0; i < r->nfields; i++) {
      lua_pushstring(L, r->names[i]);
      lua_rawseti(L, -2, i + 1);
    }
  } else if (strcmp(k, "fields") == 0) {
    lua_createtable(L, 0, r->nfields);
    for (int i = 0; i < r->nfields; i++) {
      lua_createtable(L, 0, 2);
      push_dt(L, r->types[i]);
      lua_setfield(L, -2, "dtype");
      lua_pushinteger(L, r->offsets[i]);
      lua_setfield(L, -2, "offset");
      lua_setfield(L, -2, r->names[i]);
    }
  } else if (strcmp(k, "itemsize") == 0) lua_pushinteger(L, r->itemsize);
  else if (strcmp(k, "alignment") == 0) lua_pushinteger(L, r->alignment);
  else if (strcmp(k, "isalignedstruct") == 0) lua_pushboolean(L, r->aligned);
  else if (strcmp(k, "kind") == 0) lua_pushliteral(L, "V");
  else if (strcmp(k, "name") == 0) lua_pushstring(L, r->name);
  else if (strcmp(k, "descr") == 0) {
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    add_descr(&b, r);
    luaL_pushresult(&b);
  } else lua_pushnil(L);
  return 1;
}

static int dtype_eq(lua_State *L) {
  lua_pushboolean(L, record_dtype_test(L, 1) == record_dtype_test(L, 2));
  return 1;
}

/* a field's type: a dtype name or a record dtype (nested) */
static int field_type(lua_State *L, int idx, int i) {
  int dt = record_dtype_test(L, idx);
  if (dt >= 0) return dt;
  if (lua_type(L, idx) == LUA_TSTRING) {
    dt = dtype_from_name(lua_tostring(L, idx));
    if (dt >= 0) return dt;
    return luaL_error(L, "lumba.dtype: field %d has unknown dtype '%s'", i, lua_tostring(L, idx));
  }
  return luaL_error(L, "lumba.dtype: field %d needs a dtype name or a record dtype, got %s", i,
                    luaL_typename(L, idx));
}

/* lumba.dtype(name) -> the name; lumba.dtype({{"x", "float64"}, ...} [, {align = true}])
** or with {offsets = {...}, itemsize = n} (NumPy's dict form) -> a record dtype */
static int l_dtype(lua_State *L) {
  if (lua_type(L, 1) == LUA_TSTRING || record_dtype_test(L, 1) >= 0) {
    push_dt(L, dtype_check(L, 1, DT_FLOAT64));
    return 1;
  }
  luaL_checktype(L, 1, LUA_TTABLE);
  bool aligned = false;
  int64_t itemsize = 0;
  bool has_offsets = false;
  if (!lua_isnoneornil(L, 2)) {
    luaL_checktype(L, 2, LUA_TTABLE);
    aligned = lua_getfield(L, 2, "align") != LUA_TNIL && lua_toboolean(L, -1);
    has_offsets = lua_getfield(L, 2, "offsets") != LUA_TNIL;
    if (lua_getfield(L, 2, "itemsize") != LUA_TNIL) {
      int ok;
      itemsize = lua_tointegerx(L, -1, &ok);
      if (!ok || itemsize <= 0) return luaL_error(L, "lumba.dtype: itemsize must be a positive integer");
    }
    lua_pop(L, 3);
  }
  lua_Integer n = luaL_len(L, 1);
  if (n < 1 || n > 4096) return luaL_error(L, "lumba.dtype: a record needs 1 to 4096 fields, got %d", (int)n);
  const char **names = lua_newuserdatauv(L, sizeof(char *) * (size_t)n, 0);
  DType *types = lua_newuserdatauv(L, sizeof(DType) * (size_t)n, 0);
  int64_t *offsets = lua_newuserdatauv(L, sizeof(int64_t) * (size_t)n, 0);
  for (int i = 1; i <= n; i++) {
    if (lua_geti(L, 1, i) != LUA_TTABLE)
      return luaL_error(L, "lumba.dtype: field %d must be a table {name, dtype}", i);
    if (lua_geti(L, -1, 1) != LUA_TSTRING) return luaL_error(L, "lumba.dtype: field %d has no name", i);
    names[i - 1] = lua_tostring(L, -1);
    lua_geti(L, -2, 2);
    types[i - 1] = (DType)field_type(L, -1, i);
    lua_pop(L, 1);
    lua_replace(L, -2);  /* keep the name string alive on the stack */
  }
  if (has_offsets) {
    lua_getfield(L, 2, "offsets");
    for (int i = 1; i <= n; i++) {
      int ok;
      lua_geti(L, -1, i);
      offsets[i - 1] = lua_tointegerx(L, -1, &ok);
      if (!ok) return luaL_error(L, "lumba.dtype: offsets[%d] must be an integer", i);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  } else if (itemsize) {
    return luaL_error(L, "lumba.dtype: itemsize needs offsets");
  }
  char err[160];
  int dt = record_intern((int)n, names, types, has_offsets ? offsets : NULL, itemsize, aligned, err, sizeof err);
  if (dt < 0) return luaL_error(L, "lumba.dtype: %s", err);
  record_push_dtype(L, dt);
  return 1;
}

/* ---- record arrays ---- */

/* a view of field i of a (same shape and strides, the field's dtype) */
void record_push_field(lua_State *L, const NdArray *a, int i) {
  const RecordInfo *r = record_info(a->dtype);
  NdArray *v = array_push_view(L, a, a->ndim, a->s.shape, a->s.strides, (char *)a->s.data + r->offsets[i]);
  v->dtype = r->types[i];
  v->s.itemsize = dtype_sizes[r->types[i]];
  array_update_flags(v);
}

/* the element at p as a table {x = ..., n = ...} (a copy) */
void record_push_elem(lua_State *L, int dt, const char *p) {
  const RecordInfo *r = record_info(dt);
  luaL_checkstack(L, 4, NULL);
  lua_createtable(L, 0, r->nfields);
  for (int i = 0; i < r->nfields; i++) {
    array_push_elem(L, r->types[i], p + r->offsets[i]);
    lua_setfield(L, -2, r->names[i]);
  }
}

/* store the Lua value at idx into the element at p: a table by names
** ({x = 1, n = 2}) or by position ({1, 2}, NumPy's tuple), a 0-d record
** of this dtype, or a number or boolean for every field (NumPy's rule) */
void record_store_elem(lua_State *L, int dt, char *p, int idx, int argn) {
  const RecordInfo *r = record_info(dt);
  idx = lua_absindex(L, idx);
  NdArray *src = array_test(L, idx);
  if (src && (int)src->dtype == dt && src->ndim == 0) {
    memmove(p, src->s.data, (size_t)r->itemsize);
    return;
  }
  int t = lua_type(L, idx);
  if (t == LUA_TTABLE) {
    lua_Integer n = luaL_len(L, idx);
    if (n != 0 && n != r->nfields)
      luaL_error(L, "a record of %d fields cannot take a table of %d values", r->nfields, (int)n);
    for (int i = 0; i < r->nfields; i++) {
      if (n) lua_geti(L, idx, i + 1);
      else if (lua_getfield(L, idx, r->names[i]) == LUA_TNIL) {
        lua_pop(L, 1);
        continue;  /* a field not named keeps its value */
      }
      array_store_elem(L, r->types[i], p + r->offsets[i], -1, argn);
      lua_pop(L, 1);
    }
    return;
  }
  if (t == LUA_TNUMBER || t == LUA_TBOOLEAN || (t == LUA_TUSERDATA && src == NULL)) {
    for (int i = 0; i < r->nfields; i++) array_store_elem(L, r->types[i], p + r->offsets[i], idx, argn);
    return;
  }
  const char *msg = lua_pushfstring(L, "cannot store a %s into a record of %s", luaL_typename(L, idx), r->name);
  if (argn > 0) luaL_argerror(L, argn, msg);
  luaL_error(L, "%s", msg);
}

/* a.x: the field's value for a 0-d record (a view for a record field),
** else the field's view; 0 when key names no field */
int record_index(lua_State *L, const NdArray *a, const char *key) {
  const RecordInfo *r = record_info(a->dtype);
  int i = record_field(r, key);
  if (i < 0) return 0;
  if (a->ndim == 0 && !dtype_is_record(r->types[i]))
    array_push_elem(L, r->types[i], (const char *)a->s.data + r->offsets[i]);
  else record_push_field(L, a, i);
  return 1;
}

/* a.x = v: the field of a 0-d record, or every element's field */
int record_newindex(lua_State *L, NdArray *a, const char *key, int vidx) {
  const RecordInfo *r = record_info(a->dtype);
  int i = record_field(r, key);
  if (i < 0) return luaL_error(L, "record %s has no field '%s'", r->name, key);
  if (a->flags & ARR_READONLY) return luaL_error(L, "assignment destination is read-only");
  vidx = lua_absindex(L, vidx);
  int top = lua_gettop(L);
  record_push_field(L, a, i);
  NdArray *f = lua_touserdata(L, -1);
  NdArray *src = array_test(L, vidx);
  if (src == NULL && lua_type(L, vidx) == LUA_TTABLE && !dtype_is_record(f->dtype))
    src = array_from_table(L, vidx, f->dtype);
  if (src && src->dtype != f->dtype && dtype_is_record(f->dtype)) src = NULL;
  if (src) {
    bool same = src->ndim == f->ndim;
    for (int k = 0; same && k < f->ndim; k++) same = src->s.shape[k] == f->s.shape[k];
    if (!same) return luaL_error(L, "cannot assign an array of another shape to field '%s'", key);
    array_assign(L, f, src);
  } else {
    array_fill_value(L, f, vidx, 0);
  }
  lua_settop(L, top);
  return 0;
}

/* a:field(name): the view of one field (also for a 0-d record) */
static int l_field(lua_State *L) {
  NdArray *a = array_check(L, 1);
  const char *key = luaL_checkstring(L, 2);
  const RecordInfo *r = record_info(a->dtype);
  if (r == NULL) return luaL_error(L, "field '%s' of an array of dtype %s, which has no fields", key, dtype_names[a->dtype]);
  int i = record_field(r, key);
  if (i < 0) return luaL_argerror(L, 2, lua_pushfstring(L, "record %s has no field '%s'", r->name, key));
  record_push_field(L, a, i);
  return 1;
}

/* one value as NumPy prints it inside a record: 1., 2.5, True, 3, (1+2j) */
static void add_value(lua_State *L, luaL_Buffer *b, int dt, const char *p) {
  char s[80];
  const RecordInfo *r = record_info(dt);
  if (r) {
    luaL_addchar(b, '(');
    for (int i = 0; i < r->nfields; i++) {
      if (i) luaL_addstring(b, ", ");
      add_value(L, b, r->types[i], p + r->offsets[i]);
    }
    luaL_addchar(b, ')');
    return;
  }
  Num v = array_load((DType)dt, p);
  if (dtype_kinds[dt] == 'b') snprintf(s, sizeof s, "%s", v.i ? "True" : "False");
  else if (v.kind == 'i') snprintf(s, sizeof s, "%lld", (long long)v.i);
  else if (v.kind == 'u') snprintf(s, sizeof s, "%llu", (unsigned long long)(uint64_t)v.i);
  else {
    double parts[2] = {v.f, v.im};
    int n = 0;
    for (int k = 0; k < (v.kind == 'c' ? 2 : 1); k++) {
      double x = parts[k];
      const char *sign = k && !(x < 0) ? "+" : "";
      if (x == floor(x) && fabs(x) < 1e16) n += snprintf(s + n, sizeof s - (size_t)n, "%s%.0f%s", sign, x, v.kind == 'c' ? "" : ".");
      else n += snprintf(s + n, sizeof s - (size_t)n, "%s%.8g", sign, x);
    }
    if (v.kind == 'c') {
      lua_pushfstring(L, "(%sj)", s);
      luaL_addvalue(b);
      return;
    }
  }
  luaL_addstring(b, s);
}

static void add_rows(lua_State *L, luaL_Buffer *b, const NdArray *a, int depth, const char *p) {
  if (depth == a->ndim) {
    add_value(L, b, a->dtype, p);
    return;
  }
  luaL_addchar(b, '[');
  for (int64_t i = 0; i < a->s.shape[depth]; i++) {
    if (i) luaL_addstring(b, depth + 1 == a->ndim ? ", " : ",\n       ");
    if (a->s.shape[depth] > 1000 && i == 3) {
      luaL_addstring(b, "...");
      i = a->s.shape[depth] - 4;
      continue;
    }
    add_rows(L, b, a, depth + 1, p + i * a->s.strides[depth]);
  }
  luaL_addchar(b, ']');
}

/* array([(0., 0, True), (1., 2, False)], dtype=[('x', '<f8'), ...]) */
int record_tostring(lua_State *L, const NdArray *a) {
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  luaL_addstring(&b, "array(");
  add_rows(L, &b, a, 0, a->s.data);
  luaL_addstring(&b, ", dtype=");
  add_descr(&b, record_info(a->dtype));
  luaL_addchar(&b, ')');
  luaL_pushresult(&b);
  return 1;
}

/* the methods a record array keeps: shape and copies, no arithmetic */
bool record_method_ok(const char *name) {
  static const char *const ok[] = {"close", "field", "totable", "copy", "get", "set", "fill", "reshape",
                                   "transpose", "slice", "view", "is_c_contiguous", "is_f_contiguous",
                                   "data_ptr", "flatten", "ravel", "squeeze", "swapaxes", "item"};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
    if (strcmp(name, ok[i]) == 0) return true;
  return false;
}

/* what a record array refuses from Lua: arithmetic, reductions, casts */
l_noret record_unsupported(lua_State *L, int dt, const char *what) {
  luaL_error(L, "%s is not supported for arrays of record dtype %s", what, dtype_names[dt]);
  LM_UNREACHABLE();
}

static const RecordHooks hooks = {
  record_dtype_test, record_push_dtype, record_push_elem, record_store_elem, record_index, record_newindex,
  record_tostring, record_method_ok, record_unsupported,
};

void record_open(lua_State *L) {
  array_records = &hooks;
  if (luaL_newmetatable(L, DTYPE_MT)) {
    lua_pushcfunction(L, dtype_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushcfunction(L, dtype_index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, dtype_eq);
    lua_setfield(L, -2, "__eq");
    udata_protect(L, -1, DTYPE_MT);
  }
  lua_pop(L, 1);
  lua_pushcfunction(L, l_dtype);
  lua_setfield(L, -2, "dtype");
  luaL_getmetatable(L, ARRAY_MT);  /* a:field(name), beside the arrays' methods */
  lua_getfield(L, -1, "__index");
  lua_getupvalue(L, -1, 1);
  lua_pushcfunction(L, l_field);
  lua_setfield(L, -2, "field");
  lua_pop(L, 3);
}
