/*
** index.h — what the typing of a subscript with an index array, a mask or
** None (infer_index.c) tells the lowering (lower_array.c for the view part,
** lower_fancyindex.c for the selection): an IndexPlan in the Subscript's
** Ann.aux. A subscript of integers and slices only has none.
*/
#ifndef index_h
#define index_h

#include "infer.h"

typedef struct IndexPlan {
  int adv;      // the item that is an index array or a mask; -1: none (a view with None axes)
  bool mask;    // adv is a bool array: it selects over advk axes at once
  int advk;     // the base axes adv covers (1 for an integer array, the mask's ndim)
  int axis;     // the first of them (for IndexError's message)
  int vpos;     // in the view where adv's axes are kept whole: the first of them
  int vndim;    // that view's ndim
  int rpos;     // the result axis the selection goes to (NumPy: 0 when the advanced indices are apart)
} IndexPlan;

/* the subscript n of array base, whose items have types itys (some an
** array or none): its type, and its IndexPlan in n's Ann.aux */
Type *infer_index_plan(Infer *I, Node *n, Type *base, Node **items, Type **itys, int nitems);

/* a view's layout after items (itys NULL or an item's type none: a None axis, skipped) */
char infer_index_layout(Type *base, Node **items, Type **itys, int nitems);

#endif
