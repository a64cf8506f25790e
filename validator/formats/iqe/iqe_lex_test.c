/* iqe_lex_test.c - the IQE number lexer against strtod: the fast decimal path must give the
 * correctly rounded double for every token the grammar accepts, and reject what it must. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iqe.h"
#include "../../../tests/test_random.h"

static int failures;

static void check_real(const char *s)
{
  double got, want = strtod(s, NULL);
  enum iqe_num_status st = iqe_parse_real(s, strlen(s), &got);
  if (st != IQE_NUM_OK || memcmp(&got, &want, sizeof got)) {
    printf("FAIL: '%s' gave %.17g (status %d), strtod %.17g\n", s, got, (int)st, want);
    failures++;
  }
}

static void check_status(const char *s, enum iqe_num_status want)
{
  double v;
  enum iqe_num_status st = iqe_parse_real(s, strlen(s), &v);
  if (st != want) {
    printf("FAIL: '%s' status %d, expected %d\n", s, (int)st, (int)want);
    failures++;
  }
}

static void check_int(const char *s, int ok, long want)
{
  long v;
  enum iqe_num_status st = iqe_parse_int(s, strlen(s), &v);
  if ((st == IQE_NUM_OK) != ok || (ok && v != want)) {
    printf("FAIL: int '%s' status %d value %ld\n", s, (int)st, v);
    failures++;
  }
}

static uint64_t rng = 88172645463325252ull;
static unsigned next(unsigned n)
{
  return (unsigned)(random_xorshift(&rng) % n);
}

/* Every command of the table is found by its name, prefixes and near misses are not. */
static void check_commands(void)
{
  static const char *const misses[] = {"v", "va", "f", "fb", "p", "pb", "vertex", "Vp", "meshes", "x1"};
  for (size_t i = 0; i < CMD_COUNT; i++) {
    const char *name = iqe_commands[i].name;
    if ((size_t)iqe_commands[i].id != i || iqe_command_find(name, strlen(name)) != &iqe_commands[i]) {
      printf("command '%s' (table row %zu) not found as itself\n", name, i);
      failures++;
    }
  }
  for (size_t i = 0; i < sizeof misses / sizeof misses[0]; i++)
    if (iqe_command_find(misses[i], strlen(misses[i]))) {
      printf("'%s' found as a command\n", misses[i]);
      failures++;
    }
}

int main(void)
{
  check_commands();
  static const char *const fixed[] = {
    "0", "-0", "+0", "0.0", ".5", "5.", "-.5", "1e0", "1E+2", "1e-2", "0.1", "0.2", "0.3",
    "0.70710678", "-0.70710683", "123456789012345678", "1234567890123456789012", "9007199254740993",
    "1e22", "1e23", "1e-22", "1e-23", "4.9e-324", "2.2250738585072014e-308", "1.7976931348623157e308",
    "0.00000000", "-0.00000000", "3.14159265358979323846264338327950288", "1e-400", "000001.5000",
    "0.000000000000000000000000000001", "100000000000000000000000e-20"
  };
  char buf[64];
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    check_real(fixed[i]);
  for (int i = 0; i < 200000; i++) {
    /* random decimals of the shape exporters print, plus exponents */
    int n = 0, ip = 1 + (int)next(8), fp = (int)next(12);
    if (next(2))
      buf[n++] = '-';
    for (int k = 0; k < ip; k++)
      buf[n++] = (char)('0' + next(10));
    if (fp) {
      buf[n++] = '.';
      for (int k = 0; k < fp; k++)
        buf[n++] = (char)('0' + next(10));
    }
    if (next(4) == 0)
      n += snprintf(buf + n, sizeof buf - (size_t)n, "e%d", (int)next(80) - 40);
    buf[n] = 0;
    check_real(buf);
  }
  check_status("nan", IQE_NUM_NONFINITE);
  check_status("-Infinity", IQE_NUM_NONFINITE);
  check_status("1e999", IQE_NUM_NONFINITE);
  check_status("", IQE_NUM_BAD);
  check_status("-", IQE_NUM_BAD);
  check_status(".", IQE_NUM_BAD);
  check_status("1e", IQE_NUM_BAD);
  check_status("1.2.3", IQE_NUM_BAD);
  check_status("0x10", IQE_NUM_BAD);
  check_status("1,5", IQE_NUM_BAD);
  check_status("--1", IQE_NUM_BAD);
  check_int("42", 1, 42);
  check_int("-2147483648", 1, -2147483647L - 1);
  check_int("2147483648", 0, 0);
  check_int("+7", 1, 7);
  check_int("1.0", 0, 0);
  check_int("", 0, 0);
  check_int("99999999999999999999999", 0, 0);
  if (failures)
    printf("%d failures\n", failures);
  else
    printf("iqe lexer: all numbers as strtod\n");
  return failures != 0;
}
