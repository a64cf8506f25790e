/* file_replace.c - write a file whole or not at all: a temporary file beside the destination takes
 * its name in one rename once every byte is on disk, so a kill -9, a crash or a full disk mid-write
 * leaves the old file whole, and a link, FIFO or device at the destination is refused, never
 * followed or opened. */
#include "file_replace.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0
#endif
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

static const char *kind_name(mode_t m)
{
  return S_ISLNK(m)    ? "a symbolic link"
         : S_ISDIR(m)  ? "a directory"
         : S_ISFIFO(m) ? "a FIFO"
         : S_ISCHR(m)  ? "a character device"
         : S_ISBLK(m)  ? "a block device"
         : S_ISSOCK(m) ? "a socket"
                       : "not a regular file";
}

/* lstat path: 1 and *st when it is there, 0 when absent, -1 (why set) otherwise. */
static int look(const char *path, struct stat *st, char *why, size_t n)
{
  if (lstat(path, st) == 0)
    return 1;
  if (errno == ENOENT)
    return 0;
  snprintf(why, n, "%s", strerror(errno));
  return -1;
}

enum file_replace_status file_replace_check(const char *path, char *why, size_t n)
{
  struct stat st;
  int r = look(path, &st, why, n);
  if (r < 0)
    return FILE_REPLACE_FAILED;
  if (r > 0 && !S_ISREG(st.st_mode)) {
    snprintf(why, n, "it is %s; only a regular file is replaced (a link is not followed)",
             kind_name(st.st_mode));
    return FILE_REPLACE_NOT_REGULAR;
  }
  if (r == 0) { /* absent: its folder must be there to hold it (said before any work is done) */
    const char *slash = strrchr(path, '/');
    char *dir = slash && slash != path ? strndup(path, (size_t)(slash - path)) : NULL;
    int ok = !slash || slash == path || (dir && stat(dir, &st) == 0 && S_ISDIR(st.st_mode));
    if (!ok)
      snprintf(why, n, "%s", dir ? "its folder does not exist" : strerror(ENOMEM));
    free(dir);
    if (!ok)
      return FILE_REPLACE_FAILED;
  }
  return FILE_REPLACE_OK;
}

/* Open a new temporary file beside path ("DIR/.BASE.mdlcheck-XXXXXXXX"), exclusively: its name
 * goes to tmp (malloc'd). mode: the permissions asked of open (the umask applies). */
static int temp_open(const char *path, mode_t mode, char **tmp)
{
  const char *slash = strrchr(path, '/');
  size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0, baselen = strlen(path) - dirlen;
  struct timespec ts;
  uint64_t seed;
  char *name;
  /* a base name near NAME_MAX would make the temporary's too long: keep its first 200 bytes */
  if (baselen > 200)
    baselen = 200;
  name = malloc(dirlen + baselen + 32);
  if (!name) {
    errno = ENOMEM;
    return -1;
  }
  clock_gettime(CLOCK_REALTIME, &ts);
  seed = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 16) ^
         (uint64_t)(uintptr_t)&ts;
  for (int attempt = 0; attempt < 100; attempt++) {
    int fd;
    seed ^= seed << 13; /* xorshift: a name another writer is unlikely to have taken */
    seed ^= seed >> 7;
    seed ^= seed << 17;
    snprintf(name, dirlen + baselen + 32, "%.*s.%.*s.mdlcheck-%08x", (int)dirlen, path, (int)baselen,
             path + dirlen, (unsigned)(seed & 0xffffffffu));
    fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
    if (fd >= 0) {
      *tmp = name;
      return fd;
    }
    if (errno != EEXIST)
      break;
  }
  free(name);
  return -1;
}

/* Flush the directory holding path, so the rename itself survives a power cut; a file system
 * that cannot flush a directory is no failure of the write. The directory's name is copied to
 * the stack, not the heap: a failed allocation here would skip the flush without a word. */
static void dir_sync(const char *path)
{
  const char *slash = strrchr(path, '/');
  char dir[PATH_MAX];
  int fd;
  if (slash) {
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    if (n >= sizeof dir) /* no such directory can be opened (ENAMETOOLONG) */
      return;
    memcpy(dir, path, n);
    dir[n] = 0;
  }
  fd = open(slash ? dir : ".", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    (void)fsync(fd);
    close(fd);
  }
}

enum file_replace_status file_replace(const char *path, const struct byte_buf *b, char *why, size_t n)
{
  struct stat st;
  char *tmp = NULL;
  const char *step = "create a temporary file beside it";
  int there, fd, err = 0;
  enum file_replace_status r = file_replace_check(path, why, n);
  if (r != FILE_REPLACE_OK)
    return r;
  there = look(path, &st, why, n);
  if (there < 0)
    return FILE_REPLACE_FAILED;
  /* a new file gets what open gives any new file (0666 less the umask); a replaced one keeps its
   * permissions (set below, once the temporary is ours) */
  fd = temp_open(path, there ? 0600 : 0666, &tmp);
  if (fd < 0) {
    snprintf(why, n, "cannot %s: %s", step, strerror(errno));
    return FILE_REPLACE_FAILED;
  }
  if (there) {
    step = "give the temporary file the replaced file's permissions";
    if (fchmod(fd, st.st_mode & 07777) != 0)
      err = errno;
    else if (fchown(fd, st.st_uid, st.st_gid) != 0)
      (void)!fchown(fd, (uid_t)-1, st.st_gid); /* only root gives a file away; the group may do */
  }
  if (!err) {
    step = "write";
    err = buf_write_fd(b, fd);
  }
  if (!err) {
    step = "flush to disk";
    if (fsync(fd) != 0)
      err = errno ? errno : EIO;
  }
  if (close(fd) != 0 && !err) {
    step = "close";
    err = errno ? errno : EIO;
  }
  if (!err) {
    step = "rename the temporary file over it";
    if (rename(tmp, path) != 0)
      err = errno ? errno : EIO;
  }
  if (err) {
    int kept = unlink(tmp) != 0 && errno != ENOENT;
    snprintf(why, n, "cannot %s: %s%s%s", step, strerror(err), kept ? "; the temporary file " : "",
             kept ? tmp : "");
    free(tmp);
    return FILE_REPLACE_FAILED;
  }
  free(tmp);
  dir_sync(path);
  return FILE_REPLACE_OK;
}
