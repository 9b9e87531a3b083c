/*
** infer_record.c — typing record dtypes (record.h) in compiled code, as
** Numba: a[i] of a record array is a Record (TY_RECORD, a view of the
** element); r.x and r['x'] are its fields, stores included; a['x'] and
** a.x of a record array are the field's view, an array of layout 'A'.
** A field that is not there is Numba's TypingError naming it.
*/
#include "infer.h"
#include "record.h"

/* n is a['x'] or r['x'] with a constant string */
bool infer_record_key(const Node *n, const Type *base) {
  return base && (base->kind == TY_RECORD || (base->kind == TY_ARRAY && dtype_is_record(base->dtype))) &&
         n->slice->kind == ND_Constant && n->slice->ckind == CK_STR;
}

/* the type of field name of base: the field itself for a record, its view
** for a record array; Numba's TypingError for a field not there */
Type *infer_record_field(Compile *C, Loc loc, Type *base, const char *name) {
  const RecordInfo *r = record_info(base->dtype);
  int f = record_field(r, name);
  if (f < 0) compile_error(C, loc, "TypingError", "Unknown attribute '%s' of type %s", name, tyname(C, base));
  if (base->kind == TY_RECORD) return ty_scalar(r->types[f]);
  return ty_array(&C->S->types, r->types[f], base->ndim, 'A');
}

/* a.x of a record array where x is a field */
bool infer_record_has(const Type *base, const char *name) {
  return base->kind == TY_ARRAY && dtype_is_record(base->dtype) && record_field(record_info(base->dtype), name) >= 0;
}

/* r.x = v, a[i].x = v, r['x'] = v: a number into a number field (ft, of base) */
void infer_record_store(Compile *C, Node *target, Type *base, Type *ft, const char *name, Type *t) {
  if (t == NULL) return;
  if (ft->kind == TY_RECORD)
    compile_error(C, target->loc, "UnsupportedError", "assigning a whole record to field '%s' is not supported", name);
  if (ft->kind == TY_SCALAR && !ty_is_number(t) && !ty_is_complex(t))
    compile_error(C, target->loc, "TypingError", "cannot assign %s to field '%s' of %s", tyname(C, t), name,
                  tyname(C, base));
  if (ft->kind == TY_ARRAY && !ty_is_number(t) && t->kind != TY_ARRAY)
    compile_error(C, target->loc, "TypingError", "cannot assign %s to field '%s' of %s", tyname(C, t), name,
                  tyname(C, base));
}

