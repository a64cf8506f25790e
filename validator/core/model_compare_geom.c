/* model_compare_geom.c - geometry of two models by content: meshes paired by name and material
 * (else by position), their vertex and triangle counts, then every vertex matched to one of the
 * other side within the bound of both sides' storage, and the triangles compared as triples of
 * matched vertices up to rotation. Writers reorder and deduplicate vertices and drop triangles
 * that then repeat a corner (iqm-notes 5.2, 4.3), so neither order nor duplicates count. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "le32.h"
#include "model_compare_ctx.h"
#include "sort.h"

#define NO_VERTEX UINT32_MAX

static const char *safe(const char *s)
{
  return s ? s : "";
}


/* ---- distinct vertices (equal bytes) ---------------------------------------------------- */

struct vkey_ctx {
  const struct model_varray *arrays[8];
  size_t stride[8]; /* bytes per vertex of each array */
  uint32_t narrays;
};

static int vkey_cmp(uint32_t u, uint32_t v, const void *ctx)
{
  const struct vkey_ctx *k = ctx;
  for (uint32_t i = 0; i < k->narrays; i++) {
    size_t n = k->stride[i];
    int c = memcmp(k->arrays[i]->data + u * n, k->arrays[i]->data + v * n, n);
    if (c)
      return c;
  }
  return 0;
}

/* The attributes that make two vertices of m the same: every one both models carry, tangents
 * aside (the compiler misplaces them). */
static void vkey_init(struct vkey_ctx *k, const struct model *m, const struct model *other)
{
  memset(k, 0, sizeof *k);
  for (uint32_t t = VT_POSITION; t <= VT_COLOR; t++) {
    const struct model_varray *va = model_varray_find(m, t, 1);
    if (t != VT_TANGENT && va && model_varray_find(other, t, 1)) {
      k->stride[k->narrays] = (size_t)va->size * vformat_bytes(va->format);
      k->arrays[k->narrays++] = va;
    }
  }
}

/* Canonical vertex ids (the smallest index with equal bytes in every attribute of vkey_init);
 * NULL when out of memory. */
static uint32_t *vertex_ids(const struct model *m, const struct model *other)
{
  struct vkey_ctx k;
  uint32_t *order, *ids, n = m->num_vertexes;
  vkey_init(&k, m, other);
  order = malloc(((size_t)n + 1) * sizeof *order);
  ids = malloc(((size_t)n + 1) * sizeof *ids);
  if (!order || !ids)
    goto fail;
  for (uint32_t v = 0; v < n; v++)
    order[v] = v;
  if (sort_u32(order, n, vkey_cmp, &k) < 0)
    goto fail;
  /* stable from ascending indexes: the first of equal vertices is the smallest */
  for (uint32_t i = 0; i < n; i++)
    ids[order[i]] = i > 0 && !vkey_cmp(order[i - 1], order[i], &k) ? ids[order[i - 1]] : order[i];
  free(order);
  return ids;
fail:
  free(order);
  free(ids);
  return NULL;
}

/* Both models' canonical ids, sorted out on first use: a conversion whose arrays are equal
 * byte for byte never needs them. */
struct ids {
  struct cmp *c;
  uint32_t *a, *b;
  int tried;
};

/* 0 when l->a and l->b are there, -1 when out of memory (c->oom is set). */
static int ids_ready(struct ids *l)
{
  if (!l->tried) {
    l->tried = 1;
    l->a = vertex_ids(l->c->a->model, l->c->b->model);
    l->b = vertex_ids(l->c->b->model, l->c->a->model);
  }
  if (l->a && l->b)
    return 0;
  l->c->oom = 1;
  return -1;
}

static uint32_t tri_corner_at(const unsigned char *p)
{
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t tri_corner(const struct model *m, uint32_t t, int k)
{
  return tri_corner_at(m->triangles + (size_t)t * 12 + (size_t)k * 4);
}

static int u32_cmp(uint32_t u, uint32_t v, const void *ctx)
{
  (void)ctx;
  return (u > v) - (u < v);
}

/* Distinct vertices in [first, first + count) and triangles in [t0, t0 + nt) with three
 * distinct corners. 0, or -1 when out of memory (the counts would be the raw ones, and a
 * difference could read as none). */
static int distinct_counts(const struct model *m, const uint32_t *ids, uint32_t first,
                           uint32_t count, uint32_t t0, uint32_t nt, uint32_t *nv, uint32_t *ntri)
{
  uint32_t *tmp;
  int sorted;
  *nv = count;
  *ntri = nt;
  if (!ids || (uint64_t)first + count > m->num_vertexes || (uint64_t)t0 + nt > m->num_triangles)
    return 0;
  tmp = malloc(((size_t)count + 1) * sizeof *tmp);
  if (!tmp)
    return -1;
  memcpy(tmp, ids + first, (size_t)count * sizeof *tmp);
  sorted = sort_u32(tmp, count, u32_cmp, NULL) == 0;
  if (sorted) {
    *nv = 0;
    for (uint32_t i = 0; i < count; i++)
      if (i == 0 || tmp[i] != tmp[i - 1])
        (*nv)++;
  }
  free(tmp);
  if (!sorted)
    return -1;
  *ntri = 0;
  for (uint32_t t = t0; t < t0 + nt; t++) {
    uint32_t a = tri_corner(m, t, 0), b = tri_corner(m, t, 1), c = tri_corner(m, t, 2);
    if (a < m->num_vertexes && b < m->num_vertexes && c < m->num_vertexes && ids[a] != ids[b] &&
        ids[b] != ids[c] && ids[a] != ids[c])
      (*ntri)++;
  }
  return 0;
}

/* Vertices that no array holds: a count a header claims (an IQM header names 2^30 of them in
 * 124 bytes). They carry nothing to tell them apart (ids compare only arrays both sides carry),
 * so when either side has them there is no content to compare and the counts are the whole
 * answer: compared as they are (no distinct vertices to count), and nothing is allocated or
 * walked per claimed vertex, so the work stays bounded by the bytes present. */
static int vertices_bare(const struct model *m)
{
  return m->num_vertexes && !m->num_varrays;
}

static void counts_compare(struct cmp *c, struct ids *ids, const struct model_mesh *x,
                           const struct model_mesh *y, uint32_t i)
{
  const struct model *a = c->a->model, *b = c->b->model;
  uint32_t va, vb, ta, tb;
  char bv[160], path[96];
  enum format_elem e = i == NO_VERTEX ? FMT_EL_NONE : FMT_EL_MESH;
  if (i == NO_VERTEX)
    snprintf(path, sizeof path, "model");
  else
    snprintf(path, sizeof path, "meshes[%u]", i);
  if (x->num_vertexes == y->num_vertexes && x->num_triangles == y->num_triangles)
    return;
  if (vertices_bare(a) || vertices_bare(b)) {
    if (x->num_vertexes != y->num_vertexes) {
      snprintf(bv, sizeof bv, "%u%s (vertices in no vertex array: compared by count)",
               y->num_vertexes, e == FMT_EL_MESH ? " in its match" : "");
      cmp_mismatch(c, RULE_CORE_COMPARE_VERTEX_COUNT, e, i, 0, path, bv, "%u", x->num_vertexes);
    }
    if (x->num_triangles != y->num_triangles) {
      snprintf(bv, sizeof bv, "%u%s (vertices in no vertex array: compared by count)",
               y->num_triangles, e == FMT_EL_MESH ? " in its match" : "");
      cmp_mismatch(c, RULE_CORE_COMPARE_TRIANGLE_COUNT, e, i, 0, path, bv, "%u", x->num_triangles);
    }
    return;
  } else {
    if (ids_ready(ids) < 0)
      return;
    if (distinct_counts(a, ids->a, x->first_vertex, x->num_vertexes, x->first_triangle, x->num_triangles, &va, &ta) < 0 ||
        distinct_counts(b, ids->b, y->first_vertex, y->num_vertexes, y->first_triangle, y->num_triangles, &vb, &tb) < 0) {
      c->oom = 1;
      return;
    }
  }
  if (x->num_vertexes != y->num_vertexes && va != vb) {
    snprintf(bv, sizeof bv, "%u%s (%u distinct)", y->num_vertexes, e == FMT_EL_MESH ? " in its match" : "", vb);
    cmp_mismatch(c, RULE_CORE_COMPARE_VERTEX_COUNT, e, i, 0, path, bv, "%u (%u distinct)",
                 x->num_vertexes, va);
  }
  if (x->num_triangles != y->num_triangles && ta != tb) {
    snprintf(bv, sizeof bv, "%u%s (%u with distinct corners)", y->num_triangles,
             e == FMT_EL_MESH ? " in its match" : "", tb);
    cmp_mismatch(c, RULE_CORE_COMPARE_TRIANGLE_COUNT, e, i, 0, path, bv,
                 "%u (%u with distinct corners)", x->num_triangles, ta);
  }
}

/* ---- vertices by content ---------------------------------------------------------------- */

/* One attribute compared. Blend indexes and weights are one attribute: a map from joint to
 * weight (writers reorder and drop zero-weight pairs). A side that lacks colours or skinning
 * has NULL arrays and reads as what a renderer does without them: opaque white, no weight on
 * any joint; so a writer that drops them is found, one that adds white or zero weights is not. */
struct attr {
  uint32_t type;
  const struct model_varray *va, *vb;     /* blend: the weights; NULL: the side lacks it */
  const struct model_varray *ia, *ib;     /* blend: the indexes */
  int unit;                               /* blend: weights as fractions of each vertex's total
                                           * (compare_side.unit_weights) */
};

/* Components a vertex is looked up by: positions and up to 13 of texture coordinates, colours
 * and normals (the rest is checked on the candidates the cells give). */
#define MAX_CELL_DIMS 16

struct geom {
  struct cmp *c;
  const struct model *a, *b;
  struct attr attrs[6];
  uint32_t nattrs;
  const struct model_varray *pa, *pb;     /* positions, or NULL */
  int text_a, text_b;
  int unit_a, unit_b;                     /* normals compared as unit vectors (compare_side) */
  /* B's vertices of the mesh under comparison sorted by cell in every keyed dimension (the 3
   * position components first, then those of the other attributes compared value by value),
   * the key of cells[i] in dimension d at keys[i * ndims + d] */
  uint32_t *cells;
  long long *keys;
  uint32_t ncells, ndims;
  struct cell_dim {
    const struct model_varray *va, *vb;
    uint32_t type, k;
    double h; /* cell size: more than twice any bound of the component */
  } dims[MAX_CELL_DIMS];
};

/* Integer components of colours and weights are normalised (IQM's convention), others raw. */
static int attr_normalized(uint32_t type)
{
  return type == VT_COLOR || type == VT_BLENDWEIGHTS;
}

static double comp_of(const struct model_varray *va, uint32_t v, uint32_t k, uint32_t type)
{
  if (!va) /* a side without colours: opaque white */
    return type == VT_COLOR ? 1.0 : 0.0;
  if (k >= va->size) /* a missing colour alpha is opaque; other missing components 0 */
    return type == VT_COLOR && k == 3 ? 1.0 : 0.0;
  return vformat_get(va->data + ((size_t)v * va->size + k) * vformat_bytes(va->format), va->format,
                     attr_normalized(type));
}

/* How far stored component k may be from the value it stores. */
static double storage_bound(const struct model_varray *va, uint32_t k, double v, int text, uint32_t type)
{
  double m = fabs(v), b;
  if (!va) /* a default, not a stored value */
    return 1e-12;
  b = k < 4 ? va->step[k] : 0;
  switch (va->format) {
  case VF_FLOAT: b += ldexp(1.0, -23) * m; break;
  case VF_HALF: b += ldexp(1.0, -10) * m + ldexp(1.0, -24); break;
  case VF_DOUBLE: b += 1e-12 * m; break;
  case VF_UBYTE: case VF_BYTE: b += attr_normalized(type) ? 2 / 255.0 : 1; break;
  case VF_USHORT: case VF_SHORT: b += attr_normalized(type) ? 2 / 65535.0 : 1; break;
  default: b += attr_normalized(type) ? 2 / 4294967295.0 : 1; break;
  }
  if (text)
    b += 5e-7 * (m > 1 ? m : 1); /* text exporters print 6 to 8 decimals */
  return b + 1e-12;
}

/* Weight of joint j at vertex v (sum over the vertex's pairs naming j). */
static double blend_weight(const struct attr *at, int side_b, uint32_t v, double joint, double *bound,
                           int text)
{
  const struct model_varray *w = side_b ? at->vb : at->va, *ix = side_b ? at->ib : at->ia;
  double sum = 0;
  uint32_t n;
  *bound = 0;
  if (!w) /* an unskinned side weighs nothing on any joint */
    return 0;
  n = w->size < ix->size ? w->size : ix->size;
  for (uint32_t k = 0; k < n; k++)
    if (comp_of(ix, v, k, VT_BLENDINDEXES) == joint) {
      double x = comp_of(w, v, k, VT_BLENDWEIGHTS);
      sum += x;
      *bound += storage_bound(w, k, x, text, VT_BLENDWEIGHTS);
    }
  if (*bound == 0)
    *bound = storage_bound(w, 0, 0, text, VT_BLENDWEIGHTS);
  if (at->unit) { /* a fraction of the vertex's total: its bound grows by the total's */
    double total = 0, tb = 0;
    for (uint32_t k = 0; k < n; k++) {
      double x = comp_of(w, v, k, VT_BLENDWEIGHTS);
      total += x;
      tb += storage_bound(w, k, x, text, VT_BLENDWEIGHTS);
    }
    if (total > 0) {
      *bound = (*bound + sum / total * tb) / total;
      sum /= total;
    }
  }
  return sum;
}

/* Length of normal v of va when it has a direction (else 1: compared as it is); *bound gets
 * how far the length may be from the stored one's (each component's storage bound, in
 * quadrature). A component k of the unit vector is then within (bound_k + *bound) / length. */
static double normal_length(const struct model_varray *va, uint32_t v, int text, double *bound)
{
  double l2 = 0, e2 = 0, len;
  for (uint32_t k = 0; k < 3; k++) {
    double x = comp_of(va, v, k, VT_NORMAL), e = storage_bound(va, k, x, text, VT_NORMAL);
    l2 += x * x;
    e2 += e * e;
  }
  len = sqrt(l2);
  *bound = 0;
  if (!(len > 0) || !isfinite(len))
    return 1;
  *bound = sqrt(e2);
  return len;
}

/* Which attribute differs between vertex u of A and v of B by more than slack times the
 * storage bound (slack 0: at all), or -1 when none; the component and both values go to the
 * outputs. */
static int vertex_differs(const struct geom *g, uint32_t u, uint32_t v, double slack, uint32_t *comp,
                          double *xa, double *xb, double *bound)
{
  for (uint32_t i = 0; i < g->nattrs; i++) {
    const struct attr *at = &g->attrs[i];
    if (at->type == VT_BLENDWEIGHTS) {
      /* every joint either side names with a weight */
      for (int s = 0; s < 2; s++) {
        const struct model_varray *ix = s ? at->ib : at->ia;
        uint32_t vv = s ? v : u;
        for (uint32_t k = 0; ix && k < ix->size; k++) {
          double j = comp_of(ix, vv, k, VT_BLENDINDEXES), ba, bb;
          double wa = blend_weight(at, 0, u, j, &ba, g->text_a), wb = blend_weight(at, 1, v, j, &bb, g->text_b);
          if (!(fabs(wa - wb) <= slack * (ba + bb))) {
            *comp = (uint32_t)j;
            *xa = wa;
            *xb = wb;
            *bound = ba + bb;
            return (int)i;
          }
        }
      }
      continue;
    }
    uint32_t na = at->va ? at->va->size : 4, nb = at->vb ? at->vb->size : 4;
    uint32_t n = na > nb ? na : nb;
    double la = 1, lb = 1, ea = 0, eb = 0; /* lengths and their bounds of normals made unit */
    if (at->type == VT_NORMAL && g->unit_a)
      la = normal_length(at->va, u, g->text_a, &ea);
    if (at->type == VT_NORMAL && g->unit_b)
      lb = normal_length(at->vb, v, g->text_b, &eb);
    for (uint32_t k = 0; k < n; k++) {
      double p = comp_of(at->va, u, k, at->type), q = comp_of(at->vb, v, k, at->type);
      double b = (storage_bound(at->va, k, p, g->text_a, at->type) + ea) / la +
                 (storage_bound(at->vb, k, q, g->text_b, at->type) + eb) / lb;
      p /= la;
      q /= lb;
      if (!(fabs(p - q) <= slack * b)) {
        *comp = k;
        *xa = p;
        *xb = q;
        *bound = b;
        return (int)i;
      }
    }
  }
  return -1;
}

static long long cell_key(const struct cell_dim *d, const struct model_varray *va, uint32_t v)
{
  double x = comp_of(va, v, d->k, d->type) / d->h;
  return isfinite(x) && fabs(x) < 4e18 ? (long long)floor(x) : 0;
}

static int cell_order(uint32_t u, uint32_t v, const void *ctx)
{
  const struct geom *g = ctx;
  const long long *x = g->keys + (size_t)u * g->ndims, *y = g->keys + (size_t)v * g->ndims;
  for (uint32_t d = 0; d < g->ndims; d++)
    if (x[d] != y[d])
      return x[d] < y[d] ? -1 : 1;
  return 0;
}

static void dim_add(struct geom *g, const struct model_varray *va, const struct model_varray *vb,
                    uint32_t type, uint32_t k)
{
  if (g->ndims < MAX_CELL_DIMS) {
    struct cell_dim *d = &g->dims[g->ndims++];
    d->va = va;
    d->vb = vb;
    d->type = type;
    d->k = k;
    d->h = 0;
  }
}

/* B's vertices [first, first + n) sorted by cell in every keyed dimension, each cell larger than
 * twice any bound of its component, so that a counterpart lies in a neighbouring cell in every
 * dimension. Keyed by position alone, many vertices at one position (with other texture
 * coordinates, say) were one cell scanned whole for each lookup: quadratic. */
static int cells_build(struct geom *g, const struct model_mesh *x, const struct model_mesh *y)
{
  const struct model_mesh *ms[2] = {x, y};
  int texts[2] = {g->text_a, g->text_b};
  uint32_t *perm = NULL;
  long long *sorted = NULL;
  g->ndims = 0;
  for (uint32_t k = 0; k < 3; k++)
    dim_add(g, g->pa, g->pb, VT_POSITION, k);
  for (uint32_t i = 0; i < g->nattrs; i++) {
    const struct attr *at = &g->attrs[i];
    uint32_t na = at->va ? at->va->size : 4, nb = at->vb ? at->vb->size : 4;
    /* blend weights are a map from joint to weight; normals made unit are not their values */
    if (at->type == VT_POSITION || at->type == VT_BLENDWEIGHTS ||
        (at->type == VT_NORMAL && (g->unit_a || g->unit_b)))
      continue;
    for (uint32_t k = 0; k < (na > nb ? na : nb); k++)
      dim_add(g, at->va, at->vb, at->type, k);
  }
  for (uint32_t d = 0; d < g->ndims; d++) {
    struct cell_dim *cd = &g->dims[d];
    double h = 0;
    for (int s = 0; s < 2; s++) {
      const struct model_varray *va = s ? cd->vb : cd->va;
      for (uint32_t v = ms[s]->first_vertex; v < ms[s]->first_vertex + ms[s]->num_vertexes; v++) {
        double p = comp_of(va, v, cd->k, cd->type), b = storage_bound(va, cd->k, p, texts[s], cd->type);
        if (isfinite(b) && b > h)
          h = b;
      }
    }
    cd->h = 4 * h + 1e-9;
  }
  free(g->cells);
  free(g->keys);
  g->keys = NULL;
  g->ncells = 0;
  g->cells = malloc(((size_t)y->num_vertexes + 1) * sizeof *g->cells);
  g->keys = malloc(((size_t)y->num_vertexes + 1) * g->ndims * sizeof *g->keys);
  perm = malloc(((size_t)y->num_vertexes + 1) * sizeof *perm);
  sorted = malloc(((size_t)y->num_vertexes + 1) * g->ndims * sizeof *sorted);
  if (!g->cells || !g->keys || !perm || !sorted) {
    free(perm);
    free(sorted);
    return -1; /* the caller's geometry cleanup frees cells and keys */
  }
  /* keys by vertex (less the mesh's first) to sort, then in the sorted order */
  for (uint32_t i = 0; i < y->num_vertexes; i++) {
    perm[i] = i;
    for (uint32_t d = 0; d < g->ndims; d++)
      g->keys[(size_t)i * g->ndims + d] = cell_key(&g->dims[d], g->dims[d].vb, y->first_vertex + i);
  }
  g->ncells = y->num_vertexes;
  if (sort_u32(perm, g->ncells, cell_order, g) < 0) {
    free(perm);
    free(sorted);
    return -1;
  }
  for (uint32_t i = 0; i < g->ncells; i++) {
    g->cells[i] = y->first_vertex + perm[i];
    memcpy(sorted + (size_t)i * g->ndims, g->keys + (size_t)perm[i] * g->ndims, g->ndims * sizeof *sorted);
  }
  free(g->keys);
  g->keys = sorted;
  free(perm);
  return 0;
}

/* [*lo, *hi), whose entries share their keys before dimension d, narrowed to those whose key in
 * d is want. */
static void cells_narrow(const struct geom *g, uint32_t d, long long want, size_t *lo, size_t *hi)
{
  size_t a = *lo, b = *hi, c;
  while (a < b) { /* first >= want */
    size_t mid = a + (b - a) / 2;
    if (g->keys[mid * g->ndims + d] < want)
      a = mid + 1;
    else
      b = mid;
  }
  c = a;
  b = *hi;
  while (c < b) { /* first > want */
    size_t mid = c + (b - c) / 2;
    if (g->keys[mid * g->ndims + d] <= want)
      c = mid + 1;
    else
      b = mid;
  }
  *lo = a;
  *hi = c;
}

/* A vertex of B in [lo, hi) within bound of u whose cells neighbour ku's in dimensions d to
 * dmax - 1; with near, the first one that differs in an attribute other than its position. */
static uint32_t cells_find(const struct geom *g, const long long *ku, uint32_t d, uint32_t dmax,
                           size_t lo, size_t hi, uint32_t u, uint32_t *near)
{
  if (d == dmax) {
    for (; lo < hi; lo++) {
      uint32_t v = g->cells[lo], comp;
      double xa, xb, bd;
      int k = vertex_differs(g, u, v, 1, &comp, &xa, &xb, &bd);
      if (k < 0)
        return v;
      if (near && *near == NO_VERTEX && g->attrs[k].type != VT_POSITION)
        *near = v;
    }
    return NO_VERTEX;
  }
  for (int delta = -1; delta <= 1; delta++) {
    size_t l = lo, h = hi;
    uint32_t v;
    cells_narrow(g, d, ku[d] + delta, &l, &h);
    if (l < h && (v = cells_find(g, ku, d + 1, dmax, l, h, u, near)) != NO_VERTEX)
      return v;
  }
  return NO_VERTEX;
}

/* A vertex of B within bound of vertex u of A, or NO_VERTEX; with near (asked once, for the
 * report: it scans whole position cells), *near gets one at the same position when there is
 * no full match. */
static uint32_t vertex_find(const struct geom *g, uint32_t u, uint32_t *near)
{
  long long ku[MAX_CELL_DIMS];
  uint32_t v;
  for (uint32_t d = 0; d < g->ndims; d++)
    ku[d] = cell_key(&g->dims[d], g->dims[d].va, u);
  v = cells_find(g, ku, 0, g->ndims, 0, g->ncells, u, NULL);
  if (v == NO_VERTEX && near) {
    *near = NO_VERTEX;
    cells_find(g, ku, 0, 3, 0, g->ncells, u, near);
  }
  return v;
}

static const char *attr_name(uint32_t type)
{
  static const char *const names[] = {"position", "texcoord", "normal", "tangent", "blendindexes",
                                      "blendweights", "color"};
  return type <= VT_COLOR ? names[type] : "custom";
}

/* ---- triangles as triples up to rotation ------------------------------------------------- */

struct tri_set {
  uint32_t *v;   /* 3 per triangle, rotated so the smallest id leads */
  uint32_t *src; /* the triangle each came from */
  uint32_t *order;
  uint32_t n;
};

static int tri_cmp(uint32_t x, uint32_t y, const void *ctx)
{
  const uint32_t *v = ctx;
  for (int k = 0; k < 3; k++)
    if (v[3 * x + k] != v[3 * y + k])
      return v[3 * x + k] < v[3 * y + k] ? -1 : 1;
  return 0;
}

static int tri_cmp_sets(const struct tri_set *s, uint32_t i, const struct tri_set *t, uint32_t j)
{
  const uint32_t *x = s->v + 3 * (size_t)s->order[i], *y = t->v + 3 * (size_t)t->order[j];
  for (int k = 0; k < 3; k++)
    if (x[k] != y[k])
      return x[k] < y[k] ? -1 : 1;
  return 0;
}

/* The mesh's triangles through map (vertex -> canonical id of B); ones that repeat a corner are
 * dropped (writers drop them). */
static int tri_set_build(struct tri_set *s, const struct model *m, const struct model_mesh *x,
                         const uint32_t *map, uint32_t map_base)
{
  memset(s, 0, sizeof *s);
  s->v = malloc(((size_t)x->num_triangles + 1) * 3 * sizeof *s->v);
  s->src = malloc(((size_t)x->num_triangles + 1) * sizeof *s->src);
  s->order = malloc(((size_t)x->num_triangles + 1) * sizeof *s->order);
  if (!s->v || !s->src || !s->order)
    return -1;
  for (uint32_t t = x->first_triangle; t < x->first_triangle + x->num_triangles; t++) {
    uint32_t c[3], r = 0;
    for (int k = 0; k < 3; k++) {
      uint32_t v = tri_corner(m, t, k);
      c[k] = v >= map_base && v - map_base < x->num_vertexes ? map[v - map_base] : NO_VERTEX;
    }
    if (c[0] != NO_VERTEX && (c[0] == c[1] || c[1] == c[2] || c[0] == c[2]))
      continue;
    if (c[1] < c[r])
      r = 1;
    if (c[2] < c[r])
      r = 2;
    for (int k = 0; k < 3; k++)
      s->v[3 * (size_t)s->n + k] = c[(r + k) % 3];
    s->src[s->n] = t;
    s->order[s->n] = s->n;
    s->n++;
  }
  return sort_u32(s->order, s->n, tri_cmp, s->v);
}

static void tri_set_free(struct tri_set *s)
{
  free(s->v);
  free(s->src);
  free(s->order);
}

/* ---- arrays equal byte for byte (the lossless path) -------------------------------------- */

/* 1 when no component of va's vertices [first, first + n) is a NaN or an infinity, nor any of
 * its steps: there, equal bytes are not equal values for vertex_differs (NaN differs from
 * itself, and 0 x an infinite bound is no bound). */
static int varray_finite(const struct model_varray *va, uint32_t first, uint32_t n)
{
  size_t cnt = (size_t)n * va->size, w = vformat_bytes(va->format);
  const unsigned char *p = va->data + (size_t)first * va->size * w;
  for (int k = 0; k < 4; k++)
    if (!isfinite(va->step[k]))
      return 0;
  switch (va->format) { /* little-endian: the exponent is in the last byte or two */
  case VF_HALF:
    for (size_t i = 0; i < cnt; i++, p += 2)
      if ((p[1] & 0x7c) == 0x7c)
        return 0;
    return 1;
  case VF_FLOAT: {
    /* two floats a word, no branch a value: adding 1 to an exponent of all ones (the sign bit
     * masked off) carries into that float's sign bit, and no further */
    const uint64_t m = 0x7f8000007f800000u, one = 0x0080000000800000u, top = 0x8000000080000000u;
    uint64_t bad = 0;
    size_t i = 0;
    for (; i + 2 <= cnt; i += 2, p += 8) {
      uint64_t word = (uint64_t)le32_read(p) | (uint64_t)le32_read(p + 4) << 32;
      bad |= ((word & m) + one) & top;
    }
    if (i < cnt && (p[3] & 0x7f) == 0x7f && (p[2] & 0x80))
      return 0;
    return !bad;
  }
  case VF_DOUBLE:
    for (size_t i = 0; i < cnt; i++, p += 8)
      if ((p[7] & 0x7f) == 0x7f && (p[6] & 0xf0) == 0xf0)
        return 0;
    return 1;
  default: return 1;
  }
}

/* 1 when va's vertices from fa and vb's from fb hold the same n vertices in the same storage,
 * all finite. Both may be one memory (convert's proof of a file written byte for byte as its
 * input compares the model with itself): equal without reading it twice. */
static int varrays_same(const struct model_varray *va, uint32_t fa, const struct model_varray *vb,
                        uint32_t fb, uint32_t n)
{
  size_t w = (size_t)va->size * vformat_bytes(va->format);
  const unsigned char *x = va->data + fa * w, *y = vb->data + fb * w;
  return va->format == vb->format && va->size == vb->size && isfinite(vb->step[0]) &&
         isfinite(vb->step[1]) && isfinite(vb->step[2]) && isfinite(vb->step[3]) &&
         (x == y || !memcmp(x, y, (size_t)n * w)) && varray_finite(va, fa, n);
}

/* 1 when the two meshes hold the same vertices in the same order (every compared attribute
 * equal byte for byte) and the same triangles over them: then every vertex matches its own
 * index exactly and both triangle sets are one, which is what the element-wise comparison
 * would find, at the cost of one memcmp per array. */
static int mesh_bulk_same(const struct geom *g, const struct model_mesh *x, const struct model_mesh *y)
{
  uint32_t n = x->num_vertexes;
  if (n != y->num_vertexes || x->num_triangles != y->num_triangles)
    return 0;
  for (uint32_t i = 0; i < g->nattrs; i++) {
    const struct attr *at = &g->attrs[i];
    if (!at->va || !at->vb)
      return 0; /* one side's default against the other's values */
    if (at->type == VT_NORMAL && (g->unit_a || g->unit_b))
      return 0; /* compared as unit vectors, not as stored */
    if (!varrays_same(at->va, x->first_vertex, at->vb, y->first_vertex, n))
      return 0;
    if (at->type == VT_BLENDWEIGHTS &&
        !varrays_same(at->ia, x->first_vertex, at->ib, y->first_vertex, n))
      return 0;
  }
  if (!x->num_triangles)
    return 1; /* no triangle array to compare (it may be NULL) */
  if (x->first_vertex == y->first_vertex) {
    const unsigned char *ta = g->a->triangles + (size_t)x->first_triangle * 12;
    const unsigned char *tb = g->b->triangles + (size_t)y->first_triangle * 12;
    return ta == tb || !memcmp(ta, tb, (size_t)x->num_triangles * 12);
  }
  for (uint32_t t = 0; t < x->num_triangles; t++)
    for (int k = 0; k < 3; k++)
      if (tri_corner(g->a, x->first_triangle + t, k) - x->first_vertex !=
          tri_corner(g->b, y->first_triangle + t, k) - y->first_vertex)
        return 0;
  return 1;
}

/* 1 when the n bytes at x and y are equal; the common widths inline (bulk_counts asks 3 times a
 * triangle). */
static int bytes_same(const unsigned char *x, const unsigned char *y, size_t n)
{
  switch (n) {
  case 4: return !memcmp(x, y, 4);
  case 8: return !memcmp(x, y, 8);
  case 12: return !memcmp(x, y, 12);
  case 16: return !memcmp(x, y, 16);
  default: return !memcmp(x, y, n);
  }
}

/* vkey_cmp(u, v) == 0, sooner. */
static int vkey_same(const struct vkey_ctx *k, uint32_t u, uint32_t v)
{
  for (uint32_t i = 0; i < k->narrays; i++) {
    size_t n = k->stride[i];
    if (!bytes_same(k->arrays[i]->data + u * n, k->arrays[i]->data + v * n, n))
      return 0;
  }
  return 1;
}

/* 1 when vertices u and v differ in the first array of k, whose vertices are s bytes at d: the
 * first array (positions when there are any) settles almost every pair bulk_counts asks about. */
static inline int first_differs(const unsigned char *d, size_t s, uint32_t u, uint32_t v)
{
  const unsigned char *x = d + u * s, *y = d + v * s;
  if (s == 12) { /* float positions: two loads a side, no call */
    uint64_t x0, y0;
    uint32_t x1, y1;
    memcpy(&x0, x, 8);
    memcpy(&y0, y, 8);
    memcpy(&x1, x + 8, 4);
    memcpy(&y1, y + 8, 4);
    return ((x0 ^ y0) | (x1 ^ y1)) != 0;
  }
  return memcmp(x, y, s) != 0;
}

/* used[v] = 1 for each vertex of mesh x its triangles name (every one when it has none);
 * returns how many vertices are used. */
static uint32_t mesh_used(const struct model *a, const struct model_mesh *x, uint8_t *used)
{
  uint32_t lo = x->first_vertex, n = x->num_vertexes, count = 0;
  const unsigned char *p;
  if (!x->num_triangles) { /* the triangle array may be NULL: no offset from it */
    memset(used, 1, n);
    return n;
  }
  p = a->triangles + (size_t)x->first_triangle * 12;
  for (size_t i = 0; i < (size_t)x->num_triangles * 3; i++, p += 4) {
    uint32_t v = tri_corner_at(p) - lo; /* wraps below the mesh */
    if (v < n && !used[v]) {
      used[v] = 1;
      count++;
    }
  }
  return count;
}

/* For meshes mesh_bulk_same found equal (x's triangles are y's, corner for corner less each
 * mesh's first vertex, and x has y's number of vertices), in one pass over y's triangles: the
 * vertices used (returned, used[] marked as mesh_used marks it) and, in *kept, how many of the
 * triangles tri_set_build keeps: those whose corners are distinct vertices by content, or whose
 * first corner is out of the mesh (its id is then NO_VERTEX, which no other id repeats to drop
 * it), without sorting out canonical ids. Two corners out of the mesh share NO_VERTEX; one in
 * and one out never match. A triangle whose three corners are in the mesh with pairwise
 * different float positions is kept without more (equal bytes in every array need equal
 * positions), its corners' positions read once. */
static uint32_t bulk_counts(const struct geom *g, const struct model_mesh *y, uint8_t *used, uint32_t *kept)
{
  struct vkey_ctx k;
  uint32_t count = 0, kt = 0, lo = y->first_vertex, n = y->num_vertexes;
  const unsigned char *p, *d0;
  size_t s0;
  if (!y->num_triangles) {
    memset(used, 1, n);
    *kept = 0;
    return n;
  }
  p = g->b->triangles + (size_t)y->first_triangle * 12;
  vkey_init(&k, g->b, g->a);
  d0 = k.narrays ? k.arrays[0]->data : NULL;
  s0 = k.narrays ? k.stride[0] : 0;
/* corners u != v (in the mesh) with one id: equal bytes in every array (no array: all equal) */
#define VERTEX_SAME(u, v) (!d0 || (!first_differs(d0, s0, lo + (u), lo + (v)) && vkey_same(&k, lo + (u), lo + (v))))
  for (uint32_t t = 0; t < y->num_triangles; t++, p += 12) {
    /* corner - lo wraps for corners below the mesh, so one compare tests the range */
    uint32_t a = tri_corner_at(p) - lo, b = tri_corner_at(p + 4) - lo, c = tri_corner_at(p + 8) - lo;
    int in_b = b < n, in_c = c < n;
    if (a < n) {
      count += used[a] ^ 1u; /* used[] holds 0 or 1 */
      used[a] = 1;
    }
    if (in_b) {
      count += used[b] ^ 1u;
      used[b] = 1;
    }
    if (in_c) {
      count += used[c] ^ 1u;
      used[c] = 1;
    }
    if (a >= n) {
      kt++;
      continue;
    }
    if (s0 == 12 && in_b && in_c) {
      const unsigned char *pa = d0 + (size_t)(lo + a) * 12, *pb = d0 + (size_t)(lo + b) * 12,
                          *pc = d0 + (size_t)(lo + c) * 12;
      uint64_t a0, b0, c0;
      uint32_t a1, b1, c1;
      memcpy(&a0, pa, 8);
      memcpy(&b0, pb, 8);
      memcpy(&c0, pc, 8);
      memcpy(&a1, pa + 8, 4);
      memcpy(&b1, pb + 8, 4);
      memcpy(&c1, pc + 8, 4);
      if (((a0 ^ b0) | (a1 ^ b1)) && ((b0 ^ c0) | (b1 ^ c1)) && ((a0 ^ c0) | (a1 ^ c1))) {
        kt++;
        continue;
      }
    }
    if ((in_b && (a == b || VERTEX_SAME(a, b))) ||
        (in_b == in_c && (!in_b || b == c || VERTEX_SAME(b, c))) ||
        (in_c && (a == c || VERTEX_SAME(a, c))))
      continue;
    kt++;
  }
#undef VERTEX_SAME
  *kept = kt;
  return count;
}

/* ---- one pair of meshes ----------------------------------------------------------------- */

static void mesh_content(struct geom *g, struct ids *ids, const struct model_mesh *x,
                         const struct model_mesh *y, uint32_t i)
{
  struct cmp *c = g->c;
  const struct model *a = g->a, *b = g->b;
  uint32_t *map = NULL, unmatched = 0, first_bad = NO_VERTEX, near_bad = NO_VERTEX, checked = 0;
  uint32_t *bmap = NULL;
  const uint32_t *idb;
  uint8_t *used = NULL;
  struct tri_set ta, tb;
  int identity;
  unsigned long inexact = 0; /* identity pass: vertices equal within the bound only */
  char path[96], bv[200];

  memset(&ta, 0, sizeof ta);
  memset(&tb, 0, sizeof tb);
  if ((uint64_t)x->first_vertex + x->num_vertexes > a->num_vertexes ||
      (uint64_t)y->first_vertex + y->num_vertexes > b->num_vertexes ||
      (uint64_t)x->first_triangle + x->num_triangles > a->num_triangles ||
      (uint64_t)y->first_triangle + y->num_triangles > b->num_triangles)
    return; /* ranges the validator already reported */
  if (mesh_bulk_same(g, x, y)) {
    uint32_t kept;
    used = calloc(((size_t)x->num_vertexes + 1), 1);
    if (!used) {
      c->oom = 1;
      return;
    }
    c->r.vertices_checked += bulk_counts(g, y, used, &kept);
    c->r.triangles_checked += kept;
    free(used);
    return;
  }
  if (ids_ready(ids) < 0)
    return;
  idb = ids->b;
  map = malloc(((size_t)x->num_vertexes + 1) * sizeof *map);
  used = calloc(((size_t)x->num_vertexes + 1), 1);
  bmap = malloc(((size_t)y->num_vertexes + 1) * sizeof *bmap);
  if (!map || !used || !bmap)
    goto oom;
  mesh_used(a, x, used);
  /* in order first (same writer, same order); by content only when that fails */
  identity = x->num_vertexes == y->num_vertexes;
  for (uint32_t v = 0; identity && v < x->num_vertexes; v++) {
    uint32_t comp;
    double xa, xb, bd;
    /* exact first: the common case of a lossless conversion needs one pass, not two */
    if (used[v] && vertex_differs(g, x->first_vertex + v, y->first_vertex + v, 0, &comp, &xa, &xb, &bd) >= 0) {
      inexact++;
      if (vertex_differs(g, x->first_vertex + v, y->first_vertex + v, 1, &comp, &xa, &xb, &bd) >= 0)
        identity = 0;
    }
  }
  if (identity)
    c->r.vertices_inexact += inexact;
  if (!identity && (!g->pa || !g->pb)) {
    /* no positions to look vertices up by: counts were all that could be compared */
    free(map);
    free(used);
    free(bmap);
    return;
  }
  if (!identity && cells_build(g, x, y) < 0)
    goto oom;
  for (uint32_t v = 0; v < x->num_vertexes; v++) {
    uint32_t near, w;
    map[v] = NO_VERTEX;
    if (!used[v])
      continue;
    near = NO_VERTEX;
    w = identity ? y->first_vertex + v : vertex_find(g, x->first_vertex + v, unmatched ? NULL : &near);
    if (w == NO_VERTEX) {
      if (!unmatched++) {
        first_bad = v;
        near_bad = near;
      }
      continue;
    }
    map[v] = idb ? idb[w] : w;
    checked++;
    if (!identity) { /* matched within the bound: bit for bit too? (identity counted above) */
      uint32_t comp;
      double xa, xb, bd;
      if (vertex_differs(g, x->first_vertex + v, w, 0, &comp, &xa, &xb, &bd) >= 0)
        c->r.vertices_inexact++;
    }
  }
  c->r.vertices_checked += checked;
  if (unmatched) {
    uint32_t u = x->first_vertex + first_bad, comp = 0;
    double xa = 0, xb = 0, bd = 0;
    int d = near_bad == NO_VERTEX ? 0 : vertex_differs(g, u, near_bad, 1, &comp, &xa, &xb, &bd);
    snprintf(path, sizeof path, "meshes[%u].vertexes[%u]", i, u);
    if (near_bad == NO_VERTEX) {
      snprintf(bv, sizeof bv, "no vertex at that position within bound in its match");
      cmp_mismatch(c, RULE_CORE_COMPARE_VERTEX, FMT_EL_MESH, i, 0, path, bv,
                   "position (%.9g %.9g %.9g) has no counterpart (%u of %u vertices unmatched)",
                   comp_of(g->pa, u, 0, VT_POSITION), comp_of(g->pa, u, 1, VT_POSITION),
                   comp_of(g->pa, u, 2, VT_POSITION), unmatched, checked + unmatched);
    } else {
      snprintf(bv, sizeof bv, "%.9g at vertexes[%u]", xb, near_bad);
      cmp_mismatch(c, RULE_CORE_COMPARE_VERTEX, FMT_EL_MESH, i, 0, path, bv,
                   "%s %s%u%s %.9g differs by %.3g, bound %.3g (%u of %u vertices unmatched)",
                   attr_name(g->attrs[d].type), g->attrs[d].type == VT_BLENDWEIGHTS ? "of joint " : "[",
                   comp, g->attrs[d].type == VT_BLENDWEIGHTS ? "" : "]", xa, fabs(xa - xb), bd,
                   unmatched, checked + unmatched);
    }
  }
  /* B's triangles through its canonical ids */
  for (uint32_t v = 0; v < y->num_vertexes; v++)
    bmap[v] = idb ? idb[y->first_vertex + v] : y->first_vertex + v;
  if (tri_set_build(&ta, a, x, map, x->first_vertex) < 0 ||
      tri_set_build(&tb, b, y, bmap, y->first_vertex) < 0)
    goto oom;
  {
    uint32_t p = 0, q = 0, only_a = 0, only_b = 0, first_a = NO_VERTEX, first_b = NO_VERTEX;
    while (p < ta.n || q < tb.n) {
      int d = p >= ta.n ? 1 : q >= tb.n ? -1 : tri_cmp_sets(&ta, p, &tb, q);
      if (d == 0) {
        p++;
        q++;
        c->r.triangles_checked++;
      } else if (d < 0) {
        if (!only_a++ || ta.src[ta.order[p]] < first_a)
          first_a = ta.src[ta.order[p]];
        p++;
      } else {
        if (!only_b++ || tb.src[tb.order[q]] < first_b)
          first_b = tb.src[tb.order[q]];
        q++;
      }
    }
    if (only_a || only_b) {
      snprintf(path, sizeof path, "meshes[%u].triangles", i);
      if (first_b != NO_VERTEX)
        snprintf(bv, sizeof bv, "%u triangles not here, first triangles[%u] (%u %u %u)", only_b,
                 first_b, tri_corner(b, first_b, 0), tri_corner(b, first_b, 1), tri_corner(b, first_b, 2));
      else
        snprintf(bv, sizeof bv, "every triangle of its match here");
      if (first_a != NO_VERTEX)
        cmp_mismatch(c, RULE_CORE_COMPARE_TRIANGLES, FMT_EL_MESH, i, 0, path, bv,
                     "%u of %u triangles have no counterpart, first triangles[%u] (%u %u %u)", only_a,
                     ta.n, first_a, tri_corner(a, first_a, 0), tri_corner(a, first_a, 1),
                     tri_corner(a, first_a, 2));
      else
        cmp_mismatch(c, RULE_CORE_COMPARE_TRIANGLES, FMT_EL_MESH, i, 0, path, bv,
                     "all %u triangles have a counterpart", ta.n);
    }
  }
  tri_set_free(&ta);
  tri_set_free(&tb);
  free(map);
  free(used);
  free(bmap);
  return;
oom:
  c->oom = 1;
  tri_set_free(&ta);
  tri_set_free(&tb);
  free(map);
  free(used);
  free(bmap);
}

/* A side's blend weights and indexes, or NULL for both when it is not skinned (no joint for a
 * weight to name is no skin either: a QMSH mesh flagged animated without bones). */
static void skin_arrays(const struct model *m, const struct model_varray **w, const struct model_varray **ix)
{
  *w = model_varray_find(m, VT_BLENDWEIGHTS, 1);
  *ix = model_varray_find(m, VT_BLENDINDEXES, 1);
  if (!*w || !*ix || !m->num_joints)
    *w = *ix = NULL;
}

static void geom_init(struct geom *g, struct cmp *c)
{
  static const uint32_t types[] = {VT_POSITION, VT_TEXCOORD, VT_NORMAL, VT_COLOR};
  memset(g, 0, sizeof *g);
  g->c = c;
  g->a = c->a->model;
  g->b = c->b->model;
  g->text_a = cmp_side_is_text(c->a);
  g->text_b = cmp_side_is_text(c->b);
  g->unit_a = c->a->unit_normals;
  g->unit_b = c->b->unit_normals;
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
    const struct model_varray *x = model_varray_find(g->a, types[i], 1);
    const struct model_varray *y = model_varray_find(g->b, types[i], 1);
    /* colours on one side only are compared with opaque white; other attributes on one side
     * only are attrs_present's finding */
    if ((x && y) || (types[i] == VT_COLOR && (x || y))) {
      g->attrs[g->nattrs].type = types[i];
      g->attrs[g->nattrs].va = x;
      g->attrs[g->nattrs++].vb = y;
    }
  }
  {
    const struct model_varray *wa, *wb, *ia, *ib;
    skin_arrays(g->a, &wa, &ia);
    skin_arrays(g->b, &wb, &ib);
    if (wa || wb) { /* one side unskinned: every weight there is 0 */
      struct attr *at = &g->attrs[g->nattrs++];
      at->type = VT_BLENDWEIGHTS;
      at->va = wa;
      at->vb = wb;
      at->ia = ia;
      at->ib = ib;
      at->unit = c->a->unit_weights || c->b->unit_weights;
    }
  }
  g->pa = model_varray_find(g->a, VT_POSITION, 1);
  g->pb = model_varray_find(g->b, VT_POSITION, 1);
  if (!g->pa || !g->pb)
    g->pa = g->pb = NULL;
}

/* Positions, texture coordinates and normals that one file has and the other lacks: no default
 * stands in for them (a missing normal is computed by the engine, a missing texcoord is no
 * mapping), so the difference is the finding itself. Only between files that both have
 * vertices: otherwise the counts already differ. */
static void attrs_present(struct cmp *c)
{
  static const uint32_t types[] = {VT_POSITION, VT_TEXCOORD, VT_NORMAL};
  const struct model *a = c->a->model, *b = c->b->model;
  enum format_elem e = a->num_meshes ? FMT_EL_MESH : FMT_EL_NONE;
  if (!a->num_vertexes || !b->num_vertexes)
    return;
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
    const struct model_varray *x = model_varray_find(a, types[i], 1);
    const struct model_varray *y = model_varray_find(b, types[i], 1);
    char path[48], bv[64];
    if (!x == !y)
      continue;
    /* an array the writer of one side added to fit its format, announced (MDL-CNV-014) */
    if ((!y && (c->b->added_attrs >> types[i] & 1)) || (!x && (c->a->added_attrs >> types[i] & 1)))
      continue;
    snprintf(path, sizeof path, "vertexarrays.%s", attr_name(types[i]));
    if (y)
      snprintf(bv, sizeof bv, "%u components per vertex", y->size);
    else
      snprintf(bv, sizeof bv, "none");
    if (x)
      cmp_mismatch(c, RULE_CORE_COMPARE_VERTEX_ATTRIBUTE, e, 0, 0, path, bv,
                   "%u components on each of %u vertices", x->size, a->num_vertexes);
    else
      cmp_mismatch(c, RULE_CORE_COMPARE_VERTEX_ATTRIBUTE, e, 0, 0, path, bv, "none");
  }
}

static int mesh_key_cmp(const struct model_mesh *x, const struct model_mesh *y)
{
  int d = strcmp(safe(x->name), safe(y->name));
  return d ? d : strcmp(safe(x->material), safe(y->material));
}

static int mesh_order(uint32_t u, uint32_t v, const void *ctx)
{
  const struct model *m = ctx;
  return mesh_key_cmp(&m->meshes[u], &m->meshes[v]);
}

/* B's first unused mesh with x's name and material, or NO_VERTEX: byname holds B's meshes sorted
 * by (name, material), index order within each (a stable sort), and at[group start] how far
 * that group has been used up; every mesh is stepped over once, so pairing M meshes costs
 * M log M, not the M^2 name comparisons of a scan per mesh. */
static uint32_t mesh_by_name(const struct model *b, const uint32_t *byname, uint32_t *at,
                             const uint8_t *used, const struct model_mesh *x)
{
  uint32_t lo = 0, hi = b->num_meshes;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (mesh_key_cmp(&b->meshes[byname[mid]], x) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == b->num_meshes || mesh_key_cmp(&b->meshes[byname[lo]], x))
    return NO_VERTEX;
  if (at[lo] < lo)
    at[lo] = lo;
  while (at[lo] < b->num_meshes && used[byname[at[lo]]] &&
         !mesh_key_cmp(&b->meshes[byname[at[lo]]], x))
    at[lo]++;
  if (at[lo] == b->num_meshes || mesh_key_cmp(&b->meshes[byname[at[lo]]], x))
    return NO_VERTEX;
  return byname[at[lo]];
}

void cmp_meshes(struct cmp *c)
{
  const struct model *a = c->a->model, *b = c->b->model;
  struct model_mesh whole_a, whole_b;
  struct geom g;
  uint8_t *used = calloc(((size_t)b->num_meshes + 1), 1);
  struct ids ids = {c, NULL, NULL, 0};
  uint32_t *byname = malloc(((size_t)b->num_meshes + 1) * sizeof *byname);
  uint32_t *at = calloc((size_t)b->num_meshes + 1, sizeof *at);
  uint32_t *drawn = malloc(((size_t)b->num_meshes + 1) * sizeof *drawn), nb;
  int bare;
  memset(&whole_b, 0, sizeof whole_b);
  if (!used || !byname || !at || !drawn) {
    c->oom = 1;
    free(drawn);
    free(byname);
    free(at);
    free(used);
    return;
  }
  for (uint32_t j = 0; j < b->num_meshes; j++)
    byname[j] = j;
  if (sort_u32(byname, b->num_meshes, mesh_order, b) < 0) {
    c->oom = 1;
    free(drawn);
    free(byname);
    free(at);
    free(used);
    return;
  }
  geom_init(&g, c);
  attrs_present(c);
  /* meshes without triangles a writer left out, announced (write_loss.h): B's are not compared
   * (marked used, not counted, and A's i-th mesh stands for B's i-th drawn one) */
  nb = b->num_meshes;
  whole_b.num_vertexes = b->num_vertexes;
  if (c->b->empty_meshes_dropped) {
    nb = 0;
    for (uint32_t j = 0; j < b->num_meshes; j++)
      if (b->meshes[j].num_triangles)
        drawn[nb++] = j;
      else {
        used[j] = 1;
        whole_b.num_vertexes -= b->meshes[j].num_vertexes <= whole_b.num_vertexes ? b->meshes[j].num_vertexes : 0;
      }
  }
  cmp_count(c, RULE_CORE_COMPARE_MESH_COUNT, FMT_EL_MESH, "meshes", a->num_meshes, nb);
  memset(&whole_a, 0, sizeof whole_a);
  whole_a.num_vertexes = a->num_vertexes;
  whole_a.num_triangles = a->num_triangles;
  whole_b.num_triangles = b->num_triangles;
  counts_compare(c, &ids, &whole_a, &whole_b, NO_VERTEX);
  /* content without vertex data is all in the counts (vertices_bare) */
  bare = vertices_bare(a) || vertices_bare(b);
  if (!bare && !a->num_meshes && !b->num_meshes && (a->num_triangles || b->num_triangles))
    mesh_content(&g, &ids, &whole_a, &whole_b, 0); /* geometry without meshes: one whole */
  /* pair meshes by (name, material) first: writers may order them differently */
  for (uint32_t i = 0; i < a->num_meshes; i++) {
    const struct model_mesh *x = &a->meshes[i], *y = NULL;
    uint32_t k = mesh_by_name(b, byname, at, used, x);
    if (k != NO_VERTEX)
      y = &b->meshes[k];
    if (!y && i < nb && !used[c->b->empty_meshes_dropped ? drawn[i] : i]) {
      k = c->b->empty_meshes_dropped ? drawn[i] : i;
      y = &b->meshes[k];
    }
    if (!y)
      continue;
    used[k] = 1;
    counts_compare(c, &ids, x, y, i);
    if (!bare)
      mesh_content(&g, &ids, x, y, i);
  }
  free(g.cells);
  free(g.keys);
  free(drawn);
  free(byname);
  free(at);
  free(used);
  free(ids.a);
  free(ids.b);
}
