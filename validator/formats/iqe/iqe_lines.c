/* iqe_lines.c - the line numbers of an attribute array's elements, a byte each: a file of `vp`
 * lines (3 bytes each) kept 4 bytes a line for them alone. */
#include <stdlib.h>

#include "iqe.h"

int iqe_lines_put(struct iqe_lines *l, uint32_t k, uint32_t line)
{
  uint32_t d = line - l->last;
  l->last = line;
  if (k % IQE_LINES_MARK == 0) {
    l->mark[k / IQE_LINES_MARK] = line;
    return 0;
  }
  if (d < 255) {
    l->step[k] = (uint8_t)d;
    return 0;
  }
  /* far from the one before: 255 bytes of text or more for 8 bytes here */
  if (l->num_far == l->far_cap) {
    uint32_t cap = l->far_cap ? l->far_cap * 2 : 16;
    struct iqe_far_line *far = cap > l->far_cap ? realloc(l->far, (size_t)cap * sizeof *far) : NULL;
    if (!far)
      return -1;
    l->far = far;
    l->far_cap = cap;
  }
  l->far[l->num_far].k = k;
  l->far[l->num_far].line = line;
  l->num_far++;
  l->step[k] = 255;
  return 0;
}

static uint32_t far_line(const struct iqe_lines *l, uint32_t k)
{
  uint32_t lo = 0, hi = l->num_far;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (l->far[mid].k < k)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < l->num_far && l->far[lo].k == k ? l->far[lo].line : 0; /* 0: cannot happen */
}

/* The line of element j from that of element j - 1 */
static uint32_t step(const struct iqe_lines *l, uint32_t j, uint32_t line)
{
  return l->step[j] == 255 ? far_line(l, j) : line + l->step[j];
}

uint32_t iqe_lines_get(const struct iqe_lines *l, uint32_t k)
{
  uint32_t j = k / IQE_LINES_MARK * IQE_LINES_MARK, line = l->mark[k / IQE_LINES_MARK];
  while (j < k)
    line = step(l, ++j, line);
  return line;
}

uint32_t iqe_lines_before(const struct iqe_lines *l, uint32_t n, uint32_t line)
{
  /* the marks before `line`, then the steps of the last one's block */
  uint32_t lo = 0, hi = n ? (n - 1) / IQE_LINES_MARK + 1 : 0, j, at;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (l->mark[mid] < line)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0)
    return 0;
  j = (lo - 1) * IQE_LINES_MARK;
  at = l->mark[lo - 1];
  while (j + 1 < n && (j + 1) % IQE_LINES_MARK && (at = step(l, j + 1, at)) < line)
    j++;
  return j + 1;
}
