/*
** cachefile.c — reading and writing the cache directory's files
** (cachefile.h). Nothing read from a file is trusted before it has passed
** every check; whatever fails is a miss with a reason.
*/
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lauxlib.h>

#include "cachefile.h"
#include "sha256.h"

#define INDEX_MAGIC "LUMBAIDX"
#define INDEX_FORMAT 2u  /* 2: int_float_stores after types */
/* index header: magic[8] format[4] lumba_version[16] prekey[64] paylen[8] sha256[32] */
enum { IX_MAGIC = 0, IX_FORMAT = 8, IX_VERSION = 12, IX_PRE = 28, IX_LEN = 92, IX_SUM = 100, IX_SIZE = 132 };
#define INDEX_MAX (1u << 24)
#define MAX_NOTES 4096

/* ---- names ---- */

bool cachefile_debug(void) {
  const char *v = getenv("LUMBA_DEBUG_CACHE");
  return v && *v && strcmp(v, "0") != 0;
}

const char *cachefile_push_dir(lua_State *L) {
  const char *d = getenv("LUMBA_CACHE_DIR");
  if (d && *d) return lua_pushstring(L, d);
  d = getenv("XDG_CACHE_HOME");
  if (d && *d == '/') return lua_pushfstring(L, "%s/lumba", d);
  d = getenv("HOME");
  if (d && *d) return lua_pushfstring(L, "%s/.cache/lumba", d);
  return NULL;
}

const char *cachefile_push_path(lua_State *L, const char *dir, const char *name, const char *hex, const char *suffix) {
  char safe[65];
  size_t n = 0;
  for (; name[n] && n < sizeof safe - 1; n++) {
    char c = name[n];
    safe[n] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ? c : '_';
  }
  safe[n] = '\0';
  return lua_pushfstring(L, "%s/%s-%s%s", dir, safe, hex, suffix);
}

void cachefile_put_le(unsigned char *p, uint64_t v, int n) {
  for (int i = 0; i < n; i++) p[i] = (unsigned char)(v >> (8 * i));
}

uint64_t cachefile_get_le(const unsigned char *p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

/* ---- reading ---- */

static bool read_all(int fd, unsigned char *p, size_t n) {
  while (n > 0) {
    ssize_t r = read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    n -= (size_t)r;
  }
  return true;
}

/* the whole file at path in a userdata pushed on the stack (at least min
** bytes, at most max); NULL and why (nothing pushed) otherwise. No Lua call
** runs while the file is open. */
static unsigned char *slurp(lua_State *L, const char *path, size_t min, size_t max, size_t *size, char *why,
                            size_t whylen) {
  struct stat st;
  if (stat(path, &st) != 0) {
    snprintf(why, whylen, errno == ENOENT ? "no file" : "cannot stat the file: %s", strerror(errno));
    return NULL;
  }
  if (!S_ISREG(st.st_mode) || st.st_size < (off_t)min || st.st_size > (off_t)max) {
    snprintf(why, whylen, S_ISREG(st.st_mode) ? "bad size (%lld bytes)" : "not a regular file", (long long)st.st_size);
    return NULL;
  }
  *size = (size_t)st.st_size;
  unsigned char *buf = lua_newuserdatauv(L, *size, 0);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    snprintf(why, whylen, "cannot open the file: %s", strerror(errno));
    lua_pop(L, 1);
    return NULL;
  }
  struct stat st2;
  bool ok = fstat(fd, &st2) == 0 && st2.st_size == st.st_size && read_all(fd, buf, *size);
  close(fd);
  if (!ok) {
    snprintf(why, whylen, "the file changed or could not be read");
    lua_pop(L, 1);
    return NULL;
  }
  return buf;
}

/* the symbol prefix every entry of this key must have: "<name>__<16 hex>_" */
static bool symbol_ok(const char *sym, size_t len, const char *name, const char *key) {
  char want[300];
  int n = snprintf(want, sizeof want, "%s__%.*s_", name, 16, key);
  if (n < 0 || (size_t)n >= sizeof want || len > 250 || len <= (size_t)n || memcmp(sym, want, (size_t)n) != 0)
    return false;
  for (size_t i = (size_t)n; i < len; i++)
    if (sym[i] < '0' || sym[i] > '9') return false;
  return true;
}

bool cachefile_read_entry(lua_State *L, const char *path, const char *key, const char *name, CacheEntry *e,
                          char *why, size_t whylen) {
  size_t size;
  unsigned char *buf = slurp(L, path, CF_SIZE, CACHEFILE_MAX, &size, why, whylen);
  if (buf == NULL) return false;
  const char *bad = NULL;
  uint64_t symlen = cachefile_get_le(buf + CF_SYMLEN, 4), objlen = cachefile_get_le(buf + CF_OBJLEN, 8),
           irlen = cachefile_get_le(buf + CF_IRLEN, 8);
  char version[17];
  memcpy(version, buf + CF_VERSION, 16);
  version[16] = '\0';
  if (memcmp(buf + CF_MAGIC, CACHEFILE_MAGIC, 8) != 0) bad = "bad header (not a lumba cache file)";
  else if (cachefile_get_le(buf + CF_FORMAT, 4) != CACHEFILE_FORMAT)
    snprintf(why, whylen, "format version %u (this lumba reads %u)", (unsigned)cachefile_get_le(buf + CF_FORMAT, 4),
             CACHEFILE_FORMAT);
  else if (strcmp(version, LM_VERSION) != 0)
    snprintf(why, whylen, "written by lumba %.16s (this is %s)", version, LM_VERSION);
  else if (memcmp(buf + CF_KEY, key, CACHEFILE_KEY_HEX) != 0) bad = "bad header (another key)";
  else if (symlen > size || objlen > size || irlen > size || CF_SIZE + symlen + objlen + irlen != size)
    snprintf(why, whylen, "truncated or padded (%zu bytes, the header says %llu)", size,
             (unsigned long long)(CF_SIZE + symlen + objlen + irlen));
  else {
    unsigned char sum[SHA256_LEN];
    sha256(buf + CF_SIZE, size - CF_SIZE, sum);
    if (memcmp(sum, buf + CF_SUM, SHA256_LEN) != 0) bad = "checksum mismatch";
    else if (!symbol_ok((const char *)buf + CF_SIZE, (size_t)symlen, name, key)) bad = "unexpected symbol name";
    else {
      e->sym = (const char *)buf + CF_SIZE;
      e->symlen = (size_t)symlen;
      e->obj = e->sym + symlen;
      e->objlen = (size_t)objlen;
      e->ir = e->obj + objlen;
      e->irlen = (size_t)irlen;
      return true;
    }
  }
  if (bad) snprintf(why, whylen, "%s", bad);
  lua_pop(L, 1);
  return false;
}

/* ---- writing ---- */

/* mkdir -p with mode 0700 (XDG's rule for cache directories) */
static int make_dirs(const char *dir) {
  char buf[4096];
  size_t n = strlen(dir);
  if (n == 0 || n >= sizeof buf) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(buf, dir, n + 1);
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(buf, 0700) != 0 && errno != EEXIST) return -1;
    *p = '/';
  }
  if (mkdir(buf, 0700) != 0 && errno != EEXIST) return -1;
  return 0;
}

static bool write_all(int fd, const void *data, size_t n) {
  const char *p = data;
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= (size_t)w;
  }
  return true;
}

int cachefile_write(const char *dir, const char *path, const void *const *parts, const size_t *lens, int n,
                    const char **what) {
  *what = "cannot create the cache directory";
  if (make_dirs(dir) != 0) return errno;
  char tmp[4096];
  if ((size_t)snprintf(tmp, sizeof tmp, "%s/" CACHEFILE_TMP_PREFIX "XXXXXX", dir) >= sizeof tmp) return ENAMETOOLONG;
  *what = "cannot write to the cache directory";
  int fd = mkostemp(tmp, O_CLOEXEC);
  if (fd < 0) return errno;
  errno = 0;
  bool ok = true;
  for (int i = 0; i < n && ok; i++) ok = write_all(fd, parts[i], lens[i]);
  int err = ok ? 0 : errno ? errno : EIO;
  if (ok) fchmod(fd, 0644);
  if (close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (ok && rename(tmp, path) != 0) {
    ok = false;
    err = errno;
  }
  if (!ok) unlink(tmp);
  return ok ? 0 : err;
}

/* ---- the index: writing ---- */

typedef struct Buf {
  unsigned char *p;
  size_t n, cap;
  bool oom;
} Buf;

static void add(Buf *b, const void *data, size_t n) {
  if (b->oom) return;
  if (b->n + n > b->cap) {
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < b->n + n) cap *= 2;
    unsigned char *p = realloc(b->p, cap);
    if (p == NULL) {
      b->oom = true;
      return;
    }
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->n, data, n);
  b->n += n;
}

static void add_le(Buf *b, uint64_t v, int n) {
  unsigned char x[8];
  cachefile_put_le(x, v, n);
  add(b, x, (size_t)n);
}

static void add_char(Buf *b, char c) {
  add(b, &c, 1);
}

/* a string with its NUL, length-prefixed */
static void add_str(Buf *b, const char *s) {
  add_le(b, strlen(s) + 1, 4);
  add(b, s, strlen(s) + 1);
}

/* Types: N none; S<d> a scalar; Q<d> an Optional(scalar); D<d> a dtype value; A<d><ndim><layout> an array; T<n><elems> a
** tuple; P<d> a C pointer, Pv voidptr (d = 'a' + dtype, ndim and n = '0' + count), then a NUL. */
/* a record dtype is a number of this process only: '!' is never read back */
static char dt_code(DType dt) {
  return dt < DT__COUNT ? (char)('a' + dt) : '!';
}

static void add_type_code(Buf *b, const Type *t) {
  switch (t->kind) {
    case TY_NONE: add_char(b, 'N'); return;
    case TY_SCALAR: case TY_RECORD: add_char(b, 'S'); add_char(b, dt_code(t->dtype)); return;
    case TY_DTYPE: add_char(b, 'D'); add_char(b, dt_code(t->dtype)); return;
    case TY_CLASS: add_char(b, 'K'); return;  /* no code of it is read back: 'K' decodes to nothing */
    case TY_OPAQUE: add_char(b, 'O'); return;
    case TY_OPTIONAL: add_char(b, 'Q'); add_char(b, dt_code(t->dtype)); return;  /* a GridGroup: never an argument of a cached function */
    case TY_CPTR: add_char(b, 'P'); add_char(b, t->layout == 'v' ? 'v' : (char)('a' + t->dtype)); return;
    case TY_ARRAY:
      add_char(b, 'A');
      add_char(b, dt_code(t->dtype));
      add_char(b, (char)('0' + t->ndim));
      add_char(b, t->layout);
      return;
    case TY_TUPLE:
      add_char(b, 'T');
      add_char(b, (char)('0' + t->nelems));
      for (int i = 0; i < t->nelems; i++) add_type_code(b, t->elems[i]);
      return;
  }
}

static void add_type(Buf *b, const Type *t) {
  Buf code = {0};
  add_type_code(&code, t);
  add_char(&code, '\0');
  if (code.oom) b->oom = true;
  else {
    add_le(b, code.n, 4);
    add(b, code.p, code.n);
  }
  free(code.p);
}

char *cachefile_index_bytes(const char *pre, const CacheIndex *ix, size_t *len) {
  Buf b = {0};
  unsigned char h[IX_SIZE];
  memset(h, 0, sizeof h);
  add(&b, h, sizeof h);
  add_str(&b, ix->key);
  add_str(&b, ix->symbol);
  add_str(&b, ix->wrap);
  add_type(&b, ix->ret);
  add_str(&b, ix->types);
  add_le(&b, ix->int_float_stores, 8);
  add_le(&b, (uint64_t)ix->nnotes, 4);
  for (int i = 0; i < ix->nnotes; i++) {
    const CacheIndexNote *n = &ix->notes[i];
    add_char(&b, n->kind);
    add_str(&b, n->name);
    if (n->kind == 'i' || n->kind == 'b' || n->kind == 'f') add_le(&b, (uint64_t)n->ival, 8);
    if (n->kind == 'd') {
      add_str(&b, n->key);
      add_le(&b, (uint64_t)n->nargs, 4);
      for (int k = 0; k < n->nargs; k++) add_type(&b, n->argtypes[k]);
    }
  }
  if (b.oom || b.n - IX_SIZE > INDEX_MAX) {
    free(b.p);
    return NULL;
  }
  memcpy(b.p + IX_MAGIC, INDEX_MAGIC, 8);
  cachefile_put_le(b.p + IX_FORMAT, INDEX_FORMAT, 4);
  memcpy(b.p + IX_VERSION, LM_VERSION, strlen(LM_VERSION) < 16 ? strlen(LM_VERSION) : 16);
  memcpy(b.p + IX_PRE, pre, CACHEFILE_KEY_HEX);
  cachefile_put_le(b.p + IX_LEN, b.n - IX_SIZE, 8);
  sha256(b.p + IX_SIZE, b.n - IX_SIZE, b.p + IX_SUM);
  *len = b.n;
  return (char *)b.p;
}

/* ---- the index: reading ---- */

typedef struct Reader {
  const unsigned char *p, *end;
  bool bad;
} Reader;

static uint64_t get_le(Reader *r, int n) {
  if (r->bad || r->end - r->p < n) {
    r->bad = true;
    return 0;
  }
  uint64_t v = cachefile_get_le(r->p, n);
  r->p += n;
  return v;
}

/* a length-prefixed NUL-terminated string, in place */
static const char *get_str(Reader *r) {
  uint64_t n = get_le(r, 4);
  if (r->bad || n == 0 || (uint64_t)(r->end - r->p) < n || r->p[n - 1] != '\0') {
    r->bad = true;
    return "";
  }
  const char *s = (const char *)r->p;
  r->p += n;
  return s;
}

/* a type from its code at *p; NULL when malformed */
static Type *type_of_code(TypeTable *T, const char **p, int depth) {
  const char *s = *p;
  if (depth > 16) return NULL;
  switch (s[0]) {
    case 'N': *p = s + 1; return &ty_none;
    case 'S':
      if (s[1] < 'a' || s[1] >= 'a' + DT__COUNT) return NULL;
      *p = s + 2;
      return ty_scalar((DType)(s[1] - 'a'));
    case 'D':
      if (s[1] < 'a' || s[1] >= 'a' + DT__COUNT) return NULL;
      *p = s + 2;
      return ty_dtype((DType)(s[1] - 'a'));
    case 'Q':  /* Optional(number) */
      if (s[1] < 'a' || s[1] >= 'a' + DT__COUNT) return NULL;
      *p = s + 2;
      return ty_optional((DType)(s[1] - 'a'));
    case 'P':  /* a @cfunc's pointer: P<d>, Pv for voidptr */
      if (s[1] != 'v' && (s[1] < 'a' || s[1] >= 'a' + DT__COUNT)) return NULL;
      *p = s + 2;
      return s[1] == 'v' ? &ty_voidptr : ty_cptr((DType)(s[1] - 'a'));
    case 'A':
      if (s[1] < 'a' || s[1] >= 'a' + DT__COUNT || s[2] < '1' || s[2] > '0' + LM_MAXDIM ||
          (s[3] != 'C' && s[3] != 'F' && s[3] != 'A'))
        return NULL;
      *p = s + 4;
      return ty_array(T, (DType)(s[1] - 'a'), s[2] - '0', s[3]);
    case 'T': {
      int n = s[1] - '0';
      if (n < 0 || n > LM_MAXARGS) return NULL;
      Type *elems[LM_MAXARGS];
      *p = s + 2;
      for (int i = 0; i < n; i++)
        if ((elems[i] = type_of_code(T, p, depth + 1)) == NULL) return NULL;
      return ty_tuple(T, elems, n);
    }
    default: return NULL;
  }
}

static Type *get_type(Reader *r, TypeTable *T) {
  const char *code = get_str(r);
  if (r->bad) return NULL;
  Type *t = type_of_code(T, &code, 0);
  if (t == NULL || *code != '\0') r->bad = true;
  return t;
}

bool cachefile_read_index(lua_State *L, const char *path, const char *pre, CacheIndex *ix, char *why, size_t whylen) {
  size_t size;
  unsigned char *buf = slurp(L, path, IX_SIZE, IX_SIZE + INDEX_MAX, &size, why, whylen);
  if (buf == NULL) return false;
  const char *bad = NULL;
  char version[17];
  memcpy(version, buf + IX_VERSION, 16);
  version[16] = '\0';
  unsigned char sum[SHA256_LEN];
  if (memcmp(buf + IX_MAGIC, INDEX_MAGIC, 8) != 0 || cachefile_get_le(buf + IX_FORMAT, 4) != INDEX_FORMAT)
    bad = "bad header (not a lumba index of this format)";
  else if (strcmp(version, LM_VERSION) != 0) bad = "written by another lumba version";
  else if (memcmp(buf + IX_PRE, pre, CACHEFILE_KEY_HEX) != 0) bad = "bad header (another pre-key)";
  else if (cachefile_get_le(buf + IX_LEN, 8) != size - IX_SIZE) bad = "truncated or padded";
  else if (sha256(buf + IX_SIZE, size - IX_SIZE, sum), memcmp(sum, buf + IX_SUM, SHA256_LEN) != 0)
    bad = "checksum mismatch";
  if (bad) {
    snprintf(why, whylen, "index: %s", bad);
    lua_pop(L, 1);
    return false;
  }
  TypeTable *T = &lmstate_get(L)->types;
  Reader r = {buf + IX_SIZE, buf + size, false};
  memset(ix, 0, sizeof *ix);
  ix->key = get_str(&r);
  ix->symbol = get_str(&r);
  ix->wrap = get_str(&r);
  ix->ret = get_type(&r, T);
  ix->types = get_str(&r);
  ix->int_float_stores = get_le(&r, 8);
  uint64_t nn = get_le(&r, 4);
  if (nn > MAX_NOTES) r.bad = true;
  ix->nnotes = r.bad ? 0 : (int)nn;
  ix->notes = lua_newuserdatauv(L, sizeof(CacheIndexNote) * (size_t)(ix->nnotes ? ix->nnotes : 1), 0);
  for (int i = 0; i < ix->nnotes && !r.bad; i++) {
    CacheIndexNote *n = &ix->notes[i];
    memset(n, 0, sizeof *n);
    n->kind = (char)get_le(&r, 1);
    n->name = get_str(&r);
    switch (n->kind) {
      case 'i': case 'b': case 'f': n->ival = (int64_t)get_le(&r, 8); break;
      case 'n': case 'D': break;
      case 'd': {
        n->key = get_str(&r);
        uint64_t na = get_le(&r, 4);
        if (na > LM_MAXARGS || strlen(n->key) != CACHEFILE_KEY_HEX) r.bad = true;
        n->nargs = r.bad ? 0 : (int)na;
        for (int k = 0; k < n->nargs; k++) n->argtypes[k] = get_type(&r, T);
        break;
      }
      default: r.bad = true;
    }
  }
  if (!r.bad && (strlen(ix->key) != CACHEFILE_KEY_HEX || r.p != r.end)) r.bad = true;
  if (r.bad) {
    snprintf(why, whylen, "index: malformed payload");
    lua_pop(L, 2);
    return false;
  }
  return true;
}

int cachefile_write_entry(const char *dir, const char *path, const char *key, const char *sym, const char *obj,
                          size_t objlen, const char *ir, const char **what) {
  size_t symlen = strlen(sym), irlen = ir ? strlen(ir) : 0;
  unsigned char h[CF_SIZE];
  memset(h, 0, sizeof h);
  memcpy(h + CF_MAGIC, CACHEFILE_MAGIC, 8);
  cachefile_put_le(h + CF_FORMAT, CACHEFILE_FORMAT, 4);
  memcpy(h + CF_VERSION, LM_VERSION, strlen(LM_VERSION) < 16 ? strlen(LM_VERSION) : 16);
  memcpy(h + CF_KEY, key, CACHEFILE_KEY_HEX);
  cachefile_put_le(h + CF_SYMLEN, symlen, 4);
  cachefile_put_le(h + CF_OBJLEN, objlen, 8);
  cachefile_put_le(h + CF_IRLEN, irlen, 8);
  Sha256 s;
  sha256_init(&s);
  sha256_update(&s, sym, symlen);
  sha256_update(&s, obj, objlen);
  sha256_update(&s, ir ? ir : "", irlen);
  sha256_final(&s, h + CF_SUM);
  const void *parts[] = {h, sym, obj, ir ? ir : ""};
  size_t lens[] = {sizeof h, symlen, objlen, irlen};
  return cachefile_write(dir, path, parts, lens, 4, what);
}
