/* shard.h - --shard=K/N: the share of a selection one job of a CI matrix validates. */
#ifndef MDL_SHARD_H
#define MDL_SHARD_H

#include "batch.h"

/* Parse "K/N" (1 <= K <= N, decimal, nothing else). Return 0, or -1 when malformed. */
int shard_parse(const char *arg, unsigned *k, unsigned *n);
/* Keep in l only shard k of n, in l's order: the files ranked by their key (then path) are
 * dealt round robin, so the N shards are disjoint, cover l, and differ in size by at most
 * one, whatever order the walk met them in. The others move to l->elsewhere (an external egg
 * among them is validated by its own shard, not again by the shard of a model naming it).
 * Return the number of files of the whole selection (before the split). */
size_t shard_select(struct file_list *l, unsigned k, unsigned n);

#endif
