/* iqm_fast.c - the adjacency block test, the finite-float prefix, the mesh corner test and the
 * blend test (iqm_fast.h), in SSE2 and portable C. */
#include "iqm_fast.h"

#include "geo_corners4.h"
#include "iqm.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif


int iqm_adjacency_clean_portable(const unsigned char *adj, uint64_t t0, uint64_t n, uint64_t nt)
{
  const unsigned char *r = adj + t0 * 12;
  uint32_t bad = 0;
  for (uint64_t t = t0; t < t0 + n; t++, r += 12)
    for (int k = 0; k < 3; k++) {
      uint32_t o = le32(r + 4 * k);
      const unsigned char *back;
      uint32_t b0, b1, b2;
      if (o == NO_NEIGHBOUR)
        continue;
      if (o >= nt)
        return 0;
      back = adj + (uint64_t)o * 12;
      b0 = le32(back), b1 = le32(back + 4), b2 = le32(back + 8);
      bad |= (b0 != t) & (b1 != t) & (b2 != t);
    }
  return !bad;
}

#ifdef __SSE2__
/* Bits 1..3 (the neighbour's three entries) set where adjacency entry o's record lists the
 * triangle in tv's lanes: read as 16 bytes from 4 before the record (from its start the last
 * record would be read 4 bytes past), lane 0 is the record before's and not looked at. 2 (a hit)
 * for no neighbour; 0 (a miss, nothing read) for an index out of range. */
static inline unsigned entry_hits(const unsigned char *adj, uint32_t o, uint64_t nt, __m128i tv)
{
  if (o == NO_NEIGHBOUR)
    return 2;
  if (o >= nt)
    return 0;
  return (unsigned)_mm_movemask_ps(_mm_castsi128_ps(
    _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(const void *)(adj + (uint64_t)o * 12 - 4)), tv)));
}

int iqm_adjacency_clean(const unsigned char *adj, uint64_t t0, uint64_t n, uint64_t nt)
{
  const unsigned char *r = adj + t0 * 12;
  const __m128i one = _mm_set1_epi32(1);
  __m128i tv = _mm_set1_epi32((int)(uint32_t)t0); /* t < nt <= 2^32 - 1: its low 32 bits are t */
  /* h + 14 has bit 4 set exactly when h has one of bits 1..3 (h <= 15): one AND a entry */
  unsigned all = 16;
  for (uint64_t i = 0; i < n; i++, r += 12, tv = _mm_add_epi32(tv, one)) {
    all &= entry_hits(adj, le32(r), nt, tv) + 14;
    all &= entry_hits(adj, le32(r + 4), nt, tv) + 14;
    all &= entry_hits(adj, le32(r + 8), nt, tv) + 14;
  }
  return all != 0;
}
#else
int iqm_adjacency_clean(const unsigned char *adj, uint64_t t0, uint64_t n, uint64_t nt)
{
  return iqm_adjacency_clean_portable(adj, t0, n, nt);
}
#endif

unsigned iqm_mesh_corners_portable(const unsigned char *p, uint64_t n, uint32_t lo, uint32_t span)
{
  uint32_t out = 0, same = 0;
  for (uint64_t t = 0; t < n; t++, p += 12) {
    uint32_t a = le32(p), b = le32(p + 4), c = le32(p + 8);
    out |= (a - lo >= span) | (b - lo >= span) | (c - lo >= span);
    same |= (a == b) | (b == c) | (a == c);
  }
  return (out ? 0u : IQM_CORNERS_WITHIN) | (same ? 0u : IQM_CORNERS_DISTINCT);
}

#ifdef __SSE2__
unsigned iqm_mesh_corners(const unsigned char *p, uint64_t n, uint32_t lo, uint32_t span)
{
  /* unsigned x - lo < span as signed (x - lo) ^ 2^31 < span ^ 2^31 */
  const __m128i bias = _mm_set1_epi32((int)0x80000000u), vlo = _mm_set1_epi32((int)lo);
  const __m128i vspan = _mm_set1_epi32((int)(span ^ 0x80000000u));
  __m128i in = _mm_set1_epi32(-1), same = _mm_setzero_si128();
  uint64_t t = 0;
  for (; t + 4 <= n; t += 4, p += 48) {
    __m128i a, b, c;
    geo_corners_abc(p, &a, &b, &c);
    same = _mm_or_si128(same, geo_corners_same4(a, b, c));
    a = _mm_cmplt_epi32(_mm_xor_si128(_mm_sub_epi32(a, vlo), bias), vspan);
    b = _mm_cmplt_epi32(_mm_xor_si128(_mm_sub_epi32(b, vlo), bias), vspan);
    c = _mm_cmplt_epi32(_mm_xor_si128(_mm_sub_epi32(c, vlo), bias), vspan);
    in = _mm_and_si128(in, _mm_and_si128(a, _mm_and_si128(b, c)));
  }
  return iqm_mesh_corners_portable(p, n - t, lo, span) & ((_mm_movemask_epi8(in) == 0xFFFF ? IQM_CORNERS_WITHIN : 0u) |
                                                          (_mm_movemask_epi8(same) == 0 ? IQM_CORNERS_DISTINCT : 0u));
}
#else
unsigned iqm_mesh_corners(const unsigned char *p, uint64_t n, uint32_t lo, uint32_t span)
{
  return iqm_mesh_corners_portable(p, n, lo, span);
}
#endif

int iqm_blend_clean4_portable(const unsigned char *pi, const unsigned char *pw, uint64_t n, unsigned lim)
{
  unsigned bad = 0;
  for (uint64_t v = 0; v < n; v++, pi += 4, pw += 4) {
    unsigned sum = (unsigned)pw[0] + pw[1] + pw[2] + pw[3];
    bad |= (pi[0] >= lim) | (pi[1] >= lim) | (pi[2] >= lim) | (pi[3] >= lim);
    bad |= (sum != 255) | (pw[1] > pw[0] + 1u) | (pw[2] > pw[1] + 1u) | (pw[3] > pw[2] + 1u);
  }
  return !bad;
}

#ifdef __SSE2__
int iqm_blend_clean4(const unsigned char *pi, const unsigned char *pw, uint64_t n, unsigned lim)
{
  const __m128i top = _mm_set1_epi8((char)(unsigned char)(lim - 1)), one = _mm_set1_epi8(1);
  const __m128i low8 = _mm_set1_epi16(0x00FF), low16 = _mm_set1_epi32(0xFFFF), full = _mm_set1_epi32(255);
  __m128i bad = _mm_setzero_si128();
  uint64_t v = 0;
  if (lim < 1 || lim > 256)
    return iqm_blend_clean4_portable(pi, pw, n, lim);
  for (; v + 4 <= n; v += 4) {
    __m128i i = _mm_loadu_si128((const __m128i *)(const void *)(pi + 4 * v));
    __m128i w = _mm_loadu_si128((const __m128i *)(const void *)(pw + 4 * v));
    /* each vertex's weights one slot on (w1 w2 w3 0): a rise by more than 1 leaves a byte > 1
     * after the saturating difference; the last slot's 0 - w3 saturates to 0 */
    __m128i rise = _mm_subs_epu8(_mm_subs_epu8(_mm_srli_epi32(w, 8), w), one);
    /* the four weights' sum per vertex: bytes to 16-bit pairs, pairs to the 32-bit lane */
    __m128i pair = _mm_add_epi16(_mm_and_si128(w, low8), _mm_and_si128(_mm_srli_epi16(w, 8), low8));
    __m128i sum = _mm_add_epi32(_mm_and_si128(pair, low16), _mm_srli_epi32(pair, 16));
    bad = _mm_or_si128(bad, _mm_subs_epu8(i, top)); /* an index above lim - 1 */
    bad = _mm_or_si128(bad, rise);
    bad = _mm_or_si128(bad, _mm_xor_si128(sum, full));
  }
  return _mm_movemask_epi8(_mm_cmpeq_epi8(bad, _mm_setzero_si128())) == 0xFFFF &&
         iqm_blend_clean4_portable(pi + 4 * v, pw + 4 * v, n - v, lim);
}
#else
int iqm_blend_clean4(const unsigned char *pi, const unsigned char *pw, uint64_t n, unsigned lim)
{
  return iqm_blend_clean4_portable(pi, pw, n, lim);
}
#endif
