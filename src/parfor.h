/*
** parfor.h — the parallel-loop analysis (Numba's parfor pass), run by the
** pipeline after inference and before lowering. For every prange loop of
** every specialization it records what the loop is and what the lowering
** must do with it (a ParLoop); lower_parallel.c lowers exactly that, and
** :parallel_diagnostics() is written from the same records.
*/
#ifndef parfor_h
#define parfor_h

#include "compile.h"

/* what an outer local is to a parallel loop */
typedef enum ParRole {
  PAR_SHARED,     // captured by value: scalars read, arrays shared (their elements may be written)
  PAR_REDUCTION,  // updated only by its reduction: each worker has a partial, combined after the loop
  PAR_PRIVATE,    // assigned in the body: private to each iteration, unreadable after the loop
} ParRole;

/* where each worker's partial starts: the operator's identity for the local's type */
typedef enum ParInit {
  PAR_INIT_ZERO,  // +
  PAR_INIT_ONE,   // *
  PAR_INIT_MAX,   // min: +inf, or the integer type's largest value
  PAR_INIT_MIN,   // max: -inf, or the integer type's smallest value
} ParInit;

typedef struct ParReduction {
  int slot;       // the local
  char op;        // '+' (+= -=), '*' (*= /=), 'm' (x = min(x, ...)), 'M' (max)
  ParInit init;
} ParReduction;

/* One prange loop of one specialization. */
typedef struct ParLoop {
  Node *loop;               // the For node
  const char *serial;       // NULL: it runs on the thread pool; else why it runs serially
  /* a parallel loop only: */
  int index;                // slot of the loop variable
  Node *start, *stop, *step;  // prange(stop) / prange(start, stop[, step]): start NULL is 0, step NULL is 1
  unsigned char *role;      // per local of the spec: ParRole
  ParReduction *reds;       // the reductions, in slot order
  int nred;
  const signed char *sizes; // per local: 1 when it only ever holds a size, so the body may assume it >= 0
  struct ParLoop *next;     // the spec's next prange loop in source order (an outer loop before its inner ones)
} ParLoop;

/* The pass: fills spec->parloops for every spec of C (C->specs) and writes
** C->pardiag from the records. Raises on a prange loop it cannot run in
** parallel (else clause, return, break, mixed reduction operators, a
** reduction read in the body). */
void parfor_run(Compile *C);

/* appends one line to :parallel_diagnostics() (the lowering reports its array loops) */
void parfor_diag(Compile *C, const char *line);

/* the record of loop s of spec, or NULL when s is no prange loop */
ParLoop *parfor_find(FuncSpec *spec, Node *s);

#endif
