/* test_report.c - collecting diagnostics per file, verdicts under fail_on, and the text, JSON
 * and SARIF writers over a report built by hand. */
#include <string.h>

#include "report_tool.h"
#include "rules_gen.h"
#include "unit.h"

static void add_diag(struct report_file *f, enum rule_index rule, mdl_severity sev, long long offset,
                     unsigned line, unsigned column, const char *path, const char *message,
                     unsigned long folded)
{
  mdl_diag d;
  memset(&d, 0, sizeof d);
  d.rule = mdl_rule_at(rule);
  d.severity = sev;
  d.message = message;
  d.offset = offset;
  d.line = line;
  d.column = column;
  d.path = path;
  d.actual = "5";
  d.expected = "-1 or < 1";
  d.folded = folded;
  report_collect(&d, f);
  f->counts[sev] += folded ? folded : 1; /* a fold summary stands for `folded` diagnostics */
}

/* Two files: a binary one with an error at byte 276 and a warning-graded diagnostic, and a text
 * one with a line:column location and a fold summary. */
static void build(struct report *r)
{
  struct report_file *f;
  mdl_result res;
  report_init(r);

  f = report_add_file(r, "dir/broken model.iqm");
  memset(&res, 0, sizeof res);
  res.format = "iqm";
  strcpy(res.version, "2");
  report_set_result(f, &res);
  add_diag(f, RULE_CORE_UNRECOGNISED_FORMAT, MDL_ERROR, 276, 0, 0, "joints[1].parent",
           "joint 1 has parent 5", 0);
  add_diag(f, RULE_CORE_CONFIG_UNKNOWN_KEY, MDL_WARNING, 0, 0, 0, "", "a \"quoted\" warning", 0);

  f = report_add_file(r, "/abs/scene.iqe");
  memset(&res, 0, sizeof res);
  res.format = "iqe";
  report_set_result(f, &res);
  add_diag(f, RULE_CORE_READ_FAILED, MDL_INFO, -1, 12, 4, "", "text diag", 0);
  add_diag(f, RULE_CORE_UNRECOGNISED_FORMAT, MDL_HINT, -1, 0, 0, "", "3 more were folded", 3);
}

START_TEST(test_collect_copies)
{
  struct report r;
  char msg[32] = "transient";
  mdl_diag d;
  struct report_file *f;
  report_init(&r);
  ck_assert_int_eq(r.fail_on, MDL_ERROR);
  f = report_add_file(&r, "x.iqm");
  ck_assert_str_eq(f->format, "unknown");
  memset(&d, 0, sizeof d);
  d.rule = mdl_rule_at(RULE_CORE_UNRECOGNISED_FORMAT);
  d.severity = MDL_ERROR;
  d.message = msg;
  d.offset = 7;
  d.path = NULL; /* NULL strings become "" */
  d.actual = d.expected = NULL;
  report_collect(&d, f);
  strcpy(msg, "overwritten");
  ck_assert_uint_eq(f->nmsgs, 1);
  ck_assert_str_eq(f->msgs[0].message, "transient");
  ck_assert_str_eq(f->msgs[0].path, "");
  ck_assert_int_eq(f->msgs[0].offset, 7);
  /* many files and messages: the arrays grow */
  for (int i = 0; i < 100; i++)
    report_collect(&d, report_add_file(&r, "more"));
  ck_assert_uint_eq(r.nfiles, 101);
  ck_assert_str_eq(r.files[0].path, "x.iqm");
  report_free(&r);
}
END_TEST

START_TEST(test_set_result_sorts_by_position)
{
  struct report r;
  struct report_file *f;
  mdl_result res;
  report_init(&r);
  f = report_add_file(&r, "m.iqm");
  add_diag(f, RULE_CORE_UNRECOGNISED_FORMAT, MDL_ERROR, -1, 0, 0, "", "fold", 4);
  add_diag(f, RULE_CORE_UNRECOGNISED_FORMAT, MDL_ERROR, 300, 0, 0, "", "late", 0);
  add_diag(f, RULE_CORE_UNRECOGNISED_FORMAT, MDL_ERROR, -1, 0, 0, "", "nowhere", 0);
  add_diag(f, RULE_CORE_UNRECOGNISED_FORMAT, MDL_ERROR, 20, 0, 0, "", "early-1", 0);
  add_diag(f, RULE_CORE_UNRECOGNISED_FORMAT, MDL_ERROR, 20, 0, 0, "", "early-2", 0);
  memset(&res, 0, sizeof res);
  res.format = "iqm";
  report_set_result(f, &res);
  ck_assert_uint_eq(f->nmsgs, 5);
  ck_assert_str_eq(f->msgs[0].message, "early-1"); /* ties keep the order found */
  ck_assert_str_eq(f->msgs[1].message, "early-2");
  ck_assert_str_eq(f->msgs[2].message, "late");
  ck_assert_str_eq(f->msgs[3].message, "nowhere"); /* no location after located ones */
  ck_assert_str_eq(f->msgs[4].message, "fold");    /* fold summaries last */
  f = report_add_file(&r, "clean.iqm");
  report_set_result(f, &res); /* no messages at all */
  ck_assert_uint_eq(f->nmsgs, 0);
  report_free(&r);
}
END_TEST

START_TEST(test_verdict_follows_fail_on)
{
  struct report r;
  build(&r);
  ck_assert_int_eq(report_file_invalid(&r, &r.files[0]), 1); /* an error */
  ck_assert_int_eq(report_file_invalid(&r, &r.files[1]), 0); /* info and hints only */
  r.fail_on = MDL_FATAL;
  ck_assert_int_eq(report_file_invalid(&r, &r.files[0]), 0);
  r.fail_on = MDL_INFO;
  ck_assert_int_eq(report_file_invalid(&r, &r.files[1]), 1);
  r.fail_on = MDL_FATAL;
  r.files[1].io_failed = 1; /* unreadable is invalid whatever fail_on says */
  ck_assert_int_eq(report_file_invalid(&r, &r.files[1]), 1);
  report_free(&r);
}
END_TEST

static char *write_text(const struct report *r, int quiet)
{
  struct unit_capture cap;
  report_write_text(unit_capture_begin(&cap), r, quiet);
  return unit_capture_end(&cap);
}

START_TEST(test_text_report)
{
  struct report r;
  char *out;
  build(&r);
  r.files[0].truncated = 1;
  out = write_text(&r, 0);
  ck_assert_str_eq(out,
    "dir/broken model.iqm:276: error[MDL-FMT-001]: joint 1 has parent 5 [joints[1].parent]\n"
    "dir/broken model.iqm:0: warning[MDL-CFG-002]: a \"quoted\" warning\n"
    "dir/broken model.iqm: note: output truncated by --max-issues\n"
    "dir/broken model.iqm: invalid iqm 2: 1 error, 1 warning\n"
    "/abs/scene.iqe:12:4: info[MDL-IO-001]: text diag\n"
    "/abs/scene.iqe: hint[MDL-FMT-001]: 3 more were folded\n"
    "/abs/scene.iqe: valid iqe: 0 errors, 0 warnings, 1 info, 3 hints\n");
  free(out);
  report_free(&r);
}
END_TEST

START_TEST(test_text_quiet)
{
  struct report r;
  char *out;
  build(&r);
  out = write_text(&r, 1);
  /* errors and fatals only, no summaries */
  ck_assert_str_eq(out, "dir/broken model.iqm:276: error[MDL-FMT-001]: joint 1 has parent 5 [joints[1].parent]\n");
  free(out);
  report_free(&r);
}
END_TEST

static char *write_json(const struct report *r)
{
  struct unit_capture cap;
  report_write_json(unit_capture_begin(&cap), r);
  return unit_capture_end(&cap);
}

static void squeeze(char *s) /* drop the pretty-printing so substrings are easy to state */
{
  char *o = s;
  int in_string = 0;
  for (char *p = s; *p; p++) {
    if (*p == '"' && (p == s || p[-1] != '\\'))
      in_string = !in_string;
    if (!in_string && (*p == ' ' || *p == '\n'))
      continue;
    *o++ = *p;
  }
  *o = 0;
}

START_TEST(test_json_report)
{
  struct report r;
  char *out;
  build(&r);
  r.files[0].truncated = 1;
  out = write_json(&r);
  squeeze(out);
  ck_assert_ptr_nonnull(strstr(out, "{\"tool\":{\"name\":\"mdlcheck\",\"version\":\"" MDL_VERSION_STRING "\"},"
                                    "\"fail_on\":\"error\",\"files\":[{"));
  ck_assert_ptr_nonnull(strstr(out, "\"path\":\"dir/broken model.iqm\",\"format\":\"iqm\",\"version\":\"2\","
                                    "\"verdict\":\"invalid\",\"counts\":{\"fatal\":0,\"error\":1,"
                                    "\"warning\":1,\"info\":0,\"hint\":0},\"truncated\":true,"));
  ck_assert_ptr_nonnull(strstr(out, "{\"id\":\"MDL-FMT-001\",\"severity\":\"error\",\"message\":"
                                    "\"joint 1 has parent 5\",\"offset\":276,\"path\":\"joints[1].parent\","));
  ck_assert_ptr_nonnull(strstr(out, "\"actual\":\"5\",\"expected\":\"-1 or < 1\"}"));
  ck_assert_ptr_nonnull(strstr(out, "\"message\":\"a \\\"quoted\\\" warning\",\"offset\":0,"));
  ck_assert_ptr_nonnull(strstr(out, "\"verdict\":\"valid\""));
  ck_assert_ptr_nonnull(strstr(out, "\"message\":\"text diag\",\"line\":12,\"column\":4,\"path\":\"\""));
  ck_assert_ptr_nonnull(strstr(out, "\"folded\":3}"));
  /* the fold summary has no location at all */
  ck_assert_ptr_null(strstr(out, "\"offset\":-1"));
  free(out);
  report_free(&r);
}
END_TEST

START_TEST(test_json_empty_report)
{
  struct report r;
  char *out;
  report_init(&r);
  r.fail_on = MDL_WARNING;
  out = write_json(&r);
  squeeze(out);
  ck_assert_str_eq(out, "{\"tool\":{\"name\":\"mdlcheck\",\"version\":\"" MDL_VERSION_STRING "\"},"
                        "\"fail_on\":\"warning\",\"files\":[]}");
  free(out);
  report_free(&r);
}
END_TEST

static char *write_sarif(const struct report *r)
{
  struct unit_capture cap;
  char *out;
  report_write_sarif(unit_capture_begin(&cap), r);
  out = unit_capture_end(&cap);
  squeeze(out);
  return out;
}

START_TEST(test_sarif_run)
{
  struct report r;
  char *out;
  build(&r);
  out = write_sarif(&r);
  ck_assert_ptr_nonnull(strstr(out, "\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"mdlcheck\","));
  ck_assert_ptr_null(strstr(out, ".invalid"));  /* no placeholder address */
  ck_assert_ptr_nonnull(strstr(out, "\"semanticVersion\":\"" MDL_VERSION_STRING "\",\"rules\":["));
  ck_assert_ptr_nonnull(strstr(out, "\"executionSuccessful\":true"));
  /* artifacts: relative paths stay relative and are percent-encoded; absolute become file:// */
  ck_assert_ptr_nonnull(strstr(out, "\"artifacts\":[{\"location\":{\"uri\":\"dir/broken%20model.iqm\"}"));
  ck_assert_ptr_nonnull(strstr(out, "{\"location\":{\"uri\":\"file:///abs/scene.iqe\"}"));
  ck_assert_ptr_nonnull(strstr(out, "\"verdict\":\"invalid\""));
  free(out);
  report_free(&r);
}
END_TEST

START_TEST(test_sarif_rules_and_results)
{
  struct report r;
  char *out, *rules, *results;
  build(&r);
  out = write_sarif(&r);
  rules = strstr(out, "\"rules\":[");
  results = strstr(out, "\"results\":[");
  ck_assert_ptr_nonnull(rules);
  ck_assert_ptr_nonnull(results);
  /* the rules that fired, each once, in order of first appearance: FMT-001, CFG-002, IO-001 */
  {
    char *a = strstr(rules, "{\"id\":\"MDL-FMT-001\",\"name\":\"unrecognised-format\",\"shortDescription\":{\"text\":");
    char *b = strstr(rules, "{\"id\":\"MDL-CFG-002\"");
    char *c = strstr(rules, "{\"id\":\"MDL-IO-001\"");
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_nonnull(c);
    ck_assert(a < b && b < c && c < results);
    ck_assert_ptr_null(strstr(a + 1, "{\"id\":\"MDL-FMT-001\""));
  }
  ck_assert_ptr_nonnull(strstr(rules, "\"defaultConfiguration\":{\"level\":\"error\"}"));
  ck_assert_ptr_nonnull(strstr(rules, "\"properties\":{\"severity\":\"fatal\",")); /* MDL-IO-001 */
  ck_assert_ptr_nonnull(strstr(rules, "\"source\":\"README.md"));

  /* results: level mapping, ruleIndex, binary and text regions, logical location */
  {
    /* then its partial fingerprint: 16 hex digits, no line or offset in it */
    const char *head = "{\"ruleId\":\"MDL-FMT-001\",\"ruleIndex\":0,\"level\":\"error\","
                       "\"partialFingerprints\":{\"mdlcheck/v1\":\"";
    char *fp = strstr(results, head);
    ck_assert_ptr_nonnull(fp);
    fp += strlen(head);
    ck_assert_uint_eq(strspn(fp, "0123456789abcdef"), 16);
    ck_assert_ptr_eq(strstr(fp, "\"},\"message\":{\"text\":\"joint 1 has parent 5\"},"), fp + 16);
  }
  ck_assert_ptr_nonnull(strstr(results, "\"artifactLocation\":{\"uri\":\"dir/broken%20model.iqm\",\"index\":0},"
                                        "\"region\":{\"byteOffset\":276,\"byteLength\":1}},"
                                        "\"logicalLocations\":[{\"fullyQualifiedName\":\"joints[1].parent\"}]"));
  ck_assert_ptr_nonnull(strstr(results, "{\"ruleId\":\"MDL-CFG-002\",\"ruleIndex\":1,\"level\":\"warning\","));
  ck_assert_ptr_nonnull(strstr(results, "{\"ruleId\":\"MDL-IO-001\",\"ruleIndex\":2,\"level\":\"note\","));
  ck_assert_ptr_nonnull(strstr(results, "\"index\":1},\"region\":{\"startLine\":12,\"startColumn\":4}}"));
  ck_assert_ptr_nonnull(strstr(results, "{\"ruleId\":\"MDL-FMT-001\",\"ruleIndex\":0,\"level\":\"note\","));
  ck_assert_ptr_nonnull(strstr(results, "\"properties\":{\"severity\":\"hint\","));
  ck_assert_ptr_nonnull(strstr(results, "\"folded\":3"));
  free(out);
  report_free(&r);
}
END_TEST

START_TEST(test_sarif_io_failure)
{
  struct report r;
  char *out;
  build(&r);
  r.files[1].io_failed = 1;
  out = write_sarif(&r);
  ck_assert_ptr_nonnull(strstr(out, "\"executionSuccessful\":false"));
  free(out);
  report_free(&r);
}
END_TEST

START_TEST(test_sarif_uri_encoding)
{
  struct report r;
  char *out;
  report_init(&r);
  report_add_file(&r, "a:b/c#d?e%f\xc3\xbc~.iqm");
  out = write_sarif(&r);
  /* ':' in a relative reference would read as a scheme; '#' '?' '%' are delimiters */
  ck_assert_ptr_nonnull(strstr(out, "\"uri\":\"a%3Ab/c%23d%3Fe%25f%C3%BC~.iqm\""));
  ck_assert_ptr_nonnull(strstr(out, "\"rules\":[]"));
  ck_assert_ptr_nonnull(strstr(out, "\"results\":[]"));
  free(out);
  report_free(&r);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("report");
  TCase *t = tcase_create("report");
  tcase_add_test(t, test_collect_copies);
  tcase_add_test(t, test_set_result_sorts_by_position);
  tcase_add_test(t, test_verdict_follows_fail_on);
  tcase_add_test(t, test_text_report);
  tcase_add_test(t, test_text_quiet);
  tcase_add_test(t, test_json_report);
  tcase_add_test(t, test_json_empty_report);
  tcase_add_test(t, test_sarif_run);
  tcase_add_test(t, test_sarif_rules_and_results);
  tcase_add_test(t, test_sarif_io_failure);
  tcase_add_test(t, test_sarif_uri_encoding);
  suite_add_tcase(s, t);
  return unit_run(s);
}
