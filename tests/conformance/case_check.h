/* case_check.h - what the runner saw (diagnostics) and the checks of a case against it. */
#ifndef CASE_CHECK_H
#define CASE_CHECK_H

#include "case.h"
#include "pipeline.h"

/* A copy of one diagnostic: the library's strings live only during the callback. */
struct seen_diag {
  const mdl_rule *rule;
  mdl_severity severity;
  char *message, *path;
  long long offset;
  unsigned line, column;
  unsigned long folded;
  long long cmp_offset; /* compare: where the compare input holds its side, or -1 */
  unsigned cmp_line;    /* ... or its line, or 0 */
  int matched; /* matched by at least one expect entry */
};

struct seen_list {
  struct seen_diag *items;
  size_t count;
};

/* mdl_diag_fn collecting into a struct seen_list. */
void seen_collect(const mdl_diag *d, void *user);
/* Append a diagnostic copied from elsewhere (mdlcheck's report); strings are copied. */
struct seen_diag *seen_add(struct seen_list *l, const mdl_rule *rule, mdl_severity severity,
                           const char *message, const char *path);
void seen_free(struct seen_list *l);
void seen_print(const struct seen_list *l, const char *title);

/* Each returns the number of failed checks, printed to stderr. */
unsigned check_expectations(struct conf_case *c, struct seen_list *seen, const mdl_result *res);

/* What a run of the mdlcheck binary gave (case_cli.c). */
struct cli_outcome {
  int exit_code;      /* -1000 - N: killed by signal N */
  char format[64];    /* the report's format (the first file's for compare), or "" */
  char *out, *err;    /* its stdout and stderr, NUL-terminated */
};

/* Run the case through the mdlcheck binary at `mdlcheck`: write the input (and compare input,
 * config) to a temporary folder, run `mdlcheck [compare] --format=json --max-per-rule=0 ...`,
 * and read its report (and the configuration's diagnostics on stderr) into seen and res.
 * Return 0, 1 after printing why the run is not usable (the case fails), or 99 on a hard
 * error. */
int cli_run(struct conf_case *c, const char *mdlcheck, struct seen_list *seen, mdl_result *res,
            struct cli_outcome *out);
void cli_outcome_free(struct cli_outcome *out);
/* The file name mdlcheck sees for a side (its extension is the name hint): the last component
 * of hint, or fallback when there is none. */
void cli_file_name(char *out, size_t cap, const char *hint, const char *fallback);
/* The exit-code check; returns the number of failed checks. */
unsigned check_exit(struct conf_case *c, const struct cli_outcome *out);
unsigned check_poses(struct conf_case *c, const struct pipeline_run *run);
unsigned check_roundtrip(struct conf_case *c, const struct pipeline_run *run,
                         const mdl_options *options, const char *name_hint);

#endif
