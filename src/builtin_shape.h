/*
** builtin_shape.h — what the shape families share among themselves
** (builtin_shape.c, builtin_view.c, builtin_join.c): compile-time axes and
** integers, views of an array, loop nests over a shape, strided copies.
*/
#ifndef builtin_shape_h
#define builtin_shape_h

#include "builtin_hooks.h"

/* ---- typing ---- */
/* a compile-time integer: a literal (-1 included) or a frozen constant */
bool bshape_static_int(Infer *I, Node *n, int64_t *v);
/* axis ax of an array of ndim dimensions, negative from the end; out of range: NumPy's AxisError text */
int bshape_axis(Infer *I, Node *at, int64_t ax, int ndim);
/* a constant axis argument n (NULL: dflt), normalized */
int bshape_axis_arg(Infer *I, Node *n, int ndim, int dflt, const char *fname);
/* the argument must be an array: its type */
Type *bshape_array_arg(Infer *I, Node *n, const char *fname);

/* ---- lowering ---- */
/* a view of a's buffer (its meminfo, a's ownership) */
Val bshape_view(Lower *L, Val a, Type *rt, LLVMValueRef data, LLVMValueRef *shape, LLVMValueRef *strides);
/* a view of a: axes inserted (new_axis[k] true: a length-1 axis at k of the result) */
Val bshape_expand(Lower *L, Val a, Type *rt, const bool *new_axis);
/* address of element idx of a (one index per axis, each in range) */
LLVMValueRef bshape_elem_ptr(Lower *L, Val a, LLVMValueRef *idx);
/* nested loops over shape (row-major): body(L, idx, ud) with one index per axis */
typedef void (*IndexFn)(Lower *L, LLVMValueRef *idx, void *ud);
void bshape_loop(Lower *L, LLVMValueRef *shape, int nd, IndexFn body, void *ud);
/* dst[...] = src[...] element by element, cast to dst's dtype; the shapes are equal */
void bshape_copy(Lower *L, Val dst, Val src);
LLVMValueRef bshape_size(Lower *L, Val a);

#endif
