/* test_qmsh_keys.c - qmsh_frame_keys_clean (the whole-frame precheck of the keyframe reader,
 * with its SSE2 float test of four quaternions at a time) against the per-key test it stands in
 * for: every float finite, and len2 = x^2 + y^2 + z^2 + w^2 in double inside
 * [0.99980002, 1.00019998]. On random frames whose quaternions sit at, inside and just outside
 * the band's edges (to the last float), or hold NaN, infinite, huge or subnormal values, the two
 * must agree frame by frame; and frames must be cleared, or the precheck spares nothing. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "qmsh.h"
#include "../test_random.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
  return random_xorshift_star(&rng);
}

static double unit(void)
{
  return random_signed_unit(&rng);
}

/* what key_read decides, one key at a time (qmsh_anim.c before the precheck) */
static int reference(const float *f, uint32_t nb, unsigned kn)
{
  for (uint32_t i = 0; i < nb * kn; i++)
    if (!isfinite(f[i]))
      return 0;
  for (uint32_t k = 0; k < nb; k++) {
    const float *r = f + k * kn + 3;
    double len2 = (double)r[0] * r[0] + (double)r[1] * r[1] + (double)r[2] * r[2] + (double)r[3] * r[3];
    if (!(len2 >= 0.99980002 && len2 <= 1.00019998))
      return 0;
  }
  return 1;
}

/* a quaternion of squared length about target (random direction, scaled to it in double, then
 * nudged by a few floats either way) */
static void quat(float *r, double target)
{
  double q[4], n = 0, s;
  for (int i = 0; i < 4; i++) {
    q[i] = unit();
    n += q[i] * q[i];
  }
  s = sqrt(target / (n > 0 ? n : 1));
  for (int i = 0; i < 4; i++) {
    r[i] = (float)(q[i] * s);
    for (int j = (int)(rnd() % 4); j > 0; j--)
      r[i] = nextafterf(r[i], rnd() % 2 ? 2.0f : -2.0f);
  }
}

int main(void)
{
  static const double edges[] = {0.99980002, 1.00019998, 0.99980102, 1.00019898, 1.0, 0.9998, 1.0002};
  static const float odd[] = {NAN, INFINITY, -INFINITY, 1e30f, 1e-40f, 0.0f};
  static float f[64 * 10];
  unsigned long frames = 0, cleared = 0, failures = 0;
  for (long n = 0; n < 400000; n++) {
    unsigned kn = n % 2 ? 10 : 8;
    uint32_t nb = 1 + (uint32_t)(rnd() % 64);
    int mode = (int)(n % 4);
    int want, got;
    for (uint32_t k = 0; k < nb; k++) {
      float *key = f + k * kn;
      for (unsigned i = 0; i < kn; i++)
        key[i] = (float)(unit() * 10);
      /* mode 0: all well inside; 1: one key at an edge; 2: every key near an edge; 3: odd values */
      if (mode == 0 || (mode == 1 && k != nb / 2))
        quat(key + 3, 1.0 + 1e-4 * unit());
      else
        quat(key + 3, edges[rnd() % 7] * (1 + 1e-7 * unit()));
      if (mode == 3 && rnd() % 8 == 0)
        key[rnd() % kn] = odd[rnd() % 6];
    }
    want = reference(f, nb, kn);
    got = qmsh_frame_keys_clean((const unsigned char *)f, nb, kn);
    frames++;
    cleared += got != 0;
    if (want != got && failures++ < 10)
      printf("FAIL: frame %ld (%u keys of %u floats): precheck %d, per-key test %d\n", n, nb, kn, got, want);
  }
  printf("%lu frames, %lu cleared, %lu disagreements\n", frames, cleared, failures);
  return failures || cleared < frames / 5 ? 1 : 0;
}
