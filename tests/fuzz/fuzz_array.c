/*
** fuzz_array — the array API from Lua on random calls: the input becomes a
** Lua chunk of up to 24 statements, each inside its own pcall, over four
** array variables: constructors with random shapes, dtypes, orders and
** nested tables, views (reshape, slice, transpose), element access, copies,
** conversions, printing, reductions, random arrays, close(), and calls of
** compiled functions on whatever arrays result. Errors are fine; a crash,
** a sanitizer report or a Lua error escaping its pcall is not.
**
** Sizes: valid shapes stay small (dimensions 0..9), and large numbers appear
** only where they must fail (2^50 elements, 2^62, products past 2^63): a
** valid array of many GiB would only measure the machine.
*/
#include <stdarg.h>
#include <stdbool.h>

#include "fuzz.h"

typedef struct Out {
  char *s;
  size_t n, cap;
} Out;

static void put(Out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Out *o, const char *fmt, ...) {
  va_list ap;
  for (;;) {
    va_start(ap, fmt);
    int k = vsnprintf(o->s + o->n, o->cap - o->n, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    if (o->n + (size_t)k < o->cap) {
      o->n += (size_t)k;
      return;
    }
    o->cap = 2 * o->cap + (size_t)k + 64;
    o->s = realloc(o->s, o->cap);
    if (o->s == NULL) abort();
  }
}

static const char *const ints[] = {
  "0", "1", "2", "3", "-1", "-2", "4", "5", "7", "8", "1 << 50", "1 << 62", "math.maxinteger",
  "math.mininteger", "-5", "6",
};
static const char *const nums[] = {
  "0.5", "-0.0", "1e300", "-1e300", "0/0", "1/0", "-1/0", "2.5", "3.0", "-1.5", "1e-300", "255", "256",
  "-129", "2^63", "65535.0",
};
static const char *const dtypes[] = {
  "'float64'", "'float32'", "'int8'", "'int16'", "'int32'", "'int64'", "'uint8'", "'uint16'", "'uint32'",
  "'uint64'", "'bool'", "'f8'", "'int'", "'x'", "nil", "3",
};
static const char *const orders[] = {"'C'", "'F'", "'A'", "'K'", "nil", "1"};

static void gen_int(Bytes *b, Out *o) {
  unsigned k = fz_u8(b);
  if (k < 160) put(o, "%u", k % 10);
  else put(o, "%s", ints[k % (sizeof ints / sizeof ints[0])]);
}

static void gen_num(Bytes *b, Out *o) {
  switch (fz_pick(b, 5)) {
    case 0: put(o, "%s", nums[fz_pick(b, sizeof nums / sizeof nums[0])]); break;
    case 1: put(o, "true"); break;
    case 2: put(o, "'%u'", fz_pick(b, 10)); break;
    default: gen_int(b, o);
  }
}

/* A shape: an integer or a table of up to 9 dimensions. A large value
** (one that must fail) never shares a shape with a zero: {0, 2^50} is a
** valid empty array whose totable() or pairs() would run 2^50 times. */
static void gen_shape(Bytes *b, Out *o) {
  unsigned k = fz_pick(b, 12);
  if (k < 3) {
    gen_int(b, o);
    return;
  }
  unsigned nd = k == 11 ? 9 : k - 3;  /* 0..7 dims, sometimes 9 */
  const char *dims[9];
  char small[9][4];
  bool big = false;
  for (unsigned i = 0; i < nd; i++) {
    if (fz_pick(b, 8) == 0) {
      dims[i] = ints[fz_pick(b, sizeof ints / sizeof ints[0])];
      big = big || strlen(dims[i]) > 2;
    } else {
      snprintf(small[i], sizeof small[i], "%u", fz_pick(b, 4));
      dims[i] = small[i];
    }
  }
  put(o, "{");
  for (unsigned i = 0; i < nd; i++) put(o, "%s%s", i ? ", " : "", big && strcmp(dims[i], "0") == 0 ? "1" : dims[i]);
  put(o, "}");
}

static void gen_nested(Bytes *b, Out *o, int depth) {
  unsigned k = fz_pick(b, 8);
  if (depth > 4 || k < 3) {
    gen_num(b, o);
    return;
  }
  unsigned n = fz_pick(b, 5);
  put(o, "{");
  for (unsigned i = 0; i < n; i++) {
    if (i) put(o, ", ");
    gen_nested(b, o, depth + 1);
  }
  put(o, "}");
}

static void arr(Bytes *b, Out *o) {
  put(o, "a%u", 1 + fz_pick(b, 4));
}

static void gen_index_list(Bytes *b, Out *o) {
  unsigned n = fz_pick(b, 4);
  for (unsigned i = 0; i < n; i++) {
    put(o, ", ");
    gen_int(b, o);
  }
}

static void gen_selector(Bytes *b, Out *o) {
  switch (fz_pick(b, 6)) {
    case 0: gen_int(b, o); break;
    case 1: put(o, "{}"); break;
    case 2: put(o, "':'"); break;
    case 3: put(o, "{"); gen_int(b, o); put(o, ", "); gen_int(b, o); put(o, "}"); break;
    case 4:
      put(o, "{");
      gen_int(b, o);
      put(o, ", ");
      gen_int(b, o);
      put(o, ", ");
      gen_int(b, o);
      put(o, "}");
      break;
    default: put(o, "{nil, nil, -1}");
  }
}

static void gen_stmt(Bytes *b, Out *o) {
  unsigned dst = 1 + fz_pick(b, 4);
  switch (fz_pick(b, 32)) {
    case 0: case 1:
      put(o, "a%u = lumba.%s(", dst, fz_pick(b, 2) ? "zeros" : fz_pick(b, 2) ? "ones" : "empty");
      gen_shape(b, o);
      put(o, ", %s, %s)", dtypes[fz_pick(b, 16)], orders[fz_pick(b, 6)]);
      break;
    case 2:
      put(o, "a%u = lumba.full(", dst);
      gen_shape(b, o);
      put(o, ", ");
      gen_num(b, o);
      put(o, ", %s)", dtypes[fz_pick(b, 16)]);
      break;
    case 3:
      put(o, "a%u = lumba.arange(", dst);
      gen_num(b, o);
      for (unsigned i = fz_pick(b, 3); i > 0; i--) {
        put(o, ", ");
        gen_num(b, o);
      }
      if (fz_pick(b, 2)) put(o, ", %s", dtypes[fz_pick(b, 16)]);
      put(o, ")");
      break;
    case 4:
      put(o, "a%u = lumba.linspace(", dst);
      gen_num(b, o);
      put(o, ", ");
      gen_num(b, o);
      put(o, ", ");
      gen_int(b, o);
      put(o, ", %s)", dtypes[fz_pick(b, 16)]);
      break;
    case 5: case 6:
      put(o, "a%u = lumba.array(", dst);
      if (fz_pick(b, 4) == 0) arr(b, o);
      else gen_nested(b, o, 0);
      put(o, ", %s)", dtypes[fz_pick(b, 16)]);
      break;
    case 7:
      put(o, "a%u = ", dst);
      arr(b, o);
      put(o, ":reshape(");
      gen_shape(b, o);
      put(o, ")");
      break;
    case 8: case 9: {
      put(o, "a%u = ", dst);
      arr(b, o);
      put(o, ":slice(");
      unsigned n = fz_pick(b, 4);
      for (unsigned i = 0; i < n; i++) {
        if (i) put(o, ", ");
        gen_selector(b, o);
      }
      put(o, ")");
      break;
    }
    case 10:
      put(o, "a%u = ", dst);
      arr(b, o);
      if (fz_pick(b, 2)) put(o, ".T");
      else {
        put(o, ":transpose(");
        if (fz_pick(b, 2)) gen_nested(b, o, 3);
        put(o, ")");
      }
      break;
    case 11:
      put(o, "a%u = ", dst);
      arr(b, o);
      put(o, ":astype(%s)", dtypes[fz_pick(b, 16)]);
      break;
    case 12:
      put(o, "a%u = ", dst);
      arr(b, o);
      put(o, ":copy(%s)", orders[fz_pick(b, 6)]);
      break;
    case 13:
      put(o, "x = ");
      arr(b, o);
      put(o, ":get(");
      gen_int(b, o);
      gen_index_list(b, o);
      put(o, ")");
      break;
    case 14:
      arr(b, o);
      put(o, ":set(");
      gen_int(b, o);
      gen_index_list(b, o);
      put(o, ", ");
      gen_num(b, o);
      put(o, ")");
      break;
    case 15:
      put(o, "x = ");
      arr(b, o);
      put(o, "[");
      gen_int(b, o);
      put(o, "]");
      if (fz_pick(b, 2)) {
        put(o, "[");
        gen_int(b, o);
        put(o, "]");
      }
      break;
    case 16:
      arr(b, o);
      put(o, "[");
      gen_int(b, o);
      put(o, "] = ");
      if (fz_pick(b, 3) == 0) gen_nested(b, o, 2);
      else if (fz_pick(b, 3) == 0) arr(b, o);
      else gen_num(b, o);
      break;
    case 17: put(o, "x = tostring("); arr(b, o); put(o, ")"); break;
    case 18: put(o, "x = "); arr(b, o); put(o, ":totable()"); break;
    case 19: {
      static const char *const red[] = {"sum", "min", "max", "is_c_contiguous", "is_f_contiguous", "data_ptr"};
      put(o, "x = ");
      arr(b, o);
      put(o, ":%s()", red[fz_pick(b, 6)]);
      break;
    }
    case 20: {
      static const char *const f[] = {"shape", "strides", "dtype", "ndim", "size", "itemsize", "nbytes", "layout",
                                      "flags", "T", "nonexistent"};
      put(o, "x = ");
      arr(b, o);
      put(o, ".%s", f[fz_pick(b, 11)]);
      break;
    }
    case 21: arr(b, o); put(o, ":fill("); gen_num(b, o); put(o, ")"); break;
    case 22: arr(b, o); put(o, ":close()"); break;
    case 23: put(o, "x = lumba.allclose("); arr(b, o); put(o, ", "); arr(b, o); put(o, ")"); break;
    case 24: put(o, "lumba.random.seed("); gen_int(b, o); put(o, ")"); break;
    case 25: {
      static const char *const r[] = {"rand", "randn"};
      put(o, "a%u = lumba.random.%s(", dst, r[fz_pick(b, 2)]);
      gen_shape(b, o);
      put(o, ")");
      break;
    }
    case 26:
      put(o, "a%u = lumba.random.randint(", dst);
      gen_int(b, o);
      put(o, ", ");
      gen_int(b, o);
      put(o, ", ");
      gen_shape(b, o);
      put(o, ", %s)", dtypes[fz_pick(b, 16)]);
      break;
    case 27:
      put(o, "a%u = lumba.random.choice(", dst);
      arr(b, o);
      put(o, ", ");
      gen_shape(b, o);
      put(o, ")");
      break;
    case 28: put(o, "for k, v in pairs("); arr(b, o); put(o, ") do x = v end"); break;
    case 29: put(o, "x = #"); arr(b, o); break;
    default: {
      /* compiled code on whatever the variables hold */
      static const char *const fns[] = {"F.sum", "F.first", "F.double", "F.make", "F.view"};
      unsigned f = fz_pick(b, 5);
      put(o, "a%u = %s(", dst, fns[f]);
      if (f == 3) gen_int(b, o);
      else arr(b, o);
      put(o, ")");
    }
  }
}

/* compiled functions the chunks call (built once) */
static const char *const prelude =
    "F = {}\n"
    "F.sum = lumba.njit('def s(a):\\n    return a.sum()\\n')\n"
    "F.first = lumba.njit{boundscheck = true}('def first(a):\\n    return a[0]\\n')\n"
    "F.double = lumba.njit('def d(a):\\n    for i in range(a.shape[0]):\\n        a[i] = a[i] * 2\\n    return a\\n')\n"
    "F.make = lumba.njit('def m(n):\\n    a = np.zeros(n)\\n    for i in range(n):\\n        a[i] = i\\n    return a\\n')\n"
    "F.view = lumba.njit('def v(a):\\n    return a[1:-1]\\n')\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int ready;
  lua_State *L = fz_state();
  if (!ready) {
    if (luaL_dostring(L, prelude) != LUA_OK) FZ_FAIL("prelude: %s", lua_tostring(L, -1));
    ready = 1;
  }
  Bytes b = {data, size};
  Out o = {malloc(4096), 0, 4096};
  if (o.s == NULL) return 0;
  put(&o, "local a1, a2, a3, a4, x\n");
  for (int i = 0; i < 24 && fz_more(&b); i++) {
    put(&o, "pcall(function() ");
    gen_stmt(&b, &o);
    put(&o, " end)\n");
  }
  if (getenv("FUZZ_PRINT")) fputs(o.s, stderr);
  if (luaL_loadbuffer(L, o.s, o.n, "=chunk") != LUA_OK) FZ_FAIL("generated chunk does not load: %s\n%s", lua_tostring(L, -1), o.s);
  if (lua_pcall(L, 0, 0, 0) != LUA_OK) FZ_FAIL("error escaped a pcall: %s\n%s", lua_tostring(L, -1), o.s);
  free(o.s);
  fz_collect(L);
  return 0;
}
