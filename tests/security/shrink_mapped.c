/* shrink_mapped.c - test preload: truncate a file as soon as mdlcheck maps it, as another process might. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

/* tests/security/input-shrinks.sh preloads this. Racing a real second process against the decode
 * would pass or fail by timing; truncating right after the mapping makes every later read of the
 * mapping fault, every run. Only files whose path holds $MDL_SHRINK_PATH are touched. */
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
  static void *(*real)(void *, size_t, int, int, int, off_t);
  const char *want = getenv("MDL_SHRINK_PATH");
  void *m;
  if (!real)
    real = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
  m = real(addr, len, prot, flags, fd, off);
  if (m != MAP_FAILED && fd >= 0 && want && *want) {
    char link[64], path[4096];
    ssize_t n;
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    n = readlink(link, path, sizeof path - 1);
    if (n > 0) {
      path[n] = '\0';
      if (strstr(path, want) && truncate(path, 0) != 0)
        perror("shrink_mapped: truncate");
    }
  }
  return m;
}
