/*
** fuzz_parse — the lexer and parser on arbitrary bytes. parse_source runs
** under lua_pcall with an arena, as lumba.parse does; a syntax error is a
** Lua error and fine. What may not happen: a crash, a sanitizer report, or
** a tree the parser accepts but the Lua-table importer rejects (both
** directions must agree: parse -> tables -> ast_from_lua).
*/
#include "fuzz.h"

#include "frontend.h"

/* (arena, source) -> the tree as tables */
static int parse(lua_State *L) {
  Arena *a = lua_touserdata(L, 1);
  const Source *src = lua_touserdata(L, 2);
  ast_to_lua(L, parse_source(L, a, src, false));
  return 1;
}

/* (arena, tables) -> tree */
static int import(lua_State *L) {
  Arena *a = lua_touserdata(L, 1);
  ast_to_lua(L, ast_from_lua(L, 2, a, NULL));
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  lua_State *L = fz_state();
  char *text = malloc(size + 1);
  if (text == NULL) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  Source src = {"fuzz", text, size};
  Arena a;
  arena_init(&a);
  lua_pushcfunction(L, parse);
  lua_pushlightuserdata(L, &a);
  lua_pushlightuserdata(L, &src);
  int st = lua_pcall(L, 2, 1, 0);
  arena_free(&a);
  if (st == LUA_OK) {
    /* the importer must take what the parser made */
    Arena b;
    arena_init(&b);
    lua_pushcfunction(L, import);
    lua_pushlightuserdata(L, &b);
    lua_pushvalue(L, 1);
    if (lua_pcall(L, 2, 1, 0) != LUA_OK)
      FZ_FAIL("the importer rejects the parser's tree: %s\n--- source ---\n%s", lua_tostring(L, -1), text);
    arena_free(&b);
  } else if (lua_type(L, -1) != LUA_TSTRING) {
    FZ_FAIL("a parse error that is not a string");
  }
  free(text);
  fz_collect(L);
  return 0;
}
