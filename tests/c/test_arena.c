#include <string.h>

#include "arena.h"
#include "nrt.h"
#include "test.h"

int main(void) {
  Arena a;
  arena_init(&a);
  char *p = arena_alloc(&a, 10);
  ASSERT(0, (uintptr_t)p % 16);
  ASSERT(0, p[9]);
  /* a request larger than a chunk gets its own chunk */
  char *big = arena_alloc(&a, 1 << 20);
  ASSERT(1, big != NULL);
  big[(1 << 20) - 1] = 7;
  ASSERT_STR("hello", arena_strndup(&a, "hello world", 5));
  arena_free(&a);
  ASSERT(0, a.total);

  int64_t live = nrt_live();
  MemInfo *mi = nrt_alloc(100);
  ASSERT(0, (uintptr_t)mi->data % NRT_ALIGN);
  ASSERT(live + 1, nrt_live());
  nrt_incref(mi);
  nrt_decref(mi);
  ASSERT(live + 1, nrt_live());
  nrt_decref(mi);
  ASSERT(live, nrt_live());

  /* a freed buffer of middling size is reused by the next allocation of its
  ** size, and comes back zeroed, aligned and counted as live again */
  for (size_t size = 40000; size <= (size_t)3 << 20; size *= 9) {
    MemInfo *m1 = nrt_alloc(size);
    memset(m1->data, 0x5a, size);
    void *data = m1->data;
    nrt_decref(m1);
    ASSERT(live, nrt_live());
    MemInfo *m2 = nrt_alloc(size);
    ASSERT(1, m2->data == data);
    ASSERT(0, (uintptr_t)m2->data % NRT_ALIGN);
    ASSERT(1, ((unsigned char *)m2->data)[0] == 0 && ((unsigned char *)m2->data)[size - 1] == 0);
    ASSERT(size, m2->size);
    ASSERT(live + 1, nrt_live());
    nrt_decref(m2);
  }
  /* more than the cache holds: the oldest go back to malloc (valgrind and
  ** ASan see no leak), every size still right */
  MemInfo *many[80];
  for (int i = 0; i < 80; i++) many[i] = nrt_alloc((size_t)(33 + i % 7) << 10);
  for (int i = 0; i < 80; i++) nrt_decref(many[i]);
  for (int i = 0; i < 80; i++) {
    many[i] = nrt_alloc((size_t)(33 + i % 5) << 10);
    ASSERT((size_t)(33 + i % 5) << 10, many[i]->size);
  }
  for (int i = 0; i < 80; i++) nrt_decref(many[i]);
  ASSERT(live, nrt_live());
  TEST_END();
}
