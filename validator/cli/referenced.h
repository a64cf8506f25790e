/* referenced.h - what --resources adds to a validate run: the external eggs models name, as
 * inputs of their own, and the files of the directories given that nothing names. */
#ifndef MDL_REFERENCED_H
#define MDL_REFERENCED_H

#include "report.h"

/* Add to rep, as new files, the external models (Egg <File>) its files resolved that are not
 * in it yet nor among the n paths of elsewhere (files of the selection another --shard
 * validates), compared as real paths. Returns how many were added. */
size_t externals_queue(struct report *rep, char *const *elsewhere, size_t n_elsewhere);
/* For each argument that is a directory: list in rep every regular file below it (hidden
 * entries skipped) that is neither a validated input nor a file some model names. */
void unreferenced_list(struct report *rep, const char *const *args, int nargs);

#endif
