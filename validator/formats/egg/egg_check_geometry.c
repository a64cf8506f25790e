/* egg_check_geometry.c - the geometry checks every format shares (core/model_geometry.h) on the
 * egg tree: <Normal>s of zero length (MDL-GEO-001), <Polygon>s of zero area (MDL-GEO-002), and
 * <Tangent>s with no direction across their vertex's normal (MDL-GEO-003). Validation keeps no
 * vertex coordinates, so the polygon pass reads each pool vertex's position again from the text,
 * once. */
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

/* A pool whose vertex numbers are few beyond their count (the usual 0..n-1): 1 + the position
 * index of each number, 0 for none, rather than a map entry a vertex; its n slots are at `at`
 * in the shared table (one table for every pool: a pool of one vertex took a 32-byte block of
 * its own, issue 26). */
struct dense_pool {
  uint32_t pool; /* the pool's place in the tree */
  uint32_t at;   /* its first slot; its last is before the next pool's (or nslots) */
};

struct poly_ix {
  struct egg_doc *doc;
  struct egg_names pools; /* pool name -> the first pool of that name (4-byte slots) */
  const struct egg_node *nameless; /* the first pool without a name, when before any named "" */
  struct egg_map verts;   /* (pool, number) -> 1 + index into pos, for the pools not dense */
  double (*pos)[3];
  size_t npos, cap;
  struct dense_pool *dense; /* in file order (ascending pool) */
  size_t ndense, dcap;
  uint32_t *slots; /* the dense pools' tables */
  size_t nslots, scap;
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

static int pos_add(struct poly_ix *x, struct egg_doc *doc, const struct egg_node *v)
{
  double p[3] = {0, 0, 0};
  if (x->npos == x->cap) {
    size_t cap = x->cap ? x->cap * 2 : 1024;
    double (*grown)[3];
    /* --max-memory: the positions (24 bytes a vertex) are the decode's too */
    if (mem_bound_grow(egg_doc_bound(doc), x->cap * sizeof *grown, cap * sizeof *grown) < 0)
      return -1;
    grown = realloc(x->pos, cap * sizeof *grown);
    if (!grown) {
      mem_bound_release(egg_doc_bound(doc), (cap - x->cap) * sizeof *grown);
      return -1;
    }
    x->pos = grown;
    x->cap = cap;
  }
  if (egg_vals_dropped(v)) {
    egg_values_relex(doc, v, p, 3); /* missing coordinates read 0, as the model builds them */
  } else {
    for (uint32_t k = 0, k_end = egg_nvals(v); k < 3 && k < k_end; k++)
      p[k] = egg_val_d(v, k);
  }
  memcpy(x->pos[x->npos++], p, sizeof p);
  return 0;
}

/* The dense table of the pool at tree place ix, or NULL when it has none. */
static const struct dense_pool *dense_of(const struct poly_ix *x, uint32_t ix)
{
  size_t lo = 0, hi = x->ndense;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (x->dense[mid].pool < ix)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < x->ndense && x->dense[lo].pool == ix ? &x->dense[lo] : NULL;
}

/* Every pool's vertices, numbered as egg_geometry.c numbers them (the first pool of a name). */
static int pools_index(struct poly_ix *x)
{
  const struct egg_node *root = x->doc->root;
  for (const struct egg_node *n = root; n; n = egg_next_skip(n, root, egg_in_node_list(n))) {
    const struct egg_node *prev;
    struct dense_pool *d = NULL;
    int64_t next = 1;
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
    {
      /* numbered as below, a first time to size a dense table */
      size_t count = 0;
      int64_t top = -1;
      for (const struct egg_node *v = egg_first(n); v; v = egg_next(v)) {
        int64_t num = egg_vertex_number(v, &next);
        if (num < 0)
          continue;
        count++;
        if (num > top)
          top = num;
      }
      next = 1;
      /* dense: at most twice the slots it fills, + 16 (a pool numbered from 0 or 1, as exporters
       * write them); a looser slack per pool (+1024) let a pool of one vertex numbered 1000 take
       * 4 KiB for 40 bytes of text (review A: 85 x the text) */
      if (top >= 0 && (uint64_t)top < 2 * (uint64_t)count + 16 && count < UINT32_MAX &&
          x->nslots + (size_t)top + 1 <= UINT32_MAX) {
        if (room(x->doc, (void **)&x->dense, &x->dcap, x->ndense + 1, sizeof *x->dense) < 0 ||
            room(x->doc, (void **)&x->slots, &x->scap, x->nslots + (size_t)top + 1, sizeof *x->slots) < 0)
          return -1;
        d = &x->dense[x->ndense++];
        d->pool = (uint32_t)(n - root);
        d->at = (uint32_t)x->nslots;
        memset(x->slots + x->nslots, 0, ((size_t)top + 1) * sizeof *x->slots);
        x->nslots += (size_t)top + 1;
      }
    }
    for (const struct egg_node *v = egg_first(n); v; v = egg_next(v)) {
      int64_t num = egg_vertex_number(v, &next);
      if (num < 0)
        continue;
      if (d) {
        size_t at = d->at + (size_t)num;
        if (x->slots[at])
          continue;
        if (pos_add(x, x->doc, v) < 0)
          return -1;
        x->slots[at] = (uint32_t)x->npos;
        continue;
      }
      {
        struct egg_map_ent *ve = egg_map_pair(&x->verts, (uintptr_t)n, num);
        if (!ve)
          return -1;
        if (ve->val)
          continue;
        if (pos_add(x, x->doc, v) < 0)
          return -1;
        ve->val = (void *)(uintptr_t)x->npos;
      }
    }
  }
  return 0;
}

/* 1 + the position index of vertex num of the named pool, or 0 when undefined. */
static size_t vertex_at(const struct poly_ix *x, const char *pool, uint32_t plen, int64_t num)
{
  const struct egg_node *pn = egg_names_find(&x->pools, pool, plen);
  const struct dense_pool *d;
  const struct egg_map_ent *ve;
  if (!pn && !plen)
    pn = x->nameless;
  if (!pn)
    return 0;
  if ((d = dense_of(x, (uint32_t)(pn - x->doc->root))) != NULL) {
    size_t end = d + 1 < x->dense + x->ndense ? d[1].at : x->nslots;
    return num >= 0 && (uint64_t)num < end - d->at ? x->slots[d->at + (size_t)num] : 0;
  }
  ve = egg_map_pair_find(&x->verts, (uintptr_t)pn, num);
  return ve && ve->val ? (size_t)(uintptr_t)ve->val : 0;
}

/* The polygon's vertices as position indexes (into ids), or -1 when one is undefined (the
 * reference checks report it) and -2 when out of memory. */
static long polygon_ids(const struct poly_ix *x, const struct egg_node *prim, size_t **ids, size_t *cap)
{
  size_t n = 0;
  for (const struct egg_node *vr = egg_first(prim); vr; vr = egg_next(vr)) {
    const struct egg_node *ref;
    const char *pool;
    uint32_t plen = 0;
    if (vr->spec != S_VREF_PRIM || vr->bad)
      continue;
    for (ref = egg_first(vr); ref && ref->spec != S_REF; ref = egg_next(ref))
      ;
    if (!ref || !egg_nvals(ref) || !(pool = egg_val_str(ref, 0, &plen)))
      return -1;
    if (n + egg_nvals(vr) > *cap) {
      size_t c = (n + egg_nvals(vr)) * 2;
      size_t *g = realloc(*ids, c * sizeof *g);
      if (!g)
        return -2;
      *ids = g;
      *cap = c;
    }
    struct egg_numv nv;
    int plain = egg_numv(vr, &nv);
    for (uint32_t i = 0, i_end = egg_nvals(vr); i < i_end; i++) {
      size_t k = vertex_at(x, pool, plen, plain ? egg_numv_int(&nv, i) : egg_val_int(vr, i));
      if (!k)
        return -1;
      (*ids)[n++] = k - 1;
    }
  }
  return (long)n;
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
  const struct egg_node *root = doc->root, *first = NULL;
  size_t *ids = NULL, idcap = 0;
  unsigned long count = 0, total = 0;
  int rc = -1;
  memset(&x, 0, sizeof x);
  x.doc = doc;
  egg_names_init(&x.pools, root, &doc->map_failures, egg_doc_bound(doc));
  egg_map_init(&x.verts, &doc->map_failures, egg_doc_bound(doc));
  if (pools_index(&x) < 0)
    goto done;
  for (const struct egg_node *p = root; p; p = egg_next_skip(p, root, egg_in_node_list(p))) {
    long n;
    int flat = 1, repeated = 0;
    if (p->spec != S_POLYGON || p->bad)
      continue;
    n = polygon_ids(&x, p, &ids, &idcap);
    if (n == -2)
      goto done;
    if (n < 3)
      continue; /* too few vertices or an undefined one: EGG-VTX-008, EGG-REF-* */
    total++;
    /* a vertex named twice is EGG-VTX-009's (checked, as there, up to 64 vertices) */
    for (long i = 1; i < n && n <= 64 && !repeated; i++)
      for (long j = 0; j < i && !repeated; j++)
        repeated = ids[i] == ids[j];
    for (long i = 1; i + 1 < n && flat; i++)
      flat = geo_triangle_flat(x.pos[ids[0]], x.pos[ids[i]], x.pos[ids[i + 1]]);
    if (flat && !repeated && count++ == 0)
      first = p;
  }
  if (count)
    egg_emit_node(doc, RULE_CORE_TRIANGLE_ZERO_AREA, first, "a non-zero area",
             "<Polygon> whose corners lie on one line (Panda3D drops it at load): %lu of %lu polygons",
             count, total);
  rc = 0;
done:
  free(ids);
  free(x.pos);
  mem_bound_release(egg_doc_bound(doc), x.cap * sizeof *x.pos);
  free(x.dense);
  mem_bound_release(egg_doc_bound(doc), x.dcap * sizeof *x.dense);
  free(x.slots);
  mem_bound_release(egg_doc_bound(doc), x.scap * sizeof *x.slots);
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
