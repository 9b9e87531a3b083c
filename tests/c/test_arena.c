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
  TEST_END();
}
