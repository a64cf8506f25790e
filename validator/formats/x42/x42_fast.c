/* x42_fast.c - the common case of X42's vertex and triangle checks, many at a time (SSE2, with
 * the portable loops beside it): which leading vertices and triangles the exact checks would
 * find nothing in. Every answer is the exact checks' own: a block that is not surely clean is
 * handed back to the scalar tests, which decide it one element at a time. */
#include <string.h>

#include "x42_fast.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* The squared integer length against (127 * 0.986)^2 = 15680.6 and (127 * 1.014)^2 = 16583.6,
 * one unit inside each bound so the exact test (with the doubles) never disagrees. */
int x42_s8_surely_unit(int a, int b, int c)
{
  int l2 = a * a + b * b + c * c;
  return l2 >= 15682 && l2 <= 16582;
}

/* (c . n) / (|c| * 127) >= 0.9 with c = t x b, in integers: (c . n)^2 >= 13487 |c|^2 asks for
 * >= 0.9144 (0.9^2 * 127^2 is 13064.5), far above the rounding of the exact test's doubles. */
int x42_basis_surely_agrees(const int8_t *t, const int8_t *n)
{
  int64_t c0 = (int64_t)t[1] * t[6] - (int64_t)t[2] * t[5];
  int64_t c1 = (int64_t)t[2] * t[4] - (int64_t)t[0] * t[6];
  int64_t c2 = (int64_t)t[0] * t[5] - (int64_t)t[1] * t[4];
  int64_t dot = (c0 * n[0] + c1 * n[1] + c2 * n[2]) * (t[3] > 0 ? 1 : -1);
  int64_t lc2 = c0 * c0 + c1 * c1 + c2 * c2;
  return lc2 > 0 && dot > 0 && dot * dot >= 13487 * lc2;
}

int x42_tangent_surely_ok(const int8_t *t, const int8_t *n)
{
  return (t[3] == 127 || t[3] == -127) && x42_s8_surely_unit(t[0], t[1], t[2]) &&
         x42_s8_surely_unit(t[4], t[5], t[6]) && (!n || x42_basis_surely_agrees(t, n));
}

uint32_t x42_normals_unit_prefix_portable(const int8_t *n, uint32_t nv)
{
  uint32_t v = 0;
  while (v < nv && x42_s8_surely_unit(n[3u * (size_t)v], n[3u * (size_t)v + 1], n[3u * (size_t)v + 2]))
    v++;
  return v;
}

uint32_t x42_tangents_ok_prefix_portable(const int8_t *t, const int8_t *n, uint32_t nv)
{
  uint32_t v = 0;
  while (v < nv && x42_tangent_surely_ok(t + 7u * (size_t)v, n ? n + 3u * (size_t)v : NULL))
    v++;
  return v;
}

uint16_t x42_u16_max(const uint16_t *v, uint64_t n)
{
  /* sixteen running maxima side by side: a loop -O2 vectorises */
  uint16_t acc[16] = {0}, top = 0;
  uint64_t i = 0;
  for (; i + 16 <= n; i += 16)
    for (unsigned j = 0; j < 16; j++)
      acc[j] = v[i + j] > acc[j] ? v[i + j] : acc[j];
  for (; i < n; i++)
    top = v[i] > top ? v[i] : top;
  for (unsigned j = 0; j < 16; j++)
    top = acc[j] > top ? acc[j] : top;
  return top;
}

#ifdef __SSE2__
/* Eight 8-byte records (the low halves of r[0..7]) as eight vectors of one byte position each,
 * sign-extended to 16 bits (zero-extended with !sign): out[k] lane i = record i's byte k. */
static inline void transpose8x8(const __m128i r[8], __m128i out[8], int sign)
{
  __m128i s0 = _mm_unpacklo_epi8(r[0], r[1]), s1 = _mm_unpacklo_epi8(r[2], r[3]);
  __m128i s2 = _mm_unpacklo_epi8(r[4], r[5]), s3 = _mm_unpacklo_epi8(r[6], r[7]);
  __m128i u0 = _mm_unpacklo_epi16(s0, s1), u1 = _mm_unpackhi_epi16(s0, s1);
  __m128i u2 = _mm_unpacklo_epi16(s2, s3), u3 = _mm_unpackhi_epi16(s2, s3);
  __m128i w[4] = {_mm_unpacklo_epi32(u0, u2), _mm_unpackhi_epi32(u0, u2), _mm_unpacklo_epi32(u1, u3),
                  _mm_unpackhi_epi32(u1, u3)};
  for (int k = 0; k < 4; k++) {
    if (sign) {
      out[2 * k] = _mm_srai_epi16(_mm_unpacklo_epi8(w[k], w[k]), 8);
      out[2 * k + 1] = _mm_srai_epi16(_mm_unpackhi_epi8(w[k], w[k]), 8);
    } else {
      out[2 * k] = _mm_unpacklo_epi8(w[k], _mm_setzero_si128());
      out[2 * k + 1] = _mm_unpackhi_epi8(w[k], _mm_setzero_si128());
    }
  }
}

/* Eight 3-byte normals (4 bytes readable at each) as three vectors, sign-extended. */
static inline __m128i load32(const int8_t *p)
{
  int32_t w;
  memcpy(&w, p, 4);
  return _mm_cvtsi32_si128(w);
}

/* The eight 8-byte loads written out: -O2 keeps a loop of eight in memory, not in registers. */
#define X42_LOAD8(r, p, stride, load)                                                            \
  r[0] = load(p), r[1] = load(p + (stride)), r[2] = load(p + 2 * (stride)), r[3] = load(p + 3 * (stride)), \
  r[4] = load(p + 4 * (stride)), r[5] = load(p + 5 * (stride)), r[6] = load(p + 6 * (stride)),  \
  r[7] = load(p + 7 * (stride))
#define X42_LOAD64(p) _mm_loadl_epi64((const __m128i *)(const void *)(p))

static inline void normals8(const int8_t *n, __m128i out[3])
{
  __m128i r[8];
  X42_LOAD8(r, n, 3, load32);
  {
    __m128i s0 = _mm_unpacklo_epi8(r[0], r[1]), s1 = _mm_unpacklo_epi8(r[2], r[3]);
    __m128i s2 = _mm_unpacklo_epi8(r[4], r[5]), s3 = _mm_unpacklo_epi8(r[6], r[7]);
    __m128i u0 = _mm_unpacklo_epi16(s0, s1), u2 = _mm_unpacklo_epi16(s2, s3);
    __m128i w0 = _mm_unpacklo_epi32(u0, u2), w1 = _mm_unpackhi_epi32(u0, u2);
    out[0] = _mm_srai_epi16(_mm_unpacklo_epi8(w0, w0), 8);
    out[1] = _mm_srai_epi16(_mm_unpackhi_epi8(w0, w0), 8);
    out[2] = _mm_srai_epi16(_mm_unpacklo_epi8(w1, w1), 8);
  }
}

/* x42_s8_surely_unit per lane: a^2 + b^2 + c^2 <= 49152 is exact in unsigned 16 bits, and
 * l2 - 15682 (wrapping) <= 900 says 15682 <= l2 <= 16582. */
static inline __m128i unit8(__m128i a, __m128i b, __m128i c)
{
  __m128i l2 = _mm_add_epi16(_mm_add_epi16(_mm_mullo_epi16(a, a), _mm_mullo_epi16(b, b)), _mm_mullo_epi16(c, c));
  __m128i d = _mm_sub_epi16(l2, _mm_set1_epi16(15682));
  return _mm_cmpeq_epi16(_mm_subs_epu16(d, _mm_set1_epi16(900)), _mm_setzero_si128());
}

static unsigned lanes8(__m128i ok)
{
  unsigned m = (unsigned)_mm_movemask_epi8(ok), out = 0;
  for (unsigned i = 0; i < 8; i++)
    out |= ((m >> (2 * i)) & 3u) == 3u ? 1u << i : 0;
  return out;
}

/* The basis test per lane, stronger than x42_basis_surely_agrees: c = t x b is exact in 16 bits
 * (|c_k| <= 2 * 128 * 128 - 128 = 32640), dot = nfac-signed c . n and |c|^2 exact in 32 bits
 * wherever t and b passed their length test (|c|^2 <= 16582^2; elsewhere the lane fails anyway).
 * In float, dot (below 2^24) is exact and |c|^2 and the two products round by 2^-24 each, so
 * dot^2 >= 13488 |c|^2 in float gives dot^2 >= 13487 |c|^2 in integers. */
static inline __m128i tangents8_ok(const int8_t *t, const __m128i *nl)
{
  __m128i r[8], f[8], ok;
  X42_LOAD8(r, t, 7, X42_LOAD64);
  transpose8x8(r, f, 1);
  ok = _mm_or_si128(_mm_cmpeq_epi16(f[3], _mm_set1_epi16(127)), _mm_cmpeq_epi16(f[3], _mm_set1_epi16(-127)));
  ok = _mm_and_si128(ok, _mm_and_si128(unit8(f[0], f[1], f[2]), unit8(f[4], f[5], f[6])));
  if (nl) {
    const __m128i z = _mm_setzero_si128();
    __m128i nv[3], s = _mm_srai_epi16(f[3], 15), good[2];
    __m128i c0 = _mm_sub_epi16(_mm_mullo_epi16(f[1], f[6]), _mm_mullo_epi16(f[2], f[5]));
    __m128i c1 = _mm_sub_epi16(_mm_mullo_epi16(f[2], f[4]), _mm_mullo_epi16(f[0], f[6]));
    __m128i c2 = _mm_sub_epi16(_mm_mullo_epi16(f[0], f[5]), _mm_mullo_epi16(f[1], f[4]));
    for (int k = 0; k < 3; k++) /* n * sign(nfac): nfac is +-127 wherever the lane can pass */
      nv[k] = _mm_sub_epi16(_mm_xor_si128(nl[k], s), s);
    for (int h = 0; h < 2; h++) {
      __m128i c01 = h ? _mm_unpackhi_epi16(c0, c1) : _mm_unpacklo_epi16(c0, c1);
      __m128i c2z = h ? _mm_unpackhi_epi16(c2, z) : _mm_unpacklo_epi16(c2, z);
      __m128i n01 = h ? _mm_unpackhi_epi16(nv[0], nv[1]) : _mm_unpacklo_epi16(nv[0], nv[1]);
      __m128i n2z = h ? _mm_unpackhi_epi16(nv[2], z) : _mm_unpacklo_epi16(nv[2], z);
      __m128i dot = _mm_add_epi32(_mm_madd_epi16(c01, n01), _mm_madd_epi16(c2z, n2z));
      __m128i lc2 = _mm_add_epi32(_mm_madd_epi16(c01, c01), _mm_madd_epi16(c2z, c2z));
      __m128 fd = _mm_cvtepi32_ps(dot), fl = _mm_cvtepi32_ps(lc2);
      __m128 ge = _mm_cmpge_ps(_mm_mul_ps(fd, fd), _mm_mul_ps(fl, _mm_set1_ps(13488.0f)));
      good[h] = _mm_and_si128(_mm_cmpgt_epi32(dot, z), _mm_castps_si128(ge));
    }
    ok = _mm_and_si128(ok, _mm_packs_epi32(good[0], good[1]));
  }
  return ok;
}

unsigned x42_tangents8_mask_sse2(const int8_t *t, const int8_t *n)
{
  __m128i nl[3];
  if (n)
    normals8(n, nl);
  return lanes8(tangents8_ok(t, n ? nl : NULL));
}

int x42_tangent_float_ok(const int8_t *t, const int8_t *n)
{
  int32_t c0, c1, c2, dot, lc2, s;
  float fd, fl;
  if (!(t[3] == 127 || t[3] == -127) || !x42_s8_surely_unit(t[0], t[1], t[2]) || !x42_s8_surely_unit(t[4], t[5], t[6]))
    return 0;
  if (!n)
    return 1;
  s = t[3] < 0 ? -1 : 1;
  c0 = t[1] * t[6] - t[2] * t[5];
  c1 = t[2] * t[4] - t[0] * t[6];
  c2 = t[0] * t[5] - t[1] * t[4];
  dot = c0 * n[0] * s + c1 * n[1] * s + c2 * n[2] * s;
  lc2 = c0 * c0 + c1 * c1 + c2 * c2;
  fd = (float)dot;
  fl = (float)lc2;
  return dot > 0 && fd * fd >= fl * 13488.0f;
}
#endif

/* 1 when none of nv blend entries of m slots at e has an index at or past lim or stored weights
 * summing past 255. m is a constant once inlined, so a vertex is a few loads and compares. */
static inline int blend_clean_m(const uint8_t *e, uint64_t nv, const unsigned m, unsigned lim)
{
  const unsigned stride = 2 * m - 1;
  unsigned bad = 0;
  for (uint64_t v = 0; v < nv; v++, e += stride) {
    unsigned sum = 0;
    for (unsigned k = 0; k < m; k++)
      bad |= e[2 * k] >= lim;
    for (unsigned k = 0; k + 1 < m; k++)
      sum += e[2 * k + 1];
    bad |= sum > 255;
  }
  return !bad;
}

int x42_blend_clean_portable(const uint8_t *e, uint64_t nv, unsigned m, unsigned lim)
{
  switch (m) {
  case 1: return blend_clean_m(e, nv, 1, lim);
  case 2: return blend_clean_m(e, nv, 2, lim);
  case 3: return blend_clean_m(e, nv, 3, lim);
  case 4: return blend_clean_m(e, nv, 4, lim);
  default: return 0;
  }
}

int x42_blend_clean(const uint8_t *e, uint64_t nv, unsigned m, unsigned lim)
{
  uint64_t v = 0;
#ifdef __SSE2__
  /* eight entries a block, one 8-byte load each (an entry is at most 7 bytes): byte 2k is slot
   * k's index, byte 2k + 1 its weight (the last slot's weight is implied). A block reads up to
   * 7 * stride + 8 bytes, inside the group's entries while v + 7 + 8 / stride <= nv. */
  const unsigned stride = m >= 1 && m <= 4 ? 2 * m - 1 : 1;
  const __m128i lv = _mm_set1_epi16((short)(lim > 256 ? 256 : lim)), top = _mm_set1_epi16(255);
  if (m < 1 || m > 4)
    return 0;
  for (; v + 7 + (8 + stride - 1) / stride <= nv; v += 8) {
    const uint8_t *p = e + v * stride;
    __m128i r[8], f[8], bad, sum = _mm_setzero_si128();
    X42_LOAD8(r, p, stride, X42_LOAD64);
    transpose8x8(r, f, 0);
    bad = _mm_cmpgt_epi16(lv, f[0]);
    for (unsigned k = 1; k < m; k++) {
      bad = _mm_and_si128(bad, _mm_cmpgt_epi16(lv, f[2 * k]));
      sum = _mm_add_epi16(sum, f[2 * k - 1]);
    }
    bad = _mm_andnot_si128(_mm_cmpgt_epi16(sum, top), bad); /* bad now holds the clean lanes */
    if (_mm_movemask_epi8(bad) != 0xFFFF)
      return 0;
  }
#endif
  return x42_blend_clean_portable(e + v * (m >= 1 && m <= 4 ? 2 * m - 1 : 1), nv - v, m, lim);
}

void x42_vertex_prefixes(const int8_t *n, const int8_t *t, uint32_t nv, uint32_t *np, uint32_t *tp)
{
  uint32_t v = 0;
  int ndone = !n, tdone = !t;
  *np = *tp = 0;
#ifdef __SSE2__
  /* one pass over both arrays, eight vertices a block; a block reads 4 bytes at each normal and
   * 8 at each tangent record, so the last vertex is left to the scalar loops. A tangent block
   * the float test refuses is decided vertex by vertex, as the portable loop decides it. */
  for (; (!ndone || !tdone) && (uint64_t)v + 9 <= nv; v += 8) {
    __m128i nl[3];
    if (n) {
      normals8(n + 3u * (size_t)v, nl);
      if (!ndone && _mm_movemask_epi8(unit8(nl[0], nl[1], nl[2])) != 0xFFFF) {
        ndone = 1;
        *np = v + x42_normals_unit_prefix_portable(n + 3u * (size_t)v, nv - v);
      }
    }
    if (!tdone && _mm_movemask_epi8(tangents8_ok(t + 7u * (size_t)v, n ? nl : NULL)) != 0xFFFF) {
      uint32_t k = 0;
      while (k < 8 && x42_tangent_surely_ok(t + 7u * ((size_t)v + k), n ? n + 3u * ((size_t)v + k) : NULL))
        k++;
      if (k < 8) {
        tdone = 1;
        *tp = v + k;
      }
    }
  }
#endif
  if (!ndone)
    *np = v + x42_normals_unit_prefix_portable(n + 3u * (size_t)v, nv - v);
  if (!tdone)
    *tp = v + x42_tangents_ok_prefix_portable(t + 7u * (size_t)v, n ? n + 3u * (size_t)v : NULL, nv - v);
}

uint32_t x42_list_next_maybe_flat(const uint16_t *ix, uint32_t ntri, const uint16_t *vp, uint64_t fv,
                                  const int64_t mask[3], uint32_t from)
{
#ifdef __SSE2__
  /* two triangles a vector, each corner one 8-byte load (x, y, z and the next vertex's x, which
   * the mask drops: every corner is below nv - 1, so the load stays inside the array). The
   * cross product modulo 2^16 (16-bit lanes) is exact wherever it is non-zero: that triangle is
   * surely not flat. d = a * b.yzx - a.yzx * b is the cross product's components rotated. */
  const uint16_t *vb = vp + 3u * fv;
  const __m128i m = _mm_set_epi16(0, (short)mask[2], (short)mask[1], (short)mask[0], 0, (short)mask[2],
                                  (short)mask[1], (short)mask[0]);
  const __m128i z = _mm_setzero_si128();
  uint32_t t = from;
  for (; t + 2 <= ntri; t += 2) {
    const uint16_t *e = ix + 3u * (size_t)t;
#define X42_CORNER(i) _mm_loadl_epi64((const __m128i *)(const void *)(vb + 3u * (size_t)e[i]))
    __m128i p0 = _mm_unpacklo_epi64(X42_CORNER(0), X42_CORNER(3));
    __m128i p1 = _mm_unpacklo_epi64(X42_CORNER(1), X42_CORNER(4));
    __m128i p2 = _mm_unpacklo_epi64(X42_CORNER(2), X42_CORNER(5));
#undef X42_CORNER
    __m128i a = _mm_and_si128(_mm_sub_epi16(p1, p0), m), b = _mm_and_si128(_mm_sub_epi16(p2, p0), m);
    __m128i ar = _mm_shufflehi_epi16(_mm_shufflelo_epi16(a, _MM_SHUFFLE(3, 0, 2, 1)), _MM_SHUFFLE(3, 0, 2, 1));
    __m128i br = _mm_shufflehi_epi16(_mm_shufflelo_epi16(b, _MM_SHUFFLE(3, 0, 2, 1)), _MM_SHUFFLE(3, 0, 2, 1));
    __m128i d = _mm_sub_epi16(_mm_mullo_epi16(a, br), _mm_mullo_epi16(ar, b));
    unsigned zero = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi16(d, z));
    if ((zero & 0xFFu) == 0xFFu)
      return t;
    if ((zero >> 8) == 0xFFu)
      return t + 1;
  }
  return t; /* the odd last one, or ntri */
#else
  (void)ix, (void)ntri, (void)vp, (void)fv, (void)mask;
  return from;
#endif
}
