/* f32_scan.h - where the first NaN or infinity may be in an array of little-endian floats,
 * sixteen at a time: the prefix the binary decoders' exact finiteness loops may skip. */
#ifndef MDL_F32_SCAN_H
#define MDL_F32_SCAN_H

#include <stdint.h>

#include "le32.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* A float's bits with every exponent bit set: a NaN or an infinity. */
static inline int f32_bits_nonfinite(uint32_t u)
{
  return (u & 0x7f800000u) == 0x7f800000u;
}

/* The start of the first block of 16 floats (little-endian, count of them at d) that holds a
 * NaN or an infinity (all exponent bits set), or count rounded down to 16 when none does: the
 * exact scan starts there. Portable: float by float. */
static inline uint64_t f32_finite_prefix_portable(const unsigned char *d, uint64_t count)
{
  uint64_t k;
  for (k = 0; k + 16 <= count; k += 16) {
    unsigned bad = 0;
    for (int j = 0; j < 16; j++)
      bad |= f32_bits_nonfinite(le32_read(d + (k + (uint64_t)j) * 4));
    if (bad)
      break;
  }
  return k;
}

/* The same answer; with SSE2 a block of 16 at once (the unit tests compare the two). */
static inline uint64_t f32_finite_prefix(const unsigned char *d, uint64_t count)
{
#ifdef __SSE2__
  const __m128i exp = _mm_set1_epi32(0x7f800000);
  uint64_t k;
  for (k = 0; k + 16 <= count; k += 16) {
    const __m128i *p = (const __m128i *)(const void *)(d + k * 4);
    __m128i a = _mm_cmpeq_epi32(_mm_and_si128(_mm_loadu_si128(p), exp), exp);
    __m128i b = _mm_cmpeq_epi32(_mm_and_si128(_mm_loadu_si128(p + 1), exp), exp);
    __m128i c = _mm_cmpeq_epi32(_mm_and_si128(_mm_loadu_si128(p + 2), exp), exp);
    __m128i e = _mm_cmpeq_epi32(_mm_and_si128(_mm_loadu_si128(p + 3), exp), exp);
    if (_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, e))))
      break;
  }
  return k;
#else
  return f32_finite_prefix_portable(d, count);
#endif
}

#endif
