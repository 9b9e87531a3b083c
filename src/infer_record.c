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

/* the field's index, or Numba's TypingError for one not there */
static int field_of(Infer *I, Loc loc, const Type *base, const char *name) {
  const RecordInfo *r = record_info(base->dtype);
  int f = record_field(r, name);
  if (f < 0)
    compile_error(I->C, loc, "TypingError", "Unknown attribute '%s' of type %s", name, tyname(I->C, base));
  return f;
}

/* the type of field name of base: the field itself for a record, its view for a record array */
static Type *field_type(Infer *I, Loc loc, Type *base, const char *name) {
  const RecordInfo *r = record_info(base->dtype);
  DType ft = r->types[field_of(I, loc, base, name)];
  if (base->kind == TY_RECORD) return ty_scalar(ft);
  return ty_array(&I->C->S->types, ft, base->ndim, 'A');
}

Type *infer_record_subscript(Infer *I, Node *n, Type *base, bool store) {
  (void)store;
  infer_ann(I, n->slice)->ty = NULL;
  Type *t = field_type(I, n->slice->loc, base, n->slice->sval);
  return infer_ann(I, n)->ty = t;
}

/* r.x, a.x (a name that is no array attribute); NULL: not a field access */
Type *infer_record_attr(Infer *I, Node *n, Type *base) {
  if (base->kind == TY_ARRAY) {
    if (!dtype_is_record(base->dtype) || record_field(record_info(base->dtype), n->name) < 0) return NULL;
  }
  Type *t = field_type(I, n->loc, base, n->name);
  return infer_ann(I, n)->ty = t;
}

/* r.x = v, a[i].x = v, r['x'] = v: a number into a number field; a.x = v
** of a record array is a store into the field's view (checked by the caller) */
void infer_record_store(Infer *I, Node *target, Type *base, const char *name, Type *t) {
  Compile *C = I->C;
  Type *ft = field_type(I, target->loc, base, name);
  infer_ann(I, target)->ty = ft;
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

int infer_record_dtype(Infer *I, Node *list, Node *align) {
  Compile *C = I->C;
  int n = list->elts.len;
  if (n == 0 || n > 4096) compile_error(C, list->loc, "TypingError", "a record dtype needs 1 to 4096 fields");
  bool aligned = false;
  if (align) {
    if (align->kind != ND_Constant || (align->ckind != CK_BOOL && align->ckind != CK_INT))
      compile_error(C, align->loc, "TypingError", "np.dtype(align=...) must be True or False");
    aligned = align->ckind == CK_BOOL ? align->bval : align->ival != 0;
  }
  const char **names = arena_alloc(C->A, sizeof(char *) * (size_t)n);
  DType *types = arena_alloc(C->A, sizeof(DType) * (size_t)n);
  for (int i = 0; i < n; i++) {
    Node *e = list->elts.items[i];
    if (e->kind != ND_Tuple || e->elts.len != 2 || e->elts.items[0]->kind != ND_Constant ||
        e->elts.items[0]->ckind != CK_STR)
      compile_error(C, e->loc, "TypingError", "a record field is a tuple ('name', dtype)");
    names[i] = e->elts.items[0]->sval;
    int dt = infer_dtype_arg(I, e->elts.items[1]);
    if (dt == -2) return -2;
    if (dt < 0) compile_error(C, e->elts.items[1]->loc, "TypingError", "field '%s' needs a dtype", names[i]);
    types[i] = (DType)dt;
  }
  char err[160];
  int dt = record_intern(n, names, types, NULL, 0, aligned, err, sizeof err);
  if (dt < 0) compile_error(C, list->loc, "TypingError", "%s", err);
  return dt;
}
