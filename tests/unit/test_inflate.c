/* test_inflate.c - the library's own inflater (core/inflate.c, stb_image's decoder: the
 * WebAssembly build's, which has no zlib) against zlib's streams: zlib and gzip wrappers, gzip
 * header fields, where the stream ends before trailing bytes or a second member, the bound,
 * and streams that must not inflate (truncated, corrupt, a checksum that does not hold). */
#include <string.h>
#include <zlib.h>

#include "arena.h"
#include "input.h"
#include "unit.h"

static unsigned char text[20000];
static unsigned char packed[40000];

static void make_text(void)
{
  for (size_t i = 0; i < sizeof text; i++)
    text[i] = (unsigned char)("<Vertex> 0 { 1 2 3 }\n"[i % 21] + (i % 997 == 0));
}

/* text deflated into packed with zlib's wrapper (bits 15), or gzip's (bits 31) */
static size_t pack(int bits)
{
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  ck_assert_int_eq(deflateInit2(&zs, 9, Z_DEFLATED, bits, 8, Z_DEFAULT_STRATEGY), Z_OK);
  zs.next_in = text;
  zs.avail_in = sizeof text;
  zs.next_out = packed;
  zs.avail_out = sizeof packed;
  ck_assert_int_eq(deflate(&zs, Z_FINISH), Z_STREAM_END);
  deflateEnd(&zs);
  return zs.total_out;
}

static int run(const unsigned char *d, size_t n, size_t stop, size_t *len, size_t *consumed,
               const char **why)
{
  unsigned char *out = NULL;
  int rc = input_inflate(d, n, stop, &out, len, consumed, why);
  if (rc == 0 && *len <= sizeof text)
    ck_assert_mem_eq(out, text, *len);
  if (rc == 0) /* a zero after the text: egg_pz.c keeps this buffer as the document's text */
    ck_assert_int_eq(out[*len], 0);
  free(out);
  return rc;
}

START_TEST(zlib_and_gzip)
{
  size_t len, consumed;
  const char *why;
  for (int bits = 15; bits <= 31; bits += 16) {
    size_t n = pack(bits);
    ck_assert_int_eq(run(packed, n, sizeof text + 1, &len, &consumed, &why), 0);
    ck_assert_uint_eq(len, sizeof text);
    ck_assert_uint_eq(consumed, n);
  }
}
END_TEST

START_TEST(gzip_header_fields)
{
  /* a member with FNAME and FCOMMENT: its deflate data starts past both */
  size_t n = pack(31), len, consumed;
  const char *why;
  static const unsigned char extra[] = "dancer.egg\0a comment\0";
  memmove(packed + 10 + sizeof extra - 1, packed + 10, n - 10);
  memcpy(packed + 10, extra, sizeof extra - 1);
  packed[3] |= 8 | 16;
  n += sizeof extra - 1;
  ck_assert_int_eq(run(packed, n, sizeof text + 1, &len, &consumed, &why), 0);
  ck_assert_uint_eq(len, sizeof text);
  ck_assert_uint_eq(consumed, n);
  packed[3] |= 0x80; /* a reserved flag */
  ck_assert_int_eq(run(packed, n, sizeof text + 1, &len, &consumed, &why), -1);
}
END_TEST

START_TEST(trailing_and_second_member)
{
  size_t n = pack(15), len, consumed;
  const char *why;
  memcpy(packed + n, "junk", 4);
  ck_assert_int_eq(run(packed, n + 4, sizeof text + 1, &len, &consumed, &why), 0);
  ck_assert_uint_eq(consumed, n);
  n = pack(31);
  memcpy(packed + n, packed, n); /* two members of the same text: the first one ends at n */
  ck_assert_int_eq(run(packed, 2 * n, sizeof text + 1, &len, &consumed, &why), 0);
  ck_assert_uint_eq(len, sizeof text);
  ck_assert_uint_eq(consumed, n);
}
END_TEST

START_TEST(bound)
{
  size_t n = pack(15), len, consumed;
  const char *why;
  /* a text longer than stop bytes is only said to be (the caller reports it too large) */
  ck_assert_int_eq(run(packed, n, 1001, &len, &consumed, &why), -3);
  ck_assert_int_eq(run(packed, n, sizeof text - 1, &len, &consumed, &why), -3);
  ck_assert_int_eq(run(packed, n, sizeof text, &len, &consumed, &why), 0);
  ck_assert_uint_eq(len, sizeof text);
}
END_TEST

START_TEST(not_inflating)
{
  size_t n = pack(15), len, consumed;
  const char *why = NULL;
  ck_assert_int_eq(run(packed, n - 10, sizeof text + 1, &len, &consumed, &why), -1);
  ck_assert_ptr_nonnull(strstr(why, "does not inflate"));
  packed[n - 1] ^= 1; /* the Adler-32 */
  ck_assert_int_eq(run(packed, n, sizeof text + 1, &len, &consumed, &why), -1);
  ck_assert_ptr_nonnull(strstr(why, "Adler-32"));
  memset(packed + 20, 0x55, 30);
  ck_assert_int_eq(run(packed, 50, sizeof text + 1, &len, &consumed, &why), -1);
  n = pack(31);
  packed[n - 8] ^= 1; /* the CRC-32 */
  ck_assert_int_eq(run(packed, n, sizeof text + 1, &len, &consumed, &why), -1);
  ck_assert_ptr_nonnull(strstr(why, "CRC-32"));
  ck_assert_int_eq(run(packed, 5, sizeof text + 1, &len, &consumed, &why), -1);
}
END_TEST

/* the inflated text handed to an arena (egg_pz.c without zlib) is read there and freed with it
 * (a sanitizer build sees a leak or a double free) */
START_TEST(kept_by_an_arena)
{
  struct arena a;
  unsigned char *out = NULL, *small;
  size_t n = pack(15), len, consumed;
  const char *why;
  arena_init(&a);
  ck_assert_int_eq(input_inflate(packed, n, sizeof text + 1, &out, &len, &consumed, &why), 0);
  ck_assert_int_eq(arena_own(&a, out), 0);
  small = arena_calloc(&a, 16, 1); /* the record shares the arena's blocks */
  ck_assert_ptr_nonnull(small);
  ck_assert_mem_eq(out, text, len);
  ck_assert_int_eq(out[len], 0);
  arena_free(&a);
  ck_assert_ptr_null(a.owned);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("inflate");
  TCase *tc = tcase_create("core");
  make_text();
  tcase_add_test(tc, zlib_and_gzip);
  tcase_add_test(tc, gzip_header_fields);
  tcase_add_test(tc, trailing_and_second_member);
  tcase_add_test(tc, bound);
  tcase_add_test(tc, not_inflating);
  tcase_add_test(tc, kept_by_an_arena);
  suite_add_tcase(s, tc);
  return unit_run(s);
}

