/*
** frontend.h — source text or Lua-table AST to a C AST, and back
** (lumba.parse). Owns lex.c, parse.c, ast_lua.c.
*/
#ifndef frontend_h
#define frontend_h

#include <lua.h>

#include "ast.h"

/* Parse Python-subset source into a Module node in arena a; raises
** SyntaxError / UnsupportedError with positions (diag_error). The source
** is copied into the arena first. Guarantees for later stages: statements
** nest at most LM_MAXNEST deep and every expression tree is at most
** LM_MAXNEST nodes high; a string Constant's sval is NUL-terminated and its
** ival holds the byte length (the value may contain NULs). */
Node *parse_source(lua_State *L, Arena *a, const Source *src);
/* Convert the Lua-table AST at stack index idx to a Module node (a lone
** FunctionDef table is wrapped in a Module); raises an error naming the bad
** node ("ast: BinOp.left at line 3, col_offset 4: expected a node table,
** got number"). Checks what the parser checks (node kinds in their places,
** assignment targets, nested defs, return/break placement); the tree is at
** most 2 * LM_MAXNEST + 16 nodes deep. src is unused (may be NULL). */
Node *ast_from_lua(lua_State *L, int idx, Arena *a, const Source *src);
/* Push the Lua-table form of n. */
void ast_to_lua(lua_State *L, Node *n);
/* Push a Module table holding only module's top-level FunctionDefs, each
** with only its name, position and decorator_list. */
void ast_decorators_to_lua(lua_State *L, Node *module);

/* adds lumba.core.parse(src [, chunkname [, "decorators"]]) */
void frontend_open(lua_State *L);

#endif
