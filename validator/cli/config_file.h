/* config_file.h - the YAML configuration file: ignore, only, severity overrides, max-issues,
 * max-per-rule, fail-on, profile, strict, max-input-size, max-memory, allow-empty, resources, cache,
 * cache-max-size, targets. Mistakes in it are
 * diagnostics with line:column. */
#ifndef MDL_CONFIG_FILE_H
#define MDL_CONFIG_FILE_H

#include <stddef.h>

#include "mdlcheck.h"

struct mdl_config {
  mdl_policy *policy;          /* owned */
  unsigned long max_issues;    /* 0: unset */
  unsigned long max_per_rule;  /* 0: unset */
  int fail_on;                 /* mdl_severity, or -1 when unset */
  char profile[32];            /* "" when unset */
  int strict;                  /* -1 unset, 0, 1 */
  unsigned long long max_input_size; /* 0: unset */
  int max_memory_set;          /* max-memory was given: max_memory holds it (mdl_options') */
  unsigned long long max_memory;
  int allow_empty;             /* -1 unset, 0, 1 */
  /* resources: NULL unset or false; else the search folders joined by ':' ("" for true), owned;
   * config_load makes relative folders relative to the configuration file's folder */
  char *resources;
  /* cache: the result cache's folder ("" unset), relative to the configuration file's folder;
   * cache-max-size: its bound (0 unset). Read by the tool, not the library. */
  char cache[1024];
  unsigned long long cache_max_size;
  /* targets: NULL unset; else known target names joined by ',' (mdl_options.targets), owned */
  char *targets;
  /* why config_load returned -1: an errno value or input_open_regular's code (input_error_text) */
  int read_error;
};

void config_init(struct mdl_config *c);
void config_free(struct mdl_config *c);
/* Load path into c. Every problem is reported through on_diag (rules MDL-CFG-*), with the
 * line and column in the file. Return the number of error diagnostics (0: usable), or -1 when
 * the file cannot be read (c->read_error says why): a FIFO, a device, a socket or a directory is
 * refused at once, unread (input_open_regular), also when a link leads to it. */
int config_load(struct mdl_config *c, const char *path, mdl_diag_fn on_diag, void *user);
/* The same over a caller's bytes (the file is read once by config_load; tests use this). */
int config_load_buffer(struct mdl_config *c, const void *data, size_t size, mdl_diag_fn on_diag,
                       void *user);

#endif
