/* test_fix.c - fix's own refusals (core/fix.h) where no corpus input makes them: a loss its own
 * writer announces, and a repaired finding the rewrite did not remove, are each MDL-FIX-002 and
 * stop the fix (spec/formats/core.md CORE 7.2). */
#include <string.h>

#include "fix.h"
#include "unit.h"
#include "write_loss.h"

/* A sink collecting into f. */
static void sink_on(struct diag_sink *sink, mdl_options *o, struct report_file *f)
{
  mdl_options_init(o);
  o->on_diag = report_collect;
  o->user = f;
  diag_sink_init(sink, o);
}

static int has(const struct report_file *f, const char *id)
{
  for (size_t k = 0; k < f->nmsgs; k++)
    if (!strcmp(f->msgs[k].rule->id, id))
      return 1;
  return 0;
}

START_TEST(own_writer_loss_refused)
{
  struct report rep;
  struct report_file *f;
  struct diag_sink sink;
  struct write_losses losses;
  struct convert_fix fx;
  mdl_options o;
  char why[200];
  report_init(&rep);
  f = report_add_file(&rep, "out.iqm");
  sink_on(&sink, &o, f);
  memset(&fx, 0, sizeof fx);
  memset(&losses, 0, sizeof losses);
  ck_assert_int_eq(fix_written(&fx, &losses, &sink, why, sizeof why), 0); /* nothing announced */
  losses.n = 1;
  losses.item[0].rule = RULE_CORE_CONVERT_TAGS;
  losses.item[0].proof = RULE_CORE_COMPARE_TAG_COUNT;
  ck_assert_int_eq(fix_written(&fx, &losses, &sink, why, sizeof why), -1);
  diag_sink_finish(&sink);
  ck_assert(has(f, "MDL-FIX-002"));
  ck_assert_ptr_nonnull(strstr(why, "MDL-CNV-009"));
  report_free(&rep);
}
END_TEST

START_TEST(repaired_finding_left_refused)
{
  struct report rep;
  struct report_file *out, *list;
  struct diag_sink sink, emit;
  struct convert_fix fx;
  mdl_options o, eo;
  struct mdl_loc loc = loc_bin(944, "adjacency[0].triangle[0]");
  report_init(&rep);
  out = report_add_file(&rep, "out.iqm");
  list = report_add_file(&rep, "list");
  /* the re-decoded bytes still flag adjacency symmetry */
  sink_on(&emit, &eo, out);
  diag_emit(&emit, RULE_IQM_ADJACENCY_SYMMETRY, &loc, "adjacency[2] listing 0", "%u", 2u);
  diag_sink_finish(&emit);
  memset(&fx, 0, sizeof fx);
  sink_on(&sink, &o, list);
  ck_assert_int_eq(fix_proved(&fx, out, &sink), 0); /* IN did not have it: not fix's concern */
  fx.found[RULE_IQM_ADJACENCY_SYMMETRY] = 1;
  ck_assert_int_eq(fix_proved(&fx, out, &sink), -1);
  diag_sink_finish(&sink);
  ck_assert(has(list, "MDL-FIX-002"));
  report_free(&rep);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("fix");
  TCase *tc = tcase_create("refusals");
  tcase_add_test(tc, own_writer_loss_refused);
  tcase_add_test(tc, repaired_finding_left_refused);
  suite_add_tcase(s, tc);
  return unit_run(s);
}
