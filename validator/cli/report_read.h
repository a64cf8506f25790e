/* report_read.h - a JSON report (spec/report.schema.json) read back: the input of baselines
 * (--baseline) and of `mdlcheck diff`. Rule ids are kept as text, so a report written by another
 * version of mdlcheck, naming rules this build does not know, still reads. */
#ifndef MDL_REPORT_READ_H
#define MDL_REPORT_READ_H

#include <stddef.h>

#include "mdlcheck.h"

struct saved_msg {
  char *id;
  mdl_severity severity;
  char *message;
  long long offset;      /* -1 when none */
  unsigned line, column; /* 0 when none */
  char *path;            /* structural path, "" when none */
  unsigned long folded;  /* > 0 on a fold summary */
  int baselined;
};

struct saved_file {
  char *path;            /* normalised by report_path_normalize */
  char *key;             /* set by saved_report_anchor (path_key.h), else NULL */
  char *format, *version;
  int invalid;
  int truncated;         /* "truncated": true (--max-issues): messages past the cap were not kept */
  struct saved_msg *msgs;
  size_t nmsgs;
};

struct saved_report {
  struct saved_file *files;
  size_t nfiles;
  struct saved_file **by_key, **by_path; /* sorted views, made by saved_report_anchor */
};

/* Read the JSON report at `path` ("-": standard input), at most max_size bytes (0: the default
 * input limit). Return 0; -1 when it cannot be opened or is not a report; -2 when it is longer
 * than max_size (an I/O failure: exit 3). On failure err holds a one-line reason and the
 * report is empty and needs no free. */
int saved_report_load(struct saved_report *r, const char *path, unsigned long long max_size,
                      char *err, size_t errcap);
void saved_report_free(struct saved_report *r);
/* Set every file's key (path_key_saved), so it matches this run's files however either run
 * spelled the path; report_path is where r was read from. */
void saved_report_anchor(struct saved_report *r, const char *report_path);
/* The file of an anchored report that is the file `key` names (path_key_here) or, when none is,
 * the one spelled `path` (normalised): reports made under one scratch layout, as the pre-commit
 * hook does, still pair by spelling. NULL when none. */
const struct saved_file *saved_report_find(const struct saved_report *r, const char *key,
                                           const char *path);

/* The file path as a matching key: leading "./" and repeated slashes removed, in place, so
 * `mdlcheck dir` and `mdlcheck ./dir/` name a file alike. */
void report_path_normalize(char *path);

#endif
