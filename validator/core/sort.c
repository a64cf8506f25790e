/* sort.c - stable merge sort of u32 index arrays with a context argument. */
#include "sort.h"

#include <stdlib.h>

#include <string.h>

int sort_u32(uint32_t *v, size_t n, sort_u32_cmp cmp, const void *ctx)
{
  uint32_t *tmp, *src = v, *dst;
  if (n < 2)
    return 0;
  tmp = malloc(n * sizeof *tmp);
  if (!tmp)
    return -1;
  dst = tmp;
  /* bottom-up: runs of width w merged pairwise from src into dst */
  for (size_t w = 1; w < n; w *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * w) {
      size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        dst[k++] = cmp(src[j], src[i], ctx) < 0 ? src[j++] : src[i++];
      while (i < mid)
        dst[k++] = src[i++];
      while (j < hi)
        dst[k++] = src[j++];
    }
    uint32_t *t = src;
    src = dst;
    dst = t;
  }
  if (src != v)
    memcpy(v, src, n * sizeof *v);
  free(tmp);
  return 0;
}
