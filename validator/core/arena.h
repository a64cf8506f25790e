/* arena.h - a bump allocator for one decode: everything is freed at once. */
#ifndef MDL_ARENA_H
#define MDL_ARENA_H

#include <stddef.h>

struct arena_block;

struct arena {
  struct arena_block *head;
  size_t used_total;
  int failed; /* an allocation failed: whatever needed it is incomplete (the pipeline reports
                 MDL-MEM-001 for the model's arena, a decoder checks its own scratch arenas) */
};

void arena_init(struct arena *a);
void arena_free(struct arena *a);
/* Zeroed memory for count * size bytes (overflow checked), or NULL. */
void *arena_calloc(struct arena *a, size_t count, size_t size);
char *arena_strndup(struct arena *a, const char *s, size_t n);

#endif
