/* test_json_write.c - the streaming JSON writer: separators and indentation, string escaping,
 * ill-formed UTF-8, numbers that read back exactly, misuse detection. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_write.h"
#include "unit.h"

START_TEST(test_compact_document)
{
  struct unit_capture cap;
  struct json_writer w;
  char *out;
  json_init(&w, unit_capture_begin(&cap), 0);
  json_object_begin(&w);
  json_kv_string(&w, "a", "x");
  json_kv_int(&w, "b", -3);
  json_kv_uint(&w, "c", 18446744073709551615ULL);
  json_kv_bool(&w, "d", 1);
  json_kv_bool(&w, "e", 0);
  json_key(&w, "f");
  json_write_null(&w);
  json_key(&w, "g");
  json_array_begin(&w);
  json_int(&w, 1);
  json_array_begin(&w);
  json_array_end(&w);
  json_object_begin(&w);
  json_object_end(&w);
  json_write_string(&w, "");
  json_array_end(&w);
  json_object_end(&w);
  ck_assert_int_eq(json_end(&w), 0);
  out = unit_capture_end(&cap);
  ck_assert_str_eq(out, "{\"a\":\"x\",\"b\":-3,\"c\":18446744073709551615,\"d\":true,\"e\":false,"
                        "\"f\":null,\"g\":[1,[],{},\"\"]}\n");
  free(out);
}
END_TEST

START_TEST(test_pretty_document)
{
  struct unit_capture cap;
  struct json_writer w;
  char *out;
  json_init(&w, unit_capture_begin(&cap), 1);
  json_object_begin(&w);
  json_kv_string(&w, "k", "v");
  json_key(&w, "list");
  json_array_begin(&w);
  json_uint(&w, 1);
  json_uint(&w, 2);
  json_array_end(&w);
  json_key(&w, "empty");
  json_array_begin(&w);
  json_array_end(&w);
  json_object_end(&w);
  ck_assert_int_eq(json_end(&w), 0);
  out = unit_capture_end(&cap);
  ck_assert_str_eq(out, "{\n  \"k\": \"v\",\n  \"list\": [\n    1,\n    2\n  ],\n  \"empty\": []\n}\n");
  free(out);
}
END_TEST

static char *string_json(const char *s)
{
  struct unit_capture cap;
  struct json_writer w;
  json_init(&w, unit_capture_begin(&cap), 0);
  json_write_string(&w, s);
  ck_assert_int_eq(json_end(&w), 0);
  return unit_capture_end(&cap);
}

#define ck_assert_json_string(in, want)  \
  do {                                   \
    char *got_ = string_json(in);        \
    ck_assert_str_eq(got_, want "\n");   \
    free(got_);                          \
  } while (0)

START_TEST(test_string_escapes)
{
  ck_assert_json_string("plain", "\"plain\"");
  ck_assert_json_string("q\"b\\s/", "\"q\\\"b\\\\s/\"");
  ck_assert_json_string("\n\r\t", "\"\\n\\r\\t\"");
  ck_assert_json_string("\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"");
  ck_assert_json_string(NULL, "\"\"");
}
END_TEST

START_TEST(test_utf8_kept_when_well_formed)
{
  ck_assert_json_string("\xc3\xbc", "\"\xc3\xbc\"");                 /* U+00FC */
  ck_assert_json_string("\xe2\x82\xac", "\"\xe2\x82\xac\"");         /* U+20AC */
  ck_assert_json_string("\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\""); /* U+1F600 */
  ck_assert_json_string("\xef\xbf\xbd", "\"\xef\xbf\xbd\"");         /* U+FFFD itself */
}
END_TEST

START_TEST(test_utf8_ill_formed_replaced)
{
  /* a report must stay valid JSON whatever bytes a hostile file puts in a name */
  ck_assert_json_string("a\xff" "b", "\"a\\ufffdb\"");
  ck_assert_json_string("\x80", "\"\\ufffd\"");                      /* lone continuation */
  ck_assert_json_string("\xc3", "\"\\ufffd\"");                      /* truncated at the end */
  ck_assert_json_string("\xc3(", "\"\\ufffd(\"");                    /* bad continuation */
  ck_assert_json_string("\xc0\xaf", "\"\\ufffd\\ufffd\"");           /* overlong '/' */
  ck_assert_json_string("\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\""); /* overlong, 3 bytes */
  ck_assert_json_string("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""); /* surrogate D800 */
  ck_assert_json_string("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* > U+10FFFF */
  ck_assert_json_string("\xe2\x82", "\"\\ufffd\\ufffd\"");           /* truncated 3-byte */
}
END_TEST

static char *double_json(double v)
{
  struct unit_capture cap;
  struct json_writer w;
  json_init(&w, unit_capture_begin(&cap), 0);
  json_double(&w, v);
  ck_assert_int_eq(json_end(&w), 0);
  return unit_capture_end(&cap);
}

START_TEST(test_doubles_round_trip)
{
  static const double values[] = {0.0, 1.0, -2.5, 0.1, 1.0 / 3.0, 1e300, -1e-300, 5e-324,
                                  3.4028234663852886e38, 0.30000000000000004, 123456789.125};
  for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
    char *s = double_json(values[i]);
    char *end;
    double back = strtod(s, &end);
    ck_assert_msg(back == values[i], "%s does not read back as %.17g", s, values[i]);
    ck_assert_str_eq(end, "\n");
    free(s);
  }
}
END_TEST

START_TEST(test_doubles_shortest)
{
  char *s = double_json(0.1);
  ck_assert_str_eq(s, "0.1\n");
  free(s);
  s = double_json(1.0);
  ck_assert_str_eq(s, "1\n");
  free(s);
}
END_TEST

START_TEST(test_non_finite_is_null)
{
  char *s = double_json(NAN);
  ck_assert_str_eq(s, "null\n");
  free(s);
  s = double_json(-INFINITY);
  ck_assert_str_eq(s, "null\n");
  free(s);
}
END_TEST

START_TEST(test_misuse_reported)
{
  struct unit_capture cap;
  struct json_writer w;
  char *out;
  json_init(&w, unit_capture_begin(&cap), 0);
  json_object_begin(&w);
  ck_assert_int_eq(json_end(&w), -1); /* left open */
  free(unit_capture_end(&cap));

  json_init(&w, unit_capture_begin(&cap), 0);
  json_array_end(&w); /* closed what was never opened */
  ck_assert_int_eq(json_end(&w), -1);
  free(unit_capture_end(&cap));

  json_init(&w, unit_capture_begin(&cap), 0);
  for (int i = 0; i < JSON_MAX_DEPTH + 4; i++)
    json_array_begin(&w);
  for (int i = 0; i < JSON_MAX_DEPTH + 4; i++)
    json_array_end(&w);
  ck_assert_int_eq(json_end(&w), -1);
  out = unit_capture_end(&cap);
  free(out);

  json_init(&w, unit_capture_begin(&cap), 0);
  for (int i = 0; i < JSON_MAX_DEPTH - 1; i++)
    json_array_begin(&w);
  for (int i = 0; i < JSON_MAX_DEPTH - 1; i++)
    json_array_end(&w);
  ck_assert_int_eq(json_end(&w), 0); /* the deepest nesting allowed */
  free(unit_capture_end(&cap));
}
END_TEST

int main(void)
{
  Suite *s = suite_create("json_write");
  TCase *t = tcase_create("json_write");
  tcase_add_test(t, test_compact_document);
  tcase_add_test(t, test_pretty_document);
  tcase_add_test(t, test_string_escapes);
  tcase_add_test(t, test_utf8_kept_when_well_formed);
  tcase_add_test(t, test_utf8_ill_formed_replaced);
  tcase_add_test(t, test_doubles_round_trip);
  tcase_add_test(t, test_doubles_shortest);
  tcase_add_test(t, test_non_finite_is_null);
  tcase_add_test(t, test_misuse_reported);
  suite_add_tcase(s, t);
  return unit_run(s);
}
