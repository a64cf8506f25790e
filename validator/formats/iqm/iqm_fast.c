/* iqm_fast.c - the adjacency block test (iqm_fast.h), in SSE2 and portable C. */
#include "iqm_fast.h"

#include "iqm.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define NO_NEIGHBOUR 0xFFFFFFFFu

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
/* 1 when entry o names no neighbour or a record listing the triangle in tv's lanes; 0 when that
 * record lists it nowhere; -1 when o is out of range. The record is read as 16 bytes from 4
 * before it and lanes 1..3 compared: reading from its start would run 4 bytes past the last. */
static inline int entry_ok(const unsigned char *adj, uint32_t o, uint64_t nt, __m128i tv)
{
  __m128i back;
  if (o == NO_NEIGHBOUR)
    return 1;
  if (o >= nt)
    return -1;
  back = _mm_loadu_si128((const __m128i *)(const void *)(adj + (uint64_t)o * 12 - 4));
  return (_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(back, tv))) & 0xE) != 0;
}

int iqm_adjacency_clean(const unsigned char *adj, uint64_t t0, uint64_t n, uint64_t nt)
{
  const unsigned char *r = adj + t0 * 12;
  const __m128i one = _mm_set1_epi32(1);
  __m128i tv = _mm_set1_epi32((int)(uint32_t)t0); /* t < nt <= 2^32 - 1: its low 32 bits are t */
  int all = 1;
  for (uint64_t i = 0; i < n; i++, r += 12, tv = _mm_add_epi32(tv, one)) {
    int a = entry_ok(adj, le32(r), nt, tv), b = entry_ok(adj, le32(r + 4), nt, tv);
    int c = entry_ok(adj, le32(r + 8), nt, tv);
    if ((a | b | c) < 0)
      return 0;
    all &= a & b & c;
  }
  return all;
}
#else
int iqm_adjacency_clean(const unsigned char *adj, uint64_t t0, uint64_t n, uint64_t nt)
{
  return iqm_adjacency_clean_portable(adj, t0, n, nt);
}
#endif
