/* geo_filter4.h - filters in front of the zero-area triangle test (MDL-GEO-002) and the
 * degenerate-tangent test (MDL-GEO-003) over float arrays, and the block test in front of the
 * zero-normal test (MDL-GEO-001). The triangle filter, over positions: four triangles at a time in SSE2 single precision, it proves most triangles are
 * not flat, so that only the rest take the double-precision geo_triangle_flat_inline. The
 * verdict stays that test's on every triangle: the filter only answers "surely not flat".
 *
 * Why that is safe. Float edges e0 = b - a, e1 = c - a (rounded), M their largest component
 * magnitude, X the largest magnitude of a component of their float cross product. Each float
 * operation errs by at most u = 2^-24 relatively (plus 2^-149 below the normal range), so a
 * cross component is within 9u M^2 + 2^-148 of the exact one from the exact edges, and the
 * double computation within 2^-49 M^2 of it. When every edge component is at most 2^60 (no
 * overflow anywhere), fl(M^2) >= 2^-100 (the 2^-148 term negligible) and X > 2^-10 fl(M^2),
 * the double cross product has a component above 0.99 * 2^-10 M^2, so its squared length is
 * above 9e-7 M^4, while the test's bound 1e-24 max(|e0|^2, |e1|^2)^2 is at most 1e-23 M^4:
 * the test answers "not flat". A NaN or infinite corner fails the 2^60 test (its edges are not
 * finite) and goes to the double test, which decides as before. Triangles narrower than about
 * 1e-3 of their longest edge squared, or tiny or huge ones, go there too.
 * Without SSE2 (WebAssembly, other CPUs) nothing is proven and every triangle takes the double
 * test: tests/unit/test_geo_flat compares the two on random and adversarial triangles. */
#ifndef MDL_GEO_FILTER4_H
#define MDL_GEO_FILTER4_H

#include <stdint.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#define GEO_FLAT4 1

/* x, y, z at p (three floats, no alignment, nothing past them read) in lanes 0..2, 0 in lane 3 */
static inline __m128 geo_load3(const unsigned char *p)
{
  int32_t z;
  memcpy(&z, p + 8, 4);
  return _mm_castsi128_ps(_mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)p),
                                             _mm_cvtsi32_si128(z)));
}

/* Bit i set: the triangle with corners ai, bi, ci (x, y, z in lanes 0..2; lane 3 is not used:
 * the transposes below leave it in p3 and q3, which nothing reads) is surely not flat by
 * geo_triangle_flat_inline. A clear bit proves nothing. Written out lane by lane: a loop over
 * arrays of vectors went through the stack at -O2. */
static inline unsigned geo_not_flat4_v(__m128 a0, __m128 b0, __m128 c0, __m128 a1, __m128 b1, __m128 c1,
                                       __m128 a2, __m128 b2, __m128 c2, __m128 a3, __m128 b3, __m128 c3)
{
  const __m128 absmask = _mm_castsi128_ps(_mm_set1_epi32(0x7FFFFFFF));
  const __m128 big = _mm_set1_ps(1152921504606846976.0f);    /* 2^60 */
  const __m128 tiny = _mm_set1_ps(7.88860905221011805e-31f); /* 2^-100 */
  const __m128 k = _mm_set1_ps(1.0f / 1024.0f);              /* 2^-10 */
  __m128 p0 = _mm_sub_ps(b0, a0), p1 = _mm_sub_ps(b1, a1), p2 = _mm_sub_ps(b2, a2), p3 = _mm_sub_ps(b3, a3);
  __m128 q0 = _mm_sub_ps(c0, a0), q1 = _mm_sub_ps(c1, a1), q2 = _mm_sub_ps(c2, a2), q3 = _mm_sub_ps(c3, a3);
  __m128 xx, xy, xz, m, x, ok, t;
  /* p0 = e0.x of the four triangles, p1 = e0.y, p2 = e0.z; q0..q2 the same of e1 */
  _MM_TRANSPOSE4_PS(p0, p1, p2, p3);
  _MM_TRANSPOSE4_PS(q0, q1, q2, q3);
  xx = _mm_sub_ps(_mm_mul_ps(p1, q2), _mm_mul_ps(p2, q1));
  xy = _mm_sub_ps(_mm_mul_ps(p2, q0), _mm_mul_ps(p0, q2));
  xz = _mm_sub_ps(_mm_mul_ps(p0, q1), _mm_mul_ps(p1, q0));
  p0 = _mm_and_ps(p0, absmask);
  p1 = _mm_and_ps(p1, absmask);
  p2 = _mm_and_ps(p2, absmask);
  q0 = _mm_and_ps(q0, absmask);
  q1 = _mm_and_ps(q1, absmask);
  q2 = _mm_and_ps(q2, absmask);
  /* a NaN compares false: not ok */
  ok = _mm_and_ps(_mm_and_ps(_mm_cmple_ps(p0, big), _mm_cmple_ps(p1, big)),
                  _mm_and_ps(_mm_cmple_ps(p2, big), _mm_cmple_ps(q0, big)));
  ok = _mm_and_ps(ok, _mm_and_ps(_mm_cmple_ps(q1, big), _mm_cmple_ps(q2, big)));
  m = _mm_max_ps(_mm_max_ps(_mm_max_ps(p0, p1), p2), _mm_max_ps(_mm_max_ps(q0, q1), q2));
  x = _mm_max_ps(_mm_max_ps(_mm_and_ps(xx, absmask), _mm_and_ps(xy, absmask)), _mm_and_ps(xz, absmask));
  t = _mm_mul_ps(m, m);
  ok = _mm_and_ps(ok, _mm_cmpge_ps(t, tiny));
  ok = _mm_and_ps(ok, _mm_cmpgt_ps(x, _mm_mul_ps(k, t)));
  return (unsigned)_mm_movemask_ps(ok);
}

/* geo_not_flat4_v on triangles (a[i], b[i], c[i]), pointers to three floats each (nothing past
 * them read). */
static inline unsigned geo_not_flat4(const unsigned char *const a[4], const unsigned char *const b[4],
                                     const unsigned char *const c[4])
{
  return geo_not_flat4_v(geo_load3(a[0]), geo_load3(b[0]), geo_load3(c[0]), geo_load3(a[1]), geo_load3(b[1]),
                         geo_load3(c[1]), geo_load3(a[2]), geo_load3(b[2]), geo_load3(c[2]), geo_load3(a[3]),
                         geo_load3(b[3]), geo_load3(c[3]));
}

/* The same answer for the four triangles whose twelve corner indexes (little-endian uint32) are
 * at r, over positions at pos, stride bytes apart: one 16-byte load a corner, so the caller
 * makes sure 16 bytes are readable at each (every index below the vertex count - 1, stride >= 12:
 * the next vertex's position follows). */
static inline unsigned geo_not_flat4_at(const unsigned char *pos, size_t stride, const unsigned char *r)
{
  uint32_t c[12];
  memcpy(c, r, sizeof c); /* x86 is little-endian */
#define GEO_AT(i) _mm_loadu_ps((const float *)(const void *)(pos + (size_t)c[i] * stride))
  return geo_not_flat4_v(GEO_AT(0), GEO_AT(1), GEO_AT(2), GEO_AT(3), GEO_AT(4), GEO_AT(5), GEO_AT(6), GEO_AT(7),
                         GEO_AT(8), GEO_AT(9), GEO_AT(10), GEO_AT(11));
#undef GEO_AT
}

/* Bit i set: the tangent t[i] (three floats) surely has a direction of its own beside the normal
 * n[i] by geo_tangent_degenerate_inline. Why: with every component at most 2^30 and both squared
 * lengths at least 2^-20 in float (so nothing overflows or leaves the normal range, and in double
 * tt and nn are above GEO_ZERO_LENGTH^2 and finite), a float |t x n|^2 above 4e-4 |t|^2 |n|^2
 * (a sine above 0.02, each float cross component within 4.2u |t| |n| of the exact one) leaves
 * the double cross product's squared sine above 3.9e-4, beyond the test's 1e-4. */
static inline unsigned geo_tangent_fine4_v(__m128 t0, __m128 t1, __m128 t2, __m128 t3, __m128 n0, __m128 n1,
                                           __m128 n2, __m128 n3)
{
  const __m128 absmask = _mm_castsi128_ps(_mm_set1_epi32(0x7FFFFFFF));
  const __m128 big = _mm_set1_ps(1073741824.0f);         /* 2^30 */
  const __m128 small = _mm_set1_ps(9.5367431640625e-07f); /* 2^-20 */
  const __m128 sine2 = _mm_set1_ps(4e-4f);
  __m128 xx, xy, xz, tt, nn, ok;
  /* t0 = x of the four tangents, t1 = y, t2 = z; t3 and n3 (lane 3: a w, or what follows) unused */
  _MM_TRANSPOSE4_PS(t0, t1, t2, t3);
  _MM_TRANSPOSE4_PS(n0, n1, n2, n3);
  xx = _mm_sub_ps(_mm_mul_ps(t1, n2), _mm_mul_ps(t2, n1));
  xy = _mm_sub_ps(_mm_mul_ps(t2, n0), _mm_mul_ps(t0, n2));
  xz = _mm_sub_ps(_mm_mul_ps(t0, n1), _mm_mul_ps(t1, n0));
  tt = _mm_add_ps(_mm_add_ps(_mm_mul_ps(t0, t0), _mm_mul_ps(t1, t1)), _mm_mul_ps(t2, t2));
  nn = _mm_add_ps(_mm_add_ps(_mm_mul_ps(n0, n0), _mm_mul_ps(n1, n1)), _mm_mul_ps(n2, n2));
  /* a NaN compares false: not ok */
  ok = _mm_and_ps(_mm_and_ps(_mm_cmple_ps(_mm_and_ps(t0, absmask), big), _mm_cmple_ps(_mm_and_ps(t1, absmask), big)),
                  _mm_and_ps(_mm_cmple_ps(_mm_and_ps(t2, absmask), big), _mm_cmple_ps(_mm_and_ps(n0, absmask), big)));
  ok = _mm_and_ps(ok, _mm_and_ps(_mm_cmple_ps(_mm_and_ps(n1, absmask), big), _mm_cmple_ps(_mm_and_ps(n2, absmask), big)));
  ok = _mm_and_ps(ok, _mm_and_ps(_mm_cmpge_ps(tt, small), _mm_cmpge_ps(nn, small)));
  ok = _mm_and_ps(ok, _mm_cmpgt_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(xx, xx), _mm_mul_ps(xy, xy)), _mm_mul_ps(xz, xz)),
                                   _mm_mul_ps(sine2, _mm_mul_ps(tt, nn))));
  return (unsigned)_mm_movemask_ps(ok);
}
/* geo_tangent_fine4_v on tangents t[i] and normals n[i], three floats each (nothing past them). */
static inline unsigned geo_tangent_fine4(const unsigned char *const t[4], const unsigned char *const n[4])
{
  return geo_tangent_fine4_v(geo_load3(t[0]), geo_load3(t[1]), geo_load3(t[2]), geo_load3(t[3]), geo_load3(n[0]),
                             geo_load3(n[1]), geo_load3(n[2]), geo_load3(n[3]));
}

/* The same for vertices v .. v + 3 of tangents at t and normals at n (ts and ns >= 12 bytes apart),
 * one 16-byte load each: the caller makes sure 16 bytes are readable there (v + 4 below the
 * vertex count, or tangents of four floats). */
static inline unsigned geo_tangent_fine4_at(const unsigned char *t, size_t ts, const unsigned char *n, size_t ns,
                                            size_t v)
{
#define GEO_LD(p) _mm_loadu_ps((const float *)(const void *)(p))
  t += v * ts;
  n += v * ns;
  return geo_tangent_fine4_v(GEO_LD(t), GEO_LD(t + ts), GEO_LD(t + 2 * ts), GEO_LD(t + 3 * ts), GEO_LD(n),
                             GEO_LD(n + ns), GEO_LD(n + 2 * ns), GEO_LD(n + 3 * ns));
#undef GEO_LD
}
#endif

/* 0 when each of the n float triples at p (stride bytes apart) has a component of magnitude
 * at least lim's float, or a NaN or infinite one (its bits, sign cleared, compare >= lim): such
 * a vector is no zero vector to geo_vector_zero_inline, since its square alone rounds to at
 * least GEO_ZERO_LENGTH^2 and the other squares only add to it (a NaN or infinity compares
 * false there too). 1: some vector may be zero; the exact test decides. No branch per vector.
 * Portable; geo_any_short is the same answer, with SSE2 four vectors at a time when they are
 * packed (stride 12). */
static inline int geo_any_short_portable(const unsigned char *p, size_t stride, uint32_t n, uint32_t lim)
{
  uint32_t small = 0;
  for (uint32_t v = 0; v < n; v++, p += stride) {
    uint32_t x, y, z;
    memcpy(&x, p, 4);
    memcpy(&y, p + 4, 4);
    memcpy(&z, p + 8, 4);
    small |= ((x & 0x7FFFFFFFu) < lim) & ((y & 0x7FFFFFFFu) < lim) & ((z & 0x7FFFFFFFu) < lim);
  }
  return small != 0;
}


#ifdef __SSE2__
/* geo_any_short_portable over n packed triples (stride 12), four at a time: a lane is short when
 * its magnitude bits are below lim; a triple is short when its three lanes are. */
static inline int geo_any_short12(const unsigned char *p, uint32_t n, uint32_t lim)
{
  const __m128i mag = _mm_set1_epi32(0x7FFFFFFF), vlim = _mm_set1_epi32((int)lim);
  unsigned small = 0;
  uint32_t v = 0;
  for (; v + 4 <= n; v += 4, p += 48) {
    /* x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3: bit 3i + c of m is component c of triple i;
     * magnitudes are below 2^31, so the signed compare is the unsigned one */
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
    __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(p + 32));
    unsigned m = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmplt_epi32(_mm_and_si128(a, mag), vlim))) |
                 (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmplt_epi32(_mm_and_si128(b, mag), vlim))) << 4 |
                 (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmplt_epi32(_mm_and_si128(c, mag), vlim))) << 8;
    small |= m & m >> 1 & m >> 2 & 0x249u;
  }
  return small != 0 || geo_any_short_portable(p, 12, n - v, lim);
}
#endif

static inline int geo_any_short(const unsigned char *p, size_t stride, uint32_t n, uint32_t lim)
{
#ifdef __SSE2__
  /* lim 2^31 or more is INT_MIN or less as a signed lane: every magnitude is below it, which the
   * signed compare would deny, so those take the portable test */
  if (stride == 12 && lim < 0x80000000u)
    return geo_any_short12(p, n, lim);
#endif
  return geo_any_short_portable(p, stride, n, lim);
}

#endif
