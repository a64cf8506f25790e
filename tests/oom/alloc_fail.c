/* alloc_fail.c - fail the Nth allocation, as jansson's and SQLite's test builds do, to prove
 * that every allocation failure ends in a diagnostic or a clear error, never a clean verdict.
 *
 * Linked with --wrap, every malloc/calloc/realloc/strdup call in the program's own objects
 * comes here; zlib and jansson allocate through functions the code names (egg_pz.c,
 * report_read.c), so they are counted too. libyaml's and libc's internal allocations are not,
 * except the buffer realpath(path, NULL) and getcwd(NULL, 0) allocate: each such call counts as
 * one allocation and fails with ENOMEM as libc's would. */
#include <errno.h>
#include <execinfo.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_fail.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);
char *__wrap_strdup(const char *s);
char *__real_realpath(const char *path, char *resolved);
char *__wrap_realpath(const char *path, char *resolved);
char *__real_getcwd(char *buf, size_t size);
char *__wrap_getcwd(char *buf, size_t size);

static atomic_ulong counted;
static atomic_ulong fail_at;
static atomic_int configured;

static void report_count(void)
{
  fprintf(stderr, "alloc_fail: %lu allocations\n", atomic_load(&counted));
}

static void configure(void)
{
  const char *n = getenv("MDL_ALLOC_FAIL");
  if (atomic_exchange(&configured, 1))
    return;
  if (n)
    atomic_store(&fail_at, strtoul(n, NULL, 10));
  if (getenv("MDL_ALLOC_COUNT"))
    atexit(report_count);
}

/* 1 when this allocation is the one to fail. */
static int should_fail(void)
{
  unsigned long n;
  if (!atomic_load(&configured))
    configure();
  n = atomic_fetch_add(&counted, 1) + 1;
  if (n != atomic_load(&fail_at))
    return 0;
  if (getenv("MDL_ALLOC_TRACE")) {
    /* where the failed allocation was made, for addr2line (alloc-fail.sh prints it on a failure) */
    void *frames[24];
    backtrace_symbols_fd(frames, backtrace(frames, 24), 2);
  }
  return 1;
}

void alloc_fail_arm(unsigned long nth)
{
  atomic_store(&configured, 1);
  atomic_store(&counted, 0);
  atomic_store(&fail_at, nth);
}

unsigned long alloc_fail_count(void)
{
  return atomic_load(&counted);
}

void *__wrap_malloc(size_t size)
{
  return should_fail() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
  return should_fail() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
  return should_fail() ? NULL : __real_realloc(p, size);
}

char *__wrap_strdup(const char *s)
{
  size_t n = strlen(s) + 1;
  char *d = __wrap_malloc(n);
  if (d)
    memcpy(d, s, n);
  return d;
}

char *__wrap_realpath(const char *path, char *resolved)
{
  if (!resolved && should_fail()) {
    errno = ENOMEM;
    return NULL;
  }
  return __real_realpath(path, resolved);
}

char *__wrap_getcwd(char *buf, size_t size)
{
  if (!buf && should_fail()) {
    errno = ENOMEM;
    return NULL;
  }
  return __real_getcwd(buf, size);
}
