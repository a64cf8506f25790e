/* bench_baseline.c - the floor for reading a file: map it and sum it as 8-byte words.
 * mdlcheck's time on the same file, divided by this, is what validation costs over touching
 * every byte once. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
  struct stat st;
  const unsigned char *p;
  uint64_t sum = 0, tail = 0;
  size_t n, i;
  int fd;

  if (argc != 2) {
    fprintf(stderr, "usage: bench_baseline FILE\n");
    return 2;
  }
  fd = open(argv[1], O_RDONLY);
  if (fd < 0 || fstat(fd, &st) != 0) {
    fprintf(stderr, "bench_baseline: %s: %s\n", argv[1], strerror(errno));
    return 3;
  }
  n = (size_t)st.st_size;
  p = n ? mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
  if (n && p == MAP_FAILED) {
    fprintf(stderr, "bench_baseline: mmap %s: %s\n", argv[1], strerror(errno));
    return 3;
  }
  for (i = 0; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, sizeof w);
    sum += w;
  }
  for (; i < n; i++)
    tail = tail << 8 | p[i];
  printf("%zu bytes, sum %016llx\n", n, (unsigned long long)(sum + tail));
  if (n)
    munmap((void *)p, n);
  close(fd);
  return 0;
}
