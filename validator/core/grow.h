/* grow.h - room for one more element in a doubling array (the one growth rule every list in
 * the core and the CLI shares). */
#ifndef MDL_GROW_H
#define MDL_GROW_H

#include <stddef.h>

/* items_ptr points to the array pointer (e.g. &list->items). Make room for element `count`
 * (capacity doubles, starting at `first`). Return 0, or -1 when out of memory, leaving the
 * array as it was. */
int grow_one(void *items_ptr, size_t *cap, size_t count, size_t elem, size_t first);
/* Room for `need` elements (capacity doubles from `first` until it holds them, overflow
 * checked). The array pointer and *cap change together or not at all, so no caller can keep a
 * freed block with a grown capacity: the pattern behind the Egg builder's use-after-free. */
int grow_to(void *items_ptr, size_t *cap, size_t need, size_t elem, size_t first);
/* The same for reporting paths where nothing could recover from running out of memory. */
void grow_one_or_abort(void *items_ptr, size_t *cap, size_t count, size_t elem, size_t first);
/* Out of memory where no diagnostic can carry it (collecting or writing a report, reading a
 * baseline): say so on stderr and exit 70, the internal-error code. A report that lost a
 * diagnostic must never be printed as if it were complete. */
void oom_exit(void) __attribute__((noreturn));
/* malloc (zero: calloc) for work whose partial result would read as an answer (a comparison
 * that skipped a part would read as a match): out of memory ends the run through oom_exit. */
void *alloc_or_exit(size_t size, int zero);

#endif
