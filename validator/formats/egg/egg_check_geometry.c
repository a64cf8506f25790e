/* egg_check_geometry.c - the geometry checks every format shares (core/model_geometry.h) on the
 * egg tree: <Normal>s of zero length (MDL-GEO-001), <Polygon>s of zero area (MDL-GEO-002), and
 * <Tangent>s with no direction across their vertex's normal (MDL-GEO-003). Validation keeps no
 * vertex coordinates, so the polygon pass reads each corner's position again from the text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "egg.h"
#include "egg_map.h"
#include "mem_bound.h"
#include "model_geometry.h"

/* The three leading numbers of an entry whose values were kept, or 0. */
static int vec3_of(const struct egg_node *n, double v[3])
{
  struct egg_numv nv;
  if (n->bad || egg_vals_dropped(n) || egg_nvals(n) < 3)
    return 0;
  if (egg_numv(n, &nv)) { /* plain decimals: numbers all */
    for (uint32_t k = 0; k < 3; k++)
      v[k] = egg_numv_at(&nv, k);
    return 1;
  }
  for (uint32_t k = 0; k < 3; k++) {
    if (!egg_val_is_number(n, k))
      return 0;
    v[k] = egg_val_d(n, k);
  }
  return 1;
}

void egg_geometry_note_normal(struct egg_doc *doc, const struct egg_node *nrm)
{
  double n[3];
  if (!vec3_of(nrm, n))
    return;
  doc->geo_normals++;
  if (geo_vector_zero(n) && doc->geo_zero_normals++ == 0) {
    egg_node_loc(nrm, &doc->geo_normal_line, &doc->geo_normal_col);
  }
}

void egg_geometry_note_vertex(struct egg_doc *doc, const struct egg_node *v)
{
  const struct egg_node *nrm = NULL;
  double n[3];
  int have_n;
  for (const struct egg_node *c = egg_first(v); c; c = egg_next(c))
    if (c->spec == S_NORMAL) {
      if (!nrm && doc->vertex_normals_folded && vec3_of(c, n)) {
        /* the first, then those equal to it the parser let go (its number, its length) */
        egg_geometry_note_normal(doc, c);
        doc->geo_normals += doc->vertex_normals_folded;
        if (geo_vector_zero(n))
          doc->geo_zero_normals += doc->vertex_normals_folded;
      } else {
        egg_geometry_note_normal(doc, c);
      }
      nrm = c; /* the last one is the one Panda3D keeps */
    }
  have_n = nrm && vec3_of(nrm, n);
  for (const struct egg_node *c = egg_first(v); c; c = egg_next(c)) {
    if (c->spec != S_UV)
      continue;
    for (const struct egg_node *t = egg_first(c); t; t = egg_next(t)) {
      double tv[3];
      if (t->spec != S_TANGENT || !vec3_of(t, tv))
        continue;
      doc->geo_tangents++;
      if ((have_n ? geo_tangent_degenerate(tv, n) : geo_vector_zero(tv)) && doc->geo_bad_tangents++ == 0) {
        egg_node_loc(t, &doc->geo_tangent_line, &doc->geo_tangent_col);
      }
    }
  }
}

/* How a large pool's vertices are found by number (a small one's are read again: egg_pool_small).
 * Each kind's slots are 1 + the tree place of a vertex, in one table shared by every pool (a pool
 * of one vertex took a 32-byte block of its own, issue 26). */
enum pool_kind {
  /* numbered first, first + 1, ... in child order, every child a vertex (as exporters write
   * them): every VSTRIDE-th vertex's slot, the ones between reached by egg_next (a slot a vertex
   * was a third of a `<Vertex>{0}` line) */
  PK_STRIDE,
  /* numbers few beyond their count: a slot for each number from 0 to the highest, 0 for none */
  PK_TABLE,
  /* any other numbers up to UINT32_MAX: (number, slot) pairs sorted by number, then by place
   * (the first vertex of a number is the one found), not a 48-byte map entry a vertex */
  PK_SORTED
};
#define VSTRIDE 16

struct pool_tab {
  uint32_t pool;  /* the pool's place in the tree */
  uint32_t at;    /* its first slot (PK_STRIDE, PK_TABLE) or pair (PK_SORTED) */
  uint32_t count; /* its vertices (PK_STRIDE, PK_SORTED), or the highest number + 1 (PK_TABLE) */
  uint32_t first; /* PK_STRIDE: its first vertex's number */
  enum pool_kind kind;
};

struct vnum {
  uint32_t num, slot;
};

/* The vertices are found by number (the tables above, a map for numbers beyond UINT32_MAX, or
 * for a small pool its children read again) and their positions read from the tree or the text
 * as each polygon needs them: no copy of the positions is kept (24 bytes a vertex, twice a
 * `<Vertex>{0}` line). */
struct poly_ix {
  struct egg_doc *doc;
  struct egg_names pools; /* pool name -> the first pool of that name (4-byte slots) */
  const struct egg_node *nameless; /* the first pool without a name, when before any named "" */
  struct egg_map verts;   /* (pool, number) -> its vertex, for the pools numbered past UINT32_MAX */
  struct pool_tab *tabs;  /* in file order (ascending pool) */
  size_t ntabs, tcap;
  uint32_t *slots;
  size_t nslots, scap;
  struct vnum *pairs;
  size_t npairs, pcap;
};

/* Room for one more of an array of elem-byte items (doubling, charged to --max-memory): 0, or
 * -1 when out of memory or over the bound. */
static int room(struct egg_doc *doc, void **arr, size_t *cap, size_t need, size_t elem)
{
  size_t ncap = *cap ? *cap : 64;
  void *grown;
  if (need <= *cap)
    return 0;
  while (ncap < need)
    ncap *= 2;
  if (mem_bound_grow(egg_doc_bound(doc), *cap * elem, ncap * elem) < 0)
    return -1;
  grown = realloc(*arr, ncap * elem);
  if (!grown) {
    mem_bound_release(egg_doc_bound(doc), (ncap - *cap) * elem);
    return -1;
  }
  *arr = grown;
  *cap = ncap;
  return 0;
}

/* The position of pool vertex v: missing coordinates read 0, as the model builds them. */
static void pos_of(struct egg_doc *doc, const struct egg_node *v, double p[3])
{
  p[0] = p[1] = p[2] = 0;
  if (egg_vals_dropped(v)) {
    egg_values_relex(doc, v, p, 3);
  } else {
    for (uint32_t k = 0, k_end = egg_nvals(v); k < 3 && k < k_end; k++)
      p[k] = egg_val_d(v, k);
  }
}

/* The table of the pool at tree place ix, or NULL when it has none. */
static const struct pool_tab *tab_of(const struct poly_ix *x, uint32_t ix)
{
  size_t lo = 0, hi = x->ntabs;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (x->tabs[mid].pool < ix)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < x->ntabs && x->tabs[lo].pool == ix ? &x->tabs[lo] : NULL;
}

static int cmp_vnum(const void *a, const void *b)
{
  const struct vnum *p = a, *q = b;
  return p->num != q->num ? (p->num < q->num ? -1 : 1) : (p->slot > q->slot) - (p->slot < q->slot);
}

/* The table of large pool n (numbered as egg_geometry.c numbers them), or where none fits (a
 * number past UINT32_MAX) its vertices in the map: 0, or -1 when out of memory. */
static int pool_table(struct poly_ix *x, const struct egg_node *n)
{
  const struct egg_node *root = x->doc->root;
  struct pool_tab t;
  size_t count = 0, k = 0;
  int64_t top = -1, first = -1, next = 1;
  int seq = 1;
  /* numbered a first time to choose the kind and size it */
  for (const struct egg_node *v = egg_first(n); v; v = egg_next(v), k++) {
    int64_t num = egg_vertex_number(v, &next);
    if (num < 0) {
      seq = 0;
      continue;
    }
    if (first < 0)
      first = num;
    seq &= num - first == (int64_t)k;
    count++;
    if (num > top)
      top = num;
  }
  if (!count)
    return 0;
  memset(&t, 0, sizeof t);
  t.pool = (uint32_t)(n - root);
  if (count >= UINT32_MAX || (uint64_t)top > UINT32_MAX) {
    next = 1; /* every vertex in the map */
    for (const struct egg_node *v = egg_first(n); v; v = egg_next(v)) {
      int64_t num = egg_vertex_number(v, &next);
      struct egg_map_ent *ve;
      if (num < 0)
        continue;
      if (!(ve = egg_map_pair(&x->verts, (uintptr_t)n, num)))
        return -1;
      if (!ve->val)
        ve->val = (void *)(uintptr_t)v;
    }
    return 0;
  }
  if (room(x->doc, (void **)&x->tabs, &x->tcap, x->ntabs + 1, sizeof *x->tabs) < 0)
    return -1;
  if (seq) {
    size_t need = (count + VSTRIDE - 1) / VSTRIDE;
    t.kind = PK_STRIDE;
    t.first = (uint32_t)first;
    t.count = (uint32_t)count;
    if (x->nslots + need > UINT32_MAX || room(x->doc, (void **)&x->slots, &x->scap, x->nslots + need, sizeof *x->slots) < 0)
      return -1;
    t.at = (uint32_t)x->nslots;
    k = 0;
    for (const struct egg_node *v = egg_first(n); v; v = egg_next(v), k++)
      if (k % VSTRIDE == 0)
        x->slots[x->nslots++] = (uint32_t)(v - root) + 1;
  } else if ((uint64_t)top < 2 * (uint64_t)count + 16 && x->nslots + (size_t)top + 1 <= UINT32_MAX) {
    /* dense: at most twice the slots it fills, + 16 (a pool numbered from 0 or 1, as exporters
     * write them); a looser slack per pool (+1024) let a pool of one vertex numbered 1000 take
     * 4 KiB for 40 bytes of text (review A: 85 x the text) */
    t.kind = PK_TABLE;
    t.count = (uint32_t)top + 1;
    if (room(x->doc, (void **)&x->slots, &x->scap, x->nslots + t.count, sizeof *x->slots) < 0)
      return -1;
    t.at = (uint32_t)x->nslots;
    memset(x->slots + x->nslots, 0, (size_t)t.count * sizeof *x->slots);
    x->nslots += t.count;
    next = 1;
    for (const struct egg_node *v = egg_first(n); v; v = egg_next(v)) {
      int64_t num = egg_vertex_number(v, &next);
      if (num >= 0 && !x->slots[t.at + (size_t)num]) /* the first vertex of a number */
        x->slots[t.at + (size_t)num] = (uint32_t)(v - root) + 1;
    }
  } else {
    t.kind = PK_SORTED;
    t.count = (uint32_t)count;
    if (x->npairs + count > UINT32_MAX || room(x->doc, (void **)&x->pairs, &x->pcap, x->npairs + count, sizeof *x->pairs) < 0)
      return -1;
    t.at = (uint32_t)x->npairs;
    next = 1;
    for (const struct egg_node *v = egg_first(n); v; v = egg_next(v)) {
      int64_t num = egg_vertex_number(v, &next);
      if (num >= 0) {
        x->pairs[x->npairs].num = (uint32_t)num;
        x->pairs[x->npairs++].slot = (uint32_t)(v - root) + 1;
      }
    }
    qsort(x->pairs + t.at, count, sizeof *x->pairs, cmp_vnum);
  }
  x->tabs[x->ntabs++] = t;
  return 0;
}

/* Every pool's name (the first pool of a name, as egg_geometry.c finds them), and each large
 * one's table. */
static int pools_index(struct poly_ix *x)
{
  const struct egg_node *root = x->doc->root;
  for (const struct egg_node *n = root; n; n = egg_next_skip(n, root, egg_in_node_list(n))) {
    const struct egg_node *prev;
    if (n->spec != S_VPOOL)
      continue;
    /* the first of a name; one without a name goes by "" (egg_names keeps no such entry) */
    if (egg_names_find(&x->pools, egg_name(n) ? egg_name(n) : "", egg_name_len(n)) ||
        (!egg_name_len(n) && x->nameless))
      continue;
    if (!egg_name(n))
      x->nameless = n;
    else if (egg_names_set(&x->pools, n, &prev) < 0)
      return -1;
    if (!egg_pool_small(n) && pool_table(x, n) < 0)
      return -1;
  }
  return 0;
}

/* The pool a polygon's <VertexRef> names, or NULL when none is defined under the name. */
static const struct egg_node *pool_named(const struct poly_ix *x, const char *pool, uint32_t plen)
{
  const struct egg_node *pn = egg_names_find(&x->pools, pool, plen);
  return pn || plen ? pn : x->nameless;
}

/* Where a pool's vertices are found: looked up once for each <VertexRef>, not each index. */
struct pool_at {
  const struct egg_node *pool;
  int small;                 /* egg_pool_small: its children read again */
  const struct pool_tab *tab; /* else its table, or NULL: the map */
};

static struct pool_at pool_at(const struct poly_ix *x, const struct egg_node *pn)
{
  struct pool_at a;
  a.pool = pn;
  a.small = egg_pool_small(pn);
  a.tab = a.small ? NULL : tab_of(x, (uint32_t)(pn - x->doc->root));
  return a;
}

/* Vertex num of the pool, or NULL when undefined. */
static const struct egg_node *vertex_at(const struct poly_ix *x, const struct pool_at *a, int64_t num)
{
  const struct egg_node *root = x->doc->root;
  const struct pool_tab *t = a->tab;
  const struct egg_map_ent *ve;
  if (a->small) {
    /* numbered as a large one is: the first of the number */
    int64_t next = 1;
    if (num < 0)
      return NULL;
    for (const struct egg_node *v = egg_first(a->pool); v; v = egg_next(v))
      if (egg_vertex_number(v, &next) == num)
        return v;
    return NULL;
  }
  if (!t) {
    ve = egg_map_pair_find(&x->verts, (uintptr_t)a->pool, num);
    return ve ? ve->val : NULL;
  }
  switch (t->kind) {
  case PK_STRIDE: {
    const struct egg_node *v;
    uint64_t k;
    if (num < (int64_t)t->first || (k = (uint64_t)(num - t->first)) >= t->count)
      return NULL;
    v = root + x->slots[t->at + k / VSTRIDE] - 1;
    for (k %= VSTRIDE; k; k--)
      v = egg_next(v);
    return v;
  }
  case PK_TABLE:
    return num >= 0 && (uint64_t)num < t->count && x->slots[t->at + (size_t)num]
               ? root + x->slots[t->at + (size_t)num] - 1
               : NULL;
  case PK_SORTED: {
    size_t lo = t->at, hi = (size_t)t->at + t->count;
    if (num < 0 || num > UINT32_MAX)
      return NULL;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (x->pairs[mid].num < (uint64_t)num)
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo < (size_t)t->at + t->count && x->pairs[lo].num == (uint64_t)num ? root + x->pairs[lo].slot - 1 : NULL;
  }
  }
  return NULL;
}

/* What polygon_walk finds of a polygon: its corner count, whether all its corners lie on one
 * line, and its first corners' vertices (for the repeat test, up to 64 corners). */
struct poly_walk {
  long n;
  int flat;
  const struct egg_node *first[64];
};

/* Walk the polygon's vertices in order (the <VertexRef>s' indexes read from the tree, nothing
 * copied: a polygon of millions of corners took 8 bytes a corner, 5.5 x its text), testing each
 * fan triangle from the first corner for flatness until one is not: 0, or -1 when a vertex is
 * undefined or a <VertexRef> has no pool (the reference checks report it). */
static int polygon_walk(const struct poly_ix *x, const struct egg_node *prim, struct poly_walk *w)
{
  double p0[3] = {0, 0, 0}, prev[3] = {0, 0, 0}, cur[3];
  w->n = 0;
  w->flat = 1;
  for (const struct egg_node *vr = egg_first(prim); vr; vr = egg_next(vr)) {
    const struct egg_node *ref, *pn;
    const char *pool;
    uint32_t plen = 0;
    struct egg_numv nv;
    struct pool_at at = {NULL, 0, NULL};
    int plain;
    if (vr->spec != S_VREF_PRIM || vr->bad)
      continue;
    for (ref = egg_first(vr); ref && ref->spec != S_REF; ref = egg_next(ref))
      ;
    if (!ref || !egg_nvals(ref) || !(pool = egg_val_str(ref, 0, &plen)))
      return -1;
    if ((pn = pool_named(x, pool, plen)) != NULL)
      at = pool_at(x, pn);
    plain = egg_numv(vr, &nv);
    for (uint32_t i = 0, i_end = egg_nvals(vr); i < i_end; i++) {
      const struct egg_node *v;
      if (!pn || !(v = vertex_at(x, &at, plain ? egg_numv_int(&nv, i) : egg_val_int(vr, i))))
        return -1;
      if (w->n < 64)
        w->first[w->n] = v;
      if (w->flat && w->n < 2) {
        pos_of(x->doc, v, w->n ? prev : p0);
      } else if (w->flat) {
        pos_of(x->doc, v, cur);
        w->flat = geo_triangle_flat(p0, prev, cur);
        memcpy(prev, cur, sizeof cur);
      }
      w->n++;
    }
  }
  return 0;
}

/* Panda3D triangulates a polygon (EggPolygon::triangulate_poly, panda/src/egg/eggPolygon.cxx:344)
 * only after EggPolygon::cleanup (:39-45) found a normal: a polygon whose corners all lie on one
 * line is dropped at load, and so is each zero-area triangle its triangulation makes. Those
 * triangles cover nothing the polygon's others do not (a corner on an edge is common and
 * harmless), so only a polygon of zero area as a whole is reported: what its author meant to
 * draw is lost. Flat as a whole: every triangle of the fan from its first corner is flat (then
 * all corners lie on one line through it), by MDL-GEO-002's test. */
static int polygons_check(struct egg_doc *doc)
{
  struct poly_ix x;
  struct poly_walk w;
  const struct egg_node *root = doc->root, *first = NULL;
  unsigned long count = 0, total = 0;
  int rc = -1;
  memset(&x, 0, sizeof x);
  x.doc = doc;
  egg_names_init(&x.pools, root, &doc->map_failures, egg_doc_bound(doc));
  egg_map_init(&x.verts, &doc->map_failures, egg_doc_bound(doc));
  if (pools_index(&x) < 0)
    goto done;
  /* every group is entered, not only those egg_in_node_list enters (a group with a nested
   * group, table or pool): a group of polygons alone, the usual layout, has none, and its
   * polygons went unchecked (review A, session 16) */
  for (const struct egg_node *p = root; p;
       p = egg_next_skip(p, root, p->spec == S_ROOT || egg_is_group(p->spec))) {
    int repeated = 0;
    if (p->spec != S_POLYGON || p->bad)
      continue;
    if (polygon_walk(&x, p, &w) < 0 || w.n < 3)
      continue; /* too few vertices or an undefined one: EGG-VTX-008, EGG-REF-* */
    total++;
    /* a vertex named twice is EGG-VTX-009's (checked, as there, up to 64 vertices) */
    for (long i = 1; i < w.n && w.n <= 64 && !repeated; i++)
      for (long j = 0; j < i && !repeated; j++)
        repeated = w.first[i] == w.first[j];
    if (w.flat && !repeated && count++ == 0)
      first = p;
  }
  if (count)
    egg_emit_node(doc, RULE_CORE_TRIANGLE_ZERO_AREA, first, "a non-zero area",
             "<Polygon> whose corners lie on one line (Panda3D drops it at load): %lu of %lu polygons",
             count, total);
  rc = 0;
done:
  free(x.tabs);
  mem_bound_release(egg_doc_bound(doc), x.tcap * sizeof *x.tabs);
  free(x.slots);
  mem_bound_release(egg_doc_bound(doc), x.scap * sizeof *x.slots);
  free(x.pairs);
  mem_bound_release(egg_doc_bound(doc), x.pcap * sizeof *x.pairs);
  if (x.verts.oom)
    rc = -1;
  egg_names_free(&x.pools);
  egg_map_free(&x.verts);
  return rc;
}

void egg_check_geometry(struct egg_doc *doc)
{
  char exp[48];
  if (doc->geo_zero_normals) {
    snprintf(exp, sizeof exp, "length >= %g", GEO_ZERO_LENGTH);
    egg_emit(doc, RULE_CORE_NORMAL_ZERO_LENGTH, doc->geo_normal_line, doc->geo_normal_col, exp,
             "this <Normal> (%lu of %lu normals)", doc->geo_zero_normals, doc->geo_normals);
  }
  if (doc->geo_bad_tangents)
    egg_emit(doc, RULE_CORE_TANGENT_DEGENERATE, doc->geo_tangent_line, doc->geo_tangent_col,
             "a direction of its own, across the normal", "this <Tangent> (%lu of %lu tangents)",
             doc->geo_bad_tangents, doc->geo_tangents);
  if (doc->spec_count[S_POLYGON] && polygons_check(doc) < 0)
    diag_out_of_memory(doc->ctx->diag, "the egg polygon area check");
}
