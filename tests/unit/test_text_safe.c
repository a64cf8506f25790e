/* test_text_safe.c - the escaper of human-readable output: control characters, C1, bidi and
 * non-UTF-8 bytes shown as escapes, workflow commands unable to begin a line, and every other
 * conversion written exactly as fprintf writes it. */
#include <stdint.h>
#include <string.h>

#include "text_safe.h"
#include "unit.h"

/* text_printf's output for one call. */
#define CAPTURE(var, ...)                                                                          \
  do {                                                                                             \
    struct unit_capture cap_;                                                                      \
    text_printf(unit_capture_begin(&cap_), __VA_ARGS__);                                           \
    var = unit_capture_end(&cap_);                                                                 \
  } while (0)

static void expect_escape(const char *in, const char *want)
{
  char *got;
  char buf[256];
  CAPTURE(got, "x %s", in);
  ck_assert_str_eq(got + 2, want);
  free(got);
  ck_assert_uint_eq(text_escape(buf, sizeof buf, in, 0), strlen(want));
  ck_assert_str_eq(buf, want);
}

START_TEST(controls)
{
  expect_escape("plain name.png", "plain name.png");
  expect_escape("a\nb", "a\\nb");
  expect_escape("a\r\n::error ::x", "a\\r\\n::error ::x");
  expect_escape("t\tab", "t\\tab");
  expect_escape("\x1b[2J\x1b]0;title\x07", "\\x1b[2J\\x1b]0;title\\x07");
  expect_escape("del\x7f", "del\\x7f");
  expect_escape("c1 \xc2\x9b" "31m nel \xc2\x85", "c1 \\u009b31m nel \\u0085");
  expect_escape("bidi \xe2\x80\xae" "gnp.exe \xe2\x81\xa6 sep \xe2\x80\xa8", "bidi \\u202egnp.exe \\u2066 sep \\u2028");
  expect_escape("caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80");
  expect_escape("latin1 caf\xe9 raw \x9b lone \xc3", "latin1 caf\\xe9 raw \\x9b lone \\xc3");
  expect_escape("overlong \xc0\xaf surrogate \xed\xa0\x80", "overlong \\xc0\\xaf surrogate \\xed\\xa0\\x80");
}
END_TEST

START_TEST(line_start)
{
  char *got;
  CAPTURE(got, "%s: valid\n", "::error file=x::owned.iqm");
  ck_assert_str_eq(got, "\\x3a:error file=x::owned.iqm: valid\n");
  free(got);
  CAPTURE(got, "ok\n  %s\n", "##[group]x");
  ck_assert_str_eq(got, "ok\n  \\x23#[group]x\n");
  free(got);
  /* a lone ':' could meet the format's next ':'; a separator ": " cannot start a command */
  CAPTURE(got, "%s:1: e", ":");
  ck_assert_str_eq(got, "\\x3a:1: e");
  free(got);
  CAPTURE(got, "%s%s x", ": ", "y");
  ck_assert_str_eq(got, ": y x");
  free(got);
  /* blanks and empty arguments leave the line start for the next one */
  CAPTURE(got, "%s%s%s", "", "  ", "::x");
  ck_assert_str_eq(got, "  \\x3a:x");
  free(got);
  /* mid-line, nothing is added */
  CAPTURE(got, "joint \"%s\"", "::x");
  ck_assert_str_eq(got, "joint \"::x\"");
  free(got);
}
END_TEST

START_TEST(conversions)
{
  char *got, want[256];
  CAPTURE(got, "%d|%5u|%-4ld|%lld|%zu|%zd|%jd|%x|%08.3f|%.3g|%e|%%|%c|%p", -3, 7u, 42L, -5LL,
          (size_t)9, (ssize_t)-9, (intmax_t)11, 255u, 3.14159, 1e-7, 2.5, 'q', (void *)want);
  snprintf(want, sizeof want, "%d|%5u|%-4ld|%lld|%zu|%zd|%jd|%x|%08.3f|%.3g|%e|%%|%c|%p", -3, 7u,
           42L, -5LL, (size_t)9, (ssize_t)-9, (intmax_t)11, 255u, 3.14159, 1e-7, 2.5, 'q',
           (void *)want);
  ck_assert_str_eq(got, want);
  free(got);
  CAPTURE(got, "[%-6s][%6s][%.2s][%*s][%-*s][%.*s]", "ab", "ab", "abcdef", 4, "x", 3, "y", 3, "abcdef");
  ck_assert_str_eq(got, "[ab    ][    ab][ab][   x][y  ][abc]");
  free(got);
  /* the width counts what is shown, the precision what is read */
  CAPTURE(got, "[%-6s][%.2s]", "a\nb", "\n\n\n");
  ck_assert_str_eq(got, "[a\\nb  ][\\n\\n]");
  free(got);
  CAPTURE(got, "%c%c", '\x1b', 'a');
  ck_assert_str_eq(got, "\\x1ba");
  free(got);
}
END_TEST

START_TEST(buffer_cut)
{
  char buf[8];
  /* cut at a whole escape, the length needed still given */
  ck_assert_uint_eq(text_escape(buf, sizeof buf, "abcde\x1b", 0), 9);
  ck_assert_str_eq(buf, "abcde");
  ck_assert_uint_eq(text_escape(buf, sizeof buf, "::", 1), 5);
  ck_assert_str_eq(buf, "\\x3a:");
}
END_TEST

int main(void)
{
  Suite *s = suite_create("text_safe");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, controls);
  tcase_add_test(tc, line_start);
  tcase_add_test(tc, conversions);
  tcase_add_test(tc, buffer_cut);
  suite_add_tcase(s, tc);
  return unit_run(s);
}
