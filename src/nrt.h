/*
** nrt.h — the reference-counted owner of array memory (Numba's NRT
** MemInfo). Lua-side ndarrays, views and arrays made inside compiled code
** all hold references to one MemInfo; the last release frees the buffer.
** These functions are also called by compiled code (absolute JIT symbols).
*/
#ifndef nrt_h
#define nrt_h

#include <stdatomic.h>

#include "lm.h"

typedef void (*MemInfoDtor)(void *data, void *ud);

typedef struct MemInfo {
  _Atomic int64_t refct;  // references held (Lua userdata, views, compiled code)
  void *data;             // the buffer
  size_t size;            // bytes in the buffer
  MemInfoDtor dtor;       // releases data (NULL: it was allocated with the MemInfo)
  void *dtor_ud;
} MemInfo;

#define NRT_ALIGN 64  /* buffers are cache-line aligned: vector loads never split */

/* New owner with refct 1 and a zeroed, aligned buffer; NULL when out of memory. */
MemInfo *nrt_alloc(size_t size);
/* The same with the buffer's bytes undefined: only for a result every
** element of which is written before anything reads it. */
MemInfo *nrt_alloc_uninit(size_t size);
/* Wrap foreign memory (a host program's buffer); dtor runs at the last release. */
MemInfo *nrt_wrap(void *data, size_t size, MemInfoDtor dtor, void *ud);
void nrt_incref(MemInfo *mi);  /* NULL is ignored */
void nrt_decref(MemInfo *mi);  /* NULL is ignored */
/* Live MemInfos in this process, for leak tests. */
int64_t nrt_live(void);
int64_t nrt_made(void);  /* MemInfos made since the start (live or not) */

#endif
