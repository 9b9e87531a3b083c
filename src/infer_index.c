/*
** infer_index.c — the type of a subscript that holds an index array, a
** bool mask or None (np.newaxis), as NumPy shapes it within what Numba
** allows: one array per subscript, an integer array 1-D, a mask covering
** one or more axes from its position; integers, slices and None beside it.
** The result of a selection is a new C array; None alone makes a view.
*/
#include "index.h"

static bool is_none(Type *t) { return t->kind == TY_NONE; }

/* the layout of a view: C survives leading integers, then one step-less
** slice, then full slices (None axes have length 1 and change nothing) */
char infer_index_layout(Type *base, Node **items, Type **itys, int nitems) {
  if (base->layout != 'C') return 'A';
  char layout = 'C';
  bool seen_slice = false;
  for (int i = 0; i < nitems; i++) {
    Node *x = items[i];
    if (itys && itys[i] && is_none(itys[i])) continue;
    if (x->kind != ND_Slice) {
      if (seen_slice) layout = 'A';
      continue;
    }
    bool full = !x->lower && !x->upper && !x->step;
    if (x->step || (seen_slice && !full)) layout = 'A';
    seen_slice = true;
  }
  return layout;
}

/* what an array index selects: the axes it covers; errors for what Numba refuses */
static int array_index(Infer *I, Node *x, Type *t, IndexPlan *p, int item) {
  Compile *C = I->C;
  if (p->adv >= 0)
    compile_error(C, x->loc, "TypingError",
                  "only one index array or mask is supported per subscript (Numba's rule), and this is the second");
  if (dtype_kinds[t->dtype] == 'f')
    compile_error(C, x->loc, "TypingError", "array indices must be integers or booleans, not %s", tyname(C, t));
  p->adv = item;
  if (t->dtype == DT_BOOL) {
    if (t->ndim == 0) compile_error(C, x->loc, "TypingError", "a 0-d mask cannot index an array");
    p->mask = true;
    p->advk = t->ndim;
  } else {
    if (t->ndim != 1)
      compile_error(C, x->loc, "TypingError", "index arrays must be 1-dimensional (Numba's rule), not %s", tyname(C, t));
    p->advk = 1;
  }
  return p->advk;
}

Type *infer_index_plan(Infer *I, Node *n, Type *base, Node **items, Type **itys, int nitems) {
  Compile *C = I->C;
  if (C->opt.lua)
    compile_error(C, n->loc, "UnsupportedError", "index arrays, masks and None in subscripts are not supported in Lua-syntax functions");
  IndexPlan *p = arena_alloc(C->A, sizeof *p);
  *p = (IndexPlan){.adv = -1};
  int consumed = 0, vnd = 0;
  for (int i = 0; i < nitems; i++) {
    Type *t = itys[i];
    if (items[i]->kind == ND_Slice) {
      consumed++;
      vnd++;
    } else if (is_none(t)) {
      vnd++;
    } else if (t->kind == TY_ARRAY) {
      p->vpos = vnd;
      p->axis = consumed;
      int k = array_index(I, items[i], t, p, i);
      consumed += k;
      vnd += k;
    } else {
      consumed++;
    }
  }
  if (consumed > base->ndim)
    compile_error(C, n->loc, "TypingError", "too many indices for array: array is %d-dimensional, but %d were indexed",
                  base->ndim, consumed);
  vnd += base->ndim - consumed;
  p->vndim = vnd;
  if (vnd > LM_MAXDIM) compile_error(C, n->loc, "TypingError", "arrays have at most %d dimensions", LM_MAXDIM);
  Type *rt;
  if (p->adv < 0) {
    rt = ty_array(&C->S->types, base->dtype, vnd, infer_index_layout(base, items, itys, nitems));
  } else {
    /* NumPy: integers beside an array index are advanced indices too; when
    ** they all sit together the selection takes their place, else it goes first */
    int first = -1, last = -1;
    for (int i = 0; i < nitems; i++)
      if (items[i]->kind != ND_Slice && !is_none(itys[i])) {
        if (first < 0) first = i;
        last = i;
      }
    bool together = true;
    for (int i = first; i <= last; i++)
      if (items[i]->kind == ND_Slice || is_none(itys[i])) together = false;
    p->rpos = 0;
    if (together)
      for (int i = 0; i < first; i++) p->rpos++;  /* slices and None before it: one result axis each */
    rt = ty_array(&C->S->types, base->dtype, vnd - p->advk + 1, 'C');
  }
  infer_ann(I, n)->aux = p;
  return rt;
}
