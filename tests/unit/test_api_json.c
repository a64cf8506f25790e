/* test_api_json.c - the JSON entry points and the buffer entry point's size bound (public API). */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "mdlcheck.h"
#include "unit.h"

static size_t count_of(const char *text, const char *word)
{
  size_t n = 0;
  for (const char *p = text; (p = strstr(p, word)); p += strlen(word))
    n++;
  return n;
}

START_TEST(test_rules_json_lists_the_catalogue)
{
  char *json = mdl_rules_json();
  ck_assert_ptr_nonnull(json);
  ck_assert_ptr_nonnull(strstr(json, "\"rules\""));
  ck_assert_uint_eq(count_of(json, "\"strict_severity\""), mdl_rule_count());
  ck_assert_ptr_nonnull(strstr(json, "\"MDL-IO-002\""));
  mdl_string_free(json);
}
END_TEST

struct seen {
  unsigned n;
  char id[32];
};

static void on_diag(const mdl_diag *d, void *user)
{
  struct seen *s = user;
  if (!s->n++)
    snprintf(s->id, sizeof s->id, "%s", d->rule->id);
}

/* A caller's buffer is an input like a file: over max_input_size it is not validated. */
/* An IQE of vertex lines alone is one implicit mesh; its record once came from memory that was
 * not cleared, and the model view gave it a span at whatever line number was there (review of
 * issue 26's IQE changes). Allocations are filled with 0xa5 (glibc's M_PERTURB) so that a
 * record left uncleared shows it. */
START_TEST(test_implicit_iqe_mesh_has_no_stray_span)
{
  static const char iqe[] = "# Inter-Quake Export\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nvp 0 0 1\nvp 1 0 1\nvp 0 1 1\n";
  mdl_status st;
  char err[256], *json;
#ifdef M_PERTURB
  mallopt(M_PERTURB, 0x5a); /* glibc: every allocation filled with 0xa5, not left as it was */
#endif
  json = mdl_model_buffer_json(iqe, sizeof iqe - 1, "v.iqe", NULL, &st, err, sizeof err);
  ck_assert_int_eq(st, MDL_OK);
  ck_assert_ptr_nonnull(json);
  ck_assert_msg(!strstr(json, "\"kind\":\"mesh\",\"index\":0,\"count\":1,\"line\""),
                "the implicit mesh has a span: %.400s", strstr(json, "\"kind\":\"mesh\""));
  mdl_string_free(json);
}
END_TEST

START_TEST(test_buffer_over_the_bound_is_refused)
{
  static const char iqe[] = "# Inter-Quake Export\nmesh m\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 2\n";
  mdl_options o;
  mdl_result r;
  struct seen s = {0, ""};
  mdl_options_init(&o);
  mdl_result_init(&r);
  o.on_diag = on_diag;
  o.user = &s;
  o.max_input_size = sizeof iqe - 2;
  ck_assert_int_eq(mdl_validate_buffer(iqe, sizeof iqe - 1, "a.iqe", &o, &r), MDL_EIO);
  ck_assert_uint_eq(r.counts[MDL_FATAL], 1);
  ck_assert_str_eq(s.id, "MDL-IO-002");
  ck_assert_str_eq(r.format, "unknown");
  s.n = 0;
  o.max_input_size = sizeof iqe - 1; /* exactly the limit: validated */
  ck_assert_int_eq(mdl_validate_buffer(iqe, sizeof iqe - 1, "a.iqe", &o, &r), MDL_OK);
  ck_assert_str_eq(r.format, "iqe");
  ck_assert_uint_eq(r.counts[MDL_FATAL], 0);
}
END_TEST

START_TEST(test_buffer_json_over_the_bound)
{
  static const char *const settings[] = {"max_input_size=4", NULL};
  mdl_status st = MDL_EINTERNAL;
  char *json = mdl_validate_buffer_json("# Inter-Quake Export\n", 21, "a.iqe", settings, &st, NULL, 0);
  ck_assert_int_eq(st, MDL_OK);
  ck_assert_ptr_nonnull(json);
  ck_assert_ptr_nonnull(strstr(json, "\"id\":\"MDL-IO-002\""));
  ck_assert_ptr_nonnull(strstr(json, "\"verdict\":\"invalid\""));
  mdl_string_free(json);
}
END_TEST

/* poses bound a buffer as the CLI's poses a file of its size: EIO, the limit named */
START_TEST(test_poses_buffer_over_the_bound)
{
  static const char *const settings[] = {"max_input_size=4", NULL};
  char error[256];
  mdl_status st = MDL_OK;
  char *json = mdl_poses_buffer_json("# Inter-Quake Export\n", 21, "a.iqe", settings, &st, error, sizeof error);
  ck_assert_ptr_null(json);
  ck_assert_int_eq(st, MDL_EIO);
  ck_assert_ptr_nonnull(strstr(error, "input size limit of 4 bytes"));
}
END_TEST

/* The typos the CLI refuses with exit 2 are refused by the library's settings too (MDL_EINVAL and
 * the same reason): one parser reads every face's values (core/settings.c). */
START_TEST(test_settings_refused_as_the_cli_refuses)
{
  static const struct {
    const char *setting, *words;
  } cases[] = {
    {"profile=pandaa", "unknown profile 'pandaa'"},
    {"no_such_key=1", "unknown setting 'no_such_key'"},
    {"max_issues=12x", "max_issues takes a count, not '12x'"},
    {"max_per_rule=-1", "max_per_rule takes a count, not '-1'"},
    {"strict=maybe", "strict takes true or false, not 'maybe'"},
    {"fail_on=loud", "unknown severity 'loud' for fail_on"},
    {"assume_format=obj", "unknown format 'obj'"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *settings[] = {cases[i].setting, NULL};
    char error[512] = "";
    mdl_status st = MDL_OK;
    char *json = mdl_validate_buffer_json("# Inter-Quake Export\n", 21, "a.iqe", settings, &st,
                                          error, sizeof error);
    ck_assert_msg(json == NULL, "%s accepted", cases[i].setting);
    ck_assert_int_eq(st, MDL_EINVAL);
    ck_assert_msg(strstr(error, cases[i].words) != NULL, "%s: %s", cases[i].setting, error);
  }
  {
    const char *settings[] = {"profile=panda", "strict=true", "max_issues=+7", NULL};
    mdl_status st = MDL_EINVAL;
    char *json = mdl_validate_buffer_json("# Inter-Quake Export\n", 21, "a.iqe", settings, &st,
                                          NULL, 0);
    ck_assert_ptr_nonnull(json);
    ck_assert_int_eq(st, MDL_OK);
    mdl_string_free(json);
  }
}
END_TEST

/* The declared X42 layout is a setting (x42_layout=), checked at the start as the CLI checks
 * --x42-layout; the library reads no environment: $MDLCHECK_X42_LAYOUT is the tool's. */
START_TEST(test_x42_layout_is_a_setting_not_the_environment)
{
  const char *none[] = {NULL};
  const char *named[] = {"x42_layout=/nonexistent/layout.yaml", NULL};
  char error[512] = "";
  mdl_status st = MDL_EINVAL;
  char *json;
  setenv("MDLCHECK_X42_LAYOUT", "/nonexistent/layout.yaml", 1);
  json = mdl_validate_buffer_json("# Inter-Quake Export\n", 21, "a.iqe", none, &st, error, sizeof error);
  unsetenv("MDLCHECK_X42_LAYOUT");
  ck_assert_msg(json != NULL && st == MDL_OK, "the library read the environment: %s", error);
  mdl_string_free(json);
  json = mdl_validate_buffer_json("# Inter-Quake Export\n", 21, "a.iqe", named, &st, error, sizeof error);
  ck_assert_msg(json == NULL && st == MDL_EINVAL, "a missing x42_layout file was accepted");
  ck_assert_msg(strstr(error, "/nonexistent/layout.yaml") != NULL, "%s", error);
}
END_TEST

/* The structs a caller allocates carry their size: a caller built against another layout (an
 * older, shorter mdl_options; a result never initialised) is refused before a field is read. */
START_TEST(test_struct_sizes_are_checked)
{
  static const char iqe[] = "# Inter-Quake Export\n";
  mdl_options o;
  mdl_result r;
  int major = -1, minor = -1, patch = -1;
  char version[32];
  mdl_options_init(&o);
  mdl_result_init(&r);
  ck_assert_uint_eq(o.size, sizeof o);
  ck_assert_uint_eq(r.size, sizeof r);
  ck_assert_int_eq(mdl_validate_buffer(iqe, sizeof iqe - 1, "a.iqe", &o, &r), MDL_OK);
  ck_assert_str_eq(r.format, "iqe");
  ck_assert_uint_eq(r.size, sizeof r); /* the library keeps it */
  o.size = sizeof o - sizeof(const char *); /* the layout before targets was appended */
  mdl_result_init(&r);
  ck_assert_int_eq(mdl_validate_buffer(iqe, sizeof iqe - 1, "a.iqe", &o, &r), MDL_EINVAL);
  ck_assert_int_eq(mdl_validate_file("/nonexistent.iqe", &o, &r), MDL_EINVAL);
  o.size = sizeof o + 8; /* a newer caller: fields this library cannot honour */
  ck_assert_int_eq(mdl_validate_buffer(iqe, sizeof iqe - 1, "a.iqe", &o, &r), MDL_EINVAL);
  mdl_options_init(&o);
  r.size = 0; /* never initialised */
  ck_assert_int_eq(mdl_validate_buffer(iqe, sizeof iqe - 1, "a.iqe", &o, &r), MDL_EINVAL);
  ck_assert_int_eq(mdl_validate_buffer(iqe, sizeof iqe - 1, "a.iqe", NULL, NULL), MDL_OK);
  ck_assert_str_eq(mdl_version(&major, &minor, &patch), MDL_VERSION_STRING);
  snprintf(version, sizeof version, "%d.%d.%d", major, minor, patch);
  ck_assert_str_eq(version, MDL_VERSION_STRING);
  ck_assert_int_eq(major, MDL_VERSION_MAJOR);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("api_json");
  TCase *t = tcase_create("api");
  tcase_add_test(t, test_rules_json_lists_the_catalogue);
  tcase_add_test(t, test_buffer_over_the_bound_is_refused);
  tcase_add_test(t, test_implicit_iqe_mesh_has_no_stray_span);
  tcase_add_test(t, test_buffer_json_over_the_bound);
  tcase_add_test(t, test_poses_buffer_over_the_bound);
  tcase_add_test(t, test_settings_refused_as_the_cli_refuses);
  tcase_add_test(t, test_struct_sizes_are_checked);
  tcase_add_test(t, test_x42_layout_is_a_setting_not_the_environment);
  suite_add_tcase(s, t);
  return unit_run(s);
}
