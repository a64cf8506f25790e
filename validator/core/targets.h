/* targets.h - the real loaders' rules (spec/targets, generated into targets_gen.c) and the checks
 * that run them on a decoded model. */
#ifndef MDL_TARGETS_H
#define MDL_TARGETS_H

#include <stddef.h>

#include "mdlcheck.h"
#include "rules_gen.h"

struct diag_sink;
struct model;

/* One target rule: which check finds it, with what parameter (spec/targets/NAME.yaml). */
struct target_rule {
  enum rule_index rule; /* RULE_COUNT ends the table */
  unsigned target;      /* index into mdl_target_table */
  const char *check;    /* the check's key (targets.c) */
  const char *param;    /* its parameter, "" when none */
};

extern const size_t mdl_target_table_count;
extern const mdl_target mdl_target_table[];
extern const struct target_rule target_rule_table[];

/* Run the rules of every target named in options->targets on a model decoded to its end:
 * format is the decoder's name, version its version text, size the input's length. MDL_OK, or
 * when a check could not read what the model counts (a frame computed as it is read:
 * model_read_failure) MDL_ENOMEM, with MDL-MEM-001 (or MDL-MEM-002) added to sink, or
 * MDL_EINTERNAL; the checks stop there and the caller must give no verdict. */
mdl_status targets_run(struct diag_sink *sink, const struct model *m, const char *format,
                       const char *version, unsigned long long size, const mdl_options *options);

/* 1 when check names a check targets.c has (the generator cannot know them). */
int target_check_known(const char *check);
/* 0 when every target rule names a known check with a parameter it understands; else -1 and a
 * one-line reason in err. */
int targets_self_check(char *err, size_t errcap);

#endif
