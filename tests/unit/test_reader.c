/* test_reader.c - the bounded reader: ranges with 64-bit arithmetic, little-endian loads, the
 * overrun flag instead of out-of-bounds access, the sequential cursor, half floats. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "reader.h"
#include "unit.h"

static const unsigned char bytes[12] = {
  0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x00, 0x00, 0x80, 0x3f /* 1.0f */
};

START_TEST(test_has_bounds)
{
  struct reader r;
  reader_init(&r, bytes, sizeof bytes);
  ck_assert_int_eq(reader_has(&r, 0, 12), 1);
  ck_assert_int_eq(reader_has(&r, 12, 0), 1); /* the empty range at the end is inside */
  ck_assert_int_eq(reader_has(&r, 11, 1), 1);
  ck_assert_int_eq(reader_has(&r, 11, 2), 0);
  ck_assert_int_eq(reader_has(&r, 13, 0), 0);
  /* offset + length would wrap around in 64 bits */
  ck_assert_int_eq(reader_has(&r, 4, UINT64_MAX - 2), 0);
  ck_assert_int_eq(reader_has(&r, UINT64_MAX, 2), 0);
  ck_assert_int_eq(r.overrun, 0); /* asking is not reading */
}
END_TEST

START_TEST(test_has_array_overflow)
{
  struct reader r;
  reader_init(&r, bytes, sizeof bytes);
  ck_assert_int_eq(reader_has_array(&r, 0, 3, 4), 1);
  ck_assert_int_eq(reader_has_array(&r, 4, 3, 4), 0);
  ck_assert_int_eq(reader_has_array(&r, 0, 0, 1000), 1);
  ck_assert_int_eq(reader_has_array(&r, 12, 5, 0), 1);
  /* count * elem wraps to a small number: must still be refused */
  ck_assert_int_eq(reader_has_array(&r, 0, (UINT64_MAX / 4) + 2, 4), 0);
  ck_assert_int_eq(reader_has_array(&r, 0, UINT64_C(1) << 62, 8), 0);
}
END_TEST

START_TEST(test_little_endian_loads)
{
  struct reader r;
  reader_init(&r, bytes, sizeof bytes);
  ck_assert_uint_eq(reader_u8_at(&r, 3), 0x04);
  ck_assert_uint_eq(reader_u16_at(&r, 0), 0x0201);
  ck_assert_uint_eq(reader_u32_at(&r, 0), 0x04030201u);
  ck_assert_uint_eq(reader_u64_at(&r, 0), UINT64_C(0x0807060504030201));
  ck_assert_int_eq(reader_i32_at(&r, 8), 0x3f800000);
  ck_assert(reader_f32_at(&r, 8) == 1.0f);
  ck_assert_int_eq(r.overrun, 0);
}
END_TEST

START_TEST(test_overrun_reads_zero)
{
  struct reader r;
  reader_init(&r, bytes, sizeof bytes);
  ck_assert_uint_eq(reader_u32_at(&r, 9), 0); /* straddles the end */
  ck_assert_int_eq(r.overrun, 1);
  reader_init(&r, bytes, sizeof bytes);
  ck_assert_uint_eq(reader_u64_at(&r, UINT64_MAX - 3), 0);
  ck_assert_int_eq(r.overrun, 1);
  reader_init(&r, bytes, sizeof bytes);
  ck_assert_ptr_null(reader_ptr(&r, 12, 1));
  ck_assert_int_eq(r.overrun, 1);
  reader_init(&r, bytes, sizeof bytes);
  ck_assert_ptr_eq(reader_ptr(&r, 4, 8), bytes + 4);
  ck_assert_int_eq(r.overrun, 0);
}
END_TEST

START_TEST(test_empty_buffer)
{
  struct reader r;
  reader_init(&r, NULL, 0);
  ck_assert_int_eq(reader_has(&r, 0, 0), 1);
  ck_assert_uint_eq(reader_u8(&r), 0);
  ck_assert_int_eq(r.overrun, 1);
  ck_assert_uint_eq(reader_remaining(&r), 0);
}
END_TEST

START_TEST(test_sequential_cursor)
{
  struct reader r;
  reader_init(&r, bytes, sizeof bytes);
  ck_assert_uint_eq(reader_u8(&r), 0x01);
  ck_assert_uint_eq(reader_u16(&r), 0x0302);
  ck_assert_uint_eq(r.pos, 3);
  ck_assert_uint_eq(reader_remaining(&r), 9);
  ck_assert_int_eq(reader_skip(&r, 5), 1);
  ck_assert(reader_f32(&r) == 1.0f); /* bytes 8..11 */
  ck_assert_uint_eq(r.pos, 12);
  ck_assert_int_eq(r.overrun, 0);
  /* past the end: zero, flagged, and the cursor still moves so loops terminate */
  ck_assert_uint_eq(reader_u32(&r), 0);
  ck_assert_int_eq(r.overrun, 1);
  ck_assert_uint_eq(r.pos, 16);
  ck_assert_uint_eq(reader_remaining(&r), 0);
}
END_TEST

START_TEST(test_skip_past_end)
{
  struct reader r;
  reader_init(&r, bytes, sizeof bytes);
  ck_assert_int_eq(reader_skip(&r, 12), 1);
  ck_assert_int_eq(r.overrun, 0);
  reader_init(&r, bytes, sizeof bytes);
  ck_assert_int_eq(reader_skip(&r, 13), 0);
  ck_assert_int_eq(r.overrun, 1);
  ck_assert_uint_eq(r.pos, 12);
  reader_init(&r, bytes, sizeof bytes);
  r.pos = 4;
  ck_assert_int_eq(reader_skip(&r, UINT64_MAX), 0);
  ck_assert_uint_eq(r.pos, 12);
}
END_TEST

START_TEST(test_half_to_float)
{
  ck_assert(half_to_float(0x0000) == 0.0f && !signbit(half_to_float(0x0000)));
  ck_assert(half_to_float(0x8000) == 0.0f && signbit(half_to_float(0x8000)));
  ck_assert(half_to_float(0x3c00) == 1.0f);
  ck_assert(half_to_float(0xc000) == -2.0f);
  ck_assert(half_to_float(0x3555) == 0.333251953125f);     /* 2^-2 * (1 + 341/1024) */
  ck_assert(half_to_float(0x7bff) == 65504.0f);            /* largest finite half */
  ck_assert(half_to_float(0x0400) == 0x1p-14f);            /* smallest normal */
  ck_assert(half_to_float(0x0001) == 0x1p-24f);            /* smallest subnormal */
  ck_assert(half_to_float(0x03ff) == 0x3ffp-24f);          /* largest subnormal */
  ck_assert(isinf(half_to_float(0x7c00)) && half_to_float(0x7c00) > 0);
  ck_assert(isinf(half_to_float(0xfc00)) && half_to_float(0xfc00) < 0);
  ck_assert(isnan(half_to_float(0x7e00)));
  ck_assert(isnan(half_to_float(0x7c01)));
}
END_TEST

int main(void)
{
  Suite *s = suite_create("reader");
  TCase *t = tcase_create("core");
  tcase_add_test(t, test_has_bounds);
  tcase_add_test(t, test_has_array_overflow);
  tcase_add_test(t, test_little_endian_loads);
  tcase_add_test(t, test_overrun_reads_zero);
  tcase_add_test(t, test_empty_buffer);
  tcase_add_test(t, test_sequential_cursor);
  tcase_add_test(t, test_skip_past_end);
  tcase_add_test(t, test_half_to_float);
  suite_add_tcase(s, t);
  return unit_run(s);
}
