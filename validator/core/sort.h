/* sort.h - a stable sort of index arrays with a context argument (qsort has none, and a
 * file-level global would make the comparator neither reentrant nor thread-safe). */
#ifndef MDL_SORT_H
#define MDL_SORT_H

#include <stddef.h>
#include <stdint.h>

typedef int (*sort_u32_cmp)(uint32_t x, uint32_t y, const void *ctx);

/* Sort v[0..n) by cmp (merge sort, stable). Return 0, or -1 when out of memory (v untouched). */
int sort_u32(uint32_t *v, size_t n, sort_u32_cmp cmp, const void *ctx);

#endif
