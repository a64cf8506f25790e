/* input.c - mapped or read-once input, bounded by the caller's size limit. */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Below this size a regular file is read rather than mapped: mapping costs a page fault per page
 * and, in a process with several threads, an unmapping that interrupts every other core running
 * one of them (TLB shootdown) and serialises on the address-space lock. For the many small files
 * of a batch that made -j 2 slower than -j 1; reading them copies little. */
#define INPUT_READ_BELOW 65536

/* Read until end of input or until more than limit bytes came (EFBIG): reading limit + 1 bytes
 * is how a stream shows it is too long without being read to its (maybe never) end. hint: the
 * size expected (a regular file's), so one read of hint + 1 bytes usually finds the end. */
static int read_all(int fd, struct mdl_input *in, size_t limit, size_t hint)
{
  size_t stop = limit < SIZE_MAX ? limit + 1 : SIZE_MAX;
  size_t want = hint && hint < stop - 1 ? hint + 1 : 65536;
  size_t cap = stop < want ? stop : want, size = 0;
  unsigned char *p = malloc(cap);
  if (!p)
    return ENOMEM;
  for (;;) {
    ssize_t n;
    if (size == cap) {
      size_t ncap;
      unsigned char *q;
      if (cap >= stop) {
        free(p);
        return EFBIG;
      }
      ncap = cap > stop / 2 ? stop : cap * 2;
      q = realloc(p, ncap);
      if (!q) {
        free(p);
        return ENOMEM;
      }
      p = q;
      cap = ncap;
    }
    n = read(fd, p + size, cap - size);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      free(p);
      return errno;
    }
    if (n == 0)
      break;
    size += (size_t)n;
  }
  if (size > limit) {
    free(p);
    return EFBIG;
  }
  in->owned = p;
  in->data = p;
  in->size = size;
  return 0;
}

unsigned long long input_limit(const mdl_options *options)
{
  return options && options->max_input_size ? options->max_input_size : MDL_DEFAULT_MAX_INPUT_SIZE;
}

int input_open(const char *path, struct mdl_input *in, unsigned long long max_size)
{
  struct stat st;
  int fd, err = 0;
  size_t limit;
  memset(in, 0, sizeof *in);
  if (!max_size)
    max_size = MDL_DEFAULT_MAX_INPUT_SIZE;
  limit = max_size < SIZE_MAX ? (size_t)max_size : SIZE_MAX;
  if (!strcmp(path, "-"))
    return read_all(STDIN_FILENO, in, limit, 0);
  /* O_NONBLOCK: opening a FIFO that no process writes would wait for a writer for ever (a walk
   * meeting one, or a path given by mistake); opened at once, it reads as empty. It is cleared
   * again, so a pipe with a writer (`<(gzip -dc m.egg.gz)`) is read to its end as before. */
  fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return errno;
  if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
    err = errno;
  } else if (fstat(fd, &st) < 0) {
    err = errno;
  } else if (S_ISDIR(st.st_mode)) {
    err = EISDIR;
  } else if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > max_size) {
    err = EFBIG;
  } else if (S_ISREG(st.st_mode) && st.st_size > 0 && st.st_size < INPUT_READ_BELOW) {
    err = read_all(fd, in, limit, (size_t)st.st_size);
  } else if (S_ISREG(st.st_mode) && st.st_size > 0) {
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) {
      err = read_all(fd, in, limit, (size_t)st.st_size);
    } else {
      in->mapped = m;
      in->mapped_size = (size_t)st.st_size;
      in->data = m;
      in->size = (size_t)st.st_size;
    }
  } else if (S_ISREG(st.st_mode)) {
    /* a regular file of size 0 may still have content (/proc): read it, bounded */
    err = read_all(fd, in, limit, 0);
  } else {
    err = read_all(fd, in, limit, 0);
  }
  close(fd);
  return err;
}

int input_open_regular(const char *path, struct mdl_input *in, unsigned long long max_size)
{
  struct stat st;
  int fd, flags, err;
  memset(in, 0, sizeof *in);
  /* O_NONBLOCK: opening a FIFO for reading waits for a writer; a device may wait for a line */
  fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0)
    return errno;
  if (fstat(fd, &st) < 0) {
    err = errno;
    close(fd);
    return err;
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return -(int)(st.st_mode & S_IFMT); /* INPUT_NOT_REGULAR: the kind for input_error_text */
  }
  if (!max_size)
    max_size = MDL_DEFAULT_MAX_INPUT_SIZE;
  if ((unsigned long long)st.st_size > max_size) {
    close(fd);
    return EFBIG;
  }
  /* a regular file never blocks, but reads are plain ones again (EAGAIN is no answer to give) */
  if ((flags = fcntl(fd, F_GETFL)) >= 0)
    fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  err = read_all(fd, in, max_size < SIZE_MAX ? (size_t)max_size : SIZE_MAX, (size_t)st.st_size);
  close(fd);
  return err;
}

void input_close(struct mdl_input *in)
{
  if (in->mapped)
    munmap(in->mapped, in->mapped_size);
  free(in->owned);
  memset(in, 0, sizeof *in);
}

void input_idle(struct mdl_input *in)
{
#ifdef MADV_DONTNEED
  if (in->mapped)
    (void)madvise(in->mapped, in->mapped_size, MADV_DONTNEED); /* advice: a refusal keeps them */
#else
  (void)in;
#endif
}

int input_own(struct mdl_input *in)
{
  unsigned char *p;
  if (!in->mapped)
    return 0;
  p = malloc(in->size ? in->size : 1);
  if (!p)
    return ENOMEM;
  memcpy(p, in->data, in->size);
  munmap(in->mapped, in->mapped_size);
  in->mapped = NULL;
  in->mapped_size = 0;
  in->owned = p;
  in->data = p;
  return 0;
}

int input_limit_parse(const char *s, unsigned long long *out)
{
  unsigned long long v = 0, unit = 1;
  const char *p = s;
  if (!s || *s < '0' || *s > '9')
    return -1;
  for (; *p >= '0' && *p <= '9'; p++) {
    if (v > (~0ULL - (unsigned)(*p - '0')) / 10)
      return -1;
    v = v * 10 + (unsigned)(*p - '0');
  }
  switch (*p | 0x20) {
  case 'k': unit = 1ULL << 10; p++; break;
  case 'm': unit = 1ULL << 20; p++; break;
  case 'g': unit = 1ULL << 30; p++; break;
  case 't': unit = 1ULL << 40; p++; break;
  default: break;
  }
  if (unit > 1 && (*p | 0x20) == 'i' && (p[1] | 0x20) == 'b')
    p += 2;
  else if ((*p | 0x20) == 'b')
    p++;
  if (*p || v == 0 || v > ~0ULL / unit)
    return -1;
  *out = v * unit;
  return 0;
}

const char *input_error_text(int err, unsigned long long max_size, char *buf, size_t cap)
{
  if (err < 0) {
    const char *kind;
    switch ((unsigned)-err) {
    case S_IFIFO: kind = "a FIFO"; break;
    case S_IFDIR: kind = "a directory"; break;
    case S_IFCHR: kind = "a character device"; break;
    case S_IFBLK: kind = "a block device"; break;
    case S_IFSOCK: kind = "a socket"; break;
    default: kind = "no regular file"; break;
    }
    snprintf(buf, cap, "not a regular file (%s); refused unread", kind);
    return buf;
  }
  if (err != EFBIG)
    return strerror(err);
  snprintf(buf, cap, "larger than the input size limit of %llu bytes (--max-input-size)",
           max_size ? max_size : MDL_DEFAULT_MAX_INPUT_SIZE);
  return buf;
}
