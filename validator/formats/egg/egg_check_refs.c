/* egg_check_refs.c - names and references (notes §5 C): textures, materials and groups resolve
 * backwards in file order (groups once closed); vertex pools and vertex numbers may be
 * forward references and are resolved at the end, as Panda3D's parser does. */
#include <stdlib.h>
#include <string.h>

#include "egg.h"
#include "egg_map.h"
#include "grow.h"
#include "mem_bound.h"

struct pool_info {
  /* the numbers (0..2147483647: larger ones are reported, not kept) as a bit set over
   * 0..nbits-1 when they are dense (the usual pool, numbered in file order), in the word itself
   * when nbits <= 64; else as a sorted list of count. 24 bytes, and none for a pool of up to 64
   * numbers: a pool_info of 48 bytes and a bit set block a pool were a fifth of the text of a
   * pool of 17 `<Vertex>{0}` (issue 26) */
  union {
    int32_t *index;
    uint64_t *bits;
    uint64_t word;
  } u;
  uint32_t count;
  uint32_t nbits;  /* 0: the list */
  uint32_t beyond; /* unnamed vertices numbered on past 2147483647 (2147483648 and up) */
  int kept;        /* numbered (pool_index); else out of memory, its references not checked */
};

static const uint64_t *bits_of(const struct pool_info *pi)
{
  return pi->nbits <= 64 ? &pi->u.word : pi->u.bits;
}

#define VREF_CHUNK 4096

/* The <VertexRef>s with a child (one without has no <Ref> to look at), as offsets from the
 * root: 4 bytes each, not a pointer's 8 (issue 26: a <VertexRef>{} of 13 bytes) */
struct vref_chunk {
  struct vref_chunk *next;
  size_t count;
  uint32_t node[VREF_CHUNK];
};

struct refs {
  struct egg_doc *doc;
  /* names to the entry last defined (a group: closed) under each (egg_names: 8 bytes a name) */
  struct egg_names textures, materials, groups, pools;
  struct egg_map inline_tex;
  /* the large pools references name (their places in the tree, ascending) and their numbers:
   * on the heap and let go when the checks end, before the area check indexes its own (they
   * were an arena block of 48 bytes, a bit set and a map entry of 48 a pool, held to the end) */
  uint32_t *refd;
  struct pool_info *infos;
  size_t nrefd;
  size_t charged; /* the infos' lists and bit sets, charged to --max-memory */
  /* group names closed more than once: name -> the node closed before the latest one */
  struct egg_names group_dups;
  /* the last name found (names only get defined, so a found name stays found) */
  const struct egg_names *found_map;
  const char *found;
  size_t found_len;
  /* the <VertexRef>s in file order, resolved at the end: chunks of the arena */
  struct vref_chunk *vrefs, *vrefs_last;
  int oom;
};

static const char *show_name(char *buf, size_t cap, const struct egg_node *n)
{
  if (!egg_name(n))
    return "(unnamed)";
  return egg_show(buf, cap, egg_name(n), egg_name_len(n));
}

static void define(struct refs *r, struct egg_names *map, struct egg_node *n, const char *kind)
{
  const struct egg_node *prev;
  char buf[96], what[160];
  if (!egg_name(n))
    return;
  if (egg_name_len(n) == 0) {
    snprintf(what, sizeof what, "%s", egg_specs[n->spec].what);
    egg_emit_val(r->doc, RULE_EGG_EMPTY_NAME, n, -1, NULL, "%s", what);
  }
  if (egg_names_set(map, n, &prev) < 0) {
    r->oom = 1;
    return;
  }
  if (prev) {
    snprintf(what, sizeof what, "%s name %s (first at line %u)", kind,
             show_name(buf, sizeof buf, n), egg_node_line(prev));
    egg_emit_node(r->doc, RULE_EGG_DUPLICATE_NAME, n, NULL, "%s", what);
  }
}

/* egg_val_str of value 0 of an entry with values, the usual lone word or quoted string read
 * from the doc's tree (egg_tree_of walks up to the root for it: once per polygon's <TRef> and
 * <Ref> is a good part of these checks). */
static const char *str0(const struct egg_doc *doc, const struct egg_node *n, uint32_t *len)
{
  if (n->vform == VF_WORD || n->vform == VF_QSTR) {
    const char *s = doc->tree->strs + egg_str_v_in(doc->tree, n);
    *len = egg_str_len(s);
    return s;
  }
  return egg_val_str(n, 0, len);
}

/* The first value of an entry when it is a string, else NULL. */
static const char *first_string(const struct egg_doc *doc, const struct egg_node *n, uint32_t *len)
{
  *len = 0;
  return egg_nvals(n) ? str0(doc, n, len) : NULL;
}

static void lookup(struct refs *r, struct egg_names *map, const struct egg_node *n, enum rule_index rule)
{
  const char *s;
  uint32_t slen;
  size_t len;
  char tmp[40], buf[96];
  if (!egg_nvals(n))
    return;
  s = str0(r->doc, n, &slen);
  len = slen;
  if (!s) {
    /* a numeric name: compare by the shortest text that reads back */
    snprintf(tmp, sizeof tmp, "%.17g", egg_val_d(n, 0));
    s = tmp;
    len = strlen(tmp);
  }
  if (map == r->found_map && s == r->found && len == r->found_len)
    return;
  if (!egg_names_find(map, s, len)) {
    egg_emit_val(r->doc, rule, n, 0, NULL, "%s", egg_show(buf, sizeof buf, s, len));
  } else if (s != tmp) {
    r->found_map = map;
    r->found = s;
    r->found_len = len;
  }
}

static int is_primitive(int spec)
{
  return spec == S_POLYGON || spec == S_PATCH || spec == S_TRIFAN || spec == S_TRISTRIP ||
         spec == S_POINTLIGHT || spec == S_LINE || spec == S_NURBS_S || spec == S_NURBS_C;
}

static void check_two_pools(struct refs *r, const struct egg_node *prim)
{
  const char *first = NULL, *s;
  uint32_t first_len = 0, len;
  char a[96], b[96], both[200];
  for (const struct egg_node *c = egg_first(prim); c; c = egg_next(c)) {
    const struct egg_node *ref;
    if (c->spec != S_VREF_PRIM)
      continue;
    for (ref = egg_first(c); ref && ref->spec != S_REF; ref = egg_next(ref))
      ;
    if (!ref || !(s = first_string(r->doc, ref, &len)))
      continue;
    if (!first) {
      first = s;
      first_len = len;
    } else if (len != first_len || memcmp(s, first, len)) {
      snprintf(both, sizeof both, "%s and %s", egg_show(a, sizeof a, first, first_len),
               egg_show(b, sizeof b, s, len));
      egg_emit_val(r->doc, RULE_EGG_TWO_POOLS, ref, 0, NULL, "%s", both);
      return;
    }
  }
}

static void inline_texture(struct refs *r, const struct egg_node *n)
{
  uint32_t len, plen;
  const char *s = first_string(r->doc, n, &len), *base;
  struct egg_map_ent *e;
  char buf[96];
  if (!s)
    return;
  base = s;
  for (uint32_t i = 0; i < len; i++)
    if (s[i] == '/' || s[i] == '\\')
      base = s + i + 1;
  e = egg_map_at(&r->inline_tex, base, (size_t)(s + len - base));
  if (!e)
    return;
  if (e->val) {
    const char *prev = first_string(r->doc, e->val, &plen);
    if (plen != len || memcmp(prev, s, len))
      egg_emit_val(r->doc, RULE_EGG_INLINE_TEXTURE_CLASH, n, 0, NULL, "%s", egg_show(buf, sizeof buf, s, len));
  } else {
    e->val = (void *)(uintptr_t)n;
  }
}

/* An <Instance>'s <Ref> to a name that two closed groups carry: Panda3D takes the last one
 * closed, which may not be the one the author meant (notes §5 C2). */
static void ambiguous_ref(struct refs *r, const struct egg_node *ref)
{
  uint32_t len;
  const char *s = first_string(r->doc, ref, &len);
  const struct egg_node *d, *g;
  char buf[96], what[200];
  if (!s || !(d = egg_names_find(&r->group_dups, s, len)) ||
      !(g = egg_names_find(&r->groups, s, len)))
    return;
  snprintf(what, sizeof what, "%s (groups at lines %u and %u)", egg_show(buf, sizeof buf, s, len),
           egg_node_line(d), egg_node_line(g));
  egg_emit_val(r->doc, RULE_EGG_DUPLICATE_GROUP_NAME, ref, 0, NULL, "%s", what);
}

static void visit(struct egg_node *n, int leaving, void *user)
{
  struct refs *r = user;
  char buf[96];
  if (leaving) {
    /* only an <Instance>'s <Ref> looks group names up: without one, none is kept */
    if ((n->spec == S_GROUP || n->spec == S_INSTANCE) && egg_name(n) && r->doc->spec_count[S_INSTANCE]) {
      const struct egg_node *prev, *older;
      if (egg_names_set(&r->groups, n, &prev) < 0) {
        r->oom = 1;
        return;
      }
      /* only a <Ref> after both closings is ambiguous: it is judged there */
      if (prev && egg_names_set(&r->group_dups, prev, &older) < 0) {
        r->oom = 1;
        return;
      }
    }
    if (is_primitive(n->spec))
      check_two_pools(r, n);
    return;
  }
  switch (n->spec) {
  case S_TEXTURE: define(r, &r->textures, n, "texture"); break;
  case S_MATERIAL: define(r, &r->materials, n, "material"); break;
  case S_VPOOL: define(r, &r->pools, n, "vertex pool"); break;
  case S_TREF: lookup(r, &r->textures, n, RULE_EGG_UNKNOWN_TEXTURE); break;
  case S_MREF: lookup(r, &r->materials, n, RULE_EGG_UNKNOWN_MATERIAL); break;
  case S_TEXTURE_INLINE: inline_texture(r, n); break;
  case S_REF:
    if (egg_parent(n)->spec == S_VREF_GROUP || egg_parent(n)->spec == S_VREF_PRIM)
      break;
    if (egg_parent(n)->spec != S_INSTANCE) {
      uint32_t len;
      const char *s = first_string(r->doc, n, &len);
      egg_emit_node(r->doc, RULE_EGG_REF_OUTSIDE_INSTANCE, n, NULL, "%s",
               s ? egg_show(buf, sizeof buf, s, len) : "");
    } else {
      lookup(r, &r->groups, n, RULE_EGG_UNKNOWN_GROUP);
      ambiguous_ref(r, n);
    }
    break;
  case S_VREF_GROUP:
  case S_VREF_PRIM:
    if (!egg_first(n))
      break;
    if (!r->vrefs_last || r->vrefs_last->count == VREF_CHUNK) {
      struct vref_chunk *c = arena_calloc(r->doc->arena, 1, sizeof *c);
      if (!c) {
        r->oom = 1;
        return;
      }
      if (r->vrefs_last)
        r->vrefs_last->next = c;
      else
        r->vrefs = c;
      r->vrefs_last = c;
    }
    r->vrefs_last->node[r->vrefs_last->count++] = (uint32_t)(n - r->doc->root);
    break;
  default:
    break;
  }
}

static int cmp_i32(const void *a, const void *b)
{
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return x < y ? -1 : x > y;
}

static int cmp_u32(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* Set bit idx in a growing bit set (*bits, *nwords words): 0, or -1 when out of memory. 1 when
 * it was set already. */
static int bits_put(uint64_t **bits, size_t *nwords, int64_t idx)
{
  size_t w = (size_t)idx / 64;
  int was;
  if (w >= *nwords) {
    size_t n = *nwords ? *nwords : 64;
    uint64_t *grown;
    while (n <= w)
      n *= 2;
    grown = realloc(*bits, n * sizeof *grown);
    if (!grown)
      return -1;
    memset(grown + *nwords, 0, (n - *nwords) * sizeof *grown);
    *bits = grown;
    *nwords = n;
  }
  was = (int)((*bits)[w] >> (idx % 64) & 1);
  (*bits)[w] |= 1ull << (idx % 64);
  return was;
}

/* A zeroed array for the pool_infos or one's list or bit set (charged to --max-memory, freed at
 * the end of egg_check_refs), or NULL when out of memory or over the bound (counted: the decode
 * says its checks are incomplete). */
static void *info_alloc(struct refs *r, size_t n, size_t size)
{
  void *p;
  if (mem_bound_charge(egg_doc_bound(r->doc), n * size) < 0) {
    r->doc->map_failures++;
    return NULL;
  }
  if (!(p = calloc(n, size))) {
    mem_bound_release(egg_doc_bound(r->doc), n * size);
    r->doc->map_failures++;
    return NULL;
  }
  r->charged += n * size;
  return p;
}

/* A pool vertex's number as Panda3D gives it, into *num: its own, or one past the highest so far
 * (the first unnamed one: 1), counted in *highest and *any; -1 for a named number outside
 * 0..2147483647 (*num holds it; not counted: pool_index reports it). pool_index and
 * small_has_index number a pool the same way through it. */
static int vertex_number(const struct egg_node *v, int64_t *num, int64_t *highest, int *any)
{
  if (egg_name(v)) {
    *num = egg_index(v);
    if (*num < 0 || *num > 2147483647)
      return -1;
  } else {
    *num = *any ? *highest + 1 : 1;
  }
  if (!*any || *num > *highest)
    *highest = *num;
  *any = 1;
  return 0;
}

/* Number the vertices of a pool as Panda3D does (notes §5 D1) and check the numbers. The numbers
 * are kept as a bit set when they are dense (the usual pool, numbered in file order), as a sorted
 * list otherwise; the bit set is built as the vertices are numbered while they are dense so far,
 * the list by a second walk over the numbers the vertices now keep, so a pool of dense numbers
 * never also has a list of 4 bytes a vertex (issue 26: a <Vertex>{0} is 11 bytes). */
static struct pool_info *pool_index(struct refs *r, struct egg_node *pool, struct pool_info *kept)
{
  /* a pool no reference names (kept NULL) is numbered and checked, its numbers not kept: its
   * lists are the caller's stack and the heap's, let go here */
  struct pool_info local, *pi = kept ? kept : &local;
  int keep = kept != NULL;
  size_t k = 0, dups = 0, nwords = 0;
  int64_t highest = 0, top = -1;
  int any = 0, dense = 1;
  uint64_t *bits = NULL;
  memset(&local, 0, sizeof local);
  for (struct egg_node *v = egg_first(pool); v; v = egg_next(v)) {
    int64_t idx;
    if (v->spec != S_VERTEX)
      continue;
    if (vertex_number(v, &idx, &highest, &any) < 0) {
      if (idx < 0)
        egg_emit_val(r->doc, RULE_EGG_VERTEX_INDEX_NEGATIVE, v, -1, NULL, "%lld", (long long)idx);
      else
        egg_emit_val(r->doc, RULE_EGG_VERTEX_INDEX_INVALID, v, -1, "0..2147483647", "%lld", (long long)idx);
      continue;
    }
    egg_set_index(v, idx);
    if (idx > 2147483647) {
      pi->beyond++; /* consecutive from 2147483648: named ones that high were reported above */
      continue;
    }
    k++;
    if (idx > top)
      top = idx;
    /* + 64 bits of slack, not 4096: a kept bit set of 512 bytes for a one-vertex pool numbered
     * 4000 was 12 x its text (review A); past it the sorted list costs 8 bytes a vertex */
    if (dense && top < (int64_t)(64 * k + 64)) {
      int was = bits_put(&bits, &nwords, idx);
      if (was < 0) { /* reported as a check that could not allocate (egg_decode) */
        r->doc->map_failures++;
        free(bits);
        return NULL;
      }
      dups += (size_t)was;
    } else if (dense) {
      dense = 0; /* sparse so far: the list, from the numbers kept (below) */
    }
  }
  if (k && dense && keep) {
    size_t words = (size_t)(top + 64) / 64;
    if (words == 1) {
      pi->u.word = bits[0];
    } else if ((pi->u.bits = info_alloc(r, words, sizeof *pi->u.bits)) != NULL) {
      memcpy(pi->u.bits, bits, words * sizeof *pi->u.bits);
    } else {
      free(bits);
      return NULL; /* (counted by info_alloc) */
    }
    pi->nbits = (uint32_t)top + 1;
  }
  free(bits);
  if (k && !dense) {
    /* the vertices keep their numbers (egg_set_index): the list from them, the same ones */
    size_t i = 0;
    int sorted = 1;
    int32_t *index = keep ? info_alloc(r, k, sizeof *index) : calloc(k, sizeof *index);
    if (!index) {
      if (!keep) /* reported as a check that could not allocate (egg_decode) */
        r->doc->map_failures++;
      return NULL; /* (info_alloc counted its failure) */
    }
    for (struct egg_node *v = egg_first(pool); v && i < k; v = egg_next(v)) {
      int64_t idx = v->spec == S_VERTEX ? egg_index(v) : -1;
      if (idx < 0 || idx > 2147483647)
        continue;
      sorted &= !i || index[i - 1] <= idx;
      index[i++] = (int32_t)idx;
    }
    /* pools are mostly numbered in file order: then qsort's scratch copy is not needed either */
    if (!sorted)
      qsort(index, k, sizeof *index, cmp_i32);
    for (size_t j = 1; j < k; j++)
      dups += index[j] == index[j - 1];
    if (!keep) {
      free(index);
    } else if (index[k - 1] < (int64_t)(64 * k + 4096)) {
      /* dense after all (a high number first, many after it): the bit set, not the list */
      size_t words = (size_t)index[k - 1] / 64 + 1;
      uint64_t *set = words == 1 ? &pi->u.word : info_alloc(r, words, sizeof *set);
      if (set) {
        pi->u.word = 0;
        if (words > 1)
          pi->u.bits = set;
        for (size_t j = 0; j < k; j++)
          set[index[j] / 64] |= 1ull << (index[j] % 64);
        pi->nbits = (uint32_t)index[k - 1] + 1;
        free(index);
        mem_bound_release(egg_doc_bound(r->doc), k * sizeof *index);
        r->charged -= k * sizeof *index;
      } else {
        pi->u.index = index;
        pi->count = (uint32_t)k;
      }
    } else {
      pi->u.index = index;
      pi->count = (uint32_t)k;
    }
  }
  /* duplicates: report each at the later vertex in file order */
  if (k > 1) {
    if (dups) {
      struct egg_map seen;
      egg_map_init(&seen, &r->doc->map_failures, egg_doc_bound(r->doc));
      for (struct egg_node *v = egg_first(pool); v; v = egg_next(v)) {
        struct egg_map_ent *e;
        if (v->spec != S_VERTEX || egg_index(v) < 0 || egg_index(v) > 2147483647)
          continue;
        e = egg_map_pair(&seen, (uintptr_t)pool, egg_index(v));
        if (!e)
          break;
        if (e->val)
          egg_emit_node(r->doc, RULE_EGG_DUPLICATE_VERTEX, v, NULL, "%lld",
                   (long long)egg_index(v));
        e->val = v;
      }
      egg_map_free(&seen);
    }
  }
  if (!keep)
    return NULL;
  pi->kept = 1;
  return kept;
}

/* The pool_info of large pool (a place in the tree) a reference names, or NULL. */
static struct pool_info *info_of(const struct refs *r, uint32_t pool)
{
  size_t lo = 0, hi = r->nrefd;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (r->refd[mid] < pool)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < r->nrefd && r->refd[lo] == pool && r->infos[lo].kept ? &r->infos[lo] : NULL;
}

static int has_index(const struct pool_info *pi, int64_t idx)
{
  size_t lo = 0, hi = pi->count;
  if (idx > 2147483647)
    return idx - 2147483648 < pi->beyond;
  if (pi->nbits)
    return idx >= 0 && idx < pi->nbits && (bits_of(pi)[idx / 64] >> (idx % 64) & 1);
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (pi->u.index[mid] < idx)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < pi->count && pi->u.index[lo] == idx;
}

/* has_index for a small pool (egg_pool_small), which keeps no pool_info: its vertices numbered
 * again as pool_index numbers them (a named one out of range is reported there, not kept). */
static int small_has_index(const struct egg_node *pool, int64_t idx)
{
  int64_t highest = 0;
  int any = 0;
  for (const struct egg_node *v = egg_first(pool); v; v = egg_next(v)) {
    int64_t num;
    if (v->spec == S_VERTEX && vertex_number(v, &num, &highest, &any) == 0 && num == idx)
      return 1;
  }
  return 0;
}

/* What visit() looks at is in groups and primitives: not in pools, tables, transforms, nor
 * below a <VertexRef> (its <Ref> is read with it). */
static int vref_descend(const struct egg_node *n)
{
  return n->spec != S_VPOOL && n->spec != S_TABLE && n->spec != S_BUNDLE && n->spec != S_TRANSFORM &&
         n->spec != S_DEFAULTPOSE && n->spec != S_VREF_GROUP && n->spec != S_VREF_PRIM;
}

/* Global entries "should appear before they are referenced" (eggSyntax GLOBAL INFORMATION
 * ENTRIES); Panda3D resolves pools at the end, so a later pool works there: a warning, once per
 * pool, at its first reference. */
static void forward_pool(struct refs *r, struct egg_names *forwarded, const struct egg_node *pool,
                         const struct egg_node *ref, const char *ps, uint32_t plen)
{
  /* by the pool's name: a name finds one pool (the last of that name) */
  const struct egg_node *prev;
  char buf[96], what[160];
  if (egg_names_find(forwarded, ps, plen) || egg_names_set(forwarded, pool, &prev) < 0)
    return;
  snprintf(what, sizeof what, "%s (defined at line %u)", egg_show(buf, sizeof buf, ps, plen),
           egg_node_line(pool));
  egg_emit_val(r->doc, RULE_EGG_POOL_AFTER_REFERENCE, ref, 0, NULL, "%s", what);
}

static void resolve_vertex_refs(struct refs *r)
{
  /* the names reported (by the <Ref> that gave each), and the pools reported as defined after a
   * reference: 4-byte slots, not 48-byte map entries a name (issue 26: a million pools, each
   * named by one <Ref>, took 4.4 x their text) */
  struct egg_names reported, forwarded;
  char buf[96], what[256];
  /* consecutive references name the same pool (its name is one shared copy): look it up once */
  const char *last = NULL;
  uint32_t last_len = 0;
  const struct egg_node *pool = NULL, *prev;
  int done = 0; /* the name's reference was reported */
  struct pool_info *pi = NULL;
  int small = 0; /* the pool is small: no pool_info, its vertices read (small_has_index) */
  const struct vref_chunk *chunk = r->vrefs;
  size_t at = 0;
  egg_names_init_values(&reported, r->doc->root, &r->doc->map_failures, egg_doc_bound(r->doc));
  egg_names_init(&forwarded, r->doc->root, &r->doc->map_failures, egg_doc_bound(r->doc));
  while (chunk) {
    struct egg_node *vr, *ref;
    struct egg_numv nv;
    int plain;
    const char *ps;
    uint32_t plen;
    size_t missing = 0;
    if (at == chunk->count) {
      chunk = chunk->next;
      at = 0;
      continue;
    }
    vr = r->doc->root + chunk->node[at++];
    for (ref = egg_first(vr); ref && ref->spec != S_REF; ref = egg_next(ref))
      ;
    if (!ref || !(ps = first_string(r->doc, ref, &plen)))
      continue;
    if (ps != last || plen != last_len) {
      pool = egg_names_find(&r->pools, ps, plen);
      done = egg_names_find(&reported, ps, plen) != NULL;
      pi = NULL;
      small = pool && egg_first(pool) && egg_pool_small(pool);
      if (pool && egg_first(pool) && !small)
        pi = info_of(r, (uint32_t)(pool - r->doc->root));
      last = ps;
      last_len = plen;
    }
    if (!pool || !egg_first(pool)) {
      if (!done) {
        if (r->doc->panda)
          egg_emit(r->doc, RULE_EGG_UNDEFINED_POOL, 0, 0, NULL, "%s", egg_show(buf, sizeof buf, ps, plen));
        else
          egg_emit_val(r->doc, RULE_EGG_UNDEFINED_POOL, ref, 0, NULL, "%s", egg_show(buf, sizeof buf, ps, plen));
        if (egg_names_set(&reported, ref, &prev) < 0)
          break;
        done = 1;
      }
      continue;
    }
    if (pool->off > vr->off) /* the pool is after the reference in the text */
      forward_pool(r, &forwarded, pool, ref, ps, plen);
    if ((!pi && !small) || done)
      continue;
    plain = egg_numv(vr, &nv);
    for (uint32_t k = 0, k_end = egg_nvals(vr); k < k_end; k++) {
      int64_t idx = plain ? egg_numv_int(&nv, k) : egg_val_int(vr, k);
      missing += !(small ? small_has_index(pool, idx) : has_index(pi, idx));
    }
    if (missing) {
      size_t n = (size_t)snprintf(what, sizeof what, "%s; undefined vertex index numbers:",
                                  egg_show(buf, sizeof buf, ps, plen));
      for (uint32_t k = 0, k_end = egg_nvals(vr); k < k_end; k++) {
        int64_t idx = egg_val_int(vr, k);
        if (!(small ? small_has_index(pool, idx) : has_index(pi, idx)) && n + 24 < sizeof what)
          n += (size_t)snprintf(what + n, sizeof what - n, " %lld", (long long)idx);
      }
      if (r->doc->panda)
        egg_emit(r->doc, RULE_EGG_UNDEFINED_VERTEX, 0, 0, NULL, "%s", what);
      else
        egg_emit_node(r->doc, RULE_EGG_UNDEFINED_VERTEX, vr, NULL, "%s", what);
      if (egg_names_set(&reported, ref, &prev) < 0)
        break;
      done = 1;
    }
  }
  egg_names_free(&reported);
  egg_names_free(&forwarded);
}

/* Every node in file order for visit() (on entry, and again after its children), skipping
 * what it does not look at. */
static void refs_walk(struct refs *r)
{
  struct egg_node *root = r->doc->root, *n = egg_first(root);
  while (n) {
    visit(n, 0, r);
    if (egg_first(n) && vref_descend(n)) {
      n = egg_first(n);
      continue;
    }
    for (;;) {
      visit(n, 1, r);
      if (egg_next(n)) {
        n = egg_next(n);
        break;
      }
      n = egg_parent(n);
      if (!n || n == root) {
        n = NULL;
        break;
      }
    }
  }
}

/* The pools the <VertexRef>s name, as resolve_vertex_refs finds them (the last defined under
 * the name, with vertices), as offsets from the root, ascending and each once, into *out: their
 * count, or SIZE_MAX when out of memory. Only their numbers are kept (pool_index): a file of a
 * million small pools no reference names kept a million lists and map entries (issue 26). */
static size_t referenced_pools(struct refs *r, uint32_t **out)
{
  uint32_t *list = NULL;
  size_t n = 0, cap = 0, u = 0;
  const char *last = NULL;
  uint32_t last_len = 0;
  for (const struct vref_chunk *c = r->vrefs; c; c = c->next)
    for (size_t at = 0; at < c->count; at++) {
      const struct egg_node *vr = r->doc->root + c->node[at], *ref, *pool;
      const char *ps;
      uint32_t plen;
      for (ref = egg_first(vr); ref && ref->spec != S_REF; ref = egg_next(ref))
        ;
      if (!ref || !(ps = first_string(r->doc, ref, &plen)) || (ps == last && plen == last_len))
        continue;
      last = ps;
      last_len = plen;
      pool = egg_names_find(&r->pools, ps, plen);
      /* a small pool keeps nothing (small_has_index) */
      if (!pool || !egg_first(pool) || (n && list[n - 1] == (uint32_t)(pool - r->doc->root)) ||
          egg_pool_small(pool))
        continue;
      if (grow_one(&list, &cap, n, sizeof *list, 64) < 0) {
        free(list);
        return SIZE_MAX;
      }
      list[n++] = (uint32_t)(pool - r->doc->root);
    }
  if (n)
    qsort(list, n, sizeof *list, cmp_u32);
  for (size_t i = 0; i < n; i++)
    if (!u || list[u - 1] != list[i])
      list[u++] = list[i];
  *out = list;
  return u;
}

void egg_check_refs(struct egg_doc *doc)
{
  struct refs r;
  size_t nrefd, next = 0;
  memset(&r, 0, sizeof r);
  r.doc = doc;
  egg_names_init(&r.textures, doc->root, &doc->map_failures, egg_doc_bound(doc));
  egg_names_init(&r.materials, doc->root, &doc->map_failures, egg_doc_bound(doc));
  egg_names_init(&r.groups, doc->root, &doc->map_failures, egg_doc_bound(doc));
  egg_names_init(&r.group_dups, doc->root, &doc->map_failures, egg_doc_bound(doc));
  egg_names_init(&r.pools, doc->root, &doc->map_failures, egg_doc_bound(doc));
  egg_map_init(&r.inline_tex, &doc->map_failures, egg_doc_bound(doc));
  refs_walk(&r);
  /* out of memory for the list or the infos: counted (the decode says its checks are
   * incomplete), and no large pool's references are checked against its numbers */
  if ((nrefd = referenced_pools(&r, &r.refd)) == SIZE_MAX) {
    doc->map_failures++;
    r.refd = NULL;
  } else if (nrefd && !(r.infos = info_alloc(&r, nrefd, sizeof *r.infos))) {
    free(r.refd);
    r.refd = NULL;
  } else {
    r.nrefd = nrefd;
  }
  /* number every pool (in file order) before resolving references to them; an empty one has
   * no numbers (a reference to it is to an undefined pool, resolve_vertex_refs): no entry of
   * 48 bytes and no pool_info for a `<VertexPool> a{}` of 16 bytes (issue 26); a small one
   * referenced is read again there (small_has_index): a pool_info and its bit set were more
   * than a pool of one to three vertices */
  for (struct egg_node *n = doc->root; n; n = egg_next_skip(n, doc->root, egg_in_node_list(n)))
    if (n->spec == S_VPOOL && egg_first(n)) {
      uint32_t off = (uint32_t)(n - doc->root);
      while (next < r.nrefd && r.refd[next] < off)
        next++;
      pool_index(&r, n, next < r.nrefd && r.refd[next] == off ? &r.infos[next] : NULL);
    }
  resolve_vertex_refs(&r);
  for (size_t i = 0; i < r.nrefd; i++)
    if (r.infos[i].nbits > 64)
      free(r.infos[i].u.bits);
    else if (!r.infos[i].nbits)
      free(r.infos[i].u.index);
  free(r.infos);
  free(r.refd);
  mem_bound_release(egg_doc_bound(doc), r.charged);
  egg_names_free(&r.textures);
  egg_names_free(&r.materials);
  egg_names_free(&r.groups);
  egg_names_free(&r.group_dups);
  egg_names_free(&r.pools);
  egg_map_free(&r.inline_tex);
}
