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
** ival holds the byte length (the value may contain NULs).
** lenient: an undecorated top-level def that uses Python lumba does not
** compile (an UnsupportedError) is a plain Python helper: kept as a
** FunctionDef with no body and the error in its sval, raised only when
** something compiles or calls it (compile_find_def, the probe). */
Node *parse_source(lua_State *L, Arena *a, const Source *src, bool lenient);
/* Convert the Lua-table AST at stack index idx to a Module node (a lone
** FunctionDef table is wrapped in a Module); raises an error naming the bad
** node ("ast: BinOp.left at line 3, col_offset 4: expected a node table,
** got number"). Checks what the parser checks (node kinds in their places,
** assignment targets, nested defs, return/break placement); the tree is at
** most 2 * LM_MAXNEST + 16 nodes deep. Positions name a copy of src in the
** arena, whose text is the Module table's `source` string when src has
** none (src NULL: positions name no source). */
Node *ast_from_lua(lua_State *L, int idx, Arena *a, const Source *src);
/* The source at stack index idx, a text (parse_source) or a Lua-table AST
** (ast_from_lua), as a Module node in arena a. Every position in it names
** one Source in the arena, with the given chunk name ("<string>" if NULL):
** module->loc.src. What device functions and callees read too, so their
** errors show their own text. */
Node *frontend_load(lua_State *L, Arena *a, int idx, const char *chunk);
/* Push the Lua-table form of n. */
void ast_to_lua(lua_State *L, Node *n);
/* Push a Module table holding only module's top-level FunctionDefs, each
** with only its name, position and decorator_list. */
void ast_decorators_to_lua(lua_State *L, Node *module);

/* adds lumba.core.parse(src [, chunkname [, "decorators"]]) and
** lumba.core._prelude() (the prelude's text, for the object mode) */
void frontend_open(lua_State *L);

/* build/gen/prelude_text.c: every file of src/prelude (the NumPy prelude
** builtin_prelude.c compiles, the object mode runs), joined in name order */
extern const char prelude_text[];

#endif
