/*
** parse.c — tokens to the tree of ast.h, shaped exactly as Python's ast
** module shapes it (positions included: a node starts at its first token,
** parentheses around an operand count for the enclosing node). One
** function per grammar rule, the rule in the comment above it; binary
** operators by precedence climbing. Python outside the compiled subset is
** parsed far enough to be named in an UnsupportedError.
*/
#include <string.h>

#include <lauxlib.h>

#include "lex.h"
#include "parse.h"

typedef struct Parser {
  lua_State *L;
  Arena *a;
  Lexer X;        // token source; X.src is the arena copy every position names
  Token tok;      // current token
  Token prev;     // last consumed token
  int depth;      // nesting of recursive rules and blocks, <= LM_MAXNEST
  int h;          // height of the expression tree returned last
  int funcdepth;  // enclosing defs
  int loopdepth;  // enclosing loops of the current def
  bool decorator; // parsing a decorator: '{...}' allowed (decorator_brace)
  bool lenient;   // plain Python helpers skipped (helper_def)
} Parser;

static Node *test(Parser *P);
static Node *factor(Parser *P);
static Node *binary(Parser *P, int minprec);
static void statement(Parser *P, NodeList *out);

/* ---- errors ---------------------------------------------------------- */

#define syntax_error(P, loc, ...) \
  diag_error((P)->L, (P)->X.src, (loc), "SyntaxError", __VA_ARGS__)

/* UnsupportedError: "<what> are not supported in compiled code" */
static l_noret unsupported(Parser *P, Loc loc, const char *what) {
  diag_error(P->L, P->X.src, loc, "UnsupportedError",
             "%s are not supported in compiled code", what);
}

/* How a message names a token: its text, quoted, or "end of line". */
static const char *describe(Parser *P, Token t) {
  if (t.kind == TK_NAME || t.kind == TK_INT || t.kind == TK_FLOAT) {
    int n = t.len > 24 ? 24 : t.len;
    char *s = lex_alloc(&P->X, (size_t)n + 6);
    s[0] = '\'';
    memcpy(s + 1, t.start, (size_t)n);
    strcpy(s + 1 + n, n < t.len ? "...'" : "'");
    return s;
  }
  return lex_kind_name(t.kind);
}

/* "expected X", with what was found unless the caret says it already */
static l_noret expected(Parser *P, const char *what) {
  if (P->tok.kind == TK_NEWLINE || P->tok.kind == TK_EOF)
    syntax_error(P, P->tok.loc, "expected %s", what);
  syntax_error(P, P->tok.loc, "expected %s, found %s", what, describe(P, P->tok));
}

/* ---- tokens ---------------------------------------------------------- */

static void advance(Parser *P) {
  P->prev = P->tok;
  P->tok = lex_next(&P->X);
}

static bool check(Parser *P, TokenKind k) { return P->tok.kind == k; }

static bool accept(Parser *P, TokenKind k) {
  if (!check(P, k)) return false;
  advance(P);
  return true;
}

static Token expect(Parser *P, TokenKind k) {
  if (!check(P, k)) expected(P, lex_kind_name(k));
  advance(P);
  return P->prev;
}

/* ---- nodes and limits ------------------------------------------------ */

static Node *node(Parser *P, NodeKind k, Loc loc) {
  Node *n = ast_new(P->a, k, loc);
  if (n == NULL) luaL_error(P->L, "not enough memory");
  return n;
}

static void push(Parser *P, NodeList *l, Node *n) {
  int len = l->len;
  ast_list_push(P->a, l, n);
  if (l->len == len) luaL_error(P->L, "not enough memory");
}

static const char *name_of(Parser *P, Token t) {
  char *s = lex_alloc(&P->X, (size_t)t.len + 1);
  memcpy(s, t.start, (size_t)t.len);
  return s;
}

/* recursion and block nesting: the C stack stays bounded */
static void enter(Parser *P) {
  if (++P->depth > LM_MAXNEST) syntax_error(P, P->tok.loc, "too deeply nested");
}

static void leave(Parser *P) { P->depth--; }

/* n is h nodes high; so are the trees later stages recurse on */
static Node *sized(Parser *P, Node *n, int h) {
  if (h > LM_MAXNEST) syntax_error(P, P->tok.loc, "too deeply nested");
  P->h = h;
  return n;
}

static int max(int a, int b) { return a > b ? a : b; }

/* can this token start an expression? (ends optional expression lists) */
static bool starts_expr(TokenKind k) {
  switch (k) {
    case TK_NAME: case TK_INT: case TK_FLOAT: case TK_STRING: case TK_NONE:
    case TK_TRUE: case TK_FALSE: case TK_LPAREN: case TK_LBRACKET:
    case TK_LBRACE: case TK_MINUS: case TK_PLUS: case TK_TILDE: case TK_NOT:
    case TK_LAMBDA: case TK_AWAIT: case TK_YIELD: case TK_STAR:
    case TK_ELLIPSIS:
      return true;
    default:
      return false;
  }
}

/* ---- expressions ----------------------------------------------------- */

/* strings -> STRING+   (adjacent literals are one constant, as in Python)
** sval is NUL-terminated; ival holds its length, as the value may contain
** NULs ("\0"). */
static Node *strings(Parser *P) {
  Node *n = node(P, ND_Constant, P->tok.loc);
  n->ckind = CK_STR;
  Token first = P->tok;
  advance(P);
  if (!check(P, TK_STRING)) {
    n->sval = first.v.str.s;
    n->ival = first.v.str.len;
    return sized(P, n, 1);
  }
  luaL_Buffer b;
  luaL_buffinit(P->L, &b);
  luaL_addlstring(&b, first.v.str.s, (size_t)first.v.str.len);
  while (check(P, TK_STRING)) {
    luaL_addlstring(&b, P->tok.v.str.s, (size_t)P->tok.v.str.len);
    advance(P);
  }
  luaL_pushresult(&b);
  size_t len;
  const char *s = lua_tolstring(P->L, -1, &len);
  char *copy = lex_alloc(&P->X, len + 1);
  memcpy(copy, s, len);
  lua_pop(P->L, 1);
  n->sval = copy;
  n->ival = (int64_t)len;
  return sized(P, n, 1);
}

/* '{' ... '}': dict and set displays are not compiled; name which one */
static l_noret brace(Parser *P) {
  Loc loc = P->tok.loc;
  advance(P);
  if (check(P, TK_RBRACE) || check(P, TK_POW)) unsupported(P, loc, "dict displays");
  test(P);
  if (check(P, TK_COLON)) unsupported(P, loc, "dict displays");
  if (check(P, TK_FOR)) unsupported(P, loc, "set comprehensions");
  unsupported(P, loc, "set displays");
}

/* A '{' ... '}' in a decorator (`locals={'x': float64}`,
** `fastmath={'nsz', 'arcp'}`): a set of constants reads as a List, what a
** decorator option takes; a dict, whose value no lumba option reads, as None. */
static Node *decorator_brace(Parser *P) {
  Loc loc = P->tok.loc;
  advance(P);
  Node *n = node(P, ND_List, loc);
  bool dict = false;
  int h = 0;
  while (!check(P, TK_RBRACE) && !check(P, TK_EOF)) {
    if (accept(P, TK_POW)) dict = true;
    Node *e = test(P);
    h = max(h, P->h);
    if (accept(P, TK_COLON)) {
      dict = true;
      test(P);
      h = max(h, P->h);
    }
    push(P, &n->elts, e);
    if (!accept(P, TK_COMMA)) break;
  }
  expect(P, TK_RBRACE);
  if (dict || n->elts.len == 0) {
    n = node(P, ND_Constant, loc);
    n->ckind = CK_NONE;
  }
  return sized(P, n, h + 1);
}

/* display -> '(' [test (',' test)* [',']] ')' | '[' [test (',' test)* [',']] ']'
** A parenthesized single expression is that expression; with a comma it
** is a Tuple starting at the '('. */
static Node *display(Parser *P) {
  Loc loc = P->tok.loc;
  bool list = check(P, TK_LBRACKET);
  TokenKind close = list ? TK_RBRACKET : TK_RPAREN;
  advance(P);
  Node *n = node(P, list ? ND_List : ND_Tuple, loc);
  int h = 0;
  while (!check(P, close)) {
    Node *e = test(P);
    h = max(h, P->h);
    if (check(P, TK_FOR))
      unsupported(P, loc, list ? "list comprehensions" : "generator expressions");
    if (!list && n->elts.len == 0 && check(P, TK_RPAREN)) {  // (e)
      advance(P);
      P->h = h;
      return e;
    }
    push(P, &n->elts, e);
    if (!accept(P, TK_COMMA)) break;
  }
  expect(P, close);
  return sized(P, n, h + 1);
}

/* atom -> NAME | NUMBER | STRING+ | 'None' | 'True' | 'False' | display */
static Node *atom(Parser *P) {
  Token t = P->tok;
  Node *n;
  switch (t.kind) {
    case TK_NAME:
      n = node(P, ND_Name, t.loc);
      n->name = name_of(P, t);
      break;
    case TK_INT:
      n = node(P, ND_Constant, t.loc);
      n->ckind = CK_INT;
      n->ival = t.v.i;
      break;
    case TK_FLOAT:
      n = node(P, ND_Constant, t.loc);
      n->ckind = t.imag ? CK_IMAG : CK_FLOAT;
      n->fval = t.v.f;
      break;
    case TK_NONE: case TK_TRUE: case TK_FALSE:
      n = node(P, ND_Constant, t.loc);
      n->ckind = t.kind == TK_NONE ? CK_NONE : CK_BOOL;
      n->bval = t.kind == TK_TRUE;
      break;
    case TK_STRING: return strings(P);
    case TK_LPAREN: case TK_LBRACKET: return display(P);
    case TK_LBRACE:
      if (P->decorator) return decorator_brace(P);
      brace(P);
    case TK_LAMBDA: unsupported(P, t.loc, "lambda expressions");
    case TK_YIELD: unsupported(P, t.loc, "generators ('yield')");
    case TK_AWAIT: unsupported(P, t.loc, "'await' expressions");
    case TK_STAR: unsupported(P, t.loc, "starred expressions ('*')");
    case TK_ELLIPSIS: unsupported(P, t.loc, "Ellipsis literals ('...')");
    default: expected(P, "an expression");
  }
  advance(P);
  return sized(P, n, 1);
}

/* arguments -> arg (',' arg)* [',']
** arg -> test | NAME '=' test   (keywords after positionals) */
static int arguments(Parser *P, Node *call) {
  int h = 0;
  while (!check(P, TK_RPAREN)) {
    if (check(P, TK_STAR)) unsupported(P, P->tok.loc, "starred arguments ('*args')");
    if (check(P, TK_POW)) unsupported(P, P->tok.loc, "'**kwargs' arguments");
    Loc loc = P->tok.loc;
    Node *e = test(P);
    if (check(P, TK_FOR)) unsupported(P, loc, "generator expressions");
    if (accept(P, TK_ASSIGN)) {
      if (e->kind != ND_Name)
        syntax_error(P, loc, "expression cannot contain assignment, perhaps you meant \"==\"?");
      for (int i = 0; i < call->keywords.len; i++)
        if (strcmp(call->keywords.items[i]->name, e->name) == 0)
          syntax_error(P, loc, "keyword argument repeated: %s", e->name);
      Node *k = node(P, ND_keyword, loc);
      k->name = e->name;
      k->value = test(P);
      h = max(h, P->h + 1);
      push(P, &call->keywords, k);
    } else {
      if (call->keywords.len > 0)
        syntax_error(P, loc, "positional argument follows keyword argument");
      h = max(h, P->h);
      push(P, &call->args, e);
    }
    if (!accept(P, TK_COMMA)) break;
  }
  expect(P, TK_RPAREN);
  return h;
}

/* slice -> [test] ':' [test] [':' [test]] | test */
static Node *slice(Parser *P) {
  Loc loc = P->tok.loc;
  Node *lower = NULL;
  int h = 0;
  if (!check(P, TK_COLON)) {
    lower = test(P);
    if (!check(P, TK_COLON)) return lower;
    h = P->h;
  }
  Node *n = node(P, ND_Slice, loc);
  n->lower = lower;
  advance(P);  // ':'
  if (!check(P, TK_COLON) && !check(P, TK_COMMA) && !check(P, TK_RBRACKET)) {
    n->upper = test(P);
    h = max(h, P->h);
  }
  if (accept(P, TK_COLON) && !check(P, TK_COMMA) && !check(P, TK_RBRACKET)) {
    n->step = test(P);
    h = max(h, P->h);
  }
  return sized(P, n, h + 1);
}

/* slices -> slice (',' slice)* [',']   (a Tuple when there is a comma) */
static Node *slices(Parser *P) {
  Loc loc = P->tok.loc;
  Node *s = slice(P);
  if (!check(P, TK_COMMA)) return s;
  Node *t = node(P, ND_Tuple, loc);
  int h = P->h;
  push(P, &t->elts, s);
  while (accept(P, TK_COMMA) && !check(P, TK_RBRACKET)) {
    push(P, &t->elts, slice(P));
    h = max(h, P->h);
  }
  return sized(P, t, h + 1);
}

/* primary -> atom ('.' NAME | '(' [arguments] ')' | '[' slices ']')* */
static Node *primary(Parser *P) {
  Loc loc = P->tok.loc;
  Node *n = atom(P);
  int h = P->h;
  for (;;) {
    Node *m;
    if (accept(P, TK_DOT)) {
      m = node(P, ND_Attribute, loc);
      m->value = n;
      if (!check(P, TK_NAME)) expected(P, "an attribute name");
      m->name = name_of(P, P->tok);
      advance(P);
      h = h + 1;
    } else if (accept(P, TK_LPAREN)) {
      m = node(P, ND_Call, loc);
      m->func = n;
      h = max(h, arguments(P, m)) + 1;
    } else if (accept(P, TK_LBRACKET)) {
      m = node(P, ND_Subscript, loc);
      m->value = n;
      m->slice = slices(P);
      expect(P, TK_RBRACKET);
      h = max(h, P->h) + 1;
    } else {
      P->h = h;
      return n;
    }
    n = sized(P, m, h);
  }
}

/* power -> primary ['**' factor]   (binds tighter than a unary minus on
** its left, looser on its right: -2**-1 is -(2**(-1))) */
static Node *power(Parser *P) {
  Loc loc = P->tok.loc;
  Node *base = primary(P);
  if (!accept(P, TK_POW)) return base;
  int h = P->h;
  Node *n = node(P, ND_BinOp, loc);
  n->left = base;
  n->op = OP_Pow;
  enter(P);
  n->right = factor(P);
  leave(P);
  return sized(P, n, max(h, P->h) + 1);
}

/* factor -> ('+' | '-' | '~') factor | power */
static Node *factor(Parser *P) {
  OpKind op = check(P, TK_MINUS) ? OP_USub : check(P, TK_PLUS) ? OP_UAdd
            : check(P, TK_TILDE) ? OP_Invert : OP_None;
  if (op == OP_None) return power(P);
  Node *n = node(P, ND_UnaryOp, P->tok.loc);
  n->op = op;
  advance(P);
  enter(P);
  n->operand = factor(P);
  leave(P);
  return sized(P, n, P->h + 1);
}

/* Binary operators from '|' (1) to '*' (6), all left-associative. */
static int binary_prec(TokenKind k, OpKind *op) {
  switch (k) {
    case TK_PIPE: *op = OP_BitOr; return 1;
    case TK_CARET: *op = OP_BitXor; return 2;
    case TK_AMP: *op = OP_BitAnd; return 3;
    case TK_LSHIFT: *op = OP_LShift; return 4;
    case TK_RSHIFT: *op = OP_RShift; return 4;
    case TK_PLUS: *op = OP_Add; return 5;
    case TK_MINUS: *op = OP_Sub; return 5;
    case TK_STAR: *op = OP_Mult; return 6;
    case TK_AT: *op = OP_MatMult; return 6;
    case TK_SLASH: *op = OP_Div; return 6;
    case TK_DSLASH: *op = OP_FloorDiv; return 6;
    case TK_PERCENT: *op = OP_Mod; return 6;
    default: return 0;
  }
}

/* binary -> factor (binop factor)*, by precedence climbing:
** bitor -> bitxor ('|' bitxor)*, ..., term -> factor (('*'|'@'|'/'|'//'|'%') factor)* */
static Node *binary(Parser *P, int minprec) {
  Loc loc = P->tok.loc;
  Node *left = factor(P);
  int h = P->h;
  for (;;) {
    OpKind op = OP_None;
    int prec = binary_prec(P->tok.kind, &op);
    if (prec == 0 || prec < minprec) break;
    advance(P);
    Node *n = node(P, ND_BinOp, loc);
    n->left = left;
    n->op = op;
    n->right = binary(P, prec + 1);
    h = max(h, P->h) + 1;
    left = sized(P, n, h);
  }
  P->h = h;
  return left;
}

/* comp_op -> '<' | '>' | '==' | '>=' | '<=' | '!=' | 'in' | 'not' 'in'
**          | 'is' | 'is' 'not'   (OP_None when the token is none of them) */
static OpKind comp_op(Parser *P) {
  OpKind op;
  switch (P->tok.kind) {
    case TK_LT: op = OP_Lt; break;
    case TK_GT: op = OP_Gt; break;
    case TK_EQ: op = OP_Eq; break;
    case TK_GE: op = OP_GtE; break;
    case TK_LE: op = OP_LtE; break;
    case TK_NE: op = OP_NotEq; break;
    case TK_IN: op = OP_In; break;
    case TK_NOT:
      advance(P);
      if (!check(P, TK_IN)) expected(P, "'in' after 'not'");
      op = OP_NotIn;
      break;
    case TK_IS:
      advance(P);
      if (check(P, TK_NOT)) {
        advance(P);
        return OP_IsNot;
      }
      return OP_Is;
    default: return OP_None;
  }
  advance(P);
  return op;
}

/* comparison -> bitor (comp_op bitor)*   (one Compare for a chain) */
static Node *comparison(Parser *P) {
  Loc loc = P->tok.loc;
  Node *left = binary(P, 1);
  OpKind op = comp_op(P);
  if (op == OP_None) return left;
  int h = P->h;
  Node *n = node(P, ND_Compare, loc);
  n->left = left;
  int cap = 4;
  n->cmpops = lex_alloc(&P->X, sizeof(OpKind) * (size_t)cap);
  for (;;) {
    push(P, &n->elts, binary(P, 1));
    h = max(h, P->h);
    if (n->elts.len > cap) {
      OpKind *ops = lex_alloc(&P->X, sizeof(OpKind) * (size_t)cap * 2);
      memcpy(ops, n->cmpops, sizeof(OpKind) * (size_t)cap);
      n->cmpops = ops;
      cap *= 2;
    }
    n->cmpops[n->elts.len - 1] = op;
    if ((op = comp_op(P)) == OP_None) break;
  }
  return sized(P, n, h + 1);
}

/* not_test -> 'not' not_test | comparison */
static Node *not_test(Parser *P) {
  if (!check(P, TK_NOT)) return comparison(P);
  Node *n = node(P, ND_UnaryOp, P->tok.loc);
  n->op = OP_Not;
  advance(P);
  enter(P);
  n->operand = not_test(P);
  leave(P);
  return sized(P, n, P->h + 1);
}

/* and_test -> not_test ('and' not_test)*
** or_test -> and_test ('or' and_test)*   (one BoolOp for a chain) */
static Node *bool_op(Parser *P, bool is_or) {
  Loc loc = P->tok.loc;
  TokenKind kw = is_or ? TK_OR : TK_AND;
  Node *first = is_or ? bool_op(P, false) : not_test(P);
  if (!check(P, kw)) return first;
  int h = P->h;
  Node *n = node(P, ND_BoolOp, loc);
  n->op = is_or ? OP_Or : OP_And;
  push(P, &n->elts, first);
  while (accept(P, kw)) {
    push(P, &n->elts, is_or ? bool_op(P, false) : not_test(P));
    h = max(h, P->h);
  }
  return sized(P, n, h + 1);
}

/* test -> or_test ['if' or_test 'else' test] */
static Node *test(Parser *P) {
  enter(P);
  Loc loc = P->tok.loc;
  if (check(P, TK_LAMBDA)) unsupported(P, loc, "lambda expressions");
  Node *e = bool_op(P, true);
  if (check(P, TK_IF)) {
    int h = P->h;
    advance(P);
    Node *n = node(P, ND_IfExp, loc);
    n->body_e = e;
    n->test = bool_op(P, true);
    h = max(h, P->h);
    expect(P, TK_ELSE);
    n->orelse_e = test(P);
    e = sized(P, n, max(h, P->h) + 1);
  }
  if (check(P, TK_WALRUS)) unsupported(P, loc, "assignment expressions (':=')");
  leave(P);
  return e;
}

/* testlist -> test (',' test)* [',']   (a Tuple when there is a comma) */
static Node *testlist(Parser *P) {
  Loc loc = P->tok.loc;
  Node *e = test(P);
  if (!check(P, TK_COMMA)) return e;
  int h = P->h;
  Node *t = node(P, ND_Tuple, loc);
  push(P, &t->elts, e);
  while (accept(P, TK_COMMA) && starts_expr(P->tok.kind)) {
    push(P, &t->elts, test(P));
    h = max(h, P->h);
  }
  return sized(P, t, h + 1);
}

/* exprlist -> bitor (',' bitor)* [',']   (for-loop targets: no 'in') */
static Node *exprlist(Parser *P) {
  Loc loc = P->tok.loc;
  Node *e = binary(P, 1);
  if (!check(P, TK_COMMA)) return e;
  int h = P->h;
  Node *t = node(P, ND_Tuple, loc);
  push(P, &t->elts, e);
  while (accept(P, TK_COMMA) && starts_expr(P->tok.kind)) {
    push(P, &t->elts, binary(P, 1));
    h = max(h, P->h);
  }
  return sized(P, t, h + 1);
}

/* ---- assignment targets ---------------------------------------------- */

/* how Python's messages name an expression that cannot be assigned to */
static const char *expr_name(Node *n) {
  switch (n->kind) {
    case ND_Call: return "function call";
    case ND_Constant: return "literal";
    case ND_Compare: return "comparison";
    case ND_IfExp: return "conditional expression";
    case ND_Tuple: return "tuple";
    case ND_List: return "list";
    default: return "expression";
  }
}

/* target -> NAME | primary '.' NAME | primary '[' slices ']'
**         | target (',' target)* | '(' ... ')' | '[' ... ']' */
static void check_target(Parser *P, Node *n) {
  switch (n->kind) {
    case ND_Name: case ND_Attribute: case ND_Subscript: return;
    case ND_Tuple: case ND_List:
      for (int i = 0; i < n->elts.len; i++) check_target(P, n->elts.items[i]);
      return;
    case ND_Constant:
      if (n->ckind == CK_NONE || n->ckind == CK_BOOL)
        syntax_error(P, n->loc, "cannot assign to %s",
                     n->ckind == CK_NONE ? "None" : n->bval ? "True" : "False");
      /* fallthrough */
    default:
      syntax_error(P, n->loc, "cannot assign to %s", expr_name(n));
  }
}

static bool single_target(Node *n) {
  return n->kind == ND_Name || n->kind == ND_Attribute || n->kind == ND_Subscript;
}

/* ---- simple statements ----------------------------------------------- */

static OpKind augassign_op(TokenKind k) {
  switch (k) {
    case TK_PLUSEQ: return OP_Add;
    case TK_MINUSEQ: return OP_Sub;
    case TK_STAREQ: return OP_Mult;
    case TK_ATEQ: return OP_MatMult;
    case TK_SLASHEQ: return OP_Div;
    case TK_DSLASHEQ: return OP_FloorDiv;
    case TK_PERCENTEQ: return OP_Mod;
    case TK_POWEQ: return OP_Pow;
    case TK_LSHIFTEQ: return OP_LShift;
    case TK_RSHIFTEQ: return OP_RShift;
    case TK_PIPEEQ: return OP_BitOr;
    case TK_CARETEQ: return OP_BitXor;
    case TK_AMPEQ: return OP_BitAnd;
    default: return OP_None;
  }
}

/* expr_stmt -> testlist (augassign testlist | ':' test ['=' testlist]
**                        | ('=' testlist)*) */
static Node *expr_stmt(Parser *P) {
  Loc loc = P->tok.loc;
  Node *e = testlist(P);
  OpKind op = augassign_op(P->tok.kind);
  if (op != OP_None) {
    if (!single_target(e))
      syntax_error(P, e->loc, "'%s' is an illegal expression for augmented assignment",
                   expr_name(e));
    advance(P);
    Node *n = node(P, ND_AugAssign, loc);
    n->target = e;
    n->op = op;
    n->value = testlist(P);
    return n;
  }
  if (accept(P, TK_COLON)) {
    if (e->kind == ND_Tuple || e->kind == ND_List)
      syntax_error(P, e->loc, "only single target (not %s) can be annotated",
                   e->kind == ND_Tuple ? "tuple" : "list");
    if (!single_target(e)) syntax_error(P, e->loc, "illegal target for annotation");
    Node *n = node(P, ND_AnnAssign, loc);
    n->target = e;
    n->annotation = test(P);
    if (accept(P, TK_ASSIGN)) n->value = testlist(P);
    return n;
  }
  if (!check(P, TK_ASSIGN)) {
    Node *n = node(P, ND_Expr, loc);
    n->value = e;
    return n;
  }
  Node *n = node(P, ND_Assign, loc);
  while (accept(P, TK_ASSIGN)) {
    check_target(P, e);
    push(P, &n->targets, e);
    e = testlist(P);
  }
  n->value = e;
  return n;
}

/* dotted_name -> NAME ('.' NAME)* */
static const char *dotted_name(Parser *P) {
  if (!check(P, TK_NAME)) expected(P, "a module name");
  luaL_Buffer b;
  luaL_buffinit(P->L, &b);
  for (;;) {
    luaL_addlstring(&b, P->tok.start, (size_t)P->tok.len);
    advance(P);
    if (!accept(P, TK_DOT)) break;
    if (!check(P, TK_NAME)) expected(P, "a name after '.'");
    luaL_addchar(&b, '.');
  }
  luaL_pushresult(&b);
  size_t len;
  const char *s = lua_tolstring(P->L, -1, &len);
  char *copy = lex_alloc(&P->X, len + 1);
  memcpy(copy, s, len);
  lua_pop(P->L, 1);
  return copy;
}

/* import_stmt -> 'import' dotted_name ['as' NAME] (',' dotted_name ['as' NAME])* */
static Node *import_stmt(Parser *P) {
  Node *n = node(P, ND_Import, P->tok.loc);
  advance(P);
  do {
    Node *a = node(P, ND_alias, P->tok.loc);
    a->name = dotted_name(P);
    if (accept(P, TK_AS)) a->asname = name_of(P, expect(P, TK_NAME));
    push(P, &n->names, a);
  } while (accept(P, TK_COMMA));
  return n;
}

/* from_stmt -> 'from' dotted_name 'import' ('(' names [','] ')' | names)
** names -> NAME ['as' NAME] (',' NAME ['as' NAME])* */
static Node *from_stmt(Parser *P) {
  Node *n = node(P, ND_ImportFrom, P->tok.loc);
  advance(P);
  if (check(P, TK_DOT) || check(P, TK_ELLIPSIS))
    unsupported(P, P->tok.loc, "relative imports");
  n->name = dotted_name(P);
  expect(P, TK_IMPORT);
  if (check(P, TK_STAR)) unsupported(P, P->tok.loc, "wildcard imports ('import *')");
  bool paren = accept(P, TK_LPAREN);
  for (;;) {
    if (!check(P, TK_NAME)) expected(P, "a name to import");
    Node *a = node(P, ND_alias, P->tok.loc);
    a->name = name_of(P, P->tok);
    advance(P);
    if (accept(P, TK_AS)) a->asname = name_of(P, expect(P, TK_NAME));
    push(P, &n->names, a);
    if (!accept(P, TK_COMMA)) break;
    if (paren && check(P, TK_RPAREN)) break;
    if (!paren && !check(P, TK_NAME))
      syntax_error(P, P->prev.loc,
                   "trailing comma not allowed without surrounding parentheses");
  }
  if (paren) expect(P, TK_RPAREN);
  return n;
}

/* small_stmt -> 'pass' | 'break' | 'continue' | 'return' [testlist]
**             | 'raise' [test] | 'assert' test [',' test]
**             | import_stmt | from_stmt | expr_stmt */
static Node *small_stmt(Parser *P) {
  Token t = P->tok;
  Node *n;
  switch (t.kind) {
    case TK_PASS: case TK_BREAK: case TK_CONTINUE:
      if (t.kind == TK_BREAK && P->loopdepth == 0)
        syntax_error(P, t.loc, "'break' outside loop");
      if (t.kind == TK_CONTINUE && P->loopdepth == 0)
        syntax_error(P, t.loc, "'continue' not properly in loop");
      advance(P);
      return node(P, t.kind == TK_PASS ? ND_Pass : t.kind == TK_BREAK ? ND_Break : ND_Continue,
                  t.loc);
    case TK_RETURN:
      if (P->funcdepth == 0) syntax_error(P, t.loc, "'return' outside function");
      advance(P);
      n = node(P, ND_Return, t.loc);
      if (starts_expr(P->tok.kind)) n->value = testlist(P);
      return n;
    case TK_RAISE:
      advance(P);
      n = node(P, ND_Raise, t.loc);
      if (starts_expr(P->tok.kind)) n->exc = test(P);
      if (check(P, TK_FROM)) unsupported(P, P->tok.loc, "'raise ... from' clauses");
      return n;
    case TK_ASSERT:
      advance(P);
      n = node(P, ND_Assert, t.loc);
      n->test = test(P);
      if (accept(P, TK_COMMA)) n->msg = test(P);
      return n;
    case TK_IMPORT: return import_stmt(P);
    case TK_FROM: return from_stmt(P);
    case TK_GLOBAL: unsupported(P, t.loc, "'global' statements");
    case TK_NONLOCAL: unsupported(P, t.loc, "'nonlocal' statements");
    case TK_DEL: unsupported(P, t.loc, "'del' statements");
    default: return expr_stmt(P);
  }
}

/* simple_stmts -> small_stmt (';' small_stmt)* [';'] NEWLINE */
static void simple_stmts(Parser *P, NodeList *out) {
  for (;;) {
    push(P, out, small_stmt(P));
    if (!accept(P, TK_SEMI) || check(P, TK_NEWLINE)) break;
  }
  if (!check(P, TK_NEWLINE)) expected(P, "end of line");
  advance(P);
}

/* ---- compound statements --------------------------------------------- */

/* block -> ':' (simple_stmts | NEWLINE INDENT statement+ DEDENT)
** what/line name the header in "expected an indented block after ...". */
static void block(Parser *P, NodeList *body, const char *what, int line) {
  expect(P, TK_COLON);
  enter(P);
  if (accept(P, TK_NEWLINE)) {
    if (!check(P, TK_INDENT))
      syntax_error(P, P->tok.loc, "expected an indented block after %s on line %d",
                   what, line);
    advance(P);
    /* an indented line that holds no statement (a continuation into comments) is no block */
    if (check(P, TK_DEDENT) || check(P, TK_EOF))
      syntax_error(P, P->tok.loc, "expected an indented block after %s on line %d", what, line);
    while (!check(P, TK_DEDENT) && !check(P, TK_EOF)) statement(P, body);
    accept(P, TK_DEDENT);
  } else {
    simple_stmts(P, body);
  }
  leave(P);
}

/* A block of module-level code that is never run (an `except` handler, an
** `if __name__ == "__main__":` block): its tokens are read, not parsed, so
** whatever Python it holds (f-strings, `with`, comprehensions) is no error. */
static void skip_block(Parser *P) {
  bool was = P->X.lenient;
  P->X.lenient = true;
  if (!check(P, TK_COLON)) expected(P, "':'");
  advance(P);
  if (accept(P, TK_NEWLINE)) {
    if (!check(P, TK_INDENT)) expected(P, "an indented block");
    int level = 0;
    do {
      if (check(P, TK_INDENT)) level++;
      else if (check(P, TK_DEDENT)) level--;
      advance(P);
    } while (level > 0 && !check(P, TK_EOF));
  } else {
    while (!check(P, TK_NEWLINE) && !check(P, TK_EOF)) advance(P);
    accept(P, TK_NEWLINE);
  }
  P->X.lenient = was;
}

/* `if __name__ == "__main__":` (either way round): the script part of a module */
static bool is_main_test(Node *t) {
  if (t->kind != ND_Compare || t->elts.len != 1 || t->cmpops[0] != OP_Eq) return false;
  Node *a = t->left, *b = t->elts.items[0];
  if (a->kind != ND_Name) { Node *x = a; a = b; b = x; }
  return a->kind == ND_Name && strcmp(a->name, "__name__") == 0 && b->kind == ND_Constant;
}

/* try_stmt at the top level -> 'try' block ('except' ... block)* ['else' block]
**                              ['finally' block]
** Numba's modules wrap imports in it; the import is taken to succeed, as
** where Numba runs: the body, `else` and `finally` join the module, the
** handlers are skipped. A try around anything but imports (and the
** assignments beside them), or inside a def, is refused. */
static void try_stmt(Parser *P, NodeList *out) {
  Loc loc = P->tok.loc;
  advance(P);
  int first = out->len;
  bool imports = false;
  block(P, out, "'try' statement", loc.line);
  for (int i = first; i < out->len; i++) {  /* only a try around imports (and flags set beside them) */
    NodeKind k = out->items[i]->kind;
    imports = imports || k == ND_Import || k == ND_ImportFrom;
    if (k != ND_Import && k != ND_ImportFrom && k != ND_Assign) imports = false, i = out->len;
  }
  if (!imports) unsupported(P, loc, "'try' statements");
  int line;
  while (check(P, TK_EXCEPT)) {
    while (!(check(P, TK_COLON) && P->X.nparen == 0) && !check(P, TK_NEWLINE) && !check(P, TK_EOF)) advance(P);
    skip_block(P);
  }
  if (check(P, TK_ELSE)) {
    line = P->tok.loc.line;
    advance(P);
    block(P, out, "'else' statement", line);
  }
  if (check(P, TK_FINALLY)) {
    line = P->tok.loc.line;
    advance(P);
    block(P, out, "'finally' statement", line);
  }
}

/* if_stmt -> 'if' test block ('elif' test block)* ['else' block]
** Each elif is an If alone in the orelse of the one before, as in Python. */
static Node *if_stmt(Parser *P) {
  Node *n = node(P, ND_If, P->tok.loc), *last = n;
  int line = P->tok.loc.line, nested = 0;
  advance(P);
  n->test = test(P);
  if (P->funcdepth == 0 && P->depth == 0 && is_main_test(n->test)) {
    skip_block(P);  /* the script part: never run, not compiled */
    while (check(P, TK_ELIF) || check(P, TK_ELSE)) {
      while (!(check(P, TK_COLON) && P->X.nparen == 0) && !check(P, TK_NEWLINE) && !check(P, TK_EOF)) advance(P);
      skip_block(P);
    }
    return n;
  }
  block(P, &n->body, "'if' statement", line);
  while (check(P, TK_ELIF)) {
    enter(P);
    nested++;
    Node *m = node(P, ND_If, P->tok.loc);
    line = P->tok.loc.line;
    advance(P);
    m->test = test(P);
    block(P, &m->body, "'elif' statement", line);
    push(P, &last->orelse, m);
    last = m;
  }
  if (check(P, TK_ELSE)) {
    line = P->tok.loc.line;
    advance(P);
    block(P, &last->orelse, "'else' statement", line);
  }
  P->depth -= nested;
  return n;
}

/* loop_body -> block ['else' block]   (break/continue allowed in the first) */
static void loop_body(Parser *P, Node *n, const char *what, int line) {
  P->loopdepth++;
  block(P, &n->body, what, line);
  P->loopdepth--;
  if (check(P, TK_ELSE)) {
    line = P->tok.loc.line;
    advance(P);
    block(P, &n->orelse, "'else' statement", line);
  }
}

/* for_stmt -> 'for' exprlist 'in' testlist block ['else' block] */
static Node *for_stmt(Parser *P) {
  Node *n = node(P, ND_For, P->tok.loc);
  int line = P->tok.loc.line;
  advance(P);
  n->target = exprlist(P);
  check_target(P, n->target);
  expect(P, TK_IN);
  n->iter = testlist(P);
  loop_body(P, n, "'for' statement", line);
  return n;
}

/* while_stmt -> 'while' test block ['else' block] */
static Node *while_stmt(Parser *P) {
  Node *n = node(P, ND_While, P->tok.loc);
  int line = P->tok.loc.line;
  advance(P);
  n->test = test(P);
  loop_body(P, n, "'while' statement", line);
  return n;
}

/* parameters -> '(' [param (',' param)* [',']] ')'
** param -> NAME [':' test] ['=' test] */
static void parameters(Parser *P, Node *f) {
  expect(P, TK_LPAREN);
  while (!check(P, TK_RPAREN)) {
    Token t = P->tok;
    if (t.kind == TK_STAR) {
      advance(P);
      unsupported(P, t.loc, check(P, TK_COMMA) ? "keyword-only parameters"
                                                : "'*args' parameters");
    }
    if (t.kind == TK_POW) unsupported(P, t.loc, "'**kwargs' parameters");
    if (t.kind == TK_SLASH) unsupported(P, t.loc, "positional-only parameters ('/')");
    if (t.kind != TK_NAME) expected(P, "a parameter name");
    Node *a = node(P, ND_arg, t.loc);
    a->name = name_of(P, t);
    for (int i = 0; i < f->args.len; i++)
      if (strcmp(f->args.items[i]->name, a->name) == 0)
        syntax_error(P, t.loc, "duplicate argument '%s' in function definition", a->name);
    advance(P);
    if (accept(P, TK_COLON)) a->annotation = test(P);
    if (accept(P, TK_ASSIGN))
      push(P, &f->defaults, test(P));
    else if (f->defaults.len > 0)
      syntax_error(P, t.loc, "non-default argument follows default argument");
    push(P, &f->args, a);
    if (!accept(P, TK_COMMA)) break;
  }
  expect(P, TK_RPAREN);
}

/* funcdef -> 'def' NAME parameters ['->' test] block */
static Node *funcdef(Parser *P, NodeList *decorators) {
  Token def = P->tok;
  if (P->funcdepth > 0) unsupported(P, def.loc, "nested functions");
  advance(P);
  Node *f = node(P, ND_FunctionDef, def.loc);
  if (decorators) f->decorators = *decorators;
  if (!check(P, TK_NAME)) expected(P, "a function name");
  f->name = name_of(P, P->tok);
  advance(P);
  parameters(P, f);
  if (accept(P, TK_ARROW)) f->returns = test(P);
  int loops = P->loopdepth;
  P->funcdepth++;
  P->loopdepth = 0;
  block(P, &f->body, "function definition", def.loc.line);
  P->funcdepth--;
  P->loopdepth = loops;
  return f;
}

/* decorated -> ('@' test NEWLINE)+ funcdef */
static Node *decorated(Parser *P) {
  NodeList decorators = {0};
  while (accept(P, TK_AT)) {
    P->decorator = true;
    push(P, &decorators, test(P));
    P->decorator = false;
    if (!check(P, TK_NEWLINE)) expected(P, "end of line after the decorator");
    advance(P);
  }
  if (check(P, TK_DEF)) return funcdef(P, &decorators);
  if (check(P, TK_INDENT)) syntax_error(P, P->tok.loc, "unexpected indent");
  if (check(P, TK_CLASS)) unsupported(P, P->tok.loc, "'class' definitions");
  if (check(P, TK_ASYNC)) unsupported(P, P->tok.loc, "'async' functions");
  unsupported(P, P->tok.loc, "decorators on anything but 'def'");
}

static int funcdef_protected(lua_State *L) {
  Parser *P = lua_touserdata(L, 1);
  Node **out = lua_touserdata(L, 2);
  *out = funcdef(P, NULL);
  return 0;
}

/* An undecorated top-level def in a lenient parse: parsed as usual, or,
** when it uses Python lumba does not compile (an UnsupportedError: a
** comprehension, `with`, an f-string), kept as a def with that error and
** no body, and skipped by the source's lines up to the next line that
** starts at column 1. A SyntaxError is raised as ever. */
static Node *helper_def(Parser *P) {
  Parser saved = *P;
  Node *def = NULL;
  lua_State *L = P->L;
  lua_pushcfunction(L, funcdef_protected);
  lua_pushlightuserdata(L, P);
  lua_pushlightuserdata(L, &def);
  if (lua_pcall(L, 2, 0, 0) == LUA_OK) return def;
  const char *msg = lua_tostring(L, -1);
  const char *name = saved.tok.start + 3;
  while (*name == ' ' || *name == '\t') name++;
  size_t len = 0;
  while (name[len] == '_' || (unsigned)((name[len] | 0x20) - 'a') < 26u || (unsigned)(name[len] - '0') < 10u) len++;
  if (msg == NULL || strstr(msg, ": UnsupportedError: ") == NULL || len == 0) lua_error(L);
  *P = saved;
  def = node(P, ND_FunctionDef, saved.tok.loc);
  char *nm = lex_alloc(&P->X, len + 1), *m = lex_alloc(&P->X, strlen(msg) + 1);
  memcpy(nm, name, len);
  nm[len] = '\0';
  strcpy(m, msg);
  lua_pop(L, 1);
  def->name = nm;
  def->sval = m;
  /* the next line that starts a top-level statement */
  const char *p = saved.tok.start;
  int line = saved.tok.loc.line;
  for (;;) {
    while (*p && *p != '\n') p++;
    if (!*p) break;
    p++;
    line++;
    if (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r' && *p != '#') break;
  }
  Lexer *X = &P->X;
  X->p = X->line = p;
  X->lineno = line;
  X->nindent = 1;
  X->dedents = 0;
  X->bol = true;
  X->content = false;
  X->nparen = 0;
  advance(P);
  return def;
}

/* statement -> funcdef | decorated | if_stmt | for_stmt | while_stmt
**            | simple_stmts */
static void statement(Parser *P, NodeList *out) {
  Loc loc = P->tok.loc;
  switch (P->tok.kind) {
    case TK_DEF: push(P, out, P->lenient && P->funcdepth == 0 ? helper_def(P) : funcdef(P, NULL)); return;
    case TK_AT: push(P, out, decorated(P)); return;
    case TK_IF: push(P, out, if_stmt(P)); return;
    case TK_FOR: push(P, out, for_stmt(P)); return;
    case TK_WHILE: push(P, out, while_stmt(P)); return;
    case TK_CLASS: unsupported(P, loc, "'class' definitions");
    case TK_TRY:
      if (P->funcdepth == 0 && P->depth == 0) { try_stmt(P, out); return; }
      unsupported(P, loc, "'try' statements");
    case TK_WITH: unsupported(P, loc, "'with' statements");
    case TK_ASYNC:
      advance(P);
      unsupported(P, loc, check(P, TK_DEF) ? "'async' functions" : "'async' statements");
    case TK_INDENT: syntax_error(P, loc, "unexpected indent");
    case TK_PASS: case TK_BREAK: case TK_CONTINUE: case TK_RETURN: case TK_RAISE:
    case TK_ASSERT: case TK_IMPORT: case TK_FROM: case TK_GLOBAL: case TK_NONLOCAL:
    case TK_DEL:
      simple_stmts(P, out);
      return;
    default:
      if (!starts_expr(P->tok.kind)) expected(P, "a statement");
      simple_stmts(P, out);
  }
}

/* module -> statement* EOF */
Node *parse_source(lua_State *L, Arena *a, const Source *src, bool lenient) {
  Parser *P = arena_alloc(a, sizeof(Parser));
  if (P == NULL) luaL_error(L, "not enough memory");
  P->L = L;
  P->a = a;
  P->lenient = lenient;
  lex_init(&P->X, L, a, src);
  Loc start = {P->X.src, 1, 0};
  Node *m = node(P, ND_Module, start);
  advance(P);
  while (!check(P, TK_EOF)) statement(P, &m->body);
  return m;
}
