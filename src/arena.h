/*
** arena.h — bump allocator for everything one compilation needs
** (tokens, AST, types under construction, names). Freed in one go.
*/
#ifndef arena_h
#define arena_h

#include "lm.h"

typedef struct ArenaChunk ArenaChunk;

typedef struct Arena {
  ArenaChunk *head;  // newest chunk, linked to older ones
  size_t total;      // bytes obtained from malloc, for limits and tests
  void (*oom)(void *ud);  // called when malloc fails (may longjmp); NULL: return NULL
  void *oom_ud;
  int nnodes;        // syntax nodes made here (ast_new): the next Node.id
} Arena;

void arena_init(Arena *a);
/* Zeroed memory, 16-byte aligned; NULL only when malloc fails. */
void *arena_alloc(Arena *a, size_t size);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);
void arena_free(Arena *a);

#endif
