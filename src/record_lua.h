/*
** record_lua.h — record dtypes and record arrays from Lua (record_lua.c).
*/
#ifndef record_lua_h
#define record_lua_h

#include <stdbool.h>

#include <lua.h>

#include "array.h"

/* the record dtype of a "lumba.dtype" value at idx, or -1 */
int record_dtype_test(lua_State *L, int idx);
void record_push_dtype(lua_State *L, int dt);
/* a view of field i of the record array a */
void record_push_field(lua_State *L, const NdArray *a, int i);
/* an element at p as a table {x = ..., n = ...}; store a Lua value there */
void record_push_elem(lua_State *L, int dt, const char *p);
void record_store_elem(lua_State *L, int dt, char *p, int idx, int argn);
/* a.x and a.x = v of a record array; record_index returns 0 for no field */
int record_index(lua_State *L, const NdArray *a, const char *key);
int record_newindex(lua_State *L, NdArray *a, const char *key, int vidx);
int record_tostring(lua_State *L, const NdArray *a);
bool record_method_ok(const char *name);  /* a method record arrays keep */
l_noret record_unsupported(lua_State *L, int dt, const char *what);
/* after array_open: lumba.dtype into the table on top, a:field into the
** arrays' methods, and array_records (array_impl.h) set */
void record_open(lua_State *L);

#endif
