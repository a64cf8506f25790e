/* test_policy.c - rule selection and re-grading: patterns (id, prefix*, format name), unknown
 * patterns refused, ignore over only, the last override winning, the tool's own rules. */
#include <string.h>

#include "mdlcheck.h"
#include "unit.h"

/* Rules made up for the test: mdl_policy_apply only reads id, format and severity. */
static const mdl_rule jnt2 = {"IQM-JNT-002", "joint-parent-range", "iqm", MDL_ERROR,
                              "2", "", "", "", "", "", "", MDL_ERROR, "", "", "", "", ""};
static const mdl_rule va5 = {"IQM-VA-005", "vertex-format", "iqm", MDL_WARNING,
                             "2", "", "", "", "", "", "", MDL_ERROR, "", "", "", "", ""};
static const mdl_rule iqe1 = {"IQE-NUM-001", "number", "iqe", MDL_ERROR,
                              "all", "", "", "", "", "", "", MDL_ERROR, "", "", "", "", ""};
static const mdl_rule core1 = {"MDL-FMT-001", "unrecognised-format", "core", MDL_ERROR,
                               "all", "", "", "", "", "", "", MDL_ERROR, "", "", "", "", ""};

START_TEST(test_empty_policy_keeps_defaults)
{
  mdl_policy *p = mdl_policy_new();
  ck_assert_ptr_nonnull(p);
  ck_assert_int_eq(mdl_policy_apply(p, &jnt2), MDL_ERROR);
  ck_assert_int_eq(mdl_policy_apply(p, &va5), MDL_WARNING);
  mdl_policy_free(p);
  mdl_policy_free(NULL); /* harmless */
}
END_TEST

START_TEST(test_unknown_patterns_refused)
{
  mdl_policy *p = mdl_policy_new();
  ck_assert_int_eq(mdl_policy_ignore(p, "NOPE-XYZ-001"), -1);
  ck_assert_int_eq(mdl_policy_only(p, "nosuchformat"), -1);
  ck_assert_int_eq(mdl_policy_override(p, "ZZZ-*", MDL_INFO), -1);
  ck_assert_int_eq(mdl_policy_ignore(p, ""), -1);
  /* a refused pattern leaves the policy as it was */
  ck_assert_int_eq(mdl_policy_apply(p, &core1), MDL_ERROR);
  /* catalogued forms are accepted: id, prefix, format name, a bare "*" */
  ck_assert_int_eq(mdl_policy_ignore(p, "MDL-FMT-001"), 0);
  ck_assert_int_eq(mdl_policy_ignore(p, "MDL-CFG-*"), 0);
  ck_assert_int_eq(mdl_policy_ignore(p, "core"), 0);
  ck_assert_int_eq(mdl_policy_override(p, "*", MDL_INFO), 0);
  mdl_policy_free(p);
}
END_TEST

START_TEST(test_bad_severity_refused)
{
  mdl_policy *p = mdl_policy_new();
  ck_assert_int_eq(mdl_policy_override(p, "MDL-FMT-001", MDL_SEVERITY_COUNT), -1);
  ck_assert_int_eq(mdl_policy_override(p, "MDL-FMT-001", (mdl_severity)-1), -1);
  mdl_policy_free(p);
}
END_TEST

START_TEST(test_ignore_patterns)
{
  mdl_policy *p = mdl_policy_new();
  ck_assert_int_eq(mdl_policy_ignore(p, "MDL-FMT-001"), 0);
  ck_assert_int_eq(mdl_policy_apply(p, &core1), MDL_SEVERITY_COUNT);
  ck_assert_int_eq(mdl_policy_apply(p, &jnt2), MDL_ERROR);
  mdl_policy_free(p);

  p = mdl_policy_new();
  ck_assert_int_eq(mdl_policy_ignore(p, "MDL-*"), 0);
  ck_assert_int_eq(mdl_policy_apply(p, &core1), MDL_SEVERITY_COUNT);
  ck_assert_int_eq(mdl_policy_apply(p, &iqe1), MDL_ERROR);
  mdl_policy_free(p);
}
END_TEST

START_TEST(test_prefix_and_format_matching)
{
  mdl_policy *p = mdl_policy_new();
  /* IQM rules exist in every build, so "iqm" and "IQM-*" are known patterns */
  ck_assert_int_eq(mdl_policy_override(p, "iqm", MDL_HINT), 0);
  ck_assert_int_eq(mdl_policy_apply(p, &jnt2), MDL_HINT);
  ck_assert_int_eq(mdl_policy_apply(p, &va5), MDL_HINT);
  ck_assert_int_eq(mdl_policy_apply(p, &iqe1), MDL_ERROR);
  mdl_policy_free(p);

  /* a prefix is a prefix of the id, nothing else: "MDL-FMT-00*" must not match by format */
  p = mdl_policy_new();
  ck_assert_int_eq(mdl_policy_override(p, "MDL-FMT-00*", MDL_INFO), 0);
  ck_assert_int_eq(mdl_policy_apply(p, &core1), MDL_INFO);
  ck_assert_int_eq(mdl_policy_apply(p, &jnt2), MDL_ERROR);
  mdl_policy_free(p);
}
END_TEST

START_TEST(test_exact_id_is_not_prefix)
{
  static const mdl_rule longer = {"MDL-FMT-0010", "x", "core", MDL_ERROR, "", "", "", "", "", "",
                                  "", MDL_ERROR, "", "", "", "", ""};
  mdl_policy *p = mdl_policy_new();
  ck_assert_int_eq(mdl_policy_ignore(p, "MDL-FMT-001"), 0);
  ck_assert_int_eq(mdl_policy_apply(p, &longer), MDL_ERROR);
  mdl_policy_free(p);
}
END_TEST

START_TEST(test_only_selects)
{
  mdl_policy *p = mdl_policy_new();
  ck_assert_int_eq(mdl_policy_only(p, "MDL-FMT-001"), 0);
  ck_assert_int_eq(mdl_policy_apply(p, &core1), MDL_ERROR);
  /* not selected: dropped */
  ck_assert_int_eq(mdl_policy_apply(p, &jnt2), MDL_SEVERITY_COUNT);
  ck_assert_int_eq(mdl_policy_apply(p, &iqe1), MDL_SEVERITY_COUNT);
  mdl_policy_free(p);
}
END_TEST

START_TEST(test_only_never_hides_core)
{
  static const mdl_rule io = {"MDL-IO-001", "read-failed", "core", MDL_FATAL, "", "", "", "", "",
                              "", "", MDL_FATAL, "", "", "", "", ""};
  mdl_policy *p = mdl_policy_new();
  ck_assert_int_eq(mdl_policy_only(p, "iqm"), 0);
  ck_assert_int_eq(mdl_policy_apply(p, &jnt2), MDL_ERROR);
  ck_assert_int_eq(mdl_policy_apply(p, &iqe1), MDL_SEVERITY_COUNT);
  /* an unreadable or unrecognised file must still be reported under `only: [iqm]` */
  ck_assert_int_eq(mdl_policy_apply(p, &io), MDL_FATAL);
  ck_assert_int_eq(mdl_policy_apply(p, &core1), MDL_ERROR);
  mdl_policy_free(p);
}
END_TEST

/* The tool's findings (a compare difference, an announced loss, a missing texture) follow `only`;
 * what says an input was not checked (a compare side that does not decode, a refused writer)
 * does not. */
START_TEST(test_only_selects_core_findings)
{
  mdl_policy *p = mdl_policy_new();
  const char *hidden[] = {"MDL-CMP-001", "MDL-CMP-014", "MDL-CNV-003", "MDL-RES-001"};
  const char *kept[] = {"MDL-CMP-013", "MDL-CNV-001", "MDL-MEM-001", "MDL-CFG-002", "MDL-IO-002"};
  ck_assert_int_eq(mdl_policy_only(p, "MDL-CMP-009"), 0);
  ck_assert_int_eq(mdl_policy_apply(p, mdl_rule_find("MDL-CMP-009")), MDL_ERROR);
  for (size_t i = 0; i < sizeof hidden / sizeof *hidden; i++) {
    ck_assert_ptr_nonnull(mdl_rule_find(hidden[i]));
    ck_assert_msg(mdl_policy_apply(p, mdl_rule_find(hidden[i])) == MDL_SEVERITY_COUNT, "%s shown", hidden[i]);
  }
  for (size_t i = 0; i < sizeof kept / sizeof *kept; i++) {
    ck_assert_ptr_nonnull(mdl_rule_find(kept[i]));
    mdl_rule copy = *mdl_rule_find(kept[i]); /* as the sink passes it, graded */
    ck_assert_msg(mdl_policy_apply(p, &copy) != MDL_SEVERITY_COUNT, "%s hidden", kept[i]);
  }
  mdl_policy_free(p);
}
END_TEST

START_TEST(test_ignore_beats_only_and_override)
{
  /* patterns must match a catalogued rule: IQM-HDR-001 (magic) is in every build */
  static const mdl_rule hdr = {"IQM-HDR-009", "header", "iqm", MDL_ERROR, "2", "", "", "", "", "",
                               "", MDL_ERROR, "", "", "", "", ""};
  mdl_policy *p = mdl_policy_new();
  ck_assert_int_eq(mdl_policy_only(p, "iqm"), 0);
  ck_assert_int_eq(mdl_policy_override(p, "IQM-HDR-*", MDL_WARNING), 0);
  ck_assert_int_eq(mdl_policy_apply(p, &hdr), MDL_WARNING);
  ck_assert_int_eq(mdl_policy_ignore(p, "IQM-*"), 0);
  ck_assert_int_eq(mdl_policy_apply(p, &hdr), MDL_SEVERITY_COUNT);
  ck_assert_int_eq(mdl_policy_apply(p, &jnt2), MDL_SEVERITY_COUNT);
  mdl_policy_free(p);
}
END_TEST

START_TEST(test_last_override_wins)
{
  mdl_policy *p = mdl_policy_new();
  ck_assert_int_eq(mdl_policy_override(p, "iqm", MDL_INFO), 0);
  ck_assert_int_eq(mdl_policy_override(p, "IQM-*", MDL_FATAL), 0);
  ck_assert_int_eq(mdl_policy_apply(p, &jnt2), MDL_FATAL);
  mdl_policy_free(p);
  p = mdl_policy_new();
  ck_assert_int_eq(mdl_policy_override(p, "IQM-*", MDL_FATAL), 0);
  ck_assert_int_eq(mdl_policy_override(p, "iqm", MDL_INFO), 0);
  ck_assert_int_eq(mdl_policy_apply(p, &jnt2), MDL_INFO);
  mdl_policy_free(p);
}
END_TEST

START_TEST(test_override_uses_graded_severity)
{
  /* the sink passes a copy graded for --strict; with no override that grade comes back */
  mdl_rule graded = va5;
  mdl_policy *p = mdl_policy_new();
  graded.severity = graded.strict_severity;
  ck_assert_int_eq(mdl_policy_apply(p, &graded), MDL_ERROR);
  mdl_policy_free(p);
}
END_TEST

START_TEST(test_many_entries)
{
  /* the entry table grows past its first allocation */
  mdl_policy *p = mdl_policy_new();
  for (int i = 0; i < 100; i++)
    ck_assert_int_eq(mdl_policy_override(p, "MDL-FMT-001", (mdl_severity)(i % MDL_SEVERITY_COUNT)), 0);
  ck_assert_int_eq(mdl_policy_apply(p, &core1), (mdl_severity)(99 % MDL_SEVERITY_COUNT));
  mdl_policy_free(p);
}
END_TEST

START_TEST(test_severity_names)
{
  static const char *const names[] = {"fatal", "error", "warning", "info", "hint"};
  for (int i = 0; i < MDL_SEVERITY_COUNT; i++) {
    ck_assert_str_eq(mdl_severity_name((mdl_severity)i), names[i]);
    ck_assert_int_eq(mdl_severity_parse(names[i]), i);
  }
  ck_assert_int_eq(mdl_severity_parse("Error"), MDL_SEVERITY_COUNT);
  ck_assert_int_eq(mdl_severity_parse(""), MDL_SEVERITY_COUNT);
  ck_assert_str_eq(mdl_severity_name(MDL_SEVERITY_COUNT), "none");
}
END_TEST

/* A renamed rule keeps its former id as an alias: lookups, exact patterns and prefixes that
 * named it still reach it (configs written before the rename). */
START_TEST(test_alias_matches_as_id)
{
  const mdl_rule *r = mdl_rule_find("IQE-CMP-002"), *pose = mdl_rule_find("MDL-CMP-009");
  mdl_policy *p = mdl_policy_new();
  ck_assert_ptr_nonnull(r);
  ck_assert_ptr_nonnull(pose);
  ck_assert_str_eq(r->id, "MDL-CMP-002");
  ck_assert_str_eq(r->alias, "IQE-CMP-002");
  ck_assert_int_eq(mdl_policy_override(p, "IQE-CMP-002", MDL_WARNING), 0);
  ck_assert_int_eq(mdl_policy_apply(p, r), MDL_WARNING);
  ck_assert_int_eq(mdl_policy_apply(p, pose), MDL_ERROR);
  ck_assert_int_eq(mdl_policy_ignore(p, "IQE-CMP-*"), 0);
  ck_assert_int_eq(mdl_policy_apply(p, pose), MDL_SEVERITY_COUNT);
  mdl_policy_free(p);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("policy");
  TCase *t = tcase_create("policy");
  tcase_add_test(t, test_empty_policy_keeps_defaults);
  tcase_add_test(t, test_only_selects_core_findings);
  tcase_add_test(t, test_unknown_patterns_refused);
  tcase_add_test(t, test_bad_severity_refused);
  tcase_add_test(t, test_ignore_patterns);
  tcase_add_test(t, test_prefix_and_format_matching);
  tcase_add_test(t, test_exact_id_is_not_prefix);
  tcase_add_test(t, test_only_selects);
  tcase_add_test(t, test_only_never_hides_core);
  tcase_add_test(t, test_ignore_beats_only_and_override);
  tcase_add_test(t, test_last_override_wins);
  tcase_add_test(t, test_override_uses_graded_severity);
  tcase_add_test(t, test_many_entries);
  tcase_add_test(t, test_severity_names);
  tcase_add_test(t, test_alias_matches_as_id);
  suite_add_tcase(s, t);
  return unit_run(s);
}
