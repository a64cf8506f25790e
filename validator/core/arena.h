/* arena.h - a bump allocator for one decode: everything is freed at once. */
#ifndef MDL_ARENA_H
#define MDL_ARENA_H

#include <stddef.h>

struct arena_block;
struct arena_owned;
struct arena_lazy;
struct mem_bound;

struct arena {
  struct arena_block *head;
  struct arena_block *big; /* large requests' pages (arena.c), NULL when none yet */
  struct arena_owned *owned; /* blocks malloc'd elsewhere and handed over (arena_own) */
  size_t used_total;
  /* the decode's memory bound (mem_bound.h), or NULL: each new block, large request and
   * regrowth is charged to it, and one it refuses fails as an allocation that failed */
  struct mem_bound *bound;
  /* set by a decoder whose arena_alloc_lazy tables are sized by upper bounds far above what it
   * writes (IQE's per-line tables): their pages are charged as they are written, measured by
   * arena_bound_check, instead of in full when reserved */
  int lazy_resident;
  struct arena_lazy *lazy; /* those tables, when lazy_resident */
  int failed; /* an allocation failed: whatever needed it is incomplete (the pipeline reports
                 MDL-MEM-001 for the model's arena, a decoder checks its own scratch arenas) */
};

void arena_init(struct arena *a);
void arena_free(struct arena *a);
/* Zeroed memory for count * size bytes (overflow checked), or NULL. */
void *arena_calloc(struct arena *a, size_t count, size_t size);
/* As arena_calloc, not zeroed: a table sized by an upper bound costs memory only as far as it
 * is written (a large request is a block of its own, whose untouched pages the system never
 * hands out). The caller reads only what it wrote. The bound is charged the whole request
 * unless the arena is lazy_resident (then what is written: arena_bound_check). */
void *arena_alloc_lazy(struct arena *a, size_t count, size_t size);
char *arena_strndup(struct arena *a, const char *s, size_t n);
/* A block of its own that keeps its contents as it grows (a table that must stay in one piece):
 * p is NULL or what an earlier call gave; the bytes past the old size are not zeroed. NULL when
 * out of memory, p then still valid and still the arena's. */
void *arena_regrow(struct arena *a, void *p, size_t size);
/* Free, before the rest of the arena, a block arena_regrow gave (p; NULL or one not found: no-op),
 * its charge given back to the bound: a decoder's table that only a writer reads, let go once no
 * writer will run (format.h, release_source). */
void arena_release(struct arena *a, void *p);
/* p, malloc'd by someone else, is freed with the arena: a large result (an inflated text) is
 * kept where it was made instead of copied. 0, or -1 when out of memory (p is then still the
 * caller's). */
int arena_own(struct arena *a, void *p);
/* Charge the bound what the lazy_resident tables have been written since the last call (the
 * pages the system handed out for them): the decoder calls it every few MiB of text and at its
 * end. 0, or -1 when the bound refused it (a->failed is set, as for an allocation). */
int arena_bound_check(struct arena *a);

#endif
