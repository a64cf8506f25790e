/* test_geo_flat.c - the SSE2 filters in front of the zero-area triangle test and the
 * degenerate-tangent test (geo_filter4.h) never clear a triangle the double test calls flat or a
 * tangent it calls degenerate, on millions of random and adversarial ones
 * (NaN, infinite, huge, tiny, subnormal, coincident, collinear, slivers around the filter's
 * bound, raw bit patterns), yet clears ordinary ones; and MDL-GEO-002 over float positions (the
 * filtered path) says exactly what it says over the same positions as doubles (the portable
 * path), first triangle and count, mesh by mesh, and MDL-GEO-001/003 the same over normals
 * and tangents. The corner test in front of them all (geo_corners4.h: three distinct corners
 * below the vertex count, four triangles at a time) gives the portable test's answer on
 * indexes around every boundary, and the flat filter reading corners by index (16 bytes each)
 * gives the answer of the one reading three floats each, the tangent filter the same, and the
 * short-normal block test four at a time the answer of the portable one. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "geo_corners4.h"
#include "geo_filter4.h"
#include "model_geometry.h"
#include "unit.h"
#include "../test_random.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
  return random_xorshift_star(&rng_state);
}

static double unit(void) /* [-1, 1) */
{
  return random_signed_unit(&rng_state);
}

static void put_u32(unsigned char *p, uint32_t v)
{
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

static float bits_float(uint32_t u)
{
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static float special(void)
{
  static const float v[] = {0.0f, -0.0f, 1e-45f, -1e-40f, 1.17549435e-38f, 1e-30f, 1e30f, -3.4e38f,
                            3.4028235e38f, 1.0f, -1.0f, 16777216.0f, 1e20f};
  switch (rnd() % 16) {
  case 0:
    return NAN;
  case 1:
    return INFINITY;
  case 2:
    return -INFINITY;
  default:
    return v[rnd() % (sizeof v / sizeof v[0])];
  }
}

/* One triangle of kind `kind` into p[0..8] (a, b, c). */
static void make_triangle(int kind, float p[9])
{
  double scale = pow(2.0, (double)(int)(rnd() % 200) - 100); /* 2^-100 .. 2^99 */
  double s, eps;
  switch (kind) {
  case 0: /* ordinary */
    for (int i = 0; i < 9; i++)
      p[i] = (float)unit();
    return;
  case 1: /* ordinary at any scale, some past the filter's 2^60 and 2^-100 bounds */
    for (int i = 0; i < 9; i++)
      p[i] = (float)(unit() * scale * scale);
    return;
  case 2: /* collinear exactly: small integers at a power-of-two scale, c = a + (k/4)(b - a) */
    for (int i = 0; i < 6; i++)
      p[i] = (float)((double)((int)(rnd() % 2001) - 1000) * scale);
    s = (double)((int)(rnd() % 17) - 8) / 4;
    for (int i = 0; i < 3; i++)
      p[6 + i] = (float)(p[i] + s * ((double)p[3 + i] - p[i]));
    return;
  case 3: /* nearly collinear: the exact line, c moved off it by eps of the edge, eps from 1 down
             past the filter's 2^-10 and the test's 1e-12 to nothing a float can hold */
    for (int i = 0; i < 6; i++)
      p[i] = (float)((double)((int)(rnd() % 2001) - 1000) * scale);
    s = (double)((int)(rnd() % 17) - 8) / 4;
    eps = pow(2.0, -(double)(rnd() % 60));
    for (int i = 0; i < 3; i++)
      p[6 + i] = (float)(p[i] + s * ((double)p[3 + i] - p[i]) +
                         eps * unit() * fabs((double)p[3] - p[0] + p[4] - p[1]));
    return;
  case 4: /* two corners coinciding */
    for (int i = 0; i < 9; i++)
      p[i] = (float)(unit() * scale);
    memcpy(p + 3 * (rnd() % 2 + 1), p, 3 * sizeof(float));
    return;
  case 5: /* special values among ordinary ones */
    for (int i = 0; i < 9; i++)
      p[i] = rnd() % 3 ? (float)unit() : special();
    return;
  case 6: /* raw bit patterns */
    for (int i = 0; i < 9; i++)
      p[i] = bits_float((uint32_t)rnd());
    return;
  case 7: /* a sliver: one edge much longer than the triangle is wide, width around 2^-10 */
    for (int i = 0; i < 3; i++) {
      p[i] = (float)(unit() * scale);
      p[3 + i] = (float)(p[i] + unit() * scale);
    }
    eps = pow(2.0, -(double)(rnd() % 30)) * scale;
    for (int i = 0; i < 3; i++)
      p[6 + i] = (float)((p[i] + p[3 + i]) / 2 + eps * unit());
    return;
  default: /* large offset, small triangle: exponents far apart */
    for (int i = 0; i < 9; i++)
      p[i] = (float)(1e20 * (i % 3 + 1) + unit() * scale * 1e-10);
    return;
  }
}

#ifdef GEO_FLAT4
static int flat_double(const float p[9])
{
  return geo_triangle_flat_inline(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8]);
}
#endif

#define KINDS 9

START_TEST(filter_never_clears_a_flat_triangle)
{
#ifdef GEO_FLAT4
  unsigned long cleared[KINDS] = {0}, flat[KINDS] = {0}, total[KINDS] = {0};
  for (long n = 0; n < 1000000; n++) {
    int kind = (int)(n % KINDS);
    float p[4][9];
    const unsigned char *a[4], *b[4], *c[4];
    unsigned sure;
    for (int i = 0; i < 4; i++) {
      make_triangle(kind, p[i]);
      a[i] = (const unsigned char *)&p[i][0];
      b[i] = (const unsigned char *)&p[i][3];
      c[i] = (const unsigned char *)&p[i][6];
    }
    sure = geo_not_flat4(a, b, c);
    for (int i = 0; i < 4; i++) {
      int f = flat_double(p[i]);
      total[kind]++;
      flat[kind] += f;
      if (sure >> i & 1) {
        cleared[kind]++;
        if (f)
          ck_abort_msg("kind %d: cleared a flat triangle (%.9g %.9g %.9g) (%.9g %.9g %.9g) (%.9g %.9g %.9g)",
                       kind, (double)p[i][0], (double)p[i][1], (double)p[i][2], (double)p[i][3],
                       (double)p[i][4], (double)p[i][5], (double)p[i][6], (double)p[i][7], (double)p[i][8]);
      }
    }
  }
  /* the filter is no filter if it clears nothing: ordinary triangles almost all go through it */
  ck_assert_uint_gt(cleared[0], total[0] * 99 / 100);
  /* and the adversarial kinds did put flat triangles in front of it */
  ck_assert_uint_gt(flat[2], total[2] / 2);
  ck_assert_uint_gt(flat[3], 1000);
  ck_assert_uint_gt(flat[4], total[4] / 2);
  ck_assert_uint_gt(flat[7], 100);
#endif
}
END_TEST


/* A tangent (p[0..2]) and a normal (p[3..5]) of kind `kind`. */
static void make_pair(int kind, float p[6])
{
  double scale = pow(2.0, (double)(int)(rnd() % 80) - 40), s, eps;
  switch (kind) {
  case 0: /* ordinary */
    for (int i = 0; i < 6; i++)
      p[i] = (float)unit();
    return;
  case 1: /* parallel exactly: t = (k/4) n, small integers at a power-of-two scale */
    for (int i = 3; i < 6; i++)
      p[i] = (float)((double)((int)(rnd() % 2001) - 1000) * scale);
    s = (double)((int)(rnd() % 17) - 8) / 4;
    for (int i = 0; i < 3; i++)
      p[i] = (float)(s * p[3 + i]);
    return;
  case 2: /* nearly parallel: off by eps of the normal's length, across 0.01 and 0.02 */
    for (int i = 3; i < 6; i++)
      p[i] = (float)unit();
    eps = pow(2.0, -(double)(rnd() % 40) / 4);
    for (int i = 0; i < 3; i++)
      p[i] = (float)(p[3 + i] + eps * 0.03 * unit());
    return;
  case 3: /* any scale, past the filter's bounds and GEO_ZERO_LENGTH */
    for (int i = 0; i < 6; i++)
      p[i] = (float)(unit() * scale * scale * scale);
    return;
  case 4: /* special values */
    for (int i = 0; i < 6; i++)
      p[i] = rnd() % 3 ? (float)unit() : special();
    return;
  default: /* raw bit patterns */
    for (int i = 0; i < 6; i++)
      p[i] = bits_float((uint32_t)rnd());
    return;
  }
}

#define PAIR_KINDS 6

START_TEST(tangent_filter_never_clears_a_degenerate_tangent)
{
#ifdef GEO_FLAT4
  unsigned long cleared[PAIR_KINDS] = {0}, bad[PAIR_KINDS] = {0}, total[PAIR_KINDS] = {0};
  for (long n = 0; n < 1000000; n++) {
    int kind = (int)(n % PAIR_KINDS);
    float p[4][6];
    const unsigned char *t[4], *nr[4];
    unsigned sure;
    for (int i = 0; i < 4; i++) {
      make_pair(kind, p[i]);
      t[i] = (const unsigned char *)&p[i][0];
      nr[i] = (const unsigned char *)&p[i][3];
    }
    sure = geo_tangent_fine4(t, nr);
    for (int i = 0; i < 4; i++) {
      int d = geo_tangent_degenerate_inline(p[i][0], p[i][1], p[i][2], p[i][3], p[i][4], p[i][5]);
      total[kind]++;
      bad[kind] += d;
      if (sure >> i & 1) {
        cleared[kind]++;
        if (d)
          ck_abort_msg("kind %d: cleared a degenerate tangent (%.9g %.9g %.9g) normal (%.9g %.9g %.9g)",
                       kind, (double)p[i][0], (double)p[i][1], (double)p[i][2], (double)p[i][3],
                       (double)p[i][4], (double)p[i][5]);
      }
    }
  }
  ck_assert_uint_gt(cleared[0], total[0] * 95 / 100);
  ck_assert_uint_gt(bad[1], total[1] / 2);
  ck_assert_uint_gt(bad[2], 1000);
  ck_assert_uint_gt(cleared[2], 1000);
#endif
}
END_TEST

/* MDL-GEO-001..003's messages (first vertex or triangle and count), captured in order */
static char seen[4096];

static void on_diag(const mdl_diag *d, void *user)
{
  (void)user;
  if (!strncmp(d->rule->id, "MDL-GEO-00", 10) && strlen(seen) + strlen(d->message) + 2 < sizeof seen) {
    strcat(seen, d->message);
    strcat(seen, "\n");
  }
}

static void geo_messages(const struct model *m, char *out, size_t cap)
{
  mdl_options o;
  struct diag_sink sink;
  mdl_options_init(&o);
  o.on_diag = on_diag;
  ck_assert_int_eq(diag_sink_init(&sink, &o), 0);
  seen[0] = 0;
  geo_check_model(&sink, m, NULL);
  diag_sink_finish(&sink);
  snprintf(out, cap, "%s", seen);
}



/* An index near something that matters to the corner test: nv, nv - 1, 0, 2^31 (the signed
 * compare's bias), 2^32 - 1 (no neighbour), a few small ones (repeats), or anything. */
static uint32_t corner_value(uint32_t nv)
{
  static const uint32_t special_idx[] = {0, 1, 2, 0x7FFFFFFFu, 0x80000000u, 0x80000001u, 0xFFFFFFFEu, 0xFFFFFFFFu};
  switch (rnd() % 6) {
  case 0:
    return nv + (uint32_t)(rnd() % 5) - 2;
  case 1:
    return special_idx[rnd() % 8];
  case 2:
    return (uint32_t)rnd();
  default:
    return (uint32_t)(rnd() % 6);
  }
}

static uint32_t corner_nv(void)
{
  static const uint32_t special_nv[] = {0, 1, 2, 3, 4, 0x7FFFFFFFu, 0x80000000u, 0x80000001u, 0xFFFFFFFFu};
  return rnd() % 2 ? special_nv[rnd() % 9] : (uint32_t)(rnd() % 8);
}

START_TEST(corner_test_agrees_with_portable)
{
  unsigned long ok_seen = 0, bad_seen = 0, clean_seen = 0;
  for (long n = 0; n < 2000000; n++) {
    unsigned char r[48 * 4];
    uint32_t nv = corner_nv();
    unsigned want = 15, got;
    /* mostly valid triangles with one or no defect, so both answers occur in every lane */
    for (int i = 0; i < 48; i++)
      put_u32(r + 4 * i, nv > 3 && rnd() % 8 ? (uint32_t)(rnd() % nv) : corner_value(nv));
    if (nv > 3 && rnd() % 2)
      for (int t = 0; t < 16; t++) { /* distinct and in range, then maybe one defect */
        uint32_t a = (uint32_t)(rnd() % nv), b = (a + 1 + (uint32_t)(rnd() % (nv - 1))) % nv, c;
        do
          c = (uint32_t)(rnd() % nv);
        while (c == a || c == b);
        put_u32(r + 12 * t, a);
        put_u32(r + 12 * t + 4, b);
        put_u32(r + 12 * t + 8, c);
        if (rnd() % 16 == 0)
          put_u32(r + 12 * t + 4 * (rnd() % 3), corner_value(nv));
      }
    for (int b = 0; b < 4; b++) {
      unsigned p = geo_corners_ok4_portable(r + 48 * b, nv);
      got = geo_corners_ok4(r + 48 * b, nv);
      if (got != p)
        ck_abort_msg("nv %u block %d: %x, portable %x", nv, b, got, p);
      ok_seen += (unsigned)__builtin_popcount(p);
      bad_seen += 4 - (unsigned)__builtin_popcount(p);
      want &= p;
    }
    ck_assert_int_eq(geo_corners_clean(r, 4, nv), want == 15);
    clean_seen += want == 15;
  }
  ck_assert_uint_gt(ok_seen, 1000000);
  ck_assert_uint_gt(bad_seen, 1000000);
  ck_assert_uint_gt(clean_seen, 10000);
}
END_TEST

START_TEST(filter_by_index_agrees)
{
#ifdef GEO_FLAT4
  enum { NV = 64 };
  unsigned long cleared = 0;
  for (long n = 0; n < 300000; n++) {
    float pos[NV * 4]; /* stride 12 or 16 bytes: the 16-byte loads read the next vertex's x */
    unsigned char r[48];
    const unsigned char *a[4], *b[4], *c[4];
    size_t stride = rnd() % 2 ? 12 : 16;
    unsigned want, got;
    for (int v = 0; v + 3 <= NV; v += 3) {
      float tp[9];
      make_triangle((int)(rnd() % KINDS), tp);
      for (int k = 0; k < 3; k++)
        memcpy(pos + (size_t)(v + k) * stride / 4, tp + 3 * k, 3 * sizeof(float));
    }
    for (int v = 0; v < NV; v++) /* what lies past a position: the next one's x, or a w */
      if (stride == 16)
        pos[v * 4 + 3] = bits_float((uint32_t)rnd());
    for (int i = 0; i < NV * 4; i++)
      if (rnd() % 16 == 0)
        pos[i] = rnd() % 2 ? special() : bits_float((uint32_t)rnd());
    for (int t = 0; t < 4; t++)
      for (int k = 0; k < 3; k++) {
        uint32_t idx = (uint32_t)(rnd() % (NV - 1)); /* below nv - 1, as the caller makes sure */
        put_u32(r + 12 * t + 4 * k, idx);
        (k == 0 ? a : k == 1 ? b : c)[t] = (const unsigned char *)pos + idx * stride;
      }
    want = geo_not_flat4(a, b, c);
    got = geo_not_flat4_at((const unsigned char *)pos, stride, r);
    if (got != want)
      ck_abort_msg("stride %zu: %x, by pointers %x", stride, got, want);
    cleared += (unsigned)__builtin_popcount(got);
  }
  ck_assert_uint_gt(cleared, 50000); /* about 6% of these mixed triangles */
#endif
}
END_TEST

START_TEST(tangent_filter_by_index_agrees)
{
#ifdef GEO_FLAT4
  enum { NV = 9 };
  unsigned long cleared = 0;
  for (long n = 0; n < 300000; n++) {
    float tf[NV * 4], nf[NV * 4]; /* strides 12 or 16 bytes: the loads read what follows */
    size_t ts = rnd() % 2 ? 12 : 16, ns = rnd() % 2 ? 12 : 16, v = rnd() % (NV - 4);
    const unsigned char *t[4], *nr[4];
    unsigned want, got;
    for (int i = 0; i < NV * 4; i++)
      tf[i] = bits_float((uint32_t)rnd()), nf[i] = bits_float((uint32_t)rnd());
    for (int i = 0; i < NV; i++) {
      float p[6];
      make_pair((int)(rnd() % PAIR_KINDS), p);
      memcpy((unsigned char *)tf + i * ts, p, 3 * sizeof(float));
      memcpy((unsigned char *)nf + i * ns, p + 3, 3 * sizeof(float));
    }
    for (int i = 0; i < 4; i++) {
      t[i] = (const unsigned char *)tf + (v + (size_t)i) * ts;
      nr[i] = (const unsigned char *)nf + (v + (size_t)i) * ns;
    }
    want = geo_tangent_fine4(t, nr);
    got = geo_tangent_fine4_at((const unsigned char *)tf, ts, (const unsigned char *)nf, ns, v);
    if (got != want)
      ck_abort_msg("strides %zu %zu: %x, by pointers %x", ts, ns, got, want);
    cleared += (unsigned)__builtin_popcount(got);
  }
  ck_assert_uint_gt(cleared, 100000);
#endif
}
END_TEST

START_TEST(short_vector_test_agrees)
{
  unsigned long shorts = 0, clear = 0;
  for (long n = 0; n < 400000; n++) {
    unsigned char p[24 * 12];
    /* the bounds of the SSE2 path's signed compare drawn often, not once in 2^31 */
    static const uint32_t edge_lim[] = {0x7FFFFFFFu, 0x80000000u, 0x80000001u, 0xFFFFFFFEu, 0, 1};
    uint32_t count = (uint32_t)(rnd() % 25), lim = rnd() % 2 ? 0x358637BEu
                                                 : rnd() % 8 ? (uint32_t)(rnd() % 0x80000001u)
                                                             : edge_lim[rnd() % 6];
    for (uint32_t i = 0; i < count * 3; i++) {
      uint32_t u;
      switch (rnd() % 5) {
      case 0: u = lim + (uint32_t)(rnd() % 3) - 1; break; /* around the bound */
      case 1: u = (uint32_t)rnd(); break;                  /* NaN, infinities, anything */
      default: u = rnd() % 64 ? lim + 1 + (uint32_t)(rnd() % 1000000) : (uint32_t)(rnd() % (lim + 1)); break;
      }
      if (rnd() % 2)
        u |= 0x80000000u;
      put_u32(p + 4 * i, u);
    }
    {
      int want = geo_any_short_portable(p, 12, count, lim), got = geo_any_short(p, 12, count, lim);
      if (got != want)
        ck_abort_msg("%u triples, lim %08x: %d, portable %d", count, lim, got, want);
      shorts += want;
      clear += !want && count >= 4;
    }
  }
  ck_assert_uint_gt(shorts, 20000);
  ck_assert_uint_gt(clear, 50000);
}
END_TEST

START_TEST(float_and_double_arrays_agree)
{
  enum { NV = 3000, NT = 20000, ROUNDS = 60 };
  static float pf[NV * 3], nf[NV * 3], tf[NV * 4];
  static double pd[NV * 3], nd[NV * 3], td[NV * 4];
  static unsigned char tri[NT * 12];
  static char with_float[4096], with_double[4096];
  unsigned long reported = 0;
  for (int round = 0; round < ROUNDS; round++) {
    struct model m;
    struct model_varray va[3];
    struct model_mesh meshes[3];
    int kind = round % KINDS;
    /* vertices in triangles of one kind, then triangles mostly over them in order, some
     * random, repeated or out of range */
    for (int v = 0; v + 3 <= NV; v += 3) {
      make_triangle(round % 3 ? kind : 0, pf + 3 * v);
      if (rnd() % 50 == 0)
        make_triangle(KINDS - 1 - kind, pf + 3 * v);
    }
    for (int v = 0; v < NV; v++) {
      float pair[6];
      make_pair(round % 2 ? (int)(rnd() % PAIR_KINDS) : 0, pair);
      if (round % 3 == 1 && pair[3] * pair[3] + pair[4] * pair[4] + pair[5] * pair[5] < 1e-10f)
        pair[3] = 1; /* no short normals but the planted ones */
      /* some rounds with zero normals, some with normals just about GEO_ZERO_LENGTH long alone
         in their block (the blocks' precheck must not pass them over) */
      if (round % 3 == 0 && rnd() % 100 == 0)
        memset(pair + 3, 0, 3 * sizeof(float));
      else if (round % 3 == 1 && rnd() % 2000 == 0)
        for (int i = 3; i < 6; i++) /* about GEO_ZERO_LENGTH long, every component short */
          pair[i] = (float)((rnd() % 2 ? 1 : -1) * (5.5e-7 + 0.4e-7 * unit()));
      memcpy(tf + 4 * v, pair, 3 * sizeof(float));
      tf[4 * v + 3] = 1; /* the handedness, as IQM stores it */
      memcpy(nf + 3 * v, pair + 3, 3 * sizeof(float));
    }
    for (int i = 0; i < NV * 3; i++) {
      pd[i] = pf[i];
      nd[i] = nf[i];
    }
    for (int i = 0; i < NV * 4; i++)
      td[i] = tf[i];
    for (uint32_t t = 0; t < NT; t++) {
      uint32_t v0 = (uint32_t)(rnd() % (NV / 3)) * 3, c[3] = {v0, v0 + 1, v0 + 2};
      if (rnd() % 20 == 0)
        c[rnd() % 3] = (uint32_t)(rnd() % NV);
      if (rnd() % 200 == 0)
        c[rnd() % 3] = NV + (uint32_t)(rnd() % 3);
      for (int k = 0; k < 3; k++)
        put_u32(tri + 12 * t + 4 * k, c[k]);
    }
    model_init(&m);
    m.num_vertexes = NV;
    m.num_triangles = NT;
    m.triangles = tri;
    /* three meshes with ragged ends (not multiples of four), the last one short of the end */
    meshes[0] = (struct model_mesh){"a", NULL, 0, NV, 0, 7001};
    meshes[1] = (struct model_mesh){"b", NULL, 0, NV, 7001, 9998};
    meshes[2] = (struct model_mesh){"c", NULL, 0, NV, 16999, 2999};
    m.meshes = meshes;
    m.num_meshes = round % 4 ? 3 : 0;
    memset(va, 0, sizeof va);
    va[0].type = VT_POSITION;
    va[0].size = 3;
    va[1].type = VT_NORMAL;
    va[1].size = 3;
    va[2].type = VT_TANGENT;
    va[2].size = 4;
    m.varrays = va;
    m.num_varrays = 3;
    va[0].format = va[1].format = va[2].format = VF_FLOAT;
    va[0].data = (const unsigned char *)pf;
    va[1].data = (const unsigned char *)nf;
    va[2].data = (const unsigned char *)tf;
    geo_messages(&m, with_float, sizeof with_float);
    va[0].format = va[1].format = va[2].format = VF_DOUBLE;
    va[0].data = (const unsigned char *)pd;
    va[1].data = (const unsigned char *)nd;
    va[2].data = (const unsigned char *)td;
    geo_messages(&m, with_double, sizeof with_double);
    ck_assert_str_eq(with_float, with_double);
    reported += with_float[0] != 0;
    m.varrays = NULL;
    m.meshes = NULL;
    m.triangles = NULL;
    model_free(&m);
  }
  ck_assert_uint_gt(reported, ROUNDS / 4); /* the flat kinds were found */
}
END_TEST

int main(void)
{
  Suite *s = suite_create("geo_flat");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, filter_never_clears_a_flat_triangle);
  tcase_add_test(tc, tangent_filter_never_clears_a_degenerate_tangent);
  tcase_add_test(tc, float_and_double_arrays_agree);
  tcase_add_test(tc, corner_test_agrees_with_portable);
  tcase_add_test(tc, filter_by_index_agrees);
  tcase_add_test(tc, tangent_filter_by_index_agrees);
  tcase_add_test(tc, short_vector_test_agrees);
  suite_add_tcase(s, tc);
  return unit_run(s);
}
