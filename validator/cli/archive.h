/* archive.h - models inside .zip, .pk3, .pk4 and .dpk archives, read with libzip: the walk lists
 * the members with a model extension, a worker reads one into memory, bounded. */
#ifndef MDL_ARCHIVE_H
#define MDL_ARCHIVE_H

#include <stddef.h>
#include <stdint.h>

/* A member of the selection: the archive is the first arch_len bytes of the report path
 * "pack.pk3:models/x.iqm", index its place in the archive's directory. arch_len 0: a plain
 * file; index ARCHIVE_WHOLE: the archive itself, which could not be listed (read again to say
 * why). */
#define ARCHIVE_WHOLE UINT64_MAX
struct archive_member {
  size_t arch_len;
  uint64_t index;
};

/* Whether the name ends in an archive extension (.zip .pk3 .pk4 .dpk, any case). */
int archive_name(const char *path);

/* Call `each` for every member of the archive at path whose name has a model extension, in the
 * archive's order; count the others in *skipped. Return 0, or -1 with why when the archive cannot
 * be opened or listed. */
int archive_list(const char *path, void (*each)(void *ctx, const char *name, uint64_t index),
                 void *ctx, size_t *skipped, char *why, size_t cap);

/* One worker's open archive, kept while it reads consecutive members of the same one. */
struct archive_reader {
  char *path;
  void *zip;
};
/* Read member `index` of the archive at path into *data (malloc'd) and *size, reading at most
 * limit + 1 bytes whatever its header claims (a zip bomb stops there). Return 0; EFBIG over
 * limit; -1 with why when the archive or the member cannot be read (a bad CRC, encryption,
 * a truncated stream); ENOMEM. */
int archive_read(struct archive_reader *r, const char *path, uint64_t index, unsigned long long limit,
                 unsigned char **data, size_t *size, char *why, size_t cap);
void archive_reader_close(struct archive_reader *r);

/* mdl_resource_tree callbacks over the archive r last read (user is the archive_reader): the
 * references of a member resolve among the archive's members (--resources). */
int archive_tree_find(void *user, const char *path, int nocase, char *name, size_t cap);
long long archive_tree_read(void *user, const char *name, void *buf, size_t cap, char *why, size_t why_cap);

#endif
