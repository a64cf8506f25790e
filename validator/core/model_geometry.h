/* model_geometry.h - geometry checks every format shares (MDL-GEO-*): normals of zero length,
 * triangles of zero area, tangents with no direction of their own; the tests, and a pass over
 * the common model's arrays that a decoder runs with its own way of locating what it reports. */
#ifndef MDL_MODEL_GEOMETRY_H
#define MDL_MODEL_GEOMETRY_H

#include <math.h>
#include <stdint.h>

#include "diag.h"
#include "model.h"

/* Below this length a normal or tangent states no direction: a unit vector printed with six
 * decimals (the least text exporters write) is within 1e-6 of length 1, and a float or
 * normalised-integer array stores one far closer; what the exporter bug writes is exactly 0. */
#define GEO_ZERO_LENGTH 1e-6
/* |t x n| / (|t| |n|) at or below this: the tangent lies along its normal (within 0.57 deg),
 * so the bitangent cross(n, t) has no direction a shader can normalise (S8N packing moves a
 * unit vector by at most 0.0068, well below). */
#define GEO_PARALLEL_SINE 1e-2

/* The tests below, inline for the passes over whole arrays (model_geometry.c); the extern
 * functions are these same expressions, so every caller gets the same answer. */
static inline int geo_vector_zero_inline(double x, double y, double z)
{
  /* NaN compares false: a non-finite vector is the formats' non-finite rules' to report */
  return x * x + y * y + z * z < GEO_ZERO_LENGTH * GEO_ZERO_LENGTH;
}

static inline int geo_triangle_flat_inline(double ax, double ay, double az, double bx, double by, double bz,
                                           double cx, double cy, double cz)
{
  double e0x = bx - ax, e0y = by - ay, e0z = bz - az, e1x = cx - ax, e1y = cy - ay, e1z = cz - az;
  double xx = e0y * e1z - e0z * e1y, xy = e0z * e1x - e0x * e1z, xz = e0x * e1y - e0y * e1x;
  double l0 = e0x * e0x + e0y * e0y + e0z * e0z, l1 = e1x * e1x + e1y * e1y + e1z * e1z;
  l0 = l0 > l1 ? l0 : l1;
  /* squared: |x| <= 1e-12 * l0 without a square root per triangle */
  return xx * xx + xy * xy + xz * xz <= 1e-24 * l0 * l0;
}

static inline int geo_tangent_degenerate_inline(double tx, double ty, double tz, double nx, double ny, double nz)
{
  double tt = tx * tx + ty * ty + tz * tz, nn = nx * nx + ny * ny + nz * nz, xx, xy, xz;
  if (tt < GEO_ZERO_LENGTH * GEO_ZERO_LENGTH)
    return 1;
  if (!(nn >= GEO_ZERO_LENGTH * GEO_ZERO_LENGTH) || !isfinite(tt) || !isfinite(nn))
    return 0; /* no normal to compare with: MDL-GEO-001 or a non-finite rule says so */
  xx = ty * nz - tz * ny;
  xy = tz * nx - tx * nz;
  xz = tx * ny - ty * nx;
  return xx * xx + xy * xy + xz * xz <= GEO_PARALLEL_SINE * GEO_PARALLEL_SINE * tt * nn;
}

/* 1 when v (3 components) is shorter than GEO_ZERO_LENGTH. */
int geo_vector_zero(const double v[3]);
/* 1 when the triangle's corners span no area: |e0 x e1| <= 1e-12 * max(|e0|^2, |e1|^2), the
 * test IQE's faces use (a relative bound far below float noise of exported positions, about
 * 1e-7 relative, so only truly flat triangles pass it). Corners that coincide count as flat. */
int geo_triangle_flat(const double a[3], const double b[3], const double c[3]);
/* 1 when tangent t has no direction of its own beside normal n: zero length, or along n. */
int geo_tangent_degenerate(const double t[3], const double n[3]);

/* Where a format places what the pass reports; either hook may be NULL (no location). */
struct geo_where {
  /* vertex v of the model's array a (index into model.varrays) */
  void (*vertex)(const void *ctx, uint32_t a, uint32_t v, struct mdl_loc *loc);
  /* triangle t of the model's triangle list */
  void (*triangle)(const void *ctx, uint32_t t, struct mdl_loc *loc);
  const void *ctx;
};

/* Check the model's normals (MDL-GEO-001), triangles (MDL-GEO-002, those with three distinct
 * in-range corners: a repeated or out-of-range index is the format's own rule) and tangents
 * (MDL-GEO-003). Each finding is one diagnostic per array or per mesh, at its first occurrence
 * with the count: a broken exporter writes every normal as zero, and thousands of identical
 * warnings would bury the rest of the report. */
void geo_check_model(struct diag_sink *sink, const struct model *m, const struct geo_where *w);

#endif
