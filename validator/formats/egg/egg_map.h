/* egg_map.h - small open-addressing hash maps for the checks: names to nodes, and
 * (object, integer) pairs to numbers. Tables grow by doubling, never per element. */
#ifndef MDL_EGG_MAP_H
#define MDL_EGG_MAP_H

#include <stddef.h>
#include <stdint.h>

struct egg_map_ent {
  const char *key; /* NULL: empty slot */
  size_t len;
  uintptr_t obj;   /* pair keys: (obj, num) with key == "" */
  int64_t num;
  void *val;
  double sum;
};

/* The table holds 4-byte slots (1 + the entry's index, 0 when empty); the entries themselves
 * are packed in insertion order, so a sparse table costs little. */
struct egg_map {
  uint32_t *slots;
  struct egg_map_ent *ents;
  size_t cap, count, ecap;
  int oom;
  unsigned long *failures; /* the decode's count of failed allocations, or NULL */
};

/* failures: counted up on each allocation that fails, so the decode that owns the map (its
 * egg_doc) says it is incomplete wherever the map lived; NULL when nobody asks. Per decode, not
 * per process or thread: decodes run on several threads at once. */
void egg_map_init(struct egg_map *m, unsigned long *failures);
void egg_map_free(struct egg_map *m);
/* The entry for a string key, created (val NULL, sum 0) when absent; NULL only when out of
 * memory. An entry pointer stays valid until the next entry is created. */
struct egg_map_ent *egg_map_at(struct egg_map *m, const char *key, size_t len);
struct egg_map_ent *egg_map_find(const struct egg_map *m, const char *key, size_t len);
/* The entry for a (string, integer) key, created when absent. */
struct egg_map_ent *egg_map_named(struct egg_map *m, const char *key, size_t len, int64_t num);
/* The entry for a pair key, created when absent. */
struct egg_map_ent *egg_map_pair(struct egg_map *m, uintptr_t obj, int64_t num);
/* The entry for a pair key, or NULL when absent: a lookup creates nothing (a reference to an
 * undefined vertex, asked millions of times, must not grow the map). */
struct egg_map_ent *egg_map_pair_find(const struct egg_map *m, uintptr_t obj, int64_t num);
/* The entry in table slot i (i < cap), or NULL: the order of slots is the map's order. */
const struct egg_map_ent *egg_map_slot(const struct egg_map *m, size_t i);

#endif
