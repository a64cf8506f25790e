/* iqm_repair.c - what `mdlcheck fix` repairs in an IQM model beyond writing it again (which lays
 * the sections out aligned, with true counts, offsets and padding): the adjacency table rebuilt
 * from the triangles when it points past them or is not symmetric (IQM-ADJ-001, -002), UBYTE
 * blend weights renormalised to sum to 255 (IQM-BLD-003), joint and frame rotations of the wrong
 * length normalised (IQM-JNT-004, IQM-FRM-001), frame bounds that bound nothing recomputed from
 * the posed vertices (IQM-BND-001, -002), and a vertex count no array holds dropped (IQM-VA-014). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fix_repair.h"
#include "iqm.h"
#include "iqm_write.h"
#include "pose.h"
#include "sort.h"


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

/* The rotation of each joint whose length is off 1 by more than IQM-JNT-004's 1e-3, divided by
 * its length: the rotation the demo and current ioquake3 draw, which normalise it on loading
 * (lsalzman/iqm demo.cpp, ioq3 tr_model_iqm.c QuatNormalize2; older ioq3 renderers, as the copy
 * in DeepMind Lab, built the matrix from the stored quaternion and drew the joint scaled). */
static void joints_normalise(struct model *m)
{
  for (uint32_t j = 0; j < m->num_joints; j++) {
    double *r = model_rest_mut(m, j)->r, n = quat_norm(r);
    if (isfinite(n) && n > 0 && fabs(n - 1) > 1e-3)
      for (int k = 0; k < 4; k++)
        r[k] /= n;
  }
}

/* Every frame rotation of a pose with one off unit length by more than 1e-3 (IQM-FRM-001 allows
 * that plus the channels' quantization), normalised: such a pose is quantized afresh by the
 * writer, and its decoded rotations come back unit within its new, finer bound. Loaders
 * normalise decoded rotations (as joints'), so each frame keeps the rotation they draw. */
static void frames_normalise(struct model *m)
{
  if (!m->frames)
    return;
  for (uint32_t j = 0; j < m->num_poses; j++) {
    int off = 0;
    for (uint32_t f = 0; f < m->num_frames && !off; f++) {
      double n = quat_norm(m->frames[(size_t)f * m->num_poses + j].r);
      off = isfinite(n) && n > 0 && fabs(n - 1) > 1e-3;
    }
    for (uint32_t f = 0; off && f < m->num_frames; f++) {
      double *r = m->frames[(size_t)f * m->num_poses + j].r, n = quat_norm(r);
      if (isfinite(n) && n > 0)
        for (int k = 0; k < 4; k++)
          r[k] /= n;
    }
  }
}

/* inv = the inverse of the affine a (row-major 4x4, last row 0 0 0 1); 0 when singular. */
static int affine_invert(const double a[16], double inv[16])
{
  double c00 = a[5] * a[10] - a[6] * a[9], c01 = a[6] * a[8] - a[4] * a[10], c02 = a[4] * a[9] - a[5] * a[8];
  double det = a[0] * c00 + a[1] * c01 + a[2] * c02, d;
  if (!isfinite(det) || det == 0)
    return 0;
  d = 1 / det;
  inv[0] = c00 * d;
  inv[1] = (a[2] * a[9] - a[1] * a[10]) * d;
  inv[2] = (a[1] * a[6] - a[2] * a[5]) * d;
  inv[4] = c01 * d;
  inv[5] = (a[0] * a[10] - a[2] * a[8]) * d;
  inv[6] = (a[2] * a[4] - a[0] * a[6]) * d;
  inv[8] = c02 * d;
  inv[9] = (a[1] * a[8] - a[0] * a[9]) * d;
  inv[10] = (a[0] * a[5] - a[1] * a[4]) * d;
  for (int r = 0; r < 3; r++)
    inv[r * 4 + 3] = -(inv[r * 4] * a[3] + inv[r * 4 + 1] * a[7] + inv[r * 4 + 2] * a[11]);
  inv[12] = inv[13] = inv[14] = 0;
  inv[15] = 1;
  return 1;
}

/* Each joint's model-space matrix: its local transform (a frame's, or the base pose) after its
 * parent's. Parents come first (an IQM whose do not is refused by fix before this). */
static int world_matrices(const struct model *m, uint32_t f, int framed, double *out)
{
  for (uint32_t j = 0; j < m->num_joints; j++) {
    double local[16];
    int32_t parent = m->joints[j].parent;
    const struct trs *t = model_rest(m, j);
    if (framed && j < m->num_poses) {
      t = model_frame(m, f, j);
      parent = m->pose_parents ? m->pose_parents[j] : parent;
    }
    trs_to_matrix(t, local);
    if (parent >= 0 && (uint32_t)parent >= j)
      return 0;
    if (parent >= 0)
      mat4_mul(out + (size_t)j * 16, out + (size_t)parent * 16, local);
    else
      memcpy(out + (size_t)j * 16, local, sizeof local);
  }
  return 1;
}

/* A frame's bounds as the IQM compiler computes them (iqm.cpp 1073-1106, iqm-notes 3.6): every
 * position skinned with the frame's joint matrices (posed * inverse bind) and its blend weights
 * made to sum to 1; the box of the results, the largest distance from the Z axis, the largest
 * from the origin. A vertex without weight stays where it is. 0 when it cannot be computed. */
static int frame_bounds(const struct model *m, const double *skin, struct model_bounds *b)
{
  const struct model_varray *pos = model_varray_find(m, VT_POSITION, 3);
  const struct model_varray *bi = model_varray_find(m, VT_BLENDINDEXES, 1);
  const struct model_varray *bw = model_varray_find(m, VT_BLENDWEIGHTS, 1);
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  double xy2 = 0, r2 = 0;
  size_t pb, ib = 0, wb = 0;
  if (!pos || !m->num_vertexes)
    return 0;
  pb = vformat_bytes(pos->format);
  if (!skin || !bi || !bw || bi->size != bw->size)
    bi = bw = NULL;
  else {
    ib = vformat_bytes(bi->format);
    wb = vformat_bytes(bw->format);
  }
  for (uint32_t v = 0; v < m->num_vertexes; v++) {
    double p[3], q[3] = {0, 0, 0}, sum = 0;
    for (int c = 0; c < 3; c++)
      p[c] = vformat_get(pos->data + ((size_t)v * pos->size + c) * pb, pos->format, 0);
    for (uint32_t k = 0; bw && k < bw->size; k++)
      sum += vformat_get(bw->data + ((size_t)v * bw->size + k) * wb, bw->format, 1);
    if (bw && sum > 0) {
      for (uint32_t k = 0; k < bw->size; k++) {
        double w = vformat_get(bw->data + ((size_t)v * bw->size + k) * wb, bw->format, 1) / sum;
        double j = vformat_get(bi->data + ((size_t)v * bi->size + k) * ib, bi->format, 0);
        const double *s;
        if (w == 0)
          continue;
        if (!(j >= 0 && j < m->num_joints))
          return 0; /* an index past the joints is an error fix refuses before this */
        s = skin + (size_t)j * 16;
        for (int c = 0; c < 3; c++)
          q[c] += w * (s[c * 4] * p[0] + s[c * 4 + 1] * p[1] + s[c * 4 + 2] * p[2] + s[c * 4 + 3]);
      }
      memcpy(p, q, sizeof p);
    }
    if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]))
      return 0;
    for (int c = 0; c < 3; c++) {
      lo[c] = p[c] < lo[c] ? p[c] : lo[c];
      hi[c] = p[c] > hi[c] ? p[c] : hi[c];
    }
    xy2 = fmax(xy2, p[0] * p[0] + p[1] * p[1]);
    r2 = fmax(r2, p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
  }
  memcpy(b->bbmin, lo, sizeof lo);
  memcpy(b->bbmax, hi, sizeof hi);
  b->xyradius = sqrt(xy2);
  b->radius = sqrt(r2);
  return 1;
}

/* The bounds of each frame whose box is inverted (box) or whose radii are not 0 <= xyradius <=
 * radius (radii), recomputed; the others are kept as stored (Blender's bounds, from the rounded
 * byte weights, differ from the compiler's and are not wrong). A bound that cannot be computed
 * (no positions, a singular bind pose) stays: the proof then finds the finding left. */
static int bounds_rebuild(struct model *m, int box, int radii)
{
  double *bind, *skin = NULL;
  int ok = 1;
  if (!m->bounds || !m->num_frames)
    return 0;
  bind = malloc(((size_t)m->num_joints * 2 + 1) * 16 * sizeof *bind);
  if (!bind)
    return -1;
  if (m->num_joints && !world_matrices(m, 0, 0, bind))
    ok = 0;
  for (uint32_t j = 0; ok && j < m->num_joints; j++) /* inverse bind pose, in place */
    if (!affine_invert(bind + (size_t)j * 16, bind + ((size_t)m->num_joints + j) * 16))
      ok = 0;
  for (uint32_t f = 0; ok && f < m->num_frames; f++) {
    struct model_bounds *b = &m->bounds[f], nb;
    int bad_box = b->bbmin[0] > b->bbmax[0] || b->bbmin[1] > b->bbmax[1] || b->bbmin[2] > b->bbmax[2];
    int bad_radii = b->xyradius < 0 || b->radius < b->xyradius;
    if (!(box && bad_box) && !(radii && bad_radii))
      continue;
    skin = NULL;
    if (m->num_joints) {
      skin = bind; /* the posed matrices, then times the inverse bind: the skinning matrices */
      if (!world_matrices(m, f, m->frames && m->num_poses, skin))
        break;
      for (uint32_t j = 0; j < m->num_joints; j++)
        mat4_mul(skin + (size_t)j * 16, skin + (size_t)j * 16, bind + ((size_t)m->num_joints + j) * 16);
    }
    if (!frame_bounds(m, skin, &nb))
      break;
    if (box && bad_box) {
      memcpy(b->bbmin, nb.bbmin, sizeof nb.bbmin);
      memcpy(b->bbmax, nb.bbmax, sizeof nb.bbmax);
    }
    if (radii && bad_radii) {
      b->xyradius = nb.xyradius;
      b->radius = nb.radius;
    }
  }
  free(bind);
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
  if (fx->found(fx, RULE_IQM_JOINT_QUATERNION_NORM)) {
    joints_normalise(m);
    fx->unit_rotations = 1;
  }
  if (fx->found(fx, RULE_IQM_FRAME_QUATERNION_NORM)) {
    frames_normalise(m);
    fx->unit_rotations = 1;
  }
  if ((fx->found(fx, RULE_IQM_BOUNDS_BOX) || fx->found(fx, RULE_IQM_BOUNDS_RADIUS)) &&
      bounds_rebuild(m, fx->found(fx, RULE_IQM_BOUNDS_BOX), fx->found(fx, RULE_IQM_BOUNDS_RADIUS)) < 0)
    return -1;
  /* no mesh and no vertex array: no reader looks at the vertices, the count holds none */
  if (fx->found(fx, RULE_IQM_VARRAY_STALE_VERTEX_COUNT) && !m->num_meshes && !m->num_varrays)
    m->num_vertexes = 0;
  return 0;
}
