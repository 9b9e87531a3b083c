/*
** dispatch.c — lumba.dispatcher: lazily compiles per argument-type
** signature, keeps every specialization, and calls them. The call path for
** the same signature as last time compares types and fills slots: no
** allocation, no strings.
*/
#include <string.h>
#include <time.h>

#include <lauxlib.h>

#include "backend.h"
#include "cache.h"
#include "cachefast.h"
#include "complex_lua.h"
#include "dispatch.h"
#include "jitclass.h"
#include "fastmath.h"
#include "frontend.h"
#include "interrupt.h"
#include "kernel.h"
#include "lower.h"
#include "types.h"


bool dispatch_test(lua_State *L, int idx) {
  return UDATA_TEST(L, idx, Dispatcher, DISPATCHER_MT, DISPATCHER_TAG) != NULL;
}

/* A dispatcher whose __gc has run (a finalizer called it during lua_close,
** or __gc was called by hand) has no name and no code: using it raises. */
static l_noret collected(lua_State *L) {
  luaL_error(L, "attempt to use a collected dispatcher");
  LM_UNREACHABLE();
}

static Dispatcher *check_disp(lua_State *L, int idx) {
  Dispatcher *d = UDATA_CHECK(L, idx, Dispatcher, DISPATCHER_MT, DISPATCHER_TAG);
  if (LM_UNLIKELY(d->name == NULL)) collected(L);
  return d;
}

/* ---- argument types ---- */

static char layout_of(const NdArray *a) {
  if (a->flags & ARR_C_CONTIG) return 'C';
  if (a->flags & ARR_F_CONTIG) return 'F';
  return 'A';
}

/* the type lumba gives the Lua value at idx (for compiling a new specialization) */
static Type *type_of_arg(lua_State *L, LmState *S, int idx, int argn, const char *fname) {
  switch (lua_type(L, idx)) {
    case LUA_TNUMBER: return lua_isinteger(L, idx) ? ty_int64 : ty_float64;
    case LUA_TBOOLEAN: return ty_bool;
    case LUA_TNIL: return &ty_none;  /* None, as Numba types a None argument */
    case LUA_TSTRING: {  /* a dtype by name ("float32", "f8"): compiled code gets a dtype value */
      int dt = dtype_from_name(lua_tostring(L, idx));
      if (dt >= 0) return ty_dtype((DType)dt);
      lua_pushfstring(L, "bad argument #%d to '%s' (a string argument must name a dtype such as \"float64\", got \"%s\")",
                      argn, fname, lua_tostring(L, idx));
      lua_error(L);
      LM_UNREACHABLE();
    }
    case LUA_TUSERDATA: {
      NdArray *a = array_test(L, idx);
      if (a && a->ndim == 0 && dtype_is_record(a->dtype)) return ty_scalar(a->dtype);  /* a[i] of a record array: a Record */
      if (a) return ty_array(&S->types, a->dtype, a->ndim, layout_of(a));
      ClassInfo *cls;
      if (jitclass_test(L, idx, &cls)) return &cls->type;
      if (complex_test(L, idx, &(Cplx){0, 0})) return ty_scalar(DT_COMPLEX128);
      break;
    }
    default: break;
  }
  lua_pushfstring(L, "bad argument #%d to '%s' (number, boolean, table or lumba.ndarray expected, got %s)", argn,
                  fname, luaL_typename(L, idx));
  lua_error(L);
  return NULL;
}

/* does the Lua value at idx fit type t exactly (lazy) or by conversion (eager)? */
static bool arg_fits(lua_State *L, int idx, Type *t, bool loose) {
  int lt = lua_type(L, idx);
  if (t->kind == TY_DTYPE) return lt == LUA_TSTRING && dtype_from_name(lua_tostring(L, idx)) == (int)t->dtype;
  if (t->kind == TY_NONE) return lt == LUA_TNIL;
  if (t->kind == TY_CLASS) {  /* nil: None, a NULL instance (as an optional(node_type) field holds it) */
    ClassInfo *cls;
    return (jitclass_test(L, idx, &cls) && cls == t->cls) || lt == LUA_TNIL;
  }
  if (t->kind == TY_RECORD) {  /* a 0-d view of a record array's element */
    NdArray *a = lt == LUA_TUSERDATA ? array_test(L, idx) : NULL;
    return a && a->dtype == t->dtype && a->ndim == 0;
  }
  if (t->kind == TY_CPTR)  /* an address (a Lua integer) or an array: its data (a @cfunc called from Lua) */
    return lua_isinteger(L, idx) || lt == LUA_TLIGHTUSERDATA || (lt == LUA_TUSERDATA && array_test(L, idx) != NULL);
  if (t->kind == TY_SCALAR && ty_is_complex(t)) {  /* a lumba.complex; eagerly a number too */
    if (lt == LUA_TUSERDATA) return complex_test(L, idx, &(Cplx){0, 0}) && (loose || t->dtype == DT_COMPLEX128);
    return loose && lt == LUA_TNUMBER;
  }
  if (t->kind == TY_SCALAR) {
    if (lt == LUA_TBOOLEAN) return t->dtype == DT_BOOL;
    if (lt != LUA_TNUMBER) return false;
    if (loose) return t->dtype != DT_BOOL && (ty_is_float(t) || lua_isinteger(L, idx));
    return lua_isinteger(L, idx) ? t->dtype == DT_INT64 : t->dtype == DT_FLOAT64;
  }
  if (t->kind != TY_ARRAY || lt != LUA_TUSERDATA) return false;
  NdArray *a = array_test(L, idx);
  if (a == NULL || a->dtype != t->dtype || a->ndim != t->ndim) return false;
  char lay = layout_of(a);
  return lay == t->layout || (loose && (t->layout == 'A'));
}

static bool spec_fits(lua_State *L, DispSpec *s, int nargs, bool loose) {
  if (s->nargs != nargs) return false;
  for (int i = 0; i < nargs; i++)
    if (!arg_fits(L, i + 2, s->argtypes[i], loose)) return false;
  return true;
}

/* ---- results ---- */

static int push_value(lua_State *L, Type *t, int64_t *slots, int *k) {
  if (t->kind == TY_DTYPE) {  /* a dtype comes back by name, as Lua spells dtypes */
    (*k)++;
    lua_pushstring(L, dtype_names[t->dtype]);
    return 1;
  }
  if (t->kind == TY_CLASS) {  /* an instance: its reference passes to the userdata; NULL (None): nil */
    MemInfo *mi = (MemInfo *)(intptr_t)slots[(*k)++];
    if (mi) jitclass_push(L, t->cls, mi);
    else lua_pushnil(L);
    return 1;
  }
  if (t->kind == TY_OPTIONAL) {  /* is-set, then the number: nil for None */
    if (slots[(*k)++] == 0) {
      (*k)++;
      lua_pushnil(L);
      return 1;
    }
    return push_value(L, ty_scalar(t->dtype), slots, k);
  }
  if (t->kind == TY_CPTR) {  /* an address, as the cfunc's .address */
    lua_pushinteger(L, slots[(*k)++]);
    return 1;
  }

  if (t->kind == TY_SCALAR && ty_is_complex(t)) {  /* two slots of double bits */
    double re, im;
    memcpy(&re, slots + *k, sizeof re);
    memcpy(&im, slots + *k + 1, sizeof im);
    *k += 2;
    complex_push(L, re, im);
    return 1;
  }
  if (t->kind == TY_SCALAR) {
    int64_t v = slots[(*k)++];
    if (dtype_kinds[t->dtype] == 'f') {  /* a double in the slot */
      double d;
      memcpy(&d, &v, sizeof d);
      lua_pushnumber(L, d);
    } else if (t->dtype == DT_BOOL) {
      lua_pushboolean(L, v != 0);
    } else {
      lua_pushinteger(L, v);
    }
    return 1;
  }
  if (t->kind == TY_ARRAY) {
    ArrayStruct as;
    memcpy(&as, slots + *k, sizeof as);
    *k += RT_ARRAY_SLOTS;
    array_push_struct(L, &as, t->dtype, t->ndim);
    return 1;
  }
  if (t->kind == TY_TUPLE) {
    int n = 0;
    luaL_checkstack(L, t->nelems, "too many results");
    for (int i = 0; i < t->nelems; i++) n += push_value(L, t->elems[i], slots, k);
    return n;
  }
  return 0;
}

/* LMERR_SHAPES: "ValueError: " and msg, its k-th %S written as NumPy writes shape k: (2,3), (4,), () */
static void push_shapes_msg(lua_State *L, const LmErr *e) {
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  luaL_addstring(&b, "ValueError: ");
  int k = 0;
  for (const char *p = e->msg ? e->msg : ""; *p; p++) {
    if (p[0] != '%' || p[1] != 'S' || k >= LMERR_NSHAPES) { luaL_addchar(&b, *p); continue; }
    int nd = e->ndims[k];
    luaL_addchar(&b, '(');
    for (int j = 0; j < nd && j < LM_MAXDIM; j++) {
      if (j) luaL_addchar(&b, ',');
      lua_pushfstring(L, "%I", (lua_Integer)e->shapes[k][j]);
      luaL_addvalue(&b);
    }
    if (nd == 1) luaL_addchar(&b, ',');
    luaL_addchar(&b, ')');
    k++;
    p++;
  }
  luaL_pushresult(&b);
}

static l_noret raise_status(lua_State *L, int32_t st, const LmErr *e) {
  switch (st) {
    case LMERR_ZERODIV_INT: lua_pushliteral(L, "ZeroDivisionError: integer division or modulo by zero"); break;
    case LMERR_ZERODIV_FLOAT: lua_pushliteral(L, "ZeroDivisionError: division by zero"); break;
    case LMERR_INDEX:
      lua_pushfstring(L, "IndexError: index %I out of bounds for axis %d with size %I", (lua_Integer)e->index,
                      (int)e->axis, (lua_Integer)e->size);
      break;
    case LMERR_RAISE: lua_pushstring(L, e->msg ? e->msg : "Exception"); break;
    case LMERR_MEMORY: lua_pushfstring(L, "MemoryError: %s", e->msg ? e->msg : ""); break;
    case LMERR_VALUE: lua_pushfstring(L, "ValueError: %s", e->msg ? e->msg : ""); break;
    case LMERR_SHAPES: push_shapes_msg(L, e); break;
    case LMERR_VALUE_FMT: {
      char buf[512];
      lmerr_format(e, buf, sizeof buf);
      lua_pushfstring(L, "ValueError: %s", buf);
      break;
    }
    case LMERR_INTERRUPT: lua_pushliteral(L, "KeyboardInterrupt: interrupted (Ctrl-C or lumba_interrupt)"); break;
    default: lua_pushfstring(L, "lumba: compiled code failed with status %d", (int)st);
  }
  /* the traceback line of the statement that raised: like Numba's last frame */
  if (e->where && e->where[0] == '\n') {
    lua_pushstring(L, e->where);
    lua_concat(L, 2);
  } else if (e->where) {  /* Lua syntax: "script.lua:12: " before the message, as Lua's errors */
    lua_pushstring(L, e->where);
    lua_insert(L, -2);
    lua_concat(L, 2);
  }
  lua_error(L);
  LM_UNREACHABLE();
}

/* ---- compiling ---- */

static DispSpec *add_spec(lua_State *L, Dispatcher *d, int didx, Type **argtypes, int nargs, Type *declared_ret,
                          bool fast);
/* calls from compiled code: the compiler's path (it notes the callee's key) */
DispSpec *dispatch_add_spec(lua_State *L, Dispatcher *d, int didx, Type **argtypes, int nargs) {
  return add_spec(L, d, didx, argtypes, nargs, NULL, false);
}

/* fast: try the cache's fast path (cachefast.h) before the backend */
static DispSpec *add_spec(lua_State *L, Dispatcher *d, int didx, Type **argtypes, int nargs, Type *declared_ret,
                          bool fast) {
  if (d->nspecs >= 256)
    luaL_error(L, "%s: too many specializations (256); pass arguments of fewer distinct types", d->name);
  DispSpec *s = fast ? cachefast_spec(L, d, didx, argtypes, nargs, declared_ret) : NULL;
  if (s == NULL) s = backend_get(L)->compile_spec(L, didx, d->name, &d->opt, argtypes, nargs, declared_ret);
  s->next = d->specs;
  d->specs = s;
  d->nspecs++;
  return s;
}

/* lumba.config.warn_on_compile: init.lua keeps a function in the registry
** that a call compiling a new specialization calls with (name, "(types)",
** milliseconds, "file:line:" of the call); nothing is there unless asked */
#define ON_COMPILE_KEY "lumba.on_compile"

static void on_compile(lua_State *L, const Dispatcher *d, Type **argtypes, int nargs, double ms) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, ON_COMPILE_KEY) != LUA_TFUNCTION) {
    lua_pop(L, 1);
    return;
  }
  lua_pushstring(L, d->name);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  luaL_addchar(&b, '(');
  for (int i = 0; i < nargs; i++) {
    if (i) luaL_addstring(&b, ", ");
    luaL_addstring(&b, argtypes[i]->name);
  }
  luaL_addchar(&b, ')');
  luaL_pushresult(&b);
  lua_pushnumber(L, ms);
  luaL_where(L, 1);  /* the Lua code that called the dispatcher */
  lua_call(L, 4, 0);
}

/* core._set_on_compile(fn | nil) */
static int dispatch_lua_set_on_compile(lua_State *L) {
  if (!lua_isnoneornil(L, 1)) luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_settop(L, 1);
  lua_setfield(L, LUA_REGISTRYINDEX, ON_COMPILE_KEY);
  return 0;
}

/* a compilation for arguments of which some are nil (None), protected */
typedef struct NoneCompile {
  Dispatcher *d;
  Type **argtypes;
  int nargs;
  DispSpec *s;
} NoneCompile;

static int compile_with_none(lua_State *L) {
  NoneCompile *c = lua_touserdata(L, 2);
  c->s = add_spec(L, c->d, 1, c->argtypes, c->nargs, NULL, true);
  return 0;
}

/* nil is None (Numba's none argument: `if p is None`, a NULL instance);
** where the function cannot take None, the argument is refused as before */
static DispSpec *add_spec_none(lua_State *L, Dispatcher *d, Type **argtypes, int nargs) {
  int first_nil = 0;
  for (int i = nargs; i >= 1; i--)
    if (lua_isnil(L, i + 1)) first_nil = i;
  if (first_nil == 0) return add_spec(L, d, 1, argtypes, nargs, NULL, true);
  NoneCompile c = {d, argtypes, nargs, NULL};
  lua_pushcfunction(L, compile_with_none);
  lua_pushvalue(L, 1);
  lua_pushlightuserdata(L, &c);
  if (lua_pcall(L, 2, 0, 0) == LUA_OK) return c.s;
  lua_pop(L, 1);
  lua_pushfstring(L, "bad argument #%d to '%s' (number, boolean, table or lumba.ndarray expected, got nil)", first_nil,
                  d->name);
  lua_error(L);
  return NULL;
}

static DispSpec *find_or_compile(lua_State *L, Dispatcher *d, int nargs) {
  for (DispSpec *s = d->specs; s; s = s->next)
    if (spec_fits(L, s, nargs, false)) return s;
  if (d->eager) {
    for (DispSpec *s = d->specs; s; s = s->next)
      if (spec_fits(L, s, nargs, true)) return s;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    lua_pushfstring(L, "%s: no compiled signature matches the argument types (", d->name);
    luaL_addvalue(&b);
    LmState *S = lmstate_get(L);
    for (int i = 0; i < nargs; i++) {
      lua_pushfstring(L, "%s%s", i ? ", " : "", type_of_arg(L, S, i + 2, i + 1, d->name)->name);
      luaL_addvalue(&b);
    }
    luaL_addstring(&b, ")");
    luaL_pushresult(&b);
    lua_error(L);
  }
  LmState *S = lmstate_get(L);
  Type *argtypes[LM_MAXARGS];
  for (int i = 0; i < nargs; i++) argtypes[i] = type_of_arg(L, S, i + 2, i + 1, d->name);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  DispSpec *s = add_spec_none(L, d, argtypes, nargs);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  on_compile(L, d, argtypes, nargs, (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-6);
  return s;
}

/* ---- plain Lua tables as arguments ---- */

static int table_to_array(lua_State *L) {
  array_from_table(L, 1, (DType)lua_tointeger(L, 2));
  return 1;
}

/* the element type an eager signature wants for argument i; -1 if none */
static int eager_dtype(const Dispatcher *d, int nargs, int i) {
  if (!d->eager) return -1;
  for (const DispSpec *s = d->specs; s; s = s->next)
    if (s->nargs == nargs && s->argtypes[i]->kind == TY_ARRAY) return (int)s->argtypes[i]->dtype;
  return -1;
}

/* DESIGN: plain Lua tables of numbers are accepted as arrays, copied in,
** and copied back if written. Each table argument is replaced by a new C
** array (of the dtype an eager signature wants, else the one lumba.array
** infers); the table and a copy of the array's bytes go above the
** arguments, tabs[i] being the stack index of argument i's table (0: not
** a table). Returns whether there was any table. Only the slow path (no
** specialization fits the arguments as they are) comes here. */
static bool tables_in(lua_State *L, Dispatcher *d, int nargs, int *tabs) {
  bool any = false;
  for (int i = 0; i < nargs; i++) {
    tabs[i] = 0;
    if (lua_type(L, i + 2) != LUA_TTABLE) continue;
    luaL_checkstack(L, 4, "too many arguments");
    int dt = eager_dtype(d, nargs, i);
    if (dt < 0) dt = array_table_dtype(L, i + 2);
    if (dt < 0) dt = DT_FLOAT64;  /* the conversion says what is wrong with the table */
    lua_pushcfunction(L, table_to_array);
    lua_pushvalue(L, i + 2);
    lua_pushinteger(L, dt);
    if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
      lua_pushfstring(L, "bad argument #%d to '%s' (%s)", i + 1, d->name, lua_tostring(L, -1));
      lua_error(L);
    }
    NdArray *a = lua_touserdata(L, -1);
    lua_pushvalue(L, i + 2);
    lua_insert(L, -2);
    lua_replace(L, i + 2);  /* the argument is the array now, the table is on top */
    tabs[i] = lua_gettop(L);
    size_t bytes = (size_t)(a->s.nitems * a->s.itemsize);
    void *snap = lua_newuserdatauv(L, bytes ? bytes : 1, 0);
    if (bytes) memcpy(snap, a->s.data, bytes);
    any = true;
  }
  return any;
}

/* the arguments as they were given (tables back in their slots), nothing above */
static void tables_restore(lua_State *L, int nargs, const int *tabs) {
  for (int i = 0; i < nargs; i++)
    if (tabs[i]) lua_copy(L, tabs[i], i + 2);
  lua_settop(L, nargs + 1);
}

/* after a successful call: tables whose array was written get its values */
static void tables_out(lua_State *L, int nargs, const int *tabs) {
  for (int i = 0; i < nargs; i++) {
    if (tabs[i] == 0) continue;
    NdArray *a = lua_touserdata(L, i + 2);
    size_t bytes = (size_t)(a->s.nitems * a->s.itemsize);
    if (bytes && memcmp(a->s.data, lua_touserdata(L, tabs[i] + 1), bytes) != 0) array_copy_back(L, tabs[i], a);
  }
}

/* A Lua table of integers is copied into an integer array; a float the code
** stores into that array would come back truncated, where the table itself
** would have kept it. Such a call is refused before it runs (the table
** stays as it was): inference marks the parameters a float is stored into
** (FuncSpec.int_float_stores) */
static void tables_check(lua_State *L, Dispatcher *d, DispSpec *s, int nargs, const int *tabs) {
  for (int i = 0; i < nargs && i < 64; i++) {
    if (tabs[i] == 0 || !((s->int_float_stores >> i) & 1)) continue;
    lua_pushfstring(L,
                    "bad argument #%d to '%s' (a table of integers is copied into an %s array, and %s() stores "
                    "floats into it, which would come back truncated; write the table's numbers as floats (1.0) "
                    "or pass lumba.array(t, \"float64\"))",
                    i + 1, d->name, dtype_names[s->argtypes[i]->dtype], d->name);
    lua_error(L);
  }
}

/* lumba.typeof(x): the type a compiled function is given for x, by its
** name in signatures ("int64", "float64[:, ::1]"); a table is the array it
** is copied into */
static int dispatch_lua_typeof(lua_State *L) {
  luaL_checkany(L, 1);
  lua_settop(L, 1);
  if (lua_type(L, 1) == LUA_TTABLE) {
    int dt = array_table_dtype(L, 1);
    lua_pushcfunction(L, table_to_array);
    lua_pushvalue(L, 1);
    lua_pushinteger(L, dt < 0 ? DT_FLOAT64 : dt);
    if (lua_pcall(L, 2, 1, 0) != LUA_OK)
      return luaL_error(L, "bad argument #1 to 'typeof' (%s)", lua_tostring(L, -1));
    lua_replace(L, 1);
  }
  lua_pushstring(L, type_of_arg(L, lmstate_get(L), 1, 1, "typeof")->name);
  return 1;
}

/* jit: compile, or fall back to object mode with a one-time warning */
static int compile_or_fallback(lua_State *L) {
  Dispatcher *d = lua_touserdata(L, 1);
  int nargs = (int)lua_tointeger(L, 2);
  lua_remove(L, 2);
  find_or_compile(L, d, nargs);
  return 0;
}

static int call_objmode(lua_State *L, Dispatcher *d, int nargs) {
  lua_getfield(L, LUA_REGISTRYINDEX, DISPATCHER_MT);
  lua_getfield(L, -1, "methods");
  lua_getfield(L, -1, "interpret");
  lua_replace(L, -3);
  lua_pop(L, 1);
  lua_insert(L, 1);  /* interpret, d, args... */
  (void)d;
  lua_call(L, nargs + 1, LUA_MULTRET);
  return lua_gettop(L);
}

static DispSpec *try_compile(lua_State *L, Dispatcher *d, int nargs) {
  int top = lua_gettop(L);
  lua_pushcfunction(L, compile_or_fallback);
  lua_pushvalue(L, 1);
  lua_pushinteger(L, nargs);
  for (int i = 0; i < nargs; i++) lua_pushvalue(L, i + 2);
  if (lua_pcall(L, nargs + 2, 0, 0) == LUA_OK) {
    lua_settop(L, top);
    return find_or_compile(L, d, nargs);
  }
  /* warn once, through lumba.warnings (default: stderr) */
  d->objmode = true;
  const char *why = lua_tostring(L, -1);
  lua_getfield(L, LUA_REGISTRYINDEX, DISPATCHER_MT);
  lua_getfield(L, -1, "methods");
  lua_getfield(L, -1, "__warn");
  if (lua_isfunction(L, -1)) {
    lua_pushfstring(L, "%s: compilation failed, falling back to object mode (slower): %s", d->name,
                    why ? why : "?");
    lua_call(L, 1, 0);
  }
  lua_settop(L, top);
  return NULL;
}

/* ---- the call path ---- */

/* cbuf: where a complex argument's two doubles go; the slot points there */
static void fill_slot(lua_State *L, int idx, Type *t, int64_t *slot, double *cbuf) {
  if (ty_is_complex(t)) {
    Cplx c = cplx(0, 0);
    complex_tocomplex(L, idx, &c);
    cbuf[0] = c.re;
    cbuf[1] = c.im;
    *slot = (int64_t)(intptr_t)cbuf;
  } else if (t->kind == TY_ARRAY) {
    NdArray *a = lua_touserdata(L, idx);
    *slot = (int64_t)(intptr_t)&a->s;
  } else if (t->kind == TY_DTYPE) {
    *slot = t->dtype;
  } else if (t->kind == TY_RECORD) {
    *slot = (int64_t)(intptr_t)((NdArray *)lua_touserdata(L, idx))->s.data;  /* the element it views */
  } else if (t->kind == TY_NONE) {
    *slot = 0;
  } else if (t->kind == TY_CLASS) {
    /* borrowed: the userdata holds it for the call; nil: NULL */
    *slot = lua_isnil(L, idx) ? 0 : (int64_t)(intptr_t)jitclass_test(L, idx, NULL);
  } else if (t->kind == TY_CPTR) {
    NdArray *a = lua_type(L, idx) == LUA_TUSERDATA ? lua_touserdata(L, idx) : NULL;
    *slot = a ? (int64_t)(intptr_t)a->s.data
              : lua_islightuserdata(L, idx) ? (int64_t)(intptr_t)lua_touserdata(L, idx) : lua_tointeger(L, idx);
  } else if (t->dtype == DT_BOOL) {
    *slot = lua_toboolean(L, idx);
  } else if (ty_is_float(t)) {
    double v = lua_tonumber(L, idx);
    memcpy(slot, &v, sizeof v);
  } else {
    *slot = lua_tointeger(L, idx);
  }
}

/* the argument at idx into *slot if it has type t exactly (the previous
** call's types); false sends the call down the general path. Numbers,
** booleans and arrays cost a few stack reads: no string, no registry, no
** allocation. An array is lumba's when its metatable, its size and its tag
** agree (udata.h); the metatable is compared by address (d->array_mt). */
static inline bool take_arg(lua_State *L, const Dispatcher *d, int idx, Type *t, int64_t *slot, double *cbuf) {
  if (t->kind == TY_SCALAR && t->dtype == DT_FLOAT64) {
    if (lua_type(L, idx) != LUA_TNUMBER || lua_isinteger(L, idx)) return false;
    double v = lua_tonumberx(L, idx, NULL);
    memcpy(slot, &v, sizeof v);
    return true;
  }
  if (t->kind == TY_SCALAR && t->dtype == DT_INT64) {
    if (!lua_isinteger(L, idx)) return false;
    *slot = lua_tointegerx(L, idx, NULL);
    return true;
  }
  if (t->kind == TY_ARRAY) {
    NdArray *a = lua_touserdata(L, idx);
    if (a == NULL || !lua_getmetatable(L, idx)) return false;
    bool ours = lua_topointer(L, -1) == d->array_mt;
    lua_settop(L, -2);
    if (!ours || lua_rawlen(L, idx) != sizeof(NdArray) || a->tag != ARRAY_TAG) return false;
    /* a closed array fails here and raises on the general path */
    if (a->dtype != t->dtype || a->ndim != t->ndim || layout_of(a) != t->layout || (a->flags & ARR_CLOSED))
      return false;
    *slot = (int64_t)(intptr_t)&a->s;
    return true;
  }
  if (!arg_fits(L, idx, t, false)) return false;  /* booleans, complex, classes, dtypes, pointers */
  fill_slot(L, idx, t, slot, cbuf);
  return true;
}

/* runs specialization s on the arguments (already in slots); its results on the stack */
static int run_spec(lua_State *L, DispSpec *s, int64_t *args) {
  int64_t small[2 * RT_ARRAY_SLOTS];
  int64_t *ret = s->ret_slots <= (int)lm_countof(small) ? small
                                                        : lua_newuserdatauv(L, sizeof(int64_t) * (size_t)s->ret_slots, 0);
  LmErr err;
  err.kind = 0;
  err.msg = NULL;
  err.stack_limit = 0;
  err.where = NULL;
  InterruptScope isc;
  interrupt_enter(L, &isc);
  int32_t st = s->wrap(&err, ret, args);
  interrupt_leave(&isc);
  if (LM_UNLIKELY(st != 0)) {
    if (st == LMERR_INTERRUPT) interrupt_consume(&isc);
    raise_status(L, st, &err);
  }
  Type *t = s->ret;
  if (t->kind == TY_SCALAR && t->dtype == DT_FLOAT64) {  /* the usual scalar result, without push_value's tests */
    double v;
    memcpy(&v, ret, sizeof v);
    lua_pushnumber(L, v);
    return 1;
  }
  int k = 0;
  return push_value(L, t, ret, &k);
}

/* The fast path: the nargs arguments after the dispatcher have the types of
** the previous call (d->last). Returns the number of results, or -1 (the
** stack as it was) when they do not: the general path decides. */
static inline int call_last(lua_State *L, Dispatcher *d, int nargs) {
  DispSpec *s = d->last;
  if (s == NULL || nargs != s->nargs) return -1;
  int64_t args[LM_MAXARGS];
  double cargs[LM_MAXARGS][2];
  for (int i = 0; i < nargs; i++)
    if (!take_arg(L, d, i + 2, s->argtypes[i], &args[i], cargs[i])) return -1;
  return run_spec(L, s, args);
}

/* The general path, the dispatcher at 1 and nargs arguments after it:
** defaults, Lua tables, compilation, object mode, GPU refusals. */
static int call_general(lua_State *L, Dispatcher *d, int nargs) {
  if (LM_UNLIKELY(d->name == NULL)) collected(L);
  if (LM_UNLIKELY(d->opt.gpu)) {
    if (d->opt.device) return luaL_error(L, "%s is a CUDA device function: call it from a kernel", d->name);
    return luaL_error(L, "%s is a CUDA kernel: launch it with %s[{blocks, threads}](...)", d->name, d->name);
  }
  if (nargs != d->nparams) {
    if (nargs > d->nparams || nargs < d->nparams - d->ndefaults)
      return luaL_error(L, "%s() takes %d argument%s but %d were given", d->name, d->nparams,
                        d->nparams == 1 ? "" : "s", nargs);
    lua_getiuservalue(L, 1, DISP_UV_DEFAULTS);
    int dt = lua_gettop(L);
    for (int i = nargs; i < d->nparams; i++) lua_geti(L, dt, i - (d->nparams - d->ndefaults) + 1);
    lua_remove(L, dt);
    nargs = d->nparams;
  }
  int tabs[LM_MAXARGS];
  bool tables = false;
  DispSpec *s = d->last;
  if (s == NULL || !spec_fits(L, s, nargs, false)) {
    if (d->objmode) return call_objmode(L, d, nargs);
    tables = tables_in(L, d, nargs, tabs);
    if (d->fallback) {
      s = try_compile(L, d, nargs);
      if (s == NULL) {
        tables_restore(L, nargs, tabs);  /* object mode takes the tables themselves */
        return call_objmode(L, d, nargs);
      }
    } else {
      s = find_or_compile(L, d, nargs);
    }
    d->last = s;
  }
  if (LM_UNLIKELY(tables)) tables_check(L, d, s, nargs, tabs);
  int64_t args[LM_MAXARGS];
  double cargs[LM_MAXARGS][2];
  for (int i = 0; i < nargs; i++) fill_slot(L, i + 2, s->argtypes[i], &args[i], cargs[i]);
  int nres = run_spec(L, s, args);
  if (LM_UNLIKELY(tables)) tables_out(L, nargs, tabs);  /* leaves the stack as it was: the results stay on top */
  return nres;
}

/* __call. Lua calls it with a dispatcher first; anything else takes the
** debug library (__metatable hides the metatable: debug.getmetatable(d).__call(x),
** or debug.setmetatable(x, ...)), and is refused by its size and tag, which
** keep memory safe (udata.h). A block that passes is a dispatcher, whatever
** its metatable: the full check runs only to name an impostor. */
static int dispatch_lua_call(lua_State *L) {
  Dispatcher *d = lua_rawlen(L, 1) == sizeof(Dispatcher) ? lua_touserdata(L, 1) : NULL;
  if (LM_UNLIKELY(d == NULL || d->tag != DISPATCHER_TAG)) {
    lua_settop(L, 1);
    UDATA_CHECK(L, 1, Dispatcher, DISPATCHER_MT, DISPATCHER_TAG);  /* raises, naming an impostor */
    return luaL_typeerror(L, 1, DISPATCHER_MT);
  }
  int nargs = lua_gettop(L) - 1;
  int n = call_last(L, d, nargs);
  return n >= 0 ? n : call_general(L, d, nargs);
}

/* ---- creation ---- */

static bool opt_bool(lua_State *L, int t, const char *k, bool dflt) {
  lua_getfield(L, t, k);
  bool v = lua_isnil(L, -1) ? dflt : lua_toboolean(L, -1);
  lua_pop(L, 1);
  return v;
}

static void read_options(lua_State *L, int t, Options *o) {
  static const char *const known[] = {"boundscheck", "error_model", "fastmath", "parallel", "cache", "nopython",
                                      "name", "forceobj", "nogil", "inline", "signatures", "debug", "device", "target", "lineinfo",
                                      "max_registers", "opt", "fallback", "semantics", NULL};
  memset(o, 0, sizeof *o);
  if (lua_isnoneornil(L, t)) {
    o->boundscheck = getenv("LUMBA_BOUNDSCHECK") && strcmp(getenv("LUMBA_BOUNDSCHECK"), "1") == 0;
    return;
  }
  luaL_checktype(L, t, LUA_TTABLE);
  lua_pushnil(L);
  while (lua_next(L, t)) {
    lua_pop(L, 1);
    bool ok = false;
    if (lua_type(L, -1) == LUA_TSTRING)
      for (int i = 0; known[i]; i++) ok = ok || strcmp(lua_tostring(L, -1), known[i]) == 0;
    if (!ok) luaL_error(L, "unknown option '%s'", luaL_tolstring(L, -1, NULL));
  }
  const char *bc = getenv("LUMBA_BOUNDSCHECK");
  o->boundscheck = opt_bool(L, t, "boundscheck", bc && strcmp(bc, "1") == 0);
  o->parallel = opt_bool(L, t, "parallel", false);
  o->cache = opt_bool(L, t, "cache", false);
  o->device = opt_bool(L, t, "device", false);
  o->debug = opt_bool(L, t, "debug", false);
  lua_getfield(L, t, "target");
  if (!lua_isnil(L, -1)) {
    const char *tg = lua_tostring(L, -1);
    if (tg == NULL || (strcmp(tg, "cpu") != 0 && strcmp(tg, "cuda") != 0)) luaL_error(L, "target must be 'cpu' or 'cuda'");
    o->gpu = strcmp(tg, "cuda") == 0;
  }
  lua_pop(L, 1);
  lua_getfield(L, t, "error_model");
  if (!lua_isnil(L, -1)) {
    const char *em = lua_tostring(L, -1);
    if (em == NULL || (strcmp(em, "python") != 0 && strcmp(em, "numpy") != 0))
      luaL_error(L, "error_model must be 'python' or 'numpy'");
    o->error_model_numpy = strcmp(em, "numpy") == 0;
    o->error_model_set = true;
  }
  lua_pop(L, 1);
  lua_getfield(L, t, "semantics");
  if (!lua_isnil(L, -1)) {
    const char *sm = lua_tostring(L, -1);
    if (sm == NULL || (strcmp(sm, "python") != 0 && strcmp(sm, "lua") != 0))
      luaL_error(L, "semantics must be 'python' or 'lua'");
    o->lua = strcmp(sm, "lua") == 0;
  }
  lua_pop(L, 1);
  lua_getfield(L, t, "fastmath");
  if (lua_istable(L, -1)) {  /* a set of LLVM fast-math flags: {"nnan", "contract", ...} or {nnan=true} */
    int ti = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, ti)) {
      const char *name = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : lua_tostring(L, -1);
      int f = name ? fastmath_flag(name) : -1;
      if (f < 0)
        luaL_error(L, "unknown fast-math flag '%s' (nnan, ninf, nsz, arcp, contract, afn, reassoc or fast)",
                   name ? name : "?");
      if (lua_type(L, -2) != LUA_TSTRING || lua_toboolean(L, -1)) o->fastmath |= (unsigned)f;
      lua_pop(L, 1);
    }
  } else {
    o->fastmath = lua_toboolean(L, -1) ? FM_ALL : 0u;
  }
  lua_pop(L, 1);
}

/* Parse once at creation: syntax errors surface at once (as Python's do at
** decoration), and we learn the parameters and the constant defaults. */
typedef struct Probe {
  const char *want;  // def name or NULL for the first def
  int src_idx;
  const char *chunk;
  int nparams, ndefaults;
  Arena arena;
  struct Parsed *parsed;  // a module parsed once for all its dispatchers (lumba.load), or NULL
} Probe;

/* core._parsed(src, chunk): a module's tree parsed once, which
** core.dispatcher takes as its 6th argument so that lumba.load does not
** parse the whole module again for each of its functions. */
typedef struct Parsed {
  Arena arena;
  Node *mod;
  const char *text;  // the Lua string parsed: the same object is the same source
  int cursor;        // where the previous def was found (load asks in order)
} Parsed;
#define PARSED_MT "lumba.parsed"

static void push_default(lua_State *L, const Source *src, Node *v) {
  bool neg = false;
  if (v->kind == ND_UnaryOp && v->op == OP_USub && v->operand->kind == ND_Constant) {
    neg = true;
    v = v->operand;
  }
  if (v->kind == ND_Constant) {
    switch (v->ckind) {
      case CK_INT: lua_pushinteger(L, neg ? (lua_Integer)(0 - (uint64_t)v->ival) : v->ival); return;
      case CK_FLOAT: lua_pushnumber(L, neg ? -v->fval : v->fval); return;
      case CK_BOOL: if (!neg) { lua_pushboolean(L, v->bval); return; } break;
      default: break;
    }
  }
  /* a dtype (np.float32, float32, 'f4'): its name, as a Lua caller passes one */
  const char *dn = v->kind == ND_Attribute || v->kind == ND_Name ? v->name
                   : v->kind == ND_Constant && v->ckind == CK_STR ? v->sval : NULL;
  if (!neg && dn && dtype_from_name(dn) >= 0) {
    lua_pushstring(L, dtype_names[dtype_from_name(dn)]);
    return;
  }
  diag_error(L, src, v->loc, "UnsupportedError", "default values must be numbers, booleans or dtypes");
}

static int probe_protected(lua_State *L) {
  Probe *p = lua_touserdata(L, 1);
  Parsed *pm = p->parsed;
  Node *mod = pm ? pm->mod : frontend_load(L, &p->arena, p->src_idx, p->chunk);
  Node *def = NULL;
  int n = mod->body.len, start = pm && p->want ? pm->cursor : 0;
  for (int k = 0; k < n && !def; k++) {
    int i = (start + k) % n;
    Node *s = mod->body.items[i];
    if (s->kind == ND_FunctionDef && (!p->want || strcmp(s->name, p->want) == 0)) {
      def = s;
      if (pm) pm->cursor = i + 1;
    }
  }
  if (def == NULL) {
    if (p->want) return luaL_error(L, "no function named '%s' in the source", p->want);
    return luaL_error(L, "the source defines no function (expected a 'def')");
  }
  if (def->sval) {  /* a def the lenient parse skipped (frontend.h): its UnsupportedError */
    lua_pushstring(L, def->sval);
    return lua_error(L);
  }
  if (def->args.len > LM_MAXARGS) return luaL_error(L, "%s() has too many parameters (at most %d)", def->name, LM_MAXARGS);
  p->nparams = def->args.len;
  p->ndefaults = def->defaults.len;
  lua_createtable(L, def->defaults.len, 0);
  for (int i = 0; i < def->defaults.len; i++) {
    push_default(L, mod->loc.src, def->defaults.items[i]);
    lua_rawseti(L, -2, i + 1);
  }
  lua_pushstring(L, def->name);  /* any length: the arena dies with the probe */
  return 2;
}


static int parsed_protected(lua_State *L) {
  Parsed *pm = lua_touserdata(L, 1);
  pm->mod = frontend_load(L, &pm->arena, 2, lua_tostring(L, 3));
  return 0;
}

static int parsed_gc(lua_State *L) {
  Parsed *pm = luaL_checkudata(L, 1, PARSED_MT);
  arena_free(&pm->arena);
  pm->mod = NULL;
  return 0;
}

static int dispatch_lua_parsed(lua_State *L) {
  luaL_checkstring(L, 1);
  const char *chunk = luaL_optstring(L, 2, "<string>");
  Parsed *pm = lua_newuserdatauv(L, sizeof(Parsed), 1);
  memset(pm, 0, sizeof *pm);
  arena_init(&pm->arena);
  luaL_setmetatable(L, PARSED_MT);
  lua_pushvalue(L, 1);
  lua_setiuservalue(L, -2, 1);  /* keeps the string, so its address stays its identity */
  pm->text = lua_tostring(L, 1);
  lua_pushcfunction(L, parsed_protected);
  lua_pushlightuserdata(L, pm);
  lua_pushvalue(L, 1);
  lua_pushstring(L, chunk);
  if (lua_pcall(L, 3, 0, 0) != LUA_OK) {
    arena_free(&pm->arena);
    pm->mod = NULL;
    return lua_error(L);
  }
  return 1;
}

/* Frees a specialization and lets go of its code: the JIT removes the code
** once no specialization and no caller's code uses it (jit_cpu.h). Runs in
** the dispatcher's finalizer, when no call of it can be running (a
** dispatcher being called is on the Lua stack), or when a compilation fails. */
void dispatch_free_spec(DispSpec *s) {
  if (s == NULL) return;
  if (s->gpu && s->gpu_free) s->gpu_free(s->gpu);
  if (s->code && s->code_free) s->code_free(s->code);
  free(s->kernel_ir);
  free(s->kernel_name);
  free(s->pardiag);
  free(s->symbol);
  free(s->llvm_ir);
  free(s->types);
  free(s);
}

static int disp_gc(lua_State *L) {
  Dispatcher *d = UDATA_GC_TEST(L, 1, Dispatcher, DISPATCHER_MT, DISPATCHER_TAG);
  if (d == NULL) return 0;  /* an impostor (udata.h) is left alone */
  DispSpec *s = d->specs;
  while (s) {
    DispSpec *n = s->next;
    dispatch_free_spec(s);
    s = n;
  }
  d->specs = d->last = NULL;
  free(d->name);
  d->name = NULL;
  return 0;
}

/* core.dispatcher(src_or_ast, opts, env, globals, chunkname [, parsed [, siblings]]) */
static int dispatch_lua_new(lua_State *L) {
  if (lua_type(L, 1) != LUA_TSTRING && !lua_istable(L, 1))
    return luaL_argerror(L, 1, lua_pushfstring(L, "source string or AST table expected, got %s", luaL_typename(L, 1)));
  Options opt;
  read_options(L, 2, &opt);
  const char *chunk = luaL_optstring(L, 5, "<string>");
  lmstate_get(L);
  Probe p;
  memset(&p, 0, sizeof p);
  arena_init(&p.arena);
  p.src_idx = 2;  /* inside probe_protected: (probe, source) */
  p.chunk = chunk;
  Parsed *pm = luaL_testudata(L, 6, PARSED_MT);
  if (pm && pm->mod && lua_type(L, 1) == LUA_TSTRING && lua_tostring(L, 1) == pm->text) p.parsed = pm;
  lua_settop(L, 7);
  if (lua_istable(L, 2)) {
    lua_getfield(L, 2, "name");  /* stays on the stack while p.want is used */
    p.want = lua_tostring(L, -1);
  }
  lua_pushcfunction(L, probe_protected);
  lua_pushlightuserdata(L, &p);
  lua_pushvalue(L, 1);
  int st = lua_pcall(L, 2, 2, 0);
  arena_free(&p.arena);
  if (st != LUA_OK) return lua_error(L);
  int defaults = lua_gettop(L) - 1;
  const char *name = lua_tostring(L, -1);
  Dispatcher *d = lua_newuserdatauv(L, sizeof(Dispatcher), DISP_NUV);
  memset(d, 0, sizeof *d);
  d->tag = DISPATCHER_TAG;
  luaL_getmetatable(L, ARRAY_MT);
  d->array_mt = lua_topointer(L, -1);
  lua_pop(L, 1);
  luaL_setmetatable(L, DISPATCHER_MT);
  d->opt = opt;
  d->fallback = lua_istable(L, 2) && opt_bool(L, 2, "fallback", false);
  d->nparams = p.nparams;
  d->ndefaults = p.ndefaults;
  size_t n = strlen(name) + 1;
  d->name = malloc(n);
  if (d->name == NULL) return luaL_error(L, "not enough memory");
  memcpy(d->name, name, n);
  lua_pushvalue(L, 1);
  lua_setiuservalue(L, -2, DISP_UV_SOURCE);
  lua_pushvalue(L, 3);
  lua_setiuservalue(L, -2, DISP_UV_ENV);
  lua_pushvalue(L, 4);
  lua_setiuservalue(L, -2, DISP_UV_GLOBALS);
  lua_pushvalue(L, defaults);
  lua_setiuservalue(L, -2, DISP_UV_DEFAULTS);
  lua_pushstring(L, chunk);
  lua_setiuservalue(L, -2, DISP_UV_CHUNK);
  if (lua_istable(L, 7)) {
    lua_pushvalue(L, 7);
    lua_setiuservalue(L, -2, DISP_UV_SIBLINGS);
  }
  return 1;
}

/* d:compile("float64(float64[:], int64)"): eager compilation */
static int dispatch_lua_compile(lua_State *L) {
  Dispatcher *d = check_disp(L, 1);
  const char *sig = luaL_checkstring(L, 2);
  LmState *S = lmstate_get(L);
  Type *args[LM_MAXARGS], *ret;
  char err[256];
  int n = ty_parse_signature(&S->types, sig, &ret, args, LM_MAXARGS, err, sizeof err);
  if (n < 0) return luaL_argerror(L, 2, lua_pushfstring(L, "bad signature: %s", err));
  if (n != d->nparams)
    return luaL_argerror(L, 2, lua_pushfstring(L, "the signature has %d arguments but %s() takes %d", n, d->name, d->nparams));
  for (DispSpec *s = d->specs; s; s = s->next)
    if (s->nargs == n && memcmp(s->argtypes, args, sizeof(Type *) * (size_t)n) == 0) return 0;
  add_spec(L, d, 1, args, n, ret, true);
  if (lua_toboolean(L, 3)) d->eager = true;
  return 0;
}

/* The specialization for the signature at idx (the newest one when none
** is given); gpu_only: one with NVVM IR, not the CUDA simulator's CPU code. */
static DispSpec *pick_side(lua_State *L, Dispatcher *d, int idx, bool gpu_only);
static DispSpec *pick_spec(lua_State *L, Dispatcher *d, int idx) {
  return pick_side(L, d, idx, false);
}

static DispSpec *pick_side(lua_State *L, Dispatcher *d, int idx, bool gpu_only) {
  if (lua_isnoneornil(L, idx)) {
    if (d->specs == NULL) luaL_error(L, "%s has not been compiled yet: call it or compile a signature first", d->name);
    for (DispSpec *s = d->specs; s; s = s->next)
      if (!gpu_only || s->kernel_ir) return s;
    luaL_error(L, "%s has no GPU specialization (it ran in the CUDA simulator): compile one with "
               "cuda.simulate(false) first", d->name);
  }
  const char *sig = luaL_checkstring(L, idx);
  LmState *S = lmstate_get(L);
  Type *args[LM_MAXARGS], *ret;
  char err[256];
  int n = ty_parse_signature(&S->types, sig, &ret, args, LM_MAXARGS, err, sizeof err);
  if (n < 0) luaL_argerror(L, idx, lua_pushfstring(L, "bad signature: %s", err));
  for (DispSpec *s = d->specs; s; s = s->next)
    if (s->nargs == n && memcmp(s->argtypes, args, sizeof(Type *) * (size_t)n) == 0 && (!gpu_only || s->kernel_ir))
      return s;
  luaL_error(L, "%s has no %sspecialization for %s", d->name, gpu_only ? "GPU " : "", sig);
  return NULL;
}

static void push_signature(lua_State *L, DispSpec *s) {
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  luaL_addchar(&b, '(');
  for (int i = 0; i < s->nargs; i++) {
    if (i) luaL_addstring(&b, ", ");
    luaL_addstring(&b, s->argtypes[i]->name);
  }
  luaL_addstring(&b, ") -> ");
  luaL_addstring(&b, s->ret->name);
  luaL_pushresult(&b);
}

static int dispatch_lua_inspect_types(lua_State *L) {
  Dispatcher *d = check_disp(L, 1);
  if (lua_isnoneornil(L, 2)) {
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (DispSpec *s = d->specs; s; s = s->next) luaL_addstring(&b, s->types);
    luaL_pushresult(&b);
    return 1;
  }
  lua_pushstring(L, pick_spec(L, d, 2)->types);
  return 1;
}

/* d:parallel_diagnostics([sig]): which prange loops ran in parallel, which
** variables were reductions and which were private */
static int dispatch_lua_parallel_diagnostics(lua_State *L) {
  Dispatcher *d = check_disp(L, 1);
  DispSpec *s = pick_spec(L, d, 2);
  if (s->pardiag) lua_pushstring(L, s->pardiag);
  else if (s->llvm_ir == NULL || d->opt.cache) lua_pushfstring(L, "%s(): no prange loops, or the code came from the cache\n", d->name);
  else lua_pushfstring(L, "%s(): no prange loops\n", d->name);
  return 1;
}

static int dispatch_lua_inspect_llvm(lua_State *L) {
  Dispatcher *d = check_disp(L, 1);
  lua_pushstring(L, pick_spec(L, d, 2)->llvm_ir);
  return 1;
}

/* d:_gpu_llvm([sig]): the LLVM IR of a GPU specialization (inspect_ptx) */
static int dispatch_lua_gpu_llvm(lua_State *L) {
  Dispatcher *d = check_disp(L, 1);
  lua_pushstring(L, pick_side(L, d, 2, true)->llvm_ir);
  return 1;
}

static int dispatch_lua_inspect_asm(lua_State *L) {
  Dispatcher *d = check_disp(L, 1);
  if (d->opt.gpu) {
    /* a kernel's assembly is its PTX */
    lua_settop(L, 2);
    lua_getfield(L, 1, "inspect_ptx");
    lua_insert(L, 1);
    lua_call(L, 2, 1);
    return 1;
  }
  DispSpec *s = pick_spec(L, d, 2);
  char *text = backend_get(L)->asm_of_ir(L, s->llvm_ir);
  lua_pushstring(L, text);
  free(text);
  return 1;
}

static int dispatch_lua_index(lua_State *L) {
  Dispatcher *d = check_disp(L, 1);
  if (lua_istable(L, 2)) {
    if (!d->opt.gpu) return luaL_error(L, "%s is not a CUDA kernel: call it directly", d->name);
    return kernel_push_launch(L, 1, 2);
  }
  const char *k = luaL_checkstring(L, 2);
  if (strcmp(k, "signatures") == 0) {
    lua_newtable(L);
    int i = 0;
    for (DispSpec *s = d->specs; s; s = s->next) {
      push_signature(L, s);
      lua_rawseti(L, -2, ++i);
    }
    return 1;
  }
  if (strcmp(k, "name") == 0 || strcmp(k, "__name__") == 0) {
    lua_pushstring(L, d->name);
    return 1;
  }
  if (strcmp(k, "source") == 0) {
    lua_getiuservalue(L, 1, DISP_UV_SOURCE);
    return 1;
  }
  if (strcmp(k, "chunkname") == 0) {
    lua_getiuservalue(L, 1, DISP_UV_CHUNK);
    return 1;
  }
  if (strcmp(k, "env") == 0 || strcmp(k, "globals") == 0 || strcmp(k, "defaults") == 0) {
    lua_getiuservalue(L, 1, k[0] == 'e' ? DISP_UV_ENV : k[0] == 'g' ? DISP_UV_GLOBALS : DISP_UV_DEFAULTS);
    return 1;
  }
  if (strcmp(k, "objmode") == 0) {
    lua_pushboolean(L, d->objmode);
    return 1;
  }
  if (strcmp(k, "options") == 0) {
    lua_createtable(L, 0, 6);
    lua_pushboolean(L, d->opt.boundscheck); lua_setfield(L, -2, "boundscheck");
    /* any flag on; k:inspect_ptx reads it to give libNVVM the options a launch gives */
    lua_pushboolean(L, d->opt.fastmath != 0); lua_setfield(L, -2, "fastmath");
    lua_pushboolean(L, d->opt.parallel); lua_setfield(L, -2, "parallel");
    lua_pushboolean(L, d->opt.cache); lua_setfield(L, -2, "cache");
    bool numpy = d->opt.error_model_numpy || (d->opt.gpu && !d->opt.error_model_set);  /* kernels default to numpy */
    lua_pushstring(L, numpy ? "numpy" : "python"); lua_setfield(L, -2, "error_model");
    lua_pushstring(L, d->opt.lua ? "lua" : "python"); lua_setfield(L, -2, "semantics");
    return 1;
  }
  /* methods: C ones first, then those lua/lumba/init.lua adds */
  lua_getfield(L, LUA_REGISTRYINDEX, DISPATCHER_MT);
  lua_getfield(L, -1, "methods");
  lua_getfield(L, -1, k);
  return 1;
}

static int dispatch_lua_tostring(lua_State *L) {
  Dispatcher *d = UDATA_CHECK(L, 1, Dispatcher, DISPATCHER_MT, DISPATCHER_TAG);
  if (d->name == NULL) {
    lua_pushliteral(L, "lumba.dispatcher: (collected)");
    return 1;
  }
  lua_pushfstring(L, "lumba.dispatcher: %s (%d signature%s)", d->name, d->nspecs, d->nspecs == 1 ? "" : "s");
  return 1;
}

static const luaL_Reg disp_meta[] = {
    {"__index", dispatch_lua_index}, {"__gc", disp_gc},
    {"__tostring", dispatch_lua_tostring}, {NULL, NULL},
};

static const luaL_Reg disp_methods[] = {
    {"compile", dispatch_lua_compile}, {"inspect_types", dispatch_lua_inspect_types},
    {"inspect_llvm", dispatch_lua_inspect_llvm}, {"inspect_asm", dispatch_lua_inspect_asm},
    {"_gpu_llvm", dispatch_lua_gpu_llvm},
    {"parallel_diagnostics", dispatch_lua_parallel_diagnostics}, {NULL, NULL},
};

void dispatch_open(lua_State *L) {
  luaL_newmetatable(L, DISPATCHER_MT);
  luaL_setfuncs(L, disp_meta, 0);
  udata_protect(L, -1, DISPATCHER_MT);
  lua_pushcfunction(L, dispatch_lua_call);
  lua_setfield(L, -2, "__call");
  luaL_newlib(L, disp_methods);
  lua_pushvalue(L, -1);
  lua_setfield(L, -4, "dispatcher_methods");
  lua_setfield(L, -2, "methods");
  lua_pop(L, 1);
  lua_pushcfunction(L, dispatch_lua_new);
  lua_setfield(L, -2, "dispatcher");
  luaL_newmetatable(L, PARSED_MT);
  lua_pushcfunction(L, parsed_gc);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);
  lua_pushcfunction(L, dispatch_lua_parsed);
  lua_setfield(L, -2, "_parsed");
  lua_pushcfunction(L, dispatch_lua_typeof);
  lua_setfield(L, -2, "typeof");
  lua_pushcfunction(L, dispatch_lua_set_on_compile);
  lua_setfield(L, -2, "_set_on_compile");
  lmstate_get(L);
}
