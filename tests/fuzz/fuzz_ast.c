/*
** fuzz_ast — the Lua-table AST importer and, behind it, the compiler, on
** random tables. The input becomes the text of a Lua table constructor
** shaped like a Module of Python-subset statements (mostly well-formed, so
** that trees get past the importer), where now and then a field is dropped
** or replaced by a value of the wrong kind: a number, a string, a boolean,
** an empty table, a node of the wrong class. Each tree goes through
** lumba._ast_roundtrip (tables -> C tree -> tables); accepted ones are
** compiled for a random signature, and those whose loops are bounded are
** called. Errors are fine; a crash, a sanitizer report or an error that
** escapes its pcall is not.
*/
#include <stdarg.h>

#include "fuzz.h"

typedef struct Gen {
  Bytes *b;
  char *s;
  size_t n, cap;
  int nodes;      // budget: at most 400 nodes per tree
  int bounded;    // no while loop, for loops only over range(small constant), no use of f
} Gen;

static void put(Gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Gen *g, const char *fmt, ...) {
  va_list ap;
  for (;;) {
    va_start(ap, fmt);
    int k = vsnprintf(g->s + g->n, g->cap - g->n, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    if (g->n + (size_t)k < g->cap) {
      g->n += (size_t)k;
      return;
    }
    g->cap = 2 * g->cap + (size_t)k + 64;
    g->s = realloc(g->s, g->cap);
    if (g->s == NULL) abort();
  }
}

static unsigned pick(Gen *g, unsigned k) {
  return fz_pick(g->b, k);
}

static const char *const names[] = {"x", "y", "n", "a", "i", "t", "f", "np", "math", "range", "len", "abs",
                                    "min", "max", "int", "float", "bool", "round", "prange", "numba", "cuda",
                                    "undefined", "True", "_"};
static const char *const attrs[] = {"shape", "size", "ndim", "sum", "min", "max", "sqrt", "zeros", "empty",
                                    "arange", "pi", "inf", "float32", "int64", "exp", "floor", "copy", "T",
                                    "foo", "x", "grid", "ones", "int8"};
static const char *const binops[] = {"Add", "Sub", "Mult", "Div", "FloorDiv", "Mod", "Pow", "LShift", "RShift",
                                     "BitOr", "BitXor", "BitAnd", "MatMult", "And", "Nope"};
static const char *const unops[] = {"USub", "UAdd", "Not", "Invert", "Add"};
static const char *const cmpops[] = {"Eq", "NotEq", "Lt", "LtE", "Gt", "GtE", "Is", "IsNot", "In", "NotIn", "Foo"};
static const char *const consts[] = {"0", "1", "2", "-1", "3", "7", "0.5", "-2.5", "1e308", "0/0", "1/0",
                                     "math.maxinteger", "math.mininteger", "true", "false", "'s'", "''",
                                     "nil", "1 << 62", "64"};
static const char *const sigs_scalar[] = {"int64", "float64", "bool", "float32", "int32", "uint8"};
static const char *const sigs_array[] = {"float64[:]", "int64[:]", "float64[:, :]", "float32[::1]",
                                         "int32[:, ::1]", "bool[:]", "uint8[:]", "float64[:, :, :]"};

#define N(n) (sizeof(n) / sizeof((n)[0]))

static void gen_expr(Gen *g, int depth);

/* now and then a value of the wrong kind in place of a field */
static int garbage(Gen *g) {
  if (pick(g, 24) != 0) return 0;
  static const char *const junk[] = {"5", "'x'", "true", "{}", "{tag = 'Pass'}", "{tag = 'Name'}",
                                     "{tag = 'Bogus'}", "-1", "{{}}", "{tag = 'arg', arg = 'x'}"};
  put(g, "%s", junk[pick(g, N(junk))]);
  return 1;
}

static void pos(Gen *g) {
  if (pick(g, 4) == 0) return;
  unsigned line = pick(g, 16);
  put(g, ", lineno = %u, col_offset = %u", line == 15 ? 1000000000u : line, pick(g, 40));
}

static void gen_name(Gen *g, const char *ctx) {
  put(g, "{tag = 'Name', id = ");
  if (pick(g, 40) == 0) put(g, "'%s'", pick(g, 2) ? "1bad" : "");
  else {
    const char *nm = names[pick(g, N(names))];
    /* f calls itself: unbounded recursion that LLVM turns into a loop
    ** (tail-call elimination) runs forever, as it would in Numba */
    if (strcmp(nm, "f") == 0) g->bounded = 0;
    put(g, "'%s'", nm);
  }
  put(g, ", ctx = '%s'", ctx);
  pos(g);
  put(g, "}");
}

static void gen_exprs(Gen *g, int depth, unsigned max) {
  unsigned n = pick(g, max + 1);
  put(g, "{");
  for (unsigned i = 0; i < n; i++) {
    if (i) put(g, ", ");
    gen_expr(g, depth + 1);
  }
  put(g, "}");
}

static void gen_expr(Gen *g, int depth) {
  if (garbage(g)) return;
  g->nodes++;
  unsigned k = depth > 6 || g->nodes > 400 ? pick(g, 2) : pick(g, 16);
  switch (k) {
    case 0: gen_name(g, "Load"); break;
    case 1: put(g, "{tag = 'Constant', value = %s", consts[pick(g, N(consts))]); pos(g); put(g, "}"); break;
    case 2: case 3:
      put(g, "{tag = 'BinOp', op = '%s', left = ", binops[pick(g, N(binops))]);
      gen_expr(g, depth + 1);
      put(g, ", right = ");
      gen_expr(g, depth + 1);
      pos(g);
      put(g, "}");
      break;
    case 4:
      put(g, "{tag = 'UnaryOp', op = '%s', operand = ", unops[pick(g, N(unops))]);
      gen_expr(g, depth + 1);
      put(g, "}");
      break;
    case 5:
      put(g, "{tag = 'BoolOp', op = '%s', values = ", pick(g, 2) ? "And" : "Or");
      gen_exprs(g, depth, 3);
      put(g, "}");
      break;
    case 6: {
      unsigned n = pick(g, 3);
      put(g, "{tag = 'Compare', left = ");
      gen_expr(g, depth + 1);
      put(g, ", ops = {");
      for (unsigned i = 0; i < n + (pick(g, 8) == 0); i++) put(g, "%s'%s'", i ? ", " : "", cmpops[pick(g, N(cmpops))]);
      put(g, "}, comparators = {");
      for (unsigned i = 0; i < n; i++) {
        if (i) put(g, ", ");
        gen_expr(g, depth + 1);
      }
      put(g, "}}");
      break;
    }
    case 7:
      put(g, "{tag = 'IfExp', test = ");
      gen_expr(g, depth + 1);
      put(g, ", body = ");
      gen_expr(g, depth + 1);
      put(g, ", orelse = ");
      gen_expr(g, depth + 1);
      put(g, "}");
      break;
    case 8: case 9:
      put(g, "{tag = 'Call', func = ");
      if (pick(g, 2)) gen_name(g, "Load");
      else gen_expr(g, depth + 1);
      put(g, ", args = ");
      gen_exprs(g, depth, 3);
      if (pick(g, 6) == 0) {
        put(g, ", keywords = {{tag = 'keyword', arg = '%s', value = ", pick(g, 2) ? "dtype" : "x");
        gen_expr(g, depth + 1);
        put(g, "}}");
      }
      put(g, "}");
      break;
    case 10: case 11:
      put(g, "{tag = 'Attribute', value = ");
      if (pick(g, 2)) gen_name(g, "Load");
      else gen_expr(g, depth + 1);
      put(g, ", attr = '%s', ctx = 'Load'}", attrs[pick(g, N(attrs))]);
      break;
    case 12: case 13:
      put(g, "{tag = 'Subscript', value = ");
      gen_name(g, "Load");
      put(g, ", slice = ");
      switch (pick(g, 3)) {
        case 0:
          put(g, "{tag = 'Slice'");
          if (pick(g, 2)) { put(g, ", lower = "); gen_expr(g, depth + 1); }
          if (pick(g, 2)) { put(g, ", upper = "); gen_expr(g, depth + 1); }
          if (pick(g, 3) == 0) { put(g, ", step = "); gen_expr(g, depth + 1); }
          put(g, "}");
          break;
        case 1:
          put(g, "{tag = 'Tuple', elts = ");
          gen_exprs(g, depth, 3);
          put(g, ", ctx = 'Load'}");
          break;
        default: gen_expr(g, depth + 1);
      }
      put(g, ", ctx = 'Load'}");
      break;
    case 14:
      put(g, "{tag = 'Tuple', elts = ");
      gen_exprs(g, depth, 3);
      put(g, ", ctx = 'Load'}");
      break;
    default:
      put(g, "{tag = 'List', elts = ");
      gen_exprs(g, depth, 3);
      put(g, ", ctx = 'Load'}");
  }
}

static void gen_target(Gen *g) {
  if (garbage(g)) return;
  switch (pick(g, 6)) {
    case 0:
      put(g, "{tag = 'Subscript', value = ");
      gen_name(g, "Load");
      put(g, ", slice = ");
      gen_expr(g, 3);
      put(g, ", ctx = 'Store'}");
      break;
    case 1:
      put(g, "{tag = 'Tuple', elts = {");
      gen_name(g, "Store");
      put(g, ", ");
      gen_name(g, "Store");
      put(g, "}, ctx = 'Store'}");
      break;
    default: gen_name(g, "Store");
  }
}

static void gen_body(Gen *g, int depth, int in_loop);

static void gen_stmt(Gen *g, int depth, int in_loop) {
  if (garbage(g)) return;
  g->nodes++;
  unsigned k = depth > 4 || g->nodes > 400 ? pick(g, 3) : pick(g, 16);
  switch (k) {
    case 0: case 1:
      put(g, "{tag = 'Assign', targets = {");
      gen_target(g);
      put(g, "}, value = ");
      gen_expr(g, 0);
      pos(g);
      put(g, "}");
      break;
    case 2: put(g, "{tag = 'Return', value = "); gen_expr(g, 0); pos(g); put(g, "}"); break;
    case 3:
      put(g, "{tag = 'AugAssign', op = '%s', target = ", binops[pick(g, N(binops))]);
      gen_target(g);
      put(g, ", value = ");
      gen_expr(g, 0);
      put(g, "}");
      break;
    case 4: case 5:
      put(g, "{tag = 'If', test = ");
      gen_expr(g, 0);
      put(g, ", body = ");
      gen_body(g, depth + 1, in_loop);
      if (pick(g, 2)) {
        put(g, ", orelse = ");
        gen_body(g, depth + 1, in_loop);
      }
      put(g, "}");
      break;
    case 6: case 7: {
      put(g, "{tag = 'For', target = ");
      gen_target(g);
      put(g, ", iter = ");
      unsigned it = pick(g, 4);
      if (it == 0) {
        gen_expr(g, 1);
        g->bounded = 0;
      } else {
        put(g, "{tag = 'Call', func = {tag = 'Name', id = '%s'}, args = {{tag = 'Constant', value = %u}}}",
            it == 3 ? "prange" : "range", pick(g, 6));
      }
      put(g, ", body = ");
      gen_body(g, depth + 1, 1);
      if (pick(g, 4) == 0) {
        put(g, ", orelse = ");
        gen_body(g, depth + 1, in_loop);
      }
      put(g, "}");
      break;
    }
    case 8:
      g->bounded = 0;
      put(g, "{tag = 'While', test = ");
      gen_expr(g, 0);
      put(g, ", body = ");
      gen_body(g, depth + 1, 1);
      put(g, "}");
      break;
    case 9: put(g, "{tag = '%s'}", in_loop || pick(g, 8) == 0 ? (pick(g, 2) ? "Break" : "Continue") : "Pass"); break;
    case 10: put(g, "{tag = 'Expr', value = "); gen_expr(g, 0); put(g, "}"); break;
    case 11:
      put(g, "{tag = 'Assert', test = ");
      gen_expr(g, 0);
      if (pick(g, 2)) put(g, ", msg = {tag = 'Constant', value = 'm'}");
      put(g, "}");
      break;
    case 12:
      put(g, "{tag = 'Raise'");
      if (pick(g, 2)) {
        put(g, ", exc = ");
        gen_expr(g, 1);
      }
      put(g, "}");
      break;
    case 13:
      put(g, "{tag = 'AnnAssign', target = ");
      gen_name(g, "Store");
      put(g, ", annotation = ");
      gen_name(g, "Load");
      put(g, ", value = ");
      gen_expr(g, 0);
      put(g, ", simple = 1}");
      break;
    case 14:
      put(g, "{tag = 'Import', names = {{tag = 'alias', name = '%s', asname = %s}}}", pick(g, 2) ? "numpy" : "math",
          pick(g, 2) ? "'np'" : "nil");
      break;
    default: put(g, "{tag = 'Pass'}");
  }
}

static void gen_body(Gen *g, int depth, int in_loop) {
  if (garbage(g)) return;
  unsigned n = 1 + pick(g, 4);
  put(g, "{");
  for (unsigned i = 0; i < n; i++) {
    if (i) put(g, ", ");
    gen_stmt(g, depth, in_loop);
  }
  put(g, "}");
}

static const char *const params[] = {"x", "y", "n", "a"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  lua_State *L = fz_state();
  Bytes b = {data, size};
  Gen g = {&b, malloc(4096), 0, 4096, 0, 1};
  if (g.s == NULL) return 0;
  unsigned np = pick(&g, 5);
  unsigned flags = fz_u8(&b);
  put(&g, "local T = {tag = 'Module', body = {{tag = 'FunctionDef', name = 'f', args = {tag = 'arguments', args = {");
  for (unsigned i = 0; i < np; i++) put(&g, "%s{tag = 'arg', arg = '%s'}", i ? ", " : "", params[i]);
  put(&g, "}, defaults = {}}, body = ");
  gen_body(&g, 0, 0);
  put(&g, ", decorator_list = {}}}}\n");
  /* the signature and the arguments of a call */
  put(&g, "local SIG, ARGS = '(', {}\n");
  for (unsigned i = 0; i < np; i++) {
    unsigned t = pick(&g, 4);
    if (t == 0) {
      const char *ty = sigs_array[pick(&g, N(sigs_array))];
      put(&g, "SIG = SIG .. '%s%s'\n", i ? ", " : "", ty);
      int nd = 1;
      for (const char *p = ty; *p; p++) nd += *p == ',';
      put(&g, "ARGS[%u] = lumba.ones({%s}, '%.*s')\n", i + 1, nd == 1 ? "3" : nd == 2 ? "2, 3" : "2, 2, 2",
          (int)(strchr(ty, '[') - ty), ty);
    } else {
      const char *ty = sigs_scalar[pick(&g, N(sigs_scalar))];
      put(&g, "SIG = SIG .. '%s%s'\n", i ? ", " : "", ty);
      put(&g, "ARGS[%u] = %s\n", i + 1, ty[0] == 'b' ? "true" : ty[0] == 'f' ? "2.5" : "3");
    }
  }
  put(&g, "SIG = SIG .. ')'\n");
  put(&g, "local ok, e = pcall(lumba._ast_roundtrip, T)\n");
  put(&g, "if not ok and type(e) ~= 'string' then error('non-string error') end\n");
  if (flags & 1) {
    put(&g, "if ok then\n"
            "  local ok2, d = pcall(lumba.njit{parallel = %s, boundscheck = %s}, T)\n"
            "  if ok2 and pcall(d.compile, d, SIG) and %s then pcall(d, table.unpack(ARGS, 1, %u)) end\n"
            "end\n",
        flags & 2 ? "true" : "false", flags & 4 ? "true" : "false", g.bounded ? "true" : "false", np);
  }
  if (getenv("FUZZ_PRINT")) fputs(g.s, stderr);
  if (luaL_loadbuffer(L, g.s, g.n, "=tree") != LUA_OK) FZ_FAIL("generated chunk does not load: %s\n%s", lua_tostring(L, -1), g.s);
  if (lua_pcall(L, 0, 0, 0) != LUA_OK) FZ_FAIL("error escaped a pcall: %s\n%s", lua_tostring(L, -1), g.s);
  free(g.s);
  fz_collect(L);
  return 0;
}
