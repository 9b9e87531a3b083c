/*
** arena.c — bump allocator in chunks. Compilations allocate freely and
** release everything at the end, whether they succeeded or raised.
*/
#include <string.h>

#include "arena.h"

#define ARENA_CHUNK 65536

struct ArenaChunk {
  ArenaChunk *next;  // older chunk
  size_t used, cap;  // bytes used / available in data
  _Alignas(16) unsigned char data[];
};

void arena_init(Arena *a) {
  a->head = NULL;
  a->total = 0;
  a->oom = NULL;
  a->oom_ud = NULL;
}

void *arena_alloc(Arena *a, size_t size) {
  size = (size + 15) & ~(size_t)15;
  ArenaChunk *c = a->head;
  if (c == NULL || c->cap - c->used < size) {
    size_t cap = size > ARENA_CHUNK ? size : ARENA_CHUNK;
    c = malloc(sizeof(ArenaChunk) + cap);
    if (c == NULL) {
      if (a->oom) a->oom(a->oom_ud);
      return NULL;
    }
    c->next = a->head;
    c->used = 0;
    c->cap = cap;
    a->head = c;
    a->total += cap;
  }
  void *p = c->data + c->used;
  c->used += size;
  memset(p, 0, size);
  return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n) {
  char *p = arena_alloc(a, n + 1);
  if (p == NULL) return NULL;
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *arena_strdup(Arena *a, const char *s) {
  return arena_strndup(a, s, strlen(s));
}

void arena_free(Arena *a) {
  ArenaChunk *c = a->head;
  while (c != NULL) {
    ArenaChunk *next = c->next;
    free(c);
    c = next;
  }
  a->head = NULL;
  a->total = 0;
}
