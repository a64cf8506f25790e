/* batch.h - expand command-line inputs (files, directories, globs, "-") into a file list. */
#ifndef MDL_BATCH_H
#define MDL_BATCH_H

#include <stddef.h>

#include "archive.h"

struct file_list {
  char **paths;
  char **keys;          /* per path, its shard key: relative to the walked directory, or the
                         * argument as written (shard.h); the same in every CI job */
  size_t count, cap;
  size_t skipped;       /* files met in directory walks without a model extension */
  size_t links_skipped; /* walk entries met again (loops, links, hard links), each noted */
  struct seen_set *seen; /* device + inode of what was selected or walked */
  /* per path, where it lies in an archive (archive.h), or NULL while no archive was met */
  struct archive_member *members;
  size_t capmembers;
  char **elsewhere;     /* --shard: the selection's files other shards validate */
  size_t nelsewhere;
  int follow_links;     /* --follow-links: walk through links that leave the argument too */
  char **outside;       /* walk entries not followed: links whose real path leaves the walked
                         * argument's (each noted; the run reports them, MDL-IO-010) */
  size_t noutside, capoutside;
  /* Called after each file joins the selection (paths[count - 1]), while the walk goes on, so
   * a caller can start on it at once (-j); NULL: nobody is waiting. The callee may take the
   * path (and leave NULL in its place); with it set, no shard key is kept (keys[i] NULL). */
  void (*added)(struct file_list *l, void *ctx);
  void *added_ctx;
};

void file_list_free(struct file_list *l);
/* Free what only the walk needs (paths, keys, archive places, the identities met), keeping
 * `outside` and `elsewhere`: once every argument is walked, so that freeing 40,000 paths is not
 * left to the serial end of a batch. */
void file_list_drop_selection(struct file_list *l);
/* Directories are walked recursively with fts(3) (sorted by name, hidden entries skipped,
 * symbolic links followed while their real path stays under the argument's: a link to a folder,
 * or to a file with a model extension, that leads out is not followed but noted and listed in
 * `outside`, unless follow_links), keeping files with a model extension of a known format
 * (others are counted in `skipped`). A directory or file met again through a link (a loop back to an
 * ancestor, a link to a sibling, a hard link) is skipped with a note on stderr naming it and
 * what it repeats, so each file is validated once. An archive (.zip .pk3 .pk4 .dpk), walked or
 * named, stands for its members with a model extension ("pack.pk3:models/x.iqm"; its other
 * members count in `skipped`), or for itself when it cannot be listed, so that the validation
 * says why. A pattern with * ? [ is expanded with glob(3).
 * Return 1 when a directory or an archive was walked, 0 for a plain file, "-" or a directory walked before,
 * -1 when a pattern matches nothing (the caller says so). */
int file_list_add(struct file_list *l, const char *arg);

#endif
