/* oom.c - out of memory in the tool's own work (its options, batches, baselines, the reports it
 * writes): exit 70. */
#include "oom.h"

#include <stdio.h>
#include <stdlib.h>

#include "grow.h"

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
