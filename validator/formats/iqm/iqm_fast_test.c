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
#include "../../../tests/test_random.h"

#define NO 0xFFFFFFFFu

static int failures;
static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint32_t next(uint32_t n)
{
  return (uint32_t)(random_xorshift_star(&rng) % n);
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

int main(void)
{
  unsigned long clean = 0, dirty = 0;
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
