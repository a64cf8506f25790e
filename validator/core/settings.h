/* settings.h - the one table of options (options.def) as every face looks it up, and the one
 * parser of their values: the CLI, the configuration reader and the library's key=value
 * settings all call it, so a value is accepted or refused alike everywhere. */
#ifndef MDL_SETTINGS_H
#define MDL_SETTINGS_H

#include <stddef.h>

#include "mdlcheck.h"

/* How an option's value is read. */
enum setting_parse {
  SP_NONE,             /* a switch: no value */
  SP_WORD,             /* one of the option's values (the tool checks which) */
  SP_JOBS,             /* a count of jobs (the tool's) */
  SP_FILE,             /* a file name */
  SP_DIR,              /* a folder name */
  SP_DIRS,             /* folders separated by ':' ("" for none) */
  SP_FLAG,             /* true or false */
  SP_COUNT,            /* a non-negative whole number */
  SP_SIZE,             /* a size above 0: bytes, or K, M, G, T (binary) */
  SP_MEMORY,           /* auto, none, or a size as SP_SIZE (mdl_options.max_memory) */
  SP_SEVERITY,         /* fatal, error, warning, info, hint */
  SP_PATTERN,          /* a rule pattern: id, prefix ending in '*', or a format name */
  SP_SEVERITY_PATTERN, /* PATTERN=SEVERITY */
  SP_PROFILE,          /* a profile name (which ones exist: format_options_check) */
  SP_TARGETS,          /* target names separated by ',' */
  SP_FORMAT,           /* a format name of the registry */
  SP_SHARD,            /* K/N (the tool's) */
  SP_RULES             /* rule ids separated by ',' (the tool's) */
};

/* Every option's id, OPT_FORMAT ...: above every short option's character, so getopt's answer
 * is one of them or a short option's letter. */
enum option_id {
  OPT_NONE = 255,
#define COMMAND(name, synopsis, summary)
#define OPTION(id, short, long, arg, values, commands, config, setting, python, js, parse, help, doc) OPT_##id,
#include "options.def"
#undef OPTION
#undef COMMAND
  OPT_END
};
/* How many options the table holds (a constant, for arrays sized by it). */
#define SETTING_COUNT ((size_t)(OPT_END - OPT_NONE - 1))

struct setting_def {
  enum option_id id;
  char short_name;
  const char *name;     /* the long option, without "--" */
  const char *arg;      /* its argument's name ("[X]": optional), or NULL */
  const char *commands; /* "all", or the subcommands separated by spaces */
  const char *config;   /* the configuration key, or NULL */
  const char *key;      /* the library's key=value name, or NULL */
  const char *python, *js;
  enum setting_parse parse;
  const char *help;
};

extern const struct setting_def setting_table[];
extern const size_t setting_count;

/* The option of that library key (len bytes of key), configuration key or JavaScript name;
 * NULL when none. */
const struct setting_def *setting_by_key(const char *key, size_t len);
const struct setting_def *setting_by_config(const char *key);
const struct setting_def *setting_by_js(const char *name);
const struct setting_def *setting_by_id(enum option_id id);
/* Whether the option is taken by that subcommand. */
int setting_for_command(const struct setting_def *d, const char *command);

/* What a value of this kind looks like, for a message ("a non-negative whole number"). */
const char *setting_expected(enum setting_parse parse);

/* A value read. */
struct setting_value {
  unsigned long count;         /* SP_COUNT */
  unsigned long long size;     /* SP_SIZE; SP_MEMORY: the bytes, or MDL_MAX_MEMORY_AUTO / _NONE */
  mdl_severity severity;       /* SP_SEVERITY, SP_SEVERITY_PATTERN */
  int flag;                    /* SP_FLAG */
};

/* Read text as d's value. spelt: how the caller's face names the option ("--max-issues",
 * "max_issues", "max-issues"), for the message. Patterns are applied to policy (SP_PATTERN,
 * SP_SEVERITY_PATTERN; NULL: only their form is checked). Returns 0; -1 with a one-line
 * message in why (why_size bytes); -2 when memory ran out. */
int setting_parse_value(const struct setting_def *d, const char *spelt, const char *text,
                        mdl_policy *policy, struct setting_value *out, char *why, size_t why_size);

/* text with "@formats", "@profiles" and "@profile-docs" (options.def) replaced by what the format
 * registry says: names joined by sep, each in backquotes when code is set; "@profile-docs" is
 * each documented profile with its meaning. Cut to cap bytes. */
void setting_expand(const char *text, const char *sep, int code, char *out, size_t cap);

#endif
