/*
** lower_class.c — @jitclass instances in compiled code: an instance is
** its MemInfo (i8*); its fields lie in the MemInfo's buffer at the
** ClassInfo's offsets, an array field as an ArrayStruct (array.h) that
** holds one reference, so the Lua side (jitclass.c) reads the same bytes.
*/
#include <stddef.h>

#include "builtin_hooks.h"


/* the address of field f of instance inst (an i8*) */
static LLVMValueRef field_ptr(Lower *L, LLVMValueRef inst, ClassInfo *c, int f) {
  LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx), i8p = LLVMPointerType(i8, 0);
  LLVMValueRef at = lower_i64(L, (int64_t)offsetof(MemInfo, data));
  LLVMValueRef dp = LLVMBuildBitCast(L->b, LLVMBuildInBoundsGEP2(L->b, i8, inst, &at, 1, ""), LLVMPointerType(i8p, 0), "");
  LLVMValueRef data = LLVMBuildLoad2(L->b, i8p, dp, "fields");
  LLVMValueRef off = lower_i64(L, c->offsets[f]);
  return LLVMBuildInBoundsGEP2(L->b, i8, data, &off, 1, c->fnames[f]);
}

/* the i64 at byte offset k of p (an i8*) */
static LLVMValueRef word_ptr(Lower *L, LLVMValueRef p, size_t k) {
  LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
  LLVMValueRef at = lower_i64(L, (int64_t)k);
  return LLVMBuildBitCast(L->b, LLVMBuildInBoundsGEP2(L->b, i8, p, &at, 1, ""),
                          LLVMPointerType(LLVMInt64TypeInContext(L->ctx), 0), "");
}

/* the instance held by class field p (never assigned: NULL, an error as
** Python's AttributeError on a field never set) */
static LLVMValueRef load_instance(Lower *L, LLVMValueRef p, ClassInfo *c, int f) {
  LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
  return LLVMBuildLoad2(L->b, i8p, LLVMBuildBitCast(L->b, p, LLVMPointerType(i8p, 0), ""), c->fnames[f]);
}

/* the address of byte k of p (an i8*) */
static LLVMValueRef byte_ptr(Lower *L, LLVMValueRef p, int64_t k) {
  LLVMValueRef at = lower_i64(L, k);
  return LLVMBuildInBoundsGEP2(L->b, LLVMInt8TypeInContext(L->ctx), p, &at, 1, "");
}

/* element k of a tuple field of numbers at p, as a value of dtype dt */
static LLVMValueRef elem_ptr(Lower *L, LLVMValueRef p, Type *t, int k) {
  return LLVMBuildBitCast(L->b, byte_ptr(L, p, ty_tuple_offset(t, k)),
                          LLVMPointerType(lower_mem_type(L, t->elems[k]->dtype), 0), "");
}

/* an optional number field's flag (after its value): whether it holds None */
static LLVMValueRef flag_is_none(Lower *L, LLVMValueRef p, Type *t) {
  LLVMValueRef flag = LLVMBuildLoad2(L->b, LLVMInt8TypeInContext(L->ctx), byte_ptr(L, p, dtype_sizes[t->dtype]), "isset");
  return LLVMBuildICmp(L->b, LLVMIntEQ, flag, LLVMConstInt(LLVMInt8TypeInContext(L->ctx), 0, 0), "isnone");
}

static Val load_field(Lower *L, LLVMValueRef inst, ClassInfo *c, int f) {
  Type *t = c->ftypes[f];
  LLVMValueRef p = field_ptr(L, inst, c, f);
  if (t->kind == TY_CLASS) return (Val){t, load_instance(L, p, c, f), false};  /* borrowed from the instance */
  if (t->kind == TY_TUPLE) {
    LLVMValueRef r = LLVMGetUndef(lower_type(L, t));
    for (int k = 0; k < t->nelems; k++)
      r = LLVMBuildInsertValue(L->b, r, lower_load_elem(L, t->elems[k]->dtype, elem_ptr(L, p, t, k)), (unsigned)k, "");
    return (Val){t, r, false};
  }
  if (t->kind != TY_ARRAY) {
    LLVMValueRef tp = LLVMBuildBitCast(L->b, p, LLVMPointerType(lower_mem_type(L, t->dtype), 0), "");
    return (Val){t, lower_load_elem(L, t->dtype, tp), false};
  }
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx), i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
  LLVMValueRef mi = LLVMBuildIntToPtr(L->b, LLVMBuildLoad2(L->b, i64, word_ptr(L, p, offsetof(ArrayStruct, meminfo)), ""), i8p, "");
  LLVMValueRef data = LLVMBuildIntToPtr(L->b, LLVMBuildLoad2(L->b, i64, word_ptr(L, p, offsetof(ArrayStruct, data)), ""),
                                        LLVMPointerType(lower_mem_type(L, t->dtype), 0), "");
  LLVMValueRef shape[LM_MAXDIM], strides[LM_MAXDIM];
  for (int k = 0; k < t->ndim; k++) {
    shape[k] = LLVMBuildLoad2(L->b, i64, word_ptr(L, p, offsetof(ArrayStruct, shape) + 8 * (size_t)k), "");
    strides[k] = LLVMBuildLoad2(L->b, i64, word_ptr(L, p, offsetof(ArrayStruct, strides) + 8 * (size_t)k), "");
  }
  return (Val){t, lower_arr_make(L, t, mi, data, shape, strides), false};  /* borrowed from the instance */
}

/* inst is None (an optional(node_type) field, a variable set to None): an
** error naming the attribute, raised where the statement is */
static void check_not_none(Lower *L, Val inst, ClassInfo *c, const char *attr) {
  char msg[200];
  snprintf(msg, sizeof msg, "AttributeError: 'NoneType' object has no attribute '%s' (a %s instance was expected)",
           attr, c->name);
  lower_raise_if(L, LLVMBuildIsNull(L->b, inst.v, ""), LMERR_RAISE, msg);
}

LLVMValueRef lower_class_is_none(Lower *L, Node *x) {
  ClassInfo *c = lower_ann(L, x->value)->ty->cls;
  int f = ty_class_field(c, x->name);
  Val inst = lower_expr(L, x->value);
  check_not_none(L, inst, c, x->name);
  LLVMValueRef r = flag_is_none(L, field_ptr(L, inst.v, c, f), c->ftypes[f]);
  lower_release(L, inst);
  return r;
}

Val lower_class_attr(Lower *L, Node *n) {
  Type *bt = lower_ann(L, n->value)->ty;
  ClassInfo *c = bt->cls;
  int f = ty_class_field(c, n->name);
  if (f < 0) return lower_call_def(L, n, lower_ann(L, n)->aux);  /* a property */
  Val inst = lower_expr(L, n->value);
  check_not_none(L, inst, c, n->name);
  Val v = load_field(L, inst.v, c, f);
  if (c->fopt[f] && lower_ann(L, n)->ty->kind == TY_OPTIONAL) {  /* kept as an Optional (y = inst.val): the flag too */
    LLVMTypeRef lt = lower_type(L, lower_ann(L, n)->ty);
    LLVMValueRef set = LLVMBuildNot(L->b, flag_is_none(L, field_ptr(L, inst.v, c, f), v.ty), "isset");
    LLVMValueRef r = LLVMBuildInsertValue(L->b, LLVMGetUndef(lt), v.v, 0, "");
    lower_release(L, inst);
    return (Val){lower_ann(L, n)->ty, LLVMBuildInsertValue(L->b, r, set, 1, "opt"), false};
  }
  if (c->fopt[f] && v.ty->kind == TY_SCALAR) {  /* an optional number used as a number: None is an error */
    char msg[200];
    snprintf(msg, sizeof msg, "TypeError: field '%s' of %s is None (test it with 'is None' first)", c->fnames[f], c->name);
    int mark = lower_hold(L, inst);
    lower_raise_if(L, flag_is_none(L, field_ptr(L, inst.v, c, f), v.ty), LMERR_RAISE, msg);
    lower_unhold(L, mark);
  }
  if (v.ty->kind == TY_CLASS && !c->fopt[f]) {
    char msg[200];
    snprintf(msg, sizeof msg, "AttributeError: field '%s' of %s was never assigned (it holds no %s instance)", c->fnames[f], c->name,
             v.ty->cls->name);
    int mark = lower_hold(L, inst);  /* a temporary instance (Lazy().cell) goes with the error */
    lower_raise_if(L, LLVMBuildIsNull(L->b, v.v, ""), LMERR_RAISE, msg);
    lower_unhold(L, mark);
  }
  /* an instance someone holds (a variable, a parameter) lends its array for
  ** the expression, with no atomic reference count per access (a method in
  ** a hot loop reads self.x per element); a temporary one (Bag(3).array)
  ** gives the array a reference of its own before it goes */
  if (inst.owned && (v.ty->kind == TY_ARRAY || v.ty->kind == TY_CLASS)) {
    lower_incref(L, v);
    v.owned = true;
  }
  lower_release(L, inst);
  return v;
}

Val lower_class_new(Lower *L, Node *n) {
  Type *t = lower_ann(L, n)->ty;
  LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
  LLVMValueRef fn = lower_rt_fn(L, "lm_class_new", i8p, &i8p, 1);
  /* the class lives as long as the Lua state, so its address is a constant (such code is never cached: infer_class.c) */
  LLVMValueRef cls = LLVMConstIntToPtr(LLVMConstInt(LLVMInt64TypeInContext(L->ctx), (unsigned long long)(uintptr_t)t->cls, 0), i8p);
  LLVMValueRef mi = LLVMBuildCall2(L->b, LLVMGlobalGetValueType(fn), fn, &cls, 1, "inst");
  lower_raise_if(L, LLVMBuildIsNull(L->b, mi, ""), LMERR_MEMORY, "cannot allocate the instance");
  return (Val){t, mi, true};
}

void lower_class_store(Lower *L, Node *target, Val v) {
  Type *bt = lower_ann(L, target->value)->ty;
  ClassInfo *c = bt->cls;
  int f = ty_class_field(c, target->name);
  Type *t = c->ftypes[f];
  int mark = lower_hold(L, v);  /* the instance's expression may raise */
  Val inst = lower_expr(L, target->value);
  int mark2 = lower_hold(L, inst);
  check_not_none(L, inst, c, target->name);
  lower_unhold(L, mark2);
  lower_unhold(L, mark);
  LLVMValueRef p = field_ptr(L, inst.v, c, f);
  if (t->kind == TY_TUPLE) {
    Val a = lower_cast(L, v, t);
    for (int k = 0; k < t->nelems; k++)
      lower_store_elem(L, t->elems[k]->dtype, elem_ptr(L, p, t, k), LLVMBuildExtractValue(L->b, a.v, (unsigned)k, ""));
    lower_release(L, inst);
    return;
  }
  if (t->kind == TY_SCALAR && c->fopt[f] && v.ty->kind == TY_OPTIONAL) {  /* an Optional: its number and its flag */
    Val x = {ty_scalar(v.ty->dtype), LLVMBuildExtractValue(L->b, v.v, 0, ""), false};
    LLVMValueRef tp = LLVMBuildBitCast(L->b, p, LLVMPointerType(lower_mem_type(L, t->dtype), 0), "");
    lower_store_elem(L, t->dtype, tp, lower_cast(L, x, ty_scalar(t->dtype)).v);
    LLVMValueRef set = LLVMBuildZExt(L->b, LLVMBuildExtractValue(L->b, v.v, 1, ""), LLVMInt8TypeInContext(L->ctx), "");
    LLVMBuildStore(L->b, set, byte_ptr(L, p, dtype_sizes[t->dtype]));
    lower_release(L, inst);
    return;
  }
  if (t->kind == TY_SCALAR) {
    bool none = v.ty->kind == TY_NONE;
    if (!none) {
      LLVMValueRef tp = LLVMBuildBitCast(L->b, p, LLVMPointerType(lower_mem_type(L, t->dtype), 0), "");
      lower_store_elem(L, t->dtype, tp, lower_cast(L, v, ty_scalar(t->dtype)).v);
    }
    if (c->fopt[f])  /* optional: the flag says whether it holds a number */
      LLVMBuildStore(L->b, LLVMConstInt(LLVMInt8TypeInContext(L->ctx), !none, 0), byte_ptr(L, p, dtype_sizes[t->dtype]));
    lower_release(L, inst);
    return;
  }
  if (t->kind == TY_CLASS) {
    v = lower_cast(L, v, t);  /* None: NULL */
    if (!v.owned) lower_incref(L, v);  /* the field holds a reference */
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    Val old = {t, load_instance(L, p, c, f), false};
    LLVMBuildStore(L->b, v.v, LLVMBuildBitCast(L->b, p, LLVMPointerType(i8p, 0), ""));
    /* never assigned: NULL, which nrt_decref ignores */
    lower_decref(L, old);
    lower_release(L, inst);
    return;
  }
  Val a = lower_cast(L, v, t);
  if (!a.owned) lower_incref(L, a);  /* the field holds a reference */
  Val old = load_field(L, inst.v, c, f);  /* the field's reference, released below */
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
  LLVMValueRef n = lower_i64(L, 1);
  for (int k = 0; k < t->ndim; k++) n = LLVMBuildMul(L->b, n, lower_arr_shape(L, a.v, k), "");
  LLVMBuildStore(L->b, LLVMBuildPtrToInt(L->b, lower_arr_mi(L, a.v), i64, ""), word_ptr(L, p, offsetof(ArrayStruct, meminfo)));
  LLVMBuildStore(L->b, lower_i64(L, 0), word_ptr(L, p, offsetof(ArrayStruct, parent)));
  LLVMBuildStore(L->b, n, word_ptr(L, p, offsetof(ArrayStruct, nitems)));
  LLVMBuildStore(L->b, lower_i64(L, dtype_sizes[t->dtype]), word_ptr(L, p, offsetof(ArrayStruct, itemsize)));
  LLVMBuildStore(L->b, LLVMBuildPtrToInt(L->b, lower_arr_data(L, a.v), i64, ""), word_ptr(L, p, offsetof(ArrayStruct, data)));
  for (int k = 0; k < t->ndim; k++) {
    LLVMBuildStore(L->b, lower_arr_shape(L, a.v, k), word_ptr(L, p, offsetof(ArrayStruct, shape) + 8 * (size_t)k));
    LLVMBuildStore(L->b, lower_arr_stride(L, a.v, k), word_ptr(L, p, offsetof(ArrayStruct, strides) + 8 * (size_t)k));
  }
  lower_decref(L, old);
  lower_release(L, inst);
}
