/* test_config.c - the YAML configuration: every key, and every kind of mistake reported as an
 * MDL-CFG-* diagnostic at the line:column of the offending node. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "config_file.h"
#include "input.h"
#include "unit.h"

#define MAX_SEEN 16

struct seen {
  size_t n;
  struct {
    char id[16];
    mdl_severity severity;
    unsigned line, column;
    char message[256];
    char path[64];
    char actual[96];
  } d[MAX_SEEN];
};

static void collect(const mdl_diag *d, void *user)
{
  struct seen *s = user;
  ck_assert_uint_lt(s->n, MAX_SEEN);
  snprintf(s->d[s->n].id, sizeof s->d[s->n].id, "%s", d->rule->id);
  s->d[s->n].severity = d->severity;
  s->d[s->n].line = d->line;
  s->d[s->n].column = d->column;
  snprintf(s->d[s->n].message, sizeof s->d[s->n].message, "%s", d->message);
  snprintf(s->d[s->n].path, sizeof s->d[s->n].path, "%s", d->path);
  snprintf(s->d[s->n].actual, sizeof s->d[s->n].actual, "%s", d->actual);
  ck_assert_int_eq(d->offset, -1);
  s->n++;
}

static int load(struct mdl_config *c, struct seen *s, const char *text)
{
  memset(s, 0, sizeof *s);
  config_init(c);
  return config_load_buffer(c, text, strlen(text), collect, s);
}

#define ck_assert_diag(s, i, want_id, want_line, want_col)   \
  do {                                                       \
    ck_assert_uint_gt((s)->n, (i));                          \
    ck_assert_str_eq((s)->d[i].id, want_id);                 \
    ck_assert_uint_eq((s)->d[i].line, want_line);            \
    ck_assert_uint_eq((s)->d[i].column, want_col);           \
    ck_assert_int_eq((s)->d[i].severity, MDL_ERROR);         \
  } while (0)

START_TEST(test_defaults)
{
  struct mdl_config c;
  config_init(&c);
  ck_assert_ptr_null(c.policy);
  ck_assert_uint_eq(c.max_issues, 0);
  ck_assert_uint_eq(c.max_per_rule, 0);
  ck_assert_int_eq(c.fail_on, -1);
  ck_assert_int_eq(c.strict, -1);
  ck_assert_str_eq(c.profile, "");
  config_free(&c);
}
END_TEST

START_TEST(test_full_config)
{
  static const mdl_rule fmt1 = {"MDL-FMT-001", "", "core", MDL_ERROR, "", "", "", "", "", "", "", MDL_ERROR, "", "", "", "", ""};
  static const mdl_rule cfg2 = {"MDL-CFG-002", "", "core", MDL_ERROR, "", "", "", "", "", "", "", MDL_ERROR, "", "", "", "", ""};
  static const mdl_rule io1 = {"MDL-IO-001", "", "core", MDL_FATAL, "", "", "", "", "", "", "", MDL_FATAL, "", "", "", "", ""};
  struct mdl_config c;
  struct seen s;
  int errors = load(&c, &s,
                    "# mdlcheck.yaml\n"
                    "ignore: [MDL-FMT-001]\n"
                    "only:\n"
                    "  - core\n"
                    "severity:\n"
                    "  MDL-CFG-002: warning\n"
                    "  MDL-IO-*: info\n"
                    "max-issues: 200\n"
                    "max-per-rule: 20\n"
                    "fail-on: warning\n"
                    "profile: engine\n"
                    "strict: true\n");
  ck_assert_int_eq(errors, 0);
  ck_assert_uint_eq(s.n, 0);
  ck_assert_uint_eq(c.max_issues, 200);
  ck_assert_uint_eq(c.max_per_rule, 20);
  ck_assert_int_eq(c.fail_on, MDL_WARNING);
  ck_assert_str_eq(c.profile, "engine");
  ck_assert_int_eq(c.strict, 1);
  ck_assert_ptr_nonnull(c.policy);
  ck_assert_int_eq(mdl_policy_apply(c.policy, &fmt1), MDL_SEVERITY_COUNT);
  ck_assert_int_eq(mdl_policy_apply(c.policy, &cfg2), MDL_WARNING);
  ck_assert_int_eq(mdl_policy_apply(c.policy, &io1), MDL_INFO);
  config_free(&c);
  ck_assert_ptr_null(c.policy);
}
END_TEST

START_TEST(test_values_at_their_bounds)
{
  struct mdl_config c;
  struct seen s;
  ck_assert_int_eq(load(&c, &s, "max-issues: 0\nmax-per-rule: +7\nstrict: False\nfail-on: hint\n"
                                "ignore: []\nseverity: {}\n"), 0);
  ck_assert_uint_eq(c.max_issues, 0);
  ck_assert_uint_eq(c.max_per_rule, 7);
  ck_assert_int_eq(c.strict, 0);
  ck_assert_int_eq(c.fail_on, MDL_HINT);
  config_free(&c);
}
END_TEST

START_TEST(test_empty_documents)
{
  struct mdl_config c;
  struct seen s;
  ck_assert_int_eq(load(&c, &s, ""), 0);
  config_free(&c);
  ck_assert_int_eq(load(&c, &s, "# only a comment\n"), 0);
  config_free(&c);
  ck_assert_int_eq(load(&c, &s, "---\n"), 0);
  ck_assert_uint_eq(s.n, 0);
  ck_assert_int_eq(c.fail_on, -1);
  config_free(&c);
}
END_TEST

START_TEST(test_syntax_error_position)
{
  struct mdl_config c;
  struct seen s;
  ck_assert_int_eq(load(&c, &s, "ignore: [MDL-FMT-001\nmax-issues: 3\n"), 1);
  ck_assert_uint_eq(s.n, 1);
  ck_assert_str_eq(s.d[0].id, "MDL-CFG-001");
  ck_assert_uint_eq(s.d[0].line, 2); /* where libyaml found the missing ']' */
  ck_assert_uint_ge(s.d[0].column, 1);
  ck_assert_ptr_nonnull(strstr(s.d[0].message, "flow sequence"));
  config_free(&c);

  ck_assert_int_eq(load(&c, &s, "fail-on: error\n  bad: indent\n"), 1);
  ck_assert_diag(&s, 0, "MDL-CFG-001", 2, 6);
  config_free(&c);

  ck_assert_int_eq(load(&c, &s, "key: \"unterminated\n"), 1);
  ck_assert_str_eq(s.d[0].id, "MDL-CFG-001");
  config_free(&c);
}
END_TEST

START_TEST(test_bad_encoding_position)
{
  struct mdl_config c;
  struct seen s;
  ck_assert_int_eq(load(&c, &s, "max-issues: 3\nprofile: a\xff\n"), 1);
  ck_assert_diag(&s, 0, "MDL-CFG-001", 2, 11);
  config_free(&c);
}
END_TEST

START_TEST(test_top_level_not_mapping)
{
  struct mdl_config c;
  struct seen s;
  ck_assert_int_eq(load(&c, &s, "- ignore\n- only\n"), 1);
  ck_assert_diag(&s, 0, "MDL-CFG-001", 1, 1);
  ck_assert_ptr_nonnull(strstr(s.d[0].message, "a list"));
  config_free(&c);
  ck_assert_int_eq(load(&c, &s, "\n\n   just words\n"), 1);
  ck_assert_diag(&s, 0, "MDL-CFG-001", 3, 4);
  config_free(&c);
}
END_TEST

START_TEST(test_second_document)
{
  struct mdl_config c;
  struct seen s;
  ck_assert_int_eq(load(&c, &s, "max-issues: 1\n---\nmax-issues: 2\n"), 1);
  ck_assert_diag(&s, 0, "MDL-CFG-001", 2, 1);
  ck_assert_uint_eq(c.max_issues, 1);
  config_free(&c);
}
END_TEST

START_TEST(test_duplicate_keys)
{
  struct mdl_config c;
  struct seen s;
  ck_assert_int_eq(load(&c, &s, "fail-on: error\nmax-issues: 2\nfail-on: info\n"), 1);
  ck_assert_diag(&s, 0, "MDL-CFG-001", 3, 1);
  ck_assert_ptr_nonnull(strstr(s.d[0].message, "duplicate key 'fail-on'"));
  ck_assert_int_eq(c.fail_on, MDL_ERROR); /* the first one stands */
  config_free(&c);
  ck_assert_int_eq(load(&c, &s, "severity:\n  MDL-FMT-001: info\n  MDL-FMT-001: hint\n"), 1);
  ck_assert_diag(&s, 0, "MDL-CFG-001", 3, 3);
  config_free(&c);
}
END_TEST

START_TEST(test_unknown_keys)
{
  struct mdl_config c;
  struct seen s;
  ck_assert_int_eq(load(&c, &s, "max-issues: 5\nmax_issues: 5\n  # comment\ncolour: red\n"), 2);
  ck_assert_diag(&s, 0, "MDL-CFG-002", 2, 1);
  ck_assert_str_eq(s.d[0].actual, "max_issues");
  ck_assert_ptr_nonnull(strstr(s.d[0].message, "'max_issues'"));
  ck_assert_ptr_nonnull(strstr(s.d[0].message, "max-per-rule")); /* lists the keys it knows */
  ck_assert_diag(&s, 1, "MDL-CFG-002", 4, 1);
  ck_assert_uint_eq(c.max_issues, 5);
  config_free(&c);
  ck_assert_int_eq(load(&c, &s, "? [a, b]\n: 1\n"), 1); /* a key that is not a scalar */
  ck_assert_diag(&s, 0, "MDL-CFG-002", 1, 3);
  config_free(&c);
}
END_TEST

START_TEST(test_bad_values)
{
  struct mdl_config c;
  struct seen s;
  ck_assert_int_eq(load(&c, &s,
                        "max-issues: -3\n"          /* 1 */
                        "max-per-rule: \"5\"\n"     /* 2: quoted: a string */
                        "fail-on: loud\n"           /* 3 */
                        "profile: two words\n"      /* 4 */
                        "strict: yes\n"             /* 5: YAML 1.1 only */
                        "ignore: MDL-FMT-001\n"     /* 6: not a list */
                        "severity: [a]\n"           /* 7 */
                        "only:\n"                   /* 8: null */
                        "max-issues-x: 1\n"),       /* 9: unknown key */
                   9);
  ck_assert_diag(&s, 0, "MDL-CFG-003", 1, 13);
  ck_assert_str_eq(s.d[0].path, "max-issues");
  ck_assert_str_eq(s.d[0].actual, "-3");
  ck_assert_ptr_nonnull(strstr(s.d[0].message, "bad value for max-issues: -3"));
  ck_assert_diag(&s, 1, "MDL-CFG-003", 2, 15);
  ck_assert_str_eq(s.d[1].actual, "\"5\"");
  ck_assert_diag(&s, 2, "MDL-CFG-003", 3, 10);
  ck_assert_str_eq(s.d[2].path, "fail-on");
  ck_assert_diag(&s, 3, "MDL-CFG-003", 4, 10);
  ck_assert_diag(&s, 4, "MDL-CFG-003", 5, 9);
  ck_assert_diag(&s, 5, "MDL-CFG-003", 6, 9);
  ck_assert_diag(&s, 6, "MDL-CFG-003", 7, 11);
  ck_assert_str_eq(s.d[6].actual, "a list");
  ck_assert_diag(&s, 7, "MDL-CFG-003", 8, 6);
  ck_assert_str_eq(s.d[7].actual, "null");
  ck_assert_diag(&s, 8, "MDL-CFG-002", 9, 1);
  /* nothing half-applied */
  ck_assert_uint_eq(c.max_issues, 0);
  ck_assert_uint_eq(c.max_per_rule, 0);
  ck_assert_int_eq(c.fail_on, -1);
  ck_assert_int_eq(c.strict, -1);
  ck_assert_str_eq(c.profile, "");
  config_free(&c);
}
END_TEST

START_TEST(test_number_overflow)
{
  struct mdl_config c;
  struct seen s;
  ck_assert_int_eq(load(&c, &s, "max-issues: 99999999999999999999999999\n"), 1);
  ck_assert_diag(&s, 0, "MDL-CFG-003", 1, 13);
  config_free(&c);
  ck_assert_int_eq(load(&c, &s, "max-issues: 1.5\nmax-per-rule: 0x10\n"), 2);
  config_free(&c);
}
END_TEST

START_TEST(test_list_items)
{
  struct mdl_config c;
  struct seen s;
  ck_assert_int_eq(load(&c, &s,
                        "ignore:\n"
                        "  - MDL-FMT-001\n"
                        "  - NOPE-*\n"
                        "  - [nested]\n"
                        "only: [core, IQM-HDR-001, zzz]\n"),
                   3);
  ck_assert_diag(&s, 0, "MDL-CFG-004", 3, 5);
  ck_assert_str_eq(s.d[0].path, "ignore[1]");
  ck_assert_str_eq(s.d[0].actual, "NOPE-*");
  ck_assert_ptr_nonnull(strstr(s.d[0].message, "'NOPE-*' matches no catalogued rule"));
  ck_assert_diag(&s, 1, "MDL-CFG-003", 4, 5);
  ck_assert_str_eq(s.d[1].path, "ignore[2]");
  ck_assert_diag(&s, 2, "MDL-CFG-004", 5, 27);
  ck_assert_str_eq(s.d[2].path, "only[2]");
  config_free(&c);
}
END_TEST

START_TEST(test_severity_mapping)
{
  struct mdl_config c;
  struct seen s;
  ck_assert_int_eq(load(&c, &s,
                        "severity:\n"
                        "  MDL-FMT-001: error\n"
                        "  NOPE-1: info\n"
                        "  MDL-CFG-002: bad\n"
                        "  MDL-IO-001: [x]\n"),
                   3);
  ck_assert_diag(&s, 0, "MDL-CFG-004", 3, 3);
  ck_assert_str_eq(s.d[0].path, "severity.NOPE-1");
  ck_assert_diag(&s, 1, "MDL-CFG-003", 4, 16);
  ck_assert_str_eq(s.d[1].path, "severity.MDL-CFG-002");
  ck_assert_diag(&s, 2, "MDL-CFG-003", 5, 15);
  config_free(&c);
}
END_TEST

START_TEST(test_long_values_bounded)
{
  struct mdl_config c;
  struct seen s;
  char text[4096];
  int n = snprintf(text, sizeof text, "profile: ");
  memset(text + n, 'p', 3000);
  strcpy(text + n + 3000, "\n");
  ck_assert_int_eq(load(&c, &s, text), 1);
  ck_assert_diag(&s, 0, "MDL-CFG-003", 1, 10);
  ck_assert_uint_lt(strlen(s.d[0].actual), 96);
  ck_assert_ptr_nonnull(strstr(s.d[0].actual, "..."));
  config_free(&c);
}
END_TEST

START_TEST(test_nesting_limit)
{
  /* deep flow nesting is refused before libyaml's loader (quadratic in depth) meets it */
  struct mdl_config c;
  struct seen s;
  char text[256];
  int n = snprintf(text, sizeof text, "ignore: ");
  memset(text + n, '[', 40);
  memset(text + n + 40, ']', 40);
  strcpy(text + n + 80, "\n");
  ck_assert_int_eq(load(&c, &s, text), 1);
  /* the root mapping is level 1, so the 16th '[' (column 9 + 15) is level 17 */
  ck_assert_diag(&s, 0, "MDL-CFG-001", 1, 24);
  ck_assert_ptr_nonnull(strstr(s.d[0].message, "nesting deeper than 16"));
  ck_assert_ptr_null(c.policy);
  config_free(&c);
  /* 16 levels are fine as YAML (and then a bad value: a list is not a pattern) */
  text[n + 14] = 0;
  memset(text + n, '[', 15);
  memset(text + n + 15, ']', 15);
  strcpy(text + n + 30, "\n");
  ck_assert_int_eq(load(&c, &s, text), 1);
  ck_assert_diag(&s, 0, "MDL-CFG-003", 1, 10);
  config_free(&c);
}
END_TEST

START_TEST(test_too_many_entries)
{
  struct mdl_config c;
  struct seen s;
  static char text[32 * 1100];
  size_t n = (size_t)snprintf(text, sizeof text, "max-issues: 1\nonly:\n");
  for (int i = 0; i < 1025; i++)
    n += (size_t)snprintf(text + n, sizeof text - n, "  - MDL-FMT-001\n");
  ck_assert_int_eq(load(&c, &s, text), 1);
  ck_assert_diag(&s, 0, "MDL-CFG-003", 3, 3);
  ck_assert_str_eq(s.d[0].actual, "1025 entries");
  ck_assert_uint_eq(c.max_issues, 1);
  config_free(&c);
}
END_TEST

START_TEST(test_control_characters_in_messages)
{
  struct mdl_config c;
  struct seen s;
  ck_assert_int_eq(load(&c, &s, "fail-on: \"a\\nb\\u0007\"\n"), 1);
  ck_assert_str_eq(s.d[0].actual, "\"a?b?\"");
  config_free(&c);
}
END_TEST

START_TEST(test_no_callback)
{
  struct mdl_config c;
  config_init(&c);
  ck_assert_int_eq(config_load_buffer(&c, "x: 1\ny: 2\n", 10, NULL, NULL), 2);
  config_free(&c);
}
END_TEST

START_TEST(test_load_file)
{
  char path[] = "/tmp/mdl-unit-config-XXXXXX";
  struct mdl_config c;
  struct seen s;
  int fd = mkstemp(path);
  FILE *f;
  ck_assert_int_ge(fd, 0);
  f = fdopen(fd, "w");
  ck_assert_ptr_nonnull(f);
  fputs("max-per-rule: 3\nfail-on: nope\n", f);
  ck_assert_int_eq(fclose(f), 0);
  memset(&s, 0, sizeof s);
  config_init(&c);
  ck_assert_int_eq(config_load(&c, path, collect, &s), 1);
  ck_assert_diag(&s, 0, "MDL-CFG-003", 2, 10);
  ck_assert_uint_eq(c.max_per_rule, 3);
  config_free(&c);
  unlink(path);
}
END_TEST

START_TEST(test_unreadable)
{
  struct mdl_config c;
  struct seen s;
  memset(&s, 0, sizeof s);
  config_init(&c);
  errno = 0;
  ck_assert_int_eq(config_load(&c, "/nonexistent/mdlcheck.yaml", collect, &s), -1);
  ck_assert_int_eq(c.read_error, ENOENT);
  ck_assert_uint_eq(s.n, 0);
  ck_assert_int_eq(config_load(&c, "/", collect, &s), -1); /* a directory: refused unread */
  ck_assert(INPUT_NOT_REGULAR(c.read_error));
  config_free(&c);
}
END_TEST

START_TEST(test_too_large)
{
  char path[] = "/tmp/mdl-unit-config-XXXXXX";
  struct mdl_config c;
  struct seen s;
  int fd = mkstemp(path);
  FILE *f;
  ck_assert_int_ge(fd, 0);
  f = fdopen(fd, "w");
  ck_assert_ptr_nonnull(f);
  for (int i = 0; i < 70000; i++)
    fputs("# padding\n", f); /* 700 000 bytes */
  fputs("fail-on: info\n", f);
  for (int i = 0; i < 40000; i++)
    fputs("# padding\n", f); /* past 1 MiB */
  ck_assert_int_eq(fclose(f), 0);
  memset(&s, 0, sizeof s);
  config_init(&c);
  ck_assert_int_eq(config_load(&c, path, collect, &s), 1);
  ck_assert_diag(&s, 0, "MDL-CFG-001", 1, 1);
  ck_assert_int_eq(c.fail_on, -1);
  config_free(&c);
  unlink(path);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("config");
  TCase *ok = tcase_create("accepted");
  TCase *bad = tcase_create("mistakes");
  TCase *files = tcase_create("files");
  tcase_add_test(ok, test_defaults);
  tcase_add_test(ok, test_full_config);
  tcase_add_test(ok, test_values_at_their_bounds);
  tcase_add_test(ok, test_empty_documents);
  tcase_add_test(bad, test_syntax_error_position);
  tcase_add_test(bad, test_bad_encoding_position);
  tcase_add_test(bad, test_top_level_not_mapping);
  tcase_add_test(bad, test_second_document);
  tcase_add_test(bad, test_duplicate_keys);
  tcase_add_test(bad, test_unknown_keys);
  tcase_add_test(bad, test_bad_values);
  tcase_add_test(bad, test_number_overflow);
  tcase_add_test(bad, test_list_items);
  tcase_add_test(bad, test_severity_mapping);
  tcase_add_test(bad, test_long_values_bounded);
  tcase_add_test(bad, test_nesting_limit);
  tcase_add_test(bad, test_too_many_entries);
  tcase_add_test(bad, test_control_characters_in_messages);
  tcase_add_test(bad, test_no_callback);
  tcase_add_test(files, test_load_file);
  tcase_add_test(files, test_unreadable);
  tcase_add_test(files, test_too_large);
  suite_add_tcase(s, ok);
  suite_add_tcase(s, bad);
  suite_add_tcase(s, files);
  return unit_run(s);
}
