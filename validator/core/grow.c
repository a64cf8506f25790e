/* grow.c - doubling arrays. */
#include "grow.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int grow_one(void *items_ptr, size_t *cap, size_t count, size_t elem, size_t first)
{
  if (count < *cap)
    return 0;
  if (count == SIZE_MAX)
    return -1;
  return grow_to(items_ptr, cap, count + 1, elem, first);
}

int grow_to(void *items_ptr, size_t *cap, size_t need, size_t elem, size_t first)
{
  void *items, *p;
  size_t ncap = *cap ? *cap : first ? first : 1;
  if (need <= *cap)
    return 0;
  while (ncap < need) {
    if (ncap > SIZE_MAX / 2)
      return -1;
    ncap *= 2;
  }
  if (!elem || ncap > SIZE_MAX / elem)
    return -1;
  memcpy(&items, items_ptr, sizeof items); /* the caller's pointer has its own type */
  p = realloc(items, ncap * elem);
  if (!p)
    return -1;
  memcpy(items_ptr, &p, sizeof p);
  *cap = ncap;
  return 0;
}

void grow_one_or_abort(void *items_ptr, size_t *cap, size_t count, size_t elem, size_t first)
{
  if (grow_one(items_ptr, cap, count, elem, first) < 0)
    oom_exit();
}

/* _Exit, not exit: what the run held is abandoned on purpose, and a partial report left in a
 * stdio buffer must not be flushed out as if it were one (nor may a leak checker at exit call
 * the abandoned state a leak). */
void oom_exit(void)
{
  fputs("mdlcheck: out of memory; stopped without a report\n", stderr);
  fflush(stderr);
  _Exit(70);
}

void *alloc_or_exit(size_t size, int zero)
{
  void *p = zero ? calloc(size ? size : 1, 1) : malloc(size ? size : 1);
  if (!p)
    oom_exit();
  return p;
}
