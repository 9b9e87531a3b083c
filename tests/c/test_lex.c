/* The lexer on its own: token kinds, INDENT/DEDENT, positions, literal
** values, and one error of each family read back from the Lua state. */
#include <lauxlib.h>
#include <lualib.h>

#include "lex.h"
#include "test.h"

#define MAXTOK 512
static Token toks[MAXTOK];
static int ntok;
static char kinds[4096];
static char errmsg[1024];

/* lex(source, arena): every token into toks; errors raise */
static int lex_protected(lua_State *L) {
  size_t len;
  const char *s = lua_tolstring(L, 1, &len);
  Arena *a = lua_touserdata(L, 2);
  Source src = {"t.py", s, len};
  Lexer *X = arena_alloc(a, sizeof *X);
  lex_init(X, L, a, &src);
  ntok = 0;
  do {
    toks[ntok] = lex_next(X);
  } while (toks[ntok++].kind != TK_EOF && ntok < MAXTOK);
  return 0;
}

/* Lex s; returns the kinds as "NAME '=' INT NEWLINE EOF", or "error: msg". */
static const char *lex(lua_State *L, Arena *a, const char *s, size_t len) {
  lua_pushcfunction(L, lex_protected);
  lua_pushlstring(L, s, len);
  lua_pushlightuserdata(L, a);
  if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
    snprintf(errmsg, sizeof errmsg, "error: %s", lua_tostring(L, -1));
    lua_pop(L, 1);
    return errmsg;
  }
  kinds[0] = '\0';
  for (int i = 0; i < ntok; i++) {
    static const char *const short_names[] = {"EOF", "NEWLINE", "INDENT", "DEDENT",
                                              "NAME", "INT", "FLOAT", "STRING"};
    TokenKind k = toks[i].kind;
    if (i) strcat(kinds, " ");
    strcat(kinds, k <= TK_STRING ? short_names[k] : lex_kind_name(k));
  }
  return kinds;
}

#define LEX(s) lex(L, &a, s, sizeof(s) - 1)

static int count(TokenKind k) {
  int n = 0;
  for (int i = 0; i < ntok; i++) n += toks[i].kind == k;
  return n;
}

static const char ising[] =
    "import numpy as np\n"
    "\n"
    "@numba.jit(nopython=True, cache=True)\n"
    "def ising_energy_numba(spins: np.ndarray, J: float = 1.0) -> float:\n"
    "    \"\"\"Numba JIT accelerated Ising energy.\n"
    "\n"
    "    nopython=True: compile fully or raise.\n"
    "    \"\"\"\n"
    "    N = spins.shape[0]\n"
    "    energy = 0.0\n"
    "    for i in range(N):\n"
    "        for j in range(N):\n"
    "            s = spins[i, j]\n"
    "            # periodic boundary via modulo\n"
    "            neighbor_right = spins[i, (j + 1) % N]\n"
    "            energy -= J * s * (neighbor_right + neighbor_down)\n"
    "    return energy\n";

int main(void) {
  lua_State *L = luaL_newstate();
  Arena a;
  arena_init(&a);

  /* logical lines, implicit joining, continuation, comments, blank lines */
  ASSERT_STR("NAME '=' INT NEWLINE EOF", LEX("x = 1"));
  ASSERT_STR("NAME '=' '(' INT ',' INT ')' NEWLINE EOF", LEX("x = (1,\n\n   2)\n"));
  ASSERT_STR("NAME '=' INT '+' INT NEWLINE EOF", LEX("x = 1 + \\\n      2\n"));
  ASSERT_STR("NAME NEWLINE NAME NEWLINE EOF", LEX("# head\n\na  # tail\n   \n\t\n# x\nb\n"));
  ASSERT_STR("EOF", LEX("\n\n# only a comment\n"));
  ASSERT_STR("NAME NEWLINE EOF", LEX("x\r\n"));

  /* indentation: one INDENT per deeper level, DEDENTs to the matching one */
  ASSERT_STR("'if' NAME ':' NEWLINE INDENT 'if' NAME ':' NEWLINE INDENT NAME NEWLINE "
             "DEDENT DEDENT NAME NEWLINE EOF",
             LEX("if a:\n  if b:\n    c\nd\n"));
  ASSERT_STR("'if' NAME ':' NEWLINE INDENT NAME NEWLINE DEDENT EOF", LEX("if a:\n\tb"));
  LEX(ising);
  ASSERT(3, count(TK_INDENT));
  ASSERT(3, count(TK_DEDENT));
  ASSERT(12, count(TK_NEWLINE));
  ASSERT_STR("error: t.py:3:2: SyntaxError: unindent does not match any outer indentation level\n"
             "     b\n"
             "     ^",
             LEX("if a:\n   a\n b\n"));
  ASSERT_STR("error: t.py:3:9: SyntaxError: inconsistent use of tabs and spaces in indentation\n"
             "            b\n"
             "            ^",
             LEX("if a:\n\ta\n        b\n"));

  /* positions: line 1-based, column 0-based bytes */
  LEX("x = 1\n  \nif y:\n    z += 2\n");
  ASSERT(TK_NAME, toks[9].kind);  // 'z'
  ASSERT(4, toks[9].loc.line);
  ASSERT(4, toks[9].loc.col);
  ASSERT(0, memcmp(toks[9].start, "z", 1));
  ASSERT(TK_PLUSEQ, toks[10].kind);
  ASSERT(6, toks[10].loc.col);
  ASSERT(2, toks[10].len);

  /* operators: longest match */
  ASSERT_STR("'**=' '**' '*' '//=' '//' '/' '->' ':=' ':' '<<=' '<=' '<' '!=' '==' '=' '@' "
             "'...' '.' NEWLINE EOF",
             LEX("**= ** * //= // / -> := : <<= <= < != == = @ ... ."));

  /* integer literals */
  ASSERT_STR("INT INT INT INT INT INT NEWLINE EOF", LEX("0x_ff 0o17 0b101 1_000 0 00"));
  ASSERT(255, toks[0].v.i);
  ASSERT(15, toks[1].v.i);
  ASSERT(5, toks[2].v.i);
  ASSERT(1000, toks[3].v.i);
  ASSERT(0, toks[4].v.i);
  LEX("9223372036854775807");
  ASSERT(1, toks[0].v.i == INT64_MAX);
  ASSERT_STR("error: t.py:1:1: SyntaxError: integer literal too large for int64\n"
             "    9223372036854775808\n"
             "    ^",
             LEX("9223372036854775808"));

  /* float literals */
  ASSERT_STR("FLOAT FLOAT FLOAT FLOAT FLOAT NEWLINE EOF", LEX("1. .5 1e-9 1_000.5 2.5E+3"));
  ASSERT(1, toks[0].v.f == 1.0);
  ASSERT(1, toks[1].v.f == 0.5);
  ASSERT(1, toks[2].v.f == 1e-9);
  ASSERT(1, toks[3].v.f == 1000.5);
  ASSERT(1, toks[4].v.f == 2500.0);

  /* strings: escapes, raw, triple-quoted, line continuation inside */
  LEX("'a\\tb\\n\\x41\\101\\u00e9' r'\\n' \"\"\"x\ny\"\"\" 'p\\\nq' \"it's\"");
  ASSERT_STR("a\tb\nAA\xc3\xa9", toks[0].v.str.s);
  ASSERT_STR("\\n", toks[1].v.str.s);
  ASSERT_STR("x\ny", toks[2].v.str.s);
  ASSERT(9, toks[2].len);  // the slice is the source text
  ASSERT_STR("pq", toks[3].v.str.s);
  ASSERT(3, toks[4].loc.line);
  ASSERT_STR("it's", toks[4].v.str.s);
  LEX("'\\x00z'");
  ASSERT(2, toks[0].v.str.len);
  ASSERT_STR("error: t.py:1:1: SyntaxError: unterminated string literal (detected at line 1)\n"
             "    'abc\n"
             "    ^",
             LEX("'abc\n"));

  /* the lexer's own errors leave the state usable */
  ASSERT_STR("error: t.py:1:5: SyntaxError: invalid character '$'\n"
             "    x = $\n"
             "        ^",
             LEX("x = $"));
  ASSERT_STR("NAME NEWLINE EOF", LEX("y"));

  arena_free(&a);
  lua_close(L);
  TEST_END();
}
