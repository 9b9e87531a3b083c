/*
** rt.h — the contract between compiled code and the C that calls it:
** the error record, status codes, and the 8-byte slot layout of the
** wrapper's arguments and results.
**
** Compiled functions never unwind: the inner function of a specialization
** is   i32 inner(LmErr *err, Ret *ret, args...)   and returns 0 or an
** LmErrKind; the dispatcher turns that into a Lua error. Its wrapper is
**   i32 wrap(LmErr *err, int64_t *ret_slots, int64_t *arg_slots)
** where a scalar takes one slot (int64, double bits, bool 0/1) and an array
** argument is a pointer to an ArrayStruct; an array result takes
** RT_ARRAY_SLOTS slots laid out as an ArrayStruct (its meminfo reference
** passes to the caller); a tuple result is its elements in order.
*/
#ifndef rt_h
#define rt_h

#include <stdint.h>
#include <stdio.h>

#include "array.h"

typedef enum LmErrKind {
  LMERR_OK = 0,
  LMERR_ZERODIV_INT,    /* ZeroDivisionError: integer division or modulo by zero */
  LMERR_ZERODIV_FLOAT,  /* ZeroDivisionError: division by zero */
  LMERR_INDEX,          /* IndexError: index I out of bounds for axis A with size S */
  LMERR_RAISE,          /* msg is "ValueError: text" (a user raise or failed assert) */
  LMERR_MEMORY,         /* MemoryError: msg */
  LMERR_VALUE,          /* ValueError: msg (runtime checks: negative dimensions...) */
  LMERR_SHAPES,         /* ValueError: msg, its k-th "%S" replaced by the tuple shapes[k] (broadcasting) */
  LMERR_VALUE_FMT,      /* ValueError: msg, each %I (%D: a dimension) in it replaced by the next of vals (lmerr_format) */
  LMERR_INTERRUPT,      /* KeyboardInterrupt: lumba_interrupt or Ctrl-C (interrupt.h) */
} LmErrKind;

#define LMERR_NSHAPES 3   /* shapes one error names at most (in-place: both operands and the output) */

typedef struct LmErr {
  int32_t kind;         // an LmErrKind
  int32_t axis;         // IndexError
  int64_t index;        // IndexError: the index as written
  int64_t size;         // IndexError
  const char *msg;      // RAISE/MEMORY/VALUE: constant text in the compiled module
  uint64_t stack_limit; // recursion guard: lowest frame address allowed (0: not known yet; stack.h)
  /* SHAPES only, written on the error path alone: the shapes the message names */
  int32_t ndims[LMERR_NSHAPES];
  int32_t pad_;
  int64_t shapes[LMERR_NSHAPES][LM_MAXDIM];
  int64_t vals[LM_MAXDIM + 2];  // VALUE_FMT: the numbers of the message (a reshape's size and shape)
  /* where it was raised, as a traceback line: "\n<chunk>:<line>:<col>: in <function>\n    <source line>",
  ** appended to the message; in Lua syntax "<chunk>:<line>: ", put before it (constant text of
  ** the compiled module; NULL: not known, or already part of msg) */
  const char *where;
} LmErr;

/* The exception record of a kernel compiled with debug=True: its last
** parameter points at one (zeroed); the first thread whose code fails claims
** it and writes what failed where (pipeline.c); the launcher reads it once
** the kernel has ended (kernel.c). err's msg and where are device addresses:
** the texts they name are copied into msg and where. */
typedef struct LmKernelExc {
  int32_t claimed;       // 0, then 1 once a thread wrote the record
  int32_t status;        // an LmErrKind
  int64_t tid[3], ctaid[3];
  LmErr err;
  char msg[256];
  char where[512];
} LmKernelExc;

/* msg of a VALUE_FMT error with its numbers in place of the %I's, as snprintf returns */
static inline int lmerr_format(const LmErr *e, char *buf, size_t cap) {
  size_t n = 0;
  int k = 0;
  const char *m = e->msg ? e->msg : "";
  for (; *m && n + 1 < cap; m++) {
    if (m[0] == '%' && (m[1] == 'I' || m[1] == 'D') && k < (int)(sizeof e->vals / sizeof e->vals[0])) {
      /* %D: a dimension of a shape as NumPy prints it, an unknown one (-1) as "newaxis" */
      long long v = (long long)e->vals[k++];
      int w = m[1] == 'D' && v < 0 ? snprintf(buf + n, cap - n, "newaxis") : snprintf(buf + n, cap - n, "%lld", v);
      n += w > 0 ? (size_t)w : 0;
      if (n >= cap) n = cap - 1;
      m++;
    } else {
      buf[n++] = *m;
    }
  }
  if (cap) buf[n < cap ? n : cap - 1] = 0;
  return (int)n;
}

#define RT_ARRAY_SLOTS ((int)(sizeof(ArrayStruct) / 8))

#endif
