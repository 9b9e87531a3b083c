/*
** ast_lua.c — the tree of ast.h to Lua tables and back. One table of
** field descriptions per node kind (Python's field names) drives both
** directions, so they cannot drift apart.
**
** Reading is defensive: the tables may come from any program. Only raw
** accesses (no metamethods run), every field is type-checked, nodes must
** sit where their kind is allowed (a statement in a body, an expression in
** an operand, a Slice only in a subscript, a target on the left of '='),
** nesting is limited (a cycle ends there) and so is the node count (a
** subtree shared many times would otherwise expand without end). Errors
** read "ast: BinOp.left at line 3, col_offset 4: expected a node table,
** got number". A node without lineno/col_offset takes its parent's.
** Every position names one Source in the arena: the caller's chunk and
** text, or the text the Module table carries in its field `source`.
*/
#include <limits.h>
#include <stdarg.h>
#include <string.h>

#include <lauxlib.h>

#include "complex_lua.h"
#include "frontend.h"

/* A tree this deep is a cycle or a mistake; parse output stays far below
** (statements nest LM_MAXNEST deep, expressions are LM_MAXNEST high). */
#define MAXDEPTH (2 * LM_MAXNEST + 16)
#define MAXNODES (1 << 20)

typedef enum FieldKind {
  FK_EXPR,        // Node *: an expression
  FK_OEXPR,       // Node *: an expression or absent
  FK_TARGET,      // Node *: Name, Attribute, Subscript, or a Tuple/List of targets
  FK_STARGET,     // Node *: Name, Attribute or Subscript (AugAssign, AnnAssign)
  FK_SLICE,       // Node *: an expression, a Slice, or a Tuple of those
  FK_STMTS,       // NodeList: statements, at least one
  FK_OSTMTS,      // NodeList: statements, may be empty or absent
  FK_EXPRS,       // NodeList: expressions (Tuple/List elements follow their context)
  FK_TARGETS,     // NodeList: targets, at least one
  FK_VALUES,      // NodeList: BoolOp operands, at least two
  FK_COMPARATORS, // NodeList: one per Compare operator
  FK_KEYWORDS,    // NodeList: keyword nodes
  FK_ALIASES,     // NodeList: alias nodes, at least one
  FK_ARGUMENTS,   // args + defaults, as {tag="arguments", args={arg...}, defaults={...}}
  FK_ID,          // const char *: an identifier
  FK_OID,         // const char *: an identifier or absent
  FK_DOTTED,      // const char *: identifiers joined by dots ("numba.cuda")
  FK_BINOP,       // OpKind from "Add" ... "BitAnd"
  FK_UNOP,        // OpKind: "USub", "UAdd", "Not", "Invert"
  FK_BOOLOP,      // OpKind: "And", "Or"
  FK_CMPOPS,      // cmpops: list of "Eq" ... "NotIn"
  FK_CONST,       // Constant.value: nil (None), integer, float, boolean, string
  FK_LEVEL,       // ImportFrom.level: always 0 (relative imports are not compiled)
} FieldKind;

typedef struct Field {
  const char *name;  // Python's field name
  FieldKind kind;
  size_t off;        // offset of the member of Node that holds it
} Field;

#define F(name, kind, member) {name, kind, offsetof(Node, member)}
#define MAXFIELDS 5

static const Field shapes[ND__COUNT][MAXFIELDS] = {
    [ND_Module] = {F("body", FK_OSTMTS, body)},
    [ND_FunctionDef] = {F("name", FK_ID, name), F("args", FK_ARGUMENTS, args),
                        F("body", FK_STMTS, body), F("decorator_list", FK_EXPRS, decorators),
                        F("returns", FK_OEXPR, returns)},
    [ND_arg] = {F("arg", FK_ID, name), F("annotation", FK_OEXPR, annotation)},
    [ND_Import] = {F("names", FK_ALIASES, names)},
    [ND_ImportFrom] = {F("module", FK_DOTTED, name), F("names", FK_ALIASES, names),
                       F("level", FK_LEVEL, name)},
    [ND_alias] = {F("name", FK_DOTTED, name), F("asname", FK_OID, asname)},
    [ND_Assign] = {F("targets", FK_TARGETS, targets), F("value", FK_EXPR, value)},
    [ND_AugAssign] = {F("target", FK_STARGET, target), F("op", FK_BINOP, op),
                      F("value", FK_EXPR, value)},
    [ND_AnnAssign] = {F("target", FK_STARGET, target), F("annotation", FK_EXPR, annotation),
                      F("value", FK_OEXPR, value)},
    [ND_For] = {F("target", FK_TARGET, target), F("iter", FK_EXPR, iter),
                F("body", FK_STMTS, body), F("orelse", FK_OSTMTS, orelse)},
    [ND_While] = {F("test", FK_EXPR, test), F("body", FK_STMTS, body),
                  F("orelse", FK_OSTMTS, orelse)},
    [ND_If] = {F("test", FK_EXPR, test), F("body", FK_STMTS, body),
               F("orelse", FK_OSTMTS, orelse)},
    [ND_Return] = {F("value", FK_OEXPR, value)},
    [ND_Expr] = {F("value", FK_EXPR, value)},
    [ND_Assert] = {F("test", FK_EXPR, test), F("msg", FK_OEXPR, msg)},
    [ND_Raise] = {F("exc", FK_OEXPR, exc)},
    [ND_BoolOp] = {F("op", FK_BOOLOP, op), F("values", FK_VALUES, elts)},
    [ND_BinOp] = {F("left", FK_EXPR, left), F("op", FK_BINOP, op), F("right", FK_EXPR, right)},
    [ND_UnaryOp] = {F("op", FK_UNOP, op), F("operand", FK_EXPR, operand)},
    [ND_IfExp] = {F("test", FK_EXPR, test), F("body", FK_EXPR, body_e),
                  F("orelse", FK_EXPR, orelse_e)},
    [ND_Compare] = {F("left", FK_EXPR, left), F("ops", FK_CMPOPS, cmpops),
                    F("comparators", FK_COMPARATORS, elts)},
    [ND_Call] = {F("func", FK_EXPR, func), F("args", FK_EXPRS, args),
                 F("keywords", FK_KEYWORDS, keywords)},
    [ND_keyword] = {F("arg", FK_ID, name), F("value", FK_EXPR, value)},
    [ND_Constant] = {F("value", FK_CONST, ckind)},
    [ND_Attribute] = {F("value", FK_EXPR, value), F("attr", FK_ID, name)},
    [ND_Subscript] = {F("value", FK_EXPR, value), F("slice", FK_SLICE, slice)},
    [ND_Slice] = {F("lower", FK_OEXPR, lower), F("upper", FK_OEXPR, upper),
                  F("step", FK_OEXPR, step)},
    [ND_Name] = {F("id", FK_ID, name)},
    [ND_Tuple] = {F("elts", FK_EXPRS, elts)},
    [ND_List] = {F("elts", FK_EXPRS, elts)},
};

#define FIELD(n, f, type) (*(type *)((char *)(n) + (f)->off))

static bool is_stmt(NodeKind k) { return k >= ND_FunctionDef && k <= ND_Raise && k != ND_arg && k != ND_alias; }
static bool is_expr(NodeKind k) { return k >= ND_BoolOp && k <= ND_List && k != ND_keyword; }

/* ==== C tree to Lua tables ============================================ */

static void push_node(lua_State *L, Node *n);

static void push_list(lua_State *L, const NodeList *l) {
  lua_createtable(L, l->len, 0);
  for (int i = 0; i < l->len; i++) {
    push_node(L, l->items[i]);
    lua_rawseti(L, -2, i + 1);
  }
}

/* Pushes the field's value, or nothing (returns false) when it is absent. */
static bool push_field(lua_State *L, Node *n, const Field *f) {
  switch (f->kind) {
    case FK_EXPR: case FK_OEXPR: case FK_TARGET: case FK_STARGET: case FK_SLICE: {
      Node *c = FIELD(n, f, Node *);
      if (c == NULL) return false;
      push_node(L, c);
      return true;
    }
    case FK_STMTS: case FK_OSTMTS: case FK_EXPRS: case FK_TARGETS: case FK_VALUES:
    case FK_COMPARATORS: case FK_KEYWORDS: case FK_ALIASES:
      push_list(L, &FIELD(n, f, NodeList));
      return true;
    case FK_ARGUMENTS:
      lua_createtable(L, 0, 3);
      lua_pushliteral(L, "arguments");
      lua_setfield(L, -2, "tag");
      push_list(L, &n->args);
      lua_setfield(L, -2, "args");
      push_list(L, &n->defaults);
      lua_setfield(L, -2, "defaults");
      return true;
    case FK_ID: case FK_OID: case FK_DOTTED: {
      const char *s = FIELD(n, f, const char *);
      if (s == NULL) return false;
      lua_pushstring(L, s);
      return true;
    }
    case FK_BINOP: case FK_UNOP: case FK_BOOLOP:
      lua_pushstring(L, ast_op_names[n->op]);
      return true;
    case FK_CMPOPS:
      lua_createtable(L, n->elts.len, 0);
      for (int i = 0; i < n->elts.len; i++) {
        lua_pushstring(L, ast_op_names[n->cmpops[i]]);
        lua_rawseti(L, -2, i + 1);
      }
      return true;
    case FK_CONST:
      switch (n->ckind) {
        case CK_NONE: return false;
        case CK_INT: lua_pushinteger(L, (lua_Integer)n->ival); return true;
        case CK_FLOAT: lua_pushnumber(L, (lua_Number)n->fval); return true;
        case CK_IMAG: complex_push(L, 0, (double)n->fval); return true;
        case CK_BOOL: lua_pushboolean(L, n->bval); return true;
        case CK_STR:  /* ival: the byte length when the string holds NULs */
          lua_pushlstring(L, n->sval, n->ival > 0 ? (size_t)n->ival : strlen(n->sval));
          return true;
      }
      return false;
    case FK_LEVEL:
      lua_pushinteger(L, 0);
      return true;
  }
  return false;
}

static void push_node(lua_State *L, Node *n) {
  luaL_checkstack(L, 6, "syntax tree too deep");
  lua_createtable(L, 0, 6);
  lua_pushstring(L, ast_kind_names[n->kind]);
  lua_setfield(L, -2, "tag");
  for (const Field *f = shapes[n->kind]; f < shapes[n->kind] + MAXFIELDS && f->name; f++)
    if (push_field(L, n, f)) lua_setfield(L, -2, f->name);
  if (n->kind != ND_Module && n->loc.line > 0) {
    lua_pushinteger(L, n->loc.line);
    lua_setfield(L, -2, "lineno");
    lua_pushinteger(L, n->loc.col);
    lua_setfield(L, -2, "col_offset");
  }
}

void ast_to_lua(lua_State *L, Node *n) { push_node(L, n); }

/* The module's top-level defs with their names, positions and decorators
** only: what njit reads options from, without building the whole tree. */
void ast_decorators_to_lua(lua_State *L, Node *module) {
  lua_createtable(L, 0, 2);
  lua_pushliteral(L, "Module");
  lua_setfield(L, -2, "tag");
  lua_newtable(L);
  int k = 0;
  for (int i = 0; i < module->body.len; i++) {
    Node *d = module->body.items[i];
    if (d->kind != ND_FunctionDef || d->sval) continue;  /* a skipped plain helper is no function */
    lua_createtable(L, 0, 5);
    lua_pushliteral(L, "FunctionDef");
    lua_setfield(L, -2, "tag");
    lua_pushstring(L, d->name);
    lua_setfield(L, -2, "name");
    push_list(L, &d->decorators);
    lua_setfield(L, -2, "decorator_list");
    lua_pushinteger(L, d->loc.line);
    lua_setfield(L, -2, "lineno");
    lua_pushinteger(L, d->loc.col);
    lua_setfield(L, -2, "col_offset");
    lua_pushinteger(L, d->args.len);  /* the parameters a @vectorize ufunc takes (lua/lumba/vectorize.lua) */
    lua_setfield(L, -2, "nparams");
    lua_rawseti(L, -2, ++k);
  }
  lua_setfield(L, -2, "body");
  /* the imports and `NAME = value` lines too, apart from the body: they
  ** say what `@nb.jit` and `@jit(sig)` with `sig = "..."` stand for */
  lua_newtable(L);
  k = 0;
  for (int i = 0; i < module->body.len; i++) {
    Node *st = module->body.items[i];
    if (st->kind != ND_Import && st->kind != ND_ImportFrom && st->kind != ND_Assign) continue;
    push_node(L, st);
    lua_rawseti(L, -2, ++k);
  }
  lua_setfield(L, -2, "imports");
}

/* ==== Lua tables to C tree ============================================ */

/* where a value was found: "BinOp.left", "Module.body[3]", and the
** position of the node that holds it */
typedef struct Where {
  const char *tag;    // holder's tag, NULL at the root
  const char *field;
  int index;          // 1-based list index, 0 when not in a list
  Loc loc;            // holder's position (line 0: none)
} Where;

typedef struct Conv {
  lua_State *L;
  Arena *a;
  const Source *src;  // what every position names (NULL: none)
  int depth;   // tables entered
  int nodes;   // nodes made
  int funcs;   // enclosing FunctionDefs
  int loops;   // enclosing loops of the current function
} Conv;

/* how a value must be used: what a Tuple/List element may be */
typedef enum Ctx { CX_LOAD, CX_STORE, CX_SLICE, CX_SLICE_ELT } Ctx;

static l_noret conv_error(Conv *C, const Where *w, const char *fmt, ...) {
  lua_State *L = C->L;
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  luaL_addstring(&b, "ast: ");
  if (w && w->tag) {
    lua_pushfstring(L, "%s.%s", w->tag, w->field);
    luaL_addvalue(&b);
    if (w->index > 0) {
      lua_pushfstring(L, "[%d]", w->index);
      luaL_addvalue(&b);
    }
    if (w->loc.line > 0) {
      lua_pushfstring(L, " at line %d, col_offset %d", w->loc.line, w->loc.col);
      luaL_addvalue(&b);
    }
    luaL_addstring(&b, ": ");
  }
  va_list ap;
  va_start(ap, fmt);
  lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  luaL_addvalue(&b);
  luaL_pushresult(&b);
  lua_error(L);
  LM_UNREACHABLE();
}

static void *conv_alloc(Conv *C, size_t size) {
  void *p = arena_alloc(C->a, size);
  if (p == NULL) luaL_error(C->L, "not enough memory");
  return p;
}

static const char *conv_strdup(Conv *C, const char *s, size_t len) {
  char *p = conv_alloc(C, len + 1);
  memcpy(p, s, len);
  return p;
}

static bool ident_start(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         (unsigned char)c >= 0x80;
}
static bool ident_char(int c) { return ident_start(c) || (c >= '0' && c <= '9'); }

/* NAME, or NAME ('.' NAME)* when dotted */
static bool valid_name(const char *s, size_t len, bool dotted) {
  size_t i = 0;
  for (;;) {
    if (i == len || !ident_start(s[i])) return false;
    while (i < len && ident_char(s[i])) i++;
    if (i == len) return true;
    if (!dotted || s[i] != '.') return false;
    i++;
  }
}

static NodeKind kind_of(const char *tag) {
  for (int k = 0; k < ND__COUNT; k++)
    if (strcmp(ast_kind_names[k], tag) == 0) return (NodeKind)k;
  return ND__COUNT;
}

/* lineno / col_offset of the table on top, or the holder's position */
static Loc read_loc(Conv *C, const char *tag, Loc inherited) {
  lua_State *L = C->L;
  static const char *const names[2] = {"lineno", "col_offset"};
  int v[2] = {inherited.line, inherited.col};
  int present = 0;
  for (int i = 0; i < 2; i++) {
    lua_pushstring(L, names[i]);
    int t = lua_rawget(L, -2);
    if (t != LUA_TNIL) {
      int isint;
      lua_Integer x = lua_tointegerx(L, -1, &isint);
      if (t != LUA_TNUMBER || !isint || x < 0 || x > INT_MAX) {
        Where me = {tag, names[i], 0, {NULL, 0, 0}};
        conv_error(C, &me, "expected a non-negative integer, got %s",
                   t == LUA_TNUMBER ? lua_tostring(L, -1) : lua_typename(L, t));
      }
      v[i] = (int)x;
      present++;
    }
    lua_pop(L, 1);
  }
  if (present == 0) return inherited;
  Loc loc = {C->src, v[0], v[1]};
  return loc;
}

static Node *conv_node(Conv *C, const Where *w, NodeKind want, Ctx ctx);

/* want: ND__COUNT + 0 for any expression, + 1 for any statement */
#define WANT_EXPR ((NodeKind)(ND__COUNT + 0))
#define WANT_STMT ((NodeKind)(ND__COUNT + 1))

/* the field's value, on top of the stack, converted; pops it */
static Node *conv_child(Conv *C, const Where *w, NodeKind want, Ctx ctx, bool optional) {
  if (optional && lua_isnil(C->L, -1)) {
    lua_pop(C->L, 1);
    return NULL;
  }
  Node *n = conv_node(C, w, want, ctx);
  lua_pop(C->L, 1);
  return n;
}

/* the list on top of the stack (nil: empty), each item converted; pops it */
static void conv_list(Conv *C, const Where *w, NodeList *out, NodeKind want, Ctx ctx,
                      int min) {
  lua_State *L = C->L;
  int t = lua_type(L, -1);
  if (t == LUA_TNIL && min == 0) {
    lua_pop(L, 1);
    return;
  }
  if (t != LUA_TTABLE) conv_error(C, w, "expected a list, got %s", lua_typename(L, t));
  lua_Unsigned len = lua_rawlen(L, -1);
  if (len < (lua_Unsigned)min)
    conv_error(C, w, min == 1 ? "expected a non-empty list" : "expected at least %d items",
               min);
  if (len > (lua_Unsigned)MAXNODES) conv_error(C, w, "list too long");
  out->len = out->cap = (int)len;
  out->items = len ? conv_alloc(C, sizeof(Node *) * (size_t)len) : NULL;
  for (int i = 0; i < (int)len; i++) {
    Where item = *w;
    item.index = i + 1;
    lua_rawgeti(L, -1, i + 1);
    out->items[i] = conv_child(C, &item, want, ctx, false);
  }
  lua_pop(L, 1);
}

/* the operator name on top of the stack, one of [first, last]; pops it */
static OpKind conv_op(Conv *C, const Where *w, OpKind first, OpKind last, const char *what) {
  lua_State *L = C->L;
  if (lua_type(L, -1) != LUA_TSTRING)
    conv_error(C, w, "expected an operator name, got %s", luaL_typename(L, -1));
  const char *s = lua_tostring(L, -1);
  int op;
  for (op = 1; op < OP__COUNT; op++)
    if (strcmp(ast_op_names[op], s) == 0) break;
  if (op == OP__COUNT) conv_error(C, w, "unknown operator '%s'", s);
  if (op < (int)first || op > (int)last) conv_error(C, w, "'%s' is not %s", s, what);
  lua_pop(L, 1);
  return (OpKind)op;
}

/* a string field on top of the stack; pops it */
static const char *conv_name(Conv *C, const Where *w, bool optional, bool dotted) {
  lua_State *L = C->L;
  if (optional && lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return NULL;
  }
  if (lua_type(L, -1) != LUA_TSTRING)
    conv_error(C, w, "expected a string, got %s", luaL_typename(L, -1));
  size_t len;
  const char *s = lua_tolstring(L, -1, &len);
  if (!valid_name(s, len, dotted))
    conv_error(C, w, "'%s' is not a valid %s", s, dotted ? "module name" : "identifier");
  const char *copy = conv_strdup(C, s, len);
  lua_pop(L, 1);
  return copy;
}

/* Constant.value on top of the stack; pops it */
static void conv_const(Conv *C, const Where *w, Node *n) {
  lua_State *L = C->L;
  switch (lua_type(L, -1)) {
    case LUA_TNIL: n->ckind = CK_NONE; break;
    case LUA_TBOOLEAN: n->ckind = CK_BOOL; n->bval = lua_toboolean(L, -1); break;
    case LUA_TNUMBER:
      if (lua_isinteger(L, -1)) {
        n->ckind = CK_INT;
        n->ival = (int64_t)lua_tointeger(L, -1);
      } else {
        n->ckind = CK_FLOAT;
        n->fval = (double)lua_tonumber(L, -1);
      }
      break;
    case LUA_TSTRING: {
      size_t len;
      const char *s = lua_tolstring(L, -1, &len);
      n->ckind = CK_STR;
      n->sval = conv_strdup(C, s, len);
      n->ival = (int64_t)len;
      break;
    }
    default:
      conv_error(C, w, "expected nil, a number, a boolean or a string, got %s",
                 luaL_typename(L, -1));
  }
  lua_pop(L, 1);
}

/* FunctionDef.args on top of the stack; pops it */
static void conv_arguments(Conv *C, const Where *w, Node *f) {
  lua_State *L = C->L;
  if (lua_isnil(L, -1)) {  // no parameters
    lua_pop(L, 1);
    return;
  }
  if (!lua_istable(L, -1))
    conv_error(C, w, "expected an arguments table, got %s", luaL_typename(L, -1));
  lua_pushliteral(L, "tag");  // may be absent; must not be another tag
  lua_rawget(L, -2);
  if (!lua_isnil(L, -1) &&
      (lua_type(L, -1) != LUA_TSTRING || strcmp(lua_tostring(L, -1), "arguments") != 0))
    conv_error(C, w, "expected an arguments table, got tag %s",
               lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, -1));
  lua_pop(L, 1);
  Where wa = {"arguments", "args", 0, w->loc};
  lua_pushliteral(L, "args");
  lua_rawget(L, -2);
  conv_list(C, &wa, &f->args, ND_arg, CX_LOAD, 0);
  for (int i = 1; i < f->args.len; i++)
    for (int j = 0; j < i; j++)
      if (strcmp(f->args.items[i]->name, f->args.items[j]->name) == 0) {
        wa.index = i + 1;
        conv_error(C, &wa, "duplicate argument '%s'", f->args.items[i]->name);
      }
  Where wd = {"arguments", "defaults", 0, w->loc};
  lua_pushliteral(L, "defaults");
  lua_rawget(L, -2);
  conv_list(C, &wd, &f->defaults, WANT_EXPR, CX_LOAD, 0);
  if (f->defaults.len > f->args.len)
    conv_error(C, &wd, "more defaults (%d) than arguments (%d)", f->defaults.len,
               f->args.len);
  lua_pop(L, 1);
}

static const char *want_name(NodeKind want) {
  switch ((int)want) {
    case WANT_EXPR: return "an expression";
    case WANT_STMT: return "a statement";
    case ND_arg: return "an arg node";
    case ND_alias: return "an alias node";
    case ND_keyword: return "a keyword node";
    default: return "a Module or FunctionDef node";
  }
}

/* The node table on top of the stack (left there) as a Node. want is a
** kind, WANT_EXPR or WANT_STMT; ctx says what an expression may be. */
static Node *conv_node(Conv *C, const Where *w, NodeKind want, Ctx ctx) {
  lua_State *L = C->L;
  if (!lua_istable(L, -1))
    conv_error(C, w, "expected a node table, got %s", luaL_typename(L, -1));
  if (++C->depth > MAXDEPTH) conv_error(C, w, "too deeply nested (a cycle?)");
  if (++C->nodes > MAXNODES) conv_error(C, w, "too many nodes (more than %d)", MAXNODES);
  luaL_checkstack(L, 8, "syntax tree too deep");
  lua_pushliteral(L, "tag");
  int t = lua_rawget(L, -2);
  if (t != LUA_TSTRING)
    conv_error(C, w, t == LUA_TNIL ? "node table without a tag" : "tag must be a string, got %s",
               lua_typename(L, t));
  const char *tag = lua_tostring(L, -1);
  NodeKind k = kind_of(tag);
  if (k == ND__COUNT) conv_error(C, w, "unknown node tag '%s'", tag);
  lua_pop(L, 1);
  tag = ast_kind_names[k];
  bool ok = want == WANT_EXPR ? is_expr(k) : want == WANT_STMT ? is_stmt(k) : k == want;
  if (!ok) conv_error(C, w, "expected %s, got %s", want_name(want), tag);
  if (k == ND_Slice && ctx != CX_SLICE && ctx != CX_SLICE_ELT)
    conv_error(C, w, "a Slice is only allowed in Subscript.slice");
  if (ctx == CX_STORE && !(k == ND_Name || k == ND_Attribute || k == ND_Subscript ||
                           k == ND_Tuple || k == ND_List))
    conv_error(C, w, "cannot assign to %s", tag);
  /* what the parser refuses, the reader refuses too */
  if (k == ND_FunctionDef && C->funcs > 0)
    conv_error(C, w, "nested functions are not supported in compiled code");
  if (k == ND_Return && C->funcs == 0) conv_error(C, w, "'return' outside function");
  if (k == ND_Break && C->loops == 0) conv_error(C, w, "'break' outside loop");
  if (k == ND_Continue && C->loops == 0) conv_error(C, w, "'continue' not properly in loop");
  int loops = C->loops;
  if (k == ND_FunctionDef) {
    C->funcs++;
    C->loops = 0;
  }

  Node *n = ast_new(C->a, k, read_loc(C, tag, w->loc));
  if (n == NULL) luaL_error(L, "not enough memory");
  int nops = 0;
  for (const Field *f = shapes[k]; f < shapes[k] + MAXFIELDS && f->name; f++) {
    Where here = {tag, f->name, 0, n->loc};
    lua_pushstring(L, f->name);
    lua_rawget(L, -2);
    Ctx elts = ctx == CX_STORE ? CX_STORE : ctx == CX_SLICE ? CX_SLICE_ELT : CX_LOAD;
    switch (f->kind) {
      case FK_EXPR: FIELD(n, f, Node *) = conv_child(C, &here, WANT_EXPR, CX_LOAD, false); break;
      case FK_OEXPR: FIELD(n, f, Node *) = conv_child(C, &here, WANT_EXPR, CX_LOAD, true); break;
      case FK_TARGET: FIELD(n, f, Node *) = conv_child(C, &here, WANT_EXPR, CX_STORE, false); break;
      case FK_SLICE: FIELD(n, f, Node *) = conv_child(C, &here, WANT_EXPR, CX_SLICE, false); break;
      case FK_STARGET: {
        Node *c = conv_child(C, &here, WANT_EXPR, CX_STORE, false);
        if (c->kind == ND_Tuple || c->kind == ND_List)
          conv_error(C, &here, "expected a Name, Attribute or Subscript, got %s",
                     ast_kind_names[c->kind]);
        FIELD(n, f, Node *) = c;
        break;
      }
      case FK_STMTS:  // a loop's body (not its else) is in the loop
        C->loops += k == ND_For || k == ND_While;
        conv_list(C, &here, &FIELD(n, f, NodeList), WANT_STMT, CX_LOAD, 1);
        C->loops -= k == ND_For || k == ND_While;
        break;
      case FK_OSTMTS: conv_list(C, &here, &FIELD(n, f, NodeList), WANT_STMT, CX_LOAD, 0); break;
      case FK_EXPRS:
        conv_list(C, &here, &FIELD(n, f, NodeList), WANT_EXPR,
                  k == ND_Tuple || k == ND_List ? elts : CX_LOAD, 0);
        break;
      case FK_TARGETS: conv_list(C, &here, &FIELD(n, f, NodeList), WANT_EXPR, CX_STORE, 1); break;
      case FK_VALUES: conv_list(C, &here, &FIELD(n, f, NodeList), WANT_EXPR, CX_LOAD, 2); break;
      case FK_COMPARATORS:
        conv_list(C, &here, &FIELD(n, f, NodeList), WANT_EXPR, CX_LOAD, 1);
        if (n->elts.len != nops)
          conv_error(C, &here, "expected %d comparators (one per operator), got %d", nops,
                     n->elts.len);
        break;
      case FK_KEYWORDS:
        conv_list(C, &here, &FIELD(n, f, NodeList), ND_keyword, CX_LOAD, 0);
        for (int i = 1; i < n->keywords.len; i++)
          for (int j = 0; j < i; j++)
            if (strcmp(n->keywords.items[i]->name, n->keywords.items[j]->name) == 0) {
              here.index = i + 1;
              conv_error(C, &here, "keyword argument repeated: %s", n->keywords.items[i]->name);
            }
        break;
      case FK_ALIASES: conv_list(C, &here, &FIELD(n, f, NodeList), ND_alias, CX_LOAD, 1); break;
      case FK_ARGUMENTS: conv_arguments(C, &here, n); break;
      case FK_ID: FIELD(n, f, const char *) = conv_name(C, &here, false, false); break;
      case FK_OID: FIELD(n, f, const char *) = conv_name(C, &here, true, false); break;
      case FK_DOTTED: FIELD(n, f, const char *) = conv_name(C, &here, false, true); break;
      case FK_BINOP: n->op = conv_op(C, &here, OP_Add, OP_BitAnd, "a binary operator"); break;
      case FK_UNOP: n->op = conv_op(C, &here, OP_USub, OP_Invert, "a unary operator"); break;
      case FK_BOOLOP: n->op = conv_op(C, &here, OP_And, OP_Or, "a boolean operator"); break;
      case FK_CMPOPS: {
        if (!lua_istable(L, -1))
          conv_error(C, &here, "expected a list, got %s", luaL_typename(L, -1));
        lua_Unsigned len = lua_rawlen(L, -1);
        if (len == 0) conv_error(C, &here, "expected a non-empty list");
        if (len > (lua_Unsigned)MAXNODES) conv_error(C, &here, "list too long");
        nops = (int)len;
        n->cmpops = conv_alloc(C, sizeof(OpKind) * len);
        for (int i = 0; i < nops; i++) {
          here.index = i + 1;
          lua_rawgeti(L, -1, i + 1);
          n->cmpops[i] = conv_op(C, &here, OP_Eq, OP_NotIn, "a comparison operator");
        }
        lua_pop(L, 1);
        break;
      }
      case FK_CONST: conv_const(C, &here, n); break;
      case FK_LEVEL: {
        int isint;
        lua_Integer lv = lua_tointegerx(L, -1, &isint);
        if (!lua_isnil(L, -1) && !(lua_type(L, -1) == LUA_TNUMBER && isint && lv == 0))
          conv_error(C, &here, "relative imports are not supported (level must be 0)");
        lua_pop(L, 1);
        break;
      }
    }
  }
  if (k == ND_FunctionDef) {
    C->funcs--;
    C->loops = loops;
  }
  C->depth--;
  return n;
}

/* src copied into the arena, its text taken from the root table's field
** `source` when src has none (a Lua-syntax function's file, an AST that
** lumba.parse made and the caller annotated) */
static const Source *conv_source(Conv *C, int idx, const Source *src) {
  lua_State *L = C->L;
  if (src == NULL) return NULL;
  Source *s = conv_alloc(C, sizeof *s);
  if (src->chunk) s->chunk = conv_strdup(C, src->chunk, strlen(src->chunk));
  if (src->text) {
    s->text = conv_strdup(C, src->text, src->len);
    s->len = src->len;
    return s;
  }
  lua_pushliteral(L, "source");
  if (lua_rawget(L, idx) == LUA_TSTRING) {
    size_t len;
    const char *text = lua_tolstring(L, -1, &len);
    s->text = conv_strdup(C, text, len);
    s->len = len;
  }
  lua_pop(L, 1);
  return s;
}

Node *ast_from_lua(lua_State *L, int idx, Arena *a, const Source *src) {
  Conv conv = {L, a, NULL, 0, 0, 0, 0};
  idx = lua_absindex(L, idx);
  luaL_checkstack(L, 8, "syntax tree too deep");
  if (!lua_istable(L, idx))
    conv_error(&conv, NULL, "expected a Module or FunctionDef table, got %s",
               luaL_typename(L, idx));
  lua_pushliteral(L, "tag");
  lua_rawget(L, idx);
  const char *tag = lua_tostring(L, -1);
  NodeKind k = tag && lua_type(L, -1) == LUA_TSTRING ? kind_of(tag) : ND__COUNT;
  if (tag != NULL && lua_type(L, -1) == LUA_TSTRING && k == ND__COUNT)
    conv_error(&conv, NULL, "unknown node tag '%s'", tag);
  if (k != ND_Module && k != ND_FunctionDef)
    conv_error(&conv, NULL, "expected a Module or FunctionDef table, got %s",
               k == ND__COUNT ? "a table without a tag" : ast_kind_names[k]);
  lua_pop(L, 1);
  conv.src = conv_source(&conv, idx, src);
  lua_pushvalue(L, idx);
  Where root = {NULL, NULL, 0, {conv.src, 0, 0}};
  Node *n = conv_node(&conv, &root, k, CX_LOAD);
  lua_pop(L, 1);
  if (k == ND_Module) return n;
  Node *m = ast_new(a, ND_Module, n->loc);
  if (m == NULL) luaL_error(L, "not enough memory");
  ast_list_push(a, &m->body, n);
  if (m->body.len != 1) luaL_error(L, "not enough memory");
  return m;
}
