/* input.c - mapped or read-once input. */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int read_all(int fd, struct mdl_input *in)
{
  size_t cap = 65536, size = 0;
  unsigned char *p = malloc(cap);
  if (!p)
    return ENOMEM;
  for (;;) {
    ssize_t n;
    if (size == cap) {
      unsigned char *q = cap > (size_t)-1 / 2 ? NULL : realloc(p, cap * 2);
      if (!q) {
        free(p);
        return ENOMEM;
      }
      p = q;
      cap *= 2;
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
  in->owned = p;
  in->data = p;
  in->size = size;
  return 0;
}

int input_open(const char *path, struct mdl_input *in)
{
  struct stat st;
  int fd, err = 0;
  memset(in, 0, sizeof *in);
  if (!strcmp(path, "-"))
    return read_all(STDIN_FILENO, in);
  fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return errno;
  if (fstat(fd, &st) < 0) {
    err = errno;
  } else if (S_ISDIR(st.st_mode)) {
    err = EISDIR;
  } else if (S_ISREG(st.st_mode) && st.st_size > 0) {
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) {
      err = read_all(fd, in);
    } else {
      in->mapped = m;
      in->mapped_size = (size_t)st.st_size;
      in->data = m;
      in->size = (size_t)st.st_size;
    }
  } else if (S_ISREG(st.st_mode)) {
    in->data = (const unsigned char *)"";
    in->size = 0;
  } else {
    err = read_all(fd, in);
  }
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
