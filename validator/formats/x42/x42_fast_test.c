/* x42_fast_test.c - the many-at-a-time vertex and triangle tests (x42_fast.c) against the exact
 * ones they stand in for: every S8N vector the integer unit test clears is within 1 +- 0.014 (all
 * 2^24); the SSE2 lanes give the scalar float test's answer, which implies the integer basis
 * test, which implies the exact doubles' cos >= 0.9, on millions of random, near-unit and
 * adversarial records; the prefixes (SSE2) equal the portable loops' on arrays with defects at
 * every place; no triangle the list scan passes over is flat or has a repeated corner; and the
 * blend entries' test gives the portable loop's answer. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "x42.h"
#include "x42_fast.h"
#include "../../../tests/test_random.h"

static int failures;

#define CHECK(cond, ...)               \
  do {                                 \
    if (!(cond)) {                     \
      if (failures < 20) {             \
        printf("FAIL: " __VA_ARGS__);  \
        printf("\n");                  \
      }                                \
      failures++;                      \
    }                                  \
  } while (0)

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static unsigned next(unsigned n)
{
  return (unsigned)(random_xorshift(&rng) % n);
}

static int8_t rbyte(void) { return (int8_t)(int)(next(256) - 128); }

/* The exact tests of x42_sections.c (check_vertex_attrs), as they stand there. */
static int exact_unit(const int8_t *v)
{
  double len = sqrt(x42_s8n(v[0]) * x42_s8n(v[0]) + x42_s8n(v[1]) * x42_s8n(v[1]) + x42_s8n(v[2]) * x42_s8n(v[2]));
  return !(fabs(len - 1) > 0.014);
}

static int exact_basis_ok(const int8_t *t, const int8_t *n)
{
  double tv[3], bv[3], c[3], lc, dot = 0;
  for (int k = 0; k < 3; k++) {
    tv[k] = x42_s8n(t[k]);
    bv[k] = x42_s8n(t[4 + k]);
  }
  c[0] = tv[1] * bv[2] - tv[2] * bv[1];
  c[1] = tv[2] * bv[0] - tv[0] * bv[2];
  c[2] = tv[0] * bv[1] - tv[1] * bv[0];
  lc = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
  if (!(lc > 1e-9))
    return 1;
  for (int k = 0; k < 3; k++)
    dot += c[k] / lc * x42_s8n(n[k]) * (t[3] > 0 ? 1 : -1);
  return !(dot < 0.9);
}

/* A unit direction quantised to S8N, with a little noise in the last step: near-unit vectors. */
static void unit_s8(int8_t *v, double x, double y, double z, int jitter)
{
  double l = sqrt(x * x + y * y + z * z);
  double c[3] = {x / l, y / l, z / l};
  if (!(l > 0))
    c[0] = 1, c[1] = c[2] = 0;
  for (int k = 0; k < 3; k++) {
    long q = lround(c[k] * 127) + (jitter ? (long)next(3) - 1 : 0);
    v[k] = (int8_t)(q < -128 ? -128 : q > 127 ? 127 : q);
  }
}

static double rnd(void) { return (double)next(2000001) / 1000000.0 - 1; }

/* One vertex (tangent record t, normal n): random bytes, a proper basis, or one with a defect. */
static void make_vertex(int8_t *t, int8_t *n, int kind)
{
  double nx = rnd(), ny = rnd(), nz = rnd(), tx = rnd(), ty = rnd(), tz = rnd(), bx, by, bz, d;
  int sign = next(2) ? 1 : -1;
  if (kind == 0) { /* any bytes */
    for (int k = 0; k < 7; k++)
      t[k] = rbyte();
    for (int k = 0; k < 3; k++)
      n[k] = rbyte();
    if (next(2))
      t[3] = next(2) ? 127 : -127;
    return;
  }
  /* t orthogonal to n, b = sign * n x t: the basis the exporters write */
  d = (tx * nx + ty * ny + tz * nz) / (nx * nx + ny * ny + nz * nz + 1e-30);
  tx -= d * nx, ty -= d * ny, tz -= d * nz;
  bx = sign * (ny * tz - nz * ty), by = sign * (nz * tx - nx * tz), bz = sign * (nx * ty - ny * tx);
  unit_s8(n, nx, ny, nz, kind == 2);
  unit_s8(t, tx, ty, tz, kind == 2);
  unit_s8(t + 4, bx, by, bz, kind == 2);
  t[3] = (int8_t)(127 * sign);
  switch (kind) {
  case 3: t[3] = (int8_t)(int)(next(2) ? 0 : (int)next(256) - 128); break; /* nfac not +-1 */
  case 4: t[next(2) ? 0 : 4] = rbyte(); break;                       /* a damaged component */
  case 5: memcpy(t + 4, t, 3); break;                                   /* b along t */
  case 6: t[3] = (int8_t)-t[3]; break;                                  /* the mirrored sign */
  case 7: /* b turned toward n by a random amount: cos near the thresholds */
    unit_s8(t + 4, bx + rnd() * nx * 2, by + rnd() * ny * 2, bz + rnd() * nz * 2, 0);
    break;
  case 8: /* extremes of the quantisation */
    for (int k = 0; k < 3; k++) {
      static const int8_t ext[] = {-128, -127, 127, 0, 1, -1};
      t[next(2) ? k : 4 + k] = ext[next(6)];
      if (next(4) == 0)
        n[k] = ext[next(6)];
    }
    break;
  default: break;
  }
}

static void test_unit_exhaustive(void)
{
  unsigned cleared = 0;
  for (int a = -128; a < 128; a++)
    for (int b = -128; b < 128; b++)
      for (int c = -128; c < 128; c++) {
        int8_t v[3] = {(int8_t)a, (int8_t)b, (int8_t)c};
        if (x42_s8_surely_unit(a, b, c)) {
          cleared++;
          CHECK(exact_unit(v), "s8 unit cleared (%d %d %d), exact test disagrees", a, b, c);
        }
      }
  CHECK(cleared > 100000, "the unit test clears only %u vectors", cleared);
}

static void test_basis(void)
{
  unsigned long n_int = 0;
#ifdef __SSE2__
  unsigned long n_fast = 0, n_full = 0;
#endif
  for (unsigned long i = 0; i < 2000000; i++) {
    int8_t t[7], n[3];
    int intok;
    make_vertex(t, n, (int)next(9));
    intok = x42_basis_surely_agrees(t, n);
#ifdef __SSE2__
    n_full += intok && (t[3] == 127 || t[3] == -127) && x42_s8_surely_unit(t[0], t[1], t[2]) &&
              x42_s8_surely_unit(t[4], t[5], t[6]);
#endif
    if (intok) {
      n_int++;
      CHECK(exact_basis_ok(t, n), "integer basis test cleared a basis the exact test reports (%d %d %d %d %d %d %d / %d %d %d)",
            t[0], t[1], t[2], t[3], t[4], t[5], t[6], n[0], n[1], n[2]);
    }
#ifdef __SSE2__
    if (x42_tangent_float_ok(t, n)) {
      n_fast++;
      CHECK(intok, "float basis test cleared one the integer test does not (%d %d %d %d %d %d %d / %d %d %d)", t[0],
            t[1], t[2], t[3], t[4], t[5], t[6], n[0], n[1], n[2]);
    }
#endif
  }
  CHECK(n_int > 500000, "the integer basis test clears only %lu", n_int);
#ifdef __SSE2__
  /* the float test's stricter bound (13488 against 13487) leaves next to nothing to the scalar */
  CHECK(n_fast > n_full * 0.999, "the float test clears %lu of %lu", n_fast, n_full);
#endif
}

#ifdef __SSE2__
static void test_lanes(void)
{
  int8_t t[8 * 7 + 1], n[8 * 3 + 1];
  for (unsigned long i = 0; i < 300000; i++) {
    unsigned want_n = 0, want = 0, got, got_n;
    int kind = (int)next(9);
    for (int v = 0; v < 8; v++)
      make_vertex(t + 7 * v, n + 3 * v, next(4) ? kind : (int)next(9));
    t[56] = rbyte(), n[24] = rbyte();
    for (int v = 0; v < 8; v++) {
      want |= (unsigned)x42_tangent_float_ok(t + 7 * v, n + 3 * v) << v;
      want_n |= (unsigned)x42_tangent_float_ok(t + 7 * v, NULL) << v;
    }
    got = x42_tangents8_mask_sse2(t, n);
    got_n = x42_tangents8_mask_sse2(t, NULL);
    CHECK(got == want, "SSE2 tangent lanes %02x, scalar %02x", got, want);
    CHECK(got_n == want_n, "SSE2 tangent lanes without normals %02x, scalar %02x", got_n, want_n);
  }
}
#endif

/* Arrays of every length up to 40 and some long ones, clean (near-unit bases) but for defects
 * at random places: the prefixes equal the portable loops'. The arrays are allocated to their
 * exact size, so a read past one is the sanitizer build's to catch. */
static void test_prefixes(void)
{
  for (unsigned i = 0; i < 30000; i++) {
    uint32_t nv = i < 10000 ? i % 41 : next(3000), np, tp, wn, wt;
    int8_t *t = malloc(7u * nv + 1), *n = malloc(3u * nv + 1);
    unsigned defects = next(4);
    if (!t || !n) {
      CHECK(0, "out of memory");
      free(t), free(n);
      return;
    }
    for (uint32_t v = 0; v < nv; v++)
      make_vertex(t + 7u * v, n + 3u * v, 1 + (int)next(2));
    for (unsigned k = 0; nv && k < defects; k++) {
      uint32_t v = next(nv);
      if (next(3) == 0)
        n[3u * v + next(3)] = rbyte();
      else
        make_vertex(t + 7u * v, n + 3u * v, (int)next(9));
    }
    wn = x42_normals_unit_prefix_portable(n, nv);
    wt = x42_tangents_ok_prefix_portable(t, n, nv);
    x42_vertex_prefixes(n, t, nv, &np, &tp);
    CHECK(np == wn && tp == wt, "prefixes %u %u, portable %u %u (nv %u)", np, tp, wn, wt, nv);
    wt = x42_tangents_ok_prefix_portable(t, NULL, nv);
    x42_vertex_prefixes(NULL, t, nv, &np, &tp);
    CHECK(np == 0 && tp == wt, "prefixes without normals %u %u, portable 0 %u (nv %u)", np, tp, wt, nv);
    wn = x42_normals_unit_prefix_portable(n, nv);
    x42_vertex_prefixes(n, NULL, nv, &np, &tp);
    CHECK(np == wn && tp == 0, "prefixes without tangents %u %u, portable %u 0 (nv %u)", np, tp, wn, nv);
    free(t);
    free(n);
  }
}

static int exact_flat(const uint16_t *vp, uint64_t c0, uint64_t c1, uint64_t c2, const int64_t mask[3])
{
  int64_t a[3], b[3];
  for (int k = 0; k < 3; k++) {
    a[k] = ((int64_t)vp[3 * c1 + k] - vp[3 * c0 + k]) & mask[k];
    b[k] = ((int64_t)vp[3 * c2 + k] - vp[3 * c0 + k]) & mask[k];
  }
  return a[1] * b[2] - a[2] * b[1] == 0 && a[2] * b[0] - a[0] * b[2] == 0 && a[0] * b[1] - a[1] * b[0] == 0;
}

/* Positions on coarse grids (differences of 256 make every product 0 modulo 2^16), lines and
 * planes, the extremes 0 and 65535, and dead axes; lists with flat and repeated-corner
 * triangles. Every triangle the scan passes over must be neither; every one it stops at is
 * either, or the odd last. */
static void test_list_scan(void)
{
  unsigned long flat = 0, stopped = 0;
  for (unsigned i = 0; i < 20000; i++) {
    uint32_t nv = 4 + next(200), ntri = next(100), fv = next(3);
    uint16_t *vp = malloc(6u * nv), *ix = malloc(6u * ntri + 2);
    int64_t mask[3];
    unsigned grid = next(4), style = next(5);
    if (!vp || !ix) {
      CHECK(0, "out of memory");
      free(vp), free(ix);
      return;
    }
    for (int k = 0; k < 3; k++)
      mask[k] = next(6) ? -1 : 0;
    for (uint32_t v = 0; v < 3 * nv; v++) {
      unsigned x = next(65536);
      if (grid == 1)
        x &= 0xFF00;
      else if (grid == 2)
        x = next(2) ? 0 : 65535;
      else if (grid == 3)
        x = next(4) * 16384u;
      vp[v] = (uint16_t)x;
    }
    if (style == 1) /* every vertex on one line through the first two */
      for (uint32_t v = 0; v < nv; v++)
        for (int k = 0; k < 3; k++)
          vp[3 * v + k] = (uint16_t)(vp[k] + (v % 3) * ((vp[3 + k] - vp[k]) & 0x3FFF));
    for (uint32_t e = 0; e < 3 * ntri; e++)
      ix[e] = (uint16_t)next(nv - 1 - fv); /* corners below nv - 1, as the caller ensures */
    if (style == 2) /* repeated corners */
      for (uint32_t tt = 0; tt < ntri; tt++)
        if (next(3) == 0)
          ix[3 * tt + next(3)] = ix[3 * tt + next(3)];
    ix[3 * ntri] = 0;
    for (uint32_t from = 0;;) {
      uint32_t t = x42_list_next_maybe_flat(ix, ntri, vp, fv, mask, from);
      CHECK(t >= from && t <= ntri, "scan from %u returned %u of %u", from, t, ntri);
      if (t < from || t > ntri)
        break;
      for (uint32_t s = from; s < t; s++) {
        uint64_t c0 = fv + ix[3 * s], c1 = fv + ix[3 * s + 1], c2 = fv + ix[3 * s + 2];
        CHECK(c0 != c1 && c1 != c2 && c0 != c2 && !exact_flat(vp, c0, c1, c2, mask),
              "scan passed over triangle %u (corners %u %u %u), flat or repeated", s, (unsigned)c0, (unsigned)c1,
              (unsigned)c2);
      }
      if (t == ntri)
        break;
      stopped++;
      {
        uint64_t c0 = fv + ix[3 * t], c1 = fv + ix[3 * t + 1], c2 = fv + ix[3 * t + 2];
        flat += c0 == c1 || c1 == c2 || c0 == c2 || exact_flat(vp, c0, c1, c2, mask);
      }
      from = t + 1;
    }
    free(vp);
    free(ix);
  }
  CHECK(flat > 1000, "only %lu flat triangles were made", flat);
  printf("list scan: stopped at %lu triangles, %lu of them flat or repeated\n", stopped, flat);
}

/* Blend entries of 1..4 slots, of every count up to 60 and some long runs: mostly clean (indices
 * below the palette, weights summing to at most 255), with a defect at a random place, at the
 * extremes (index lim - 1 and lim, sums 255 and 256) or none: both paths give one answer. */
static void test_blend(void)
{
  unsigned long dirty = 0;
  for (unsigned i = 0; i < 100000; i++) {
    unsigned m = 1 + next(4), stride = 2 * m - 1, lim = next(8) ? 1 + next(60) : 256;
    uint64_t nv = i < 20000 ? i % 61 : next(2000);
    uint8_t *e = malloc(stride * nv + 1);
    int want, got;
    if (!e) {
      CHECK(0, "out of memory");
      return;
    }
    for (uint64_t v = 0; v < nv; v++) {
      unsigned left = 255;
      for (unsigned k = 0; k < m; k++) {
        e[v * stride + 2 * k] = (uint8_t)next(lim > 255 ? 256 : lim);
        if (k + 1 < m) {
          unsigned w = next(left + 1);
          e[v * stride + 2 * k + 1] = (uint8_t)w;
          left -= w;
        }
      }
      if (m > 1 && next(50) == 0) /* the sum at 255 exactly */
        e[v * stride + 1] = (uint8_t)(e[v * stride + 1] + left);
    }
    if (nv && next(2)) {
      uint64_t v = next((unsigned)nv);
      unsigned k = next(m);
      switch (next(4)) {
      case 0: e[v * stride + 2 * k] = (uint8_t)(lim > 255 ? 255 : lim); break;
      case 1: e[v * stride + 2 * k] = (uint8_t)(lim > 255 ? 255 : lim - 1); break;
      case 2: if (m > 1) e[v * stride + 1 + 2 * next(m - 1)] = 255; break;
      default: e[v * stride + next(stride)] = (uint8_t)next(256); break;
      }
    }
    want = x42_blend_clean_portable(e, nv, m, lim);
    got = x42_blend_clean(e, nv, m, lim);
    dirty += !want;
    CHECK(got == want, "blend clean %d, portable %d (m %u, lim %u, nv %u)", got, want, m, lim, (unsigned)nv);
    free(e);
  }
  CHECK(dirty > 10000, "only %lu blend runs had a defect", dirty);
  CHECK(!x42_blend_clean((const uint8_t *)"", 0, 5, 256) && !x42_blend_clean((const uint8_t *)"", 0, 0, 256),
        "a slot count past 4 or of 0 was taken as clean");
}

int main(void)
{
  test_unit_exhaustive();
  test_basis();
#ifdef __SSE2__
  test_lanes();
#endif
  test_prefixes();
  test_list_scan();
  test_blend();
  if (failures) {
    printf("%d failures\n", failures);
    return 1;
  }
  printf("x42_fast_test: all passed\n");
  return 0;
}
