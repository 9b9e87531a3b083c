/*
** nrt.c — reference-counted buffers shared by Lua and compiled code.
** Counts are atomic because parallel loops may take and drop references.
*/
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "nrt.h"

/* A process-wide statistic, not state: reads never affect behaviour. */
static _Atomic int64_t live_count;
static _Atomic int64_t made_count;  /* every MemInfo ever made: tests count a loop's allocations */

/* Buffers of NRT_LAZY bytes and more come from calloc, which maps fresh
** zero pages without touching them: zeros(2^31) costs no memory until it is
** written, where a memset would fault in every page and could bring the
** OOM killer. The header is then separate, and its dtor frees the block. */
#define NRT_LAZY ((size_t)1 << 20)

static void free_block(void *data, void *block) {
  (void)data;
  free(block);
}

/* Buffers of 4 MiB and more may use transparent huge pages (NumPy's policy:
** where THP is set to "madvise", as on Debian, only asked-for memory gets
** them). Streaming through a large array then takes 512 times fewer TLB
** entries: vector add over 10^7 float32 ran 3% faster, the 2048^2 stencil
** 2.4%. LUMBA_HUGEPAGES=0 turns it off (memory written sparsely then costs
** 4 KiB per touched page, not 2 MiB). */
#define NRT_HUGE ((size_t)4 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)

static void advise_huge(void *block, size_t size) {
  const char *v = getenv("LUMBA_HUGEPAGES");
  if (v && strcmp(v, "0") == 0) return;
  uintptr_t a = ((uintptr_t)block + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
  uintptr_t e = ((uintptr_t)block + size) & ~(HUGE_PAGE - 1);
  if (e > a) (void)madvise((void *)a, e - a, MADV_HUGEPAGE);  /* advice: failure changes nothing */
}

static MemInfo *alloc_lazy(size_t size, bool zero) {
  if (size > SIZE_MAX - NRT_ALIGN) return NULL;
  MemInfo *mi = malloc(sizeof(MemInfo));
  void *block = mi ? (zero ? calloc(1, size + NRT_ALIGN - 1) : malloc(size + NRT_ALIGN - 1)) : NULL;
  if (block == NULL) {
    free(mi);
    return NULL;
  }
  if (size >= NRT_HUGE) advise_huge(block, size + NRT_ALIGN - 1);
  atomic_init(&mi->refct, 1);
  mi->data = (void *)(((uintptr_t)block + NRT_ALIGN - 1) & ~(uintptr_t)(NRT_ALIGN - 1));
  mi->size = size;
  mi->dtor = free_block;
  mi->dtor_ud = block;
  atomic_fetch_add(&live_count, 1);
  atomic_fetch_add(&made_count, 1);
  return mi;
}

/* Freed buffers of middling size wait here for the next allocation of the
** same size. Array code allocates one result per expression and call, and
** Lua frees them in bursts when the collector runs: glibc then trims the
** top of its heap and the next allocations fault every page in again
** (an 800 KB result cost 1.1 ms per call, 35 us with the pages kept).
** Numba frees each at once (refcounts) and reuses the same chunk. The
** cache is bounded (CACHE_BYTES in all, exact sizes, newest first), holds
** only buffers nrt_alloc made, and is shared by all threads (parallel
** loops release references too), so a mutex guards it. Buffers up to 64 MiB
** (one 2048^2 float64 array is 32 MiB; glibc maps each such block afresh)
** qualify: a @stencil result per sweep of the 2048^2 bench row went from
** 1.7 s to 0.8 s for 100 sweeps; the 64 MiB bound on the whole stays. */
#define CACHE_MIN ((size_t)32 << 10)
#define CACHE_MAX ((size_t)64 << 20)
#define CACHE_BYTES ((size_t)64 << 20)
#define CACHE_SLOTS 32

static struct {
  pthread_mutex_t mu;
  MemInfo *slot[CACHE_SLOTS];
  int n;
  size_t bytes;
} cache = {PTHREAD_MUTEX_INITIALIZER, {NULL}, 0, 0};

static bool cacheable(const MemInfo *mi) {
  return mi->size >= CACHE_MIN && mi->size <= CACHE_MAX && (mi->dtor == NULL || mi->dtor == free_block);
}

static MemInfo *cache_take(size_t size, bool zero) {
  MemInfo *mi = NULL;
  pthread_mutex_lock(&cache.mu);
  for (int i = cache.n - 1; i >= 0; i--)
    if (cache.slot[i]->size == size) {
      mi = cache.slot[i];
      memmove(&cache.slot[i], &cache.slot[i + 1], sizeof(MemInfo *) * (size_t)(cache.n - 1 - i));
      cache.n--;
      cache.bytes -= size;
      break;
    }
  pthread_mutex_unlock(&cache.mu);
  if (mi == NULL) return NULL;
  atomic_init(&mi->refct, 1);
  if (zero) memset(mi->data, 0, size);
  atomic_fetch_add(&live_count, 1);
  return mi;
}

/* the cache keeps mi; the oldest entries make room */
static void cache_put(MemInfo *mi) {
  MemInfo *evict[CACHE_SLOTS];
  int ne = 0;
  pthread_mutex_lock(&cache.mu);
  while (cache.n > 0 && (cache.n == CACHE_SLOTS || cache.bytes + mi->size > CACHE_BYTES)) {
    evict[ne++] = cache.slot[0];
    cache.bytes -= cache.slot[0]->size;
    memmove(&cache.slot[0], &cache.slot[1], sizeof(MemInfo *) * (size_t)(cache.n - 1));
    cache.n--;
  }
  cache.slot[cache.n++] = mi;
  cache.bytes += mi->size;
  pthread_mutex_unlock(&cache.mu);
  for (int i = 0; i < ne; i++) {
    if (evict[i]->dtor) evict[i]->dtor(evict[i]->data, evict[i]->dtor_ud);
    free(evict[i]);
  }
}

static MemInfo *alloc(size_t size, bool zero) {
  if (size >= CACHE_MIN && size <= CACHE_MAX) {
    MemInfo *mi = cache_take(size, zero);
    if (mi) return mi;
  }
  if (size >= NRT_LAZY) return alloc_lazy(size, zero);
  size_t body = (sizeof(MemInfo) + NRT_ALIGN - 1) & ~(size_t)(NRT_ALIGN - 1);
  if (size > SIZE_MAX - body - NRT_ALIGN) return NULL;
  size_t total = (body + size + NRT_ALIGN - 1) & ~(size_t)(NRT_ALIGN - 1);
  MemInfo *mi = aligned_alloc(NRT_ALIGN, total);
  if (mi == NULL) return NULL;
  atomic_init(&mi->refct, 1);
  mi->data = (char *)mi + body;
  mi->size = size;
  mi->dtor = NULL;
  mi->dtor_ud = NULL;
  if (zero) memset(mi->data, 0, size);
  atomic_fetch_add(&live_count, 1);
  atomic_fetch_add(&made_count, 1);
  return mi;
}

MemInfo *nrt_alloc(size_t size) {
  return alloc(size, true);
}

/* The zero fill is a full extra pass over the result for array expressions
** and copies, which then write every element anyway. */
MemInfo *nrt_alloc_uninit(size_t size) {
  return alloc(size, false);
}

MemInfo *nrt_wrap(void *data, size_t size, MemInfoDtor dtor, void *ud) {
  MemInfo *mi = malloc(sizeof(MemInfo));
  if (mi == NULL) return NULL;
  atomic_init(&mi->refct, 1);
  mi->data = data;
  mi->size = size;
  mi->dtor = dtor;
  mi->dtor_ud = ud;
  atomic_fetch_add(&live_count, 1);
  atomic_fetch_add(&made_count, 1);
  return mi;
}

void nrt_incref(MemInfo *mi) {
  if (mi) atomic_fetch_add_explicit(&mi->refct, 1, memory_order_relaxed);
}

void nrt_decref(MemInfo *mi) {
  if (mi == NULL) return;
  if (atomic_fetch_sub_explicit(&mi->refct, 1, memory_order_acq_rel) != 1) return;
  atomic_fetch_sub(&live_count, 1);
  if (cacheable(mi)) {
    cache_put(mi);
    return;
  }
  if (mi->dtor) mi->dtor(mi->data, mi->dtor_ud);
  free(mi);
}

int64_t nrt_live(void) {
  return atomic_load(&live_count);
}

int64_t nrt_made(void) {
  return atomic_load(&made_count);
}
