/*
** fuzz_compile — the whole pipeline on generated programs, checked against
** independent results. The input drives a grammar-aware generator of small
** well-typed functions of the Python subset (int64, float64 and bool
** locals; arithmetic, bitwise, comparisons, and/or/not, conditional
** expressions, min/max/abs/int/float/math.sqrt, if/elif/else, for over
** range, while with break/continue, early returns, a float64[:] argument
** read and written, a helper def called from expressions). Each program is
** printed as Python source, compiled with lumba.njit and called on
** generated arguments; the result (values, raised error, array contents)
** must equal the one of the reference evaluator below, which runs the
** same tree with Python's semantics as Numba compiles them (int64 wraps,
** floor division and modulo take the divisor's sign, int() of a float
** saturates). When lua/lumba/objmode.lua is on the path, the dispatcher's
** object-mode interpreter (d:interpret) must agree too.
**
** A disagreement is a bug in one of them: the input is kept by libFuzzer
** and printed (FUZZ_PRINT=1 shows every program).
*/
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>

#include "fuzz.h"

/* ---- the program tree ---- */

typedef enum Ty { T_INT, T_FLOAT, T_BOOL } Ty;

enum {
  E_LIT, E_VAR, E_BIN, E_NEG, E_INV, E_NOT, E_ABS, E_MIN, E_MAX, E_INTOF, E_FLOATOF, E_SQRT, E_CMP, E_CMP2,
  E_AND, E_OR, E_IFEXP, E_AREF, E_ALEN, E_ASUM, E_CALL, E_POW2, E_TREF, E_TSUM,
};
enum { B_ADD, B_SUB, B_MUL, B_DIV, B_FDIV, B_MOD, B_AND, B_OR, B_XOR, B_SHL, B_SHR };
enum { C_LT, C_LE, C_EQ, C_NE, C_GT, C_GE };

typedef struct E E;
struct E {
  int k;
  Ty ty;      // type of the value
  int op;     // B_* or C_*
  E *a, *b, *c;
  int64_t iv;
  double fv;
  int var;    // variable slot
};

enum { S_ASSIGN, S_AUG, S_IF, S_FOR, S_WHILE, S_ASTORE, S_RETURN, S_BREAK, S_CONTINUE, S_FORTUP, S_TSTORE };

typedef struct St St;
struct St {
  int k;
  int var;       // ASSIGN/AUG target, FOR loop variable, WHILE counter
  int op;        // AUG: B_ADD/B_SUB/B_MUL/B_DIV
  E *e, *e2;     // value / test / range bound / index; e2: RETURN's second value
  E *third;      // FORTUP: a third element (or NULL)
  St *body, *orelse;
  int64_t lim;   // WHILE: iterations
  St *next;
};

#define MAXVARS 24
#define MAXNODES 600

typedef struct Prog {
  Bytes *b;
  int nodes;
  /* variables: parameters first, then locals */
  int nvars;
  Ty vty[MAXVARS];
  char vname[MAXVARS][8];
  bool visible[MAXVARS];   // may be read here (defined on every path so far)
  int nparams;
  bool has_arr;            // parameter "arr": float64[:]
  int arrlen;
  int tlen;                // local "t = np.zeros(tlen)" (0: none)
  Ty ret;                  // T_INT/T_FLOAT/T_BOOL, or ret2 for a tuple (int, float)
  bool ret2;
  /* the helper: def h(u, v): return <hexpr> with u int, v float */
  E *hexpr;
  Ty hret;
  bool in_helper;
  St *body;
  /* arena */
  void **allocs;
  int nallocs, capallocs;
} Prog;

static void *alloc(Prog *P, size_t n) {
  if (P->nallocs == P->capallocs) {
    P->capallocs = P->capallocs ? 2 * P->capallocs : 64;
    P->allocs = realloc(P->allocs, sizeof(void *) * (size_t)P->capallocs);
    if (P->allocs == NULL) abort();
  }
  void *p = calloc(1, n);
  if (p == NULL) abort();
  P->allocs[P->nallocs++] = p;
  return p;
}

static unsigned pick(Prog *P, unsigned k) {
  return fz_pick(P->b, k);
}

/* ---- generation (type-directed) ---- */

static const int64_t int_lits[] = {0, 1, 2, 3, 5, 7, -1, -2, 10, 63, 64, 255, 1000, INT64_MAX, INT64_MIN,
                                   (int64_t)1 << 32, -((int64_t)1 << 40)};
static const double float_lits[] = {0.0, -0.0, 0.5, 1.0, 1.5, -2.25, 3.0, 1e300, -1e300, 1e-300, 0.1, 7.0, 1e16,
                                    2.5e-8};

static E *gen(Prog *P, Ty ty, int depth);
static E *mk(Prog *P, int k, Ty ty);
static E *lit(Prog *P, Ty ty);

/* a divisor: usually (d or k) with k a non-zero literal, so that programs
** mostly run to the end; now and then d itself (ZeroDivisionError) */
static E *divisor(Prog *P, Ty ty, int depth) {
  E *d = gen(P, ty, depth);
  if (fz_pick(P->b, 8) == 0) return d;
  E *e = mk(P, E_OR, ty);
  e->a = d;
  e->b = mk(P, E_LIT, ty);
  if (ty == T_INT) e->b->iv = fz_pick(P->b, 2) ? 3 : -7;
  else e->b->fv = fz_pick(P->b, 2) ? 1.5 : -0.25;
  return e;
}

static E *mk(Prog *P, int k, Ty ty) {
  E *e = alloc(P, sizeof(E));
  e->k = k;
  e->ty = ty;
  P->nodes++;
  return e;
}

static int pick_var(Prog *P, Ty ty) {
  int cand[MAXVARS], n = 0;
  for (int i = 0; i < P->nvars; i++)
    if (P->vty[i] == ty && P->visible[i]) cand[n++] = i;
  return n ? cand[pick(P, (unsigned)n)] : -1;
}

static E *lit(Prog *P, Ty ty) {
  E *e = mk(P, E_LIT, ty);
  if (ty == T_INT) e->iv = pick(P, 2) ? (int64_t)pick(P, 40) - 12 : int_lits[pick(P, sizeof int_lits / sizeof int_lits[0])];
  else if (ty == T_FLOAT) e->fv = float_lits[pick(P, sizeof float_lits / sizeof float_lits[0])];
  else e->iv = pick(P, 2);
  return e;
}

static E *gen_int(Prog *P, int depth) {
  unsigned k = depth <= 0 || P->nodes > MAXNODES ? pick(P, 2) : pick(P, 18);
  E *e;
  switch (k) {
    case 0: return lit(P, T_INT);
    case 1: {
      int v = P->in_helper ? -1 : pick_var(P, T_INT);
      if (v < 0 && !P->in_helper) return lit(P, T_INT);
      e = mk(P, E_VAR, T_INT);
      e->var = v;  /* -1: the helper's u */
      return e;
    }
    case 2: case 3: case 4: case 5: {
      static const int ops[] = {B_ADD, B_SUB, B_MUL, B_FDIV, B_MOD, B_AND, B_OR, B_XOR, B_SHL, B_SHR};
      e = mk(P, E_BIN, T_INT);
      e->op = ops[pick(P, 10)];
      e->a = gen(P, T_INT, depth - 1);
      e->b = e->op == B_FDIV || e->op == B_MOD ? divisor(P, T_INT, depth - 1) : gen(P, T_INT, depth - 1);
      return e;
    }
    case 6: e = mk(P, pick(P, 2) ? E_NEG : E_INV, T_INT); e->a = gen(P, T_INT, depth - 1); return e;
    case 7: e = mk(P, E_ABS, T_INT); e->a = gen(P, T_INT, depth - 1); return e;
    case 8: e = mk(P, pick(P, 2) ? E_MIN : E_MAX, T_INT); e->a = gen(P, T_INT, depth - 1); e->b = gen(P, T_INT, depth - 1); return e;
    case 9: e = mk(P, E_INTOF, T_INT); e->a = gen(P, T_FLOAT, depth - 1); return e;
    case 10:
      e = mk(P, E_IFEXP, T_INT);
      e->a = gen(P, T_BOOL, depth - 1);
      e->b = gen(P, T_INT, depth - 1);
      e->c = gen(P, T_INT, depth - 1);
      return e;
    case 11: if (P->has_arr && !P->in_helper) return mk(P, E_ALEN, T_INT); return lit(P, T_INT);
    case 12: e = mk(P, E_POW2, T_INT); e->a = gen(P, T_INT, depth - 1); e->iv = pick(P, 4); return e;
    case 13:
      if (P->in_helper || P->hret != T_INT) return lit(P, T_INT);
      e = mk(P, E_CALL, T_INT);
      e->a = gen(P, T_INT, depth - 1);
      e->b = gen(P, T_FLOAT, depth - 1);
      return e;
    default: {
      int v = P->in_helper ? -1 : pick_var(P, T_INT);
      if (v < 0) return lit(P, T_INT);
      e = mk(P, E_VAR, T_INT);
      e->var = v;
      return e;
    }
  }
}

static E *gen_float(Prog *P, int depth) {
  unsigned k = depth <= 0 || P->nodes > MAXNODES ? pick(P, 2) : pick(P, 20);
  E *e;
  switch (k) {
    case 0: return lit(P, T_FLOAT);
    case 1: case 14: case 15: {
      int v = P->in_helper ? -2 : pick_var(P, T_FLOAT);
      if (v == -1) return lit(P, T_FLOAT);
      e = mk(P, E_VAR, T_FLOAT);
      e->var = v;  /* -2: the helper's v */
      return e;
    }
    case 2: case 3: case 4: {
      static const int ops[] = {B_ADD, B_SUB, B_MUL, B_DIV, B_FDIV, B_MOD};
      e = mk(P, E_BIN, T_FLOAT);
      e->op = ops[pick(P, 6)];
      /* one side may be an int: Python promotes it */
      unsigned mix = pick(P, 4);
      e->a = gen(P, mix == 1 ? T_INT : T_FLOAT, depth - 1);
      Ty bt = mix == 2 ? T_INT : T_FLOAT;
      e->b = e->op >= B_DIV ? divisor(P, bt, depth - 1) : gen(P, bt, depth - 1);
      return e;
    }
    case 5:
      e = mk(P, E_BIN, T_FLOAT);
      e->op = B_DIV;
      e->a = gen(P, T_INT, depth - 1);
      e->b = divisor(P, T_INT, depth - 1);
      return e;
    case 6: e = mk(P, E_NEG, T_FLOAT); e->a = gen(P, T_FLOAT, depth - 1); return e;
    case 7: e = mk(P, E_ABS, T_FLOAT); e->a = gen(P, T_FLOAT, depth - 1); return e;
    case 8: e = mk(P, pick(P, 2) ? E_MIN : E_MAX, T_FLOAT); e->a = gen(P, T_FLOAT, depth - 1); e->b = gen(P, T_FLOAT, depth - 1); return e;
    case 9: e = mk(P, E_FLOATOF, T_FLOAT); e->a = gen(P, T_INT, depth - 1); return e;
    case 10: e = mk(P, E_SQRT, T_FLOAT); e->a = gen(P, T_FLOAT, depth - 1); return e;
    case 11:
      e = mk(P, E_IFEXP, T_FLOAT);
      e->a = gen(P, T_BOOL, depth - 1);
      e->b = gen(P, T_FLOAT, depth - 1);
      e->c = gen(P, T_FLOAT, depth - 1);
      return e;
    case 12:
      if (!P->has_arr || P->in_helper) return lit(P, T_FLOAT);
      e = mk(P, E_AREF, T_FLOAT);
      e->a = gen(P, T_INT, depth - 1);
      return e;
    case 13: if (P->has_arr && !P->in_helper) return mk(P, E_ASUM, T_FLOAT); return lit(P, T_FLOAT);
    case 18:
      if (!P->tlen || P->in_helper) return lit(P, T_FLOAT);
      e = mk(P, E_TREF, T_FLOAT);
      e->a = gen(P, T_INT, depth - 1);
      return e;
    case 19: if (P->tlen && !P->in_helper) return mk(P, E_TSUM, T_FLOAT); return lit(P, T_FLOAT);
    case 16:  /* x ** 3 is pow() in Python but two multiplications in Numba: stop at 2 */
      e = mk(P, E_POW2, T_FLOAT);
      e->a = gen(P, T_FLOAT, depth - 1);
      e->iv = pick(P, 3);
      return e;
    case 17:
      if (P->in_helper || P->hret != T_FLOAT) return lit(P, T_FLOAT);
      e = mk(P, E_CALL, T_FLOAT);
      e->a = gen(P, T_INT, depth - 1);
      e->b = gen(P, T_FLOAT, depth - 1);
      return e;
    default: return lit(P, T_FLOAT);
  }
}

static E *gen_bool(Prog *P, int depth) {
  unsigned k = depth <= 0 || P->nodes > MAXNODES ? pick(P, 2) : pick(P, 9);
  E *e;
  switch (k) {
    case 0: return lit(P, T_BOOL);
    case 1: {
      int v = P->in_helper ? -1 : pick_var(P, T_BOOL);
      if (v < 0) return lit(P, T_BOOL);
      e = mk(P, E_VAR, T_BOOL);
      e->var = v;
      return e;
    }
    case 2: case 3: {
      Ty t = pick(P, 2) ? T_INT : T_FLOAT;
      e = mk(P, E_CMP, T_BOOL);
      e->op = (int)pick(P, 6);
      e->a = gen(P, t, depth - 1);
      e->b = gen(P, t, depth - 1);
      return e;
    }
    case 4:
      e = mk(P, E_CMP2, T_BOOL);  /* a < b <= c */
      e->op = (int)pick(P, 6);
      e->iv = pick(P, 6);
      e->a = gen(P, T_INT, depth - 1);
      e->b = gen(P, T_INT, depth - 1);
      e->c = gen(P, T_INT, depth - 1);
      return e;
    case 5: e = mk(P, E_NOT, T_BOOL); e->a = gen(P, T_BOOL, depth - 1); return e;
    case 6: case 7:
      e = mk(P, pick(P, 2) ? E_AND : E_OR, T_BOOL);
      e->a = gen(P, T_BOOL, depth - 1);
      e->b = gen(P, T_BOOL, depth - 1);
      return e;
    default:
      e = mk(P, E_IFEXP, T_BOOL);
      e->a = gen(P, T_BOOL, depth - 1);
      e->b = gen(P, T_BOOL, depth - 1);
      e->c = gen(P, T_BOOL, depth - 1);
      return e;
  }
}

static E *gen(Prog *P, Ty ty, int depth) {
  return ty == T_INT ? gen_int(P, depth) : ty == T_FLOAT ? gen_float(P, depth) : gen_bool(P, depth);
}

static int new_var(Prog *P, Ty ty, const char *prefix) {
  if (P->nvars == MAXVARS) return -1;
  int v = P->nvars++;
  P->vty[v] = ty;
  snprintf(P->vname[v], sizeof P->vname[v], "%s%d", prefix, v);
  P->visible[v] = false;
  return v;
}

static St *gen_block(Prog *P, int depth, int in_loop, int n);

static St *gen_stmt(Prog *P, int depth, int in_loop) {
  St *s = alloc(P, sizeof(St));
  P->nodes++;
  unsigned k = depth > 2 || P->nodes > MAXNODES ? pick(P, 3) : pick(P, 14);
  if (k == 12) {  /* for x in (e1, e2[, e3]): ints and floats, x a float */
    int v = new_var(P, T_FLOAT, "x");
    if (v < 0) goto ret;
    s->k = S_FORTUP;
    s->var = v;
    s->e = gen(P, pick(P, 2) ? T_INT : T_FLOAT, 2);
    s->e2 = gen(P, T_FLOAT, 2);
    s->third = pick(P, 2) ? gen(P, pick(P, 2) ? T_INT : T_FLOAT, 2) : NULL;
    P->visible[v] = true;
    s->body = gen_block(P, depth + 1, 1, 1 + (int)pick(P, 2));
    P->visible[v] = false;
    return s;
  }
  if (k == 13) {
    if (!P->tlen) goto ret;
    s->k = S_TSTORE;
    s->e = gen(P, T_INT, 2);
    s->e2 = gen(P, T_FLOAT, 3);
    return s;
  }
  switch (k) {
    case 0: case 1: case 9: {  /* assignment to an existing local (never a parameter: keeps its type simple) */
      int cand[MAXVARS], n = 0;
      for (int i = P->nparams; i < P->nvars; i++)
        if (P->visible[i] && P->vname[i][0] == 'v') cand[n++] = i;
      if (n == 0) {
        s->k = S_ASTORE;
        if (!P->has_arr) goto ret;
        s->e = gen(P, T_INT, 2);
        s->e2 = gen(P, T_FLOAT, 3);
        return s;
      }
      s->var = cand[pick(P, (unsigned)n)];
      s->k = S_ASSIGN;
      s->e = gen(P, P->vty[s->var], 3);
      return s;
    }
    case 2: {
      int v = -1;
      int cand[MAXVARS], n = 0;
      for (int i = P->nparams; i < P->nvars; i++)
        if (P->visible[i] && P->vname[i][0] == 'v' && P->vty[i] != T_BOOL) cand[n++] = i;
      if (n) v = cand[pick(P, (unsigned)n)];
      if (v < 0) goto ret;
      s->k = S_AUG;
      s->var = v;
      s->op = P->vty[v] == T_INT ? (int)pick(P, 3) : (int)pick(P, 4);  /* += -= *= (/= for floats) */
      s->e = s->op == 3 ? divisor(P, T_FLOAT, 2) : gen(P, P->vty[v], 2);
      return s;
    }
    case 3: case 4:
      s->k = S_IF;
      s->e = gen(P, T_BOOL, 3);
      s->body = gen_block(P, depth + 1, in_loop, 1 + (int)pick(P, 3));
      if (pick(P, 2)) s->orelse = gen_block(P, depth + 1, in_loop, 1 + (int)pick(P, 3));
      return s;
    case 5: {
      int v = new_var(P, T_INT, "i");
      if (v < 0) goto ret;
      s->k = S_FOR;
      s->var = v;
      s->e = gen(P, T_INT, 2);  /* range(e % 8) */
      P->visible[v] = true;
      s->body = gen_block(P, depth + 1, 1, 1 + (int)pick(P, 3));
      P->visible[v] = false;  /* unbound after a loop that did not run */
      return s;
    }
    case 6: {
      int v = new_var(P, T_INT, "w");
      if (v < 0) goto ret;
      s->k = S_WHILE;
      s->var = v;
      s->lim = pick(P, 6);
      s->body = gen_block(P, depth + 1, 1, 1 + (int)pick(P, 3));
      return s;
    }
    case 7:
      if (!P->has_arr) goto ret;
      s->k = S_ASTORE;
      s->e = gen(P, T_INT, 2);
      s->e2 = gen(P, T_FLOAT, 3);
      return s;
    case 8:
      if (in_loop) {
        s->k = S_IF;
        s->e = gen(P, T_BOOL, 2);
        St *j = alloc(P, sizeof(St));
        j->k = pick(P, 2) ? S_BREAK : S_CONTINUE;
        s->body = j;
        return s;
      }
      goto ret;
    default:
    ret:
      s->k = S_IF;
      s->e = gen(P, T_BOOL, 2);
      St *r = alloc(P, sizeof(St));
      r->k = S_RETURN;
      r->e = gen(P, P->ret2 ? T_INT : P->ret, 3);
      if (P->ret2) r->e2 = gen(P, T_FLOAT, 3);
      s->body = r;
      return s;
  }
}

static St *gen_block(Prog *P, int depth, int in_loop, int n) {
  St *head = NULL, **tail = &head;
  for (int i = 0; i < n; i++) {
    *tail = gen_stmt(P, depth, in_loop);
    tail = &(*tail)->next;
  }
  return head;
}

static void gen_prog(Prog *P) {
  P->nparams = (int)pick(P, 4);
  for (int i = 0; i < P->nparams; i++) {
    int v = new_var(P, (Ty)pick(P, 3), "p");
    P->visible[v] = true;
  }
  P->has_arr = pick(P, 3) == 0;
  P->arrlen = 1 + (int)pick(P, 6);
  P->tlen = pick(P, 2) ? 1 + (int)pick(P, 5) : 0;
  unsigned r = pick(P, 5);
  P->ret2 = r == 4;
  P->ret = r == 4 ? T_INT : (Ty)(r % 3);
  P->hret = pick(P, 2) ? T_INT : T_FLOAT;
  P->in_helper = true;
  P->hexpr = gen(P, P->hret, 3);
  P->in_helper = false;
  /* locals, each given a value first so it is bound on every path */
  int nloc = 1 + (int)pick(P, 4);
  St *head = NULL, **tail = &head;
  for (int i = 0; i < nloc; i++) {
    int v = new_var(P, (Ty)pick(P, 3), "v");
    St *s = alloc(P, sizeof(St));
    s->k = S_ASSIGN;
    s->var = v;
    s->e = gen(P, P->vty[v], 2);
    P->visible[v] = true;
    *tail = s;
    tail = &s->next;
  }
  *tail = gen_block(P, 0, 0, 1 + (int)pick(P, 6));
  while (*tail) tail = &(*tail)->next;
  St *r2 = alloc(P, sizeof(St));
  r2->k = S_RETURN;
  r2->e = gen(P, P->ret, 3);
  if (P->ret2) r2->e2 = gen(P, T_FLOAT, 3);
  *tail = r2;
  P->body = head;
}

/* ---- printing as Python ---- */

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

static const char *const bin_src[] = {"+", "-", "*", "/", "//", "%", "&", "|", "^", "<<", ">>"};
static const char *const cmp_src[] = {"<", "<=", "==", "!=", ">", ">="};

static void print_float(Out *o, double v) {
  char buf[40];
  snprintf(buf, sizeof buf, "%.17g", v);
  if (!strpbrk(buf, ".e")) strcat(buf, ".0");
  if (v < 0 || (v == 0 && signbit(v))) put(o, "(%s)", buf);
  else put(o, "%s", buf);
}

static void print_e(Prog *P, Out *o, E *e, const char *u, const char *v) {
  switch (e->k) {
    case E_LIT:
      if (e->ty == T_BOOL) put(o, "%s", e->iv ? "True" : "False");
      else if (e->ty == T_FLOAT) print_float(o, e->fv);
      else if (e->iv == INT64_MIN) put(o, "(-9223372036854775807 - 1)");
      else if (e->iv < 0) put(o, "(%lld)", (long long)e->iv);
      else put(o, "%lld", (long long)e->iv);
      break;
    case E_VAR: put(o, "%s", e->var == -1 ? u : e->var == -2 ? v : P->vname[e->var]); break;
    case E_BIN:
      put(o, "(");
      print_e(P, o, e->a, u, v);
      if (e->op == B_SHL || e->op == B_SHR) {
        put(o, " %s (", bin_src[e->op]);
        print_e(P, o, e->b, u, v);
        put(o, " %% 64))");
        break;
      }
      put(o, " %s ", bin_src[e->op]);
      print_e(P, o, e->b, u, v);
      put(o, ")");
      break;
    case E_NEG: put(o, "(-"); print_e(P, o, e->a, u, v); put(o, ")"); break;
    case E_INV: put(o, "(~"); print_e(P, o, e->a, u, v); put(o, ")"); break;
    case E_NOT: put(o, "(not "); print_e(P, o, e->a, u, v); put(o, ")"); break;
    case E_ABS: put(o, "abs("); print_e(P, o, e->a, u, v); put(o, ")"); break;
    case E_MIN: case E_MAX:
      put(o, "%s(", e->k == E_MIN ? "min" : "max");
      print_e(P, o, e->a, u, v);
      put(o, ", ");
      print_e(P, o, e->b, u, v);
      put(o, ")");
      break;
    case E_INTOF: put(o, "int("); print_e(P, o, e->a, u, v); put(o, ")"); break;
    case E_FLOATOF: put(o, "float("); print_e(P, o, e->a, u, v); put(o, ")"); break;
    case E_SQRT: put(o, "math.sqrt(abs("); print_e(P, o, e->a, u, v); put(o, "))"); break;
    case E_CMP:
      put(o, "(");
      print_e(P, o, e->a, u, v);
      put(o, " %s ", cmp_src[e->op]);
      print_e(P, o, e->b, u, v);
      put(o, ")");
      break;
    case E_CMP2:
      put(o, "(");
      print_e(P, o, e->a, u, v);
      put(o, " %s ", cmp_src[e->op]);
      print_e(P, o, e->b, u, v);
      put(o, " %s ", cmp_src[e->iv]);
      print_e(P, o, e->c, u, v);
      put(o, ")");
      break;
    case E_AND: case E_OR:
      put(o, "(");
      print_e(P, o, e->a, u, v);
      put(o, " %s ", e->k == E_AND ? "and" : "or");
      print_e(P, o, e->b, u, v);
      put(o, ")");
      break;
    case E_IFEXP:
      put(o, "(");
      print_e(P, o, e->b, u, v);
      put(o, " if ");
      print_e(P, o, e->a, u, v);
      put(o, " else ");
      print_e(P, o, e->c, u, v);
      put(o, ")");
      break;
    case E_AREF: put(o, "arr["); print_e(P, o, e->a, u, v); put(o, " %% len(arr)]"); break;
    case E_ALEN: put(o, "len(arr)"); break;
    case E_ASUM: put(o, "arr.sum()"); break;
    case E_CALL:
      put(o, "h(");
      print_e(P, o, e->a, u, v);
      put(o, ", ");
      print_e(P, o, e->b, u, v);
      put(o, ")");
      break;
    case E_POW2: put(o, "("); print_e(P, o, e->a, u, v); put(o, " ** %d)", (int)e->iv); break;
    case E_TREF: put(o, "t["); print_e(P, o, e->a, u, v); put(o, " %% %d]", P->tlen); break;
    case E_TSUM: put(o, "t.sum()"); break;
  }
}

static void indent(Out *o, int n) {
  for (int i = 0; i < n; i++) put(o, "    ");
}

static void print_block(Prog *P, Out *o, St *s, int ind) {
  for (; s; s = s->next) {
    indent(o, ind);
    switch (s->k) {
      case S_ASSIGN: put(o, "%s = ", P->vname[s->var]); print_e(P, o, s->e, NULL, NULL); put(o, "\n"); break;
      case S_AUG:
        put(o, "%s %s= ", P->vname[s->var], bin_src[s->op]);
        print_e(P, o, s->e, NULL, NULL);
        put(o, "\n");
        break;
      case S_IF:
        put(o, "if ");
        print_e(P, o, s->e, NULL, NULL);
        put(o, ":\n");
        print_block(P, o, s->body, ind + 1);
        if (s->orelse) {
          indent(o, ind);
          put(o, "else:\n");
          print_block(P, o, s->orelse, ind + 1);
        }
        break;
      case S_FOR:
        put(o, "for %s in range(", P->vname[s->var]);
        print_e(P, o, s->e, NULL, NULL);
        put(o, " %% 8):\n");
        print_block(P, o, s->body, ind + 1);
        break;
      case S_WHILE:
        put(o, "%s = 0\n", P->vname[s->var]);
        indent(o, ind);
        put(o, "while %s < %lld:\n", P->vname[s->var], (long long)s->lim);
        indent(o, ind + 1);
        put(o, "%s += 1\n", P->vname[s->var]);
        print_block(P, o, s->body, ind + 1);
        break;
      case S_ASTORE:
        put(o, "arr[");
        print_e(P, o, s->e, NULL, NULL);
        put(o, " %% len(arr)] = ");
        print_e(P, o, s->e2, NULL, NULL);
        put(o, "\n");
        break;
      case S_RETURN:
        put(o, "return ");
        print_e(P, o, s->e, NULL, NULL);
        if (s->e2) {
          put(o, ", ");
          print_e(P, o, s->e2, NULL, NULL);
        }
        put(o, "\n");
        break;
      case S_BREAK: put(o, "break\n"); break;
      case S_CONTINUE: put(o, "continue\n"); break;
      case S_FORTUP:
        put(o, "for %s in (", P->vname[s->var]);
        print_e(P, o, s->e, NULL, NULL);
        put(o, ", ");
        print_e(P, o, s->e2, NULL, NULL);
        if (s->third) {
          put(o, ", ");
          print_e(P, o, s->third, NULL, NULL);
        }
        put(o, "):\n");
        print_block(P, o, s->body, ind + 1);
        break;
      case S_TSTORE:
        put(o, "t[");
        print_e(P, o, s->e, NULL, NULL);
        put(o, " %% %d] = ", P->tlen);
        print_e(P, o, s->e2, NULL, NULL);
        put(o, "\n");
        break;
    }
  }
}

static void print_prog(Prog *P, Out *o) {
  put(o, "import math\nimport numpy as np\n\ndef h(u, v):\n    return ");
  P->in_helper = true;
  print_e(P, o, P->hexpr, "u", "v");
  P->in_helper = false;
  put(o, "\n\ndef f(");
  int k = 0;
  for (int i = 0; i < P->nparams; i++) put(o, "%s%s", k++ ? ", " : "", P->vname[i]);
  if (P->has_arr) put(o, "%sarr", k ? ", " : "");
  put(o, "):\n");
  if (P->tlen) put(o, "    t = np.zeros(%d)\n", P->tlen);
  print_block(P, o, P->body, 1);
}

/* ---- the reference evaluator: Python's semantics as Numba compiles them ---- */

typedef struct Val {
  Ty ty;
  int64_t i;  // T_INT, T_BOOL
  double f;   // T_FLOAT
} Val;

enum { OK, ERR_ZERODIV_INT, ERR_ZERODIV_FLOAT, DONE_RETURN, DONE_BREAK, DONE_CONTINUE };

typedef struct Env {
  Val vars[MAXVARS];
  double *arr;
  int arrlen;
  double t[8];    // the local t = np.zeros(tlen)
  int err;        // first error
  Val ret, ret2;  // DONE_RETURN
  /* the helper's arguments */
  Val u, v;
  bool helper;
  bool saturated;  // int() of a float beyond int64 happened
  long steps;
} Env;

static double as_f(Val v) {
  return v.ty == T_FLOAT ? v.f : (double)v.i;
}

static int64_t wrap_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static int64_t wrap_sub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static int64_t wrap_mul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }

/* CPython's float_divmod */
static void py_fdivmod(double vx, double wx, double *fdiv, double *fmod_) {
  double mod = fmod(vx, wx);
  double div = (vx - mod) / wx;
  if (mod != 0) {
    if ((wx < 0) != (mod < 0)) {
      mod += wx;
      div -= 1.0;
    }
  } else {
    mod = copysign(0.0, wx);
  }
  double floordiv;
  if (div != 0) {
    floordiv = floor(div);
    if (div - floordiv > 0.5) floordiv += 1.0;
  } else {
    floordiv = copysign(0.0, vx / wx);
  }
  *fdiv = floordiv;
  *fmod_ = mod;
}

/* int() of a float, as lumba and Numba on x86 compile it: saturating, NaN -> 0 */
static int64_t sat_int(double x) {
  if (isnan(x)) return 0;
  if (x >= 9223372036854775808.0) return INT64_MAX;
  if (x < -9223372036854775808.0) return INT64_MIN;
  return (int64_t)x;
}

static Val ev(Prog *P, Env *V, E *e);

static bool truthy(Val v) {
  return v.ty == T_FLOAT ? v.f != 0 : v.i != 0;  /* NaN is true */
}

static Val vi(int64_t i) { return (Val){T_INT, i, 0}; }
static Val vf(double f) { return (Val){T_FLOAT, 0, f}; }
static Val vb(bool b) { return (Val){T_BOOL, b, 0}; }

static bool cmp(int op, Val a, Val b) {
  if (a.ty == T_FLOAT || b.ty == T_FLOAT) {
    double x = as_f(a), y = as_f(b);
    switch (op) {
      case C_LT: return x < y;
      case C_LE: return x <= y;
      case C_EQ: return x == y;
      case C_NE: return x != y;
      case C_GT: return x > y;
      default: return x >= y;
    }
  }
  switch (op) {
    case C_LT: return a.i < b.i;
    case C_LE: return a.i <= b.i;
    case C_EQ: return a.i == b.i;
    case C_NE: return a.i != b.i;
    case C_GT: return a.i > b.i;
    default: return a.i >= b.i;
  }
}

static Val binop(Env *V, int op, Val a, Val b, Ty rt) {
  if (rt == T_INT) {
    int64_t x = a.i, y = b.i;
    switch (op) {
      case B_ADD: return vi(wrap_add(x, y));
      case B_SUB: return vi(wrap_sub(x, y));
      case B_MUL: return vi(wrap_mul(x, y));
      case B_FDIV: case B_MOD: {
        if (y == 0) {
          V->err = ERR_ZERODIV_INT;
          return vi(0);
        }
        if (x == INT64_MIN && y == -1) return vi(op == B_FDIV ? INT64_MIN : 0);
        int64_t q = x / y, r = x % y;
        if (r != 0 && ((r < 0) != (y < 0))) {
          q -= 1;
          r += y;
        }
        return vi(op == B_FDIV ? q : r);
      }
      case B_AND: return vi(x & y);
      case B_OR: return vi(x | y);
      case B_XOR: return vi(x ^ y);
      case B_SHL: return vi((int64_t)((uint64_t)x << (y & 63)));
      default: return vi(x >> (y & 63));
    }
  }
  double x = as_f(a), y = as_f(b);
  switch (op) {
    case B_ADD: return vf(x + y);
    case B_SUB: return vf(x - y);
    case B_MUL: return vf(x * y);
    case B_DIV:
      if (y == 0) {
        V->err = ERR_ZERODIV_FLOAT;
        return vf(0);
      }
      return vf(x / y);
    default: {
      if (y == 0) {
        V->err = ERR_ZERODIV_FLOAT;
        return vf(0);
      }
      double d, m;
      py_fdivmod(x, y, &d, &m);
      return vf(op == B_FDIV ? d : m);
    }
  }
}

#define TRY(x)                \
  do {                        \
    x;                        \
    if (V->err) return vi(0); \
  } while (0)

static int64_t py_mod(int64_t x, int64_t m) {  /* m > 0 */
  int64_t r = x % m;
  return r < 0 ? r + m : r;
}

static Val ev(Prog *P, Env *V, E *e) {
  Val a, b, c;
  switch (e->k) {
    case E_LIT: return e->ty == T_FLOAT ? vf(e->fv) : e->ty == T_BOOL ? vb(e->iv != 0) : vi(e->iv);
    case E_VAR: return e->var == -1 ? V->u : e->var == -2 ? V->v : V->vars[e->var];
    case E_BIN:
      TRY(a = ev(P, V, e->a));
      TRY(b = ev(P, V, e->b));
      if (e->op == B_SHL || e->op == B_SHR) b = vi(py_mod(b.i, 64));
      return binop(V, e->op, a, b, e->ty);
    case E_NEG:
      TRY(a = ev(P, V, e->a));
      return a.ty == T_FLOAT ? vf(-a.f) : vi(wrap_sub(0, a.i));
    case E_INV: TRY(a = ev(P, V, e->a)); return vi(~a.i);
    case E_NOT: TRY(a = ev(P, V, e->a)); return vb(!a.i);
    case E_ABS:
      TRY(a = ev(P, V, e->a));
      return a.ty == T_FLOAT ? vf(fabs(a.f)) : vi(a.i < 0 ? wrap_sub(0, a.i) : a.i);
    case E_MIN: case E_MAX:
      /* Python: min(a, b) is b if b < a else a; max(a, b) is b if b > a else a */
      TRY(a = ev(P, V, e->a));
      TRY(b = ev(P, V, e->b));
      return cmp(e->k == E_MIN ? C_LT : C_GT, b, a) ? b : a;
    case E_INTOF:
      TRY(a = ev(P, V, e->a));
      /* beyond int64 (or NaN) Python gives a big int (or raises), Numba
      ** whatever fptosi gives; lumba saturates: compared with compiled
      ** code only, since object mode raises OverflowError there */
      if (!(a.f >= -9223372036854775808.0 && a.f < 9223372036854775808.0)) V->saturated = true;
      return vi(sat_int(a.f));
    case E_FLOATOF: TRY(a = ev(P, V, e->a)); return vf((double)a.i);
    case E_SQRT: TRY(a = ev(P, V, e->a)); return vf(sqrt(fabs(a.f)));
    case E_CMP:
      TRY(a = ev(P, V, e->a));
      TRY(b = ev(P, V, e->b));
      return vb(cmp(e->op, a, b));
    case E_CMP2:
      TRY(a = ev(P, V, e->a));
      TRY(b = ev(P, V, e->b));
      if (!cmp(e->op, a, b)) return vb(false);
      TRY(c = ev(P, V, e->c));
      return vb(cmp((int)e->iv, b, c));
    case E_AND:
      TRY(a = ev(P, V, e->a));
      if (!truthy(a)) return a;
      return ev(P, V, e->b);
    case E_OR:
      TRY(a = ev(P, V, e->a));
      if (truthy(a)) return a;
      return ev(P, V, e->b);
    case E_IFEXP:
      TRY(a = ev(P, V, e->a));
      return ev(P, V, a.i ? e->b : e->c);
    case E_AREF: TRY(a = ev(P, V, e->a)); return vf(V->arr[py_mod(a.i, V->arrlen)]);
    case E_ALEN: return vi(V->arrlen);
    case E_TREF: TRY(a = ev(P, V, e->a)); return vf(V->t[py_mod(a.i, P->tlen)]);
    case E_TSUM: {
      double s = 0;
      for (int i = 0; i < P->tlen; i++) s += V->t[i];
      return vf(s);
    }
    case E_ASUM: {
      double s = 0;
      for (int i = 0; i < V->arrlen; i++) s += V->arr[i];
      return vf(s);
    }
    case E_CALL: {
      TRY(a = ev(P, V, e->a));
      TRY(b = ev(P, V, e->b));
      Env H = {0};
      H.helper = true;
      H.u = a;
      H.v = b;
      Val r = ev(P, &H, P->hexpr);
      if (H.err) V->err = H.err;
      if (H.saturated) V->saturated = true;
      return r;
    }
    case E_POW2: {
      TRY(a = ev(P, V, e->a));
      if (a.ty == T_FLOAT) return vf(pow(a.f, (double)e->iv));
      int64_t r = 1;
      for (int i = 0; i < e->iv; i++) r = wrap_mul(r, a.i);
      return vi(r);
    }
  }
  return vi(0);
}

static int run_block(Prog *P, Env *V, St *s) {
  for (; s; s = s->next) {
    if (++V->steps > 100000) FZ_FAIL("the reference evaluator runs away");
    switch (s->k) {
      case S_ASSIGN: {
        Val x = ev(P, V, s->e);
        if (V->err) return V->err;
        V->vars[s->var] = x;
        break;
      }
      case S_AUG: {
        Val x = ev(P, V, s->e);
        if (V->err) return V->err;
        static const int ops[] = {B_ADD, B_SUB, B_MUL, B_DIV};
        V->vars[s->var] = binop(V, ops[s->op], V->vars[s->var], x, P->vty[s->var]);
        if (V->err) return V->err;
        break;
      }
      case S_IF: {
        Val t = ev(P, V, s->e);
        if (V->err) return V->err;
        int r = run_block(P, V, t.i ? s->body : s->orelse);
        if (r != OK) return r;
        break;
      }
      case S_FOR: {
        Val n = ev(P, V, s->e);
        if (V->err) return V->err;
        int64_t m = py_mod(n.i, 8);
        for (int64_t i = 0; i < m; i++) {
          V->vars[s->var] = vi(i);
          int r = run_block(P, V, s->body);
          if (r == DONE_BREAK) break;
          if (r == DONE_CONTINUE) continue;
          if (r != OK) return r;
        }
        break;
      }
      case S_WHILE: {
        V->vars[s->var] = vi(0);
        while (V->vars[s->var].i < s->lim) {
          V->vars[s->var].i++;
          int r = run_block(P, V, s->body);
          if (r == DONE_BREAK) break;
          if (r == DONE_CONTINUE) continue;
          if (r != OK) return r;
        }
        break;
      }
      case S_ASTORE: {
        Val i = ev(P, V, s->e);
        if (V->err) return V->err;
        Val x = ev(P, V, s->e2);
        if (V->err) return V->err;
        V->arr[py_mod(i.i, V->arrlen)] = x.f;
        break;
      }
      case S_RETURN:
        V->ret = ev(P, V, s->e);
        if (V->err) return V->err;
        if (s->e2) {
          V->ret2 = ev(P, V, s->e2);
          if (V->err) return V->err;
        }
        return DONE_RETURN;
      case S_BREAK: return DONE_BREAK;
      case S_CONTINUE: return DONE_CONTINUE;
      case S_FORTUP: {
        /* the tuple is built first, then each element becomes a float */
        Val el[3];
        int n = s->third ? 3 : 2;
        el[0] = ev(P, V, s->e);
        if (V->err) return V->err;
        el[1] = ev(P, V, s->e2);
        if (V->err) return V->err;
        if (s->third) {
          el[2] = ev(P, V, s->third);
          if (V->err) return V->err;
        }
        for (int i = 0; i < n; i++) {
          V->vars[s->var] = vf(as_f(el[i]));
          int r = run_block(P, V, s->body);
          if (r == DONE_BREAK) break;
          if (r == DONE_CONTINUE) continue;
          if (r != OK) return r;
        }
        break;
      }
      case S_TSTORE: {
        Val i = ev(P, V, s->e);
        if (V->err) return V->err;
        Val x = ev(P, V, s->e2);
        if (V->err) return V->err;
        V->t[py_mod(i.i, P->tlen)] = x.f;
        break;
      }
    }
  }
  return OK;
}

/* ---- driving a program ---- */

static void push_val(lua_State *L, Val v) {
  if (v.ty == T_FLOAT) lua_pushnumber(L, v.f);
  else if (v.ty == T_BOOL) lua_pushboolean(L, v.i != 0);
  else lua_pushinteger(L, v.i);
}

/* loose: object mode follows Python, where a variable's type may change
** (for x in (9, 1.5) gives the int 9 first); compiled code gives every
** variable one type (9.0). Numbers of equal value then count as the same. */
static bool loose_numbers;

static bool same_val(lua_State *L, int idx, Val v) {
  if (loose_numbers && v.ty != T_BOOL && lua_type(L, idx) == LUA_TNUMBER) {
    double x = lua_tonumber(L, idx), y = as_f(v);
    if (x == y || (isnan(x) && isnan(y))) return true;
  }
  switch (v.ty) {
    case T_INT: return lua_isinteger(L, idx) && lua_tointeger(L, idx) == v.i;
    case T_BOOL: return lua_isboolean(L, idx) && lua_toboolean(L, idx) == (v.i != 0);
    default: {
      if (lua_type(L, idx) != LUA_TNUMBER || lua_isinteger(L, idx)) return false;
      double x = lua_tonumber(L, idx);
      if (isnan(x) && isnan(v.f)) return true;
      return memcmp(&x, &v.f, sizeof x) == 0;
    }
  }
}

static const char *const err_msg[] = {"", "ZeroDivisionError: integer division or modulo by zero",
                                      "ZeroDivisionError: division by zero"};

static void describe(Out *o, Val v) {
  if (v.ty == T_FLOAT) put(o, "%.17g", v.f);
  else if (v.ty == T_BOOL) put(o, "%s", v.i ? "true" : "false");
  else put(o, "%lld", (long long)v.i);
}

/* Calls fn (at the top, a function(...) returning ok, results...) with the
** arguments and a fresh copy of the array; checks against the evaluator. */
static void check_call(lua_State *L, Prog *P, const char *src, const char *who, Val *args, const double *arr0,
                       int expect, Env *V) {
  int base = lua_gettop(L);
  lua_pushvalue(L, -1);
  for (int i = 0; i < P->nparams; i++) push_val(L, args[i]);
  if (P->has_arr) {
    lua_getglobal(L, "lumba");
    lua_getfield(L, -1, "array");
    lua_remove(L, -2);
    lua_createtable(L, P->arrlen, 0);
    for (int i = 0; i < P->arrlen; i++) {
      lua_pushnumber(L, arr0[i]);
      lua_rawseti(L, -2, i + 1);
    }
    lua_pushliteral(L, "float64");
    lua_call(L, 2, 1);
    lua_pushvalue(L, -1);
    lua_setglobal(L, "ARR");
  }
  int nargs = P->nparams + P->has_arr;
  int st = lua_pcall(L, nargs, LUA_MULTRET, 0);
  Out o = {malloc(256), 0, 256};
  if (o.s == NULL) abort();
  put(&o, "args (");
  for (int i = 0; i < P->nparams; i++) {
    if (i) put(&o, ", ");
    describe(&o, args[i]);
  }
  if (P->has_arr) {
    put(&o, "%sarr = {", P->nparams ? ", " : "");
    for (int i = 0; i < P->arrlen; i++) put(&o, "%s%.17g", i ? ", " : "", arr0[i]);
    put(&o, "}");
  }
  put(&o, ")");
  if (expect == ERR_ZERODIV_INT || expect == ERR_ZERODIV_FLOAT) {
    /* object mode says "modulo by zero" for a float %, as Numba does;
    ** compiled code says "division by zero": only the class is compared */
    size_t cmp_len = strcmp(who, "interpret") == 0 ? strlen("ZeroDivisionError:") : strlen(err_msg[expect]) + 1;
    if (st == LUA_OK || lua_type(L, -1) != LUA_TSTRING || strncmp(lua_tostring(L, -1), err_msg[expect], cmp_len) != 0)
      FZ_FAIL("%s: expected the error '%s', got %s%s\n%s\n%s", who, err_msg[expect], st == LUA_OK ? "results" : "",
              st == LUA_OK ? "" : luaL_tolstring(L, -1, NULL), o.s, src);
  } else {
    if (st != LUA_OK) FZ_FAIL("%s: expected results, got the error: %s\n%s\n%s", who, luaL_tolstring(L, -1, NULL), o.s, src);
    int n = lua_gettop(L) - base;
    int want = P->ret2 ? 2 : 1;
    bool ok = n == want && same_val(L, base + 1, V->ret) && (!P->ret2 || same_val(L, base + 2, V->ret2));
    if (!ok) {
      Out w = {malloc(64), 0, 64};
      if (w.s == NULL) abort();
      describe(&w, V->ret);
      if (P->ret2) {
        put(&w, ", ");
        describe(&w, V->ret2);
      }
      FZ_FAIL("%s: expected %s, got %d results: %s, %s\n%s\n%s", who, w.s, n, n > 0 ? luaL_tolstring(L, base + 1, NULL) : "",
              n > 1 ? luaL_tolstring(L, base + 2, NULL) : "", o.s, src);
    }
    if (P->has_arr) {
      lua_getglobal(L, "ARR");
      for (int i = 0; i < P->arrlen; i++) {
        lua_geti(L, -1, i + 1);
        double x = lua_tonumber(L, -1);
        lua_pop(L, 1);
        if (!(x == V->arr[i] || (isnan(x) && isnan(V->arr[i]))) || signbit(x) != signbit(V->arr[i]))
          FZ_FAIL("%s: arr[%d] is %.17g, expected %.17g\n%s\n%s", who, i, x, V->arr[i], o.s, src);
      }
    }
  }
  free(o.s);
  lua_settop(L, base);
}

static Val gen_arg(Prog *P, Ty ty) {
  unsigned k = pick(P, 4);
  switch (ty) {
    case T_INT:
      if (k == 0) return vi((int64_t)fz_u64(P->b));
      if (k == 1) return vi(int_lits[pick(P, sizeof int_lits / sizeof int_lits[0])]);
      return vi((int64_t)pick(P, 40) - 20);
    case T_FLOAT:
      if (k == 0) {
        uint64_t bits = fz_u64(P->b);
        double d;
        memcpy(&d, &bits, sizeof d);
        return vf(d);
      }
      if (k == 1) return vf(float_lits[pick(P, sizeof float_lits / sizeof float_lits[0])]);
      return vf(((double)pick(P, 200) - 100) / 8);
    default: return vb(k & 1);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int objmode = -1;
  lua_State *L = fz_state();
  if (objmode < 0) {
    objmode = luaL_dostring(L, "require 'lumba.objmode'") == LUA_OK;
    lua_settop(L, 0);
    if (getenv("FUZZ_PRINT")) fprintf(stderr, "object mode: %s\n", objmode ? "yes" : "no");
  }
  Bytes b = {data, size};
  Prog P;
  memset(&P, 0, sizeof P);
  P.b = &b;
  gen_prog(&P);
  Out o = {malloc(4096), 0, 4096};
  if (o.s == NULL) abort();
  print_prog(&P, &o);
  if (getenv("FUZZ_PRINT")) fputs(o.s, stderr);
  /* d = lumba.njit{name = "f"}(src) */
  lua_getglobal(L, "lumba");
  lua_getfield(L, -1, "njit");
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "f");
  lua_setfield(L, -2, "name");
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) FZ_FAIL("njit{name}: %s", lua_tostring(L, -1));
  lua_pushlstring(L, o.s, o.n);
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) FZ_FAIL("a generated program does not compile: %s\n%s", lua_tostring(L, -1), o.s);
  int d = lua_gettop(L);
  /* a few calls on generated arguments */
  for (int call = 0; call < 3 && (call == 0 || fz_more(&b)); call++) {
    Val args[MAXVARS];
    for (int i = 0; i < P.nparams; i++) args[i] = gen_arg(&P, P.vty[i]);
    double arr0[8] = {0}, arr1[8];
    for (int i = 0; i < P.arrlen; i++) arr0[i] = gen_arg(&P, T_FLOAT).f;
    memcpy(arr1, arr0, sizeof arr1);
    Env V;
    memset(&V, 0, sizeof V);
    for (int i = 0; i < P.nparams; i++) V.vars[i] = args[i];
    V.arr = arr1;
    V.arrlen = P.arrlen;
    int r = run_block(&P, &V, P.body);
    if (r != DONE_RETURN && r != ERR_ZERODIV_INT && r != ERR_ZERODIV_FLOAT) FZ_FAIL("the evaluator fell off the end");
    if (getenv("FUZZ_PRINT")) {
      Out w = {malloc(64), 0, 64};
      if (w.s == NULL) abort();
      if (r == DONE_RETURN) {
        describe(&w, V.ret);
        if (P.ret2) {
          put(&w, ", ");
          describe(&w, V.ret2);
        }
      }
      fprintf(stderr, "expect: %s\n", r == DONE_RETURN ? w.s : err_msg[r]);
      free(w.s);
    }
    lua_pushvalue(L, d);  /* the compiled function */
    check_call(L, &P, o.s, "compiled", args, arr0, r, &V);
    lua_pop(L, 1);
    if (objmode && !V.saturated) {
      /* function(...) return d:interpret(...) end */
      luaL_loadstring(L, "local d = ...; return function(...) return d:interpret(...) end");
      lua_pushvalue(L, d);
      lua_call(L, 1, 1);
      loose_numbers = true;
      check_call(L, &P, o.s, "interpret", args, arr0, r, &V);
      loose_numbers = false;
      lua_pop(L, 1);
    }
  }
  free(o.s);
  for (int i = 0; i < P.nallocs; i++) free(P.allocs[i]);
  free(P.allocs);
  fz_collect(L);
  return 0;
}
