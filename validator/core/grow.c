/* grow.c - doubling arrays. */
#include "grow.h"

#include <stdint.h>
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
