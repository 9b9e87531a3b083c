/*
** record.c — the table of record dtypes (record.h): interning, NumPy's
** layout rules, names. The table is the process's: a record dtype made in
** one Lua state is the same number in every other (arrays pass between
** states through a C host), so it is guarded by a mutex and freed at exit.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

/* ---- dtype facts (one X-macro feeds all three tables), a row per record
** dtype after the scalar ones: here, so that this file depends on no other ---- */
const char *dtype_names[DT__MAX] = {
#define DTYPE(e, name, ctype, size, kind) name,
#include "dtype.def"
#undef DTYPE
};
int dtype_sizes[DT__MAX] = {
#define DTYPE(e, name, ctype, size, kind) size,
#include "dtype.def"
#undef DTYPE
};
char dtype_kinds[DT__MAX] = {
#define DTYPE(e, name, ctype, size, kind) kind,
#include "dtype.def"
#undef DTYPE
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static RecordInfo *records[LM_MAXRECORDS];
static int nrecords;

const RecordInfo *record_info(int dt) {
  if (dt < DT__COUNT || dt >= DT__COUNT + LM_MAXRECORDS) return NULL;
  return records[dt - DT__COUNT];
}

int record_by_name(const char *s, size_t n) {
  pthread_mutex_lock(&lock);
  int dt = -1;
  for (int k = 0; k < nrecords && dt < 0; k++)
    if (strlen(records[k]->name) == n && memcmp(records[k]->name, s, n) == 0) dt = DT__COUNT + k;
  pthread_mutex_unlock(&lock);
  return dt;
}

int record_field(const RecordInfo *r, const char *name) {
  for (int i = 0; i < r->nfields; i++)
    if (strcmp(r->names[i], name) == 0) return i;
  return -1;
}

int64_t dtype_alignment(int dt) {
  const RecordInfo *r = record_info(dt);
  if (r) return r->alignment;
  return dtype_kinds[dt] == 'c' ? dtype_sizes[dt] / 2 : dtype_sizes[dt];
}

const char *dtype_descr_code(int dt) {
  static const char *const codes[DT__COUNT] = {
    [DT_BOOL] = "|b1", [DT_INT8] = "|i1", [DT_INT16] = "<i2", [DT_INT32] = "<i4", [DT_INT64] = "<i8",
    [DT_UINT8] = "|u1", [DT_UINT16] = "<u2", [DT_UINT32] = "<u4", [DT_UINT64] = "<u8",
    [DT_FLOAT32] = "<f4", [DT_FLOAT64] = "<f8", [DT_COMPLEX64] = "<c8", [DT_COMPLEX128] = "<c16",
  };
  return dt >= 0 && dt < DT__COUNT ? codes[dt] : NULL;
}

static bool same(const RecordInfo *r, int n, const char *const *names, const DType *types,
                 const int64_t *offsets, int64_t itemsize, bool aligned) {
  if (r->nfields != n || r->itemsize != itemsize || r->aligned != aligned) return false;
  for (int i = 0; i < n; i++)
    if (strcmp(r->names[i], names[i]) != 0 || r->types[i] != types[i] || r->offsets[i] != offsets[i]) return false;
  return true;
}

static void free_record(RecordInfo *r) {
  if (r == NULL) return;
  for (int i = 0; i < r->nfields; i++) free((void *)r->names[i]);
  free(r->names);
  free(r->types);
  free(r->offsets);
  free((void *)r->name);
  free((void *)r->dtype_name);
  free(r);
}

/* Numba's name: Record(x[type=float64;offset=0],n[type=int32;offset=8];16;True) */
static char *numba_name(const RecordInfo *r) {
  size_t cap = 64;
  for (int i = 0; i < r->nfields; i++) cap += strlen(r->names[i]) + strlen(dtype_names[r->types[i]]) + 48;
  char *s = malloc(cap);
  if (s == NULL) return NULL;
  size_t n = (size_t)snprintf(s, cap, "Record(");
  for (int i = 0; i < r->nfields; i++)
    n += (size_t)snprintf(s + n, cap - n, "%s%s[type=%s;offset=%lld]", i ? "," : "", r->names[i],
                          dtype_names[r->types[i]], (long long)r->offsets[i]);
  snprintf(s + n, cap - n, ";%lld;%s)", (long long)r->itemsize, r->aligned ? "True" : "False");
  return s;
}

static int fail(char *err, size_t errlen, const char *msg, const char *name) {
  snprintf(err, errlen, msg, name);
  return -1;
}

int record_intern(int n, const char *const *names, const DType *types, const int64_t *offsets_in,
                  int64_t itemsize, bool aligned, char *err, size_t errlen) {
  if (n <= 0) return fail(err, errlen, "a record dtype needs at least one field%s", "");
  int64_t *offsets = malloc(sizeof(int64_t) * (size_t)n);
  if (offsets == NULL) return fail(err, errlen, "out of memory%s", "");
  int64_t align = 1, end = 0;
  for (int i = 0; i < n; i++) {
    if (names[i] == NULL || names[i][0] == '\0') {
      free(offsets);
      snprintf(err, errlen, "field %d of a record dtype has no name", i + 1);
      return -1;
    }
    for (int j = 0; j < i; j++)
      if (strcmp(names[i], names[j]) == 0) {
        free(offsets);
        return fail(err, errlen, "field '%s' appears twice in a record dtype", names[i]);
      }
    int64_t fa = dtype_alignment(types[i]), size = dtype_sizes[types[i]];
    if (offsets_in) {
      offsets[i] = offsets_in[i];
      if (offsets[i] < 0) {
        free(offsets);
        return fail(err, errlen, "field '%s' has a negative offset", names[i]);
      }
      for (int j = 0; j < i; j++)
        if (offsets[i] < offsets[j] + dtype_sizes[types[j]] && offsets[j] < offsets[i] + size) {
          free(offsets);
          return fail(err, errlen, "field '%s' overlaps another field", names[i]);
        }
    } else {
      if (aligned) end = (end + fa - 1) / fa * fa;
      offsets[i] = end;
    }
    if (offsets[i] + size > end) end = offsets[i] + size;
    if (aligned && fa > align) align = fa;
  }
  if (offsets_in == NULL || itemsize == 0) itemsize = aligned ? (end + align - 1) / align * align : end;
  if (itemsize < end) {
    free(offsets);
    snprintf(err, errlen, "itemsize %lld is smaller than the fields' end %lld", (long long)itemsize, (long long)end);
    return -1;
  }
  if (itemsize > INT32_MAX) {
    free(offsets);
    return fail(err, errlen, "a record dtype of more than 2^31 bytes%s", "");
  }
  pthread_mutex_lock(&lock);
  for (int k = 0; k < nrecords; k++)
    if (same(records[k], n, names, types, offsets, itemsize, aligned)) {
      pthread_mutex_unlock(&lock);
      free(offsets);
      return DT__COUNT + k;
    }
  int dt = -1;
  RecordInfo *r = NULL;
  if (nrecords == LM_MAXRECORDS) {
    snprintf(err, errlen, "too many record dtypes (at most %d in a process)", LM_MAXRECORDS);
  } else if ((r = calloc(1, sizeof *r)) == NULL || (r->names = calloc((size_t)n, sizeof(char *))) == NULL ||
             (r->types = malloc(sizeof(DType) * (size_t)n)) == NULL) {
    snprintf(err, errlen, "out of memory");
  } else {
    r->nfields = n;
    r->offsets = offsets;
    offsets = NULL;
    bool ok = true;
    for (int i = 0; i < n; i++) {
      r->names[i] = strdup(names[i]);
      r->types[i] = types[i];
      ok = ok && r->names[i];
    }
    r->itemsize = itemsize;
    r->alignment = align;
    r->aligned = aligned;
    r->name = ok ? numba_name(r) : NULL;
    char *dn = r->name ? malloc(strlen(r->name) + 8) : NULL;
    if (dn) sprintf(dn, "dtype(%s)", r->name);
    r->dtype_name = dn;
    if (r->dtype_name == NULL) {
      snprintf(err, errlen, "out of memory");
    } else {
      dt = DT__COUNT + nrecords;
      dtype_names[dt] = r->name;
      dtype_sizes[dt] = (int)itemsize;
      dtype_kinds[dt] = 'V';
      records[nrecords++] = r;  /* published last: readers see a full row */
      r = NULL;
    }
  }
  pthread_mutex_unlock(&lock);
  free_record(r);
  free(offsets);
  return dt;
}

/* valgrind: the table lives as long as the process */
__attribute__((destructor)) static void records_free(void) {
  for (int k = 0; k < nrecords; k++) free_record(records[k]);
  nrecords = 0;
}
