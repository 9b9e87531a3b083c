/*
** lex.h — source text to tokens, as Python's tokenizer does it: slices of
** the source with positions, NEWLINE at the end of each logical line,
** INDENT/DEDENT when the indentation changes, nothing for blank lines,
** comments or newlines inside brackets.
*/
#ifndef lex_h
#define lex_h

#include <stdbool.h>

#include <lua.h>

#include "arena.h"
#include "diag.h"

/* One row per token kind: T(NAME, "spelling for messages").
** Keywords and operators are spelled as in the source. */
#define LEX_TOKENS(T) \
  T(EOF, "end of input") T(NEWLINE, "end of line") T(INDENT, "an indent") \
  T(DEDENT, "a dedent") T(NAME, "a name") T(INT, "an integer") \
  T(FLOAT, "a float") T(STRING, "a string") \
  /* keywords */ \
  T(FALSE, "False") T(NONE, "None") T(TRUE, "True") T(AND, "and") T(AS, "as") \
  T(ASSERT, "assert") T(ASYNC, "async") T(AWAIT, "await") T(BREAK, "break") \
  T(CLASS, "class") T(CONTINUE, "continue") T(DEF, "def") T(DEL, "del") \
  T(ELIF, "elif") T(ELSE, "else") T(EXCEPT, "except") T(FINALLY, "finally") \
  T(FOR, "for") T(FROM, "from") T(GLOBAL, "global") T(IF, "if") \
  T(IMPORT, "import") T(IN, "in") T(IS, "is") T(LAMBDA, "lambda") \
  T(NONLOCAL, "nonlocal") T(NOT, "not") T(OR, "or") T(PASS, "pass") \
  T(RAISE, "raise") T(RETURN, "return") T(TRY, "try") T(WHILE, "while") \
  T(WITH, "with") T(YIELD, "yield") \
  /* delimiters and operators */ \
  T(LPAREN, "(") T(RPAREN, ")") T(LBRACKET, "[") T(RBRACKET, "]") \
  T(LBRACE, "{") T(RBRACE, "}") T(COMMA, ",") T(COLON, ":") T(SEMI, ";") \
  T(DOT, ".") T(ELLIPSIS, "...") T(AT, "@") T(ASSIGN, "=") T(ARROW, "->") \
  T(WALRUS, ":=") T(PLUS, "+") T(MINUS, "-") T(STAR, "*") T(SLASH, "/") \
  T(DSLASH, "//") T(PERCENT, "%") T(POW, "**") T(LSHIFT, "<<") \
  T(RSHIFT, ">>") T(AMP, "&") T(PIPE, "|") T(CARET, "^") T(TILDE, "~") \
  T(LT, "<") T(GT, ">") T(LE, "<=") T(GE, ">=") T(EQ, "==") T(NE, "!=") \
  T(PLUSEQ, "+=") T(MINUSEQ, "-=") T(STAREQ, "*=") T(SLASHEQ, "/=") \
  T(DSLASHEQ, "//=") T(PERCENTEQ, "%=") T(ATEQ, "@=") T(AMPEQ, "&=") \
  T(PIPEEQ, "|=") T(CARETEQ, "^=") T(LSHIFTEQ, "<<=") T(RSHIFTEQ, ">>=") \
  T(POWEQ, "**=")

typedef enum TokenKind {
#define T(n, s) TK_##n,
  LEX_TOKENS(T)
#undef T
  TK__COUNT
} TokenKind;

#define LEX_FIRST_KEYWORD TK_FALSE
#define LEX_LAST_KEYWORD TK_YIELD

typedef struct Token {
  TokenKind kind;
  const char *start;  // slice of the source (the lexer's arena copy)
  int len;            // bytes in the slice
  Loc loc;            // position of the first byte
  bool imag;          // TK_FLOAT: an imaginary literal (2.5j, 1j): v.f is its imaginary part
  union {
    int64_t i;        // TK_INT
    double f;         // TK_FLOAT
    struct {
      const char *s;  // TK_STRING: the decoded value, NUL-terminated, in the arena
      int len;        // its length in bytes (it may contain NULs)
    } str;
  } v;
} Token;

/* Lexer state: one per source; tokens are produced on demand. */
typedef struct Lexer {
  lua_State *L;         // errors are raised on it
  Arena *arena;         // source copy, decoded strings
  Source *src;          // chunk name and the arena copy of the text; every Loc points here
  const char *p;        // next byte to read
  const char *line;     // first byte of the current physical line
  int lineno;           // current physical line, 1-based
  int margin;           // leading blanks every non-blank line shares, skipped (textwrap.dedent)
  int indent[LM_MAXNEST + 1];     // indentation stack, tabs to multiples of 8
  int altindent[LM_MAXNEST + 1];  // the same with tabs as 1 column
  int nindent;          // entries in use; indent[0] == 0
  int dedents;          // DEDENT tokens still to emit
  bool bol;             // at the beginning of a logical line
  bool content;         // the current logical line has produced a token
  int nparen;           // open brackets
  char paren[LM_MAXNEST];  // the open brackets, innermost last
  Loc paren_loc[LM_MAXNEST];
  bool lenient;         // skipped code (an `if __name__ == "__main__":` block): f-strings, bytes and complex literals lexed, not refused
} Lexer;

/* Copy src (chunk name and text) into the arena and start reading it.
** Raises a SyntaxError when the text contains a NUL byte. */
void lex_init(Lexer *X, lua_State *L, Arena *a, const Source *src);
/* The next token; raises SyntaxError / UnsupportedError on bad input. */
Token lex_next(Lexer *X);
/* How messages spell a token kind: "'('", "'def'", "a name", "end of line". */
const char *lex_kind_name(TokenKind k);
/* Memory from the lexer's arena; raises "not enough memory" on failure. */
void *lex_alloc(Lexer *X, size_t size);

#endif
