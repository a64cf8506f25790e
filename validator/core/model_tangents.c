/* model_tangents.c - tangents derived as the IQM reference compiler derives them (model_tangents.h). */
#include "model_tangents.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sort.h"

#define NO_MESH UINT32_MAX


static double comp(const struct model_varray *va, uint32_t v, uint32_t k)
{
  return vformat_get(va->data + ((size_t)v * va->size + k) * vformat_bytes(va->format), va->format, 1);
}

/* What the compiler compares to merge two vertices: every array but the tangent, and the mesh. */
struct merge_key {
  const struct model *m;
  const uint32_t *mesh_of;
};

static int merge_cmp(uint32_t u, uint32_t v, const void *ctx)
{
  const struct merge_key *k = ctx;
  if (k->mesh_of[u] != k->mesh_of[v])
    return k->mesh_of[u] < k->mesh_of[v] ? -1 : 1;
  for (uint32_t i = 0; i < k->m->num_varrays; i++) {
    const struct model_varray *va = &k->m->varrays[i];
    size_t n;
    int c;
    if (va->type == VT_TANGENT || !va->data || va->format >= VF_COUNT)
      continue;
    n = (size_t)va->size * vformat_bytes(va->format);
    c = memcmp(va->data + u * n, va->data + v * n, n);
    if (c)
      return c;
  }
  return 0;
}

static uint32_t corner(const struct model *m, uint32_t t, int k)
{
  const unsigned char *p = m->triangles + (size_t)t * 12 + (size_t)k * 4;
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void cross(const double a[3], const double b[3], double out[3])
{
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot(const double a[3], const double b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* A unit vector perpendicular to n (any, when n is zero): the axis least along n, crossed. */
static void perpendicular(const double n[3], double out[3])
{
  double axis[3] = {0, 0, 0}, len;
  int k = fabs(n[0]) <= fabs(n[1]) && fabs(n[0]) <= fabs(n[2]) ? 0 : fabs(n[1]) <= fabs(n[2]) ? 1 : 2;
  axis[k] = 1;
  cross(n, axis, out);
  len = sqrt(dot(out, out));
  if (!(len > 0) || !isfinite(len)) {
    out[0] = 1, out[1] = out[2] = 0;
    return;
  }
  for (int i = 0; i < 3; i++)
    out[i] /= len;
}

/* The sums of one triangle's texture-space directions, oriented as the compiler orients them. */
static void triangle_dirs(const struct model_varray *pos, const struct model_varray *tc, const uint32_t c[3],
                          double u[3], double v[3])
{
  double p0[3], e1[3], e2[3], du1, dv1, du2, dv2, fn[3], uv[3];
  for (uint32_t k = 0; k < 3; k++) {
    p0[k] = comp(pos, c[0], k);
    e1[k] = comp(pos, c[1], k) - p0[k];
    e2[k] = comp(pos, c[2], k) - p0[k];
  }
  du1 = comp(tc, c[1], 0) - comp(tc, c[0], 0);
  dv1 = comp(tc, c[1], 1) - comp(tc, c[0], 1);
  du2 = comp(tc, c[2], 0) - comp(tc, c[0], 0);
  dv2 = comp(tc, c[2], 1) - comp(tc, c[0], 1);
  for (int k = 0; k < 3; k++) {
    u[k] = e2[k] * dv1 - e1[k] * dv2; /* along +u, times the texture area's sign */
    v[k] = e2[k] * du1 - e1[k] * du2;
  }
  /* IQM faces are clockwise: e2 x e1 is the face's front; the pair turns to agree with it */
  cross(e2, e1, fn);
  cross(v, u, uv);
  if (dot(fn, uv) < 0)
    for (int k = 0; k < 3; k++)
      u[k] = -u[k], v[k] = -v[k];
}

int model_tangents_derive(const struct model *m, double *out)
{
  const struct model_varray *pos = model_varray_find(m, VT_POSITION, 3);
  const struct model_varray *tc = model_varray_find(m, VT_TEXCOORD, 2);
  const struct model_varray *nrm = model_varray_find(m, VT_NORMAL, 3);
  uint32_t nv = m->num_vertexes, *order = NULL, *cls = NULL, *mesh_of = NULL;
  double *sum = NULL;
  struct merge_key key;
  int rc = -1;

  if (!pos || !tc || !nrm || !nv || !m->num_triangles || !m->triangles || model_varray_find(m, VT_TANGENT, 1))
    return 0;
  order = malloc((size_t)nv * sizeof *order);
  cls = malloc((size_t)nv * sizeof *cls);
  mesh_of = malloc((size_t)nv * sizeof *mesh_of);
  sum = calloc((size_t)nv * 6, sizeof *sum);
  if (!order || !cls || !mesh_of || !sum)
    goto done;
  for (uint32_t v = 0; v < nv; v++) {
    order[v] = v;
    mesh_of[v] = NO_MESH;
  }
  /* the compiler merges vertices within a mesh: a vertex belongs to the first mesh holding it */
  for (uint32_t i = m->num_meshes; i-- > 0;) {
    const struct model_mesh *me = &m->meshes[i];
    for (uint64_t v = me->first_vertex; v < (uint64_t)me->first_vertex + me->num_vertexes && v < nv; v++)
      mesh_of[v] = i;
  }
  key.m = m;
  key.mesh_of = mesh_of;
  if (sort_u32(order, nv, merge_cmp, &key) < 0)
    goto done;
  for (uint32_t i = 0; i < nv; i++)
    cls[order[i]] = i > 0 && !merge_cmp(order[i - 1], order[i], &key) ? cls[order[i - 1]] : order[i];

  for (uint32_t t = 0; t < m->num_triangles; t++) {
    uint32_t c[3];
    double u[3], v[3];
    for (int k = 0; k < 3; k++)
      c[k] = corner(m, t, k);
    if (c[0] >= nv || c[1] >= nv || c[2] >= nv)
      continue;
    /* a triangle that repeats a merged vertex is dropped by the compiler before tangents */
    if (cls[c[0]] == cls[c[1]] || cls[c[1]] == cls[c[2]] || cls[c[0]] == cls[c[2]])
      continue;
    triangle_dirs(pos, tc, c, u, v);
    for (int k = 0; k < 3; k++) {
      double *s = sum + 6 * (size_t)cls[c[k]];
      for (int a = 0; a < 3; a++)
        s[a] += u[a], s[3 + a] += v[a];
    }
  }
  for (uint32_t v = 0; v < nv; v++) {
    const double *s = sum + 6 * (size_t)cls[v];
    double n[3], t[3], nt[3], len, *o = out + 4 * (size_t)v;
    for (uint32_t k = 0; k < 3; k++)
      n[k] = comp(nrm, v, k);
    for (int k = 0; k < 3; k++)
      t[k] = s[k] - n[k] * dot(n, s);
    len = sqrt(dot(t, t));
    if (len > 0 && isfinite(len)) {
      for (int k = 0; k < 3; k++)
        o[k] = t[k] / len;
      cross(n, s, nt);
      o[3] = dot(nt, s + 3) < 0 ? -1 : 1;
    } else {
      perpendicular(n, o);
      o[3] = 1;
    }
  }
  rc = 1;
done:
  free(order);
  free(cls);
  free(mesh_of);
  free(sum);
  return rc;
}
