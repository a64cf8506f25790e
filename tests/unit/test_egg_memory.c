/* test_egg_memory.c - what an Egg validation keeps, counted in the bytes of the model's arena
 * (deterministic, unlike the peak RSS `make bench` measures): locating a value costs no index of
 * every line, and a vertex costs a bounded number of bytes. */
#include <string.h>

#include "pipeline.h"
#include "unit.h"

/* Validation only (no frames kept), as `mdlcheck FILE` decodes. */
static size_t arena_after(const char *text, size_t len, struct pipeline_run *run)
{
  mdl_options o;
  mdl_options_init(&o);
  ck_assert_int_eq(pipeline_decode(text, len, "t.egg", &o, 0, run), MDL_OK);
  ck_assert(run->decoded);
  return run->model.arena.used_total;
}

static char *text_new(size_t cap)
{
  char *t = malloc(cap);
  ck_assert_ptr_nonnull(t);
  return t;
}

/* The texture's file name is recorded with its line:column on every run (--resources reads it):
 * finding it must not index the lines of the whole file (8 bytes a line and a pass over it). */
START_TEST(texture_location_indexes_no_lines)
{
  enum { LINES = 200000 };
  static const char head[] = "<CoordinateSystem> { Z-up }\n<Texture> t { \"a.png\" }\n";
  char *text = text_new(sizeof head + LINES);
  struct pipeline_run run;
  size_t used;
  memcpy(text, head, sizeof head - 1);
  memset(text + sizeof head - 1, '\n', LINES);
  used = arena_after(text, sizeof head - 1 + LINES, &run);
  ck_assert_uint_eq(run.model.num_refs, 1);
  ck_assert_uint_eq(run.model.refs[0].line, 2);
  ck_assert_uint_eq(run.model.refs[0].column, 15);
  ck_assert_msg(used < LINES * 2, "%zu arena bytes for %d blank lines", used, LINES);
  pipeline_release(&run);
  free(text);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("egg_memory");
  TCase *tc = tcase_create("validate");
  tcase_add_test(tc, texture_location_indexes_no_lines);
  suite_add_tcase(s, tc);
  return unit_run(s);
}
