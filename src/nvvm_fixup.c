/*
** nvvm_fixup.c — LLVM 14's printed IR -> the LLVM-7 dialect libNVVM 2.0
** parses ("Based on NVVM 7.0.1"). Each rule below was found by feeding
** clang-14's output for small kernels to libNVVM from CUDA 13.0 and
** reading its error:
**  - attributes newer than LLVM 7 are dropped (noundef, nofree, nosync,
**    willreturn, mustprogress, immarg, ...); an attribute group left empty
**    gets `nounwind` (libNVVM rejects empty groups; GPU code never unwinds);
**    `byval(T)` becomes `byval`;
**  - numbered parameter names (`define void @k(double* %0)`) are removed and
**    numbered block labels (`16:`) become comments (`; <label>:16:`), as
**    LLVM 7 printed them: the implicit numbering is the same;
**  - `fneg` becomes `fsub -0.0, x`, `freeze` a same-type bitcast, `poison`
**    `undef`, and `, align N` goes from atomicrmw/cmpxchg;
**  - `atomicrmw fadd` becomes a call of llvm.nvvm.atomic.load.add.f{32,64};
**  - calls of llvm.{smax,smin,umax,umin,abs}.iN (LLVM 12+; libNVVM takes them
**    for external functions) become icmp + select;
**  - the datalayout and triple are NVVM's (a missing datalayout is added at
**    the end, keeping line numbers), and `!nvvmir.version` is added when
**    missing.
** Vector forms of fneg/smax/... are left as they are.
*/
#include <ctype.h>
#include <string.h>

#include "lm.h"
#include "nvvm.h"

typedef struct Span {
  const char *p;
  size_t n;
} Span;

typedef struct Fixup {
  NvBuf out;           // the rewritten module
  int max_md;          // highest !N defined
  bool has_version;    // !nvvmir.version seen
  bool has_layout;     // a datalayout line seen
  int ntemps;          // fresh %.lmfxN names used
  char decls[8][160];  // atomic intrinsics to declare
  int ndecls;
} Fixup;

/* attributes LLVM 7 does not parse; those marked 1 take a (...) argument */
static const struct { const char *name; int paren; } dropped[] = {
  {"noundef", 0}, {"immarg", 0}, {"nofree", 0}, {"nosync", 0}, {"willreturn", 0},
  {"mustprogress", 0}, {"nomerge", 0}, {"noprofile", 0}, {"null_pointer_is_valid", 0},
  {"hot", 0}, {"nocallback", 0}, {"speculative_load_hardening", 0},
  {"nosanitize_coverage", 0}, {"sanitize_memtag", 0}, {"swiftasync", 0},
  {"disable_sanitizer_instrumentation", 0}, {"uwtable", 0}, {"nobuiltin", 0},
  {"noimplicitfloat", 0}, {"vscale_range", 1}, {"memory", 1}, {"allocsize", 1},
  {"elementtype", 1}, {"byref", 1}, {"preallocated", 1},
};

static bool is_word(char c) {
  return isalnum((unsigned char)c) || c == '_';
}

static bool span_is(Span s, const char *lit) {
  return s.n == strlen(lit) && memcmp(s.p, lit, s.n) == 0;
}

static bool starts(const char *p, size_t n, const char *lit) {
  size_t k = strlen(lit);
  return n >= k && memcmp(p, lit, k) == 0;
}

/* index just past the ')' matching s[i] == '(' */
static size_t skip_parens(const char *s, size_t n, size_t i) {
  int depth = 0;
  for (; i < n; i++) {
    if (s[i] == '(') depth++;
    else if (s[i] == ')' && --depth == 0) return i + 1;
  }
  return n;
}

/* how a word at s[i..j) is rewritten: 0 keep, 1 drop, 2 drop its (...) */
static int word_rule(const char *w, size_t len, bool paren) {
  if (len == 5 && memcmp(w, "byval", 5) == 0) return paren ? 2 : 0;
  for (size_t k = 0; k < lm_countof(dropped); k++)
    if (strlen(dropped[k].name) == len && memcmp(dropped[k].name, w, len) == 0 &&
        (dropped[k].paren == 0 || paren))
      return 1;
  return 0;
}

static void unspace(NvBuf *b) {
  if (b->len && b->s[b->len - 1] == ' ') b->s[--b->len] = '\0';
}

/* Copies a line, dropping the attributes above and renaming `poison`;
** quoted strings pass untouched. A word counts only after ' ', '{', '(' or
** ',' so %names, @names and metadata are never matched. */
static void rewrite_words(NvBuf *out, Span line) {
  const char *s = line.p;
  size_t n = line.n, i = 0;
  while (i < n) {
    if (s[i] == '"') {
      size_t j = i + 1;
      while (j < n && s[j] != '"') j++;
      j = j < n ? j + 1 : n;
      nvvm_buf_add(out, s + i, j - i);
      i = j;
      continue;
    }
    if (is_word(s[i]) && (i == 0 || strchr(" {(,<[", s[i - 1]))) {
      size_t j = i;
      while (j < n && is_word(s[j])) j++;
      bool paren = j < n && s[j] == '(';
      int rule = word_rule(s + i, j - i, paren);
      if (rule == 1) {
        size_t k = paren ? skip_parens(s, n, j) : j;
        if (k < n && s[k] == ' ') k++;
        else unspace(out);
        i = k;
        continue;
      }
      if (rule == 2) {  /* byval(T) -> byval */
        nvvm_buf_add(out, s + i, j - i);
        i = skip_parens(s, n, j);
        continue;
      }
      if (j - i == 6 && memcmp(s + i, "poison", 6) == 0) nvvm_buf_str(out, "undef");
      else nvvm_buf_add(out, s + i, j - i);
      i = j;
      continue;
    }
    nvvm_buf_add(out, s + i, 1);
    i++;
  }
}

/* define line: drops numbered parameter names (` %3,` -> `,`) inside the
** parameter list, which LLVM 7's parser rejects. */
static void drop_param_numbers(NvBuf *out, Span line) {
  const char *s = line.p;
  size_t n = line.n;
  const char *at = memchr(s, '@', n);
  const char *open = at ? memchr(at, '(', n - (size_t)(at - s)) : NULL;
  if (open == NULL) { nvvm_buf_add(out, s, n); return; }
  size_t i0 = (size_t)(open - s), end = skip_parens(s, n, i0);
  nvvm_buf_add(out, s, i0);
  int depth = 0;
  for (size_t i = i0; i < end; i++) {
    if (s[i] == '(') depth++;
    if (s[i] == ')') depth--;
    if (depth == 1 && s[i] == ' ' && i + 2 < end && s[i + 1] == '%' && isdigit((unsigned char)s[i + 2])) {
      size_t j = i + 2;
      while (j < end && isdigit((unsigned char)s[j])) j++;
      if (s[j] == ',' || s[j] == ')') { i = j - 1; continue; }
    }
    nvvm_buf_add(out, s + i, 1);
  }
  nvvm_buf_add(out, s + end, n - end);
}

/* "  %R = rest" -> R, rest */
static bool split_assign(Span line, Span *res, Span *rest) {
  size_t i = 0;
  while (i < line.n && line.p[i] == ' ') i++;
  if (i >= line.n || line.p[i] != '%') return false;
  const char *eq = strstr(line.p + i, " = ");
  if (eq == NULL || eq >= line.p + line.n) return false;
  res->p = line.p + i;
  res->n = (size_t)(eq - res->p);
  rest->p = eq + 3;
  rest->n = line.n - (size_t)(rest->p - line.p);
  return true;
}

/* next space-delimited token of *s (advancing past it and one space) */
static Span token(Span *s) {
  Span t = {s->p, 0};
  while (t.n < s->n && s->p[t.n] != ' ') t.n++;
  size_t adv = t.n < s->n ? t.n + 1 : t.n;
  s->p += adv;
  s->n -= adv;
  return t;
}

static void emit_assign(NvBuf *out, Span res) {
  nvvm_buf_str(out, "  ");
  nvvm_buf_add(out, res.p, res.n);
  nvvm_buf_str(out, " = ");
}

/* %R = fneg [fmf] T X  ->  %R = fsub [fmf] T -0.0, X */
static bool rewrite_fneg(NvBuf *out, Span res, Span rest) {
  static const char *const fmf[] = {"fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc"};
  token(&rest);  /* fneg */
  NvBuf flags = {0};
  Span t;
  for (;;) {
    t = token(&rest);
    bool flag = false;
    for (size_t k = 0; k < lm_countof(fmf); k++) flag |= span_is(t, fmf[k]);
    if (!flag) break;
    nvvm_buf_add(&flags, t.p, t.n);
    nvvm_buf_str(&flags, " ");
  }
  const char *zero = span_is(t, "double") || span_is(t, "float") ? "-0.000000e+00"
                     : span_is(t, "half") ? "0xH8000" : NULL;
  if (zero) {
    emit_assign(out, res);
    nvvm_buf_str(out, "fsub ");
    if (flags.len) nvvm_buf_add(out, flags.s, flags.len);
    nvvm_buf_add(out, t.p, t.n);
    nvvm_buf_printf(out, " %s, ", zero);
    nvvm_buf_add(out, rest.p, rest.n);
  }
  free(flags.s);
  return zero != NULL;
}

/* %R = freeze T X  ->  %R = bitcast T X to T (a no-op LLVM 7 accepts) */
static bool rewrite_freeze(NvBuf *out, Span res, Span rest) {
  token(&rest);  /* freeze */
  const char *meta = memchr(rest.p, '!', rest.n);
  size_t body = meta ? (size_t)(meta - rest.p) : rest.n;
  while (body > 0 && (rest.p[body - 1] == ' ' || rest.p[body - 1] == ',')) body--;
  const char *sp = NULL;
  for (size_t i = 0; i < body; i++) if (rest.p[i] == ' ') sp = rest.p + i;
  if (sp == NULL) return false;
  Span ty = {rest.p, (size_t)(sp - rest.p)}, x = {sp + 1, body - ty.n - 1};
  emit_assign(out, res);
  nvvm_buf_str(out, "bitcast ");
  nvvm_buf_add(out, ty.p, ty.n);
  nvvm_buf_str(out, " ");
  nvvm_buf_add(out, x.p, x.n);
  nvvm_buf_str(out, " to ");
  nvvm_buf_add(out, ty.p, ty.n);
  return true;
}

/* %R = atomicrmw [volatile] fadd PT* P, T V ORD  ->
** %R = call T @llvm.nvvm.atomic.load.add.fB.pKfB(PT* P, T V) */
static bool rewrite_atomic_fadd(Fixup *F, NvBuf *out, Span res, Span rest) {
  token(&rest);  /* atomicrmw */
  Span op = token(&rest);
  if (span_is(op, "volatile")) op = token(&rest);
  if (!span_is(op, "fadd")) return false;
  const char *star = NULL;
  for (size_t i = 0; i + 1 < rest.n && star == NULL; i++)
    if (rest.p[i] == '*' && rest.p[i + 1] == ' ') star = rest.p + i;
  const char *comma = star ? memchr(star, ',', rest.n - (size_t)(star - rest.p)) : NULL;
  if (comma == NULL) return false;
  Span pty = {rest.p, (size_t)(star + 1 - rest.p)};
  Span ptr = {star + 2, (size_t)(comma - star - 2)};
  Span tail = {comma + 2, rest.n - (size_t)(comma + 2 - rest.p)};
  Span ty = token(&tail), val = token(&tail);
  int bits = span_is(ty, "float") ? 32 : span_is(ty, "double") ? 64 : 0;
  if (bits == 0 || val.n == 0) return false;
  int as = 0;
  const char *a = strstr(pty.p, "addrspace(");
  if (a && a < pty.p + pty.n) as = atoi(a + 10);
  char name[64];
  snprintf(name, sizeof name, "llvm.nvvm.atomic.load.add.f%d.p%df%d", bits, as, bits);
  emit_assign(out, res);
  nvvm_buf_printf(out, "call %.*s @%s(%.*s %.*s, %.*s %.*s)", (int)ty.n, ty.p, name,
                  (int)pty.n, pty.p, (int)ptr.n, ptr.p, (int)ty.n, ty.p, (int)val.n, val.p);
  char decl[160];
  snprintf(decl, sizeof decl, "declare %.*s @%s(%.*s, %.*s)", (int)ty.n, ty.p, name,
           (int)pty.n, pty.p, (int)ty.n, ty.p);
  bool known = false;
  for (int k = 0; k < F->ndecls; k++) known |= strcmp(F->decls[k], decl) == 0;
  if (!known && F->ndecls < (int)lm_countof(F->decls)) strcpy(F->decls[F->ndecls++], decl);
  return true;
}

/* the LLVM 12+ integer intrinsics: index into int_ops, or -1 */
static const struct { const char *name; const char *pred; } int_ops[] = {
  {"smax", "sgt"}, {"smin", "slt"}, {"umax", "ugt"}, {"umin", "ult"}, {"abs", "slt"},
};

static int int_intrinsic(const char *p, size_t n, Span *width) {
  const char *at = NULL;
  for (size_t i = 0; i + 6 <= n && at == NULL; i++)
    if (memcmp(p + i, "@llvm.", 6) == 0) at = p + i + 6;
  if (at == NULL) return -1;
  for (size_t k = 0; k < lm_countof(int_ops); k++) {
    size_t len = strlen(int_ops[k].name);
    const char *q = at + len;
    if (strncmp(at, int_ops[k].name, len) != 0 || q[0] != '.' || q[1] != 'i') continue;
    const char *d = q + 2;
    while (isdigit((unsigned char)*d)) d++;
    if (d == q + 2 || *d != '(') return -1;
    width->p = q + 1;
    width->n = (size_t)(d - q - 1);
    return (int)k;
  }
  return -1;
}

/* %R = call iN @llvm.smax.iN(iN A, iN B)  ->  icmp + select */
static bool rewrite_int_intrinsic(Fixup *F, NvBuf *out, Span res, Span rest) {
  Span w;
  int k = int_intrinsic(rest.p, rest.n, &w);
  if (k < 0) return false;
  /* the argument list is the parenthesis right after the callee's name */
  const char *callee = strstr(rest.p, "@llvm.");
  const char *open = memchr(callee, '(', rest.n - (size_t)(callee - rest.p));
  size_t end = skip_parens(rest.p, rest.n, (size_t)(open - rest.p)) - 1;
  Span args[2] = {{0, 0}, {0, 0}};
  const char *p = open + 1, *stop = rest.p + end;
  for (int a = 0; a < 2 && p < stop; a++) {
    const char *c = memchr(p, ',', (size_t)(stop - p));
    const char *e = c ? c : stop;
    const char *sp = memchr(p, ' ', (size_t)(e - p));  /* skip the type */
    if (sp == NULL) return false;
    args[a].p = sp + 1;
    args[a].n = (size_t)(e - sp - 1);
    p = c ? c + 2 : stop;
  }
  if (args[0].n == 0 || args[1].n == 0) return false;
  int t = F->ntemps;
  F->ntemps += 2;
  if (strcmp(int_ops[k].name, "abs") == 0) {
    nvvm_buf_printf(out, "  %%.lmfx%d = sub %.*s 0, %.*s\n", t, (int)w.n, w.p, (int)args[0].n, args[0].p);
    nvvm_buf_printf(out, "  %%.lmfx%d = icmp slt %.*s %.*s, 0\n", t + 1, (int)w.n, w.p,
                    (int)args[0].n, args[0].p);
    emit_assign(out, res);
    nvvm_buf_printf(out, "select i1 %%.lmfx%d, %.*s %%.lmfx%d, %.*s %.*s", t + 1, (int)w.n, w.p, t,
                    (int)w.n, w.p, (int)args[0].n, args[0].p);
  } else {
    nvvm_buf_printf(out, "  %%.lmfx%d = icmp %s %.*s %.*s, %.*s\n", t, int_ops[k].pred, (int)w.n, w.p,
                    (int)args[0].n, args[0].p, (int)args[1].n, args[1].p);
    emit_assign(out, res);
    nvvm_buf_printf(out, "select i1 %%.lmfx%d, %.*s %.*s, %.*s %.*s", t, (int)w.n, w.p,
                    (int)args[0].n, args[0].p, (int)w.n, w.p, (int)args[1].n, args[1].p);
  }
  return true;
}

/* removes ", align N" (atomicrmw and cmpxchg only got it in LLVM 13) */
static void drop_atomic_align(NvBuf *b) {
  char *a = strstr(b->s, ", align ");
  if (a == NULL) return;
  char *e = a + 8;
  while (isdigit((unsigned char)*e)) e++;
  memmove(a, e, strlen(e) + 1);
  b->len = strlen(b->s);
}

static void fix_instruction(Fixup *F, Span line) {
  NvBuf w = {0};
  rewrite_words(&w, line);
  if (w.s == NULL) return;
  if (strstr(w.s, " atomicrmw ") || strstr(w.s, " cmpxchg ")) drop_atomic_align(&w);
  Span l = {w.s, w.len}, res, rest;
  bool done = false;
  if (split_assign(l, &res, &rest)) {
    if (starts(rest.p, rest.n, "fneg ")) done = rewrite_fneg(&F->out, res, rest);
    else if (starts(rest.p, rest.n, "freeze ")) done = rewrite_freeze(&F->out, res, rest);
    else if (starts(rest.p, rest.n, "atomicrmw ")) done = rewrite_atomic_fadd(F, &F->out, res, rest);
    else if (strstr(rest.p, "call ")) done = rewrite_int_intrinsic(F, &F->out, res, rest);
  }
  if (!done) nvvm_buf_add(&F->out, w.s, w.len);
  free(w.s);
}

static void fix_line(Fixup *F, Span line) {
  const char *s = line.p;
  size_t n = line.n;
  if (starts(s, n, "target datalayout")) {
    nvvm_buf_str(&F->out, "target datalayout = \"" NVVM_DATALAYOUT "\"");
    F->has_layout = true;
  } else if (starts(s, n, "target triple")) {
    nvvm_buf_str(&F->out, "target triple = \"" NVVM_TRIPLE "\"");
  } else if (n && isdigit((unsigned char)s[0])) {  /* "16:  ; preds = %6" */
    nvvm_buf_str(&F->out, "; <label>:");
    nvvm_buf_add(&F->out, s, n);
  } else if (starts(s, n, "!nvvmir.version")) {
    F->has_version = true;
    nvvm_buf_add(&F->out, s, n);
  } else if (n > 1 && s[0] == '!' && isdigit((unsigned char)s[1])) {
    int id = atoi(s + 1);
    if (id > F->max_md) F->max_md = id;
    nvvm_buf_add(&F->out, s, n);
  } else if (n == 0 || s[0] == ';' || s[0] == '!') {
    nvvm_buf_add(&F->out, s, n);
  } else if (starts(s, n, "declare ")) {
    Span w;
    if (int_intrinsic(s, n, &w) >= 0) return;  /* rewritten at each call */
    rewrite_words(&F->out, line);
  } else if (starts(s, n, "define ")) {
    NvBuf w = {0};
    rewrite_words(&w, line);
    if (w.s) drop_param_numbers(&F->out, (Span){w.s, w.len});
    free(w.s);
  } else if (starts(s, n, "attributes #")) {
    size_t before = F->out.len;
    rewrite_words(&F->out, line);
    char *g = F->out.s ? strstr(F->out.s + before, "= { }") : NULL;
    if (g) {  /* libNVVM rejects an empty group */
      F->out.len = (size_t)(g - F->out.s);
      nvvm_buf_str(&F->out, "= { nounwind }");
    }
  } else if (s[0] == ' ') {
    fix_instruction(F, line);
  } else {
    rewrite_words(&F->out, line);
  }
  nvvm_buf_str(&F->out, "\n");
}

char *nvvm_fixup_ir(const char *text) {
  Fixup F = {.max_md = -1};
  const char *p = text;
  while (*p) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    fix_line(&F, (Span){p, n});
    p += n + (nl ? 1 : 0);
  }
  for (int k = 0; k < F.ndecls; k++) nvvm_buf_printf(&F.out, "%s\n", F.decls[k]);
  if (!F.has_version) {
    int id = F.max_md + 1;
    nvvm_buf_printf(&F.out, "!nvvmir.version = !{!%d}\n!%d = !{i32 %d, i32 %d}\n", id, id,
                    NVVM_IR_MAJOR, NVVM_IR_MINOR);
  }
  /* at the end, so that libNVVM's line numbers stay those of the input */
  if (!F.has_layout) nvvm_buf_str(&F.out, "target datalayout = \"" NVVM_DATALAYOUT "\"\n");
  return nvvm_buf_take(&F.out);
}
