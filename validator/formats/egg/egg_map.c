/* egg_map.c - open addressing with linear probing; FNV-1a over the key. */
#include <stdlib.h>
#include <string.h>

#include "egg_map.h"

static const char pair_key[] = "";

void egg_map_init(struct egg_map *m, unsigned long *failures)
{
  memset(m, 0, sizeof *m);
  m->failures = failures;
}

static void failed(struct egg_map *m)
{
  m->oom = 1;
  if (m->failures)
    (*m->failures)++;
}

void egg_map_free(struct egg_map *m)
{
  unsigned long *failures = m->failures;
  free(m->slots);
  free(m->ents);
  memset(m, 0, sizeof *m);
  m->failures = failures;
}

static uint64_t hash_of(const char *key, size_t len, uintptr_t obj, int64_t num)
{
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < len; i++)
    h = (h ^ (unsigned char)key[i]) * 1099511628211ull;
  h = (h ^ (uint64_t)obj) * 1099511628211ull;
  h = (h ^ (uint64_t)num) * 1099511628211ull;
  return h ^ (h >> 29);
}

static int same(const struct egg_map_ent *e, const char *key, size_t len, uintptr_t obj, int64_t num)
{
  return e->len == len && e->obj == obj && e->num == num &&
         (e->key == key || (len && !memcmp(e->key, key, len)) || (!len && e->key[0] == key[0]));
}

/* The slot holding the key, or the empty slot where it belongs. */
static uint32_t *probe(const struct egg_map *m, const char *key, size_t len, uintptr_t obj, int64_t num)
{
  size_t i = (size_t)hash_of(key, len, obj, num) & (m->cap - 1);
  for (;;) {
    uint32_t *s = &m->slots[i];
    if (!*s || same(&m->ents[*s - 1], key, len, obj, num))
      return s;
    i = (i + 1) & (m->cap - 1);
  }
}

static int grow(struct egg_map *m)
{
  size_t ncap = m->cap ? m->cap * 2 : 64;
  uint32_t *old = m->slots;
  size_t ocap = m->cap;
  if (ncap > UINT32_MAX) {
    failed(m);
    return -1;
  }
  m->slots = calloc(ncap, sizeof *m->slots);
  if (!m->slots) {
    m->slots = old;
    failed(m);
    return -1;
  }
  m->cap = ncap;
  /* re-placed in the old table's slot order, which fixes the new table's order */
  for (size_t i = 0; i < ocap; i++)
    if (old[i]) {
      const struct egg_map_ent *e = &m->ents[old[i] - 1];
      *probe(m, e->key, e->len, e->obj, e->num) = old[i];
    }
  free(old);
  return 0;
}

static struct egg_map_ent *insert(struct egg_map *m, const char *key, size_t len, uintptr_t obj, int64_t num)
{
  uint32_t *s;
  struct egg_map_ent *e;
  if ((m->count + 1) * 2 > m->cap && grow(m) < 0)
    return NULL;
  s = probe(m, key, len, obj, num);
  if (*s)
    return &m->ents[*s - 1];
  if (m->count == m->ecap) {
    size_t ecap = m->ecap ? m->ecap * 2 : 32;
    struct egg_map_ent *ne = realloc(m->ents, ecap * sizeof *ne);
    if (!ne) {
      failed(m);
      return NULL;
    }
    m->ents = ne;
    m->ecap = ecap;
  }
  e = &m->ents[m->count];
  e->key = key;
  e->len = len;
  e->obj = obj;
  e->num = num;
  e->val = NULL;
  e->sum = 0;
  *s = (uint32_t)++m->count;
  return e;
}

struct egg_map_ent *egg_map_at(struct egg_map *m, const char *key, size_t len)
{
  return insert(m, key ? key : pair_key, len, 0, 0);
}

struct egg_map_ent *egg_map_find(const struct egg_map *m, const char *key, size_t len)
{
  uint32_t *s;
  if (!m->cap)
    return NULL;
  s = probe(m, key ? key : pair_key, len, 0, 0);
  return *s ? &m->ents[*s - 1] : NULL;
}

struct egg_map_ent *egg_map_pair(struct egg_map *m, uintptr_t obj, int64_t num)
{
  return insert(m, pair_key, 0, obj, num);
}

struct egg_map_ent *egg_map_pair_find(const struct egg_map *m, uintptr_t obj, int64_t num)
{
  uint32_t *s;
  if (!m->cap)
    return NULL;
  s = probe(m, pair_key, 0, obj, num);
  return *s ? &m->ents[*s - 1] : NULL;
}

struct egg_map_ent *egg_map_named(struct egg_map *m, const char *key, size_t len, int64_t num)
{
  return insert(m, key ? key : pair_key, len, 0, num);
}

const struct egg_map_ent *egg_map_slot(const struct egg_map *m, size_t i)
{
  return i < m->cap && m->slots[i] ? &m->ents[m->slots[i] - 1] : NULL;
}
