/* egg_geometry_lean.c - EGG-VTX-023 in a skeleton-only decode (poses): the model vertices whose
 * pool vertex has more than 4 joint influences, counted, and the first of them, as the full
 * decode (egg_geometry.c) builds, counts and orders them, without its maps.
 *
 * Why apart (issue 26 item 8): the full decode's maps hold an entry of 48 bytes for every pool
 * vertex, membership and model vertex, 9 to 14 x the text of a pool of `<Vertex>{0}` lines. Here:
 * - a pool's vertices are found by number in place when they are the plain run (each the entry
 *   after the last, numbered one more: what an exporter writes), else through a sorted list of
 *   its numbers (16 bytes a vertex), built only for a pool that a membership or a primitive
 *   that may count names;
 * - a pool that joints name gets half a byte a vertex: how many joints give it a positive
 *   membership (up to 7), and whether the joint being read named it already; a joint whose
 *   memberships are not all positive or all not (a sum may cancel) sums its own in a map that
 *   it lets go;
 * - the model vertices that count are found group by group (a mesh is a group's primitives of
 *   one material), 8 bytes each while their group is read, sorted and made unique whenever
 *   their list has doubled; a <Texture> with a name is 4 bytes (a <TRef> reads the last one of
 *   its name before it). */
#include <stdlib.h>
#include <string.h>

#include "egg.h"
#include "egg_map.h"
#include "grow.h"
#include "mem_bound.h"

#define MAX_INFLUENCES 4

struct lvert {
  int64_t num;
  uint32_t node, ord;
};

struct lpool {
  const struct egg_node *pool;
  const struct egg_node *first; /* plain: the vertex numbered base + k is first + k */
  int64_t base;
  size_t n;                     /* vertices (plain) or distinct numbers */
  int plain;
  struct lvert *v;              /* not plain: by number, the first vertex of each */
  unsigned char *cnt;           /* a nibble a vertex, for a pool joints name: bits 0-2 joints
                                 * with a positive membership, bit 3 named by the joint read */
};

struct lean {
  struct egg_doc *doc;
  const struct egg_node *root;
  struct mem_bound *bound;
  struct egg_names pools;       /* pool name -> the first pool of that name */
  const struct egg_node *unnamed; /* the first pool named "" or not at all */
  struct egg_map of;            /* (pool, 0) -> its lpool + 1 */
  struct lpool *lp;
  size_t nlp, caplp;
  size_t held;                  /* bytes of lvert lists and nibbles charged to the bound */
  uint32_t *tex;                /* the <Texture>s with a name, by name then place */
  size_t ntex, captex;
  /* one group's model vertices that count: (mesh << 32 | pool vertex), its meshes numbered in
   * the group (a mesh is a group and a material), sorted and made unique as they double */
  uint64_t *mv;
  size_t nmv, capmv;
  uint32_t *own;                /* one primitive's copies that count (pool vertices) */
  size_t nown, capown;
  unsigned long count;          /* model vertices that count, so far */
  const struct egg_node *first_at, *first_prim, *first_mesh;
  int first_own;
};

static void *held_calloc(struct lean *L, size_t n, size_t size)
{
  void *p;
  if (mem_bound_charge(L->bound, n * size) < 0)
    return NULL;
  p = calloc(n ? n : 1, size);
  if (!p)
    mem_bound_release(L->bound, n * size);
  else
    L->held += n * size;
  return p;
}

static const char *first_string(const struct egg_node *n, uint32_t *len)
{
  *len = 0;
  return n && egg_nvals(n) ? egg_val_str(n, 0, len) : NULL;
}

static const struct egg_node *child_last(const struct egg_node *n, int spec)
{
  const struct egg_node *found = NULL;
  for (const struct egg_node *c = egg_first(n); c; c = egg_next(c))
    if (c->spec == spec && !c->bad)
      found = c;
  return found;
}

static const struct egg_node *child_first(const struct egg_node *n, int spec)
{
  for (const struct egg_node *c = egg_first(n); c; c = egg_next(c))
    if (c->spec == spec && !c->bad)
      return c;
  return NULL;
}

/* egg_geometry.c's vertex_has in a skeleton-only decode: a child, or the bits the parser left. */
static int vertex_has(const struct egg_doc *doc, const struct egg_node *v, int spec)
{
  size_t ix = (size_t)(v - doc->root);
  if (child_last(v, spec))
    return 1;
  return ix / 4 < doc->vertex_attrs_cap &&
         (doc->vertex_attrs[ix / 4] >> (ix % 4 * 2) & (spec == S_NORMAL ? 1u : 2u)) != 0;
}

static const char *pool_ref(const struct egg_node *vref, uint32_t *len)
{
  const struct egg_node *ref;
  for (ref = egg_first(vref); ref && ref->spec != S_REF; ref = egg_next(ref))
    ;
  return ref ? first_string(ref, len) : NULL;
}

/* Pools by name, the first of each name winning (egg_geometry.c's collect_pools). */
static int index_pools(struct lean *L)
{
  for (const struct egg_node *n = L->root; n; n = egg_next_skip(n, L->root, egg_in_node_list(n))) {
    const struct egg_node *prev;
    if (n->spec != S_VPOOL)
      continue;
    if (!egg_name(n) || !egg_name_len(n)) {
      if (!L->unnamed)
        L->unnamed = n;
    } else if (!egg_names_find(&L->pools, egg_name(n), egg_name_len(n)) &&
               egg_names_set(&L->pools, n, &prev) < 0) {
      return -1;
    }
  }
  return 0;
}

static int lvert_cmp(const void *a, const void *b)
{
  const struct lvert *x = a, *y = b;
  if (x->num != y->num)
    return x->num < y->num ? -1 : 1;
  return x->ord < y->ord ? -1 : x->ord > y->ord;
}

/* A pool's numbers: plain, or the sorted list of the first vertex of each number. */
static int lpool_build(struct lean *L, struct lpool *lp)
{
  int64_t next = 1;
  size_t k = 0, n = 0;
  lp->first = egg_first(lp->pool);
  lp->plain = 1;
  for (const struct egg_node *v = lp->first; v; v = egg_next(v), k++) {
    int64_t num = egg_vertex_number(v, &next);
    if (k == 0)
      lp->base = num;
    if (num < 0 || v != lp->first + k || num - (int64_t)k != lp->base) {
      lp->plain = 0;
      break;
    }
  }
  if (lp->plain) {
    lp->n = k;
    return 0;
  }
  for (const struct egg_node *v = lp->first; v; v = egg_next(v))
    n += v->spec == S_VERTEX;
  lp->v = held_calloc(L, n, sizeof *lp->v);
  if (!lp->v)
    return -1;
  next = 1;
  k = 0;
  for (const struct egg_node *v = lp->first; v && k < n; v = egg_next(v)) {
    int64_t num = egg_vertex_number(v, &next);
    if (num < 0)
      continue;
    lp->v[k].num = num;
    lp->v[k].node = (uint32_t)(v - L->root);
    lp->v[k].ord = (uint32_t)k;
    k++;
  }
  if (k > 1)
    qsort(lp->v, k, sizeof *lp->v, lvert_cmp);
  n = 0;
  for (size_t i = 0; i < k; i++)
    if (!n || lp->v[n - 1].num != lp->v[i].num) /* a repeated number keeps the first vertex */
      lp->v[n++] = lp->v[i];
  lp->n = n;
  return 0;
}

/* The pool named (pname, plen), or NULL. */
static const struct egg_node *pool_named(const struct lean *L, const char *pname, uint32_t plen)
{
  return plen ? egg_names_find(&L->pools, pname, plen) : L->unnamed;
}

/* The lpool of pool (indexed on first use), NULL out of memory; existing only: NULL if none. */
static struct lpool *lpool_of(struct lean *L, const struct egg_node *pool, int create)
{
  struct egg_map_ent *e = create ? egg_map_pair(&L->of, (uintptr_t)pool, 0) : egg_map_pair_find(&L->of, (uintptr_t)pool, 0);
  struct lpool *lp;
  if (!e)
    return NULL;
  if (e->val)
    return &L->lp[(uintptr_t)e->val - 1];
  if (grow_to(&L->lp, &L->caplp, L->nlp + 1, sizeof *L->lp, 16) < 0)
    return NULL;
  lp = &L->lp[L->nlp];
  memset(lp, 0, sizeof *lp);
  lp->pool = pool;
  if (lpool_build(L, lp) < 0)
    return NULL;
  e->val = (void *)(uintptr_t)++L->nlp;
  return lp;
}

/* The place of vertex num in lp, or -1 when undefined. */
static int64_t vertex_at(const struct lpool *lp, int64_t num)
{
  size_t lo = 0, hi = lp->n;
  if (lp->plain)
    return num >= lp->base && (uint64_t)(num - lp->base) < lp->n ? num - lp->base : -1;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (lp->v[mid].num < num)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < lp->n && lp->v[lo].num == num ? (int64_t)lo : -1;
}

static const struct egg_node *vertex_node(const struct lean *L, const struct lpool *lp, size_t at)
{
  return lp->plain ? lp->first + at : L->root + lp->v[at].node;
}

static unsigned nib(const struct lpool *lp, size_t at)
{
  return (unsigned)(lp->cnt[at / 2] >> (at % 2 * 4)) & 15u;
}

static void nib_set(struct lpool *lp, size_t at, unsigned x)
{
  lp->cnt[at / 2] = (unsigned char)((lp->cnt[at / 2] & ~(15u << (at % 2 * 4))) | x << (at % 2 * 4));
}

static int over_four(const struct lpool *lp, size_t at)
{
  return lp->cnt && (nib(lp, at) & 7u) > MAX_INFLUENCES;
}

static double membership(const struct egg_node *vr)
{
  const struct egg_node *sc = egg_scalar_child(vr, "membership");
  return !sc ? 1 : egg_nvals(sc) ? egg_val_d(sc, 0) : 0; /* a string reads 0 */
}

/* The lpool a joint <VertexRef> names, its nibbles made, or NULL when it names none (*oom on
 * an allocation that failed). */
static struct lpool *member_pool(struct lean *L, const struct egg_node *vr, int *oom)
{
  uint32_t plen;
  const char *pname = pool_ref(vr, &plen);
  const struct egg_node *pool = pname ? pool_named(L, pname, plen) : NULL;
  struct lpool *lp;
  if (!pool)
    return NULL;
  lp = lpool_of(L, pool, 1);
  if (lp && !lp->cnt && lp->n)
    lp->cnt = held_calloc(L, (lp->n + 1) / 2, 1);
  if (!lp || (lp->n && !lp->cnt)) {
    *oom = 1;
    return NULL;
  }
  return lp;
}

static void count_up(struct lpool *lp, size_t at)
{
  unsigned x = nib(lp, at);
  if ((x & 7u) < 7)
    x++;
  nib_set(lp, at, x);
}

/* Joint ji's memberships into the counts: a vertex counts the joint once when the sum of the
 * joint's memberships of it is positive (egg_geometry.c: collect_members, over_four). */
static int count_joint(struct lean *L, const struct egg_node *j)
{
  int positive = 0, other = 0, oom = 0;
  for (const struct egg_node *vr = egg_first(j); vr; vr = egg_next(vr)) {
    uint32_t plen;
    if (vr->spec != S_VREF_GROUP || vr->bad || !pool_ref(vr, &plen))
      continue;
    if (membership(vr) > 0)
      positive = 1;
    else
      other = 1;
  }
  if (!positive)
    return 0; /* sums of memberships none of which is positive: never positive */
  if (!other) { /* all positive: a vertex named counts; mark, then clear the marks */
    for (int clear = 0; clear < 2; clear++)
      for (const struct egg_node *vr = egg_first(j); vr; vr = egg_next(vr)) {
        struct lpool *lp;
        if (vr->spec != S_VREF_GROUP || vr->bad || !(lp = member_pool(L, vr, &oom)))
          continue;
        for (uint32_t i = 0, i_end = egg_nvals(vr); i < i_end; i++) {
          int64_t at = vertex_at(lp, egg_val_int(vr, i));
          unsigned x;
          if (at < 0)
            continue;
          x = nib(lp, (size_t)at);
          if (clear)
            nib_set(lp, (size_t)at, x & 7u);
          else if (!(x & 8u))
            nib_set(lp, (size_t)at, 8u | ((x & 7u) < 7 ? (x & 7u) + 1 : 7u));
        }
      }
    return oom ? -1 : 0;
  }
  /* positive and not: the sums, added in the full decode's order, in a map of this joint's */
  {
    struct egg_map sums;
    egg_map_init(&sums, &L->doc->map_failures, L->bound);
    for (const struct egg_node *vr = egg_first(j); vr && !oom; vr = egg_next(vr)) {
      struct lpool *lp;
      double w;
      if (vr->spec != S_VREF_GROUP || vr->bad || !(lp = member_pool(L, vr, &oom)))
        continue;
      w = membership(vr);
      for (uint32_t i = 0, i_end = egg_nvals(vr); i < i_end; i++) {
        int64_t at = vertex_at(lp, egg_val_int(vr, i));
        struct egg_map_ent *e;
        if (at < 0)
          continue;
        e = egg_map_pair(&sums, (uintptr_t)(lp - L->lp), at); /* L->lp may move as it grows */
        if (!e) {
          oom = 1;
          break;
        }
        e->sum += w;
      }
    }
    for (size_t s = 0; !oom && s < sums.cap; s++) {
      const struct egg_map_ent *e = egg_map_slot(&sums, s);
      if (e && e->sum > 0)
        count_up(&L->lp[e->obj], (size_t)e->num);
    }
    egg_map_free(&sums);
  }
  return oom ? -1 : 0;
}

static int any_over_four(const struct lean *L)
{
  for (size_t p = 0; p < L->nlp; p++)
    for (size_t at = 0; L->lp[p].cnt && at < L->lp[p].n; at++)
      if (over_four(&L->lp[p], at))
        return 1;
  return 0;
}

static const char *tex_name(const struct lean *L, uint32_t ix, uint32_t *len)
{
  const struct egg_node *t = L->root + ix;
  *len = egg_name_len(t);
  return egg_name(t);
}

static int name_cmp(const char *a, uint32_t alen, const char *b, uint32_t blen)
{
  int c = memcmp(a, b, alen < blen ? alen : blen);
  return c ? c : alen < blen ? -1 : alen > blen;
}

/* The <Texture>s a walk over the groups meets (egg_geometry.c's build_meshes), by name, then
 * place: a merge sort, as qsort has no argument to reach the tree's names through. */
static void tex_merge_sort(const struct lean *L, uint32_t *a, uint32_t *tmp, size_t n)
{
  size_t h = n / 2, i = 0, j = h, k = 0;
  if (n < 2)
    return;
  tex_merge_sort(L, a, tmp, h);
  tex_merge_sort(L, a + h, tmp, n - h);
  while (i < h && j < n) {
    uint32_t la, lb;
    const char *sa = tex_name(L, a[i], &la), *sb = tex_name(L, a[j], &lb);
    int c = name_cmp(sa, la, sb, lb);
    tmp[k++] = c < 0 || (c == 0 && a[i] < a[j]) ? a[i++] : a[j++];
  }
  while (i < h)
    tmp[k++] = a[i++];
  while (j < n)
    tmp[k++] = a[j++];
  memcpy(a, tmp, n * sizeof *a);
}

static int tex_index(struct lean *L)
{
  const struct egg_node *root = L->root;
  uint32_t *tmp;
  for (const struct egg_node *n = root; n; n = egg_next_skip(n, root, n->spec == S_ROOT || egg_is_group(n->spec)))
    if (n->spec == S_TEXTURE && egg_name(n)) {
      if (grow_to(&L->tex, &L->captex, L->ntex + 1, sizeof *L->tex, 16) < 0)
        return -1;
      L->tex[L->ntex++] = (uint32_t)(n - root);
    }
  tmp = malloc(L->ntex ? L->ntex * sizeof *tmp : 1);
  if (!tmp)
    return -1;
  tex_merge_sort(L, L->tex, tmp, L->ntex);
  free(tmp);
  return 0;
}

/* The last <Texture> named (s, len) before entry at, or NULL. */
static const struct egg_node *tex_before(const struct lean *L, const char *s, uint32_t len, uint32_t at)
{
  size_t lo = 0, hi = L->ntex;
  uint32_t tl;
  const char *t;
  while (lo < hi) { /* the first after (s, at) */
    size_t mid = lo + (hi - lo) / 2;
    int c;
    t = tex_name(L, L->tex[mid], &tl);
    c = name_cmp(t, tl, s, len);
    if (c < 0 || (c == 0 && L->tex[mid] < at))
      lo = mid + 1;
    else
      hi = mid;
  }
  if (!lo)
    return NULL;
  t = tex_name(L, L->tex[lo - 1], &tl);
  return name_cmp(t, tl, s, len) ? NULL : L->root + L->tex[lo - 1];
}

/* The material of a primitive's mesh (egg_geometry.c: prim_mesh, texture_file). */
static const char *prim_material(const struct lean *L, const struct egg_node *prim, uint32_t *len)
{
  const struct egg_node *t = child_first(prim, S_TREF);
  const char *s;
  *len = 0;
  if (!t)
    t = child_first(prim, S_MREF);
  if (!t)
    return "";
  s = first_string(t, len);
  if (s && t->spec == S_TREF) {
    const struct egg_node *tex = tex_before(L, s, *len, (uint32_t)(prim - L->root));
    uint32_t flen;
    const char *file = tex ? first_string(tex, &flen) : NULL;
    if (file) {
      *len = flen;
      return file;
    }
  }
  if (!s)
    *len = 0;
  return s ? s : "";
}

/* Whether a primitive has model vertices (3 or more, all defined) and one of them counts: 1,
 * 0, or -1 out of memory. */
static int prim_counts(struct lean *L, const struct egg_node *prim)
{
  size_t n = 0;
  int counts = 0, named = 0;
  for (const struct egg_node *vr = egg_first(prim); vr && !named; vr = egg_next(vr)) {
    uint32_t plen;
    const char *pname;
    const struct egg_node *pool;
    struct lpool *lp;
    if (vr->spec != S_VREF_PRIM || vr->bad || !(pname = pool_ref(vr, &plen)))
      continue;
    pool = pool_named(L, pname, plen);
    lp = pool ? lpool_of(L, pool, 0) : NULL;
    named = lp && lp->cnt;
  }
  if (!named)
    return 0; /* no pool that joints name: no vertex of it counts (its other pools not indexed) */
  for (const struct egg_node *vr = egg_first(prim); vr; vr = egg_next(vr)) {
    uint32_t plen;
    const char *pname;
    const struct egg_node *pool;
    struct lpool *lp;
    if (vr->spec != S_VREF_PRIM || vr->bad)
      continue;
    if (!(pname = pool_ref(vr, &plen)))
      return 0;
    if (!egg_nvals(vr))
      continue;
    if (!(pool = pool_named(L, pname, plen)))
      return 0; /* its vertices undefined */
    if (!(lp = lpool_of(L, pool, 1)))
      return -1;
    for (uint32_t i = 0, i_end = egg_nvals(vr); i < i_end; i++) {
      int64_t at = vertex_at(lp, egg_val_int(vr, i));
      if (at < 0)
        return 0; /* an undefined vertex: the primitive is left out */
      counts |= over_four(lp, (size_t)at);
      n++;
    }
  }
  return n >= 3 && counts;
}

static int u64_cmp(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static int u32_cmp(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static size_t mv_unique(struct lean *L)
{
  size_t n = 0;
  if (L->nmv > 1) /* (never qsort NULL, even of none) */
    qsort(L->mv, L->nmv, sizeof *L->mv, u64_cmp);
  for (size_t i = 0; i < L->nmv; i++)
    if (!n || L->mv[n - 1] != L->mv[i])
      L->mv[n++] = L->mv[i];
  return L->nmv = n;
}

/* Model vertex v of primitive prim, in the mesh whose first primitive is mesh, a copy (own) or
 * shared: the first in the model's order (mesh, pool vertex, shared before the copies, copies
 * in file order)? */
static void first_note(struct lean *L, const struct egg_node *v, const struct egg_node *prim,
                       const struct egg_node *mesh, int own)
{
  if (!L->first_at || mesh->off < L->first_mesh->off ||
      (mesh == L->first_mesh &&
       (v->off < L->first_at->off ||
        (v == L->first_at && (L->first_own > own || (own && L->first_own && prim->off < L->first_prim->off)))))) {
    L->first_at = v;
    L->first_mesh = mesh;
    L->first_prim = prim;
    L->first_own = own;
  }
}

/* The model vertices that count of a primitive that counts, the group's mesh number k whose
 * first primitive is mesh: shared ones into L->mv, copies counted here. */
static int prim_model_vertices(struct lean *L, const struct egg_node *prim, uint32_t k, const struct egg_node *mesh)
{
  int pn = child_last(prim, S_NORMAL) != NULL, pc = child_last(prim, S_RGBA) != NULL;
  L->nown = 0;
  for (const struct egg_node *vr = egg_first(prim); vr; vr = egg_next(vr)) {
    uint32_t plen;
    const char *pname;
    struct lpool *lp;
    if (vr->spec != S_VREF_PRIM || vr->bad || !(pname = pool_ref(vr, &plen)))
      continue;
    lp = lpool_of(L, pool_named(L, pname, plen), 0);
    for (uint32_t i = 0, i_end = egg_nvals(vr); lp && lp->cnt && i < i_end; i++) {
      int64_t at = vertex_at(lp, egg_val_int(vr, i));
      const struct egg_node *v;
      int own;
      if (at < 0 || !over_four(lp, (size_t)at))
        continue;
      v = vertex_node(L, lp, (size_t)at);
      own = (pn && !vertex_has(L->doc, v, S_NORMAL)) || (pc && !vertex_has(L->doc, v, S_RGBA));
      first_note(L, v, prim, mesh, own);
      if (own) {
        if (grow_to(&L->own, &L->capown, L->nown + 1, sizeof *L->own, 64) < 0)
          return -1;
        L->own[L->nown++] = (uint32_t)(v - L->root);
        continue;
      }
      /* full: made unique, and grown only when that leaves it over half full */
      if (L->nmv == L->capmv && (!L->capmv || mv_unique(L) > L->capmv / 2) &&
          grow_to(&L->mv, &L->capmv, L->nmv + 1, sizeof *L->mv, 256) < 0)
        return -1;
      L->mv[L->nmv++] = (uint64_t)k << 32 | (uint32_t)(v - L->root);
    }
  }
  /* a primitive's copies: one per pool vertex, however often it names it */
  if (L->nown > 1)
    qsort(L->own, L->nown, sizeof *L->own, u32_cmp);
  for (size_t i = 0; i < L->nown; i++)
    L->count += !i || L->own[i] != L->own[i - 1];
  return 0;
}

/* The triangle primitives of one group (its meshes: one a material, in order of their first
 * primitive, as build_meshes numbers them), when one of them counts. */
static int group_prims(struct lean *L, const struct egg_node *g)
{
  struct egg_map mats; /* material -> the mesh's first primitive; its place, the mesh's number */
  int counts = 0, rc = -1;
  for (const struct egg_node *n = egg_first(g); n && !counts; n = egg_next(n))
    if ((n->spec == S_POLYGON || n->spec == S_TRIFAN || n->spec == S_TRISTRIP) && !n->bad) {
      counts = prim_counts(L, n);
      if (counts < 0)
        return -1;
    }
  if (!counts)
    return 0;
  egg_map_init(&mats, &L->doc->map_failures, L->bound);
  L->nmv = 0;
  for (const struct egg_node *n = egg_first(g); n; n = egg_next(n)) {
    const char *mat;
    uint32_t mlen;
    struct egg_map_ent *e;
    int c;
    if ((n->spec != S_POLYGON && n->spec != S_TRIFAN && n->spec != S_TRISTRIP) || n->bad)
      continue;
    mat = prim_material(L, n, &mlen);
    e = egg_map_at(&mats, mat, mlen);
    if (!e)
      goto out;
    if (!e->val)
      e->val = (void *)(uintptr_t)n;
    c = prim_counts(L, n);
    if (c < 0 || (c && prim_model_vertices(L, n, (uint32_t)(e - mats.ents), e->val) < 0))
      goto out;
  }
  L->count += mv_unique(L);
  rc = 0;
out:
  egg_map_free(&mats);
  return rc;
}

int egg_geometry_lean(struct egg_doc *doc, const struct model *m)
{
  struct lean L;
  const struct egg_node *root = doc->root;
  int rc = -1;
  memset(&L, 0, sizeof L);
  L.doc = doc;
  L.root = root;
  L.bound = egg_doc_bound(doc);
  egg_names_init(&L.pools, root, &doc->map_failures, L.bound);
  egg_map_init(&L.of, &doc->map_failures, L.bound);
  if (index_pools(&L) < 0)
    goto out;
  /* the model's <Joint>s in their order (egg_anim_decode's list; tables standing in for joints
   * have no members) */
  for (uint32_t ji = 0; ji < doc->njoints && ji < m->num_joints; ji++)
    if (count_joint(&L, root + doc->joint_offs[ji]) < 0)
      goto out;
  if (any_over_four(&L)) {
    if (tex_index(&L) < 0)
      goto out;
    /* the groups a walk over the primitives meets (build_meshes' walk) */
    for (const struct egg_node *n = root; n; n = egg_next_skip(n, root, n->spec == S_ROOT || egg_is_group(n->spec)))
      if ((n->spec == S_ROOT || egg_is_group(n->spec)) && group_prims(&L, n) < 0)
        goto out;
    if (L.count) {
      char what[160];
      snprintf(what, sizeof what, "%u vertices (the first in <VertexPool> %.80s)", (unsigned)L.count,
               egg_name(egg_parent(L.first_at)) ? egg_name(egg_parent(L.first_at)) : "");
      egg_emit_node(doc, RULE_EGG_INFLUENCES_OVER_FOUR, L.first_at, "4", "%s", what);
    }
  }
  rc = 0;
out:
  for (size_t p = 0; p < L.nlp; p++) {
    free(L.lp[p].v);
    free(L.lp[p].cnt);
  }
  mem_bound_release(L.bound, L.held);
  free(L.lp);
  free(L.mv);
  free(L.own);
  free(L.tex);
  egg_names_free(&L.pools);
  egg_map_free(&L.of);
  return rc;
}
