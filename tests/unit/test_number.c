/* test_number.c - number_parse_double against glibc strtod, bit for bit: the value and the
 * number of bytes consumed must match on millions of printed doubles, random digit strings,
 * near-halfway and exact-halfway decimals, subnormals, overflow and non-decimal spellings. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "number.h"
#include "unit.h"

static uint64_t rng_state;

static uint64_t rng_next(void)
{
  /* splitmix64: deterministic, so a failure reproduces */
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

static double rng_double_bits(void)
{
  for (;;) {
    uint64_t b = rng_next();
    double d;
    memcpy(&d, &b, sizeof d);
    if (isfinite(d))
      return d;
  }
}

static long failures;

/* Compare one string (of length n, not necessarily NUL-terminated after n) with strtod. */
static void check_n(const char *s, size_t n)
{
  char buf[600];
  char *end;
  double want, got;
  size_t used;
  ck_assert_uint_lt(n, sizeof buf);
  memcpy(buf, s, n);
  buf[n] = 0;
  want = strtod(buf, &end);
  if (n && (buf[0] == ' ' || (buf[0] >= '\t' && buf[0] <= '\r')))
    end = buf, want = 0; /* leading whitespace is not a number here */
  used = number_parse_double(buf, n, &got);
  if (used != (size_t)(end - buf) || (used && memcmp(&got, &want, sizeof got) != 0 &&
                                      !(isnan(got) && isnan(want)))) {
    if (failures < 10)
      fprintf(stderr, "'%s': got %.17g (%zu bytes), strtod %.17g (%zu bytes)\n", buf, got, used,
              want, (size_t)(end - buf));
    failures++;
  }
}

static void check_s(const char *s) { check_n(s, strlen(s)); }

static void check_double(double d)
{
  /* %.17g, %.15g, %.9g, %g (= %.6g), %.18g, and %.16e */
  static const int prec[] = { 17, 15, 9, 6, 18 };
  char buf[64];
  int len;
  for (size_t k = 0; k < sizeof prec / sizeof prec[0]; k++) {
    len = snprintf(buf, sizeof buf, "%.*g", prec[k], d);
    check_n(buf, (size_t)len);
  }
  len = snprintf(buf, sizeof buf, "%.16e", d);
  check_n(buf, (size_t)len);
}

START_TEST(test_number_hard_cases)
{
  static const char *const cases[] = {
    "0", "-0", "+0", "0.0", "-0.0e10", "0e-99999999999", "00000.00000", "1", "-1", "+1",
    "1.", ".5", "-.5e-3", "5.e2", "1e", "1e+", "1e-", "1E5", "1.5x", "12abc", "1..2", "--1",
    ".", "-.", "+", "-", "", "e5", ".e5", "abc", " 1", "\t1",
    "0x1p3", "-0X1.8P1", "0x", "inf", "-Infinity", "INF", "nan", "-nan", "nan(123)", "infinit",
    "9007199254740992", "9007199254740993", "9007199254740995", "9007199254740997",
    "18014398509481985", "18014398509481987", "36028797018963971", "9223372036854775807",
    "9223372036854775808", "18446744073709551615", "18446744073709551616",
    "12345678901234567890123", "1234567890123456789", "12345678901234567891",
    "1e23", "8.41e21", "9.7e22", "1e22", "1e-22", "4.35e-23", "123456789012345e-22",
    "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308",
    "2.225073858507201136057409796709131975934819546351645648e-308",
    "4.9406564584124654e-324", "4.9406564584124654e-325", "2.4703282292062327e-324",
    "2.4703282292062328e-324", "2.47032822920623272e-324", "3e-324", "1e-324", "7e-324",
    "1e-400", "1e-342", "1e-343", "9.99999999999999999e-343",
    "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
    "1.797693134862315807e308", "1.797693134862315808e308", "1e308", "1e309", "1e400",
    "-1e400", "1e99999999999999999999", "1e-99999999999999999999",
    "0.000000000000000000000000000000000000001e39", "100000000000000000000000e-23",
    "7.2057594037927933e16", "3.0517578125e-05", "1.00000000000000011102230246251565404",
    "0.1", "0.2", "0.3", "0.30000000000000004", "0.031168682500720024", "1.448997445238699",
    "4503599627370496.5", "4503599627370497.5", "4503599627370496.500000000000000001",
    "2.00000000000000011102230246251565404236316680908203125",
    "5e-324",
  };
  failures = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    check_s(cases[i]);
  /* the prefix rule: a number inside a longer buffer stops where its length says */
  {
    double v;
    ck_assert_uint_eq(number_parse_double("1234", 2, &v), 2);
    ck_assert(v == 12.0);
    ck_assert_uint_eq(number_parse_double("0.5e7", 3, &v), 3);
    ck_assert(v == 0.5);
    ck_assert_uint_eq(number_parse_double("x", 1, &v), 0);
    ck_assert(v == 0.0);
  }
  ck_assert_int_eq(failures, 0);
}
END_TEST

START_TEST(test_number_random_doubles)
{
  rng_state = 1;
  failures = 0;
  for (int i = 0; i < 200000; i++)
    check_double(rng_double_bits());
  /* the magnitudes real models use */
  for (int i = 0; i < 100000; i++) {
    double d = ((double)(rng_next() >> 11) / 9007199254740992.0 - 0.5) *
               pow(10, (int)(rng_next() % 12) - 6);
    check_double(d);
    check_double((float)d);
  }
  ck_assert_int_eq(failures, 0);
}
END_TEST

START_TEST(test_number_random_digits)
{
  char buf[80];
  rng_state = 2;
  failures = 0;
  for (int i = 0; i < 600000; i++) {
    int ndig = 1 + (int)(rng_next() % 24), dot = (int)(rng_next() % (unsigned)(ndig + 2));
    size_t n = 0;
    if (rng_next() & 1)
      buf[n++] = '-';
    for (int k = 0; k < ndig; k++) {
      if (k == dot)
        buf[n++] = '.';
      buf[n++] = (char)('0' + rng_next() % 10);
    }
    if (rng_next() % 4)
      n += (size_t)snprintf(buf + n, sizeof buf - n, "e%d", (int)(rng_next() % 700) - 350);
    check_n(buf, n);
  }
  ck_assert_int_eq(failures, 0);
}
END_TEST

START_TEST(test_number_halfway)
{
  char buf[80];
  rng_state = 3;
  failures = 0;
  for (int i = 0; i < 250000; i++) {
    /* the exact midpoint between a double and its successor (long double holds it), printed
     * with 16 to 19 significant digits: just below, at or just above a rounding boundary */
    double d = fabs(rng_double_bits());
    long double mid;
    int len;
    if (!(d < DBL_MAX))
      continue;
    if (i % 4 == 0) /* subnormals and the normal/subnormal boundary */
      d = ldexp((double)(rng_next() >> 11), -1074 - (int)(rng_next() % 60) + 53);
    mid = ((long double)d + (long double)nextafter(d, INFINITY)) / 2;
    len = snprintf(buf, sizeof buf, "%.*Le", 15 + (int)(rng_next() % 4), mid);
    check_n(buf, (size_t)len);
  }
  for (int i = 0; i < 100000; i++) {
    /* exact halfway integers: an odd 54-bit number times a small power of two */
    uint64_t m = (1ull << 53) | (rng_next() & ((1ull << 53) - 1)) | 1;
    int len = snprintf(buf, sizeof buf, "%llu", (unsigned long long)(m << (rng_next() % 11)));
    check_n(buf, (size_t)len);
    len = snprintf(buf, sizeof buf, "%llue-3", (unsigned long long)m);
    check_n(buf, (size_t)len);
  }
  ck_assert_int_eq(failures, 0);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("number");
  TCase *tc = tcase_create("strtod");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_number_hard_cases);
  tcase_add_test(tc, test_number_random_doubles);
  tcase_add_test(tc, test_number_random_digits);
  tcase_add_test(tc, test_number_halfway);
  suite_add_tcase(s, tc);
  return unit_run(s);
}
