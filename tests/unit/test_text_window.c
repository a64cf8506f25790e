/* test_text_window.c - a mapped input's pages go back behind its readers and come back with the
 * same bytes; bytes of their own (read, not mapped) are never given back (they would read as
 * zeros). Residency is read from /proc/self/statm: mincore would tell the page cache's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "text_window.h"
#include "unit.h"

#define MIB ((size_t)1 << 20)

/* A sanitizer's shadow memory moves the resident size as the text is read: there only the
 * bytes are checked */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RSS_CHECKED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || __has_feature(thread_sanitizer)
#define RSS_CHECKED 0
#endif
#endif
#ifndef RSS_CHECKED
#define RSS_CHECKED 1
#endif
#define TEXT_SIZE (24 * MIB + 123)

static char path[] = "/tmp/mdl-text-window.XXXXXX";

static unsigned char byte_at(size_t i)
{
  return (unsigned char)('a' + (i * 7 + i / 4096) % 26);
}

/* Resident memory of the process, in bytes. */
static size_t resident(void)
{
  unsigned long size = 0, res = 0;
  FILE *f;
  f = fopen("/proc/self/statm", "r");
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(fscanf(f, "%lu %lu", &size, &res), 2);
  fclose(f);
  return (size_t)res * (size_t)sysconf(_SC_PAGESIZE);
}

/* The resident size is at least `less` below `before` (RSS_CHECKED: a sanitizer's shadow memory
 * moves it, and there only the bytes are checked) */
#define ck_assert_resident_below(before, less)                                                    \
  do {                                                                                           \
    if (RSS_CHECKED)                                                                             \
      ck_assert_uint_le(resident() + (less), (before));                                         \
  } while (0)

/* 1 when [from, to) of data holds the pattern; reads every byte (brings the pages in) */
static int holds(const unsigned char *data, size_t from, size_t to)
{
  for (size_t i = from; i < to; i++)
    if (data[i] != byte_at(i))
      return 0;
  return 1;
}

static void setup(void)
{
  int fd = mkstemp(path);
  FILE *f;
  ck_assert_int_ge(fd, 0);
  f = fdopen(fd, "wb");
  ck_assert_ptr_nonnull(f);
  for (size_t i = 0; i < TEXT_SIZE; i++)
    putc(byte_at(i), f);
  ck_assert_int_eq(fclose(f), 0);
}

static void teardown(void)
{
  unlink(path);
}

START_TEST(test_mapped_pages_go_back_and_return)
{
  struct mdl_input in;
  struct text_window w;
  size_t before;
  ck_assert_int_eq(input_open(path, &in, 0), 0);
  ck_assert_ptr_nonnull(in.mapped); /* a regular file this large is mapped */
  text_window_init(&w, &in);
  ck_assert(holds(in.data, 0, in.size));
  before = resident();
  /* a parser 12 MiB in: what is behind goes back */
  text_window_done(&w, in.data, 12 * MIB);
  ck_assert_resident_below(before, 11 * MIB);
  /* read again, the same bytes */
  ck_assert(holds(in.data, 0, 12 * MIB));
  /* re-reads said to the window: past 8 MiB of them, they go back too */
  before = resident();
  for (size_t at = 0; at < 12 * MIB; at += 4096)
    text_window_reread(&w, in.data, at, 4096);
  ck_assert_resident_below(before, 7 * MIB);
  /* another text (an inflated one) is not the window's: nothing goes back */
  ck_assert(holds(in.data, 0, in.size));
  before = resident();
  text_window_done(&w, in.data + 1, in.size);
  text_window_reread(&w, in.data + 1, 0, in.size - 1);
  if (RSS_CHECKED)
    ck_assert_uint_ge(resident() + MIB, before);
  text_window_close(&w);
  ck_assert(holds(in.data, 0, in.size));
  input_close(&in);
}
END_TEST

START_TEST(test_bytes_of_their_own_stay)
{
  struct mdl_input in, own = {0};
  struct text_window w;
  ck_assert_int_eq(input_open(path, &in, 0), 0);
  ck_assert_int_eq(input_own(&in), 0); /* held in memory of its own, as standard input is */
  text_window_init(&w, &in);
  text_window_done(&w, in.data, in.size);
  text_window_reread(&w, in.data, 0, in.size);
  text_window_close(&w);
  ck_assert(holds(in.data, 0, in.size));
  /* a caller's buffer (mdl_validate_buffer): no mapping of ours */
  own.data = in.data;
  own.size = in.size;
  text_window_init(&w, &own);
  text_window_close(&w);
  ck_assert(holds(in.data, 0, in.size));
  input_close(&in);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("text_window");
  TCase *tc = tcase_create("core");
  tcase_add_unchecked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_mapped_pages_go_back_and_return);
  tcase_add_test(tc, test_bytes_of_their_own_stay);
  suite_add_tcase(s, tc);
  return unit_run(s);
}
