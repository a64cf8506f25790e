/* egg_map.c - open addressing with linear probing; FNV-1a over the key. */
#include <stdlib.h>
#include <string.h>

#include "egg_map.h"

static const char pair_key[] = "";

void egg_map_init(struct egg_map *m)
{
  memset(m, 0, sizeof *m);
}

void egg_map_free(struct egg_map *m)
{
  free(m->ents);
  memset(m, 0, sizeof *m);
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

static struct egg_map_ent *probe(const struct egg_map *m, const char *key, size_t len,
                                 uintptr_t obj, int64_t num)
{
  size_t i = (size_t)hash_of(key, len, obj, num) & (m->cap - 1);
  for (;;) {
    struct egg_map_ent *e = &m->ents[i];
    if (!e->key || same(e, key, len, obj, num))
      return e;
    i = (i + 1) & (m->cap - 1);
  }
}

static int grow(struct egg_map *m)
{
  size_t ncap = m->cap ? m->cap * 2 : 64;
  struct egg_map_ent *old = m->ents;
  size_t ocap = m->cap;
  m->ents = calloc(ncap, sizeof *m->ents);
  if (!m->ents) {
    m->ents = old;
    m->oom = 1;
    return -1;
  }
  m->cap = ncap;
  for (size_t i = 0; i < ocap; i++)
    if (old[i].key)
      *probe(m, old[i].key, old[i].len, old[i].obj, old[i].num) = old[i];
  free(old);
  return 0;
}

static struct egg_map_ent *insert(struct egg_map *m, const char *key, size_t len, uintptr_t obj, int64_t num)
{
  struct egg_map_ent *e;
  if ((m->count + 1) * 2 > m->cap && grow(m) < 0)
    return NULL;
  e = probe(m, key, len, obj, num);
  if (!e->key) {
    e->key = key;
    e->len = len;
    e->obj = obj;
    e->num = num;
    e->val = NULL;
    e->sum = 0;
    m->count++;
  }
  return e;
}

struct egg_map_ent *egg_map_at(struct egg_map *m, const char *key, size_t len)
{
  return insert(m, key ? key : pair_key, len, 0, 0);
}

struct egg_map_ent *egg_map_find(const struct egg_map *m, const char *key, size_t len)
{
  struct egg_map_ent *e;
  if (!m->cap)
    return NULL;
  e = probe(m, key ? key : pair_key, len, 0, 0);
  return e->key ? e : NULL;
}

struct egg_map_ent *egg_map_pair(struct egg_map *m, uintptr_t obj, int64_t num)
{
  return insert(m, pair_key, 0, obj, num);
}

struct egg_map_ent *egg_map_named(struct egg_map *m, const char *key, size_t len, int64_t num)
{
  return insert(m, key ? key : pair_key, len, 0, num);
}
