/*
** lower_record.c — record dtypes in compiled code (infer_record.c types
** them): a Record value is the address of its element (i8*), as Numba's,
** so r = a[i]; r.x = 1 writes into a. A field is a load or store at its
** offset; a field of a record array, a view with the array's strides.
*/
#include "lower.h"
#include "record.h"

/* the name of the field n reads: r.x, or r['x'] */
static const char *field_name(const Node *n) {
  return n->kind == ND_Attribute ? n->name : n->slice->sval;
}

/* the field's address in the record at rec (an i8*), typed as the field */
static LLVMValueRef field_ptr(Lower *L, LLVMValueRef rec, DType recdt, int f) {
  const RecordInfo *r = record_info(recdt);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
  LLVMValueRef off = lower_i64(L, r->offsets[f]);
  LLVMValueRef p = LLVMBuildInBoundsGEP2(L->b, i8, rec, &off, 1, r->names[f]);
  if (dtype_is_record(r->types[f])) return p;
  return LLVMBuildBitCast(L->b, p, LLVMPointerType(lower_mem_type(L, r->types[f]), 0), "");
}

/* a field's load and store: at its natural alignment in an aligned record,
** at 1 in a packed one (Numba's rule: a GPU traps on a misaligned access) */
static unsigned field_align(DType recdt, DType ft) {
  return record_info(recdt)->aligned ? (unsigned)dtype_alignment(ft) : 1u;
}

static LLVMValueRef load_field(Lower *L, DType recdt, DType ft, LLVMValueRef p) {
  LLVMValueRef v = LLVMBuildLoad2(L->b, lower_mem_type(L, ft), p, "");
  LLVMSetAlignment(v, field_align(recdt, ft));
  if (ft == DT_BOOL) v = LLVMBuildICmp(L->b, LLVMIntNE, v, LLVMConstInt(LLVMInt8TypeInContext(L->ctx), 0, 0), "");
  return v;
}

static void store_field(Lower *L, DType recdt, DType ft, LLVMValueRef p, LLVMValueRef v) {
  if (ft == DT_BOOL) v = LLVMBuildZExt(L->b, v, LLVMInt8TypeInContext(L->ctx), "");
  LLVMSetAlignment(LLVMBuildStore(L->b, v, p), field_align(recdt, ft));
}

/* the view of field f of the record array a: its strides, the field's dtype.
** A kernel's view loads elements at their natural alignment, which a
** packed record's field may lack (a GPU faults): refused there, n says where */
static Val field_view(Lower *L, Node *n, Val a, int f, Type *rt) {
  const RecordInfo *r = record_info(a.ty->dtype);
  int64_t fa = dtype_alignment(r->types[f]);
  if (L->C->target->cuda_call && !r->aligned && (r->offsets[f] % fa != 0 || r->itemsize % fa != 0))
    compile_error(L->C, n->loc, "UnsupportedError",
                  "field '%s' of the packed %s as an array may be misaligned on a GPU: in a kernel read it "
                  "through the elements (a[i].%s), or make the dtype with align=True", r->names[f], r->name,
                  r->names[f]);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx), i8p = LLVMPointerType(i8, 0);
  LLVMValueRef data = LLVMBuildBitCast(L->b, lower_arr_data(L, a.v), i8p, "");
  LLVMValueRef off = lower_i64(L, r->offsets[f]);
  data = LLVMBuildInBoundsGEP2(L->b, i8, data, &off, 1, "");
  data = LLVMBuildBitCast(L->b, data, LLVMPointerType(lower_mem_type(L, rt->dtype), 0), "");
  LLVMValueRef shape[LM_MAXDIM], strides[LM_MAXDIM];
  for (int k = 0; k < rt->ndim; k++) {
    shape[k] = lower_arr_shape(L, a.v, k);
    strides[k] = lower_arr_stride(L, a.v, k);
  }
  return (Val){rt, lower_arr_make(L, rt, lower_arr_mi(L, a.v), data, shape, strides), a.owned};
}

/* r.x, r['x'] (the value), a.x, a['x'] (the view) */
Val lower_record_field(Lower *L, Node *n) {
  Node *bn = n->value;
  Val base = lower_expr(L, bn);
  const RecordInfo *r = record_info(base.ty->dtype);
  int f = record_field(r, field_name(n));
  Type *rt = lower_ann(L, n)->ty;
  if (base.ty->kind == TY_ARRAY) return field_view(L, n, base, f, rt);
  LLVMValueRef p = field_ptr(L, base.v, base.ty->dtype, f);
  if (rt->kind == TY_RECORD) return (Val){rt, p, false};
  return (Val){rt, load_field(L, base.ty->dtype, rt->dtype, p), false};
}

/* r.x = v, r['x'] = v, and op= (op != OP_None: v is the right side, the
** operation typed as ty); a.x = v of a record array fills or stores the view */
void lower_record_store(Lower *L, Node *target, Val v, OpKind op, Type *ty) {
  Type *ft = lower_ann(L, target)->ty;
  int mark = lower_hold(L, v);  /* the record's expression may raise */
  Val base = lower_expr(L, target->value);
  lower_unhold(L, mark);
  const RecordInfo *r = record_info(base.ty->dtype);
  int f = record_field(r, field_name(target));
  if (base.ty->kind == TY_ARRAY) {
    Val view = field_view(L, target, base, f, ft);
    if (v.ty->kind == TY_ARRAY) {
      if (L->C->target->array_store == NULL)
        compile_error(L->C, target->loc, "UnsupportedError", "storing an array into a field is not supported on this target");
      compile_error(L->C, target->loc, "UnsupportedError",
                    "storing an array into a whole field: write a['%s'][:] = value", field_name(target));
    }
    lower_fill(L, view, lower_cast(L, v, ty_scalar(ft->dtype)).v);
    lower_release(L, view);
    return;
  }
  LLVMValueRef p = field_ptr(L, base.v, base.ty->dtype, f);
  if (op != OP_None) {
    Val cur = {ft, load_field(L, base.ty->dtype, ft->dtype, p), false};
    v = (Val){ty, lower_binop(L, op, cur, v, ty, target->loc), false};
  }
  store_field(L, base.ty->dtype, ft->dtype, p, lower_cast(L, v, ft).v);
}

