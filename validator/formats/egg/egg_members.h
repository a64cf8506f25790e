/* egg_members.h - the membership sums of (pool name, vertex) keys, in egg_map's order (the
 * order EGG-VTX-013 reports them in): the table's 4-byte slots, and 12 bytes a key unless the
 * caller keeps the sums. */
#ifndef MDL_EGG_MEMBERS_H
#define MDL_EGG_MEMBERS_H

#include <stddef.h>
#include <stdint.h>

struct egg_node;
struct mem_bound;

/* The <VertexRef> whose values created keys from ordinal `base` on (entry vr of the tree). */
struct members_run {
  uint32_t base;
  uint32_t vr;
};

/* An egg_map of (pool name, number) keys with the same hash, probing, growth and so slot order,
 * whose entries keep no key: a key is named by the ordinal of the value that created it (runs
 * give its <VertexRef>, whose values and <Ref> give the number and the pool name). An egg_map
 * entry is 48 bytes (issue 26: a joint <VertexRef> of a million vertices whose sums are off cost
 * 6 to 11 x its text). */
struct egg_members {
  uint32_t *slots; /* 1 + the entry's index (by_ord: 1 + the ordinal), 0 when empty */
  size_t cap, count, ecap;
  uint32_t *ord;   /* entry -> ordinal of the value that created it */
  double *sum;     /* entry -> the memberships added to it */
  struct members_run *runs;
  size_t nruns, capruns;
  uint64_t next;   /* ordinal of the current <VertexRef>'s first value */
  /* no entries: the caller keeps the sums (in arrays by vertex number, 8 bytes a vertex) */
  int by_ord;
  int broken;      /* leaving by_ord failed: no more keys */
  const struct egg_node *root;
  unsigned long *failures; /* as egg_map's */
  struct mem_bound *bound;
};

void egg_members_init(struct egg_members *t, const struct egg_node *root, unsigned long *failures,
                      struct mem_bound *bound);
void egg_members_free(struct egg_members *t);
/* The pool a <VertexRef> names (its last <Ref>'s first value, a string), or NULL. */
const char *egg_vref_pool(const struct egg_node *vr, uint32_t *len);
/* The key (the pool vr names, value i of vr), created when absent, as egg_map_named: 0 with
 * *sum its entry's sum (NULL when by_ord), or -1 out of memory (counted in failures; the rest of
 * vr's values are then skipped, as the map's replay did). Calls name vr's values in order, one
 * vr after another; egg_members_next_vref moves on to the next. */
int egg_members_key(struct egg_members *t, const struct egg_node *vr, const char *pool, uint32_t plen,
                    uint32_t i, double **sum);
/* Leave by_ord: an entry for each key, its sum sum_of(ctx, pool, plen, number); the slots'
 * order is kept. 0, or -1 out of memory (counted; the table stays by_ord, and takes no more). */
int egg_members_entries(struct egg_members *t, double (*sum_of)(void *, const char *, uint32_t, int64_t),
                        void *ctx);
void egg_members_next_vref(struct egg_members *t, const struct egg_node *vr);
/* The key in slot i (i < cap): 1 with its number, first <VertexRef> and, unless by_ord, sum; else 0. */
int egg_members_slot(const struct egg_members *t, size_t i, double *sum, int64_t *num,
                     const struct egg_node **vr);

#endif
