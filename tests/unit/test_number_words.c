/* test_number_words.c - number_parse_double reads digit runs eight bytes at a time: a run must
 * end at exactly the first non-digit byte whatever it is (the byte values next to '0' and '9',
 * control bytes, bytes >= 0x80) and wherever it falls in the eight-byte word, in the integer
 * and in the fraction part, and near the end of the text (no reading past n). Compared with
 * strtod, bit for bit and byte for byte. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "number.h"
#include "unit.h"

static long failures;

static void check_n(const char *s, size_t n)
{
  char buf[80];
  char *end;
  double want, got;
  size_t used;
  memcpy(buf, s, n);
  buf[n] = 0;
  want = strtod(buf, &end);
  if (n && (buf[0] == ' ' || (buf[0] >= '\t' && buf[0] <= '\r')))
    end = buf, want = 0; /* leading whitespace is not a number here (number.h) */
  used = number_parse_double(s, n, &got);
  if (used != (size_t)(end - buf) || (used && memcmp(&got, &want, sizeof got) != 0)) {
    if (failures < 10)
      fprintf(stderr, "'%s': got %.17g (%zu bytes), strtod %.17g (%zu bytes)\n", buf, got, used,
              want, (size_t)(end - buf));
    failures++;
  }
}

START_TEST(test_number_words_stop_byte)
{
  /* "d...d<b>d..." with the stop byte b at every offset of the first three words */
  static const char digits[] = "31415926535897932384626433";
  char s[64];
  failures = 0;
  for (int b = 1; b < 256; b++) {
    if ((b >= '0' && b <= '9') || b == 'e' || b == 'E' || b == '.')
      continue;
    for (size_t at = 0; at < 24; at++) {
      size_t n;
      /* in the integer part */
      memcpy(s, digits, 26);
      s[at] = (char)b;
      check_n(s, 26);
      /* in the fraction */
      s[0] = '0';
      s[1] = '.';
      memcpy(s + 2, digits, 24);
      s[2 + at] = (char)b;
      check_n(s, 26);
      /* the text ends right after the stop byte, or n cuts the digits short */
      n = 2 + at + 1;
      check_n(s, n);
      check_n(s, 2 + at);
    }
  }
  ck_assert_int_eq(failures, 0);
}
END_TEST

START_TEST(test_number_words_lengths)
{
  /* every digit count in both parts, 0..20 each, cut by n, with and without an exponent */
  char s[80];
  failures = 0;
  for (int ni = 0; ni <= 20; ni++)
    for (int nf = 0; nf <= 20; nf++) {
      size_t n = 0;
      for (int k = 0; k < ni; k++)
        s[n++] = (char)('1' + (k * 7 + nf) % 9);
      s[n++] = '.';
      for (int k = 0; k < nf; k++)
        s[n++] = (char)('0' + (k * 3 + ni) % 10);
      check_n(s, n);
      memcpy(s + n, "e-7", 3);
      check_n(s, n + 3);
      for (size_t cut = 0; cut < n; cut++)
        check_n(s, cut);
    }
  ck_assert_int_eq(failures, 0);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("number_words");
  TCase *tc = tcase_create("runs");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_number_words_stop_byte);
  tcase_add_test(tc, test_number_words_lengths);
  suite_add_tcase(s, tc);
  return unit_run(s);
}
