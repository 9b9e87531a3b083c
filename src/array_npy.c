/*
** array_npy.c — lumba.npy.save(path, a) and lumba.npy.load(path): NumPy's
** .npy format (numpy/lib/format.py), versions 1.0, 2.0 and 3.0.
**
** A file is the magic "\x93NUMPY", two version bytes, the header's length
** (uint16 LE in 1.0, uint32 LE in 2.0/3.0), the header — a Python dict
** literal {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }
** padded with spaces and a '\n' so the data starts at a multiple of 64 —
** then the elements, in C order or, with fortran_order, in F order.
** save writes 1.0 (2.0 only for a header past 65535 bytes); a view is
** written element by element in C order, an F-contiguous array as
** fortran_order. load reads either byte order ('>' is swapped on reading).
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "array_impl.h"
#include "record.h"

/* NumPy's type code of each lumba dtype (one row per dtype; the byte order
** character is '|' for one-byte types, '<' otherwise) */
static const struct { DType dt; const char *code; } npy_dtypes[] = {
  {DT_BOOL, "b1"},
  {DT_INT8, "i1"}, {DT_INT16, "i2"}, {DT_INT32, "i4"}, {DT_INT64, "i8"},
  {DT_UINT8, "u1"}, {DT_UINT16, "u2"}, {DT_UINT32, "u4"}, {DT_UINT64, "u8"},
  {DT_FLOAT32, "f4"}, {DT_FLOAT64, "f8"}, {DT_COMPLEX64, "c8"}, {DT_COMPLEX128, "c16"},
  {DT_FLOAT16, "f2"},
};

static const char npy_magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

static const char *npy_code(DType dt) {
  for (size_t i = 0; i < lm_countof(npy_dtypes); i++)
    if (npy_dtypes[i].dt == dt) return npy_dtypes[i].code;
  return NULL;
}

static int npy_dtype_of(const char *code) {
  for (size_t i = 0; i < lm_countof(npy_dtypes); i++)
    if (strcmp(npy_dtypes[i].code, code) == 0) return (int)npy_dtypes[i].dt;
  return -1;
}

/* NumPy's descr of a record: [('x', '<f8'), ('', '|V3'), ...], its
** padding as unnamed void fields (fields in offset order, as NumPy's) */
static void add_record_descr(luaL_Buffer *b, const RecordInfo *r) {
  char s[64];
  int64_t at = 0;
  luaL_addchar(b, '[');
  for (int i = 0; i < r->nfields; i++) {
    if (r->offsets[i] > at) {
      snprintf(s, sizeof s, "('', '|V%lld'), ", (long long)(r->offsets[i] - at));
      luaL_addstring(b, s);
    }
    luaL_addstring(b, "('");
    luaL_addstring(b, r->names[i]);
    luaL_addstring(b, "', ");
    const RecordInfo *sub = record_info(r->types[i]);
    if (sub) add_record_descr(b, sub);
    else {
      luaL_addchar(b, '\'');
      luaL_addstring(b, dtype_descr_code(r->types[i]));
      luaL_addchar(b, '\'');
    }
    luaL_addstring(b, i + 1 < r->nfields || r->itemsize > r->offsets[i] + dtype_sizes[r->types[i]] ? "), " : ")");
    at = r->offsets[i] + dtype_sizes[r->types[i]];
  }
  if (r->itemsize > at) {
    snprintf(s, sizeof s, "('', '|V%lld')", (long long)(r->itemsize - at));
    luaL_addstring(b, s);
  }
  luaL_addchar(b, ']');
}

/* a descr list [('x', '<f8'), ('', '|V4'), ...] at v as a record dtype;
** raises for what lumba has no record for (big-endian fields, subarrays) */
static int parse_record_descr(lua_State *L, const char *v, const char *path) {
  const char *names[1024];
  DType types[1024];
  int64_t offsets[1024], at = 0;
  int n = 0;
  v++;  /* '[' */
  for (;;) {
    while (*v == ' ' || *v == ',') v++;
    if (*v == ']') break;
    if (*v != '(' || (v[1] != '\'' && v[1] != '"'))
      luaL_error(L, "lumba.npy.load: '%s': a record field lumba cannot read at %s", path, v);
    char q = v[1];
    const char *nm = v + 2, *e = strchr(nm, q);
    if (e == NULL) luaL_error(L, "lumba.npy.load: '%s': a field name is cut short", path);
    lua_pushlstring(L, nm, (size_t)(e - nm));  /* kept on the stack until the record is made */
    v = e + 1;
    while (*v == ',' || *v == ' ') v++;
    if (*v != '\'' && *v != '"')
      luaL_error(L, "lumba.npy.load: '%s': field '%s' is a nested record or subarray, which lumba reads not", path,
                 lua_tostring(L, -1));
    char tq = *v++, ord = '|', code[16];
    if (*v == '<' || *v == '>' || *v == '|' || *v == '=') ord = *v++;
    size_t k = 0;
    while (v[k] && v[k] != tq && k < sizeof code - 1) code[k] = v[k], k++;
    code[k] = '\0';
    v += k + 1;
    while (*v == ' ') v++;
    if (*v != ')') luaL_error(L, "lumba.npy.load: '%s': field '%s' has a shape, which lumba reads not", path, lua_tostring(L, -1));
    v++;
    if (lua_rawlen(L, -1) == 0 && code[0] == 'V') {  /* padding */
      at += strtoll(code + 1, NULL, 10);
      lua_pop(L, 1);
      continue;
    }
    int dt = npy_dtype_of(code);
    if (dt < 0 || ord == '>')
      luaL_error(L, "lumba.npy.load: '%s': field '%s' has dtype '%c%s', which lumba has no record field for", path,
                 lua_tostring(L, -1), ord, code);
    if (n == 1024) luaL_error(L, "lumba.npy.load: '%s': more than 1024 fields", path);
    names[n] = lua_tostring(L, -1);
    types[n] = (DType)dt;
    offsets[n++] = at;
    at += dtype_sizes[dt];
  }
  char err[160];
  /* NumPy's .npy keeps no align flag: the packed layout if it is that, else aligned if it is that */
  int dt = record_intern(n, names, types, offsets, at, false, err, sizeof err);
  const RecordInfo *r = dt >= 0 ? record_info(dt) : NULL;
  bool packed = true;
  for (int i = 1; r && i < n; i++) packed = packed && offsets[i] == offsets[i - 1] + dtype_sizes[types[i - 1]];
  packed = packed && r && offsets[0] == 0 && r->itemsize == offsets[n - 1] + dtype_sizes[types[n - 1]];
  if (r && !packed) {
    int adt = record_intern(n, names, types, NULL, 0, true, err, sizeof err);
    const RecordInfo *ar = adt >= 0 ? record_info(adt) : NULL;
    bool same = ar && ar->itemsize == at;
    for (int i = 0; same && i < n; i++) same = ar->offsets[i] == offsets[i];
    if (same) dt = adt;
  }
  if (dt < 0) luaL_error(L, "lumba.npy.load: '%s': %s", path, err);
  lua_pop(L, n);
  return dt;
}

/* ---- the file, closed by __gc when an error unwinds ---- */

typedef struct NpyFile { FILE *f; } NpyFile;

static int npyfile_gc(lua_State *L) {
  NpyFile *b = lua_touserdata(L, 1);
  if (b->f) fclose(b->f);
  b->f = NULL;
  return 0;
}

static NpyFile *npyfile_open(lua_State *L, const char *fn, const char *path, const char *mode) {
  NpyFile *b = lua_newuserdatauv(L, sizeof *b, 0);
  b->f = NULL;
  if (luaL_newmetatable(L, "lumba.npyfile")) {
    lua_pushcfunction(L, npyfile_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_setmetatable(L, -2);
  b->f = fopen(path, mode);
  if (b->f == NULL) luaL_error(L, "lumba.npy.%s: cannot open '%s': %s", fn, path, strerror(errno));
  return b;
}

/* close now; a write error shows at fclose as well */
static void npyfile_close(lua_State *L, NpyFile *b, const char *fn, const char *path) {
  int bad = ferror(b->f);
  if (fclose(b->f) != 0) bad = 1;
  b->f = NULL;
  if (bad) luaL_error(L, "lumba.npy.%s: error writing '%s': %s", fn, path, strerror(errno));
}

/* ---- save ---- */

static void write_all(lua_State *L, FILE *f, const void *p, size_t n, const char *path) {
  if (n && fwrite(p, 1, n, f) != n)
    luaL_error(L, "lumba.npy.save: error writing '%s': %s", path, strerror(errno));
}

/* lumba.npy.save(path, a): a an array or a Lua table (as lumba.array reads it) */
static int npy_save(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  if (lua_istable(L, 2) && !array_peek(L, 2)) {
    int dt = array_table_dtype(L, 2);
    if (dt < 0) return luaL_argerror(L, 2, "a table of numbers or booleans of regular shape expected");
    array_from_table(L, 2, (DType)dt);
    lua_replace(L, 2);
  }
  NdArray *a = array_check(L, 2);
  const char *code = npy_code(a->dtype);
  if (dtype_is_record(a->dtype)) code = "";
  if (code == NULL)
    return luaL_argerror(L, 2, lua_pushfstring(L, "no .npy type for dtype %s", dtype_names[a->dtype]));
  bool fortran = a->ndim > 1 && !(a->flags & ARR_C_CONTIG) && (a->flags & ARR_F_CONTIG);

  luaL_Buffer hb;
  luaL_buffinit(L, &hb);
  if (dtype_is_record(a->dtype)) {
    luaL_addstring(&hb, "{'descr': ");
    add_record_descr(&hb, record_info(a->dtype));
    lua_pushfstring(L, ", 'fortran_order': %s, 'shape': (", fortran ? "True" : "False");
  } else {
    lua_pushfstring(L, "{'descr': '%c%s', 'fortran_order': %s, 'shape': (",
                    a->s.itemsize == 1 ? '|' : '<', code, fortran ? "True" : "False");
  }
  luaL_addvalue(&hb);
  for (int k = 0; k < a->ndim; k++) {
    lua_pushfstring(L, "%s%I", k ? ", " : "", (lua_Integer)a->s.shape[k]);
    luaL_addvalue(&hb);
  }
  luaL_addstring(&hb, a->ndim == 1 ? ",), }" : "), }");
  luaL_pushresult(&hb);
  size_t hlen = 0;
  const char *hdr = lua_tolstring(L, -1, &hlen);
  /* magic + version + length field + header + '\n', padded to 64 */
  size_t pre = 10, total = (pre + hlen + 1 + 63) / 64 * 64;
  if (total - pre > 65535) pre = 12, total = (pre + hlen + 1 + 63) / 64 * 64;
  size_t pad = total - pre - hlen - 1;
  unsigned char lead[12];
  memcpy(lead, npy_magic, 6);
  size_t field = total - pre;
  lead[6] = pre == 10 ? 1 : 2;
  lead[7] = 0;
  for (size_t i = 0; i < pre - 8; i++) lead[8 + i] = (unsigned char)(field >> (8 * i));

  NpyFile *b = npyfile_open(L, "save", path, "wb");
  write_all(L, b->f, lead, pre, path);
  write_all(L, b->f, hdr, hlen, path);
  for (size_t i = 0; i < pad; i++) write_all(L, b->f, " ", 1, path);
  write_all(L, b->f, "\n", 1, path);
  if ((a->flags & ARR_C_CONTIG) || fortran) {
    write_all(L, b->f, a->s.data, (size_t)(a->s.nitems * a->s.itemsize), path);
  } else {  /* a view: its elements in C order, through a buffer */
    char buf[8192];
    size_t n = 0, sz = (size_t)a->s.itemsize;
    ArrayIter it;
    array_iter_init(&it, a);
    for (char *p; (p = array_iter_next(&it)) != NULL;) {
      if (n + sz > sizeof buf) write_all(L, b->f, buf, n, path), n = 0;
      memcpy(buf + n, p, sz);
      n += sz;
    }
    write_all(L, b->f, buf, n, path);
  }
  npyfile_close(L, b, "save", path);
  return 0;
}

/* ---- load ---- */

static l_noret bad_file(lua_State *L, const char *path, const char *why) {
  luaL_error(L, "lumba.npy.load: '%s' is not a .npy file lumba reads: %s", path, why);
  LM_UNREACHABLE();
}

/* the value after 'key': in the header, or NULL */
static const char *header_value(const char *hdr, const char *key) {
  const char *p = strstr(hdr, key);
  if (p == NULL) return NULL;
  p += strlen(key);
  while (*p == ' ') p++;
  if (*p != ':') return NULL;
  p++;
  while (*p == ' ') p++;
  return p;
}

static void swap_bytes(char *p, int64_t n, int size) {
  for (int64_t i = 0; i < n; i++, p += size)
    for (int j = 0; j < size / 2; j++) {
      char t = p[j];
      p[j] = p[size - 1 - j];
      p[size - 1 - j] = t;
    }
}

/* lumba.npy.load(path) -> array */
static int npy_load(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  NpyFile *b = npyfile_open(L, "load", path, "rb");
  unsigned char lead[12];
  if (fread(lead, 1, 10, b->f) != 10 || memcmp(lead, npy_magic, 6) != 0)
    bad_file(L, path, "no \\x93NUMPY magic at its start");
  int major = lead[6];
  size_t hlen = 0;
  if (major == 1) {
    hlen = lead[8] | (size_t)lead[9] << 8;
  } else if (major == 2 || major == 3) {
    if (fread(lead + 10, 1, 2, b->f) != 2) bad_file(L, path, "its header is cut short");
    hlen = lead[8] | (size_t)lead[9] << 8 | (size_t)lead[10] << 16 | (size_t)lead[11] << 24;
  } else {
    luaL_error(L, "lumba.npy.load: '%s' is .npy format version %d.%d; lumba reads 1.0, 2.0 and 3.0",
               path, major, lead[7]);
  }
  if (hlen > (1u << 24)) bad_file(L, path, "its header is longer than 16 MiB");
  char *hdr = lua_newuserdatauv(L, hlen + 1, 0);  /* collected with the rest on an error */
  if (fread(hdr, 1, hlen, b->f) != hlen) bad_file(L, path, "its header is cut short");
  hdr[hlen] = '\0';

  const char *v = header_value(hdr, "'descr'");
  if (v == NULL) bad_file(L, path, "its header has no 'descr'");
  int dt;
  char order = '|';
  if (*v == '[') {
    dt = parse_record_descr(L, v, path);
  } else {
  if (*v != '\'' && *v != '"') bad_file(L, path, "its 'descr' is not a string");
  char q = *v++, code[16];
  if (*v == '<' || *v == '>' || *v == '|' || *v == '=') order = *v++;
  size_t n = 0;
  while (v[n] && v[n] != q && n < sizeof code - 1) code[n] = v[n], n++;
  code[n] = '\0';
  dt = npy_dtype_of(code);
  if (dt < 0)
    luaL_error(L, "lumba.npy.load: '%s' holds dtype '%c%s', which lumba has no dtype for", path, order, code);
  }

  v = header_value(hdr, "'fortran_order'");
  if (v == NULL || (strncmp(v, "True", 4) != 0 && strncmp(v, "False", 5) != 0))
    bad_file(L, path, "its header has no 'fortran_order' True or False");
  bool fortran = *v == 'T';

  v = header_value(hdr, "'shape'");
  if (v == NULL || *v != '(') bad_file(L, path, "its header has no 'shape' tuple");
  int64_t shape[LM_MAXDIM];
  int ndim = 0;
  v++;
  for (;;) {
    while (*v == ' ' || *v == ',') v++;
    if (*v == ')') break;
    char *end;
    errno = 0;
    long long d = strtoll(v, &end, 10);
    if (end == v || d < 0 || errno) bad_file(L, path, "its 'shape' is not a tuple of sizes");
    if (ndim == LM_MAXDIM)
      luaL_error(L, "lumba.npy.load: '%s' has more than %d dimensions", path, LM_MAXDIM);
    shape[ndim++] = d;
    v = end;
  }

  NdArray *a = array_new(L, (DType)dt, ndim, shape, fortran ? 'F' : 'C', 0);
  size_t bytes = (size_t)(a->s.nitems * a->s.itemsize);
  if (fread(a->s.data, 1, bytes, b->f) != bytes)
    luaL_error(L, "lumba.npy.load: '%s' is cut short: its data should be %I bytes", path, (lua_Integer)bytes);
  fclose(b->f);
  b->f = NULL;
  /* a complex element is two floats, each swapped on its own */
  int part = dtype_is_record(dt) ? 1 : dtype_kinds[dt] == 'c' ? (int)a->s.itemsize / 2 : (int)a->s.itemsize;
  if (order == '>' && part > 1) swap_bytes(a->s.data, a->s.nitems * ((int)a->s.itemsize / part), part);
  if (dt == DT_BOOL)  /* any nonzero byte is True */
    for (int64_t i = 0; i < a->s.nitems; i++) ((uint8_t *)a->s.data)[i] = ((uint8_t *)a->s.data)[i] != 0;
  return 1;
}

static const luaL_Reg npy_funcs[] = {
  {"save", npy_save}, {"load", npy_load}, {NULL, NULL},
};

void array_npy_open(lua_State *L) {
  luaL_newlib(L, npy_funcs);
  lua_setfield(L, -2, "npy");
}
