/*
** record.h — structured (record) dtypes, NumPy's np.dtype([('x', 'f8'), ...])
** and Numba's Record type. A record dtype is a DType number past the
** scalar ones (DT__COUNT + k): interned once per process, so two equal
** records are one number, and dtype_names/dtype_sizes/dtype_kinds answer
** for it as for any dtype (its Numba name, its itemsize, kind 'V'). Every
** field is a scalar dtype or another record, at a byte offset; the layout
** is NumPy's: packed (align=False, its default) or aligned as a C compiler
** lays out the struct (align=True), or any offsets a C host gives.
*/
#ifndef record_h
#define record_h

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "array.h"

typedef struct RecordInfo {
  int nfields;
  const char **names;
  DType *types;        // scalar dtypes, or records
  int64_t *offsets;    // bytes from the start of an element
  int64_t itemsize;
  int64_t alignment;   // NumPy's dtype.alignment (1 when packed)
  bool aligned;        // NumPy's isalignedstruct: align=True, or a C struct
  const char *name;    // Numba's "Record(x[type=float64;offset=0],...;20;False)"
  const char *dtype_name;  // "dtype(Record(...))", its dtype value's type
} RecordInfo;

/* the record of dt, or NULL for a scalar dtype */
const RecordInfo *record_info(int dt);
/* the record dtype whose Numba name (RecordInfo.name) is the n bytes at
** s, as numba.from_dtype(rec) prints it; -1 if none was made */
int record_by_name(const char *s, size_t n);
/* the index of field name in r, or -1 */
int record_field(const RecordInfo *r, const char *name);

/*
** The record dtype with these fields (names are copied). offsets NULL:
** NumPy's layout, packed or (aligned) each field at a multiple of its
** alignment and the itemsize rounded up to the largest. offsets given:
** as given, itemsize 0 meaning the end of the last field; aligned then
** says whether it is a C struct's layout. Returns the dtype, or -1 with a
** message in err (a repeated or empty name, overlapping fields, too many
** record dtypes).
*/
int record_intern(int nfields, const char *const *names, const DType *types,
                  const int64_t *offsets, int64_t itemsize, bool aligned,
                  char *err, size_t errlen);

/* alignment of a dtype as NumPy aligns it (complex: of its parts) */
int64_t dtype_alignment(int dt);
/* NumPy's type string of a scalar dtype in a descr: "<f8", "|b1", "|i1" */
const char *dtype_descr_code(int dt);

#endif
