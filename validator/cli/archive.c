/* archive.c - models inside .zip, .pk3, .pk4 and .dpk archives (Quake-family engines, Xonotic,
 * Unvanquished ship models so), read with libzip rather than a zip reader of our own. */
#include "archive.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "format.h"
#include "zip_load.h"

int archive_name(const char *path)
{
  static const char *const ext[] = {".zip", ".pk3", ".pk4", ".dpk"};
  size_t n = strlen(path);
  for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
    if (n > 4 && !strcasecmp(path + n - 4, ext[i]))
      return 1;
  return 0;
}

/* Every zip_t comes from here, so the functions that take one find the table loaded. */
static zip_t *open_archive(const char *path, char *why, size_t cap)
{
  const struct zip_fns *lz = zip_fns(why, cap);
  int err = 0;
  zip_t *z;
  if (!lz)
    return NULL; /* why says the library could not be loaded: the archive was not read */
  z = lz->zip_open(path, ZIP_RDONLY | ZIP_CHECKCONS, &err);
  if (!z) {
    zip_error_t e;
    lz->zip_error_init_with_code(&e, err);
    snprintf(why, cap, "not a readable zip archive: %s", lz->zip_error_strerror(&e));
    lz->zip_error_fini(&e);
  }
  return z;
}

int archive_list(const char *path, void (*each)(void *ctx, const char *name, uint64_t index),
                 void *ctx, size_t *skipped, char *why, size_t cap)
{
  const struct zip_fns *lz = zip_fns(NULL, 0); /* NULL only where open_archive fails first */
  zip_t *z = open_archive(path, why, cap);
  zip_int64_t n;
  if (!z)
    return -1;
  n = lz->zip_get_num_entries(z, 0);
  for (zip_int64_t i = 0; i < n; i++) {
    const char *name = lz->zip_get_name(z, (zip_uint64_t)i, ZIP_FL_ENC_GUESS);
    size_t len = name ? strlen(name) : 0;
    if (!name || !len || name[len - 1] == '/')
      continue; /* a folder entry */
    if (format_by_extension(name))
      each(ctx, name, (uint64_t)i);
    else
      ++*skipped;
  }
  lz->zip_discard(z);
  return 0;
}

void archive_reader_close(struct archive_reader *r)
{
  if (r->zip) /* only then is libzip loaded: a worker that read no archive loads nothing */
    zip_fns(NULL, 0)->zip_discard(r->zip);
  free(r->path);
  r->zip = NULL;
  r->path = NULL;
}

int archive_read(struct archive_reader *r, const char *path, uint64_t index, unsigned long long limit,
                 unsigned char **data, size_t *size, char *why, size_t cap)
{
  const struct zip_fns *lz = zip_fns(NULL, 0); /* NULL only where open_archive fails first */
  zip_file_t *f;
  unsigned char *p;
  size_t have = 0, want, room;
  zip_stat_t st;
  if (!r->zip || strcmp(r->path, path)) {
    archive_reader_close(r);
    if (!(r->path = strdup(path)))
      return ENOMEM;
    if (!(r->zip = open_archive(path, why, cap)))
      return -1;
  }
  /* the size the header claims only sizes the first buffer; the bytes that come decide */
  lz->zip_stat_init(&st);
  want = lz->zip_stat_index(r->zip, index, 0, &st) == 0 && (st.valid & ZIP_STAT_SIZE) && st.size < limit
           ? (size_t)st.size + 1 : 65536;
  if (limit < SIZE_MAX && want > limit + 1)
    want = (size_t)limit + 1;
  if (!(f = lz->zip_fopen_index(r->zip, index, 0))) {
    snprintf(why, cap, "cannot read the member: %s", lz->zip_strerror(r->zip));
    return -1;
  }
  room = want ? want : 1;
  if (!(p = malloc(room))) {
    lz->zip_fclose(f);
    return ENOMEM;
  }
  for (;;) {
    zip_int64_t got;
    if (have == room) {
      unsigned char *q;
      if (have > limit) {
        free(p);
        lz->zip_fclose(f);
        return EFBIG;
      }
      room = room * 2 > limit + 1 ? (size_t)limit + 1 : room * 2;
      if (!(q = realloc(p, room))) {
        free(p);
        lz->zip_fclose(f);
        return ENOMEM;
      }
      p = q;
    }
    got = lz->zip_fread(f, p + have, room - have);
    if (got < 0) {
      snprintf(why, cap, "cannot read the member: %s", lz->zip_file_strerror(f));
      free(p);
      lz->zip_fclose(f);
      return -1;
    }
    if (got == 0)
      break;
    have += (size_t)got;
  }
  if (lz->zip_fclose(f) != 0) { /* the CRC is checked as the stream ends */
    snprintf(why, cap, "cannot read the member: %s", lz->zip_strerror(r->zip));
    free(p);
    return -1;
  }
  if (have > limit) {
    free(p);
    return EFBIG;
  }
  *data = p;
  *size = have;
  return 0;
}

int archive_tree_find(void *user, const char *path, int nocase, char *name, size_t cap)
{
  struct archive_reader *r = user;
  const struct zip_fns *lz;
  zip_int64_t i;
  const char *stored;
  if (!r->zip || !*path)
    return 0;
  lz = zip_fns(NULL, 0); /* loaded: r->zip came from open_archive */
  i = lz->zip_name_locate(r->zip, path, ZIP_FL_ENC_GUESS | (nocase ? ZIP_FL_NOCASE : 0));
  if (i < 0 || !(stored = lz->zip_get_name(r->zip, (zip_uint64_t)i, ZIP_FL_ENC_GUESS)))
    return 0;
  if (strlen(stored) >= cap || stored[strlen(stored) - 1] == '/')
    return 0; /* a folder entry names no file */
  strcpy(name, stored);
  return 1;
}

long long archive_tree_read(void *user, const char *name, void *buf, size_t cap, char *why, size_t why_cap)
{
  struct archive_reader *r = user;
  const struct zip_fns *lz;
  zip_int64_t i;
  zip_file_t *f;
  size_t have = 0;
  if (!r->zip) {
    snprintf(why, why_cap, "cannot read the member: no archive");
    return -1;
  }
  lz = zip_fns(NULL, 0); /* loaded: r->zip came from open_archive */
  i = lz->zip_name_locate(r->zip, name, ZIP_FL_ENC_GUESS);
  if (i < 0 || !(f = lz->zip_fopen_index(r->zip, (zip_uint64_t)i, 0))) {
    snprintf(why, why_cap, "cannot read the member: %s", lz->zip_strerror(r->zip));
    return -1;
  }
  while (have < cap) {
    zip_int64_t got = lz->zip_fread(f, (unsigned char *)buf + have, cap - have);
    if (got < 0) {
      snprintf(why, why_cap, "cannot read the member: %s", lz->zip_file_strerror(f));
      lz->zip_fclose(f);
      return -1;
    }
    if (got == 0)
      break;
    have += (size_t)got;
  }
  lz->zip_fclose(f);
  return (long long)have;
}
