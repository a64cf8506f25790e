/* iqe_smooth.c - normals by smoothing for a file without `vn` (iqe.txt "Smoothing").
 *
 * Triangle corners that share a position (across meshes, as the spec says) are welded into one
 * normal when their triangles pass every applicable test; the welds are closed transitively
 * (union-find), since the spec maps compatible corners to one vertex index. Each weld's normal
 * is the normalised average of its triangles' unit surface normals. A vertex whose corners end
 * in more than one weld is split: its clones follow it directly, so every mesh's vertex range
 * stays contiguous and still holds all of its triangles' vertices.
 *
 * Choices where the spec is silent (each also in the report of issue #3):
 * - surface normal (p2 - p0) x (p1 - p0): IQM front faces are clockwise, as the reference
 *   compiler computes it (iqm-notes 5.1);
 * - weighting: "contribute their normal to the average normal" is read as the plain average of
 *   unit normals (the reference compiler weights by area instead);
 * - positions are equal when x, y, z are equal as parsed (W is ignored, as for position arrays);
 * - smoothangle: the two triangles' normals may differ by at most the smaller of their angles
 *   (both must pass), clamped to 0 ... 180, with 1e-12 of slack on the cosine so an angle equal
 *   to the limit smooths; 180 smooths everything, 0 only coplanar triangles (a faceted look);
 * - smoothuv applies when either triangle has it on; missing texcoords compare as 0 0;
 * - vs applies when both vertices have a vs value;
 * - fs (in files that use it at all): corners weld only across an edge both triangles share,
 *   when either triangle flags that edge; the k-th fs goes with the k-th face command, a face
 *   without fs or a missing flag smooths, inner edges of a fanned polygon always smooth;
 * - face-less triangles take the smoothing state set before their first vertex;
 * - a zero-area triangle has no normal and adds none: each of its corners joins one weld at its
 *   position (of its own vertex first, else the first passing every test but angle and edges),
 *   never bridging two; a corner with none stays alone with a zero normal, as does a vertex no
 *   triangle uses;
 * - work is bounded: a corner is tested against at most SMOOTH_WINDOW earlier corners at the same
 *   position (chains still weld whole fans; only pathological files notice). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "iqe.h"

#define SMOOTH_WINDOW 128

struct tri_info {
  double n[3];     /* unit surface normal */
  double cosmin;   /* smoothed with a neighbour only when the normals' dot reaches this */
  long key;
  unsigned char uv, edges, flat;
};

struct smooth {
  const struct iqe_parser *p;
  const unsigned char *tris; /* model triangles: 3 little-endian u32 each */
  struct tri_info *info;
  uint32_t *parent;          /* union-find over corners */
  int use_edges;
};

static uint32_t corner_vertex(const struct smooth *s, uint32_t c)
{
  const unsigned char *b = s->tris + (size_t)c * 4;
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* The first n components of attribute attr of vertex v into out (zeros when v has none). */
static const double *attr_at(const struct iqe_parser *p, int attr, uint32_t v, double *out, uint32_t n)
{
  const struct iqe_attr_arr *a = &p->attr[attr];
  if (v < a->count)
    iqe_attr_get_n(a, v, out, n);
  else
    for (uint32_t k = 0; k < n; k++)
      out[k] = 0;
  return out;
}

/* Positions of vertices va and vb in lexicographic order. */
static int pos_cmp(const struct iqe_parser *p, uint32_t va, uint32_t vb)
{
  double a[3], b[3];
  attr_at(p, ATTR_VP, va, a, 3);
  attr_at(p, ATTR_VP, vb, b, 3);
  for (int k = 0; k < 3; k++)
    if (a[k] != b[k])
      return a[k] < b[k] ? -1 : 1;
  return 0;
}

static int pos_equal(const struct smooth *s, uint32_t va, uint32_t vb)
{
  return pos_cmp(s->p, va, vb) == 0;
}

/* Bottom-up merge sort of corners by position, then corner index (qsort has no context). */
static void corners_sort(const struct smooth *s, uint32_t *a, uint32_t *tmp, size_t n)
{
  for (size_t w = 1; w < n; w *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * w) {
      size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      size_t i = lo, j = mid, o = lo;
      while (i < mid && j < hi) {
        int c = pos_cmp(s->p, corner_vertex(s, a[j]), corner_vertex(s, a[i]));
        tmp[o++] = c < 0 ? a[j++] : a[i++];
      }
      while (i < mid)
        tmp[o++] = a[i++];
      while (j < hi)
        tmp[o++] = a[j++];
    }
    memcpy(a, tmp, n * sizeof *a);
  }
}

static uint32_t uf_find(uint32_t *parent, uint32_t x)
{
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

static void uf_union(uint32_t *parent, uint32_t a, uint32_t b)
{
  a = uf_find(parent, a);
  b = uf_find(parent, b);
  if (a < b)
    parent[b] = a;
  else if (b < a)
    parent[a] = b;
}

/* Whether two corners at one position pass every applicable smoothing test. A zero-area
 * triangle has no normal and no surface to smooth across: angle and edges do not apply. */
static int corners_smooth(const struct smooth *s, uint32_t a, uint32_t b)
{
  const struct iqe_parser *p = s->p;
  const struct tri_info *x = &s->info[a / 3], *y = &s->info[b / 3];
  uint32_t va = corner_vertex(s, a), vb = corner_vertex(s, b);
  double dot = x->n[0] * y->n[0] + x->n[1] * y->n[1] + x->n[2] * y->n[2];
  int flat = x->flat || y->flat;
  if (x->key != y->key)
    return 0;
  if (!flat && dot < (x->cosmin > y->cosmin ? x->cosmin : y->cosmin) - 1e-12)
    return 0;
  if ((x->uv || y->uv) && p->attr[ATTR_VT].count > 0) {
    double ta[2], tb[2];
    attr_at(p, ATTR_VT, va, ta, 2);
    attr_at(p, ATTR_VT, vb, tb, 2);
    if (ta[0] != tb[0] || ta[1] != tb[1])
      return 0;
  }
  if (va < p->attr[ATTR_VS].count && vb < p->attr[ATTR_VS].count &&
      iqe_attr_int(&p->attr[ATTR_VS], va) != iqe_attr_int(&p->attr[ATTR_VS], vb))
    return 0;
  if (s->use_edges && !flat) {
    /* the edges at corner k: k -> k+1 (flag bit k) and k+2 -> k (flag bit k+2) */
    uint32_t ta = a / 3 * 3, tb = b / 3 * 3, ka = a % 3, kb = b % 3;
    uint32_t an[2] = {ta + (ka + 1) % 3, ta + (ka + 2) % 3}, bn[2] = {tb + (kb + 1) % 3, tb + (kb + 2) % 3};
    unsigned af[2] = {(x->edges >> ka) & 1u, (x->edges >> (ka + 2) % 3) & 1u};
    unsigned bf[2] = {(y->edges >> kb) & 1u, (y->edges >> (kb + 2) % 3) & 1u};
    int shared = 0;
    for (int i = 0; i < 2 && !shared; i++)
      for (int j = 0; j < 2 && !shared; j++)
        shared = (af[i] | bf[j]) && pos_equal(s, corner_vertex(s, an[i]), corner_vertex(s, bn[j]));
    if (!shared)
      return 0;
  }
  return 1;
}

static void tri_setup(struct smooth *s, uint32_t t, const uint32_t *tri_src)
{
  const struct iqe_parser *p = s->p;
  struct tri_info *ti = &s->info[t];
  uint32_t v0 = corner_vertex(s, t * 3), v1 = corner_vertex(s, t * 3 + 1),
           v2 = corner_vertex(s, t * 3 + 2);
  double a[3], b[3], c[3];
  const struct iqe_smooth_state *st = iqe_face_smooth_state(p, tri_src[t], v0);
  double e1[3], e2[3], n[3], len, angle;
  attr_at(p, ATTR_VP, v0, a, 3);
  attr_at(p, ATTR_VP, v1, b, 3);
  attr_at(p, ATTR_VP, v2, c, 3);
  for (int k = 0; k < 3; k++) {
    e1[k] = b[k] - a[k];
    e2[k] = c[k] - a[k];
  }
  /* (p2 - p0) x (p1 - p0): the normal of a clockwise front face */
  n[0] = e2[1] * e1[2] - e2[2] * e1[1];
  n[1] = e2[2] * e1[0] - e2[0] * e1[2];
  n[2] = e2[0] * e1[1] - e2[1] * e1[0];
  len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  ti->flat = !(len > 0) || !isfinite(len) || v0 == v1 || v1 == v2 || v0 == v2;
  for (int k = 0; k < 3; k++)
    ti->n[k] = ti->flat ? 0 : n[k] / len;
  angle = st->angle < 0 ? 0 : st->angle > 180 ? 180 : st->angle;
  ti->cosmin = angle == 180 ? -1 : cos(angle * (M_PI / 180));
  ti->key = st->key;
  ti->uv = (unsigned char)(st->uv != 0);
  ti->edges = (unsigned char)iqe_face_smooth_edges(p, tri_src[t]);
}

/* A `vx` with a bitangent gets its sign from the normal (iqe.txt "vx"): now that there is one,
 * give the tangent array's W that sign. */
static void tangent_signs(struct iqe_parser *p, const uint32_t *src, const double *normals, uint32_t nv)
{
  struct model *m = p->m;
  for (uint32_t i = 0; i < m->num_varrays; i++) {
    struct model_varray *va = &m->varrays[i];
    uint32_t bytes = iqe_format_bytes(va->format);
    if (va->type != VT_TANGENT || va->size < 4)
      continue;
    for (uint32_t v = 0; v < nv; v++) {
      const double *n = normals + (size_t)v * 3;
      double x[3], t[7];
      if (src[v] >= p->attr[ATTR_VX].count || !isnan(attr_at(p, ATTR_VX, src[v], t, 7)[3]))
        continue;
      x[0] = n[1] * t[2] - n[2] * t[1];
      x[1] = n[2] * t[0] - n[0] * t[2];
      x[2] = n[0] * t[1] - n[1] * t[0];
      iqe_component_put((unsigned char *)va->data + ((size_t)v * va->size + 3) * bytes, va->format,
                        x[0] * t[4] + x[1] * t[5] + x[2] * t[6] < 0 ? -1 : 1, 1);
    }
  }
}

/* Copy every vertex array to the split vertex list (src: the original of each new vertex). */
static int varrays_split(struct model *m, const uint32_t *src, uint32_t nv)
{
  for (uint32_t i = 0; i < m->num_varrays; i++) {
    struct model_varray *va = &m->varrays[i];
    size_t stride = (size_t)va->size * iqe_format_bytes(va->format);
    unsigned char *data = arena_calloc(&m->arena, nv, stride);
    if (!data)
      return -1;
    for (uint32_t v = 0; v < nv; v++)
      memcpy(data + v * stride, va->data + (size_t)src[v] * stride, stride);
    va->data = data;
  }
  return 0;
}

int iqe_smooth_normals(struct iqe_parser *p, const uint32_t *tri_src)
{
  struct model *m = p->m;
  struct arena *a = &p->scratch;
  struct smooth s;
  uint32_t nv = m->num_vertexes, nt = m->num_triangles, nc, nnew = 0;
  uint32_t *order, *tmp, *vstart, *fill, *vcorner, *mark, *slot, *newbase, *src, *root, *newtri;
  double *sum, *normals;
  unsigned char *joined;

  if (nt == 0 || p->attr[ATTR_VP].count == 0 || !m->triangles)
    return 0; /* nothing to smooth, or no positions to take normals from */
  if ((uint64_t)nt * 3 + nv >= UINT32_MAX)
    return 0; /* beyond 32-bit corner numbering: left without normals */
  nc = nt * 3;
  memset(&s, 0, sizeof s);
  s.p = p;
  s.tris = m->triangles;
  s.use_edges = p->num_fs > 0;
  s.info = arena_calloc(a, nt, sizeof *s.info);
  s.parent = arena_calloc(a, nc, sizeof *s.parent);
  order = arena_calloc(a, nc, sizeof *order);
  tmp = arena_calloc(a, nc, sizeof *tmp);
  vstart = arena_calloc(a, (size_t)nv + 2, sizeof *vstart);
  fill = arena_calloc(a, (size_t)nv + 1, sizeof *fill);
  vcorner = arena_calloc(a, nc, sizeof *vcorner);
  newbase = arena_calloc(a, (size_t)nv + 1, sizeof *newbase);
  sum = arena_calloc(a, nc, 3 * sizeof *sum);
  newtri = arena_calloc(a, nc, sizeof *newtri);
  joined = arena_calloc(a, nc, 1);
  if (!s.info || !s.parent || !order || !tmp || !vstart || !fill || !vcorner || !newbase ||
      !sum || !newtri || !joined)
    return -1;
  for (uint32_t t = 0; t < nt; t++)
    tri_setup(&s, t, tri_src);
  for (uint32_t c = 0; c < nc; c++) {
    s.parent[c] = c;
    order[c] = c;
    if (corner_vertex(&s, c) >= nv)
      return 0; /* cannot happen: the builder checked every index */
  }

  /* weld corners at one position that pass the tests */
  corners_sort(&s, order, tmp, nc);
  for (uint32_t lo = 0, hi; lo < nc; lo = hi) {
    uint32_t at = corner_vertex(&s, order[lo]);
    for (hi = lo + 1; hi < nc && pos_cmp(p, corner_vertex(&s, order[hi]), at) == 0; hi++)
      ;
    for (uint32_t i = lo + 1; i < hi; i++) {
      if (s.info[order[i] / 3].flat)
        continue;
      for (uint32_t j = i > lo + SMOOTH_WINDOW ? i - SMOOTH_WINDOW : lo; j < i; j++)
        if (!s.info[order[j] / 3].flat && corners_smooth(&s, order[j], order[i]))
          uf_union(s.parent, order[j], order[i]);
    }
    /* a zero-area corner joins one weld here, never bridging two: a non-flat corner of its own
     * vertex (no split), else the first compatible one at its position (tmp: the run's non-flat
     * corners, so a run of flat ones costs no more than SMOOTH_WINDOW tests each) */
    {
      uint32_t nf = 0;
      for (uint32_t i = lo; i < hi; i++)
        if (!s.info[order[i] / 3].flat)
          tmp[nf++] = order[i];
      for (uint32_t i = lo; i < hi && nf > 0; i++) {
        uint32_t c = order[i], v = corner_vertex(&s, c), best = UINT32_MAX;
        if (!s.info[c / 3].flat)
          continue;
        for (uint32_t j = 0; j < nf && j < SMOOTH_WINDOW; j++) {
          if (corner_vertex(&s, tmp[j]) == v) {
            best = tmp[j];
            break;
          }
          if (best == UINT32_MAX && corners_smooth(&s, tmp[j], c))
            best = tmp[j];
        }
        if (best != UINT32_MAX) {
          uf_union(s.parent, best, c);
          joined[c] = 1;
        }
      }
    }
  }

  /* corners by vertex (counting sort, corner order kept) */
  for (uint32_t c = 0; c < nc; c++)
    vstart[corner_vertex(&s, c) + 1]++;
  for (uint32_t v = 0; v < nv; v++)
    vstart[v + 1] += vstart[v];
  memcpy(fill, vstart, (size_t)nv * sizeof *fill);
  for (uint32_t c = 0; c < nc; c++)
    vcorner[fill[corner_vertex(&s, c)]++] = c;

  /* zero-area corners left alone: those of one vertex share a weld, so they split nothing */
  for (uint32_t v = 0; v < nv; v++) {
    uint32_t anchor = UINT32_MAX;
    for (uint32_t k = vstart[v]; k < vstart[v + 1]; k++) {
      uint32_t c = vcorner[k];
      if (!s.info[c / 3].flat || joined[c])
        continue;
      if (anchor == UINT32_MAX)
        anchor = c;
      else
        uf_union(s.parent, anchor, c);
    }
  }

  /* weld normals: the plain average of the welded triangles' unit normals */
  for (uint32_t c = 0; c < nc; c++) {
    uint32_t r = uf_find(s.parent, c);
    for (int k = 0; k < 3; k++)
      sum[(size_t)r * 3 + k] += s.info[c / 3].n[k];
  }

  /* one new vertex per (vertex, weld): the first keeps the vertex, clones follow it (per
   * weld root: mark = the vertex last seen + 1, slot = its weld's place among the clones; the
   * sort arrays are free by now) */
  mark = order;
  slot = tmp;
  memset(mark, 0, (size_t)nc * sizeof *mark);
  for (uint32_t v = 0; v < nv; v++) {
    uint32_t j = 0;
    newbase[v] = nnew;
    for (uint32_t k = vstart[v]; k < vstart[v + 1]; k++) {
      uint32_t c = vcorner[k], r = uf_find(s.parent, c);
      if (mark[r] != v + 1) {
        mark[r] = v + 1;
        slot[r] = j++;
      }
      newtri[c] = nnew + slot[r];
    }
    nnew += j ? j : 1;
  }
  newbase[nv] = nnew;
  src = arena_calloc(a, nnew, sizeof *src);
  root = arena_calloc(a, nnew, sizeof *root);
  normals = arena_calloc(a, nnew, 3 * sizeof *normals);
  if (!src || !root || !normals)
    return -1;
  for (uint32_t v = 0; v < nv; v++)
    for (uint32_t n = newbase[v]; n < newbase[v + 1]; n++) {
      src[n] = v;
      root[n] = UINT32_MAX;
    }
  for (uint32_t c = 0; c < nc; c++)
    root[newtri[c]] = uf_find(s.parent, c);
  for (uint32_t n = 0; n < nnew; n++) {
    double *o = normals + (size_t)n * 3, len;
    if (root[n] == UINT32_MAX)
      continue; /* no triangle uses it: no normal */
    memcpy(o, sum + (size_t)root[n] * 3, 3 * sizeof *o);
    len = sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]);
    for (int k = 0; k < 3; k++)
      o[k] = len > 0 ? o[k] / len : 0;
  }

  if (nnew != nv) {
    unsigned char *tris = arena_calloc(&m->arena, nt, 12);
    if (!tris || varrays_split(m, src, nnew) < 0)
      return -1;
    for (uint32_t c = 0; c < nc; c++)
      for (int b = 0; b < 4; b++)
        tris[(size_t)c * 4 + (size_t)b] = (unsigned char)(newtri[c] >> (8 * b));
    m->triangles = tris;
    for (uint32_t i = 0; i < m->num_meshes; i++) {
      struct model_mesh *me = &m->meshes[i];
      uint32_t lo = me->first_vertex, hi = lo + me->num_vertexes;
      if (lo > nv || hi > nv || hi < lo)
        continue;
      me->first_vertex = newbase[lo];
      me->num_vertexes = newbase[hi] - newbase[lo];
    }
    m->num_vertexes = nnew;
  }
  if (iqe_varray_derived(p, VT_NORMAL, 0, normals, nnew) < 0)
    return -1;
  tangent_signs(p, src, normals, nnew);
  return 0;
}
