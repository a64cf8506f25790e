/* bench_text.c - the floor for reading a text format: map the file and split it into tokens
 * (runs of bytes other than space, tab, CR, LF, braces; a quoted string is one token), and with
 * `strtod` also convert every token that starts like a number with the C library's strtod.
 * mdlcheck on IQE and egg must beat the strtod variant: it lexes, parses and checks, and
 * converts numbers with a correct fast path.
 *
 * usage: bench_text tokens|strtod FILE */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_space(unsigned char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '{' || c == '}';
}

int main(int argc, char **argv)
{
  struct stat st;
  const char *p;
  size_t n, i = 0, tokens = 0, numbers = 0;
  double sum = 0;
  int convert, fd;

  if (argc != 3 || (strcmp(argv[1], "tokens") && strcmp(argv[1], "strtod"))) {
    fprintf(stderr, "usage: bench_text tokens|strtod FILE\n");
    return 2;
  }
  convert = !strcmp(argv[1], "strtod");
  fd = open(argv[2], O_RDONLY);
  if (fd < 0 || fstat(fd, &st) != 0) {
    fprintf(stderr, "bench_text: %s: %s\n", argv[2], strerror(errno));
    return 3;
  }
  n = (size_t)st.st_size;
  p = n ? mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
  if (n && p == MAP_FAILED) {
    fprintf(stderr, "bench_text: mmap %s: %s\n", argv[2], strerror(errno));
    return 3;
  }
  while (i < n) {
    size_t start;
    unsigned char c = (unsigned char)p[i];
    if (is_space(c)) {
      i++;
      continue;
    }
    start = i;
    if (c == '"') {
      const char *q = memchr(p + i + 1, '"', n - i - 1);
      i = q ? (size_t)(q - p) + 1 : n;
    } else {
      while (i < n && !is_space((unsigned char)p[i]))
        i++;
    }
    tokens++;
    if (convert && ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.')) {
      char tmp[64];
      size_t len = i - start;
      /* strtod stops at the whitespace after the token; copy only a token that ends the file */
      if (i < n) {
        sum += strtod(p + start, NULL);
      } else if (len < sizeof tmp) {
        memcpy(tmp, p + start, len);
        tmp[len] = 0;
        sum += strtod(tmp, NULL);
      }
      numbers++;
    }
  }
  printf("%zu bytes, %zu tokens, %zu numbers, sum %g\n", n, tokens, numbers, sum);
  if (n)
    munmap((void *)p, n);
  close(fd);
  return 0;
}
