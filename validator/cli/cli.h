/* cli.h - shared option parsing and the subcommands of the mdlcheck tool. */
#ifndef MDL_CLI_H
#define MDL_CLI_H

#include "config_file.h"
#include "mdlcheck.h"
#include "report.h"

/* Exit codes (README "Exit codes"). */
enum {
  EXIT_VALID = 0,
  EXIT_INVALID = 1,
  EXIT_USAGE = 2,
  EXIT_IO = 3,
  EXIT_INTERNAL = 70
};

#define CLI_MAX_JOBS 64

enum output_format { OUT_TEXT, OUT_JSON, OUT_SARIF, OUT_GITHUB, OUT_MARKDOWN /* diff only */ };

struct cli {
  const char *command;        /* "validate", "poses", ... */
  enum output_format output;
  const char *output_path;    /* -o FILE, or NULL for stdout */
  int quiet;
  int list_rules;
  unsigned jobs;               /* -j N: files validated in parallel, at most CLI_MAX_JOBS */
  int allow_empty;            /* --allow-empty: no model file selected is exit 0, not 2 */
  int unreferenced;           /* --unreferenced: list the folders' files no model names */
  int follow_links;           /* --follow-links: walks follow links out of the argument */
  const char *config_path;    /* --config, or the file found (config_choose), or NULL */
  char *config_found;         /* owned: the path config_choose found */
  int verbose;                /* -v: say which configuration is used, print stats lines */
  enum { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER } color; /* --color=WHEN */
  unsigned shard_k, shard_n;  /* --shard=K/N; 0/0 when unset */
  const char *baseline_path;  /* --baseline REPORT.json */
  const char *version;        /* --target-version for convert (the format version written) */
  const char *accept_loss;    /* --accept-loss=RULE,... for convert: expected differences */
  int dry_run;                /* --dry-run for fix: list and prove, write nothing */
  char *targets;              /* --target names joined by ',' (owned), or NULL */
  mdl_options lib;
  struct mdl_config config;
  mdl_policy *policy;         /* from config and --ignore/--only/--severity */
  mdl_severity fail_on;
  const char **args;          /* positional arguments */
  int nargs;
  const char *cache_dir;      /* --cache DIR, or the configuration's cache:, or NULL */
  unsigned long long cache_max; /* --cache-max-size, or the configuration's, or 0: the default */
  int argc;                   /* the command line, for the cache's settings fingerprint */
  char **argv;
};

/* Parse argv (after the subcommand name, if any). Return 0, or EXIT_USAGE after printing why.
 * Configuration diagnostics are printed as a report. */
int cli_parse(struct cli *c, int argc, char **argv);
/* Which configuration file applies: --config, else (unless --no-config) mdlcheck.yaml or
 * .mdlcheck.yaml in the working directory or the nearest parent, the search ending at a
 * directory holding .git or at the root. Sets c->config_path; returns 0 or EXIT_USAGE (two
 * candidates in one directory). With verbose, says the choice on stderr. */
int config_choose(struct cli *c, int no_config, int verbose);
void cli_free(struct cli *c);
/* Make SIGBUS on a mapped input that shrank an exit 3 with a line, not a crash (fault_guard.c);
 * fault_guard_input names the input (or the two of compare) this thread reads next */
void fault_guard_install(void);
void fault_guard_input(const char *a, const char *b);
struct cache;
/* Give the cache every setting of this run that can change a file's diagnostics: each option
 * as written, except those that only choose the output, the inputs or the exit code (a new
 * option counts until it is listed here as one of those), the configuration file's bytes, and
 * the X42 layout file's. */
void cli_cache_settings(const struct cli *c, struct cache *k);
FILE *cli_open_output(const struct cli *c);
void cli_close_output(const struct cli *c, FILE *out);
void cli_usage(FILE *out);
/* Edit distance of two short words (SIZE_MAX when b is too long), for "did you mean". */
size_t cli_word_distance(const char *a, const char *b);
/* The text writer's flags for a report written to out (stdout, stderr or the -o file):
 * quiet and stats from the options, colour per --color, NO_COLOR, TERM and isatty. */
unsigned cli_text_flags(const struct cli *c, FILE *out);
/* Write r in the output format c asks for (text, json, sarif, github). */
void cli_report(const struct cli *c, FILE *out, const struct report *r);
/* report_add_file, or exit 70 when memory ran out. */
struct report_file *cli_add_file(struct report *r, const char *path);
/* Exit 70 when the report could not keep something it was given (report_out_of_memory): an
 * incomplete report is never written, nor worked on (baselines, external inputs). */
void cli_report_whole(const struct report *r);

int cmd_validate(struct cli *c);
int cmd_rules(struct cli *c);
int cmd_poses(struct cli *c);
int cmd_convert(struct cli *c);
int cmd_fix(struct cli *c);
int cmd_compare(struct cli *c);
int cmd_diff(struct cli *c);
int cmd_explain(struct cli *c);
int cmd_targets(struct cli *c);

#endif
