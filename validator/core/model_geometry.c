/* model_geometry.c - the MDL-GEO checks over the common model (model_geometry.h). */
#include "model_geometry.h"

#include "geo_corners4.h"
#include "geo_filter4.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int geo_vector_zero(const double v[3])
{
  return geo_vector_zero_inline(v[0], v[1], v[2]);
}

int geo_triangle_flat(const double a[3], const double b[3], const double c[3])
{
  return geo_triangle_flat_inline(a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]);
}

int geo_tangent_degenerate(const double t[3], const double n[3])
{
  return geo_tangent_degenerate_inline(t[0], t[1], t[2], n[0], n[1], n[2]);
}

static inline void vec_get(const struct model_varray *va, uint32_t v, double out[3])
{
  uint32_t bytes;
  const unsigned char *p;
  int normalized;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (va->format == VF_FLOAT && va->size >= 3) { /* nearly every file: read the floats directly */
    float f[3];
    memcpy(f, va->data + (size_t)v * va->size * 4, sizeof f);
    out[0] = f[0], out[1] = f[1], out[2] = f[2];
    return;
  }
#endif
  bytes = vformat_bytes(va->format);
  p = va->data + (size_t)v * va->size * bytes;
  normalized = va->format != VF_FLOAT && va->format != VF_DOUBLE && va->format != VF_HALF;
  for (uint32_t k = 0; k < 3; k++)
    out[k] = k < va->size ? vformat_get(p + (size_t)k * bytes, va->format, normalized) : 0.0;
}

/* The arrays nearly every file has: floats, at least 3 a vertex, on a little-endian host. The
 * passes below read them directly (no per-vertex choice of format); vec_get serves the rest. */
static int va_plain_float(const struct model_varray *va)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  return va && va->format == VF_FLOAT && va->size >= 3;
#else
  (void)va;
  return 0;
#endif
}

static inline void f3_get(const unsigned char *base, size_t stride, uint32_t v, double *x, double *y, double *z)
{
  const unsigned char *p = base + (size_t)v * stride;
  float f0, f1, f2; /* one load each: a 12-byte copy went through the stack */
  memcpy(&f0, p, 4);
  memcpy(&f1, p + 4, 4);
  memcpy(&f2, p + 8, 4);
  *x = f0, *y = f1, *z = f2;
}

static struct mdl_loc vertex_loc(const struct geo_where *w, uint32_t a, uint32_t v)
{
  struct mdl_loc loc = loc_none();
  if (w && w->vertex)
    w->vertex(w->ctx, a, v, &loc);
  return loc;
}

/* Vectors checked as one block by geo_any_short before the loops look at them one by one. */
#define GEO_BLOCK 1024u

/* The bit pattern of the least float whose value is at least x (x > 0, normal). */
static uint32_t float_bits_at_least(double x)
{
  float f = (float)x;
  uint32_t u;
  memcpy(&u, &f, 4);
  if ((double)f < x)
    u++; /* the next float up */
  return u;
}

static void normals_check(struct diag_sink *sink, const struct model *m, const struct geo_where *w)
{
  for (uint32_t a = 0; a < m->num_varrays; a++) {
    const struct model_varray *va = &m->varrays[a];
    uint32_t first = 0, count = 0;
    if (va->type != VT_NORMAL || !va->data || va->generated || va->size < 3 || !vformat_bytes(va->format))
      continue;
    if (va_plain_float(va)) {
      const size_t stride = (size_t)va->size * 4;
      const uint32_t lim = float_bits_at_least(GEO_ZERO_LENGTH);
      for (uint32_t v = 0; v < m->num_vertexes; v++) {
        double x, y, z;
        if (v % GEO_BLOCK == 0 && m->num_vertexes - v >= GEO_BLOCK &&
            !geo_any_short(va->data + (size_t)v * stride, stride, GEO_BLOCK, lim)) {
          v += GEO_BLOCK - 1; /* no normal of the block can be zero */
          continue;
        }
        f3_get(va->data, stride, v, &x, &y, &z);
        if (geo_vector_zero_inline(x, y, z) && count++ == 0)
          first = v;
      }
    } else {
      for (uint32_t v = 0; v < m->num_vertexes; v++) {
        double n[3];
        vec_get(va, v, n);
        if (geo_vector_zero(n) && count++ == 0)
          first = v;
      }
    }
    if (count) {
      struct mdl_loc loc = vertex_loc(w, a, first);
      char exp[48];
      snprintf(exp, sizeof exp, "length >= %g", GEO_ZERO_LENGTH);
      diag_emit(sink, RULE_CORE_NORMAL_ZERO_LENGTH, &loc, exp, "vertex %u (%u of %u normals)", first, count,
                m->num_vertexes);
    }
  }
}

static void tangents_check(struct diag_sink *sink, const struct model *m, const struct geo_where *w)
{
  const struct model_varray *nrm = model_varray_find(m, VT_NORMAL, 3);
  for (uint32_t a = 0; a < m->num_varrays; a++) {
    const struct model_varray *va = &m->varrays[a];
    uint32_t first = 0, count = 0;
    if (va->type != VT_TANGENT || !va->data || va->generated || va->size < 3 || !vformat_bytes(va->format))
      continue;
    if (va_plain_float(va) && va_plain_float(nrm)) {
      const size_t ts = (size_t)va->size * 4, ns = (size_t)nrm->size * 4;
      uint32_t v = 0;
#ifdef GEO_FLAT4
      /* four at a time: the tangents geo_tangent_fine4 cannot clear take the test below; while
       * a vertex follows the four, 16 bytes are readable at each of their vectors */
      for (; m->num_vertexes - v >= 4; v += 4) {
        unsigned left;
        if (m->num_vertexes - v >= 5)
          left = ~geo_tangent_fine4_at(va->data, ts, nrm->data, ns, v) & 15u;
        else {
          const unsigned char *tp[4], *np[4];
          for (unsigned i = 0; i < 4; i++) {
            tp[i] = va->data + (size_t)(v + i) * ts;
            np[i] = nrm->data + (size_t)(v + i) * ns;
          }
          left = ~geo_tangent_fine4(tp, np) & 15u;
        }
        for (unsigned i = 0; left; i++, left >>= 1) {
          double tx, ty, tz, nx, ny, nz;
          if (!(left & 1))
            continue;
          f3_get(va->data, ts, v + i, &tx, &ty, &tz);
          f3_get(nrm->data, ns, v + i, &nx, &ny, &nz);
          if (geo_tangent_degenerate_inline(tx, ty, tz, nx, ny, nz) && count++ == 0)
            first = v + i;
        }
      }
#endif
      for (; v < m->num_vertexes; v++) {
        double tx, ty, tz, nx, ny, nz;
        f3_get(va->data, ts, v, &tx, &ty, &tz);
        f3_get(nrm->data, ns, v, &nx, &ny, &nz);
        if (geo_tangent_degenerate_inline(tx, ty, tz, nx, ny, nz) && count++ == 0)
          first = v;
      }
    } else
    for (uint32_t v = 0; v < m->num_vertexes; v++) {
      double t[3], n[3] = {0, 0, 0};
      vec_get(va, v, t);
      if (nrm)
        vec_get(nrm, v, n);
      if (geo_tangent_degenerate(t, n) && count++ == 0)
        first = v;
    }
    if (count) {
      struct mdl_loc loc = vertex_loc(w, a, first);
      diag_emit(sink, RULE_CORE_TANGENT_DEGENERATE, &loc, "a direction of its own, across the normal",
                "vertex %u (%u of %u tangents)", first, count, m->num_vertexes);
    }
  }
}

static inline uint32_t corner(const struct model *m, uint32_t t, int k)
{
  const unsigned char *p = m->triangles + (size_t)t * 12 + (size_t)k * 4;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint32_t v;
  memcpy(&v, p, sizeof v);
  return v;
#else
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
#endif
}

/* Triangles [lo, hi): one diagnostic at the first flat one, with the count. */
static void triangles_range(struct diag_sink *sink, const struct model *m, const struct geo_where *w,
                            const struct model_varray *pos, uint32_t lo, uint32_t hi, const char *mesh)
{
  uint32_t first = 0, count = 0, from = lo;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (va_plain_float(pos)) {
    const unsigned char *tri = m->triangles, *pd = pos->data;
    const size_t stride = (size_t)pos->size * 4;
    const uint32_t nv = m->num_vertexes;
    uint32_t t = lo;
#ifdef GEO_FLAT4
    /* four at a time: the triangles geo_not_flat4 cannot clear take the test below, in order */
    for (; nv && hi - t >= 4; t += 4) {
      const unsigned char *pa[4], *pb[4], *pc[4];
      const unsigned char *r = tri + (size_t)t * 12;
      unsigned use, sure;
      if (geo_corners_ok4(r, nv - 1) == 15) {
        /* every corner distinct and below nv - 1: 16 bytes are readable at each position */
        sure = geo_not_flat4_at(pd, stride, r);
        for (unsigned i = 0, left = ~sure & 15u; left; i++, left >>= 1) {
          double ax, ay, az, bx, by, bz, cx, cy, cz;
          uint32_t c[3];
          if (!(left & 1))
            continue;
          memcpy(c, r + i * 12, sizeof c);
          f3_get(pd, stride, c[0], &ax, &ay, &az);
          f3_get(pd, stride, c[1], &bx, &by, &bz);
          f3_get(pd, stride, c[2], &cx, &cy, &cz);
          if (geo_triangle_flat_inline(ax, ay, az, bx, by, bz, cx, cy, cz) && count++ == 0)
            first = t + i;
        }
        continue;
      }
      use = geo_corners_ok4(r, nv);
      for (unsigned i = 0; i < 4; i++) {
        uint32_t c[3], keep = 0u - (use >> i & 1);
        memcpy(c, r + i * 12, sizeof c);
        /* a triangle left out reads vertex 0, in range, and its answer is not used */
        pa[i] = pd + (size_t)(c[0] & keep) * stride;
        pb[i] = pd + (size_t)(c[1] & keep) * stride;
        pc[i] = pd + (size_t)(c[2] & keep) * stride;
      }
      sure = geo_not_flat4(pa, pb, pc);
      for (unsigned i = 0, left = use & ~sure; left; i++, left >>= 1) {
        double ax, ay, az, bx, by, bz, cx, cy, cz;
        if (!(left & 1))
          continue;
        f3_get(pa[i], 0, 0, &ax, &ay, &az);
        f3_get(pb[i], 0, 0, &bx, &by, &bz);
        f3_get(pc[i], 0, 0, &cx, &cy, &cz);
        if (geo_triangle_flat_inline(ax, ay, az, bx, by, bz, cx, cy, cz) && count++ == 0)
          first = t + i;
      }
    }
#endif
    for (; t < hi; t++) {
      uint32_t c[3];
      double ax, ay, az, bx, by, bz, cx, cy, cz;
      memcpy(c, tri + (size_t)t * 12, sizeof c);
      if ((c[0] >= nv) | (c[1] >= nv) | (c[2] >= nv) | (c[0] == c[1]) | (c[1] == c[2]) | (c[0] == c[2]))
        continue; /* the format's own rules report a repeated or out-of-range index */
      f3_get(pd, stride, c[0], &ax, &ay, &az);
      f3_get(pd, stride, c[1], &bx, &by, &bz);
      f3_get(pd, stride, c[2], &cx, &cy, &cz);
      if (geo_triangle_flat_inline(ax, ay, az, bx, by, bz, cx, cy, cz) && count++ == 0)
        first = t;
    }
    from = hi; /* done: the loop below has nothing left */
  }
#endif
  for (uint32_t t = from; t < hi; t++) {
    uint32_t c[3];
    double p[3][3];
    for (int k = 0; k < 3; k++)
      c[k] = corner(m, t, k);
    if (c[0] >= m->num_vertexes || c[1] >= m->num_vertexes || c[2] >= m->num_vertexes || c[0] == c[1] ||
        c[1] == c[2] || c[0] == c[2])
      continue; /* the format's own rules report a repeated or out-of-range index */
    for (int k = 0; k < 3; k++)
      vec_get(pos, c[k], p[k]);
    if (geo_triangle_flat(p[0], p[1], p[2]) && count++ == 0)
      first = t;
  }
  if (count) {
    struct mdl_loc loc = loc_none();
    char act[160];
    if (w && w->triangle)
      w->triangle(w->ctx, first, &loc);
    snprintf(act, sizeof act, "triangle %u (vertices %u %u %u)%s%.60s%s: %u of %u triangles", first,
             corner(m, first, 0), corner(m, first, 1), corner(m, first, 2), mesh ? " of mesh '" : "",
             mesh ? mesh : "", mesh ? "'" : "", count, hi - lo);
    diag_emit(sink, RULE_CORE_TRIANGLE_ZERO_AREA, &loc, "a non-zero area", "%s", act);
  }
}

static void triangles_check(struct diag_sink *sink, const struct model *m, const struct geo_where *w)
{
  const struct model_varray *pos = model_varray_find(m, VT_POSITION, 3);
  uint32_t done = 0;
  if (!pos || !m->triangles || !m->num_triangles)
    return;
  /* per mesh, in file order; triangles no mesh holds are drawn by nothing and not looked at */
  for (uint32_t i = 0; i < m->num_meshes; i++) {
    const struct model_mesh *me = &m->meshes[i];
    uint64_t hi = (uint64_t)me->first_triangle + me->num_triangles;
    if (me->first_triangle < done || hi > m->num_triangles)
      continue; /* overlapping or out-of-range meshes are the format's rules' to report */
    triangles_range(sink, m, w, pos, me->first_triangle, (uint32_t)hi, me->name ? me->name : "");
    done = (uint32_t)hi;
  }
  if (!m->num_meshes)
    triangles_range(sink, m, w, pos, 0, m->num_triangles, NULL);
}

void geo_check_model(struct diag_sink *sink, const struct model *m, const struct geo_where *w)
{
  if (!m->varrays || !m->num_vertexes)
    return;
  normals_check(sink, m, w);
  tangents_check(sink, m, w);
  triangles_check(sink, m, w);
}
