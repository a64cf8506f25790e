/* iqm_repair.c - what `mdlcheck fix` repairs in an IQM model beyond writing it again (which lays
 * the sections out aligned, with true counts, offsets and padding): the adjacency table rebuilt
 * from the triangles when it points past them or is not symmetric (IQM-ADJ-001, -002), and
 * UBYTE blend weights renormalised to sum to 255 (IQM-BLD-003). */
#include <stdlib.h>
#include <string.h>

#include "fix_repair.h"
#include "iqm.h"
#include "iqm_write.h"
#include "sort.h"

#define NO_NEIGHBOUR 0xffffffffu

static uint32_t rd32(const unsigned char *p)
{
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr32(unsigned char *p, uint32_t v)
{
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
  p[2] = (unsigned char)(v >> 16);
  p[3] = (unsigned char)(v >> 24);
}

/* The edge e = 3 t + k of a triangle runs from corner k to corner k + 1 (the IQM compiler's
 * neighbor[k]); edges sort by their two vertices, lower first. */
static void edge_key(const unsigned char *tris, uint32_t e, uint32_t *lo, uint32_t *hi)
{
  uint32_t t = e / 3, k = e % 3;
  uint32_t a = rd32(tris + (size_t)t * 12 + k * 4), b = rd32(tris + (size_t)t * 12 + ((k + 1) % 3) * 4);
  *lo = a < b ? a : b;
  *hi = a < b ? b : a;
}

static int edge_cmp(uint32_t x, uint32_t y, const void *ctx)
{
  uint32_t xl, xh, yl, yh;
  edge_key(ctx, x, &xl, &xh);
  edge_key(ctx, y, &yl, &yh);
  if (xl != yl)
    return xl < yl ? -1 : 1;
  return xh < yh ? -1 : xh > yh;
}

/* The compiler's rule (iqm.cpp makeneighbors): an edge two triangles share makes them each
 * other's neighbour across it; an edge of one triangle, or of three or more, has none. Each
 * pair is written from both sides, so the table is symmetric by construction. */
static int adjacency_rebuild(struct model *m)
{
  uint32_t nt = m->num_triangles, ne;
  uint32_t *order;
  unsigned char *adj;
  if (nt > UINT32_MAX / 3)
    return 0; /* no decoder gives that many; the writer would refuse the file anyway */
  ne = nt * 3;
  adj = arena_calloc(&m->arena, (size_t)nt * 12 + 1, 1);
  order = malloc(((size_t)ne + 1) * sizeof *order);
  if (!adj || !order) {
    free(order);
    return -1;
  }
  for (uint32_t e = 0; e < ne; e++) {
    order[e] = e;
    wr32(adj + (size_t)e * 4, NO_NEIGHBOUR);
  }
  if (sort_u32(order, ne, edge_cmp, m->triangles) < 0) {
    free(order);
    return -1;
  }
  for (uint32_t i = 0; i < ne;) {
    uint32_t j = i + 1;
    while (j < ne && edge_cmp(order[i], order[j], m->triangles) == 0)
      j++;
    if (j - i == 2 && order[i] / 3 != order[i + 1] / 3) {
      wr32(adj + (size_t)order[i] * 4, order[i + 1] / 3);
      wr32(adj + (size_t)order[i + 1] * 4, order[i] / 3);
    }
    i = j;
  }
  free(order);
  m->adjacency = adj;
  return 0;
}

/* UBYTE blend weights that do not sum to 255 scaled so they do, the rounding remainder given to
 * the largest (the fix text of IQM-BLD-003; what the compiler writes): each joint keeps its share
 * of the vertex, which no longer shrinks toward the origin. A vertex of zero weight stays so. */
static int weights_renormalise(struct model *m)
{
  struct model_varray *w = NULL;
  unsigned char *copy;
  for (uint32_t i = 0; i < m->num_varrays && !w; i++)
    if (m->varrays[i].type == VT_BLENDWEIGHTS && m->varrays[i].format == VF_UBYTE && m->varrays[i].data)
      w = &m->varrays[i];
  if (!w || !w->size || !m->num_vertexes)
    return 0;
  copy = arena_calloc(&m->arena, (size_t)m->num_vertexes * w->size, 1);
  if (!copy)
    return -1;
  memcpy(copy, w->data, (size_t)m->num_vertexes * w->size);
  for (uint32_t v = 0; v < m->num_vertexes; v++) {
    unsigned char *p = copy + (size_t)v * w->size;
    unsigned sum = 0, got = 0, big = 0;
    for (uint32_t s = 0; s < w->size; s++) {
      sum += p[s];
      big = p[s] > p[big] ? s : big;
    }
    if (sum == 0 || sum == 255)
      continue;
    for (uint32_t s = 0; s < w->size; s++) {
      unsigned x = (p[s] * 255u + sum / 2) / sum;
      p[s] = (unsigned char)(x > 255 ? 255 : x);
      got += p[s];
    }
    p[big] = (unsigned char)((int)p[big] + 255 - (int)got);
  }
  w->data = copy;
  return 0;
}

int iqm_repair(struct model *m, struct fix_repair *fx)
{
  if (m->adjacency && m->triangles &&
      (fx->found(fx, RULE_IQM_ADJACENCY_RANGE) || fx->found(fx, RULE_IQM_ADJACENCY_SYMMETRY)) &&
      adjacency_rebuild(m) < 0)
    return -1;
  if (fx->found(fx, RULE_IQM_BLEND_WEIGHT_SUM)) {
    if (weights_renormalise(m) < 0)
      return -1;
    fx->unit_weights = 1;
  }
  return 0;
}
