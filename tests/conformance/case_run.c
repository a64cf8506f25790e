/* case_run.c - run one conformance case (corpus/README.md) against the library.
 *
 * usage: case_run CASE.yaml                 run the case: exit 0 pass, 1 fail, 99 hard error
 *        case_run --dump-input CASE.yaml    print the input the case builds, as hex
 *        case_run --dump-tree CASE.yaml     print the files the CLI run lays out, one a line
 *        case_run --expected-ids CASE...    print "ID<TAB>CASE" for every expect entry
 *        case_run --rules                   print "ID<TAB>FORMAT" for every catalogued rule
 *
 * It is the LOG_COMPILER of the *.yaml tests: each case is one test in `make check`. A case with
 * a config, a compare input or a missing input runs through the mdlcheck binary (case_cli.c):
 * $MDLCHECK, else validator/mdlcheck two folders above this program. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case.h"
#include "case_check.h"
#include "../oom/alloc_fail.h"

static int usage(void)
{
  fprintf(stderr, "usage: case_run CASE.yaml | --dump-input CASE.yaml | --dump-tree CASE.yaml | "
                  "--expected-ids CASE... | --rules\n");
  return 99;
}

static int list_rules(void)
{
  for (size_t i = 0; i < mdl_rule_count(); i++) {
    const mdl_rule *r = mdl_rule_at(i);
    printf("%s\t%s\n", r->id, r->format);
  }
  return 0;
}

static int expected_ids(int argc, char **argv)
{
  int status = 0;
  for (int i = 0; i < argc; i++) {
    struct conf_case c;
    if (case_load(&c, argv[i]) < 0) {
      status = 1;
    } else {
      for (size_t k = 0; k < c.nexpects; k++)
        printf("%s\t%s\n", c.expects[k].id, argv[i]);
    }
    case_free(&c);
  }
  return status;
}

static int dump_input(const char *file)
{
  struct conf_case c;
  unsigned char *data;
  size_t size;
  int status = 1;
  if (case_load(&c, file) == 0 && c.errors == 0 &&
      case_build_input(&c, &c.input, &data, &size) == 0) {
    for (size_t i = 0; i < size; i++)
      printf("%02x", data[i]);
    printf("\n");
    free(data);
    status = 0;
  }
  case_free(&c);
  return status;
}

static void hex_print(const unsigned char *data, size_t size)
{
  for (size_t i = 0; i < size; i++)
    printf("%02x", data[i]);
}

/* What the CLI run of a case lays out, for other runners (web/test/api.test.mjs gives the same
 * tree to the JS API): tab-separated lines
 *   input NAME HEX        the input, named as mdlcheck sees it
 *   file PATH HEX         each `files` entry, PATH under the input's folder
 *   resources DIRS        the resources option (DIRS may be empty)
 *   option KEY VALUE      assume-format, profile, target, strict
 *   other WHAT            config, compare, convert, fix or missing: not a plain validation */
static int dump_tree(const char *file)
{
  struct conf_case c;
  unsigned char *data;
  size_t size;
  char name[256];
  int status = 1;
  if (case_load(&c, file) < 0 || c.errors)
    goto done;
  if (c.input.kind == INPUT_MISSING) {
    printf("other\tmissing\n");
  } else {
    if (case_build_input(&c, &c.input, &data, &size) < 0)
      goto done;
    cli_file_name(name, sizeof name, c.name ? c.name : c.input.path, "input");
    printf("input\t%s\t", name);
    hex_print(data, size);
    printf("\n");
    free(data);
  }
  for (size_t i = 0; i < c.nfiles; i++) {
    if (case_build_input(&c, &c.files[i], &data, &size) < 0)
      goto done;
    printf("file\t%s\t", c.files[i].name);
    hex_print(data, size);
    printf("\n");
    free(data);
  }
  if (c.has_resources)
    printf("resources\t%s\n", c.resources);
  if (c.assume_format)
    printf("option\tassume-format\t%s\n", c.assume_format);
  if (c.profile)
    printf("option\tprofile\t%s\n", c.profile);
  if (c.target)
    printf("option\ttarget\t%s\n", c.target);
  if (c.strict)
    printf("option\tstrict\ttrue\n");
  if (c.config != CONFIG_NONE)
    printf("other\tconfig\n");
  if (c.has_compare)
    printf("other\tcompare\n");
  if (c.convert)
    printf("other\tconvert\n");
  if (c.fix)
    printf("other\tfix\n");
  status = 0;
done:
  case_free(&c);
  return status;
}

static char mdlcheck_path[4096];

/* The binary the CLI-run cases use: $MDLCHECK, else ../../validator/mdlcheck from argv[0]
 * (make check runs tests/conformance/case_run from the top of the build tree). */
static const char *mdlcheck_find(const char *argv0)
{
  const char *env = getenv("MDLCHECK");
  const char *slash = strrchr(argv0, '/');
  if (env && *env)
    return env;
  snprintf(mdlcheck_path, sizeof mdlcheck_path, "%.*s%s../../validator/mdlcheck",
           slash ? (int)(slash - argv0 + 1) : 0, argv0, slash ? "" : "./");
  return mdlcheck_path;
}

/* Decode the input with the library; poses and the round trip use the model. Like run_cli:
 * return 0 with *failed set (the number of failed checks), or 99 on a hard error. */
static int run_library(struct conf_case *c, struct seen_list *seen, unsigned *failed)
{
  unsigned char *data = NULL;
  size_t size = 0;
  struct pipeline_run run;
  mdl_options opts;
  const char *hint;
  mdl_status st;

  if (case_build_input(c, &c->input, &data, &size) < 0) {
    fprintf(stderr, "%s: FAIL: the input could not be built\n", c->file);
    *failed = 1;
    return 0;
  }
  mdl_options_init(&opts);
  opts.assume_format = c->assume_format;
  opts.profile = c->profile;
  opts.targets = c->target;
  opts.strict = c->strict;
  opts.max_issues = 0;
  opts.max_per_rule = 0; /* every occurrence is seen: counts are exact */
  opts.on_diag = seen_collect;
  opts.user = seen;
  hint = c->name ? c->name : c->input.path;

  alloc_fail_arm(c->fail_allocation); /* counted from here: the decode's own allocations */
  st = pipeline_decode(data, size, hint, &opts, c->has_poses || c->roundtrip, &run);
  alloc_fail_arm(0);
  if (st != MDL_OK) {
    fprintf(stderr, "%s: internal error in the pipeline\n", c->file);
    pipeline_release(&run);
    free(data);
    return 99;
  }
  *failed = check_expectations(c, seen, &run.result);
  *failed += check_poses(c, &run);
  *failed += check_roundtrip(c, &run, &opts, hint);
  if (*failed)
    fprintf(stderr, "%s: FAIL (%u check%s failed; format %s, %zu input bytes)\n", c->file,
            *failed, *failed == 1 ? "" : "s", run.result.format, size);
  else
    printf("%s: PASS (format %s, %zu diagnostic%s)\n", c->file, run.result.format, seen->count,
           seen->count == 1 ? "" : "s");
  pipeline_release(&run);
  free(data);
  return 0;
}

/* Run mdlcheck on the case's files; its report gives the diagnostics. */
static int run_cli(struct conf_case *c, const char *mdlcheck, struct seen_list *seen,
                   unsigned *failed)
{
  struct cli_outcome out;
  mdl_result res;
  int rc = cli_run(c, mdlcheck, seen, &res, &out);
  if (rc == 0) {
    *failed = check_expectations(c, seen, &res);
    *failed += check_exit(c, &out);
    if (*failed) {
      fprintf(stderr, "%s: FAIL (%u check%s failed; mdlcheck %s, format %s, exit %d)\n", c->file,
              *failed, *failed == 1 ? "" : "s", c->has_compare ? "compare" : c->convert ? "convert" : c->fix ? "fix" : "validate",
              out.format, out.exit_code);
      if (out.err[0])
        fprintf(stderr, "mdlcheck's stderr:\n%s", out.err);
    } else {
      printf("%s: PASS (mdlcheck %s, format %s, exit %d, %zu diagnostic%s)\n", c->file,
             c->has_compare ? "compare" : c->convert ? "convert" : c->fix ? "fix" : "validate", out.format, out.exit_code, seen->count,
             seen->count == 1 ? "" : "s");
    }
  } else if (rc == 1) {
    *failed = 1;
  }
  cli_outcome_free(&out);
  return rc == 99 ? 99 : 0;
}

static int run_case(const char *file, const char *mdlcheck)
{
  struct conf_case c;
  struct seen_list seen = {NULL, 0};
  unsigned failed = 0;
  int rc;

  if (case_load(&c, file) < 0) {
    case_free(&c);
    return 99;
  }
  if (c.errors) {
    fprintf(stderr, "%s: FAIL: %d mistake%s in the case file\n", file, c.errors,
            c.errors == 1 ? "" : "s");
    case_free(&c);
    return 1;
  }
  printf("%s: %s\n", file, c.description);
  fflush(stdout); /* before anything on stderr: logs keep the order */
  if (case_uses_cli(&c))
    rc = run_cli(&c, mdlcheck, &seen, &failed);
  else
    rc = run_library(&c, &seen, &failed);
  if (rc == 0 && failed)
    seen_print(&seen, "diagnostics seen");
  seen_free(&seen);
  case_free(&c);
  return rc ? rc : failed ? 1 : 0;
}

int main(int argc, char **argv)
{
  setvbuf(stdout, NULL, _IOLBF, 0); /* keep stdout and stderr in order in the test log */
  if (argc == 2 && !strcmp(argv[1], "--rules"))
    return list_rules();
  if (argc >= 2 && !strcmp(argv[1], "--expected-ids"))
    return expected_ids(argc - 2, argv + 2);
  if (argc == 3 && !strcmp(argv[1], "--dump-input"))
    return dump_input(argv[2]);
  if (argc == 3 && !strcmp(argv[1], "--dump-tree"))
    return dump_tree(argv[2]);
  if (argc != 2 || argv[1][0] == '-')
    return usage();
  return run_case(argv[1], mdlcheck_find(argv[0]));
}
