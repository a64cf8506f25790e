/* batch.h - expand command-line inputs (files, directories, globs, "-") into a file list. */
#ifndef MDL_BATCH_H
#define MDL_BATCH_H

#include <stddef.h>

struct file_list {
  char **paths;
  size_t count, cap;
  size_t skipped; /* files met in directory walks without a model extension */
};

void file_list_free(struct file_list *l);
/* Directories are walked recursively (sorted, hidden entries skipped), keeping files with a
 * model extension of a known format (others are counted in `skipped`); a pattern with * ? [ is
 * expanded with glob(3). Return 0, or -1 after printing why (a pattern that matches nothing). */
int file_list_add(struct file_list *l, const char *arg);

#endif
