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

#endif
