/* report.h - diagnostics collected per file, and the report writers (text, JSON, SARIF). */
#ifndef MDL_REPORT_H
#define MDL_REPORT_H

#include <stdio.h>

#include "mdlcheck.h"

struct report_msg {
  const mdl_rule *rule;
  mdl_severity severity;
  char *message;
  long long offset;      /* -1 when none */
  unsigned line, column; /* 0 when none */
  char *path, *actual, *expected;
  unsigned long folded;
  mdl_position *folded_at; /* on a fold summary: the first folded repeats' positions */
  size_t nfolded_at;
  int baselined;         /* accepted by --baseline: shown, but not counted */
  char *context;         /* mdl_diag's context, copied (NULL when none), or the copy the
                          * message before it holds when the bytes are the same */
  int context_shared;    /* context is another message's copy: not freed with this one */
  size_t context_size, context_mark;
  long long context_offset;
  size_t seq;            /* emission order, to keep the position sort stable */
};

/* One file a model names, as --resources resolved it (mdl_resource, copied). */
#define REPORT_RES_SHOWN 8

struct report_resource {
  char *ref, *kind, *status, *resolved_path, *image, *path;
  unsigned width, height, channels;
  long long offset;      /* -1 when none */
  unsigned line, column; /* 0 when none */
};

struct report_file {
  char *path;
  const char *format;    /* "unknown" when not recognised */
  char version[32];
  char compression[8];   /* "zlib", "gzip", or "" */
  unsigned long counts[MDL_SEVERITY_COUNT];
  int truncated;
  int io_failed;         /* the file could not be read (exit code 3) */
  mdl_stats stats;       /* what the model holds; stats.decoded 0: unknown */
  struct report_msg *msgs;
  size_t nmsgs, capmsgs;
  int resources_checked; /* --resources was on: `resources` lists what the model names */
  /* compare: the other file, its format and version (compared_path NULL for validation) */
  const char *compared_path;
  const char *compared_format;
  char compared_version[32];
  struct report_resource *res;
  size_t nres, capres;
  /* the references reported, and how many of them lead to no usable file: with res_summary
   * (set by a caller whose output shows only those counts and the first REPORT_RES_SHOWN
   * unusable ones, the text report) res keeps only those and the usable external models (the
   * CLI validates them too), not one copy a reference (issue 26: a file naming a million
   * distinct textures) */
  int res_summary;
  size_t res_total, res_bad;
  int out_of_memory;     /* a diagnostic or resource could not be kept: never write the report */
  /* the context copy made last: thousands of diagnostics on one line (memberships of one
   * <VertexRef>) kept a copy each, 256 bytes of a message's 600 (issue 26) */
  const char *last_context;
  size_t last_context_size;
};

struct report {
  struct report_file *files;
  size_t nfiles, capfiles;
  mdl_severity fail_on;  /* a file is invalid when it has a diagnostic at or above this */
  size_t skipped;        /* files in walked directories that have no model extension */
  int unreferenced_listed; /* --unreferenced: the files below lists them (maybe none) */
  char **unreferenced;
  size_t nunreferenced, capunreferenced;
  const char *targets;   /* the --target names checked for, joined by ',' (not owned), or NULL */
  int out_of_memory;     /* a file entry or unreferenced path could not be added */
};

void report_init(struct report *r);
void report_free(struct report *r);
/* Out of memory is a state, as in libyaml: each function below that cannot keep what it is
 * given sets out_of_memory (the file's or the report's) and goes on; report_out_of_memory then
 * says that the report is incomplete and must not be written (the library returns MDL_ENOMEM,
 * the tool exits 70). */

/* Add a file entry; diagnostics are then collected into it by report_collect. NULL when out of
 * memory. */
struct report_file *report_add_file(struct report *r, const char *path);
/* An mdl_diag_fn: user is the struct report_file to append to. */
void report_collect(const mdl_diag *diag, void *user);
/* An mdl_resource_fn: user is the struct report_file to append to. */
void report_collect_resource(const mdl_resource *res, void *user);
/* Record a file no model names (--unreferenced); 0, or -1 when out of memory. */
int report_add_unreferenced(struct report *r, const char *path);
/* 1 when anything the report was given could not be kept. */
int report_out_of_memory(const struct report *r);
/* Copy the validation result (format, version, counts, truncation, stats) into the file entry and
 * sort its messages by position. */
void report_set_result(struct report_file *f, const mdl_result *result);
/* report_set_result of a file the library could not check to the end (MDL_EIO with the fatal that
 * says why: MDL-IO-002, MDL-MEM-002): its answer is "could not check", exit 3, never a verdict. */
void report_set_unchecked(struct report_file *f, const mdl_result *result);
/* Collect into `to` every message `from` holds, in the order `from` collected them (as if the
 * same diagnostics had been emitted again); counts and result are not touched. */
void report_replay(struct report_file *to, const struct report_file *from);
/* The file could not be read (err: an errno value): a fatal MDL-IO-001, and exit code 3. */
void report_read_failure(struct report_file *f, int err);
/* The same with the reason as text (libzip's, for an archive or a member). */
void report_read_failure_why(struct report_file *f, const char *why);
/* The path is a symbolic link a directory walk did not follow, since it leads out of the folder
 * walked: a fatal MDL-IO-010 (the input was not checked), exit code 3 as an unreadable one. */
void report_link_outside(struct report_file *f);
/* 1 when the file is invalid under r->fail_on (or could not be read). */
int report_file_invalid(const struct report *r, const struct report_file *f);

/* "s" unless n is 1, for counts in text: "1 file", "2 files", "0 files". */
static inline const char *plural_s(unsigned long long n)
{
  return n == 1 ? "" : "s";
}

/* The text writer's choices (bits). QUIET: only messages at or above r->fail_on (and every
 * error), no verdicts; COLOR: ANSI colour; STATS: each decoded model's counts (-v). */
enum { REPORT_TEXT_QUIET = 1, REPORT_TEXT_COLOR = 2, REPORT_TEXT_STATS = 4 };
void report_write_text(FILE *out, const struct report *r, unsigned flags);
void report_write_json(FILE *out, const struct report *r);
struct json_writer;
/* The "tool" object that opens every JSON document mdlcheck writes. */
void report_json_tool(struct json_writer *w);
/* A message's location keys: line and column (text), else offset (binary), else none. */
void report_json_location(struct json_writer *w, unsigned line, unsigned column, long long offset);
/* A message's spec clause, then actual, expected and folded count when it has them. */
void report_json_details(struct json_writer *w, const struct report_msg *m);
/* A file's verdict under r->fail_on, its counts per severity and whether it was truncated. */
void report_json_verdict(struct json_writer *w, const struct report *r, const struct report_file *f);
/* A file's stats one by one: the six common counts, then the format's own; the value (maybe
 * MDL_STAT_UNKNOWN) and its name (the JSON key) in *name. */
#define REPORT_STATS_COUNT 6
#define REPORT_STATS_MAX (REPORT_STATS_COUNT + MDL_STATS_EXTRA_MAX)
unsigned long long report_stat_at(const mdl_stats *st, unsigned i, const char **name);
/* A file's "stats" object (nothing when its model was not decoded to the end). */
void report_json_stats(struct json_writer *w, const mdl_stats *st);
/* One entry of the report's "files" array (the library's JSON entry points write just this). */
void report_json_file(struct json_writer *w, const struct report *r, const struct report_file *f);
/* A file's "resources" array (when --resources was on). */
void report_json_resources(struct json_writer *w, const struct report_file *f);
/* 1 when a pattern (policy_pattern_matches) names the rule, or when there are none. */
int report_rule_selected(const mdl_rule *r, const char *const *patterns, size_t npatterns);
/* The rule catalogue as a JSON document (`rules -f json [PATTERN...]`): the rules the patterns
 * select, all of them without patterns; 0, or -1 when out failed. */
int report_write_rules(FILE *out, const char *const *patterns, size_t npatterns);
/* The targets (`mdlcheck targets -f json`): each loader with its rules. */
int report_write_targets(FILE *out);
/* The "targets" array of a report: each target named in list (',' between names). */
void report_json_targets(struct json_writer *w, const char *list);

#endif
