/* baseline.h - accept the problems a previous JSON report recorded (--baseline REPORT.json), so a
 * team can adopt mdlcheck on a legacy tree and fail only on new diagnostics.
 *
 * A diagnostic matches a baseline entry on (file path, rule id, structural path): not on the byte
 * offset or line, so an unrelated edit that moves data does not break the match. Matching counts:
 * a key recorded twice accepts two diagnostics; a third is new. A fold summary (--max-per-rule)
 * matches a recorded summary of the same rule that folded at least as many. */
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

#endif
