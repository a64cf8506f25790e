/* egg_map.c - open addressing with linear probing; FNV-1a over the key. */
#include <stdlib.h>
#include <string.h>

#include "egg.h"
#include "egg_map.h"
#include "mem_bound.h"

static const char pair_key[] = "";

void egg_map_init(struct egg_map *m, unsigned long *failures, struct mem_bound *bound)
{
  memset(m, 0, sizeof *m);
  m->failures = failures;
  m->bound = bound;
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
  struct mem_bound *bound = m->bound;
  mem_bound_release(bound, m->cap * sizeof *m->slots + m->ecap * sizeof *m->ents);
  free(m->slots);
  free(m->ents);
  memset(m, 0, sizeof *m);
  m->failures = failures;
  m->bound = bound;
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

uint64_t egg_map_hash(const char *key, size_t len, uintptr_t obj, int64_t num)
{
  return hash_of(key, len, obj, num);
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
  if (ncap > UINT32_MAX || mem_bound_charge(m->bound, ncap * sizeof *m->slots) < 0) {
    failed(m);
    return -1;
  }
  m->slots = calloc(ncap, sizeof *m->slots);
  if (!m->slots) {
    m->slots = old;
    mem_bound_release(m->bound, ncap * sizeof *m->slots);
    failed(m);
    return -1;
  }
  mem_bound_release(m->bound, ocap * sizeof *m->slots);
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
    struct egg_map_ent *ne;
    if (mem_bound_grow(m->bound, m->ecap * sizeof *ne, ecap * sizeof *ne) < 0) {
      failed(m);
      return NULL;
    }
    ne = realloc(m->ents, ecap * sizeof *ne);
    if (!ne) {
      mem_bound_release(m->bound, (ecap - m->ecap) * sizeof *ne);
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

struct egg_map_ent *egg_map_named_find(const struct egg_map *m, const char *key, size_t len, int64_t num)
{
  uint32_t *s;
  if (!m->cap)
    return NULL;
  s = probe(m, key ? key : pair_key, len, 0, num);
  return *s ? &m->ents[*s - 1] : NULL;
}

const struct egg_map_ent *egg_map_slot(const struct egg_map *m, size_t i)
{
  return i < m->cap && m->slots[i] ? &m->ents[m->slots[i] - 1] : NULL;
}

void egg_names_init(struct egg_names *m, const struct egg_node *root, unsigned long *failures,
                    struct mem_bound *bound)
{
  memset(m, 0, sizeof *m);
  m->root = root;
  m->tree = root ? egg_tree_of(root) : NULL;
  m->failures = failures;
  m->bound = bound;
}

void egg_names_init_values(struct egg_names *m, const struct egg_node *root, unsigned long *failures,
                           struct mem_bound *bound)
{
  egg_names_init(m, root, failures, bound);
  m->by_value = 1;
}

void egg_names_free(struct egg_names *m)
{
  mem_bound_release(m->bound, m->cap * sizeof *m->slots);
  free(m->slots);
  m->slots = NULL;
  m->cap = m->count = 0;
}

/* egg_name of entry ix, read through the tree's header (no walk up to the root). */
static const char *names_key(const struct egg_names *m, uint32_t ix, uint32_t *len)
{
  const struct egg_node *n = m->root + ix;
  const char *s = NULL;
  if (m->by_value) {
    if (!egg_nvals(n))
      s = NULL;
    else if (n->vform == VF_WORD || n->vform == VF_QSTR)
      s = m->tree->strs + egg_str_v_in(m->tree, n);
    else
      return egg_val_str(n, 0, len);
  } else if (n->has_name) {
    uint32_t f = n->name_ix ? EGG_NAME_ELIDED : egg_col_get(m->tree->names, ix);
    s = f == EGG_NAME_ELIDED ? egg_name_elided : f ? m->tree->strs + f : NULL;
  }
  *len = s ? egg_str_len(s) : 0;
  return s;
}

static size_t names_hash(const char *key, size_t len)
{
  return (size_t)hash_of(key, len, 0, 0);
}

/* The slot holding the name, or the empty one where it belongs. */
static uint32_t *names_probe(const struct egg_names *m, const char *key, size_t len)
{
  size_t i = names_hash(key, len) & (m->cap - 1);
  for (;; i = (i + 1) & (m->cap - 1)) {
    uint32_t *s = &m->slots[i], klen;
    const char *k;
    if (!*s)
      return s;
    k = names_key(m, *s - 1, &klen);
    if (k && klen == len && (!len || !memcmp(k, key, len)))
      return s;
  }
}

const struct egg_node *egg_names_find(const struct egg_names *m, const char *key, size_t len)
{
  uint32_t *s;
  if (!m->cap)
    return NULL;
  s = names_probe(m, key ? key : pair_key, len);
  return *s ? m->root + (*s - 1) : NULL;
}

int egg_names_set(struct egg_names *m, const struct egg_node *n, const struct egg_node **prev)
{
  uint32_t len, ix = (uint32_t)(n - m->root);
  const char *key = names_key(m, ix, &len);
  uint32_t *s;
  *prev = NULL;
  if (!key)
    return 0;
  /* filled to three quarters at most: 4 bytes a slot, 5.3 to 11 bytes a name */
  if ((m->count + 1) * 4 > m->cap * 3) {
    size_t ncap = m->cap ? m->cap * 2 : 64;
    uint32_t *old = m->slots, *grown = NULL;
    size_t ocap = m->cap;
    if (ncap <= UINT32_MAX && mem_bound_charge(m->bound, ncap * sizeof *grown) == 0 &&
        !(grown = calloc(ncap, sizeof *grown)))
      mem_bound_release(m->bound, ncap * sizeof *grown);
    if (!grown) {
      if (m->failures)
        (*m->failures)++;
      return -1;
    }
    mem_bound_release(m->bound, ocap * sizeof *grown);
    m->slots = grown;
    m->cap = ncap;
    for (size_t i = 0; i < ocap; i++)
      if (old[i]) { /* names are distinct: the first empty slot from its hash */
        uint32_t klen;
        const char *k = names_key(m, old[i] - 1, &klen);
        size_t j = names_hash(k, klen) & (ncap - 1);
        while (grown[j])
          j = (j + 1) & (ncap - 1);
        grown[j] = old[i];
      }
    free(old);
  }
  s = names_probe(m, key, len);
  if (*s)
    *prev = m->root + (*s - 1);
  else
    m->count++;
  *s = ix + 1;
  return 0;
}
