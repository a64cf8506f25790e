/* iqe_names.c - every name of an IQE file interned once: an id per distinct name (as a C string),
 * one copy of it in the model arena. */
#include <stdlib.h>
#include <string.h>

#include "iqe.h"

#define POOL_BLOCK 65536
#define POOL_SHORT 256

static uint32_t name_hash(const char *s, size_t len)
{
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < len; i++)
    h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

/* A NUL-terminated copy in the model arena: short names side by side in shared blocks (an arena
 * allocation rounds each up to 16 bytes). NULL when out of memory. */
static const char *name_copy(struct iqe_parser *p, const char *s, size_t len)
{
  struct iqe_names *n = &p->names;
  char *c;
  if (len >= POOL_SHORT)
    return arena_strndup(&p->m->arena, s, len);
  if (n->pool_left < len + 1) {
    n->pool = arena_alloc_lazy(&p->m->arena, POOL_BLOCK, 1);
    n->pool_left = n->pool ? POOL_BLOCK : 0;
    if (!n->pool)
      return NULL;
  }
  c = n->pool;
  memcpy(c, s, len);
  c[len] = 0;
  n->pool += len + 1;
  n->pool_left -= len + 1;
  return c;
}

/* Twice the slots, every id placed again. -1 when out of memory (the old table stays). */
static int slots_grow(struct iqe_names *n)
{
  uint32_t cap = n->slot_cap ? n->slot_cap * 2 : 64, *slot;
  if (cap < n->slot_cap || !(slot = calloc(cap, sizeof *slot)))
    return -1;
  for (uint32_t id = 0; id < n->n; id++) {
    uint32_t k = name_hash(n->v[id].s, n->v[id].len) & (cap - 1);
    while (slot[k])
      k = (k + 1) & (cap - 1);
    slot[k] = id + 1;
  }
  free(n->slot);
  n->slot = slot;
  n->slot_cap = cap;
  return 0;
}

uint32_t iqe_name_id(struct iqe_parser *p, const char *s, size_t len)
{
  struct iqe_names *n = &p->names;
  const char *nul = len ? memchr(s, 0, len) : NULL;
  uint32_t k, h;
  struct iqe_name *e;
  if (nul)
    len = (size_t)(nul - s); /* what every reader of the name sees */
  if (len > UINT32_MAX)
    len = UINT32_MAX; /* cannot happen: a line is shorter */
  if (n->n == 0) {
    /* id 0: "" */
    if (slots_grow(n) < 0 || (!n->v && !(n->v = malloc(16 * sizeof *n->v))))
      goto failed;
    n->cap = 16;
    n->v[0].s = "";
    n->v[0].len = 0;
    n->v[0].joints = 0;
    n->n = 1;
    n->slot[name_hash("", 0) & (n->slot_cap - 1)] = 1;
  }
  h = name_hash(s, len);
  for (k = h & (n->slot_cap - 1); n->slot[k]; k = (k + 1) & (n->slot_cap - 1)) {
    e = &n->v[n->slot[k] - 1];
    if (e->len == len && !memcmp(e->s, s, len))
      return n->slot[k] - 1;
  }
  if (n->n + 1 > n->slot_cap / 2) {
    if (slots_grow(n) < 0)
      goto failed;
    for (k = h & (n->slot_cap - 1); n->slot[k]; k = (k + 1) & (n->slot_cap - 1))
      ;
  }
  if (n->n == n->cap) {
    /* large blocks grow in place (realloc's remapping): no copy beside the old one */
    struct iqe_name *v = n->cap <= UINT32_MAX / 2 ? realloc(n->v, (size_t)n->cap * 2 * sizeof *v) : NULL;
    if (!v)
      goto failed;
    n->v = v;
    n->cap *= 2;
  }
  e = &n->v[n->n];
  if (!(e->s = name_copy(p, s, len)))
    return 0; /* the model arena remembers the failure: MDL-MEM-001 */
  e->len = (uint32_t)len;
  e->joints = 0;
  n->slot[k] = ++n->n;
  return n->n - 1;
failed:
  p->scratch.failed = 1;
  return 0;
}

void iqe_names_free(struct iqe_names *n)
{
  free(n->v);
  free(n->slot);
  memset(n, 0, sizeof *n);
}
