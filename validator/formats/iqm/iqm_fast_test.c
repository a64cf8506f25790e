/* iqm_fast_test.c - the adjacency block test (iqm_fast.c) against its portable loop: the same
 * answer on symmetric adjacency (random and grid-like neighbours, borders with no neighbour)
 * with defects planted at every place: an entry out of range, a neighbour not listing back, a
 * neighbour whose record misses the triangle but the record before it ends with it (what the
 * SSE2 load's lane 0 holds), entries equal to the triangle itself. The section is placed at the
 * very end of its allocation, 4 bytes after its start, as in a file (so a sanitizer sees any
 * read past it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iqm_fast.h"
#include "f32_scan.h"
#include "../../../tests/test_random.h"

#define NO 0xFFFFFFFFu

static int failures;
static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint32_t next(uint32_t n)
{
  return (uint32_t)(random_xorshift_star(&rng) % n);
}

static int f32_bits_finite_ref(uint32_t u)
{
  return ((u >> 23) & 0xFF) != 0xFF;
}

static uint32_t get(const unsigned char *adj, uint32_t t, int k)
{
  const unsigned char *p = adj + (size_t)t * 12 + 4 * k;
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put(unsigned char *adj, uint32_t t, int k, uint32_t v)
{
  unsigned char *p = adj + (size_t)t * 12 + 4 * k;
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

/* Symmetric adjacency over nt triangles: free slots paired up, near each other when local. */
static void make_adjacency(unsigned char *adj, uint32_t nt, int local)
{
  for (uint32_t t = 0; t < nt; t++)
    for (int k = 0; k < 3; k++)
      put(adj, t, k, NO);
  for (uint32_t i = 0; i < nt * 2; i++) {
    uint32_t a = next(nt), b = local ? (a + 1 + next(8)) % nt : next(nt);
    int ka = -1, kb = -1;
    if (a == b)
      continue;
    for (int k = 0; k < 3; k++) {
      if (get(adj, a, k) == b || get(adj, b, k) == a)
        ka = kb = -2; /* already neighbours */
      if (ka == -1 && get(adj, a, k) == NO)
        ka = k;
      if (kb == -1 && get(adj, b, k) == NO)
        kb = k;
    }
    if (ka < 0 || kb < 0)
      continue;
    put(adj, a, ka, b);
    put(adj, b, kb, a);
  }
}

/* One defect of kind `kind` somewhere. */
static void plant(unsigned char *adj, uint32_t nt, int kind)
{
  uint32_t t = next(nt), o;
  int k = (int)next(3);
  switch (kind) {
  case 0: /* out of range, around the count and the sign bit */
    put(adj, t, k, nt + next(3) - (next(2) ? 1 : 0) + (next(4) == 0 ? 0x80000000u : 0));
    return;
  case 1: /* a neighbour not listing back */
    o = get(adj, t, k);
    if (o != NO && o < nt)
      for (int j = 0; j < 3; j++)
        if (get(adj, o, j) == t)
          put(adj, o, j, next(2) ? NO : next(nt));
    return;
  case 2: /* lane 0's trap: o does not list t, but record o - 1 ends with t */
    o = get(adj, t, k);
    if (o == NO || o == 0 || o >= nt)
      return;
    for (int j = 0; j < 3; j++)
      if (get(adj, o, j) == t)
        put(adj, o, j, NO);
    put(adj, o - 1, 2, t);
    return;
  case 3: /* the triangle itself, or a random triangle */
    put(adj, t, k, next(2) ? t : next(nt));
    return;
  default: /* random bits */
    put(adj, t, k, (uint32_t)random_xorshift_star(&rng));
    return;
  }
}

/* The finite prefix: SSE2, portable and the plain definition (the 16-block of the first NaN or
 * infinity) agree on floats with non-finite ones planted anywhere, among values one step from
 * them (the largest finite floats, the smallest normal and subnormal ones, either sign). */
static void test_finite_prefix(void)
{
  static const uint32_t near[] = {0x7f7fffffu, 0xff7fffffu, 0x00800000u, 0x80000001u, 0x3f800000u, 0, 0x80000000u,
                                  0x7effffffu};
  static const uint32_t bad[] = {0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xffffffffu,
                                 0x7fffffffu, 0xff800001u};
  unsigned long found = 0;
  for (int round = 0; round < 200000; round++) {
    uint32_t count = next(round % 8 ? 80 : 2000);
    unsigned char *d = malloc((size_t)count * 4 + 1);
    uint64_t first = count, want, got, portable;
    if (!d)
      exit(99);
    for (uint32_t i = 0; i < count; i++) {
      uint32_t v = next(4) ? (uint32_t)random_xorshift_star(&rng) & 0x7f7fffffu : near[next(8)];
      if (round % 3 && next(count) == 0)
        v = bad[next(8)];
      if (f32_bits_finite_ref(v) == 0 && first == count)
        first = i;
      d[4 * i] = (unsigned char)v, d[4 * i + 1] = (unsigned char)(v >> 8);
      d[4 * i + 2] = (unsigned char)(v >> 16), d[4 * i + 3] = (unsigned char)(v >> 24);
    }
    want = first < count ? first / 16 * 16 : count / 16 * 16;
    got = f32_finite_prefix(d, count);
    portable = f32_finite_prefix_portable(d, count);
    if ((got != want || portable != want) && failures++ < 20)
      printf("FAIL: %u floats, first non-finite %llu: %llu, portable %llu, expected %llu\n", count,
             (unsigned long long)first, (unsigned long long)got, (unsigned long long)portable,
             (unsigned long long)want);
    found += first < count;
    free(d);
  }
  if (found < 20000) {
    printf("FAIL: only %lu arrays with a non-finite float\n", found);
    failures++;
  }
}

/* The mesh corner test: SSE2 and portable agree on triangles with corners around both ends of
 * the range, around the sign bit and wrapping past 2^32 - 1, repeated corners in any two places,
 * in meshes of every length up to 40 (a tail past the last four). */
static void test_mesh_corners(void)
{
  unsigned long both = 0, within = 0, distinct = 0;
  for (int round = 0; round < 1000000; round++) {
    unsigned char p[40 * 12];
    uint32_t n = next(41), lo, span;
    lo = next(4) ? next(100) : (uint32_t)random_xorshift_star(&rng);
    span = next(4) ? 3 + next(100) : (uint32_t)random_xorshift_star(&rng);
    if (next(8) == 0)
      span = 0x80000000u + next(3) - 1;
    for (uint32_t i = 0; i < 3 * n; i++) {
      uint32_t v;
      int odd = next(3 * n + 1) == 0;
      switch (odd ? next(4) : 3) {
      case 0: v = lo + span + next(3) - 1; break;
      case 1: v = lo + next(3) - 1; break;
      case 2: v = (uint32_t)random_xorshift_star(&rng); break;
      default: v = lo + (i % 3) * (span / 3) + next(span / 3 ? span / 3 : 1); break; /* distinct */
      }
      p[4 * i] = (unsigned char)v, p[4 * i + 1] = (unsigned char)(v >> 8);
      p[4 * i + 2] = (unsigned char)(v >> 16), p[4 * i + 3] = (unsigned char)(v >> 24);
    }
    if (n && next(4) == 0) { /* one repeated corner */
      uint32_t t = next(n), k = next(3), j = (k + 1 + next(2)) % 3;
      memcpy(p + 12 * t + 4 * k, p + 12 * t + 4 * j, 4);
    }
    {
      unsigned want = iqm_mesh_corners_portable(p, n, lo, span), got = iqm_mesh_corners(p, n, lo, span);
      if (got != want && failures++ < 20)
        printf("FAIL: %u triangles in [%u, +%u): %u, portable %u\n", n, lo, span, got, want);
      if (n >= 4) {
        both += want == 3;
        within += want == IQM_CORNERS_WITHIN;
        distinct += want == IQM_CORNERS_DISTINCT;
      }
    }
  }
  if (both < 10000 || within < 10000 || distinct < 10000) {
    printf("FAIL: only %lu clean, %lu with a repeat, %lu out of range\n", both, within, distinct);
    failures++;
  }
}

/* The blend test: SSE2 and portable agree on vertices with one defect or none: an index at or
 * around lim, weights summing to 254 or 256 or wrapping past 255 in a byte, a rise of exactly 1
 * (allowed) or 2, the saturation at 0 and 255; every lim from 1 to 256. */
static void test_blend(void)
{
  unsigned long clean = 0;
  for (int round = 0; round < 300000; round++) {
    unsigned char pi[40 * 4], pw[40 * 4];
    uint32_t n = next(41);
    unsigned lim = 1 + next(256);
    for (uint32_t v = 0; v < n; v++) {
      unsigned char *i = pi + 4 * v, *w = pw + 4 * v;
      unsigned a = next(256), b = next(256 - a), c = next(256 - a - b);
      for (int s = 0; s < 4; s++)
        i[s] = (unsigned char)next(lim);
      /* decreasing weights summing to 255, or a tie's (127, 128) */
      w[0] = (unsigned char)(255 - a - b - c), w[1] = (unsigned char)a, w[2] = (unsigned char)b, w[3] = (unsigned char)c;
      for (int s = 0; s < 3; s++)
        for (int t = 0; t < 3 - s; t++)
          if (w[t] < w[t + 1]) {
            unsigned char x = w[t];
            w[t] = w[t + 1], w[t + 1] = x;
          }
      if (next(8) == 0 && w[0] > 0)
        w[0]--, w[1]++; /* a rise of at most 1 */
      if (next(round % 2 ? 40 : 400) == 0) {
        switch (next(6)) {
        case 0: i[next(4)] = (unsigned char)(lim - 1 + next(3)); break;
        case 1: w[next(4)] += (unsigned char)(next(2) ? 1 : 255); break;
        case 2: w[1 + next(3)] = (unsigned char)(w[0] + 2); break;
        case 3: w[next(4)] = (unsigned char)next(256); break;
        case 4: memset(w, 0, 4); break;
        default: w[0] = 255, w[1] = 255, w[2] = 1, w[3] = 0; break; /* 511: 255 in a byte */
        }
      }
    }
    {
      int want = iqm_blend_clean4_portable(pi, pw, n, lim), got = iqm_blend_clean4(pi, pw, n, lim);
      if (got != want && failures++ < 20)
        printf("FAIL: %u vertices, lim %u: %d, portable %d\n", n, lim, got, want);
      clean += want && n >= 4;
    }
  }
  if (clean < 30000) {
    printf("FAIL: only %lu clean blocks\n", clean);
    failures++;
  }
}

int main(void)
{
  unsigned long clean = 0, dirty = 0;
  test_finite_prefix();
  test_mesh_corners();
  test_blend();
  for (int round = 0; round < 20000; round++) {
    uint32_t nt = 1 + next(round % 4 ? 200 : 3000);
    unsigned char *buf = malloc(4 + (size_t)nt * 12), *adj = buf + 4;
    int defects = (int)next(4);
    if (!buf)
      return 99;
    memset(buf, round & 0xFF, 4);
    make_adjacency(adj, nt, round % 2);
    for (int d = 0; d < defects; d++)
      plant(adj, nt, (int)next(5));
    for (int q = 0; q < 20; q++) {
      uint64_t t0 = next(nt), n = next((uint32_t)(nt - t0) + 1);
      int want = iqm_adjacency_clean_portable(adj, t0, n, nt), got = iqm_adjacency_clean(adj, t0, n, nt);
      if (got != want && failures++ < 20)
        printf("FAIL: round %d nt %u block %llu+%llu: %d, portable %d\n", round, nt, (unsigned long long)t0,
               (unsigned long long)n, got, want);
      clean += want && n;
      dirty += !want;
    }
    free(buf);
  }
  /* both answers given many times: the test sees the fast path pass and fail */
  if (clean < 50000 || dirty < 50000) {
    printf("FAIL: only %lu clean and %lu dirty blocks\n", clean, dirty);
    failures++;
  }
  if (failures) {
    printf("%d failures\n", failures);
    return 1;
  }
  printf("iqm_fast_test: all passed (%lu clean, %lu dirty blocks)\n", clean, dirty);
  return 0;
}
