/* baseline.h - accept the problems a previous JSON report recorded (--baseline REPORT.json), so a
 * team can adopt mdlcheck on a legacy tree and fail only on new diagnostics.
 *
 * A diagnostic matches a baseline entry on (file, rule id, structural path): not on the byte
 * offset or line, so an unrelated edit that moves data does not break the match. Matching counts:
 * a key recorded twice accepts two diagnostics; a third is new. A fold summary (--max-per-rule)
 * matches a recorded summary of the same rule that folded at least as many. The file is the one
 * a path names, not its spelling (path_key.h): a baseline recorded inside a project matches when
 * the same files are run from its parent or by absolute path. */
#ifndef MDL_BASELINE_H
#define MDL_BASELINE_H

#include <stddef.h>

#include "report.h"

struct baseline;

/* Read the baseline report (at most max_size bytes, 0: the default input limit); NULL with a
 * one-line reason in err when it cannot be used, *too_large set when that is because it is
 * longer than max_size (an I/O failure, exit 3, rather than a usage error). */
struct baseline *baseline_load(const char *path, unsigned long long max_size, int *too_large,
                               char *err, size_t errcap);
void baseline_free(struct baseline *b);

/* Mark every message of r that the baseline accepts as baselined and take it out of its file's
 * counts (so it no longer decides the verdict). Call once per run. Return how many matched. */
size_t baseline_apply(struct baseline *b, struct report *r);
/* After baseline_apply: how many of the run's files the baseline records (matched or not by
 * any diagnostic), and how many files it records. A baseline that matches no input file was
 * recorded for other files, or paths this run cannot resolve: the caller must say so. */
size_t baseline_files_matched(const struct baseline *b);
size_t baseline_files_recorded(const struct baseline *b);

#endif
