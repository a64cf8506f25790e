/* egg_members.c - membership sums by (pool name, vertex), in egg_map's slot order, keeping no
 * key: the value that created each one names it. */
#include <stdlib.h>
#include <string.h>

#include "egg.h"
#include "egg_map.h"
#include "egg_members.h"
#include "mem_bound.h"

void egg_members_init(struct egg_members *t, const struct egg_node *root, unsigned long *failures,
                      struct mem_bound *bound)
{
  memset(t, 0, sizeof *t);
  t->root = root;
  t->failures = failures;
  t->bound = bound;
}

void egg_members_free(struct egg_members *t)
{
  mem_bound_release(t->bound, t->cap * sizeof *t->slots + t->ecap * (sizeof *t->ord + sizeof *t->sum) +
                                t->capruns * sizeof *t->runs);
  free(t->slots);
  free(t->ord);
  free(t->sum);
  free(t->runs);
  egg_members_init(t, t->root, t->failures, t->bound);
}

static int failed(struct egg_members *t)
{
  if (t->failures)
    (*t->failures)++;
  return -1;
}

const char *egg_vref_pool(const struct egg_node *vr, uint32_t *len)
{
  const struct egg_node *ref = NULL;
  for (const struct egg_node *c = egg_first(vr); c; c = egg_next(c))
    if (c->spec == S_REF)
      ref = c;
  *len = 0;
  return ref && egg_nvals(ref) ? egg_val_str(ref, 0, len) : NULL;
}

/* The key in a slot holding s: its number, and its pool's name (NULL when the caller needs none). */
static const struct egg_node *key_of(const struct egg_members *t, uint32_t s, int64_t *num,
                                     const char **pool, uint32_t *plen)
{
  uint32_t ord = t->by_ord ? s - 1 : t->ord[s - 1];
  size_t lo = 0, hi = t->nruns; /* the last run whose base is at most ord */
  const struct egg_node *vr;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (t->runs[mid].base <= ord)
      lo = mid;
    else
      hi = mid;
  }
  vr = t->root + t->runs[lo].vr;
  *num = egg_val_int(vr, ord - t->runs[lo].base);
  if (pool)
    *pool = egg_vref_pool(vr, plen);
  return vr;
}

static uint32_t *probe(const struct egg_members *t, const char *pool, uint32_t plen, int64_t num)
{
  size_t i = (size_t)egg_map_hash(pool, plen, 0, num) & (t->cap - 1);
  for (;; i = (i + 1) & (t->cap - 1)) {
    uint32_t *s = &t->slots[i], elen;
    const char *epool;
    int64_t enum_;
    if (!*s)
      return s;
    key_of(t, *s, &enum_, NULL, NULL);
    if (enum_ != num)
      continue;
    key_of(t, *s, &enum_, &epool, &elen);
    if (elen == plen && (!plen || epool == pool || !memcmp(epool, pool, plen)))
      return s;
  }
}

/* egg_map's growth: doubled from 64 when more than half full, the entries re-placed in the old
 * table's slot order (which fixes the new table's order) */
static int grow(struct egg_members *t)
{
  size_t ncap = t->cap ? t->cap * 2 : 64, ocap = t->cap;
  uint32_t *old = t->slots, *grown;
  if (ncap > UINT32_MAX || mem_bound_charge(t->bound, ncap * sizeof *grown) < 0)
    return failed(t);
  grown = calloc(ncap, sizeof *grown);
  if (!grown) {
    mem_bound_release(t->bound, ncap * sizeof *grown);
    return failed(t);
  }
  mem_bound_release(t->bound, ocap * sizeof *grown);
  t->slots = grown;
  t->cap = ncap;
  for (size_t i = 0; i < ocap; i++)
    if (old[i]) { /* keys are distinct: the first empty slot from its hash */
      const char *pool;
      uint32_t plen;
      int64_t num;
      size_t j;
      key_of(t, old[i], &num, &pool, &plen);
      j = (size_t)egg_map_hash(pool, plen, 0, num) & (ncap - 1);
      while (grown[j])
        j = (j + 1) & (ncap - 1);
      grown[j] = old[i];
    }
  free(old);
  return 0;
}

/* Room for one more entry (and run): the arrays grow by a quarter, not double (each is a few
 * bytes a key, the most of this table's memory). */
static int room(struct egg_members *t)
{
  if (!t->by_ord && t->count == t->ecap) {
    size_t ecap = t->ecap + t->ecap / 4 + 64, per = sizeof *t->ord + sizeof *t->sum;
    uint32_t *no;
    double *ns;
    if (ecap > UINT32_MAX || mem_bound_grow(t->bound, t->ecap * per, ecap * per) < 0)
      return failed(t);
    no = realloc(t->ord, ecap * sizeof *no);
    if (no)
      t->ord = no;
    ns = no ? realloc(t->sum, ecap * sizeof *ns) : NULL;
    if (!ns) {
      mem_bound_release(t->bound, (ecap - t->ecap) * per);
      return failed(t);
    }
    t->sum = ns;
    t->ecap = ecap;
  }
  if (t->nruns == t->capruns) {
    size_t capruns = t->capruns ? t->capruns * 2 : 16;
    struct members_run *nr;
    if (mem_bound_grow(t->bound, t->capruns * sizeof *nr, capruns * sizeof *nr) < 0)
      return failed(t);
    nr = realloc(t->runs, capruns * sizeof *nr);
    if (!nr) {
      mem_bound_release(t->bound, (capruns - t->capruns) * sizeof *nr);
      return failed(t);
    }
    t->runs = nr;
    t->capruns = capruns;
  }
  return 0;
}

void egg_members_next_vref(struct egg_members *t, const struct egg_node *vr)
{
  t->next += egg_nvals(vr);
}

int egg_members_key(struct egg_members *t, const struct egg_node *vr, const char *pool, uint32_t plen,
                    uint32_t i, double **sum)
{
  int64_t num = egg_val_int(vr, i);
  uint32_t *s, vix = (uint32_t)(vr - t->root);
  *sum = NULL;
  /* as egg_map's insert: the table grows before the lookup, found or not */
  if (t->broken || ((t->count + 1) * 2 > t->cap && grow(t) < 0))
    return -1;
  s = probe(t, pool, plen, num);
  if (!*s) {
    if (t->next + i >= UINT32_MAX || room(t) < 0)
      return -1;
    if (!t->nruns || t->root + t->runs[t->nruns - 1].vr != vr) {
      t->runs[t->nruns].base = (uint32_t)t->next;
      t->runs[t->nruns++].vr = vix;
    }
    if (t->by_ord) {
      *s = (uint32_t)(t->next + i + 1);
    } else {
      t->ord[t->count] = (uint32_t)(t->next + i);
      t->sum[t->count] = 0;
      *s = (uint32_t)(t->count + 1);
    }
    t->count++;
  }
  if (!t->by_ord)
    *sum = &t->sum[*s - 1];
  return 0;
}

int egg_members_entries(struct egg_members *t, double (*sum_of)(void *, const char *, uint32_t, int64_t),
                        void *ctx)
{
  size_t per = sizeof *t->ord + sizeof *t->sum, ecap = t->count ? t->count : 1, e = 0;
  if (!t->by_ord)
    return 0;
  if (mem_bound_charge(t->bound, ecap * per) < 0)
    goto fail;
  t->ord = malloc(ecap * sizeof *t->ord);
  t->sum = malloc(ecap * sizeof *t->sum);
  if (!t->ord || !t->sum) {
    free(t->ord);
    free(t->sum);
    t->ord = NULL;
    t->sum = NULL;
    mem_bound_release(t->bound, ecap * per);
    goto fail;
  }
  t->ecap = ecap;
  for (size_t i = 0; i < t->cap; i++)
    if (t->slots[i]) {
      const char *pool;
      uint32_t plen;
      int64_t num;
      key_of(t, t->slots[i], &num, &pool, &plen);
      t->ord[e] = t->slots[i] - 1;
      t->sum[e] = sum_of(ctx, pool, plen, num);
      t->slots[i] = (uint32_t)++e;
    }
  t->by_ord = 0;
  return 0;
fail:
  t->broken = 1;
  return failed(t);
}

int egg_members_slot(const struct egg_members *t, size_t i, double *sum, int64_t *num,
                     const struct egg_node **vr)
{
  if (i >= t->cap || !t->slots[i])
    return 0;
  *sum = t->by_ord ? 0 : t->sum[t->slots[i] - 1];
  *vr = key_of(t, t->slots[i], num, NULL, NULL);
  return 1;
}
