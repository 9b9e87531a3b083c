/*
** lower_arrayexpr.h — the fused elementwise loop shared by array
** expressions (lower_arrayexpr.c) and stores into views (lower_arraystore.c):
** the leaves of a tree of operations, their broadcast shape, and one loop
** nest that reads every leaf through its strides and writes one array.
*/
#ifndef lower_arrayexpr_h
#define lower_arrayexpr_h

#include "lower.h"

#define AX_MAXLEAF 32

typedef struct Leaf {
  Node *n;                         // NULL: the in-place target itself
  Val v;
  LLVMValueRef stride[LM_MAXDIM];  // bytes per step of the loop's axis k; 0 along a broadcast axis
  LLVMValueRef elem;               // this iteration's element (or the scalar)
} Leaf;

typedef struct Ax {
  Leaf leaf[AX_MAXLEAF];
  int nleaf;
  Node *root;      // the expression, or a single leaf
  Loc loc;         // where errors point
  /* in-place (target op= root): the operator, its type, the target's leaf */
  OpKind op;
  Type *opty;
  int target;      // leaf index of the target, -1: none
  Node *outcall;   // a ufunc call with out=: the root, fused though it has out
  int nops;        // operations fused (ax_collect counts them)
  LLVMValueRef lo; // NULL, or a chunk's first index along axis 0 (every operand starts there)
  const Node *stmt; // a statement of a fused group: where its errors point (NULL: the current one)
} Ax;

/* n is an operation the loop fuses (an array expression's node), not a leaf */
bool ax_is_fused(Lower *L, Node *n);
void ax_collect(Lower *L, Ax *x, Node *n);           /* the leaves of n, in order */
void ax_lower_leaves(Lower *L, Ax *x);                /* each leaf's value, held */
void ax_release_leaves(Lower *L, Ax *x);
/* the broadcast shape of n (its ndim returned), checking each operation as NumPy does */
int ax_shape(Lower *L, Ax *x, Node *n, LLVMValueRef *shape);
void ax_leaf_shape(Lower *L, Val v, LLVMValueRef *shape);
/* every leaf's strides over a loop of shape[nd] (leaves right-aligned, 1 broadcasts) */
void ax_strides(Lower *L, Ax *x, int nd, LLVMValueRef *shape);
/* the loop: out[i] = root[i] (or target[i] op root[i], the target read from
** out: out is the target or a copy of it) cast to out's dtype; the innermost
** axis versioned at run time: all operands contiguous there, or strided */
void ax_loop(Lower *L, Ax *x, int nd, LLVMValueRef *shape, Val out);
/* ax_loop, on the thread pool when the function is parallel and the loop is
** not inside a parallel region and big enough (lower_parloop.c): axis 0 split
** into chunks; what names the operation for :parallel_diagnostics() (NULL: not reported) */
void ax_par_loop(Lower *L, Ax *x, int nd, LLVMValueRef *shape, Val out, const char *what);
/* true: array loops of this function may run on the thread pool (it is parallel, not in a parallel region) */
bool ax_par_ok(Lower *L);
/* loops xs[j] into outs[j] over one shape, fused: each chunk of axis 0 runs them all, block by block
** of rows (a fused group of statements, lower_parfuse.c); serial when small. Nothing reported. */
void ax_par_loops(Lower *L, Ax **xs, Val *outs, int nx, int nd, LLVMValueRef *shape);
/* dst = src elementwise (src of dst's shape), on the pool when it may; not reported */
void ax_par_copy(Lower *L, Val src, Val dst);
/* One array statement lowered but for its loop (a statement of a fused
** group, lower_parfuse.c): its leaves and out held from mark on. */
typedef struct AxPlan {
  Ax x;
  int nd;
  LLVMValueRef shape[LM_MAXDIM];
  Val out;            // what the loop writes: the new array (held), or the store's target
  LLVMValueRef need;  // a store: true at run time when an operand overlaps the target; NULL: an expression
  int mark;           // L->nheld before the statement
  bool inplace, outcall;
  const Val *pre;
} AxPlan;
/* an array expression n: leaves, shape, its new array (lower_arrayexpr.c) */
void ax_expr_plan(Lower *L, Node *n, AxPlan *p);
/* a store or in-place operator (lower_arraystore.c's store up to its overlap test) */
void ax_store_plan(Lower *L, Node *target, OpKind op, Type *opty, Node *value, AxPlan *p);
/* the statement's own loop: for a store, through the temporary when p->need */
void ax_plan_run(Lower *L, AxPlan *p);
/* true when v (a leaf, with its loop strides vs) shares memory with dst other than
** each element at its own position (lower_arraystore.c) */
/* true at run time when the memory spans of a and b meet (neither empty) */
LLVMValueRef ax_extents_meet(Lower *L, Val a, Val b);
LLVMValueRef ax_overlaps(Lower *L, Val v, LLVMValueRef *vs, Val dst, int nd, LLVMValueRef *shape);
/* "<chunk>:line:col: in f\n    source line", for runtime messages */
const char *ax_with_where(Lower *L, const char *text, Loc loc);  /* text, then lower_where */

#endif
