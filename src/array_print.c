/*
** array_print.c — __tostring of lumba.ndarray, NumPy's repr:
**   array([1. , 2.5, 3. ])            array([1, 2, 3], dtype=int32)
**   array([[1, 2],                    array([], shape=(2, 0), dtype=float64)
**          [3, 4]])
** The rules are NumPy's defaults (linewidth 75, precision 8, floatmode
** 'maxprec', threshold 1000, edgeitems 3): each float has its shortest
** round-trip digits (at most 8 after the point), all are padded to one
** width; scientific notation when a nonzero value is >= 1e8 or < 1e-4 or
** max/min > 1e3; rows wrap at 75 columns; arrays of more than 1000
** elements show 3 items at each edge of every axis around "...". The dtype
** is named unless it is float64, int64 or bool (and always when empty).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "array.h"
#include "array_impl.h"
#include "half_rt.h"

#define LINEWIDTH 75
#define PRECISION 8
#define THRESHOLD 1000
#define EDGEITEMS 3

/* decimal digits of |x|: x = 0.d1d2...dn * 10^(e+1), d without trailing zeros */
typedef struct Digits {
  char d[24];
  int n;
  int e;
  bool neg;
} Digits;

/* how every element is written, from one pass over the shown elements */
typedef struct Fmt {
  char kind;       // dtype kind ('f' for either part of a complex)
  int part;        // complex: 0 formats the real parts, 1 the imaginary ones
  bool plus;       // the imaginary parts: '+' before non-negative values
  int fbits;       // 16, 32, 64: shortest digits that read back as that float
  bool zerod;      // 0-d array: "True" instead of " True"
  int width;       // integers: right-aligned width
  bool exp;        // floats: scientific notation
  int pad_left;    // floats: integer part width (sign included)
  int pad_right;   // floats: fractional part width
  int precision;   // scientific: digits after the point
  int exp_size;    // scientific: exponent digits
  /* first pass */
  bool any_finite, any_nonfinite, neg_inf;
  double max_abs, min_abs;  // of finite nonzero values; min_abs < 0: none
} Fmt;

typedef struct Out {
  luaL_Buffer b;
  const NdArray *a;
  Fmt F, Fi;           // Fi: the imaginary parts of a complex array
  Fmt *cur;            // the one a pass collects
  bool summarize;
  int pass;            // 1, 2: collecting Fmt facts
  char line[512];      // the row being wrapped
  int linelen;
  bool first_line;     // the first line of a row drops its hanging indent
} Out;

static void parse_e(const char *buf, Digits *D) {
  D->n = 0;
  const char *s = buf;
  for (; *s && *s != 'e'; s++)
    if (*s >= '0' && *s <= '9') D->d[D->n++] = *s;
  D->e = atoi(s + 1);
  while (D->n > 1 && D->d[D->n - 1] == '0') D->n--;
}

/* Shortest digits that read back as x, at most PRECISION+1 significant
** ones when capped (scientific mode's limit). */
static void shortest(double x, int fbits, bool cap, Digits *D) {
  char buf[64];
  D->neg = signbit(x);
  x = fabs(x);
  for (int p = 1; p <= 17; p++) {
    snprintf(buf, sizeof buf, "%.*e", p - 1, x);
    if (fbits == 32 ? strtof(buf, NULL) == (float)x
        : fbits == 16 ? lm_d2h(strtod(buf, NULL)) == lm_d2h(x) : strtod(buf, NULL) == x)
      break;
    if (cap && p == PRECISION + 1) break;
  }
  parse_e(buf, D);
}

/* positional digits: integer part (with '-') and fractional part */
static void positional(const Fmt *F, double x, char *ip, char *fp) {
  Digits D;
  shortest(x, F->fbits, false, &D);
  char *q = ip;
  if (D.neg) *q++ = '-';
  else if (F->plus) *q++ = '+';
  if (D.n - 1 - D.e > PRECISION) {  /* round at 8 decimals, drop trailing zeros */
    char buf[64];
    snprintf(buf, sizeof buf, "%.*f", PRECISION, fabs(x));
    char *dot = strchr(buf, '.');
    *dot = '\0';
    strcpy(q, buf);
    strcpy(fp, dot + 1);
    size_t n = strlen(fp);
    while (n > 0 && fp[n - 1] == '0') fp[--n] = '\0';
    return;
  }
  if (D.e >= 0) {
    for (int i = 0; i <= D.e; i++) *q++ = i < D.n ? D.d[i] : '0';
    *q = '\0';
    int k = 0;
    for (int i = D.e + 1; i < D.n; i++) fp[k++] = D.d[i];
    fp[k] = '\0';
  } else {
    strcpy(q, "0");
    int k = 0;
    for (int i = 0; i < -D.e - 1; i++) fp[k++] = '0';
    for (int i = 0; i < D.n; i++) fp[k++] = D.d[i];
    fp[k] = '\0';
  }
}

/* scientific digits: "-1", "25" and exponent -3 for -1.25e-03 */
static void scientific(const Fmt *F, double x, char *ip, char *fp, int *e) {
  Digits D;
  shortest(x, F->fbits, true, &D);
  char *q = ip;
  if (D.neg) *q++ = '-';
  else if (F->plus) *q++ = '+';
  *q++ = D.d[0];
  *q = '\0';
  memcpy(fp, D.d + 1, (size_t)(D.n - 1));
  fp[D.n - 1] = '\0';
  *e = D.e;
}

static int exp_digits(int e) {
  char buf[16];
  return snprintf(buf, sizeof buf, "%02d", abs(e));
}

static double elem_double(const Fmt *F, DType dt, const char *p) {
  Num v = array_load(dt, p);
  return F->part ? v.im : v.f;
}

/* one shown element in a pass of the format setup */
static void collect(Out *O, const char *p) {
  Fmt *F = O->cur;
  DType dt = O->a->dtype;
  if (F->kind != 'f') {
    char buf[32];
    Num v = array_load(dt, p);
    int n = F->kind == 'u' ? snprintf(buf, sizeof buf, "%llu", (unsigned long long)(uint64_t)v.i)
                           : snprintf(buf, sizeof buf, "%lld", (long long)v.i);
    if (n > F->width) F->width = n;
    return;
  }
  double x = elem_double(F, dt, p);
  if (!isfinite(x)) {
    F->any_nonfinite = true;
    if (isinf(x) && x < 0) F->neg_inf = true;
    return;
  }
  if (O->pass == 1) {
    F->any_finite = true;
    double ax = fabs(x);
    if (ax != 0) {
      if (ax > F->max_abs) F->max_abs = ax;
      if (F->min_abs < 0 || ax < F->min_abs) F->min_abs = ax;
    }
    return;
  }
  char ip[64], fp[64];
  if (F->exp) {
    int e;
    scientific(F, x, ip, fp, &e);
    int ed = exp_digits(e);
    if (ed > F->exp_size) F->exp_size = ed;
    if ((int)strlen(fp) > F->precision) F->precision = (int)strlen(fp);
  } else {
    positional(F, x, ip, fp);
    if ((int)strlen(fp) > F->pad_right) F->pad_right = (int)strlen(fp);
  }
  if ((int)strlen(ip) > F->pad_left) F->pad_left = (int)strlen(ip);
}

/* every element that will be shown (edges only when summarizing) */
static void visit(Out *O, const char *p, int axis) {
  const NdArray *a = O->a;
  if (axis == a->ndim) {
    collect(O, p);
    return;
  }
  int64_t n = a->s.shape[axis];
  for (int64_t i = 0; i < n; i++) {
    if (O->summarize && n > 2 * EDGEITEMS && i == EDGEITEMS) i = n - EDGEITEMS;
    visit(O, p + i * a->s.strides[axis], axis + 1);
  }
}

static void setup_fmt(Out *O, Fmt *F) {
  O->cur = F;
  O->pass = 1;
  visit(O, O->a->s.data, 0);
  if (F->kind != 'f') return;
  F->exp = F->min_abs > 0 &&
           (F->max_abs >= 1e8 || F->min_abs < 1e-4 || F->max_abs / F->min_abs > 1e3);
  O->pass = 2;
  visit(O, O->a->s.data, 0);
  if (F->exp) F->pad_right = F->exp_size + 2 + F->precision;
  if (F->any_nonfinite) {
    int offset = F->pad_right + 1;
    int inflen = 3 + (F->neg_inf || F->plus ? 1 : 0);
    if (3 - offset > F->pad_left) F->pad_left = 3 - offset;
    if (inflen - offset > F->pad_left) F->pad_left = inflen - offset;
  }
}

/* NumPy's ComplexFloatingFormat: the real and the imaginary parts each
** have their own float format, the imaginary one signed */
static void setup(Out *O) {
  Fmt *F = &O->F;
  memset(F, 0, sizeof *F);
  F->kind = dtype_kinds[O->a->dtype];
  DType dt = O->a->dtype;
  F->fbits = dt == DT_FLOAT16 ? 16 : dt == DT_FLOAT32 || dt == DT_COMPLEX64 ? 32 : 64;
  F->zerod = O->a->ndim == 0;
  F->min_abs = -1;
  if (F->kind == 'b') return;
  if (F->kind == 'c') {
    F->kind = 'f';
    O->Fi = *F;
    O->Fi.part = 1;
    O->Fi.plus = true;
    setup_fmt(O, &O->Fi);
  }
  setup_fmt(O, F);
}

static int format_float(const Fmt *F, double x, char *w);

/* the text of one element into w; returns its length */
static int format_elem(const Out *O, const char *p, char *w) {
  const Fmt *F = &O->F;
  DType dt = O->a->dtype;
  Num v = array_load(dt, p);
  switch (F->kind) {
    case 'b': return sprintf(w, "%s", v.i ? (F->zerod ? "True" : " True") : "False");
    case 'u': return sprintf(w, "%*llu", F->width, (unsigned long long)(uint64_t)v.i);
    case 'i': return sprintf(w, "%*lld", F->width, (long long)v.i);
    default: break;
  }
  if (dtype_kinds[dt] == 'c') {
    int n = format_float(F, v.f, w);
    int k = format_float(&O->Fi, v.im, w + n);
    int sp = k;
    while (sp > 0 && w[n + sp - 1] == ' ') sp--;
    memmove(w + n + sp + 1, w + n + sp, (size_t)(k - sp + 1));
    w[n + sp] = 'j';
    return n + k + 1;
  }
  return format_float(F, v.f, w);
}

static int format_float(const Fmt *F, double x, char *w) {
  if (!isfinite(x)) {
    const char *s = isnan(x) ? (F->plus ? "+nan" : "nan") : x < 0 ? "-inf" : F->plus ? "+inf" : "inf";
    return sprintf(w, "%*s", F->pad_left + F->pad_right + 1, s);
  }
  char ip[64], fp[64];
  if (F->exp) {
    int e;
    scientific(F, x, ip, fp, &e);
    if ((int)strlen(fp) < F->precision) {  /* NumPy pads with the exact value's next digits (Dragon4's
                                             min_digits), not zeros: float16's 1.19e-07 beside 1.5e+00 */
      char buf[64];
      snprintf(buf, sizeof buf, "%.*e", F->precision, fabs(x));
      ip[strlen(ip) - 1] = buf[0];
      char *ex = strchr(buf, 'e');
      *ex = '\0';
      strcpy(fp, buf + 2);
      e = atoi(ex + 1);
    }
    return sprintf(w, "%*s.%s%.*se%c%0*d", F->pad_left, ip, fp,
                   F->precision - (int)strlen(fp), "00000000000000000000",
                   e < 0 ? '-' : '+', F->exp_size, abs(e));
  }
  positional(F, x, ip, fp);
  return sprintf(w, "%*s.%-*s", F->pad_left, ip, F->pad_right, fp);
}

/* ---- layout: NumPy's _formatArray ---- */

static void emit_spaces(Out *O, int n) {
  for (int i = 0; i < n; i++) luaL_addchar(&O->b, ' ');
}

/* ends the current line: the first one of a row without its hanging indent */
static void flush_line(Out *O, int hang, bool rstrip) {
  int n = O->linelen;
  if (rstrip)
    while (n > 0 && O->line[n - 1] == ' ') n--;
  int from = O->first_line ? hang : 0;
  if (n > from) luaL_addlstring(&O->b, O->line + from, (size_t)(n - from));
  O->first_line = false;
}

static void line_add(Out *O, const char *s, int n) {
  LM_ASSERT(O->linelen + n < (int)sizeof O->line);
  memcpy(O->line + O->linelen, s, (size_t)n);
  O->linelen += n;
}

/* NumPy's _extendLine: wrap before word unless the line holds only the indent */
static void extend_line(Out *O, const char *word, int n, int width, int hang) {
  if (O->linelen + n > width && O->linelen > hang) {
    flush_line(O, hang, true);
    luaL_addchar(&O->b, '\n');
    O->linelen = 0;
    memset(O->line, ' ', (size_t)hang);
    O->linelen = hang;
  }
  line_add(O, word, n);
}

static void format_rec(Out *O, const char *p, int axis, int hang, int width);

/* element i of axis: a word in a row, or a nested block */
static void row_word(Out *O, const char *p, int axis, int64_t i, int hang, int width, bool sep) {
  char w[128];
  int n = format_elem(O, p + i * O->a->s.strides[axis], w);
  extend_line(O, w, n, width - 1, hang);
  if (sep) line_add(O, ", ", 2);
}

static void block(Out *O, const char *p, int axis, int64_t i, int hang, int width,
                  bool first, int newlines) {
  if (!first) emit_spaces(O, hang);
  format_rec(O, p + i * O->a->s.strides[axis], axis + 1, hang + 1, width - 1);
  if (newlines > 0) {
    luaL_addchar(&O->b, ',');
    for (int k = 0; k < newlines; k++) luaL_addchar(&O->b, '\n');
  }
}

static void format_rec(Out *O, const char *p, int axis, int hang, int width) {
  const NdArray *a = O->a;
  int64_t n = a->s.shape[axis];
  bool summary = O->summarize && n > 2 * EDGEITEMS;
  int64_t lead = summary ? EDGEITEMS : 0, trail = summary ? EDGEITEMS : n;
  int left = a->ndim - axis;
  luaL_addchar(&O->b, '[');
  if (left == 1) {
    O->first_line = true;
    memset(O->line, ' ', (size_t)hang);
    O->linelen = hang;
    for (int64_t i = 0; i < lead; i++) row_word(O, p, axis, i, hang, width, true);
    if (summary) {
      extend_line(O, "...", 3, width - 1, hang);
      line_add(O, ", ", 2);
    }
    for (int64_t i = trail; i > 1; i--) row_word(O, p, axis, n - i, hang, width, true);
    row_word(O, p, axis, n - 1, hang, width, false);
    flush_line(O, hang, false);
  } else {
    bool first = true;
    for (int64_t i = 0; i < lead; i++, first = false)
      block(O, p, axis, i, hang, width, first, left - 1);
    if (summary) {
      emit_spaces(O, hang);
      luaL_addstring(&O->b, "...,");
      for (int k = 0; k < left - 1; k++) luaL_addchar(&O->b, '\n');
    }
    for (int64_t i = trail; i > 1; i--, first = false)
      block(O, p, axis, n - i, hang, width, first, left - 1);
    block(O, p, axis, n - 1, hang, width, first, 0);
  }
  luaL_addchar(&O->b, ']');
}

/* length of the text after the last newline in the buffer */
static size_t last_line_len(luaL_Buffer *b) {
  size_t n = luaL_bufflen(b);
  const char *s = luaL_buffaddr(b);
  size_t k = n;
  while (k > 0 && s[k - 1] != '\n') k--;
  return n - k;
}

int array_tostring(lua_State *L) {
  NdArray *a = UDATA_CHECK(L, 1, NdArray, ARRAY_MT, ARRAY_TAG);
  if (a->flags & ARR_CLOSED) {
    lua_pushliteral(L, "array(<closed>)");
    return 1;
  }
  if (dtype_is_record(a->dtype)) return array_records->tostring(L, a);
  Out out;
  Out *O = &out;
  O->a = a;
  O->summarize = a->s.nitems > THRESHOLD;
  DType dt = a->dtype;
  bool show_dtype = a->s.nitems == 0 || !(dt == DT_FLOAT64 || dt == DT_INT64 || dt == DT_BOOL || dt == DT_COMPLEX128);
  luaL_buffinit(L, &O->b);
  luaL_addstring(&O->b, "array(");
  if (a->s.nitems == 0) {
    luaL_addstring(&O->b, "[]");
    if (a->ndim != 1) {  /* NumPy names every empty shape but (0,) */
      luaL_addstring(&O->b, ", shape=(");
      for (int k = 0; k < a->ndim; k++) {
        char num[32];
        snprintf(num, sizeof num, k ? ", %lld" : "%lld", (long long)a->s.shape[k]);
        luaL_addstring(&O->b, num);
      }
      luaL_addchar(&O->b, ')');
    }
  } else {
    setup(O);
    if (a->ndim == 0) {
      char w[128];
      luaL_addlstring(&O->b, w, (size_t)format_elem(O, a->s.data, w));
    } else {
      format_rec(O, a->s.data, 0, 7, LINEWIDTH - 1);
    }
  }
  if (show_dtype) {
    luaL_addchar(&O->b, ',');
    char d[32];
    int n = snprintf(d, sizeof d, "dtype=%s)", dtype_names[dt]);
    if (last_line_len(&O->b) + (size_t)n + 1 > LINEWIDTH) luaL_addstring(&O->b, "\n      ");
    else luaL_addchar(&O->b, ' ');
    luaL_addstring(&O->b, d);
  } else {
    luaL_addchar(&O->b, ')');
  }
  luaL_pushresult(&O->b);
  return 1;
}
