/* num_format.c - shortest round-trip decimal text of a double (see num_format.h).
 *
 * Fast path (|v| in [1e-10, 1e36), which holds nearly every value a model carries): scale v
 * and the two ends of its rounding interval (the reals strtod reads back as v) by 10^s so that
 * v has 18 or 19 digits before the point, exactly, in 128-bit integers; then drop digits while
 * some multiple of the next power of ten still lies in the interval (Ryu's digit removal,
 * Adams, PLDI 2018). Everything else, and compilers without a 128-bit integer, take the slow
 * path: the correctly rounded p-digit text from snprintf for p = 1.. until it reads back. The
 * result of both is read back with number_parse_double as a last check. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num_format.h"
#include "number.h"

static const char digit_pairs[201] =
  "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
  "8081828384858687888990919293949596979899";

/* k * 10^e (1 <= k < 10^18) in %g layout with P = max(digits of k, min_prec). */
static size_t layout(char *buf, int neg, uint64_t k, int e, int min_prec)
{
  char digits[20], *d = digits + sizeof digits;
  int nd, ex, prec;
  char *o = buf;
  if (k == 0) {
    memcpy(buf, neg ? "-0" : "0", neg ? 3 : 2);
    return neg ? 2u : 1u;
  }
  while (k % 10 == 0) {
    k /= 10;
    e++;
  }
  while (k >= 100) { /* two digits a step, last first */
    unsigned r = (unsigned)(k % 100);
    k /= 100;
    d -= 2;
    memcpy(d, digit_pairs + 2 * r, 2);
  }
  if (k >= 10) {
    d -= 2;
    memcpy(d, digit_pairs + 2 * k, 2);
  } else {
    *--d = (char)('0' + k);
  }
  nd = (int)(digits + sizeof digits - d);
  ex = nd - 1 + e; /* exponent of the leading digit */
  prec = nd > min_prec ? nd : min_prec;
  if (neg)
    *o++ = '-';
  if (ex < -4 || ex >= prec) {
    int a = ex < 0 ? -ex : ex;
    *o++ = d[0];
    if (nd > 1) {
      *o++ = '.';
      memcpy(o, d + 1, (size_t)nd - 1);
      o += nd - 1;
    }
    *o++ = 'e';
    *o++ = ex < 0 ? '-' : '+';
    if (a >= 100)
      *o++ = (char)('0' + a / 100);
    *o++ = (char)('0' + a / 10 % 10);
    *o++ = (char)('0' + a % 10);
  } else if (ex >= 0) {
    for (int i = 0; i <= ex; i++)
      *o++ = i < nd ? d[i] : '0';
    if (nd > ex + 1) {
      *o++ = '.';
      memcpy(o, d + ex + 1, (size_t)(nd - ex - 1));
      o += nd - ex - 1;
    }
  } else {
    *o++ = '0';
    *o++ = '.';
    for (int i = 0; i < -ex - 1; i++)
      *o++ = '0';
    memcpy(o, d, (size_t)nd);
    o += nd;
  }
  *o = 0;
  return (size_t)(o - buf);
}

static int reads_back(const char *s, size_t n, double a)
{
  double r;
  return number_parse_double(s, n, &r) == n && memcmp(&r, &a, sizeof r) == 0;
}

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 u128;

static const uint64_t pow10_64[20] = {
  1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u, 1000000000u,
  10000000000u, 100000000000u, 1000000000000u, 10000000000000u, 100000000000000u,
  1000000000000000u, 10000000000000000u, 100000000000000000u, 1000000000000000000u,
  10000000000000000000u
};

static const uint64_t pow5_64[28] = {
  1u, 5u, 25u, 125u, 625u, 3125u, 15625u, 78125u, 390625u, 1953125u, 9765625u, 48828125u,
  244140625u, 1220703125u, 6103515625u, 30517578125u, 152587890625u, 762939453125u,
  3814697265625u, 19073486328125u, 95367431640625u, 476837158203125u, 2384185791015625u,
  11920928955078125u, 59604644775390625u, 298023223876953125u, 1490116119384765625u,
  7450580596923828125u
};

/* floor(t * 2^sh * 10^s) into *fl and whether that is exact; 0 when it does not fit. */
static int scale(uint64_t t, int sh, int s, uint64_t *fl, int *exact)
{
  u128 p, r;
  if (s >= 0) {
    int x = sh + s;
    p = (u128)t * pow5_64[s < 27 ? s : 27]; /* t < 2^56, 5^s < 2^66 */
    if (s == 28)
      p *= 5;
    if (x >= 0) {
      if (x >= 64 || (p >> (127 - x)) != 0)
        return 0;
      r = p << x;
      *exact = 1;
    } else {
      if (-x >= 128)
        return 0;
      r = p >> -x;
      *exact = (p & (((u128)1 << -x) - 1)) == 0;
    }
  } else {
    if (sh < 0 || sh > 70)
      return 0;
    p = (u128)t << sh;
    r = p / pow10_64[-s];
    *exact = p % pow10_64[-s] == 0;
  }
  if (r >> 64)
    return 0;
  *fl = (uint64_t)r;
  return 1;
}

/* v = m * 2^e2 > 0. Return 1 with the digits in *k and the exponent in *e, or 0. */
static int shortest_fast(uint64_t m, int e2, int lower_closer, uint64_t *k, int *e)
{
  int b = e2 + 63 - __builtin_clzll(m); /* floor(log2 v) */
  long t = (long)b * 78913;             /* log10(2) ~ 78913 / 2^18 */
  int k0 = (int)(t >= 0 ? t >> 18 : -((-t + 262143) >> 18)); /* floor(log10 v) or one less */
  int s, incl = (m & 1) == 0, lx, vx, hx, j = 0, czero, up;
  uint64_t lf, vf, hf, clast = 0, ka, kb, kr;

  if (k0 < -11 || k0 > 35)
    return 0; /* |v| in [1e-10, 1e36) is inside */
  /* v * 10^s in [10^17, 10^19): the interval around it is wider than 8, and 17 digits (which
   * always suffice) leave at least one digit to drop */
  s = 17 - k0;
  if (!scale(4 * m - (lower_closer ? 1 : 2), e2 - 2, s, &lf, &lx) ||
      !scale(4 * m, e2 - 2, s, &vf, &vx) || !scale(4 * m + 2, e2 - 2, s, &hf, &hx))
    return 0;
  czero = vx;
  for (;;) {
    /* the multiples of 10^(j+1) inside the interval: ka..kb */
    uint64_t l2 = lf / 10, h2 = hf / 10;
    int lx2 = lx && lf % 10 == 0, hx2 = hx && hf % 10 == 0;
    ka = l2 + (lx2 && incl ? 0 : 1);
    kb = h2 - (hx2 && !incl ? 1 : 0);
    if (ka > kb)
      break;
    lf = l2, lx = lx2, hf = h2, hx = hx2;
    czero = czero && clast == 0;
    clast = vf % 10;
    vf /= 10;
    j++;
  }
  if (j == 0)
    return 0;
  ka = lf + (lx && incl ? 0 : 1);
  kb = hf - (hx && !incl ? 1 : 0);
  /* the nearest multiple of 10^j to v, ties to even, kept inside the interval */
  up = clast > 5 || (clast == 5 && (!czero || (vf & 1)));
  kr = vf + (uint64_t)up;
  if (kr < ka)
    kr = ka;
  if (kr > kb)
    kr = kb;
  *k = kr;
  *e = j - s;
  return 1;
}
#endif

/* The correctly rounded p-digit text for p = 1.., or its other neighbour at p digits when
 * the interval is lopsided (v a power of two); the first that reads back. */
static size_t shortest_slow(char *buf, int neg, double a, int min_prec)
{
  char s[48], c[NUM_FORMAT_MAX];
  for (int p = 1; p <= 17; p++) {
    uint64_t k = 0, k2;
    int ex, n = snprintf(s, sizeof s, "%.*e", p - 1, a);
    const char *q = s;
    double r;
    size_t len;
    if (n <= 0 || (size_t)n >= sizeof s)
      break;
    for (; *q != 'e'; q++)
      if (*q != '.')
        k = k * 10 + (uint64_t)(*q - '0');
    ex = (int)strtol(q + 1, NULL, 10) - (p - 1);
    if (number_parse_double(s, (size_t)n, &r) != (size_t)n)
      break;
    if (r == a)
      return layout(buf, neg, k, ex, min_prec);
    k2 = r < a ? k + 1 : k - 1;
    if (k2 == 0)
      continue;
    len = layout(c, 0, k2, ex, min_prec);
    if (reads_back(c, len, a))
      return layout(buf, neg, k2, ex, min_prec);
  }
  /* not reached: 17 digits always read back */
  return (size_t)snprintf(buf, NUM_FORMAT_MAX, "%s%.17g", neg ? "-" : "", a);
}

int num_format_digits(double v, uint64_t *k, int *e)
{
#ifdef __SIZEOF_INT128__
  uint64_t bits, m;
  int be;
  memcpy(&bits, &v, sizeof bits);
  be = (int)(bits >> 52 & 0x7FF);
  m = bits & ((1ull << 52) - 1);
  if (be == 0x7FF || (be == 0 && m == 0))
    return 0;
  if (be == 0)
    return shortest_fast(m, -1074, 0, k, e);
  return shortest_fast(m | (1ull << 52), be - 1075, m == 0 && be > 1, k, e);
#else
  (void)v, (void)k, (void)e;
  return 0;
#endif
}

size_t num_format_shortest(char *buf, double v, int min_prec)
{
  uint64_t bits, m;
  int be, neg;
  double a;
  memcpy(&bits, &v, sizeof bits);
  neg = (int)(bits >> 63);
  be = (int)(bits >> 52 & 0x7FF);
  m = bits & ((1ull << 52) - 1);
  if (be == 0x7FF) {
    const char *t = m ? (neg ? "-nan" : "nan") : (neg ? "-inf" : "inf");
    memcpy(buf, t, strlen(t) + 1);
    return strlen(t);
  }
  if (be == 0 && m == 0) {
    memcpy(buf, neg ? "-0" : "0", neg ? 3 : 2);
    return neg ? 2u : 1u;
  }
  if (min_prec > 17)
    min_prec = 17; /* keeps the plain notation within NUM_FORMAT_MAX */
  a = fabs(v);
  {
    uint64_t k;
    int e;
    if (num_format_digits(v, &k, &e)) {
      size_t n = layout(buf + neg, 0, k, e, min_prec);
      if (reads_back(buf + neg, n, a)) {
        if (neg)
          buf[0] = '-';
        return n + (size_t)neg;
      }
    }
  }
  return shortest_slow(buf, neg, a, min_prec);
}
