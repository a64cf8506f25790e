/* shard.c - split a file selection over the N jobs of a CI matrix by a key every job agrees on. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "oom.h"
#include "shard.h"
#include "sort.h"

int shard_parse(const char *arg, unsigned *k, unsigned *n)
{
  char *end;
  unsigned long a, b;
  if (!arg || *arg < '0' || *arg > '9')
    return -1;
  errno = 0;
  a = strtoul(arg, &end, 10);
  if (errno || *end != '/' || end[1] < '0' || end[1] > '9')
    return -1;
  b = strtoul(end + 1, &end, 10);
  if (errno || *end || a < 1 || b < 1 || a > b || b > UINT32_MAX)
    return -1;
  *k = (unsigned)a;
  *n = (unsigned)b;
  return 0;
}

static int by_key(uint32_t x, uint32_t y, const void *ctx)
{
  const struct file_list *l = ctx;
  int c = strcmp(l->keys[x], l->keys[y]);
  return c ? c : strcmp(l->paths[x], l->paths[y]);
}

size_t shard_select(struct file_list *l, unsigned k, unsigned n)
{
  size_t total = l->count, kept = 0;
  uint32_t *rank = malloc((total ? total : 1) * sizeof *rank);
  unsigned char *mine = calloc(total ? total : 1, 1);
  l->elsewhere = malloc((total ? total : 1) * sizeof *l->elsewhere);
  if (!rank || !mine || !l->elsewhere || total > UINT32_MAX)
    oom_exit(); /* a selection's list; nothing sensible to report without memory */
  for (size_t i = 0; i < total; i++)
    rank[i] = (uint32_t)i;
  if (sort_u32(rank, total, by_key, l) < 0)
    oom_exit();
  for (size_t r = k - 1; r < total; r += n)
    mine[rank[r]] = 1;
  for (size_t i = 0; i < total; i++) {
    if (mine[i]) {
      if (l->members)
        l->members[kept] = l->members[i];
      l->paths[kept] = l->paths[i];
      l->keys[kept++] = l->keys[i];
    } else {
      l->elsewhere[l->nelsewhere++] = l->paths[i];
      free(l->keys[i]);
    }
  }
  l->count = kept;
  free(rank);
  free(mine);
  return total;
}
