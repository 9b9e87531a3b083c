/*
** frontend.c — frontend_load, the one reader of a function's source (text
** or Lua-table AST) for compilations, device-function imports and the
** dispatcher's first parse; and lumba.parse(src [, chunkname]): source
** text to the Lua-table AST. Parsing runs under lua_pcall so that the
** arena is freed whatever happens, then the error (if any) is raised again
** (luaD_protectedparser's shape).
*/
#include <string.h>

#include <lauxlib.h>

#include "frontend.h"

Node *frontend_load(lua_State *L, Arena *a, int idx, const char *chunk) {
  Source src = {chunk ? chunk : "<string>", NULL, 0};
  if (lua_type(L, idx) != LUA_TSTRING) return ast_from_lua(L, idx, a, &src);
  src.text = lua_tolstring(L, idx, &src.len);
  return parse_source(L, a, &src, true);  /* the lexer copies the text into the arena */
}

/* parse(arena, source, decorators_only) -> Module table */
static int parse_protected(lua_State *L) {
  Arena *a = lua_touserdata(L, 1);
  const Source *src = lua_touserdata(L, 2);
  Node *module = parse_source(L, a, src, lua_toboolean(L, 3));  /* what njit and load read: lenient */
  if (lua_toboolean(L, 3)) ast_decorators_to_lua(L, module);
  else ast_to_lua(L, module);
  return 1;
}

/* roundtrip(arena, table) -> table rebuilt from the C tree */
static int roundtrip_protected(lua_State *L) {
  Arena *a = lua_touserdata(L, 1);
  ast_to_lua(L, ast_from_lua(L, 2, a, NULL));
  return 1;
}

/* Call f(arena, arg) protected, free the arena, then return its result
** or raise its error. */
static int with_arena(lua_State *L, lua_CFunction f, int nargs) {
  Arena a;
  arena_init(&a);
  lua_pushcfunction(L, f);
  lua_pushlightuserdata(L, &a);
  lua_rotate(L, -2 - nargs, 2);
  int status = lua_pcall(L, 1 + nargs, 1, 0);
  arena_free(&a);
  if (status != LUA_OK) return lua_error(L);
  return 1;
}

/* parse(src [, chunkname [, "decorators"]]): the third argument asks for
** the top-level defs' names and decorators only (njit reads its options
** there; building the whole tree cost it half of its time) */
static int frontend_lua_parse(lua_State *L) {
  size_t len;
  const char *text = luaL_checklstring(L, 1, &len);
  Source src = {luaL_optstring(L, 2, "<string>"), text, len};
  const char *what = luaL_optstring(L, 3, NULL);
  if (what && strcmp(what, "decorators") != 0)
    return luaL_argerror(L, 3, "\"decorators\" or nothing expected");
  lua_settop(L, 2);
  lua_pushlightuserdata(L, &src);
  lua_pushboolean(L, what != NULL);
  return with_arena(L, parse_protected, 2);
}

/* test hook: table -> C tree -> table, so a spec can check the reader */
static int frontend_lua_ast_roundtrip(lua_State *L) {
  luaL_checkany(L, 1);
  lua_settop(L, 1);
  return with_arena(L, roundtrip_protected, 1);
}

/* lumba.core._prelude() -> the prelude's text (the object mode runs its defs) */
static int frontend_lua_prelude(lua_State *L) {
  lua_pushstring(L, prelude_text);
  return 1;
}

void frontend_open(lua_State *L) {
  lua_pushcfunction(L, frontend_lua_prelude);
  lua_setfield(L, -2, "_prelude");
  lua_pushcfunction(L, frontend_lua_parse);
  lua_setfield(L, -2, "parse");
  lua_pushcfunction(L, frontend_lua_ast_roundtrip);
  lua_setfield(L, -2, "_ast_roundtrip");
}
