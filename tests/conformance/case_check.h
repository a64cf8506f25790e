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
  int matched; /* matched by at least one expect entry */
};

struct seen_list {
  struct seen_diag *items;
  size_t count;
};

/* mdl_diag_fn collecting into a struct seen_list. */
void seen_collect(const mdl_diag *d, void *user);
void seen_free(struct seen_list *l);
void seen_print(const struct seen_list *l, const char *title);

/* Each returns the number of failed checks, printed to stderr. */
unsigned check_expectations(struct conf_case *c, struct seen_list *seen, const mdl_result *res);
unsigned check_poses(struct conf_case *c, const struct pipeline_run *run);
unsigned check_roundtrip(struct conf_case *c, const struct pipeline_run *run,
                         const mdl_options *options, const char *name_hint);

/* The tolerance the channel layout implies for component `channel` (0-2 t, 3-6 r, 7-9 s) of
 * pose `pose`, or a fallback when the format keeps no channels (see corpus/README.md). */
double pose_bound(const struct model *m, uint32_t pose, int channel);

#endif
