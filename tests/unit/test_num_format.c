/* test_num_format.c - num_format_shortest against an independent reference built on glibc's
 * exact printf and strtod: the text reads back to the same double bit for bit; no decimal with
 * one digit fewer reads back (the shortest); with that many digits it is the nearest decimal
 * that reads back; and where that is printf's rounding the text is exactly printf's "%.{P}g"
 * (the layout the writers used before). Over random bit patterns (every exponent, subnormals
 * included), floats widened to double, model-sized values, every power of two (the lopsided
 * rounding intervals), powers of ten, integers, short decimals and the extremes. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "num_format.h"
#include "unit.h"

#ifdef __SIZEOF_INT128__
#define HAVE_FAST 1 /* num_format_digits answers for |v| in [1e-10, 1e36) */
#else
#define HAVE_FAST 0
#endif

static uint64_t rng_state;
static long failures, checked, fast;

static uint64_t rng_next(void)
{
  /* splitmix64: deterministic, so a failure reproduces */
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

static void bad(double v, int prec, const char *got, const char *why)
{
  if (failures < 10)
    fprintf(stderr, "%.17g (min_prec %d): got '%s': %s\n", v, prec, got, why);
  failures++;
}

/* A decimal as digits k (no trailing zeros) times 10^e. */
struct dec {
  uint64_t k;
  int e;
};

static void dec_norm(struct dec *d)
{
  while (d->k && d->k % 10 == 0) {
    d->k /= 10;
    d->e++;
  }
}

static int dec_digits(uint64_t k)
{
  int n = 0;
  for (; k; k /= 10)
    n++;
  return n;
}

/* printf's correctly rounded p significant digits of a (> 0). */
static struct dec dec_rounded(double a, int p)
{
  char s[64];
  struct dec d = {0, 0};
  const char *q = s;
  snprintf(s, sizeof s, "%.*e", p - 1, a);
  for (; *q != 'e'; q++)
    if (*q != '.')
      d.k = d.k * 10 + (uint64_t)(*q - '0');
  d.e = atoi(q + 1) - (p - 1);
  return d;
}

/* Whether k * 10^e reads back as a (strtod on "ke<e>"). */
static int dec_reads_back(struct dec d, double a)
{
  char s[64];
  double r;
  if (d.k == 0)
    return 0;
  snprintf(s, sizeof s, "%llue%d", (unsigned long long)d.k, d.e);
  r = strtod(s, NULL);
  return memcmp(&r, &a, sizeof r) == 0;
}

/* Parse the formatter's text (digits, one '.', an exponent) into a decimal. */
static int dec_parse(const char *s, struct dec *d)
{
  int frac = 0, in_frac = 0, nd = 0;
  d->k = 0;
  d->e = 0;
  if (*s == '-')
    s++;
  for (; *s && *s != 'e'; s++) {
    if (*s == '.') {
      if (in_frac)
        return -1;
      in_frac = 1;
      continue;
    }
    if (*s < '0' || *s > '9' || (nd += d->k != 0 || *s != '0') > 19)
      return -1; /* leading zeros do not count */
    d->k = d->k * 10 + (uint64_t)(*s - '0');
    frac += in_frac;
  }
  d->e = -frac + (*s == 'e' ? atoi(s + 1) : 0);
  dec_norm(d);
  return 0;
}

static void check_prec(double v, int prec)
{
  char got[NUM_FORMAT_MAX + 8], want[64];
  size_t n;
  double r, a = fabs(v);
  struct dec d, best;
  int nd, p;

  memset(got, 'x', sizeof got);
  n = num_format_shortest(got, v, prec);
  checked++;
  if (n >= NUM_FORMAT_MAX || got[n] != 0 || strlen(got) != n) {
    bad(v, prec, "?", "length or terminator wrong");
    return;
  }
  r = strtod(got, NULL);
  if (memcmp(&r, &v, sizeof r) != 0) {
    bad(v, prec, got, "does not read back");
    return;
  }
  if (a == 0)
    return; /* "0" and "-0": read back, nothing shorter */
  if (dec_parse(got, &d) < 0 || d.k == 0) {
    bad(v, prec, got, "not a decimal");
    return;
  }
  {
    /* the fast path on its own (num_format_shortest would hide its mistakes behind the
     * slow path): where it answers, the same digits */
    uint64_t k;
    int e;
    if (num_format_digits(v, &k, &e)) {
      struct dec f = {k, e};
      fast++;
      dec_norm(&f);
      if (f.k != d.k || f.e != d.e) {
        bad(v, prec, got, "num_format_digits differs");
        return;
      }
    } else if (HAVE_FAST && a >= 1e-10 && a < 1e36) {
      bad(v, prec, got, "num_format_digits declines a value in its range");
      return;
    }
  }
  nd = dec_digits(d.k);
  if (nd > 17) {
    bad(v, prec, got, "more than 17 digits");
    return;
  }
  /* shortest: the decimals of nd - 1 digits nearest a on either side are among printf's
   * rounding and its neighbours; none may read back */
  if (nd > 1) {
    struct dec r1 = dec_rounded(a, nd - 1), lo = r1, hi = r1;
    lo.k--;
    hi.k++;
    if (dec_reads_back(r1, a) || dec_reads_back(lo, a) || dec_reads_back(hi, a)) {
      bad(v, prec, got, "a shorter decimal reads back");
      return;
    }
  }
  /* nearest: printf's rounding when that reads back, else its neighbour on the other side */
  best = dec_rounded(a, nd);
  dec_norm(&best);
  if (dec_reads_back(best, a)) {
    if (best.k != d.k || best.e != d.e) {
      bad(v, prec, got, "not the nearest decimal of its length");
      return;
    }
    /* printf at P digits prints the same digits unless v has fewer than P significant
     * digits of precision (subnormals): compare the layout where the digits agree */
    p = nd > prec ? nd : prec;
    snprintf(want, sizeof want, "%.*g", p, v);
    if (dec_parse(want, &d) == 0 && d.k == best.k && d.e == best.e && strcmp(want, got) != 0) {
      bad(v, prec, got, "layout differs from printf %.{P}g");
      fprintf(stderr, "  printf: '%s'\n", want);
    }
    return;
  }
  {
    struct dec r2 = dec_rounded(a, nd), lo = r2, hi = r2;
    lo.k--;
    hi.k++;
    dec_norm(&lo);
    dec_norm(&hi);
    if (!((lo.k == d.k && lo.e == d.e) || (hi.k == d.k && hi.e == d.e)))
      bad(v, prec, got, "neither printf's rounding nor its neighbour");
  }
}

static void check(double v)
{
  if (!isfinite(v))
    return; /* test_num_format_special has those */
  check_prec(v, 9); /* the IQE writer's layout */
  check_prec(v, 1); /* plain %g layout of the digits */
}

START_TEST(test_num_format_special)
{
  static const char *const cases[] = {"0", "-0", "inf", "-inf", "nan", "-nan"};
  char buf[NUM_FORMAT_MAX];
  double vals[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN};
  for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
    size_t n = num_format_shortest(buf, vals[i], 9);
    ck_assert_str_eq(buf, cases[i]);
    ck_assert_uint_eq(n, strlen(cases[i]));
  }
  /* known texts, the IQE writer's layout */
  num_format_shortest(buf, 0.1, 9);
  ck_assert_str_eq(buf, "0.1");
  num_format_shortest(buf, (double)0.1f, 9);
  ck_assert_str_eq(buf, "0.10000000149011612");
  num_format_shortest(buf, 1e9, 9);
  ck_assert_str_eq(buf, "1e+09");
  num_format_shortest(buf, 123456789012.0, 9);
  ck_assert_str_eq(buf, "123456789012");
  num_format_shortest(buf, 1e-5, 9);
  ck_assert_str_eq(buf, "1e-05");
  num_format_shortest(buf, 0.0001, 9);
  ck_assert_str_eq(buf, "0.0001");
  num_format_shortest(buf, DBL_TRUE_MIN, 9);
  ck_assert_str_eq(buf, "5e-324");
  num_format_shortest(buf, -DBL_MAX, 9);
  ck_assert_str_eq(buf, "-1.7976931348623157e+308");
  /* 2^-44: the lower half of its rounding interval is half the upper, and the nearest
   * 16-digit decimal (printf's) falls outside it; the one above reads back (a %.{p}g loop
   * needs 17 digits here) */
  num_format_shortest(buf, 0x1p-44, 9);
  ck_assert_str_eq(buf, "5.684341886080802e-14");
  num_format_shortest(buf, 0x1p-24, 9);
  ck_assert_str_eq(buf, "5.960464477539063e-08");
  num_format_shortest(buf, -0x1p-1017, 9);
  ck_assert_str_eq(buf, "-7.120236347223045e-307");
  failures = 0;
  for (int i = 1; i <= 300; i++) {
    check(strtod("1e-300", NULL) * i);
    check(1.0 / i);
  }
  ck_assert_int_eq(failures, 0);
}
END_TEST

START_TEST(test_num_format_extremes)
{
  const double vals[] = {DBL_MIN, DBL_MAX, DBL_TRUE_MIN, DBL_MIN - DBL_TRUE_MIN, FLT_MAX, FLT_MIN,
                         (double)FLT_TRUE_MIN, 9007199254740991.0, 9007199254740992.0,
                         9007199254740994.0, 1e-10, 1e36, 9.999999999999999e35, 1e-11,
                         0.30000000000000004, 2.5, 0.5, 1.5e300, 1e23, 5e-324, 1.7976931348623157e308};
  failures = 0;
  for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
    check(vals[i]);
    check(-vals[i]);
    check(nextafter(vals[i], 0));
    check(nextafter(vals[i], INFINITY));
  }
  /* every power of two, and its neighbours: the lopsided intervals */
  for (int e = -1074; e <= 1023; e++) {
    double p = ldexp(1.0, e);
    check(p);
    check(nextafter(p, 0));
    check(nextafter(p, INFINITY));
  }
  /* powers of ten and integers */
  for (int e = -325; e <= 308; e++) {
    char s[16];
    snprintf(s, sizeof s, "1e%d", e);
    check(strtod(s, NULL));
  }
  for (int i = 1; i <= 100000; i++)
    check((double)i);
  ck_assert_int_eq(failures, 0);
  ck_assert_int_gt(checked, 100000);
  ck_assert_int_gt(fast, HAVE_FAST ? 100000 : -1);
}
END_TEST

START_TEST(test_num_format_random)
{
  rng_state = 7;
  failures = 0;
  for (int i = 0; i < 150000; i++) {
    /* any bit pattern: every exponent, subnormals */
    uint64_t b = rng_next();
    double d;
    if (i % 8 == 0)
      b &= 0x800FFFFFFFFFFFFFu; /* subnormal */
    memcpy(&d, &b, sizeof d);
    if (isfinite(d))
      check(d);
  }
  for (int i = 0; i < 150000; i++) {
    /* floats widened to double: what float vertex arrays hold */
    uint32_t b = (uint32_t)rng_next();
    float f;
    memcpy(&f, &b, sizeof f);
    if (isfinite(f))
      check((double)f);
  }
  for (int i = 0; i < 100000; i++) {
    /* the magnitudes models use, and short decimals as exporters print them */
    double d = ((double)(rng_next() >> 11) / 9007199254740992.0 - 0.5) *
               pow(10, (int)(rng_next() % 14) - 7);
    char s[32];
    check(d);
    snprintf(s, sizeof s, "%.*g", 1 + (int)(rng_next() % 8), d);
    check(strtod(s, NULL));
  }
  ck_assert_int_eq(failures, 0);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("num_format");
  TCase *tc = tcase_create("shortest");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_num_format_special);
  tcase_add_test(tc, test_num_format_extremes);
  tcase_add_test(tc, test_num_format_random);
  suite_add_tcase(s, tc);
  return unit_run(s);
}
