/*
** lex.c — the tokenizer. Follows Python's lexical rules (the reference's
** "Lexical analysis" chapter): logical lines end in NEWLINE, indentation
** changes give INDENT/DEDENT, newlines inside (), [], {} and after a
** backslash join lines, blank and comment-only lines give nothing.
** Tokens are slices of an arena copy of the source; literal values are
** decoded here. Errors are SyntaxError (UnsupportedError for literals
** lumba does not compile) with the position of the offending byte.
*/
#include <string.h>

#include <lauxlib.h>

#include "lex.h"

static const char *const kind_names[TK__COUNT] = {
#define T(n, s) s,
    LEX_TOKENS(T)
#undef T
};

static const char *const kind_quoted[TK__COUNT] = {
#define T(n, s) "'" s "'",
    LEX_TOKENS(T)
#undef T
};

const char *lex_kind_name(TokenKind k) {
  LM_ASSERT(k >= 0 && k < TK__COUNT);
  return k < LEX_FIRST_KEYWORD ? kind_names[k] : kind_quoted[k];
}

void *lex_alloc(Lexer *X, size_t size) {
  void *p = arena_alloc(X->arena, size);
  if (p == NULL) luaL_error(X->L, "not enough memory");
  return p;
}

/* ---- errors ---------------------------------------------------------- */

static Loc loc_at(Lexer *X, const char *p) {
  Loc loc = {X->src, X->lineno, (int)(p - X->line)};
  return loc;
}

#define syntax_error(X, loc, ...) \
  diag_error((X)->L, (X)->src, (loc), "SyntaxError", __VA_ARGS__)

/* "'$'" for a printable byte, "byte 0x01" otherwise */
static const char *describe_byte(Lexer *X, unsigned char c) {
  char *buf = lex_alloc(X, 16);
  if (c > 32 && c < 127)
    snprintf(buf, 16, "'%c'", c);
  else
    snprintf(buf, 16, "(byte 0x%02X)", c);
  return buf;
}

/* ---- character classes (ASCII only: never the C locale's) ------------ */

static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_hex(int c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static int hex_value(int c) {
  return is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10;
}
/* bytes >= 0x80 are taken as parts of UTF-8 identifiers */
static bool is_ident_start(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         (unsigned char)c >= 0x80;
}
static bool is_ident(int c) { return is_ident_start(c) || is_digit(c); }

/* ---- setup ----------------------------------------------------------- */

/* Bare '\r' (old Mac line ends) becomes '\n' in the copy: one byte for
** one, so every column and offset stays as in the caller's text ("\r\n"
** needs nothing: '\r' before '\n' is blank to the lexer). */
static void bare_cr_to_lf(char *text, size_t len) {
  for (size_t i = 0; i < len; i++)
    if (text[i] == '\r' && (i + 1 == len || text[i + 1] != '\n')) text[i] = '\n';
}

/* The blanks (spaces and tabs, byte for byte) that every line holding
** more than blanks starts with: Python indented as a whole to sit inside
** Lua code reads as if dedented (textwrap.dedent). indentation() skips
** them; columns still count from the start of the line. */
static int common_margin(const char *p) {
  const char *margin = NULL;
  int n = 0;
  while (*p) {
    int w = 0;
    while (p[w] == ' ' || p[w] == '\t') w++;
    bool blank = p[w] == '\n' || p[w] == '\r' || p[w] == '\0';
    if (!blank) {
      if (margin == NULL) margin = p, n = w;
      int k = 0;
      while (k < n && k < w && p[k] == margin[k]) k++;
      n = k;
      if (n == 0) return 0;
    }
    p += w;
    while (*p && *p != '\n') p++;
    if (*p) p++;
  }
  return n;
}

/* The copy keeps token slices, caret lines and every position's Source
** valid for the whole compilation, whatever the caller does with its
** strings. */
void lex_init(Lexer *X, lua_State *L, Arena *a, const Source *src) {
  memset(X, 0, sizeof *X);
  X->L = L;
  X->arena = a;
  X->src = lex_alloc(X, sizeof(Source));
  if (src->chunk) {
    size_t n = strlen(src->chunk) + 1;
    X->src->chunk = memcpy(lex_alloc(X, n), src->chunk, n);
  }
  X->lineno = 1;
  if (src->text == NULL) luaL_error(L, "no source text");
  if (src->len > (size_t)INT32_MAX - 1)
    luaL_error(L, "source too large (%d bytes at most)", INT32_MAX - 1);
  char *text = lex_alloc(X, src->len + 1);
  memcpy(text, src->text, src->len);
  text[src->len] = '\0';
  bare_cr_to_lf(text, src->len);
  X->src->text = text;
  X->src->len = src->len;
  X->p = X->line = text;
  X->nindent = 1;  // indent[0] == 0
  X->bol = true;
  /* a UTF-8 byte order mark is not part of the text */
  if (src->len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) X->p += 3;
  const char *nul = memchr(text, '\0', src->len);
  if (nul == NULL) X->margin = common_margin(X->p);
  if (nul != NULL) {
    int line = 1;
    const char *ls = text;
    for (const char *q = text; q < nul; q++)
      if (*q == '\n') line++, ls = q + 1;
    Loc loc = {X->src, line, (int)(nul - ls)};
    X->src->len = (size_t)(nul - text);  // the caret line ends there
    syntax_error(X, loc, "source code cannot contain null bytes");
  }
}

static Token make(Lexer *X, TokenKind kind, const char *start, const char *end) {
  Token t;
  memset(&t, 0, sizeof t);
  t.kind = kind;
  t.start = start;
  t.len = (int)(end - start);
  t.loc = loc_at(X, start);
  return t;
}

/* consume a '\n' (p points at it) and start the next physical line */
static void next_line(Lexer *X) {
  X->p++;
  X->lineno++;
  X->line = X->p;
}

/* ---- indentation ----------------------------------------------------- */

/* At the start of a logical line: skip blank and comment-only lines, then
** compare the indentation with the stack. Returns true when an INDENT is
** due (pushed already); DEDENTs are counted in X->dedents. Tabs go to the
** next multiple of 8; the same measure with tabs as one column must agree,
** or the meaning would depend on the tab size (Python's TabError). */
static bool indentation(Lexer *X) {
  for (;;) {
    int col = 0, alt = 0;
    const char *p = X->p;
    for (int m = X->margin; m > 0 && (*p == ' ' || *p == '\t'); m--) p++;
    for (;; p++) {
      if (*p == ' ') col++, alt++;
      else if (*p == '\t') col = (col / 8 + 1) * 8, alt++;
      else if (*p == '\f') col = alt = 0;
      else if (*p != '\r') break;
    }
    X->p = p;
    if (*p == '#') {
      while (*p != '\n' && *p != '\0') p++;
      X->p = p;
    }
    if (*X->p == '\n') {  // blank line
      next_line(X);
      continue;
    }
    if (*X->p == '\0') {  // end of input: close every open block
      X->dedents += X->nindent - 1;
      X->nindent = 1;
      X->bol = false;
      return false;
    }
    X->bol = false;
    int top = X->nindent - 1;
    Loc here = loc_at(X, X->p);
    if (col == X->indent[top]) {
      if (alt != X->altindent[top]) goto inconsistent;
      return false;
    }
    if (col > X->indent[top]) {
      if (alt <= X->altindent[top]) goto inconsistent;
      if (X->nindent > LM_MAXNEST) syntax_error(X, here, "too deeply nested");
      X->indent[X->nindent] = col;
      X->altindent[X->nindent++] = alt;
      return true;
    }
    while (X->nindent > 1 && col < X->indent[X->nindent - 1]) {
      X->nindent--;
      X->dedents++;
    }
    if (col != X->indent[X->nindent - 1])
      syntax_error(X, here, "unindent does not match any outer indentation level");
    if (alt != X->altindent[X->nindent - 1]) goto inconsistent;
    return false;
  inconsistent:
    syntax_error(X, here, "inconsistent use of tabs and spaces in indentation");
  }
}

/* ---- numbers --------------------------------------------------------- */

/* digitpart -> digit (['_'] digit)*   (p at a digit; returns past it) */
static const char *digitpart(Lexer *X, const char *start, const char *p) {
  for (;;) {
    while (is_digit(*p)) p++;
    if (*p != '_') return p;
    if (!is_digit(p[1])) syntax_error(X, loc_at(X, start), "invalid decimal literal");
    p++;
  }
}

/* hexinteger | octinteger | bininteger: '0' ('x'|'o'|'b') (['_'] digit)+ */
static Token radix_int(Lexer *X, const char *s) {
  int base = (s[1] | 0x20) == 'x' ? 16 : (s[1] | 0x20) == 'o' ? 8 : 2;
  const char *what = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
  const char *p = s + 2;
  uint64_t v = 0;
  int ndigits = 0;
  bool overflow = false;
  for (;;) {
    if (*p == '_') p++;
    int d = is_hex(*p) ? hex_value(*p) : -1;
    if (d < 0 || d >= base) {
      if (is_digit(*p) && base < 10)
        syntax_error(X, loc_at(X, p), "invalid digit '%c' in %s literal", *p, what);
      if (ndigits == 0 || p[-1] == '_' || is_ident(*p))
        syntax_error(X, loc_at(X, s), "invalid %s literal", what);
      break;
    }
    if (v > ((uint64_t)INT64_MAX - (uint64_t)d) / (uint64_t)base) overflow = true;
    v = v * (uint64_t)base + (uint64_t)d;
    ndigits++;
    p++;
  }
  if (overflow) syntax_error(X, loc_at(X, s), "integer literal too large for int64");
  Token t = make(X, TK_INT, s, p);
  t.v.i = (int64_t)v;
  return t;
}

/* The digits of a float without underscores, converted by Lua (so the
** decimal point does not depend on the C locale). */
static double float_value(Lexer *X, const char *s, const char *e) {
  char small[64];
  size_t n = (size_t)(e - s);
  char *buf = n < sizeof small ? small : lex_alloc(X, n + 1);
  size_t k = 0;
  for (const char *q = s; q < e; q++)
    if (*q != '_') buf[k++] = *q;
  buf[k] = '\0';
  luaL_checkstack(X->L, 1, "too many nested calls");
  if (lua_stringtonumber(X->L, buf) == 0)
    syntax_error(X, loc_at(X, s), "invalid float literal");
  double d = (double)lua_tonumber(X->L, -1);
  lua_pop(X->L, 1);
  return d;
}

/* number -> decinteger | floatnumber | radix integer
** decinteger -> nonzerodigit (['_'] digit)* | '0'+ (['_'] '0')*
** floatnumber -> [digitpart] '.' digitpart | digitpart '.' | (those | digitpart) exponent
** exponent -> ('e'|'E') ['+'|'-'] digitpart */
static Token number(Lexer *X, const char *s) {
  if (s[0] == '0' && s[1] != '\0' && strchr("xXoObB", s[1]) != NULL)
    return radix_int(X, s);
  const char *p = s;
  bool isfloat = false;
  if (is_digit(*p)) p = digitpart(X, s, p);
  if (*p == '.') {
    isfloat = true;
    p++;
    if (is_digit(*p)) p = digitpart(X, s, p);
    else if (*p == '_') syntax_error(X, loc_at(X, s), "invalid decimal literal");
  }
  if ((*p | 0x20) == 'e' &&
      (is_digit(p[1]) || ((p[1] == '+' || p[1] == '-') && is_digit(p[2])))) {
    isfloat = true;
    p += (p[1] == '+' || p[1] == '-') ? 2 : 1;
    p = digitpart(X, s, p);
  }
  const char *digits_end = p;
  bool imag = (*p | 0x20) == 'j';
  if (imag) p++;
  if (is_ident(*p)) syntax_error(X, loc_at(X, s), "invalid decimal literal");
  if (imag) {  /* Python's imaginary literal: a float, whatever its digits */
    Token t = make(X, TK_FLOAT, s, p);
    t.imag = true;
    t.v.f = float_value(X, s, digits_end);
    return t;
  }
  if (isfloat) {
    Token t = make(X, TK_FLOAT, s, p);
    t.v.f = float_value(X, s, p);
    return t;
  }
  uint64_t v = 0;
  bool nonzero = false, overflow = false;
  for (const char *q = s; q < p; q++) {
    if (*q == '_') continue;
    uint64_t d = (uint64_t)(*q - '0');
    if (d) nonzero = true;
    if (v > ((uint64_t)INT64_MAX - d) / 10) overflow = true;
    v = v * 10 + d;
  }
  if (s[0] == '0' && nonzero)
    syntax_error(X, loc_at(X, s),
                 "leading zeros in decimal integer literals are not permitted; "
                 "use an 0o prefix for octal integers");
  if (overflow) syntax_error(X, loc_at(X, s), "integer literal too large for int64");
  Token t = make(X, TK_INT, s, p);
  t.v.i = (int64_t)v;
  return t;
}

/* ---- strings --------------------------------------------------------- */

static char *put_utf8(char *o, uint32_t c) {
  if (c < 0x80) {
    *o++ = (char)c;
  } else if (c < 0x800) {
    *o++ = (char)(0xC0 | (c >> 6));
    *o++ = (char)(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    *o++ = (char)(0xE0 | (c >> 12));
    *o++ = (char)(0x80 | ((c >> 6) & 0x3F));
    *o++ = (char)(0x80 | (c & 0x3F));
  } else {
    *o++ = (char)(0xF0 | (c >> 18));
    *o++ = (char)(0x80 | ((c >> 12) & 0x3F));
    *o++ = (char)(0x80 | ((c >> 6) & 0x3F));
    *o++ = (char)(0x80 | (c & 0x3F));
  }
  return o;
}

/* \xhh, \uhhhh, \Uhhhhhhhh: exactly n hex digits after p */
static uint32_t hex_escape(Lexer *X, const char *p, int n, Loc loc) {
  uint32_t c = 0;
  for (int i = 0; i < n; i++) {
    if (!is_hex(p[i]))
      syntax_error(X, loc, "truncated \\%c%s escape", p[-1],
                   n == 2 ? "XX" : n == 4 ? "XXXX" : "XXXXXXXX");
    c = c * 16 + (uint32_t)hex_value(p[i]);
  }
  if (c > 0x10FFFF) syntax_error(X, loc, "illegal Unicode character");
  return c;
}

/* Decode the body [p, end) of a non-raw string into out; returns the end
** of the output. Escapes as Python's str literals; an unknown escape keeps
** its backslash. A backslash before a newline joins the lines. */
static char *decode(Lexer *X, const char *p, const char *end, char *o, Loc loc) {
  while (p < end) {
    if (*p == '\r' && p[1] == '\n') {
      p++;
      continue;
    }
    if (*p != '\\') {
      *o++ = *p++;
      continue;
    }
    p++;
    char c = *p++;
    switch (c) {
      case '\n': break;
      case '\r': if (*p == '\n') p++; break;
      case '\\': *o++ = '\\'; break;
      case '\'': *o++ = '\''; break;
      case '"': *o++ = '"'; break;
      case 'a': *o++ = '\a'; break;
      case 'b': *o++ = '\b'; break;
      case 'f': *o++ = '\f'; break;
      case 'n': *o++ = '\n'; break;
      case 'r': *o++ = '\r'; break;
      case 't': *o++ = '\t'; break;
      case 'v': *o++ = '\v'; break;
      case 'x': o = put_utf8(o, hex_escape(X, p, 2, loc)); p += 2; break;
      case 'u': o = put_utf8(o, hex_escape(X, p, 4, loc)); p += 4; break;
      case 'U': o = put_utf8(o, hex_escape(X, p, 8, loc)); p += 8; break;
      case 'N':
        diag_error(X->L, X->src, loc, "UnsupportedError",
                   "'\\N{...}' escapes are not supported in compiled code");
      default:
        if (c >= '0' && c <= '7') {
          uint32_t v = (uint32_t)(c - '0');
          for (int i = 0; i < 2 && *p >= '0' && *p <= '7'; i++)
            v = v * 8 + (uint32_t)(*p++ - '0');
          o = put_utf8(o, v);
        } else {
          *o++ = '\\';
          *o++ = c;
        }
    }
  }
  return o;
}

/* string -> [prefix] (short_string | long_string); prefix is r, u, or
** (unsupported) b and f in either case and order. s is the prefix start,
** q the opening quote. */
static Token string(Lexer *X, const char *s, const char *q) {
  bool raw = false;
  for (const char *c = s; c < q; c++) {
    int l = *c | 0x20;
    if (l == 'r') raw = true;
    else if (X->lenient) continue;
    else if (l == 'f')
      diag_error(X->L, X->src, loc_at(X, s), "UnsupportedError",
                 "f-strings are not supported in compiled code");
    else if (l == 'b')
      diag_error(X->L, X->src, loc_at(X, s), "UnsupportedError",
                 "bytes literals are not supported in compiled code");
  }
  Loc loc = loc_at(X, s);
  char quote = *q;
  bool triple = q[1] == quote && q[2] == quote;
  const char *body = q + (triple ? 3 : 1), *p = body;
  /* find the closing quote; a backslash always protects the next byte */
  for (;;) {
    if (*p == '\0' || (!triple && *p == '\n'))
      syntax_error(X, loc, "unterminated %sstring literal (detected at line %d)",
                   triple ? "triple-quoted " : "", X->lineno);
    if (*p == '\\' && p[1] != '\0') {
      p++;
      if (*p == '\r' && p[1] == '\n') p++;
    } else if (*p == quote && (!triple || (p[1] == quote && p[2] == quote))) {
      break;
    }
    if (*p == '\n') {
      X->lineno++;
      X->line = p + 1;
    }
    p++;
  }
  const char *end = p;
  char *out = lex_alloc(X, (size_t)(end - body) + 1), *o = out;
  if (raw) {
    for (const char *c = body; c < end; c++)
      if (!(*c == '\r' && c[1] == '\n')) *o++ = *c;
  } else {
    o = decode(X, body, end, out, loc);
  }
  *o = '\0';
  X->p = end + (triple ? 3 : 1);
  Token t = make(X, TK_STRING, s, X->p);
  t.loc = loc;
  t.v.str.s = out;
  t.v.str.len = (int)(o - out);
  return t;
}

/* ---- names and operators -------------------------------------------- */

static TokenKind keyword(const char *s, int len) {
  for (int k = LEX_FIRST_KEYWORD; k <= LEX_LAST_KEYWORD; k++)
    if ((int)strlen(kind_names[k]) == len && memcmp(kind_names[k], s, (size_t)len) == 0)
      return (TokenKind)k;
  return TK_NAME;
}

static bool is_string_prefix(const char *s, int len) {
  if (len > 2) return false;
  int a = s[0] | 0x20, b = len == 2 ? (s[1] | 0x20) : 0;
  if (len == 1) return a == 'r' || a == 'u' || a == 'b' || a == 'f';
  return (a == 'r' && (b == 'b' || b == 'f')) || (b == 'r' && (a == 'b' || a == 'f'));
}

/* operators, longest spelling first so that "**=" wins over "**" and "*" */
static TokenKind operator(const char *p, int *len) {
  static const TokenKind ops[] = {
      TK_ELLIPSIS, TK_DSLASHEQ, TK_LSHIFTEQ, TK_RSHIFTEQ, TK_POWEQ,
      TK_ARROW, TK_WALRUS, TK_DSLASH, TK_POW, TK_LSHIFT, TK_RSHIFT, TK_LE,
      TK_GE, TK_EQ, TK_NE, TK_PLUSEQ, TK_MINUSEQ, TK_STAREQ, TK_SLASHEQ,
      TK_PERCENTEQ, TK_ATEQ, TK_AMPEQ, TK_PIPEEQ, TK_CARETEQ,
      TK_LPAREN, TK_RPAREN, TK_LBRACKET, TK_RBRACKET, TK_LBRACE, TK_RBRACE,
      TK_COMMA, TK_COLON, TK_SEMI, TK_DOT, TK_AT, TK_ASSIGN, TK_PLUS,
      TK_MINUS, TK_STAR, TK_SLASH, TK_PERCENT, TK_AMP, TK_PIPE, TK_CARET,
      TK_TILDE, TK_LT, TK_GT,
  };
  for (size_t i = 0; i < lm_countof(ops); i++) {
    const char *sp = kind_names[ops[i]];
    size_t n = strlen(sp);
    if (strncmp(p, sp, n) == 0) {
      *len = (int)n;
      return ops[i];
    }
  }
  return TK_EOF;
}

static const char *closing_of(char open) {
  return open == '(' ? ")" : open == '[' ? "]" : "}";
}

/* brackets: implicit line joining while any is open; they must match */
static void bracket(Lexer *X, const char *p) {
  Loc loc = loc_at(X, p);
  if (*p == '(' || *p == '[' || *p == '{') {
    if (X->nparen >= LM_MAXNEST) syntax_error(X, loc, "too deeply nested");
    X->paren[X->nparen] = *p;
    X->paren_loc[X->nparen++] = loc;
    return;
  }
  if (X->nparen == 0) syntax_error(X, loc, "unmatched '%c'", *p);
  char open = X->paren[X->nparen - 1];
  Loc oloc = X->paren_loc[X->nparen - 1];
  if (*closing_of(open) != *p) {
    if (oloc.line != loc.line)
      syntax_error(X, loc,
                   "closing parenthesis '%c' does not match opening parenthesis '%c' on line %d",
                   *p, open, oloc.line);
    syntax_error(X, loc, "closing parenthesis '%c' does not match opening parenthesis '%c'",
                 *p, open);
  }
  X->nparen--;
}

/* ---- the token loop -------------------------------------------------- */

Token lex_next(Lexer *X) {
  for (;;) {
    if (X->dedents > 0) {
      X->dedents--;
      return make(X, TK_DEDENT, X->p, X->p);
    }
    if (X->bol && X->nparen == 0) {
      if (indentation(X)) return make(X, TK_INDENT, X->p, X->p);
      continue;
    }
    const char *p = X->p;
    while (*p == ' ' || *p == '\t' || *p == '\f' || *p == '\r') p++;
    X->p = p;
    unsigned char c = (unsigned char)*p;
    if (c == '#') {
      while (*p != '\n' && *p != '\0') p++;
      X->p = p;
      continue;
    }
    if (c == '\\') {
      const char *n = p + 1;
      if (*n == '\r' && n[1] == '\n') n++;
      if (*n == '\n') {
        X->p = n;
        next_line(X);
        continue;
      }
      if (*n == '\0') syntax_error(X, loc_at(X, p), "unexpected end of input after '\\'");
      syntax_error(X, loc_at(X, p), "unexpected character after line continuation character");
    }
    if (c == '\n' || c == '\0') {
      if (X->nparen > 0) {
        if (c == '\0')
          syntax_error(X, X->paren_loc[X->nparen - 1], "'%c' was never closed",
                       X->paren[X->nparen - 1]);
        next_line(X);
        continue;
      }
      if (X->content) {  // end of a logical line
        Token t = make(X, TK_NEWLINE, p, p + (c == '\n'));
        X->content = false;
        X->bol = true;
        if (c == '\n') next_line(X);
        return t;
      }
      if (c == '\n') {
        next_line(X);
        X->bol = true;
        continue;
      }
      return make(X, TK_EOF, p, p);
    }
    X->content = true;
    if (is_ident_start(c)) {
      const char *s = p;
      while (is_ident(*p)) p++;
      if ((*p == '\'' || *p == '"') && is_string_prefix(s, (int)(p - s)))
        return string(X, s, p);
      X->p = p;
      Token t = make(X, TK_NAME, s, p);
      t.kind = keyword(s, t.len);
      return t;
    }
    if (is_digit(c) || (c == '.' && is_digit(p[1]))) {
      Token t = number(X, p);
      X->p = t.start + t.len;
      return t;
    }
    if (c == '\'' || c == '"') return string(X, p, p);
    int len;
    TokenKind k = operator(p, &len);
    if (k == TK_EOF) {
      if (c == '!')
        syntax_error(X, loc_at(X, p), "invalid character '!' (use 'not' for negation)");
      syntax_error(X, loc_at(X, p), "invalid character %s", describe_byte(X, c));
    }
    if (k >= TK_LPAREN && k <= TK_RBRACE) bracket(X, p);
    X->p = p + len;
    return make(X, k, p, X->p);
  }
}
