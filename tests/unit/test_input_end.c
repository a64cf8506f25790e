/* test_input_end.c - every public entry reads nothing past its input's last byte: each input
 * ends exactly where a PROT_NONE page begins, so a read one byte too far is a SIGSEGV in the
 * plain build (check forks each test and reports it), not only an ASan finding. The AFL++
 * every_iqe smoke run found one: the IQE locator (compare's and the proof's line index) read
 * the first byte of a quoted token that was empty at the input's end (`"` as the whole file). */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mdlcheck.h"
#include "unit.h"

/* A copy of size bytes ending at a guard page; *map receives the mapping to release. */
static const unsigned char *at_guard(const char *bytes, size_t size, void **map, size_t *map_size)
{
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  unsigned char *m;
  ck_assert_uint_le(size, page);
  m = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert_ptr_ne(m, MAP_FAILED);
  ck_assert_int_eq(mprotect(m + page, page, PROT_NONE), 0);
  memcpy(m + page - size, bytes, size);
  *map = m;
  *map_size = 2 * page;
  return m + page - size;
}

/* Short inputs that end inside a token, a string, a comment or a header. */
static const char *const endings[] = {
  "\"", "\"#", "#", "<", "{", "\\", "v", "vp 1", "\"a", "<Group> \"", "# Inter-Quake Export\n\"",
  "# Inter-Quake Export\nmesh \"", "# Inter-Quake Export\nvp 1 2", "<CoordinateSystem> { Z",
  "INTERQUAKEMODEL", "QMSH", "X42",
};

/* Every entry on every ending, read as every format: validate, poses, model, compare, fix and
 * convert to every format. Each must answer (any status); reaching the end is the assertion
 * that nothing read past the input, and the statuses are checked to be ones the API documents. */
START_TEST(test_nothing_read_past_the_end)
{
  const char *const *formats = mdl_format_names();
  size_t answered = 0, nformats = 0;
  ck_assert_ptr_nonnull(formats);
  while (formats[nformats])
    nformats++;
  ck_assert_uint_ge(nformats, 1);
  for (size_t e = 0; e < sizeof endings / sizeof *endings; e++) {
    for (size_t f = 0; formats[f]; f++) {
      char assume[64];
      const char *settings[2] = {assume, NULL};
      void *map, *out = NULL;
      size_t map_size, out_size = 0, size = strlen(endings[e]);
      const unsigned char *in = at_guard(endings[e], size, &map, &map_size);
      mdl_status st = MDL_EINTERNAL;
      char err[256];
      snprintf(assume, sizeof assume, "assume_format=%s", formats[f]);
      mdl_string_free(mdl_validate_buffer_json(in, size, "in", settings, &st, err, sizeof err));
      ck_assert_int_eq(st, MDL_OK); /* a report, whatever the verdict */
      mdl_string_free(mdl_poses_buffer_json(in, size, "in", settings, &st, err, sizeof err));
      ck_assert(st == MDL_OK || st == MDL_EDECODE);
      mdl_string_free(mdl_model_buffer_json(in, size, "in", settings, &st, err, sizeof err));
      ck_assert(st == MDL_OK || st == MDL_EDECODE);
      mdl_string_free(mdl_compare_buffers_json(in, size, "a", in, size, "b", settings, &st, err, sizeof err));
      ck_assert(st == MDL_OK || st == MDL_EDECODE);
      mdl_string_free(mdl_fix_buffer_json(in, size, "in", settings, &out, &out_size, &st, err, sizeof err));
      ck_assert(st == MDL_OK || st == MDL_EDECODE);
      mdl_bytes_free(out);
      for (size_t t = 0; formats[t]; t++) {
        out = NULL;
        mdl_string_free(mdl_convert_buffer_json(in, size, "in", formats[t], settings, &out, &out_size,
                                                &st, err, sizeof err));
        ck_assert(st == MDL_OK || st == MDL_EDECODE);
        mdl_bytes_free(out);
      }
      munmap(map, map_size);
      answered++;
    }
  }
  ck_assert_uint_eq(answered, (sizeof endings / sizeof *endings) * nformats);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("input_end");
  TCase *t = tcase_create("guard");
  tcase_set_timeout(t, 120);
  tcase_add_test(t, test_nothing_read_past_the_end);
  suite_add_tcase(s, t);
  return unit_run(s);
}
