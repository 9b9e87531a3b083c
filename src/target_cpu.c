/*
** target_cpu.c — the CPU target: LLVM intrinsics where they exist (so the
** vectoriser knows them), libm otherwise; arrays reference-counted.
*/
#include <string.h>

#include "lower.h"

static LLVMValueRef cpu_math(Lower *L, const char *base, const char *intrinsic, LLVMValueRef *args, int n, bool f32) {
  LLVMTypeRef t = f32 ? LLVMFloatTypeInContext(L->ctx) : LLVMDoubleTypeInContext(L->ctx);
  if (intrinsic) return lower_intrinsic(L, intrinsic, &t, 1, args, n);
  char name[64];
  snprintf(name, sizeof name, "%s%s", base, f32 ? "f" : "");
  LLVMTypeRef ps[2] = {t, t};
  LLVMValueRef f = lower_rt_fn(L, name, t, ps, n);
  return LLVMBuildCall2(L->b, LLVMGlobalGetValueType(f), f, args, (unsigned)n, "");
}

const Target target_cpu = {
    .name = "cpu",
    .refcount = true,
    .math_call = cpu_math,
    .prange = lower_prange,
    .array_expr = lower_arrayexpr,
    .array_fill = lower_par_fill,
    .array_index_fill = lower_index_fill,
    .array_reduce = lower_par_reduce,
    .array_store = lower_arraystore,
    .array_fuse = lower_parfuse,
    .index_get = lower_fancy_get,
    .index_set = lower_fancy_set,
    .class_attr = lower_class_attr,
    .class_new = lower_class_new,
    .class_store = lower_class_store,
    .class_is_none = lower_class_is_none,
    .record_field = lower_record_field,
    .record_store = lower_record_store,
};
