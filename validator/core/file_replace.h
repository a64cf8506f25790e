/* file_replace.h - write a file whole or not at all (convert's OUT, fix's replaced input). */
#ifndef MDL_FILE_REPLACE_H
#define MDL_FILE_REPLACE_H

#include <stddef.h>

#include "buf.h"

enum file_replace_status {
  FILE_REPLACE_OK = 0,
  FILE_REPLACE_NOT_REGULAR, /* path is there and is not a regular file: nothing was opened */
  FILE_REPLACE_FAILED       /* creating, writing, flushing or renaming failed: path untouched */
};

/* Whether path may be replaced: absent, or a regular file (not a symbolic link, FIFO, device,
 * directory or socket, which are never opened, so a FIFO cannot block). why (when not OK) says
 * what path is. */
enum file_replace_status file_replace_check(const char *path, char *why, size_t n);

/* Write b's bytes to path: to a new temporary file beside it (same directory, created
 * exclusively, with the mode of the file it replaces, or the default mode a new file gets), flushed
 * to disk, then renamed over path. A failure at any step removes the temporary and leaves path as
 * it was (a crash leaves at most the temporary, never a partial path). why says what failed. */
enum file_replace_status file_replace(const char *path, const struct byte_buf *b, char *why, size_t n);

#endif
