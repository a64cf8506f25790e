/* iqe_geometry.c - the shared geometry checks (MDL-GEO-001, MDL-GEO-003) on the parsed vn and vx
 * lines, and the tangents the compiler would derive from vt (IQE-VTX-018), in validation as in a
 * full decode: IQE keeps its vertices in the parser, not the model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iqe.h"
#include "model_geometry.h"
#include "sort.h"

static void vec_of(const struct iqe_attr_arr *a, uint32_t e, double out[3])
{
  iqe_attr_get_n(a, e, out, 3);
}

static void tangent_uv_check(struct iqe_parser *p);

void iqe_geometry_check(struct iqe_parser *p)
{
  const struct iqe_attr_arr *vn = &p->attr[ATTR_VN], *vx = &p->attr[ATTR_VX];
  uint32_t first = 0, count = 0;
  for (uint32_t e = 0; e < vn->count; e++) {
    double n[3];
    vec_of(vn, e, n);
    if (geo_vector_zero(n) && count++ == 0)
      first = e;
  }
  if (count) {
    char exp[48];
    snprintf(exp, sizeof exp, "length >= %g", GEO_ZERO_LENGTH);
    /* one warning at the first, with the count: an exporter that writes every normal as 0 0 0
     * would otherwise bury the report under a warning per vertex */
    iqe_emit(p, RULE_CORE_NORMAL_ZERO_LENGTH, iqe_lines_get(&vn->lines, first), 0, exp, "vertex %u (%u of %u normals)",
             first, count, vn->count);
  }
  first = count = 0;
  for (uint32_t e = 0; e < vx->count; e++) {
    double t[3], n[3] = {0, 0, 0};
    vec_of(vx, e, t);
    if (e < vn->count)
      vec_of(vn, e, n);
    if (geo_tangent_degenerate(t, n) && count++ == 0)
      first = e;
  }
  if (count)
    iqe_emit(p, RULE_CORE_TANGENT_DEGENERATE, iqe_lines_get(&vx->lines, first), 0, "a direction of its own, across the normal",
             "vertex %u (%u of %u tangents)", first, count, vx->count);
  tangent_uv_check(p);
}

/* ---- tangents the compiler derives (IQE-VTX-018) ------------------------------------------- */

struct tan_key {
  const struct iqe_parser *p;
};

/* Position then texture coordinates of vertices u and v, as the merge compares them. */
static int tan_cmp(uint32_t u, uint32_t v, const void *ctx)
{
  const struct iqe_parser *p = ((const struct tan_key *)ctx)->p;
  for (int a = ATTR_VP; a <= ATTR_VT; a++)
    for (uint32_t k = 0; k < (a == ATTR_VP ? 3u : 2u); k++) {
      double x = iqe_attr_get(&p->attr[a], u, k), y = iqe_attr_get(&p->attr[a], v, k);
      if (x != y)
        return x < y ? -1 : 1;
    }
  return 0;
}

static void sub3(const double a[3], const double b[3], double out[3])
{
  for (int k = 0; k < 3; k++)
    out[k] = a[k] - b[k];
}

static void cross3(const double a[3], const double b[3], double out[3])
{
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/* The face triangles in file order: a model's, or fanned (a, b, c), (a, c, d) ... from
 * validation's face corners. Return 0 past the last. */
struct tri_walk { size_t t, face, c; };

static int corner_starts(const struct iqe_parser *p, size_t c)
{
  return p->corner_start[c / 8] >> (c % 8) & 1;
}

static int tri_next(const struct iqe_parser *p, struct tri_walk *w, uint32_t out[3])
{
  if (p->tris) {
    if (w->t >= p->num_tris)
      return 0;
    memcpy(out, p->tris + w->t++ * 3, 3 * sizeof *out);
    return 1;
  }
  for (;;) {
    if (w->c + 1 >= p->num_corners)
      return 0;
    if (corner_starts(p, w->c + 1)) {
      w->face = w->c + 1;
      w->c = w->face + 1;
      continue;
    }
    out[0] = p->corners[w->face];
    out[1] = p->corners[w->c];
    out[2] = p->corners[w->c + 1];
    w->c++;
    return 1;
  }
}

/* Vertices (used by a triangle) whose summed texture-space u direction is the zero vector, as
 * the reference compiler sums it (iqm.cpp calctangents), when the compiler would derive
 * tangents: no vx, texture coordinates for every vertex. Vertices are merged by position and
 * texture coordinates first (the compiler merges only vertices equal in every array: merging
 * more can only give a direction, never take one). */
static void tangent_uv_check(struct iqe_parser *p)
{
  const struct iqe_attr_arr *vp = &p->attr[ATTR_VP], *vt = &p->attr[ATTR_VT];
  uint32_t nv = vp->count, *order, *cls, first = 0, count = 0;
  double *sum;
  unsigned char *used;
  struct tan_key key = {p};
  struct tri_walk walk = {0, 0, 1};
  uint32_t c[3];
  if (p->attr[ATTR_VX].count || !vt->count || vt->count != nv || !p->num_tris || (!p->tris && !p->corners))
    return;
  order = malloc((size_t)nv * sizeof *order);
  cls = malloc((size_t)nv * sizeof *cls);
  sum = calloc((size_t)nv * 3, sizeof *sum);
  used = calloc(nv, 1);
  if (!order || !cls || !sum || !used)
    goto oom;
  for (uint32_t v = 0; v < nv; v++)
    order[v] = v;
  if (sort_u32(order, nv, tan_cmp, &key) < 0)
    goto oom;
  for (uint32_t i = 0; i < nv; i++)
    cls[order[i]] = i > 0 && !tan_cmp(order[i - 1], order[i], &key) ? cls[order[i - 1]] : order[i];
  while (tri_next(p, &walk, c)) {
    double p0[3], p1[3], p2[3], e1[3], e2[3], u[3], w[3], fn[3], uw[3], v1, v2, u1, u2;
    if (c[0] >= nv || c[1] >= nv || c[2] >= nv || cls[c[0]] == cls[c[1]] || cls[c[1]] == cls[c[2]] ||
        cls[c[0]] == cls[c[2]])
      continue; /* out of range (IQE-FAC-001) or a repeated vertex: the compiler drops it */
    vec_of(vp, c[0], p0);
    vec_of(vp, c[1], p1);
    vec_of(vp, c[2], p2);
    sub3(p1, p0, e1);
    sub3(p2, p0, e2);
    u1 = iqe_attr_get(vt, c[1], 0) - iqe_attr_get(vt, c[0], 0);
    v1 = iqe_attr_get(vt, c[1], 1) - iqe_attr_get(vt, c[0], 1);
    u2 = iqe_attr_get(vt, c[2], 0) - iqe_attr_get(vt, c[0], 0);
    v2 = iqe_attr_get(vt, c[2], 1) - iqe_attr_get(vt, c[0], 1);
    for (int k = 0; k < 3; k++) {
      u[k] = e2[k] * v1 - e1[k] * v2;
      w[k] = e2[k] * u1 - e1[k] * u2;
    }
    cross3(e2, e1, fn);
    cross3(w, u, uw);
    if (fn[0] * uw[0] + fn[1] * uw[1] + fn[2] * uw[2] < 0)
      for (int k = 0; k < 3; k++)
        u[k] = -u[k];
    for (int j = 0; j < 3; j++) {
      double *s = sum + 3 * (size_t)cls[c[j]];
      used[c[j]] = 1;
      for (int k = 0; k < 3; k++)
        s[k] += u[k];
    }
  }
  for (uint32_t v = 0; v < nv; v++) {
    const double *s = sum + 3 * (size_t)cls[v];
    if (used[v] && s[0] == 0 && s[1] == 0 && s[2] == 0 && count++ == 0)
      first = v;
  }
  if (count)
    iqe_emit(p, RULE_IQE_TANGENT_UNDEFINED_BY_UV, iqe_lines_get(&vt->lines, first), 0,
             "a triangle at the vertex with corners at different texture v",
             "vertex %u (%u of %u vertices): no vx, and every triangle there has its corners at one "
             "texture v, so the tangent the IQM compiler derives is NaN", first, count, nv);
  goto done;
oom: /* the file was not checked to the end: said, never a clean verdict */
  diag_out_of_memory(p->ctx->diag, "the iqe tangent check");
done:
  free(order);
  free(cls);
  free(sum);
  free(used);
}
