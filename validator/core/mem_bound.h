/* mem_bound.h - the most memory one decode's own structures may hold (--max-memory): growth
 * points charge what they add, and a charge past the limit fails as an allocation would. */
#ifndef MDL_MEM_BOUND_H
#define MDL_MEM_BOUND_H

#include <stddef.h>

#include "mdlcheck.h"

/* Per decode (decodes run on several threads at once), held by the pipeline and reached from
 * the decode's arenas (arena.bound). */
struct mem_bound {
  unsigned long long limit; /* bytes; 0: no bound */
  unsigned long long used;  /* bytes charged so far (what was added, never taken back) */
  unsigned long long text;  /* the texts the bound is for (an automatic one follows them) */
  unsigned per_byte;        /* an automatic bound: per_byte x text + 48 MiB */
  int automatic;            /* the limit follows the text: mem_bound_text moves it */
  int hit;                  /* a charge was refused: the decode stopped for the bound */
};

/* The bound options ask for over a text of text_size bytes: max_memory (MDL_MAX_MEMORY_AUTO:
 * 2 x the text + 48 MiB; MDL_MAX_MEMORY_NONE: none). */
void mem_bound_init(struct mem_bound *b, const mdl_options *options, size_t text_size);
/* The same for decodes that keep the whole model, every vertex's values (convert, fix, compare):
 * the automatic bound is MEM_BOUND_MODEL_PER_BYTE x the texts + 48 MiB: p3d_jack x 250, the
 * densest real file measured, needs 3.4 x its texts there, and a plain IQE mesh without normals
 * 4.7 x (the smoothed normals' tables; review of 244f370: at 4 x, compare refused an 8.6 MB one) */
void mem_bound_init_model(struct mem_bound *b, const mdl_options *options, size_t text_size);
#define MEM_BOUND_MODEL_PER_BYTE 8
/* A text counted as from bytes turned out to be to bytes (an .egg.pz's inflated text): an
 * automatic bound follows it. b may be NULL. */
void mem_bound_text(struct mem_bound *b, size_t from, size_t to);
/* One more text of n bytes joins the command (compare's second side, the bytes convert writes
 * and proves): an automatic bound grows by what it allows that text. b may be NULL. */
void mem_bound_add_text(struct mem_bound *b, size_t n);
/* n more bytes held: 0, or -1 when that passes the limit (hit is set, nothing is charged).
 * b may be NULL (no bound). */
int mem_bound_charge(struct mem_bound *b, size_t n);
/* As mem_bound_charge, for a table with a fallback that is charged itself (a check's arrays
 * before its map): a refusal does not stop the decode (hit is left as it was). */
int mem_bound_try(struct mem_bound *b, size_t n);
/* n bytes charged before are freed (a check's map as the check ends): no longer held. */
void mem_bound_release(struct mem_bound *b, size_t n);
/* Room for the same table grown from old_bytes to new_bytes: the growth is charged. */
int mem_bound_grow(struct mem_bound *b, size_t old_bytes, size_t new_bytes);

#endif
