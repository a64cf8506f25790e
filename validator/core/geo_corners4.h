/* geo_corners4.h - four triangles' corner indexes at a time (12 little-endian uint32, 48 bytes,
 * nothing past them read): which triangles have three distinct corners below a vertex count,
 * the test every format's triangle rules and the zero-area check make of each triangle first.
 * SSE2 compares all twelve indexes at once; the portable version (WebAssembly, other CPUs) is
 * the same test one triangle at a time, and tests/unit/test_geo_flat (corner_test_agrees_with_portable) compares the two. */
#ifndef MDL_GEO_CORNERS4_H
#define MDL_GEO_CORNERS4_H

#include <stdint.h>

#include "le32.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Bit i set: triangle i of the four at p has corners a, b, c with a, b, c < nv and a != b,
 * b != c, a != c. */
static inline unsigned geo_corners_ok4_portable(const unsigned char *p, uint32_t nv)
{
  unsigned ok = 0;
  for (unsigned i = 0; i < 4; i++, p += 12) {
    uint32_t a = le32_read(p), b = le32_read(p + 4), c = le32_read(p + 8);
    ok |= (unsigned)!((a >= nv) | (b >= nv) | (c >= nv) | (a == b) | (b == c) | (a == c)) << i;
  }
  return ok;
}

#ifdef __SSE2__
/* The four triangles' first, second and third corners (48 bytes at p) as three vectors. */
static inline void geo_corners_abc(const unsigned char *p, __m128i *a, __m128i *b, __m128i *c)
{
  __m128 v0 = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(const void *)p));
  __m128 v1 = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(const void *)(p + 16)));
  __m128 v2 = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(const void *)(p + 32)));
  /* v0..v2 hold x0..x11; triangle i is (x[3i], x[3i + 1], x[3i + 2]) */
  __m128 alo = _mm_shuffle_ps(v0, v0, _MM_SHUFFLE(3, 3, 0, 0)); /* x0 x0 x3 x3 */
  __m128 ahi = _mm_shuffle_ps(v1, v2, _MM_SHUFFLE(1, 1, 2, 2)); /* x6 x6 x9 x9 */
  __m128 blo = _mm_shuffle_ps(v0, v1, _MM_SHUFFLE(0, 0, 1, 1)); /* x1 x1 x4 x4 */
  __m128 bhi = _mm_shuffle_ps(v1, v2, _MM_SHUFFLE(2, 2, 3, 3)); /* x7 x7 x10 x10 */
  __m128 clo = _mm_shuffle_ps(v0, v1, _MM_SHUFFLE(1, 1, 2, 2)); /* x2 x2 x5 x5 */
  __m128 chi = _mm_shuffle_ps(v2, v2, _MM_SHUFFLE(3, 3, 0, 0)); /* x8 x8 x11 x11 */
  *a = _mm_castps_si128(_mm_shuffle_ps(alo, ahi, _MM_SHUFFLE(2, 0, 2, 0)));
  *b = _mm_castps_si128(_mm_shuffle_ps(blo, bhi, _MM_SHUFFLE(2, 0, 2, 0)));
  *c = _mm_castps_si128(_mm_shuffle_ps(clo, chi, _MM_SHUFFLE(2, 0, 2, 0)));
}

/* All-ones lanes for the triangles with two equal corners. */
static inline __m128i geo_corners_same4(__m128i a, __m128i b, __m128i c)
{
  return _mm_or_si128(_mm_cmpeq_epi32(a, b), _mm_or_si128(_mm_cmpeq_epi32(b, c), _mm_cmpeq_epi32(a, c)));
}

/* All-ones lanes for the triangles that fail the test, one lane per triangle. */
static inline __m128i geo_corners_bad4_sse2(const unsigned char *p, __m128i nv_biased)
{
  const __m128i bias = _mm_set1_epi32((int)0x80000000u);
  __m128i a, b, c;
  geo_corners_abc(p, &a, &b, &c);
  /* unsigned x < nv as signed (x ^ 2^31) < (nv ^ 2^31); a lane is in range when all three are */
  __m128i in = _mm_and_si128(_mm_cmplt_epi32(_mm_xor_si128(a, bias), nv_biased),
                             _mm_and_si128(_mm_cmplt_epi32(_mm_xor_si128(b, bias), nv_biased),
                                           _mm_cmplt_epi32(_mm_xor_si128(c, bias), nv_biased)));
  return _mm_or_si128(geo_corners_same4(a, b, c), _mm_andnot_si128(in, _mm_set1_epi32(-1)));
}

static inline __m128i geo_corners_nv_biased(uint32_t nv)
{
  return _mm_set1_epi32((int)(nv ^ 0x80000000u));
}

static inline unsigned geo_corners_ok4(const unsigned char *p, uint32_t nv)
{
  return ~(unsigned)_mm_movemask_ps(_mm_castsi128_ps(geo_corners_bad4_sse2(p, geo_corners_nv_biased(nv)))) & 15u;
}
#else
static inline unsigned geo_corners_ok4(const unsigned char *p, uint32_t nv)
{
  return geo_corners_ok4_portable(p, nv);
}
#endif

/* 1 when every one of the 4 * n4 triangles at p passes the test (no exit per triangle). */
static inline int geo_corners_clean(const unsigned char *p, uint64_t n4, uint32_t nv)
{
#ifdef __SSE2__
  const __m128i nvb = geo_corners_nv_biased(nv);
  __m128i bad = _mm_setzero_si128();
  for (uint64_t i = 0; i < n4; i++, p += 48)
    bad = _mm_or_si128(bad, geo_corners_bad4_sse2(p, nvb));
  return _mm_movemask_epi8(bad) == 0;
#else
  unsigned ok = 15;
  for (uint64_t i = 0; i < n4; i++, p += 48)
    ok &= geo_corners_ok4_portable(p, nv);
  return ok == 15;
#endif
}

#endif
