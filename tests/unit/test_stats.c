/* test_stats.c - the report's per-file stats: what validation alone counts (keep_frames 0, where
 * decoders skip building parts of the model) must be what a full decode's model holds, or say
 * it does not know; a decode that gives up has no counts at all. */
#include <dirent.h>
#include <string.h>

#include "input.h"
#include "pipeline.h"
#include "unit.h"

static unsigned long files_checked;

static void stats_of(const struct mdl_input *in, const char *path, int keep, mdl_stats *out)
{
  struct pipeline_run run;
  ck_assert_int_eq(pipeline_decode(in->data, in->size, path, NULL, keep, &run), MDL_OK);
  *out = run.result.stats;
  pipeline_release(&run);
}

static void check_file(const char *path)
{
  struct mdl_input in;
  mdl_stats v, full;
  const unsigned long long *pv = &v.joints, *pf = &full.joints;
  if (input_open(path, &in, 0) != 0)
    ck_abort_msg("cannot read %s", path);
  stats_of(&in, path, 0, &v);
  stats_of(&in, path, 1, &full);
  input_close(&in);
  ck_assert_msg(v.decoded == full.decoded, "%s: decoded %d vs %d", path, v.decoded, full.decoded);
  if (!v.decoded)
    return;
  files_checked++;
  ck_assert_int_eq(v.partial, full.partial);
  /* joints .. frames are consecutive members of mdl_stats */
  for (int k = 0; k < 6; k++) {
    ck_assert_msg(pf[k] != MDL_STAT_UNKNOWN, "%s: count %d unknown after a full decode", path, k);
    ck_assert_msg(pv[k] == MDL_STAT_UNKNOWN || pv[k] == pf[k], "%s: count %d is %llu, the model has %llu",
                  path, k, pv[k], pf[k]);
  }
  ck_assert_uint_eq(v.num_extra, full.num_extra);
  for (unsigned i = 0; i < v.num_extra; i++) {
    ck_assert_str_eq(v.extra[i].name, full.extra[i].name);
    ck_assert_msg(v.extra[i].value == full.extra[i].value, "%s: %s", path, v.extra[i].name);
  }
}

static void check_dir(const char *dir)
{
  DIR *d = opendir(dir);
  struct dirent *e;
  if (!d)
    return;
  while ((e = readdir(d))) {
    char path[4096];
    if (e->d_name[0] == '.' || strstr(e->d_name, ".md"))
      continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (e->d_type == DT_DIR)
      check_dir(path);
    else
      check_file(path);
  }
  closedir(d);
}

START_TEST(validation_counts_are_the_models)
{
  files_checked = 0;
  check_dir(TOP_SRCDIR "/examples");
  check_dir(SAMPLES);
  ck_assert_uint_ge(files_checked, 8); /* the examples at least */
}
END_TEST

START_TEST(no_counts_when_decoding_gave_up)
{
  static const unsigned char cut[] = "INTERQUAKEMODEL\0\2\0\0\0";
  struct pipeline_run run;
  ck_assert_int_eq(pipeline_decode(cut, sizeof cut - 1, "cut.iqm", NULL, 0, &run), MDL_OK);
  ck_assert_int_eq(run.decoded, 0);
  ck_assert_int_eq(run.result.stats.decoded, 0);
  ck_assert_uint_eq(run.result.stats.joints, 0);
  pipeline_release(&run);
}
END_TEST

START_TEST(egg_counts_groups_and_tables)
{
  static const char egg[] =
    "<Group> a { <Group> b { } }\n"
    "<Table> { <Bundle> r { <Table> \"<skeleton>\" { } } }\n";
  struct pipeline_run run;
  ck_assert_int_eq(pipeline_decode(egg, sizeof egg - 1, "t.egg", NULL, 0, &run), MDL_OK);
  ck_assert_int_eq(run.result.stats.decoded, 1);
  ck_assert_uint_eq(run.result.stats.num_extra, 2);
  ck_assert_str_eq(run.result.stats.extra[0].name, "groups");
  ck_assert_uint_eq(run.result.stats.extra[0].value, 2);
  ck_assert_str_eq(run.result.stats.extra[1].name, "tables");
  ck_assert_uint_eq(run.result.stats.extra[1].value, 2);
  ck_assert_uint_eq(run.result.stats.triangles, MDL_STAT_UNKNOWN);
  pipeline_release(&run);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("stats");
  TCase *tc = tcase_create("stats");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, validation_counts_are_the_models);
  tcase_add_test(tc, no_counts_when_decoding_gave_up);
  tcase_add_test(tc, egg_counts_groups_and_tables);
  suite_add_tcase(s, tc);
  return unit_run(s);
}
