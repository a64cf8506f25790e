/* egg_map.h - small open-addressing hash maps for the checks: names to nodes, and
 * (object, integer) pairs to numbers. Tables grow by doubling, never per element. */
#ifndef MDL_EGG_MAP_H
#define MDL_EGG_MAP_H

#include <stddef.h>
#include <stdint.h>

struct mem_bound;

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
  struct mem_bound *bound; /* the decode's --max-memory, or NULL: tables charged as they grow */
};

/* failures: counted up on each allocation that fails, so the decode that owns the map (its
 * egg_doc) says it is incomplete wherever the map lived; NULL when nobody asks. Per decode, not
 * per process or thread: decodes run on several threads at once. */
void egg_map_init(struct egg_map *m, unsigned long *failures, struct mem_bound *bound);
void egg_map_free(struct egg_map *m);
/* The entry for a string key, created (val NULL, sum 0) when absent; NULL only when out of
 * memory. An entry pointer stays valid until the next entry is created. */
struct egg_map_ent *egg_map_at(struct egg_map *m, const char *key, size_t len);
struct egg_map_ent *egg_map_find(const struct egg_map *m, const char *key, size_t len);
/* The entry for a (string, integer) key, created when absent. */
struct egg_map_ent *egg_map_named(struct egg_map *m, const char *key, size_t len, int64_t num);
/* The entry for a (string, integer) key, or NULL when absent (creates nothing). */
struct egg_map_ent *egg_map_named_find(const struct egg_map *m, const char *key, size_t len, int64_t num);
/* The entry for a pair key, created when absent. */
struct egg_map_ent *egg_map_pair(struct egg_map *m, uintptr_t obj, int64_t num);
/* The entry for a pair key, or NULL when absent: a lookup creates nothing (a reference to an
 * undefined vertex, asked millions of times, must not grow the map). */
struct egg_map_ent *egg_map_pair_find(const struct egg_map *m, uintptr_t obj, int64_t num);
/* The entry in table slot i (i < cap), or NULL: the order of slots is the map's order. */
const struct egg_map_ent *egg_map_slot(const struct egg_map *m, size_t i);

/* The hash a key's slot is found from (egg_members keeps the same order without the entries). */
uint64_t egg_map_hash(const char *key, size_t len, uintptr_t obj, int64_t num);

/* Entries of one tree by their header name (egg_name): a slot holds the entry's place in the
 * tree + 1, 4 bytes; the name is read from the tree (issue 26: an egg_map entry is 48 bytes and
 * its slots, for a `<Group> a%d{}` of 14). */
struct egg_node;
struct egg_tree_hdr;
struct egg_names {
  uint32_t *slots;
  size_t cap, count;
  const struct egg_node *root;
  const struct egg_tree_hdr *tree;
  unsigned long *failures; /* as egg_map's */
  struct mem_bound *bound;  /* as egg_map's */
  int by_value;             /* keyed by the entry's first value (a string), not its name */
};

void egg_names_init(struct egg_names *m, const struct egg_node *root, unsigned long *failures,
                    struct mem_bound *bound);
/* The same, keyed by each entry's first value when it is a string (a <Ref>'s pool name): a set
 * of the names references give at 4 bytes a slot, not an egg_map entry of 48 (issue 26). */
void egg_names_init_values(struct egg_names *m, const struct egg_node *root, unsigned long *failures,
                           struct mem_bound *bound);
void egg_names_free(struct egg_names *m);
/* The entry of the name key (len bytes), or NULL. */
const struct egg_node *egg_names_find(const struct egg_names *m, const char *key, size_t len);
/* n (which has a name) becomes the entry of its name; *prev the one it replaces, NULL when none.
 * 0, or -1 out of memory (counted in failures; nothing changed). */
int egg_names_set(struct egg_names *m, const struct egg_node *n, const struct egg_node **prev);

#endif
