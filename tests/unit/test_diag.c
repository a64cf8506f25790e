/* test_diag.c - the diagnostic sink: message rendering, locations, policy application, strict
 * grading, folding of repeats, --max-issues truncation, counts. */
#include <string.h>

#include "diag.h"
#include "unit.h"

#define MAX_SEEN 64

struct seen {
  size_t n;
  struct {
    const mdl_rule *rule;
    mdl_severity severity;
    char message[256];
    long long offset;
    unsigned line, column;
    char path[LOC_PATH_MAX];
    char actual[64], expected[64];
    unsigned long folded;
  } d[MAX_SEEN];
};

static void collect(const mdl_diag *d, void *user)
{
  struct seen *s = user;
  ck_assert_uint_lt(s->n, MAX_SEEN);
  s->d[s->n].rule = d->rule;
  s->d[s->n].severity = d->severity;
  snprintf(s->d[s->n].message, sizeof s->d[s->n].message, "%s", d->message);
  s->d[s->n].offset = d->offset;
  s->d[s->n].line = d->line;
  s->d[s->n].column = d->column;
  snprintf(s->d[s->n].path, sizeof s->d[s->n].path, "%s", d->path);
  snprintf(s->d[s->n].actual, sizeof s->d[s->n].actual, "%s", d->actual);
  snprintf(s->d[s->n].expected, sizeof s->d[s->n].expected, "%s", d->expected);
  s->d[s->n].folded = d->folded;
  s->n++;
}

static void options_for(mdl_options *o, struct seen *s)
{
  mdl_options_init(o);
  memset(s, 0, sizeof *s);
  o->on_diag = collect;
  o->user = s;
}

START_TEST(test_render_substitutes)
{
  char out[128];
  diag_render(out, sizeof out, "got {actual}, want {expected} at {path}; {other} {", "5", "-1", "joints[1]");
  ck_assert_str_eq(out, "got 5, want -1 at joints[1]; {other} {");
  diag_render(out, sizeof out, "{actual}{actual}", "ab", "", "");
  ck_assert_str_eq(out, "abab");
  diag_render(out, sizeof out, "empty: '{expected}'", "x", "", "");
  ck_assert_str_eq(out, "empty: ''");
}
END_TEST

START_TEST(test_render_bounded)
{
  char out[8];
  memset(out, 'z', sizeof out);
  diag_render(out, sizeof out, "value {actual} is long", "123456789", "", "");
  ck_assert_str_eq(out, "value 1"); /* 7 characters and the NUL */
  diag_render(out, 1, "anything", "", "", "");
  ck_assert_str_eq(out, "");
  out[0] = 'q';
  diag_render(out, 0, "anything", "", "", "");
  ck_assert_int_eq(out[0], 'q'); /* cap 0: nothing written */
}
END_TEST

START_TEST(test_locations)
{
  char longname[LOC_PATH_MAX * 2];
  struct mdl_loc l = loc_bin(276, "joints[%d].parent", 1);
  ck_assert_int_eq(l.offset, 276);
  ck_assert_uint_eq(l.line, 0);
  ck_assert_str_eq(l.path, "joints[1].parent");
  l = loc_text(12, 4, NULL);
  ck_assert_int_eq(l.offset, -1);
  ck_assert_uint_eq(l.line, 12);
  ck_assert_uint_eq(l.column, 4);
  ck_assert_str_eq(l.path, "");
  l = loc_none();
  ck_assert_int_eq(l.offset, -1);
  ck_assert_uint_eq(l.line, 0);
  ck_assert_str_eq(l.path, "");
  memset(longname, 'a', sizeof longname - 1);
  longname[sizeof longname - 1] = 0;
  l = loc_bin(0, "%s", longname);
  ck_assert_uint_eq(strlen(l.path), LOC_PATH_MAX - 1);
}
END_TEST

START_TEST(test_emit_renders_catalogue_message)
{
  mdl_options o;
  struct seen s;
  struct diag_sink sink;
  struct mdl_loc loc = loc_bin(16, "header.version");
  const mdl_rule *r = mdl_rule_at(RULE_CORE_UNKNOWN_ASSUMED_FORMAT);
  char want[256];

  options_for(&o, &s);
  ck_assert_int_eq(diag_sink_init(&sink, &o), 0);
  diag_emit(&sink, RULE_CORE_UNKNOWN_ASSUMED_FORMAT, &loc, "iqm", "%s-%d", "fmt", 7);
  diag_sink_finish(&sink);

  ck_assert_uint_eq(s.n, 1);
  ck_assert_ptr_eq(s.d[0].rule, r);
  ck_assert_str_eq(s.d[0].rule->id, "MDL-FMT-002");
  ck_assert_int_eq(s.d[0].severity, r->severity);
  diag_render(want, sizeof want, r->message, "fmt-7", "iqm", "header.version");
  ck_assert_str_eq(s.d[0].message, want);
  ck_assert_ptr_nonnull(strstr(s.d[0].message, "fmt-7"));
  ck_assert_str_eq(s.d[0].actual, "fmt-7");
  ck_assert_str_eq(s.d[0].expected, "iqm");
  ck_assert_str_eq(s.d[0].path, "header.version");
  ck_assert_int_eq(s.d[0].offset, 16);
  ck_assert_uint_eq(s.d[0].folded, 0);
  ck_assert_uint_eq(sink.counts[r->severity], 1);
  ck_assert_uint_eq(diag_errors(&sink), 1);
}
END_TEST

START_TEST(test_emit_null_actual_expected)
{
  mdl_options o;
  struct seen s;
  struct diag_sink sink;
  struct mdl_loc loc = loc_text(3, 9, NULL);
  options_for(&o, &s);
  ck_assert_int_eq(diag_sink_init(&sink, &o), 0);
  diag_emit(&sink, RULE_CORE_READ_FAILED, &loc, NULL, NULL);
  ck_assert_uint_eq(s.n, 1);
  ck_assert_str_eq(s.d[0].actual, "");
  ck_assert_str_eq(s.d[0].expected, "");
  ck_assert_uint_eq(s.d[0].line, 3);
  ck_assert_uint_eq(s.d[0].column, 9);
  ck_assert_int_eq(s.d[0].offset, -1);
  ck_assert_int_eq(sink.fatal_seen, 1); /* MDL-IO-001 is fatal */
  ck_assert_uint_eq(sink.counts[MDL_FATAL], 1);
  diag_sink_finish(&sink);
}
END_TEST

START_TEST(test_fold_repeats)
{
  mdl_options o;
  struct seen s;
  struct diag_sink sink;
  struct mdl_loc loc = loc_bin(0, NULL);
  options_for(&o, &s);
  o.max_per_rule = 2;
  ck_assert_int_eq(diag_sink_init(&sink, &o), 0);
  for (int i = 0; i < 5; i++)
    diag_emit(&sink, RULE_CORE_UNRECOGNISED_FORMAT, &loc, NULL, "%d", i);
  diag_emit(&sink, RULE_CORE_CONFIG_UNKNOWN_KEY, &loc, NULL, "x");
  ck_assert_uint_eq(s.n, 3); /* two of the first rule, one of the second */
  ck_assert_str_eq(s.d[0].actual, "0");
  ck_assert_str_eq(s.d[1].actual, "1");
  ck_assert_str_eq(s.d[2].rule->id, "MDL-CFG-002");
  ck_assert_uint_eq(sink.counts[MDL_ERROR], 6); /* counts include what was folded */
  diag_sink_finish(&sink);
  ck_assert_uint_eq(s.n, 4);
  ck_assert_str_eq(s.d[3].rule->id, "MDL-FMT-001");
  ck_assert_uint_eq(s.d[3].folded, 3);
  ck_assert_int_eq(s.d[3].severity, MDL_ERROR);
  ck_assert_int_eq(s.d[3].offset, -1);
  ck_assert_uint_eq(s.d[3].line, 0);
  ck_assert_ptr_nonnull(strstr(s.d[3].message, "3 more"));
}
END_TEST

START_TEST(test_no_folding_when_zero)
{
  mdl_options o;
  struct seen s;
  struct diag_sink sink;
  struct mdl_loc loc = loc_bin(0, NULL);
  options_for(&o, &s);
  o.max_per_rule = 0;
  ck_assert_int_eq(diag_sink_init(&sink, &o), 0);
  for (int i = 0; i < 40; i++)
    diag_emit(&sink, RULE_CORE_UNRECOGNISED_FORMAT, &loc, NULL, "%d", i);
  diag_sink_finish(&sink);
  ck_assert_uint_eq(s.n, 40);
  for (size_t i = 0; i < s.n; i++)
    ck_assert_uint_eq(s.d[i].folded, 0);
}
END_TEST

START_TEST(test_max_issues_truncates)
{
  mdl_options o;
  struct seen s;
  struct diag_sink sink;
  struct mdl_loc loc = loc_bin(4, NULL);
  options_for(&o, &s);
  o.max_issues = 3;
  ck_assert_int_eq(diag_sink_init(&sink, &o), 0);
  for (int i = 0; i < 3; i++)
    diag_emit(&sink, RULE_CORE_UNRECOGNISED_FORMAT, &loc, NULL, "%d", i);
  ck_assert_int_eq(sink.truncated, 0); /* exactly at the limit is not truncation */
  diag_emit(&sink, RULE_CORE_READ_FAILED, &loc, NULL, "late");
  diag_emit(&sink, RULE_CORE_UNRECOGNISED_FORMAT, &loc, NULL, "later");
  diag_sink_finish(&sink);
  ck_assert_uint_eq(s.n, 3);
  ck_assert_int_eq(sink.truncated, 1);
  ck_assert_uint_eq(sink.reported, 3);
  ck_assert_uint_eq(sink.counts[MDL_ERROR], 4);
  ck_assert_uint_eq(sink.counts[MDL_FATAL], 1); /* still counted, and still fatal */
  ck_assert_int_eq(sink.fatal_seen, 1);
}
END_TEST

START_TEST(test_max_issues_cuts_fold_summaries)
{
  mdl_options o;
  struct seen s;
  struct diag_sink sink;
  struct mdl_loc loc = loc_bin(4, NULL);
  options_for(&o, &s);
  o.max_issues = 1;
  o.max_per_rule = 1;
  ck_assert_int_eq(diag_sink_init(&sink, &o), 0);
  diag_emit(&sink, RULE_CORE_UNRECOGNISED_FORMAT, &loc, NULL, "a");
  diag_emit(&sink, RULE_CORE_UNRECOGNISED_FORMAT, &loc, NULL, "b");
  diag_sink_finish(&sink);
  ck_assert_uint_eq(s.n, 1);
  ck_assert_uint_eq(s.d[0].folded, 0);
  ck_assert_int_eq(sink.truncated, 1);
}
END_TEST

START_TEST(test_policy_ignore_and_override)
{
  mdl_options o;
  struct seen s;
  struct diag_sink sink;
  struct mdl_loc loc = loc_bin(0, NULL);
  mdl_policy *p = mdl_policy_new();
  ck_assert_ptr_nonnull(p);
  ck_assert_int_eq(mdl_policy_ignore(p, "MDL-FMT-001"), 0);
  ck_assert_int_eq(mdl_policy_override(p, "MDL-CFG-002", MDL_WARNING), 0);
  options_for(&o, &s);
  o.policy = p;
  ck_assert_int_eq(diag_sink_init(&sink, &o), 0);
  diag_emit(&sink, RULE_CORE_UNRECOGNISED_FORMAT, &loc, NULL, "ignored");
  diag_emit(&sink, RULE_CORE_CONFIG_UNKNOWN_KEY, &loc, NULL, "regraded");
  diag_sink_finish(&sink);
  ck_assert_uint_eq(s.n, 1);
  ck_assert_str_eq(s.d[0].rule->id, "MDL-CFG-002");
  ck_assert_int_eq(s.d[0].severity, MDL_WARNING);
  ck_assert_uint_eq(sink.counts[MDL_ERROR], 0); /* an ignored rule is not counted at all */
  ck_assert_uint_eq(sink.counts[MDL_WARNING], 1);
  ck_assert_uint_eq(diag_errors(&sink), 0);
  mdl_policy_free(p);
}
END_TEST

START_TEST(test_ignored_rule_does_not_fold)
{
  mdl_options o;
  struct seen s;
  struct diag_sink sink;
  struct mdl_loc loc = loc_bin(0, NULL);
  mdl_policy *p = mdl_policy_new();
  ck_assert_int_eq(mdl_policy_ignore(p, "MDL-FMT-*"), 0);
  options_for(&o, &s);
  o.policy = p;
  o.max_per_rule = 1;
  ck_assert_int_eq(diag_sink_init(&sink, &o), 0);
  for (int i = 0; i < 4; i++)
    diag_emit(&sink, RULE_CORE_UNRECOGNISED_FORMAT, &loc, NULL, "x");
  diag_sink_finish(&sink);
  ck_assert_uint_eq(s.n, 0); /* no fold summary for a rule that was never reported */
  mdl_policy_free(p);
}
END_TEST

START_TEST(test_strict_grading)
{
  /* every catalogued rule is reported at its severity, or its strict severity under --strict */
  for (int strict = 0; strict <= 1; strict++) {
    for (size_t i = 0; i < RULE_COUNT; i++) {
      mdl_options o;
      struct seen s;
      struct diag_sink sink;
      struct mdl_loc loc = loc_bin(0, NULL);
      const mdl_rule *r = mdl_rule_at(i);
      options_for(&o, &s);
      o.strict = strict;
      ck_assert_int_eq(diag_sink_init(&sink, &o), 0);
      diag_emit(&sink, (enum rule_index)i, &loc, NULL, NULL);
      diag_sink_finish(&sink);
      ck_assert_uint_eq(s.n, 1);
      ck_assert_int_eq(s.d[0].severity, strict ? r->strict_severity : r->severity);
    }
  }
}
END_TEST

START_TEST(test_override_applies_after_strict)
{
  mdl_options o;
  struct seen s;
  struct diag_sink sink;
  struct mdl_loc loc = loc_bin(0, NULL);
  mdl_policy *p = mdl_policy_new();
  ck_assert_int_eq(mdl_policy_override(p, "core", MDL_HINT), 0);
  options_for(&o, &s);
  o.policy = p;
  o.strict = 1;
  ck_assert_int_eq(diag_sink_init(&sink, &o), 0);
  diag_emit(&sink, RULE_CORE_READ_FAILED, &loc, NULL, NULL);
  diag_sink_finish(&sink);
  ck_assert_uint_eq(s.n, 1);
  ck_assert_int_eq(s.d[0].severity, MDL_HINT);
  ck_assert_int_eq(sink.fatal_seen, 0);
  ck_assert_uint_eq(sink.counts[MDL_HINT], 1);
  mdl_policy_free(p);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("diag");
  TCase *render = tcase_create("render");
  TCase *sink = tcase_create("sink");
  tcase_add_test(render, test_render_substitutes);
  tcase_add_test(render, test_render_bounded);
  tcase_add_test(render, test_locations);
  tcase_add_test(sink, test_emit_renders_catalogue_message);
  tcase_add_test(sink, test_emit_null_actual_expected);
  tcase_add_test(sink, test_fold_repeats);
  tcase_add_test(sink, test_no_folding_when_zero);
  tcase_add_test(sink, test_max_issues_truncates);
  tcase_add_test(sink, test_max_issues_cuts_fold_summaries);
  tcase_add_test(sink, test_policy_ignore_and_override);
  tcase_add_test(sink, test_ignored_rule_does_not_fold);
  tcase_add_test(sink, test_strict_grading);
  tcase_add_test(sink, test_override_applies_after_strict);
  suite_add_tcase(s, render);
  suite_add_tcase(s, sink);
  return unit_run(s);
}
